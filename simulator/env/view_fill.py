"""A seat's policy views from mirrors of the reference layouts, compiled (observation.Views).

Reading every cell of every layout in Python at each step cost most of an observation; the
views keep a mirror of the layouts instead (the card, face-up flag and the seats that know it,
of every position), follow the reference state's ``touched`` record of the cells that changed,
and derive what one seat sees from the mirror here. Every view and the mirror are parts of one
array, and the round's counters come as one tuple: each argument of a call from Python costs
tens of nanoseconds, as much as the work."""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.kernel.jit import hot
from strategies.net_encode import encode

NO_POSITION = -1   # a mirror's card where a layout has no position (and a view's unknown card)
N_CELLS = K.MAX_PLAYERS * K.MAX_POS
# the parts of the views' array: (start, size)
PUBLIC = (0, K.N_PUB_SLOTS + K.MAX_PLAYERS)
KNOWN = (sum(PUBLIC), N_CELLS)
FACEUP = (sum(KNOWN), N_CELLS)
DISCARD = (sum(FACEUP), K.MAX_IDS)
CARDS = (sum(DISCARD), N_CELLS)     # the mirror: the card at each position,
UP = (sum(CARDS), N_CELLS)          # its face-up flag,
SEEN = (sum(UP), N_CELLS)           # a bit per seat that knows it
SIZE = sum(SEEN)
# the order of the counters in the tuple fill_views_nb takes
COUNTERS = ("turn", "actor", "stock_n", "discard_n", "ender", "final_left", "reshuffles",
            "knocked", "power", "target", "shielded", "top_unused", "choice0", "choice1")


def new_views() -> np.ndarray:
    """The views' array as a hole starts: no card known, no position in the mirror."""
    buf = np.zeros(SIZE, dtype=np.int32)
    for start, n in (KNOWN, CARDS):
        buf[start:start + n] = NO_POSITION
    return buf


def part(buf, where):
    """The part ``where`` (PUBLIC, KNOWN, ...) of the views' array, sharing its memory."""
    start, n = where
    return buf[start:start + n]


_part = hot(part, inline="always")   # the same, in compiled code


@hot
def fill_views_nb(buf, me, players, counters):
    """Turn position ``me``'s public slots (the ``counters`` as COUNTERS orders them, the
    face-down counts; every other slot zero), known cards and face-up flags, from the
    mirror."""
    public, known, faceup = _part(buf, PUBLIC), _part(buf, KNOWN), _part(buf, FACEUP)
    cards, up, seen = _part(buf, CARDS), _part(buf, UP), _part(buf, SEEN)
    for k in range(public.shape[0]):
        public[k] = 0
    (public[K.PUB_TURN], public[K.PUB_ACTOR], public[K.PUB_STOCK_N], public[K.PUB_DISCARD_N],
     public[K.PUB_ENDER], public[K.PUB_FINAL_LEFT], public[K.PUB_RESHUFFLES],
     public[K.PUB_KNOCKED], public[K.PUB_POWER], public[K.PUB_TARGET_SEAT],
     public[K.PUB_SHIELDED], public[K.PUB_TOP_POWER_UNUSED], public[K.PUB_CHOICE0],
     public[K.PUB_CHOICE1]) = counters
    for i in range(K.MAX_PLAYERS):
        down = 0
        for p in range(K.MAX_POS):
            at = i * K.MAX_POS + p
            c = cards[at]
            if i >= players or c < 0:
                known[at], faceup[at] = NO_POSITION, 0
            elif c >= K.EMPTY0:
                known[at], faceup[at] = K.EMPTY0 + p, 1
            else:
                faceup[at] = up[at]
                down += 1 - up[at]
                known[at] = c if (seen[at] >> me) & 1 else NO_POSITION
        if i < players:
            public[K.N_PUB_SLOTS + i] = down


@hot
def observe_nb(out, buf, rules, me, players, point, held, counters):
    """fill_views_nb, then the observation vector of those views into ``out``."""
    fill_views_nb(buf, me, players, counters)
    encode(out, point, me, held, _part(buf, PUBLIC), _part(buf, KNOWN), _part(buf, FACEUP),
           _part(buf, DISCARD), rules, players)
