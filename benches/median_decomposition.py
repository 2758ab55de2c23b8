#!/usr/bin/env python3
"""Where the median MotionBenchMaker problem's search time goes, without an instrumented
build: a linear model of each problem's search time on how its motion checks ended.

The binary plans the Panda problems in `--rounds` rounds on one core; each problem's least
search time (`planning_ns`) is fitted, over the problems below `--cutoff` µs (the long tail is
a few hard problems whose times would set the fit), by least squares to

    time = constant + a·iterations + b·blocked_inside + c·blocked_at_end + d·refused + e·certified

with the counts of the report's `search_motions` (the same in every round: the searches are
deterministic). The coefficients are what one more item of each kind costs; the constant is
what a problem costs besides (the first motion checks on a new scene's cold caches among it).
Then, for the problems within `--band` of the median time, the mean counts and what each kind
contributes. A model, not a measurement: it credits a kind with what its counts explain, and
kinds that go together (a certified motion and the searches before it) share their time as the
fit divides it. Used in `benches/README.md` (session 60):

    python3 benches/median_decomposition.py --robocollide target/release/robocollide --rounds 6"""

import argparse
import pathlib
import statistics
import tempfile

from alternate_binaries import plan

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "vamp-data"
KINDS = ["iterations", "blocked_inside", "blocked_at_end", "refused", "certified"]


def arguments():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--robocollide", default=str(ROOT / "target" / "release" / "robocollide"))
    p.add_argument("--rounds", type=int, default=6, help="rounds (default 6)")
    p.add_argument("--cpu", type=int, default=1, help="the one core it runs on (default 1)")
    p.add_argument("--problems", default=str(DATA / "panda_mbm_problems.json"))
    p.add_argument("--cutoff", type=float, default=300.0,
                   help="fit only problems whose least time is below this (µs; default 300)")
    p.add_argument("--band", type=float, default=0.15,
                   help="the median band: within this fraction of the median (default 0.15)")
    args = p.parse_args()
    if args.rounds < 1 or args.cutoff <= 0 or not 0 < args.band < 1:
        p.error("--rounds must be at least 1, --cutoff positive, --band in (0, 1)")
    return args


def solve(matrix, vector):
    """The solution of the square system `matrix · x = vector` (Gaussian elimination with
    partial pivoting); `None` if it is singular."""
    n = len(vector)
    rows = [list(map(float, row)) + [float(v)] for row, v in zip(matrix, vector)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def least_squares(features, times):
    """Coefficients minimising the squared residuals of `times` against `features` (rows,
    each starting with the constant 1), by the normal equations."""
    k = len(features[0])
    normal = [[sum(f[i] * f[j] for f in features) for j in range(k)] for i in range(k)]
    right = [sum(f[i] * t for f, t in zip(features, times)) for i in range(k)]
    return solve(normal, right)


def main():
    args = arguments()
    least, counts = {}, {}
    with tempfile.TemporaryDirectory() as scratch:
        for r in range(args.rounds):
            report = f"{scratch}/report.json"
            for record in plan(args.robocollide, args.problems, args.cpu, report):
                motions = record.get("search_motions")
                if not record.get("solved") or motions is None:
                    continue
                key = (record["family"], record["index"])
                row = [record["iterations"]] + [motions[k] for k in KINDS[1:]]
                if counts.setdefault(key, row) != row:
                    raise SystemExit(f"{key}: counts differ between rounds: {row} against "
                                     f"{counts[key]} (the searches should be deterministic)")
                least[key] = min(least.get(key, float("inf")), record["planning_ns"] / 1e3)
            print(f"round {r + 1}/{args.rounds} done", flush=True)
    if not least:
        raise SystemExit("no solved problem reported search_motions")
    fitted = [k for k in least if least[k] < args.cutoff]
    features = [[1.0] + counts[k] for k in fitted]
    times = [least[k] for k in fitted]
    coefficients = least_squares(features, times)
    if coefficients is None:
        raise SystemExit("the counts do not determine a model (too few or collinear problems)")
    predicted = [sum(c * f for c, f in zip(coefficients, row)) for row in features]
    mean = statistics.mean(times)
    residual = sum((t - p) ** 2 for t, p in zip(times, predicted))
    total = sum((t - mean) ** 2 for t in times)
    names = ["constant"] + KINDS
    print(f"\nfit over {len(fitted)} of {len(least)} solved problems (least time below "
          f"{args.cutoff:g} µs): R² {1 - residual / total:.3f}")
    for name, c in zip(names, coefficients):
        print(f"  {name:16s} {c:8.3f} µs each")
    median = statistics.median(least.values())
    band = [k for k in least if abs(least[k] - median) <= args.band * median]
    print(f"\nmedian {median:.1f} µs; {len(band)} problems within ±{args.band:.0%} of it "
          f"(mean {statistics.mean(least[k] for k in band):.1f} µs):")
    explained = 0.0
    for i, name in enumerate(names):
        count = statistics.mean(1.0 if i == 0 else counts[k][i - 1] for k in band)
        part = count * coefficients[i]
        explained += part
        print(f"  {name:16s} {count:8.1f} × {coefficients[i]:7.3f} = {part:6.1f} µs")
    print(f"  {'model':16s} {explained:30.1f} µs")


if __name__ == "__main__":
    main()
