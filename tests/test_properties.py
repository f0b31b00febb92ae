"""Property-based tests (hypothesis): arbitrary valid rule sets, seat mixes and seeds keep the
contract of tests/test_contract.py through both engines (card conservation, knowledge,
termination, scores recounted from scratch, the reference's move log); arbitrary invalid
option values are each refused in one line that names the option.

The default tier draws a few dozen rule sets; the slow tier, which .ci/run runs, 500 more.
Both are derandomized, so a failure is the same on every machine.

The power presets get options and house rules (docs/house_rules.md) drawn on top, one to four,
typed as ``--set`` takes them: each set is refused in one line naming one of them, or played
on the powers build with its after-every-turn card-conservation check and compared with the
reference engine, move by move (the slow tier: the powers build is compiled there only)."""

from __future__ import annotations

from dataclasses import fields

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import simulator.api as golf  # noqa: E402
from simulator.game.rules import (OPTIONS, POWER_PRESETS, PRESETS, RuleError, Rules,  # noqa: E402
                                  canonical_option, option_text, parse_option_text,
                                  uses_power_engine)
from test_contract import ALL_BUILTINS, run_general, seat_specs  # noqa: E402
from test_docs import _catalogue_rows  # noqa: E402
from test_power_kernel import differences  # noqa: E402
from test_random_rules import COMPILED_PRESETS, POWER_OPTIONS, SKIP, _candidates  # noqa: E402

DRAWN = [f.name for f in fields(Rules) if f.name not in SKIP and _candidates(f)]
# lookahead plays only what the lean build plays; the other built-ins play everything
SEATS = [s for s in ALL_BUILTINS]
DEFAULT_EXAMPLES = 40
CI_EXAMPLES = 500


@st.composite
def rule_sets(draw):
    preset = draw(st.sampled_from(sorted(COMPILED_PRESETS)))   # (power presets: reference only)
    names = draw(st.lists(st.sampled_from(DRAWN), max_size=6, unique=True))
    overrides = {name: draw(st.sampled_from(_candidates(OPTIONS[name]))) for name in names}
    try:
        rules = Rules.preset(preset).with_options(**overrides)
    except RuleError:
        assume(False)
    players = draw(st.integers(rules.players_min, min(rules.players_max, 6)))
    try:
        rules.check_players(players)
    except RuleError:
        assume(False)
    return rules, players


def _settings(n: int):
    return settings(max_examples=n, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _keeps_the_contract(case, mix, seed):
    rules, players = case
    run_general(rules, players, seat_specs(tuple(mix), players), seed, rounds=1)


_valid = given(case=rule_sets(), mix=st.lists(st.sampled_from(SEATS), min_size=1, max_size=3),
               seed=st.integers(0, 2**31 - 1))


@_settings(DEFAULT_EXAMPLES)
@_valid
def test_valid_rule_sets_keep_the_contract(case, mix, seed):
    _keeps_the_contract(case, mix, seed)


@pytest.mark.slow
@_settings(CI_EXAMPLES)
@_valid
def test_valid_rule_sets_keep_the_contract_500(case, mix, seed):
    _keeps_the_contract(case, mix, seed)


# ---- invalid values ---------------------------------------------------------------------------
def _not_allowed(f):
    """Texts that option ``f`` must refuse: a word it does not know, numbers outside its
    range or list, and for a yes/no option anything but true/false (an empty value is "none"
    for the options that may be none)."""
    m = f.metadata
    texts = ["bogus_value", "1e999", "nan", "-"] + ([] if m["nullable"] else [""])  # "" = none
    if m["lo"] is not None:
        texts += [str(m["lo"] - 1), str(m["hi"] + 1), str(m["hi"] + 10 ** 6)]
    elif m["allowed"] is not None and all(isinstance(v, int) and not isinstance(v, bool)
                                          for v in m["allowed"] if v is not None):
        texts += [str(max((v for v in m["allowed"] if v is not None), default=0) + 1000)]
    return texts


INVALID = [(name, text) for name in sorted(OPTIONS) for text in _not_allowed(OPTIONS[name])
           if name not in ("deck_thresholds", "end_triggers")]


@_settings(200)
@given(case=st.sampled_from(INVALID), preset=st.sampled_from(sorted(PRESETS)))
def test_invalid_values_are_refused_in_one_line(case, preset):
    name, text = case
    with pytest.raises(RuleError) as e:
        Rules.preset(preset).with_text_options([f"{name}={text}"])
    message = str(e.value)
    assert "\n" not in message and name in message, message


# ---- power presets with options and house rules on top --------------------------------------
# every option but the table size, the turn cap and match play (one hole is played)
ON_POWERS = [f.name for f in fields(Rules) if f.name not in SKIP - POWER_OPTIONS and
             _candidates(f)]
HOUSE_RULES = [assignments for _, _, assignments in _catalogue_rows() if assignments]
REFERENCE_SEATS = ("random", "greedy", "knock-threshold")   # the seats the reference plays
POWER_TURN_CAP = 120   # a hole of random seats ends soon enough: a capped one is checked too


@st.composite
def power_rule_texts(draw):
    """A power preset and one to four options or house rules, as ``--set`` texts (two house
    rules may set one option: refused as given twice)."""
    items = []
    for choice in draw(st.lists(st.sampled_from(ON_POWERS + list(range(len(HOUSE_RULES)))),
                                min_size=1, max_size=4, unique=True)):
        if isinstance(choice, int):
            items += HOUSE_RULES[choice]
        else:
            value = draw(st.sampled_from(_candidates(OPTIONS[choice])))
            items.append(f"{choice}={option_text(value)}")
    return draw(st.sampled_from(sorted(POWER_PRESETS))), items


def _power_rules_or_refusal(preset: str, items: list[str]):
    """The rule set, holding every option as it was given, or None when it is refused in one
    line naming one of them."""
    given = [(canonical_option(key), parse_option_text(canonical_option(key), text))
             for key, text in (item.split("=", 1) for item in items)]
    try:
        rules = golf.rules(preset, set=items).rules
    except golf.GolfsimError as e:
        message = str(e)
        assert "\n" not in message and any(name in message for name, _ in given), \
            (preset, items, message)
        return None
    lost = [(name, value) for name, value in given if getattr(rules, name) != value]
    assert not lost, (preset, items, f"silently not played as given: {lost}")
    return rules.with_options(turn_cap=POWER_TURN_CAP)


@_settings(300)
@given(case=power_rule_texts())
def test_options_on_power_presets_are_refused_in_one_line_or_held(case):
    _power_rules_or_refusal(*case)


@pytest.mark.slow
@_settings(1000)
@given(case=power_rule_texts(), table=st.integers(2, 6),
       mix=st.lists(st.sampled_from(REFERENCE_SEATS), min_size=1, max_size=3),
       seed=st.integers(0, 2**31 - 1), round_index=st.integers(0, 49))
def test_options_on_power_presets_are_refused_or_keep_the_contract(case, table, mix, seed,
                                                                   round_index):
    rules = _power_rules_or_refusal(*case)
    if rules is None:
        return
    players = max(rules.players_min, min(table, rules.players_max))
    try:
        rules.check_players(players)
    except RuleError as e:   # a deck too small for the table: one line naming decks
        assert "\n" not in str(e) and "decks" in str(e), (case, players, str(e))
        return
    seats = seat_specs(tuple(mix), players)
    if uses_power_engine(rules):
        diff = differences(rules, players, seed, round_index, seats)
        assert not diff, (case, players, seats, seed, round_index, diff[:3])
    else:   # the options drawn turned the power cards off: the general engine's contract
        run_general(rules, players, seats, seed, rounds=1)
