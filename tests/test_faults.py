"""Kills at random moments (issue 27, slow tier): `run`, `compare`, `tune`, `tournament` and
`guide` are killed (SIGKILL) at moments drawn with a fixed seed, as a fraction of how long an
uninterrupted run of the same command takes here (so the kills fall as often into loading,
playing and writing on a slow machine as on a fast one; a fraction above 1 lets it finish),
in a folder that holds an earlier, finished run of the same command with another seed; the
first attempt is killed while it writes its results.
After every kill each file in the folder must be readable and none from the other run may
sit beside the new one's (docs/cli.md#results-folders); the final rerun must write exactly
the uninterrupted run's Parquet data and metadata, leaving neither the marker nor a
temporary file."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import matplotlib.image
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from simulator.experiments import folder as fd

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
# the killed attempts before the rerun that must finish: a kill time drawn from each of
# these ranges (fractions of an uninterrupted run's time), in this order
STRATA = [(0.05, 0.4), (0.4, 0.7), (0.7, 0.95), (0.95, 1.1), (0.55, 1.0)]
KILLS = len(STRATA)
SEED, OTHER_SEED = 5, 6

COMMANDS = {
    "run": ["run", "--rounds", 600_000, "--per-round", "--chunk-size", 20_000, "--threads", 2],
    "compare": ["compare", "--vary", "pair_scope=column,anywhere", "--vary",
                "ender_penalty=none,plus_10", "--rounds", 40_000, "--shard-size", 4000,
                "--threads", 2],
    "tune": ["tune", "--preset", "four_card", "--set", "pair_scope=none", "--strategy",
             "knock-threshold", "--param", "T=4..11", "--opponent", "knock-threshold:T=8",
             "--rounds", 200_000, "--threads", 2],
    "tournament": ["tournament", "--strategy", "greedy", "--strategy", "random",
                   "--strategy", "knock-threshold", "--rounds", 60_000, "--threads", 2],
    "guide": ["guide", "--players", 2, "--deals", 200, "--check-rounds", 4000,
              "--compare-rounds", 4000, "--threads", 2],
}
RESUMABLE = {"compare", "tune", "guide"}   # the ones with --fresh
# the first attempt is killed while it writes this file (the temporary file of one of its
# last and largest results), after others of its files are written
WRITING = {"run": ".rounds.parquet.*.tmp", "compare": ".compare.png.*.tmp",
           "tune": ".tune.png.*.tmp", "tournament": ".tournament.png.*.tmp",
           "guide": ".guide-*.png.*.tmp"}


def _args(command: str, out: Path, seed: int, fresh: bool = False) -> list[str]:
    return [sys.executable, "-m", "simulator.cli",
            *map(str, COMMANDS[command]), "--seed", str(seed), "--out", str(out), "--quiet",
            *(["--fresh"] if fresh else [])]


def _play(command: str, out: Path, seed: int, fresh: bool = False, kill_after=None,
          kill_on: str | None = None):
    """Run the command; with ``kill_after`` seconds, SIGKILL it then if it still runs; with
    ``kill_on`` (a glob pattern), as soon as a file matching it appears in ``out``.
    Returns (seconds, return code, stderr)."""
    t0 = time.monotonic()
    proc = subprocess.Popen(_args(command, out, seed, fresh), cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        if kill_after is not None:
            try:
                proc.wait(timeout=kill_after)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
        if kill_on is not None:
            while proc.poll() is None and time.monotonic() - t0 < 900:
                if out.is_dir() and next(out.glob(kill_on), None) is not None:
                    proc.send_signal(signal.SIGKILL)
                    break
                time.sleep(0.001)
        _, err = proc.communicate(timeout=900)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return time.monotonic() - t0, proc.returncode, err.decode()


def _needs_fresh(command: str, out: Path, reference: Path) -> bool:
    """Does ``out`` keep the shards of other arguments (the earlier run's), which only
    --fresh discards? As a user would read the refusal, without playing."""
    if command not in RESUMABLE:
        return False
    kept = out / "shards" / "manifest.json"
    return kept.exists() and kept.read_text() != (reference / "shards" / "manifest.json").read_text()


def _outputs(folder: Path) -> dict[str, Path]:
    """The files at the top of ``folder`` but the marker and temporary files (a killed
    process's are left until the next command; the final check wants none)."""
    return {p.name: p for p in folder.iterdir() if p.is_file() and p.name != fd.MARKER and
            not (p.name.startswith(".") and p.name.endswith(".tmp"))}


def _readable(path: Path) -> None:
    """Every kind of file a command writes, read whole."""
    if path.suffix == ".parquet":
        pl.read_parquet(path)
        pl.read_parquet_metadata(path)
    elif path.suffix == ".png":
        matplotlib.image.imread(path)
    elif path.suffix in (".md", ".html", ".json"):
        assert path.read_text(encoding="utf-8"), path
    elif path.suffix == ".npz" or path.suffix == ".npy":
        import numpy as np
        data = np.load(path, allow_pickle=False)
        if hasattr(data, "files"):
            for name in data.files:
                data[name]
    else:
        raise AssertionError(f"an unexpected file {path}")


def _seeds(files: dict[str, Path]) -> set[str]:
    return {pl.read_parquet_metadata(p)["seed"] for name, p in files.items()
            if name.endswith(".parquet")}


def _check_consistent(out: Path, command: str, names: dict[int, set[str]], where: str):
    """After a kill: every file readable; without the marker, the outputs are the complete
    files of one run; with it, none of the earlier run's is left."""
    for p in out.rglob("*"):
        if p.is_file() and not (p.name.startswith(".") and p.name.endswith(".tmp")):
            try:
                _readable(p)
            except Exception as e:  # noqa: BLE001
                raise AssertionError(f"{where}: {p} is unreadable ({e!r})") from e
    files = _outputs(out)
    marker = fd.read_marker(out)
    if marker is None:
        seeds = _seeds(files)
        assert len(seeds) == 1, (where, seeds)
        (seed,) = seeds
        assert set(files) == names[int(seed)], (where, sorted(files))
        # a run writes its Parquet files first: a file older than them is another run's
        first = min(p.stat().st_mtime_ns for n, p in files.items() if n.endswith(".parquet"))
        for p in files.values():
            assert p.stat().st_mtime_ns >= first, (where, p.name)
    else:
        # unfinished: the files are the new run's (written after its marker), or what is left
        # of the earlier run's when the kill came as they were being removed, never both
        assert marker.get("command") == command, (where, marker)
        assert f"--seed {SEED}" in marker["command_line"], (where, marker)
        made = (out / fd.MARKER).stat().st_mtime_ns
        after = {n for n, p in files.items() if p.stat().st_mtime_ns >= made}
        assert after in (set(), set(files)), (where, sorted(files), sorted(after))
        assert _seeds(files) <= ({str(SEED)} if after else {str(OTHER_SEED)}), \
            (where, sorted(files))


@pytest.mark.parametrize("command", list(COMMANDS))
def test_killed_at_random_moments_then_rerun(tmp_path, command):
    reference = tmp_path / "reference"
    seconds, code, err = _play(command, reference, SEED)
    assert code == 0, err
    earlier = tmp_path / "earlier"
    assert _play(command, earlier, OTHER_SEED)[1] == 0
    names = {SEED: set(_outputs(reference)), OTHER_SEED: set(_outputs(earlier))}

    out = tmp_path / "out"   # the folder of the earlier run, then killed runs of the new one
    assert _play(command, out, OTHER_SEED)[1] == 0
    _, code, err = _play(command, out, SEED, _needs_fresh(command, out, reference),
                         kill_on=WRITING[command])
    assert code in (0, -signal.SIGKILL), (code, err)
    _check_consistent(out, command, names, f"{command}, killed writing {WRITING[command]}")
    rng = random.Random(f"issue-27-{command}")
    for k in range(KILLS):
        fraction = rng.uniform(*STRATA[k])
        fresh = _needs_fresh(command, out, reference)
        _, code, err = _play(command, out, SEED, fresh, kill_after=fraction * seconds)
        where = f"{command}, kill {k + 1} at {fraction:.2f} of {seconds:.1f} s"
        assert code in (0, -signal.SIGKILL), (where, code, err)
        _check_consistent(out, command, names, where)

    _, code, err = _play(command, out, SEED, _needs_fresh(command, out, reference))
    assert code == 0, err
    assert not (out / fd.MARKER).exists()
    assert not [p for p in out.rglob(".*") if p.name.endswith(".tmp")]
    assert set(_outputs(out)) == names[SEED]
    assert (out / "shards").exists() == (reference / "shards").exists()
    for name in sorted(names[SEED]):
        path = out / name
        _readable(path)
        if name.endswith(".parquet"):
            assert_frame_equal(pl.read_parquet(path), pl.read_parquet(reference / name),
                               check_exact=True)
            got, want = (pl.read_parquet_metadata(d / name) for d in (out, reference))
            assert {k: v for k, v in got.items() if k != "command"} == \
                {k: v for k, v in want.items() if k != "command"}, name
            assert json.loads(got.get("warnings", "[]")) == \
                json.loads(want.get("warnings", "[]"))
