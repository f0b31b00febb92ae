"""Counter-based random streams: every (seed, round, stream) triple has its own generator.

A round's deal (and any reshuffle) uses stream ``STREAM_DEAL``; seat ``s`` makes its random
choices from stream ``STREAM_SEAT0 + s``. Nothing depends on which thread plays a round or on
how rounds are cut into chunks, and two experiments with the same seed share their deals even
when the players differ (common random numbers).

The generator is SplitMix64 (Steele, Lea & Flood 2014): a 64-bit counter advanced by the golden
gamma and passed through a strong mixer. Bounded integers use Lemire's multiply-shift with
rejection, so they are exactly uniform. ``simulator.game.streams.PyStream`` is the same
algorithm in plain Python for the reference engine; a test checks the two produce identical
sequences.
"""

from __future__ import annotations

import numpy as np
from simulator.game.streams import (_GAMMA, _M1, _M2, N_STREAMS, STREAM_DEAL,  # noqa: F401
                                    STREAM_DEALER, STREAM_SEAT0, STREAM_TIEBREAK)
from simulator.kernel.jit import hot, ix

GAMMA = np.uint64(_GAMMA)
M1 = np.uint64(_M1)
M2 = np.uint64(_M2)
U30, U27, U31, U32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
LOW32 = np.uint64(0xFFFFFFFF)


@hot(inline="always")
def mix64_nb(z):
    z = (z ^ (z >> U30)) * M1
    z = (z ^ (z >> U27)) * M2
    return z ^ (z >> U31)


@hot
def stream_state_nb(seed, round_index, stream):
    """Initial counter of one stream; distinct inputs give unrelated streams."""
    z = mix64_nb(np.uint64(seed) + GAMMA)
    z = mix64_nb(z ^ (np.uint64(round_index) * M1 + GAMMA))
    return mix64_nb(z ^ (np.uint64(stream) * M2 + GAMMA))


@hot(inline="always")
def next_u64_nb(state, i):
    """Advance stream ``state[i]`` and return its next 64-bit output."""
    s = state[i] + GAMMA
    state[i] = s
    return mix64_nb(s)


@hot(inline="always")
def below_from_nb(s, n):
    """(the counter after, a uniform integer in [0, n)) from counter ``s`` (n < 2**32)."""
    bound = np.uint64(n)
    s = s + GAMMA
    m = (mix64_nb(s) >> U32) * bound
    low = m & LOW32
    if low < bound:
        threshold = (np.uint64(0x100000000) - bound) % bound
        while low < threshold:
            s = s + GAMMA
            m = (mix64_nb(s) >> U32) * bound
            low = m & LOW32
    return s, np.int64(m >> U32)


@hot(inline="always")
def below_nb(state, i, n):
    """Uniform integer in [0, n) from stream ``state[i]`` (n < 2**32)."""
    s, j = below_from_nb(state[i], n)
    state[i] = s
    return j


@hot
def shuffle_nb(a, start, n, state, i):
    """Fisher-Yates, from the top, of a[start:start+n] with stream ``state[i]`` (the deal and
    every reshuffle of both kernels, and the lookahead player's deals of unseen cards)."""
    # the counter lives in a register: Numba cannot tell the compiler that ``state`` and ``a``
    # never overlap, so kept in the array it would be stored and reloaded at every swap
    s = state[i]
    for k in range(n - 1, 0, -1):
        s, j = below_from_nb(s, k + 1)
        t = a[ix(start + k)]
        a[ix(start + k)] = a[ix(start + j)]
        a[ix(start + j)] = t
    state[i] = s
