"""Cells from the Python side: parity with the CLI on the shipped fixtures, batches,
kinematics, sweeps, planning, the velocity filter, pickling and bad input."""

import multiprocessing
import pickle
import shutil

import numpy as np
import pytest

import robocollide as rc
from conftest import DATA, MBM_SCENES, PANDA

DEMO = DATA / "cells" / "ur5_irb120.toml"
TABLE3 = DATA / "scenes" / "seed004_table3.toml"
URDF = PANDA / "panda_spherized.urdf"
SRDF = PANDA / "panda.srdf"

# Degrees, UR5 then IRB 120 (the README's and the demo's configurations).
DEMO_POSES = [
    ([0, -90, 0, -90, 0, 0], [0, 0, 0, 0, 0, 0]),
    ([180, 30, 20, 0, 0, 0], [0, 0, 0, 0, 0, 0]),
    ([10.6, -175.9, -30.5, 28.8, -172.8, 41.7], [0, 0, 0, 0, 0, 0]),
    ([120, -30, 30, -90, 0, 0], [0, 30, 0, 0, 0, 0]),
]


def flag(values):
    return ",".join(map(str, values))


@pytest.fixture(scope="module")
def demo():
    return rc.load_cell(DEMO)


@pytest.mark.parametrize("ur5, irb", DEMO_POSES)
def test_check_matches_the_cli_on_the_demo_cell(cli, demo, ur5, irb):
    expected = cli("check", DEMO, f"--q={flag(ur5)}", f"--q={flag(irb)}", "--json")
    report = demo.check(ur5 + irb)
    assert report.to_dict() == expected
    assert report.collision == expected["collision"]
    assert report.closest.distance == expected["closest"]["distance"]
    assert report.closest.a.label == expected["closest"]["a"]["label"]
    assert report.closest.point_a.tolist() == expected["closest"]["point_a"]


def test_the_issues_named_api(demo):
    report = rc.load_cell(str(DEMO)).check(np.array(DEMO_POSES[1][0] + DEMO_POSES[1][1]))
    assert isinstance(report.collision, bool)
    assert isinstance(report.closest.distance, float)
    assert report.closest.labels == (report.closest.a.label, report.closest.b.label)
    assert demo.robots == ["R1", "R2", "W"] and demo.dof == 12
    assert len(demo.joint_names) == 12 and demo.joint_names[0].startswith("R1:")


def test_table3_scene_matches_the_cli(cli):
    scene = rc.load_cell(TABLE3)
    assert scene.dof == 0
    report = scene.check([])
    assert report.to_dict() == cli("check", TABLE3, "--json")
    assert report.collision and report.closest.pair_type == "capsule-sphere"


def test_panda_urdf_with_srdf_and_scene_matches_the_cli(cli):
    q = [0, -0.785, 0, -2.356, 0, 1.571, 0.785]
    scene = MBM_SCENES / "table_pick_scene0001.yaml"
    cell = rc.load_cell(URDF, srdf=SRDF, scene=scene)
    expected = cli(
        "check", URDF, "--srdf", SRDF, "--scene", scene, f"--q={flag(q)}", "--json"
    )
    assert cell.check(q).to_dict() == expected
    assert cell.robots == ["R1", "W"]


def test_check_many_agrees_with_check_row_by_row(demo):
    rng = np.random.default_rng(11)
    q = rng.uniform(-180, 180, size=(300, demo.dof))
    many = demo.check_many(q)
    assert many["distance"].shape == (300,)
    for k in range(0, 300, 13):
        one = demo.check(q[k])
        # check_many takes the fast pair search (no witnesses): equal to rounding.
        assert many["distance"][k] == pytest.approx(one.closest.distance, abs=1e-14)
        assert many["collision"][k] == one.collision
        assert many["pairs"][many["pair"][k]] == one.closest.labels
    # Non-contiguous and integer input give the same answers.
    wide = np.zeros((300, 2 * demo.dof))
    wide[:, ::2] = q
    np.testing.assert_array_equal(demo.check_many(wide[:, ::2])["distance"], many["distance"])
    ints = np.round(q).astype(np.int64)
    np.testing.assert_array_equal(
        demo.check_many(ints)["distance"], demo.check_many(ints.astype(float))["distance"]
    )


def test_frames_shapes_and_jacobians_agree(demo):
    q = np.array(DEMO_POSES[1][0] + DEMO_POSES[1][1], dtype=float)
    frames = demo.frames(q)
    links = demo.link_names("R1")
    assert frames["R1"].shape == (len(links), 4, 4)
    np.testing.assert_allclose(frames["R1"][:, 3, :], [[0, 0, 0, 1]] * len(links))
    rotation = frames["R1"][-1][:3, :3]
    np.testing.assert_allclose(rotation.T @ rotation, np.eye(3), atol=1e-12)
    shapes = demo.shapes(q)
    assert any(label == "W-table" for label, _, _ in shapes)
    # The Jacobian of a point fixed on the last link, against finite differences of the
    # frames (degrees in the cell: the Jacobian is per radian).
    link = links[-1]
    local = np.array([0.01, 0.02, 0.03, 1.0])
    point = frames["R1"][-1] @ local
    jac = demo.jacobian(q, "R1", link, point[:3])
    assert jac.shape == (3, 6)
    h = 1e-6
    for j in range(6):
        dq = np.zeros(demo.dof)
        dq[j] = np.degrees(h)
        plus = demo.frames(q + dq)["R1"][-1] @ local
        minus = demo.frames(q - dq)["R1"][-1] @ local
        np.testing.assert_allclose(jac[:, j], (plus - minus)[:3] / (2 * h), atol=1e-6)


def test_sweep_matches_the_cli_and_finds_the_contact_between_rows(cli, demo):
    trajectory = DATA / "cells" / "ur5_irb120_collide.csv"
    times, q = demo.read_trajectory(trajectory)
    assert q.shape == (len(times), demo.dof)
    report = demo.sweep(times, q)
    assert report.to_dict() == cli("sweep", DEMO, trajectory, "--json")
    assert report.collision and not report.certified_free
    first_time, first_pair = report.first_collision
    assert 2.0 < first_time < 2.5  # between two clear rows: only the guaranteed sweep sees it
    sampled = demo.sweep(times, q, guaranteed=False)
    assert sampled.evaluations == len(times)
    samples = report.samples
    assert len(samples["t"]) == report.evaluations == len(samples["pair"])


def test_plan_returns_a_certified_path(demo):
    home = demo.home
    start = home[:6]
    goal = np.array([90.0, -90, 0, -90, 0, 0])
    plan = demo.plan(start, goal, seed=3, time_limit=20)
    path = plan["path"]
    assert plan["certified"]
    # The search's motions by how they ended: every tree node but the two roots came from a
    # certified motion, and shortcutting checked more after the search.
    outcomes = plan["search_motions"]
    assert outcomes["certified"] >= plan["tree_nodes"] - 2
    assert outcomes["invalid"] == 0
    assert 0 < sum(outcomes.values()) <= plan["motions_checked"]
    np.testing.assert_allclose(path[0], start)
    np.testing.assert_allclose(path[-1], goal)
    # The path re-checked from Python: every motion swept with the guaranteed sweep.
    full = np.tile(home, (len(path), 1))
    full[:, :6] = path
    times = np.arange(len(path), dtype=float)
    assert not demo.sweep(times, full).collision


def test_plan_takes_the_planner_options(demo):
    home = demo.home
    start, goal = home[:6], np.array([90.0, -90, 0, -90, 0, 0])
    halton = demo.plan(start, goal, sampler="halton", balance=False, time_limit=20)
    assert halton["certified"]
    np.testing.assert_allclose(halton["path"][-1], goal)
    # The Halton sequence does not depend on the seed; the search (before shortcutting) is
    # the same for every seed, uniform samples' is not.
    other = demo.plan(start, goal, sampler="halton", balance=False, seed=9, time_limit=20)
    assert other["iterations"] == halton["iterations"]
    with pytest.raises(rc.RobocollideError, match='sampler must be "uniform" or "halton", got "sobol"'):
        demo.plan(start, goal, sampler="sobol")
    # Point shortcuts run after the same search and waypoint shortcuts: never longer.
    plain = demo.plan(start, goal, seed=4, time_limit=20)
    cut = demo.plan(start, goal, seed=4, time_limit=20, point_shortcuts=50)
    assert cut["certified"]
    assert cut["iterations"] == plain["iterations"]
    assert cut["length"] <= plain["length"] + 1e-12
    np.testing.assert_allclose(cut["path"][-1], goal)
    with pytest.raises(rc.RobocollideError, match="point_shortcuts must be between 0 and 100000, got -1"):
        demo.plan(start, goal, point_shortcuts=-1)


def test_plan_from_a_colliding_start_raises():
    cell = rc.load_cell(URDF, srdf=SRDF, scene=MBM_SCENES / "cage_scene0001.yaml")
    with pytest.raises(rc.PlanningError, match="start configuration is in collision"):
        cell.plan([0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0], time_limit=1)


def test_the_velocity_filter_slows_an_approach(demo):
    f = demo.velocity_filter(influence=0.15, safety=0.05)
    q = np.array(DEMO_POSES[0][0] + DEMO_POSES[0][1], dtype=float)
    free = f.step(q, np.zeros(12))
    assert free["status"] == "Solved"
    np.testing.assert_array_equal(free["qdot"], np.zeros(12))
    with pytest.raises(rc.RobocollideError, match="qdot_des"):
        f.step(q, np.zeros(5))
    with pytest.raises(rc.RobocollideError, match="no robot `R9`"):
        demo.velocity_filter(moving=["R9"])


def test_nao_keeps_his_left_hand_off_his_chest():
    """Seed 002's use case in a Python control loop: LArm protected, the hand commanded
    through the chest, both constraint forms; without the filter the hand goes in."""
    nao = DATA / "robots" / "nao"
    cell = rc.load_cell(nao / "nao.urdf", srdf=nao / "nao.srdf")

    def pose(**values):
        q = np.array(cell.home)
        for name, v in values.items():
            q[cell.joint_names.index(f"R1:{name}")] = v
        return q

    start = pose(LShoulderPitch=1.4, LShoulderRoll=0.25, LElbowYaw=-1.2, LElbowRoll=-0.5)
    goal = pose(LShoulderPitch=0.9, LShoulderRoll=-0.3, LElbowYaw=-0.3, LElbowRoll=-1.5)

    def run(step):
        q, closest = start.copy(), np.inf
        for _ in range(300):
            q = q + 0.01 * step(q, np.clip(2.0 * (goal - q), -1.5, 1.5))
            closest = min(closest, _arm_to_torso(cell, q))
        return closest

    for form in ("damped", "literal"):
        f = cell.velocity_filter(
            influence=0.08, safety=0.01, max_approach=0.3, dt=0.01, max_joint_speed=1.5,
            self_collision=True, chains={"R1": ["LArm"]}, form=form,
        )
        closest = run(lambda q, desired: f.step(q, desired)["qdot"])
        assert closest >= 0.01 - 1e-4, (form, closest)
    assert run(lambda q, desired: desired) < -0.015
    with pytest.raises(rc.RobocollideError, match="no group `Tail`"):
        cell.velocity_filter(chains={"R1": ["Tail"]})
    with pytest.raises(rc.RobocollideError, match="`RArm` is not a protected chain"):
        cell.velocity_filter(chains={"R1": ["LArm"]}, limp={"R1": ["RArm"]})
    with pytest.raises(rc.RobocollideError, match="form must be"):
        cell.velocity_filter(form="stiff")


def _arm_to_torso(cell, q):
    """The left forearm's and hand's distance to the torso sphere."""
    shapes = {label: shape for label, _, shape in cell.shapes(q)}
    return min(rc.distance(shapes[f"R1-{b}"], shapes["R1-torso"]).distance for b in ("l_hand", "l_forearm"))


def test_the_four_c_case_study_matches_the_cli(cli):
    report = rc.four_c_study()
    expected = cli("fourc", "--case-study", "--json")
    for key in ("pairs_tested", "infinite_hits", "cylinder_contacts", "capsule_contacts"):
        assert report[key] == expected[key]


def test_cells_pickle_with_their_sources(tmp_path, demo):
    folder = tmp_path / "panda"
    shutil.copytree(PANDA, folder)
    cell = rc.load_cell(folder / "panda_spherized.urdf", srdf=folder / "panda.srdf")
    data = pickle.dumps(cell)
    shutil.rmtree(folder)  # the pickle carries the files
    back = pickle.loads(data)
    q = [0, -0.785, 0, -2.356, 0, 1.571, 0.785]
    assert back.check(q).to_dict() == cell.check(q).to_dict()
    again = pickle.loads(pickle.dumps(demo))
    assert again.check(demo.home).to_dict() == demo.check(demo.home).to_dict()


def _closest_distance(args):
    cell, q = args
    return cell.check(q).closest.distance


def test_cells_cross_process_boundaries(demo):
    configs = [a + b for a, b in DEMO_POSES]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        remote = pool.map(_closest_distance, [(demo, q) for q in configs])
    assert remote == [demo.check(q).closest.distance for q in configs]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda c: c.check([0] * 11), "expected 12"),
        (lambda c: c.check([0] * 11 + [float("nan")]), "must be finite"),
        (lambda c: c.check("abc"), "q must be a 1-D sequence"),
        (lambda c: c.check(np.zeros(12), threshold=-1), "threshold"),
        (lambda c: c.check_many(np.zeros((4, 11))), r"shape \(n, 12\)"),
        (lambda c: c.check_many(np.full((2, 12), np.nan)), r"q\[0\]\[0\] must be finite"),
        (lambda c: c.jacobian(np.zeros(12), "R1", "nowhere", [0, 0, 0]), "no link `nowhere`"),
        (lambda c: c.link_names("R7"), "no robot `R7`"),
        (lambda c: c.sweep([0, 1], np.zeros((3, 12))), "2 times for 3 configurations"),
        (lambda c: c.sweep([1, 0], np.zeros((2, 12))), "time 0 does not increase"),
        (lambda c: c.plan([0] * 5, [0] * 6), "start: robot R1 has 6 joint"),
    ],
)
def test_bad_input_to_a_cell_names_the_value(demo, call, message):
    with pytest.raises(rc.RobocollideError, match=message):
        call(demo)


def test_bad_files_name_the_file_and_line(tmp_path):
    with pytest.raises(rc.RobocollideError, match="nothing.toml"):
        rc.load_cell(tmp_path / "nothing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\n[[robots]]\nlabel = "R1"\nbodies = [{ name = "a", sphere = { center = [0, 0], radius = 1 } }]\n')
    with pytest.raises(rc.RobocollideError, match=r"broken\.toml.*line 4"):
        rc.load_cell(broken)
    with pytest.raises(rc.RobocollideError, match="apply to a URDF model"):
        rc.load_cell(DEMO, srdf=SRDF)
