"""The package as a whole: its names, stubs, results that pickle, and hostile input that
never gets past a Python exception."""

import ast
import pathlib
import pickle

import numpy as np
import pytest

import robocollide as rc
from robocollide import _robocollide
from conftest import DATA

STUBS = pathlib.Path(rc.__file__).with_name("_robocollide.pyi")


def test_the_issue_names_exist():
    for name in ("Sphere", "Capsule", "Cylinder", "distance", "load_cell"):
        assert hasattr(rc, name)


def test_every_native_name_is_exported_and_has_a_stub():
    native = {n for n in dir(_robocollide) if not n.startswith("__")}
    assert native <= set(dir(rc))
    tree = ast.parse(STUBS.read_text())
    stubbed = {
        node.name
        for node in tree.body
        if isinstance(node, (ast.ClassDef, ast.FunctionDef))
    } | {
        t.id
        for node in tree.body
        if isinstance(node, ast.AnnAssign)
        for t in [node.target]
        if isinstance(t, ast.Name)
    }
    assert native - stubbed == set(), "names without a stub"
    assert set(rc.__all__) - {"__version__"} <= native


def test_public_names_have_docstrings():
    for name in rc.__all__:
        obj = getattr(rc, name)
        if callable(obj):
            assert obj.__doc__, name


def test_results_pickle():
    cell = rc.load_cell(DATA / "cells" / "ur5_irb120.toml")
    report = cell.check([120, -30, 30, -90, 0, 0] + [0, 30, 0, 0, 0, 0])
    back = pickle.loads(pickle.dumps(report))
    assert back.to_dict() == report.to_dict()
    assert pickle.loads(pickle.dumps(report.closest)).to_dict() == report.closest.to_dict()
    element = pickle.loads(pickle.dumps(report.closest.a))
    assert element.label == report.closest.a.label
    s = rc.distance(rc.Sphere([0, 0, 0], 1), rc.Sphere([3, 0, 0], 1))
    t = pickle.loads(pickle.dumps(s))
    assert t.distance == s.distance and (t.normal == s.normal).all()
    times, q = cell.read_trajectory(DATA / "cells" / "ur5_irb120_collide.csv")
    sweep = cell.sweep(times, q)
    again = pickle.loads(pickle.dumps(sweep))
    assert again.to_dict() == sweep.to_dict()


def test_hostile_values_raise_python_exceptions_only():
    rng = np.random.default_rng(5)
    specials = [0.0, -0.0, 1e-320, -1e308, 1e308, np.inf, -np.inf, np.nan, 1e6, -1e-6]
    cell = rc.load_cell(DATA / "cells" / "ur5_irb120.toml")
    makers = [
        lambda v: rc.Sphere(v[:3], v[3]),
        lambda v: rc.Capsule(v[:3], v[3:6], v[6]),
        lambda v: rc.Cylinder(v[:3], v[3:6], v[6]),
        lambda v: rc.Box(v[:3], v[3:6], rpy=v[6:9]),
        lambda v: rc.Plane(v[:3], v[3:6]),
        lambda v: rc.Segment(v[:3], v[3:6]),
    ]
    shapes = []
    for _ in range(3000):
        with np.errstate(over="ignore", invalid="ignore"):
            v = rng.choice(specials, size=9) * rng.choice([1.0, rng.normal()], size=9)
        try:
            shapes.append(makers[rng.integers(len(makers))](list(v)))
        except rc.RobocollideError:
            pass
    assert shapes
    for k in range(0, len(shapes) - 1):
        s = rc.distance(shapes[k], shapes[k + 1])
        assert not np.isnan(s.distance)
    for _ in range(300):
        with np.errstate(over="ignore", invalid="ignore"):
            q = rng.choice(specials, size=rng.integers(10, 14)) * 1e3
        try:
            cell.check(q)
        except rc.RobocollideError:
            pass


@pytest.mark.parametrize("bad", [None, "text", [1, 2], {"a": 1}, object(), [[1, 2, 3]]])
def test_wrong_types_raise_value_errors(bad):
    with pytest.raises((rc.RobocollideError, TypeError)):
        rc.Sphere(bad, 1.0)
