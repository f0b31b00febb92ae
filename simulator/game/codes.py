"""The compiled kernel's vocabulary: integer codes for option values, decision points, actions,
and the named slots of the flat arrays that carry rules and public state into Numba.

Everything here is a plain module-level int so that Numba folds it as a constant. These are
*names*, never rule values: a rule value always travels in the rule array, so changing a house
rule never recompiles anything.
"""

MAX_POS = 16       # layout positions, padded (largest grid 3x5; room for layouts that grow)
MAX_PLAYERS = 16
N_ACTIONS = 32

# ---- policy ids (column 0 of a run's policy table) ------------------------------------------
POLICY_RANDOM = 0
POLICY_GREEDY = 1
POLICY_KNOCK_THRESHOLD = 2
POLICY_HEURISTIC = 3
POLICY_FORGETFUL = 4
POLICY_OPPONENT_AWARE = 5
POLICY_EV = 6
POLICY_GUIDE = 7
POLICY_LOOKAHEAD = 50
POLICY_USER = 99      # the run's user policy (simulator/kernel/policy_api.py)

# greedy's stall rule (docs/policies.md#greedy): in a face-up game whose stock has been
# reshuffled this many times in the hole, a drawn card greedy has no place for goes over its
# lowest face-down card it has not seen instead of onto the discard pile
GREEDY_STALL_RESHUFFLES = 4
# greedy calls (power-card games) when its estimate is at least this much below every
# opponent's (docs/policies.md#power-cards)
GREEDY_CALL_MARGIN = 5
# the Dutch 2's powers, as greedy chooses them (docs/policies.md#power-cards): after the black
# king, the power that moves cards with the largest gain, else the first it wants in this order
GREEDY_COMBINE_GAINS = ("6", "7", "9")
GREEDY_COMBINE_ORDER = ("J", "10", "3", "4", "5", "8")
# the general engine's table of compiled built-ins (strategies.compiled): ids 0..7, then
# lookahead
N_POLICY_SLOTS = POLICY_GUIDE + 2
# the parameters in a seat's row of the policy table, after its id (engine.policy_table)
N_PARAMS = 26
POLICY_SCRATCH = 8192  # int64 scratch a policy may use between decisions (lookahead's)

# ---- decision points (what a policy is asked) -------------------------------------------
DP_REVEAL = 0        # choose a position to flip/peek during the initial reveal
DP_TURN = 1          # start of turn: draw stock, take discard, flip, flip all, knock
DP_PLACE_DRAWN = 2   # holding a stock card: a position, or A_DISCARD
DP_PLACE_TAKEN = 3   # holding the taken discard: a position (must be placed)
DP_FLIP = 4          # choose a face-down position to turn up (flip turn, flip after discard)
DP_FACE = 5          # placement_face = player_choice: A_FACE_UP or A_FACE_DOWN
DP_PEEK = 6          # which own face-down card to look at: pay_to_peek (held -1), or with
                     # blind_replacement = false before placing the held card
DP_KNOCK = 7         # knock_timing end_of_own_turn / any_time_in_turn: A_KNOCK or A_PASS
DP_ARRANGE = 8       # rearrange_after_reveal: where a face-up card (held) goes: a position
DP_REMOVE = 9        # remove_cancelled = optional_to_discard_bottom: a completed group (held =
                     # its lowest position) goes to the discard pile's bottom? A_REMOVE or A_PASS
# power-card games (simulator/game/powers/; none of these arise in other games)
DP_TARGET_SEAT = 10  # name a seat (actions 0..players-1) for the effect in PUB_POWER
DP_TARGET_POS = 11   # name a position of the seat in PUB_TARGET_SEAT (for the Dutch 7: a
                     # line, rows 0..R-1 then columns R..R+C-1)
DP_SWAP = 12         # confirm an optional swap: A_SWAP or A_PASS
DP_KEEP = 13         # Dutch 8: action 0 or 1 keeps the first or second of the two drawn cards
DP_SNAP = 14         # out of turn, after a discard: A_SNAP or A_PASS (then which card)
DP_NOMINATE = 15     # Pablo / Cabo turn match: nominate a card (a position; Cabo names the
                     # seat first at DP_TARGET_SEAT); A_PASS ends the nomination
DP_CHOOSE_POWER = 16  # Dutch 2: which power next (action = its rank index), A_PASS to stop
N_DECISION_POINTS = 17
DECISION_NAMES = ("reveal", "turn", "place_drawn", "place_taken", "flip", "face", "peek",
                  "knock", "arrange", "remove", "target_seat", "target_pos", "swap", "keep",
                  "snap", "nominate", "choose_power")   # by DP_* number

# ---- actions: 0..MAX_POS-1 are positions ----------------------------------------------
A_DRAW_STOCK = 16
A_TAKE_DISCARD = 17
A_KNOCK = 18
A_DISCARD = 19
A_FLIP = 20
A_FLIP_ALL = 21
A_PASS = 22
A_FACE_UP = 23
A_FACE_DOWN = 24
A_PEEK = 25          # look at one of your face-down cards: pay_to_peek (for a cost) at the
                     # turn; with blind_replacement = false before placing a held card (once)
A_REMOVE = 26        # remove_cancelled: move the completed group off the layout
A_POWER = 27         # use the held stock card's power (at DP_PLACE_DRAWN)
A_MATCH = 28         # Pablo multi-replace / Cabo match with the held card
A_SNAP = 29          # snap a card on the new top discard (at DP_SNAP)
A_SWAP = 30          # confirm an optional swap (at DP_SWAP)
A_DISCARD_POWER = 31  # Cactus: the turn is using the unused power of the top discard
# at DP_REVEAL while PUB_REVEAL_PICKS > 0: REVEAL_SET + a bit mask of that many positions
# reveals them all, lowest legal position first, with no further DP_REVEAL asked
REVEAL_SET = 1 << MAX_POS
ACTION_NAMES = {A_DRAW_STOCK: "draw_stock", A_TAKE_DISCARD: "take_discard", A_KNOCK: "knock",
                A_DISCARD: "discard", A_FLIP: "flip", A_FLIP_ALL: "flip_all", A_PASS: "pass",
                A_FACE_UP: "face_up", A_FACE_DOWN: "face_down", A_PEEK: "peek",
                A_REMOVE: "remove", A_POWER: "power", A_MATCH: "match", A_SNAP: "snap",
                A_SWAP: "swap", A_DISCARD_POWER: "discard_power"}


# what a user policy's guard answers for it when it raised an exception (an illegal action,
# so the engine stops and says so: simulator/kernel/policy_api.py)
ACTION_RAISED = -(1 << 30)   # (within int32: the state array g is int32)


def is_reveal_set(a: int) -> bool:
    return REVEAL_SET < a < 2 * REVEAL_SET


def action_name(a: int) -> str:
    if is_reveal_set(a):
        return "reveal_set(" + ",".join(f"pos{p}" for p in range(MAX_POS)
                                        if (a - REVEAL_SET) >> p & 1) + ")"
    return f"pos{a}" if 0 <= a < MAX_POS else ACTION_NAMES.get(a, f"action{a}")


# ---- option value codes -----------------------------------------------------------------
def _option(*names):
    """An option's value names, then their codes 0, 1, ... in that order: one statement, so a
    name cannot be added without its code."""
    return (names, *range(len(names)))


PAIR_SCOPES, PAIR_NONE, PAIR_COLUMN, PAIR_ROW_OR_COLUMN, PAIR_DIAGONAL, PAIR_ANYWHERE, \
    PAIR_ADJACENT = _option("none", "column", "row_or_column", "row_column_diagonal",
                            "anywhere", "orthogonal_adjacent")

REVEAL_MODES, REVEAL_NONE, REVEAL_FLIP, REVEAL_PEEK, REVEAL_FLIP_FIRST_TURN = _option(
    "none", "flip", "peek", "flip_on_first_turn")

REVEAL_CONSTRAINTS, CON_ANY, CON_NEAREST_ROW, CON_SAME_COLUMN, CON_DIFFERENT_COLUMNS, \
    CON_CENTRE_OUTER, CON_WHOLE_COLUMN = _option("any", "nearest_row", "same_column",
                                                 "different_columns", "centre_and_outer",
                                                 "whole_column")

REVEAL_ORDERS = ("turn_order", "simultaneous")

REMOVE_CANCELLED, REMOVE_NEVER, REMOVE_OPTIONAL, REMOVE_IMMEDIATE = _option(
    "never", "optional_to_discard_bottom", "immediate")

PLACEMENT_FACES, FACE_UP, FACE_DOWN, FACE_CHOICE = _option("up", "down", "player_choice")

FLIP_AFTER_DISCARD, FAD_NONE, FAD_MANDATORY, FAD_UNLESS_ONE, FAD_ENDGAME = _option(
    "none", "mandatory", "mandatory_unless_one_face_down", "optional_in_endgame")

KNOCK_TIMINGS, KNOCK_INSTEAD, KNOCK_END_OF_TURN, KNOCK_ANY_TIME = _option(
    "instead_of_turn", "end_of_own_turn", "any_time_in_turn")

FINAL_TURNS, FINAL_NONE, FINAL_EACH_OTHER, FINAL_COMPLETE_LAP = _option(
    "none", "each_other_player_once", "complete_lap")

STOCK_EMPTY, STOCK_RESHUFFLE, STOCK_END_HOLE = _option("reshuffle_keep_top", "end_hole")

END_TRIGGERS = ("knock", "all_face_up", "all_players_face_up", "stock_exhausted", "call",
                "empty_layout")
END_KNOCK, END_ALL_FACE_UP, END_ALL_PLAYERS_FACE_UP, END_STOCK_EXHAUSTED = 1, 2, 4, 8
END_CALL, END_EMPTY_LAYOUT = 16, 32

# ---- power-card games (docs/rules.md#power-card-games, simulator/game/powers/) -----------
POWER_SETS = ("none", "malaysia", "pablo", "cumbia", "cabo", "cactus", "dutch")
POWER_SOURCES = ("stock_only", "stock_or_unused_discard")
SNAP_MODES, SNAP_NONE, SNAP_CUMBIA, SNAP_CACTUS = _option("none", "cumbia", "cactus")
TURN_MATCH_MODES, TMATCH_NONE, TMATCH_PABLO, TMATCH_CABO = _option(
    "none", "pablo_multi_replace", "cabo_match")
NON_CALLER_RULES, NON_CALLER_VALUE, NON_CALLER_ZERO = _option("layout_value",
                                                              "zero_if_not_above_caller")
# the Dutch powers by card, as dutch_powers names them ("K" is the black king)
DUTCH_POWER_CARDS = ("K", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A")
# PUB_POWER: the effect a target decision resolves (0: none); the POW_* effects of a power
# card, then the contexts of the other target decisions (snaps, matches, gifts)
POW_NONE = 0
POW_PEEK_OWN = 1
POW_PEEK_OPP = 2
POW_PEEK_ANY = 3
POW_SWAP_OWN_OPP_BLIND = 4
POW_SWAP_AFTER_PEEK_OPP = 5     # Pablo 7: peek at an opponent's card, then swap it blind
POW_SWAP_ANY_TWO = 6
POW_PEEK_BOTH_SWAP = 7          # Cumbia J: peek own and opponent's, optional swap
POW_SHUFFLE_OPP = 8
POW_FLIP_OPP = 9
POW_SWAP_LINE = 10
POW_DRAW_TWO = 11
POW_SHIELD = 12
POW_GIVE_OR_REMOVE = 13
POW_CANCEL_FINAL = 14
POW_COMBINE = 15
POW_EXCHANGE_THIS = 16          # Dutch 9: this card into an opponent's layout, theirs to you
CTX_SNAP = 20                   # which card a snap takes
CTX_NOMINATE = 21               # which card a turn match nominates
CTX_GIVE = 22                   # which own card goes blind to an opponent (Cumbia, Cabo)
POWER_NAMES = {POW_NONE: "none", POW_PEEK_OWN: "peek_own", POW_PEEK_OPP: "peek_opponent",
               POW_PEEK_ANY: "peek_any", POW_SWAP_OWN_OPP_BLIND: "swap_own_opponent_blind",
               POW_SWAP_AFTER_PEEK_OPP: "swap_own_opponent_after_peek",
               POW_SWAP_ANY_TWO: "swap_any_two_blind", POW_PEEK_BOTH_SWAP:
               "peek_own_and_opponent_then_optional_swap", POW_SHUFFLE_OPP:
               "shuffle_opponent_layout", POW_FLIP_OPP: "flip_opponent_card",
               POW_SWAP_LINE: "swap_line_with_opponent", POW_DRAW_TWO: "draw_two_choose_one",
               POW_SHIELD: "shield", POW_GIVE_OR_REMOVE: "give_or_remove",
               POW_CANCEL_FINAL: "cancel_final_lap", POW_COMBINE: "combine_two_powers",
               POW_EXCHANGE_THIS: "exchange_this_card", CTX_SNAP: "snap",
               CTX_NOMINATE: "nominate", CTX_GIVE: "give"}

ENDER_PENALTIES = ("none", "plus_10", "plus_20", "double_plus_5", "double", "equal_highest",
                   "plus_twice_players", "plus_lowest_score", "plus_highest_opponent")
ENDER_BONUSES = ("none", "zero", "minus_players", "fixed_minus_10")
ENDER_TIES, TIE_NEUTRAL, TIE_LOWEST, TIE_NOT_LOWEST = _option(
    "neutral", "counts_as_lowest", "counts_as_not_lowest")
ENDER_APPLIES, APPLIES_KNOCK_ONLY, APPLIES_ANY_ENDER = _option("knock_only", "any_ender")
MATCH_TIES = ("share", "tiebreak", "extra_holes")

MATCH_KEYS = ("rank", "point_value")

LINE_SETS, LINES_NONE, LINES_COLUMNS, LINES_ROWS_COLUMNS, LINES_ALL = _option(
    "none", "columns", "rows_and_columns", "rows_columns_diagonals")

# ---- rule array slots (int64) -------------------------------------------------------------
R_PLAYERS = 0
R_ROWS = 1
R_COLS = 2
R_NPOS = 3
R_NCARDS = 4            # cards in the shuffled deck(s)
R_DECK_SUM = 5          # sum of card values over the whole deck
R_REVEAL_MODE = 6
R_REVEAL_COUNT = 7
R_REVEAL_CONSTRAINT = 8
R_REVEAL_SEQUENTIAL = 9
R_REVEAL_SIMULTANEOUS = 10
R_PLACEMENT_FACE = 11
R_REPLACE_FACE_UP = 12
R_LOCK_FACE_UP_COLUMNS = 13
R_FLIP_INSTEAD_OF_DRAW = 14
R_FLIP_AFTER_DISCARD = 15
R_FLIP_ALL_TO_END = 16
R_END_TRIGGERS = 17
R_FINAL_TURNS = 18
R_FINAL_STOCK_ONLY = 19
R_STOCK_EMPTY = 20
R_TURN_CAP = 21
R_PAIR_SCOPE = 22
R_NEG_PAIRS_KEEP = 23
R_QUAD_VALUE = 24       # NONE_VALUE when unset
R_QUAD_ADJACENT_ONLY = 25
R_QUAD_OTHERS_PENALTY = 26
R_BLOCK_VALUE = 27
R_SIX_KIND_VALUE = 28
R_NEG_QUAD_VALUE = 29
R_JOKER_PAIR_VALUE = 30  # NONE_VALUE unless value_joker pairs to a value of its own (-5, -4)
R_ENDER_PENALTY = 31
R_ENDER_BONUS = 32
R_ENDER_TIE = 33
R_ENDER_APPLIES = 34
R_LOWEST_SCORES_ZERO = 35
R_SHOOT_MOON = 36
R_DISCARD_MUST_PLACE = 37
R_STOCK_MAY_DISCARD = 38
R_KNOCK_TIMING = 39
R_DRAW_FROM_DISCARD = 40
R_KNOCK_MIN_LAPS = 41
R_REVEAL_ON_TRIGGER = 42
R_OWNER_VIEW_ALL = 43
R_PAY_TO_PEEK = 44       # NONE_VALUE when unset, else the points one look costs
R_JACK_SKIPS = 45        # jack_discard_skips_next
R_LINE_SETS = 46         # index into LINE_SETS
R_FOUR_KIND_WINS = 47    # four_of_kind_wins_match
R_INITIAL_TURN_UP = 48   # initial_discard = turn_up (1) or none (0: the pile starts empty)
R_DEALER_RANDOM = 49     # dealer_selection = random: a match's first dealer is drawn
R_FIRST_WINNER = 50      # first_player = previous_hole_winner
R_MATCH_TIE = 51         # index into MATCH_TIES
R_POT_ANTE = 52          # pot: each player's ante (0: no pot)
R_POT_CAP = 53           # pot: the most won or paid at once (0: no cap)
R_WILD_JACKS = 54         # one_eyed_jacks = wild: J♠ and J♥ may pair with any related card
R_REARRANGE = 55          # rearrange_after_reveal
R_REPLACE_UNSEEN_ONCE = 56  # replace_unseen_once
R_PRIVATE_STOCK = 57      # private_stock_draw
R_REMOVE_CANCELLED = 58   # REMOVE_*
R_BLIND = 59              # blind_replacement (0: a held card may wait while one card is looked at)
R_MAX_ABS_VALUE = 60      # largest |value| of a card in the deck
R_QUAD_APART_VALUE = 61   # two pair-columns of one key not side by side (NONE_VALUE: as quads)
R_JOKER_QUAD_VALUE = 62   # two pair-columns of jokers side by side (NONE_VALUE when unset)
R_JOKER_QUAD_APART = 63   # ... not side by side
R_JACK_PAIRS_BONUS = 64   # added once to a layout with two or more pair-columns of jacks
R_TWENTY_ONE_ZERO = 65    # a layout worth exactly 21 is worth 0
R_ENDER_EXTRA = 66        # added to the ender's hole score, lowest or not
R_LOWEST_BONUS = 67       # added to the lowest hole score(s)
R_TIE_PENALTY = 68        # added to every hole score another player shares
R_FLIP_ALL_MAX = 69       # flip_all_to_end only with at most this many face-down cards
R_LAYOUT_KIND = 70        # LAYOUT_*: which of the scorer's simple cases the rules are
R_PLAIN_HOLE = 71         # 1 when every hole score is the layout value plus the seat's extras
R_POWER_SET = 72          # index into POWER_SETS (0: no power cards)
R_SNAP_MODE = 73          # SNAP_*
R_TURN_MATCH = 74         # TMATCH_*
R_POWER_SOURCE = 75       # index into POWER_SOURCES
R_NON_CALLER = 76         # index into NON_CALLER_RULES
# what the compiled power-card games read (rules.flatten; the card's effect is RT_EFFECT)
R_POWER_PLACEABLE = 77    # power_card_placeable
R_SNAP_MISS_POINTS = 78   # snap_penalty_opponent_miss
R_SNAP_PENALTY_CARDS = 79  # snap_penalty_cards
R_MATCH_FAIL_CARDS = 80   # match_fail_penalty_cards
R_COMBINABLE = 81         # Dutch 2: bit r set when the rank index r may be combined
R_SWAP_LINE_OK = 82       # 1 unless layout_mode = hand (the Dutch 7 swaps grid lines)
R_EFFECT_RED_KING = 83    # the effect of a red king (the Dutch K is the black king only)
R_EFFECT0 = 84            # [rank index, joker 13]: the effect of a card of that rank (POW_*)
R_ENDER_CLAMP = R_EFFECT0 + 14  # ender_clamp: a penalty never lowers, a bonus never raises
N_RULE_SLOTS = R_ENDER_CLAMP + 1

# R_LAYOUT_KIND: the simple cases a kernel scores in place, without calls
LAYOUT_GENERAL = 0  # the general scorer is needed
LAYOUT_SUM = 1      # a layout scores the sum of its card values
LAYOUT_COLUMNS = 2  # a two-row layout scores column by column: a pair of one key its pair
                    # value, any other two cards their sum

NONE_VALUE = -(1 << 40)  # "option not set" inside integer rule slots

# ---- public state slots (int64), visible to every seat ------------------------------------
PUB_TURN = 0          # turns completed so far (initial reveal excluded)
PUB_ACTOR = 1         # seat now deciding
PUB_STOCK_N = 2
PUB_DISCARD_N = 3
PUB_DISCARD_SUM = 4   # sum of values in the discard pile
PUB_FACEUP_N = 5      # face-up layout cards, all seats
PUB_FACEUP_SUM = 6
PUB_ENDER = 7         # seat that triggered the end, -1 while none
PUB_FINAL_LEFT = 8    # final turns still to be played once the end is triggered
PUB_HELD_PUBLIC = 9   # a held card everyone has seen (taken from the discard pile, or drawn
                      # with private_stock_draw = false) and not yet placed, else -1
PUB_RESHUFFLES = 10
PUB_KNOCKED = 11      # 1 when the end was triggered by a knock
PUB_POWER = 12        # power-card games: the effect a decision resolves (POW_*, CTX_*), or 0
PUB_TARGET_SEAT = 13  # the seat whose positions DP_TARGET_POS / DP_NOMINATE offer, else -1
PUB_CHOICE0 = 14      # DP_KEEP (Dutch 8): the first and second of the two cards drawn, else -1
PUB_CHOICE1 = 15
PUB_SHIELDED = 16     # bit s set while seat s is shielded (Dutch 5): no power targets it
PUB_TOP_POWER_UNUSED = 17  # 1 when the top discard has a power nobody used (Cactus)
N_PUB_SLOTS = 20      # then pub[N_PUB_SLOTS + seat] = face-down cards of that seat
# then the match and the opening reveal (after the counts, so that every slot above keeps its
# number): outside a match, hole 0 of 1 with every total 0
PUB_HOLE = N_PUB_SLOTS + MAX_PLAYERS   # this hole's number in the match, from 0
PUB_HOLES = PUB_HOLE + 1       # the match's holes (--holes), 0 when it is played to a target
PUB_TARGET = PUB_HOLE + 2      # the match's target total (--target), else 0
PUB_REVEAL_PICKS = PUB_HOLE + 3  # at a seat's first DP_REVEAL of the opening: how many cards
                                 # it reveals (a REVEAL_SET answer may name them all), else 0
PUB_TOTAL0 = PUB_HOLE + 4      # [seat]: its match total before this hole (seats as the
                               # hole numbers them, seat 0 playing first)
N_PUBLIC = PUB_TOTAL0 + MAX_PLAYERS   # the public array's length (policy_api.SIGNATURE)

# ---- per-round outcome slots ---------------------------------------------------------------
OUT_TURNS = 0
OUT_CAPPED = 1
OUT_ENDER = 2
OUT_RESHUFFLES = 3
OUT_ERROR = 4          # nonzero: a policy returned an illegal action (see ERR_*)
OUT_ERR_SEAT = 5
OUT_ERR_POINT = 6
OUT_ERR_ACTION = 7
OUT_LOG_N = 8          # rows written to the move log; -1 disables logging
OUT_KNOCKED = 9        # 1 when the round was ended by a knock
N_OUT_SLOTS = 10

# ---- the packed state array g (int32) and packed rule array rt (int64) ---------------------
# The kernel keeps all mutable state of a round in one int32 array and all rules and card
# tables in one int64 array, so that a call between compiled helpers passes two arrays, not
# fifteen (each array argument is seven machine words on the stack).
MAX_IDS = 8 * 54            # card ids of up to eight decks with jokers
# An empty position (its cancelled group removed, remove_cancelled) holds the pseudo-card
# EMPTY0 + pos: face up, known to all, worth 0, with a key of its own, so it pairs and lines up
# with nothing and every scoring rule and estimate already treats it right. Pseudo-cards are
# in no deck, pile or count of cards.
EMPTY0 = MAX_IDS
N_CARD_TABLE = MAX_IDS + MAX_POS   # value and key tables cover the pseudo-cards too
EMPTY_KEY0 = -(1 << 20)     # the key of EMPTY0 + pos is EMPTY_KEY0 - pos
G_PUB = 0                   # public scalars PUB_* (N_PUB_SLOTS), then face-down counts,
                            # then the match (N_PUBLIC in all)
G_FACE_DOWN = G_PUB + N_PUB_SLOTS           # [seat]: face-down cards of each seat (public)
G_PRIV = G_PUB + N_PUBLIC                   # engine-private scalars PRIV_*
PRIV_LOG_N = 0              # rows written to the move log, -1 = logging off
PRIV_ERROR = 1
PRIV_ERR_SEAT = 2
PRIV_ERR_POINT = 3
PRIV_ERR_ACTION = 4
PRIV_CAPPED = 5
PRIV_CACHE = 6   # general build: 1 when this round's seats decide from the lean cache
# power rounds: 1 + the highest position where a layout has held a card this hole (public: an
# empty position is known to all), so that the built-ins' loops stop there; 0 where nothing
# keeps it (a state filled from a reference game): every position is looked at
PRIV_SPAN = 7
N_PRIV = 16
G_LEGAL = G_PRIV + N_PRIV                   # [action]: the legal-action mask of this decision
# what the game flow touches on every turn comes first and close together (simulator/kernel/
# the flow: its lean build reads nothing past G_SCRATCH), the views kept for policies after
G_LAY = G_LEGAL + N_ACTIONS                     # [seat * MAX_POS + pos]: card or -1
G_UP = G_LAY + MAX_PLAYERS * MAX_POS            # [seat * MAX_POS + pos]: 1 if face up
G_STOCK = G_UP + MAX_PLAYERS * MAX_POS          # [i], top at the end
G_DISCARD = G_STOCK + MAX_IDS                   # [i], top at the end
G_CHOSEN = G_DISCARD + MAX_IDS                  # [seat * MAX_POS + i]: initial-reveal picks
G_PENALTY = G_CHOSEN + MAX_PLAYERS * MAX_POS    # [seat]: points incurred this hole (peeks)
G_SKIP = G_PENALTY + MAX_PLAYERS                # [seat]: 1 when its next turn is skipped
G_ONCE = G_SKIP + MAX_PLAYERS                   # [seat * MAX_POS + pos]: replace_unseen_once
ONCE_LEFT, ONCE_SPENT, ONCE_SEEN = 0, 1, 2     # its one replacement is left / used; seen
                                               # before play, so no limit
G_BANK = G_ONCE + MAX_PLAYERS * MAX_POS        # [seat]: value of its removed groups (banked)
# What a seat knows of its own layout, cached for greedy and knock-threshold as the flow plays
# them inline (its lean build): one field of MAX_POS lanes a seat, [field + seat * MAX_POS + p],
# so that a search loads a field for all positions at once.
G_OWN = G_BANK + MAX_PLAYERS         # the card the seat knows there, or -1 (G_KNOWN's diagonal
                                     # where the flow keeps views)
G_KV = G_OWN + MAX_PLAYERS * MAX_POS  # value of the known card, or 0
G_KK = G_KV + MAX_PLAYERS * MAX_POS  # key of the known card, or lanes.NO_KEY
G_XN = G_KK + MAX_PLAYERS * MAX_POS  # then six fields at equal strides (lanes.set_column)
G_BN = G_XN + MAX_PLAYERS * MAX_POS
G_KQ = G_BN + MAX_PLAYERS * MAX_POS
G_NEGQ = G_KQ + MAX_PLAYERS * MAX_POS
G_U = G_NEGQ + MAX_PLAYERS * MAX_POS
G_UQ = G_U + MAX_PLAYERS * MAX_POS
G_EKN = G_UQ + MAX_PLAYERS * MAX_POS   # the position's share of knock-threshold's estimate
G_EKS = G_EKN + MAX_PLAYERS * MAX_POS
# [seat]
G_UPMASK = G_EKS + MAX_PLAYERS * MAX_POS   # bit p set when position p is face up
G_KNOWN_N = G_UPMASK + MAX_PLAYERS         # own positions known, and their value sum
G_KNOWN_SUM = G_KNOWN_N + MAX_PLAYERS
G_PLANNED = G_KNOWN_SUM + MAX_PLAYERS      # position chosen before taking the discard
G_EN = G_PLANNED + MAX_PLAYERS             # knock-threshold's estimate E*n is
G_ES = G_EN + MAX_PLAYERS                  # G_EN*n + G_ES*S
G_POLICY = G_ES + MAX_PLAYERS              # the policy the seat plays in the flow
G_KNOCK_T = G_POLICY + MAX_PLAYERS         # knock-threshold's T when whole, else NO_KEY
G_SEEN_ALL = G_KNOCK_T + MAX_PLAYERS       # bit p set when every seat knows the card at p
G_SCRATCH = G_SEEN_ALL + MAX_PLAYERS  # [i]: one decision's working counts (a policy's: ev's)
G_MEMORY = G_SCRATCH + MAX_IDS              # [seat * MEMORY_SLOTS + i]: policy memory
MEMORY_SLOTS = 144  # 0..15 the policy's own; policy_tools' cache keeps 16..143
G_KNOWN = G_MEMORY + MAX_PLAYERS * MEMORY_SLOTS   # [(obs * MAX_PLAYERS + seat) * MAX_POS + pos]
# power-card games: [seat * MAX_POS + pos] bit o set when seat o was seen peeking at that card
# (public; it moves with the card)
G_PEEKED = G_KNOWN + MAX_PLAYERS * MAX_PLAYERS * MAX_POS
# heuristic's own build (flow/build.py SEEN): [type] how many cards of each type (RT_TYPE)
# every seat sees or has seen where they lie: the discard pile's and those of G_SEEN_ALL
G_PUBLIC_TYPES = G_PEEKED + MAX_PLAYERS * MAX_POS
G_FLOW = G_PUBLIC_TYPES + MAX_IDS   # the flow reads and writes g[:G_FLOW]
G_AUX = G_FLOW                     # two flow states (lookahead): a deal as loaded, a rollout
G_AUX_SIZE = 2 * G_FLOW
G_SIZE = G_AUX + G_AUX_SIZE

RT_RULES = 0                # the R_* slots
RT_VALUE = N_RULE_SLOTS     # [card id]: value
RT_KEY = RT_VALUE + N_CARD_TABLE  # [card id]: pairing key
RT_DECK = RT_KEY + N_CARD_TABLE   # [i]: the deck in canonical order (R_NCARDS cards)
# tables derived from the rules once per rule set, so that policies look up what they would
# otherwise recompute at every decision
RT_REL = RT_DECK + MAX_IDS        # [p]: bit q set when positions p and q pair (layout.related_nb)
RT_TYPE_N = RT_REL + MAX_POS      # the number of card types: distinct (key, value) in the deck
RT_TYPE = RT_TYPE_N + 1           # [card id]: its type, numbered in deck order; -1 if in no deck
RT_TYPE_CARD = RT_TYPE + N_CARD_TABLE   # [type]: its first card in the deck
RT_TYPE_COPIES = RT_TYPE_CARD + MAX_IDS  # [type]: its cards in the deck
RT_TYPE_NEXT = RT_TYPE_COPIES + MAX_IDS  # [type]: the next type of its key, in a ring (itself
                                         # when its key has one type, as most keys do)
RT_EFFECT = RT_TYPE_NEXT + MAX_IDS      # [card id]: its power (POW_*), 0 for the pseudo-cards
RT_CACHE_RULES = RT_EFFECT + N_CARD_TABLE  # 1 when the lean build's cache covers the rules
RT_SIZE = RT_CACHE_RULES + 1
