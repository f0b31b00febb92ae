"""The checks across options: the combinations of a rule set that cannot be played, and which
engine a rule set needs. Each takes the rule set being checked (a
:class:`simulator.game.rules.Rules`, which runs them when it is made)."""

from __future__ import annotations

from .. import codes as K
from ..effects import ranks_with_powers
from .option_values import RuleError, option_text


WILD_SCOPES = ("none", "column", "row_or_column", "row_column_diagonal", "anywhere")


def _pair_column_options(r) -> list[str]:
    """The scoring options set that score two pair-columns of a 2-row grid together."""
    return [name for name, on in (
        ("quad_two_columns_value", r.quad_two_columns_value is not None),
        ("quad_apart_value", r.quad_apart_value is not None),
        ("joker_quad_value", r.joker_quad_value is not None),
        ("joker_quad_apart_value", r.joker_quad_apart_value is not None),
        ("jack_pairs_bonus", r.jack_pairs_bonus != 0),
        ("negative_quad_value", r.negative_quad_value is not None)) if on]


def _check_removal(r) -> None:
    """remove_cancelled takes fixed groups off the layout: pair-columns of a 2-row grid, or
    the lines and 2x2 blocks of a 3x3 grid; rules that score across those groups, or pair
    cards wherever they lie, have nothing fixed to remove."""
    opt = f"remove_cancelled = {r.remove_cancelled}"
    two_row_columns = r.pair_scope == "column" and r.grid_rows == 2
    three_by_three = (r.grid_rows, r.grid_cols) == (3, 3) and r.pair_scope == "none" and \
        (r.line_sets != "none" or r.block_2x2_value is not None)
    if r.layout_mode == "hand" or not (two_row_columns or three_by_three):
        raise RuleError(f"{opt} needs groups that stay where they are: pair_scope = column on "
                        f"a 2-row grid, or line_sets / block_2x2_value on a 3x3 grid (got "
                        f"pair_scope = {r.pair_scope} on {r.grid_rows}x{r.grid_cols}, "
                        f"layout_mode = {r.layout_mode})")
    across = _pair_column_options(r) + [name for name, on in (
        ("block_2x2_value", r.block_2x2_value is not None and two_row_columns),
        ("six_of_kind_value", r.six_of_kind_value is not None),
        ("one_eyed_jacks = wild", r.one_eyed_jacks == "wild"),
        ("four_of_kind_wins_match", r.four_of_kind_wins_match)) if on]
    if across:
        raise RuleError(f"{opt} with {', '.join(across)}: those score cards of several groups "
                        f"together, which a removal would take apart; choose one")


def _check_jokers(r) -> None:
    """joker_count replaces jokers_per_deck: given both, one would be silently ignored."""
    if r.joker_count is not None and r.jokers_per_deck != 0:
        raise RuleError(f"joker_count = {r.joker_count} and jokers_per_deck = "
                        f"{r.jokers_per_deck} both say how many jokers there are (joker_count "
                        "in the whole deck, jokers_per_deck in each deck); set one, with "
                        "jokers_per_deck = 0 for joker_count")


def _check_stuck_final_turn(r) -> None:
    """reveal_on_trigger turns every card up for the final turns; a player who must then keep
    a drawn card (stock_draw_may_be_discarded = false) and may not replace a face-up one has
    nowhere to put it."""
    if r.reveal_on_trigger and not r.replace_face_up_allowed and \
            not r.stock_draw_may_be_discarded and r.power_set == "none":
        raise RuleError("reveal_on_trigger = true with replace_face_up_allowed = false and "
                        "stock_draw_may_be_discarded = false: after the end is triggered every "
                        "card is face up, so a drawn card could go nowhere; change one of them")


def _check_combination(r) -> None:
    """Refuse options that do not go together (RuleError naming them), in this order."""
    _check_jokers(r)
    _check_stuck_final_turn(r)
    _check_wild_jacks(r)
    _check_grid_and_reveal(r)
    _check_groups(r)
    _check_turn_options(r)
    _check_layout(r)
    _check_ending(r)


def _check_wild_jacks(r) -> None:
    """one_eyed_jacks = wild: only where its groups are supported."""
    if r.one_eyed_jacks == "wild":
        why = None
        if r.pair_scope not in WILD_SCOPES:
            why = f"pair_scope = {r.pair_scope} (supported: {', '.join(WILD_SCOPES)})"
        elif r.line_sets != "none":
            why = f"line_sets = {r.line_sets}"
        elif _couples_two_columns(r):
            why = "quads, 2x2 blocks or jack_pairs_bonus"
        elif r.grid_rows * r.grid_cols > 12:
            why = f"a {r.grid_rows}x{r.grid_cols} layout (at most 12 cards)"
        if why:
            raise RuleError(f"option one_eyed_jacks = 'wild' is not supported yet with {why}")


def _check_grid_and_reveal(r) -> None:
    """The seats, the grid's size and the initial reveal's count and constraint."""
    if r.players_min > r.players_max:
        raise RuleError(f"players_min = {r.players_min} is above players_max = {r.players_max}")
    npos = r.grid_rows * r.grid_cols
    if npos > K.MAX_POS:
        raise RuleError(f"grid {r.grid_rows}x{r.grid_cols} has {npos} positions; at most "
                        f"{K.MAX_POS} are supported")
    count = r.grid_cols if r.initial_reveal_count == -1 else r.initial_reveal_count
    if r.initial_reveal_mode != "none" and count > npos:
        raise RuleError(f"initial_reveal_count = {count} exceeds the {npos} positions of the "
                        f"grid (grid_rows = {r.grid_rows}, grid_cols = {r.grid_cols})")
    con = r.initial_reveal_constraint
    if r.initial_reveal_mode != "none" and con in ("same_column", "centre_and_outer") and count > 2:
        raise RuleError(f"initial_reveal_constraint = {con} allows at most 2 cards, but "
                        f"initial_reveal_count = {count}")
    if con == "same_column" and r.initial_reveal_mode != "none" and count > r.grid_rows:
        raise RuleError(f"initial_reveal_constraint = same_column needs initial_reveal_count <= "
                        f"grid_rows = {r.grid_rows}")
    if con == "different_columns" and r.initial_reveal_mode != "none" and count > r.grid_cols:
        raise RuleError(f"initial_reveal_constraint = different_columns needs "
                        f"initial_reveal_count <= grid_cols = {r.grid_cols}")
    if con == "centre_and_outer" and r.grid_cols % 2 == 0:
        raise RuleError(f"initial_reveal_constraint = centre_and_outer needs an odd number of "
                        f"columns, but grid_cols = {r.grid_cols}")
    if con == "nearest_row" and count > r.grid_cols:
        raise RuleError(f"initial_reveal_constraint = nearest_row allows at most grid_cols = "
                        f"{r.grid_cols} cards, but initial_reveal_count = {count}")


def _check_groups(r) -> None:
    """The options that score groups of several cards: the grids they need."""
    col_rules = _pair_column_options(r) + \
        (["lock_face_up_columns"] if r.lock_face_up_columns else [])
    if r.quad_apart_value is not None and r.quad_two_columns_adjacent_only:
        raise RuleError("quad_apart_value scores pair-columns that are not side by side, but "
                        "quad_two_columns_adjacent_only = true gives them nothing; choose one")
    if col_rules and (r.pair_scope != "column" or r.grid_rows != 2):
        raise RuleError(f"{', '.join(col_rules)} need pair_scope = column on a 2-row grid "
                        f"(got pair_scope = {r.pair_scope}, grid_rows = {r.grid_rows})")
    if r.line_sets != "none" and (r.grid_rows, r.grid_cols) != (3, 3):
        raise RuleError(f"line_sets = {r.line_sets} is for 3x3 grids; this grid is "
                        f"{r.grid_rows}x{r.grid_cols}")
    if r.grid_rows == 3 and (r.line_sets != "none" or r.block_2x2_value is not None) and \
            r.pair_scope != "none":
        raise RuleError(f"lines and 2x2 blocks on a 3-row grid are scored with pair_scope = "
                        f"none (docs/rules.md#amb-26), not {r.pair_scope}")
    if r.layout_mode == "hand" and r.block_2x2_value is not None:
        raise RuleError("block_2x2_value needs a grid: layout_mode = hand has no 2x2 squares")


def _check_turn_options(r) -> None:
    """The turn's options that need others: what the owner sees, removals, replacements,
    rearranging."""
    if r.owner_view == "all" and r.initial_reveal_mode in ("flip", "flip_on_first_turn"):
        raise RuleError(f"owner_view = all (cards held in hand) with initial_reveal_mode = "
                        f"{r.initial_reveal_mode}: the owner already sees every card; use "
                        f"initial_reveal_mode = none or peek")
    if r.overlap_rule == "remove_immediately" and r.remove_cancelled != "immediate":
        raise RuleError(f"overlap_rule = remove_immediately is remove_cancelled = immediate "
                        f"(docs/rules.md#overlap_rule): set both (got remove_cancelled = "
                        f"{r.remove_cancelled})")
    if r.remove_cancelled != "never":
        _check_removal(r)
    if r.replace_unseen_once and not r.stock_draw_may_be_discarded:
        raise RuleError("replace_unseen_once with stock_draw_may_be_discarded = false: once "
                        "every position has had its replacement, a drawn card would have "
                        "nowhere to go; allow discarding stock cards")
    if r.rearrange_after_reveal and (r.initial_reveal_mode != "flip" or
                                     r.layout_mode == "hand"):
        raise RuleError("rearrange_after_reveal moves the cards turned up by the initial flips "
                        "within a grid or row: it needs initial_reveal_mode = flip (not "
                        f"{r.initial_reveal_mode}) and a layout_mode other than hand")


def _check_layout(r) -> None:
    """The layout's shape (row, hand, grid) against the pairing, reveal and group options."""
    npos = r.grid_rows * r.grid_cols
    if r.layout_mode == "row" and r.grid_rows != 1:
        raise RuleError(f"layout_mode = row lays the cards side by side in one row: set "
                        f"grid_rows = 1 (and grid_cols to the number of cards), not grid_rows = "
                        f"{r.grid_rows}")
    if r.layout_mode == "row" and r.pair_scope == "column":
        raise RuleError("layout_mode = row: pair_scope = column pairs nothing in a single row; "
                        "use row_or_column, orthogonal_adjacent, anywhere or none")
    if r.layout_mode == "hand" and r.pair_scope not in ("anywhere", "none"):
        raise RuleError(f"layout_mode = hand has no rows or columns: pair_scope must be anywhere "
                        f"or none, not {r.pair_scope}")
    if r.initial_reveal_constraint == "whole_column" and \
            r.initial_reveal_mode not in ("flip", "flip_on_first_turn"):
        raise RuleError("initial_reveal_constraint = whole_column turns a column face up: it "
                        f"needs initial_reveal_mode flip or flip_on_first_turn, not "
                        f"{r.initial_reveal_mode}")
    if r.initial_reveal_constraint == "whole_column" and r.initial_reveal_mode == "flip":
        raise RuleError("initial_reveal_constraint = whole_column is played at the first turn: "
                        "use initial_reveal_mode = flip_on_first_turn")
    if r.pair_scope in ("row_or_column", "row_column_diagonal") and npos > 12:
        raise RuleError(f"pair_scope = {r.pair_scope} is supported on layouts of at most 12 "
                        f"cards; this grid has {npos}")
    if r.block_2x2_value is not None and r.grid_rows < 2:
        raise RuleError("block_2x2_value needs a grid with at least 2 rows")
    if r.block_2x2_value is not None and r.pair_scope not in ("column", "none"):
        raise RuleError(f"block_2x2_value is defined with pair_scope column or none, not "
                        f"{r.pair_scope}")
    if r.six_of_kind_value is not None and npos != 6:
        raise RuleError(f"six_of_kind_value needs a 6-card layout; this grid has {npos} positions")


def _check_ending(r) -> None:
    """A way for the hole to end, the powers' options, and what the ender's rules need."""
    if not {"knock", "all_face_up", "all_players_face_up", "call", "stock_exhausted"} & \
            set(r.end_triggers):
        raise RuleError("end_triggers must include knock, all_face_up, all_players_face_up, "
                        "call or stock_exhausted")
    _check_powers(r)
    if r.placement_face == "down" and \
            not ({"knock", "call", "stock_exhausted", "empty_layout"} & set(r.end_triggers)) and \
            not (r.flip_instead_of_draw or r.flip_all_to_end or
                 r.flip_after_stock_discard != "none"):
        raise RuleError("placement_face = down with end_triggers = "
                        f"{','.join(r.end_triggers)} gives no way to turn cards face up; add "
                        "flip_instead_of_draw, flip_all_to_end or flip_after_stock_discard")
    if r.ender_rule_applies_to == "knock_only" and "knock" not in r.end_triggers and \
            (r.ender_penalty != "none" or r.ender_bonus != "none"):
        raise RuleError("ender_penalty/ender_bonus with ender_rule_applies_to = knock_only have "
                        "no effect without the knock end trigger")


UNPLAYABLE = ("these rules need a feature no compiled build of golfsim has "
              "(simulator/kernel/features.py)")


def uses_power_engine(r) -> bool:
    """Does the rule set need the power-card engine (simulator/game/powers/): power cards,
    snaps, turn matches, or the end triggers only it plays (call, empty_layout,
    stock_exhausted)? The compiled engine plays them on its powers build
    (simulator/kernel/features.py)."""
    return r.power_set != "none" or r.snap_mode != "none" or r.turn_match_mode != "none" or \
        bool({"call", "empty_layout", "stock_exhausted"} & set(r.end_triggers))


# options the power-card engine does not combine with (none of the power games uses them)
_NOT_WITH_POWERS = (
    ("remove_cancelled", lambda r: r.remove_cancelled != "never", "never"),
    ("replace_unseen_once", lambda r: r.replace_unseen_once, "false"),
    ("rearrange_after_reveal", lambda r: r.rearrange_after_reveal, "false"),
    ("blind_replacement", lambda r: not r.blind_replacement, "true"),
    ("initial_reveal_mode", lambda r: r.initial_reveal_mode == "flip_on_first_turn",
     "none, flip or peek"),
    ("knock_min_laps", lambda r: r.knock_min_laps != 0, "0"),
)


def _check_powers(r) -> None:
    """The power options make sense only together (docs/rules.md#power-card-games)."""
    triggers = set(r.end_triggers)
    if {"knock", "call"} <= triggers:
        raise RuleError("end_triggers with both knock and call: a call is the knock of the "
                        "power-card games under another name (call_name); choose one")
    if "stock_exhausted" in triggers and r.stock_empty != "end_hole":
        raise RuleError(f"end_triggers = stock_exhausted needs stock_empty = end_hole (got "
                        f"{r.stock_empty}): a reshuffled stock is never exhausted")
    if r.non_caller_rule != "layout_value" and "call" not in triggers:
        raise RuleError(f"non_caller_rule = {r.non_caller_rule} scores the players who did not "
                        f"call: it needs end trigger call, which end_triggers lacks")
    if r.call_name != "Knock" and "call" not in triggers:
        raise RuleError(f"call_name = {r.call_name} names the call of end trigger call, which "
                        f"end_triggers lacks")
    for name, bad, need in (
            ("snap_penalty_opponent_miss", r.snap_penalty_opponent_miss and
             r.snap_mode != "cumbia", "snap_mode = cumbia"),
            ("snap_penalty_cards", r.snap_penalty_cards and r.snap_mode != "cactus",
             "snap_mode = cactus"),
            ("match_fail_penalty_cards", r.match_fail_penalty_cards and
             r.turn_match_mode != "cabo_match", "turn_match_mode = cabo_match"),
            ("power_source", r.power_source != "stock_only" and r.power_set == "none",
             "a power_set"),
            ("power_card_placeable", not r.power_card_placeable and r.power_set == "none",
             "a power_set"),
            ("dutch_powers", r.dutch_powers != K.DUTCH_POWER_CARDS and r.power_set != "dutch",
             "power_set = dutch"),
            ("powers_off", r.powers_off and r.power_set in ("none", "dutch"),
             "a named power_set (malaysia, pablo, cumbia, cabo, cactus; the Dutch table "
             "switches its cards with dutch_powers)")):
        if bad:
            raise RuleError(f"option {name} = {option_text(getattr(r, name))} needs {need}")
    if r.powers_off:
        having = ranks_with_powers(r.power_set)
        for v in r.powers_off:
            if v not in having:
                raise RuleError(f"option powers_off = {v}: power_set = {r.power_set} gives "
                                f"{v} no power; cards with powers: {', '.join(having)}")
    if uses_power_engine(r):
        for name, bad, allowed in _NOT_WITH_POWERS:
            if bad(r):
                raise RuleError(f"option {name} = {option_text(getattr(r, name))} is not "
                                f"played with power cards, snaps, turn matches or the end "
                                f"triggers call, empty_layout, stock_exhausted; allowed: "
                                f"{allowed}")


def _couples_two_columns(r) -> bool:
    """Does the scoring couple pair-columns, or count them by rank (two-row grids)?"""
    return any(v is not None for v in (r.quad_two_columns_value, r.quad_apart_value,
                                       r.joker_quad_value, r.joker_quad_apart_value,
                                       r.negative_quad_value, r.block_2x2_value)) or \
        r.jack_pairs_bonus != 0
