"""Property-based tests (hypothesis): arbitrary valid rule sets, seat mixes and seeds keep the
contract of tests/test_contract.py through both engines (card conservation, knowledge,
termination, scores recounted from scratch, the reference's move log); arbitrary invalid
option values are each refused in one line that names the option.

The default tier draws a few dozen rule sets; the slow tier, which .ci/run runs, 500 more.
Both are derandomized, so a failure is the same on every machine."""

from __future__ import annotations

from dataclasses import fields

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from simulator.game.rules import OPTIONS, PRESETS, RuleError, Rules  # noqa: E402
from test_contract import ALL_BUILTINS, run_general, seat_specs  # noqa: E402
from test_random_rules import COMPILED_PRESETS, SKIP, _candidates  # noqa: E402

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
