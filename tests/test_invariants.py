"""Invariants of rounds played by the compiled kernel, checked without trusting the kernel:

* the final layouts, recounted with the reference scoring, give the kernel's layout values and
  (with the reference hole scoring) its hole scores;
* cards are conserved: the kernel's own check after every turn (``check=True``) reports no
  error, and the final layouts hold distinct cards of the deck;
* every round terminates within the turn cap, the capped flag agrees with the turn count and
  the ender, turns rotate seat by seat from seat 0, and the final turns after the ender's
  trigger are the ones the rules give.
"""

from __future__ import annotations

import pytest

from simulator.game import codes as K
from simulator.game import reference as R
from strategies.reference import referee
from simulator.experiments.runner import play_logged_round
from simulator.game.rules import Rules, flatten
from strategies import resolve_seats, seat_arrays
from tiers import sweep


def engine_round(rules: Rules, players: int, strategies: list[str], seed: int,
                 round_index: int) -> dict:
    arrays = flatten(rules, players)
    ids, params = seat_arrays(resolve_seats(strategies, players))
    return play_logged_round(arrays, ids, params, seed, round_index, check=True)


# (id, preset, options, players)
CASES = [
    ("six_card-2p", "six_card", {}, 2),
    ("six_card-4p", "six_card", {}, 4),
    ("six_card-6p", "six_card", {}, 6),
    ("eight_card_basic", "eight_card_basic", {}, 4),
    ("ten_card", "ten_card", {}, 5),
    ("anywhere", "six_card", dict(pair_scope="anywhere"), 4),
    ("complete_lap", "six_card", dict(final_turns="complete_lap"), 4),
    ("final_none", "six_card", dict(final_turns="none"), 3),
    ("flips", "six_card", dict(flip_instead_of_draw=True, flip_all_to_end=True,
                               flip_after_stock_discard="mandatory_unless_one_face_down"), 4),
    ("choice_face", "six_card", dict(placement_face="player_choice"), 4),
    ("peek_row", "six_card", dict(initial_reveal_mode="peek", initial_reveal_count=-1,
                                  initial_reveal_constraint="nearest_row"), 4),
    ("quads_jokers", "six_card", dict(decks=2, jokers_per_deck=2, quad_two_columns_value=-10,
                                      block_2x2_value=-20, negative_pairs_keep_value=True,
                                      quad_others_penalty=10), 4),
    ("ender_rules", "six_card", dict(ender_penalty="double_plus_5", ender_bonus="zero",
                                     lowest_scores_zero=True), 4),
    ("one_deck_reshuffles", "ten_card", dict(decks=1, players_max=4), 4),
    ("small_cap", "six_card", dict(turn_cap=25), 4),
    ("four_card", "four_card", {}, 4),
    ("four_card-8p", "four_card", {}, 8),
    ("four_card-w2", "four_card", dict(pair_scope="none", initial_reveal_constraint="nearest_row"),
     4),
    ("four_card-adjacent", "four_card", dict(pair_scope="orthogonal_adjacent"), 3),
    ("six_card-diagonal", "six_card", dict(pair_scope="row_column_diagonal"), 4),
    ("six_card-knock", "six_card", dict(end_triggers=("knock", "all_face_up"),
                                        ender_penalty="plus_10",
                                        ender_rule_applies_to="knock_only"), 4),
    ("four_card_in_hand", "four_card_in_hand", {}, 4),
    ("four_card_in_hand-8p", "four_card_in_hand", {}, 8),
    ("eight_card_whitnack-2p", "eight_card_whitnack", {}, 2),
    ("eight_card_whitnack-4p", "eight_card_whitnack", {}, 4),
    ("first_turn_any", "six_card", dict(initial_reveal_mode="flip_on_first_turn"), 4),
    ("four_card-reveal_on_trigger-min_laps", "four_card",
     dict(reveal_on_trigger=True, knock_min_laps=1), 4),
    ("four_card-owner_all", "four_card", dict(owner_view="all"), 3),
    ("whitnack-reveal_on_trigger", "eight_card_whitnack", dict(reveal_on_trigger=True), 3),
]
ROUNDS = 120


@pytest.mark.parametrize("strategy", ["random", "greedy", "knock-threshold:T=8"])
@pytest.mark.parametrize("preset,options,players",
                         sweep([c[1:] for c in CASES], ids=[c[0] for c in CASES],
                               keep={"six_card-4p", "quads_jokers", "four_card",
                                     "eight_card_whitnack-4p"}),
                         ids=[c[0] for c in CASES])
def test_round_invariants(preset, options, players, strategy):
    rules = Rules.preset(preset, **options)
    deck = set(R.CardTable(rules, players).deck)
    cap = rules.turn_cap
    for i in range(ROUNDS):
        res = engine_round(rules, players, [strategy], seed=77, round_index=i)
        where = f"round {i}"
        # conservation, checked by the kernel after every turn
        assert res["ok"] and res["error"] == 0, f"{where}: kernel error {res['error']}"
        layouts = res["layouts"].tolist()
        cards = [c for row in layouts for c in row]
        assert len(set(cards)) == len(cards) and set(cards) <= deck, where

        # the scores, recounted from the final layouts by the reference scoring
        parts = [R.score_layout(rules, row) for row in layouts]
        L = R.twenty_one_zero(rules, [p.value for p in parts])
        assert L == [int(x) for x in res["layout_values"]], where
        # the knock, read from the move log: at most one, by the ender, only with the trigger
        knock_rows = [row for row in res["log"].tolist()
                      if row[2] == K.DP_TURN and row[3] == K.A_KNOCK]
        knocked = bool(knock_rows)
        assert len(knock_rows) <= 1, where
        if knocked:
            assert "knock" in rules.end_triggers and knock_rows[0][1] == res["ender"], where
        scores = R.hole_scores(rules, L, res["ender"], knocked, [p.couples for p in parts])
        assert scores == [int(x) for x in res["scores"]], where

        # termination and the capped flag
        turns, ender, capped = res["turns"], res["ender"], res["capped"]
        assert 1 <= turns <= cap, where
        if capped:
            assert turns == cap, where
        else:
            assert ender >= 0, f"{where}: ended without an ender and without the cap"

        # turn order: the t-th turn is played by seat t mod players
        turn_rows = [row for row in res["log"].tolist() if row[2] == K.DP_TURN]
        assert [row[0] for row in turn_rows] == list(range(turns)), where
        assert all(row[1] == row[0] % players for row in turn_rows), where

        # final turns after the trigger (the ender's turn is the one that set it)
        if ender >= 0 and not capped:
            last_seat = turn_rows[-1][1]
            expected_last = {
                "each_other_player_once": (ender - 1) % players,
                "complete_lap": players - 1,
                "none": ender,
            }[rules.final_turns]
            assert last_seat == expected_last, f"{where}: ender {ender}, last seat {last_seat}"


# ---- what the move log shows of knock_min_laps, first-turn reveals, owner_view, reveal_on_trigger
# (id, preset, options, players)
LOG_CASES = [
    ("four_card-min_laps2", "four_card", dict(knock_min_laps=2), 4),
    ("four_card_in_hand-min_laps1", "four_card_in_hand", dict(knock_min_laps=1), 3),
    ("first_turn_any", "six_card", dict(initial_reveal_mode="flip_on_first_turn"), 4),
    ("eight_card_whitnack", "eight_card_whitnack", {}, 4),
    ("whitnack-reveal_on_trigger", "eight_card_whitnack", dict(reveal_on_trigger=True), 3),
    ("six_card-knock-reveal_on_trigger", "six_card",
     dict(end_triggers=("knock", "all_face_up"), flip_after_stock_discard="mandatory",
          reveal_on_trigger=True), 4),
    ("four_card-owner_all", "four_card", dict(owner_view="all"), 4),
]


@pytest.mark.parametrize("strategy", ["random", "greedy", "knock-threshold:T=8"])
@pytest.mark.parametrize("preset,options,players", [c[1:] for c in LOG_CASES],
                         ids=[c[0] for c in LOG_CASES])
def test_new_rule_log_invariants(preset, options, players, strategy):
    """Read from the kernel's move log: no knock before knock_min_laps laps; first-turn reveals
    open each seat's first turn (count flips, or one whole column named by its top card); no
    reveal decisions when owners see every card; with reveal_on_trigger nobody is asked to flip
    a face-down card once the end was triggered (they have none left)."""
    rules = Rules.preset(preset, **options)
    for i in range(80):
        res = engine_round(rules, players, [strategy], seed=78, round_index=i)
        where = f"round {i}"
        assert res["ok"] and res["error"] == 0, f"{where}: kernel error {res['error']}"
        log = res["log"].tolist()
        turn_rows = [row for row in log if row[2] == K.DP_TURN]
        knock_turns = [row[0] for row in turn_rows if row[3] == K.A_KNOCK]
        assert all(t >= rules.knock_min_laps * players for t in knock_turns), where

        reveals = [row for row in log if row[2] == K.DP_REVEAL]
        if rules.owner_view == "all" or rules.initial_reveal_mode == "none":
            assert not reveals, where
        if rules.initial_reveal_mode == "flip_on_first_turn":
            whole = rules.initial_reveal_constraint == "whole_column"
            per_seat = 1 if whole else rules.initial_reveal_count
            first_turns = [row[0] for row in turn_rows if row[0] < players]
            assert [(row[0], row[1]) for row in reveals] == \
                [(t, t) for t in first_turns for _ in range(per_seat)], where
            for row in reveals:  # followed by the same seat's next reveal or its turn decision
                nxt = log[log.index(row) + 1]
                assert nxt[1] == row[1] and nxt[2] in (K.DP_REVEAL, K.DP_TURN), where
                if whole:
                    assert 0 <= row[3] < rules.grid_cols, where

        if rules.reveal_on_trigger and res["ender"] >= 0:
            # the turn that triggered the end: a knock, or the ender's last turn before the others'
            ender = res["ender"]
            trigger = knock_turns[0] if knock_turns else \
                max(row[0] for row in turn_rows if row[1] == ender)
            assert not [row for row in log if row[2] == K.DP_FLIP and row[0] > trigger], where


@pytest.mark.parametrize("preset", ["six_card", "eight_card_basic", "ten_card"])
def test_conservation_random_play(preset):
    """A few hundred rounds of random play per preset with the kernel checking conservation
    after every turn."""
    rules = Rules.preset(preset)
    for players in (2, 3, 4):
        for i in range(120):
            res = engine_round(rules, players, ["random"], seed=91, round_index=i)
            assert res["ok"] and res["error"] == 0, (players, i, res["error"])


def test_reference_matches_kernel_turn_counts_on_capped_rounds():
    """With a tiny cap every round is capped at exactly the cap, in both engines."""
    rules = Rules.preset("six_card", turn_cap=5)
    for i in range(50):
        res = engine_round(rules, 4, ["random"], seed=5, round_index=i)
        ref = referee.play_round(rules, 4, ["random"], seed=5, round_index=i)
        assert (res["turns"], res["capped"]) == (ref.turns, ref.capped) == (5, True)
