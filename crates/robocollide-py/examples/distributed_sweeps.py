"""Validate many trajectories on many processes: guaranteed sweeps distributed with Dask (or,
without Dask, with the standard library's concurrent.futures), checked against a sequential run.

Run: python examples/distributed_sweeps.py [OUT_FOLDER] [--engine dask|futures] [--count N]

The cell travels to the workers pickled with the text of every file it was built from, so
workers need no access to the data folder. On a cluster, start a scheduler and workers
(`dask scheduler`, `dask worker tcp://HOST:8786`, each with `pip install robocollide`) and
pass the scheduler's address to `Client("tcp://HOST:8786")` instead of the LocalCluster below;
nothing else changes.
"""

import argparse
import concurrent.futures
import pathlib

import numpy as np

import robocollide as rc

DATA = pathlib.Path(__file__).resolve().parents[3] / "data"


def random_trajectories(cell, count, rows, seed):
    """Random joint-space walks of the UR5 and the IRB 120 (degrees), 0.1 s per row."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        start = cell.home + rng.uniform(-60, 60, cell.dof)
        steps = rng.normal(scale=8.0, size=(rows, cell.dof))
        q = start + np.cumsum(steps, axis=0)
        out.append((np.arange(rows) * 0.1, q))
    return out


def sweep_one(cell, times, q):
    """One guaranteed sweep, summarised: (certified free, first contact time, pair labels)."""
    report = cell.sweep(times, q)
    first = report.first_collision
    return (
        report.certified_free,
        None if first is None else first[0],
        None if first is None else first[1].labels,
    )


def with_dask(cell, trajectories):
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            shared = client.scatter(cell, broadcast=True)  # pickled once: the cell and its files
            futures = [client.submit(sweep_one, shared, t, q, pure=False) for t, q in trajectories]
            return client.gather(futures)


def with_futures(cell, trajectories):
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        return list(pool.map(sweep_one, [cell] * len(trajectories), *zip(*trajectories)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out", nargs="?", default=None)
    parser.add_argument("--engine", choices=["dask", "futures"], default=None)
    parser.add_argument("--count", type=int, default=40)
    args = parser.parse_args()
    engine = args.engine
    if engine is None:
        try:
            import dask.distributed  # noqa: F401

            engine = "dask"
        except ImportError:
            engine = "futures"
            print("dask is not installed: using concurrent.futures")

    cell = rc.load_cell(DATA / "cells" / "ur5_irb120.toml")
    trajectories = random_trajectories(cell, args.count, rows=30, seed=4)
    results = (with_dask if engine == "dask" else with_futures)(cell, trajectories)
    expected = [sweep_one(cell, t, q) for t, q in trajectories]
    assert results == expected, "a worker answered unlike the sequential sweep"
    free = sum(1 for r in results if r[0])
    print(f"{engine}: {len(results)} trajectories swept on 2 processes, {free} certified free, "
          f"{len(results) - free} with a contact or an uncertified stretch; equal to the sequential run")
    assert 0 < free < len(results)


if __name__ == "__main__":
    main()
