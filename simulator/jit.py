"""The one decorator for compiled code.

Everything on the hot path is compiled without Numba's reference-counting runtime
(``_nrt=False``): with it, each call that passes an array from inside branchy code pays an
atomic incref/decref pair that the pruning pass cannot remove (numba issue #2350), which made
a greedy decision cost ~1 µs instead of ~20 ns. The price is that compiled code allocates no
arrays: scratch space is allocated once in Python and passed in. ``error_model="numpy"`` drops
the zero-division checks of ``%`` and ``//`` (divisors here are grid sizes and bounds, never
zero). ``cache=True`` keeps the
compiled machine code on disk, so a second run starts in well under two seconds.
"""

from numba import njit


def hot(fn=None, **options):
    """``@hot``: njit, cached, GIL released, no NRT."""
    kw = dict(cache=True, nogil=True, _nrt=False, error_model="numpy")
    kw.update(options)
    if fn is None:
        return njit(**kw)
    return njit(**kw)(fn)
