"""greedy's stall rule (docs/policies.md#greedy): at a large table the stock can come to hold
only cards nobody wants, and without the rule greedy never turns its last face-down cards up
(ten_card with 8 players hit the turn cap in 96% of rounds). After the stock's fourth
reshuffle in a face-up game, a drawn card greedy has no place for goes over its lowest
unknown face-down position instead."""

from __future__ import annotations

import numpy as np
import pytest

import simulator.api as golf
from simulator.game import codes as K
from simulator.game import reference as R
from simulator.game.rules import Rules, flatten
from simulator.experiments.runner import play_logged_round
from strategies.reference import KnockThresholdPolicy, policy_maker
from test_reference_parity import assert_parity


@pytest.mark.parametrize("preset", ["ten_card", "nine_card"])
def test_greedy_finishes_holes_at_a_table_of_eight(preset):
    rules = Rules.preset(preset)
    arrays = flatten(rules, 8)
    capped = stalled = 0
    for i in range(150):
        res = play_logged_round(arrays, [K.POLICY_GREEDY] * 8, np.zeros((8, 1)), 3, i)
        assert res["error"] == 0
        capped += res["capped"]
        stalled += res["reshuffles"] >= K.GREEDY_STALL_RESHUFFLES
    assert capped <= 1          # under 1% (it was 96% for ten_card)
    assert stalled >= 30        # the rule was needed, and used


def test_the_stall_rule_plays_identically_in_both_engines():
    assert_parity(Rules.preset("ten_card"), 8, ["greedy"], 11, 25)


def test_the_rule_waits_for_the_second_reshuffle_and_is_greedys_own():
    """Before the fourth reshuffle greedy discards what it cannot place, as W1 defines it;
    knock-threshold never uses the rule."""
    rules = Rules.preset("ten_card")
    placed_blind = 0
    for i in range(10):
        hole = R.Hole(rules, 8, [policy_maker("greedy")], 5, i)
        seen = []
        ask = hole.ask

        def asking(seat, decision, legal, held=None, hole=hole, seen=seen, ask=ask):
            before = (hole.state.reshuffles, hole.state.observe(seat, decision, legal, held))
            choice = ask(seat, decision, legal, held)
            if decision == K.DP_PLACE_DRAWN:
                seen.append((before[0], choice, before[1]))
            return choice

        hole.ask = asking
        hole.play()
        for reshuffles, choice, obs in seen:
            policy = hole.policies[obs.seat]
            best = policy.best_placement(obs, obs.held, policy.pool(obs, obs.held))
            if best is None and choice != K.A_DISCARD:
                assert reshuffles >= K.GREEDY_STALL_RESHUFFLES
                assert obs.own[choice] is None
                placed_blind += 1
    assert placed_blind > 20
    kt = KnockThresholdPolicy(rules, R.CardTable(rules, 8), 0, None)
    obs = R.Observation(0, K.DP_PLACE_DRAWN, (0, K.A_DISCARD), 5, (None,) * 10, (0,),
                        ((None,) * 10,) * 8, (), 0, 300, None, 5)
    assert not kt.stalled(obs)


@pytest.mark.slow   # the powers build (tests/conftest.py SLOW_BUILDS)
@pytest.mark.parametrize("preset", ["power_cactus", "power_cumbia"])
@pytest.mark.parametrize("strategy", ["guide", "opponent-aware", "heuristic", "ev"])
def test_every_built_in_table_ends_the_call_games(preset, strategy):
    """Games only a call ends: a table of a built-in whose own rule never calls (the guide's
    default tables, opponent-aware) played every hole to the turn cap; greedy's stall rule
    now calls for them."""
    res = golf.run(preset, strategy=strategy, rounds=200, seed=1, progress=False)
    assert res.summary["capped_share"].max() < 0.01
