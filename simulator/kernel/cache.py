"""The compile cache on disk: checking that its folder can be written, keeping it bounded,
and emptying it (``golfsim warm --clear``).

simulator/kernel/jit.py names the folder of this version ``<base>/<hash of the compiled
sources>``, the base being ``GOLFSIM_CACHE_DIR`` (``NUMBA_CACHE_DIR`` when set, else
``~/.cache/golfsim/numba``). What grows there and what bounds it:

- every version of a user policy file compiles its own build of the game flow and its own
  guard (simulator/kernel/policy_api.py, ``builds.flow_build``): only the
  ``USER_BUILDS_KEPT`` most recently used of each are kept, the others removed with
  everything Numba cached of them;
- every version of golfsim compiles into a folder of its own: the folder of another version
  not used for ``STALE_DAYS`` days is removed.

Nothing here is compiled (it is not one of jit.KERNEL_SOURCES) and nothing imports Numba, so
the command line can catch ``CacheError`` without loading the kernel.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

USER_BUILDS_KEPT = 10
# the generated modules of which every version of a user policy adds one:
# (folder in the cache, the modules' name prefix)
USER_BUILDS = (("flow_builds", "golfsim_flow_user_"), ("policy_guards", "golfsim_guard_"))
STALE_DAYS = 14
LAST_USED = "last-used"      # touched in a version's folder by every process that uses it
USED_SUFFIX = ".used"        # touched beside a generated module whenever it is loaded
SETTINGS = ("NUMBA_CACHE_DIR", "GOLFSIM_CACHE_DIR")   # as jit._cache_dir reads them


class CacheError(Exception):
    """The compile cache's folder cannot be written (the message is one line)."""


def _setting() -> str:
    """Where the cache's base folder comes from, as the error names it."""
    for name in SETTINGS:
        if os.environ.get(name):
            return f"{name}={os.environ[name]}"
    return "the default compile cache folder (GOLFSIM_CACHE_DIR is not set)"


def open_folder(cache_dir) -> None:
    """Create this version's folder ``cache_dir`` when new and mark it used now, then remove
    the folders of other versions unused for STALE_DAYS days. Raises CacheError when the
    folder cannot be written."""
    folder = Path(cache_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / LAST_USED).touch()
    except OSError as e:
        raise CacheError(f"{_setting()}: the compile cache cannot be written in {folder} "
                         f"({e.strerror or e}); set GOLFSIM_CACHE_DIR to a writable "
                         "folder") from None
    remove_stale(folder)


def versions(cache_dir) -> list[Path]:
    """The folders of every version in the base folder of ``cache_dir`` (named as it is: a
    hash of as many hex digits); nothing else there is touched."""
    folder = Path(cache_dir)
    width = len(folder.name)
    try:
        found = list(folder.parent.iterdir())
    except OSError:
        return []
    return [p for p in found if p.is_dir() and len(p.name) == width and
            all(c in "0123456789abcdef" for c in p.name)]


def _last_used(folder: Path) -> float:
    for p in (folder / LAST_USED, folder):
        try:
            return p.stat().st_mtime
        except OSError:
            continue
    return time.time()


def remove_stale(cache_dir) -> list[Path]:
    """Remove the folders of the other versions not used for STALE_DAYS days; returns them."""
    current = Path(cache_dir)
    cutoff = time.time() - STALE_DAYS * 86400
    stale = [p for p in versions(current) if p.name != current.name and _last_used(p) < cutoff]
    for p in stale:
        shutil.rmtree(p, ignore_errors=True)
    return stale


def clear(cache_dir) -> tuple[list[Path], int]:
    """Remove the folder of every version (this one included): (the folders, bytes freed)."""
    removed, freed = [], 0
    for p in versions(cache_dir):
        freed += _size(p)
        shutil.rmtree(p, ignore_errors=True)
        removed.append(p)
    return removed, freed


def _size(folder: Path) -> int:
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.stat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return total


def note_use(module_file) -> None:
    """A generated module was loaded: it is the most recently used of its kind. (Its own
    time stamp is Numba's check that its cache is current, so it is never touched.)"""
    try:
        Path(module_file).with_suffix(USED_SUFFIX).touch()
    except OSError:
        pass


def _use_time(module_file: Path) -> float:
    for p in (module_file.with_suffix(USED_SUFFIX), module_file):
        try:
            return p.stat().st_mtime
        except OSError:
            continue
    return 0.0


def bound_user_builds(cache_dir, keep: int = USER_BUILDS_KEPT) -> list[str]:
    """Remove all but the ``keep`` most recently used user builds of each kind (USER_BUILDS),
    each with what Numba cached of it; returns the names of the modules removed."""
    removed = []
    for folder, prefix in USER_BUILDS:
        found = sorted(Path(cache_dir, folder).glob(f"{prefix}*.py"), key=_use_time,
                       reverse=True)
        for module_file in found[keep:]:
            remove_build(cache_dir, folder, module_file.stem)
            removed.append(module_file.stem)
    return removed


def remove_build(cache_dir, folder: str, stem: str) -> None:
    """Remove the generated module ``stem`` of ``folder`` and every file Numba cached of it
    (``<folder>_<hash>/<stem>.<function>-<line>.*``)."""
    for p in Path(cache_dir).glob(f"{folder}*/**/{stem}.*"):
        try:
            p.unlink()
        except OSError:
            pass
