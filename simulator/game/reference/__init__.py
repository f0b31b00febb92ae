"""The plain-Python reference engine: the readable truth that the compiled kernel must match.

Everything a hole needs is here in small, plain methods, without compiled code or arrays: a
:class:`GameState` with one :class:`Cell` per layout position (its card, whether it is face up,
and which seats know it), the piles, the turn structure (including the knock of
docs/rules.md#ending-a-hole, instead of a turn or right after it, ``knock_timing``) and the scoring of docs/rules.md#scoring-a-hole with every pair scope of
docs/rules.md#how-a-layout-is-scored, written again from the text rather than shared with
:mod:`simulator.kernel.scoring`. The rules reference is docs/rules.md.

The reference reproduces the compiled engine (:mod:`simulator.kernel.engine`) move for move:

* the same random streams (:class:`simulator.game.streams.PyStream`): the deal and any reshuffle draw
  from ``STREAM_DEAL`` of (seed, round), seat ``s`` draws its random choices from
  ``STREAM_SEAT0 + s``;
* the same deck order (decks in turn, each ``52 + jokers`` ids in id order), shuffled by
  Fisher-Yates from the top, with the stock's top at the end of the list;
* the same decision points and the same legal actions in the same (ascending) order, and a
  move log with the kernel's rows ``(turn, seat, decision point, action, held card)``.

Options of the deal, turns and ending beyond the base game, each in one place: ``knock_min_laps``
(:meth:`Hole.turn_options`), ``reveal_on_trigger`` (:meth:`GameState.start_end`),
``owner_view = all`` (:meth:`GameState.deal`), ``initial_reveal.mode = flip_on_first_turn`` with
constraint ``any`` or ``whole_column`` (:meth:`Hole.first_turn_reveal`), and ``layout_mode =
hand`` (:func:`score_layout`; a hand pairs with scope ``anywhere`` or ``none`` only, so nothing
else depends on where a card lies), ``pay_to_peek`` (:meth:`Hole.pay_to_peek`, AMB-16) and
``jack_discard_skips_next`` (:meth:`GameState.put_on_discard` marks the next seat,
:meth:`Hole.play_turns` skips it, AMB-19).

A policy never sees the GameState: at each decision it is handed an :class:`Observation` built
from scratch with only what its seat may see (its own known cards, the face-up cards of every
layout, the discard pile, the stock count and the card it holds). The policies that play it
are strategies/reference's: ``random``, and ``greedy`` and ``knock-threshold`` of the workloads
W1 and W2 (docs/benchmarks.md), each made for its seat by a policy maker (:class:`Hole`).

The modules, by concern: :mod:`.decisions` (what a policy is asked and answers),
:mod:`.card_table` (card values and keys), :mod:`.layout_scoring` and :mod:`.hole_scoring`,
:mod:`.state` (the cards of a hole and what a seat sees), :mod:`.hole` (the referee of one
hole) and :mod:`.match` (match play). Everything is importable from here.

Where the rules leave a choice open, the engine's choice is followed and named in a comment
(the AMB ids of docs/rules.md#ambiguities-resolved).
Rules the kernel once got wrong and that the parity tests now pin down:

* ``stock_empty = end_hole``: the hole ends when the stock runs out (docs/rules.md#stock_empty);
* ``block_2x2_value`` also scores with ``pair_scope = none`` (step (e) of
  docs/rules.md#how-a-layout-is-scored);
* free pairing takes the owner's best maximum matching even when pair values differ
  (step (c), e.g. red kings at -1 with ``negative_pairs_keep_value``);
* a player who shoots the moon scores 0, whatever ender or quad adjustment it had
  (docs/rules.md#shoot_the_moon, AMB-30).
"""

from __future__ import annotations

from .card_table import CardTable, card_value, is_empty, is_joker, match_key
from .decisions import NO_CARD, Action, Decision, IllegalActionError, InvariantError
from .hole import Hole, RoundRecord
from .hole_scoring import BLACKJACK, ender_score, hole_scores, twenty_one_zero
from .layout_scoring import LayoutScore, is_wild, layout_value, pair_value, related, score_layout
from .match import MATCH_STRIDE, MatchRecord, hole_winner, play_match, settle_pot
from .state import Cell, GameState, MatchView, Observation, may_replace

__all__ = ["BLACKJACK", "MATCH_STRIDE", "NO_CARD", "Action", "CardTable", "Cell", "Decision",
           "GameState", "Hole", "IllegalActionError", "InvariantError", "LayoutScore",
           "MatchRecord", "Observation", "RoundRecord", "card_value", "ender_score",
           "hole_scores", "hole_winner", "is_empty", "is_joker", "is_wild", "layout_value",
           "match_key", "may_replace", "pair_value", "play_match", "related", "score_layout",
           "settle_pot", "twenty_one_zero"]
