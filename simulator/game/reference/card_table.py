"""Card values and pairing keys of a rule set (docs/rules.md#card-values,
docs/rules.md#match_key), and the cards of one table."""

from __future__ import annotations

from functools import lru_cache

from .. import cards as C
from .. import codes as K
from ..rules import JOKER_PAIR_SCHEMES, SCHEME_TABLES, Rules, suited_value


def card_value(rules: Rules, card: int) -> int:
    """Points of one card under the rule set: the named table, then the value_* overrides
    (rank overrides first, then single-card overrides, in the order the rule loader applies
    them)."""
    rank, suit = C.rank_of(card), C.suit_of(card)
    table = SCHEME_TABLES[rules.value_scheme]
    if rank == C.RANK_JOKER:
        if rules.value_joker in JOKER_PAIR_SCHEMES:
            return JOKER_PAIR_SCHEMES[rules.value_joker][0]
        if rules.value_joker is not None:
            return rules.value_joker
        return table[C.RANK_JOKER] if table[C.RANK_JOKER] is not None else -2
    value = table[rank]
    if rank == C.RANK_TWO:
        if rules.value_two is not None:
            value = rules.value_two
        if rules.twos_positive_with_jokers and rules.has_jokers:
            value = 2
        if rules.bonus_card == "twos":
            value = -2
    rank_override = {C.RANK_JACK: rules.value_jack, C.RANK_QUEEN: rules.value_queen,
                     C.RANK_KING: rules.value_king, C.RANK_EIGHT: rules.value_eight,
                     C.RANK_TEN: rules.value_ten}.get(rank)
    if rank_override is not None:
        value = rank_override
    return suited_value(rules, rank, suit, value)


def match_key(rules: Rules, card: int) -> int:
    """Two cards are 'equal' for pairing when their keys are equal (jokers match jokers)."""
    if rules.match_key == "point_value":
        return card_value(rules, card)
    return C.rank_of(card)


def is_joker(card: int) -> bool:
    return C.rank_of(card) == C.RANK_JOKER


@lru_cache(maxsize=256)
def _card_tables(rules: Rules, n_ids: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Value and key of every card id below n_ids, then (from K.EMPTY0) of the pseudo-card of
    each empty position (remove_cancelled): worth 0, with a key no other card has."""
    pad = K.EMPTY0 - n_ids
    return (tuple(card_value(rules, c) for c in range(n_ids)) + (0,) * pad +
            (0,) * K.MAX_POS,
            tuple(match_key(rules, c) for c in range(n_ids)) + (0,) * pad +
            tuple(K.EMPTY_KEY0 - p for p in range(K.MAX_POS)))


def is_empty(card: int) -> bool:
    """The pseudo-card of a position left empty by remove_cancelled?"""
    return card >= K.EMPTY0


class CardTable:
    """The cards of one rule set at one table size: the deck and every card's value and key."""

    def __init__(self, rules: Rules, players: int):
        self.decks = rules.decks_for(players)
        # canonical order: deck copy by deck copy, each 52 suited cards then its jokers
        self.deck = [copy * C.CARDS_PER_DECK + local
                     for copy in range(self.decks) for local in rules.deck_locals(copy)]
        self.value, self.key = _card_tables(rules, self.decks * C.CARDS_PER_DECK)
        self.deck_sum = sum(self.value[c] for c in self.deck)
