"""The compile cache on disk (simulator/kernel/cache.py): a cache folder that cannot be written
is one line naming GOLFSIM_CACHE_DIR; the builds that every version of a user policy adds are
bounded; the folders of other versions are removed once unused for long, and all of them by
``golfsim warm --clear``."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simulator.kernel import builds, cache

ROOT = Path(__file__).resolve().parents[1]


def _golfsim(*args, cache_dir) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(GOLFSIM_CACHE_DIR=str(cache_dir), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "simulator.cli", *map(str, args)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("command", [["warm"], ["run", "--rounds", 100, "--threads", 1]])
@pytest.mark.parametrize("where", ["file", "under a file"])
def test_a_cache_folder_that_cannot_be_written_is_one_line(tmp_path, command, where):
    """(As root every folder is writable: a path through a regular file is not.)"""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    setting = blocker if where == "file" else blocker / "sub"
    got = _golfsim(*command, "--quiet", cache_dir=setting)
    assert got.returncode == 2, got.stderr
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in got.stderr, got.stderr
    assert lines[0].startswith(f"golfsim: error: GOLFSIM_CACHE_DIR={setting}: "), lines[0]
    assert "Not a directory" in lines[0] and "writable folder" in lines[0]


def _fake_numba_files(cache_dir: Path, folder: str, stem: str) -> list[Path]:
    """What Numba caches of a generated module: in ``<folder>_<hash of its path>``."""
    files = [cache_dir / f"{folder}_0a1b2c" / f"{stem}.{fn}-11.py311.{ext}"
             for fn in ("guarded", "policy") for ext in ("nbi", "1.nbc")]
    for f in files:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(b"machine code")
    return files


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """builds writing into an empty cache folder of this test."""
    folder = tmp_path / "base" / Path(builds.CACHE_DIR).name
    monkeypatch.setattr(builds, "CACHE_DIR", str(folder))
    monkeypatch.setattr(builds, "_READY", False, raising=False)
    monkeypatch.setattr(builds, "_FLOW_BUILDS", {})
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield folder
    for name in [m for m in sys.modules if m.startswith(("golfsim_guard_t", "golfsim_flow_"))
                 and str(tmp_path) in (getattr(sys.modules[m], "__file__", "") or "")]:
        del sys.modules[name]


def test_user_builds_are_bounded_by_their_last_use(cache_dir):
    """Every new version of a user policy writes its modules; beyond USER_BUILDS_KEPT the
    least recently used go, with what Numba cached of them; other builds are never touched."""
    keep = cache.USER_BUILDS_KEPT
    general = cache_dir / "flow_builds" / "golfsim_flow_general_00ff.py"
    general.parent.mkdir(parents=True)
    general.write_text("X = 0\n")
    general_cached = _fake_numba_files(cache_dir, "flow_builds", general.stem)
    t0 = time.time() - 10_000
    os.utime(general, (t0, t0))
    stems = [f"golfsim_guard_t{i:04d}" for i in range(keep + 3)]
    cached = {}
    for i, stem in enumerate(stems):
        builds.generated_module("policy_guards", stem, f"X = {i}\n")
        cached[stem] = _fake_numba_files(cache_dir, "policy_guards", stem)
        used = (cache_dir / "policy_guards" / stem).with_suffix(cache.USED_SUFFIX)
        os.utime(used, (t0 + i, t0 + i))
        if i == keep - 1:   # the first version is used again: the second is the oldest
            os.utime(used.with_name(f"{stems[0]}{cache.USED_SUFFIX}"), (t0 + i + 0.5,) * 2)
    left = sorted(p.stem for p in (cache_dir / "policy_guards").glob("*.py"))
    assert left == sorted([stems[0]] + stems[-(keep - 1):])
    for stem in stems:
        kept = stem in left
        assert all(f.exists() == kept for f in cached[stem]), stem
    assert general.exists() and all(f.exists() for f in general_cached)


def _version(base: Path, name: str, days_ago: float | None) -> Path:
    folder = base / name
    (folder / "builds").mkdir(parents=True)
    (folder / "builds" / "engine").write_text("60.0\n")
    if days_ago is not None:
        stamp = folder / cache.LAST_USED
        stamp.touch()
        t = time.time() - days_ago * 86400
        os.utime(stamp, (t, t))
    return folder


def test_the_folders_of_versions_unused_for_long_are_removed(cache_dir):
    """When a command first uses the cache (any build, compiled or loaded)."""
    base, width = cache_dir.parent, len(cache_dir.name)
    old = _version(base, "a" * width, cache.STALE_DAYS + 1)
    recent = _version(base, "b" * width, cache.STALE_DAYS - 1)
    not_ours = [_version(base, "g" * width, cache.STALE_DAYS + 1),   # not a hash
                _version(base, "a" * (width + 1), cache.STALE_DAYS + 1)]
    with builds.compiling(None):
        pass
    assert (cache_dir / cache.LAST_USED).exists()
    assert not old.exists()
    assert recent.exists() and all(p.exists() for p in not_ours)


def test_warm_clear_empties_the_cache(tmp_path):
    base = tmp_path / "base"
    width = len(Path(builds.CACHE_DIR).name)
    folders = [_version(base, Path(builds.CACHE_DIR).name, 0), _version(base, "a" * width, 1)]
    (folders[0] / "flow_builds").mkdir()
    (folders[0] / "flow_builds" / "golfsim_flow_user_1.py").write_bytes(b"x" * 2_000_000)
    other = base / "notes.txt"
    other.write_text("not golfsim's\n")
    got = _golfsim("warm", "--clear", cache_dir=base)
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip() == (f"golfsim: removed 2 version folders of the compile cache "
                                  f"{base} (2.0 MB)"), got.stdout
    assert not any(f.exists() for f in folders) and other.exists()
