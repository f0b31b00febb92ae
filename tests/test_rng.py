"""The compiled random streams and their plain-Python twin are the same generator."""

import numpy as np

from simulator.kernel.jit import hot
from simulator.game.streams import PyStream
from simulator.kernel.rng import below_nb, next_u64_nb, stream_state_nb


@hot
def _draws_nb(seed, round_index, stream, bounds, state, out_u64, out_below):
    state[0] = stream_state_nb(seed, round_index, stream)
    for i in range(out_u64.size):
        out_u64[i] = next_u64_nb(state, 0)
    for i in range(bounds.size):
        out_below[i] = below_nb(state, 0, bounds[i])


def test_compiled_and_python_streams_agree():
    bounds = np.array([1, 2, 3, 5, 7, 52, 53, 100, 2**31 - 1, 2**32 - 5, 6] * 20, dtype=np.int64)
    for seed, rnd, stream in [(0, 0, 0), (7, 123456, 1), (2**40 + 3, 9, 4), (1, 2**33, 0)]:
        u = np.zeros(50, dtype=np.uint64)
        b = np.zeros(bounds.size, dtype=np.int64)
        _draws_nb(seed, rnd, stream, bounds, np.zeros(1, dtype=np.uint64), u, b)
        py = PyStream(seed, rnd, stream)
        assert [int(x) for x in u] == [py.next_u64() for _ in range(50)]
        assert b.tolist() == [py.below(int(n)) for n in bounds]


def test_streams_differ_and_below_is_uniform():
    firsts = {PyStream(1, r, s).next_u64() for r in range(200) for s in range(5)}
    assert len(firsts) == 1000
    # chi-square of 60,000 draws from range(6): 5 degrees of freedom, 0.1% critical value 20.5
    py = PyStream(11, 0, 0)
    counts = np.bincount([py.below(6) for _ in range(60_000)], minlength=6)
    chi2 = ((counts - 10_000) ** 2 / 10_000).sum()
    assert chi2 < 20.5
