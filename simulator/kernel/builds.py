"""Which compiled builds exist on this machine, and saying so while one compiles.

A build is compiled code a run needs: the general engine, the lean kernel, each built-in
policy (strategies.compiled), match play. Numba compiles each on first use and caches it
(simulator/kernel/jit.py); a marker file in the same cache folder records that it was compiled, so
the first run can say what it is compiling and about how long that takes, and later runs say
nothing. The estimates are cold compiles measured on a 2-core machine
(benchmarks/compile_time.py).
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
from .jit import CACHE_DIR

# seconds a cold compile took, one build after another on one process of an idle 2-core AMD
# EPYC (benchmarks/compile_time.py times whole first runs); greedy's includes the power rule
# that the other built-ins of warm.GREEDY_FAMILY load once it is compiled
ESTIMATE_S = {
    "engine": 63,
    "powers": 57,
    "powers:matches": 6,
    "matches": 7,
    "lean": 61,
    "policy:random": 1,
    "policy:greedy": 31,
    "policy:knock-threshold": 8,
    "policy:forgetful": 8,
    "policy:heuristic": 10,
    "policy:opponent-aware": 7,
    "policy:ev": 8,
    "policy:guide": 13,
    "policy:lookahead": 54,
    # 2.0x the powers build: 102 s against 52 s idle in the same minutes (148 against 66 s at a
    # load of 1 to 2); 89 s after greedy's build in the same process
    "policy:lookahead-powers": 113,
    "user": 180,
}
DEFAULT_ESTIMATE_S = 5
# how often a first run that compiles says how long it has been at it
TICK_S = 15.0

DESCRIPTION = {
    "engine": "the general engine",
    "powers": "the power-card games' engine",
    "powers:matches": "match play of the power-card games",
    "matches": "match play",
    "lean": "the lean kernel",
    "policy:unused": "the policy table's stand-in",
    "policy:lookahead-powers": "the lookahead policy of the power-card games (with its "
                               "rollouts' build of the game flow)",
}


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


def estimate(name: str) -> float:
    return ESTIMATE_S.get(name.split(":")[0] if name.startswith("user:") else name,
                          DEFAULT_ESTIMATE_S)


def describe(name: str) -> str:
    if name in DESCRIPTION:
        return DESCRIPTION[name]
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


def flow_source() -> str:
    """The flow's modules as the text of one module (their imports of each other dropped):
    what each build copies, its build lines set."""
    parts = [_RELATIVE_IMPORT.sub("", (FLOW_PACKAGE / f"{m}.py").read_text()).replace(_FUTURE, "")
             for m in FLOW_MODULES]
    return _FUTURE + "\n\n".join(parts)


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


def generated_module(folder: str, stem: str, source: str):
    """Import ``source`` as module ``stem`` written into the cache folder's ``folder`` (when
    new), so Numba can compile and cache its functions like any module's. ``stem`` should
    name what the source depends on (a hash), so a stale module is never loaded."""
    return _load(Path(CACHE_DIR) / folder / f"{stem}.py", lambda: source)


def flow_build(name: str, lines: str, key: bytes = b""):
    """The module of the flow compiled as build ``name`` (flow_build_file), written into the
    cache folder when new and imported from there, so Numba compiles and caches it like any
    module."""
    def source() -> str:
        text = flow_source()
        start, end = text.index(BUILD_START), text.index(BUILD_END)
        return text[:start] + BUILD_START + "\n" + lines.rstrip("\n") + "\n" + text[end:]
    return _load(flow_build_file(name, lines, key), source)
