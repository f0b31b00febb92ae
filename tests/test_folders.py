"""Results folders as a whole (docs/cli.md#results-folders, issue 27): a full disk or any
other write error is one line naming the file, exit status 2, with nothing half-written;
a command marks its folder unfinished (golfsim-in-progress.json) and never leaves the files
of two runs side by side; temporary files of killed processes are removed; a killed `run`
resumes to the uninterrupted run's data; a folder another process is writing is refused.
The kills of every command at random moments are tests/test_faults.py (slow tier)."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

import simulator.api as golf
from simulator.cli import cli
from simulator.api.commands import run_manifest
from simulator.experiments import folder as fd
from cli_errors import assert_one_line_error

ROOT = Path(__file__).resolve().parent.parent
MARKER = fd.MARKER
FULL = "No space left on device"


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def run_args(out: Path, seed: int, *extra, rounds: int = 3000):
    return ("run", "--rounds", rounds, "--chunk-size", 500, "--seed", seed, "--threads", 1,
            *extra, "--out", out, "--quiet")


def marker(out: Path) -> dict:
    return json.loads((out / MARKER).read_text())


def temporaries(out: Path) -> list[Path]:
    return [p for p in out.rglob(".*") if p.name.endswith(".tmp")]


# ---- a full disk ----------------------------------------------------------------------------
def test_a_full_disk_while_writing_the_rounds_is_one_line_and_mixes_no_runs(tmp_path,
                                                                             monkeypatch):
    """Issue 27: polars reports a full disk as a ComputeError, which ended `run --per-round`
    with a traceback after it had written the new summary.parquet beside the old run's
    rounds.parquet."""
    out = tmp_path / "run"
    assert invoke(*run_args(out, 1, "--per-round")).exit_code == 0
    real = pl.DataFrame.write_parquet

    def full(self, file, *args, **kw):
        if "rounds.parquet" in str(file):
            Path(file).write_bytes(b"PAR1 half")        # what polars had written by then
            raise pl.exceptions.ComputeError("parquet: File out of specification: underlying "
                                             "IO error: No space left on device (os error 28)")
        return real(self, file, *args, **kw)

    monkeypatch.setattr(pl.DataFrame, "write_parquet", full)
    args = run_args(out, 2, "--per-round")
    res = invoke(*args)
    assert_one_line_error(res, args, [str(out / "rounds.parquet"), FULL, MARKER])
    # neither the old run's files nor a part of the new one's; the folder says why, and
    # keeps what was played
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "shards"]
    m = marker(out)
    assert m["command"] == "run" and "--seed 2" in m["command_line"]
    assert m["state"] == "stopped" and FULL in m["reason"]
    monkeypatch.undo()
    again = invoke(*args)                          # room again: the same command finishes it
    assert again.exit_code == 0 and "resumed: 3,000 of the 3,000 rounds" in again.stderr
    assert not (out / MARKER).exists() and not temporaries(out)
    assert pl.read_parquet_metadata(out / "rounds.parquet")["seed"] == "2"


GUIDE = ("guide", "--players", 2, "--deals", 100, "--check-rounds", 0, "--compare-rounds", 200,
         "--vary", "ender_penalty=none,plus_10", "--threads", 1, "--quiet")
TUNE = ("tune", "--preset", "four_card", "--strategy", "knock-threshold", "--param", "T=6,8",
        "--opponent", "knock-threshold:T=8", "--rounds", 2000, "--threads", 1, "--quiet")
COMPARE = ("compare", "--vary", "pair_scope=column,anywhere", "--rounds", 1000,
           "--shard-size", 500, "--threads", 1, "--quiet")
TOURNAMENT = ("tournament", "--strategy", "greedy", "--strategy", "random", "--rounds", 1000,
              "--threads", 1, "--quiet")
RUN = ("run", "--rounds", 2000, "--chunk-size", 500, "--threads", 1, "--quiet")


@pytest.mark.parametrize("args, failing", [
    (RUN, "shards/run-state.npz"),            # the kept state of a run
    (TUNE, "shards/eval-00000-"),             # a kept evaluation: a traceback before
    (GUIDE, "shards/measure-"),               # a kept measurement: a traceback before
    (COMPARE, "shards/shard-00000.npz"),      # a shard: one line before, without the file
    (TOURNAMENT, "ranking.parquet"),          # a results file
], ids=["run", "tune", "guide", "compare", "tournament"])
def test_a_full_disk_is_one_line_naming_the_file(tmp_path, monkeypatch, args, failing):
    out = tmp_path / "out"
    real = os.replace

    def full(src, dst, *a, **kw):   # the disk fills up as that file is written
        if failing in str(dst):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(src, dst, *a, **kw)

    monkeypatch.setattr(os, "replace", full)
    res = invoke(*args, "--out", out)
    assert_one_line_error(res, args, [f"--out {out}: writing {out}/{failing}", FULL])
    assert marker(out)["state"] == "stopped"
    assert not temporaries(out)
    outputs = fd.OUTPUTS[args[0]]
    assert not [p for p in out.iterdir() if p.name in outputs]


@pytest.mark.skipif(sys.platform != "linux", reason="mounts a tmpfs in a user namespace")
def test_a_really_full_disk(tmp_path):
    """A 256 kB tmpfs (mounted in a user namespace: no root needed, skipped where that is
    not allowed) fills up while `run --per-round` writes its rounds."""
    disk = tmp_path / "disk"
    disk.mkdir()
    try:
        probe = subprocess.run(["unshare", "-rm", "sh", "-c",
                                f"mount -t tmpfs -o size=64k tmpfs {disk}"], capture_output=True)
    except OSError:
        probe = None
    if probe is None or probe.returncode != 0:
        pytest.skip("cannot mount a tmpfs in a user namespace (unshare -rm) here")
    out = disk / "run"
    script = (f"mount -t tmpfs -o size=256k tmpfs {disk} && "
              f"{sys.executable} -m simulator.cli run --rounds 200000 --per-round --threads 1 "
              f"--quiet --out {out}; echo rc=$?; ls -A {out}")
    res = subprocess.run(["unshare", "-rm", "sh", "-c", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("golfsim: error: --out "), res.stderr
    assert FULL in lines[0] and "Traceback" not in res.stderr
    listing = res.stdout.split("rc=")[1].split()
    assert listing[0] == "2"
    # no summary without its rounds, no temporary file: the marker (and the kept state)
    assert MARKER in listing[1:] and not any(n.endswith(".tmp") for n in listing)
    assert not {"summary.parquet", "rounds.parquet"} & set(listing)


# ---- one run at a time in a folder ------------------------------------------------------------
def _wait_for(path: Path, proc: subprocess.Popen, timeout: float = 300.0) -> None:
    t0 = time.monotonic()
    while not path.exists():
        if proc.poll() is not None:
            raise AssertionError(f"the command ended before {path.name} was written "
                                 f"({proc.returncode}): {proc.stderr.read().decode()}")
        if time.monotonic() - t0 > timeout:
            proc.kill()
            raise AssertionError(f"{path.name} not written within {timeout} s")
        time.sleep(0.005)


def test_a_killed_rerun_mixes_no_runs_and_resumes(tmp_path):
    """Issue 27: a killed run into the folder of an earlier run left the files of both side
    by side, unmarked, and its temporary files for ever; a rerun played everything again."""
    out = tmp_path / "run"
    assert invoke(*run_args(out, 1, "--per-round")).exit_code == 0
    stale = [out / ".rounds.parquet.99999999.0badf00d.tmp",       # a killed writer's
             out / ".golfsim-write-test.99999999.0badf00d.tmp"]
    for p in stale:
        p.write_bytes(b"x" * 1000)
    args = [str(a) for a in run_args(out, 2, "--per-round", rounds=1_000_000)]
    proc = subprocess.Popen([sys.executable, "-m", "simulator.cli", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _wait_for(out / "shards" / "run-state.npz", proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    names = {p.name for p in out.iterdir()}
    assert names == {MARKER, "shards"}, names      # the old run's files are gone, not mixed
    assert "--seed 2" in marker(out)["command_line"]
    assert not any(p.exists() for p in stale)
    plot = invoke("plot", out)                     # what the folder is, when asked
    assert "is unfinished" in plot.stderr and "--seed 2" in plot.stderr
    res = invoke(*args, "--threads", 2)            # any thread count resumes it
    assert res.exit_code == 0, res.output
    assert "golfsim: resumed: " in res.stderr
    assert not (out / MARKER).exists() and not (out / "shards").exists()
    assert not temporaries(out)
    whole = tmp_path / "whole"
    assert invoke(*run_args(whole, 2, "--per-round", rounds=1_000_000),
                  "--threads", 2).exit_code == 0
    for name in ("summary.parquet", "rounds.parquet"):
        assert_frame_equal(pl.read_parquet(out / name), pl.read_parquet(whole / name),
                           check_exact=True)
        m1, m2 = (pl.read_parquet_metadata(d / name) for d in (out, whole))
        assert {k: v for k, v in m1.items() if k != "command"} == \
            {k: v for k, v in m2.items() if k != "command"}


def test_a_folder_being_written_by_another_process_is_refused(tmp_path):
    out = tmp_path / "busy"
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        out.mkdir()
        (out / MARKER).write_text(json.dumps({
            "command": "run", "command_line": "golfsim run --seed 5", "pid": other.pid,
            "process_start": fd.process_start(other.pid), "host": fd.socket.gethostname()}))
        (out / "summary.parquet").write_bytes(b"being written")
        args = run_args(out, 1)
        res = invoke(*args)
        assert_one_line_error(res, args, [f"--out {out}", "another golfsim process",
                                          str(other.pid)])
        assert (out / "summary.parquet").read_bytes() == b"being written"
    finally:
        other.kill()
        other.wait()
    res = invoke(*run_args(out, 1))                # its process is gone: the folder is free
    assert res.exit_code == 0, res.output
    assert not (out / MARKER).exists()


def test_run_refuses_the_shards_of_another_command(tmp_path):
    out = tmp_path / "cmp"
    assert invoke(*COMPARE, "--out", out).exit_code == 0
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    args = run_args(out, 1)
    res = invoke(*args)
    assert_one_line_error(res, args, [f"--out {out}", "a golfsim compare"])
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before


def test_writing_a_result_replaces_the_files_of_an_earlier_one(tmp_path):
    """Result.write follows the folder contract too: a run without --per-round written where
    one with it was leaves no rounds.parquet of the other run behind."""
    out = tmp_path / "w"
    assert invoke(*run_args(out, 1, "--per-round")).exit_code == 0
    res = golf.run(rounds=2000, seed=2, threads=1, progress=False)
    written = res.write(out)
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in written)
    assert not (out / "rounds.parquet").exists()


# ---- the kept state of a run ------------------------------------------------------------------
def test_the_rounds_left_to_play():
    from simulator.experiments.runner import merged, remaining
    assert merged([(10, 5), (0, 10), (20, 5), (22, 1)]) == [(0, 15), (20, 5)]
    assert list(remaining(30, 4, [(0, 10), (12, 3), (20, 5)])) == \
        [(10, 2), (15, 4), (19, 1), (25, 4), (29, 1)]
    assert list(remaining(8, 3, [])) == [(0, 3), (3, 3), (6, 2)]
    assert list(remaining(8, 3, [(0, 8)])) == []


def _kept_state(out: Path, rounds: int, per_round: bool):
    """The state a run killed after its last save leaves in ``out/shards``."""
    from simulator.experiments import runner
    from simulator.experiments.shards import RunStore
    from strategies import resolve_seats, seat_arrays
    rs = golf.rules("six_card")
    seats = resolve_seats(["greedy"], 4)
    store = RunStore(out, run_manifest(rs, 4, seats, rounds, 3, per_round, 0, 0, "auto"))
    store.open()
    ids, params = seat_arrays(seats)
    runner.run(rs.rules, 4, ids, params, rounds, 3, chunk_size=500, per_round=per_round,
               store=store)
    return store


@pytest.mark.parametrize("damage, note", [
    ("run-state.npz", "run-state.npz is unreadable"),
    ("rounds-00000.npz", "rounds-00000.npz is unreadable"),
])
def test_a_damaged_run_state_is_played_again(tmp_path, damage, note):
    out = tmp_path / "d"
    store = _kept_state(out, 3000, per_round=True)
    path = store.dir / damage
    path.write_bytes(path.read_bytes()[:100])
    res = invoke(*run_args(out, 3, "--per-round"))
    assert res.exit_code == 0, res.output
    assert note in res.stderr and "resumed" not in res.stderr
    whole = tmp_path / "whole"
    assert invoke(*run_args(whole, 3, "--per-round")).exit_code == 0
    for name in ("summary.parquet", "rounds.parquet"):
        assert_frame_equal(pl.read_parquet(out / name), pl.read_parquet(whole / name),
                           check_exact=True)


def test_a_kept_state_of_other_arguments_is_discarded(tmp_path):
    out = tmp_path / "d"
    _kept_state(out, 2000, per_round=False)
    res = invoke(*run_args(out, 3))                # 3000 rounds: another run
    assert res.exit_code == 0, res.output
    assert "discarded the unfinished run of other arguments" in res.stderr
    assert "resumed" not in res.stderr
    assert pl.read_parquet(out / "summary.parquet")["rounds"][0] == 3000
    assert not (out / "shards").exists()
