"""The house rules of docs/house_rules.md, each held to a worked example of its own (a layout or
a hole in, scores out) through the compiled scoring that `golfsim score` prints and through the
plain-Python reference; the turn rules are checked where the reference offers the move and by
move-log parity with the compiled engine."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game import reference as R
from simulator.cli import cli
from simulator.game.rules import RuleError, Rules, flatten
from simulator.output.layout_score import score_hole, score_layout
from strategies.reference import policy_maker
from test_reference_parity import assert_parity

# (house rule, preset, options, layouts one per seat, ender, expected hole scores); with one
# layout, the expected layout value. The options are the mapping docs/house_rules.md gives.
WORKED = [
    # golfgame's catalogue (six-card): card values
    ("super_kings", "six_card", dict(value_king=-2), ["KS 5H 9C / 3D 5C 2H"], None, [8]),
    ("ten_penny", "six_card", dict(value_ten=1), ["TS 5H 9C / 3D 5C 2H"], None, [11]),
    ("lucky_swing", "six_card", dict(joker_count=1, value_joker=-5),
     ["JK 5H 9C / 3D 5C 2H"], None, [5]),
    ("one_eyed_jacks", "six_card", dict(one_eyed_jacks="zero"),
     ["JS JD 9C / 3D JH 2H"], None, [10]),
    ("eagle_eye alone", "six_card", dict(jokers_per_deck=2, value_joker="plus2_pair_minus4"),
     ["JK 5H 9C / 3D 5C 2H"], None, [12]),
    ("eagle_eye paired", "six_card", dict(jokers_per_deck=2, value_joker="plus2_pair_minus4"),
     ["JK 5H 9C / JK 5C 2H"], None, [3]),
    # patterns
    ("wolfpack", "six_card", dict(jack_pairs_bonus=-20), ["JS JH 9C / JD JC 2H"], None, [-13]),
    ("four_of_a_kind", "six_card", dict(quad_two_columns_value=-20),
     ["8S 9H 8C / 8D 4C 8H"], None, [-7]),
    ("four_of_a_kind with wolfpack", "six_card",
     dict(quad_two_columns_value=-20, jack_pairs_bonus=-20), ["JS JH 9C / JD JC 2H"], None,
     [-33]),
    ("whitnack pair-columns apart", "eight_card_whitnack", dict(quad_apart_value=-5),
     ["5S 9H 5C 4D / 5D 3C 5H 6S"], None, [17]),
    ("whitnack joker columns side by side", "eight_card_whitnack",
     dict(joker_quad_value=-50, joker_quad_apart_value=-20), ["JK JK 9H 4D / JK JK 3C 6S"],
     None, [-28]),
    ("whitnack joker columns apart", "eight_card_whitnack",
     dict(joker_quad_value=-50, joker_quad_apart_value=-20), ["JK 9H JK 4D / JK 3C JK 6S"],
     None, [2]),
    # the hole: blackjack, then the ender's rules, then the lowest and the ties
    ("blackjack", "six_card", dict(twenty_one_scores_zero=True),
     ["9S 5H KC / 3D 4C KH", "KD 5D 9D / 3S 5S 2S"], None, [0, 10]),
    ("knock_penalty", "six_card", dict(ender_penalty="plus_10"),
     ["KS 5H 9C / 3D 5C 2H", "KC 5D 9H / KD 5S 2C"], 0, [20, 7]),
    ("knock_bonus", "six_card", dict(ender_extra=-5),
     ["KS 5H 9C / 3D 5C 2H", "KC 5D 9H / KD 5S 2C"], 0, [5, 7]),
    ("knock_penalty and knock_bonus", "six_card", dict(ender_penalty="plus_10", ender_extra=-5),
     ["KS 5H 9C / 3D 5C 2H", "KC 5D 9H / KD 5S 2C"], 0, [15, 7]),
    ("underdog_bonus", "six_card", dict(lowest_bonus=-3),
     ["KS 5H 9C / 3D 5C 2H", "KC 5D 9H / KD 5S 2C", "QH 3H 9D / QS 3S 2S"], None, [10, 4, 4]),
    ("tied_shame", "six_card", dict(tie_penalty=5),
     ["KS 5H 9C / 3D 5C 2H", "KC 5D 9H / KD 5S 2C", "QH 3H 9D / QS 3S 2S"], None, [10, 12, 12]),
    ("underdog_bonus, then tied_shame", "six_card", dict(lowest_bonus=-3, tie_penalty=5),
     ["KS 5H 9C / 3D 5C 2H", "KC 5D 9H / KD 5S 2C", "QH 3H 9D / QS 3S 2S"], None, [10, 9, 9]),
]


def cli_json(args: list[str]) -> dict:
    res = CliRunner().invoke(cli, args + ["--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def _cards(text: str, rules: Rules) -> list[int]:
    return C.parse_layout(text, rules.grid_rows, rules.grid_cols)


@pytest.mark.parametrize("name,preset,options,layouts,ender,expected", WORKED,
                         ids=[w[0] for w in WORKED])
def test_worked_example(name, preset, options, layouts, ender, expected):
    rules = Rules.preset(preset, **options)
    # without the option the example comes out differently, so it shows the rule
    base = Rules.preset(preset, **{k: v for k, v in options.items()
                                   if k not in ("ender_extra", "ender_penalty", "lowest_bonus",
                                                "tie_penalty", "twenty_one_scores_zero",
                                                "jack_pairs_bonus", "quad_two_columns_value",
                                                "quad_apart_value", "joker_quad_value",
                                                "joker_quad_apart_value", "value_king",
                                                "value_ten", "value_joker", "one_eyed_jacks")})
    if len(layouts) == 1:
        compiled = score_layout(rules, layouts[0]).score
        assert compiled == expected[0]
        assert R.layout_value(rules, _cards(layouts[0], rules)) == expected[0]
        assert score_layout(base, layouts[0]).score != expected[0]
        return
    hole = score_hole(rules, " | ".join(layouts), ender, False)
    assert hole.scores == expected
    parts = [R.score_layout(rules, _cards(t, rules)) for t in layouts]
    ref = R.hole_scores(rules, [p.value for p in parts], -1 if ender is None else ender, False,
                        [p.couples for p in parts])
    assert ref == expected
    assert score_hole(base, " | ".join(layouts), ender, False).scores != expected


def test_score_command_scores_a_hole():
    """`golfsim score` with layouts separated by '|' prints each seat's hole score."""
    out = cli_json(["score", "--set", "ender_extra=-5", "--ender", "0",
                    "KS 5H 9C / 3D 5C 2H | KC 5D 9H / KD 5S 2C"])
    assert out["hole_scores"] == [5, 7] and out["layout_values"] == [10, 7]
    assert out["ender"] == 0


def test_blackjack_layout_value_is_zero_everywhere():
    """A layout worth 21 counts as 0 for every later rule: here it is the lowest, so the
    ender (worth 10) is not lowest and pays ender_penalty."""
    rules = Rules.preset("six_card", twenty_one_scores_zero=True, ender_penalty="plus_10")
    hole = score_hole(rules, "9S 5H KC / 3D 4C KH | KD 5D 9D / 3S 5S 2S", 1, False)
    assert hole.values == [0, 10] and hole.scores == [0, 20]


def test_rules_that_do_not_apply_leave_the_score_alone():
    """One pair of jacks is no wolfpack; pair-columns side by side keep the preset's quad
    value under quad_apart_value."""
    assert score_layout(Rules.preset("six_card", jack_pairs_bonus=-20),
                        "JS 4H 9C / JD 5C 2H").score == 16
    whitnack = "5S 5C 9H 4D / 5D 5H 3C 6S"
    assert score_layout(Rules.preset("eight_card_whitnack", quad_apart_value=-5),
                        whitnack).score == score_layout(Rules.preset("eight_card_whitnack"),
                                                        whitnack).score == 12


def test_lucky_swing_deck_holds_one_joker():
    rules = Rules.preset("six_card", joker_count=1, value_joker=-5)
    for players in (2, 5):   # one deck, then two: still one joker in all
        deck = flatten(rules, players).deck
        assert sum(1 for c in deck if C.rank_of(int(c)) == C.RANK_JOKER) == 1
        assert len(deck) == rules.deck_size(players) == 52 * rules.decks_for(players) + 1
    with pytest.raises(Exception, match="jokers given"):
        score_layout(rules, "JK 5H JK / 3D 5C 2H")


@pytest.mark.parametrize("options,fragment", [
    (dict(jack_pairs_bonus=-20, pair_scope="anywhere"), "need pair_scope = column"),
    (dict(quad_apart_value=-5, quad_two_columns_adjacent_only=True), "choose one"),
    (dict(joker_quad_value=-50, remove_cancelled="immediate"), "choose one"),
    (dict(value_ten=3), "value_ten = 3"),
    (dict(flip_all_max_face_down=0), "flip_all_max_face_down = 0"),
])
def test_house_rule_options_are_checked(options, fragment):
    """Each refusal is one line naming the option (and what it needs)."""
    with pytest.raises(RuleError, match=fragment):
        Rules.preset("six_card", **options)


# ---- the turn rules -----------------------------------------------------------------------------
TURN_RULES = {
    # golfgame's knock_early: with two or fewer face-down cards, turn them all up to go out
    "knock_early": dict(flip_all_to_end=True, flip_all_max_face_down=2),
    # flip_mode = endgame: after discarding a stock card, a flip that may be passed, once
    # some player has at most one face-down card
    "flip_mode_endgame": dict(flip_after_stock_discard="optional_in_endgame"),
    # flip_as_action: a turn may be just turning a card up
    "flip_as_action": dict(flip_instead_of_draw=True),
}


def _recording(hole: R.Hole, seen: list) -> None:
    """Record, at every question the reference asks, the face-down counts of every seat, the
    question and the legal answers."""
    ask = hole.ask

    def asking(seat, decision, legal, held=None):
        counts = [hole.state.face_down_count(s) for s in range(hole.players)]
        seen.append((seat, decision, list(legal), counts))
        return ask(seat, decision, legal, held)

    hole.ask = asking


def _questions(options: dict, players: int = 3, rounds: int = 40):
    seen = []
    for i in range(rounds):
        hole = R.Hole(Rules.preset("six_card", **options), players, [policy_maker("random")], 17, i)
        _recording(hole, seen)
        hole.play()
    return seen


def test_knock_early_only_with_two_or_fewer_face_down():
    seen = [(counts[seat], K.A_FLIP_ALL in legal) for seat, d, legal, counts in
            _questions(TURN_RULES["knock_early"]) if d == K.DP_TURN]
    assert all(ok == (1 <= down <= 2) for down, ok in seen)
    assert sum(ok for _, ok in seen) > 50 and any(down > 2 for down, _ in seen)


def test_endgame_flip_is_offered_only_in_the_endgame_and_may_be_passed():
    flips = [(min(counts), legal) for seat, d, legal, counts in
             _questions(TURN_RULES["flip_mode_endgame"]) if d == K.DP_FLIP]
    assert len(flips) > 30
    assert all(low <= 1 and K.A_PASS in legal for low, legal in flips)


def test_flip_as_action_is_a_turn():
    seen = [legal for seat, d, legal, counts in _questions(TURN_RULES["flip_as_action"])
            if d == K.DP_TURN and counts[seat] > 0]
    assert seen and all(K.A_FLIP in legal for legal in seen)


@pytest.mark.parametrize("name", sorted(TURN_RULES))
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_turn_rule_parity(name, strategy):
    assert_parity(Rules.preset("six_card", **TURN_RULES[name]), 3, [strategy], 40, 60)


HOUSE_RULE_SETS = {
    "scoring": dict(value_king=-2, value_ten=1, jokers_per_deck=2,
                    value_joker="plus2_pair_minus4", jack_pairs_bonus=-20,
                    quad_two_columns_value=-20, twenty_one_scores_zero=True, ender_extra=-5,
                    lowest_bonus=-3, tie_penalty=5, ender_penalty="plus_10"),
    "lucky_swing": dict(joker_count=1, value_joker=-5, one_eyed_jacks="zero"),
}


@pytest.mark.parametrize("name", sorted(HOUSE_RULE_SETS))
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_house_rules_play_identically_in_both_engines(name, strategy):
    assert_parity(Rules.preset("six_card", **HOUSE_RULE_SETS[name]), 4, [strategy], 41, 80)


def test_whitnack_couples_play_identically():
    rules = Rules.preset("eight_card_whitnack", quad_apart_value=-5, joker_quad_value=-50,
                         joker_quad_apart_value=-20)
    assert_parity(rules, 3, ["random"], 42, 60)


def test_score_json_names_the_hole():
    out = cli_json(["score", "--set", "twenty_one_scores_zero=true",
                    "9S 5H KC / 3D 4C KH | KD 5D 9D / 3S 5S 2S"])
    assert out["layout_values"] == [0, 10] and out["layouts"][0]["score"] == 21
