"""The referee of one hole, whichever engine its rules need: the plain reference engine
(simulator/game/reference/) or the power-card games' (simulator/game/powers/), which
extends it. Its seats are policy makers (:class:`simulator.game.reference.Hole`); the
built-in strategies are seated by name by strategies/reference/referee.py."""

from __future__ import annotations

from .powers import PowerHole
from .reference import Hole, RoundRecord
from .rules import Rules, uses_power_engine


def play_round(rules: Rules, players: int, policies: list, seed: int,
               round_index: int) -> RoundRecord:
    """Deal, reveal, play and score one hole with one policy maker per seat (or one for all)."""
    return make_hole(rules, players, policies, seed, round_index).play()


def make_hole(rules: Rules, players: int, policies: list, seed: int,
              round_index: int) -> Hole:
    """The referee of one hole: the power-card engine's when the rules need it."""
    if uses_power_engine(rules):
        return PowerHole(rules, players, policies, seed, round_index)
    return Hole(rules, players, policies, seed, round_index)
