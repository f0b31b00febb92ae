"""The match in the view (codes.PUB_HOLE ...): a policy sees its hole's number, the match's
holes or target and every seat's total before the hole, in the run's matches and in their
replays; a hole played alone is hole 0 of 1 with every total 0."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simulator.experiments.replay import replay_match
from simulator.experiments.runner import make_job, play_match_chunk, run
from simulator.game import codes as K
from simulator.game import reference as R
from simulator.game.rules import Rules
from simulator.kernel.engine import State
from simulator.kernel.tally import MACC_TOTAL_SUM
from strategies import resolve_seats, seat_arrays, user_policy
from strategies.reference.referee import make_hole

ROOT = Path(__file__).resolve().parents[1]
POLICY = str(ROOT / "tests" / "policies" / "match_policy.py") + ":decide"
SIX = Rules.preset("six_card")
PLAYERS = 3


def _seats(aware: int):
    """The match policy in seats 0 and 1, greedy in seat 2 (the general engine)."""
    seats = resolve_seats([f"{POLICY}:aware={aware}", f"{POLICY}:aware={aware}", "greedy"],
                          PLAYERS)
    ids, params = seat_arrays(seats)
    return seats, ids, params, user_policy(seats)


@pytest.mark.parametrize("how", [dict(holes=6), dict(target=40)])
def test_a_policy_behind_in_the_match_changes_the_match(how):
    totals = {}
    for aware in (0, 1):
        seats, ids, params, user = _seats(aware)
        r = run(SIX, PLAYERS, ids, params, rounds=300, seed=5, user=user, **how)
        assert r.complete, r.error
        totals[aware] = r.match_totals.macc[:, MACC_TOTAL_SUM].copy()
    assert not np.array_equal(totals[0], totals[1])


def _first_reveal(hole, seat: int) -> str:
    """The first position the physical ``seat`` chose to reveal in the hole."""
    for step in hole.steps:
        if step.kind == "decision" and step.decision == "reveal" and step.seat == seat:
            return step.action
    raise AssertionError(f"seat {seat} revealed nothing")


@pytest.mark.parametrize("how", [dict(holes=5), dict(target=30)])
def test_the_policy_reads_each_seats_total_before_the_hole(how):
    seats, ids, params, user = _seats(1)
    holes, target = how.get("holes", 0), how.get("target", 0)
    npos = SIX.n_positions
    seen_behind = 0
    for m in range(4):
        replay = replay_match(SIX, PLAYERS, seats, 9, m, holes, target, user=user)
        job = make_job(SIX, PLAYERS, ids, params, 9, kernel="general", user=user)
        _, mt, _ = play_match_chunk(job, m, 1, holes, target, State(PLAYERS))
        # the replay, hole by hole with the match shown, played the run's match
        assert list(mt.macc[:, MACC_TOTAL_SUM]) == replay.totals
        before = [0] * PLAYERS
        for hole in replay.holes:
            for s in (0, 1):
                behind = any(before[o] < before[s] for o in range(PLAYERS))
                seen_behind += behind
                assert _first_reveal(hole, s) == K.action_name(npos - 1 if behind else 0)
            before = [b + x for b, x in zip(before, hole.scores)]
    assert seen_behind > 0


class _Watching:
    """A reference policy that plays as ``inner`` and keeps every observation's match view."""

    def __init__(self, inner, seen):
        self.inner, self.seen = inner, seen

    def choose(self, obs):
        self.seen.append(obs.match)
        return self.inner.choose(obs)


@pytest.mark.parametrize("how", [dict(holes=4), dict(target=80)])
def test_the_reference_engine_shows_the_match(how):
    holes, target = how.get("holes", 0), how.get("target", 0)
    seen, hole_scores = [], []

    def play_hole(order, round_index, view):
        hole = make_hole(SIX, PLAYERS, ["random"], 3, round_index)
        hole.match = view
        hole.policies = [_Watching(p, seen) for p in hole.policies]
        seen.clear()
        record = hole.play()
        before = [sum(s[p] for s in hole_scores) for p in order]
        assert seen and all(v == R.MatchView(len(hole_scores), holes, target, tuple(before))
                            for v in seen)
        hole_scores.append({p: record.scores[i] for i, p in enumerate(order)})
        return {"scores": record.scores, "layout_values": record.layout_values,
                "ender": record.ender, "knocked": record.knocked, "layouts": record.layouts}

    match = R.play_match(SIX, PLAYERS, 3, 0, holes, target, play_hole, views=True)
    assert match.holes == len(hole_scores) > 1
    alone = make_hole(SIX, PLAYERS, ["random"], 3, 0)
    assert alone.match == R.MatchView() and alone.match.holes == 1
