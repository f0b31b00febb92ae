"""--cluster (simulator/experiments/cluster.py): run and compare on a local Dask cluster of two
worker processes give the same Parquet frames as in-process, also when a worker is killed
mid-run. Skipped when Dask (golfsim[cluster]) is not installed."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import polars as pl
import pytest

from simulator import api
from simulator.experiments import cluster

HAVE_DASK = importlib.util.find_spec("distributed") is not None
needs_dask = pytest.mark.skipif(not HAVE_DASK, reason="Dask is not installed "
                                "(pip install 'golfsim[cluster]')")
if HAVE_DASK:
    import distributed

ROOT = Path(__file__).resolve().parents[1]


def test_in_process_does_not_import_dask(tmp_path):
    code = ("import sys; from simulator import api; "
            "api.run(rounds=1000, threads=1, progress=False, out=sys.argv[1]); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    got = subprocess.run([sys.executable, "-c", code, str(tmp_path / "r")], cwd=ROOT,
                         capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip().splitlines()[-1] == "[]"


def _frames(folder, names):
    return {n: pl.read_parquet(folder / n) for n in names}


def _same(a: dict, b: dict) -> None:
    for name in a:
        assert a[name].equals(b[name]), name


@pytest.fixture(scope="module")
def client():
    if not HAVE_DASK:
        pytest.skip("Dask is not installed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as lc, \
            distributed.Client(lc) as c:
        c.wait_for_workers(2)
        yield c


def test_parse():
    assert cluster.parse("local:3") == ("local", 3)
    assert cluster.parse("tcp://10.0.0.1:8786") == ("address", "tcp://10.0.0.1:8786")
    for bad in ("local:0", "local:x", "10.0.0.1:8786"):
        with pytest.raises(ValueError):
            cluster.parse(bad)
    with pytest.raises(api.GolfsimError, match="--cluster"):
        api.run(rounds=10, cluster="nowhere", progress=False)


@needs_dask
def test_run_and_compare_identical(client, tmp_path):
    address = client.scheduler.address
    common = dict(rounds=400_000, seed=7, chunk_size=50_000, per_round=True, progress=False)
    api.run(**common, threads=2, out=tmp_path / "here")
    api.run(**common, cluster=address, out=tmp_path / "there")
    names = ["summary.parquet", "rounds.parquet"]
    _same(_frames(tmp_path / "here", names), _frames(tmp_path / "there", names))

    common = dict(preset="six_card", vary=["pair_scope=column,anywhere"], rounds=50_000,
                  shard_size=10_000, seed=3, progress=False)
    api.compare(**common, threads=2, out=tmp_path / "c-here")
    api.compare(**common, cluster=address, out=tmp_path / "c-there")
    _same(_frames(tmp_path / "c-here", ["compare.parquet"]),
          _frames(tmp_path / "c-there", ["compare.parquet"]))


@needs_dask
def test_local_spec_starts_and_stops_a_cluster(tmp_path):
    """local:2 from the command line's path: the same frames, and no session left open."""
    common = dict(rounds=100_000, seed=11, progress=False)
    api.run(**common, threads=1, out=tmp_path / "here")
    api.run(**common, cluster="local:2", out=tmp_path / "there")
    _same(_frames(tmp_path / "here", ["summary.parquet"]),
          _frames(tmp_path / "there", ["summary.parquet"]))
    assert cluster.active() is None


@pytest.mark.slow
@needs_dask
def test_worker_killed_mid_run(tmp_path):
    """A worker process killed (SIGKILL) while it plays chunks: Dask plays them again on the
    other worker (or the restarted one) and the data are those of the in-process run."""
    common = dict(rounds=6_000_000, seed=5, chunk_size=100_000, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as lc, \
            distributed.Client(lc) as c:
        c.wait_for_workers(2)
        outcome = {}

        def play():
            try:
                outcome["result"] = api.run(**common, cluster=c.scheduler.address,
                                            out=tmp_path / "there")
            except BaseException as e:  # noqa: BLE001
                outcome["error"] = e

        runner_thread = threading.Thread(target=play)
        runner_thread.start()
        deadline = time.monotonic() + 120
        victim = None
        while victim is None and time.monotonic() < deadline:   # a worker playing a chunk
            busy = {w: keys for w, keys in c.processing().items()
                    if any(str(k).startswith("golfsim-chunk") for k in keys)}
            if busy:
                time.sleep(1.0)   # some chunks are done, some in flight
                victim = next(iter(busy))
            else:
                time.sleep(0.05)
        assert victim is not None, "no chunk reached the cluster"
        pid = c.run(os.getpid, workers=[victim])[victim]
        assert runner_thread.is_alive(), "the run ended before a worker could be killed"
        os.kill(pid, signal.SIGKILL)
        runner_thread.join(timeout=300)
        assert not runner_thread.is_alive()
        assert "error" not in outcome, outcome.get("error")
    api.run(**common, threads=2, out=tmp_path / "here")
    _same(_frames(tmp_path / "here", ["summary.parquet"]),
          _frames(tmp_path / "there", ["summary.parquet"]))


@pytest.mark.slow
@needs_dask
def test_tune_and_tournament_identical(client, tmp_path):
    address = client.scheduler.address
    common = dict(strategy=["greedy", "random"], rounds=20_000, seed=2, progress=False)
    api.tournament(**common, threads=2, out=tmp_path / "t-here")
    api.tournament(**common, cluster=address, out=tmp_path / "t-there")
    names = ["ranking.parquet", "head_to_head.parquet"]
    _same(_frames(tmp_path / "t-here", names), _frames(tmp_path / "t-there", names))

    common = dict(preset="four_card", set=["pair_scope=none",
                                           "initial_reveal_constraint=nearest_row"],
                  strategy="knock-threshold", param=["T=6..12:2"],
                  opponent=["knock-threshold:T=8"], rounds=40_000, seed=4, progress=False)
    api.tune(**common, threads=2, out=tmp_path / "u-here")
    api.tune(**common, cluster=address, out=tmp_path / "u-there")
    _same(_frames(tmp_path / "u-here", ["tune.parquet"]),
          _frames(tmp_path / "u-there", ["tune.parquet"]))
