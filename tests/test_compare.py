"""`golfsim compare` and `golfsim plot`: variants of a factorial or one-at-a-time design, the
paired statistics against scipy on the raw rounds, paired against unpaired intervals, rotated
seatings, resuming after a kill (SIGKILL) with an identical result, damaged shard files,
refused arguments, --until-width, and the plot command redrawing every kind of results folder.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal
from scipy import stats as st

from simulator.experiments import compare as cmp
from simulator.experiments import runner
from simulator.experiments.stats import Interval, interval_verdict
from simulator.cli import cli
from simulator.game.rules import Rules
from simulator.experiments.tournament import round_wins
from strategies import resolve, seat_arrays

ROOT = Path(__file__).resolve().parent.parent
SIX = Rules.preset("six_card")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PAIR = "pair_scope=column,anywhere"
PENALTY = "ender_penalty=none,plus_10"


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def compare_cli(out: Path, *extra, rounds=4000, shard=1000, seed=3, threads=2):
    res = invoke("compare", "--vary", PAIR, "--rounds", rounds, "--shard-size", shard,
                 "--seed", seed, "--threads", threads, "--out", out, "--quiet", *extra)
    assert res.exit_code == 0, res.output
    return res


def table(out: Path) -> pl.DataFrame:
    return pl.read_parquet(out / "compare.parquet")


def plan(varies=(PAIR,), design="factorial", strategies=("greedy",), players=4, seed=3,
         shard=1000, rules=SIX):
    return cmp.make_plan(rules, "six_card", list(varies), design, list(strategies), players,
                         seed, shard)


# ---- arguments ------------------------------------------------------------------------------
def test_factorial_and_one_at_a_time_variants():
    varies = ["pair_scope=column,anywhere,none", PENALTY, "value_two=-2,2"]
    full = plan(varies)
    oat = plan(varies, design="one-at-a-time")
    assert len(full.variants) == 3 * 2 * 2 - 1
    assert len(oat.variants) == 2 + 1 + 1
    assert [v.label for v in oat.variants] == [
        "pair_scope=anywhere", "pair_scope=none", "ender_penalty=plus_10", "value_two=2"]
    # single changes first, then pairs, then the triple
    assert [len(v.changes) for v in full.variants] == [1] * 4 + [2] * 5 + [3] * 2
    assert full.variants[-1].label == "pair_scope=none, ender_penalty=plus_10, value_two=2"
    assert len({v.label for v in full.variants}) == len(full.variants)
    # the baseline takes every first value
    assert (full.baseline.pair_scope, full.baseline.ender_penalty, full.baseline.value_two) == \
        ("column", "none", -2)
    for v in full.variants:
        assert all(getattr(v.rules, o) == val for o, val in v.changes)


def test_vary_parsing():
    v = cmp.parse_vary("pair-scope = column, anywhere")
    assert (v.option, v.values) == ("pair_scope", ("column", "anywhere"))
    v = cmp.parse_vary("end_triggers=all_face_up|knock,all_face_up")
    assert v.values == (("all_face_up",), ("knock", "all_face_up"))
    assert str(v) == "end_triggers=all_face_up|knock,all_face_up"
    assert cmp.parse_vary("value_two=none,2").values == (None, 2)


@pytest.mark.parametrize("text, message", [
    ("pair_scope", "expected option=value1,value2"),
    ("pair_scope=", "expected option=value1,value2"),
    ("pair_scop=column,anywhere", "did you mean pair_scope"),
    ("pair_scope=column,diagonal", "option pair_scope = 'diagonal'"),
    ("pair_scope=anywhere", "at least two values"),
    ("pair_scope=column,,anywhere", "an empty value"),
    ("pair_scope=column,column", "given twice"),
    ("turn_cap=400,lots", "turn_cap"),
])
def test_bad_vary(text, message):
    with pytest.raises(cmp.CompareError, match="--vary") as e:
        cmp.parse_vary(text)
    assert message in str(e.value)


def test_strategy_lists():
    assert cmp.split_strategies(["greedy,random", "knock-threshold:T=6"]) == \
        ["greedy", "random", "knock-threshold:T=6"]
    assert cmp.split_strategies(["heuristic:take_max=4,hold=2,greedy"]) == \
        ["heuristic:take_max=4,hold=2", "greedy"]
    with pytest.raises(cmp.CompareError, match="at most one strategy per seat"):
        plan(strategies=("greedy,random,knock-threshold",), players=2)
    with pytest.raises(cmp.CompareError, match="the same strategy"):
        plan(strategies=("knock-threshold,knock-threshold:T=8",))


@pytest.mark.parametrize("players, k", [(4, 2), (4, 3), (3, 2), (5, 5), (2, 1)])
def test_every_strategy_holds_every_seat_once(players, k):
    seats = np.array(cmp.seatings(players, k))
    assert seats.shape == (k, players)
    for s in range(players):
        assert sorted(seats[:, s]) == list(range(k))


# ---- statistics -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """six_card, greedy, pair_scope and the ender penalty, 3,000 deals in shards of 1,000."""
    p = plan([PAIR, PENALTY])
    out = tmp_path_factory.mktemp("small")
    return p, cmp.run(p, out, rounds=3000, threads=2)


def test_statistics_agree_with_scipy_on_the_raw_rounds(small):
    p, result = small
    frame = cmp.frame(result)
    ids, params = seat_arrays([resolve("greedy")] * 4)
    raw = [runner.run(r, 4, ids, params, 3000, 3, threads=2, per_round=True).per_round
           for r in p.rule_sets]
    base = raw[0].scores.mean(axis=1).astype(float)
    for variant, pr in zip(p.variants, raw[1:]):
        row = frame.filter((pl.col("variant") == variant.label) &
                           (pl.col("quantity") == "mean_score") &
                           (pl.col("group") == "greedy")).row(0, named=True)
        y = pr.scores.mean(axis=1).astype(float)
        paired = st.ttest_rel(y, base).confidence_interval(0.95)
        welch = st.ttest_ind(y, base, equal_var=False).confidence_interval(0.95)
        assert row["diff"] == pytest.approx(y.mean() - base.mean(), abs=1e-12)
        assert (row["diff_lo95"], row["diff_hi95"]) == pytest.approx(tuple(paired), abs=1e-9)
        assert (row["unpaired_lo95"], row["unpaired_hi95"]) == \
            pytest.approx(tuple(welch), abs=1e-9)
        base_ci = st.ttest_1samp(base, 0).confidence_interval(0.95)
        assert (row["baseline_lo95"], row["baseline_hi95"]) == \
            pytest.approx(tuple(base_ci), abs=1e-9)
        # seat 3's win share and the round length, paired
        w = frame.filter((pl.col("variant") == variant.label) &
                         (pl.col("quantity") == "win_share") &
                         (pl.col("group") == "seat 3")).row(0, named=True)
        dw = round_wins(pr.scores)[:, 3] - round_wins(raw[0].scores)[:, 3]
        assert w["diff"] == pytest.approx(dw.mean(), abs=1e-12)
        t = frame.filter((pl.col("variant") == variant.label) &
                         (pl.col("quantity") == "round_length")).row(0, named=True)
        assert t["diff"] == pytest.approx((pr.turns - raw[0].turns).mean(), abs=1e-12)
        f = frame.filter((pl.col("variant") == variant.label) &
                         (pl.col("quantity") == "first_player_advantage")).row(0, named=True)
        assert f["baseline"] == pytest.approx(round_wins(raw[0].scores)[:, 0].mean() - 0.25,
                                              abs=1e-12)


def test_paired_intervals_are_narrower_than_unpaired(small):
    """Pairing removes what the deal decides. With a rule greedy does not react to (the ender
    penalty) every game runs the same course and the paired interval of greedy's mean score
    is more than 3x narrower than the unpaired one; with pair_scope greedy chooses
    differently, the games drift apart, and the gain is smaller but still there. The report
    shows both intervals."""
    _, result = small
    rows = cmp.frame(result).filter((pl.col("quantity") == "mean_score") &
                                    (pl.col("group") == "greedy"))
    ratio = dict(zip(rows["variant"], rows["width_ratio"]))
    assert ratio["ender_penalty=plus_10"] > 3
    assert ratio["pair_scope=anywhere"] > 1.1
    text = cmp.format_compare(result, 2)
    assert "paired vs unpaired" in text and "unpaired ±95%" in text
    md = cmp.markdown(result)
    assert "| ender_penalty=plus_10 | greedy |" in md


def test_ender_penalty_changes_no_game(small):
    """greedy ignores the ender penalty: same turns, same winners; only the ender's score
    moves, so the change is exactly zero with a zero-width interval."""
    _, result = small
    rows = cmp.frame(result).filter(pl.col("variant") == "ender_penalty=plus_10")
    same = rows.filter(pl.col("quantity").is_in(["win_share", "round_length",
                                                 "first_player_advantage"]))
    assert (same["diff"] == 0).all() and (same["diff_lo95"] == same["diff_hi95"]).all()
    assert (rows.filter(pl.col("quantity") == "mean_score")["diff"] > 0).all()


def test_rotated_strategies_on_a_table(tmp_path):
    """Two strategies, three players: two seatings; the strategies' win shares add up to 1
    and their figures are the seatings' plain runs averaged."""
    p = plan([PENALTY], strategies=("greedy,random",), players=3)
    assert p.seats == [(0, 1, 0), (1, 0, 1)]
    result = cmp.run(p, tmp_path, rounds=1500, threads=2)
    frame = cmp.frame(result)
    wins = frame.filter((pl.col("quantity") == "win_share") &
                        (pl.col("group_kind") == "strategy"))
    assert sum(wins["baseline"]) == pytest.approx(1, abs=1e-12)
    assert sum(wins["variant_value"]) == pytest.approx(1, abs=1e-12)
    score = {"greedy": 0.0, "random": 0.0}
    for seating in p.seats:
        ids, params = seat_arrays([p.strategies[x] for x in seating])
        t = runner.run(p.baseline, 3, ids, params, 1500, 3).totals
        for j, name in enumerate(p.names):
            score[name] += t.mean_score()[np.array(seating) == j].mean() / 2
    for name in score:
        row = frame.filter((pl.col("quantity") == "mean_score") &
                           (pl.col("group") == name)).row(0, named=True)
        assert row["baseline"] == pytest.approx(score[name], abs=1e-9)
    assert score["greedy"] < score["random"]
    # what a row groups by, in its own typed column; the varied option's value in its type
    assert frame.schema["seat"] == pl.Int64 and frame.schema["strategy"] == pl.String
    for kind, seat_set, strategy_set in (("seat", {0, 1, 2}, {None}),
                                         ("strategy", {None}, {"greedy", "random"}),
                                         ("table", {None}, {None})):
        part = frame.filter(pl.col("group_kind") == kind)
        assert set(part["seat"]) == seat_set and set(part["strategy"]) == strategy_set


def test_varied_values_keep_their_type(tmp_path):
    """A varied option's column holds its values as the option's type: an integer option's
    "none" is null, a flag is a Boolean."""
    varies = ("value_two=none,2", "negative_pairs_keep_value=false,true")
    result = cmp.run(plan(varies), tmp_path, rounds=200, threads=2)
    frame = cmp.frame(result)
    assert frame.schema["value_two"] == pl.Int64
    assert frame.schema["negative_pairs_keep_value"] == pl.Boolean
    assert set(zip(frame["value_two"], frame["negative_pairs_keep_value"])) == \
        {(None, True), (2, False), (2, True)}


def test_knocker_success_in_a_knock_game(tmp_path):
    rules = Rules.preset("four_card")
    p = cmp.make_plan(rules, "four_card", ["knock_min_laps=0,2"], "factorial",
                      ["knock-threshold"], 4, 5, 1000)
    result = cmp.run(p, tmp_path, rounds=2000, threads=2)
    rows = cmp.frame(result).filter(pl.col("quantity") == "knocker_success")
    assert rows.height == 1
    row = rows.row(0, named=True)
    assert not row["paired"] and 0 < row["baseline_n"] <= 2000
    assert row["diff_lo95"] == row["unpaired_lo95"]
    assert 0.3 < row["baseline"] < 0.9
    assert "knocker's success (pp)" in cmp.format_compare(result, 2)


def test_until_width_stops_at_the_first_shard_below_the_target(tmp_path):
    p = plan([PENALTY], shard=500)
    result = cmp.run(p, tmp_path / "a", until_width=0.05, max_rounds=20_000, threads=2)
    assert result.target_reached() and result.rounds % 500 == 0 and result.rounds < 20_000
    widest = cmp.widest_half_width(p, result.sums)
    assert widest < 0.05
    shorter = cmp.run(p, tmp_path / "a", rounds=result.rounds - 500, threads=2)
    assert shorter.resumed == shorter.shards     # every shard came from the folder
    assert cmp.widest_half_width(p, shorter.sums) >= 0.05
    capped = cmp.run(p, tmp_path / "b", until_width=1e-6, max_rounds=1200, threads=2)
    assert capped.rounds == 1200 and not capped.target_reached()


def test_more_rounds_extend_the_stored_shards(tmp_path):
    p = plan(shard=1000)
    cmp.run(p, tmp_path / "grow", rounds=2500, threads=2)     # shards 1000, 1000, 500
    grown = cmp.run(p, tmp_path / "grow", rounds=4000, threads=1)
    assert grown.resumed == 2                                 # the short last shard is replayed
    direct = cmp.run(p, tmp_path / "direct", rounds=4000, threads=2)
    assert_frame_equal(cmp.frame(grown), cmp.frame(direct), check_exact=True)


# ---- the command ----------------------------------------------------------------------------
def test_compare_command_writes_parquet_markdown_and_plot(tmp_path):
    out = tmp_path / "cmp"
    res = compare_cli(out, "--vary", PENALTY, "--design", "one-at-a-time",
                      "--strategy", "greedy")
    df = table(out)
    assert df["variant"].unique(maintain_order=True).to_list() == \
        ["pair_scope=anywhere", "ender_penalty=plus_10"]
    assert {"pair_scope", "ender_penalty"} <= set(df.columns)
    assert set(df["quantity"]) == {"mean_score", "win_share", "first_player_advantage",
                                   "round_length"}
    assert (df["rounds"] == 4000).all()
    meta = pl.read_parquet_metadata(out / "compare.parquet")
    assert meta["seed"] == "3" and meta["design"] == "one-at-a-time"
    assert json.loads(meta["vary"]) == [PAIR, PENALTY]
    assert meta["command"].startswith("golfsim compare --vary")
    assert Rules.create(**{k: v for k, v in json.loads(meta["rules_diff"]).items()}) == \
        Rules.preset("six_card")
    assert (out / "compare.png").read_bytes()[:8] == PNG_MAGIC
    md = (out / "compare.md").read_text()
    assert md.startswith("# Rule effects: six_card; 4 players, greedy, 4,000 deals")
    assert "| pair_scope=anywhere |" in md
    assert "mean score (points; lower is better)" in res.output
    assert "paired vs unpaired" in res.output
    # one verdict line per change of a strategy's or the table's figures, in the frame too
    lines = [line.strip() for line in res.stdout.splitlines()]
    assert "verdicts: is each change clear at 4,000 deals" in res.stdout
    pair_greedy = [line for line in lines
                   if line.startswith("pair_scope=anywhere, mean score of greedy: ")]
    assert len(pair_greedy) == 1
    row = df.filter((pl.col("variant") == "pair_scope=anywhere") &
                    (pl.col("quantity") == "mean_score") & (pl.col("group") == "greedy"))
    v = interval_verdict(Interval(row["diff"][0], row["se_diff"][0], row["diff_lo95"][0],
                                  row["diff_hi95"][0]), 4000, cmp.RESOLUTION["mean_score"])
    assert row["verdict"][0] == v.kind
    assert pair_greedy[0].endswith(v.text(1.0, " points", 3))
    # greedy does not react to the ender penalty, so nothing but the scores changes
    assert "ender_penalty=plus_10, round length: no difference on any of the 4,000 deals" in lines
    assert set(df.filter(pl.col("variant") == "ender_penalty=plus_10",
                         pl.col("quantity") == "round_length")["verdict"]) == {"identical"}
    assert (df.filter(pl.col("verdict") == "open")["deals_needed"] > 4000).all()
    assert df.filter(pl.col("verdict") != "open")["deals_needed"].null_count() == \
        df.filter(pl.col("verdict") != "open").height
    assert "## Verdicts: is each change clear" in md
    assert sorted(p.name for p in (out / "shards").iterdir()) == \
        ["manifest.json"] + [f"shard-0000{j}.npz" for j in range(4)]


VERDICT = re.compile(r"^  (?P<variant>.+?), (?P<what>(?P<q>mean score|win share) of "
                     r"(?P<strategy>.+?)|first-player advantage|round length|knocker's success): "
                     r"(?P<text>.*?)(?P<diff>[-+][\d.]+) ± (?P<hw>[\d.]+) "
                     r"(?P<unit>points|pp|turns)")
WHAT = {"mean score": "mean_score", "win share": "win_share",
        "first-player advantage": "first_player_advantage", "round length": "round_length",
        "knocker's success": "knocker_success"}


def test_every_verdict_is_the_table_interval_s(tmp_path):
    """At 40 deals Student's t and the normal interval differ by 3%: every verdict line shows
    the ± of the table's (and compare.parquet's) interval and is clear exactly when that
    interval leaves out 0."""
    out = tmp_path / "cmp"
    res = compare_cli(out, "--vary", "ender_penalty=none,plus_10", "--strategy",
                      "heuristic,greedy", rounds=40, shard=40)
    df = table(out)
    found = [m for m in map(VERDICT.match, res.stdout.splitlines()) if m]
    judged = df.filter((pl.col("group_kind") != "seat") &
                       ~pl.col("verdict").is_in(["identical", "unknown"]))
    assert len(found) == judged.height >= 12
    assert "clear" in judged["verdict"] and "open" in judged["verdict"]
    for m in found:
        row = df.filter((pl.col("variant") == m["variant"]) &
                        (pl.col("quantity") == WHAT[m["q"] or m["what"]]) &
                        (pl.col("group") == (m["strategy"] or "table")))
        assert row.height == 1, m[0]
        scale = 100.0 if m["unit"] == "pp" else 1.0
        digits = len(m["hw"].split(".")[1])
        hw = scale * (row["diff_hi95"][0] - row["diff_lo95"][0]) / 2
        assert m["hw"] == f"{hw:.{digits}f}", m[0]
        clear = row["diff_lo95"][0] > 0 or row["diff_hi95"][0] < 0
        assert m["text"].startswith("clear at") == clear == (row["verdict"][0] == "clear")
    assert (df["verdict"] == "clear").to_list() == \
        ((df["diff_lo95"] > 0) | (df["diff_hi95"] < 0)).to_list()


def test_a_rule_set_stuck_at_the_turn_cap_is_flagged(tmp_path):
    out = tmp_path / "stuck"
    res = invoke("compare", "--vary", "end_triggers=all_face_up,knock", "--strategy", "greedy",
                 "--rounds", 300, "--threads", 2, "--out", out, "--quiet")
    assert res.exit_code == 0, res.output
    meta = pl.read_parquet_metadata(out / "compare.parquet")
    assert json.loads(meta["capped_rounds"]) == [0, 300]   # greedy never knocks
    (warning,) = json.loads(meta["warnings"])                   # the baseline's holes end
    assert warning.startswith("100.0% of rounds of the variant end_triggers=knock hit the turn "
                              "cap (turn_cap=400): greedy never knocks")
    assert res.stderr.splitlines() == [f"golfsim: warning: {warning}"]


def test_same_result_for_any_thread_count(tmp_path):
    compare_cli(tmp_path / "one", threads=1)
    compare_cli(tmp_path / "two", threads=2)
    assert_frame_equal(table(tmp_path / "one"), table(tmp_path / "two"), check_exact=True)


def _wait_for(path: Path, proc: subprocess.Popen, timeout: float = 600.0) -> None:
    t0 = time.monotonic()
    while not path.exists():
        if proc.poll() is not None:
            raise AssertionError(f"compare ended before {path.name} was written "
                                 f"({proc.returncode}): {proc.stderr.read().decode()}")
        if time.monotonic() - t0 > timeout:
            proc.kill()
            raise AssertionError(f"{path.name} not written within {timeout} s")
        time.sleep(0.005)


KILL_ARGS = ("--vary", PAIR, "--rounds", 40_000, "--shard-size", 1000, "--seed", 4,
             "--threads", 1, "--quiet")


def _start(out: Path) -> subprocess.Popen:
    args = [sys.executable, "-m", "simulator.cli", "compare", *map(str, KILL_ARGS),
            "--out", str(out)]
    return subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_killed_compare_resumes_to_the_uninterrupted_result(tmp_path):
    out = tmp_path / "killed"
    proc = _start(out)
    _wait_for(out / "shards" / "shard-00002.npz", proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = sorted((out / "shards").glob("shard-*.npz"))
    assert 3 <= len(done) < 40, "the compare finished before it could be killed"
    assert not (out / "compare.parquet").exists()
    res = invoke("compare", *KILL_ARGS, "--out", out)
    assert res.exit_code == 0, res.output
    assert f"{len(done)} loaded from an earlier run" in res.output
    whole = tmp_path / "whole"
    res = invoke("compare", *KILL_ARGS, "--out", whole)
    assert res.exit_code == 0, res.output
    assert_frame_equal(table(out), table(whole), check_exact=True)
    m1 = pl.read_parquet_metadata(out / "compare.parquet")
    m2 = pl.read_parquet_metadata(whole / "compare.parquet")
    assert {k: v for k, v in m1.items() if k != "command"} == \
        {k: v for k, v in m2.items() if k != "command"}
    assert (out / "compare.md").read_text() == (whole / "compare.md").read_text()


def test_ctrl_c_keeps_the_finished_shards(tmp_path):
    out = tmp_path / "interrupted"
    proc = _start(out)
    _wait_for(out / "shards" / "shard-00000.npz", proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err.decode()
    assert "rerun the same command to resume" in err.decode()
    assert len(list((out / "shards").glob("shard-*.npz"))) >= 1
    assert not list((out / "shards").glob(".*.tmp"))


def test_damaged_shard_files_are_played_again(tmp_path):
    out = tmp_path / "damaged"
    compare_cli(out)
    before = table(out)
    shards = out / "shards"
    # a half-written temporary file of a killed process, and a truncated shard
    (shards / ".shard-00001.npz.99999999.deadbeef.tmp").write_bytes(b"PK\x03\x04 half")
    data = (shards / "shard-00002.npz").read_bytes()
    (shards / "shard-00002.npz").write_bytes(data[: len(data) // 2])
    res = compare_cli(out)
    assert "shard-00002.npz is unreadable" in res.output
    assert "3 loaded from an earlier run" in res.output
    assert_frame_equal(table(out), before, check_exact=True)
    assert not (shards / ".shard-00001.npz.99999999.deadbeef.tmp").exists()


def test_changed_arguments_are_refused_unless_fresh(tmp_path):
    out = tmp_path / "c"
    compare_cli(out)
    res = invoke("compare", "--vary", PAIR, "--rounds", 4000, "--shard-size", 1000,
                 "--seed", 5, "--out", out, "--quiet")
    assert res.exit_code == 2
    assert res.output.count("\n") == 1 and res.output.startswith("golfsim: error: --out")
    assert "different comparison" in res.output and "seed 3 there, 5 here" in res.output
    assert "--fresh" in res.output
    res = invoke("compare", "--vary", "pair_scope=column,none", "--rounds", 4000,
                 "--shard-size", 1000, "--seed", 3, "--out", out, "--quiet")
    assert res.exit_code == 2 and "vary pair_scope=column,anywhere there" in res.output
    res = compare_cli(out, "--fresh", seed=5, rounds=2000)
    assert "loaded from an earlier run" not in res.output
    assert table(out)["rounds"].unique().to_list() == [2000]
    assert len(list((out / "shards").glob("shard-*.npz"))) == 2


@pytest.mark.parametrize("args, message", [
    (("--vary", "pair_scope"), "--vary 'pair_scope': expected option=value1,value2"),
    (("--vary", "pair_scop=column,anywhere"), "did you mean pair_scope"),
    (("--vary", "pair_scope=column,diagonal"), "option pair_scope = 'diagonal'"),
    (("--vary", "pair_scope=anywhere"), "at least two values"),
    (("--vary", PAIR, "--vary", "pair_scope=none,column"), "given twice"),
    ((), "give at least one --vary"),
    (("--vary", PAIR, "--set", "pair_scope=none"), "give the option in one place"),
    (("--vary", "quad_two_columns_value=none,-10", "--vary", PAIR),
     "the variant quad_two_columns_value=-10, pair_scope=anywhere is not a valid rule set"),
    (("--vary", PAIR, "--rounds", 10, "--until-width", 0.1), "give one or the other"),
    (("--vary", PAIR, "--until-width", 0), "--until-width"),
    (("--vary", PAIR, "--max-rounds", 10), "--max-rounds caps --until-width"),
    (("--vary", PAIR, "--strategy", "greedy,nosuch"), "unknown strategy 'nosuch'"),
    (("--vary", PAIR, "--players", 2, "--strategy", "greedy,random,knock-threshold"),
     "3 strategies for 2 players"),
    (("--vary", PAIR, "--design", "diagonal"), "--design"),
    (("--vary", "flip_instead_of_draw=false,true", "--strategy", "greedy,lookahead"),
     "the variant flip_instead_of_draw=true: strategy lookahead"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, args, message):
    out = tmp_path / "bad"
    res = invoke("compare", *args, "--out", out, "--quiet")
    assert res.exit_code == 2, res.output
    assert res.output.startswith("golfsim: error:") and res.output.count("\n") == 1
    assert message in res.output
    assert not (out / "shards").exists()


# ---- plot -----------------------------------------------------------------------------------
def test_plot_redraws_every_kind_of_results_folder(tmp_path):
    run_out, per_round_out = tmp_path / "run", tmp_path / "per_round"
    for out, extra in ((run_out, ()), (per_round_out, ("--per-round",))):
        res = invoke("run", "--rounds", 2000, "--seed", 2, "--out", out, "--quiet", *extra)
        assert res.exit_code == 0, res.output
    tour_out = tmp_path / "tournament"
    res = invoke("tournament", "--strategy", "greedy", "--strategy", "random", "--rounds", 400,
                 "--out", tour_out, "--quiet")
    assert res.exit_code == 0, res.output
    cmp_out = tmp_path / "compare"
    compare_cli(cmp_out, rounds=2000)
    for folder, files in ((run_out, ["win_share.png", "mean_score.png",
                                     "score_distribution.png"]),
                          (per_round_out, ["win_share.png", "mean_score.png",
                                           "score_distribution.png"]),
                          (tour_out, ["tournament.png"]), (cmp_out, ["compare.png"])):
        for f in files:
            (folder / f).unlink()
        res = invoke("plot", folder)
        assert res.exit_code == 0, res.output
        for f in files:
            assert (folder / f).read_bytes()[:8] == PNG_MAGIC
            assert f"{folder / f}" in res.output
    # a summary written before its metadata kept the scores' histogram, without the rounds
    summary = pl.read_parquet(run_out / "summary.parquet")
    meta = {k: v for k, v in pl.read_parquet_metadata(run_out / "summary.parquet").items()
            if k not in ("score_histogram", "ARROW:schema")}
    summary.write_parquet(run_out / "summary.parquet", metadata=meta)
    res = invoke("plot", run_out)
    assert "score_distribution.png needs the histogram of the scores" in res.output
    empty = tmp_path / "empty"
    empty.mkdir()
    for folder, message in ((empty, "holds no golfsim results"),
                            (tmp_path / "nowhere", "no such folder")):
        res = invoke("plot", folder)
        assert res.exit_code == 2 and res.output.startswith("golfsim: error:")
        assert message in res.output


def test_compare_plot_has_a_panel_per_quantity(small):
    from simulator.output.plots import compare_figure
    _, result = small
    fig = compare_figure(cmp.frame(result), cmp.title(result))
    titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    assert titles == ["Mean score by strategy", "Mean score by seat", "Win share by seat",
                      "First-player advantage", "Round length"]
    for ax in fig.axes[:5]:
        assert ax.get_xlabel().startswith("change in")
        lo, hi = ax.get_xlim()
        assert lo < 0 < hi          # zero in view with a margin
