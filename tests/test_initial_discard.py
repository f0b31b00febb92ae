"""initial_discard = none (docs/rules.md#initial_discard, Cactus): the discard pile starts empty, so
the first player must draw from the stock and its discard starts the pile. Both engines play it
alike, and so does the lean kernel."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.game import codes as K
from strategies.reference import referee
from simulator.kernel.flow import rules_eligible
from simulator.game.rules import Rules, flatten
from simulator.experiments.runner import run
from strategies import resolve_seats, seat_arrays
from test_reference_parity import assert_parity

EMPTY = Rules.preset("six_card", initial_discard="none")


@pytest.mark.parametrize("seats", [["random"], ["greedy"], ["knock-threshold:T=8", "random"]])
def test_reference_parity(seats):
    rules = EMPTY.with_options(end_triggers=("knock", "all_face_up"))
    assert_parity(rules, 3, (seats * 3)[:3], 23, 100)


def test_the_first_player_must_draw():
    for i in range(20):
        rec = referee.play_round(EMPTY, 4, ["random"], 4, i)
        first = next(row for row in rec.log if row[2] == K.DP_TURN)
        assert first[3] == K.A_DRAW_STOCK
    # one card fewer on the discard pile means one more in the stock, so the layouts and
    # every later card are the same as with a turned-up card, and the rounds differ
    a = referee.play_round(EMPTY, 4, ["greedy"], 4, 0)
    b = referee.play_round(Rules.preset("six_card"), 4, ["greedy"], 4, 0)
    assert a.log != b.log


def test_lean_kernel_plays_it_identically():
    assert rules_eligible(flatten(EMPTY, 4).ri)
    ids, params = seat_arrays(resolve_seats(["greedy"], 4))
    a = run(EMPTY, 4, ids, params, 2000, seed=3)
    b = run(EMPTY, 4, ids, params, 2000, seed=3, kernel="general")
    assert np.array_equal(a.totals.acc, b.totals.acc)
    assert np.array_equal(a.totals.tot, b.totals.tot)
