"""The cards of a power-card hole: layouts that empty and grow, and who knows or has peeked
at each card (the package's docstring is the specification)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .. import codes as K
from ..reference import (Cell, Decision, GameState, InvariantError, Observation, is_empty,
                         may_replace, score_layout)
from ..rules import Rules
from ..streams import PyStream


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
        self.touched.append(seat * K.MAX_POS + p)
        self.events.append(("put", seat, p, card, face_up, frozenset(cell.known_to)))

    def take(self, seat: int, p: int) -> int:
        """The card at (seat, p) leaves the layout; the position is left empty."""
        cell = self.layouts[seat][p]
        card = cell.card
        cell.card = K.EMPTY0 + p
        cell.face_up = True
        cell.known_to = set(range(self.players))
        cell.peeked_by = set()
        self.touched.append(seat * K.MAX_POS + p)
        self.events.append(("empty", seat, p))
        return card

    def peek(self, seat: int, p: int, observer: int | None = None) -> None:
        """``observer`` (default: the owner) looks at (seat, p); everyone sees it happen."""
        observer = seat if observer is None else observer
        cell = self.layouts[seat][p]
        cell.known_to.add(observer)
        cell.peeked_by.add(observer)
        self.touched.append(seat * K.MAX_POS + p)
        self.events.append(("see", observer, seat, p))

    def show(self, seat: int, p: int) -> None:
        """The card is shown to everyone and goes back as it was."""
        self.layouts[seat][p].known_to = set(range(self.players))
        self.touched.append(seat * K.MAX_POS + p)
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
        self.touched += (s1 * K.MAX_POS + p1, s2 * K.MAX_POS + p2)
        self.events.append(("swap", s1, p1, s2, p2))

    def move(self, s1: int, p1: int, s2: int, p2: int) -> None:
        """The card at (s1, p1) moves blind to the empty (s2, p2); (s1, p1) is left empty."""
        a, b = self.layouts[s1][p1], self.layouts[s2][p2]
        if not is_empty(b.card) or is_empty(a.card):
            raise InvariantError("a move onto a card, or of no card")
        b.card, b.face_up, b.known_to, b.peeked_by = a.card, a.face_up, a.known_to, a.peeked_by
        a.card, a.face_up, a.known_to, a.peeked_by = \
            K.EMPTY0 + p1, True, set(range(self.players)), set()
        self.touched += (s1 * K.MAX_POS + p1, s2 * K.MAX_POS + p2)
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
            self.touched.append(seat * K.MAX_POS + p)
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


def layout_value_grown(rules: Rules, value, cards: list[int]) -> tuple[int, int]:
    """(layout value, couples) of a layout that may have grown: the grid's positions scored by
    :func:`simulator.game.reference.score_layout`, every position beyond them adding its value
    (it pairs with nothing)."""
    npos = rules.n_positions
    part = score_layout(rules, cards[:npos])
    return part.value + sum(value[c] for c in cards[npos:]), part.couples
