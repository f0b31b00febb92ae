"""The ``heuristic`` strategy does what each of its parameters says: decision by decision on
hand-made states, and in frequencies measured over seeded rounds."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.experiments.runner import play_logged_round
from simulator.game.rules import Rules, flatten
from simulator.experiments.runner import run
from strategies import resolve_seats, seat_arrays
from policy_states import Table, card

SIX = Rules.preset("six_card")
W2 = Rules.preset("four_card", pair_scope="none", initial_reveal_constraint="nearest_row")
HIDDEN_6 = "? ? ? / ? ? ?"


def six(seat0: str, spec: str, discard=("5D",), **kw) -> Table:
    return Table(SIX, [seat0] + [HIDDEN_6] * 3, [spec] + ["greedy"] * 3, discard=discard, **kw)


# ---- take_max -------------------------------------------------------------------------------
@pytest.mark.parametrize("take_max, expected", [(4, K.A_TAKE_DISCARD), (3, K.A_DRAW_STOCK)])
def test_take_max_is_the_highest_value_taken(take_max, expected):
    # a 4 on the discard pile, over an unknown card (worth about 5) it is a gain
    t = six("KS ? ? / KH ? ?", f"heuristic:take_max={take_max}", discard=("4D",))
    assert t.turn() == expected


def test_a_discard_that_pairs_is_taken_whatever_take_max():
    # the queen pairs the face-up queen at position 0 from position 3
    t = six("QS ? ? / ? ? ?", "heuristic:take_max=-20", discard=("QD",))
    assert t.turn() == K.A_TAKE_DISCARD
    assert t.place_taken() == 3


def _take_share(take_max: float, rounds: int = 150) -> float:
    arrays = flatten(SIX, 4)
    ids, params = seat_arrays(resolve_seats([f"heuristic:take_max={take_max}"], 4))
    takes = turns = 0
    for r in range(rounds):
        log = play_logged_round(arrays, ids, params, 5, r)["log"]
        at_turn = log[log[:, 2] == K.DP_TURN]
        takes += int((at_turn[:, 3] == K.A_TAKE_DISCARD).sum())
        turns += len(at_turn)
    return takes / turns


def test_take_max_sets_how_often_the_discard_is_taken():
    shares = [_take_share(m) for m in (-20, 0, 3, 10)]
    # with take_max = -20 only pairing cards are taken; every step up takes more
    assert all(b > a + 0.03 for a, b in zip(shares, shares[1:])), shares


# ---- replace_min ----------------------------------------------------------------------------
@pytest.mark.parametrize("replace_min, expected", [(1, 3), (1.5, K.A_DISCARD)])
def test_replace_min_is_the_gain_needed_over_a_known_card(replace_min, expected):
    # everything face up: a drawn 7 over the 8 gains exactly 1, anywhere else it loses
    t = six("6S KS QS / 8H KH QH", f"heuristic:replace_min={replace_min},hold=0")
    assert t.place_drawn("7C") == expected


# ---- hold -----------------------------------------------------------------------------------
@pytest.mark.parametrize("hold, age, expected", [(0, 0, 0), (3, 0, 3), (3, 2, 3), (3, 3, 0)])
def test_hold_keeps_a_card_waiting_for_its_pair(hold, age, expected):
    # the 9 at position 0 waits for a 9 at position 3. A drawn 3 gains most over the 9 (6
    # points); while the 9 is held (it has waited fewer than `hold` own turns) the 3 goes
    # over an unknown card instead (it gains S/n - 3 > 0 there; 3 and 4 tie, the lower wins)
    t = six("9S KS 4C / ? ? 4D", f"heuristic:hold={hold}")
    t.memory(0)[2] = age  # the age of position 0 (4-bit field 0 of the first age slot)
    assert t.place_drawn("3C") == expected


def test_ages_grow_by_one_per_own_turn_and_reset_on_placement():
    t = six("9S KS 4C / ? ? 4D", "heuristic:hold=3")
    t.turn()
    t.turn()  # asked twice in one turn (as with pay_to_peek): still one turn
    assert t.memory(0)[2] & 0xF == 1
    t.g[K.G_PUB + K.PUB_TURN] += 4
    t.turn()
    t.g[K.G_PUB + K.PUB_TURN] += 4
    t.turn()
    assert t.memory(0)[2] & 0xF == 3
    assert t.place_drawn("3C") == 0  # no longer held: replaced, and its age starts again
    assert t.memory(0)[2] & 0xF == 0


# ---- knock_at -------------------------------------------------------------------------------
@pytest.mark.parametrize("knock_at, expected", [(6, K.A_KNOCK), (5.9, K.A_DRAW_STOCK)])
def test_knock_at_is_the_estimate_to_knock_at(knock_at, expected):
    # W2: everything known, A + 2 + K + 3 = 6; the 9 on the discard pile helps nowhere
    t = Table(W2, ["?AS ?2H / ?KC ?3H"] + ["? ? / ? ?"] * 3,
              [f"heuristic:knock_at={knock_at}"] + ["knock-threshold"] * 3, discard=("9C",))
    assert t.turn(knock=True) == expected


@pytest.mark.parametrize("knock_at, expected", [(1, 5), (0.5, 2)])
def test_knock_at_decides_whether_to_turn_up_the_last_card(knock_at, expected):
    # one face-down card left (position 5); a drawn 2 (-2) over it ends the round with an
    # estimate of 3 - 2 = 1, over the 3 it gains 5 without ending it
    t = six("KS 5S 3C / KH 5H ?", f"heuristic:knock_at={knock_at},hold=0")
    assert t.place_drawn("2C") == expected


def test_after_the_end_is_triggered_it_just_minimises():
    t = six("KS 5S 3C / KH 5H ?", "heuristic:knock_at=-50,hold=0", ender=1)
    assert t.place_drawn("2C") == 5


def _seat0(rules, specs, rounds=3000, seed=3):
    ids, params = seat_arrays(resolve_seats(specs, 4))
    return run(rules, 4, ids, params, rounds=rounds, seed=seed).totals


def _ends_by_seat0(rules, specs, rounds=1500, seed=3):
    """(rounds seat 0 ended, of those how many before any reshuffle)"""
    arrays = flatten(rules, 4)
    ids, params = seat_arrays(resolve_seats(specs, 4))
    ended = early = 0
    for r in range(rounds):
        res = play_logged_round(arrays, ids, params, seed, r)
        assert not res["capped"]
        if res["ender"] == 0:
            ended += 1
            early += res["reshuffles"] == 0
    return ended, early


def test_knock_at_sets_how_often_it_knocks():
    others = ["knock-threshold"] * 3
    shares = [_seat0(W2, [f"heuristic:knock_at={k}"] + others).ender_share()[0]
              for k in (6, 10, 14)]
    assert all(b > a + 0.05 for a, b in zip(shares, shares[1:])), shares
    # with an unreachable knock_at it knocks only once the stock has been reshuffled
    ended, early = _ends_by_seat0(W2, ["heuristic:knock_at=-50"] + others)
    assert early == 0 and ended < 15


def test_knock_at_sets_how_often_it_goes_out():
    ended, early = _ends_by_seat0(SIX, ["heuristic:knock_at=-50"] + ["greedy"] * 3)
    assert early == 0 and ended < 40
    ended, early = _ends_by_seat0(SIX, ["heuristic:knock_at=50"] + ["greedy"] * 3)
    assert early > 0.25 * 1500


# ---- aggression -----------------------------------------------------------------------------
def test_aggression_shortens_the_round():
    calm = _seat0(SIX, ["heuristic:aggression=0"])
    bold = _seat0(SIX, ["heuristic:aggression=1"])
    se = np.hypot(calm.se_turns(), bold.se_turns())
    assert calm.mean_turns() - bold.mean_turns() > 5 * se


# ---- everything else ------------------------------------------------------------------------
def test_initial_flips_go_to_different_columns():
    arrays = flatten(SIX, 4)
    ids, params = seat_arrays(resolve_seats(["heuristic"], 4))
    for r in range(20):
        log = play_logged_round(arrays, ids, params, 9, r)["log"]
        for seat in range(4):
            picks = log[(log[:, 2] == K.DP_REVEAL) & (log[:, 1] == seat), 3]
            assert len(picks) == 2 and picks[0] % 3 != picks[1] % 3


def test_the_defaults_beat_greedy_at_six_card():
    mixed = _seat0(SIX, ["heuristic"] + ["greedy"] * 3, rounds=4000)
    base = _seat0(SIX, ["greedy"], rounds=4000)
    diff = base.mean_score()[0] - mixed.mean_score()[0]
    assert diff > 4 * np.hypot(base.se_score()[0], mixed.se_score()[0])
