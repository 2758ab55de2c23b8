"""Exact distances between primitives, one pair and a vectorised batch.

Run: python examples/distance_query.py
"""

import numpy as np

import robocollide as rc

# One pair: a capsule (forearm) and a sphere (an obstacle).
forearm = rc.Capsule([0, 0, 0], [1, 0, 0], 0.1)
ball = rc.Sphere([0.5, 0.5, 0], 0.2)
s = rc.distance(forearm, ball)
print(f"distance {s.distance:.6f} m, witnesses {s.point_a} and {s.point_b}, normal {s.normal}")
assert abs(s.distance - 0.2) < 1e-12
assert np.allclose(s.point_b - s.point_a, s.distance * s.normal)

# A flat-capped cylinder touched on its side by a segment: witnesses at the contact.
side = rc.distance(rc.Cylinder([0, 0, 0], [0, 0, 1], 0.5), rc.Segment([0.5, -1, 0.5], [0.5, 1, 0.5]))
assert side.distance == 0 and np.allclose(side.point_a, [0.5, 0, 0.5])

# A batch: 100 000 capsules against one box (a table top), computed in parallel.
rng = np.random.default_rng(0)
a = rng.uniform(-1, 1, size=(100_000, 3))
b = a + rng.normal(scale=0.2, size=(100_000, 3))
table = rc.Box([0, 0, -0.05], [0.8, 0.5, 0.05])
batch = rc.distances(rc.capsules(a, b, 0.05), table)
print(f"{len(batch)} capsules: {batch.collision.sum()} touch the table, "
      f"closest free one at {batch.distance[~batch.collision].min():.2e} m")
assert batch.distance.shape == (100_000,)
assert np.allclose(batch.point_b - batch.point_a, batch.distance[:, None] * batch.normal, atol=1e-9)
# A capsule wholly above the table top (z > 0.05 + radius) never touches it.
above = np.minimum(a[:, 2], b[:, 2]) > 0.05
assert not batch.collision[above].any()
