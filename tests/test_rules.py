"""Rule sets: presets, option parsing, validation messages, TOML round trips, card values."""

import pytest

from simulator.game import cards as C
from simulator.game.rules import (PRESETS, RuleError, Rules, card_values, describe, flatten,
                                  load_toml)


def test_default_is_six_card():
    assert Rules() == Rules.preset("six_card")
    assert Rules().n_positions == 6


@pytest.mark.parametrize("preset", list(PRESETS))
def test_toml_round_trip(preset, tmp_path):
    rules = Rules.preset(preset)
    path = tmp_path / "r.toml"
    path.write_text(rules.to_toml(preset))
    assert load_toml(path) == rules


def test_describe_names_the_preset_and_every_changed_option():
    assert describe(Rules(), "six_card") == "six_card"
    r = Rules.preset("four_card", pair_scope="none", initial_reveal_constraint="nearest_row",
                     end_triggers=("knock", "all_face_up"))
    full = ("four_card, initial_reveal_constraint=nearest_row, end_triggers=knock,all_face_up, "
            "pair_scope=none")
    assert describe(r, "four_card") == full
    assert describe(r, "four_card", width=len(full)) == full
    # too long for the width: the options that do not fit are counted
    assert describe(r, "four_card", width=70) == \
        "four_card, initial_reveal_constraint=nearest_row, +2 more options"
    assert describe(r, "four_card", width=10) == "four_card, +3 more options"
    # a name that is not a preset (an old rules file) is compared with the defaults
    assert describe(Rules(grid_cols=4), "house") == "house, grid_cols=4"


def test_text_options_and_aliases():
    r = Rules().with_text_options(["pair_scope=anywhere", "initial_reveal.count=3",
                                   "value_two=2", "quad_two_columns_value=none",
                                   "final_turn_stock_only=true", "deck_thresholds=2:1,4:2"])
    assert r.pair_scope == "anywhere" and r.initial_reveal_count == 3 and r.value_two == 2
    assert r.final_turn_stock_only is True and r.deck_thresholds == ((2, 1), (4, 2))
    assert r.decks_for(3) == 1 and r.decks_for(4) == 2


@pytest.mark.parametrize("assignment, fragment", [
    ("pair_scop=column", "unknown rule option 'pair_scop'; did you mean pair_scope"),
    ("pair_scope=diagonal", "pair_scope = 'diagonal': expected one of none, column"),
    ("grid_cols=9", "grid_cols = 9: expected an integer from 1 to 5"),
    ("turn_cap=0", "turn_cap = 0: expected an integer from 1 to 100000"),
    ("value_two=3", "value_two = 3: expected one of -2, 2, none"),
    ("jokers_per_deck=1", "jokers_per_deck = 1: expected one of 0, 2"),
    ("flip_all_to_end=maybe", "flip_all_to_end = 'maybe': expected true or false"),
    ("decks=x", "decks = 'x': expected an integer from 0 to 8"),
    ("pot_ante=0", "pot_ante = 0: expected an integer from 1 to 10000"),
    ("initial_reveal_constraint=whole_column", "use initial_reveal_mode = flip_on_first_turn"),
    ("layout_mode=row", "set grid_rows = 1"),
    ("end_triggers=all_face_up,bogus", "expected items from knock"),
    ("noequals", "expected option=value"),
])
def test_bad_options_are_one_clear_line(assignment, fragment):
    with pytest.raises(RuleError) as e:
        Rules().with_text_options([assignment])
    assert fragment in str(e.value)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("options, fragment", [
    ({"quad_two_columns_value": -10, "pair_scope": "anywhere"}, "need pair_scope = column"),
    ({"initial_reveal_constraint": "centre_and_outer", "grid_cols": 4}, "odd number of columns"),
    ({"initial_reveal_constraint": "same_column", "initial_reveal_count": 3}, "at most 2"),
    ({"six_of_kind_value": -20, "grid_cols": 4}, "needs a 6-card layout"),
    ({"players_min": 5, "players_max": 3}, "players_min = 5 is above players_max = 3"),
    ({"placement_face": "down"}, "no way to turn cards face up"),
    ({"rearrange_after_reveal": True, "initial_reveal_mode": "peek"},
     "needs initial_reveal_mode = flip"),
    ({"overlap_rule": "remove_immediately"}, "is remove_cancelled = immediate"),
    ({"replace_unseen_once": True, "stock_draw_may_be_discarded": False},
     "nowhere to go"),
    ({"knock_exclusive": False}, "not supported yet"),
])
def test_conflicting_options_are_refused(options, fragment):
    with pytest.raises(RuleError) as e:
        Rules.preset("six_card", **options)
    assert fragment in str(e.value)


@pytest.mark.parametrize("preset, options", [
    ("six_card", ["joker_count=0", "jokers_per_deck=2", "value_joker=-5"]),
    ("six_card", ["jokers_per_deck=2", "joker_count=2"]),
    ("power_malaysia", ["joker_count=1"]),       # the preset's own jokers_per_deck = 2
    ("eight_card_whitnack", ["joker_count=1"]),  # two decks of two jokers each
])
def test_joker_count_and_jokers_per_deck_are_not_both_given(preset, options):
    """joker_count replaces jokers_per_deck: given together, one of them was silently
    ignored (joker_count = 0 with jokers_per_deck = 2 played without jokers)."""
    with pytest.raises(RuleError) as e:
        Rules.preset(preset).with_text_options(options)
    message = str(e.value)
    assert "joker_count" in message and "jokers_per_deck" in message and "\n" not in message
    one = Rules.preset(preset).with_text_options(["jokers_per_deck=0", "joker_count=1"])
    assert one.deck_size(2) == 52 * one.decks_for(2) + 1


def test_players_and_decks():
    r = Rules()
    r.check_players(4)
    assert r.decks_for(4) == 1 and r.decks_for(5) == 2 and r.decks_for(9) == 3
    with pytest.raises(RuleError, match="this rule set is for 2 to 6 players"):
        r.check_players(7)
    tight = r.with_options(players_max=12, deck_thresholds=((2, 1),))
    with pytest.raises(RuleError, match="need 68 cards but 1 deck"):
        tight.check_players(11)
    with pytest.raises(RuleError, match="unknown preset"):
        Rules.preset("seven_card")


def test_card_values_follow_tables_and_overrides():
    six = card_values(Rules())
    assert [six[C.card_id(r, C.SPADES)] for r in range(13)] == \
        [1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0]
    harder = card_values(Rules(value_scheme="harder"))
    assert harder[C.card_id(C.RANK_KING, 0)] == 13 and harder[C.card_id(1, 0)] == 2
    q = card_values(Rules(value_queen_of_spades=40, value_eight=0))
    assert q[C.card_id(C.RANK_QUEEN, C.SPADES)] == 40 and q[C.card_id(C.RANK_QUEEN, 1)] == 10
    assert q[C.card_id(C.RANK_EIGHT, 2)] == 0
    jk = card_values(Rules(jokers_per_deck=2, twos_positive_with_jokers=True))
    assert jk[52] == -2 and jk[C.card_id(1, 0)] == 2
    eyes = card_values(Rules(one_eyed_jacks="zero"))
    assert eyes[C.card_id(C.RANK_JACK, C.SPADES)] == 0
    assert eyes[C.card_id(C.RANK_JACK, C.HEARTS)] == 0
    assert eyes[C.card_id(C.RANK_JACK, C.CLUBS)] == 10


def test_flatten_deck():
    arrays = flatten(Rules(), 5)  # two decks for five players
    assert arrays.deck.size == 104 and len(set(arrays.deck.tolist())) == 104
    assert arrays.card_value[arrays.deck].sum() == 2 * (1 - 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10
                                                        + 10 + 10 + 0) * 4


def test_every_compiled_module_is_in_the_cache_key():
    """The kernel cache folder is keyed by a hash of these files; a module with compiled code
    missing from the list could leave a stale kernel in use after an edit."""
    from pathlib import Path

    from simulator.kernel.jit import KERNEL_SOURCES
    root = Path(__file__).resolve().parents[1]
    compiled = {p.relative_to(root).as_posix()
                for pkg in ("simulator", "strategies") for p in (root / pkg).rglob("*.py")
                if "@hot" in p.read_text() or p.name in ("codes.py", "jit.py")}
    # (the flow's user builds are copies named after a hash of its text and of the cache
    # folder, policy_api.kernel_file: the key holds the flow itself)
    assert compiled <= set(KERNEL_SOURCES)


def test_a_final_turn_with_nowhere_to_put_the_drawn_card_is_refused():
    """Every card face up for the final turns (reveal_on_trigger), a drawn card that must be
    kept and no face-up card to replace: the compiled engine met an illegal state (found by
    tests/test_properties.py); the rule set is refused, naming the three options."""
    with pytest.raises(RuleError) as e:
        Rules.preset("six_card", reveal_on_trigger=True, replace_face_up_allowed=False,
                     stock_draw_may_be_discarded=False)
    for name in ("reveal_on_trigger", "replace_face_up_allowed", "stock_draw_may_be_discarded"):
        assert name in str(e.value)
    Rules.preset("six_card", reveal_on_trigger=True, replace_face_up_allowed=False)


def test_titles_leave_out_a_value_the_preset_derives_alike():
    """six_card's 2s are worth -2 and its kings 0 without value_two / value_king: giving those
    values changes nothing, so the rule set's description does not list them."""
    assert describe(Rules.preset("six_card").with_options(value_two=-2, value_king=0),
                    "six_card") == "six_card"
    assert describe(Rules.preset("six_card").with_options(value_two=2, value_king=0),
                    "six_card") == "six_card, value_two=2"
