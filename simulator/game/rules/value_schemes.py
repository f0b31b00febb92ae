"""The named card-value tables (value_scheme, docs/rules.md#card-values) and the joker values
that pair apart."""

from __future__ import annotations


VALUE_SCHEMES = ("basic", "six_card", "harder", "whitnack", "fuchs_nines", "malaysia", "pablo",
                 "cumbia", "cabo", "cactus")
# rank -> value for A..K, then the joker (None: the table has no joker value)
SCHEME_TABLES = {
    "basic": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, None),
    "six_card": (1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, None),
    "harder": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, None),
    "whitnack": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, -5),
    "fuchs_nines": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 0, 10, -2),
    "malaysia": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10),
    "pablo": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, -5),
    "cumbia": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, None),
    "cabo": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, None),
    "cactus": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, None),
}
# the red king of the Dutch powers table, a value rule rather than an action
DUTCH_RED_KING = -1
JOKER_PLUS15 = "plus15_pair_minus5"
JOKER_EAGLE = "plus2_pair_minus4"
# value_joker values that give a joker one value alone and another, for the two, when two
# jokers pair: (alone, pair)
JOKER_PAIR_SCHEMES = {JOKER_PLUS15: (15, -5), JOKER_EAGLE: (2, -4)}
