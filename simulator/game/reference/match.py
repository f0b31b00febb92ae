"""Match play in the reference engine (docs/rules.md#matches, docs/rules.md#match-play)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .. import cards as C
from ..rules import Rules
from ..streams import STREAM_DEALER, STREAM_TIEBREAK, PyStream
from .card_table import is_joker
from .state import MatchView


MATCH_STRIDE = 1000   # hole h of match m is round m * MATCH_STRIDE + h (tally.MAX_MATCH_HOLES)


@dataclass
class MatchRecord:
    totals: list[int]             # per physical seat
    wins: list[Fraction]          # per seat: its share of the match win
    pot_balances: list[int]       # per seat: pot winnings less antes and payments
    holes: int


def settle_pot(rules: Rules, pot: int, layout_values: list[int], ender: int,
               knocked: bool) -> tuple[int, int]:
    """(the ender's gain, the pot after): the ender takes the pot when its layout value is
    the lowest, else pays in as much as the pot holds, each at most ``pot_cap``; a tie follows
    ender_tie, neutral moving nothing (AMB-38)."""
    if ender < 0 or (rules.ender_rule_applies_to == "knock_only" and not knocked):
        return 0, pot
    s = layout_values[ender]
    m = min(v for q, v in enumerate(layout_values) if q != ender)
    if s == m:
        if rules.ender_tie == "neutral":
            return 0, pot
        lowest = rules.ender_tie == "counts_as_lowest"
    else:
        lowest = s < m
    amount = pot if rules.pot_cap is None else min(pot, rules.pot_cap)
    return (amount, pot - amount) if lowest else (-amount, pot + amount)


def play_match(rules: Rules, players: int, seed: int, match: int, holes: int, target: int,
               play_hole, views: bool = False) -> MatchRecord:
    """One match, its holes played by ``play_hole(order, round_index)`` (``order[i]``: the
    physical seat in turn position i) returning a RoundRecord-like mapping with ``scores``,
    ``layout_values``, ``ender``, ``knocked`` and ``layouts`` in turn order. With ``views``
    it is given the MatchView its seats see too: ``play_hole(order, round_index, view)``."""
    first = PyStream(seed, match, STREAM_DEALER).below(players) \
        if rules.dealer_selection == "random" else 0
    totals = [0] * players
    balance = [0] * players
    pot = 0
    h = 0
    while True:
        if rules.pot_enabled and pot == 0:
            balance = [b - rules.pot_ante for b in balance]
            pot = rules.pot_ante * players
        order = [(first + i) % players for i in range(players)]
        view = MatchView(h, holes, target, tuple(totals[s] for s in order))
        r = play_hole(order, match * MATCH_STRIDE + h, *((view,) if views else ()))
        scores = list(r["scores"])
        if rules.pot_enabled:
            gain, pot = settle_pot(rules, pot, list(r["layout_values"]), r["ender"],
                                   bool(r["knocked"]))
            if r["ender"] >= 0:
                balance[order[r["ender"]]] += gain
        for i, seat in enumerate(order):
            totals[seat] += scores[i]
        h += 1
        if rules.four_of_kind_wins_match:
            four = [i for i in range(players) if _has_four_of_a_kind(r["layouts"][i])]
            if four:
                low = min(scores[i] for i in four)
                winners = [order[i] for i in four if scores[i] == low]
                wins = [Fraction(int(s in winners), len(winners)) for s in range(players)]
                return MatchRecord(totals, wins, balance, h)
        if rules.first_player == "previous_hole_winner":
            first = order[hole_winner(rules, r, scores)]
        else:
            first = (first + 1) % players
        done = (max(totals) >= target or h >= MATCH_STRIDE) if target > 0 else h >= holes
        if done and rules.match_tie == "extra_holes" and h < MATCH_STRIDE and \
                totals.count(min(totals)) > 1:
            done = False
        if done:
            break
    best = [s for s in range(players) if totals[s] == min(totals)]
    if rules.match_tie == "tiebreak" and len(best) > 1:
        best = [best[PyStream(seed, match, STREAM_TIEBREAK).below(len(best))]]
    wins = [Fraction(int(s in best), len(best)) for s in range(players)]
    return MatchRecord(totals, wins, balance, h)


def hole_winner(rules: Rules, r, scores: list[int]) -> int:
    """The turn position of a hole's winner, who plays first in the next hole with
    first_player = previous_hole_winner: the lowest hole score, the earliest in turn order on a
    tie. With the call trigger (Cactus) the winner has the lowest layout value and the caller
    loses ties; opponents tied for lowest are decided by the earliest in turn order (the rules
    cut the cards)."""
    if "call" not in rules.end_triggers:
        return scores.index(min(scores))
    values = list(r["layout_values"])
    low = min(values)
    tied = [i for i, v in enumerate(values) if v == low]
    if len(tied) > 1 and r["ender"] in tied:
        tied.remove(r["ender"])
    return tied[0]


def _has_four_of_a_kind(cards) -> bool:
    ranks = [C.rank_of(int(c)) for c in cards if not is_joker(int(c))]
    return any(ranks.count(x) >= 4 for x in set(ranks))
