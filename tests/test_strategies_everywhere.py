"""Every built-in strategy plays every game the engine plays: rounds of each preset and of
randomly drawn rule sets, with the kernel checking card conservation after every turn, end
without an illegal action and within the turn cap."""

from __future__ import annotations

import pytest

from simulator.experiments.runner import play_logged_round
from simulator.game.rules import Rules, flatten
from strategies import STRATEGIES, resolve_seats, seat_arrays
from test_random_rules import COMPILED_PRESETS, draw_rule_sets
from tiers import sweep

NEW = [name for name in STRATEGIES if name not in ("random", "greedy", "knock-threshold")]
RULE_SETS = [(p, {}, Rules.preset(p), 4 if Rules.preset(p).players_max >= 4 else 2)
             for p in COMPILED_PRESETS] + draw_rule_sets(120, seed=7)


# lookahead (the slowest by far) only in the slow tier; test_lookahead.py covers it by default
@pytest.mark.parametrize("name", sweep(NEW, keep=set(NEW) - {"lookahead"}))
def test_plays_every_rule_set(name):
    for case, (preset, overrides, rules, players) in enumerate(RULE_SETS):
        arrays = flatten(rules, players)
        # the strategy in every seat, then alone among greedy seats
        for specs in ([name], [name] + ["greedy"] * (players - 1)):
            ids, params = seat_arrays(resolve_seats(specs, players))
            for rnd in range(2):
                res = play_logged_round(arrays, ids, params, 40 + case, rnd, check=True)
                assert res["error"] == 0, (name, preset, overrides, players, rnd)
                assert res["turns"] <= rules.turn_cap
