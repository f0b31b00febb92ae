"""The lean kernel plays exactly the rounds the general engine plays: same deals, decisions,
scores, turns and final layouts, on the benchmark workloads and on randomly drawn rule sets
that it accepts; and the runner picks it only when it may. The general build plays the same
rounds from the lean cache (its rounds with greedy-family seats on the rules the cache
covers) as when it keeps the views and asks the seats' policies."""

from __future__ import annotations

import random

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.kernel import engine, flow
from simulator.kernel.engine import State, pack_rules, policy_table
from simulator.kernel.policy_api import NO_USER_POLICY
from strategies import compiled
from simulator.game.rules import Rules, flatten
from simulator.experiments.runner import Totals, make_job, run
from strategies import builtin
from test_random_rules import draw_rule_sets
from tiers import sweep


def _play(kind, rules, players, ids, params, start, count, seed=11):
    """``kind``: "lean" (the lean build), "cache" (the general build playing from the lean
    cache, as it does with these seats) or "views" (the general build made to keep the views
    and ask the seats' policies: the rules marked uncovered); both general ones checked."""
    arrays = flatten(rules, players)
    rt, par = pack_rules(arrays), policy_table(ids, params)
    if kind == "views":
        rt[K.RT_CACHE_RULES] = 0
    t = Totals(players)
    scores = np.zeros((count, players), np.int64)
    turns = np.zeros(count, np.int64)
    layouts = np.zeros((count, players, K.MAX_POS), np.int16)
    if kind == "lean":
        st = State(players)
        played = flow.chunk_nb(seed, start, count, rt, par, *st.arrays(), t.acc, t.tot, t.hist,
                               scores, turns, layouts, False, NO_USER_POLICY, (), st.aux)
    else:
        st = State(players)
        played = engine.build("general").chunk_nb(
            seed, start, count, rt, par, *st.arrays(), t.acc, t.tot, t.hist, scores, turns,
            layouts, True, NO_USER_POLICY, compiled.table(ids), st.aux)
        # which way the general build played: the mode of its last round
        assert st.g[K.G_PRIV + K.PRIV_CACHE] == (1 if kind == "cache" else 0)
    assert played == count
    return t, scores, turns, layouts


def _assert_same(rules, players, ids, params, start, count):
    a = _play("views", rules, players, ids, params, start, count)
    for kind in ("cache", "lean"):
        b = _play(kind, rules, players, ids, params, start, count)
        for name, x, y in (("acc", a[0].acc, b[0].acc), ("tot", a[0].tot, b[0].tot),
                           ("hist", a[0].hist, b[0].hist), ("scores", a[1], b[1]),
                           ("turns", a[2], b[2]), ("layouts", a[3], b[3])):
            assert np.array_equal(x, y), f"{name} differ ({kind})"
    return a


W1 = Rules.preset("six_card")
W2 = Rules.preset("four_card", pair_scope="none", initial_reveal_constraint="nearest_row")


def test_policy_ids_match_the_builtins():
    assert flow.POLICY_GREEDY == builtin.POLICY_GREEDY
    assert flow.POLICY_KNOCK_THRESHOLD == builtin.POLICY_KNOCK_THRESHOLD


@pytest.mark.parametrize("name, rules, policy, param", [
    ("W1", W1, builtin.POLICY_GREEDY, 0.0),
    ("W2", W2, builtin.POLICY_KNOCK_THRESHOLD, 8.0),
    # a whole T is compared in integers by the lean kernel, any other in floats
    ("W2, T = 7.5", W2, builtin.POLICY_KNOCK_THRESHOLD, 7.5),
])
def test_benchmark_workloads_identical(name, rules, policy, param):
    t, scores, turns, _ = _assert_same(rules, 4, [policy] * 4, [[param]] * 4, 0, 3000)
    assert t.rounds == 3000 and turns.min() > 0 and scores.std() > 0
    if name.startswith("W2"):
        assert t.knocks > 0


def test_mixed_seats_and_reshuffles_identical():
    # eight players on one deck run the stock dry: reshuffles and the stale-plan fallback
    rules = Rules.preset("six_card", decks=1, players_max=8,
                         end_triggers=("knock", "all_face_up"))
    ids = [builtin.POLICY_GREEDY, builtin.POLICY_KNOCK_THRESHOLD] * 4
    t, *_ = _assert_same(rules, 8, ids, [[0.0], [12.0]] * 4, 0, 1500)
    assert t.reshuffles > 0 and t.knocks > 0


@pytest.mark.parametrize("change", [
    {"ender_penalty": "plus_10"}, {"ender_bonus": "minus_players"},
    {"lowest_scores_zero": True}, {"shoot_the_moon": 60}, {"ender_extra": -5},
    {"lowest_bonus": -3}, {"tie_penalty": 5}, {"twenty_one_scores_zero": True},
])
@pytest.mark.parametrize("workload", ["W1", "W2"])
def test_hole_rules_on_plain_layouts_identical(change, workload):
    # plain layouts with no hole rule are scored by scoring.hole_scores_nb's shortcut; each
    # hole rule must send them through the general scoring instead
    base, policy, param = (W1, builtin.POLICY_GREEDY, 0.0) if workload == "W1" else \
        (W2, builtin.POLICY_KNOCK_THRESHOLD, 8.0)
    rules = base.with_options(**change)
    assert flatten(base, 4).ri[K.R_PLAIN_HOLE] and not flatten(rules, 4).ri[K.R_PLAIN_HOLE]
    ids, params = [policy] * 4, [[param]] * 4
    _, scores, _, _ = _assert_same(rules, 4, ids, params, 0, 1500)
    if "shoot_the_moon" not in change:  # no layout here is worth 60: the others all show
        plain = _play("lean", base, 4, ids, params, 0, 1500)[1]
        assert not np.array_equal(scores, plain)


def _lean_rule_sets(n):
    out = []
    for _, _, rules, players in draw_rule_sets(400, seed=7):
        ri = flatten(rules, players).ri
        if flow.eligible(ri, [builtin.POLICY_GREEDY]):
            out.append((rules, players))
        if len(out) == n:
            break
    return out


LEAN_SETS = _lean_rule_sets(60)


def test_enough_random_rule_sets_are_eligible():
    assert len(LEAN_SETS) >= 40


@pytest.mark.parametrize("i", sweep(range(len(LEAN_SETS)), keep=set(range(20))))
def test_random_rule_sets_identical(i):
    rules, players = LEAN_SETS[i]
    rng = random.Random(i)
    ids = [rng.choice([builtin.POLICY_GREEDY, builtin.POLICY_KNOCK_THRESHOLD])
           for _ in range(players)]
    params = [[float(rng.randint(0, 20))] for _ in range(players)]
    _assert_same(rules, players, ids, params, 1000 * i, 150)


@pytest.mark.parametrize("change, ids", [
    ({}, [builtin.POLICY_RANDOM] * 4),
    ({"flip_instead_of_draw": True}, [builtin.POLICY_GREEDY] * 4),
    ({"pair_scope": "anywhere"}, [builtin.POLICY_HEURISTIC] * 4),
    ({"initial_reveal_constraint": "same_column"}, [builtin.POLICY_GREEDY] * 4),
    ({"jack_discard_skips_next": True}, [builtin.POLICY_GREEDY] * 4),
])
def test_refuses_what_it_does_not_play(change, ids):
    rules = W1.with_options(**change)
    assert not flow.eligible(flatten(rules, 4).ri, ids)
    assert not make_job(rules, 4, ids, [[0.0]] * 4, 1).lean


def test_runner_picks_it_and_results_do_not_depend_on_the_kernel():
    ids, params = [builtin.POLICY_GREEDY] * 4, [[0.0]] * 4
    assert make_job(W1, 4, ids, params, 1).lean
    assert not make_job(W1, 4, ids, params, 1, check=True).lean
    assert not make_job(W1, 4, ids, params, 1, kernel="general").lean
    with pytest.raises(ValueError, match="kernel"):
        make_job(W1, 4, [builtin.POLICY_RANDOM] * 4, params, 1, kernel="lean")
    a = run(W1, 4, ids, params, rounds=3000, seed=5, threads=2, chunk_size=700,
            per_round=True)
    b = run(W1, 4, ids, params, rounds=3000, seed=5, threads=1, kernel="general",
            per_round=True)
    assert np.array_equal(a.totals.acc, b.totals.acc)
    assert np.array_equal(a.totals.tot, b.totals.tot)
    assert np.array_equal(a.per_round.scores, b.per_round.scores)


@pytest.mark.parametrize("preset", ["eight_card_basic", "nine_card", "ten_card"])
def test_larger_layouts_identical(preset):
    # 8 positions fill the 8-lane vector search; 9 and 10 take the 16-lane one (W1 and W2
    # above take the 8- and 4-lane ones)
    rules = Rules.preset(preset)
    ids = [builtin.POLICY_GREEDY, builtin.POLICY_KNOCK_THRESHOLD] * 2
    t, *_ = _assert_same(rules, 4, ids, [[0.0], [10.0]] * 2, 0, 800)
    assert t.rounds == 800


@pytest.mark.parametrize("preset, change", [
    # the presets whose pair scope pairs a card with more than one position
    ("four_card", {}), ("four_card_face_up", {}), ("four_card_in_hand", {}),
    ("nine_card_moraco", {}),
    # every other scope on a 2x3 grid, and columns of three rows
    ("six_card", {"pair_scope": "row_or_column"}),
    ("six_card", {"pair_scope": "row_column_diagonal"}),
    ("six_card", {"pair_scope": "anywhere"}),
    ("six_card", {"pair_scope": "orthogonal_adjacent"}),
    ("six_card", {"grid_rows": 3, "grid_cols": 2}),
])
def test_other_pair_scopes_identical(preset, change):
    # these take the scalar search (estimate.best_scan_nb) instead of the vector cache; knock
    # decisions estimate the layout from its known cards
    rules = Rules.preset(preset, **change)
    ri = flatten(rules, 4).ri
    assert flow.eligible(ri, [builtin.POLICY_GREEDY])
    ids = [builtin.POLICY_GREEDY, builtin.POLICY_KNOCK_THRESHOLD] * 2
    t, scores, *_ = _assert_same(rules, 4, ids, [[0.0], [10.0]] * 2, 0, 800)
    assert t.rounds == 800 and scores.std() > 0
    if int(ri[K.R_END_TRIGGERS]) & K.END_KNOCK:
        assert t.knocks > 0
