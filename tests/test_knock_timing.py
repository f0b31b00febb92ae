"""knock_timing (docs/rules.md#knock_timing, AMB-12): instead of a turn, right after one's own turn,
or either. Both engines play it move for move alike; each timing offers the knock where it says;
every built-in answers the after-turn question with its own knock rule."""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

from simulator.game import codes as K
from strategies.reference import referee
from simulator.cli import cli
from simulator.kernel.flow import rules_eligible
from simulator.game.rules import Rules, flatten
from strategies import STRATEGIES
from test_reference_parity import assert_parity, engine_round
from tiers import sweep

W2_LIKE = dict(pair_scope="none", initial_reveal_constraint="nearest_row")
KT = "knock-threshold:T=8"


@pytest.mark.parametrize("timing", ["end_of_own_turn", "any_time_in_turn"])
@pytest.mark.parametrize("seats", [[KT], ["random"], [KT, "random", "greedy"]])
def test_reference_parity(timing, seats):
    rules = Rules.preset("four_card", knock_timing=timing, **W2_LIKE)
    players = 3
    assert_parity(rules, players, (seats * players)[:players], 41, 120)


def _knocks(rules, seed, rounds):
    """(knocks made at the start of a turn, knocks made right after one) in the kernel's log."""
    start = after = 0
    for i in range(rounds):
        log = engine_round(rules, 4, [KT], seed, i)["log"]
        start += int(((log[:, 2] == K.DP_TURN) & (log[:, 3] == K.A_KNOCK)).sum())
        after += int(((log[:, 2] == K.DP_KNOCK) & (log[:, 3] == K.A_KNOCK)).sum())
    return start, after


def test_each_timing_offers_the_knock_where_it_says():
    base = Rules.preset("four_card", **W2_LIKE)
    assert _knocks(base, 5, 60)[1] == 0
    start, after = _knocks(base.with_options(knock_timing="end_of_own_turn"), 5, 60)
    assert start == 0 and after > 30
    start, after = _knocks(base.with_options(knock_timing="any_time_in_turn"), 5, 60)
    assert start > 0 and after > 0


def test_a_knock_after_the_turn_comes_with_the_turn():
    rules = Rules.preset("four_card", knock_timing="end_of_own_turn", **W2_LIKE)
    rec = referee.play_round(rules, 4, [KT], 3, 2)
    rows = [r for r in rec.log if r[2] == K.DP_KNOCK and r[3] == K.A_KNOCK]
    assert len(rows) == 1 and rec.knocked
    turn, seat = rows[0][0], rows[0][1]
    same_turn = [r for r in rec.log if r[0] == turn and r[1] == seat]
    assert same_turn[0][2] == K.DP_TURN and same_turn[0][3] in (K.A_DRAW_STOCK,
                                                                K.A_TAKE_DISCARD)


@pytest.mark.parametrize("name", sweep(sorted(set(STRATEGIES) - {"lookahead"}),
                                       keep={"greedy", "knock-threshold"}))
def test_every_builtin_answers_after_its_turn(name, tmp_path):
    rules = Rules.preset("four_card", knock_timing="end_of_own_turn", **W2_LIKE)
    assert not rules_eligible(flatten(rules, 4).ri)   # the lean kernel leaves it to the engine
    res = CliRunner().invoke(cli, ["run", "--preset", "four_card", "--set",
                                   "knock_timing=end_of_own_turn", "--set", "pair_scope=none",
                                   "--strategy", name, "--strategy", KT, "--strategy", name,
                                   "--strategy", KT, "--rounds", "300", "--quiet", "--threads",
                                   "1", "--out", str(tmp_path / "r")])
    assert res.exit_code == 0, res.output
    summary = pl.read_parquet(tmp_path / "r" / "summary.parquet")
    assert summary["knock_share"][0] > 0.5 and summary["capped_share"][0] < 0.05


def test_lookahead_refuses_other_timings(tmp_path):
    res = CliRunner().invoke(cli, ["run", "--preset", "six_card", "--set",
                                   "end_triggers=knock,all_face_up", "--set",
                                   "knock_timing=end_of_own_turn", "--strategy", "lookahead",
                                   "--rounds", "10", "--quiet", "--out", str(tmp_path / "x")])
    assert res.exit_code == 2 and "lean kernel" in res.output
