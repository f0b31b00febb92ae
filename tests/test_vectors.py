"""The test vectors (docs/rules.md#test-vectors: six-card, four-card, Whitnack TV-S2/TV-S3, TV-D9,
the four_card_in_hand line of TV-D18), through both the compiled scoring (simulator/kernel/scoring.py) and
the plain-Python reference scoring (simulator/game/reference/).

Each vector is one test id; each test asserts that both implementations give the expected value
(worked out from the rules), and reports both when they do not.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simulator.game import cards as C
from simulator.game import reference as R
from simulator.kernel import scoring as S
from simulator.game.rules import RuleError, Rules, flatten


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
    # [derived] wild one-eyed jacks in columns (step (d) of docs/rules.md#how-a-layout-is-scored):
    # J♠ pairs with the 7♦ below it;
    # a wild pair is optional, so a jack worth 0 stays apart from a -2
    ("derived-wild-column", dict(one_eyed_jacks="wild"), "J♠ 5♥ 9♣ / 7♦ 5♣ 2♥", 7),
    ("derived-wild-column-normal", {}, "J♠ 5♥ 9♣ / 7♦ 5♣ 2♥", 24),
    ("derived-wild-declined", dict(one_eyed_jacks="wild", value_jack=0),
     "J♠ 5♥ 9♣ / 2♦ 6♣ 3♥", 21),
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
        f"{layout}: engine {engine}, reference {reference}, expected {expected}"


# ---- four-card layouts (docs/rules.md#four_card, TV-S9, TV-D5) -----------------------------------
# (id, options for Rules.preset("four_card", ...), layout r0 / r1, expected layout value)
FOUR_CARD_VECTORS = [
    # TV-S9: three of a kind, one pair cancels and the third nine counts; four of a kind, all 0
    ("TV-S9a", {}, "9♠ 9♥ / 9♦ K♣", 9),
    ("TV-S9b", {}, "9♠ 9♥ / 9♦ 9♣", 0),
    # TV-D5: nines on a diagonal
    ("TV-D5-diagonal-row_or_column", {}, "9♠ 4♥ / K♣ 9♦", 22),
    ("TV-D5-diagonal-row_column_diagonal", dict(pair_scope="row_column_diagonal"),
     "9♠ 4♥ / K♣ 9♦", 4),
    ("TV-D5-diagonal-anywhere", dict(pair_scope="anywhere"), "9♠ 4♥ / K♣ 9♦", 4),
    ("TV-D5-diagonal-none", dict(pair_scope="none"), "9♠ 4♥ / K♣ 9♦", 22),
    # TV-D5: nines in a row
    ("TV-D5-row-row_or_column", {}, "9♠ 9♥ / 4♣ K♦", 4),
    ("TV-D5-row-none", dict(pair_scope="none"), "9♠ 9♥ / 4♣ K♦", 22),
    # [derived] the same layouts under the other pair scopes (a 2x2 square: every two cells
    # share a row, a column or a diagonal; only the diagonal cells are not orthogonal neighbours)
    ("derived-diagonal-orthogonal_adjacent", dict(pair_scope="orthogonal_adjacent"),
     "9♠ 4♥ / K♣ 9♦", 22),
    ("derived-row-orthogonal_adjacent", dict(pair_scope="orthogonal_adjacent"),
     "9♠ 9♥ / 4♣ K♦", 4),
    ("derived-column-row_or_column", {}, "9♠ 4♥ / 9♦ K♣", 4),
    ("derived-column-column", dict(pair_scope="column"), "9♠ 4♥ / 9♦ K♣", 4),
    # [derived] TV-S9 under the other scopes: three nines leave one counting, four cancel
    ("derived-TV-S9a-row_column_diagonal", dict(pair_scope="row_column_diagonal"),
     "9♠ 9♥ / 9♦ K♣", 9),
    ("derived-TV-S9a-orthogonal_adjacent", dict(pair_scope="orthogonal_adjacent"),
     "9♠ 9♥ / 9♦ K♣", 0),    # every nine has an equal neighbour (a card may be in two pairs)
    ("derived-TV-S9b-anywhere", dict(pair_scope="anywhere"), "9♠ 9♥ / 9♦ 9♣", 0),
    # [derived] 2 = +2 in the basic table: twos at both ends of a diagonal count under
    # row_or_column
    ("derived-twos-row_or_column", {}, "2♠ 5♥ / 7♣ 2♦", 16),
    # TV-D17: the wild J♥ pairs with 9♣ in its row (better than 4♦ in its column)
    ("TV-D17-wild", dict(one_eyed_jacks="wild"), "J♥ 9♣ / 4♦ K♠", 4),
    ("TV-D17-normal", {}, "J♥ 9♣ / 4♦ K♠", 23),
    # [derived] a two-eyed jack is not wild; two one-eyed jacks pair naturally (both jacks)
    ("derived-TV-D17-jack-of-clubs", dict(one_eyed_jacks="wild"), "J♣ 9♣ / 4♦ K♠", 23),
    ("derived-TV-D17-natural-first", dict(one_eyed_jacks="wild"), "J♥ 9♣ / J♠ 9♦", 0),
    # [derived] three nines: one natural pair, the wild jack takes the third nine
    ("derived-TV-D17-three-nines", dict(one_eyed_jacks="wild", pair_scope="anywhere"),
     "J♥ 9♣ / 9♦ 9♠", 0),
    ("derived-TV-D17-three-nines-normal", dict(pair_scope="anywhere"), "J♥ 9♣ / 9♦ 9♠", 19),
]


@pytest.mark.parametrize("options,layout,expected", [v[1:] for v in FOUR_CARD_VECTORS],
                         ids=[v[0] for v in FOUR_CARD_VECTORS])
def test_four_card_layout_value(options, layout, expected):
    rules = Rules.preset("four_card", **options)
    engine, _ = engine_layout(rules, layout)
    reference, _ = reference_layout(rules, layout)
    assert (engine, reference) == (expected, expected), \
        f"{layout}: engine {engine}, reference {reference}, expected {expected}"


# TV-D9: Moraco adjacency on a 3x3 grid (pair_scope orthogonal_adjacent, no lines); the nine_card
# preset does not exist yet, so its grid and card values are given as options
NINE_GRID = dict(grid_rows=3, grid_cols=3, decks=2, players_max=4)


def test_tv_d9_orthogonal_adjacent_3x3():
    rules = Rules.preset("six_card", pair_scope="orthogonal_adjacent", **NINE_GRID)
    layout = "6♠ 6♥ A♣ / 3♦ 9♣ 6♦ / 3♣ 9♦ 7♥"
    engine, _ = engine_layout(rules, layout)
    reference, _ = reference_layout(rules, layout)
    assert (engine, reference) == (14, 14), f"engine {engine}, reference {reference}, expected 14"


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
        f"engine {engine}, reference {reference}, expected {expected}"


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
        f"L {L}, ender {ender}: engine {engine}, reference {reference}, expected {expected}"


# ---- the four_card preset and the knock -------------------------------------------------------
def test_four_card_preset_has_the_four_card_rules():
    """Every option the four-card rules fix (docs/rules.md#four_card), as the preset gives it."""
    r = Rules.preset("four_card")
    assert (r.players_min, r.players_max) == (2, 8)
    assert [r.decks_for(p) for p in (2, 7, 8)] == [1, 1, 2]
    assert (r.jokers_per_deck, r.layout_mode, r.grid_rows, r.grid_cols) == (0, "grid", 2, 2)
    assert r.initial_discard == "turn_up"
    assert (r.initial_reveal_mode, r.initial_reveal_count, r.initial_reveal_constraint,
            r.initial_reveal_sequential) == ("peek", 2, "any", True)
    assert r.placement_face == "down"
    assert (r.discard_draw_must_be_placed, r.stock_draw_may_be_discarded,
            r.replace_face_up_allowed, r.flip_instead_of_draw) == (True, True, True, False)
    assert r.flip_after_stock_discard == "none"
    assert (r.end_triggers, r.knock_timing) == (("knock",), "instead_of_turn")
    assert (r.final_turns, r.final_turn_stock_only) == ("each_other_player_once", False)
    assert r.stock_empty == "reshuffle_keep_top"
    assert (r.value_scheme, r.match_key, r.pair_scope, r.negative_pairs_keep_value) == \
        ("basic", "rank", "row_or_column", False)
    assert (r.ender_penalty, r.ender_bonus) == ("none", "none")
    assert (r.match_end_mode, r.match_end_holes, r.match_tie) == ("holes", 9, "share")


# TV-D10 numbers (N = 4, ender L = 12, others 8, 15, 25) with ender_rule_applies_to = knock_only:
# the penalty applies to a knocker, not to an ender who went out
@pytest.mark.parametrize("knocked,expected", [(True, [22, 8, 15, 25]), (False, [12, 8, 15, 25])],
                         ids=["knocked", "went_out"])
def test_tv_d10_knock_only(knocked, expected):
    rules = Rules.preset("four_card", end_triggers=("knock", "all_face_up"),
                         ender_penalty="plus_10", ender_rule_applies_to="knock_only")
    engine = engine_holes(rules, [12, 8, 15, 25], 0, knocked)
    reference = reference_holes(rules, [12, 8, 15, 25], 0, knocked)
    assert (engine, reference) == (expected, expected), \
        f"engine {engine}, reference {reference}, expected {expected}"


# ---- eight_card_whitnack (docs/rules.md#eight_card_whitnack; TV-S2, TV-S3) -----------------------
# (id, layout r0 / r1 (the seed's columns c0..c3 read top/bottom), expected layout value, couples)
WHITNACK_VECTORS = [
    # TV-S2: [8 (6+2), 0 (pair), 1 (0+1), 0 (pair)]: 2 = +2; pairs of different ranks, no -10
    ("TV-S2", "6♠ 9♣ K♠ 7♠ / 2♥ 9♦ A♥ 7♦", 9, 0),
    # TV-S3: [1 (1+0), 0 (pair), 10 (6+4), -10 (pair equal to the pair in c1)]: the couple
    # (c1, c3) is worth -10 in total
    ("TV-S3", "A♣ Q♠ 6♥ Q♥ / K♥ Q♦ 4♣ Q♣", 1, 1),
    # [derived] the two equal pair-columns side by side score the same (adjacency not needed)
    ("derived-TV-S3-adjacent", "A♣ Q♠ Q♥ 6♥ / K♥ Q♦ Q♣ 4♣", 1, 1),
    # [derived] jokers -5; a joker pair in a column cancels to 0; four jokers in two columns
    # are a couple of equal pair-columns (-10)
    ("derived-joker", "JK 5♣ K♠ 7♠ / 3♥ 5♦ A♥ 8♦", -2 + 0 + 1 + 15, 0),
    ("derived-joker-pair", "JK 5♣ K♠ 7♠ / JK 6♦ A♥ 8♦", 0 + 11 + 1 + 15, 0),
    ("derived-four-jokers", "JK 5♣ JK 7♠ / JK 6♦ JK 8♦", -10 + 11 + 15, 1),
    # [derived] three pair-columns of queens (two decks): one couple (-10), the third pair 0
    ("derived-three-pair-columns", "Q♠ Q♥ Q♠ 5♣ / Q♦ Q♣ Q♦ 4♦", -10 + 0 + 9, 1),
]


@pytest.mark.parametrize("layout,expected,couples", [v[1:] for v in WHITNACK_VECTORS],
                         ids=[v[0] for v in WHITNACK_VECTORS])
def test_whitnack_layout_value(layout, expected, couples):
    rules = Rules.preset("eight_card_whitnack")
    engine = engine_layout(rules, layout, players=4)
    reference = reference_layout(rules, layout)
    assert (engine, reference) == ((expected, couples), (expected, couples)), \
        f"{layout}: engine {engine}, reference {reference}, expected {(expected, couples)}"


def test_eight_card_whitnack_preset_has_whitnacks_rules():
    """Every option Whitnack's eight-card rules fix (docs/rules.md#eight_card_whitnack), as the
    preset gives it."""
    r = Rules.preset("eight_card_whitnack")
    assert (r.players_min, r.players_max) == (2, 4)
    assert [r.decks_for(p) for p in (2, 4)] == [2, 2] and r.jokers_per_deck == 2
    assert r.deck_size(4) == 108
    assert (r.layout_mode, r.grid_rows, r.grid_cols) == ("grid", 2, 4)
    assert r.initial_discard == "turn_up"
    assert (r.initial_reveal_mode, r.initial_reveal_count, r.initial_reveal_constraint) == \
        ("flip_on_first_turn", 2, "whole_column")
    assert r.placement_face == "up"
    assert (r.discard_draw_must_be_placed, r.stock_draw_may_be_discarded,
            r.replace_face_up_allowed, r.lock_face_up_columns, r.flip_instead_of_draw) == \
        (True, True, True, False, False)
    assert r.flip_after_stock_discard == "mandatory_unless_one_face_down"
    assert (r.end_triggers, r.final_turns) == (("all_face_up",), "each_other_player_once")
    assert r.stock_empty == "reshuffle_keep_top"
    assert (r.value_scheme, r.match_key, r.pair_scope) == ("whitnack", "rank", "column")
    assert (r.quad_two_columns_value, r.quad_two_columns_adjacent_only) == (-10, False)
    assert (r.match_end_mode, r.match_end_holes) == ("holes", 9)


# ---- four_card_in_hand (docs/rules.md#four_card_in_hand; TV-D18) ---------------------------------
# A hand is unordered: it is written as a 2x2 "grid" only because that is how cards are typed.
HAND_VECTORS = [
    # TV-D18: one pair of sevens cancels, the third seven and the two (basic: +2) count
    ("TV-D18-four_card_in_hand", "7♣ 7♥ 7♠ 2♦", 9),
    # [rec] for a hand: four of a kind scores 0
    ("four-of-a-kind", "7♣ 7♥ 7♠ 7♦", 0),
    # [derived] any two equal cards cancel, wherever they were dealt (diagonal in a 2x2 grid)
    ("pair-anywhere", "9♠ 4♥ K♣ 9♦", 4),
    ("two-pairs", "9♠ 4♥ 4♣ 9♦", 0),
    ("no-pair", "9♠ 4♥ K♣ J♦", 23),
]


@pytest.mark.parametrize("hand,expected", [v[1:] for v in HAND_VECTORS],
                         ids=[v[0] for v in HAND_VECTORS])
def test_four_card_in_hand_value(hand, expected):
    """Both engines give the expected value for every order of the four cards."""
    rules = Rules.preset("four_card_in_hand")
    cards = hand.split()
    for order in sorted(set(itertools.permutations(cards))):
        layout = f"{order[0]} {order[1]} / {order[2]} {order[3]}"
        engine, _ = engine_layout(rules, layout)
        reference, _ = reference_layout(rules, layout)
        assert (engine, reference) == (expected, expected), \
            f"{layout}: engine {engine}, reference {reference}, expected {expected}"


def test_four_card_in_hand_preset_is_four_card_in_hand():
    """four_card with the hand options (docs/rules.md#four_card_in_hand)."""
    hand, four = Rules.preset("four_card_in_hand"), Rules.preset("four_card")
    assert hand.diff(four) == {"layout_mode": "hand", "initial_reveal_mode": "none",
                               "owner_view": "all", "pair_scope": "anywhere"}


@pytest.mark.parametrize("scope", ["column", "row_or_column", "row_column_diagonal",
                                   "orthogonal_adjacent"])
def test_hand_refuses_geometric_pair_scopes(scope):
    """A hand has no rows or columns: only pair_scope anywhere or none is accepted."""
    with pytest.raises(RuleError, match="hand"):
        Rules.preset("four_card_in_hand", pair_scope=scope)
    with pytest.raises(RuleError, match="hand"):
        Rules.preset("six_card", layout_mode="hand", pair_scope=scope)


@pytest.mark.parametrize("scope", ["anywhere", "none"])
def test_hand_accepts_anywhere_and_none(scope):
    assert Rules.preset("four_card_in_hand", pair_scope=scope).layout_mode == "hand"


# ---- nine-card lines and blocks (docs/rules.md#nine_card, TV-D6 .. TV-D8) ------------------------
NINE_VECTORS = [
    ("TV-D6-columns", {}, "5♠ 5♥ 5♦ / 5♣ K♠ 2♥ / 5♥ Q♣ 2♠", 16),
    ("TV-D6-rows_and_columns", dict(line_sets="rows_and_columns"),
     "5♠ 5♥ 5♦ / 5♣ K♠ 2♥ / 5♥ Q♣ 2♠", 6),
    ("TV-D6-diagonals", dict(line_sets="rows_columns_diagonals"),
     "5♠ 5♥ 5♦ / 5♣ 5♦ 2♥ / 5♥ Q♣ 5♣", 8),  # all but 2♥ (-2) and Q♣ (10) in lines
    ("TV-D7-block", dict(block_2x2_value=-25), "8♠ 8♥ 3♦ / 8♣ 8♦ 4♥ / J♥ 6♣ A♠", -1),
    ("TV-D7-no-block", {}, "8♠ 8♥ 3♦ / 8♣ 8♦ 4♥ / J♥ 6♣ A♠", 56),
    ("TV-D8-block-and-column", dict(block_2x2_value=-25), "8♠ 8♥ 3♦ / 8♣ 8♦ 4♥ / 8♥ 6♣ A♠",
     -11),
    ("TV-D8-columns-only", {}, "8♠ 8♥ 3♦ / 8♣ 8♦ 4♥ / 8♥ 6♣ A♠", 30),
]


@pytest.mark.parametrize("options,layout,expected", [v[1:] for v in NINE_VECTORS],
                         ids=[v[0] for v in NINE_VECTORS])
def test_nine_card_layout_value(options, layout, expected):
    rules = Rules.preset("nine_card", **options)
    engine, _ = engine_layout(rules, layout)
    reference, _ = reference_layout(rules, layout)
    assert (engine, reference) == (expected, expected), \
        f"{layout}: engine {engine}, reference {reference}, expected {expected}"


def test_two_disjoint_blocks_on_a_wide_three_row_grid():
    rules = Rules.preset("nine_card", grid_cols=4, line_sets="none", block_2x2_value=-25)
    layout = "7♠ 7♥ 9♠ 9♥ / 7♦ 7♣ 9♦ 9♣ / A♠ 2♠ 3♠ 4♠"
    assert engine_layout(rules, layout) == reference_layout(rules, layout) == (-50 + 1 - 2 + 3 + 4,
                                                                              2)
