"""Reference parity over randomly drawn rule sets: every preset with random options, random
seats, several rounds each, through the compiled kernel and the plain-Python reference.
Move logs, scores, layouts, every seat's knowledge, turns, enders and flags must be identical, and the kernel checks
card conservation after every turn."""

from __future__ import annotations

import random
from dataclasses import fields

import numpy as np
import pytest

from simulator.game import codes as K
from strategies.reference import referee
from simulator.experiments.runner import play_logged_round
from simulator.game.rules import OPTIONS, POWER_PRESETS, PRESETS, RuleError, Rules, flatten
from tiers import sweep

# options not drawn: match play, the table-size limits and the turn cap; everything else is
# drawn at random
SKIP = {"match_end_mode", "match_end_holes", "match_end_target", "match_tie", "players_min",
        "players_max", "deck_thresholds", "turn_cap"}
# the power-card options and presets are drawn by tests/test_power_kernel.py, which plays
# them through the powers build and the reference
POWER_OPTIONS = {"power_set", "dutch_powers", "powers_off", "power_source",
                 "power_card_placeable", "snap_mode", "snap_penalty_opponent_miss", "snap_penalty_cards",
                 "turn_match_mode", "match_fail_penalty_cards", "call_name", "non_caller_rule"}
SKIP |= POWER_OPTIONS
COMPILED_PRESETS = [p for p in PRESETS if p not in POWER_PRESETS]
N_RULE_SETS = 220
ROUNDS_EACH = 3


def _candidates(f):
    m = f.metadata
    if f.name == "end_triggers":   # (call, empty_layout, stock_exhausted: powers only)
        return [("all_face_up",), ("knock",), ("knock", "all_face_up"),
                ("all_players_face_up",), ("knock", "all_players_face_up")]
    values = list(m["supported"] if m["supported"] is not None else
                  (m["allowed"] if m["allowed"] is not None else []))
    if not values:
        if f.type in ("bool", bool):
            values = [False, True]
        elif m["lo"] is not None:
            lo, hi = m["lo"], min(m["hi"], m["lo"] + 3)
            values = list(range(lo, hi + 1))
    if m["nullable"]:
        values = values + [None]
    return values


def draw_rule_sets(n: int, seed: int = 20261129):
    rng = random.Random(seed)
    names = [f.name for f in fields(Rules) if f.name not in SKIP]
    drawn, seen, tries = [], set(), 0
    while len(drawn) < n and tries < 200 * n:
        tries += 1
        preset = rng.choice(COMPILED_PRESETS)
        base = Rules.preset(preset)
        overrides = {}
        for name in rng.sample(names, rng.randint(1, 6)):
            values = _candidates(OPTIONS[name])
            if values:
                overrides[name] = rng.choice(values)
        try:
            rules = base.with_options(**overrides)
            players = rng.randint(rules.players_min, min(rules.players_max, 6))
            rules.check_players(players)
        except RuleError:
            continue
        if (rules, players) in seen:  # a repeat (e.g. options drawn at their preset values)
            continue
        seen.add((rules, players))
        drawn.append((preset, overrides, rules, players))
    return drawn


RULE_SETS = draw_rule_sets(N_RULE_SETS)


def test_enough_distinct_rule_sets():
    assert len({str(r) + str(p) for _, _, r, p in RULE_SETS}) >= 200
    assert {preset for preset, *_ in RULE_SETS} == set(COMPILED_PRESETS)


@pytest.mark.parametrize("case", range(len(RULE_SETS)))
def test_random_rule_set_parity(case):
    preset, overrides, rules, players = RULE_SETS[case]
    arrays = flatten(rules, players)
    for rnd in range(ROUNDS_EACH):
        k = play_logged_round(arrays, [0] * players, np.zeros((players, 1)), 31 + case, rnd)
        assert k["error"] == 0, (preset, overrides)
        ref = referee.play_round(rules, players, ["random"], 31 + case, rnd)
        where = (preset, overrides, players, rnd)
        assert [tuple(int(x) for x in row) for row in k["log"]] == \
            [tuple(row) for row in ref.log], where
        assert k["scores"].tolist() == list(ref.scores), where
        assert k["layout_values"].tolist() == list(ref.layout_values), where
        assert k["layouts"].tolist() == [list(x) for x in ref.layouts], where
        assert k["known"].tolist() == ref.known, where   # what every seat knows of every card
        assert (k["turns"], k["ender"], k["capped"], k["knocked"], k["reshuffles"]) == \
            (ref.turns, ref.ender, ref.capped, ref.knocked, ref.reshuffles), where
        assert k["turns"] <= rules.turn_cap


ROW_LAYOUTS = [  # layout_mode = row (four cards side by side), every pair scope it allows
    Rules.preset("four_card", layout_mode="row", grid_rows=1, grid_cols=4, pair_scope=scope,
                 initial_reveal_constraint="any")
    for scope in ("row_or_column", "orthogonal_adjacent", "anywhere", "none")]


@pytest.mark.parametrize("rules", sweep(ROW_LAYOUTS, keep={0}),
                         ids=[r.pair_scope for r in ROW_LAYOUTS])
@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_row_layout_parity(rules, spec):
    arrays = flatten(rules, 3)
    policy = 0 if spec == "random" else 1
    for rnd in range(20):
        k = play_logged_round(arrays, [policy] * 3, np.zeros((3, 1)), 5, rnd)
        ref = referee.play_round(rules, 3, [spec], 5, rnd)
        assert k["error"] == 0
        assert [tuple(int(x) for x in row) for row in k["log"]] == \
            [tuple(row) for row in ref.log], (rules.pair_scope, rnd)
        assert k["scores"].tolist() == list(ref.scores)
        assert k["layouts"].tolist() == [list(x) for x in ref.layouts]


REARRANGED = [Rules.preset(p, rearrange_after_reveal=True)
              for p in ("six_card", "nine_card", "ten_card")] + \
    [Rules.preset("six_card", rearrange_after_reveal=True, pair_scope="anywhere",
                  initial_reveal_count=3)]


@pytest.mark.parametrize("rules", REARRANGED, ids=["six", "nine", "ten", "six-anywhere-3"])
@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_rearrange_after_reveal_parity(rules, spec):
    """Both engines ask the same DP_ARRANGE questions and move the same cards."""
    arrays = flatten(rules, 3)
    policy = 0 if spec == "random" else 1
    arranged = 0
    for rnd in range(25):
        k = play_logged_round(arrays, [policy] * 3, np.zeros((3, 1)), 9, rnd)
        ref = referee.play_round(rules, 3, [spec], 9, rnd)
        assert k["error"] == 0
        log = [tuple(int(x) for x in row) for row in k["log"]]
        assert log == [tuple(row) for row in ref.log], (rules.grid_cols, rnd)
        assert k["scores"].tolist() == list(ref.scores)
        assert k["layouts"].tolist() == [list(x) for x in ref.layouts]
        arranged += sum(1 for row in log if row[2] == K.DP_ARRANGE)
    assert arranged >= 25 * 3 * rules.initial_reveal_count


def test_greedy_arranges_a_revealed_pair_into_one_column():
    """Two equal cards turned up go into one column (they cancel); others are spread."""
    rules = Rules.preset("six_card", rearrange_after_reveal=True)
    arrays = flatten(rules, 4)
    pairs = spread = 0
    for rnd in range(300):
        k = play_logged_round(arrays, [1] * 4, np.zeros((4, 1)), 2, rnd)
        log = k["log"]
        for seat in range(4):
            moves = [row for row in log if row[1] == seat and row[2] == K.DP_ARRANGE]
            (p1, c1), (p2, c2) = [(int(r[3]), int(r[4])) for r in moves[:2]]
            if c1 % 54 % 13 == c2 % 54 % 13 and c1 % 54 < 52:
                pairs += 1
                assert p1 % 3 == p2 % 3
            else:
                spread += 1
                assert p1 % 3 != p2 % 3
    assert pairs >= 5 and spread >= 100
