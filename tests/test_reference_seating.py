"""Seating the reference engine: a hole of simulator/game seats policy makers, the built-in
strategies are strategies/reference's, seated by name by strategies/reference/referee.py."""

from __future__ import annotations

import pytest

from simulator.game import referee as game_referee
from simulator.game import reference as R
from simulator.game.rules import Rules
from strategies.reference import GreedyPolicy, KnockThresholdPolicy, RandomPolicy, policy_maker
from strategies.reference import referee


def test_a_hole_refuses_a_strategy_name_and_says_what_it_seats():
    with pytest.raises(TypeError, match="policy makers.*strategies.reference.referee"):
        R.Hole(Rules.preset("six_card"), 2, ["greedy"], 1, 0)


@pytest.mark.parametrize("spec, cls", [("random", RandomPolicy), ("greedy", GreedyPolicy),
                                       ("knock-threshold:T=5", KnockThresholdPolicy)])
def test_a_maker_makes_its_strategy_and_the_power_rule_only_in_the_power_games(spec, cls):
    for preset, power in (("six_card", False), ("power_cabo", True)):
        hole = referee.make_hole(Rules.preset(preset), 2, [spec], 3, 0)
        assert all(type(p) is cls for p in hole.policies)
        has_rule = [getattr(p, "power_rule", None) is not None for p in hole.policies]
        assert has_rule == [power and cls is not RandomPolicy] * 2


def test_seating_by_name_plays_the_hole_the_makers_play():
    for preset in ("four_card", "power_pablo"):
        rules = Rules.preset(preset)
        specs = ["greedy", "knock-threshold:T=9", "random"]
        by_name = referee.play_round(rules, 3, specs, 7, 2)
        by_maker = game_referee.play_round(rules, 3, [policy_maker(s) for s in specs], 7, 2)
        assert by_name.log == by_maker.log and by_name.scores == by_maker.scores
        assert len(by_name.log) > 0
