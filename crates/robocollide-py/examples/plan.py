"""Plan a certified path for the UR5 around the IRB 120 (RRT-Connect; every motion proved
contact-free), then re-check it with a guaranteed sweep.

Run: python examples/plan.py
"""

import pathlib

import numpy as np

import robocollide as rc

DATA = pathlib.Path(__file__).resolve().parents[3] / "data"
cell = rc.load_cell(DATA / "cells" / "ur5_irb120.toml")

start = np.array([0.0, -90, 0, -90, 0, 0])  # UR5, degrees
goal = np.array([180.0, -60, 60, -90, 0, 0])
plan = cell.plan(start, goal, robot="R1", seed=7, time_limit=30)
path = plan["path"]
print(f"{len(path)} waypoints, {plan['length']:.3f} rad, {plan['iterations']} iterations, "
      f"{plan['motions_checked']} motions certified, {plan['seconds'] * 1e3:.1f} ms")
assert plan["certified"]
assert np.allclose(path[0], start) and np.allclose(path[-1], goal)

# Re-check from Python: the whole path swept (the IRB 120 and the table hold still).
full = np.tile(cell.home, (len(path), 1))
full[:, :6] = path
report = cell.sweep(np.arange(len(path), dtype=float), full)
print("guaranteed sweep of the path:", report)
assert not report.collision
