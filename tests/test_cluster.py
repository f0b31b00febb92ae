"""--cluster (simulator/experiments/cluster.py): run and compare on a local Dask cluster of two
worker processes give the same Parquet frames as in-process, also when a worker is killed
mid-run. Skipped when Dask (golfsim[cluster]) is not installed."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import polars as pl
import pytest

from click.testing import CliRunner

from cli_errors import assert_one_line_error
from simulator import api
from simulator.cli import cli
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
    with pytest.raises(api.GolfsimError, match="cluster"):
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


# ---- user policies on the cluster, Ctrl-C, an unreachable cluster -----------------------------
EXAMPLE_POLICY = f"{ROOT / 'strategies' / 'examples' / 'greedy_policy.py'}:decide"


def _cli(*args, timeout: float = 300.0) -> subprocess.CompletedProcess:
    """The command line in a process of its own: a command that never ends fails the test
    when ``timeout`` runs out (subprocess.TimeoutExpired) instead of holding it forever."""
    return subprocess.run([sys.executable, "-m", "simulator.cli", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.slow   # (about 20 s: the default tier keeps within its five minutes)
@needs_dask
def test_a_user_policy_plays_on_the_cluster(client, tmp_path):
    """Issue 38's command: a user policy beside a built-in on local:2 ends (each worker
    compiles or loads the policy once; a worker used to wait for a lock it held itself) with
    the in-process run's data, and so does a comparison on the module's cluster."""
    seats = ["--strategy", EXAMPLE_POLICY, "--strategy", "greedy"]
    got = _cli("run", "--preset", "six_card", "--players", 2, *seats, "--rounds", 300,
               "--threads", 1, "--cluster", "local:2", "--out", tmp_path / "there", "--quiet")
    assert got.returncode == 0, got.stderr
    api.run(preset="six_card", players=2, strategy=[EXAMPLE_POLICY, "greedy"], rounds=300,
            threads=1, progress=False, out=tmp_path / "here")
    _same(_frames(tmp_path / "here", ["summary.parquet"]),
          _frames(tmp_path / "there", ["summary.parquet"]))

    got = _cli("compare", "--vary", "pair_scope=column,anywhere", "--players", 2,
               "--strategy", f"{EXAMPLE_POLICY},greedy", "--rounds", 4000, "--shard-size", 1000,
               "--seed", 3, "--quiet", "--cluster", client.scheduler.address,
               "--out", tmp_path / "c-there")
    assert got.returncode == 0, got.stderr
    api.compare(vary=["pair_scope=column,anywhere"], players=2,
                strategy=[EXAMPLE_POLICY, "greedy"], rounds=4000, shard_size=1000, seed=3,
                threads=2, progress=False, out=tmp_path / "c-here")
    _same(_frames(tmp_path / "c-here", ["compare.parquet"]),
          _frames(tmp_path / "c-there", ["compare.parquet"]))


@pytest.mark.slow
@needs_dask
def test_a_user_policy_plays_its_own_build_on_the_cluster(client, tmp_path):
    """Every seat plays the user policy: the workers load its own build of the game flow
    (compiled before the slow tier, tests/conftest.py); the same data as in-process."""
    address = client.scheduler.address
    common = ["--preset", "six_card", "--players", 3, "--strategy", EXAMPLE_POLICY,
              "--rounds", 20_000, "--chunk-size", 5000, "--per-round", "--quiet"]
    got = _cli("run", *common, "--cluster", address, "--out", tmp_path / "there")
    assert got.returncode == 0, got.stderr
    got = _cli("run", *common, "--threads", 2, "--out", tmp_path / "here")
    assert got.returncode == 0, got.stderr
    names = ["summary.parquet", "rounds.parquet"]
    _same(_frames(tmp_path / "here", names), _frames(tmp_path / "there", names))

    common = ["--vary", "pair_scope=column,anywhere", "--players", 3, "--strategy",
              EXAMPLE_POLICY, "--rounds", 6000, "--shard-size", 2000, "--quiet"]
    got = _cli("compare", *common, "--cluster", address, "--out", tmp_path / "c-there")
    assert got.returncode == 0, got.stderr
    got = _cli("compare", *common, "--threads", 2, "--out", tmp_path / "c-here")
    assert got.returncode == 0, got.stderr
    _same(_frames(tmp_path / "c-here", ["compare.parquet"]),
          _frames(tmp_path / "c-there", ["compare.parquet"]))


# tasks of a minute or more on a worker: a Ctrl-C must not wait for them
LONG_TASKS = {
    "run": ["run", "--players", 2, "--rounds", 400_000_000, "--chunk-size", 100_000_000],
    "compare": ["compare", "--vary", "pair_scope=column,anywhere", "--players", 2,
                "--rounds", 30_000_000, "--shard-size", 3_000_000],
}
STOPPED = {"run": "golfsim: interrupted after 0 of 400,000,000 rounds",
           "compare": "golfsim: compare interrupted after 0 shard(s)"}


@needs_dask
@pytest.mark.slow   # (about 15 s each)
@pytest.mark.parametrize("command", ["run", "compare"])
def test_ctrl_c_stops_a_cluster_command_at_once(command, tmp_path):
    """SIGINT while the workers play long tasks: the command cancels them and stops within
    seconds, saying it was interrupted (not that a policy was stuck), the folder marked
    interrupted."""
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "simulator.cli", *map(str, LONG_TASKS[command]),
                             "--cluster", "local:2", "--out", str(out), "--quiet"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 300
        while not (out / "golfsim-in-progress.json").exists():   # the cluster is up
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < deadline, "the command never began its folder"
            time.sleep(0.05)
        time.sleep(3.0)   # the first tasks are running on the workers
        proc.send_signal(signal.SIGINT)
        t0 = time.monotonic()
        _, err = proc.communicate(timeout=60)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert took < 20, f"stopped {took:.0f} s after Ctrl-C"
    assert err.strip().splitlines()[-1].startswith(STOPPED[command]), err
    assert "rerun the same command to resume" in err
    assert "policy" not in err and "Traceback" not in err, err
    marker = json.loads((out / "golfsim-in-progress.json").read_text())
    assert marker["state"] == "stopped" and marker["reason"].startswith("interrupted")


@needs_dask
@pytest.mark.parametrize("address", [pytest.param("tcp://127.0.0.1:1", marks=pytest.mark.slow),
                                     "inproc://nowhere"])
def test_an_unreachable_cluster_leaves_the_folder_as_it_was(address, tmp_path):
    """A cluster that cannot be reached (a refused port times out after 20 s): one line,
    exit 2, and the folder of an earlier run keeps its files and no in-progress marker (the
    cluster is reached before the folder is begun)."""
    out = tmp_path / "run"
    args = ["run", "--rounds", 2000, "--threads", 1, "--out", out, "--quiet"]
    assert CliRunner().invoke(cli, list(map(str, args))).exit_code == 0
    before = _frames(out, ["summary.parquet"])
    args += ["--cluster", address]
    assert_one_line_error(CliRunner().invoke(cli, list(map(str, args))), args,
                          [f"--cluster {address}: "])
    assert not (out / "golfsim-in-progress.json").exists()
    _same(before, _frames(out, ["summary.parquet"]))


@pytest.mark.slow   # (about 20 s)
@needs_dask
def test_networks_play_on_the_cluster(client, tmp_path):
    """A ``net:`` seat's parameters hold the address of its weights in the process that
    loaded them; each worker loads the network again (net.rebind): the cluster's totals are
    the in-process run's."""
    from strategies import net
    from test_env_net import random_layers
    paths = []
    for seed in (1, 2):
        paths.append(tmp_path / f"n{seed}.npz")
        net.save(paths[-1], random_layers(2, seed), 2, "six_card")
    common = dict(preset="six_card", players=2, rounds=400, threads=1, progress=False,
                  strategy=[f"net:{p}" for p in paths])
    api.run(**common, out=tmp_path / "here")
    api.run(**common, cluster=client.scheduler.address, out=tmp_path / "there")
    _same(_frames(tmp_path / "here", ["summary.parquet"]),
          _frames(tmp_path / "there", ["summary.parquet"]))
