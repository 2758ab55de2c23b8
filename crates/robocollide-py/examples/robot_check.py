"""Check robot configurations: the shipped two-robot cell and the Panda from URDF + SRDF.

Run: python examples/robot_check.py
"""

import pathlib

import numpy as np

import robocollide as rc

DATA = pathlib.Path(__file__).resolve().parents[3] / "data"

# The demo cell: a UR5 and an IRB 120 on one table (degrees, as the cell file says).
cell = rc.load_cell(DATA / "cells" / "ur5_irb120.toml")
print(cell, cell.joint_names[:3], "…")
report = cell.check(cell.home)
print("home:", report)
assert not report.collision

# Many configurations at once (parallel, GIL released).
rng = np.random.default_rng(1)
random_q = rng.uniform(-180, 180, size=(2000, cell.dof))
many = cell.check_many(random_q)
print(f"{many['collision'].sum()} of 2000 random configurations collide")
assert many["distance"].shape == (2000,) and many["collision"].dtype == bool

# The first colliding one, in full: which bodies, how deep, where.
k = int(np.argmax(many["collision"]))
report = cell.check(random_q[k])
c = report.closest
print(f"configuration {k}: {c.a.label} ({c.a.link}) and {c.b.label} ({c.b.link}) "
      f"{-c.distance:.4f} m deep, witness points {c.point_a} and {c.point_b}")
assert report.collision and c.labels == many["pairs"][many["pair"][k]]

# A URDF robot with its SRDF's allowed pairs (radians).
panda = rc.load_cell(DATA / "robots" / "panda" / "panda_spherized.urdf",
                     srdf=DATA / "robots" / "panda" / "panda.srdf")
ready = [0, -0.785, 0, -2.356, 0, 1.571, 0.785]
assert not panda.check(ready).collision
folded = [0, 1.7, 0, -0.1, 0, 3.7, 0]
print("Panda folded onto itself:", panda.check(folded))
# The end effector's point Jacobian (3 x 7, metres per radian).
frames = panda.frames(ready)["R1"]
hand = panda.link_names("R1").index("panda_hand")
jac = panda.jacobian(ready, "R1", "panda_hand", frames[hand][:3, 3])
assert jac.shape == (3, 7)
