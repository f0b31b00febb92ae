"""The table build (simulator/kernel/flow with ``TABLE``): the general engine's way of asking
policies (the built-ins' table, a user policy's pointer) in the flow of the common rule sets,
its steps inlined. It plays the very same rounds as the general build for every rule set it
accepts, whatever the seats, and reports a policy's illegal action the same way; runs take it
by default when the lean build cannot play them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simulator.game.rules import Rules, flatten
from simulator.game.rules.presets import PRESETS
from simulator.experiments.runner import make_job, run
from simulator.kernel import flow, pick
from strategies import resolve_seats, seat_arrays, user_policy
from test_random_rules import draw_rule_sets

ROOT = Path(__file__).resolve().parents[1]
CYCLING = str(ROOT / "tests" / "policies" / "cycling_policy.py") + ":decide"
SIX = Rules.preset("six_card")
TABLE_PRESETS = [name for name in PRESETS
                 if flow.rules_eligible(flatten(Rules.preset(name), 2).ri, "table")]
MIXES = (["random", "heuristic", "guide", "greedy"],
         ["forgetful", "opponent-aware", "ev", "knock-threshold"])


def _both(rules, players, specs, rounds, seed, **kw):
    """The same rounds on the table build and on the general build, one round a row."""
    seats = resolve_seats(specs, players)
    ids, params = seat_arrays(seats)
    kw = dict(rounds=rounds, seed=seed, per_round=True, user=user_policy(seats), **kw)
    a = run(rules, players, ids, params, kernel="table", **kw)
    b = run(rules, players, ids, params, kernel="general", **kw)
    assert a.build == "table" and b.build == "general"
    return a, b


def _assert_identical(a, b):
    assert a.complete and b.complete, (a.error, b.error)
    for name in ("acc", "tot", "hist"):
        assert np.array_equal(getattr(a.totals, name), getattr(b.totals, name)), name
    assert np.array_equal(a.per_round.scores, b.per_round.scores)
    assert np.array_equal(a.per_round.turns, b.per_round.turns)


def test_the_common_presets_play_on_the_table_build():
    assert {"six_card", "four_card", "nine_card", "ten_card"} <= set(TABLE_PRESETS)
    assert "power_cabo" not in TABLE_PRESETS and "nine_card_fuchs" not in TABLE_PRESETS


@pytest.mark.parametrize("preset", TABLE_PRESETS)
@pytest.mark.parametrize("mix", range(len(MIXES)))
def test_every_builtin_plays_the_same_rounds_as_on_the_general_build(preset, mix):
    rules = Rules.preset(preset)
    players = min(4, rules.players_max)
    a, b = _both(rules, players, MIXES[mix][:players], 150, 5 + mix)
    _assert_identical(a, b)
    assert a.per_round.turns.min() > 0


def test_a_user_policy_among_builtins_plays_through_its_pointer_alike():
    rules = SIX.with_options(end_triggers=("knock", "all_face_up"),
                             placement_face="player_choice")
    a, b = _both(rules, 3, [CYCLING, "heuristic", "random"], 300, 7)
    _assert_identical(a, b)


def test_an_illegal_action_is_reported_as_by_the_general_build():
    a, b = _both(SIX, 3, [CYCLING + ":illegal_at=6", "greedy", "random"], 200, 3,
                 chunk_size=5, threads=1)
    assert not a.complete and a.error == b.error and "not legal at decision point" in a.error
    assert a.played == b.played and a.totals.rounds > 0


def test_which_runs_take_the_table_build():
    ids, params = seat_arrays(resolve_seats(["random", "heuristic"], 2))
    ri = flatten(SIX, 2).ri
    assert make_job(SIX, 2, ids, params, 1).build == "table"
    assert make_job(SIX, 2, ids, params, 1, kernel="general").build == "general"
    assert make_job(SIX, 2, ids, params, 1, check=True).build == "general"
    greedy = seat_arrays(resolve_seats(["greedy"], 2))
    assert make_job(SIX, 2, *greedy, 1).build == "lean"
    assert make_job(SIX, 2, *greedy, 1, kernel="table").build == "table"
    flips = SIX.with_options(flip_instead_of_draw=True)
    assert make_job(flips, 2, ids, params, 1).build == "general"
    assert pick.build(ri, ids, "table") == "table"
    with pytest.raises(ValueError, match="kernel = 'table'.*flip_turns"):
        pick.build(flatten(flips, 2).ri, ids, "table")
    with pytest.raises(ValueError, match="kernel = 'table'.*invariant checks"):
        pick.build(ri, ids, "table", check=True)


def _table_rule_sets(n, seed):
    out = []
    for _, _, rules, players in draw_rule_sets(400, seed=seed):
        if flow.rules_eligible(flatten(rules, players).ri, "table"):
            out.append((rules, players))
        if len(out) == n:
            break
    return out


@pytest.mark.slow
@pytest.mark.parametrize("i", range(30))
def test_random_rule_sets_play_the_same_rounds(i):
    rules, players = _table_rule_sets(30, 47)[i]
    specs = ["random", "guide", "heuristic", "opponent-aware", "forgetful", "ev"][:players]
    a, b = _both(rules, players, specs, 200, 100 + i)
    _assert_identical(a, b)
