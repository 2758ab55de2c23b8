"""Python-side speed of robocollide beside coal and python-fcl, in one run, on the same pairs.

Not a test (timings are never asserted). Run from the repository root after `scripts/test`
has built the package into .venv:

    .venv/bin/pip install coal==3.0.3 python-fcl==0.7.0.11
    .venv/bin/python crates/robocollide-py/benches/bench_python.py

What is timed is what a Python user calls:
- one pair per call: `robocollide.distance(a, b)` against `coal.distance(...)` and
  `fcl.distance(...)` with witness points (the objects built beforehand for all three);
- many pairs: `robocollide.distances(A, B)` over numpy arrays (construction of the shape arrays
  included) against a Python loop over coal's / fcl's per-pair call (they have no batch call);
- robot checks: `Cell.check` and `Cell.check_many` on the shipped demo cell.
Each figure is the minimum over repeats of the mean time per pair, with 1 or 2 threads as noted.
"""

import pathlib
import time

import numpy as np

import robocollide as rc

try:
    import coal
except ImportError:  # pragma: no cover
    coal = None
try:
    import fcl
except ImportError:  # pragma: no cover
    fcl = None

ROOT = pathlib.Path(__file__).resolve().parents[3]


def best(fn, repeats=5):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        count = fn()
        times.append((time.perf_counter() - start) / count)
    return min(times)


def frame_from_axis(a, b):
    """A rotation taking z to b - a and the midpoint: how coal/fcl place capsules."""
    d = b - a
    length = np.linalg.norm(d)
    z = d / length
    helper = np.array([1.0, 0, 0]) if abs(z[0]) < 0.9 else np.array([0, 1.0, 0])
    x = np.cross(helper, z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    return np.column_stack([x, y, z]), (a + b) / 2, length


def random_pairs(n, rng):
    a0 = rng.uniform(-1, 1, (n, 3))
    a1 = a0 + rng.normal(scale=0.4, size=(n, 3))
    b0 = rng.uniform(-1, 1, (n, 3))
    b1 = b0 + rng.normal(scale=0.4, size=(n, 3))
    return a0, a1, rng.uniform(0.02, 0.2, n), b0, b1, rng.uniform(0.02, 0.2, n)


def coal_capsules(a0, a1, r):
    objects = []
    for k in range(len(r)):
        rot, mid, length = frame_from_axis(a0[k], a1[k])
        objects.append((coal.Capsule(r[k], length), coal.Transform3s(rot, mid)))
    return objects


def fcl_capsules(a0, a1, r):
    objects = []
    for k in range(len(r)):
        rot, mid, length = frame_from_axis(a0[k], a1[k])
        objects.append(fcl.CollisionObject(fcl.Capsule(r[k], length), fcl.Transform(rot, mid)))
    return objects


def coal_loop(objects_a, objects_b):
    """A timed loop of coal's per-pair distance over prebuilt (geometry, transform) pairs
    (coal always computes the nearest points)."""
    request, result = coal.DistanceRequest(), coal.DistanceResult()

    def run():
        for (ga, ta), (gb, tb) in zip(objects_a, objects_b):
            result.clear()
            coal.distance(ga, ta, gb, tb, request, result)
        return len(objects_a)

    return run


def report(name, ours, theirs):
    cells = [f"{name:<44} robocollide {ours * 1e9:9.0f} ns"]
    for label, t in theirs:
        if t is not None:
            cells.append(f"{label} {t * 1e9:9.0f} ns ({t / ours:5.1f}x)")
    print("  ".join(cells))


def main():
    rng = np.random.default_rng(1)
    n = 20_000
    a0, a1, ra, b0, b1, rb = random_pairs(n, rng)
    ours_a = [rc.Capsule(a0[k], a1[k], ra[k]) for k in range(n)]
    ours_b = [rc.Capsule(b0[k], b1[k], rb[k]) for k in range(n)]

    def ours_single():
        for x, y in zip(ours_a, ours_b):
            rc.distance(x, y)
        return n

    coal_single = fcl_single = None
    if coal is not None:
        coal_single = best(coal_loop(coal_capsules(a0, a1, ra), coal_capsules(b0, b1, rb)))
    if fcl is not None:
        fa, fb = fcl_capsules(a0, a1, ra), fcl_capsules(b0, b1, rb)
        frequest = fcl.DistanceRequest(enable_nearest_points=True)

        def fcl_loop():
            for x, y in zip(fa, fb):
                fcl.distance(x, y, frequest, fcl.DistanceResult())
            return n

        fcl_single = best(fcl_loop)
    ours = best(ours_single)
    print(f"capsule–capsule, {n} random pairs, witness points")
    report("one pair per call (objects prebuilt)", ours, [("coal", coal_single), ("fcl", fcl_single)])

    for size in (1_000, 1_000_000):
        a0, a1, ra, b0, b1, rb = random_pairs(size, rng)

        def batch():
            rc.distances(rc.capsules(a0, a1, ra), rc.capsules(b0, b1, rb))
            return size

        report(
            f"batch of {size} (arrays in, arrays out)",
            best(batch, 3 if size > 100_000 else 10),
            [("coal loop", coal_single), ("fcl loop", fcl_single)],
        )
        prebuilt_a, prebuilt_b = rc.capsules(a0, a1, ra), rc.capsules(b0, b1, rb)

        def queries_only():
            rc.distances(prebuilt_a, prebuilt_b)
            return size

        report(
            f"batch of {size}, shape arrays prebuilt",
            best(queries_only, 3 if size > 100_000 else 10),
            [("coal loop", coal_single), ("fcl loop", fcl_single)],
        )

    # Boxes against capsules (a table and arm links).
    m = 20_000
    centers = rng.uniform(-1, 1, (m, 3))
    halves = rng.uniform(0.05, 0.5, (m, 3))
    c0 = rng.uniform(-1, 1, (m, 3))
    c1 = c0 + rng.normal(scale=0.4, size=(m, 3))
    cr = rng.uniform(0.02, 0.2, m)

    def box_batch():
        rc.distances(rc.boxes(centers, halves), rc.capsules(c0, c1, cr))
        return m

    coal_box = None
    if coal is not None:
        boxes = [(coal.Box(*(2 * h)), coal.Transform3s(np.eye(3), c)) for c, h in zip(centers, halves)]
        coal_box = best(coal_loop(boxes, coal_capsules(c0, c1, cr)))
    print(f"box–capsule, {m} random pairs")
    report("batch (arrays in, arrays out)", best(box_batch), [("coal loop", coal_box)])

    cell = rc.load_cell(ROOT / "data" / "cells" / "ur5_irb120.toml")
    q = rng.uniform(-180, 180, (100_000, cell.dof))
    rows = [q[k] for k in range(2000)]

    def one_by_one():
        for row in rows:
            cell.check(row)
        return len(rows)

    def many():
        cell.check_many(q)
        return len(q)

    print(f"threads: the batch splits across all cores from {4096} pairs (this machine: 2)")
    print(f"robot checks: {cell.name} (282 pairs, named closest pair)")
    print(f"  Cell.check, one configuration per call        {best(one_by_one) * 1e6:8.2f} µs")
    print(f"  Cell.check_many, 100 000 configurations       {best(many, 3) * 1e6:8.2f} µs per configuration")


if __name__ == "__main__":
    main()
