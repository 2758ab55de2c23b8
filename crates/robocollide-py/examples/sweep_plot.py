"""Sweep a trajectory with the guaranteed sweep and draw distance over time (no matplotlib:
robocollide draws the picture).

Run: python examples/sweep_plot.py [OUT_FOLDER]
"""

import pathlib
import sys
import tempfile

import robocollide as rc

DATA = pathlib.Path(__file__).resolve().parents[3] / "data"
out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(tempfile.mkdtemp())
out.mkdir(parents=True, exist_ok=True)

cell = rc.load_cell(DATA / "cells" / "ur5_irb120.toml")
times, q = cell.read_trajectory(DATA / "cells" / "ur5_irb120_collide.csv")

guaranteed = cell.sweep(times, q)
sampled = cell.sweep(times, q, guaranteed=False)
t, pair = guaranteed.first_collision
print(f"guaranteed sweep: first contact at t = {t:.4f} s between {pair.a.label} and {pair.b.label}"
      f" ({guaranteed.evaluations} configurations evaluated)")
print(f"rows only: first contact at t = {sampled.first_collision[0]:.4f} s")
# The contact between the rows at 2.0 s and 2.5 s is only seen by the guaranteed sweep.
assert 2.0 < t < 2.5 < sampled.first_collision[0]

picture = out / "distance.png"
guaranteed.plot(picture)
guaranteed.plot(out / "distance.svg", title="UR5 and IRB 120: guaranteed sweep")
assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
assert (out / "distance.svg").read_text().lstrip().startswith("<svg")
print("wrote", picture, "and", out / "distance.svg")
