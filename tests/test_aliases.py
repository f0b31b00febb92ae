"""``--strategy NAME=SPEC``: a short name for a strategy (a user policy's path, a built-in with
its parameters) in every table and figure of run, compare, tune and tournament, the spec itself
kept in the metadata and the command line. Parsing and the labels of the built-ins play in the
default tier; a user policy's tournament compiles the policy (slow tier)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from cli_errors import assert_one_line_error
from simulator.cli import cli
from simulator.experiments import compare as cmp
from simulator.experiments import tournament as tour
from simulator.output import plots
from strategies import StrategyError, label_of, resolve, resolve_seats, split_alias

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "strategies" / "examples" / "greedy_policy.py") + ":decide"
WITH_PARAMS = """
    PARAMS = (("take_at_most", 0.0, "take the discard when its value is at most this"),)

    def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
               params):
        return 0
"""


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("spec, alias, rest", [
    ("mybot=path/to/file.py:decide", "mybot", "path/to/file.py:decide"),
    ("mybot=path/to/file.py:decide:k=2", "mybot", "path/to/file.py:decide:k=2"),
    ("cautious=knock-threshold:T=4", "cautious", "knock-threshold:T=4"),
    (" my_bot.v2 = greedy", "my_bot.v2", "greedy"),
    ("knock-threshold:T=8", None, "knock-threshold:T=8"),       # "=" after ":": a parameter
    ("heuristic:take_max=4,hold=2", None, "heuristic:take_max=4,hold=2"),
    ("./a=b/file.py:decide", None, "./a=b/file.py:decide"),     # a path holding "="
    ("greedy", None, "greedy"),
])
def test_an_alias_comes_before_the_spec(spec, alias, rest):
    assert split_alias(spec) == (alias, rest)
    assert label_of(spec) == (alias or spec.strip())


def test_a_user_policy_with_parameters_and_an_alias_resolves_without_compiling(tmp_path):
    path = tmp_path / "threshold.py"
    path.write_text(textwrap.dedent(WITH_PARAMS))
    s = resolve(f"mybot={path}:decide:take_at_most=3")
    assert (s.alias, s.label, s.user, s.params) == ("mybot", "mybot", (str(path), "decide"),
                                                    (3.0,))
    assert s.spec == f"mybot={path}:decide:take_at_most=3"     # resolves to itself again
    assert resolve(s.spec) == s
    plain = resolve(f"{path}:decide:take_at_most=3")
    assert plain.key == s.key and plain.label == f"{path}:decide:take_at_most=3"
    example = resolve(f"mybot={EXAMPLE}")
    assert example.label == "mybot" and example.user == (EXAMPLE[:-len(":decide")], "decide")


def test_one_name_for_two_strategies_is_refused():
    with pytest.raises(StrategyError, match="the alias bot names no strategy"):
        resolve("bot=")
    with pytest.raises(StrategyError, match="the name bot is already --strategy bot=greedy"):
        resolve_seats(["bot=greedy", "bot=random", "greedy", "greedy"], 4)
    with pytest.raises(StrategyError, match="the name greedy is already"):
        tour.resolve_strategies(["greedy=random", "greedy"])
    with pytest.raises(StrategyError, match="the name x is already"):
        cmp.resolve_strategies(["x=greedy", "x=random"], 4)
    # the same strategy under one name in several seats is fine
    assert [s.label for s in resolve_seats(["bot=greedy"], 4)] == ["bot"] * 4
    res = invoke("tournament", "--strategy", "a=greedy", "--strategy", "a=random",
                 "--rounds", 100, "--quiet")
    assert_one_line_error(res, ["tournament"], ["--strategy a=random", "the name a"])


def test_aliases_name_the_strategies_in_every_table_and_figure(tmp_path):
    """Built-ins under short names: the tournament's tables and figure, run's summary and
    figures, compare's and tune's tables and titles all say the alias; the metadata keeps the
    specs, so the command line given there replays the same strategies."""
    cautious, bold = "cautious=knock-threshold:T=4", "bold=knock-threshold:T=12"
    out = tmp_path / "tour"
    res = invoke("tournament", "--preset", "four_card", "--strategy", cautious,
                 "--strategy", bold, "--rounds", 400, "--seed", 2, "--out", out, "--quiet")
    assert res.exit_code == 0, res.output
    ranking = pl.read_parquet(out / "ranking.parquet")
    h2h = pl.read_parquet(out / "head_to_head.parquet")
    assert sorted(ranking["strategy"]) == ["bold", "cautious"]
    assert set(h2h["strategy"]) == set(h2h["opponent"]) == {"bold", "cautious"}
    meta = pl.read_parquet_metadata(out / "ranking.parquet")
    assert json.loads(meta["strategies"]) == [cautious, bold]
    assert f"--strategy {cautious}" in meta["command"]
    fig = plots.tournament_figure(ranking, h2h, meta["title"])
    ticks = {t.get_text() for ax in fig.axes[:2] for t in ax.get_xticklabels()}
    assert ticks == {"bold", "cautious"}
    table = res.stdout.split("head-to-head")[0]
    assert "cautious" in table and "knock-threshold" not in table

    out = tmp_path / "run"
    res = invoke("run", "--preset", "four_card", "--strategy", cautious, "--strategy", bold,
                 "--players", 2, "--rounds", 300, "--out", out, "--quiet")
    assert res.exit_code == 0, res.output
    assert pl.read_parquet(out / "summary.parquet")["strategy"].to_list() == ["cautious", "bold"]
    summary = pl.read_parquet(out / "summary.parquet")
    title = pl.read_parquet_metadata(out / "summary.parquet")["title"]
    labels = [t.get_text() for t in
              plots.win_share_figure(summary, title).axes[0].get_xticklabels()]
    assert labels == ["seat 0\ncautious", "seat 1\nbold"]

    out = tmp_path / "cmp"
    res = invoke("compare", "--preset", "four_card", "--vary", "pair_scope=column,anywhere",
                 "--strategy", f"{cautious},{bold}", "--players", 2, "--rounds", 300, "--out",
                 out, "--quiet")
    assert res.exit_code == 0, res.output
    frame = pl.read_parquet(out / "compare.parquet")
    assert {"cautious", "bold"} <= set(frame["group"])
    assert json.loads(pl.read_parquet_metadata(out / "compare.parquet")["strategies"]) == \
        [cautious, bold]
    assert "knock-threshold" not in res.stdout.split("wrote:")[0]

    out = tmp_path / "tune"
    res = invoke("tune", "--preset", "four_card", "--strategy", "mine=knock-threshold",
                 "--param", "T=2..6:2", "--opponent", bold, "--rounds", 4000, "--out", out,
                 "--quiet")
    assert res.exit_code == 0, res.output
    assert "tuning mine: T = 2..6:2 (3 candidates), 4 players, against bold in the other 3 " \
           "seats" in res.stdout
    assert "mine vs bold" in pl.read_parquet_metadata(out / "tune.parquet")["title"]
    assert pl.read_parquet(out / "tune.parquet")["strategy"][0] == "mine=knock-threshold:T=2"


@pytest.mark.slow   # a user policy is compiled (about a minute from an empty cache)
def test_a_user_policy_under_its_alias_in_the_tournament(tmp_path):
    out = tmp_path / "tour"
    res = invoke("tournament", "--strategy", f"mybot={EXAMPLE}", "--strategy", "random",
                 "--rounds", 1000, "--out", out, "--quiet")
    assert res.exit_code == 0, res.output
    ranking = pl.read_parquet(out / "ranking.parquet")
    assert ranking["strategy"].to_list() == ["mybot", "random"]
    assert "greedy_policy.py" not in res.stdout.split("wrote:")[0]
    assert json.loads(pl.read_parquet_metadata(out / "ranking.parquet")["strategies"])[0] == \
        f"mybot={EXAMPLE}"
    (out / "tournament.png").unlink()
    assert invoke("plot", out).exit_code == 0          # the figure, drawn from the files
    fig = plots.tournament_figure(ranking, pl.read_parquet(out / "head_to_head.parquet"), "")
    assert {t.get_text() for t in fig.axes[0].get_xticklabels()} == {"mybot", "random"}
