"""The general engine: the game flow's general build (simulator/kernel/flow compiled with
every rule feature, for any seats), and the arrays every build reads.

All mutable state of a round lives in one int32 array ``g`` with named offsets (codes.G_*),
padded to MAX_PLAYERS x MAX_POS, with -1 for "no card":

- ``g[G_LAY + seat*MAX_POS + pos]``   card at each position
- ``g[G_UP + ...]``                   1 when face up (public)
- ``g[G_KNOWN + (obs*MAX_PLAYERS + seat)*MAX_POS + pos]``  what ``obs`` knows is there, or -1
- ``g[G_STOCK + i]``, ``g[G_DISCARD + i]``  piles, top at the end; sizes in the public slots
- ``g[G_PUB + PUB_*]``                public counters; ``g[G_LEGAL + a]`` the legal mask

Rules and card tables live in one int64 array ``rt`` (codes.RT_*). Knowledge is updated where
cards move, so a policy reads its own row of ``known`` and never a hidden card.
The general build's ``round_nb`` is the move-by-move truth that the plain-Python reference
engine (simulator/game/reference/) mirrors; its ``chunk_nb`` plays a range of round indices and
returns integer sums that add up across chunks. A build is written into the cache folder on
first import (builds.flow_build) and compiled on first call; ``build`` gives it with its turn
loop provided.
"""

from __future__ import annotations

import threading

import numpy as np

from ..game import codes as K
from ..game.cards import CARDS_PER_DECK, DIAMONDS, HEARTS, RANK_JOKER, RANK_KING
from ..game.codes import MAX_POS, RT_DECK, RT_KEY, RT_VALUE
from . import builds, by_name
from .builds import flow_build
from .features import BUILDS as FLOW_BUILDS
from .flow import (ERR_CONSERVATION, ERR_ILLEGAL_ACTION, ERR_LOG_FULL,  # noqa: F401
                   ERR_NO_TURNS, LOG_FIELDS,  # (re-exported: runner, strategies.compiled)
                   lean_seats, policy_slot_nb, rules_eligible)
from .layout import related_nb
from .matches import MATCH_SCRATCH  # noqa: F401  (re-exported for the runner)
from .matches import outside_match_nb, publish_match_nb
from .rng import N_STREAMS
from .scoring import TMP_SIZE
from .signatures import CACHED_SIGNATURE, CACHED_SLOT, PLAY_SIGNATURE, play_slot

# the general build, its powers build (the power-card games) and the table build (the common
# rule sets with any seats), each compiled on first use, by name (features.BUILDS; pick.module);
# the cache build plays the general build's rounds that cache_round allows (flow/build.py)
BUILDS = {name: flow_build(name, FLOW_BUILDS[name].lines())
          for name in ("general", "powers", "table", "cache")}
# the parts that fill the slots through which a build's rounds call what compiles apart:
# part -> (the build whose function fills it, the function, the slot, its signature)
SLOT_PARTS = {
    "general:turns": ("general", "play_nb", play_slot("general"), PLAY_SIGNATURE),
    "general:cache": ("cache", "cached_round_nb", CACHED_SLOT, CACHED_SIGNATURE),
    "powers:turns": ("powers", "play_nb", play_slot("powers"), PLAY_SIGNATURE),
}
_SLOTS_LOCK = threading.Lock()
_PROVIDED: set[str] = set()


def provide(part: str, notify=None) -> None:
    """Compile (or load) the part ``part`` of SLOT_PARTS, telling ``notify``, and put it in
    its slot; once a process."""
    with _SLOTS_LOCK:
        if part not in _PROVIDED:
            owner, function, slot, signature = SLOT_PARTS[part]
            with builds.compiling(part, notify):
                by_name.provide_late(slot, getattr(BUILDS[owner], function), signature)
            _PROVIDED.add(part)


def build(name: str, notify=None, rt=None, policy_ids=None, log: bool = False):
    """Build ``name``'s module (BUILDS), its slots filled: for a build of signatures.SLOTTED,
    its turn loop (the part ``NAME:turns``) and, for the general build, its rounds from the
    lean cache (``general:cache``), each compiled or loaded here the first time (provide);
    given the rules ``rt`` and the seats, only the one their rounds call (slot_parts). The
    rest of the build compiles without them, so they compile on other processes at once."""
    for part in slot_parts(name, rt, policy_ids, log):
        provide(part, notify)
    return BUILDS[name]


def slot_parts(name: str, rt=None, policy_ids=None, log: bool = False) -> list[str]:
    """The parts of SLOT_PARTS that build ``name``'s rounds call: all of them, or (given the
    packed rules ``rt`` and the seats) the one these rounds call, as flow.base.cache_round
    decides (``log``: a move log is kept)."""
    parts = [part for part in SLOT_PARTS if part.split(":")[0] == name]
    if name != "general" or rt is None:
        return parts
    cached = rt[K.RT_CACHE_RULES] != 0 and lean_seats(policy_ids) and not log
    return ["general:cache" if cached else "general:turns"]


def prefix_nb(*args) -> int:
    """The general build's prefix_nb (a round's first turns; tests and tools)."""
    return build("general").prefix_nb(*args)


turn_mask_nb = BUILDS["general"].turn_mask_nb
placement_mask_nb = BUILDS["general"].placement_mask_nb


def pack_rules(arrays) -> np.ndarray:
    """RuleArrays -> the single int64 array ``rt`` the kernel reads."""
    rt = np.zeros(K.RT_SIZE, dtype=np.int64)
    rt[:K.N_RULE_SLOTS] = arrays.ri
    n = arrays.card_value.size
    rt[RT_VALUE:RT_VALUE + n] = arrays.card_value
    for p in range(MAX_POS):   # the empty-position pseudo-cards (codes.EMPTY0)
        rt[RT_VALUE + K.EMPTY0 + p] = 0
        rt[RT_KEY + K.EMPTY0 + p] = K.EMPTY_KEY0 - p
    rt[RT_KEY:RT_KEY + n] = arrays.card_key
    rt[RT_DECK:RT_DECK + arrays.deck.size] = arrays.deck
    ri = arrays.ri
    npos, scope, cols = int(ri[K.R_NPOS]), int(ri[K.R_PAIR_SCOPE]), int(ri[K.R_COLS])
    for p in range(npos):
        rt[K.RT_REL + p] = sum(1 << q for q in range(npos)
                               if related_nb.py_func(p, q, scope, cols))
    rt[K.RT_TYPE:K.RT_TYPE + K.N_CARD_TABLE] = -1
    types: dict = {}
    for c in arrays.deck:
        t = types.setdefault((int(arrays.card_key[c]), int(arrays.card_value[c])), len(types))
        rt[K.RT_TYPE + c] = t
        if rt[K.RT_TYPE_COPIES + t] == 0:
            rt[K.RT_TYPE_CARD + t] = c
        rt[K.RT_TYPE_COPIES + t] += 1
    rt[K.RT_TYPE_N] = len(types)
    of_key: dict = {}
    for (key, _), t in types.items():
        of_key.setdefault(key, []).append(t)
    for ring in of_key.values():
        for i, t in enumerate(ring):
            rt[K.RT_TYPE_NEXT + t] = ring[(i + 1) % len(ring)]
    for c in range(K.MAX_IDS):   # each card's power, from the effects of its rank (flatten)
        local = c % CARDS_PER_DECK
        rank = RANK_JOKER if local >= 52 else local % 13
        red_king = rank == RANK_KING and local // 13 in (HEARTS, DIAMONDS)
        rt[K.RT_EFFECT + c] = ri[K.R_EFFECT_RED_KING] if red_king else ri[K.R_EFFECT0 + rank]
    # the general build plays greedy-family seats from the lean cache where it covers them
    rt[K.RT_CACHE_RULES] = 1 if rules_eligible(ri) else 0
    return rt


class State:
    """Per-thread scratch, allocated once and reused for every round."""

    def __init__(self, players: int, log_cap: int = 0):
        self.g = np.zeros(K.G_SIZE, dtype=np.int32)
        outside_match_nb(self.g)   # a round played alone (round_nb) sees no match
        self.rng = np.zeros(N_STREAMS, dtype=np.uint64)
        self.aux = np.zeros(K.POLICY_SCRATCH, dtype=np.int64)   # a policy's scratch (lookahead's)
        self.log = np.zeros((max(log_cap, 1), LOG_FIELDS), dtype=np.int32)
        self.out = np.zeros(K.N_OUT_SLOTS, dtype=np.int64)
        self.scores = np.zeros(players, dtype=np.int64)
        self.L = np.zeros(players, dtype=np.int64)
        self.quads = np.zeros(players, dtype=np.int64)
        self.extra = np.zeros(players, dtype=np.int64)
        self.tmp = np.zeros(max(K.MAX_IDS, TMP_SIZE), dtype=np.int64)

    def show_match(self, hole: int, holes: int, target: int, totals) -> None:
        """The next round is hole ``hole`` of a match of ``holes`` holes (or to ``target``),
        ``totals`` each seat's total before it in turn order, as the policies see it."""
        publish_match_nb(self.g, hole, holes, target, 0, len(totals),
                         np.asarray(totals, dtype=np.int64))

    def arrays(self):
        return (self.g, self.rng, self.log, self.out, self.scores, self.L, self.quads,
                self.extra, self.tmp)


def policy_table(policy_ids, params) -> np.ndarray:
    """Per-seat policy id and parameters as one float64 table: column 0 is the id."""
    ids = np.asarray(policy_ids, dtype=np.float64).reshape(-1, 1)
    par = np.asarray(params, dtype=np.float64).reshape(ids.shape[0], -1)
    return np.ascontiguousarray(np.hstack([ids, par]))
