"""Which card has which power: each power set's table of effects (docs/rules.md#power-card-games).

The rules check their power options against it (simulator/game/rules/), flatten it into the
rule data the compiled games read, and the power engine (simulator/game/powers/) resolves
the effects it names.
"""

from __future__ import annotations

from . import cards as C
from . import codes as K

_R = {name: i for i, name in enumerate(C.RANKS)}
_SET_EFFECTS = {
    "malaysia": {_R["J"]: K.POW_PEEK_OWN, _R["Q"]: K.POW_PEEK_OPP,
                 _R["K"]: K.POW_SWAP_OWN_OPP_BLIND, C.RANK_JOKER: K.POW_SHUFFLE_OPP},
    "pablo": {_R["7"]: K.POW_SWAP_AFTER_PEEK_OPP, _R["8"]: K.POW_PEEK_ANY},
    "cumbia": {_R["4"]: K.POW_PEEK_OWN, _R["5"]: K.POW_PEEK_OWN, _R["6"]: K.POW_PEEK_OPP,
               _R["7"]: K.POW_PEEK_OPP, _R["10"]: K.POW_SWAP_ANY_TWO,
               _R["J"]: K.POW_PEEK_BOTH_SWAP},
    "cabo": {_R["7"]: K.POW_PEEK_OWN, _R["8"]: K.POW_PEEK_OWN, _R["9"]: K.POW_PEEK_OPP,
             _R["10"]: K.POW_PEEK_OPP, _R["J"]: K.POW_SWAP_ANY_TWO,
             _R["Q"]: K.POW_SWAP_ANY_TWO},
    "cactus": {_R["6"]: K.POW_PEEK_OWN, _R["7"]: K.POW_PEEK_OWN, _R["8"]: K.POW_PEEK_OWN,
               _R["9"]: K.POW_PEEK_OPP, _R["10"]: K.POW_PEEK_OPP, _R["J"]: K.POW_PEEK_OPP,
               _R["Q"]: K.POW_SWAP_OWN_OPP_BLIND},
}
# the Dutch table by dutch_powers name ("K": the black king only)
DUTCH_EFFECTS = {"K": K.POW_CANCEL_FINAL, "J": K.POW_PEEK_OWN, "10": K.POW_PEEK_OPP,
                 "9": K.POW_EXCHANGE_THIS, "8": K.POW_DRAW_TWO, "7": K.POW_SWAP_LINE,
                 "6": K.POW_SWAP_OWN_OPP_BLIND, "5": K.POW_SHIELD, "4": K.POW_FLIP_OPP,
                 "3": K.POW_SHUFFLE_OPP, "2": K.POW_COMBINE, "A": K.POW_GIVE_OR_REMOVE}
# what the Dutch 2 may combine: the powers from the black king down to the 3
COMBINABLE = ("K", "J", "10", "9", "8", "7", "6", "5", "4", "3")


def ranks_with_powers(power_set: str) -> tuple[str, ...]:
    """The ranks (as powers_off names them) that have a power in a named power set."""
    ranks = _SET_EFFECTS.get(power_set, {})
    return tuple("Joker" if r == C.RANK_JOKER else C.RANKS[r] for r in sorted(ranks))


def is_black_king(card: int) -> bool:
    return C.rank_of(card) == C.RANK_KING and not C.is_red(card)


def effect_of(rules, card: int) -> int:
    """The effect the card has under the power set of ``rules`` (a rules.Rules; POW_NONE:
    none)."""
    if rules.power_set == "dutch":
        rank = C.rank_of(card)
        if rank == C.RANK_JOKER:
            return K.POW_NONE
        name = C.RANKS[rank]
        if name == "K" and not is_black_king(card):
            return K.POW_NONE
        return DUTCH_EFFECTS[name] if name in rules.dutch_powers and name != "Q" else \
            K.POW_NONE
    rank = C.rank_of(card)
    if rules.powers_off and ("Joker" if rank == C.RANK_JOKER else C.RANKS[rank]) in \
            rules.powers_off:
        return K.POW_NONE
    return _SET_EFFECTS.get(rules.power_set, {}).get(rank, K.POW_NONE)
