"""The named presets (docs/rules.md#presets) and the power-card games'
(docs/rules.md#power-card-games)."""

from __future__ import annotations


# the table of the four-card games (four_card and its named variants): their options but the
# reveal, the face of placements, the ending and the pair scope of the hand game
_FOUR_CARD_TABLE = {"players_max": 8, "deck_thresholds": ((2, 1), (8, 2)), "grid_cols": 2,
                    "value_scheme": "basic", "pair_scope": "row_or_column"}
PRESETS: dict[str, dict] = {
    "four_card": {
        **_FOUR_CARD_TABLE, "initial_reveal_mode": "peek", "placement_face": "down",
        "end_triggers": ("knock",),
    },
    "four_card_in_hand": {
        **_FOUR_CARD_TABLE, "layout_mode": "hand", "initial_reveal_mode": "none",
        "owner_view": "all", "placement_face": "down", "end_triggers": ("knock",),
        "pair_scope": "anywhere",
    },
    "six_card": {},
    "eight_card_whitnack": {
        "players_max": 4, "decks": 2, "jokers_per_deck": 2, "grid_cols": 4,
        "initial_reveal_mode": "flip_on_first_turn", "initial_reveal_constraint": "whole_column",
        "flip_after_stock_discard": "mandatory_unless_one_face_down", "value_scheme": "whitnack",
        "quad_two_columns_value": -10,
    },
    "eight_card_basic": {"grid_cols": 4, "decks": 2, "players_max": 8},
    "nine_card": {
        "players_max": 8, "decks": 2, "grid_rows": 3, "grid_cols": 3,
        "initial_reveal_count": 3, "pair_scope": "none", "line_sets": "columns",
    },
    "ten_card": {"grid_cols": 5, "decks": 2, "players_max": 8},
    # named variants of the four- and nine-card games (docs/rules.md#presets)
    "four_card_face_up": {
        **_FOUR_CARD_TABLE, "initial_reveal_mode": "peek", "placement_face": "up",
        "end_triggers": ("all_face_up",),
    },
    "four_card_strict": {
        **_FOUR_CARD_TABLE, "initial_reveal_mode": "none", "placement_face": "up",
        "replace_face_up_allowed": False, "flip_after_stock_discard": "mandatory",
        "end_triggers": ("all_players_face_up",),
    },
    "nine_card_moraco": {
        "players_max": 8, "decks": 2, "grid_rows": 3, "grid_cols": 3,
        "initial_reveal_count": 3, "pair_scope": "orthogonal_adjacent",
    },
    "nine_card_fuchs": {
        "players_max": 8, "decks": 2, "jokers_per_deck": 2, "grid_rows": 3, "grid_cols": 3,
        "initial_reveal_mode": "none", "value_scheme": "fuchs_nines", "pair_scope": "none",
        "line_sets": "rows_and_columns", "remove_cancelled": "immediate",
    },
}
# The power-card games (docs/rules.md#power-card-games), each inheriting four_card as its YAML block says. The
# named value tables give every card of a rank one value, so the suit-specific values of
# docs/rules.md#power-card-games are set here: Cumbia's red kings -5 and 2♦ -10, Cabo's K♦ 0 (TV-D15).
_FOUR_CARD = PRESETS["four_card"]
POWER_PRESETS: dict[str, dict] = {
    "power_malaysia": {
        **_FOUR_CARD, "decks": 1, "jokers_per_deck": 2, "value_scheme": "malaysia",
        "pair_scope": "none", "power_set": "malaysia", "end_triggers": ("stock_exhausted",),
        "stock_empty": "end_hole", "match_end_mode": "holes", "match_end_holes": 9,
    },
    "power_pablo": {
        **_FOUR_CARD, "decks": 1, "jokers_per_deck": 2, "value_scheme": "pablo",
        "pair_scope": "none", "power_set": "pablo", "turn_match_mode": "pablo_multi_replace",
        "end_triggers": ("call",), "call_name": "Pablo", "knock_timing": "end_of_own_turn",
        "final_turns": "each_other_player_once", "ender_penalty": "plus_highest_opponent",
        "ender_bonus": "fixed_minus_10", "ender_tie": "neutral", "match_end_mode": "target",
        "match_end_target": 100,
    },
    "power_cumbia": {
        **_FOUR_CARD, "decks": 1, "jokers_per_deck": 0, "value_scheme": "cumbia",
        "value_red_king": -5, "value_two_of_diamonds": -10,
        "pair_scope": "none", "match_key": "point_value", "power_set": "cumbia",
        "power_card_placeable": False, "snap_mode": "cumbia", "snap_penalty_opponent_miss": 10,
        "end_triggers": ("call",), "call_name": "Cumbia", "knock_timing": "any_time_in_turn",
        "final_turns": "each_other_player_once", "ender_penalty": "none",
        "ender_bonus": "none", "match_end_mode": "holes", "match_end_holes": 7,
    },
    "power_cabo": {
        **_FOUR_CARD, "decks": 1, "jokers_per_deck": 0, "value_scheme": "cabo",
        "value_king_of_diamonds": 0, "pair_scope": "none", "match_key": "rank",
        "power_set": "cabo", "turn_match_mode": "cabo_match", "match_fail_penalty_cards": 1,
        "end_triggers": ("call", "empty_layout", "stock_exhausted"), "stock_empty": "end_hole",
        "call_name": "Cabo", "knock_timing": "any_time_in_turn",
        "final_turns": "each_other_player_once", "match_end_mode": "target",
        "match_end_target": 100,
    },
    "power_cactus": {
        **_FOUR_CARD, "players_min": 2, "players_max": 8, "decks": 1, "jokers_per_deck": 0,
        "initial_discard": "none", "value_scheme": "cactus", "pair_scope": "none",
        "power_set": "cactus", "power_source": "stock_or_unused_discard",
        "snap_mode": "cactus", "snap_penalty_cards": 2, "end_triggers": ("call",),
        "call_name": "Cactus", "knock_timing": "end_of_own_turn",
        "final_turns": "each_other_player_once", "ender_penalty": "plus_10",
        "ender_bonus": "zero", "ender_tie": "counts_as_not_lowest",
        "non_caller_rule": "zero_if_not_above_caller", "first_player": "previous_hole_winner",
        "match_end_mode": "target", "match_end_target": 100, "match_tie": "extra_holes",
    },
}
PRESETS.update(POWER_PRESETS)
PRESET_DESCRIPTIONS = {  # each preset's section in docs/rules.md is docs/rules.md#<name>
    "four_card": "4-card Golf: 2x2 grid, peek at two, face-down memory play, knock to end, "
                 "pairs in a row or column cancel",
    "four_card_in_hand": "4 cards held in hand: the owner sees them all, any two equal cards "
                         "cancel, knock to end",
    "six_card": "6-card Golf: 2x3 grid, flip two, face-up replacement, column pairs cancel",
    "eight_card_whitnack": "8-card Golf (Bill Whitnack): 108 cards, a column flipped on the "
                           "first turn, two equal pair-columns score -10",
    "eight_card_basic": "8-card Golf by the 6-card rules on a 2x4 grid, two decks",
    "nine_card": "9-card Golf: 3x3 grid, flip three, a column of three equal cards scores 0, "
                 "single pairs do not cancel",
    "ten_card": "10-card Golf by the 6-card rules on a 2x5 grid, two decks",
    "four_card_face_up": "4-card Golf in face-up mode: peek at two, replacements face up, the "
                         "others get one more turn when a layout is all face up",
    "four_card_strict": "4-card Golf, strict face-up mode: no peeking, face-up cards stay, a "
                        "discarded stock card forces a flip, the hole ends when every card is "
                        "face up",
    "nine_card_moraco": "9-card Golf, Stephen Moraco's version: every pair of equal cards side "
                        "by side or one above the other scores 0",
    "nine_card_fuchs": "9-card Golf, Jesse Fuchs's version: nothing turned up at the start, "
                       "queens 0, kings 10, jokers -2, rows and columns of three equal cards "
                       "leave the layout as soon as they are formed",
    "power_malaysia": "power-card Golf, Malaysia: J peek own, Q peek an opponent's, K blind "
                      "swap, joker shuffles an opponent; no calling, the hole ends when the "
                      "stock runs out",
    "power_pablo": "power-card Golf, Pablo: 7 look at an opponent's card and swap it, 8 peek "
                   "at any card, replace several equal cards at once; call Pablo: -10 when "
                   "lowest, else plus the highest opponent",
    "power_cumbia": "power-card Golf, Cumbia: peeks, blind swaps, power cards never placed; "
                    "anyone snaps a matching card from any layout; call Cumbia",
    "power_cabo": "power-card Golf, Cabo: peeks and swaps, match the held card against "
                  "equal cards anywhere; call Cabo, or empty your layout, or run the stock out",
    "power_cactus": "power-card Golf, Cactus: no turn-up, peeks and blind swaps, the unused "
                    "power of the top discard, snaps of own cards; call Cactus: 0 when "
                    "strictly lowest, else +10",
}


def preset_reference(name: str) -> str:
    """Where the project's rules reference describes preset ``name``."""
    return f"docs/rules.md#{name}"
