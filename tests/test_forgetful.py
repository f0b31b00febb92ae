"""The ``forgetful`` strategy: knock-threshold whose memory of its own face-down cards decays.
At decay 0 it is its perfect-memory twin exactly; with decay it forgets (a forgotten card is
unknown to it again) and scores measurably worse on the same deals."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.game.rules import Rules
from simulator.experiments.runner import run
from strategies import resolve_seats, seat_arrays
from strategies.common import MEM_FORGOTTEN
from policy_states import Table

W2 = Rules.preset("four_card", pair_scope="none", initial_reveal_constraint="nearest_row")
FOUR = Rules.preset("four_card")
HIDDEN_4 = "? ? / ? ?"


def _run(rules, specs, rounds, seed=17, per_round=False):
    ids, params = seat_arrays(resolve_seats(specs, 4))
    return run(rules, 4, ids, params, rounds=rounds, seed=seed, per_round=per_round,
               kernel="general")


@pytest.mark.parametrize("rules", [W2, FOUR], ids=["W2", "four_card"])
@pytest.mark.parametrize("T", [8, 12])
def test_zero_decay_is_knock_threshold_exactly(rules, T):
    a = _run(rules, [f"forgetful:T={T},decay=0"], 3000).totals
    b = _run(rules, [f"knock-threshold:T={T}"], 3000).totals
    assert np.array_equal(a.acc, b.acc)
    assert np.array_equal(a.tot, b.tot)
    assert np.array_equal(a.hist, b.hist)


def test_zero_decay_twin_in_one_seat_among_others():
    others = ["greedy", "knock-threshold:T=10", "heuristic"]
    a = _run(W2, ["forgetful:decay=0"] + others, 2000).totals
    b = _run(W2, ["knock-threshold"] + others, 2000).totals
    assert np.array_equal(a.acc, b.acc) and np.array_equal(a.tot, b.tot)


def test_forgetting_costs_points_on_the_same_deals():
    """Seat 0 forgets, the others play knock-threshold; the same seeds give the same deals, so
    the per-round difference against a perfect-memory seat 0 is a paired comparison."""
    others = ["knock-threshold"] * 3
    base = _run(W2, ["forgetful:decay=0"] + others, 6000, per_round=True).per_round.scores[:, 0]
    means = []
    for decay in (0.1, 0.5):
        s = _run(W2, [f"forgetful:decay={decay}"] + others, 6000,
                 per_round=True).per_round.scores[:, 0]
        d = s - base
        se = d.std(ddof=1) / np.sqrt(d.size)
        assert d.mean() > 4 * se, (decay, d.mean(), se)
        means.append(d.mean())
    assert means[1] > means[0]


def _w2_known(spec):
    # seat 0 knows all four of its face-down cards: A + 2 + K + 3 = 6
    return Table(W2, ["?AS ?2H / ?KC ?3H"] + [HIDDEN_4] * 3,
                 [spec] + ["knock-threshold"] * 3, discard=("9C",))


def test_a_forgotten_card_is_unknown_again():
    t = _w2_known("forgetful:decay=0")
    assert t.turn(knock=True) == K.A_KNOCK  # E = 6 <= 8
    t = _w2_known("forgetful:decay=0")
    t.memory(0)[MEM_FORGOTTEN] = 0b0011  # it forgot the ace and the two: E = 3 + 2 S/n > 8
    assert t.turn(knock=True) == K.A_DRAW_STOCK


def test_decay_one_forgets_everything_at_the_start_of_its_turn():
    t = _w2_known("forgetful:decay=1")
    assert t.turn(knock=True) == K.A_DRAW_STOCK
    assert t.memory(0)[MEM_FORGOTTEN] == 0b1111
    # it puts a drawn king at a forgotten position (worth S/n to it) and knows that card again
    p = t.place_drawn("KS")
    assert 0 <= p < 4 and t.memory(0)[MEM_FORGOTTEN] == 0b1111 & ~(1 << p)


def test_forgetting_is_drawn_once_per_turn():
    t = _w2_known("forgetful:decay=0.5")
    t.turn(knock=True)
    first = int(t.memory(0)[MEM_FORGOTTEN])
    state = t.rng.copy()
    t.turn(knock=True)  # the same turn asked again (as after a paid peek): no new draws
    assert int(t.memory(0)[MEM_FORGOTTEN]) == first and np.array_equal(t.rng, state)
