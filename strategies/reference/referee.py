"""Reference holes seated by strategy name: simulator/game/referee.py with each seat's
policy made from its spec (``"greedy"``, ``"knock-threshold:T=12"``, ...)."""

from __future__ import annotations

from simulator.game import referee
from simulator.game.reference import Hole, RoundRecord
from simulator.game.rules import Rules

from . import policy_maker


def make_hole(rules: Rules, players: int, strategies: list[str], seed: int,
              round_index: int) -> Hole:
    """The referee of one hole, its seats playing ``strategies`` (one spec per seat, or one
    for all)."""
    return referee.make_hole(rules, players, [policy_maker(s) for s in strategies], seed,
                             round_index)


def play_round(rules: Rules, players: int, strategies: list[str], seed: int,
               round_index: int) -> RoundRecord:
    """Deal, reveal, play and score one hole with one strategy spec per seat (or one for all)."""
    return make_hole(rules, players, strategies, seed, round_index).play()
