"""The ``opponent-aware`` strategy withholds the cards its next seat is collecting: on
hand-made states where greedy would feed the next seat, and over seeded rounds, where the next
seat completes fewer pairs with the discards it takes."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.game import reference as R
from simulator.experiments.runner import play_logged_round
from simulator.game.rules import Rules, flatten
from simulator.experiments.runner import run
from strategies import resolve_seats, seat_arrays
from strategies.reference import policy_maker
from policy_states import Table

SIX = Rules.preset("six_card")
HIDDEN_6 = "? ? ? / ? ? ?"


def table(seat0, seat1, spec, discard=("5D",), seat2=HIDDEN_6):
    return Table(SIX, [seat0, seat1, seat2, HIDDEN_6], [spec, "greedy", "greedy", "greedy"],
                 discard=discard)


def test_care_zero_is_greedy_exactly():
    def totals(specs):
        ids, params = seat_arrays(resolve_seats(specs, 4))
        return run(SIX, 4, ids, params, rounds=2000, seed=8, kernel="general").totals
    a = totals(["opponent-aware:care=0", "greedy", "opponent-aware:care=0", "greedy"])
    b = totals(["greedy"])
    assert np.array_equal(a.acc, b.acc) and np.array_equal(a.tot, b.tot)


# Seat 0 holds a drawn 9 that helps nowhere: greedy discards it. Over the 8 it costs 1 point
# (column 8+6 becomes 9+6); seat 1 shows an unpaired 9 over a face-down card: it collects 9s.
DRAWN_NINE = dict(seat0="8S KS QS / 6H KH QH", seat1="9H ? ? / ? ? ?")


@pytest.mark.parametrize("spec, expected", [("greedy", K.A_DISCARD),
                                            ("opponent-aware:care=2", 0),
                                            ("opponent-aware:care=0.5", K.A_DISCARD)])
def test_keeps_a_drawn_card_the_next_seat_collects(spec, expected):
    assert table(spec=spec, **DRAWN_NINE).place_drawn("9C") == expected


def test_feeds_freely_when_the_next_seat_does_not_collect():
    # seat 1's 9 is paired already; seat 2 (not next) collects 9s: nobody next to feed
    t = table("8S KS QS / 6H KH QH", "9H ? ? / 9D ? ?", "opponent-aware:care=2",
              seat2="9H ? ? / ? ? ?".replace("9H", "9S"))
    assert t.place_drawn("9C") == K.A_DISCARD


# Seat 0 draws (or sees on the discard pile) a 3: over its queen it gains 7 (greedy's choice),
# over its 9 it gains 6. Seat 1 collects queens, so replacing the queen would feed it.
QUEEN = dict(seat0="QS 9S KS / ? 8D KH", seat1="QH ? ? / ? ? ?")


@pytest.mark.parametrize("spec, expected", [("greedy", 0), ("opponent-aware:care=2", 1),
                                            ("opponent-aware:care=0.5", 0)])
def test_does_not_discard_a_card_the_next_seat_collects(spec, expected):
    assert table(spec=spec, **QUEEN).place_drawn("3C") == expected


@pytest.mark.parametrize("spec, expected", [("greedy", 0), ("opponent-aware:care=2", 1)])
def test_takes_the_discard_to_the_place_that_feeds_nobody(spec, expected):
    t = table(spec=spec, discard=("5D", "3C"), **QUEEN)
    assert t.turn() == K.A_TAKE_DISCARD
    assert t.place_taken() == expected


class Replay(R.Hole):
    """The reference engine replaying a kernel move log, counting the discards seat 1 takes
    that complete a column pair."""

    def __init__(self, rules, seed, round_index, log):
        super().__init__(rules, 4, [policy_maker("random")], seed, round_index)
        self.moves = iter(log.tolist())
        self.pairs_taken = 0

    def ask(self, seat, decision, legal, held=None):
        _, s, point, action, _ = next(self.moves)
        assert (s, point) == (seat, int(decision)) and action in legal
        if seat == 1 and decision == R.Decision.PLACE_TAKEN:
            cols = self.state.cols
            partner = self.state.layouts[1][action + cols if action < cols else action - cols]
            if R.match_key(self.rules, partner.card) == R.match_key(self.rules, held):
                self.pairs_taken += 1
        self.log.append((self.state.turn, seat, int(decision), action, -1))
        return action


def _pairs_fed(seat0: str, rounds: int, seed: int = 21) -> np.ndarray:
    arrays = flatten(SIX, 4)
    ids, params = seat_arrays(resolve_seats([seat0, "greedy", "greedy", "greedy"], 4))
    fed = np.zeros(rounds)
    for r in range(rounds):
        k = play_logged_round(arrays, ids, params, seed, r)
        replay = Replay(SIX, seed, r, k["log"])
        rec = replay.play()
        assert list(rec.scores) == k["scores"].tolist()  # the replay is the same game
        fed[r] = replay.pairs_taken
    return fed


def test_the_next_seat_pairs_fewer_of_its_discards():
    rounds = 500
    greedy = _pairs_fed("greedy", rounds)
    aware = _pairs_fed("opponent-aware:care=3", rounds)
    d = greedy - aware  # the same deals: a paired comparison
    se = d.std(ddof=1) / np.sqrt(rounds)
    assert d.mean() > 4 * se, (greedy.mean(), aware.mean(), se)


def test_the_next_seat_scores_worse_and_the_watcher_no_worse():
    def scores(seat0):
        ids, params = seat_arrays(resolve_seats([seat0, "greedy", "greedy", "greedy"], 4))
        return run(SIX, 4, ids, params, rounds=20000, seed=4, per_round=True).per_round.scores
    greedy = scores("greedy")
    aware = scores("opponent-aware:care=3")
    d = aware - greedy
    se = d.std(axis=0, ddof=1) / np.sqrt(len(d))
    assert d[:, 1].mean() > 4 * se[1]          # seat 1 is fed less
    assert d[:, 0].mean() < 2 * se[0]          # and seat 0 pays nothing measurable for it
