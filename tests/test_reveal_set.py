"""The opening reveal chosen as a set (codes.REVEAL_SET): at a seat's first reveal decision
PUB_REVEAL_PICKS says how many cards it reveals, and an answer naming them all plays (and logs)
exactly as naming them one at a time; a set of the wrong size or out of reach is refused."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

from simulator.experiments.runner import play_logged_round, run
from simulator.game import codes as K
from simulator.game import reference as R
from simulator.game.rules import Rules, flatten
from strategies import resolve_seats, seat_arrays, user_policy
from strategies.reference.referee import make_hole

ROOT = Path(__file__).resolve().parents[1]
POLICY = str(ROOT / "tests" / "policies" / "pair_reveal_policy.py") + ":decide"
SIX = Rules.preset("six_card")


def _seats(spec: str, players: int, others: str = "greedy"):
    seats = resolve_seats([spec, spec] + [others] * (players - 2), players)
    ids, params = seat_arrays(seats)
    return ids, params, user_policy(seats)


@pytest.mark.parametrize("players", [3, 4])
def test_a_pair_named_as_a_set_plays_as_named_one_at_a_time(players):
    results = {}
    for as_set in (0, 1):
        ids, params, user = _seats(f"{POLICY}:as_set={as_set}", players)
        r = run(SIX, players, ids, params, rounds=2000, seed=4, user=user, per_round=True)
        assert r.complete, r.error
        logs = [play_logged_round(flatten(SIX, players), ids, params, 4, i, user=user)["log"]
                for i in range(5)]
        results[as_set] = (r.per_round.scores, r.per_round.turns, logs)
    assert np.array_equal(results[0][0], results[1][0])
    assert np.array_equal(results[0][1], results[1][1])
    cols = SIX.grid_cols
    for a, b in zip(results[0][2], results[1][2]):
        assert np.array_equal(a, b)
        for seat in (0, 1):   # the two picks of a set are one column's, logged one by one
            rows = b[(b[:, 1] == seat) & (b[:, 2] == K.DP_REVEAL)]
            assert len(rows) == 2 and rows[1, 3] == rows[0, 3] + cols


WRONG = """
    from simulator.game.codes import DP_REVEAL, N_ACTIONS, REVEAL_SET

    def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
               params):
        if point == DP_REVEAL:
            return REVEAL_SET + {mask}
        for a in range(N_ACTIONS):
            if legal[a]:
                return a
        return -1
"""


@pytest.mark.parametrize("mask, shown", [(0b111, "reveal_set(pos0,pos1,pos2)"),
                                         (1 | 1 << 9, "reveal_set(pos9)")])
def test_a_set_of_the_wrong_size_is_refused(tmp_path, mask, shown):
    path = tmp_path / f"wrong{mask}.py"
    path.write_text(textwrap.dedent(WRONG.format(mask=mask)))
    ids, params, user = _seats(f"{path}:decide", 3)
    r = run(SIX, 3, ids, params, rounds=10, seed=1, user=user)
    assert not r.complete
    assert "reveal" in r.error and shown in r.error, r.error


class _PairFirst:
    """A reference policy that reveals column ``c``'s two cards first (as one set, or one
    position at a time), then plays as ``inner``."""

    def __init__(self, inner, c, as_set):
        self.inner, self.c, self.as_set, self.asked = inner, c, as_set, 0

    def choose(self, obs):
        if obs.decision != K.DP_REVEAL:
            return self.inner.choose(obs)
        cols = SIX.grid_cols
        self.asked += 1
        if self.as_set:
            assert obs.reveal_picks == (2 if self.asked == 1 else 0)
            return K.REVEAL_SET + (1 << self.c) + (1 << (self.c + cols))
        return self.c if self.asked == 1 else self.c + cols


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_reference_engine_plays_a_set_as_its_picks(seed):
    records = []
    for as_set in (False, True):
        hole = make_hole(SIX, 3, ["greedy"], seed, 0)
        hole.policies = [_PairFirst(p, s % SIX.grid_cols, as_set)
                         for s, p in enumerate(hole.policies)]
        record = hole.play()
        records.append((hole.log, record.scores, record.layouts))
        assert all(p.asked == (1 if as_set else 2) for p in hole.policies)
    assert records[0] == records[1]


@pytest.mark.slow   # every seat: the policy's own build of the flow, compiled for minutes
def test_a_set_plays_as_its_picks_on_the_policys_own_build():
    scores = {}
    for as_set in (0, 1):
        seats = resolve_seats([f"{POLICY}:as_set={as_set}"], 4)
        ids, params = seat_arrays(seats)
        r = run(SIX, 4, ids, params, rounds=2000, seed=6, user=user_policy(seats),
                per_round=True)
        assert r.complete and r.build == "user", (r.error, r.build)
        scores[as_set] = r.per_round.scores
    assert np.array_equal(scores[0], scores[1])
