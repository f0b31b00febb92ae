"""Builds are chosen by the features a rule set needs (simulator/kernel/features.py): every option
is classified, the lean kernel's allow list decides as its old deny list did, and every build
refuses a rule set that needs a feature it lacks."""

from __future__ import annotations

from dataclasses import fields

import pytest

from simulator.game import codes as K
from simulator.kernel import features as F
from simulator.kernel import pick
from simulator.game.codes import MAX_POS
from simulator.kernel.lanes import GAIN_LIMIT
from simulator.kernel.flow import rules_eligible
from simulator.kernel.policy_api import NO_USER_POLICY, POLICY_USER
from simulator.game.rules import OPTIONS, PRESETS, RuleError, Rules, flatten
from simulator.experiments.runner import check_policies, make_job
from strategies import builtin
from strategies.lookahead import POLICY_LOOKAHEAD
from test_random_rules import COMPILED_PRESETS, POWER_OPTIONS, _candidates, draw_rule_sets


def test_every_option_is_classified():
    unclassified = [f.name for f in fields(Rules) if f.name not in F.OPTION_FEATURES]
    assert not unclassified, (f"options not in features.OPTION_FEATURES: {unclassified}; say "
                              "which feature each needs, or DATA_ONLY")
    assert set(F.OPTION_FEATURES) <= set(OPTIONS), "features.py names options Rules lacks"
    for name, needs in F.OPTION_FEATURES.items():
        assert all(need.feature in F.FEATURES for need in needs), name


def test_builds_name_only_features_that_exist():
    assert set(F.BUILD_FEATURES) == set(F.BUILDS) == {"general", "powers", "lean", "user",
                                                      "table", "own", "random", "forgetful",
                                                      "opponent-aware", "guide", "heuristic",
                                                      "cache"}
    # the general build's cache build plays its rounds on the rules the lean build plays
    assert F.BUILD_FEATURES["cache"] == F.BUILD_FEATURES["lean"]
    # the table build plays what the lean and user builds play, with any seats; a built-in's
    # own build (random's too) what the table build plays
    assert F.BUILD_FEATURES["table"] == F.BUILD_FEATURES["user"] == F.BUILD_FEATURES["lean"]
    assert F.BUILD_FEATURES["own"] == F.BUILD_FEATURES["random"] == F.BUILD_FEATURES["table"]
    # heuristic's own build: the lean flow, which never asks the face of a placed card
    assert F.BUILD_FEATURES["heuristic"] == F.BUILD_FEATURES["lean"] - {"face_choice"}
    for build, names in F.BUILD_FEATURES.items():
        assert names <= set(F.FEATURES), (build, names - set(F.FEATURES))
    # the general build has every feature but "powers", which only the powers build has
    assert F.mask(F.BUILD_FEATURES["general"]) == F.ALL & ~F.BIT["powers"]
    assert F.mask(F.BUILD_FEATURES["powers"]) == F.ALL
    assert set(F.MATCH_FEATURES) <= set(F.FEATURES)


# ---- the old deny list, frozen as the oracle of the allow list --------------------------------
def _old_rules_eligible(ri) -> bool:
    return (
        int(ri[K.R_REVEAL_MODE]) in (K.REVEAL_NONE, K.REVEAL_FLIP, K.REVEAL_PEEK)
        and int(ri[K.R_REVEAL_CONSTRAINT]) in (K.CON_ANY, K.CON_NEAREST_ROW)
        and int(ri[K.R_FLIP_INSTEAD_OF_DRAW]) == 0
        and int(ri[K.R_FLIP_AFTER_DISCARD]) == K.FAD_NONE
        and int(ri[K.R_FLIP_ALL_TO_END]) == 0
        and int(ri[K.R_PAY_TO_PEEK]) == K.NONE_VALUE
        and int(ri[K.R_JACK_SKIPS]) == 0
        and int(ri[K.R_KNOCK_TIMING]) == K.KNOCK_INSTEAD
        and int(ri[K.R_NPOS]) <= MAX_POS
        and int(ri[K.R_WILD_JACKS]) == 0
        and int(ri[K.R_REARRANGE]) == 0
        and int(ri[K.R_REPLACE_UNSEEN_ONCE]) == 0
        and int(ri[K.R_REMOVE_CANCELLED]) == K.REMOVE_NEVER
        and int(ri[K.R_BLIND]) == 1
        and 5 * int(ri[K.R_NCARDS]) * int(ri[K.R_MAX_ABS_VALUE]) < GAIN_LIMIT
    )


def _single_option_sets():
    """Every preset with every candidate value of one option, where the rules allow it."""
    for preset in COMPILED_PRESETS:   # (the power presets and options: below)
        base = Rules.preset(preset)
        for f in fields(Rules):
            if f.name in POWER_OPTIONS:
                continue
            for value in _candidates(f):
                try:
                    rules = base.with_options(**{f.name: value})
                    rules.check_players(rules.players_min)
                except RuleError:
                    continue
                yield rules, rules.players_min


def test_allow_list_decides_as_the_old_deny_list():
    cases = [(Rules.preset(p), n) for p in COMPILED_PRESETS
             for n in range(Rules.preset(p).players_min, min(Rules.preset(p).players_max, 6) + 1)]
    cases += [(rules, players) for *_, rules, players in draw_rule_sets(500, seed=25)]
    cases += list(_single_option_sets())
    accepted = 0
    for rules, players in cases:
        ri = flatten(rules, players).ri
        assert rules_eligible(ri) == _old_rules_eligible(ri), (str(rules), players)
        accepted += rules_eligible(ri)
    assert 100 < accepted < len(cases) - 100   # both answers are exercised


def test_bounds_are_still_enforced():
    ri = flatten(Rules(), 4).ri.copy()
    assert rules_eligible(ri)
    ri[K.R_MAX_ABS_VALUE] = -(-GAIN_LIMIT // (5 * int(ri[K.R_NCARDS])))
    assert not rules_eligible(ri)
    ri = flatten(Rules(), 4).ri.copy()
    ri[K.R_NPOS] = MAX_POS + 1
    assert not rules_eligible(ri)


# ---- every build refuses what it lacks ---------------------------------------------------------
EXAMPLES = {   # feature -> a rule set that needs it: (preset, overrides)
    "initial_reveal": ("six_card", {}),
    "knock": ("four_card", {}),
    "face_choice": ("six_card", {"placement_face": "player_choice"}),
    "reveal_constraints": ("six_card", {"initial_reveal_constraint": "different_columns"}),
    "reveal_on_first_turn": ("eight_card_whitnack", {}),
    "rearrange": ("six_card", {"rearrange_after_reveal": True}),
    "replace_once": ("six_card", {"replace_unseen_once": True}),
    "look_before_replace": ("six_card", {"blind_replacement": False}),
    "flip_turns": ("six_card", {"flip_instead_of_draw": True}),
    "flip_after_discard": ("six_card", {"flip_after_stock_discard": "mandatory"}),
    "flip_all_to_end": ("six_card", {"flip_all_to_end": True}),
    "pay_to_peek": ("four_card", {"pay_to_peek": 2}),
    "jack_skips": ("six_card", {"jack_discard_skips_next": True}),
    "knock_in_turn": ("four_card", {"knock_timing": "end_of_own_turn"}),
    "wild_jacks": ("six_card", {"one_eyed_jacks": "wild"}),
    "remove_cancelled": ("nine_card_fuchs", {}),
    "match_play": ("six_card", {}),
    "pot": ("six_card", {"pot_enabled": True}),
    "powers": ("power_cabo", {}),
}
PLAYERS = 3


def _example(feature):
    preset, overrides = EXAMPLES[feature]
    return Rules.preset(preset, **overrides)


def test_every_feature_has_an_example_that_needs_it():
    assert set(EXAMPLES) == set(F.FEATURES)
    for feature in F.FEATURES:
        matches = feature in F.MATCH_FEATURES
        assert pick.needed(_example(feature), PLAYERS, matches) & F.BIT[feature], feature
    assert not pick.needed(Rules(pot_enabled=True), PLAYERS) & F.BIT["pot"]  # holes: no pot


def _job(rules, seat, kernel="auto", user=None):
    return make_job(rules, PLAYERS, [seat] * PLAYERS, [[0.0]] * PLAYERS, 1, kernel=kernel,
                    user=user)


def _lacked(build):
    return [f for f in F.FEATURES if f not in F.BUILD_FEATURES[build]]


@pytest.mark.parametrize("feature", [f for f in _lacked("lean") if f != "powers"])
def test_builds_refuse_a_rule_set_needing_what_they_lack(feature):
    rules = _example(feature)
    matches = feature in F.MATCH_FEATURES
    for build in ("lean", "user"):
        assert feature in pick.missing(build, rules, PLAYERS, matches), build
    assert pick.missing("general", rules, PLAYERS, matches) == []
    if matches:   # runner.run plays whole matches on the general engine whatever is asked
        return
    with pytest.raises(ValueError, match="kernel = 'lean'"):
        _job(rules, builtin.POLICY_GREEDY, kernel="lean")
    assert not _job(rules, builtin.POLICY_GREEDY).lean                 # the general engine
    job = _job(rules, POLICY_USER, user=NO_USER_POLICY)
    assert job.user_chunk is None and not job.lean
    with pytest.raises(ValueError, match="lookahead"):
        _job(rules, POLICY_LOOKAHEAD)


@pytest.mark.parametrize("feature", sorted(F.BUILD_FEATURES["lean"]))
def test_lean_plays_what_it_has(feature):
    rules = _example(feature)
    assert pick.missing("lean", rules, PLAYERS) == []
    assert _job(rules, builtin.POLICY_GREEDY, kernel="lean").lean
    # lookahead's rollouts play them too (accepted without compiling lookahead, which only the
    # slow tier compiles: tests/test_lookahead.py plays it)
    check_policies(rules, PLAYERS, [POLICY_LOOKAHEAD] * PLAYERS)


# ---- power-card rules: the powers build plays them (and the Cabo build power_cabo's) -----
POWER_RULE_SETS = [Rules.preset(p) for p in PRESETS if p.startswith("power_")] + [
    Rules.preset("six_card", power_set="dutch"), Rules.preset("four_card", power_set="dutch"),
    Rules.preset("four_card", end_triggers=("call",)),
    Rules.preset("four_card", end_triggers=("knock", "stock_exhausted"), stock_empty="end_hole"),
    Rules.preset("four_card", snap_mode="cactus"),
    Rules.preset("four_card", turn_match_mode="cabo_match")]


@pytest.mark.parametrize("case", range(len(POWER_RULE_SETS)))
def test_only_the_powers_build_plays_power_rules(case):
    rules = POWER_RULE_SETS[case]
    for build in F.BUILD_FEATURES:
        # the powers build plays them (tests/test_power_kernel.py), lookahead's rollouts
        # included (tests/test_lookahead_powers.py)
        if build != "powers":
            assert "powers" in pick.missing(build, rules, PLAYERS), build
    assert not pick.missing("powers", rules, PLAYERS)
    assert not rules_eligible(flatten(rules, PLAYERS).ri)
    # lookahead plays them too: its rollouts play on the powers build
    check_policies(rules, PLAYERS, [POLICY_LOOKAHEAD] * PLAYERS)
    job = _job(rules, builtin.POLICY_GREEDY)
    # greedy seats on power_cabo's rules play on the Cabo build (tests/test_cabo_build.py),
    # every other power rule set on the powers build
    cabo = rules == Rules.preset("power_cabo")
    assert job.build == ("cabo" if cabo else "powers") and job.powers != cabo and not job.lean
    assert _job(rules, builtin.POLICY_GREEDY, kernel="general").build == "powers"
    assert _job(Rules.preset("six_card"), builtin.POLICY_GREEDY, kernel="general").build == \
        "general"
