"""The lookahead player in the power-card games (strategies/lookahead_powers.py): it plays
Cabo and Pablo holes with card conservation checked after every turn of the hole and of every
rollout, its results do not depend on threads, it decides from what its seat may see, and it
wins more often than greedy in its seat on the same deals.

Its rollouts play on the powers build itself, which they call through a slot the run fills
(simulator/kernel/engine.py ``build``): the same compiled turns as the run's own.

Every test here needs the ``policy:lookahead-powers`` build and the powers build, which the
default tier's warm-up leaves out (docs/performance.md), so the whole module is the slow
tier."""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np
import pytest

from simulator.game import codes as K
from simulator.game.rules import POWER_PRESETS, Rules, flatten
from simulator.experiments.runner import run
from simulator.kernel import pick, signatures
from simulator.kernel.engine import State, pack_rules, policy_table
from simulator.kernel.policy_api import NO_USER_POLICY
from strategies import compiled, resolve_seats, seat_arrays, user_policy
from strategies import lookahead as LA
from strategies.lookahead_powers import lookahead_powers_nb
from test_lookahead import _rescrambled, _wins, assert_same_whatever_threads_and_chunks
from tiers import slow

pytestmark = slow
CABO = Rules.preset("power_cabo")
EXAMPLE = Path(__file__).resolve().parents[1] / "strategies" / "examples" / "greedy_policy.py"
PABLO = Rules.preset("power_pablo")


def _table(ids):
    return compiled.table(ids, None, True)


@pytest.mark.parametrize("rules", [CABO, PABLO], ids=["power_cabo", "power_pablo"])
def test_plays_holes_with_every_card_in_place(rules):
    """Whole holes on the powers build, conservation checked after every turn of the hole
    (check=True) and of every rollout (aux[AUX_CHECK]), rollouts to the hole's end and
    stopped after a lap; no rollout fails."""
    players = 4
    seats = ["lookahead:budget=2", "greedy", "lookahead:budget=2,width=2,laps=1",
             "knock-threshold"]
    ids, params = seat_arrays(resolve_seats(seats, players))
    arrays = flatten(rules, players)
    rt, par, table = pack_rules(arrays), policy_table(ids, params), _table(ids)
    st = State(players, 8192)
    st.aux[LA.AUX_CHECK] = 1
    build = pick.module(pick.build(arrays.ri, ids, "general"))
    decisions = 0
    for i in range(12):
        ok = build.round_nb(3, i, rt, par, *st.arrays(), True, True, NO_USER_POLICY, table,
                            st.aux)
        assert ok and st.out[K.OUT_ERROR] == 0, (i, st.out[K.OUT_ERROR])
        assert st.out[K.OUT_CAPPED] == 0
        decisions += int(st.aux[LA.AUX_STAMP])   # one a decision it rolled out
        st.aux[LA.AUX_STAMP] = 0
    assert st.aux[LA.AUX_FAILED] == 0
    assert decisions > 12 * 4


def test_same_results_whatever_threads_and_chunks():
    assert_same_whatever_threads_and_chunks(
        CABO, ["greedy", "lookahead:budget=2", "knock-threshold", "lookahead:budget=10"], 48, 7)


def test_decisions_ignore_what_the_seat_cannot_see():
    players = 4
    rules = CABO
    arrays = flatten(rules, players)
    rt = pack_rules(arrays)
    # random seats miss their matches and snaps: penalty cards grow the layouts
    seats = ["lookahead:budget=3", "random", "lookahead:budget=3", "random"]
    ids, params = seat_arrays(resolve_seats(seats, players))
    par, table = policy_table(ids, params), _table(ids)
    build = pick.module(pick.build(arrays.ri, ids, "general"))
    st = State(players)
    shuffler = np.random.default_rng(8)
    checked = grown = known_elsewhere = 0
    for round_index in range(200):
        seat = build.prefix_nb(5, round_index, rt, par, st.g, st.rng, st.log, st.tmp,
                               NO_USER_POLICY, table, st.aux, int(shuffler.integers(1, 12)))
        if seat not in (0, 2):
            continue
        build.turn_mask_nb(st.g, rt, seat)
        before = lookahead_powers_nb(K.DP_TURN, seat, -1, st.g.copy(), rt, st.rng.copy(), par,
                                     st.aux.copy())
        for _ in range(2):
            h = _rescrambled(st.g, seat, players, K.MAX_POS, shuffler)
            assert lookahead_powers_nb(K.DP_TURN, seat, -1, h, rt, st.rng.copy(), par,
                                       st.aux.copy()) == before, round_index
        lay = st.g[K.G_LAY:K.G_LAY + players * K.MAX_POS].reshape(players, K.MAX_POS)
        grown += bool((lay[:, rules.n_positions:] < K.EMPTY0).any())
        sees = st.g[K.G_KNOWN + seat * K.MAX_PLAYERS * K.MAX_POS:][:players * K.MAX_POS]
        down = st.g[K.G_UP:K.G_UP + players * K.MAX_POS] == 0
        peeked = np.delete(((sees >= 0) & down).reshape(players, K.MAX_POS), seat, axis=0)
        known_elsewhere += bool(peeked.any())
        checked += 1
    # the deals respected peeks at other layouts, and grown ones
    assert checked >= 25 and known_elsewhere >= 10 and grown >= 3, \
        (checked, known_elsewhere, grown)


def test_wins_more_often_than_greedy_in_its_seat():
    """Seat 0 plays lookahead (its default budget), then greedy, against three greedy
    players on the same deals: its win share is higher, by three standard errors of the
    paired difference (measured: 37.6% against 26.3%, +11.4 +- 2.0 points)."""
    rounds = 800
    base = run(CABO, 4, *seat_arrays(resolve_seats(["greedy"], 4)), rounds, seed=31,
               threads=2, per_round=True)
    seats = resolve_seats(["lookahead", "greedy", "greedy", "greedy"], 4)
    look = run(CABO, 4, *seat_arrays(seats), rounds, seed=31, threads=2, per_round=True)
    d = _wins(look.per_round.scores)[:, 0] - _wins(base.per_round.scores)[:, 0]
    se = d.std(ddof=1) / np.sqrt(rounds)
    assert d.mean() > 3 * se, (d.mean(), se)


# every power preset, and the Dutch powers (a Dutch 8's second draw and a 9's exchange are
# decisions it leaves to its model)
RULE_SETS = {preset: Rules.preset(preset) for preset in sorted(POWER_PRESETS)}
RULE_SETS["dutch:six_card"] = Rules.preset("six_card", power_set="dutch")
RULE_SETS["dutch:four_card"] = Rules.preset("four_card", power_set="dutch")


@pytest.mark.parametrize("name", RULE_SETS)
def test_plays_every_power_rule_set(name):
    """Three seats, two of them lookahead: every turn of the hole and of every rollout keeps
    every card in place, and no rollout fails."""
    rules = RULE_SETS[name]
    players = 3
    ids, params = seat_arrays(resolve_seats(["lookahead:budget=2", "random",
                                             "lookahead:budget=2,T=4"], players))
    arrays = flatten(rules, players)
    rt, par, table = pack_rules(arrays), policy_table(ids, params), _table(ids)
    st = State(players, 8192)
    st.aux[LA.AUX_CHECK] = 1
    for i in range(6):
        ok = pick.module(pick.build(arrays.ri, ids, "general")).round_nb(
            8, i, rt, par, *st.arrays(), True, True, NO_USER_POLICY, table, st.aux)
        assert ok and st.out[K.OUT_ERROR] == 0, (i, st.out[K.OUT_ERROR])
    assert st.aux[LA.AUX_FAILED] == 0 and st.aux[LA.AUX_STAMP] > 0


def test_the_rollouts_play_the_runs_own_compiled_turns():
    """One compiled turn loop serves the run and its rollouts (arguments of other types would
    compile play_nb a second time, doubling the powers build's compile), and a user policy's
    seat, which the rollouts' table has no slot for, is modelled as greedy: no rollout
    fails."""
    players = 3
    seats = resolve_seats(["lookahead:budget=2", f"{EXAMPLE}:decide", "greedy"], players)
    ids, params = seat_arrays(seats)
    arrays = flatten(CABO, players)
    rt, par, table = pack_rules(arrays), policy_table(ids, params), _table(ids)
    build = pick.module(pick.build(arrays.ri, ids, "general"))
    assert build is pick.module("powers")
    st = State(players, 8192)
    st.aux[LA.AUX_CHECK] = 1
    for i in range(6):
        ok = build.round_nb(8, i, rt, par, *st.arrays(), True, True, user_policy(seats),
                            table, st.aux)
        assert ok and st.out[K.OUT_ERROR] == 0, (i, st.out[K.OUT_ERROR])
    assert st.aux[LA.AUX_FAILED] == 0 and st.aux[LA.AUX_STAMP] > 0
    # the rollouts call the run's own compiled turns (play_nb), with the run's types
    run_args = (st.g, rt, par, st.rng, (st.log, user_policy(seats), table, st.aux, st.tmp, True))
    assert tuple(numba.typeof(a) for a in run_args) == signatures.PLAY_SIGNATURE.args[:5]
    assert build.play_nb.signatures == [signatures.PLAY_SIGNATURE.args]
