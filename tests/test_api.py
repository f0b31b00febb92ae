"""The Python API (simulator/api/): the same data as the command line for the same arguments,
result objects with polars DataFrames, the command line's messages for bad arguments."""

from __future__ import annotations

import inspect
import shlex
import sys
import warnings
from pathlib import Path

import polars as pl

import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

import simulator.api as golf
from simulator.cli import cli
from simulator.experiments import runner, warm

W2 = ["--preset", "four_card", "--set", "pair_scope=none",
      "--set", "initial_reveal_constraint=nearest_row"]
W2_API = dict(preset="four_card", set={"pair_scope": "none",
                                       "initial_reveal_constraint": "nearest_row"})


def invoke(*args):
    res = CliRunner().invoke(cli, [str(a) for a in args])
    return res


def cli_ok(*args):
    res = invoke(*args, "--quiet")
    assert res.exit_code == 0, res.output
    return res


def same_metadata(file: Path, meta: dict) -> None:
    """The metadata of a file the command line wrote equals the API's, but for the command
    line (the API records an equivalent one)."""
    written = pl.read_parquet_metadata(file)
    keys = set(written) - {"command", "ARROW:schema"}
    assert keys == set(meta) - {"command"}
    for k in keys:
        assert written[k] == meta[k], k


# ---- the same data as the command line --------------------------------------------------------
def test_run_gives_the_command_lines_data(tmp_path):
    out = tmp_path / "cli"
    cli_ok("run", "--set", "value_two=2", "--players", 3, "--strategy", "greedy",
           "--strategy", "random", "--strategy", "greedy", "--rounds", 3000, "--seed", 5,
           "--threads", 2, "--chunk-size", 700, "--per-round", "--out", out)
    res = golf.run(set={"value_two": 2}, players=3, strategy=["greedy", "random", "greedy"],
                   rounds=3000, seed=5, threads=1, per_round=True, progress=False)
    assert isinstance(res.summary, pl.DataFrame) and isinstance(res.rounds, pl.DataFrame)
    assert_frame_equal(res.summary, pl.read_parquet(out / "summary.parquet"))
    assert_frame_equal(res.rounds, pl.read_parquet(out / "rounds.parquet"))
    same_metadata(out / "summary.parquet", res.metadata)
    assert res.complete and res.error == ""
    assert res.metadata["command"] == (
        "golfsim run --preset six_card --set value_two=2 --players 3 --strategy greedy "
        "--strategy random --strategy greedy --rounds 3000 --seed 5 --per-round")
    # write() writes what the command wrote, metadata and all
    written = res.write(tmp_path / "api")
    assert sorted(p.name for p in written) == sorted(p.name for p in out.iterdir())
    assert_frame_equal(pl.read_parquet(written[0]), res.summary)
    assert pl.read_parquet_metadata(written[0])["command"] == res.metadata["command"]


def test_the_recorded_command_line_replays_the_same_run(tmp_path):
    res = golf.run("four_card", rounds=1500, seed=9, threads=1, progress=False)
    argv = shlex.split(res.metadata["command"])
    assert argv[:2] == ["golfsim", "run"]
    cli_ok(*argv[1:], "--out", tmp_path)
    assert_frame_equal(res.summary, pl.read_parquet(tmp_path / "summary.parquet"))


def test_run_with_out_writes_what_the_command_writes(tmp_path):
    cli_ok("run", "--holes", 3, "--rounds", 400, "--threads", 1, "--out", tmp_path / "cli")
    res = golf.run(holes=3, rounds=400, threads=1, out=tmp_path / "api", progress=False)
    assert [p.name for p in res.written] == [p.name for p in sorted(res.written)] or res.written
    assert sorted(p.name for p in (tmp_path / "api").iterdir()) == \
        sorted(p.name for p in (tmp_path / "cli").iterdir())
    assert_frame_equal(res.summary, pl.read_parquet(tmp_path / "cli" / "summary.parquet"))
    assert "matches" in res.summary.columns


def test_compare_gives_the_command_lines_data(tmp_path):
    out = tmp_path / "cli"
    cli_ok("compare", "--vary", "pair_scope=column,anywhere", "--vary",
           "ender_penalty=none,plus_10", "--design", "one-at-a-time", "--strategy",
           "greedy,random", "--rounds", 1200, "--shard-size", 500, "--threads", 2, "--out", out)
    res = golf.compare(vary={"pair_scope": ["column", "anywhere"],
                             "ender_penalty": ["none", "plus_10"]},
                       design="one-at-a-time", strategy="greedy,random", rounds=1200,
                       shard_size=500, threads=1, progress=False)
    assert_frame_equal(res.table, pl.read_parquet(out / "compare.parquet"))
    same_metadata(out / "compare.parquet", res.metadata)
    assert res.markdown == (out / "compare.md").read_text()
    assert res.text.splitlines()[0] == "baseline: six_card"
    written = res.write(tmp_path / "api")
    assert sorted(p.name for p in written) == ["compare.md", "compare.parquet", "compare.png"]
    assert not any(tmp_path.glob("api/shards"))   # the shards stayed in a temporary folder


def test_compare_with_out_resumes_like_the_command(tmp_path):
    args = dict(vary="pair_scope=column,anywhere", rounds=1000, shard_size=500, threads=1,
                out=tmp_path, progress=False)
    first = golf.compare(**args)
    assert first.raw.resumed == 0 and (tmp_path / "shards" / "manifest.json").is_file()
    again = golf.compare(**args)
    assert again.raw.resumed == 2
    assert_frame_equal(first.table, again.table)
    with pytest.raises(golf.GolfsimError, match=r"^out=.*seed 1 there, 2 here"):
        golf.compare(**{**args, "seed": 2})


def test_tune_gives_the_command_lines_data(tmp_path):
    out = tmp_path / "cli"
    cli_ok("tune", *W2, "--strategy", "knock-threshold", "--param", "T=6..10:2",
           "--opponent", "knock-threshold:T=8", "--rounds", 2400, "--threads", 2, "--out", out)
    res = golf.tune(**W2_API, strategy="knock-threshold", param={"T": range(6, 11, 2)},
                    opponent="knock-threshold:T=8", rounds=2400, threads=1, progress=False)
    assert_frame_equal(res.table, pl.read_parquet(out / "tune.parquet"))
    same_metadata(out / "tune.parquet", res.metadata)
    assert res.best == res.metadata["best_strategy"]
    assert res.best in res.indistinguishable
    assert "T=6..10:2" in res.metadata["command"]


def test_tournament_tables(tmp_path):
    out = tmp_path / "cli"
    cli_ok("tournament", "--strategy", "greedy", "--strategy", "random", "--rounds", 800,
           "--threads", 1, "--out", out)
    res = golf.tournament(strategy=["greedy", "random"], rounds=800, threads=1,
                          progress=False)
    assert_frame_equal(res.ranking, pl.read_parquet(out / "ranking.parquet"))
    assert_frame_equal(res.head_to_head, pl.read_parquet(out / "head_to_head.parquet"))
    same_metadata(out / "ranking.parquet", res.metadata)
    assert res.ranking["strategy"][0] == "greedy"
    assert set(res.tables) == {"ranking", "head_to_head"}


# ---- the build that played ---------------------------------------------------------------------
def _builds(folder: Path) -> dict[str, str | None]:
    """The metadata's build of every Parquet file a command wrote into ``folder``."""
    return {p.name: pl.read_parquet_metadata(p).get("build")
            for p in sorted(folder.glob("*.parquet"))}


def test_every_command_records_the_build_that_played(tmp_path):
    """summary.parquet named the build that played; compare, tune, tournament and guide
    files did not. greedy and knock-threshold seats play on the lean build, a table with
    random or guide seats on the general one; a guide measures its tables (general) and,
    for what players say, greedy itself against its greedy field (lean)."""
    quiet = dict(threads=1, progress=False)
    golf.compare(vary="pair_scope=column,anywhere", rounds=400, out=tmp_path / "c1", **quiet)
    golf.compare(vary="pair_scope=column,anywhere", strategy="greedy,random", rounds=400,
                 out=tmp_path / "c2", **quiet)
    golf.tune(**W2_API, strategy="knock-threshold", param="T=6,8",
              opponent="knock-threshold:T=8", rounds=800, out=tmp_path / "t", **quiet)
    golf.tune_table(**W2_API, strategy="knock-threshold", param="T=6,8", rounds=800,
                    out=tmp_path / "s", **quiet)
    golf.tournament(strategy=["greedy", "random"], rounds=200, out=tmp_path / "r", **quiet)
    golf.guide(deals=100, check_rounds=0, compare_rounds=0, out=tmp_path / "g", **quiet)
    assert _builds(tmp_path / "c1") == {"compare.parquet": "lean"}
    assert _builds(tmp_path / "c2") == {"compare.parquet": "table"}
    assert _builds(tmp_path / "t") == {"tune.parquet": "lean"}
    assert _builds(tmp_path / "s") == {"symmetric.parquet": "lean"}
    assert _builds(tmp_path / "r") == {"head_to_head.parquet": "table",
                                       "ranking.parquet": "table"}
    assert _builds(tmp_path / "g") == {"guide.parquet": "lean,table"}


def test_the_builds_of_several_jobs_are_named_once_each():
    assert runner.builds_text(["lean", "general", "lean", "", "general,powers"]) == \
        "general,lean,powers"


# ---- result objects ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def small_run():
    return golf.run(rounds=1000, threads=1, per_round=True, progress=False)


def test_results_hold_dataframes_and_text(small_run):
    res = small_run
    assert list(res.tables) == ["summary", "rounds"]
    assert res.summary.height == 4 and res.rounds.height == 1000
    assert res.text.startswith("rules: six_card\n4 players, 1,000 rounds, seed 1")
    assert str(res) == res.text
    assert repr(res).startswith("<golfsim run: six_card; 4 players, 1,000 rounds, seed 1")
    assert res.title == res.metadata["title"]
    assert res.rule_set.rules == golf.rules().rules
    assert res.written == []
    with pytest.raises(KeyError, match="no table 'ranking'; its tables: summary, rounds"):
        res.to_pandas("ranking")


def test_to_pandas(small_run, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)   # as where pandas is not installed
    with pytest.raises(ImportError, match="to_pandas.. needs pandas"):
        small_run.to_pandas()
    monkeypatch.undo()
    pd = pytest.importorskip("pandas")
    frame = small_run.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == small_run.summary.columns
    assert len(small_run.to_pandas("rounds")) == 1000


def test_progress_and_warnings(capsys):
    golf.run(rounds=200, threads=1, progress=False)
    assert capsys.readouterr().err == ""
    golf.run(rounds=200, threads=1)
    err = capsys.readouterr().err
    assert "golfsim: loading the compiled kernel" in err and "golfsim run" in err
    # greedy never knocks, and only a knock ends a four_card hole: every round hits the cap
    with pytest.warns(golf.GolfsimWarning, match="hit the turn cap"):
        res = golf.run("four_card", strategy="greedy", rounds=20, threads=1,
                       set={"turn_cap": 50}, progress=False)
    assert res.warnings and "turn cap" in res.metadata["warnings"]


def test_a_policy_error_keeps_what_was_played(tmp_path, monkeypatch):
    real_run = runner.run

    def failing_run(*args, **kw):
        result = real_run(*args, **kw)
        result.complete = False
        result.error = "round 12: the policy of seat 2 chose pos3, which is not legal"
        return result

    monkeypatch.setattr(runner, "run", failing_run)
    with pytest.raises(golf.PolicyError, match="the files hold those.*round 12") as e:
        golf.run(rounds=100, threads=1, out=tmp_path, progress=False)
    assert e.value.result.summary.height == 4 and not e.value.result.complete
    assert (tmp_path / "summary.parquet").is_file()


# ---- rule sets ---------------------------------------------------------------------------------
def test_rules_from_keywords_a_dict_or_strings_are_the_same(tmp_path):
    a = golf.rules("six_card", pair_scope="anywhere", value_two=2)
    b = golf.rules("six_card", set={"pair_scope": "anywhere", "value_two": 2})
    c = golf.rules(set=["pair_scope=anywhere", "value_two=2"])
    assert a.rules == b.rules == c.rules
    assert a.text == "six_card, value_two=2, pair_scope=anywhere"
    assert a.changed() == {"pair_scope": "anywhere", "value_two": 2}
    toml = tmp_path / "house.toml"
    toml.write_text(a.toml())
    d = golf.rules(rules_file=toml)
    assert d.rules == a.rules and d.preset == "six_card" and d.rules_file == str(toml)
    # a rule set passed to a command, with more options on top
    r1 = golf.run(rules=a, rounds=300, threads=1, progress=False)
    r2 = golf.run(set=["pair_scope=anywhere", "value_two=2"], rounds=300, threads=1,
                  progress=False)
    assert_frame_equal(r1.summary, r2.summary)
    assert r1.metadata["rules"] == r2.metadata["rules"]
    r3 = golf.run(rules=d, set={"turn_cap": 300}, rounds=300, threads=1, progress=False)
    assert r3.metadata["rules_file"] == str(toml)
    assert r3.metadata["command"].startswith(f"golfsim run --rules {toml} --set "
                                             "turn_cap=300 ")


def test_the_api_is_reachable_from_the_package():
    import simulator
    from simulator import api
    assert simulator.api is api is golf


# ---- bad arguments: the command line's messages -------------------------------------------------
BAD = [
    (["run", "--rounds", "0"], "run", dict(rounds=0)),
    (["run", "--rounds", "1e20"], "run", dict(rounds="1e20")),
    (["run", "--threads", "0"], "run", dict(threads=0)),
    (["run", "--preset", "seven_card"], "run", dict(preset="seven_card")),
    (["run", "--set", "pair_scope=sideways"], "run", dict(set={"pair_scope": "sideways"})),
    (["run", "--set", "no_such_option=1"], "run", dict(set="no_such_option=1")),
    (["run", "--players", "9"], "run", dict(players=9)),
    (["run", "--strategy", "no_such_strategy"], "run", dict(strategy="no_such_strategy")),
    (["run", "--strategy", "forgetful:decay=2"], "run", dict(strategy="forgetful:decay=2")),
    (["run", "--strategy", "greedy", "--strategy", "random"], "run",
     dict(strategy=["greedy", "random"])),
    (["run", "--holes", "3", "--target", "50"], "run", dict(holes=3, target=50)),
    (["run", "--holes", "3", "--per-round"], "run", dict(holes=3, per_round=True)),
    (["run", "--set", "pair_scope=none", "--set", "pair_scope=anywhere"], "run",
     dict(set=["pair_scope=none", "pair_scope=anywhere"])),
    (["run", "--set", "match_end_holes=5", "--holes", "9"], "run",
     dict(set="match_end_holes=5", holes=9)),
    (["run", "--set", "match_end_mode=holes", "--target", "50"], "run",
     dict(set={"match_end_mode": "holes"}, target=50)),
    (["run", "--set", "match_end_target=80", "--target", "50"], "run",
     dict(set="match_end_target=80", target=50)),
    (["compare", "--vary", "pair_scope=column,sideways"], "compare",
     dict(vary="pair_scope=column,sideways")),
    (["compare", "--vary", "pair_scope=column,anywhere", "--rounds", "10",
      "--until-width", "0.5"], "compare",
     dict(vary="pair_scope=column,anywhere", rounds=10, until_width=0.5)),
    (["compare", "--vary", "pair_scope=column,anywhere", "--set", "pair_scope=anywhere"],
     "compare", dict(vary="pair_scope=column,anywhere", set="pair_scope=anywhere")),
    (["tune", "--strategy", "knock-threshold", "--param", "X=1..3", "--opponent", "greedy"],
     "tune", dict(strategy="knock-threshold", param="X=1..3", opponent="greedy")),
    (["tune", "--strategy", "knock-threshold", "--param", "T=1..3", "--opponent", "greedy",
      "--rounds", "100"], "tune",
     dict(strategy="knock-threshold", param="T=1..3", opponent="greedy", rounds=100)),
    (["tournament", "--strategy", "greedy"], "tournament", dict(strategy=["greedy"])),
    (["guide", "--deals", "50"], "guide", dict(deals=50)),
    (["guide", "--players", "1"], "guide", dict(players=1)),
]


@pytest.mark.parametrize("args, name, kwargs", BAD, ids=[" ".join(b[0]) for b in BAD])
def test_bad_arguments_raise_the_command_lines_message(tmp_path, monkeypatch, args, name,
                                                       kwargs):
    def must_not_play(*a, **kw):
        raise AssertionError("bad arguments must be refused before any round is played")

    monkeypatch.setattr(runner, "run", must_not_play)
    monkeypatch.setattr(warm, "warm_up", must_not_play)
    res = invoke(*args, "--out", tmp_path / "cli", "-q")
    assert res.exit_code == 2, res.output
    line = res.stderr.strip()
    assert line.startswith("golfsim: error: ") and "\n" not in line
    with pytest.raises(golf.GolfsimError) as e:
        getattr(golf, name)(**kwargs, out=tmp_path / "api", progress=False)
    # the same message, naming the function's arguments where the command line names options
    arguments = set(inspect.signature(getattr(golf, name)).parameters)
    assert str(e.value) == golf.python_words(line[len("golfsim: error: "):], arguments)
    assert not any(f"--{a.replace('_', '-')}" in str(e.value) for a in arguments - {"rules"})
    assert not (tmp_path / "api").exists()


@pytest.mark.parametrize("call, cli_words, python_words", [
    (lambda: golf.run("six_card", rounds=-5), "'--rounds'", "'rounds'"),
    (lambda: golf.run("six_card", players=9), "--players 9:", "players=9:"),
    (lambda: golf.rules("six_card", rules_file="x.toml"), "--rules x.toml", "rules_file=x.toml"),
    (lambda: golf.tune("six_card", strategy="knock-threshold", param="T=1..3"),
     "--opponent SPEC", "opponent=SPEC"),
    (lambda: golf.compare("six_card", vary="value_two=-2,0"), "--vary value_two=-2,0",
     "vary=value_two=-2,0"),
])
def test_errors_from_python_name_the_arguments(call, cli_words, python_words):
    with pytest.raises(golf.GolfsimError) as e:
        call()
    assert python_words in str(e.value) and cli_words not in str(e.value)
    with golf.command_line_words(), pytest.raises(golf.GolfsimError) as e:
        call()
    assert cli_words in str(e.value)


def test_rule_set_arguments_are_given_once(tmp_path):
    with pytest.raises(golf.GolfsimError, match="preset=four_card and rules_file=x.toml: give "
                                                "one or the other"):
        golf.rules("four_card", rules_file="x.toml")
    with pytest.raises(golf.GolfsimError, match="give the rule set once"):
        golf.run(rules=golf.rules(), preset="six_card", progress=False)
    with pytest.raises(golf.GolfsimError, match="strategy: expected a string or a list"):
        golf.run(strategy=3, progress=False)


# ---- arguments only Python can give: folders and yes/no flags ------------------------------------
SMALLEST = {   # valid arguments of each command that writes into ``out``
    "run": dict(rounds=10),
    "compare": dict(vary="pair_scope=column,anywhere", rounds=10),
    "tune": dict(strategy="knock-threshold", param="T=4..6", opponent="greedy", rounds=1000),
    "tournament": dict(strategy=["greedy", "random"], rounds=10),
    "guide": dict(deals=100),
}
FLAGS = {"run": ("per_round", "progress"), "compare": ("fresh", "progress"),
         "tune": ("fresh", "progress"), "tournament": ("progress",),
         "guide": ("fresh", "progress")}


@pytest.fixture
def nothing_played(monkeypatch):
    def must_not_play(*a, **kw):
        raise AssertionError("bad arguments must be refused before any round is played")

    for name in ("run", "play_chunk"):
        monkeypatch.setattr(runner, name, must_not_play)
    monkeypatch.setattr(warm, "warm_up", must_not_play)


@pytest.mark.parametrize("command", sorted(SMALLEST))
def test_out_must_be_a_folder_path(tmp_path, nothing_played, command):
    """out=123 was a TypeError from deep inside pathlib, after the rules were checked."""
    for bad, shown in ((123, "int 123"), (b"folder", "bytes b'folder'"),
                       (["a"], "list ['a']")):
        with pytest.raises(golf.GolfsimError) as e:
            getattr(golf, command)(**SMALLEST[command], out=bad, progress=False)
        assert str(e.value) == ("out: expected a folder path (a str or an os.PathLike such as "
                                f"pathlib.Path), got {shown}")


def test_result_write_takes_a_folder_path(small_run, tmp_path):
    with pytest.raises(golf.GolfsimError, match=r"^folder: expected a folder path .*int 7$"):
        small_run.write(7)
    assert small_run.write(tmp_path / "a") and small_run.write(str(tmp_path / "b"))


@pytest.mark.parametrize("command, flag", [(c, f) for c in sorted(FLAGS) for f in FLAGS[c]])
def test_yes_no_arguments_must_be_true_or_false(tmp_path, nothing_played, command, flag):
    """per_round="no" was taken as true (any non-empty text is)."""
    arguments = {**SMALLEST[command], "progress": False}
    for bad in ("no", "False", 1, None):
        with pytest.raises(golf.GolfsimError) as e:
            getattr(golf, command)(**{**arguments, flag: bad}, out=tmp_path / "out")
        assert str(e.value) == f"{flag}: expected True or False, got {bad!r}"
    assert not (tmp_path / "out").exists()


# ---- an option given twice ---------------------------------------------------------------------
def test_an_option_given_twice_is_refused():
    """A keyword option and a ``set`` entry for the same option (or one option twice in
    ``set``, under any of its names): the later silently won."""
    cases = [
        (dict(set={"pair_scope": "anywhere"}, pair_scope="none"),
         "set=pair_scope=anywhere and the keyword argument pair_scope=none"),
        (dict(set=["pair_scope=none", "pair_scope=anywhere"]),
         "set=pair_scope=none and set=pair_scope=anywhere"),
        (dict(set=["jokers=2", "jokers_per_deck=0"]), "set=jokers=2 and set=jokers_per_deck=0"),
        (dict(set="grid.rows=2", grid_rows=2), "set=grid.rows=2 and the keyword argument"),
    ]
    for kwargs, both in cases:
        with pytest.raises(golf.GolfsimError) as e:
            golf.rules("six_card", **kwargs)
        assert str(e.value).startswith(both) and "given twice" in str(e.value), str(e.value)
    with pytest.raises(golf.GolfsimError, match="pair_scope is given twice"):
        golf.run(set=["pair_scope=none", "pair_scope=anywhere"], progress=False)


def test_set_on_a_rule_set_replaces_its_options_in_the_recorded_command(tmp_path):
    """``rules=`` and ``set=`` on top (documented): the recorded command line gives each
    option once, so the command line, which refuses an option given twice, replays it."""
    house = golf.rules("six_card", pair_scope="anywhere", value_two=2)
    res = golf.run(rules=house, set={"pair_scope": "none"}, rounds=300, threads=1,
                   progress=False)
    assert res.rule_set.rules.pair_scope == "none" and res.rule_set.rules.value_two == 2
    assert res.rule_set.assignments == ("value_two=2", "pair_scope=none")
    argv = shlex.split(res.metadata["command"])[1:]
    cli_ok(*argv, "--threads", 1, "--out", tmp_path)
    assert_frame_equal(pl.read_parquet(tmp_path / "summary.parquet"), res.summary)


def test_no_warnings_for_a_clean_run():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        golf.run(rounds=100, threads=1, progress=False)


# ---- the notebook-style example -----------------------------------------------------------------
@pytest.mark.slow
def test_the_house_rule_example_script_answers(tmp_path):
    """scripts/house_rule_last_seat.py end to end, with few deals."""
    import os
    import subprocess
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=str(root))
    done = subprocess.run([sys.executable, str(root / "scripts" / "house_rule_last_seat.py"),
                           "--rounds", "3000", "--threads", "2", "--out", str(tmp_path),
                           "--quiet"], capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "4 players, greedy in every seat, 3,000 deals per rule set, seed 1"
    assert sum(line.startswith("  ") and "±" in line for line in lines) == 8   # every rule
    assert any(line.startswith("answer: ") for line in lines)
    png = tmp_path / "house_rule_last_seat.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert lines[-1] == f"figure: {png}"


def test_the_commands_fill_in_one_template():
    """The skeleton of a command (results folder, progress bar, Ctrl-C, writing) is in one
    place, template.Command, which every command fills in; api.py repeated it in each."""
    import ast

    from simulator.api import commands
    tree = ast.parse(Path(commands.__file__).read_text())
    functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    for name in ("run", "compare", "tune", "tune_table", "tournament", "guide"):
        calls = {ast.unparse(c.func) for c in ast.walk(functions[name])
                 if isinstance(c, ast.Call)}
        assert "Command" in calls, name
    assert not [ast.unparse(h) for h in ast.walk(tree) if isinstance(h, ast.ExceptHandler)
                and "KeyboardInterrupt" in ast.unparse(h.type)]
    assert not {ast.unparse(c.func) for c in ast.walk(tree) if isinstance(c, ast.Call)} & \
        {"Bar", "begin_folder", "tempfile.TemporaryDirectory", "check_out_dir"}


def test_the_command_line_calls_only_the_public_api():
    """cli.py is a thin layer over api.py: no private name of the API (tune --symmetric
    went around it with api._begin and api._Playing)."""
    import ast
    from pathlib import Path

    import simulator.cli as cli_module
    tree = ast.parse(Path(cli_module.__file__).read_text())
    private = sorted({node.attr for node in ast.walk(tree)
                      if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                      and node.value.id == "api" and node.attr.startswith("_")})
    assert private == []
