#!/usr/bin/env python3
"""Robust statistics of criterion's raw samples: min, 10th percentile and median time per
iteration of every benchmark under target/criterion (or the groups named on the command line).

Criterion's headline estimate is a mean over samples and is pulled up by a noisy host; the
minimum and low percentiles of the same samples show what the code costs when undisturbed.
Run after `cargo bench`: `python3 benches/sample_stats.py [group ...]`."""

import json
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent / "target" / "criterion"
groups = sys.argv[1:]


def fmt(ns):
    return f"{ns / 1e3:.1f} µs" if ns >= 1e3 else f"{ns:.1f} ns"


for sample in sorted(root.glob("*/*/new/sample.json")):
    group, bench = sample.parts[-4], sample.parts[-3]
    if groups and group not in groups:
        continue
    data = json.loads(sample.read_text())
    per = sorted(t / i for t, i in zip(data["times"], data["iters"]))
    print(f"{group}/{bench}: min {fmt(per[0])}, p10 {fmt(per[len(per) // 10])}, "
          f"median {fmt(per[len(per) // 2])} ({len(per)} samples)")
