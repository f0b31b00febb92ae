"""Which compiled builds exist on this machine, and saying so while one compiles.

A build is compiled code a run needs: the general engine, the lean kernel, each built-in
policy (strategies.compiled), match play. Numba compiles each on first use and caches it
(simulator/kernel/jit.py); a marker file in the same cache folder records that it was compiled, so
the first run can say what it is compiling and about how long that takes, and later runs say
nothing. The estimates are cold compiles measured on a 2-core machine
(benchmarks/compile_time.py), kept with each build in simulator/kernel/features.py's table.

A build of the game flow is one module in the cache folder: the modules of the package
simulator/kernel/flow one after another, each of its own height (their imports of each other
blanked), with build.py's build lines set, of the same height as the block they replace. So
every line of the copy is a line of one module of the package at a known place (flow_lines),
and an error raised in (or compiling) the copy is told at that module's line
(simulator/kernel/located.py).
"""

from __future__ import annotations

import hashlib
import importlib
import os
import re
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from . import cache
from .features import BUILDS, PARTS
from .jit import CACHE_DIR

DEFAULT_ESTIMATE_S = 5
# how often a first run that compiles says how long it has been at it
TICK_S = 15.0


_READY = False


def ready() -> None:
    """Check once per process that the cache folder can be written (cache.open_folder): the
    first thing anything that writes there does. Raises cache.CacheError."""
    global _READY
    if not _READY:
        cache.open_folder(CACHE_DIR)
        _READY = True


def _marker(name: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in name)
    return Path(CACHE_DIR) / "builds" / safe[-120:]


def is_compiled(name: str) -> bool:
    return _marker(name).exists()


def _entry(name: str):
    """(compile estimate, description) of build or part ``name`` (features.BUILDS, PARTS), a
    user policy's build ``user:FILE:FUNCTION`` as the user build, a built-in's own build
    ``own:NAME`` as the own build; None when unknown."""
    base = name.split(":", 1)[0] if name.startswith(("user:", "own:")) else name
    if name.startswith("own:") and name[len("own:"):] in BUILDS:
        base = name[len("own:"):]   # a built-in with a flow build of its own (lean flow)
    if base in BUILDS:
        return BUILDS[base].estimate_s, BUILDS[base].description
    return PARTS.get(base)


def estimate(name: str) -> float:
    entry = _entry(name)
    return DEFAULT_ESTIMATE_S if entry is None else entry[0]


def describe(name: str) -> str:
    if name.startswith("user:"):
        return f"the build of {name[len('user:'):]}"
    if name.startswith("own:"):
        return f"the {name[len('own:'):]} policy's own build"
    entry = _entry(name)
    if entry is not None:
        return entry[1]
    if name.startswith("policy:"):
        return f"the {name.split(':', 1)[1]} policy"
    return name


@contextmanager
def elapsed(what: str, notify, every: float = TICK_S):
    """Around a compile that ``notify`` was told of: every ``every`` seconds how long it has
    been compiling, and at the end how long it took, so a first run that waits a minute shows
    that it is working (``notify`` None: nothing)."""
    if notify is None:
        yield
        return
    t0 = time.perf_counter()
    stop = threading.Event()

    def tick():
        while not stop.wait(every):
            notify(f"still compiling {what}: {time.perf_counter() - t0:.0f} s")
    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        yield
    finally:
        stop.set()
        ticker.join()
    notify(f"compiled {what} in {time.perf_counter() - t0:.0f} s (later runs load it)")


@contextmanager
def compiling(name: str, notify=None):
    """Around the first call of build ``name``: tells ``notify`` when it is not compiled yet,
    and how long it takes, and marks it compiled when the block ends without an error
    (``name`` None: nothing)."""
    ready()
    cold = name is not None and not is_compiled(name)
    if cold and notify is not None:
        notify(f"compiling {describe(name)} (once per version; about "
               f"{estimate(name)} s)")
    t0 = time.perf_counter()
    with elapsed(describe(name) if name else "", notify if cold else None):
        yield
    if cold:
        marker = _marker(name)
        marker.parent.mkdir(parents=True, exist_ok=True)
        partial = marker.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(f"{time.perf_counter() - t0:.1f}\n")
        partial.replace(marker)


# ---- the game flow's builds (the package simulator/kernel/flow) -------------------------------
FLOW_PACKAGE = Path(__file__).with_name("flow")
# its modules in the order in which each reads the ones before it (flow/__init__.py)
FLOW_MODULES = ("build", "base", "moves", "ask", "reveal", "turn", "power_effects",
                "power_turn", "round")
BUILD_START = "# ---- the build: each build's copy replaces these lines (builds.flow_build) ----"
BUILD_END = "# ---- end of the build ----"
_RELATIVE_IMPORT = re.compile(r"^from \.\w* import (?:\([^)]*\)|.*)\n", re.M)
_FUTURE = "from __future__ import annotations\n"
_FLOW_BUILDS: dict = {}


def _blank(match: re.Match) -> str:
    return "\n" * match.group(0).count("\n")


def _flow_parts() -> list[tuple[Path, str]]:
    """Each module of the flow (FLOW_MODULES) and its text in a build's copy: its imports of
    the others and its ``from __future__`` line blanked, so it keeps its line numbers."""
    return [(FLOW_PACKAGE / f"{m}.py",
             _RELATIVE_IMPORT.sub(_blank, (FLOW_PACKAGE / f"{m}.py").read_text())
             .replace(_FUTURE, "\n")) for m in FLOW_MODULES]


def flow_source() -> str:
    """The flow's modules as the text of one module, after a ``from __future__`` line: what
    each build copies, its build lines set (flow_lines says where each module is)."""
    return _FUTURE + "".join(text for _, text in _flow_parts())


def flow_lines() -> list[tuple[int, Path]]:
    """(the line of flow_source at which the module starts, its file), in order: line N of a
    build's copy is line N - start + 1 of the last module starting at or before N."""
    starts, line = [], 1 + _FUTURE.count("\n")
    for path, text in _flow_parts():
        starts.append((line, path))
        line += text.count("\n")
    return starts


def module_line(line: int) -> tuple[Path, int]:
    """(the flow module's file, its line) of line ``line`` of a build's copy (flow_lines); the
    copy's first line, its ``from __future__``, is told as the first module's first line."""
    start, path = next((s for s in reversed(flow_lines()) if s[0] <= line), flow_lines()[0])
    return path, max(1, line - start + 1)


def flow_build_file(name: str, lines: str, key: bytes = b"") -> Path:
    """Where build ``name`` of the flow is written: a copy whose build lines are ``lines``
    (module constants and the policy it compiles in), named after a hash of the flow's
    source, the cache folder, the lines and ``key`` (e.g. the user policy file's text), so an
    edit to any of them makes a fresh copy and a stale one is never loaded."""
    h = hashlib.sha256(flow_source().encode())
    for part in (CACHE_DIR, lines):
        h.update(part.encode())
    h.update(key)
    safe = "".join(c if c.isalnum() else "_" for c in name)[-40:]
    return Path(CACHE_DIR) / "flow_builds" / f"golfsim_flow_{safe}_{h.hexdigest()[:16]}.py"


def _load(file: Path, source):
    """Import the module ``file`` of the cache folder, first writing it from ``source()``
    when it does not exist; a new one may push the least recently used user build out of
    the cache (cache.bound_user_builds)."""
    if file.stem in _FLOW_BUILDS:
        return _FLOW_BUILDS[file.stem]
    ready()
    if not file.exists():
        file.parent.mkdir(parents=True, exist_ok=True)
        partial = file.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(source())
        partial.replace(file)   # whole or absent: another process may be importing it
        cache.bound_user_builds(CACHE_DIR)
    cache.note_use(file)
    if str(file.parent) not in sys.path:
        sys.path.insert(0, str(file.parent))
    _FLOW_BUILDS[file.stem] = importlib.import_module(file.stem)
    return _FLOW_BUILDS[file.stem]


def flow_build_compiled(file: Path) -> bool:
    """Has the build of the flow written to ``file`` (flow_build_file) been compiled, by
    this process or another? Numba's cache holds its chunk function's index then."""
    return any(Path(CACHE_DIR).glob(f"*/{file.stem}.chunk_nb-*.nbi"))


def generated_module(folder: str, stem: str, source: str):
    """Import ``source`` as module ``stem`` written into the cache folder's ``folder`` (when
    new), so Numba can compile and cache its functions like any module's. ``stem`` should
    name what the source depends on (a hash), so a stale module is never loaded."""
    return _load(Path(CACHE_DIR) / folder / f"{stem}.py", lambda: source)


def same_height(lines: str, height: int) -> str:
    """``lines`` padded with empty lines to ``height`` lines (ValueError when longer), so
    that the copy's lines keep their modules' numbers (flow_lines)."""
    rows = lines.rstrip("\n").split("\n")
    if len(rows) > height:
        raise ValueError(f"build lines: {len(rows)} lines do not fit the {height} lines "
                         f"between the build markers of the flow's build.py")
    return "\n".join(rows) + "\n" * (height - len(rows) + 1)


def flow_build(name: str, lines: str, key: bytes = b""):
    """The module of the flow compiled as build ``name`` (flow_build_file), written into the
    cache folder when new and imported from there, so Numba compiles and caches it like any
    module. ``lines`` replace the block between build.py's build markers, padded to its
    height (same_height)."""
    def source() -> str:
        text = flow_source()
        start, end = text.index(BUILD_START), text.index(BUILD_END)
        height = text[start:end].count("\n") - 1
        return text[:start] + BUILD_START + "\n" + same_height(lines, height) + text[end:]
    return _load(flow_build_file(name, lines, key), source)


# a built-in that compiles alone in at most this many seconds (features.PARTS) is copied into
# every ask of its own build: random then plays 1.27x as fast as called; a larger one (forgetful:
# 1.04x) is called, as copies of it would add minutes to the compile
INLINE_POLICY_S = 5


def own_lines(name: str, module: str, function: str) -> str:
    """The flow's build lines for the own build of built-in ``name``, whose entry point is
    ``module``'s ``function`` (strategies/compiled.py ENTRIES): compiled with the flow, and
    copied where a seat is asked or called from there (INLINE_POLICY_S). A built-in with a
    build of the flow of its own (features.BUILDS: random, forgetful, opponent-aware: the lean
    flow, from its cache of what each seat knows) has its lines."""
    if name in BUILDS:
        return BUILDS[name].lines()
    inline = "always" if estimate(f"policy:{name}") <= INLINE_POLICY_S else "never"
    own = BUILDS["own"]
    return own.lines(*own.imports, f"from {module} import {function} as _own",
                     f"own_decide = hot(_own, inline={inline!r}, cache=False)")
