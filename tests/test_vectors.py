"""The six-card test vectors of RULES.md §6, through both the compiled scoring
(simulator/scoring.py) and the plain-Python reference scoring (simulator/reference.py).

Each vector is one test id; each test asserts that both implementations give the value RULES.md
states, and reports both when they do not.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulator import cards as C
from simulator import reference as R
from simulator import scoring as S
from simulator.rules import Rules, flatten


# ---- the two implementations --------------------------------------------------------------------
def engine_layout(rules: Rules, layout: str, players: int = 2) -> tuple[int, int]:
    """(layout value, quads/blocks scored) from the compiled scoring."""
    arrays = flatten(rules, players)
    cards = C.parse_layout(layout, rules.grid_rows, rules.grid_cols)
    lay = np.array([cards], dtype=np.int16)
    quads = np.zeros(players, dtype=np.int64)
    tmp = np.zeros(max(S.TMP_SIZE, arrays.card_value.size), dtype=np.int64)
    value = S.layout_value_nb(lay, 0, arrays.ri, arrays.card_value, arrays.card_key, quads, tmp)
    return int(value), int(quads[0])


def reference_layout(rules: Rules, layout: str) -> tuple[int, int]:
    cards = C.parse_layout(layout, rules.grid_rows, rules.grid_cols)
    score = R.score_layout(rules, cards)
    assert score.value == R.layout_value(rules, cards)
    return score.value, score.couples


def engine_holes(rules: Rules, L: list[int], ender: int, knocked: bool = False,
                 quads: list[int] | None = None) -> list[int]:
    players = len(L)
    arrays = flatten(rules, players)
    out = np.zeros(players, dtype=np.int64)
    S.hole_scores_nb(np.array(L, dtype=np.int64),
                     np.array(quads or [0] * players, dtype=np.int64), ender, knocked, players,
                     arrays.ri, np.zeros(players, dtype=np.int64), out)
    return [int(x) for x in out]


def reference_holes(rules: Rules, L: list[int], ender: int, knocked: bool = False,
                    quads: list[int] | None = None) -> list[int]:
    return R.hole_scores(rules, L, ender, knocked, couples=quads)


# ---- layout values ------------------------------------------------------------------------------
# (id, options for Rules.preset("six_card", ...), layout r0 / r1, expected layout value)
LAYOUT_VECTORS = [
    ("TV-S1", {}, "K♠ 5♥ J♣ / K♦ 5♣ 2♥", 8),
    ("TV-S1-value_two+2", dict(value_two=2), "K♠ 5♥ J♣ / K♦ 5♣ 2♥", 12),
    # TV-S6: two jokers (-2 each) forming a pair in a column -> 0 instead of -4
    ("TV-S6-jokers", dict(jokers_per_deck=2, value_joker=-2), "JK 5♣ K♠ / JK 3♦ K♥", 8),
    ("TV-S6-jokers-apart", dict(jokers_per_deck=2, value_joker=-2), "JK JK K♠ / 5♣ 3♦ K♥", 4),
    ("TV-S6-bonus_twos", dict(bonus_card="twos", value_two=2), "2♠ 5♣ K♠ / 2♥ 3♦ K♥", 8),
    ("TV-S6-bonus_one_eyed_jacks", dict(bonus_card="one_eyed_jacks"),
     "J♠ 5♣ K♠ / J♥ 3♦ K♥", 8),
    ("TV-S7a", {}, "2♠ 5♥ 9♣ / 2♦ 3♣ 9♥", 8),
    ("TV-S7b", {}, "2♠ 2♦ 9♣ / 5♥ 3♣ 9♥", 4),
    ("TV-S7c", {}, "5♥ 5♣ 9♣ / 3♦ 4♠ 9♥", 17),
    # TV-S8: a column 2♠/2♦ keeps -4 (default: 0); the other columns pair to 0
    ("TV-S8-default", {}, "2♠ 9♣ K♠ / 2♦ 9♥ K♥", 0),
    ("TV-S8-negative_pairs_keep_value", dict(negative_pairs_keep_value=True),
     "2♠ 9♣ K♠ / 2♦ 9♥ K♥", -4),
    ("TV-D1-column", {}, "7♠ 3♦ 9♣ / 3♥ 7♦ K♠", 29),
    ("TV-D1-anywhere", dict(pair_scope="anywhere"), "7♠ 3♦ 9♣ / 3♥ 7♦ K♠", 9),
    ("TV-D2a-default", {}, "7♠ 4♦ 7♥ / 7♦ 9♣ 7♣", 13),
    ("TV-D2a-quad-10", dict(quad_two_columns_value=-10), "7♠ 4♦ 7♥ / 7♦ 9♣ 7♣", 3),
    ("TV-D2a-rule000", dict(quad_two_columns_value=0, quad_two_columns_adjacent_only=True,
                            quad_others_penalty=10), "7♠ 4♦ 7♥ / 7♦ 9♣ 7♣", 13),
    ("TV-D2b-default", {}, "7♠ 7♥ 4♦ / 7♦ 7♣ 9♣", 13),
    ("TV-D2b-rule000", dict(quad_two_columns_value=0, quad_two_columns_adjacent_only=True,
                            quad_others_penalty=10), "7♠ 7♥ 4♦ / 7♦ 7♣ 9♣", 13),
    ("TV-D2b-quad-10", dict(quad_two_columns_value=-10), "7♠ 7♥ 4♦ / 7♦ 7♣ 9♣", 3),
    ("TV-D2b-block-20", dict(block_2x2_value=-20), "7♠ 7♥ 4♦ / 7♦ 7♣ 9♣", -7),
    ("TV-D3-default", dict(decks=2), "8♠ 8♥ 8♦ / 8♣ 8♠ 8♥", 0),
    ("TV-D3-six_of_kind", dict(decks=2, six_of_kind_value=-20), "8♠ 8♥ 8♦ / 8♣ 8♠ 8♥", -20),
    ("TV-D4-default", dict(decks=2, jokers_per_deck=2), "JK JK 5♣ / JK JK 3♦", 8),
    ("TV-D4-negative_pairs_keep_value", dict(decks=2, jokers_per_deck=2,
                                             negative_pairs_keep_value=True),
     "JK JK 5♣ / JK JK 3♦", 0),
    ("TV-D4-negative_quad", dict(decks=2, jokers_per_deck=2, negative_pairs_keep_value=True,
                                 negative_quad_value=-20), "JK JK 5♣ / JK JK 3♦", -12),
    ("TV-D14-pair", dict(jokers_per_deck=2, value_joker="plus15_pair_minus5"),
     "JK 4♣ 9♠ / JK 4♦ K♥", 4),
    ("TV-D14-single", dict(jokers_per_deck=2, value_joker="plus15_pair_minus5"),
     "JK 4♣ 9♠ / 3♥ 4♦ K♥", 27),
    ("TV-D16-six_card", dict(value_queen_of_spades=40, value_eight=0),
     "Q♠ 8♥ 5♣ / 4♦ 3♣ K♥", 52),
]


@pytest.mark.parametrize("options,layout,expected", [v[1:] for v in LAYOUT_VECTORS],
                         ids=[v[0] for v in LAYOUT_VECTORS])
def test_layout_value(options, layout, expected):
    rules = Rules.preset("six_card", **options)
    engine, _ = engine_layout(rules, layout)
    reference, _ = reference_layout(rules, layout)
    assert (engine, reference) == (expected, expected), \
        f"{layout}: engine {engine}, reference {reference}, RULES.md {expected}"


# ---- TV-D2: who pays for a quad -----------------------------------------------------------------
# [000] rule: quads are worth 0, only in adjacent columns, and every other player adds 10.
RULE_000 = dict(quad_two_columns_value=0, quad_two_columns_adjacent_only=True,
                quad_others_penalty=10)
# (id, layout of seat 0, layout values of two other seats, expected hole scores)
QUAD_HOLE_VECTORS = [
    ("TV-D2a-rule000-nobody-penalised", "7♠ 4♦ 7♥ / 7♦ 9♣ 7♣", [20, 31], [13, 20, 31]),
    ("TV-D2b-rule000-others-plus10", "7♠ 7♥ 4♦ / 7♦ 7♣ 9♣", [20, 31], [13, 30, 41]),
]


@pytest.mark.parametrize("layout,others,expected", [v[1:] for v in QUAD_HOLE_VECTORS],
                         ids=[v[0] for v in QUAD_HOLE_VECTORS])
def test_quad_others_penalty(layout, others, expected):
    rules = Rules.preset("six_card", **RULE_000)
    e_value, e_quads = engine_layout(rules, layout, players=3)
    r_value, r_couples = reference_layout(rules, layout)
    engine = engine_holes(rules, [e_value] + others, -1, quads=[e_quads, 0, 0])
    reference = reference_holes(rules, [r_value] + others, -1, quads=[r_couples, 0, 0])
    assert (engine, reference) == (expected, expected), \
        f"engine {engine}, reference {reference}, RULES.md {expected}"


# ---- hole scores --------------------------------------------------------------------------------
# (id, options, layout values L by seat, ender seat (-1 none), knocked, expected hole scores)
D10_OTHERS = [8, 15, 25]     # TV-D10: N = 4, others 8, 15, 25 (m = 8, H = Hopp = 25)
HOLE_VECTORS = [
    ("TV-S4-plus_lowest_score", dict(ender_penalty="plus_lowest_score"), [17, 12], 0, True,
     [29, 12]),
    ("TV-S4-plus_10", dict(ender_penalty="plus_10"), [17, 12], 0, True, [27, 12]),
    ("TV-S5-lowest", dict(ender_bonus="minus_players", ender_penalty="double"), [3, 5, 7, 9],
     0, True, [-1, 5, 7, 9]),
    ("TV-S5-not_lowest", dict(ender_bonus="minus_players", ender_penalty="double"),
     [3, 2, 7, 9], 0, True, [6, 2, 7, 9]),
    ("TV-S13-shoot_the_moon", dict(shoot_the_moon=60), [60, 14, 30], -1, False, [0, 74, 90]),
    ("TV-D10-plus_10", dict(ender_penalty="plus_10"), [12] + D10_OTHERS, 0, False,
     [22] + D10_OTHERS),
    ("TV-D10-plus_20", dict(ender_penalty="plus_20"), [12] + D10_OTHERS, 0, False,
     [32] + D10_OTHERS),
    ("TV-D10-double_plus_5", dict(ender_penalty="double_plus_5"), [12] + D10_OTHERS, 0, False,
     [29] + D10_OTHERS),
    ("TV-D10-double", dict(ender_penalty="double"), [12] + D10_OTHERS, 0, False,
     [24] + D10_OTHERS),
    ("TV-D10-equal_highest", dict(ender_penalty="equal_highest"), [12] + D10_OTHERS, 0, False,
     [25] + D10_OTHERS),
    ("TV-D10-plus_twice_players", dict(ender_penalty="plus_twice_players"), [12] + D10_OTHERS,
     0, False, [20] + D10_OTHERS),
    ("TV-D10-plus_lowest_score", dict(ender_penalty="plus_lowest_score"), [12] + D10_OTHERS,
     0, False, [20] + D10_OTHERS),
    ("TV-D10-plus_highest_opponent", dict(ender_penalty="plus_highest_opponent"),
     [12] + D10_OTHERS, 0, False, [37] + D10_OTHERS),
    ("TV-D10-lowest-zero", dict(ender_bonus="zero"), [5] + D10_OTHERS, 0, False,
     [0] + D10_OTHERS),
    ("TV-D10-lowest-minus_players", dict(ender_bonus="minus_players"), [5] + D10_OTHERS, 0,
     False, [1] + D10_OTHERS),
    ("TV-D10-lowest-fixed_minus_10", dict(ender_bonus="fixed_minus_10"), [5] + D10_OTHERS, 0,
     False, [-10] + D10_OTHERS),
    ("TV-D10-tie-neutral", dict(ender_penalty="plus_10", ender_bonus="zero",
                                ender_tie="neutral"), [8] + D10_OTHERS, 0, False,
     [8] + D10_OTHERS),
    ("TV-D10-double-clamped", dict(ender_penalty="double"), [-3, -5, 0, 4], 0, False,
     [-3, -5, 0, 4]),
    # the ender in another seat: the formulas do not depend on where the ender sits
    ("TV-D10-plus_highest_opponent-seat2", dict(ender_penalty="plus_highest_opponent"),
     [8, 15, 12, 25], 2, False, [8, 15, 37, 25]),
    ("TV-D13-ender-not-lowest", dict(lowest_scores_zero=True), [15, 8, 20], 0, False,
     [23, 0, 20]),
    ("TV-D13-ender-lowest", dict(lowest_scores_zero=True), [5, 8, 20], 0, False, [0, 8, 20]),
]


@pytest.mark.parametrize("options,L,ender,knocked,expected", [v[1:] for v in HOLE_VECTORS],
                         ids=[v[0] for v in HOLE_VECTORS])
def test_hole_scores(options, L, ender, knocked, expected):
    rules = Rules.preset("six_card", **options)
    engine = engine_holes(rules, L, ender, knocked)
    reference = reference_holes(rules, L, ender, knocked)
    assert (engine, reference) == (expected, expected), \
        f"L {L}, ender {ender}: engine {engine}, reference {reference}, RULES.md {expected}"
