"""The random streams' numbering and their plain-Python generator, for the reference engine.

Every (seed, round, stream) triple has its own SplitMix64 generator (simulator/kernel/rng.py
holds the compiled twin and says why): the deal uses ``STREAM_DEAL``, seat ``s`` stream
``STREAM_SEAT0 + s``, and a match its dealer and tiebreak streams.
"""

from __future__ import annotations

from simulator.game.codes import MAX_PLAYERS

STREAM_DEAL = 0
STREAM_SEAT0 = 1
# the deal's, one per seat, and the lookahead player's rollouts' (its last)
N_STREAMS = STREAM_SEAT0 + MAX_PLAYERS + 1
STREAM_DEALER = 1 << 20      # match m's first dealer: stream (seed, m, STREAM_DEALER)
STREAM_TIEBREAK = STREAM_DEALER + 1   # match m's tiebreak among tied totals

_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_MASK = (1 << 64) - 1


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


def py_stream_state(seed: int, round_index: int, stream: int) -> int:
    z = _mix64((seed + _GAMMA) & _MASK)
    z = _mix64(z ^ ((round_index * _M1 + _GAMMA) & _MASK))
    return _mix64(z ^ ((stream * _M2 + _GAMMA) & _MASK))


class PyStream:
    """One stream, readable: ``below(n)`` is a uniform draw from range(n)."""

    def __init__(self, seed: int, round_index: int, stream: int):
        self.state = py_stream_state(seed, round_index, stream)

    def next_u64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        return _mix64(self.state)

    def below(self, n: int) -> int:
        m = (self.next_u64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = (0x100000000 - n) % n
            while low < threshold:
                m = (self.next_u64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def shuffle(self, items: list) -> None:
        """Fisher-Yates from the top, exactly as the kernel does."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
