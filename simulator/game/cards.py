"""Card encoding shared by the compiled engine, the reference engine and the CLI.

A card is a small integer ``id = copy * CARDS_PER_DECK + suit * 13 + rank`` for the 52 suited
cards, and ``copy * CARDS_PER_DECK + 52 + j`` for the jokers of deck copy ``copy``. Cards from
different decks are distinct objects (so conservation can be checked) but compare equal for
pairing through the rule-dependent ``card_key`` table built by :mod:`simulator.game.rules`.
"""

from __future__ import annotations

import re

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_JOKER = 13
N_RANKS = 14  # 13 ranks plus the joker
RANK_NAMES = RANKS + ("Joker",)   # by rank index, the joker's included
SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
CARDS_PER_DECK = 54  # 52 suited cards plus room for two jokers
EMPTY = -1  # "no card here" in every card-valued array

RANK_ACE, RANK_TWO, RANK_EIGHT, RANK_TEN = 0, 1, 7, 9
RANK_JACK, RANK_QUEEN, RANK_KING = 10, 11, 12
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3


def card_id(rank: int, suit: int, copy: int = 0) -> int:
    if rank == RANK_JOKER:
        return copy * CARDS_PER_DECK + 52 + suit % 2
    return copy * CARDS_PER_DECK + suit * 13 + rank


def rank_of(card: int) -> int:
    local = card % CARDS_PER_DECK
    return RANK_JOKER if local >= 52 else local % 13


def suit_of(card: int) -> int:
    """Suit 0..3; jokers report -1."""
    local = card % CARDS_PER_DECK
    return -1 if local >= 52 else local // 13


def is_red(card: int) -> bool:
    return suit_of(card) in (HEARTS, DIAMONDS)


def card_name(card: int, ascii_only: bool = False) -> str:
    if card == EMPTY:
        return "--"
    r = rank_of(card)
    if r == RANK_JOKER:
        return "JK"
    suits = SUITS if ascii_only else SUIT_SYMBOLS
    return RANKS[r] + suits[suit_of(card)]


_SUIT_ALIASES = {"S": 0, "♠": 0, "♤": 0, "H": 1, "♥": 1, "♡": 1, "D": 2, "♦": 2, "♢": 2,
                 "C": 3, "♣": 3, "♧": 3}
_RANK_ALIASES = {name: i for i, name in enumerate(RANKS)}
_RANK_ALIASES.update({"T": 9, "1": 0})
_CARD_RE = re.compile(r"^(10|[2-9AJQKT1])([SHDC♠♤♥♡♦♢♣♧]?)$")


class CardParseError(ValueError):
    pass


def parse_card(text: str) -> tuple[int, int]:
    """Parse ``K♠``, ``KS``, ``10h``, ``Th``, ``JK`` (joker) into (rank, suit).

    The suit may be omitted (``8``), which is useful for layouts where only ranks matter;
    such a card gets suit -1 and the caller assigns a concrete suit.
    """
    t = text.strip().upper()
    if t in ("JK", "JOKER", "🃏"):
        return RANK_JOKER, 0
    m = _CARD_RE.match(t)
    if not m:
        raise CardParseError(
            f"cannot read card {text!r}: expected a rank (A, 2-10, T, J, Q, K) and a suit "
            "(S H D C or ♠ ♥ ♦ ♣), e.g. K♠, KS, 10H, TH, or JK for a joker")
    rank = _RANK_ALIASES[m.group(1)]
    suit = _SUIT_ALIASES[m.group(2)] if m.group(2) else -1
    return rank, suit


def parse_layout_cards(text: str, rows: int, cols: int) -> list[tuple[int, int]]:
    """Parse a grid written row by row, rows separated by '/', into (rank, suit) pairs
    (row-major); suit is -1 where none was written (and 0 for a joker)."""
    row_texts = [r for r in text.replace("|", "/").split("/")]
    cells = [tok for r in row_texts for tok in r.replace(",", " ").split()]
    row_lens = [len(r.replace(",", " ").split()) for r in row_texts]
    if len(cells) != rows * cols or any(n != cols for n in row_lens):
        raise CardParseError(
            f"layout {text!r} has rows of {row_lens} cards; this rule set needs {rows} rows "
            f"of {cols} cards separated by '/'")
    return [parse_card(tok) for tok in cells]


def parse_layout(text: str, rows: int, cols: int) -> list[int]:
    """Parse a grid written row by row, rows separated by '/', into card ids (row-major).

    Repeated physical cards (e.g. two K♠ with two decks, or cards without a suit) are given
    successive deck copies so that every card id is distinct.
    """
    used: dict[tuple[int, int], int] = {}
    ids = []
    for rank, suit in parse_layout_cards(text, rows, cols):
        if suit < 0:
            suit = 0
        copy = used.get((rank, suit), 0)
        if rank == RANK_JOKER:
            # two jokers per deck copy: alternate colour before taking a new copy
            n = used.get((rank, 0), 0)
            used[(rank, 0)] = n + 1
            ids.append((n // 2) * CARDS_PER_DECK + 52 + n % 2)
            continue
        used[(rank, suit)] = copy + 1
        ids.append(card_id(rank, suit, copy))
    return ids
