#!/usr/bin/env python3
"""robocollide and VAMP planning MotionBenchMaker's Panda problems in one run, on one core.

Each round plans every problem once with robocollide (`robocollide plan --problems`, a
subprocess) and, where a `vamp` Python module is importable, once with VAMP's RRT-Connect
(in this process: VAMP's settings of the recorded baseline, `range` 1.0, 1 000 000
iterations, dynamic domains, a Halton sampler reset per problem). Rounds alternate the two, so
a host's drift reaches both alike. Reported per planner: the median, mean and 95th percentile
of the search's time, for every single round and for each problem's least over the rounds
(the same statistic for both), VAMP's recorded times beside them, and the per-problem ratio.

Then each planner's cost per problem outside its search clock, so that what a caller waits for
is compared too: robocollide's scene set-up (the report's `setup_ns`: the scene's obstacles
added to the robot and the planner built for them) against VAMP's environment built from the
problem (`vamp.problem_dict_to_vamp`, Python objects to VAMP's C++ scene) plus its planner
call's wall time outside its own clock (VAMP's scene converted to vector form, the trees'
buffers for `settings.max_samples` nodes allocated, and the Python binding's conversions).
Each is each problem's least over the rounds, and the sum with the search is given too.

VAMP's iteration counts must equal the recorded ones (its Halton sampler is deterministic): the
script counts the problems where they do not, which would mean the VAMP it imported does not
run the recorded searches. Without `vamp`, robocollide is compared with the recorded times
only (they come from one machine of this project's kind; hosts of one kind differ).

    python3 benches/vamp_same_run.py --robocollide target/release/robocollide --rounds 6

(`benches/README.md`, "MotionBenchMaker against VAMP", says how VAMP was built here.)"""

import argparse
import json
import math
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "vamp-data"
PANDA = ROOT / "data" / "robots" / "panda"


def arguments():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--robocollide", required=True, help="the robocollide binary to time")
    p.add_argument("--rounds", type=int, default=3, help="rounds of both planners (default 3)")
    p.add_argument("--cpu", type=int, default=1, help="the one core both run on (default 1)")
    p.add_argument("--problems", default=str(DATA / "panda_mbm_problems.json"))
    p.add_argument("--recorded", nargs="+", default=[str(DATA / "vamp_rrtc_paths_panda.json"),
                                                     str(DATA / "vamp_rrtc_baseline_panda.json")],
                   help="VAMP's recorded runs (the first is the reference without vamp)")
    p.add_argument("--robot", default=str(PANDA / "panda_spherized.urdf"))
    p.add_argument("--srdf", default=str(PANDA / "panda.srdf"))
    p.add_argument("--json", help="write the per-problem least times here")
    p.add_argument("--vamp-max-samples", type=int,
                   help="VAMP's settings.max_samples (default: VAMP's own, as in the recorded run); "
                        "its tree buffers are allocated for this many nodes on every call")
    args = p.parse_args()
    if args.rounds < 1:
        p.error(f"--rounds must be at least 1, got {args.rounds}")
    return args


def import_vamp():
    try:
        import vamp  # (optional: never a dependency of the project)
    except ImportError as error:
        print(f"vamp is not importable ({error}): robocollide against VAMP's recorded times only")
        return None
    return vamp


class VampRunner:
    """VAMP's RRT-Connect on every problem, with the recorded baseline's settings."""

    def __init__(self, vamp, problems, max_samples=None):
        self.vamp = vamp
        self.module, self.planner, self.settings, _ = vamp.configure_robot_and_planner_with_kwargs(
            "panda", "rrtc"
        )
        self.settings.range = 1.0
        self.settings.max_iterations = 1_000_000
        self.settings.dynamic_domain = True
        if max_samples is not None:
            self.settings.max_samples = max_samples
        self.sampler = self.module.halton()
        self.problems = []
        for family, entries in problems.items():
            for problem in entries:
                env = vamp.problem_dict_to_vamp(problem)
                start, goals = problem["start"], problem["goals"]
                valid = self.module.validate(start, env) and any(
                    self.module.validate(goal, env) for goal in goals
                )
                if valid:
                    self.problems.append(((family, problem["index"]), start, goals, problem, env))

    def round(self):
        """`{(family, index): (planning ns, iterations, set-up ns)}` of the solved problems,
        the set-up being the scene's construction plus the planner call's time outside its
        clock (see the module docs)."""
        out = {}
        for key, start, goals, problem, env in self.problems:
            self.sampler.reset()
            began = time.perf_counter_ns()
            result = self.planner(start, goals, env, self.settings, self.sampler)
            called = time.perf_counter_ns() - began
            # (The scene built again after the search, as the planner got it before the
            # rounds: built just before, it changed VAMP's search time, 70 -> 89 µs median.)
            began = time.perf_counter_ns()
            self.vamp.problem_dict_to_vamp(problem)
            built = time.perf_counter_ns() - began
            if result.solved:
                setup = built + max(called - result.nanoseconds, 0)
                out[key] = (result.nanoseconds, result.iterations, setup)
        return out


def robocollide_round(args, scratch):
    """`({(family, index): planning ns}, {(family, index): set-up ns})` of the problems
    robocollide solved, from its report."""
    report = pathlib.Path(scratch) / "report.json"
    command = [args.robocollide, "plan", "--problems", args.problems, "--robot", args.robot,
               "--srdf", args.srdf, "--time-limit", "10", "--json", str(report),
               "--out", str(pathlib.Path(scratch) / "plan")]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    records = [r for r in json.loads(report.read_text())
               if r.get("solved") and r.get("planning_ns") is not None]
    return ({(r["family"], r["index"]): r["planning_ns"] for r in records},
            {(r["family"], r["index"]): r["setup_ns"] for r in records
             if r.get("setup_ns") is not None})


def load_recorded(path):
    """`{(family, index): (planning ns, iterations)}` of a recorded VAMP run's solved problems."""
    out = {}
    for r in json.loads(pathlib.Path(path).read_text())["problems"]:
        trial = r["trials"][0] if r.get("trials") else None
        if trial and trial.get("solved"):
            out[(r["family"], r["index"])] = (trial["planning_ns"], trial["iterations"])
    return out


def summary(times_ns):
    """`(median, mean, p95)` in µs."""
    v = sorted(times_ns)
    p95 = v[min(len(v) - 1, math.ceil(0.95 * len(v)) - 1)]
    return statistics.median(v) / 1e3, statistics.mean(v) / 1e3, p95 / 1e3


def line(name, times_ns):
    median, mean, p95 = summary(times_ns)
    return f"{name:<44} {median:>9.1f} {mean:>9.1f} {p95:>9.1f}   ({len(times_ns)} solved)"


def least(rounds):
    out = {}
    for r in rounds:
        for key, ns in r.items():
            out[key] = min(out.get(key, math.inf), ns)
    return out


def end_to_end(ours, our_setups, theirs, their_setups, max_samples):
    """Prints each planner's set-up per problem and set-up plus search (see the module docs)."""
    setup_ours, setup_theirs = least(our_setups), least(their_setups)
    search_ours, search_theirs = least(ours), least(theirs)
    keys = [k for k in setup_ours if k in setup_theirs and k in search_ours and k in search_theirs]
    if not keys:
        return
    print(f"\n{'outside the search clock, µs':<44} {'median':>9} {'mean':>9} {'p95':>9}")
    print(line("robocollide set-up (setup_ns)", [setup_ours[k] for k in keys]))
    print(line(f"VAMP set-up (max_samples {max_samples})",
               [setup_theirs[k] for k in keys]))
    total_ours = [setup_ours[k] + search_ours[k] for k in keys]
    total_theirs = [setup_theirs[k] + search_theirs[k] for k in keys]
    print(line("robocollide set-up + search", total_ours))
    print(line("VAMP set-up + search", total_theirs))
    ratios = [a / b for a, b in zip(total_ours, total_theirs)]
    print(f"ratio robocollide / VAMP, set-up + search: of medians "
          f"{summary(total_ours)[0] / summary(total_theirs)[0]:.2f}, "
          f"per problem median {statistics.median(ratios):.2f} ({len(keys)} problems)")


def main():
    args = arguments()
    os.sched_setaffinity(0, {args.cpu})  # (the robocollide subprocess inherits it)
    problems = json.loads(pathlib.Path(args.problems).read_text())["problems"]
    records = [load_recorded(path) for path in args.recorded]
    recorded = records[0]
    vamp = import_vamp()
    runner = VampRunner(vamp, problems, args.vamp_max_samples) if vamp else None
    ours, theirs, our_setups, their_setups = [], [], [], []
    with tempfile.TemporaryDirectory() as scratch:
        for i in range(args.rounds):
            searched, set_up = robocollide_round(args, scratch)
            ours.append(searched)
            our_setups.append(set_up)
            note = f"round {i + 1}/{args.rounds}: robocollide median {summary(ours[-1].values())[0]:.1f} µs"
            if runner:
                measured = runner.round()
                theirs.append({k: ns for k, (ns, _, _) in measured.items()})
                their_setups.append({k: setup for k, (_, _, setup) in measured.items()})
                mismatched = sum(recorded.get(k, (0, None))[1] != it
                                 for k, (_, it, _) in measured.items())
                note += (f", VAMP median {summary(theirs[-1].values())[0]:.1f} µs"
                         f" (iterations differing from the recorded: {mismatched})")
            print(note, flush=True)
    print(f"\n{'search time, µs':<44} {'median':>9} {'mean':>9} {'p95':>9}")
    for path, run in zip(args.recorded, records):
        print(line(f"VAMP recorded, {pathlib.Path(path).stem}", [ns for ns, _ in run.values()]))
    rows = [("robocollide", ours)] + ([("VAMP measured here", theirs)] if theirs else [])
    for name, rounds in rows:
        medians = [summary(r.values())[0] for r in rounds]
        print(line(f"{name}, each problem's least of {len(rounds)}", least(rounds).values()))
        print(f"{'':<4}single rounds' medians: {min(medians):.1f}–{max(medians):.1f} µs")
    best_ours = least(ours)
    reference = least(theirs) if theirs else {k: ns for k, (ns, _) in recorded.items()}
    label = "VAMP measured here (least)" if theirs else f"VAMP recorded ({pathlib.Path(args.recorded[0]).stem})"
    keys = [k for k in best_ours if k in reference]
    ratios = [best_ours[k] / reference[k] for k in keys]
    print(f"\nratio robocollide / {label}: of medians "
          f"{summary([best_ours[k] for k in keys])[0] / summary([reference[k] for k in keys])[0]:.2f}, "
          f"per problem median {statistics.median(ratios):.2f}, "
          f"geometric mean {math.exp(statistics.mean(map(math.log, ratios))):.2f} ({len(keys)} problems)")
    families = sorted({family for family, _ in keys})
    for family in families:
        ks = [k for k in keys if k[0] == family]
        a, b = summary([best_ours[k] for k in ks])[0], summary([reference[k] for k in ks])[0]
        print(f"    {family:<18} robocollide {a:>7.1f} µs, VAMP {b:>7.1f} µs: {a / b:.2f}")
    if theirs:
        pairs = list(zip(ours, theirs))
        single = [summary(o.values())[0] / summary(t.values())[0] for o, t in pairs]
        print(f"ratio of single rounds' medians: {min(single):.2f}–{max(single):.2f}")
    if their_setups:
        end_to_end(ours, our_setups, theirs, their_setups, runner.settings.max_samples)
    if args.json:
        best_theirs = least(theirs)
        out = [{"family": f, "index": i, "robocollide_ns": best_ours.get((f, i)),
                "vamp_ns": best_theirs.get((f, i)),
                "vamp_recorded_ns": recorded.get((f, i), (None,))[0]}
               for f, entries in problems.items() for i in [p["index"] for p in entries]]
        pathlib.Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
