"""The cards of one hole and where they are, and what one seat may see of them."""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import cards as C
from .. import codes as K
from ..rules import Rules
from ..streams import PyStream
from .card_table import CardTable, is_empty
from .decisions import NO_CARD, Decision, InvariantError


@dataclass
class Cell:
    """One layout position."""
    card: int
    face_up: bool = False
    known_to: set[int] = field(default_factory=set)  # seats that know the card
    # replace_unseen_once: "left" until its one replacement, then "spent"; "seen" when
    # the owner knew the card when play began (no limit)
    once: str = "left"


def may_replace(rules: Rules, face_up: list[bool], p: int) -> bool:
    """May a new card go to position p of a layout with these face-up flags
    (docs/rules.md#turns)?"""
    if face_up[p] and not rules.replace_face_up_allowed:
        return False
    if face_up[p] and rules.lock_face_up_columns:      # 2-row grids only (validated)
        cols = rules.grid_cols
        partner = p + cols if p < cols else p - cols
        if face_up[partner]:
            return False
    return True


@dataclass(frozen=True)
class MatchView:
    """The match as a seat sees it before a hole (codes.PUB_HOLE ...); a hole played alone
    is hole 0 of 1 with every total 0."""
    hole: int = 0                 # this hole's number in the match, from 0
    holes: int = 1                # the match's holes, 0 when it is played to a target
    target: int = 0               # the match's target total, else 0
    totals: tuple[int, ...] = ()  # [seat in turn order]: its total before the hole (() = 0s)


@dataclass(frozen=True)
class Observation:
    """Everything one seat may see when it decides."""
    seat: int
    decision: Decision
    legal: tuple[int, ...]                   # legal actions, ascending
    held: int | None                         # the card in the seat's hand, if any
    own: tuple[int | None, ...]              # the seat's own cards as far as it knows them
    replaceable: tuple[int, ...]             # own positions a new card may go to now
    face_up: tuple[tuple[int | None, ...], ...]   # every seat's face-up cards (public)
    discard: tuple[int, ...]                 # the discard pile, bottom to top
    stock_count: int
    turn: int
    ender: int | None
    reshuffles: int = 0                      # times the stock was rebuilt in this hole
    # power-card games only (simulator/game/powers/); the defaults everywhere else
    power_game: bool = False
    power: int = K.POW_NONE                  # the effect this decision resolves (PUB_POWER)
    target_seat: int = -1                    # whose positions are offered (PUB_TARGET_SEAT)
    known: tuple = ()                        # [seat][pos]: the card this seat knows there
    shielded: tuple = ()                     # [seat]: no power may target that layout now
    top_power_unused: bool = False           # the top discard's power was not used
    choices: tuple = ()                      # DP_KEEP: the two cards drawn, in order
    peeked: tuple = ()                       # [seat][pos]: seats seen peeking at that card
    match: MatchView = MatchView()           # the match this hole is part of
    reveal_picks: int = 0                    # DP_REVEAL: the cards a set answer names, else 0


class GameState:
    """The cards of one hole and where they are."""

    def __init__(self, rules: Rules, players: int, deal_stream: PyStream):
        self.rules = rules
        self.players = players
        self.rows, self.cols = rules.grid_rows, rules.grid_cols
        self.npos = rules.n_positions
        self.table = CardTable(rules, players)
        self.deal_stream = deal_stream
        self.layouts: list[list[Cell]] = []
        self.stock: list[int] = []           # top = last
        self.discard: list[int] = []         # top = last
        self.held: int | None = None         # the card in the active player's hand
        self.turn = 0                        # turns completed (the initial reveal excluded)
        self.ender: int | None = None
        self.final_turns_left: int | None = None
        self.knocked = False
        self.reshuffles = 0
        self.capped = False
        self.penalty = [0] * players         # points incurred during the hole (peeks)
        self.bank = [0] * players            # value of the groups removed (remove_cancelled)
        self.skip_next_turn = [False] * players   # jack_discard_skips_next marks
        # every position whose cell changed, in order (seat * MAX_POS + p), so that a reader
        # of the layouts at every step (the environments' views) reads only what changed
        self.touched: list[int] = []

    # ---- setup ----------------------------------------------------------------------------
    def deal(self) -> None:
        """Shuffle, deal one card at a time (position by position, seat by seat, from the top
        of the stock) and turn up the next card to start the discard pile
        (docs/rules.md#the-deal)."""
        self.stock = list(self.table.deck)
        self.deal_stream.shuffle(self.stock)
        dealt = [[NO_CARD] * self.npos for _ in range(self.players)]
        for p in range(self.npos):
            for seat in range(self.players):
                dealt[seat][p] = self.stock.pop()
        self.layouts = [[Cell(card) for card in row] for row in dealt]
        self.touched.extend(seat * K.MAX_POS + p for seat in range(self.players)
                            for p in range(self.npos))
        # the turn-up never skips anyone (AMB-19); with initial_discard = none the pile starts
        # empty and the first player must draw from the stock
        self.discard = [self.stock.pop()] if self.rules.initial_discard == "turn_up" else []
        self.penalty = [0] * self.players
        self.bank = [0] * self.players
        self.skip_next_turn = [False] * self.players
        if self.rules.owner_view == "all":
            # owner_view = all (cards held in hand, four_card_in_hand): every seat knows all of
            # its own cards from the deal on, before any initial reveal. With perfect memory,
            # ``initially_peeked`` adds nothing to ``none``: a seat never forgets what it
            # peeked at or placed.
            for seat, row in enumerate(self.layouts):
                for cell in row:
                    cell.known_to.add(seat)

    # ---- what is where ----------------------------------------------------------------------
    def face_up_flags(self, seat: int) -> list[bool]:
        return [cell.face_up for cell in self.layouts[seat]]

    def face_down_positions(self, seat: int) -> list[int]:
        return [p for p, cell in enumerate(self.layouts[seat]) if not cell.face_up]

    def face_down_count(self, seat: int) -> int:
        return len(self.face_down_positions(seat))

    def unknown_positions(self, seat: int) -> list[int]:
        """The seat's face-down positions whose card it does not know (what it may pay to
        peek at)."""
        return [p for p, cell in enumerate(self.layouts[seat])
                if not cell.face_up and seat not in cell.known_to]

    def replaceable_positions(self, seat: int) -> list[int]:
        flags = self.face_up_flags(seat)
        return [p for p in range(self.npos) if may_replace(self.rules, flags, p) and
                not is_empty(self.layouts[seat][p].card) and
                not (self.rules.replace_unseen_once and self.layouts[seat][p].once == "spent")]

    def knows(self, observer: int, seat: int, p: int) -> bool:
        return observer in self.layouts[seat][p].known_to

    def observe(self, seat: int, decision: Decision, legal: list[int],
                held: int | None) -> Observation:
        own = tuple(cell.card if seat in cell.known_to else None for cell in self.layouts[seat])
        face_up = tuple(tuple(cell.card if cell.face_up else None for cell in row)
                        for row in self.layouts)
        return Observation(seat, decision, tuple(legal), held, own,
                           tuple(self.replaceable_positions(seat)), face_up,
                           tuple(self.discard), len(self.stock), self.turn, self.ender,
                           self.reshuffles)

    # ---- card movements ---------------------------------------------------------------------
    def turn_up(self, seat: int, p: int) -> None:
        cell = self.layouts[seat][p]
        cell.face_up = True
        cell.known_to = set(range(self.players))
        self.touched.append(seat * K.MAX_POS + p)

    def peek(self, seat: int, p: int) -> None:
        self.layouts[seat][p].known_to.add(seat)
        self.touched.append(seat * K.MAX_POS + p)

    def replace(self, seat: int, p: int, card: int, face_up: bool, public: bool) -> None:
        """Put ``card`` at (seat, p); the old card goes face up onto the discard pile. A card
        placed face down is known to its owner, and to everyone if it came from the discard
        pile (docs/rules.md#what-players-know)."""
        cell = self.layouts[seat][p]
        old = cell.card
        if self.rules.replace_unseen_once and cell.once == "left":
            cell.once = "spent"
        cell.card = card
        cell.face_up = face_up
        if face_up or public:
            cell.known_to = set(range(self.players))
        else:
            cell.known_to = {seat}
        self.touched.append(seat * K.MAX_POS + p)
        self.put_on_discard(seat, old)

    def put_on_discard(self, seat: int, card: int) -> None:
        """The acting ``seat`` puts ``card`` face up on the discard pile: a drawn card it
        discards, or the card it replaced out of its layout. With ``jack_discard_skips_next``
        (AMB-19) a jack (any suit; jokers are not jacks) marks the next seat in order to
        lose its next turn, in the final lap too. The initial turn-up and reshuffles do not
        come through here."""
        self.discard.append(card)
        if self.rules.jack_discard_skips_next and C.rank_of(card) == C.RANK_JACK:
            self.skip_next_turn[(seat + 1) % self.players] = True

    def completed(self, seat: int, cells: tuple[int, ...]) -> bool:
        """Are these cells all face up, none empty, and all of one key (remove_cancelled)?"""
        row = self.layouts[seat]
        if any(not row[p].face_up or is_empty(row[p].card) for p in cells):
            return False
        return len({self.table.key[row[p].card] for p in cells}) == 1

    def remove(self, seat: int, cells: tuple[int, ...], value: int) -> None:
        """remove_cancelled: the group's cards go under the discard pile, lowest position at the
        very bottom (never the top); the positions stay empty (face up, known to all,
        holding the pseudo-card K.EMPTY0 + p) and ``value`` is banked for the seat."""
        row = self.layouts[seat]
        self.discard[0:0] = [row[p].card for p in sorted(cells)]
        for p in cells:
            row[p].card = K.EMPTY0 + p
            row[p].face_up = True
            row[p].known_to = set(range(self.players))
            self.touched.append(seat * K.MAX_POS + p)
        self.bank[seat] += value

    def can_draw(self) -> bool:
        return bool(self.stock) or (self.rules.stock_empty == "reshuffle_keep_top" and
                                    len(self.discard) > 1)

    def draw_from_stock(self) -> int:
        if not self.stock:
            self.reshuffle()
        card = self.stock.pop()
        self.held = card
        return card

    def take_discard(self) -> int:
        card = self.discard.pop()
        self.held = card
        return card

    def reshuffle(self) -> None:
        """The discard pile except its top card, bottom to top, is shuffled into a new stock
        with the deal stream (docs/rules.md#stock_empty: when a player must draw from an empty
        stock)."""
        top = self.discard.pop()
        self.stock = self.discard
        self.discard = [top]
        self.deal_stream.shuffle(self.stock)
        self.reshuffles += 1

    # ---- the end of the hole ----------------------------------------------------------------
    def start_end(self, seat: int) -> None:
        """``seat`` triggered the end (went out, knocked or flipped all); set the number of
        final turns (docs/rules.md#ending-a-hole step 2). With ``reveal_on_trigger`` (AMB-21)
        every other seat turns its face-down cards face up at this moment, before the final
        turns; the ender's own face-down cards stay down until scoring."""
        self.ender = seat
        ft = self.rules.final_turns
        if ft == "none":
            self.final_turns_left = 0
        elif ft == "each_other_player_once":
            self.final_turns_left = self.players - 1
        else:  # complete_lap: the seats after the ender up to the dealer, the last seat
            self.final_turns_left = self.players - 1 - seat
        if self.rules.reveal_on_trigger:
            for other in range(self.players):      # seat order from seat 0, position order
                if other != seat:
                    for p in self.face_down_positions(other):
                        self.turn_up(other, p)

    # ---- invariants -------------------------------------------------------------------------
    def check_cards(self, in_hand: list[int], most_positions: int) -> None:
        """Every card of the deck is in exactly one place (``in_hand``: the cards held outside
        the piles and layouts); every layout has npos to ``most_positions`` positions, its empty
        ones face up in place, its face-up cards known to all, and only real seats know or
        peeked at a card."""
        places = [cell.card for row in self.layouts for cell in row if not is_empty(cell.card)] + \
            self.stock + self.discard + in_hand
        if sorted(places) != sorted(self.table.deck):
            raise InvariantError(f"card conservation broken after turn {self.turn}")
        everyone = set(range(self.players))
        for seat, row in enumerate(self.layouts):
            if not self.npos <= len(row) <= most_positions:
                raise InvariantError(f"seat {seat} has {len(row)} positions")
            for p, cell in enumerate(row):
                if is_empty(cell.card) and (cell.card != K.EMPTY0 + p or not cell.face_up):
                    raise InvariantError(f"empty ({seat}, {p}) is not face up in place")
                if cell.face_up and cell.known_to != everyone:
                    raise InvariantError(f"face-up ({seat}, {p}) is not known to everyone")
                if not cell.known_to <= everyone or \
                        not getattr(cell, "peeked_by", set()) <= everyone:
                    raise InvariantError(f"({seat}, {p}) known to a seat that does not exist")

    def check_invariants(self) -> None:
        """Every card of the deck is in exactly one place, and the bookkeeping agrees."""
        self.check_cards([] if self.held is None else [self.held], self.npos)
        if not self.discard and self.rules.initial_discard == "turn_up":
            raise InvariantError("the discard pile is empty")
        if (self.ender is None) != (self.final_turns_left is None):
            raise InvariantError("ender and final turns disagree")
        if self.ender is not None and not 0 <= self.ender < self.players:
            raise InvariantError(f"ender {self.ender} is not a seat")
        if self.knocked and self.ender is None:
            raise InvariantError("a knock without an ender")
        if self.turn > self.rules.turn_cap:
            raise InvariantError(f"turn {self.turn} beyond the cap {self.rules.turn_cap}")
        if self.rules.pay_to_peek is None and any(self.penalty):
            raise InvariantError("peek penalties without pay_to_peek")
        if not self.rules.jack_discard_skips_next and any(self.skip_next_turn):
            raise InvariantError("a skipped turn without jack_discard_skips_next")
