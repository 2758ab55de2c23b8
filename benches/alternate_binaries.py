#!/usr/bin/env python3
"""Two or more robocollide binaries planning MotionBenchMaker's Panda problems in alternated
rounds on one core: each problem's least search time per binary, and each binary's paired
ratio to the first one (per problem), with a check that it returned the same paths. The time
is the search's (`planning_ns`), or with `--time setup_ns` the scene's set-up before it.

The host's drift reaches every binary alike, because the rounds alternate; the per-problem
least over the rounds is the statistic `benches/vamp_same_run.py` reports too. This is how
the "paired" figures of `benches/README.md` (sessions 46 on) are measured:

    python3 benches/alternate_binaries.py --rounds 8 before=/tmp/old/robocollide \\
        after=target/release/robocollide"""

import argparse
import json
import math
import pathlib
import statistics
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "vamp-data"
PANDA = ROOT / "data" / "robots" / "panda"


def arguments():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("binaries", nargs="+", metavar="NAME=PATH",
                   help="binaries to alternate; the first is the reference of the ratios")
    p.add_argument("--rounds", type=int, default=4, help="rounds of every binary (default 4)")
    p.add_argument("--cpu", type=int, default=1, help="the one core they run on (default 1)")
    p.add_argument("--problems", default=str(DATA / "panda_mbm_problems.json"))
    p.add_argument("--time", choices=["planning_ns", "setup_ns"], default="planning_ns",
                   help="the report's time compared: the search (default) or the scene's "
                        "set-up before it")
    args = p.parse_args()
    if args.rounds < 1:
        p.error(f"--rounds must be at least 1, got {args.rounds}")
    named = []
    for item in args.binaries:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            p.error(f"expected NAME=PATH, got {item!r}")
        named.append((name, path))
    return args, named


def plan(binary, problems, cpu, report):
    subprocess.run(["taskset", "-c", str(cpu), binary, "plan", "--problems", problems,
                    "--robot", str(PANDA / "panda_spherized.urdf"),
                    "--srdf", str(PANDA / "panda.srdf"), "--json", report],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    data = json.loads(pathlib.Path(report).read_text())
    return data["problems"] if isinstance(data, dict) else data


def main():
    args, named = arguments()
    least = {name: {} for name, _ in named}
    paths = {name: {} for name, _ in named}
    with tempfile.TemporaryDirectory() as scratch:
        for r in range(args.rounds):
            for name, binary in named:
                records = plan(binary, args.problems, args.cpu, f"{scratch}/{name}.json")
                times = []
                for record in records:
                    if not record.get("solved"):
                        continue
                    key = (record["family"], record["index"])
                    t = record[args.time]
                    least[name][key] = min(least[name].get(key, math.inf), t)
                    paths[name].setdefault(key, record["path"])
                    times.append(t)
                print(f"round {r + 1}/{args.rounds} {name}: median "
                      f"{statistics.median(times) / 1e3:.1f} µs", flush=True)
    reference = named[0][0]
    for name, _ in named:
        values = list(least[name].values())
        print(f"{name}: each problem's least: median {statistics.median(values) / 1e3:.2f} µs, "
              f"mean {statistics.mean(values) / 1e3:.1f} µs, {len(values)} solved")
        if name == reference:
            continue
        keys = [k for k in least[reference] if k in least[name]]
        ratios = [least[name][k] / least[reference][k] for k in keys]
        geometric = math.exp(statistics.mean(math.log(x) for x in ratios))
        same = sum(paths[name][k] == paths[reference][k] for k in keys)
        print(f"  against {reference}: paired median ratio {statistics.median(ratios):.4f}, "
              f"geometric mean {geometric:.4f}, identical paths {same}/{len(keys)}")


if __name__ == "__main__":
    main()
