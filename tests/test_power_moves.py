"""Every move a power-card rule set allows is made by the built-in players (docs/policies.md
#power-cards): in a fixed sample of compiled holes of every power preset and of the Dutch
add-on on six_card, the built-in field (greedy, a bold heuristic, knock-threshold, ev) makes
every kind of move tests/move_kinds.py names; and greedy uses every single power, its results
changing when any one is switched off. The slow tier's (the powers build)."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import pytest

from move_kinds import expected_kinds, hole_kinds
from simulator import api
from simulator.game import codes as K
from simulator.game.effects import ranks_with_powers
from simulator.game.rules import POWER_PRESETS, Rules
from strategies import resolve_seats, seat_arrays
from tiers import slow

pytestmark = slow

# the field: the greedy family's shared rule, and heuristic at aggression 1, which counts
# nothing for a Cabo blind match's miss (the only built-in that makes one: it never pays)
FIELD = ["greedy", "heuristic:aggression=1", "knock-threshold", "ev"]
DUTCH = ("six_card", {"power_set": "dutch"})
# (players, seats, holes) of each sample; the Dutch 2's rarest choices (the flip, which its
# peek at an opponent's card comes before, the shuffle, the shield and the 8) come a few times
# in thousands of holes, more often at two seats
SAMPLES = {name: [(4, FIELD, 400)] for name in POWER_PRESETS}
SAMPLES["power_cabo"] = [(4, FIELD, 600)]
SAMPLES["dutch"] = [(4, FIELD, 8000), (2, ["greedy", "knock-threshold"], 2000)]


def rules_of(name: str) -> Rules:
    return Rules.preset(DUTCH[0], **DUTCH[1]) if name == "dutch" else Rules.preset(name)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_built_in_field_makes_every_kind_of_move(name):
    rules = rules_of(name)
    taken: Counter = Counter()
    for players, seats, holes in SAMPLES[name]:
        ids, params = seat_arrays(resolve_seats(seats, players))
        for i in range(holes):
            taken += hole_kinds(rules, players, ids, params, 11, i)
    missing = sorted(expected_kinds(rules, 4) - set(taken))
    assert not missing, f"{name}: never made: {missing}"


def switched_off() -> list[tuple[str, dict, str]]:
    """(preset, one power switched off, what) for every power of every rule set."""
    out = [(preset, {"powers_off": rank}, rank) for preset in POWER_PRESETS
           for rank in ranks_with_powers(Rules.preset(preset).power_set)]
    out.append(("power_cactus", {"power_source": "stock_only"}, "the top discard's power"))
    out += [(DUTCH[0], dict(DUTCH[1], dutch_powers=",".join(c for c in K.DUTCH_POWER_CARDS
                                                            if c != card)), f"Dutch {card}")
            for card in K.DUTCH_POWER_CARDS]
    return out


@lru_cache(maxsize=None)
def greedy_results(preset: str, options: tuple) -> list[dict]:
    """The summary of a greedy table (``options``: (option, value) pairs)."""
    result = api.run(preset, set=[f"{k}={v}" for k, v in options], strategy="greedy",
                     rounds=4000, seed=1, progress=False)
    return next(iter(result.tables.values())).to_dicts()


@pytest.mark.parametrize("preset,options,what", switched_off(),
                         ids=[f"{p}-{w}" for p, _, w in switched_off()])
def test_greedy_uses_every_power(preset, options, what):
    base = DUTCH[1] if preset == DUTCH[0] else {}
    assert greedy_results(preset, tuple(options.items())) != \
        greedy_results(preset, tuple(base.items())), \
        f"{preset}: greedy plays the same with {what} switched off"
