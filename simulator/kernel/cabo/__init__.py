"""The Cabo build: power_cabo and the rule sets of its structure with every seat playing
``greedy``, as the powers build plays them (the very same rounds: tests/test_cabo_build.py),
with the turn, the power effects and greedy's answers written for these rules alone: no views
to publish, no policy to call through a table, no effect the rules cannot hold, and what the
answers read most kept up to date as cards move (each seat's positions with a card, the
discard pile's cards by type).

``plays`` says which rule sets that is: every rule slot but those of ``DATA`` (counts, the
layout's size, card values, scoring, match play, where a drawn card may go, the call's timing
and final turns, and which of its three powers each rank has) as power_cabo has it."""

from __future__ import annotations

from simulator.game import codes as K

# what the Cabo build plays as any value: the turn and greedy's answers read these slots
# (end_triggers: any of call, empty_layout and stock_exhausted; the ranks' effects: any of
# POWERS), and the scoring and match play are every build's
DATA = frozenset((
    K.R_PLAYERS, K.R_ROWS, K.R_COLS, K.R_NPOS, K.R_NCARDS, K.R_DECK_SUM, K.R_MAX_ABS_VALUE,
    K.R_REVEAL_COUNT, K.R_END_TRIGGERS, K.R_FINAL_TURNS, K.R_FINAL_STOCK_ONLY, K.R_TURN_CAP,
    K.R_STOCK_MAY_DISCARD, K.R_KNOCK_TIMING, K.R_DRAW_FROM_DISCARD, K.R_KNOCK_MIN_LAPS,
    K.R_PRIVATE_STOCK, K.R_INITIAL_TURN_UP, K.R_POWER_PLACEABLE, K.R_MATCH_FAIL_CARDS,
    # scoring (simulator/kernel/scoring.py scores every build's layouts)
    K.R_QUAD_VALUE, K.R_QUAD_ADJACENT_ONLY, K.R_QUAD_OTHERS_PENALTY, K.R_BLOCK_VALUE,
    K.R_SIX_KIND_VALUE, K.R_NEG_QUAD_VALUE, K.R_JOKER_PAIR_VALUE, K.R_ENDER_PENALTY,
    K.R_ENDER_BONUS, K.R_ENDER_TIE, K.R_ENDER_APPLIES, K.R_LOWEST_SCORES_ZERO, K.R_SHOOT_MOON,
    K.R_QUAD_APART_VALUE, K.R_JOKER_QUAD_VALUE, K.R_JOKER_QUAD_APART, K.R_JACK_PAIRS_BONUS,
    K.R_TWENTY_ONE_ZERO, K.R_ENDER_EXTRA, K.R_LOWEST_BONUS, K.R_TIE_PENALTY, K.R_LAYOUT_KIND,
    K.R_PLAIN_HOLE, K.R_NON_CALLER, K.R_ENDER_CLAMP,
    # match play (not played here) and what only other power sets read
    K.R_FOUR_KIND_WINS, K.R_DEALER_RANDOM, K.R_FIRST_WINNER, K.R_MATCH_TIE, K.R_POT_ANTE,
    K.R_POT_CAP, K.R_SNAP_MISS_POINTS, K.R_SNAP_PENALTY_CARDS, K.R_COMBINABLE,
    K.R_SWAP_LINE_OK, K.R_EFFECT_RED_KING, *range(K.R_EFFECT0, K.R_EFFECT0 + 14)))
POWERS = (K.POW_NONE, K.POW_PEEK_OWN, K.POW_PEEK_OPP, K.POW_SWAP_ANY_TWO)
ENDS = K.END_CALL | K.END_EMPTY_LAYOUT | K.END_STOCK_EXHAUSTED
_SHAPE: dict = {}


def _shape(players: int):
    """power_cabo's flat rules for ``players`` seats; None when it cannot seat them."""
    if players not in _SHAPE:
        from simulator.game.rules import RuleError, Rules, flatten
        try:
            _SHAPE[players] = flatten(Rules.preset("power_cabo"), players).ri
        except RuleError:
            _SHAPE[players] = None
    return _SHAPE[players]


def plays(ri, policy_ids) -> bool:
    """Does the Cabo build play the flat rules ``ri`` with these seats: every seat greedy, and
    the rules power_cabo's but for DATA?"""
    if any(int(p) != K.POLICY_GREEDY for p in policy_ids) or \
            int(ri[K.R_END_TRIGGERS]) & ~ENDS:
        return False
    effects = [int(ri[K.R_EFFECT0 + r]) for r in range(14)] + [int(ri[K.R_EFFECT_RED_KING])]
    if any(e not in POWERS for e in effects):
        return False
    shape = _shape(int(ri[K.R_PLAYERS]))
    return shape is not None and \
        all(int(ri[i]) == int(shape[i]) for i in range(K.N_RULE_SLOTS) if i not in DATA)
