"""The observation vector: exactly what one seat may know, as float32 in [-1, 1].

docs/env.md#observation documents every field; :func:`fields` gives their order and sizes, and
:data:`VERSION` changes whenever the layout does. Seats are counted in turn order from the
observing seat (0: itself, 1: the seat that plays after it, ...), so the same vector means the
same thing at every seat.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game.reference import CardTable, Decision

from .table import Table

VERSION = 1
CARD = C.N_RANKS + 4 + 1         # a card: its rank, its suit (none for a joker), its value
VALUE_SCALE = 20                 # values are divided by this, or by the largest |value|
CELL = 5 + CARD                  # a layout position: five flags, then the card
CELL_FLAGS = ("present", "face_up", "known", "peeked_by_owner", "peeked_by_other")
SEAT_FIELDS = ("face_down", "shielded", "skips", "points", "banked")
# [bits of the CELL_FLAGS that hold]: the flags as floats
FLAG_ROWS = np.array([[(code >> k) & 1 for k in range(len(CELL_FLAGS))]
                      for code in range(1 << len(CELL_FLAGS))], dtype=np.float32)
PRESENT, FACE_UP, KNOWN, BY_OWNER, BY_OTHER = (1 << k for k in range(len(CELL_FLAGS)))
CARD_ROWS = K.N_CARD_TABLE + 1   # card ids, then "no card known"
RESHUFFLE_SCALE = 8              # reshuffles count up to this many (then 1)
POINTS_SCALE = 100               # points incurred or banked in a hole, divided by this
MATCH_HOLE_SCALE = 20            # a target match's holes count up to this many (then 1)
MATCH_POINTS_PER_HOLE = 25       # a match of h holes: totals divided by 25 h (target: by it)
N_EFFECTS = K.CTX_GIVE           # PUB_POWER codes 1..CTX_GIVE (0: none)


def fields(players: int) -> list[tuple[str, int]]:
    """(name, floats) of every field in order, for a table of ``players`` seats."""
    return [("decision", K.N_DECISION_POINTS), ("actor", players), ("held", 1 + CARD),
            ("group", K.MAX_POS), ("power", N_EFFECTS), ("target_seat", players),
            ("choices", 2 * (1 + CARD)), ("top_power_unused", 1), ("discard_top", 1 + CARD),
            ("discard_ranks", C.N_RANKS), ("discard_size", 1), ("stock_size", 1),
            ("turn", 1), ("reshuffles", 1), ("ender", players), ("final_turns_left", 1),
            ("knocked", 1), ("position", players), ("match_holes", 1),
            ("match_totals", players), ("positions", players * K.MAX_POS * CELL),
            ("seats", players * len(SEAT_FIELDS))]


class Encoder:
    """Builds the vector of one seat from a :class:`Table` (the hole it is playing)."""

    def __init__(self, table: Table):
        config = table.config
        self.table = table
        self.players = config.players
        self.rules = config.rules
        self.offset = {}
        at = 0
        for name, n in fields(self.players):
            self.offset[name] = at
            at += n
        self.size = at
        self.card, self.cells, self.rank, self.per_rank, self.deck_size = \
            card_tables(config.rules, config.players)
        self.turn_cap = config.rules.turn_cap
        self.match_scale = config.target or MATCH_POINTS_PER_HOLE * (config.holes or 1)

    # ---- the vector --------------------------------------------------------------------------
    def encode(self, seat: int) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        t = self.table
        game = t.game
        me = game.position[seat]
        st = game.hole.state
        asked = t.pending[1] if t.pending is not None and t.pending[0] == seat else None
        if asked is not None:
            self.decision(out, asked)
        if t.pending is not None:
            out[self.offset["actor"] + self.rel(game.position[t.pending[0]], me)] = 1
        self.powers(out, st, me)
        self.piles(out, st)
        self.stage(out, st, me)
        self.layouts(out, st, me)
        return out

    def rel(self, i: int, me: int) -> int:
        """Turn position ``i`` counted from the observer's ``me``."""
        return (i - me) % self.players

    def decision(self, out: np.ndarray, obs) -> None:
        """The question this seat is asked: the decision point, the card it holds (the
        group's position at REMOVE), and the Dutch 8's two cards."""
        o = self.offset
        out[o["decision"] + obs.decision] = 1
        if obs.decision == Decision.REMOVE:
            out[o["group"] + obs.held] = 1
        elif obs.held is not None:
            self.put_card(out, o["held"], obs.held)
        for k, c in enumerate(obs.choices):
            self.put_card(out, o["choices"] + k * (1 + CARD), c)

    def put_card(self, out: np.ndarray, at: int, card: int) -> None:
        out[at] = 1
        out[at + 1:at + 1 + CARD] = self.card[card]

    def powers(self, out: np.ndarray, st, me: int) -> None:
        """What the power decision in progress is about (power-card games only)."""
        if not hasattr(st, "pub_power"):
            return
        o = self.offset
        if st.pub_power:
            out[o["power"] + st.pub_power - 1] = 1
        if st.pub_target >= 0:
            out[o["target_seat"] + self.rel(st.pub_target, me)] = 1
        out[o["top_power_unused"]] = st.top_power_unused and bool(st.discard)

    def piles(self, out: np.ndarray, st) -> None:
        o = self.offset
        if st.discard:
            self.put_card(out, o["discard_top"], st.discard[-1])
            counts = np.bincount(self.rank[st.discard], minlength=C.N_RANKS)
            out[o["discard_ranks"]:o["discard_ranks"] + C.N_RANKS] = counts * self.per_rank
        out[o["discard_size"]] = len(st.discard) / self.deck_size
        out[o["stock_size"]] = len(st.stock) / self.deck_size

    def stage(self, out: np.ndarray, st, me: int) -> None:
        """How far the hole (and the match) has gone."""
        o, t, game = self.offset, self.table, self.table.game
        out[o["turn"]] = min(st.turn / self.turn_cap, 1.0)
        out[o["reshuffles"]] = min(st.reshuffles / RESHUFFLE_SCALE, 1.0)
        if st.ender is not None:
            out[o["ender"] + self.rel(st.ender, me)] = 1
            out[o["final_turns_left"]] = clip(st.final_turns_left / self.players)
        out[o["knocked"]] = st.knocked
        out[o["position"] + me] = 1
        if t.config.match:
            played = len(game.holes)
            out[o["match_holes"]] = played / t.config.holes if t.config.holes else \
                min(played / MATCH_HOLE_SCALE, 1.0)
            for order, record in game.holes:
                for i, score in enumerate(record.scores):
                    out[o["match_totals"] + self.rel(game.position[order[i]], me)] += \
                        score / self.match_scale
            np.clip(out[o["match_totals"]:o["match_totals"] + self.players], -1, 1,
                    out=out[o["match_totals"]:o["match_totals"] + self.players])

    def layouts(self, out: np.ndarray, st, me: int) -> None:
        """Every seat's positions as the observer ``me`` knows them, then what is public of
        each seat: one pass over the cells in Python, each cell one row of :attr:`cells`."""
        rows = []
        public = []
        shields = getattr(st, "shielded", None)
        unknown = K.N_CARD_TABLE
        for r in range(self.players):
            i = (me + r) % self.players
            down = 0
            for cell in st.layouts[i]:
                card = cell.card
                if card >= K.EMPTY0:
                    rows.append(unknown)
                    continue
                code = PRESENT
                if cell.face_up:
                    code |= FACE_UP
                else:
                    down += 1
                if me in cell.known_to:
                    code |= KNOWN
                else:
                    card = unknown
                if shields is not None and cell.peeked_by:
                    code |= (BY_OWNER if i in cell.peeked_by else 0) | \
                        (BY_OTHER if len(cell.peeked_by) > (i in cell.peeked_by) else 0)
                rows.append(code * CARD_ROWS + card)
            rows.extend([unknown] * (K.MAX_POS - len(st.layouts[i])))
            points, banked = st.penalty[i], st.bank[i]
            public += (down / K.MAX_POS, shields[i] if shields is not None else 0,
                       st.skip_next_turn[i], clip(points / POINTS_SCALE) if points else 0,
                       clip(banked / POINTS_SCALE) if banked else 0)
        at = self.offset["positions"]
        self.cells.take(np.array(rows, dtype=np.intp), axis=0,
                        out=out[at:at + self.players * K.MAX_POS * CELL].reshape(-1, CELL))
        at = self.offset["seats"]
        out[at:at + len(public)] = public


@lru_cache(maxsize=32)
def card_tables(rules, players: int):
    """The tables of a rule set's cards, shared by its envs: [card id] its features (a row of
    zeros after the last id: no card known); [flag bits * CARD_ROWS + card id] a position's
    cell; [card id] its rank; [rank] 1 / its copies in the deck; the deck's size."""
    cards = CardTable(rules, players)
    scale = max([VALUE_SCALE] + [abs(cards.value[c]) for c in cards.deck])
    card = np.zeros((CARD_ROWS, CARD), dtype=np.float32)
    rank = np.zeros(K.N_CARD_TABLE, dtype=np.int64)
    for c in cards.deck:
        card[c, C.rank_of(c)] = 1
        if C.suit_of(c) >= 0:
            card[c, C.N_RANKS + C.suit_of(c)] = 1
        card[c, CARD - 1] = cards.value[c] / scale
        rank[c] = C.rank_of(c)
    cells = np.concatenate([np.repeat(FLAG_ROWS, CARD_ROWS, axis=0),
                            np.tile(card, (len(FLAG_ROWS), 1))], axis=1)
    copies = np.bincount(rank[cards.deck], minlength=C.N_RANKS)
    return card, cells, rank, 1.0 / np.maximum(copies, 1), len(cards.deck)


def action_mask(obs) -> np.ndarray:
    """The legal actions of a pending decision (a reference Observation), int8."""
    mask = np.zeros(K.N_ACTIONS, dtype=np.int8)
    mask[list(obs.legal)] = 1
    return mask


def clip(x: float) -> float:
    return max(-1.0, min(1.0, x))
