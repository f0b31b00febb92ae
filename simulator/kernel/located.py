"""Errors in compiled code, told at the repository's lines.

The code a build of the game flow runs is a copy of simulator/kernel/flow.py in the cache
folder (simulator/kernel/builds.py), whose lines keep flow.py's numbers. An error raised there,
or met compiling it (Numba's typing errors quote the file and line), would name the copy, a
file no reader can find; ``located`` names flow.py's line instead.
"""

from __future__ import annotations

import re
import traceback
from contextlib import contextmanager
from pathlib import Path

from .builds import FLOW_SOURCE

# a place in a copy of flow.py in the cache folder (builds.flow_build_file), in each form
# Python and Numba name one: 'File "FILE", line N', "FILE:N", "FILE (N)"
_COPY = re.compile(r'(?:File ")?[^\s"\']*golfsim_flow_\w+\.py(?:", line |:| \()(\d+)\)?')
_REPOSITORY = FLOW_SOURCE.resolve().parents[2]


def repository_path(path: Path = FLOW_SOURCE) -> str:
    return path.resolve().relative_to(_REPOSITORY).as_posix()


def in_repository(text: str) -> str:
    """``text`` with every place in a build's copy of flow.py named as the place in flow.py
    (``simulator/kernel/flow.py:LINE``): the copy keeps flow.py's line numbers."""
    return _COPY.sub(lambda m: f"{repository_path()}:{m.group(1)}", text)


class CompiledCodeError(RuntimeError):
    """An error raised in a build of the game flow, or compiling one: the message names the
    line of the repository's file where it happened."""


def where(error: BaseException) -> str | None:
    """``error`` told at the repository's lines, when it was raised in (or compiling) a copy
    of flow.py; else None."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if _COPY.search(
        f"{f.filename}:{f.lineno}")]
    text = f"{type(error).__name__}: {error}"
    if not frames and in_repository(text) == text:
        return None
    place = f"{repository_path()}:{frames[-1].lineno}: " if frames else ""
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
