"""The examples run and end in their own assertions."""

import pathlib
import subprocess
import sys

import pytest

EXAMPLES = sorted((pathlib.Path(__file__).resolve().parents[1] / "examples").glob("*.py"))


def test_there_are_examples():
    assert {e.stem for e in EXAMPLES} >= {
        "distance_query",
        "robot_check",
        "sweep_plot",
        "plan",
        "distributed_sweeps",
    }


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs(example, tmp_path):
    done = subprocess.run(
        [sys.executable, str(example), str(tmp_path)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_distributed_example_also_runs_without_dask(tmp_path):
    example = [e for e in EXAMPLES if e.stem == "distributed_sweeps"][0]
    done = subprocess.run(
        [sys.executable, str(example), str(tmp_path), "--engine", "futures", "--count", "12"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "futures: 12 trajectories" in done.stdout
