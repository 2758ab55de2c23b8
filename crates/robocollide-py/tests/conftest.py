"""Shared fixtures: the repository's data and the robocollide CLI (for parity tests)."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
DATA = ROOT / "data"
PANDA = DATA / "robots" / "panda"
MBM_SCENES = ROOT / "crates" / "robocollide" / "tests" / "data" / "mbm_scenes"


@pytest.fixture(scope="session")
def cli():
    """Runs the robocollide CLI (ROBOCOLLIDE_CLI, or target/release/robocollide, built if
    missing) and returns its JSON output."""
    binary = os.environ.get("ROBOCOLLIDE_CLI") or str(ROOT / "target" / "release" / "robocollide")
    if not os.path.exists(binary):
        subprocess.run(
            ["cargo", "build", "--release", "-p", "robocollide-cli"], cwd=ROOT, check=True
        )

    def run(*args, ok_codes=(0, 1)):
        done = subprocess.run(
            [binary, *map(str, args)], cwd=ROOT, capture_output=True, text=True
        )
        assert done.returncode in ok_codes, done.stderr
        return json.loads(done.stdout)

    return run
