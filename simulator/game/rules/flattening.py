"""Card values and the flattening of a rule set into the arrays the compiled kernel reads at run
time."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import cards as C
from .. import codes as K
from ..effects import COMBINABLE, effect_of
from .checks import _couples_two_columns
from .rule_set import Rules
from .value_schemes import JOKER_PAIR_SCHEMES, SCHEME_TABLES


def card_values(r: Rules, n_decks: int = 1) -> np.ndarray:
    """Value of every card id (all deck copies) under the rule set."""
    table = list(SCHEME_TABLES[r.value_scheme])
    jokers_on = r.has_jokers
    if r.value_two is not None:
        table[C.RANK_TWO] = r.value_two
    if r.twos_positive_with_jokers and jokers_on:
        table[C.RANK_TWO] = 2
    for rank, v in ((C.RANK_JACK, r.value_jack), (C.RANK_QUEEN, r.value_queen),
                    (C.RANK_KING, r.value_king), (C.RANK_EIGHT, r.value_eight),
                    (C.RANK_TEN, r.value_ten)):
        if v is not None:
            table[rank] = v
    joker = r.value_joker
    if joker in JOKER_PAIR_SCHEMES:
        joker = JOKER_PAIR_SCHEMES[joker][0]
    elif joker is None:
        joker = table[C.RANK_JOKER] if table[C.RANK_JOKER] is not None else -2
    table[C.RANK_JOKER] = joker
    if r.bonus_card == "twos":
        table[C.RANK_TWO] = -2

    values = np.zeros(n_decks * C.CARDS_PER_DECK, dtype=np.int64)
    for cid in range(values.size):
        rank = C.rank_of(cid)
        values[cid] = suited_value(r, rank, C.suit_of(cid), table[rank])
    return values


def suited_value(r: Rules, rank: int, suit: int, value: int) -> int:
    """``value``, the value of a card of ``rank``, as its suit changes it under the rule set
    (the single-card options: the queen of spades, red and black kings, the king and the two
    of diamonds, the one-eyed jacks), applied after every rank's value."""
    if rank == C.RANK_QUEEN and suit == C.SPADES and r.value_queen_of_spades is not None:
        value = r.value_queen_of_spades
    if rank == C.RANK_KING:
        red = suit in (C.HEARTS, C.DIAMONDS)
        if red and r.red_king_value is not None:
            value = r.red_king_value
        if not red and r.value_black_king is not None:
            value = r.value_black_king
        if suit == C.DIAMONDS and r.value_king_of_diamonds is not None:
            value = r.value_king_of_diamonds
    if rank == C.RANK_TWO and suit == C.DIAMONDS and r.value_two_of_diamonds is not None:
        value = r.value_two_of_diamonds
    if rank == C.RANK_JACK and suit in (C.SPADES, C.HEARTS):   # the one-eyed jacks
        if r.one_eyed_jacks == "zero":
            value = 0
        elif r.one_eyed_jacks == "bonus" or r.bonus_card == "one_eyed_jacks":
            value = -2
    return value


def card_keys(r: Rules, values: np.ndarray) -> np.ndarray:
    """Pairing key of every card id: equal keys pair."""
    if r.match_key == "point_value":
        return values.copy()
    return np.array([C.rank_of(c) for c in range(values.size)], dtype=np.int64)


def value_groups(values: np.ndarray, rank: int) -> list[tuple[str, int]]:
    """The cards of a suited rank grouped by their value (``values``: card_values), in suit
    order: [("", v)] when every suit is worth v, else [(suit symbols, value), ...]."""
    by_value: dict[int, str] = {}
    for suit, symbol in enumerate(C.SUIT_SYMBOLS):
        v = int(values[C.card_id(rank, suit)])
        by_value[v] = by_value.get(v, "") + symbol
    if len(by_value) == 1:
        return [("", next(iter(by_value)))]
    return [(suits, v) for v, suits in by_value.items()]


def card_values_text(r: Rules) -> str:
    """Every card's value under ``r`` on one line, rank by rank ("A=1, 2=-2, ..., K=0"). A
    rank whose suits differ is split by suit ("K♠♣=0, K♥♦=-1"); jokers appear only when the
    decks hold them."""
    values = card_values(r)
    parts = [f"{name}{suits}={v}" for rank, name in enumerate(C.RANKS)
             for suits, v in value_groups(values, rank)]
    if r.has_jokers:
        joker = f"joker={int(values[C.card_id(C.RANK_JOKER, 0)])}"
        if r.value_joker in JOKER_PAIR_SCHEMES:
            joker += f" (two that pair: {JOKER_PAIR_SCHEMES[r.value_joker][1]})"
        parts.append(joker)
    return ", ".join(parts)


class RuleArrays(NamedTuple):
    """What the kernel needs: the rule slots, per-card tables and the deck in canonical order."""
    ri: np.ndarray          # int64[N_RULE_SLOTS]
    card_value: np.ndarray  # int64[n_ids]
    card_key: np.ndarray    # int64[n_ids]
    deck: np.ndarray        # int16[n_cards] card ids, canonical order before shuffling


def layout_kind(r: Rules) -> int:
    """Which simple case of the layout scorer the rules are (K.LAYOUT_*): the kernels score
    those in place, without calls."""
    if r.six_of_kind_value is not None or r.one_eyed_jacks == "wild" or \
            r.line_sets != "none" or _couples_two_columns(r):
        return K.LAYOUT_GENERAL
    if r.pair_scope == "none":
        return K.LAYOUT_SUM
    if r.pair_scope == "column" and r.grid_rows == 2:
        return K.LAYOUT_COLUMNS
    return K.LAYOUT_GENERAL


def plain_hole(r: Rules) -> bool:
    """Is every seat's hole score its layout value plus its extras (points paid to peek)?"""
    return (r.quad_others_penalty == 0 and r.ender_penalty == "none" and
            r.ender_bonus == "none" and not r.lowest_scores_zero and r.shoot_the_moon is None
            and not r.twenty_one_scores_zero and r.ender_extra == 0 and r.lowest_bonus == 0
            and r.tie_penalty == 0 and r.non_caller_rule == "layout_value")


def _nullable(v) -> int:
    return K.NONE_VALUE if v is None else int(v)


def _flatten_effects(r: Rules, ri: np.ndarray) -> None:
    """Each card's power as rule data: the effect of each rank (a black card of it) and of
    a red king (the only card whose colour matters, powers.effect_of), and the ranks the
    Dutch 2 may combine, so the compiled games never derive them."""
    if r.power_set == "none":
        return
    for rank in range(C.RANK_JOKER + 1):
        ri[K.R_EFFECT0 + rank] = effect_of(r, C.card_id(rank, 0))
    ri[K.R_EFFECT_RED_KING] = effect_of(r, C.card_id(C.RANK_KING, 1))
    if r.power_set == "dutch":
        ri[K.R_COMBINABLE] = sum(1 << C.RANKS.index(name) for name in COMBINABLE
                                 if name in r.dutch_powers)


def flatten(r: Rules, players: int) -> RuleArrays:
    r.check_players(players)
    n_decks = r.decks_for(players)
    values = card_values(r, n_decks)
    keys = card_keys(r, values)
    deck = np.array([copy * C.CARDS_PER_DECK + local
                     for copy in range(n_decks) for local in r.deck_locals(copy)],
                    dtype=np.int16)
    dealt = values[deck.astype(np.int64)]
    ri = np.zeros(K.N_RULE_SLOTS, dtype=np.int64)
    slots = {**_deal_and_turn_slots(r, players, deck, dealt), **_scoring_slots(r),
             **_other_slots(r)}
    for slot, v in slots.items():
        ri[slot] = v
    _flatten_effects(r, ri)
    return RuleArrays(ri, values, keys, deck)


def _deal_and_turn_slots(r: Rules, players: int, deck: np.ndarray, dealt: np.ndarray) -> dict:
    """The rule slots of the deal, the reveal, the turn and the hole's end."""
    count = r.grid_cols if r.initial_reveal_count == -1 else r.initial_reveal_count
    triggers = 0
    for t in r.end_triggers:
        triggers |= {"knock": K.END_KNOCK, "all_face_up": K.END_ALL_FACE_UP,
                     "all_players_face_up": K.END_ALL_PLAYERS_FACE_UP,
                     "stock_exhausted": K.END_STOCK_EXHAUSTED, "call": K.END_CALL,
                     "empty_layout": K.END_EMPTY_LAYOUT}[t]
    return {
        K.R_PLAYERS: players, K.R_ROWS: r.grid_rows, K.R_COLS: r.grid_cols,
        K.R_NPOS: r.n_positions, K.R_NCARDS: deck.size,
        K.R_DECK_SUM: int(dealt.sum()),
        K.R_MAX_ABS_VALUE: int(np.abs(dealt).max()),
        K.R_REVEAL_MODE: K.REVEAL_MODES.index(r.initial_reveal_mode),
        K.R_REVEAL_COUNT: 0 if r.initial_reveal_mode == "none" else count,
        K.R_REVEAL_CONSTRAINT: K.REVEAL_CONSTRAINTS.index(r.initial_reveal_constraint),
        K.R_REVEAL_SEQUENTIAL: int(r.initial_reveal_sequential),
        K.R_REVEAL_SIMULTANEOUS: int(r.initial_reveal_order == "simultaneous"),
        K.R_PLACEMENT_FACE: K.PLACEMENT_FACES.index(r.placement_face),
        K.R_REPLACE_FACE_UP: int(r.replace_face_up_allowed),
        K.R_LOCK_FACE_UP_COLUMNS: int(r.lock_face_up_columns),
        K.R_FLIP_INSTEAD_OF_DRAW: int(r.flip_instead_of_draw),
        K.R_FLIP_AFTER_DISCARD: K.FLIP_AFTER_DISCARD.index(r.flip_after_stock_discard),
        K.R_FLIP_ALL_TO_END: int(r.flip_all_to_end),
        K.R_END_TRIGGERS: triggers,
        K.R_FINAL_TURNS: K.FINAL_TURNS.index(r.final_turns),
        K.R_FINAL_STOCK_ONLY: int(r.final_turn_stock_only),
        K.R_STOCK_EMPTY: K.STOCK_EMPTY.index(r.stock_empty),
        K.R_TURN_CAP: r.turn_cap,
    }


def _scoring_slots(r: Rules) -> dict:
    """The rule slots of scoring: pairs and groups, the ender's and the lowest's rules."""
    return {
        K.R_PAIR_SCOPE: K.PAIR_SCOPES.index(r.pair_scope),
        K.R_NEG_PAIRS_KEEP: int(r.negative_pairs_keep_value),
        K.R_QUAD_VALUE: _nullable(r.quad_two_columns_value),
        K.R_QUAD_ADJACENT_ONLY: int(r.quad_two_columns_adjacent_only),
        K.R_QUAD_OTHERS_PENALTY: r.quad_others_penalty,
        K.R_BLOCK_VALUE: _nullable(r.block_2x2_value),
        K.R_SIX_KIND_VALUE: _nullable(r.six_of_kind_value),
        K.R_NEG_QUAD_VALUE: _nullable(r.negative_quad_value),
        K.R_JOKER_PAIR_VALUE: JOKER_PAIR_SCHEMES[r.value_joker][1]
        if r.value_joker in JOKER_PAIR_SCHEMES else K.NONE_VALUE,
        K.R_ENDER_PENALTY: K.ENDER_PENALTIES.index(r.ender_penalty),
        K.R_ENDER_BONUS: K.ENDER_BONUSES.index(r.ender_bonus),
        K.R_ENDER_TIE: K.ENDER_TIES.index(r.ender_tie),
        K.R_ENDER_APPLIES: K.ENDER_APPLIES.index(r.ender_rule_applies_to),
        K.R_ENDER_CLAMP: int(r.ender_clamp),
        K.R_LOWEST_SCORES_ZERO: int(r.lowest_scores_zero),
        K.R_SHOOT_MOON: _nullable(r.shoot_the_moon),
    }


def _other_slots(r: Rules) -> dict:
    """The other rule slots: the turn's house rules, matches and the pot, the layout's kind,
    the powers."""
    return {
        K.R_DISCARD_MUST_PLACE: int(r.discard_draw_must_be_placed),
        K.R_STOCK_MAY_DISCARD: int(r.stock_draw_may_be_discarded),
        K.R_KNOCK_TIMING: K.KNOCK_TIMINGS.index(r.knock_timing),
        K.R_DRAW_FROM_DISCARD: int(r.draw_from_discard),
        K.R_KNOCK_MIN_LAPS: r.knock_min_laps,
        K.R_REVEAL_ON_TRIGGER: int(r.reveal_on_trigger),
        K.R_OWNER_VIEW_ALL: int(r.owner_view == "all"),
        K.R_PAY_TO_PEEK: _nullable(r.pay_to_peek),
        K.R_JACK_SKIPS: int(r.jack_discard_skips_next),
        K.R_LINE_SETS: K.LINE_SETS.index(r.line_sets),
        K.R_FOUR_KIND_WINS: int(r.four_of_kind_wins_match),
        K.R_INITIAL_TURN_UP: int(r.initial_discard == "turn_up"),
        K.R_DEALER_RANDOM: int(r.dealer_selection == "random"),
        K.R_FIRST_WINNER: int(r.first_player == "previous_hole_winner"),
        K.R_MATCH_TIE: K.MATCH_TIES.index(r.match_tie),
        K.R_POT_ANTE: r.pot_ante if r.pot_enabled else 0,
        K.R_POT_CAP: r.pot_cap or 0,
        K.R_WILD_JACKS: int(r.one_eyed_jacks == "wild"),
        K.R_REARRANGE: int(r.rearrange_after_reveal),
        K.R_REPLACE_UNSEEN_ONCE: int(r.replace_unseen_once),
        K.R_PRIVATE_STOCK: int(r.private_stock_draw),
        K.R_REMOVE_CANCELLED: K.REMOVE_CANCELLED.index(r.remove_cancelled),
        K.R_BLIND: int(r.blind_replacement),
        K.R_QUAD_APART_VALUE: _nullable(r.quad_apart_value),
        K.R_JOKER_QUAD_VALUE: _nullable(r.joker_quad_value),
        K.R_JOKER_QUAD_APART: _nullable(r.joker_quad_apart_value),
        K.R_JACK_PAIRS_BONUS: r.jack_pairs_bonus,
        K.R_TWENTY_ONE_ZERO: int(r.twenty_one_scores_zero),
        K.R_ENDER_EXTRA: r.ender_extra,
        K.R_LOWEST_BONUS: r.lowest_bonus,
        K.R_TIE_PENALTY: r.tie_penalty,
        K.R_FLIP_ALL_MAX: K.MAX_POS if r.flip_all_max_face_down is None
        else r.flip_all_max_face_down,
        K.R_LAYOUT_KIND: layout_kind(r),
        K.R_PLAIN_HOLE: int(plain_hole(r)),
        K.R_POWER_SET: K.POWER_SETS.index(r.power_set),
        K.R_SNAP_MODE: K.SNAP_MODES.index(r.snap_mode),
        K.R_TURN_MATCH: K.TURN_MATCH_MODES.index(r.turn_match_mode),
        K.R_POWER_SOURCE: K.POWER_SOURCES.index(r.power_source),
        K.R_NON_CALLER: K.NON_CALLER_RULES.index(r.non_caller_rule),
        K.R_POWER_PLACEABLE: int(r.power_card_placeable),
        K.R_SNAP_MISS_POINTS: r.snap_penalty_opponent_miss,
        K.R_SNAP_PENALTY_CARDS: r.snap_penalty_cards,
        K.R_MATCH_FAIL_CARDS: r.match_fail_penalty_cards,
        K.R_SWAP_LINE_OK: int(r.layout_mode != "hand"),
    }
