"""Parity: the plain-Python reference engine (simulator/game/reference/) and the compiled kernel
(simulator/kernel/engine.py) play the same holes move for move.

Every round is played by both from the same (seed, round index); the full move log, the scores,
layout values, final layouts, turns, ender, knock flag, capped flag and reshuffle count must be
identical.
The kernel runs with ``check=True`` (it verifies card conservation after every turn) and must
report no error; the reference checks its own conservation after every turn.

Rounds: 2,000 all-random and 2,000 all-greedy six_card rounds over 2-6 players, 650 mixed seatings,
and about 4,500 more over option variants and the other presets; then about 4,700 for the knock,
four_card (docs/rules.md#four_card), W2 (docs/benchmarks.md#w2) and the pair scopes row_or_column,
row_column_diagonal and orthogonal_adjacent (about 2,400 with seats playing knock-threshold, 2,200
random, 500 greedy); then about 5,900 for knock_min_laps, reveal_on_trigger, owner_view,
four_card_in_hand, first-turn reveals and eight_card_whitnack, with a check that each of these
options really changes play; then about 2,700 for pay_to_peek and jack_discard_skips_next (AMB-16,
AMB-19), with the TV-D18 turn-flow lines and checks read from the reference's logs. Those are the
slow tier (``-m slow``); the default tier plays a few cases of each sweep.

Scoring is also compared on generated layouts and holes, which reach the rare patterns (quads,
blocks, six of a kind, joker pairs, shoot the moon) far more often than play does. The cases
where the kernel once disagreed with the rules (docs/rules.md) are kept as regression tests
with the value the rules give.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game import reference as R
from strategies.reference import policy_maker, referee
from simulator.kernel import scoring as S
from simulator.experiments.runner import play_logged_round
from simulator.game.rules import RuleError, Rules, card_keys, card_values, flatten
from strategies import resolve_seats, seat_arrays
from tiers import sweep


# ---- helpers ------------------------------------------------------------------------------------
def engine_round(rules: Rules, players: int, strategies: list[str], seed: int,
                 round_index: int) -> dict:
    arrays = flatten(rules, players)
    ids, params = seat_arrays(resolve_seats(strategies, players))
    result = play_logged_round(arrays, ids, params, seed, round_index, check=True)
    assert result["error"] == 0 and result["ok"], \
        f"kernel error {result['error']} in round {round_index} (seed {seed})"
    return result


def _row_text(row) -> str:
    turn, seat, point, action, held = row
    held_text = C.card_name(held, ascii_only=True) if held >= 0 else "-"
    return (f"turn {turn} seat {seat} {K.DECISION_NAMES[point]} -> {K.action_name(action)} "
            f"(held {held_text})")


def differences(engine: dict, ref: R.RoundRecord) -> list[str]:
    """Human-readable differences between a kernel round and a reference round."""
    out = []
    elog = [tuple(int(x) for x in row) for row in engine["log"]]
    if elog != ref.log:
        for i, (a, b) in enumerate(zip(elog, ref.log)):
            if a != b:
                out.append(f"log row {i}: engine {_row_text(a)} | reference {_row_text(b)}")
                break
        else:
            out.append(f"log length: engine {len(elog)} rows, reference {len(ref.log)} rows")
    pairs = {
        "scores": ([int(x) for x in engine["scores"]], ref.scores),
        "layout_values": ([int(x) for x in engine["layout_values"]], ref.layout_values),
        "layouts": (engine["layouts"].tolist(), ref.layouts),
        "turns": (engine["turns"], ref.turns),
        "ender": (engine["ender"], ref.ender),
        "knocked": (engine.get("knocked", False), ref.knocked),
        "capped": (engine["capped"], ref.capped),
        "reshuffles": (engine["reshuffles"], ref.reshuffles),
    }
    for name, (a, b) in pairs.items():
        if a != b:
            out.append(f"{name}: engine {a} | reference {b}")
    return out


def assert_parity(rules: Rules, players: int, strategies: list[str], seed: int,
                  rounds: int) -> None:
    mismatched = []
    for i in range(rounds):
        engine = engine_round(rules, players, strategies, seed, i)
        ref = referee.play_round(rules, players, strategies, seed, i)
        diff = differences(engine, ref)
        if diff:
            mismatched.append((i, diff))
    if mismatched:
        i, diff = mismatched[0]
        raise AssertionError(
            f"{len(mismatched)} of {rounds} rounds differ ({rules}, {players} players, "
            f"{strategies}); first: seed {seed} round {i}:\n  " + "\n  ".join(diff))


# ---- the base game: six_card, every table size ---------------------------------------------------
# rounds per table size; 2,000 all-random and 2,000 all-greedy rounds in total
BASE_ROUNDS = {2: 350, 3: 350, 4: 600, 5: 350, 6: 350}


@pytest.mark.parametrize("strategy", ["random", "greedy"])
@pytest.mark.parametrize("players", sweep(sorted(BASE_ROUNDS), keep={1}))   # 3 players: default
def test_six_card_parity(strategy, players):
    assert_parity(Rules.preset("six_card"), players, [strategy], seed=1000 + players,
                  rounds=BASE_ROUNDS[players])


MIXED = [
    (2, ["greedy", "random"], 150),
    (3, ["random", "greedy", "greedy"], 150),
    (4, ["greedy", "random", "greedy", "random"], 150),
    (5, ["random", "random", "greedy", "random", "greedy"], 100),
    (6, ["greedy", "greedy", "random", "greedy", "random", "random"], 100),
]


@pytest.mark.parametrize("players,strategies,rounds", sweep(MIXED, keep={0}),
                         ids=[f"{p}p-{'-'.join(s[0] for s in st)}" for p, st, _ in MIXED])
def test_mixed_seating_parity(players, strategies, rounds):
    assert_parity(Rules.preset("six_card"), players, strategies, seed=2000 + players,
                  rounds=rounds)


# ---- option variants -----------------------------------------------------------------------------
# (id, preset, options, players, random rounds, greedy rounds)
VARIANTS = [
    ("pair_anywhere", "six_card", dict(pair_scope="anywhere"), 4, 80, 80),
    ("pair_none", "six_card", dict(pair_scope="none"), 4, 60, 60),
    ("complete_lap", "six_card", dict(final_turns="complete_lap"), 4, 80, 80),
    ("final_none", "six_card", dict(final_turns="none"), 4, 80, 80),
    ("flip_instead_of_draw", "six_card", dict(flip_instead_of_draw=True), 4, 80, 80),
    ("flip_after_discard_unless_one", "six_card",
     dict(flip_after_stock_discard="mandatory_unless_one_face_down"), 4, 80, 80),
    ("flip_all_to_end", "six_card", dict(flip_all_to_end=True), 4, 150, 60),
    ("placement_choice", "six_card", dict(placement_face="player_choice"), 4, 80, 60),
    ("placement_down_flip", "six_card",
     dict(placement_face="down", flip_instead_of_draw=True), 3, 60, 4),
    ("reveal_different_columns", "six_card",
     dict(initial_reveal_constraint="different_columns"), 4, 60, 60),
    ("reveal_same_column", "six_card", dict(initial_reveal_constraint="same_column"), 4, 60, 60),
    ("reveal_centre_outer", "six_card",
     dict(initial_reveal_constraint="centre_and_outer"), 5, 60, 60),
    ("peek_nearest_row", "six_card",
     dict(initial_reveal_mode="peek", initial_reveal_count=-1,
          initial_reveal_constraint="nearest_row"), 4, 60, 12),
    ("reveal_not_sequential", "six_card", dict(initial_reveal_sequential=False), 4, 40, 40),
    ("reveal_simultaneous", "six_card", dict(initial_reveal_order="simultaneous"), 3, 40, 40),
    ("reveal_none", "six_card", dict(initial_reveal_mode="none"), 4, 40, 40),
    ("jokers", "six_card", dict(jokers_per_deck=2), 4, 60, 60),
    ("jokers_plus15", "six_card",
     dict(jokers_per_deck=2, decks=2, value_joker="plus15_pair_minus5"), 4, 60, 60),
    ("quad_block", "six_card",
     dict(decks=2, quad_two_columns_value=-10, block_2x2_value=-20), 4, 60, 60),
    ("quad_000_rule", "six_card",
     dict(decks=2, quad_two_columns_value=0, quad_two_columns_adjacent_only=True,
          quad_others_penalty=10), 4, 60, 60),
    ("negative_quad", "six_card",
     dict(decks=2, jokers_per_deck=2, negative_pairs_keep_value=True,
          negative_quad_value=-20), 4, 60, 60),
    ("six_of_kind", "six_card", dict(decks=2, six_of_kind_value=-20), 4, 40, 40),
    ("ender_plus10_minus_players", "six_card",
     dict(ender_penalty="plus_10", ender_bonus="minus_players"), 4, 60, 60),
    ("ender_double_tie_loses", "six_card",
     dict(ender_penalty="double", ender_bonus="zero", ender_tie="counts_as_not_lowest"),
     3, 60, 60),
    ("lowest_scores_zero", "six_card", dict(lowest_scores_zero=True), 4, 40, 40),
    ("shoot_the_moon", "six_card", dict(shoot_the_moon=60), 4, 40, 40),
    ("final_turn_stock_only", "six_card", dict(final_turn_stock_only=True), 4, 60, 60),
    ("no_face_up_replace_mandatory_flip", "six_card",
     dict(replace_face_up_allowed=False, flip_after_stock_discard="mandatory"), 4, 80, 80),
    ("lock_face_up_columns", "six_card", dict(lock_face_up_columns=True), 4, 40, 40),
    ("stock_only", "six_card", dict(draw_from_discard=False), 4, 40, 40),
    ("stock_card_must_be_placed", "six_card", dict(stock_draw_may_be_discarded=False),
     4, 40, 40),
    ("all_players_face_up", "six_card", dict(end_triggers=("all_players_face_up",)), 3, 40, 40),
    ("turn_cap_30", "six_card", dict(turn_cap=30), 4, 40, 40),
    ("point_value_key", "six_card",
     dict(match_key="point_value", value_queen_of_spades=40, value_eight=0), 4, 40, 40),
    ("one_deck_six_players", "six_card", dict(decks=1), 6, 80, 80),
    ("eight_card_basic", "eight_card_basic", {}, 4, 80, 80),
    ("ten_card", "ten_card", {}, 4, 80, 80),
    ("nine_card", "nine_card", {}, 4, 60, 60),
    ("nine_card_rows_diagonals_block", "nine_card",
     dict(line_sets="rows_columns_diagonals", block_2x2_value=-25), 3, 60, 60),
    ("ten_card_anywhere", "ten_card", dict(pair_scope="anywhere"), 3, 40, 40),
    ("stock_empty_end_hole", "six_card", dict(stock_empty="end_hole", decks=1), 6, 40, 40),
]


def _variant_cases():
    cases = []
    for i, v in enumerate(VARIANTS):
        if hasattr(v, "marks"):  # a pytest.param carrying an xfail mark
            name, preset, opts, players, n_random, n_greedy = v.values
            marks = v.marks
        else:
            name, preset, opts, players, n_random, n_greedy = v
            marks = ()
        for strategy, n in (("random", n_random), ("greedy", n_greedy)):
            cases.append(pytest.param(preset, opts, players, strategy, n, 3000 + 10 * i,
                                      marks=marks, id=f"{name}-{strategy}"))
    return cases


# the default tier plays a few variants; the slow tier all of them
VARIANTS_DEFAULT = {"pair_anywhere-random", "jokers-greedy", "quad_block-greedy",
                    "flip_all_to_end-random", "ten_card_anywhere-random"}


@pytest.mark.parametrize("preset,options,players,strategy,rounds,seed",
                         sweep(_variant_cases(), keep=VARIANTS_DEFAULT))
def test_variant_parity(preset, options, players, strategy, rounds, seed):
    assert_parity(Rules.preset(preset, **options), players, [strategy], seed, rounds)


# ---- the knock, four_card, the other pair scopes, knock-threshold ----------------------------------
# W2 (docs/benchmarks.md#w2): four_card without pairs, peeking at the nearest row
W2 = dict(pair_scope="none", initial_reveal_constraint="nearest_row")
KT8, KT12 = "knock-threshold:T=8", "knock-threshold:T=12"
# (id, preset, options, players, strategies (one for all seats, or one per seat), rounds)
KNOCK_CASES = [
    # four_card (docs/rules.md#four_card): row_or_column pairs, peek two, face-down memory
    # play, knock
    ("four_card-2p-random", "four_card", {}, 2, ["random"], 120),
    ("four_card-3p-random", "four_card", {}, 3, ["random"], 120),
    ("four_card-4p-random", "four_card", {}, 4, ["random"], 150),
    ("four_card-8p-random", "four_card", {}, 8, ["random"], 60),       # two decks from 8
    ("four_card-2p-kt8", "four_card", {}, 2, [KT8], 120),
    ("four_card-4p-kt8", "four_card", {}, 4, [KT8], 200),
    ("four_card-6p-kt8", "four_card", {}, 6, [KT8], 60),
    ("four_card-3p-kt12", "four_card", {}, 3, [KT12], 150),
    ("four_card-5p-kt12", "four_card", {}, 5, [KT12], 150),
    ("four_card-4p-kt-default", "four_card", {}, 4, ["knock-threshold"], 60),
    ("four_card-4p-kt-fractional", "four_card", {}, 4, ["knock-threshold:T=7.5"], 60),
    ("four_card-4p-mixed", "four_card", {}, 4, [KT8, "random", "greedy", KT12], 120),
    ("four_card-3p-greedy", "four_card", {}, 3, ["greedy"], 12),     # never knocks: capped
    # W2 (docs/benchmarks.md#w2)
    ("w2-4p-kt8", "four_card", W2, 4, [KT8], 300),
    ("w2-4p-kt12", "four_card", W2, 4, [KT12], 100),
    ("w2-4p-random", "four_card", W2, 4, ["random"], 150),
    ("w2-2p-kt8-random", "four_card", W2, 2, [KT8, "random"], 100),
    # the other pair scopes on the 2x2 square
    ("four_card-diagonal-random", "four_card", dict(pair_scope="row_column_diagonal"), 4,
     ["random"], 100),
    ("four_card-diagonal-kt8", "four_card", dict(pair_scope="row_column_diagonal"), 4, [KT8],
     100),
    ("four_card-adjacent-random", "four_card", dict(pair_scope="orthogonal_adjacent"), 4,
     ["random"], 100),
    ("four_card-adjacent-kt8", "four_card", dict(pair_scope="orthogonal_adjacent"), 4, [KT8],
     100),
    ("four_card-anywhere-random", "four_card", dict(pair_scope="anywhere"), 4, ["random"], 100),
    ("four_card-anywhere-kt12", "four_card", dict(pair_scope="anywhere"), 4, [KT12], 100),
    ("four_card-column-kt8", "four_card", dict(pair_scope="column"), 4, [KT8], 60),
    # four_card options that touch the knock, the pool or the pair values
    ("four_card-knock_only-penalty-kt8", "four_card",
     dict(ender_penalty="plus_10", ender_bonus="zero", ender_rule_applies_to="knock_only"), 4,
     [KT8], 100),
    ("four_card-final_stock_only-kt8", "four_card", dict(final_turn_stock_only=True), 3, [KT8],
     60),
    ("four_card-complete_lap-random", "four_card", dict(final_turns="complete_lap"), 4,
     ["random"], 60),
    ("four_card-final_none-kt12", "four_card", dict(final_turns="none"), 3, [KT12], 60),
    ("four_card-end_hole-kt8", "four_card", dict(stock_empty="end_hole"), 5, [KT8], 60),
    ("four_card-face_up-random", "four_card",
     dict(placement_face="up", end_triggers=("knock", "all_face_up")), 4, ["random"], 80),
    ("four_card-face_up-kt8", "four_card",
     dict(placement_face="up", end_triggers=("knock", "all_face_up")), 4, [KT8], 80),
    ("four_card-jokers_plus15-kt8", "four_card",
     dict(jokers_per_deck=2, value_joker="plus15_pair_minus5"), 4, [KT8], 60),
    ("four_card-negative_keep-kt8", "four_card",
     dict(value_two=-2, negative_pairs_keep_value=True), 2, [KT8, "random"], 100),
    ("four_card-harder-kt12", "four_card", dict(value_scheme="harder"), 4, [KT12], 60),
    # six_card with the new pair scopes
    ("six_card-row_or_column-random", "six_card", dict(pair_scope="row_or_column"), 4,
     ["random"], 150),
    ("six_card-row_or_column-greedy", "six_card", dict(pair_scope="row_or_column"), 4,
     ["greedy"], 150),
    ("six_card-diagonal-random", "six_card", dict(pair_scope="row_column_diagonal"), 3,
     ["random"], 80),
    ("six_card-diagonal-greedy", "six_card", dict(pair_scope="row_column_diagonal"), 3,
     ["greedy"], 80),
    ("six_card-adjacent-random", "six_card", dict(pair_scope="orthogonal_adjacent"), 4,
     ["random"], 80),
    ("six_card-adjacent-greedy", "six_card", dict(pair_scope="orthogonal_adjacent"), 4,
     ["greedy"], 80),
    ("ten_card-row_or_column-greedy", "ten_card", dict(pair_scope="row_or_column"), 3,
     ["greedy"], 40),
    ("ten_card-adjacent-random", "ten_card", dict(pair_scope="orthogonal_adjacent"), 3,
     ["random"], 40),
    # six_card with the knock as a second end trigger
    ("six_card-knock-2p-random", "six_card", dict(end_triggers=("knock", "all_face_up")), 2,
     ["random"], 150),
    ("six_card-knock-4p-random", "six_card", dict(end_triggers=("knock", "all_face_up")), 4,
     ["random"], 150),
    ("six_card-knock-4p-greedy", "six_card", dict(end_triggers=("knock", "all_face_up")), 4,
     ["greedy"], 60),
    ("six_card-knock-4p-kt8", "six_card", dict(end_triggers=("knock", "all_face_up")), 4,
     [KT8], 60),
    ("six_card-knock_only-penalty-random", "six_card",
     dict(end_triggers=("knock", "all_face_up"), ender_penalty="double",
          ender_bonus="minus_players", ender_rule_applies_to="knock_only"), 4, ["random"], 100),
    ("six_card-knock-flips-random", "six_card",
     dict(end_triggers=("knock", "all_face_up"), flip_instead_of_draw=True,
          flip_all_to_end=True), 3, ["random"], 100),
]


@pytest.mark.parametrize("preset,options,players,strategies,rounds,seed",
                         sweep([pytest.param(*c[1:], 5000 + 10 * i, id=c[0])
                                for i, c in enumerate(KNOCK_CASES)],
                               keep={"four_card-4p-kt8", "four_card-4p-random", "w2-4p-kt12",
                                     "four_card-adjacent-kt8", "six_card-knock-4p-kt8"}))
def test_knock_and_scope_parity(preset, options, players, strategies, rounds, seed):
    assert_parity(Rules.preset(preset, **options), players, strategies, seed, rounds)


def test_knock_parity_covers_knocks():
    """The four_card parity rounds really exercise the knock: most rounds end by one, the
    knocker never plays again, and the hole is marked knocked for knock_only ender rules."""
    rules = Rules.preset("four_card", ender_penalty="plus_10", ender_rule_applies_to="knock_only")
    knocks = 0
    for i in range(60):
        ref = referee.play_round(rules, 4, [KT8], 17, i)
        knock_rows = [row for row in ref.log
                      if row[2] == K.DP_TURN and row[3] == K.A_KNOCK]
        assert len(knock_rows) <= 1
        if knock_rows:
            knocks += 1
            turn, seat = knock_rows[0][:2]
            assert ref.ender == seat
            later_turns = [row for row in ref.log if row[2] == K.DP_TURN and row[0] > turn]
            assert [row[1] for row in later_turns] == [(seat + k) % 4 for k in (1, 2, 3)]
            L = ref.layout_values
            m = min(L[q] for q in range(4) if q != seat)
            assert ref.scores[seat] == (L[seat] + 10 if L[seat] > m else L[seat])
    assert knocks >= 50


# ---- card tables ---------------------------------------------------------------------------------
CARD_TABLE_OPTIONS = [
    {}, dict(value_two=2), dict(jokers_per_deck=2), dict(jokers_per_deck=2, value_joker=-5),
    dict(jokers_per_deck=2, twos_positive_with_jokers=True),
    dict(jokers_per_deck=2, value_joker="plus15_pair_minus5"),
    dict(value_scheme="harder"), dict(value_scheme="cumbia", match_key="point_value"),
    dict(value_queen_of_spades=40, value_eight=0), dict(value_red_king=-1),
    dict(value_king_of_diamonds=0, value_king=13), dict(value_two_of_diamonds=-10),
    dict(one_eyed_jacks="zero"), dict(one_eyed_jacks="bonus"), dict(bonus_card="twos"),
    dict(bonus_card="one_eyed_jacks", value_jack=11),
]


@pytest.mark.parametrize("options", CARD_TABLE_OPTIONS, ids=lambda o: ",".join(o) or "default")
def test_card_values_and_keys_match_rule_loader(options):
    rules = Rules.preset("six_card", decks=2, **options)
    values = card_values(rules, 2)
    keys = card_keys(rules, values)
    table = R.CardTable(rules, 4)
    assert table.deck == flatten(rules, 4).deck.tolist()
    for card in range(values.size):
        assert (R.card_value(rules, card), R.match_key(rules, card)) == \
            (int(values[card]), int(keys[card])), C.card_name(card)


# ---- scoring on generated layouts and holes -----------------------------------------------------
def engine_layout_score(rules: Rules, cards: list[int], players: int = 2) -> tuple[int, int]:
    arrays = flatten(rules, players)
    lay = np.array([cards], dtype=np.int16)
    quads = np.zeros(players, dtype=np.int64)
    tmp = np.zeros(max(S.TMP_SIZE, arrays.card_value.size), dtype=np.int64)
    value = S.layout_value_nb(lay, 0, arrays.ri, arrays.card_value, arrays.card_key, quads, tmp)
    return int(value), int(quads[0])


def engine_hole_scores(rules: Rules, L, ender: int, knocked: bool, quads) -> list[int]:
    players = len(L)
    arrays = flatten(rules, players)
    out = np.zeros(players, dtype=np.int64)
    S.hole_scores_nb(np.array(L, dtype=np.int64), np.array(quads, dtype=np.int64), ender,
                     knocked, players, arrays.ri, np.zeros(players, dtype=np.int64), out)
    return [int(x) for x in out]


def few_rank_layouts(rules: Rules, players: int, count: int, seed: int):
    """Layouts drawn without replacement from the deck restricted to three or four ranks, so
    that pairs, quads, blocks and six-of-a-kind are common."""
    rng = random.Random(seed)
    deck = R.CardTable(rules, players).deck
    ranks = sorted({C.rank_of(c) for c in deck})
    for _ in range(count):
        chosen = set(rng.sample(ranks, 3 if rng.random() < 0.5 else 4))
        pool = [c for c in deck if C.rank_of(c) in chosen]
        if len(pool) < rules.n_positions:
            pool = deck
        yield rng.sample(pool, rules.n_positions)


SCORING_OPTIONS = [
    ("default", "six_card", dict(decks=2)),
    ("value_two_plus2", "six_card", dict(decks=2, value_two=2)),
    ("anywhere", "six_card", dict(decks=2, pair_scope="anywhere")),
    ("none", "six_card", dict(decks=2, pair_scope="none")),
    ("quad_minus10", "six_card", dict(decks=2, quad_two_columns_value=-10)),
    ("quad_000", "six_card", dict(decks=2, quad_two_columns_value=0,
                                  quad_two_columns_adjacent_only=True, quad_others_penalty=10)),
    ("block", "six_card", dict(decks=2, block_2x2_value=-20)),
    ("block_and_quad", "six_card", dict(decks=2, block_2x2_value=-20,
                                        quad_two_columns_value=-10)),
    ("six_of_kind", "six_card", dict(decks=2, six_of_kind_value=-20, block_2x2_value=-20)),
    ("negative_keep_quad", "six_card", dict(decks=2, jokers_per_deck=2,
                                            negative_pairs_keep_value=True,
                                            negative_quad_value=-20,
                                            quad_two_columns_value=-10)),
    ("jokers_plus15", "six_card", dict(decks=2, jokers_per_deck=2,
                                       value_joker="plus15_pair_minus5")),
    ("jokers_plus15_anywhere", "six_card", dict(decks=2, jokers_per_deck=2,
                                                value_joker="plus15_pair_minus5",
                                                pair_scope="anywhere")),
    ("anywhere_negative_keep", "six_card", dict(decks=2, jokers_per_deck=2,
                                                pair_scope="anywhere",
                                                negative_pairs_keep_value=True)),
    ("point_value", "six_card", dict(decks=2, match_key="point_value",
                                     value_queen_of_spades=40, value_red_king=-1)),
    ("eight_quads", "eight_card_basic", dict(quad_two_columns_value=-10, block_2x2_value=-20)),
    ("ten_quads", "ten_card", dict(quad_two_columns_value=-10, block_2x2_value=-25,
                                   quad_others_penalty=10)),
    ("ten_anywhere", "ten_card", dict(pair_scope="anywhere")),
    # house rules (docs/house_rules.md)
    ("eagle_eye", "six_card", dict(decks=2, jokers_per_deck=2, value_joker="plus2_pair_minus4")),
    ("eagle_eye_anywhere", "six_card", dict(decks=2, jokers_per_deck=2, pair_scope="anywhere",
                                            value_joker="plus2_pair_minus4")),
    ("jack_pairs_quad20", "six_card", dict(decks=2, jack_pairs_bonus=-20,
                                           quad_two_columns_value=-20)),
    ("jack_pairs_alone", "ten_card", dict(jack_pairs_bonus=-5, value_king=-2, value_ten=1)),
    ("whitnack_couples", "eight_card_whitnack", dict(quad_apart_value=-5, joker_quad_value=-50,
                                                     joker_quad_apart_value=-20)),
    ("lucky_swing", "six_card", dict(decks=2, joker_count=2, value_joker=-5)),
    # the pair scopes of step (c) of docs/rules.md#how-a-layout-is-scored: best maximum
    # matching / Moraco adjacency
    ("four_row_or_column", "four_card", dict(decks=2)),
    ("four_diagonal", "four_card", dict(decks=2, pair_scope="row_column_diagonal")),
    ("four_adjacent", "four_card", dict(decks=2, pair_scope="orthogonal_adjacent")),
    ("four_anywhere", "four_card", dict(decks=2, pair_scope="anywhere")),
    ("four_row_or_column_plus15", "four_card", dict(decks=2, jokers_per_deck=2,
                                                    value_joker="plus15_pair_minus5")),
    ("four_adjacent_plus15", "four_card", dict(decks=2, jokers_per_deck=2,
                                               value_joker="plus15_pair_minus5",
                                               pair_scope="orthogonal_adjacent")),
    ("four_diagonal_negative_keep", "four_card", dict(decks=2, jokers_per_deck=2,
                                                      pair_scope="row_column_diagonal",
                                                      negative_pairs_keep_value=True,
                                                      value_two=-2)),
    ("six_row_or_column", "six_card", dict(decks=2, pair_scope="row_or_column")),
    ("six_diagonal", "six_card", dict(decks=2, pair_scope="row_column_diagonal")),
    ("six_adjacent", "six_card", dict(decks=2, pair_scope="orthogonal_adjacent")),
    ("six_row_or_column_negative_keep", "six_card", dict(decks=2, jokers_per_deck=2,
                                                         pair_scope="row_or_column",
                                                         negative_pairs_keep_value=True,
                                                         value_red_king=-1)),
    ("six_diagonal_plus15", "six_card", dict(decks=2, jokers_per_deck=2,
                                             pair_scope="row_column_diagonal",
                                             value_joker="plus15_pair_minus5")),
    ("six_adjacent_negative_keep", "six_card", dict(decks=2, jokers_per_deck=2,
                                                    pair_scope="orthogonal_adjacent",
                                                    negative_pairs_keep_value=True)),
    ("six_row_or_column_point_value", "six_card", dict(decks=2, pair_scope="row_or_column",
                                                       match_key="point_value")),
    ("eight_diagonal", "eight_card_basic", dict(pair_scope="row_column_diagonal")),
    ("ten_row_or_column", "ten_card", dict(pair_scope="row_or_column")),
    ("ten_diagonal", "ten_card", dict(pair_scope="row_column_diagonal")),
    ("ten_adjacent", "ten_card", dict(pair_scope="orthogonal_adjacent")),
    ("nine_row_or_column", "six_card", dict(decks=2, grid_rows=3, grid_cols=3,
                                            pair_scope="row_or_column")),
    ("nine_diagonal", "six_card", dict(decks=2, grid_rows=3, grid_cols=3,
                                       pair_scope="row_column_diagonal")),
    ("nine_adjacent", "six_card", dict(decks=2, grid_rows=3, grid_cols=3,
                                       pair_scope="orthogonal_adjacent")),
    ("twelve_diagonal", "six_card", dict(decks=2, grid_rows=3, grid_cols=4,
                                         pair_scope="row_column_diagonal")),
    ("twelve_row_or_column_negative_keep", "six_card", dict(decks=2, jokers_per_deck=2,
                                                            grid_rows=3, grid_cols=4,
                                                            pair_scope="row_or_column",
                                                            negative_pairs_keep_value=True)),
    ("fifteen_adjacent", "six_card", dict(decks=2, grid_rows=3, grid_cols=5,
                                          pair_scope="orthogonal_adjacent")),
]


@pytest.mark.parametrize("seed,preset,options",
                         [(i, p, o) for i, (_, p, o) in enumerate(SCORING_OPTIONS)],
                         ids=[name for name, _, _ in SCORING_OPTIONS])
def test_layout_scoring_parity(seed, preset, options):
    rules = Rules.preset(preset, **options)
    for cards in few_rank_layouts(rules, 4, 400, seed):
        ref = R.score_layout(rules, cards)
        assert engine_layout_score(rules, cards, 4) == (ref.value, ref.couples), \
            " ".join(C.card_name(c, ascii_only=True) for c in cards)


def test_plain_scoring_path_agrees_with_the_general_one():
    """Both kernels score simple rule sets with scoring.plain_layout_value_nb instead of
    layout_value_nb: wherever the rule slot R_LAYOUT_KIND admits a rule set, both give the
    same value."""
    from simulator.kernel.engine import pack_rules
    kinds = []
    for seed, (_, preset, options) in enumerate(SCORING_OPTIONS):
        rules = Rules.preset(preset, **options)
        rt = pack_rules(flatten(rules, 4))
        kind = rt[K.R_LAYOUT_KIND]
        kinds.append(kind)
        if kind == K.LAYOUT_GENERAL:
            continue
        for cards in few_rank_layouts(rules, 4, 200, seed):
            plain = S.plain_layout_value_nb(np.array(cards, dtype=np.int32), 0, rt, kind)
            assert plain == engine_layout_score(rules, cards, 4)[0], \
                " ".join(C.card_name(c, ascii_only=True) for c in cards)
    # both simple kinds were exercised, and the patterns that need the general path refused it
    assert {K.LAYOUT_SUM, K.LAYOUT_COLUMNS, K.LAYOUT_GENERAL} <= set(kinds)
    for (name, _, _), kind in zip(SCORING_OPTIONS, kinds):
        if "quad" in name or "block" in name or "six_of_kind" in name or "jack_pairs" in name:
            assert kind == K.LAYOUT_GENERAL, name


HOLE_OPTIONS = [
    dict(),
    dict(ender_penalty="plus_10", ender_bonus="zero"),
    dict(ender_penalty="double_plus_5", ender_bonus="minus_players", ender_tie="counts_as_lowest"),
    dict(ender_penalty="equal_highest", ender_tie="counts_as_not_lowest"),
    dict(ender_penalty="plus_highest_opponent", ender_bonus="fixed_minus_10"),
    dict(ender_penalty="plus_lowest_score", lowest_scores_zero=True),
    dict(ender_penalty="plus_twice_players", quad_others_penalty=10,
         quad_two_columns_value=0),
    dict(ender_penalty="double", ender_bonus="zero"),
    dict(lowest_scores_zero=True, quad_others_penalty=10, quad_two_columns_value=0),
    dict(shoot_the_moon=60),
    dict(twenty_one_scores_zero=True, ender_penalty="plus_10", ender_extra=-5),
    dict(lowest_bonus=-3, tie_penalty=5, ender_rule_applies_to="knock_only", ender_extra=-5),
    dict(tie_penalty=5, shoot_the_moon=60, lowest_scores_zero=True),
]


@pytest.mark.parametrize("options", HOLE_OPTIONS, ids=lambda o: ",".join(o) or "default")
def test_hole_scoring_parity(options):
    rules = Rules.preset("six_card", **options)
    rng = random.Random(7)
    for _ in range(600):
        players = rng.randint(2, 6)
        L = [rng.choice([rng.randint(-12, 40), 60, 5, 21]) for _ in range(players)]
        quads = [rng.choice([0, 0, 0, 1, 2]) for _ in range(players)]
        if rules.shoot_the_moon is not None:
            quads = [0] * players          # see test_scoring_discrepancies (moon)
        ender = rng.randint(-1, players - 1)
        knocked = rng.random() < 0.5
        assert engine_hole_scores(rules, L, ender, knocked, quads) == \
            R.hole_scores(rules, L, ender, knocked, quads), (L, ender, knocked, quads)


# ---- cases where the compiled scoring once disagreed with the rules (kept as regressions) ---
REGRESSIONS = [
    pytest.param(
        "layout", dict(pair_scope="none", block_2x2_value=-20, decks=2), "7S 7H 4D / 7D 7C 9C",
        -7, id="block_with_pair_scope_none"),
    pytest.param(
        "layout", dict(pair_scope="anywhere", negative_pairs_keep_value=True, value_red_king=-1),
        "KH KD KS / 5C 6C 9C", 18, id="anywhere_pairing_best_matching"),
    pytest.param(
        "hole", dict(shoot_the_moon=60, ender_penalty="plus_10"), ([60, 14, 30], 0),
        [0, 74, 90], id="moon_shooter_with_ender_penalty"),
]


@pytest.mark.parametrize("kind,options,case,expected", REGRESSIONS)
def test_scoring_regressions(kind, options, case, expected):
    rules = Rules.preset("six_card", **options)
    if kind == "layout":
        cards = C.parse_layout(case, rules.grid_rows, rules.grid_cols)
        assert engine_layout_score(rules, cards)[0] == R.score_layout(rules, cards).value \
            == expected
    else:
        L, ender = case
        assert engine_hole_scores(rules, L, ender, False, [0] * len(L)) == \
            R.hole_scores(rules, L, ender) == expected


# ---- knock_min_laps, reveal_on_trigger, owner_view, hands, first-turn reveals -------------------
WHITNACK_ANY2 = dict(initial_reveal_constraint="any")   # Whitnack variant: any two cards
# (id, preset, options, players, strategies, rounds)
NEW_RULE_CASES = [
    # knock_min_laps: no knock before 2 laps (2 * players turns)
    ("min_laps2-4p-random", "four_card", dict(knock_min_laps=2), 4, ["random"], 240),
    ("min_laps2-3p-random", "four_card", dict(knock_min_laps=2), 3, ["random"], 160),
    ("min_laps2-4p-kt8", "four_card", dict(knock_min_laps=2), 4, [KT8], 240),
    ("min_laps2-2p-kt12", "four_card", dict(knock_min_laps=2), 2, [KT12], 160),
    ("min_laps1-six_card-knock-kt8", "six_card",
     dict(knock_min_laps=1, end_triggers=("knock", "all_face_up")), 4,
     [KT8, "random", KT8, "random"], 200),
    # reveal_on_trigger (AMB-21): going out, knocking and flipping all
    ("reveal_trigger-six_card-4p-random", "six_card", dict(reveal_on_trigger=True), 4,
     ["random"], 200),
    ("reveal_trigger-six_card-3p-greedy", "six_card", dict(reveal_on_trigger=True), 3,
     ["greedy"], 200),
    ("reveal_trigger-six_card-flips-random", "six_card",
     dict(reveal_on_trigger=True, flip_all_to_end=True, flip_after_stock_discard="mandatory"),
     4, ["random"], 160),
    ("reveal_trigger-four_card-4p-random", "four_card", dict(reveal_on_trigger=True), 4,
     ["random"], 200),
    ("reveal_trigger-four_card-4p-greedy", "four_card", dict(reveal_on_trigger=True), 4,
     ["greedy", KT8, KT8, KT12], 120),
    ("reveal_trigger-four_card-4p-kt8", "four_card", dict(reveal_on_trigger=True), 4, [KT8],
     200),
    ("reveal_trigger-four_card-complete_lap-kt12", "four_card",
     dict(reveal_on_trigger=True, final_turns="complete_lap"), 3, [KT12], 120),
    # owner_view: all = every own card known from the deal; initially_peeked = none
    ("owner_all-four_card-4p-kt8", "four_card", dict(owner_view="all"), 4, [KT8], 240),
    ("owner_all-four_card-3p-kt12", "four_card", dict(owner_view="all"), 3, [KT12], 160),
    ("owner_all-four_card-4p-random", "four_card", dict(owner_view="all"), 4, ["random"], 200),
    ("owner_peeked-four_card-4p-kt8", "four_card", dict(owner_view="initially_peeked"), 4,
     [KT8], 120),
    # four_card_in_hand
    ("in_hand-2p-random", "four_card_in_hand", {}, 2, ["random"], 160),
    ("in_hand-4p-random", "four_card_in_hand", {}, 4, ["random"], 200),
    ("in_hand-4p-kt8", "four_card_in_hand", {}, 4, [KT8], 240),
    ("in_hand-5p-kt12", "four_card_in_hand", {}, 5, [KT12], 160),
    ("in_hand-8p-kt8", "four_card_in_hand", {}, 8, [KT8], 60),          # two decks from 8
    ("in_hand-3p-mixed", "four_card_in_hand", {}, 3, [KT8, "random", KT12], 120),
    ("in_hand-none-reveal-min_laps-kt8", "four_card_in_hand",
     dict(pair_scope="none", reveal_on_trigger=True, knock_min_laps=1), 4, [KT8], 120),
    # flip_on_first_turn with constraint any (six_card, count 2)
    ("first_turn_any-six_card-4p-random", "six_card",
     dict(initial_reveal_mode="flip_on_first_turn"), 4, ["random"], 240),
    ("first_turn_any-six_card-3p-greedy", "six_card",
     dict(initial_reveal_mode="flip_on_first_turn"), 3, ["greedy"], 200),
    ("first_turn_any-six_card-5p-greedy", "six_card",
     dict(initial_reveal_mode="flip_on_first_turn"), 5, ["greedy"], 120),
    # eight_card_whitnack: flip_on_first_turn with whole_column
    ("whitnack-2p-random", "eight_card_whitnack", {}, 2, ["random"], 160),
    ("whitnack-3p-random", "eight_card_whitnack", {}, 3, ["random"], 160),
    ("whitnack-4p-random", "eight_card_whitnack", {}, 4, ["random"], 160),
    ("whitnack-2p-greedy", "eight_card_whitnack", {}, 2, ["greedy"], 120),
    ("whitnack-3p-greedy", "eight_card_whitnack", {}, 3, ["greedy"], 120),
    ("whitnack-4p-greedy", "eight_card_whitnack", {}, 4, ["greedy"], 160),
    ("whitnack-4p-mixed", "eight_card_whitnack", {}, 4, ["greedy", "random", "greedy", "random"],
     120),
    ("whitnack-any2-3p-greedy", "eight_card_whitnack", WHITNACK_ANY2, 3, ["greedy"], 80),
    ("whitnack-reveal_trigger-3p-random", "eight_card_whitnack", dict(reveal_on_trigger=True),
     3, ["random"], 120),
    ("whitnack-flip_all-4p-random", "eight_card_whitnack",
     dict(flip_all_to_end=True, reveal_on_trigger=True), 4, ["random"], 120),
]


@pytest.mark.parametrize("preset,options,players,strategies,rounds,seed",
                         sweep([pytest.param(*c[1:], 7000 + 10 * i, id=c[0])
                                for i, c in enumerate(NEW_RULE_CASES)],
                               keep={"min_laps2-3p-random", "reveal_trigger-four_card-4p-random",
                                     "owner_all-four_card-3p-kt12", "in_hand-8p-kt8",
                                     "first_turn_any-six_card-4p-random",
                                     "whitnack-flip_all-4p-random"}))
def test_new_rule_parity(preset, options, players, strategies, rounds, seed):
    assert_parity(Rules.preset(preset, **options), players, strategies, seed, rounds)


def _reference_holes(rules: Rules, players: int, strategies: list[str], seed: int, rounds: int):
    for i in range(rounds):
        hole = R.Hole(rules, players, [policy_maker(s) for s in strategies], seed, i)
        yield hole, hole.play()


def _rows(record: R.RoundRecord, point: int) -> list[tuple]:
    return [row for row in record.log if row[2] == point]


def test_new_rules_are_exercised():
    """The parity rounds above are not vacuous: each option changes play where the rules say it
    should (read from the reference engine's logs and final state)."""
    # knock_min_laps = 2: knock-threshold seats would knock earlier; now never before turn 8
    knock_turns = []
    for _, rec in _reference_holes(Rules.preset("four_card", knock_min_laps=2), 4, [KT8], 7, 60):
        knock_turns += [row[0] for row in _rows(rec, K.DP_TURN) if row[3] == K.A_KNOCK]
    assert len(knock_turns) >= 40 and min(knock_turns) == 8
    early = [row[0] for i in range(60) for row in
             _rows(referee.play_round(Rules.preset("four_card"), 4, [KT8], 7, i), K.DP_TURN)
             if row[3] == K.A_KNOCK and row[0] < 8]
    assert len(early) >= 10

    # reveal_on_trigger: in six_card every card is face up once a hole has ended (the ender went
    # out, the others showed theirs at the trigger); without it some seats keep face-down cards
    def face_down_at_end(rules):
        counts = []
        for hole, rec in _reference_holes(rules, 4, ["random"], 8, 40):
            if rec.ender >= 0:
                counts.append(sum(not cell.face_up for row in hole.state.layouts for cell in row))
        return counts
    assert set(face_down_at_end(Rules.preset("six_card", reveal_on_trigger=True))) == {0}
    assert sum(face_down_at_end(Rules.preset("six_card"))) > 20
    # ... and after a knock the other seats have nothing to flip after discarding a stock card
    rules = Rules.preset("six_card", end_triggers=("knock", "all_face_up"),
                         flip_after_stock_discard="mandatory", reveal_on_trigger=True)
    for _, rec in _reference_holes(rules, 3, ["random"], 9, 40):
        if rec.knocked:
            knock_turn = next(row[0] for row in _rows(rec, K.DP_TURN) if row[3] == K.A_KNOCK)
            assert not [row for row in _rows(rec, K.DP_FLIP) if row[0] > knock_turn]

    # owner_view = all: no peeking (every card is known), and knock-threshold plays differently
    differ = 0
    for i, (_, rec) in enumerate(_reference_holes(Rules.preset("four_card", owner_view="all"), 4,
                                                   [KT8], 10, 40)):
        assert not _rows(rec, K.DP_REVEAL)
        differ += rec.log != referee.play_round(Rules.preset("four_card"), 4, [KT8], 10, i).log
    assert differ >= 30
    # ... initially_peeked is the same game as none (perfect memory)
    for i in range(20):
        peeked = Rules.preset("four_card", owner_view="initially_peeked")
        assert referee.play_round(peeked, 4, [KT8], 11, i).log == \
            referee.play_round(Rules.preset("four_card"), 4, [KT8], 11, i).log

    # flip_on_first_turn: each seat's reveals open its first turn (turn number = seat), right
    # before that turn's decision; whole_column turns up one whole column in one decision
    for preset, opts, per_seat in (("six_card", dict(initial_reveal_mode="flip_on_first_turn"), 2),
                                   ("eight_card_whitnack", {}, 1)):
        rules = Rules.preset(preset, **opts)
        for hole, rec in _reference_holes(rules, 3, ["random"], 12, 20):
            reveals = _rows(rec, K.DP_REVEAL)
            assert [(row[0], row[1]) for row in reveals] == \
                [(s, s) for s in range(3) for _ in range(per_seat)]
            for row in reveals:
                after = rec.log[rec.log.index(row) + 1:]
                assert after[0][2] in (K.DP_REVEAL, K.DP_TURN) and after[0][1] == row[1]
            if per_seat == 1:
                assert all(row[3] < rules.grid_cols for row in reveals)


# ---- combinations the rules leave without meaning are refused ------------------------------------
def test_hand_has_no_blocks():
    """A hand has no positions (docs/rules.md#layout_mode), so a 2x2 block cannot be scored in
    one."""
    with pytest.raises(RuleError, match="layout_mode = hand has no 2x2 squares"):
        Rules.preset("four_card_in_hand", pair_scope="none", block_2x2_value=-20)


@pytest.mark.parametrize("preset", ["eight_card_whitnack", "six_card"])
def test_owner_view_all_refuses_flip_reveals(preset):
    """Seeing every own card makes a flip reveal meaningless for the owner; refused rather than
    played two different ways."""
    with pytest.raises(RuleError, match="owner_view = all"):
        Rules.preset(preset, owner_view="all")


# ---- pay_to_peek and jack_discard_skips_next (AMB-16, AMB-19, TV-D18) ----------------------------
JACK20 = dict(jack_discard_skips_next=True, value_jack=20)
# (id, preset, options, players, strategies, rounds)
PEEK_JACK_CASES = [
    # pay_to_peek: random seats peek often (A_PEEK sorts last among the turn actions); greedy
    # and knock-threshold never choose it, but must still see the same legal turn actions
    ("peek1-four_card-3p-random", "four_card", dict(pay_to_peek=1), 3, ["random"], 150),
    ("peek2-four_card-4p-random", "four_card", dict(pay_to_peek=2), 4, ["random"], 120),
    ("peek1-four_card-4p-kt8", "four_card", dict(pay_to_peek=1), 4, [KT8], 150),
    ("peek2-four_card-2p-kt12-random", "four_card", dict(pay_to_peek=2), 2, [KT12, "random"],
     120),
    ("peek1-four_card-4p-mixed", "four_card", dict(pay_to_peek=1), 4,
     ["random", KT8, "greedy", "random"], 100),
    ("peek1-six_card-4p-random", "six_card", dict(pay_to_peek=1), 4, ["random"], 120),
    ("peek2-six_card-3p-random", "six_card", dict(pay_to_peek=2), 3, ["random"], 100),
    ("peek1-six_card-4p-greedy", "six_card", dict(pay_to_peek=1), 4, ["greedy"], 80),
    ("peek2-six_card-5p-mixed", "six_card", dict(pay_to_peek=2), 5,
     ["greedy", "random", "greedy", "random", "greedy"], 60),
    ("peek1-six_card-knock-kt8-random", "six_card",
     dict(pay_to_peek=1, end_triggers=("knock", "all_face_up")), 3, [KT8, "random", "random"],
     80),
    ("peek1-six_card-first_turn-random", "six_card",
     dict(pay_to_peek=1, initial_reveal_mode="flip_on_first_turn"), 3, ["random"], 60),
    # jack_discard_skips_next with jacks worth 20 (the usual pairing, docs/rules.md#value_jack)
    ("jack-six_card-2p-random", "six_card", JACK20, 2, ["random"], 120),
    ("jack-six_card-3p-random", "six_card", JACK20, 3, ["random"], 120),
    ("jack-six_card-4p-greedy", "six_card", JACK20, 4, ["greedy"], 100),
    ("jack-six_card-5p-random", "six_card", JACK20, 5, ["random"], 80),
    ("jack-six_card-3p-mixed", "six_card", JACK20, 3, ["greedy", "random", "greedy"], 80),
    ("jack-six_card-complete_lap-random", "six_card", dict(JACK20, final_turns="complete_lap"),
     4, ["random"], 80),
    ("jack-four_card-2p-random", "four_card", JACK20, 2, ["random"], 150),
    ("jack-four_card-3p-kt8", "four_card", JACK20, 3, [KT8], 150),
    ("jack-four_card-4p-random", "four_card", JACK20, 4, ["random"], 150),
    ("jack-four_card-5p-kt12", "four_card", JACK20, 5, [KT12], 100),
    ("jack-four_card-4p-greedy-kt8", "four_card", JACK20, 4, ["greedy", KT8, "random", KT8],
     100),
    # both at once
    ("jack-peek-four_card-3p-random", "four_card", dict(JACK20, pay_to_peek=1), 3, ["random"],
     120),
    ("jack-peek-six_card-4p-mixed", "six_card", dict(JACK20, pay_to_peek=2), 4,
     ["random", "greedy", "random", KT8], 80),
    # a seat whose first turn is skipped opens its next played turn with its column flip
    ("jack-whitnack-3p-random", "eight_card_whitnack", JACK20, 3, ["random"], 80),
    ("jack-peek-whitnack-2p-greedy-random", "eight_card_whitnack", dict(JACK20, pay_to_peek=1),
     2, ["greedy", "random"], 60),
]


@pytest.mark.parametrize("preset,options,players,strategies,rounds,seed",
                         sweep([pytest.param(*c[1:], 9000 + 10 * i, id=c[0])
                                for i, c in enumerate(PEEK_JACK_CASES)],
                               keep={"peek1-six_card-4p-random", "peek2-four_card-4p-random",
                                     "jack-six_card-3p-random", "jack-four_card-4p-greedy-kt8"}))
def test_peek_and_jack_parity(preset, options, players, strategies, rounds, seed):
    assert_parity(Rules.preset(preset, **options), players, strategies, seed, rounds)


def _jack_discards(hole: R.Hole) -> list[int]:
    """A list that, once ``hole`` is played, holds the turn numbers at which the acting seat
    put a jack on the discard pile (recorded at the one place the reference does that; the
    initial turn-up is dealt, not discarded)."""
    turns = []
    state = hole.state
    original = state.put_on_discard

    def recording(seat, card):
        if C.rank_of(card) == C.RANK_JACK:
            turns.append(state.turn)
        original(seat, card)

    state.put_on_discard = recording
    return turns


def test_tv_d18_jack_discard_skips_the_next_seat():
    """TV-D18: seats A -> B -> C; A discards a jack -> B's next turn is skipped; C plays next.
    Seed 19 round 3 (six_card, 3 players, random): at turn 2 seat 2 (A) draws J♥ and discards
    it; turn 3, seat 0's (B), has no decision at all; turn 4 is seat 1's (C). The kernel plays
    the same hole move for move."""
    rules = Rules.preset("six_card", **JACK20)
    ref = referee.play_round(rules, 3, ["random"], 19, 3)
    jack_hearts = C.card_id(C.RANK_JACK, C.HEARTS)
    assert (2, 2, K.DP_PLACE_DRAWN, K.A_DISCARD, jack_hearts) in ref.log
    assert not [row for row in ref.log if row[0] == 3]
    turn_rows = [row for row in ref.log if row[2] == K.DP_TURN]
    assert [(row[0], row[1]) for row in turn_rows[:4]] == [(0, 0), (1, 1), (2, 2), (4, 1)]
    assert not differences(engine_round(rules, 3, ["random"], 19, 3), ref)
    # without the rule seat 0 plays turn 3
    plain = referee.play_round(Rules.preset("six_card", value_jack=20), 3, ["random"], 19, 3)
    assert [(row[0], row[1]) for row in plain.log if row[2] == K.DP_TURN][3] == (3, 0)


@pytest.mark.parametrize("preset,players,strategy",
                         [("six_card", 3, "random"), ("six_card", 4, "greedy"),
                          ("four_card", 3, KT8), ("four_card", 5, "random")])
def test_jack_skips_follow_the_discards(preset, players, strategy):
    """AMB-19 on whole holes: turn t passes without any decision exactly when a jack went onto
    the discard pile during turn t - 1 (drawn and discarded, or replaced out of a layout; never
    the initial turn-up), turns keep rotating seat by seat, and a skipped turn in the final lap
    uses up that seat's final turn (the hole still ends after the same number of turns)."""
    rules = Rules.preset(preset, **JACK20)
    skips = final_lap_skips = replaced_jacks = 0
    for i in range(80):
        hole = R.Hole(rules, players, [policy_maker(strategy)], 23, i)
        jack_turns = _jack_discards(hole)
        rec = hole.play()
        played = {row[0] for row in rec.log if row[2] == K.DP_TURN}
        skipped = set(range(rec.turns)) - played
        assert skipped == {t + 1 for t in jack_turns if t + 1 < rec.turns}, i
        assert all(row[1] == row[0] % players for row in rec.log if row[2] == K.DP_TURN)
        replaced_jacks += sum(1 for t in jack_turns
                              if not any(row[0] == t and row[3] == K.A_DISCARD and
                                         C.rank_of(row[4]) == C.RANK_JACK for row in rec.log))
        skips += len(skipped)
        if rec.ender >= 0 and not rec.capped:
            trigger = max(row[0] for row in rec.log if row[1] == rec.ender and
                          row[2] == K.DP_TURN)
            final_turns = {"each_other_player_once": players - 1, "none": 0,
                           "complete_lap": players - 1 - rec.ender}[rules.final_turns]
            assert rec.turns == trigger + 1 + final_turns, i
            final_lap_skips += len([t for t in skipped if t > trigger])
    assert skips >= 20 and final_lap_skips >= 1 and replaced_jacks >= 1


def test_tv_d18_pay_to_peek():
    """TV-D18: pay_to_peek = 1, layout 10, three peeks -> hole score 13: through the
    reference's hole scoring, and in a played hole (six_card seed 18 round 14, 3 players,
    random: seat 0 peeks three times and ends with L = 10, not the ender)."""
    rules = Rules.preset("four_card", pay_to_peek=1)
    assert R.hole_scores(rules, [10, 12], -1, extra=[3, 0]) == [13, 12]
    rules = Rules.preset("six_card", pay_to_peek=1)
    ref = referee.play_round(rules, 3, ["random"], 18, 14)
    peeks = [row for row in ref.log if row[2] == K.DP_PEEK]
    assert [row[1] for row in peeks].count(0) == 3
    assert ref.layout_values[0] == 10 and ref.ender != 0 and ref.scores[0] == 13
    for seat in range(3):
        assert ref.scores[seat] - ref.layout_values[seat] == \
            [row[1] for row in peeks].count(seat)
    assert not differences(engine_round(rules, 3, ["random"], 18, 14), ref)


def test_peeks_follow_amb16():
    """AMB-16 read from reference logs: a peek is asked right after choosing A_PEEK at the turn
    decision, only positions the seat does not know are offered (so none twice), the turn
    decision is asked again afterwards in the same turn, and each look costs pay_to_peek on the
    hole score only (L and so the ender comparisons are untouched). Greedy and
    knock-threshold seats never peek."""
    for preset, strategies in (("four_card", ["random", KT8, "random"]),
                               ("six_card", ["random", "greedy", "random"])):
        rules = Rules.preset(preset, pay_to_peek=2)
        total = 0
        for i in range(60):
            rec = referee.play_round(rules, 3, strategies, 29, i)
            log = rec.log
            for j, row in enumerate(log):
                if row[2] == K.DP_TURN and row[3] == K.A_PEEK:
                    assert log[j + 1][:3] == (row[0], row[1], K.DP_PEEK)
                    assert log[j + 2][:3] == (row[0], row[1], K.DP_TURN)
            peeks = [row for row in log if row[2] == K.DP_PEEK]
            total += len(peeks)
            for seat in range(3):
                mine = [row[3] for row in peeks if row[1] == seat]
                assert len(set(mine)) == len(mine)
                assert not mine or strategies[seat] == "random"
            without = R.hole_scores(rules, rec.layout_values, rec.ender, rec.knocked)
            assert [s - w for s, w in zip(rec.scores, without)] == \
                [2 * [row[1] for row in peeks].count(seat) for seat in range(3)]
        assert total >= 40
