"""The one decorator for compiled code, and where its machine code is cached.

Everything on the hot path is compiled without Numba's reference-counting runtime
(``_nrt=False``): with it, each call that passes an array from inside branchy code pays an
atomic incref/decref pair that the pruning pass cannot remove (numba issue #2350), which made
a greedy decision cost ~1 µs instead of tens of ns. The price is that compiled code allocates
no arrays: scratch space is allocated once in Python and passed in. ``error_model="numpy"``
drops the zero-division checks of ``%`` and ``//`` (divisors here are grid sizes and bounds,
never zero).

``cache=True`` keeps the compiled code on disk so a second run starts in well under two
seconds. Numba checks only the timestamp of the file that defines a function, not of the
files it calls into, so after an edit to, say, scoring.py the cached kernel in engine.py would
silently keep the old scoring. The cache therefore lives in a folder named after a hash of
the source of every compiled module and of every module it imports (simulator/kernel/sources.py):
any edit starts a fresh cache, and nothing stale is ever used.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from pathlib import Path

import numba
import numpy as np
from numba import njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.extending import intrinsic

from .sources import kernel_sources

_ROOT = Path(__file__).resolve().parents[2]
# every module with compiled code, and every module of the packages it imports
KERNEL_SOURCES = kernel_sources(_ROOT)


def _source_hash() -> str:
    h = hashlib.sha256(numba.__version__.encode())
    for name in KERNEL_SOURCES:
        h.update(name.encode())
        h.update((_ROOT / name).read_bytes())
    return h.hexdigest()[:16]


def _cache_dir() -> str:
    base = os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("GOLFSIM_CACHE_DIR") or \
        os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                     "golfsim", "numba")
    return os.path.join(base, _source_hash())


CACHE_DIR = _cache_dir()
# Must be set before the first cached function is decorated: every compiled module imports
# this one first.
numba.config.CACHE_DIR = CACHE_DIR


def _unliteral_calls():
    """Calls between compiled functions pass plain types: no literals, and signed integers
    as int64. Numba types a call while it infers the caller's types: a variable first seen as
    the constant 0 (``seat = 0``) or a constant argument (``True``, a module constant) made it
    compile the callee once for ``Literal[int](0)`` and again for ``int64``, and a card read
    from the int32 state compiled another copy for int32: almost half of the general engine's
    compile time went to such copies. Nothing here dispatches on a literal or an int width."""
    from numba.core import types
    from numba.core.dispatcher import Dispatcher
    original = Dispatcher.get_call_template
    if getattr(original, "_golfsim", False):
        return

    def plain(t):
        t = types.unliteral(t)
        if isinstance(t, types.Integer) and t.signed and t.bitwidth < 64:
            return types.int64
        return t

    def get_call_template(self, args, kws):
        if getattr(self, "_golfsim_hot", False):
            args = tuple(plain(a) for a in args)
            kws = {k: plain(v) for k, v in kws.items()}
        return original(self, args, kws)
    get_call_template._golfsim = True
    Dispatcher.get_call_template = get_call_template


_unliteral_calls()
# the general engine calls built-in and user policies through first-class function pointers
# (strategies/compiled.py), which Numba still labels experimental
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


def _mark(dispatcher):
    dispatcher._golfsim_hot = True
    return dispatcher


def hot(fn=None, **options):
    """``@hot``: njit, cached, GIL released, no NRT."""
    kw = dict(cache=True, nogil=True, _nrt=False, error_model="numpy")
    kw.update(options)
    if fn is None:
        return lambda f: _mark(njit(**kw)(f))
    return _mark(njit(**kw)(fn))


@hot(inline="always")
def copy_nb(dst, src, start, n):
    """dst[start:start + n] = src[start:start + n], a loop (compiled code allocates nothing)."""
    for i in range(start, start + n):
        dst[ix(i)] = src[ix(i)]


@intrinsic
def _unsigned(typingctx, i):
    if not isinstance(i, types.Integer):
        return None
    i = types.unliteral(i)
    return types.uint64(i), lambda context, builder, sig, args: context.cast(
        builder, args[0], i, types.uint64)


def ix(i):
    """``a[ix(i)]``: the index as unsigned. Numba tests every signed index for a negative
    value to wrap around (three extra instructions an access, and no vectorising); in the
    hot loops, where no index is ever negative, that cost more than the arithmetic. An
    intrinsic (the cast emitted where it is called) rather than a function inlined by Numba,
    which copies the inlined function's IR at each of its hundreds of uses."""
    return np.uint64(i)


if not numba.config.DISABLE_JIT:
    ix = _unsigned   # noqa: F811
