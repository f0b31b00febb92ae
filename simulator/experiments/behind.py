"""A policy's own build of the game flow compiled in the background, so that the first run
that could take it does not wait minutes for it (runner.make_job): a user policy's (the run
plays through the policy's pointer, on the table build or, for the rules it lacks, the general
engine), or a built-in's (the run plays on the table build, through the built-ins' table); the runs after the compile load the build.
``GOLFSIM_USER_BUILD=wait`` makes a run wait for either instead (tests, benchmarks, and the
background process itself). ``GOLFSIM_OWN_BUILD`` decides for the built-ins' own builds alone:
``wait`` waits for them, ``no`` never takes one (the test suite's default, so that its runs
of a built-in play on the table build and compile no own build)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

WAIT_VARIABLE = "GOLFSIM_USER_BUILD"
OWN_VARIABLE = "GOLFSIM_OWN_BUILD"
# a background compile started less than this long ago (by any process) is taken to be still
# at work: none is started again
STARTED_S = 1800
# the build's name as ``golfsim warm`` takes it ("user:FILE:FUNCTION", "own:NAME") -> the
# background process this process started
_STARTED: dict = {}


def waits() -> bool:
    """Does a run wait for a user policy's own build (GOLFSIM_USER_BUILD=wait)?"""
    return os.environ.get(WAIT_VARIABLE, "") == "wait"


def own_waits() -> bool:
    """Does a run wait for a built-in's own build (GOLFSIM_OWN_BUILD=wait, or unset and
    GOLFSIM_USER_BUILD=wait)?"""
    return os.environ.get(OWN_VARIABLE, "wait" if waits() else "") == "wait"


def own_taken() -> bool:
    """May a run take a built-in's own build at all (not GOLFSIM_OWN_BUILD=no)?"""
    return os.environ.get(OWN_VARIABLE, "") != "no"


def _start(name: str, build_file: Path) -> None:
    """The process that compiles build ``name`` (``build_file``), at low priority, unless
    one is still at work."""
    started = build_file.with_suffix(".compiling")
    recent = started.exists() and time.time() - started.stat().st_mtime < STARTED_S
    if name not in _STARTED and not recent:
        started.parent.mkdir(parents=True, exist_ok=True)
        started.write_text(f"{os.getpid()}\n")
        nice = ["nice", "-n", "10"] if shutil.which("nice") else []
        _STARTED[name] = subprocess.Popen(
            nice + [sys.executable, "-m", "simulator.experiments.warm", name],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
            env=dict(os.environ, **{WAIT_VARIABLE: "wait", OWN_VARIABLE: "wait"}))


def compile_behind(spec: str, build_file: Path, notify=None) -> None:
    """Start a process, at low priority, that compiles the own build (``build_file``) of the
    user policy ``spec`` ("FILE:FUNCTION") into the cache folder, as ``golfsim warm`` would,
    unless one is still at work; ``notify`` is told that the run plays without it."""
    _start(f"user:{spec}", build_file)
    if notify is not None:
        notify(f"{spec} plays through its pointer this time (on the table build or the "
               f"general engine); its own build of the game flow, faster still, is compiling "
               f"in the background for the next runs (once per version of the file; a few "
               f"minutes)")


def compile_own_behind(name: str, build_file: Path, notify=None) -> None:
    """As compile_behind, for a built-in's own build ``name`` ("own:NAME")."""
    _start(name, build_file)
    if notify is not None:
        notify(f"{name[len('own:'):]} plays on the table build this time (through the "
               f"built-ins' table); its own build of the game flow is compiling in the "
               f"background for the next runs (once per version; a minute or two)")


def started(name: str):
    """The background process this process started for ``name`` (a user policy's
    "FILE:FUNCTION", or a built-in's own build "own:NAME"), or None."""
    return _STARTED.get(name if name.startswith("own:") else f"user:{name}")
