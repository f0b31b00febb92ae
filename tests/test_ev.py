"""The ``ev`` strategy: it takes the discard only when that beats the expected gain of a draw,
ends the round only when its estimate is low and below every opponent's by its margin, and
beats the one-step players it extends on the same deals."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.game.rules import Rules
from simulator.experiments.runner import run
from strategies import resolve_seats, seat_arrays
from policy_states import Table

SIX = Rules.preset("six_card")
W2 = Rules.preset("four_card", pair_scope="none", initial_reveal_constraint="nearest_row")
FOUR = Rules.preset("four_card")
HIDDEN_6 = "? ? ? / ? ? ?"


def six(seat0, spec, discard=("5D",), seat1=HIDDEN_6):
    return Table(SIX, [seat0, seat1, HIDDEN_6, HIDDEN_6], [spec] + ["greedy"] * 3,
                 discard=discard)


# Three high cards face up over unknown ones: most stock cards gain a lot here (a low card
# over the queen, or a partner for one of the three), so a discarded 9 (1 point over the
# queen) is worth less than a draw, while a king (10 points) is worth more.
HIGH = "QS JS 10S / ? ? ?"


@pytest.mark.parametrize("spec, top, expected", [
    ("greedy", "9D", K.A_TAKE_DISCARD),     # greedy: G >= 1 over a known card is enough
    ("ev", "9D", K.A_DRAW_STOCK),
    ("ev", "KD", K.A_TAKE_DISCARD),
])
def test_takes_the_discard_only_when_it_beats_a_draw(spec, top, expected):
    assert six(HIGH, spec, discard=("5D", top)).turn() == expected


def test_a_taken_card_goes_where_it_gains_most():
    t = six(HIGH, "ev", discard=("5D", "KD"))
    assert t.turn() == K.A_TAKE_DISCARD
    assert t.place_taken() == 0  # over the queen


def test_a_drawn_card_that_gains_nothing_is_discarded():
    assert six("QS KS 4C / QH KH 4D", "ev").place_drawn("9C") == K.A_DISCARD
    assert six("QS KS 4C / 9H KH 4D", "ev").place_drawn("9C") == 0  # pairs the 9


@pytest.mark.parametrize("spec, expected", [("ev:T=6", K.A_KNOCK), ("ev:T=5.9", K.A_DRAW_STOCK),
                                            ("ev:T=6,margin=30", K.A_DRAW_STOCK)])
def test_knocks_when_low_and_ahead(spec, expected):
    # W2, everything known: A + 2 + K + 3 = 6; every opponent's four cards are unknown to it
    # (about 4 x 6.4 = 25.6), so a margin of 30 is too much
    t = Table(W2, ["?AS ?2H / ?KC ?3H"] + ["? ? / ? ?"] * 3, [spec] + ["knock-threshold"] * 3,
              discard=("9C",))
    assert t.turn(knock=True) == expected


@pytest.mark.parametrize("spec, expected", [("ev:margin=2", 5), ("ev:margin=6", 2),
                                            ("ev:T=0.5", 2)])
def test_goes_out_only_well_ahead_of_every_opponent(spec, expected):
    # one face-down card left; a drawn 2 over it ends the round with 3 - 2 = 1 (and gains the
    # most), over the 3 it gains 5. Seat 1 shows pairs and a king: its estimate is the mean
    # unseen value, 258 / 40 = 6.45 -- so a margin of 6 forbids going out, 2 allows it
    t = six("KS 5S 3C / KH 5H ?", spec, seat1="AS 4S ? / AH 4H KC")
    assert t.place_drawn("2C") == expected


def _paired_gain(rules, spec, base, others, rounds=20000):
    def seat0(s):
        ids, params = seat_arrays(resolve_seats([s] + others, 4))
        return run(rules, 4, ids, params, rounds=rounds, seed=12,
                   per_round=True).per_round.scores[:, 0]
    d = seat0(base) - seat0(spec)
    return d.mean(), d.std(ddof=1) / np.sqrt(rounds)


@pytest.mark.parametrize("rules, base, others", [
    (SIX, "greedy", ["greedy"] * 3),
    (FOUR, "knock-threshold", ["knock-threshold"] * 3),
], ids=["six_card", "four_card"])
def test_beats_the_one_step_player_on_the_same_deals(rules, base, others):
    gain, se = _paired_gain(rules, "ev", base, others)
    assert gain > 4 * se, (gain, se)
