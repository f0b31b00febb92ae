"""The golfsim command line: files and metadata of `run`, reproducibility across thread counts
and chunk sizes, the kernel's scoring through `score`, and one-line errors for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

from simulator.experiments import runner, warm
from simulator.output import plots
from simulator.cli import cli
from simulator.experiments.report import SUMMARY_COLUMNS, capped_warning
from simulator.game.rules import Rules, load_toml
from cli_errors import assert_one_line_error
from strategies import resolve

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 3000
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TV_S1_UNICODE = "K♠ 5♥ J♣ / K♦ 5♣ 2♥"
TV_S1_ASCII = "KS 5H JC / KD 5C 2H"


def invoke(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args])


def small_run(out: Path, *extra: str, threads: int = 2, chunk: int = 1000):
    res = invoke("run", "--preset", "six_card", "--players", 4, "--strategy", "greedy",
                 "--rounds", ROUNDS, "--seed", 7, "--threads", threads, "--chunk-size", chunk,
                 "--out", out, "--quiet", *extra)
    assert res.exit_code == 0, res.output
    return res


def summary(out: Path) -> pl.DataFrame:
    return pl.read_parquet(out / "summary.parquet")


# ---- run ----------------------------------------------------------------------------------
def test_run_writes_summary_metadata_and_plots(tmp_path):
    out = tmp_path / "demo"
    res = small_run(out)
    df = summary(out)
    assert tuple(df.columns) == SUMMARY_COLUMNS
    assert df.height == 4
    assert df["seat"].to_list() == [0, 1, 2, 3]
    assert df["strategy"].to_list() == ["greedy"] * 4
    assert df["rounds"].to_list() == [ROUNDS] * 4
    assert abs(df["win_share"].sum() - 1) < 1e-9
    assert (df["mean_score_lo95"] < df["mean_score"]).all()
    assert (df["mean_score"] < df["mean_score_hi95"]).all()
    assert (df["capped_share"] == 0).all()

    meta = pl.read_parquet_metadata(out / "summary.parquet")
    for key in ("rules", "rules_diff", "preset", "seed", "players", "version", "command",
                "strategies", "rounds", "complete"):
        assert key in meta, key
    assert meta["seed"] == "7" and meta["players"] == "4" and meta["preset"] == "six_card"
    assert meta["complete"] == "true" and meta["rounds"] == str(ROUNDS)
    assert json.loads(meta["rules_diff"]) == {}
    assert json.loads(meta["warnings"]) == [] and "warning" not in res.stderr   # holes end
    assert meta["command"].startswith("golfsim run ") and "--seed 7" in meta["command"]
    rules_file = tmp_path / "rules.toml"
    rules_file.write_text(meta["rules"])
    assert load_toml(rules_file) == Rules.preset("six_card")

    for name in ("win_share.png", "mean_score.png", "score_distribution.png"):
        assert (out / name).read_bytes()[:8] == PNG_MAGIC, name
        assert str(out / name) in res.stdout
    assert str(out / "summary.parquet") in res.stdout
    assert not (out / "rounds.parquet").exists()
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temp files left
    assert "mean score" in res.stdout and "win share" in res.stdout


def test_a_run_stuck_at_the_turn_cap_is_flagged(tmp_path):
    out = tmp_path / "stuck"
    res = invoke("run", "--preset", "four_card", "--strategy", "greedy", "--rounds", 2000,
                 "--threads", 2, "--out", out, "--quiet")
    assert res.exit_code == 0, res.output
    assert summary(out)["capped_share"][0] == 1.0     # greedy never knocks: no hole ends
    (warning,) = json.loads(pl.read_parquet_metadata(out / "summary.parquet")["warnings"])
    assert warning.startswith("100.0% of rounds hit the turn cap (turn_cap=400): greedy never "
                              "knocks, and only a knock ends a hole here")
    assert warning.endswith("their scores are not those of finished holes")
    assert res.stderr.splitlines() == [f"golfsim: warning: {warning}"]


def test_capped_warning_threshold_and_cause():
    four = Rules.preset("four_card")
    assert capped_warning(10, 1000, four, ["greedy"]) is None          # 1% is tolerated
    w = capped_warning(123, 1000, four, ["knock-threshold", "greedy"], " of the baseline")
    assert w.startswith("12.3% of rounds of the baseline hit the turn cap (turn_cap=400): "
                        "greedy never knocks")
    # with other strategies, or where another trigger also ends the hole, no cause is named
    for rules, specs in ((four, ["random", "guide:knock=5"]), (Rules(), ["greedy"])):
        assert "a strategy here rarely ends a hole under these rules" in \
            capped_warning(11, 1000, rules, specs)
    assert capped_warning(0, 0, four) is None


def test_titles_and_summary_name_the_changed_options(tmp_path):
    out = tmp_path / "anywhere"
    res = small_run(out, "--set", "pair_scope=anywhere")
    meta = pl.read_parquet_metadata(out / "summary.parquet")
    assert meta["rules_text"] == "six_card, pair_scope=anywhere"
    assert meta["title"] == f"six_card, pair_scope=anywhere; 4 players, {ROUNDS:,} rounds, seed 7"
    assert "rules: six_card, pair_scope=anywhere" in res.stdout
    for figure in (plots.win_share_figure, plots.mean_score_figure):
        heading = figure(summary(out), meta["title"]).axes[0].get_title()
        assert heading.splitlines()[1:] == ["six_card, pair_scope=anywhere",
                                            f"4 players, {ROUNDS:,} rounds, seed 7"]


def test_same_seed_same_summary_for_any_threads_and_chunk_size(tmp_path):
    frames = {}
    for threads, chunk in ((1, 3000), (2, 500), (2, 1000), (1, 700)):
        out = tmp_path / f"t{threads}_c{chunk}"
        small_run(out, threads=threads, chunk=chunk)
        frames[threads, chunk] = summary(out)
    first = frames[1, 3000]
    for key, df in frames.items():
        assert_frame_equal(df, first, check_exact=True)
        assert df.equals(first), key
    other = tmp_path / "seed8"
    invoke("run", "--rounds", ROUNDS, "--seed", 8, "--threads", 1, "--out", other, "-q")
    assert not summary(other).equals(first)


def test_per_round_file_matches_summary(tmp_path):
    out = tmp_path / "pr"
    small_run(out, "--per-round", chunk=700)
    rounds = pl.read_parquet(out / "rounds.parquet")
    assert rounds.shape == (ROUNDS, 6)
    assert rounds.columns == ["round", "score_0", "score_1", "score_2", "score_3", "turns"]
    assert rounds["round"].to_list() == list(range(ROUNDS))
    assert (rounds["turns"] > 0).all()
    df = summary(out)
    for seat in range(4):
        assert rounds[f"score_{seat}"].sum() / ROUNDS == df["mean_score"][seat]
    assert rounds["turns"].sum() / ROUNDS == df["mean_turns"][0]
    meta = pl.read_parquet_metadata(out / "rounds.parquet")
    assert meta["seed"] == "7"


def test_per_seat_strategies_set_and_rules_file(tmp_path):
    rules_file = tmp_path / "anywhere.toml"
    res = invoke("rules", "six_card", "--set", "pair_scope=anywhere", "--toml")
    assert res.exit_code == 0
    rules_file.write_text(res.stdout)
    out = tmp_path / "mixed"
    res = invoke("run", "--rules", rules_file, "--players", 3, "--strategy", "greedy",
                 "--strategy", "random", "--strategy", "greedy", "--set", "value_two=2",
                 "--rounds", 1000, "--threads", 1, "--out", out, "-q")
    assert res.exit_code == 0, res.output
    df = summary(out)
    assert df["strategy"].to_list() == ["greedy", "random", "greedy"]
    meta = pl.read_parquet_metadata(out / "summary.parquet")
    assert json.loads(meta["rules_diff"]) == {"pair_scope": "anywhere", "value_two": 2}
    assert meta["rules_file"] == str(rules_file)
    assert load_toml_text(tmp_path, meta["rules"]) == \
        Rules.preset("six_card", pair_scope="anywhere", value_two=2)


def load_toml_text(tmp_path, text):
    p = tmp_path / "meta_rules.toml"
    p.write_text(text)
    return load_toml(p)


def test_run_defaults(tmp_path, monkeypatch):
    """`golfsim run` with no options: six_card, 4 greedy players, 100,000 rounds, seed 1,
    threads = cpu count, out results/run (the call is recorded, then played for real)."""
    calls = []
    real_run = runner.run

    def recording_run(rules, players, ids, params, rounds, seed, **kw):
        calls.append(dict(rules=rules, players=players, rounds=rounds, seed=seed, **kw))
        return real_run(rules, players, ids, params, rounds, seed, **kw)

    monkeypatch.setattr(runner, "run", recording_run)
    monkeypatch.chdir(tmp_path)
    res = invoke("run", "-q")
    assert res.exit_code == 0, res.output
    (call,) = calls
    assert call["rules"] == Rules.preset("six_card")
    assert call["players"] == 4 and call["rounds"] == 100_000 and call["seed"] == 1
    assert call["threads"] == os.cpu_count()
    assert call["chunk_size"] == runner.DEFAULT_CHUNK
    assert call["strategies"] == ["greedy"] * 4
    df = pl.read_parquet(tmp_path / "results" / "run" / "summary.parquet")
    assert df["rounds"].to_list() == [100_000] * 4


def test_policy_error_keeps_partial_results(tmp_path, monkeypatch):
    real_run = runner.run

    def failing_run(*args, **kw):
        result = real_run(*args, **kw)
        result.complete = False
        result.error = "round 1234: the policy of seat 2 chose pos3, which is not legal"
        return result

    monkeypatch.setattr(runner, "run", failing_run)
    out = tmp_path / "partial"
    res = invoke("run", "--rounds", 1000, "--threads", 1, "--out", out, "-q", "--per-round")
    assert res.exit_code == 2
    assert "Traceback" not in res.output
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("golfsim: error: ")
    assert "round 1234" in err[0]
    meta = pl.read_parquet_metadata(out / "summary.parquet")
    assert meta["complete"] == "false" and "round 1234" in meta["error"]
    assert (out / "rounds.parquet").exists()


def _illegal(round_index: int):
    return runner.PolicyError(f"round {round_index}: the policy of seat 1 chose pos9, which is "
                              "not legal at decision point 'turn'", round_index)


def test_a_policy_error_names_the_first_failing_round_by_number(monkeypatch):
    """Two chunks meet a policy error, rounds 905 and 1005, the later one first: the run
    reports round 905 (issue 27). Before, the messages were sorted as strings, and
    "round 1005" comes before "round 905"."""
    import time
    from simulator.kernel.tally import TOT_ROUNDS

    def fake_chunk(job, start, count, state=None, per_round=False, layouts=False):
        if start >= 900:
            if start == 900:
                time.sleep(0.5)   # the chunk of round 1005 fails first
            raise _illegal(start + 5)
        t = runner.Totals(4)
        t.tot[TOT_ROUNDS] = count
        return t, (np.zeros((0, 4), dtype=np.int64), np.zeros(0, dtype=np.int64), None), count

    monkeypatch.setattr(runner, "play_chunk", fake_chunk)
    ids = np.zeros(4, dtype=np.int64) + resolve("greedy").policy_id
    params = np.zeros((4, 12))
    result = runner.run(Rules.preset("six_card"), 4, ids, params, 1200, 1, threads=2,
                        chunk_size=100)
    assert not result.complete
    assert result.error.startswith("round 905:"), result.error
    assert result.played == [(a, 100) for a in range(0, 900, 100)]


def test_wait_all_raises_the_error_of_the_earliest_submitted_future():
    """compare and tune play the pieces of a shard through runner.wait_all: of two pieces
    that fail, the error of the one submitted first is raised, whichever failed first."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    def piece(round_index, delay):
        time.sleep(delay)
        if round_index is not None:
            raise _illegal(round_index)

    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = [pool.submit(piece, None, 0.0), pool.submit(piece, 20, 0.5),
                   pool.submit(piece, 40, 0.0), pool.submit(piece, None, 0.0)]
        with pytest.raises(runner.PolicyError, match="round 20:") as e:
            runner.wait_all(futures)
    assert e.value.round_index == 20


# ---- score --------------------------------------------------------------------------------
@pytest.mark.parametrize("layout, options, expected", [
    (TV_S1_UNICODE, [], 8),
    (TV_S1_ASCII, [], 8),
    ("ks 5h jc / kd 5c 2h", [], 8),
    (TV_S1_ASCII, ["--set", "value_two=2"], 12),
    ("TS 5H JC / KD 5C 2H", [], 18),
    ("10S 5H JC / KD 5C 2H", [], 18),
    ("2♠ 5♥ 9♣ / 2♦ 3♣ 9♥", [], 8),     # TV-S7 (a)
    ("2♠ 2♦ 9♣ / 5♥ 3♣ 9♥", [], 4),     # TV-S7 (b)
    ("5♥ 5♣ 9♣ / 3♦ 4♠ 9♥", [], 17),    # TV-S7 (c)
    ("K♠ 5♥ K♣ / 2♦ 5♣ 2♥", [], -4),
    ("K♠ 5♥ K♣ / 2♦ 5♣ 2♥", ["--set", "pair_scope=anywhere"], 0),
    ("K♠ 5♥ K♣ / K♦ 5♣ 2♥", ["--set", "pair_scope=anywhere"], -2),
    ("K♠ 5♥ J♣ / K♦ 5♣ 2♥", ["--set", "pair_scope=none"], 18),
    ("KH 3S 4C / 9D 8C 7H", ["--set", "power_set=dutch"], 30),   # the Dutch red king: -1
    ("KH 3S 4C / 9D 8C 7H", ["--set", "power_set=dutch", "--set", "value_red_king=0"], 31),
])
def test_score(layout, options, expected):
    res = invoke("score", *options, layout)
    assert res.exit_code == 0, res.output
    assert res.stdout.strip().splitlines()[-1] == f"score: {expected}"
    res = invoke("score", "--json", *options, layout)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["score"] == expected


def test_score_json_breakdown_and_unquoted_layout():
    res = invoke("score", "--json", *TV_S1_ASCII.split())
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["score"] == 8 and data["columns"] == [0, 0, 8]
    assert data["layout"] == [["K♠", "5♥", "J♣"], ["K♦", "5♣", "2♥"]]
    assert [p["positions"] for p in data["pairs"]] == [[0, 3], [1, 4]]
    res = invoke("score", TV_S1_UNICODE)
    assert "c2: 8 (10 + -2)" in res.stdout


def test_score_quads_in_eight_card(tmp_path):
    """Quad of two pair-columns (TV-S3 style) shows up as a pattern adjustment."""
    res = invoke("score", "--preset", "eight_card_basic", "--set", "quad_two_columns_value=-10",
                 "--json", "A♣ Q♠ 6♥ Q♥ / K♥ Q♦ 4♣ Q♣")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["score"] == 1
    assert data["columns"] == [1, 0, 10, 0] and data["pattern_adjustment"] == -10


@pytest.mark.parametrize("args, needles", [
    (["KS KS KS / KS 5C 2H"], ["4 copies of K♠", "decks hold 2"]),   # six_card: 2 decks at most
    (["--set", "decks=1", "KS KS 5H / 2D 5C 2H"], ["2 copies of K♠", "decks hold 1", "1 deck"]),
    (["--set", "decks=1", "K K K / K K 2H"], ["5 cards of rank K", "decks hold 4"]),
    (["JK 5H JC / KD 5C 2H"], ["1 joker", "no jokers", "jokers_per_deck = 0"]),
    (["--preset", "eight_card_whitnack", "JK JK JK JK / JK 5C 2H 3H"],
     ["5 jokers", "decks hold 4"]),
])
def test_score_refuses_layouts_the_decks_cannot_hold(args, needles):
    """More copies of a card than the rule set's decks hold, or a joker where it has none,
    is one line (issue 27); before, such a layout was scored as if the decks held it."""
    assert_one_line_error(invoke("score", *args), ["score", *args], needles)


@pytest.mark.parametrize("args, expected", [
    (["KS KS 5H / 2D 5C 2H"], 6),                 # six_card has 2 decks with 5 or 6 players
    (["--set", "decks=1", "K K K / K 5 2H"], 3),  # cards without a suit take any suit
    (["--preset", "eight_card_whitnack", "JK JK JK JK / 5D 5C 2H 3H"], -5),
])
def test_score_accepts_what_the_decks_hold(args, expected):
    res = invoke("score", *args)
    assert res.exit_code == 0, res.output
    assert res.stdout.strip().splitlines()[-1] == f"score: {expected}"


HOLE = ["KS 5H JC / KD 5C 2H | KS 9H 3C / 4D 5D 6D"]   # two K♠ across two layouts


@pytest.mark.parametrize("args, needles", [
    (HOLE, ["2 copies of K♠", "decks hold 1", "1 deck for 2 players"]),
    (["K K K / K K 2H | 9S 9H 3C / 4D 5D 6D"], ["5 cards of rank K", "decks hold 4"]),
    (["--preset", "eight_card_whitnack",
      "JK JK JK JK / 5D 5C 2H 3H | JK 2S 3S 4S / 5S 6S 7S 8S"],
     ["5 jokers", "decks hold 4", "2 decks for 2 players"]),
])
def test_score_holds_a_hole_to_the_decks_of_its_table(args, needles):
    """The layouts of one hole come from the decks of a table of that many players: two K♠
    in a two-player six_card hole (one deck) are refused, though six_card shuffles two decks
    for five or six players; before, the hole was scored."""
    assert_one_line_error(invoke("score", *args), ["score", *args], needles)


def test_score_hole_of_more_players_takes_their_decks():
    res = invoke("score", "--json", "KS 5H JC / KD 5C 2H | KS 9H 3C / 4D 5D 6D | "
                 "2C 3C 4C / 5C 6C 7C | 8C 9C TC / JC QC KC | 2D 3D 4D / 7D 8D 9D")
    assert res.exit_code == 0, res.output    # five players: two decks
    assert json.loads(res.stdout)["layout_values"][:2] == [8, 27]


def test_score_knocked_needs_an_ender():
    """--knocked says how the ender ended the hole; without --ender nobody did, and the flag
    was silently ignored."""
    args = ["score", "--knocked", "KS 5H JC / KD 5C 2H | 9S 9H 3C / 4D 5D 6D"]
    assert_one_line_error(invoke(*args), args, ["--knocked", "--ender"])
    knock_only = ["--set", "end_triggers=knock", "--set", "ender_rule_applies_to=knock_only",
                  "--set", "ender_penalty=plus_10", "--json"]
    layouts = "KS 5H 9C / 3D 5C 2H | KC 5D 9H / KD 5S 2C"
    knocked = invoke("score", *knock_only, "--ender", "0", "--knocked", layouts)
    not_knocked = invoke("score", *knock_only, "--ender", "0", layouts)
    assert json.loads(knocked.stdout)["hole_scores"] == [20, 7]
    assert json.loads(not_knocked.stdout)["hole_scores"] == [10, 7]


def test_match_length_options_agreeing_with_holes_or_target_play(tmp_path):
    """match_end_* given with --set are refused only when --holes or --target says otherwise
    (tests/test_api.py BAD, tests/test_replay.py); alike, the match is played."""
    for extra in (["--set", "match_end_holes=3", "--holes", 3],
                  ["--set", "match_end_mode=target", "--set", "match_end_target=30",
                   "--target", 30]):
        res = invoke("run", *extra, "--rounds", 20, "--threads", 1, "--out", tmp_path, "-q")
        assert res.exit_code == 0, res.output


# ---- the largest counts -------------------------------------------------------------------
VARY = ["--vary", "pair_scope=column,anywhere"]
TUNE = ["--strategy", "knock-threshold", "--param", "T=4..8", "--opponent", "greedy"]
TOUR = ["--strategy", "greedy", "--strategy", "random"]


@pytest.mark.parametrize("args, needles", [
    (["run", "--rounds", "1e20"], ["--rounds", "1e20", "from 1 to 10^11"]),
    (["run", "--rounds", str(2**63)], ["--rounds", str(2**63), "from 1 to 10^11"]),
    (["run", "--rounds", str(10**11 + 1)], ["--rounds", str(10**11 + 1), "from 1 to 10^11"]),
    (["run", "--rounds", "2.5"], ["--rounds", "'2.5' is not a whole number"]),
    (["run", "--chunk-size", "1e12"], ["--chunk-size", "1e12", "from 1 to 10^11"]),
    (["run", "--rounds", "100000001", "--per-round"],
     ["--rounds 100000001 with --per-round", "at most 10^8"]),
    (["run", "--holes", "1001"], ["--holes", "1001", "from 1 to 1000"]),
    (["run", "--rounds", "1e9", "--holes", "1000"],
     ["--rounds 1000000000 with --holes 1000", "at most 100000000 matches"]),
    (["run", "--rounds", "2e8", "--target", "100"],
     ["--rounds 200000000 with --target 100", "at most 100000000 matches"]),
    (["run", "--target", "100001"], ["--target", "100001", "from 1 to 100000"]),
    (["tournament", *TOUR, "--rounds", "1e20"], ["--rounds", "1e20", "from 1 to 10^8"]),
    (["tune", *TUNE, "--rounds", str(10**20)], ["--rounds", str(10**20), "from 1 to 10^8"]),
    (["compare", *VARY, "--rounds", "1e20"], ["--rounds", "1e20", "from 1 to 10^11"]),
    (["compare", *VARY, "--rounds", str(10**20)], ["--rounds", str(10**20), "to 10^11"]),
    (["compare", *VARY, "--until-width", "0.1", "--max-rounds", str(2**63)],
     ["--max-rounds", str(2**63), "from 1 to 10^11"]),
    (["compare", *VARY, "--shard-size", "1e9"], ["--shard-size", "1e9", "from 1 to 10^8"]),
    (["guide", "--deals", "1e20"], ["--deals", "1e20", "from 100 to 10^8"]),
    (["guide", "--deals", "50"], ["--deals", "50", "from 100 to 10^8"]),
    (["guide", "--check-rounds", "1e9"], ["--check-rounds", "1e9", "from 0 to 10^8"]),
    (["guide", "--compare-rounds", "1e12"], ["--compare-rounds", "1e12", "from 0 to 10^11"]),
])
def test_huge_counts_are_refused_before_anything_is_written(tmp_path, monkeypatch, args,
                                                            needles):
    """A count beyond what golfsim can sum exactly, hold or finish (cli.MAX_ROUNDS,
    MAX_HELD_ROUNDS, MAX_HOLES) is one line naming the option, the value and the range,
    before the output folder is created (issue 27); before, 2**63 rounds ended in a
    MemoryError and a compare of 10**20 rounds ran until killed."""
    def must_not_play(*a, **kw):
        raise AssertionError("a bad count must be refused before any round is played")

    monkeypatch.setattr(runner, "run", must_not_play)
    monkeypatch.setattr(warm, "warm_up", must_not_play)
    monkeypatch.setattr(runner, "play_chunk", must_not_play)
    out = tmp_path / "out"
    args = [*args, "--out", str(out), "-q"]
    assert_one_line_error(invoke(*args), args, needles)
    assert not out.exists()


def test_counts_may_be_written_with_an_exponent(tmp_path):
    from simulator.cli import Count
    count = Count(1, 10**11)
    for text, n in (("1e3", 1000), ("2.5e3", 2500), ("1_000", 1000), (" 7 ", 7),
                    ("1E11", 10**11)):
        assert count.convert(text, None, None) == n
    res = invoke("run", "--rounds", "1.5e3", "--threads", 1, "--out", tmp_path / "r", "-q")
    assert res.exit_code == 0, res.output
    assert summary(tmp_path / "r")["rounds"].to_list() == [1500] * 4


# ---- strategy parameters ------------------------------------------------------------------
@pytest.mark.parametrize("spec, needles", [
    ("knock-threshold:T=nan", ["strategy knock-threshold", "parameter T = nan",
                               "expected a finite number"]),
    ("knock-threshold:T=inf", ["strategy knock-threshold", "parameter T = inf",
                               "expected a finite number"]),
    ("forgetful:decay=2", ["strategy forgetful", "parameter decay = 2",
                           "expected a number from 0 to 1"]),
    ("lookahead:budget=0", ["strategy lookahead", "parameter budget = 0",
                            "expected an integer from 1 to 1000000"]),
    ("lookahead:width=2.5", ["strategy lookahead", "parameter width = 2.5",
                             "expected an integer from 1 to 16"]),
    ("heuristic:hold=-1", ["strategy heuristic", "parameter hold = -1",
                           "expected an integer from 0 to 100000"]),
    ("heuristic:aggression=1.5", ["strategy heuristic", "parameter aggression = 1.5",
                                  "expected a number from 0 to 1"]),
    ("opponent-aware:care=-1", ["strategy opponent-aware", "parameter care = -1",
                                "expected a finite number >= 0"]),
    ("ev:margin=-inf", ["strategy ev", "parameter margin = -inf", "expected a finite number"]),
    ("guide:reveal=3", ["strategy guide", "parameter reveal = 3",
                        "expected an integer from 0 to 2"]),
    ("guide:take_pair=16384", ["strategy guide", "parameter take_pair = 16384",
                               "expected an integer from 0 to 16383"]),
    ("forgetful:decay=x", ["strategy forgetful", "decay = 'x' is not a number",
                           "expected a number from 0 to 1"]),
])
def test_strategy_parameters_are_range_checked(tmp_path, monkeypatch, spec, needles):
    """A strategy parameter outside its range (strategies.Param) is one line naming the
    strategy, the parameter, the value and what is allowed, before anything is played or
    written (issue 27); before, NaN, infinities and out-of-range values were played."""
    def must_not_play(*args, **kw):
        raise AssertionError("a bad parameter must be refused before any round is played")

    monkeypatch.setattr(runner, "run", must_not_play)
    monkeypatch.setattr(warm, "warm_up", must_not_play)
    out = tmp_path / "out"
    args = ["run", "--strategy", spec, "--rounds", 10, "--out", out, "-q"]
    assert_one_line_error(invoke(*args), args, needles)
    assert not out.exists()


def test_strategy_parameters_are_range_checked_in_every_command(tmp_path):
    out = ["--out", tmp_path / "out", "-q"]
    cases = [
        (["tournament", "--strategy", "greedy", "--strategy", "forgetful:decay=2",
          "--rounds", 10, *out], ["strategy forgetful", "decay = 2", "from 0 to 1"]),
        (["compare", "--vary", "pair_scope=column,anywhere", "--strategy",
          "lookahead:budget=0", "--rounds", 10, *out], ["strategy lookahead", "budget = 0"]),
        (["tune", "--strategy", "forgetful", "--param", "decay=0..2", "--opponent", "greedy",
          "--rounds", 1000, *out], ["strategy forgetful", "decay = 2", "from 0 to 1"]),
        (["tune", "--strategy", "forgetful", "--param", "decay=0,0.5", "--opponent",
          "knock-threshold:T=nan", "--rounds", 1000, *out],
         ["strategy knock-threshold", "T = nan", "a finite number"]),
    ]
    for args, needles in cases:
        assert_one_line_error(invoke(*args), args, needles)
    assert not (tmp_path / "out").exists()


def test_every_strategy_default_lies_in_its_range():
    from strategies import STRATEGIES, resolve
    for info in STRATEGIES.values():
        for p in info.params:
            assert p.allows(p.default), (info.name, p)
        assert resolve(info.name).params == tuple(p.default for p in info.params)


# ---- plot ---------------------------------------------------------------------------------
def test_plot_reports_a_corrupt_or_missing_results_file(tmp_path):
    """golfsim plot on a results file that is random bytes, truncated, empty, a folder,
    another table, or missing its partner is one line naming the file and why, and draws
    nothing (issue 27); before, polars' exception ended in a traceback."""
    good = tmp_path / "good"
    res = invoke("run", "--rounds", 500, "--threads", 1, "--out", good, "-q", "--per-round")
    assert res.exit_code == 0, res.output
    summary_bytes = (good / "summary.parquet").read_bytes()
    rounds_bytes = (good / "rounds.parquet").read_bytes()
    cases = {   # folder: ({file: bytes, or None for a folder in its place}, needles)
        "random": ({"summary.parquet": os.urandom(4096)},
                   ["summary.parquet", "not a readable Parquet file"]),
        "truncated": ({"summary.parquet": summary_bytes[:len(summary_bytes) // 2]},
                      ["summary.parquet", "not a readable Parquet file"]),
        "empty": ({"summary.parquet": b""}, ["summary.parquet", "not a readable Parquet file"]),
        "rounds_cut": ({"summary.parquet": summary_bytes, "rounds.parquet": rounds_bytes[:-20]},
                       ["rounds.parquet", "not a readable Parquet file"]),
        "a_folder": ({"summary.parquet": None}, ["summary.parquet", "is a folder"]),
        "other_table": ({"summary.parquet": rounds_bytes},
                        ["summary.parquet", "not what golfsim writes there", "rounds"]),
        "half_tournament": ({"ranking.parquet": summary_bytes},
                            ["head_to_head.parquet", "no such file"]),
    }
    for name, (files, needles) in cases.items():
        folder = tmp_path / name
        folder.mkdir()
        for f, data in files.items():
            if data is None:
                (folder / f).mkdir()
            else:
                (folder / f).write_bytes(data)
        args = ["plot", folder]
        assert_one_line_error(invoke(*args), args, [str(folder), *needles])
        assert not list(folder.glob("*.png")), name


# ---- presets and rules --------------------------------------------------------------------
def test_presets_and_rules(tmp_path):
    res = invoke("presets")
    assert res.exit_code == 0
    assert "six_card" in res.stdout and "ten_card" in res.stdout and "2x3" in res.stdout
    res = invoke("rules", "ten_card")
    assert res.exit_code == 0
    assert any(line.split()[:2] == ["grid_cols", "5"] for line in res.stdout.splitlines())
    assert "where equal cards cancel" in res.stdout
    for preset in ("six_card", "eight_card_basic", "ten_card"):
        res = invoke("rules", preset, "--toml")
        assert res.exit_code == 0
        f = tmp_path / f"{preset}.toml"
        f.write_text(res.stdout)
        assert load_toml(f) == Rules.preset(preset)


def test_rules_shows_each_cards_value():
    def values_line(*args):
        res = invoke("rules", *args)
        assert res.exit_code == 0, res.output
        (line,) = [l for l in res.stdout.splitlines() if l.startswith("# card values: ")]
        return line.removeprefix("# card values: ").split(", ")

    six = values_line("six_card")
    assert six[:2] == ["A=1", "2=-2"] and six[-1] == "K=0" and len(six) == 13
    assert values_line("six_card", "--set", "value_two=2")[1] == "2=2"
    # a rank whose suits differ is split by suit; jokers only when the decks hold them
    red = values_line("six_card", "--set", "value_red_king=-1")
    assert red[-2:] == ["K♠♣=0", "K♥♦=-1"]
    assert values_line("eight_card_whitnack")[-1] == "joker=-5"
    fuchs = values_line("nine_card_fuchs")
    assert "Q=0" in fuchs and "K=10" in fuchs and fuchs[-1] == "joker=-2"


# ---- bad input ----------------------------------------------------------------------------
def _bad_cases(tmp: Path):
    a_file = tmp / "a_file"
    a_file.write_text("x")
    bad_toml = tmp / "bad.toml"
    bad_toml.write_text("preset = \n")
    unknown_opt = tmp / "unknown.toml"
    unknown_opt.write_text('preset = "six_card"\nno_such_option = 3\n')
    wrong_shape = tmp / "shape.toml"
    wrong_shape.write_text('preset = "six_card"\ndeck_thresholds = 5\n')
    out = ["--out", tmp / "out", "-q"]
    return [
        (["run", "--preset", "seven_card", *out], ["seven_card", "six_card"]),
        (["run", "--set", "no_such_option=1", *out], ["no_such_option"]),
        (["run", "--set", "pair_scope", *out], ["pair_scope", "option=value"]),
        (["run", "--set", "grid_rows=9", *out], ["grid_rows", "9", "1 to 3"]),
        (["run", "--set", "value_two=3", *out], ["value_two", "3", "-2, 2"]),
        (["run", "--strategy", "clever", *out], ["clever", "greedy"]),
        (["run", "--strategy", "greedy", "--strategy", "random", *out], ["--strategy", "once"]),
        (["run", "--players", 9, *out], ["--players 9", "2 to 6"]),
        (["run", "--players", 0, *out], ["--players 0", "2 to 6"]),
        (["run", "--seed", -1, *out], ["--seed", "-1"]),
        (["run", "--seed", 2**64, *out], ["--seed", str(2**64)]),
        (["run", "--preset", "ten_card", "--players", 8, "--set", "decks=1", *out],
         ["--players 8", "82 cards", "decks"]),
        (["run", "--rounds", 0, *out], ["--rounds", "0", "from 1 to 10^11"]),
        (["run", "--rounds", "many", *out], ["--rounds", "many"]),
        (["run", "--threads", 0, *out], ["--threads", "0", ">= 1"]),
        (["run", "--chunk-size", 0, *out], ["--chunk-size", "0", "from 1 to 10^11"]),
        (["run", "--out", a_file, "-q"], ["--out", str(a_file), "folder"]),
        (["run", "--out", a_file / "sub", "-q"], ["--out", str(a_file / "sub"), "cannot write"]),
        (["run", "--rules", tmp / "missing.toml", *out], ["--rules", "missing.toml", "no such"]),
        (["run", "--rules", bad_toml, *out], ["--rules", "bad.toml", "TOML"]),
        (["run", "--rules", unknown_opt, *out], ["--rules", "no_such_option"]),
        (["run", "--rules", wrong_shape, *out], ["--rules", "deck_thresholds", "5"]),
        (["run", "--rules", tmp, *out], ["--rules", "folder"]),
        (["run", "--rules", bad_toml, "--preset", "ten_card", *out], ["--preset", "--rules"]),
        (["run", "--set", "pair_scope=anywhere", "--set", "quad_two_columns_value=-10", *out],
         ["quad_two_columns_value", "pair_scope = column"]),
        (["run", "--preset", "four_card_in_hand", "--set", "pair_scope=column", *out],
         ["layout_mode = hand", "pair_scope"]),
        (["run", "--set", "layout_mode=row", *out], ["layout_mode = row", "grid_rows = 1"]),
        (["run", "--preset", "nine_card_moraco", "--set", "one_eyed_jacks=wild", *out],
         ["one_eyed_jacks", "wild", "not supported yet", "orthogonal_adjacent"]),
        (["run", "--set", "owner_view=all", *out], ["owner_view = all", "initial_reveal_mode"]),
        (["score", "K♠ 5♥ / K♦ 5♣"], ["layout", "2 rows of 3 cards"]),
        (["score", "K♠ 5♥ X♣ / K♦ 5♣ 2♥"], ["X♣", "rank"]),
        (["score", "--preset", "twelve_card", TV_S1_ASCII], ["twelve_card", "six_card"]),
        (["score", "--preset", "nine_card", TV_S1_ASCII], ["3 rows of 3 cards"]),
        (["score", "--set", "pair_scope=sideways", TV_S1_ASCII], ["pair_scope", "sideways"]),
        (["score"], ["LAYOUT"]),
        (["rules", "seven_card"], ["seven_card"]),
        (["rules", "six_card", "--set", "turn_cap=0"], ["turn_cap", "0"]),
        (["no_such_command"], ["no_such_command"]),
    ]


def test_bad_input_is_one_line_exit_2(tmp_path, monkeypatch):
    def must_not_play(*args, **kw):
        raise AssertionError("bad input must be rejected before any round is played")

    monkeypatch.setattr(runner, "run", must_not_play)
    monkeypatch.setattr(warm, "warm_up", must_not_play)
    for args, needles in _bad_cases(tmp_path):
        assert_one_line_error(invoke(*args), args, needles)
    assert not (tmp_path / "out" / "summary.parquet").exists()


# ---- the module entry point -------------------------------------------------------------
def test_python_m_entry_point():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    ok = subprocess.run([sys.executable, "-m", "simulator.cli", "score", TV_S1_ASCII],
                        capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip().splitlines()[-1] == "score: 8"
    bad = subprocess.run([sys.executable, "-m", "simulator.cli", "run", "--rounds", "0"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "golfsim: error: Invalid value for '--rounds': 0 is not allowed; expected a whole "
        "number from 1 to 10^11"]


# ---- README quick start and CI ------------------------------------------------------------
def test_readme_quick_start_matches_ci():
    text = (ROOT / "README.md").read_text()
    block = text.split("## Quick start", 1)[1].split("```", 2)[1]
    commands = [line for line in block.splitlines()[1:] if line.strip()]
    assert len(commands) == 2
    assert "golfsim run --preset six_card --players 4 --strategy greedy --rounds 1000000 " \
           "--seed 7 --threads 2 --out results/demo" in commands[0]
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci[0] == "#!/usr/bin/env bash"
    assert "set -euo pipefail" in ci
    # the README's test command (the default tier), then the slow and the bench tiers
    assert commands[1] in ci
    later = "\n".join(ci[ci.index(commands[1]) + 1:])
    assert "tier slow" in later and "tier bench" in later
    assert any('.venv/bin/python -m pytest -q -m "$@"' in line for line in ci)


def test_knock_games_default_to_a_strategy_that_knocks(tmp_path):
    out = tmp_path / "knock"
    result = CliRunner().invoke(cli, ["run", "--preset", "four_card", "--rounds", "2000",
                                      "--threads", "1", "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = pl.read_parquet(out / "summary.parquet")
    assert summary["strategy"].to_list() == ["knock-threshold"] * 4
    assert summary["capped_share"][0] == 0.0
    assert summary["mean_turns"][0] < 40
    assert summary["knock_share"][0] == 1.0  # only a knock ends a four_card hole
    assert 0.3 < summary["knocker_win_share"][0] < 0.95
    assert "the knocker won" in result.output
