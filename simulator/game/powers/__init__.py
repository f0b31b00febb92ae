"""The power-card games in the reference engine (docs/rules.md#power-card-games: Malaysia,
Pablo, Cumbia, Cabo, Cactus and the Dutch powers table as an add-on), move for move. The
compiled powers build (the "powers" feature of simulator/kernel/features.py) follows this
package, which is therefore written as the specification: every decision below is asked in
exactly this order, with exactly these legal actions (ascending), and every random number
named; the parity tests hold the two to the same moves.

Layouts
-------
A layout is a list of cells, at first the grid's R x C positions (row-major). It shrinks by
*emptying* positions: an emptied position holds the pseudo-card ``EMPTY0 + p`` (face up, known
to all, worth 0, pairing with nothing), as remove_cancelled's do, and offers nothing to any
decision. It grows when a card is *added* (a penalty card, a failed Pablo multi-replace, the
Dutch ace's gift): the card goes to the lowest empty position, else to a new position appended
after the last one. At codes.MAX_POS = 16 positions with none empty a layout is *full*: a card
that would be added is not drawn (it stays on the stock), or, for Pablo's held card, is
discarded. Positions beyond the grid are scored without pairs (their values added to the
grid's layout value) and belong to no row or column.

What everyone knows (Cell.known_to, Cell.peeked_by)
---------------------------------------------------
Knowledge moves with the card: a blind swap or move between positions or layouts is public,
so whoever knew a card knows its new place. A peek adds the peeker; every seat sees *which*
position was peeked (docs/rules.md#power-card-games), kept as the card's ``peeked_by`` (the
initial peeks too), which moves with it. A card shown (nominated in a turn match, a snapped card that does not
match) becomes known to all and goes back face down. A shuffle makes every shuffled card
unknown to everyone, its owner included, and clears their peek records; face-up cards are
not shuffled. A card put into a layout is known to the seat that put it there (and to all when
it came from the discard pile, or face up); penalty cards and the Dutch ace's gift are known
to nobody. :attr:`PowerState.events` logs each of these facts for tests to replay.

Random numbers
--------------
All from the hole's deal stream (``STREAM_DEAL``), in the order the moves happen: the deal and
reshuffles as in the plain game, and a shuffle (Malaysia joker, Dutch 3) of the opponent's
face-down positions p1 < p2 < ... by Fisher-Yates from the top (``PyStream.shuffle`` on the
list of their cards in position order; the i-th card of the result goes to p_i). A seat's own
random choices come from its seat stream, as in the plain game. Penalty cards and gifts are
the top stock cards; when the stock is empty they are reshuffled for (stock_empty =
reshuffle_keep_top), or not drawn (end_hole, which also ends the hole by stock_exhausted).

A turn (seat s)
---------------
0. s's shield (Dutch 5) ends. DP_TURN: DRAW_STOCK; TAKE_DISCARD (not when the top discard is a
   power card and power_card_placeable = false, AMB-43); KNOCK (the call: end trigger knock or
   call, knock_timing instead_of_turn / any_time_in_turn); FLIP / FLIP_ALL / PEEK as in the
   plain game; DISCARD_POWER (power_source = stock_or_unused_discard: the top discard has an
   effect whose power nobody used and which has a target now).
1. DRAW_STOCK, then DP_PLACE_DRAWN (held: the card, Observation.power: its effect): the
   replaceable positions (not when it is a power card and power_card_placeable = false);
   DISCARD (stock_draw_may_be_discarded, or when nothing else is legal); POWER (the card has an
   effect in power_set with a target now); MATCH (turn_match_mode: Pablo with two or more own
   cards; Cabo with any card on the table). TAKE_DISCARD, then DP_PLACE_TAKEN: the replaceable
   positions and MATCH (either pile may start a match, AMB-44a). A position places the card as
   in the plain game (placement_face), the card there going to the discard pile; DISCARD puts
   it on the discard pile (then flip_after_stock_discard as in the plain game).
2. POWER resolves the effect (below), then the card goes to the discard pile with its power
   used (the Dutch 8 and 9 dispose of it themselves).
3. MATCH: Pablo: DP_NOMINATE (own non-empty positions not nominated; PASS once two are): the
   nominated cards are shown to all. All of one key: each is discarded in nomination order and
   the held card goes to the first nominated position (face up only with placement_face =
   up). Otherwise they stay,
   face down, known to all, and the held card is added to the layout (no discard). Cabo:
   DP_TARGET_SEAT (seats with a card not nominated; PASS once one is), then DP_NOMINATE (that
   seat's positions not nominated), until PASS; all are shown; the ones of the held card's key
   are discarded in nomination order; then for each of those taken from an opponent, in
   nomination order, DP_TARGET_POS (power CTX_GIVE: own non-empty positions) moves an own
   card blind into the emptied position; then each card that did not match costs
   match_fail_penalty_cards penalty cards; the held card goes on top of the discard pile.
4. DISCARD_POWER (Cactus): the top discard is picked up (public), its effect resolved, and it
   goes back on top with its power used; the turn does nothing else (no snap: the top did not
   change).
5. If an end trigger empty_layout (a layout with no card left; the first such seat from s on
   becomes the ender unless someone called) or stock_exhausted (the last stock card was taken)
   fired, the hole ends now: no snap, no call, no final turns (AMB-44c).
6. Snap (snap_mode, when this turn put a new card on top of the discard pile): seats s+1, s+2,
   ..., s are asked DP_SNAP (SNAP or PASS) in turn, each once, while no snap has hit; a seat
   with nothing to snap is not asked. SNAP: Cumbia DP_TARGET_SEAT (seats with a card), then
   DP_TARGET_POS (power CTX_SNAP; blind). A card of the top's key is discarded on top (Cumbia,
   from an opponent: DP_TARGET_POS, CTX_GIVE, moves one of the snapper's cards blind into the
   emptied position) and the window closes. Any other card is shown to all and goes back;
   Cumbia, from an opponent: snap_penalty_opponent_miss points; Cactus: snap_penalty_cards
   penalty cards. Step 5 is checked again.
7. DP_KNOCK (knock_timing end_of_own_turn / any_time_in_turn), as in the plain game: the call.

Effects (Observation.power while a target is asked; opponents shielded by a Dutch 5 are never
offered; a seat is offered only when it has a position the effect can use)
---------------------------------------------------------------------------------------------
PEEK_OWN       DP_TARGET_POS: own face-down positions; peek.
PEEK_OPP       DP_TARGET_SEAT: opponents; DP_TARGET_POS: their face-down positions; peek.
PEEK_ANY       as PEEK_OPP with the seat itself offered too.
SWAP_OWN_OPP_BLIND   DP_TARGET_SEAT opponent, DP_TARGET_POS its card, DP_TARGET_POS own card;
               the two cells swap (card, face, knowledge).
SWAP_AFTER_PEEK_OPP  (Pablo 7) the same with a peek at the opponent's card before the own card
               is chosen.
SWAP_ANY_TWO   DP_TARGET_SEAT, DP_TARGET_POS, DP_TARGET_SEAT, DP_TARGET_POS (another card).
PEEK_BOTH_SWAP (Cumbia J) DP_TARGET_POS own card (peek), DP_TARGET_SEAT opponent,
               DP_TARGET_POS (peek), DP_SWAP: SWAP or PASS.
SHUFFLE_OPP    DP_TARGET_SEAT opponent with a face-down card; its face-down cards are shuffled.
FLIP_OPP       (Dutch 4) DP_TARGET_SEAT, DP_TARGET_POS face-down; turned face up. A black king
               turned up this way cancels a running final lap when the Dutch K is enabled.
SWAP_LINE      (Dutch 7; grids, not hands) DP_TARGET_SEAT opponent; DP_TARGET_POS names a line:
               rows 0..R-1, then columns R..R+C-1; the seat's cells of that line swap with the
               opponent's cells at the same positions.
DRAW_TWO       (Dutch 8) the 8 is discarded (used); up to two stock cards are drawn; with two,
               DP_KEEP (0 or 1, Observation.choices: the two in drawing order) keeps one and
               the other is discarded at once; the kept card is held as a stock card without
               power: DP_PLACE_DRAWN (power POW_DRAW_TWO; positions unless it is a power card
               and power_card_placeable = false, DISCARD, MATCH).
SHIELD         (Dutch 5) no power targets the seat until the start of its next turn.
GIVE_OR_REMOVE (Dutch A) DP_TARGET_SEAT: an opponent (the top stock card is added to its
               layout, unseen, when the stock can be drawn and the layout is not full) or the
               seat itself (DP_TARGET_POS: that own card goes face up to the discard pile, its
               position emptied).
CANCEL_FINAL   (Dutch black king) offered (POWER, the player's choice) only while a final lap
               runs: the ender loses that status, play resumes and the hole may be ended
               again, by the canceller too (its DP_KNOCK follows).
COMBINE        (Dutch 2) up to twice, DP_CHOOSE_POWER: the rank index of an enabled Dutch
               power from K down to 3 not chosen yet and with a target now, or PASS; each is
               resolved at once; the 8 and 9 (which dispose of the 2) end the combination.
EXCHANGE_THIS  (Dutch 9) DP_TARGET_SEAT opponent, DP_TARGET_POS its card: the 9 takes that
               card's place (and face; known to the seat), the card comes to the seat's hand
               and is placed like a taken discard, DP_PLACE_TAKEN (power POW_EXCHANGE_THIS;
               positions only; face up with placement_face = up or over a face-up card),
               known to the seat and to whoever knew it.

Ending: the call is the knock (start_end, knocked = True) with each other player's final turn
(final_turns; a final lap counts the turns after the one that started it, whichever trigger
started it); the ender's scoring (ender_penalty / ender_bonus / ender_tie) and
non_caller_rule are applied by :func:`simulator.game.reference.hole_scores`, and in a match
with the call trigger the next first player (first_player = previous_hole_winner) is the
lowest layout value, the caller losing ties (:func:`simulator.game.reference.hole_winner`).
Scores are layout values (:func:`layout_value_grown`) plus the points incurred in the hole
(Cumbia's missed snaps, pay_to_peek), as in the plain game.

The modules, by concern: :mod:`.state` (the cards and what each seat knows), :mod:`.hole` (the
turn), :mod:`.effects` (targets and effects), :mod:`.matches` (turn matches and snaps). The
built-in policies' answers at these decisions are strategies/reference/powers.py's.
"""

from __future__ import annotations

from .hole import PowerHole
from .state import PowerCell, PowerState, layout_value_grown

__all__ = ["PowerCell", "PowerHole", "PowerState", "layout_value_grown"]
