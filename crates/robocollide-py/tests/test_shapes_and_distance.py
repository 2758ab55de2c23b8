"""Shapes and pair queries: construction, validation, values, vectorised batches."""

import math
import pickle

import numpy as np
import pytest

import robocollide as rc
from conftest import ROOT

SHAPES = [
    rc.Point([0.1, 0.2, 0.3]),
    rc.Segment([0, 0, 0], [1, 0, 0]),
    rc.Sphere([0.5, 0.5, 0], 0.2),
    rc.Capsule([0, 0, 0], [1, 0, 0], 0.1),
    rc.Cylinder([0, 0, 0], [0, 0, 1], 0.5),
    rc.Box([2, 0, 0], [0.5, 0.2, 0.1], rpy=[0.1, 0.2, 0.3]),
    rc.Plane([0, 0, -1], [0, 0, 1]),
]


def test_the_documented_example():
    s = rc.distance(rc.Capsule([0, 0, 0], [1, 0, 0], 0.1), rc.Sphere([0.5, 0.5, 0], 0.2))
    assert s.distance == pytest.approx(0.2, abs=1e-12)
    assert not s.collision
    np.testing.assert_allclose(s.point_a, [0.5, 0.1, 0], atol=1e-12)
    np.testing.assert_allclose(s.point_b, [0.5, 0.3, 0], atol=1e-12)
    np.testing.assert_allclose(s.normal, [0, 1, 0], atol=1e-12)
    assert s.point_a.dtype == np.float64 and s.point_a.shape == (3,)


def test_getters_return_what_was_given():
    c = rc.Capsule((0, 0, 0), np.array([1.0, 2, 3]), 0.5)
    np.testing.assert_array_equal(c.a, [0, 0, 0])
    np.testing.assert_array_equal(c.b, [1, 2, 3])
    assert c.radius == 0.5 and c.kind == "capsule"
    b = rc.Box([1, 2, 3], [0.1, 0.2, 0.3])
    np.testing.assert_array_equal(b.rotation, np.eye(3))
    np.testing.assert_array_equal(b.half_extents, [0.1, 0.2, 0.3])
    turned = rc.Box([0, 0, 0], [1, 1, 1], rpy=[0, 0, math.pi / 2])
    np.testing.assert_allclose(turned.rotation @ [1, 0, 0], [0, 1, 0], atol=1e-15)
    assert rc.Plane([0, 0, 0], [0, 0, 2]).normal.tolist() == [0, 0, 1]


@pytest.mark.parametrize("a", SHAPES, ids=lambda s: s.kind)
@pytest.mark.parametrize("b", SHAPES, ids=lambda s: s.kind)
def test_every_pair_kind_keeps_the_witness_identity(a, b):
    s = rc.distance(a, b)
    if a.kind == b.kind == "plane":
        return  # two half-spaces with parallel normals: unbounded overlap (documented)
    assert math.isfinite(s.distance)
    assert np.linalg.norm(s.normal) == pytest.approx(1, abs=1e-12)
    np.testing.assert_allclose(s.point_b - s.point_a, s.distance * s.normal, atol=1e-9)
    swapped = rc.distance(b, a)
    assert swapped.distance == pytest.approx(s.distance, abs=1e-9)


def test_text_syntax_gives_the_right_subclass():
    shape = rc.parse_shape("capsule 0,0,0 1,0,0 0.1")
    assert isinstance(shape, rc.Capsule) and isinstance(shape, rc.Shape)
    assert shape == rc.Capsule([0, 0, 0], [1, 0, 0], 0.1)
    assert isinstance(rc.parse_shape("box 0,0,0 1,1,1 0,0,0.5"), rc.Box)


@pytest.mark.parametrize(
    "make, field",
    [
        (lambda: rc.Sphere([0, 0, float("nan")], 1), "sphere.center.z"),
        (lambda: rc.Sphere([0, 0, 0], -1), "sphere.radius"),
        (lambda: rc.Capsule([0, 0, 0], [1, 0], 0.1), "capsule.b"),
        (lambda: rc.Cylinder([0, 0, 0], [0, 0, 0], 0.1), "cylinder"),
        (lambda: rc.Box([0, 0, 0], [1, -1, 1]), "box.half_extents.y"),
        (lambda: rc.Plane([0, 0, 0], [0, 0, 0]), "plane.normal"),
        (lambda: rc.Sphere("abc", 1), "sphere.center"),
        (lambda: rc.Box([0, 0, 0], [1, 1, 1], rpy=[0, 0, 0], rotation=np.eye(3)), "rpy or rotation"),
        (lambda: rc.Box([0, 0, 0], [1, 1, 1], rotation=2 * np.eye(3)), "rotation"),
        (lambda: rc.parse_shape("capsule 0,0,0 1,0,0"), "capsule"),
    ],
)
def test_bad_shapes_raise_a_value_error_naming_the_field(make, field):
    with pytest.raises(rc.RobocollideError, match=field.replace(".", r"\.")):
        make()
    assert issubclass(rc.RobocollideError, ValueError)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.kind)
def test_shapes_pickle_and_compare_by_value(shape):
    back = pickle.loads(pickle.dumps(shape))
    assert back == shape and type(back) is type(shape)
    assert repr(back) == repr(shape)


def random_capsules(rng, n, scale=1.0):
    a = rng.normal(size=(n, 3)) * scale
    b = a + rng.normal(size=(n, 3)) * scale
    return a, b, rng.uniform(0, 0.3, n) * scale


def test_vectorised_distances_equal_the_single_queries_exactly():
    rng = np.random.default_rng(7)
    a0, a1, ra = random_capsules(rng, 500)
    centers = rng.normal(size=(500, 3))
    radii = rng.uniform(0, 0.5, 500)
    batch = rc.distances(rc.capsules(a0, a1, ra), rc.spheres(centers, radii))
    assert len(batch) == 500
    assert batch.distance.shape == (500,) and batch.point_a.shape == (500, 3)
    for k in range(0, 500, 7):
        one = rc.distance(rc.Capsule(a0[k], a1[k], ra[k]), rc.Sphere(centers[k], radii[k]))
        assert batch.distance[k] == one.distance
        np.testing.assert_array_equal(batch.point_a[k], one.point_a)
        np.testing.assert_array_equal(batch.normal[k], one.normal)
    np.testing.assert_array_equal(batch.collision, batch.distance <= 0)


def test_a_large_batch_runs_in_parallel_with_the_same_answers():
    rng = np.random.default_rng(3)
    a0, a1, ra = random_capsules(rng, 20000)
    b0, b1, rb = random_capsules(rng, 20000)
    big = rc.distances(rc.capsules(a0, a1, ra), rc.cylinders(b0, b1, rb))
    small = rc.distances(rc.capsules(a0[:100], a1[:100], ra[:100]), rc.cylinders(b0[:100], b1[:100], rb[:100]))
    np.testing.assert_array_equal(big.distance[:100], small.distance)
    # Cylinder pairs' witnesses come from an iterative direction: documented to ~1e-6 of the
    # pair's magnitude (query::separation); the distances are certified.
    np.testing.assert_allclose(
        big.point_b - big.point_a, big.distance[:, None] * big.normal, atol=1e-5
    )


def test_one_shape_against_many_broadcasts():
    table = rc.Box([0, 0, -0.05], [1, 1, 0.05])
    heights = np.linspace(-0.1, 1.1, 13)  # the box spans z in [-0.1, 0]
    pts = np.column_stack([np.zeros(13), np.zeros(13), heights])
    batch = rc.distances(table, rc.points(pts))
    np.testing.assert_allclose(batch.distance[heights >= 0], heights[heights >= 0], atol=1e-15)
    assert (batch.distance[heights < 0] <= 0).all()
    assert len(rc.distances([table, table], rc.Sphere([0, 0, 1], 0.5))) == 2


def test_numpy_inputs_of_any_dtype_layout_and_contiguity():
    pts = np.arange(30, dtype=np.int32).reshape(10, 3)
    as_float = rc.distances(rc.points(pts.astype(np.float64)), rc.Sphere([0, 0, 0], 1))
    from_int = rc.distances(rc.points(pts), rc.Sphere([0, 0, 0], 1))
    np.testing.assert_array_equal(as_float.distance, from_int.distance)
    f32 = rc.distances(rc.points(pts.astype(np.float32)), rc.Sphere([0, 0, 0], 1))
    np.testing.assert_array_equal(as_float.distance, f32.distance)
    transposed = np.asfortranarray(pts.T.copy()).T  # Fortran order, same values
    np.testing.assert_array_equal(
        rc.distances(rc.points(transposed), rc.Sphere([0, 0, 0], 1)).distance, as_float.distance
    )
    strided = np.arange(60, dtype=float).reshape(10, 6)[:, ::2]  # not contiguous
    rc.points(strided)
    as_list = rc.distances(rc.points(pts.tolist()), rc.Sphere([0, 0, 0], 1))
    np.testing.assert_array_equal(as_list.distance, as_float.distance)
    boxes = rc.boxes(np.zeros((2, 3)), np.ones((2, 3)), np.stack([np.eye(3)] * 2))
    assert len(boxes) == 2 and isinstance(boxes[0], rc.Box) and isinstance(boxes[-1], rc.Box)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: rc.points(np.zeros((4, 2))), r"shape \(n, 3\), got \(4, 2\)"),
        (lambda: rc.points(np.zeros((2, 3, 3))), "2-D array"),
        (lambda: rc.spheres(np.zeros((3, 3)), [1, 2]), "radius has 2 values for 3"),
        (lambda: rc.spheres(np.zeros((3, 3)), [1, -2, 1]), r"spheres\[1\]: sphere.radius"),
        (lambda: rc.capsules(np.zeros((3, 3)), np.zeros((2, 3)), 0.1), "b has 2 rows, a has 3"),
        (lambda: rc.points([[0, 0, np.inf]]), r"points\[0\]: point.z"),
        (lambda: rc.points("xyz"), "positions"),
        (
            lambda: rc.distances(rc.points(np.zeros((3, 3))), rc.points(np.zeros((2, 3)))),
            "a has 3 shapes and b has 2",
        ),
        (lambda: rc.distances(3, rc.Point([0, 0, 0])), "a must be a ShapeArray"),
    ],
)
def test_bad_arrays_are_refused_with_a_message(make, message):
    with pytest.raises(rc.RobocollideError, match=message):
        make()


def test_large_arrays_are_built_in_parallel_and_name_the_first_bad_row():
    n = 100_000  # above the parallel threshold: rows are validated on all cores
    a = np.zeros((n, 3))
    radius = np.full(n, 0.1)
    radius[90_000] = -1.0
    a[70_000, 1] = np.nan
    with pytest.raises(rc.RobocollideError, match=r"capsules\[70000\]: capsule.a.y"):
        rc.capsules(a, np.ones((n, 3)), radius)
    radius[90_000] = 0.1
    a[70_000, 1] = 0.0
    assert len(rc.capsules(a, np.ones((n, 3)), radius)) == n


def test_typed_batches_match_single_queries():
    # Capsule and sphere arrays call their kernel directly; the answers are the dispatcher's.
    rng = np.random.default_rng(7)
    a0, a1, b0, b1 = (rng.uniform(-1, 1, (200, 3)) for _ in range(4))
    r = rng.uniform(0.0, 0.5, 200)
    batch = rc.distances(rc.capsules(a0, a1, r), rc.capsules(b0, b1, r[::-1]))
    spheres = rc.distances(rc.spheres(a0, r), rc.spheres(b0, r))
    for k in range(200):
        one = rc.distance(rc.Capsule(a0[k], a1[k], r[k]), rc.Capsule(b0[k], b1[k], r[::-1][k]))
        assert batch.distance[k] == one.distance
        assert batch.point_a[k].tolist() == one.point_a.tolist()
        assert batch.normal[k].tolist() == one.normal.tolist()
        two = rc.distance(rc.Sphere(a0[k], r[k]), rc.Sphere(b0[k], r[k]))
        assert spheres.distance[k] == two.distance


def test_shape_arrays_pickle():
    arr = rc.capsules(np.zeros((3, 3)), np.ones((3, 3)), [0.1, 0.2, 0.3])
    back = pickle.loads(pickle.dumps(arr))
    assert len(back) == 3 and back[2] == arr[2] and back[2].radius == 0.3


def test_distance_parity_with_the_cli(cli):
    pairs = [
        ("cylinder 0,0,0 0,0,1 0.5", "segment 0.5,-1,0.5 0.5,1,0.5"),
        ("capsule 0,0,0 1,0,0 0.1", "sphere 0.5,0.5,0 0.2"),
        ("box 0,0,0 1,0.5,0.25 0.1,0.2,0.3", "cylinder 2,0,0 2,0,1 0.3"),
        ("plane 0,0,0 0,0,1", "capsule 0,0,1 1,1,-1 0.05"),
    ]
    for a, b in pairs:
        expected = cli("distance", "--a", a, "--b", b, "--json")
        got = rc.distance(rc.parse_shape(a), rc.parse_shape(b))
        assert got.distance == expected["distance"]
        assert got.point_a.tolist() == expected["point_a"]
        assert got.normal.tolist() == expected["normal"]
    assert ROOT.exists()
