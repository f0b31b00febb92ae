"""A seat's policy views from mirrors of the reference layouts, compiled (observation.Views).

Reading every cell of every layout in Python at each step cost most of an observation; the
views keep a mirror of the layouts instead (the card, face-up flag and the seats that know it,
of every position), follow the reference state's ``touched`` record of the cells that changed,
and derive what one seat sees from the mirror here."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.kernel.jit import hot

NO_POSITION = -1   # a mirror's card where a layout has no position (and a view's unknown card)


@hot
def fill_views_nb(public, known, faceup, cards, up, seen, me, players, turn, actor, stock_n,
                  discard_n, ender, final_left, reshuffles, knocked, power, target, shielded,
                  top_unused):
    """Turn position ``me``'s public slots (the counters and power slots given, the
    face-down counts), known cards and face-up flags from the mirror (``cards``, ``up``,
    ``seen``: a bit per seat that knows the card); every other public slot is zeroed."""
    for k in range(public.shape[0]):
        public[k] = 0
    public[K.PUB_TURN] = turn
    public[K.PUB_ACTOR] = actor
    public[K.PUB_STOCK_N] = stock_n
    public[K.PUB_DISCARD_N] = discard_n
    public[K.PUB_ENDER] = ender
    public[K.PUB_FINAL_LEFT] = final_left
    public[K.PUB_RESHUFFLES] = reshuffles
    public[K.PUB_KNOCKED] = knocked
    public[K.PUB_POWER] = power
    public[K.PUB_TARGET_SEAT] = target
    public[K.PUB_SHIELDED] = shielded
    public[K.PUB_TOP_POWER_UNUSED] = top_unused
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
