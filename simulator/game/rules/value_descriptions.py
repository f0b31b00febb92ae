"""What each named value of an option means."""

from __future__ import annotations


# What each named value of an option means, where the option's own description does not say
# (docs/rules.md lists them under the option; tests/test_docs.py keeps them complete).
VALUE_DESCRIPTIONS: dict[str, dict[str, str]] = {
    "bonus_card": {
        "none": "no bonus cards",
        "twos": "the twos are worth -2",
        "one_eyed_jacks": "the one-eyed jacks (J♠, J♥) are worth -2",
    },
    "initial_reveal_mode": {
        "none": "nobody sees a card of its layout before play",
        "flip": "each player turns cards face up, for everyone to see",
        "peek": "each player looks at cards privately and leaves them face down",
        "flip_on_first_turn": "each player turns its cards face up at the start of its first "
                              "turn, then plays the turn",
    },
    "initial_reveal_constraint": {
        "any": "any positions",
        "nearest_row": "positions in the row nearest the owner (the last row)",
        "same_column": "positions in one column",
        "different_columns": "positions in different columns",
        "centre_and_outer": "one card of the centre column and one of an outer column (an odd "
                            "number of columns)",
        "whole_column": "every card of one column",
    },
    "initial_reveal_order": {
        "turn_order": "seat by seat, starting with the first player, each seeing what the "
                      "earlier seats revealed",
        "simultaneous": "all seats at once",
    },
    "placement_face": {
        "up": "face up, seen by everyone",
        "down": "face down; its owner knows it (everyone does when it was the top discard)",
        "player_choice": "the player chooses when it replaces a face-down card; a card that "
                         "replaces a face-up card is always face up",
    },
    "flip_after_stock_discard": {
        "none": "no flip",
        "mandatory": "the player must turn one of its face-down cards face up",
        "mandatory_unless_one_face_down": "the player must turn one face-down card up, except "
                                          "that with one face-down card left the flip is "
                                          "optional",
        "optional_in_endgame": "no flip until some player (the discarder included) has at "
                               "most one face-down card; from then on the player may turn "
                               "one face-down card up",
    },
    "end_triggers": {
        "knock": "a player may knock (see knock_timing)",
        "all_face_up": "a player whose whole layout is face up at the end of its turn ends "
                       "the hole",
        "all_players_face_up": "the hole ends, with no final turns, once every layout is "
                               "entirely face up",
        "stock_exhausted": "the hole ends as soon as the action that took the last stock "
                           "card is complete, with no final turns (needs stock_empty "
                           "= end_hole)",
        "call": "a player may call the end, named call_name (the knock of the power-card "
                "games, timed by knock_timing)",
        "empty_layout": "the hole ends as soon as the action that left a player without "
                        "layout cards is complete, with no final turns (the power-card "
                        "games)",
    },
    "owner_view": {
        "none": "owners know only the cards they have seen",
        "initially_peeked": "owners may look again at the positions they saw at the start and "
                            "at the cards put there",
        "all": "owners see every card of their own layout at all times (cards held in hand)",
    },
    "knock_timing": {
        "instead_of_turn": "the knock is the whole turn",
        "end_of_own_turn": "a player may knock right after playing its turn",
        "any_time_in_turn": "either instead of a turn or right after it (knocking first and "
                            "then playing the turn would gain nothing over knocking after it, "
                            "AMB-12)",
    },
    "final_turns": {
        "none": "the hole ends at once",
        "each_other_player_once": "every other player plays one more turn; the ender does not "
                                  "play again",
        "complete_lap": "only the players after the ender up to the dealer (the last seat) "
                        "play once more",
    },
    "stock_empty": {
        "reshuffle_keep_top": "when a player must draw from an empty stock, the discard pile "
                              "but its top card is shuffled into a new stock",
        "end_hole": "the hole ends after the turn in which the stock runs out",
    },
    "value_joker": {
        "plus15_pair_minus5": "an unpaired joker scores +15; two jokers that pair under "
                              "pair_scope score -5 together",
        "plus2_pair_minus4": "an unpaired joker scores +2; two jokers that pair under "
                             "pair_scope score -4 together",
    },
    "one_eyed_jacks": {
        "normal": "ordinary jacks",
        "wild": "wild for pairing, as the option's description says",
        "zero": "worth 0",
        "bonus": "worth -2",
    },
    "match_key": {
        "rank": "equal rank (jokers pair with jokers)",
        "point_value": "equal point value (a jack and a queen both worth 10 pair)",
    },
    "pair_scope": {
        "none": "no two cards cancel",
        "column": "two equal cards in the same column",
        "row_or_column": "two equal cards in the same row or column",
        "row_column_diagonal": "two equal cards in the same row, column or diagonal",
        "anywhere": "any two equal cards of the layout",
        "orthogonal_adjacent": "equal cards side by side or one above the other; a card may "
                               "be part of several pairs",
    },
    "line_sets": {
        "none": "no lines",
        "columns": "columns of three",
        "rows_and_columns": "rows and columns of three",
        "rows_columns_diagonals": "rows, columns and both diagonals",
    },
    "ender_penalty": {
        "none": "s (no penalty)",
        "plus_10": "s + 10",
        "plus_20": "s + 20",
        "double_plus_5": "2s + 5",
        "double": "2s",
        "equal_highest": "the highest layout value of the hole, H",
        "plus_twice_players": "s + 2N",
        "plus_lowest_score": "s + m, the lowest layout value among the others",
        "plus_highest_opponent": "s + the highest layout value among the others",
    },
    "ender_bonus": {
        "none": "s (no bonus)",
        "zero": "0",
        "minus_players": "s - N",
        "fixed_minus_10": "-10",
    },
    "ender_tie": {
        "neutral": "neither penalty nor bonus",
        "counts_as_lowest": "the ender counts as lowest (bonus)",
        "counts_as_not_lowest": "the ender counts as not lowest (penalty)",
    },
    "ender_rule_applies_to": {
        "knock_only": "only an ender who knocked",
        "any_ender": "whoever ended the hole: by knocking, by turning its last card face up "
                     "or by flipping all",
    },
    "power_set": {
        "none": "no power cards",
        "malaysia": "J peek own, Q peek an opponent's, K swap own and opponent's blind, joker "
                    "shuffle an opponent's face-down cards (docs/rules.md#power_malaysia)",
        "pablo": "7 look at an opponent's card, then swap it with one of yours blind; 8 peek "
                 "at any card",
        "cumbia": "4, 5 peek own; 6, 7 peek an opponent's; 10 swap any two blind; J peek own "
                  "and an opponent's, then swap them if you like",
        "cabo": "7, 8 peek own; 9, 10 peek an opponent's; J, Q swap any two blind",
        "cactus": "6, 7, 8 peek own; 9, 10, J peek an opponent's; Q swap own and opponent's "
                  "blind",
        "dutch": "the Dutch table (docs/rules.md#power-card-games), each card switched by dutch_powers",
    },
    "power_source": {
        "stock_only": "a power works only when its card is drawn from the stock",
        "stock_or_unused_discard": "also: a whole turn using the power of the top discard, "
                                   "unless its power was used when it was discarded (Cactus)",
    },
    "snap_mode": {
        "none": "no snaps",
        "cumbia": "after a turn's discard anyone may take one card from any layout, blind; a "
                  "match is discarded (taken from an opponent, the snapper gives that "
                  "opponent one of its own cards blind), a miss goes back and, taken from an "
                  "opponent, costs snap_penalty_opponent_miss points",
        "cactus": "after a turn's discard anyone may discard one of its own cards onto it, "
                  "blind; a miss goes back and the snapper draws snap_penalty_cards cards",
    },
    "turn_match_mode": {
        "none": "no turn matches",
        "pablo_multi_replace": "the held card replaces two or more equal own cards at once; "
                               "if they are not all equal they stay, shown, and the held card "
                               "is added as an extra card",
        "cabo_match": "the held card is matched against nominated cards of any layouts: "
                      "equal ones are discarded (an opponent's is replaced by one of the "
                      "matcher's cards, blind), each other one costs match_fail_penalty_cards "
                      "cards",
    },
    "non_caller_rule": {
        "layout_value": "their layout value",
        "zero_if_not_above_caller": "0 when their layout value is at most the caller's "
                                    "(Cactus)",
    },
    "match_end_mode": {
        "holes": "a fixed number of holes (match_end_holes)",
        "target": "after the hole in which some total reaches match_end_target",
        "manual": "when the players stop",
    },
}
