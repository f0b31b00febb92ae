"""The user builds of the game flow (simulator/kernel/flow), compiled around a user's
policy, play the very same rounds as the general engine calling that policy through a
pointer: same deals, same views at every decision, same scores; and they report an illegal
action the same way. Two policies are compiled into builds here (about a minute each, once
per test run): the example greedy policy, and a test policy that visits every decision the
build asks."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from simulator.kernel import flow
from simulator.kernel.policy_api import kernel_file
from simulator.game.rules import Rules, flatten
from simulator.experiments.runner import make_job, run
from strategies import resolve, resolve_seats, seat_arrays, user_policy
from test_random_rules import draw_rule_sets

# each test compiles the user kernel around a policy, for minutes: the slow tier
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "strategies" / "examples" / "greedy_policy.py") + ":decide"
CYCLING = str(ROOT / "tests" / "policies" / "cycling_policy.py") + ":decide"
SIX = Rules.preset("six_card")


def _both(rules, players, spec, rounds, seed, chunk_size=None):
    """The same rounds on the policy's own kernel and on the general engine."""
    seats = resolve_seats([spec], players)
    user = user_policy(seats)
    ids, params = seat_arrays(seats)
    assert make_job(rules, players, ids, params, seed, user=user).user_chunk is not None
    kw = dict(rounds=rounds, seed=seed, user=user, per_round=True,
              chunk_size=chunk_size or rounds)
    a = run(rules, players, ids, params, **kw)
    b = run(rules, players, ids, params, kernel="general", **kw)
    return a, b


def _assert_identical(a, b):
    assert a.complete and b.complete, (a.error, b.error)
    assert np.array_equal(a.totals.acc, b.totals.acc)
    assert np.array_equal(a.totals.tot, b.totals.tot)
    assert np.array_equal(a.totals.hist, b.totals.hist)
    assert np.array_equal(a.per_round.scores, b.per_round.scores)
    assert np.array_equal(a.per_round.turns, b.per_round.turns)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_example_policy_plays_the_same_rounds(players):
    a, b = _both(SIX, players, EXAMPLE, 3000, 11 + players, chunk_size=700)
    _assert_identical(a, b)
    assert a.totals.rounds == 3000 and a.per_round.turns.mean() > 10


def _eligible_rule_sets(n):
    out = []
    for _, _, rules, players in draw_rule_sets(400, seed=31):
        if flow.rules_eligible(flatten(rules, players).ri):
            out.append((rules, players))
        if len(out) == n:
            break
    return out


RULE_SETS = _eligible_rule_sets(40)
NAMED = [
    ("knock", SIX.with_options(end_triggers=("knock",))),
    ("face choice", SIX.with_options(placement_face="player_choice")),
    ("private stock", SIX.with_options(private_stock_draw=True)),
    ("peek", SIX.with_options(initial_reveal_mode="peek")),
    ("simultaneous", SIX.with_options(initial_reveal_order="simultaneous")),
    ("reveal on trigger", SIX.with_options(reveal_on_trigger=True)),
    ("locked columns", SIX.with_options(lock_face_up_columns=True)),
    ("no face-up replacing", SIX.with_options(replace_face_up_allowed=False)),
    ("stock ends the hole", SIX.with_options(stock_empty="end_hole", decks=1)),
]


def test_enough_random_rule_sets():
    assert len(RULE_SETS) >= 30


@pytest.mark.parametrize("i", range(len(RULE_SETS)))
def test_every_decision_on_random_rule_sets(i):
    rules, players = RULE_SETS[i]
    a, b = _both(rules, players, CYCLING, 200, 1000 + i)
    _assert_identical(a, b)


@pytest.mark.parametrize("name, rules", NAMED, ids=[n for n, _ in NAMED])
def test_every_decision_on_named_options(name, rules):
    players = random.Random(name).randint(2, 6)
    a, b = _both(rules, players, CYCLING, 400, 7, chunk_size=150)
    _assert_identical(a, b)
    assert a.per_round.turns.max() > 2


def test_illegal_action_is_reported_as_by_the_general_engine():
    rules = SIX.with_options(end_triggers=("knock", "all_face_up"))
    seats = resolve_seats([CYCLING + ":illegal_at=6"], 3)
    user = user_policy(seats)
    ids, params = seat_arrays(seats)
    kw = dict(rounds=200, seed=3, user=user, chunk_size=5, threads=1)
    a = run(rules, 3, ids, params, **kw)
    b = run(rules, 3, ids, params, kernel="general", **kw)
    assert not a.complete and a.error == b.error and "not legal at decision point" in a.error
    # the chunks before the one that met it are kept, the same ones on both
    assert a.played == b.played and a.totals.rounds > 0
    assert np.array_equal(a.totals.acc, b.totals.acc)


def test_which_runs_take_the_kernel():
    seats = resolve_seats([EXAMPLE], 4)
    user = user_policy(seats)
    ids, params = seat_arrays(seats)
    assert make_job(SIX, 4, ids, params, 1, user=user).user_chunk is not None
    assert make_job(SIX, 4, ids, params, 1, user=user, kernel="general").user_chunk is None
    assert make_job(SIX, 4, ids, params, 1, user=user, check=True).user_chunk is None
    flips = SIX.with_options(flip_instead_of_draw=True)
    assert make_job(flips, 4, ids, params, 1, user=user).user_chunk is None
    mixed = resolve_seats([EXAMPLE, "greedy", EXAMPLE, "greedy"], 4)
    assert make_job(SIX, 4, *seat_arrays(mixed), 1, user=user).user_chunk is None


def test_kernel_file_follows_the_policy_file(tmp_path):
    """An edit to the policy file names a new kernel (compiled afresh); the same text names
    the same one, so a cached kernel is never stale."""
    body = (ROOT / "tests" / "policies" / "cycling_policy.py").read_text()
    path = tmp_path / "mine.py"
    path.write_text(body)
    first = kernel_file(str(path), "decide")
    assert kernel_file(str(path), "decide") == first
    path.write_text(body + "\n# an edit\n")
    assert kernel_file(str(path), "decide") != first
    assert kernel_file(str(path), "other") != kernel_file(str(path), "decide")
