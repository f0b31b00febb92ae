"""Errors in compiled code, told at the repository's lines.

The code a build of the game flow runs is a copy of the package simulator/kernel/flow in the
cache folder, its modules joined into one (simulator/kernel/builds.py), each line of which is a
line of one module of the package at a known place (builds.module_line). An error raised there,
or met compiling it (Numba's typing errors quote the file and line), would name the copy, a
file no reader can find; ``located`` names the module's file and line instead.
"""

from __future__ import annotations

import re
import traceback
from contextlib import contextmanager

from .builds import FLOW_PACKAGE, module_line

# a place in a copy of the flow in the cache folder (builds.flow_build_file), in each form
# Python and Numba name one: 'File "FILE", line N', "FILE:N", "FILE (N)"
_COPY = re.compile(r'(?:File ")?[^\s"\']*golfsim_flow_\w+\.py(?:", line |:| \()(\d+)\)?')
_REPOSITORY = FLOW_PACKAGE.resolve().parents[2]


def repository_place(line: int) -> str:
    """Line ``line`` of a build's copy as ``FILE:LINE`` of the module of the flow it is
    (e.g. ``simulator/kernel/flow/turn.py:120``)."""
    path, at = module_line(line)
    return f"{path.resolve().relative_to(_REPOSITORY).as_posix()}:{at}"


def in_repository(text: str) -> str:
    """``text`` with every place in a build's copy of the flow named as the place in the
    flow's module (repository_place)."""
    return _COPY.sub(lambda m: repository_place(int(m.group(1))), text)


class CompiledCodeError(RuntimeError):
    """An error raised in a build of the game flow, or compiling one: the message names the
    line of the repository's file where it happened."""


def where(error: BaseException) -> str | None:
    """``error`` told at the repository's lines, when it was raised in (or compiling) a copy
    of the flow; else None."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if _COPY.search(
        f"{f.filename}:{f.lineno}")]
    text = f"{type(error).__name__}: {error}"
    if not frames and in_repository(text) == text:
        return None
    place = f"{repository_place(frames[-1].lineno)}: " if frames else ""
    return place + in_repository(text)


@contextmanager
def located():
    """Around calls into builds of the game flow: an error raised in one (or compiling one)
    becomes a CompiledCodeError naming the repository's file and line; any other error
    passes as it is."""
    try:
        yield
    except Exception as e:   # noqa: BLE001 - only those of a flow build's copy are changed
        told = where(e)
        if told is None:
            raise
        raise CompiledCodeError(told) from e
