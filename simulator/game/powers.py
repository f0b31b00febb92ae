"""The power-card games in the reference engine (docs/rules.md#power-card-games: Malaysia,
Pablo, Cumbia, Cabo, Cactus and the Dutch powers table as an add-on), move for move. The
compiled powers build (the "powers" feature of simulator/kernel/features.py) follows this
module, which is therefore written as the specification: every decision below is asked in
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
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial

from . import cards as C
from . import codes as K
from .reference import (Action, Cell, Decision, GameState, GreedyPolicy, Hole, InvariantError,
                        KnockThresholdPolicy, Observation, RoundRecord, hole_scores, is_empty,
                        may_replace, score_layout, twenty_one_zero)
from .rules import Rules
from .streams import STREAM_DEAL, PyStream

from .effects import COMBINABLE, DUTCH_EFFECTS, effect_of, is_black_king


# ================================================================================================
# State
# ================================================================================================
@dataclass
class PowerCell(Cell):
    peeked_by: set[int] = field(default_factory=set)   # seats seen peeking at this card


class PowerState(GameState):
    """The plain game's state with layouts that shrink and grow, shields, the top discard's
    unused power, a public record of peeks, and a log of who saw what (:attr:`events`)."""

    def __init__(self, rules: Rules, players: int, deal_stream: PyStream):
        super().__init__(rules, players, deal_stream)
        self.shielded = [False] * players
        self.top_power_unused = False   # the top discard's power was not used
        self.top_new = False            # this turn put a new card on the discard pile
        self.over = False               # empty_layout / stock_exhausted: ends after the action
        self.end_turn = -1              # the turn in which the end was triggered
        self.pub_power = K.POW_NONE     # PUB_POWER and PUB_TARGET_SEAT of the next decision
        self.pub_target = -1
        self.pub_choices: tuple = ()
        self.drawn_pair: list[int] = []  # Dutch 8: the two cards drawn until one is kept
        # (kind, ...) facts of knowledge, replayed by tests: ("put", seat, p, card, face_up,
        # seen_by), ("empty", seat, p), ("see", observer, seat, p), ("show", seat, p),
        # ("up", seat, p), ("swap", s1, p1, s2, p2), ("move", s1, p1, s2, p2),
        # ("shuffle", seat, positions, cards)
        self.events: list[tuple] = []

    # ---- setup ----------------------------------------------------------------------------
    def deal(self) -> None:
        super().deal()
        self.layouts = [[PowerCell(c.card, c.face_up, set(c.known_to)) for c in row]
                        for row in self.layouts]
        for seat, row in enumerate(self.layouts):
            for p, cell in enumerate(row):
                self.events.append(("put", seat, p, cell.card, False, frozenset(cell.known_to)))
        self.top_power_unused = bool(self.discard)

    # ---- what is where ----------------------------------------------------------------------
    def cards_at(self, seat: int) -> list[int]:
        """Non-empty positions of the seat."""
        return [p for p, cell in enumerate(self.layouts[seat]) if not is_empty(cell.card)]

    def face_down_positions(self, seat: int) -> list[int]:
        return [p for p, cell in enumerate(self.layouts[seat]) if not cell.face_up]

    def replaceable_positions(self, seat: int) -> list[int]:
        row = self.layouts[seat]
        flags = [cell.face_up for cell in row]
        out = []
        for p, cell in enumerate(row):
            if is_empty(cell.card):
                continue
            if p < self.npos:
                if not may_replace(self.rules, flags[:self.npos], p):
                    continue
            elif cell.face_up and not self.rules.replace_face_up_allowed:
                continue
            out.append(p)
        return out

    def room(self, seat: int) -> int | None:
        """Where a card added to the seat's layout goes: its lowest empty position, else a new
        one; None when the layout is full."""
        row = self.layouts[seat]
        for p, cell in enumerate(row):
            if is_empty(cell.card):
                return p
        return len(row) if len(row) < K.MAX_POS else None

    def observe(self, seat: int, decision: Decision, legal: list[int],
                held: int | None) -> Observation:
        base = super().observe(seat, decision, legal, held)
        known = tuple(tuple(cell.card if seat in cell.known_to else None for cell in row)
                      for row in self.layouts)
        peeked = tuple(tuple(frozenset(cell.peeked_by) for cell in row) for row in self.layouts)
        return replace(base, power_game=True, power=self.pub_power,
                       target_seat=self.pub_target, known=known, shielded=tuple(self.shielded),
                       top_power_unused=self.top_power_unused and bool(self.discard),
                       choices=self.pub_choices, peeked=peeked)

    # ---- card movements, each logged ------------------------------------------------------
    def put(self, seat: int, p: int, card: int, face_up: bool, seen_by: set[int]) -> None:
        """Card ``card`` goes to (seat, p) (a new position when p is one past the end)."""
        row = self.layouts[seat]
        if p == len(row):
            row.append(PowerCell(card))
        cell = row[p]
        cell.card = card
        cell.face_up = face_up
        cell.known_to = set(range(self.players)) if face_up else set(seen_by)
        cell.peeked_by = set()
        self.events.append(("put", seat, p, card, face_up, frozenset(cell.known_to)))

    def take(self, seat: int, p: int) -> int:
        """The card at (seat, p) leaves the layout; the position is left empty."""
        cell = self.layouts[seat][p]
        card = cell.card
        cell.card = K.EMPTY0 + p
        cell.face_up = True
        cell.known_to = set(range(self.players))
        cell.peeked_by = set()
        self.events.append(("empty", seat, p))
        return card

    def peek(self, seat: int, p: int, observer: int | None = None) -> None:
        """``observer`` (default: the owner) looks at (seat, p); everyone sees it happen."""
        observer = seat if observer is None else observer
        cell = self.layouts[seat][p]
        cell.known_to.add(observer)
        cell.peeked_by.add(observer)
        self.events.append(("see", observer, seat, p))

    def show(self, seat: int, p: int) -> None:
        """The card is shown to everyone and goes back as it was."""
        self.layouts[seat][p].known_to = set(range(self.players))
        self.events.append(("show", seat, p))

    def turn_up(self, seat: int, p: int) -> None:
        super().turn_up(seat, p)
        self.events.append(("up", seat, p))

    def swap(self, s1: int, p1: int, s2: int, p2: int) -> None:
        """Two cells exchange their cards, faces, knowledge and peek records (a public move)."""
        a, b = self.layouts[s1][p1], self.layouts[s2][p2]
        for name in ("card", "face_up", "known_to", "peeked_by"):
            x, y = getattr(a, name), getattr(b, name)
            setattr(a, name, y)
            setattr(b, name, x)
        self.events.append(("swap", s1, p1, s2, p2))

    def move(self, s1: int, p1: int, s2: int, p2: int) -> None:
        """The card at (s1, p1) moves blind to the empty (s2, p2); (s1, p1) is left empty."""
        a, b = self.layouts[s1][p1], self.layouts[s2][p2]
        if not is_empty(b.card) or is_empty(a.card):
            raise InvariantError("a move onto a card, or of no card")
        b.card, b.face_up, b.known_to, b.peeked_by = a.card, a.face_up, a.known_to, a.peeked_by
        a.card, a.face_up, a.known_to, a.peeked_by = \
            K.EMPTY0 + p1, True, set(range(self.players)), set()
        self.events.append(("move", s1, p1, s2, p2))

    def shuffle_layout(self, seat: int) -> None:
        """The seat's face-down cards are shuffled among their positions with the deal
        stream; nobody knows them afterwards."""
        row = self.layouts[seat]
        positions = [p for p, cell in enumerate(row) if not cell.face_up]
        cards = [row[p].card for p in positions]
        self.deal_stream.shuffle(cards)
        for p, card in zip(positions, cards):
            row[p].card = card
            row[p].known_to = set()
            row[p].peeked_by = set()
        self.events.append(("shuffle", seat, tuple(positions), tuple(cards)))

    def replace(self, seat: int, p: int, card: int, face_up: bool, public: bool) -> None:
        old = self.layouts[seat][p].card
        self.put(seat, p, card, face_up, set(range(self.players)) if public else {seat})
        self.put_on_discard(seat, old)

    def put_on_discard(self, seat: int, card: int) -> None:
        super().put_on_discard(seat, card)
        self.top_power_unused = True
        self.top_new = True

    def discard_used(self, seat: int, card: int) -> None:
        """A card whose power was just used goes on top of the discard pile, power spent."""
        self.put_on_discard(seat, card)
        self.top_power_unused = False

    def draw_card(self) -> int | None:
        """The top stock card (reshuffling as stock_empty says), or None when there is none;
        marks stock_exhausted when it takes the last card."""
        if not self.can_draw():
            return None
        if not self.stock:
            self.reshuffle()
        card = self.stock.pop()
        self.note_stock()
        return card

    def draw_from_stock(self) -> int:
        card = super().draw_from_stock()
        self.note_stock()
        return card

    def note_stock(self) -> None:
        if "stock_exhausted" in self.rules.end_triggers and not self.stock:
            self.over = True

    def add_penalty_cards(self, seat: int, count: int) -> None:
        """``count`` stock cards are added to the seat's layout face down, unseen; a card that
        has no room, or no stock to come from, is not drawn."""
        for _ in range(count):
            p = self.room(seat)
            if p is None or not self.can_draw():
                return
            self.put(seat, p, self.draw_card(), False, set())

    def start_end(self, seat: int) -> None:
        super().start_end(seat)
        self.end_turn = self.turn

    def cancel_end(self) -> None:
        """The Dutch black king: a running final lap is cancelled."""
        self.ender = None
        self.final_turns_left = None
        self.knocked = False
        self.end_turn = -1

    # ---- invariants -------------------------------------------------------------------------
    def check_invariants(self) -> None:
        # layouts grow up to MAX_POS; the Dutch 8's two cards are held while one is chosen
        self.check_cards(([] if self.held is None else [self.held]) + list(self.drawn_pair),
                         K.MAX_POS)
        if (self.ender is None) != (self.final_turns_left is None):
            raise InvariantError("ender and final turns disagree")
        if self.knocked and self.ender is None:
            raise InvariantError("a call without an ender")
        if self.turn > self.rules.turn_cap:
            raise InvariantError(f"turn {self.turn} beyond the cap {self.rules.turn_cap}")
        if self.rules.pay_to_peek is None and self.rules.snap_penalty_opponent_miss == 0 and \
                any(self.penalty):
            raise InvariantError("penalty points without pay_to_peek or snaps")


# ================================================================================================
# The referee
# ================================================================================================
class PowerHole(Hole):
    """One hole of a power-card game (the module's docstring is its specification)."""

    def __init__(self, rules: Rules, players: int, strategies: list[str], seed: int,
                 round_index: int):
        super().__init__(rules, players, strategies, seed, round_index)
        self.state = PowerState(rules, players, PyStream(seed, round_index, STREAM_DEAL))

    def new_policy(self, spec: str, seat: int, stream: PyStream):
        policy = super().new_policy(spec, seat, stream)
        if isinstance(policy, GreedyPolicy):   # the built-ins' rule at power decisions
            policy.power_rule = partial(decide, policy)
        return policy

    # ---- asking -----------------------------------------------------------------------------
    def ask_about(self, seat: int, decision: Decision, legal: list[int], power: int,
                  target: int = -1, held: int | None = None) -> int:
        st = self.state
        st.pub_power, st.pub_target = power, target
        try:
            return self.ask(seat, decision, legal, held)
        finally:
            st.pub_power, st.pub_target = K.POW_NONE, -1

    def ask_seat(self, seat: int, seats: list[int], power: int) -> int:
        return self.ask_about(seat, Decision.TARGET_SEAT, seats, power)

    def ask_pos(self, seat: int, target: int, positions: list[int], power: int) -> int:
        return self.ask_about(seat, Decision.TARGET_POS, positions, power, target)

    # ---- phases -----------------------------------------------------------------------------
    def play(self) -> RoundRecord:
        st = self.state
        st.deal()
        st.check_invariants()
        self.initial_reveal()
        st.check_invariants()
        self.play_turns()
        return self.score()

    def may_knock(self) -> bool:
        st, r = self.state, self.rules
        return bool({"knock", "call"} & set(r.end_triggers)) and st.ender is None and \
            not st.over and st.turn >= r.knock_min_laps * self.players

    def turn_options(self, seat: int) -> list[int]:
        st, r = self.state, self.rules
        options = super().turn_options(seat)
        if Action.TAKE_DISCARD in options and not r.power_card_placeable and \
                effect_of(r, st.discard[-1]) != K.POW_NONE:
            options.remove(Action.TAKE_DISCARD)
        if r.power_source == "stock_or_unused_discard" and st.discard and st.top_power_unused:
            effect = effect_of(r, st.discard[-1])
            if effect != K.POW_NONE and self.usable(seat, effect):
                options.append(Action.DISCARD_POWER)
        return options

    def play_turns(self) -> None:
        """Turns seat by seat from seat 0, as in the plain game; the hole also ends at once
        when an empty_layout or stock_exhausted trigger fired (``state.over``), and a final
        lap cancelled by a black king stops counting final turns."""
        st = self.state
        seat = 0
        while True:
            if st.skip_next_turn[seat]:
                st.skip_next_turn[seat] = False
                st.shielded[seat] = False
            elif not self.play_turn(seat):
                break
            st.turn += 1
            st.check_invariants()
            if st.over:
                break
            if st.ender is not None and st.end_turn < st.turn - 1:
                st.final_turns_left -= 1          # a final turn was played
            elif st.ender is None:
                self.check_end(seat)
                if st.ender is not None:   # triggered by the turn just played
                    st.end_turn = st.turn - 1
            if st.ender is not None and st.final_turns_left <= 0:
                break
            if self.rules.stock_empty == "end_hole" and not st.stock:
                break
            if st.turn >= self.rules.turn_cap:
                st.capped = True
                break
            seat = (seat + 1) % self.players

    def play_turn(self, seat: int) -> bool:
        st, r = self.state, self.rules
        st.shielded[seat] = False
        st.top_new = False
        action = self.turn_action(seat)
        if action is None:
            return False
        if action == Action.DRAW_STOCK:
            card = st.draw_from_stock()
            self.play_held(seat, card, Decision.PLACE_DRAWN, effect_of(r, card), public=False)
        elif action == Action.TAKE_DISCARD:
            card = st.take_discard()
            self.play_held(seat, card, Decision.PLACE_TAKEN, K.POW_NONE, public=True)
        elif action == Action.DISCARD_POWER:
            self.use_discard_power(seat)
        else:
            self.flip_or_knock(seat, action)
        if self.check_over(seat):
            return True
        self.snap_window(seat)
        if self.check_over(seat):
            return True
        self.knock_after_turn(seat)
        return True

    def check_over(self, seat: int) -> bool:
        """Step 5: empty_layout (the first seat from ``seat`` on with no card left becomes the
        ender unless there is one) or stock_exhausted end the hole now."""
        st = self.state
        if "empty_layout" in self.rules.end_triggers:
            for k in range(self.players):
                s = (seat + k) % self.players
                if not st.cards_at(s):
                    st.over = True
                    if st.ender is None:
                        st.ender = s
                        st.final_turns_left = 0
                        st.end_turn = st.turn
                    break
        return st.over

    # ---- the held card -------------------------------------------------------------------------
    def is_power_card(self, card: int) -> bool:
        return effect_of(self.rules, card) != K.POW_NONE

    def play_held(self, seat: int, card: int, decision: Decision, effect: int,
                  public: bool) -> None:
        """Steps 1-3: the held card is placed, discarded, used for its power or matched."""
        st, r = self.state, self.rules
        legal: list[int] = []
        if r.power_card_placeable or not self.is_power_card(card):
            legal += st.replaceable_positions(seat)
        if decision == Decision.PLACE_DRAWN and r.stock_draw_may_be_discarded:
            legal.append(Action.DISCARD)
        if effect != K.POW_NONE and self.usable(seat, effect):
            legal.append(Action.POWER)
        if self.match_possible(seat):
            legal.append(Action.MATCH)
        if not legal:
            legal.append(Action.DISCARD)
        choice = self.ask_about(seat, decision, legal, effect, held=card)
        if choice == Action.DISCARD:
            st.held = None
            st.put_on_discard(seat, card)
            self.flip_after_discard(seat)
        elif choice == Action.POWER:
            if not self.resolve(seat, effect, card):
                st.held = None
                st.discard_used(seat, card)
        elif choice == Action.MATCH:
            self.turn_match(seat, card, public)
        else:
            self.place(seat, choice, card, public=public or not r.private_stock_draw)

    def use_discard_power(self, seat: int) -> None:
        """Step 4 (Cactus): the top discard's power, then it goes back, spent."""
        st = self.state
        card = st.discard.pop()
        st.held = card
        if not self.resolve(seat, effect_of(self.rules, card), card):
            st.held = None
            st.discard.append(card)   # back where it was: not a new discard, no jack skip
            st.top_power_unused = False
        st.top_new = False

    # ---- targets ----------------------------------------------------------------------------
    def opponents(self, seat: int) -> list[int]:
        """Opponents a power may target: not shielded."""
        st = self.state
        return [s for s in range(self.players) if s != seat and not st.shielded[s]]

    def face_down_cards(self, seat: int) -> list[int]:
        st = self.state
        return [p for p in st.cards_at(seat) if not st.layouts[seat][p].face_up]

    def usable(self, seat: int, effect: int) -> bool:
        """Has the effect a target now (is POWER offered)?"""
        st, r = self.state, self.rules
        opps = self.opponents(seat)
        if effect == K.POW_PEEK_OWN:
            return bool(self.face_down_cards(seat))
        if effect in (K.POW_PEEK_OPP, K.POW_FLIP_OPP, K.POW_SHUFFLE_OPP):
            return any(self.face_down_cards(s) for s in opps)
        if effect == K.POW_PEEK_ANY:
            return any(self.face_down_cards(s) for s in opps + [seat])
        if effect in (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_AFTER_PEEK_OPP,
                      K.POW_PEEK_BOTH_SWAP):
            return bool(st.cards_at(seat)) and any(st.cards_at(s) for s in opps)
        if effect == K.POW_SWAP_ANY_TWO:
            return sum(len(st.cards_at(s)) for s in opps + [seat]) >= 2
        if effect == K.POW_SWAP_LINE:
            return r.layout_mode != "hand" and bool(opps)
        if effect == K.POW_DRAW_TWO:
            return st.can_draw()
        if effect == K.POW_SHIELD:
            return True
        if effect == K.POW_GIVE_OR_REMOVE:
            return bool(self.give_or_remove_seats(seat))
        if effect == K.POW_CANCEL_FINAL:
            return st.ender is not None
        if effect == K.POW_COMBINE:
            return bool(self.combinable(seat, ()))
        if effect == K.POW_EXCHANGE_THIS:
            return bool(st.replaceable_positions(seat)) and any(st.cards_at(s) for s in opps)
        return False

    def give_or_remove_seats(self, seat: int) -> list[int]:
        st = self.state
        seats = [s for s in self.opponents(seat) if st.can_draw() and st.room(s) is not None]
        if st.cards_at(seat):
            seats.append(seat)
        return sorted(seats)

    def combinable(self, seat: int, chosen: tuple) -> list[int]:
        """DP_CHOOSE_POWER's actions: the rank index of each enabled power from the black
        king down to the 3 not chosen yet and usable now."""
        out = []
        for name in COMBINABLE:
            rank = C.RANKS.index(name)
            if name in self.rules.dutch_powers and rank not in chosen and \
                    self.usable(seat, DUTCH_EFFECTS[name]):
                out.append(rank)
        return sorted(out)

    # ---- effects ----------------------------------------------------------------------------
    def resolve(self, seat: int, effect: int, card: int) -> bool:
        """Resolve one effect for ``seat``, holding ``card``; True when the effect disposed of
        the card itself (the Dutch 8 and 9), else the caller discards it, power used."""
        st = self.state
        opps = self.opponents(seat)
        if effect == K.POW_PEEK_OWN:
            p = self.ask_pos(seat, seat, self.face_down_cards(seat), effect)
            st.peek(seat, p, seat)
        elif effect in (K.POW_PEEK_OPP, K.POW_PEEK_ANY):
            seats = [s for s in opps + ([seat] if effect == K.POW_PEEK_ANY else [])
                     if self.face_down_cards(s)]
            s = self.ask_seat(seat, sorted(seats), effect)
            p = self.ask_pos(seat, s, self.face_down_cards(s), effect)
            st.peek(s, p, seat)
        elif effect in (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_AFTER_PEEK_OPP):
            s = self.ask_seat(seat, [x for x in opps if st.cards_at(x)], effect)
            q = self.ask_pos(seat, s, st.cards_at(s), effect)
            if effect == K.POW_SWAP_AFTER_PEEK_OPP:
                st.peek(s, q, seat)
            p = self.ask_pos(seat, seat, st.cards_at(seat), effect)
            st.swap(seat, p, s, q)
        elif effect == K.POW_SWAP_ANY_TWO:
            self._swap_any_two(seat, effect)
        elif effect == K.POW_PEEK_BOTH_SWAP:
            self._peek_both_swap(seat, effect)
        elif effect == K.POW_SHUFFLE_OPP:
            s = self.ask_seat(seat, [x for x in opps if self.face_down_cards(x)], effect)
            st.shuffle_layout(s)
        elif effect == K.POW_FLIP_OPP:
            s = self.ask_seat(seat, [x for x in opps if self.face_down_cards(x)], effect)
            p = self.ask_pos(seat, s, self.face_down_cards(s), effect)
            st.turn_up(s, p)
            if is_black_king(st.layouts[s][p].card) and self.rules.power_set == "dutch" and \
                    "K" in self.rules.dutch_powers and st.ender is not None:
                st.cancel_end()
        elif effect == K.POW_SWAP_LINE:
            s = self.ask_seat(seat, opps, effect)
            rows, cols = self.rules.grid_rows, self.rules.grid_cols
            k = self.ask_pos(seat, s, list(range(rows + cols)), effect)
            cells = [k * cols + c for c in range(cols)] if k < rows else \
                [r * cols + (k - rows) for r in range(rows)]
            for p in cells:
                st.swap(seat, p, s, p)
        elif effect == K.POW_DRAW_TWO:
            st.held = None
            st.discard_used(seat, card)
            self.draw_two(seat)
            return True
        elif effect == K.POW_SHIELD:
            st.shielded[seat] = True
        elif effect == K.POW_GIVE_OR_REMOVE:
            s = self.ask_seat(seat, self.give_or_remove_seats(seat), effect)
            if s == seat:
                p = self.ask_pos(seat, seat, st.cards_at(seat), effect)
                st.put_on_discard(seat, st.take(seat, p))
            else:
                st.put(s, st.room(s), st.draw_card(), False, set())
        elif effect == K.POW_CANCEL_FINAL:
            st.cancel_end()
        elif effect == K.POW_COMBINE:
            return self._combine(seat, card, effect)
        elif effect == K.POW_EXCHANGE_THIS:
            self._exchange_this(seat, card, effect)
            return True
        else:
            raise InvariantError(f"no effect {effect}")
        return False

    def _swap_any_two(self, seat: int, effect: int) -> None:
        """Any two cards of the table (two seats' or one seat's) change places."""
        st = self.state
        seats = sorted(self.opponents(seat) + [seat])
        s1 = self.ask_seat(seat, [x for x in seats if st.cards_at(x)], effect)
        p1 = self.ask_pos(seat, s1, st.cards_at(s1), effect)

        def others(x):
            return [p for p in st.cards_at(x) if (x, p) != (s1, p1)]
        s2 = self.ask_seat(seat, [x for x in seats if others(x)], effect)
        p2 = self.ask_pos(seat, s2, others(s2), effect)
        st.swap(s1, p1, s2, p2)

    def _peek_both_swap(self, seat: int, effect: int) -> None:
        """A look at an own card and an opponent's, then the choice to swap them."""
        st = self.state
        p = self.ask_pos(seat, seat, st.cards_at(seat), effect)
        st.peek(seat, p, seat)
        s = self.ask_seat(seat, [x for x in self.opponents(seat) if st.cards_at(x)], effect)
        q = self.ask_pos(seat, s, st.cards_at(s), effect)
        st.peek(s, q, seat)
        if self.ask_about(seat, Decision.SWAP, [Action.SWAP, Action.PASS], effect) == \
                Action.SWAP:
            st.swap(seat, p, s, q)

    def _combine(self, seat: int, card: int, effect: int) -> bool:
        """The Dutch 2: up to two other powers of the table, one after the other; True when
        one of them disposed of the card."""
        chosen: tuple = ()
        for _ in range(2):
            options = self.combinable(seat, chosen)
            if not options:
                break
            rank = self.ask_about(seat, Decision.CHOOSE_POWER, options + [Action.PASS], effect)
            if rank == Action.PASS:
                break
            chosen += (rank,)
            if self.resolve(seat, DUTCH_EFFECTS[C.RANKS[rank]], card):
                return True
        return False

    def _exchange_this(self, seat: int, card: int, effect: int) -> None:
        """The Dutch 9: the held card for an opponent's, which then goes into the own layout
        (its card there to the discard pile)."""
        st = self.state
        s = self.ask_seat(seat, [x for x in self.opponents(seat) if st.cards_at(x)], effect)
        q = self.ask_pos(seat, s, st.cards_at(s), effect)
        cell = st.layouts[s][q]
        taken, knew, face_up = cell.card, set(cell.known_to) | {seat}, cell.face_up
        st.put(s, q, card, face_up, {seat})
        st.held = taken
        p = self.ask_about(seat, Decision.PLACE_TAKEN, st.replaceable_positions(seat),
                           effect, held=taken)
        old = st.layouts[seat][p].card
        st.held = None
        face = self.rules.placement_face == "up" or st.layouts[seat][p].face_up
        st.put(seat, p, taken, face, knew)
        st.put_on_discard(seat, old)

    def draw_two(self, seat: int) -> None:
        """Dutch 8 after the 8 is discarded: draw up to two, keep one, discard the other."""
        st, r = self.state, self.rules
        drawn: list[int] = []
        for _ in range(2):
            card = st.draw_card()
            if card is not None:
                drawn.append(card)
                st.drawn_pair = list(drawn)
        st.drawn_pair = []
        if not drawn:
            return
        keep = 0
        if len(drawn) == 2:
            st.pub_choices = tuple(drawn)
            st.drawn_pair = list(drawn)
            try:
                keep = self.ask_about(seat, Decision.KEEP, [0, 1], K.POW_DRAW_TWO)
            finally:
                st.pub_choices = ()
                st.drawn_pair = []
            st.put_on_discard(seat, drawn[1 - keep])
        card = drawn[keep]
        st.held = card
        legal = st.replaceable_positions(seat) \
            if r.power_card_placeable or not self.is_power_card(card) else []
        legal.append(Action.DISCARD)
        if self.match_possible(seat):
            legal.append(Action.MATCH)
        choice = self.ask_about(seat, Decision.PLACE_DRAWN, legal, K.POW_DRAW_TWO, held=card)
        if choice == Action.DISCARD:
            st.held = None
            st.put_on_discard(seat, card)
        elif choice == Action.MATCH:
            self.turn_match(seat, card, public=False)
        else:
            self.place(seat, choice, card, public=not r.private_stock_draw)

    # ---- turn matches -----------------------------------------------------------------------
    def match_possible(self, seat: int) -> bool:
        st, mode = self.state, self.rules.turn_match_mode
        if mode == "pablo_multi_replace":
            return len(st.cards_at(seat)) >= 2
        if mode == "cabo_match":
            return any(st.cards_at(s) for s in range(self.players))
        return False

    def turn_match(self, seat: int, card: int, public: bool) -> None:
        """Step 3: Pablo's multi-replace or Cabo's match with the held ``card``."""
        st, r = self.state, self.rules
        seen_by = set(range(self.players)) if public else {seat}
        nominated: list[tuple[int, int]] = []
        if r.turn_match_mode == "pablo_multi_replace":
            while True:
                left = [p for p in st.cards_at(seat) if (seat, p) not in nominated]
                if not left:
                    break
                legal = left + ([Action.PASS] if len(nominated) >= 2 else [])
                a = self.ask_about(seat, Decision.NOMINATE, legal, K.CTX_NOMINATE, seat)
                if a == Action.PASS:
                    break
                nominated.append((seat, a))
            for s, p in nominated:
                st.show(s, p)
            keys = {st.table.key[st.layouts[s][p].card] for s, p in nominated}
            st.held = None
            if len(keys) == 1:
                for s, p in nominated:
                    st.put_on_discard(seat, st.take(s, p))
                face = r.placement_face == "up"
                st.put(seat, nominated[0][1], card, face, seen_by)
            else:
                p = st.room(seat)
                if p is None:
                    st.put_on_discard(seat, card)
                else:
                    st.put(seat, p, card, r.placement_face == "up", seen_by)
            return
        # cabo_match
        while True:
            seats = [s for s in range(self.players)
                     if any((s, p) not in nominated for p in st.cards_at(s))]
            if not seats:
                break
            legal = seats + ([Action.PASS] if nominated else [])
            s = self.ask_about(seat, Decision.TARGET_SEAT, legal, K.CTX_NOMINATE)
            if s == Action.PASS:
                break
            left = [p for p in st.cards_at(s) if (s, p) not in nominated]
            p = self.ask_about(seat, Decision.NOMINATE, left, K.CTX_NOMINATE, s)
            nominated.append((s, p))
        for s, p in nominated:
            st.show(s, p)
        key = st.table.key[card]
        hits = [(s, p) for s, p in nominated if st.table.key[st.layouts[s][p].card] == key]
        misses = len(nominated) - len(hits)
        for s, p in hits:
            st.put_on_discard(seat, st.take(s, p))
        for s, p in hits:
            if s != seat and st.cards_at(seat):
                g = self.ask_pos(seat, seat, st.cards_at(seat), K.CTX_GIVE)
                st.move(seat, g, s, p)
        st.add_penalty_cards(seat, misses * r.match_fail_penalty_cards)
        st.held = None
        st.put_on_discard(seat, card)

    # ---- snaps ------------------------------------------------------------------------------
    def snap_window(self, actor: int) -> None:
        """Step 6."""
        st, r = self.state, self.rules
        if r.snap_mode == "none" or not st.top_new or not st.discard:
            return
        key = st.table.key[st.discard[-1]]
        for k in range(1, self.players + 1):
            s = (actor + k) % self.players
            if r.snap_mode == "cactus":
                seats = [s] if st.cards_at(s) else []
            else:
                seats = [x for x in range(self.players) if st.cards_at(x)]
            if not seats:
                continue
            if self.ask_about(s, Decision.SNAP, [Action.SNAP, Action.PASS], K.CTX_SNAP) == \
                    Action.PASS:
                continue
            t = s if r.snap_mode == "cactus" else self.ask_seat(s, seats, K.CTX_SNAP)
            p = self.ask_pos(s, t, st.cards_at(t), K.CTX_SNAP)
            if st.table.key[st.layouts[t][p].card] == key:
                st.put_on_discard(s, st.take(t, p))
                if t != s and st.cards_at(s):
                    g = self.ask_pos(s, s, st.cards_at(s), K.CTX_GIVE)
                    st.move(s, g, t, p)
                return
            st.show(t, p)
            if r.snap_mode == "cumbia" and t != s:
                st.penalty[s] += r.snap_penalty_opponent_miss
            if r.snap_mode == "cactus":
                st.add_penalty_cards(s, r.snap_penalty_cards)
            if st.over:
                return

    # ---- scoring ----------------------------------------------------------------------------
    def score(self) -> RoundRecord:
        st = self.state
        layouts = [[cell.card for cell in row] for row in st.layouts]
        values = [layout_value_grown(self.rules, st.table.value, cards) for cards in layouts]
        L = twenty_one_zero(self.rules, [v for v, _ in values])
        ender = -1 if st.ender is None else st.ender
        scores = hole_scores(self.rules, L, ender, st.knocked, [c for _, c in values],
                             extra=list(st.penalty))
        known = [[[cell.card if obs in cell.known_to else -1 for cell in row]
                  for row in st.layouts] for obs in range(self.players)]
        return RoundRecord(log=self.log, scores=scores, layout_values=L, layouts=layouts,
                           turns=st.turn, ender=ender, knocked=st.knocked, capped=st.capped,
                           reshuffles=st.reshuffles, known=known)


def layout_value_grown(rules: Rules, value, cards: list[int]) -> tuple[int, int]:
    """(layout value, couples) of a layout that may have grown: the grid's positions scored by
    :func:`simulator.game.reference.score_layout`, every position beyond them adding its value
    (it pairs with nothing)."""
    npos = rules.n_positions
    part = score_layout(rules, cards[:npos])
    return part.value + sum(value[c] for c in cards[npos:]), part.couples


# ================================================================================================
# The built-in policies' power decisions (docs/policies.md#power-cards)
# ================================================================================================


class _View:
    """What a greedy or knock-threshold seat estimates at a power decision: every card it
    knows is its value, every card it does not is the mean of its unseen pool (all kept
    multiplied by n = |U|, exact integers, as the policies do)."""

    def __init__(self, policy, obs: Observation):
        self.obs = obs
        self.policy = policy
        self.rules = policy.rules
        self.table = policy.table
        self.held = obs.held      # the card it holds (the Dutch 2's choices: from the plan)
        self.pool = policy.pool(obs, obs.held)
        self.n = max(self.pool.n, 1)

    def est(self, seat: int, p: int) -> int:
        card = self.obs.known[seat][p]
        if card is None:
            return self.pool.S if self.pool.n else 0
        return self.table.value[card] * self.n

    def cards(self, seat: int) -> list[int]:
        return [p for p, c in enumerate(self.obs.known[seat])
                if not (c is not None and is_empty(c))]

    def unknown(self, seat: int, positions) -> list[int]:
        return [p for p in positions if self.obs.known[seat][p] is None]

    def total(self, seat: int) -> int:
        return sum(self.est(seat, p) for p in self.cards(seat))

    def worst_own(self, positions) -> int:
        """The own position with the highest estimate (ties: the lowest position)."""
        me = self.obs.seat
        return max(positions, key=lambda p: (self.est(me, p), -p))

    def best_of(self, seat: int, positions) -> int:
        """The position with the lowest estimate (ties: the lowest position)."""
        return min(positions, key=lambda p: (self.est(seat, p), p))

    def opponents(self) -> list[int]:
        """Opponents in turn order from the seat, not shielded."""
        me, n = self.obs.seat, len(self.obs.known)
        return [(me + k) % n for k in range(1, n) if not self.obs.shielded[(me + k) % n]]

    def best_opponent_card(self) -> tuple[int, int] | None:
        """(seat, position) of the lowest-estimated opponent card."""
        best = None
        for s in self.opponents():
            for p in self.cards(s):
                if best is None or self.est(s, p) < self.est(*best):
                    best = (s, p)
        return best

    def best_receiver(self, positions, card: int | None) -> tuple[int | None, int]:
        """(p, n * gain): of its own ``positions``, the one where ``card`` (None: a card it
        does not know) would lower its estimate most, in place of the card there (pairs
        counted); ties to the lowest."""
        own = list(self.obs.known[self.obs.seat])
        now = self.policy.estimate(own, self.pool)
        best, best_gain = None, 0
        for p in sorted(positions):
            gain = now - self.policy.estimate(own[:p] + [card] + own[p + 1:], self.pool)
            if best is None or gain > best_gain:
                best, best_gain = p, gain
        return best, best_gain

    def swap_gain(self) -> int:
        """How much a blind swap lowers its estimate (n units; <= 0: no gain): the best
        opponent card into its position where that card gains most."""
        mine = self.cards(self.obs.seat)
        theirs = self.best_opponent_card()
        if not mine or theirs is None:
            return 0
        return self.best_receiver(mine, self.obs.known[theirs[0]][theirs[1]])[1]

    def peek_target(self, include_self: bool) -> tuple[int, int] | None:
        """The first card it does not know: its own (lowest position) when ``include_self``,
        else the opponents' in turn order."""
        obs = self.obs
        seats = ([obs.seat] if include_self else []) + self.opponents()
        for s in seats:
            for p in self.unknown(s, self.cards(s)):
                if obs.face_up[s][p] is None:
                    return s, p
        return None

    def known_matches(self, key: int, seats) -> list[tuple[int, int]]:
        """Cards it knows, in these seats (position order), of the pairing key ``key``."""
        return [(s, p) for s in seats for p in self.cards(s)
                if self.obs.known[s][p] is not None and self.table.key[self.obs.known[s][p]] == key]


def wants_power(view: _View, effect: int) -> bool:
    """Whether the greedy family uses a power it may use (when it does not place the card,
    docs/policies.md#power-cards): peeks when there is a card to learn, swaps when they gain,
    the Cumbia jack, the Dutch 8 and the shield always, the black king when it is not the
    lowest, the ace to remove a card (or else give one), a shuffle, flip, line swap or
    exchange when it has a target worth it, and the 2 when it wants one of its powers."""
    if effect != K.POW_COMBINE:
        return wants_single(view, effect)
    return combine_choice(view, None) is not None


def wants_single(view: _View, effect: int) -> bool:
    """wants_power for every effect but the Dutch 2's."""
    me = view.obs.seat
    if effect == K.POW_PEEK_OWN:
        return view.peek_target(True) is not None and view.peek_target(True)[0] == me
    if effect == K.POW_PEEK_OPP:
        return view.peek_target(False) is not None
    if effect == K.POW_PEEK_ANY:
        return view.peek_target(True) is not None
    if effect in (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_ANY_TWO):
        return view.swap_gain() > 0
    if effect == K.POW_SWAP_AFTER_PEEK_OPP:
        mine = view.cards(me)
        return bool(mine) and view.est(me, view.worst_own(mine)) > view.pool.S
    if effect in (K.POW_PEEK_BOTH_SWAP, K.POW_DRAW_TWO):
        return True
    if effect == K.POW_SHIELD:
        return exposed(view)
    if effect == K.POW_CANCEL_FINAL:
        return behind(view, seat_estimate(view, me))
    if effect == K.POW_GIVE_OR_REMOVE:
        return removal(view)[1] > 0 or giveable(view)
    if effect == K.POW_SHUFFLE_OPP:
        return shuffle_target(view) is not None
    if effect == K.POW_FLIP_OPP:
        return flip_target(view) is not None
    if effect == K.POW_SWAP_LINE:
        return line_target(view)[0] is not None
    if effect == K.POW_EXCHANGE_THIS:
        return exchange_gain(view) > 0
    return False


def combine_gain(view: _View, legal) -> tuple[int | None, int]:
    """(rank, n * gain): of the Dutch 2's powers that move cards (K.GREEDY_COMBINE_GAINS: the
    blind swap, the line swap, the exchange), among ``legal`` (None: the ranks the rules let
    it combine), the one that lowers its estimate most; (None, 0) when none does."""
    best, best_gain = None, 0
    for name in K.GREEDY_COMBINE_GAINS:
        rank = C.RANKS.index(name)
        if rank in legal if legal is not None else name in view.rules.dutch_powers:
            effect = DUTCH_EFFECTS[name]
            gain = view.swap_gain() if effect == K.POW_SWAP_OWN_OPP_BLIND else \
                line_target(view)[1] if effect == K.POW_SWAP_LINE else exchange_gain(view)
            if gain > best_gain:
                best, best_gain = rank, gain
    return best, best_gain


def combine_choice(view: _View, legal) -> int | None:
    """The Dutch 2's next power, among ``legal`` (None: the ranks the rules let it combine):
    the black king when it wants it, else the power that moves cards with the largest gain,
    else the first of K.GREEDY_COMBINE_ORDER it wants."""
    def ok(name):
        return C.RANKS.index(name) in legal if legal is not None else \
            name in view.rules.dutch_powers
    if ok("K") and wants_single(view, K.POW_CANCEL_FINAL):
        return C.RANKS.index("K")
    rank = combine_gain(view, legal)[0]
    if rank is not None:
        return rank
    for name in K.GREEDY_COMBINE_ORDER:
        if ok(name) and wants_single(view, DUTCH_EFFECTS[name]):
            return C.RANKS.index(name)
    return None


# ---- what a layout is worth to the seat -------------------------------------------------------
def seat_estimate(view: _View, s: int) -> int:
    """n * seat s's score as the seat estimates it from what it knows of the layout."""
    return view.policy.estimate(list(view.obs.known[s]), view.pool)


def behind(view: _View, mine: int) -> bool:
    """Is some opponent's estimate below ``mine``?"""
    return any(seat_estimate(view, s) < mine for s in range(len(view.obs.known))
               if s != view.obs.seat)


def leader(view: _View, legal) -> int | None:
    """Of the seats in ``legal`` but its own, the one with the lowest estimate (turn order on
    ties)."""
    me, n = view.obs.seat, len(view.obs.known)
    best = None
    for s in [(me + k) % n for k in range(1, n)]:
        if s in legal and (best is None or seat_estimate(view, s) < seat_estimate(view, best)):
            best = s
    return best


def removal(view: _View) -> tuple[int | None, int]:
    """(p, n * gain): the own card whose removal (its position emptied) lowers the estimate
    most, ties to the lowest position; (None, 0) when it has no card."""
    me = view.obs.seat
    own = list(view.obs.known[me])
    now = view.policy.estimate(own, view.pool)
    best, best_gain = None, 0
    for p in view.cards(me):
        gain = now - view.policy.estimate(own[:p] + [K.EMPTY0 + p] + own[p + 1:], view.pool)
        if best is None or gain > best_gain:
            best, best_gain = p, gain
    return best, best_gain


def can_draw(view: _View) -> bool:
    """Can a card be drawn from the stock (reshuffling the discard pile if need be)?"""
    obs = view.obs
    return obs.stock_count > 0 or (view.rules.stock_empty == "reshuffle_keep_top" and
                                   len(obs.discard) > 1)


def giveable(view: _View) -> bool:
    """May the Dutch ace give a card: the stock can be drawn and an unshielded opponent has
    room?"""
    obs = view.obs
    if not can_draw(view):
        return False
    return any(len(obs.known[s]) < K.MAX_POS or any(c is not None and is_empty(c)
                                                   for c in obs.known[s])
               for s in view.opponents())


# ---- the moves that hurt an opponent or end a lap ---------------------------------------------
def shuffle_target(view: _View) -> int | None:
    """The opponent with two face-down cards or more seen peeking at the most of them, one at
    least (turn order on ties)."""
    obs = view.obs
    best, most = None, 0
    for s in view.opponents():
        down = [p for p in range(len(obs.known[s])) if obs.face_up[s][p] is None]
        peeked = sum(1 for p in down if s in obs.peeked[s][p])
        if len(down) >= 2 and peeked > most:
            best, most = s, peeked
    return best


def flip_target(view: _View) -> tuple[int, int] | None:
    """The first face-down opponent card (turn order, positions ascending) it does not know
    and its owner was seen peeking at."""
    obs = view.obs
    for s in view.opponents():
        for p in range(len(obs.known[s])):
            if obs.face_up[s][p] is None and s in obs.peeked[s][p] and obs.known[s][p] is None:
                return s, p
    return None


def line_cells(rules: Rules, k: int) -> list[int]:
    """The positions of grid line k: rows 0..R-1, then columns R..R+C-1."""
    rows, cols = rules.grid_rows, rules.grid_cols
    return [k * cols + c for c in range(cols)] if k < rows else \
        [r * cols + (k - rows) for r in range(rows)]


def line_gain(view: _View, s: int, k: int) -> int:
    """n * how much swapping its line k with seat s's lowers its grid estimate."""
    npos = view.rules.n_positions
    own = list(view.obs.known[view.obs.seat][:npos])
    after = list(own)
    for p in line_cells(view.rules, k):
        after[p] = view.obs.known[s][p]
    return view.policy.estimate(own, view.pool) - view.policy.estimate(after, view.pool)


def best_line(view: _View, s: int) -> tuple[int, int]:
    """(k, n * gain) of the line whose swap with seat s gains most (the lowest of equals)."""
    gains = [line_gain(view, s, k) for k in range(view.rules.grid_rows + view.rules.grid_cols)]
    k = max(range(len(gains)), key=lambda i: (gains[i], -i))
    return k, gains[k]


def line_target(view: _View) -> tuple[int | None, int]:
    """(seat, n * gain): the opponent whose best line swap lowers its estimate most, by a point
    at least (turn order on ties); (None, 0) for none."""
    if view.rules.layout_mode == "hand":
        return None, 0
    best, best_gain = None, max(view.pool.n, 1) - 1
    for s in view.opponents():
        gain = best_line(view, s)[1]
        if gain > best_gain:
            best, best_gain = s, gain
    return best, (best_gain if best is not None else 0)


def exchange_target(view: _View) -> tuple[tuple[int, int] | None, int]:
    """The Dutch 9's card: ((seat, pos), n * score) of the opponent card it knows whose best
    placement gain less its value is largest (exchange_gain but for the held card's value),
    turn order, then positions, on ties; (None, 0) when it would place none."""
    obs, value, policy, pool = view.obs, view.table.value, view.policy, view.pool
    own = list(obs.known[obs.seat])
    now = policy.estimate(own, pool)
    best, best_score = None, 0
    for s in view.opponents():
        for q, card in enumerate(obs.known[s]):
            if card is None or is_empty(card):
                continue
            p = policy.best_placement(obs, card, pool)
            if p is not None:
                score = now - policy.estimate(own[:p] + [card] + own[p + 1:], pool) - \
                    value[card] * pool.n
                if best is None or score > best_score:
                    best, best_score = (s, q), score
    return best, best_score


def exchange_gain(view: _View) -> int:
    """n * what the Dutch 9 (or the 2 that plays it) gains when the held card goes to the
    opponent for exchange_target's card: its placement gain, less what the opponent gains
    (that card's value less the held card's); 0 when it has no card to take."""
    target, score = exchange_target(view)
    if target is None or view.held is None:
        return 0
    return max(score + view.table.value[view.held] * view.pool.n, 0)


def exposed(view: _View) -> bool:
    """The shield's reason: an own card below the pool's mean that an opponent knows (face up,
    or seen peeked at by another seat), which an opponent's swap would take."""
    obs, me = view.obs, view.obs.seat
    return any(c is not None and not is_empty(c) and view.table.value[c] * view.n < view.pool.S
               and (obs.face_up[me][p] is not None or obs.peeked[me][p] - {me})
               for p, c in enumerate(obs.known[me]))


def beats_placement(view: _View, effect: int, held: int, place: int) -> bool:
    """Is the held card's power worth more than placing it at ``place``, by how much each
    lowers the estimate? The Dutch ace's removal when it lowers it more; the black king when
    the seat would not be the lowest even with the king placed; the Dutch 2 for the king's
    reason, or when one of its powers that move cards gains more (combine_gain)."""
    if effect not in (K.POW_GIVE_OR_REMOVE, K.POW_CANCEL_FINAL, K.POW_COMBINE):
        return False
    obs, pool, policy = view.obs, view.pool, view.policy
    own = list(obs.known[obs.seat])
    gain = policy.estimate(own, pool) - policy.estimate(own[:place] + [held] + own[place + 1:],
                                                         pool)
    if effect == K.POW_GIVE_OR_REMOVE:
        return removal(view)[1] > gain
    combine = effect == K.POW_COMBINE
    if (not combine or ("K" in view.rules.dutch_powers and obs.ender is not None)) and \
            behind(view, seat_estimate(view, obs.seat) - gain):
        return True
    return combine and combine_gain(view, None)[1] > gain


# ---- Cactus's turn on the top discard's power; Cabo's blind matches -------------------------
def turn_power_wanted(view: _View) -> bool:
    """A whole turn on the top discard's unused power (Cactus), instead of a draw: a blind
    swap it wants (a peek is not worth a turn: docs/policies.md#power-cards)."""
    effect = effect_of(view.rules, view.obs.discard[-1])
    return effect in (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_ANY_TWO) and view.swap_gain() > 0


def key_pool(view: _View, key: int) -> tuple[int, int, int, int]:
    """(m, v, n, S): the cards the seat has not seen (the deck but the discard pile, the held
    card and every card it knows in a layout): n cards worth S, m of them of pairing key
    ``key``, worth v."""
    value, keys, obs = view.table.value, view.table.key, view.obs
    seen = list(obs.discard) + ([obs.held] if obs.held is not None else []) + \
        [c for row in obs.known for c in row if c is not None and not is_empty(c)]
    unseen = list(view.table.deck)
    for c in seen:
        unseen.remove(c)
    of_key = [c for c in unseen if keys[c] == key]
    return (len(of_key), sum(value[c] for c in of_key), len(unseen),
            sum(value[c] for c in unseen))


def blind_match(view: _View) -> tuple[int, int] | None:
    """Cabo: a card it does not know to match the held card against, when the chance that it
    has the held card's key (m of the n cards it has not seen) pays for the penalty cards of
    a miss (each worth S/n): its own first face-down card it does not know (a hit removes a
    card of the key: v/m), else an opponent's (turn order; a hit gives that opponent its
    worst card)."""
    obs, value = view.obs, view.table.value
    me, players = obs.seat, len(obs.known)
    m, v, n, S = key_pool(view, view.table.key[obs.held])
    if m <= 0 or n <= 0:
        return None
    cost = (n - m) * view.rules.match_fail_penalty_cards * S if can_draw(view) else 0

    def first_unknown(s):
        return next((p for p in range(len(obs.known[s]))
                     if obs.known[s][p] is None and obs.face_up[s][p] is None), None)
    p = first_unknown(me)
    if p is not None and v * n > cost:
        return me, p
    worst = max([0] + [S if c is None else value[c] * n for c in obs.known[me]
                       if c is None or not is_empty(c)])
    if m * worst <= cost:
        return None
    for s in [(me + k) % players for k in range(1, players)]:
        q = first_unknown(s)
        if q is not None:
            return s, q
    return None


def pablo_nomination(view: _View) -> list[int]:
    """Pablo: its known own cards of the key whose two or more cards it knows total the most,
    when that total is above the held card's value (else nothing)."""
    me, obs = view.obs.seat, view.obs
    by_key: dict[int, list[int]] = {}
    for p in view.cards(me):
        if obs.known[me][p] is not None:
            by_key.setdefault(view.table.key[obs.known[me][p]], []).append(p)
    best, best_total = [], view.table.value[obs.held] if obs.held is not None else 0
    for positions in by_key.values():
        total = sum(view.table.value[obs.known[me][p]] for p in positions)
        if len(positions) >= 2 and total > best_total:
            best, best_total = positions, total
    return best


def cabo_nomination(view: _View) -> list[tuple[int, int]]:
    """Cabo: every card it knows of the held card's key, its own first, then the others in
    turn order."""
    me, n = view.obs.seat, len(view.obs.known)
    return view.known_matches(view.table.key[view.obs.held],
                              [me] + [(me + k) % n for k in range(1, n)])


def snap_target(view: _View, rules: Rules) -> tuple[int, int] | None:
    """The card greedy snaps: an own known card of the top's key worth more than 0, else
    (Cumbia) an opponent's known card of that key when it knows an own card worth more than 0
    to give back."""
    obs, me = view.obs, view.obs.seat
    key = view.table.key[obs.discard[-1]]
    own = [(s, p) for s, p in view.known_matches(key, [me]) if view.est(s, p) > 0]
    if own:
        return own[0]
    if rules.snap_mode == "cumbia" and any(
            obs.known[me][p] is not None and view.est(me, p) > 0 for p in view.cards(me)):
        others = view.known_matches(key, view.opponents() +
                                    [s for s in range(len(obs.known)) if obs.shielded[s]
                                     and s != me])
        if others:
            return others[0]
    return None


def greedy_calls(view: _View) -> bool:
    """Greedy calls (end trigger call) when it knows every card of its layout and their total
    plus K.GREEDY_CALL_MARGIN is at most every opponent's estimate; and, its stall rule, at once
    once the stock has been reshuffled GREEDY_STALL_RESHUFFLES times in the hole (a table of
    greedy players that never gets to know its cards, e.g. after Cactus's penalty cards,
    would otherwise play on to the turn cap)."""
    me, n = view.obs.seat, len(view.obs.known)
    if view.obs.reshuffles >= K.GREEDY_STALL_RESHUFFLES:
        return True
    if view.unknown(me, view.cards(me)):
        return False
    mine = view.total(me)
    return all(mine + K.GREEDY_CALL_MARGIN * view.n <= view.total(s)
               for s in range(n) if s != me)


def decide(policy, obs: Observation) -> int | None:
    """A greedy or knock-threshold seat's answer at a power-card decision, or None to leave it
    to the plain game's rules (docs/policies.md#power-cards)."""
    d, legal, rules = obs.decision, obs.legal, policy.rules
    view = _View(policy, obs)
    me = obs.seat
    plan = getattr(policy, "power_plan", {})
    policy.power_plan = plan
    if d in (Decision.TURN, Decision.KNOCK):
        return _turn(view, obs, plan, not isinstance(policy, KnockThresholdPolicy))
    if d == Decision.PLACE_DRAWN or (d == Decision.PLACE_TAKEN and Action.MATCH in legal):
        if Action.MATCH in legal:
            if rules.turn_match_mode == "pablo_multi_replace":
                chosen = pablo_nomination(view)
                if chosen:
                    plan["nominate"], plan["done"] = [(me, p) for p in chosen], []
                    return Action.MATCH
            else:
                chosen = cabo_nomination(view)
                if chosen:
                    plan["nominate"], plan["done"] = chosen, []
                    return Action.MATCH
        if d == Decision.PLACE_TAKEN:
            return None
        return _held(view, obs, plan)
    if d == Decision.PLACE_TAKEN and obs.power == K.POW_EXCHANGE_THIS:
        p = policy.best_placement(obs, obs.held, policy.pool(obs, obs.held))
        return p if p in legal else view.worst_own(list(legal))
    if d == Decision.SNAP:
        target = snap_target(view, rules)
        if target is None:
            return Action.PASS
        plan["snap"] = target
        return Action.SNAP
    if d == Decision.SWAP:
        own, theirs = plan.get("own"), plan.get("theirs")
        if own is not None and theirs is not None and \
                view.est(*theirs) < view.est(me, own):
            return Action.SWAP
        return Action.PASS
    if d == Decision.KEEP:
        values = [view.table.value[c] for c in obs.choices]
        return 0 if values[0] <= values[1] else 1
    if d == Decision.CHOOSE_POWER:
        view.held = plan.get("held")
        rank = combine_choice(view, legal)
        return Action.PASS if rank is None else rank
    if d == Decision.NOMINATE or (d == Decision.TARGET_SEAT and obs.power == K.CTX_NOMINATE):
        wanted = [t for t in plan.get("nominate", []) if t not in plan.get("done", [])]
        if d == Decision.TARGET_SEAT:
            for s, _ in wanted:
                if s in legal:
                    return s
            return Action.PASS if Action.PASS in legal else legal[0]
        for s, p in wanted:
            if s == obs.target_seat and p in legal:
                plan.setdefault("done", []).append((s, p))
                return p
        return Action.PASS if Action.PASS in legal else legal[0]
    if d == Decision.TARGET_SEAT:
        return _target_seat(view, obs, plan)
    if d == Decision.TARGET_POS:
        return _target_pos(view, obs, plan)
    return None


def _turn(view: _View, obs: Observation, plan: dict, greedy: bool) -> int | None:
    """decide at TURN and KNOCK: greedy's call; Cactus's turn on the top discard's power
    instead of the draw its turn rule would make; None: the plain rules."""
    policy, legal = view.policy, obs.legal
    if greedy and "call" in view.rules.end_triggers and Action.KNOCK in legal and \
            greedy_calls(view):
        return Action.KNOCK
    if greedy and obs.decision == Decision.KNOCK:
        return Action.PASS
    if obs.decision == Decision.TURN and Action.DISCARD_POWER in legal:
        pool = policy.pool(obs, None)   # its turn rule would take the discard, or draw
        takes = Action.TAKE_DISCARD in legal and pool.n > 0 and \
            policy.best_placement(obs, obs.discard[-1], pool) is not None
        if not takes and turn_power_wanted(view):
            plan.clear()
            return Action.DISCARD_POWER
    return None


def _held(view: _View, obs: Observation, plan: dict) -> int:
    """decide holding a drawn card it does not match: the placement, unless the power is
    worth more; Cabo's blind match; the power when worth using; else discard."""
    policy, legal = view.policy, obs.legal
    positions = [a for a in legal if a < K.MAX_POS]
    if positions:
        p = policy.best_placement(obs, obs.held, policy.pool(obs, obs.held)) \
            if policy.pool(obs, obs.held).n > 0 else None
        if p is not None and p in positions:
            if Action.POWER in legal and beats_placement(view, obs.power, obs.held, p):
                return use_power(plan, obs)
            return p
    if Action.MATCH in legal and view.rules.turn_match_mode == "cabo_match" and \
            obs.held is not None:
        chosen = blind_match(view)
        if chosen:
            plan["nominate"], plan["done"] = [chosen], []
            return Action.MATCH
    if Action.POWER in legal and wants_power(view, obs.power):
        return use_power(plan, obs)
    if Action.DISCARD in legal:
        return Action.DISCARD
    if Action.POWER in legal:
        return Action.POWER
    return min(legal)


def use_power(plan: dict, obs: Observation) -> int:
    """POWER: the plan starts anew; the Dutch 2 remembers the card it uses (its choices are
    asked without it)."""
    plan.clear()
    if obs.power == K.POW_COMBINE:
        plan["held"] = obs.held
    return Action.POWER


def _target_seat(view: _View, obs: Observation, plan: dict) -> int:
    me, legal, effect = obs.seat, obs.legal, obs.power
    if effect == K.CTX_SNAP and plan.get("snap") and plan["snap"][0] in legal:
        return plan["snap"][0]
    chosen = None
    if effect == K.POW_SHUFFLE_OPP:
        chosen = shuffle_target(view)
    elif effect == K.POW_SWAP_LINE:
        chosen = line_target(view)[0]
    elif effect == K.POW_FLIP_OPP:
        chosen = (flip_target(view) or (None,))[0]
    elif effect == K.POW_GIVE_OR_REMOVE:
        chosen = me if removal(view)[1] > 0 else leader(view, legal)
    elif effect == K.POW_EXCHANGE_THIS:
        target = exchange_target(view)[0]
        if target is not None and target[0] in legal:
            plan["theirs"] = target
            return target[0]
    if chosen is not None and chosen in legal:
        return chosen
    if effect in (K.POW_PEEK_OPP, K.POW_PEEK_ANY, K.POW_FLIP_OPP, K.POW_SHUFFLE_OPP):
        target = view.peek_target(effect == K.POW_PEEK_ANY)
        if target is not None and target[0] in legal:
            return target[0]
    if effect in (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_AFTER_PEEK_OPP, K.POW_PEEK_BOTH_SWAP,
                  K.POW_SWAP_ANY_TWO, K.POW_EXCHANGE_THIS):
        if effect == K.POW_SWAP_ANY_TWO and plan.get("first"):
            return me if me in legal else legal[0]
        best = view.best_opponent_card()
        if best is not None and best[0] in legal:
            if effect == K.POW_PEEK_BOTH_SWAP:
                target = view.peek_target(False)
                if target is not None and target[0] in legal:
                    best = target
            plan["theirs"] = best
            return best[0]
    if effect == K.POW_GIVE_OR_REMOVE and me in legal:
        return me
    return legal[0]


def _target_pos(view: _View, obs: Observation, plan: dict) -> int:
    me, legal, effect, t = obs.seat, list(obs.legal), obs.power, obs.target_seat
    if effect == K.CTX_SNAP and plan.get("snap") and plan["snap"][0] == t and \
            plan["snap"][1] in legal:
        return plan["snap"][1]
    if effect == K.POW_GIVE_OR_REMOVE and t == me and removal(view)[0] in legal:
        return removal(view)[0]
    if effect == K.POW_SWAP_LINE:
        k = best_line(view, t)[0]
        return k if k in legal else legal[0]
    if effect == K.POW_FLIP_OPP:
        target = flip_target(view)
        if target is not None and target[0] == t and target[1] in legal:
            return target[1]
    if effect == K.CTX_GIVE and removal(view)[0] in legal:
        return removal(view)[0]
    swaps = (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_AFTER_PEEK_OPP, K.POW_SWAP_ANY_TWO)
    if t == me and effect in swaps:
        if effect == K.POW_SWAP_ANY_TWO:
            plan.pop("first", None)
        if plan.get("theirs") is not None:
            s, q = plan["theirs"]
            return view.best_receiver(legal, obs.known[s][q])[0]
    if effect == K.CTX_GIVE or (t == me and effect in swaps + (K.POW_GIVE_OR_REMOVE,)):
        return view.worst_own(legal)
    if effect == K.POW_PEEK_BOTH_SWAP and t == me:
        unknown = view.unknown(me, legal)
        plan["own"] = unknown[0] if unknown else view.worst_own(legal)
        return plan["own"]
    if effect in (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_AFTER_PEEK_OPP, K.POW_PEEK_BOTH_SWAP,
                  K.POW_SWAP_ANY_TWO, K.POW_EXCHANGE_THIS):
        theirs = plan.get("theirs")
        p = theirs[1] if theirs is not None and theirs[0] == t and theirs[1] in legal else \
            view.best_of(t, legal)
        plan["theirs"] = (t, p)
        if effect == K.POW_SWAP_ANY_TWO:
            plan["first"] = True
        return p
    unknown = view.unknown(t, legal)
    return unknown[0] if unknown else legal[0]
