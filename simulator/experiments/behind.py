"""A user policy's own build of the game flow compiled in the background, so that the first
run of a version of its file does not wait minutes for it (runner.make_job): that run plays on
the general engine through the policy's pointer, and the runs after the compile load the
build. ``GOLFSIM_USER_BUILD=wait`` makes a run wait for the build instead (tests, benchmarks,
and the background process itself)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

WAIT_VARIABLE = "GOLFSIM_USER_BUILD"
# a background compile started less than this long ago (by any process) is taken to be still
# at work: none is started again
STARTED_S = 1800
_STARTED: dict = {}   # "FILE:FUNCTION" -> the background process this process started


def waits() -> bool:
    """Does a run wait for a user policy's own build (GOLFSIM_USER_BUILD=wait)?"""
    return os.environ.get(WAIT_VARIABLE, "") == "wait"


def compile_behind(spec: str, build_file: Path, notify=None) -> None:
    """Start a process, at low priority, that compiles the own build (``build_file``) of the
    user policy ``spec`` ("FILE:FUNCTION") into the cache folder, as ``golfsim warm`` would,
    unless one is still at work; ``notify`` is told that the run plays without it."""
    started = build_file.with_suffix(".compiling")
    recent = started.exists() and time.time() - started.stat().st_mtime < STARTED_S
    if spec not in _STARTED and not recent:
        started.parent.mkdir(parents=True, exist_ok=True)
        started.write_text(f"{os.getpid()}\n")
        nice = ["nice", "-n", "10"] if shutil.which("nice") else []
        _STARTED[spec] = subprocess.Popen(
            nice + [sys.executable, "-m", "simulator.experiments.warm", f"user:{spec}"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, env=dict(os.environ, **{WAIT_VARIABLE: "wait"}))
    if notify is not None:
        notify(f"{spec} plays on the general engine this time (through its pointer); its own "
               f"build of the game flow, 2 to 3 times as fast, is compiling in the background "
               f"for the next runs (once per version of the file; a few minutes)")


def started(spec: str):
    """The background process this process started for ``spec``, or None."""
    return _STARTED.get(spec)
