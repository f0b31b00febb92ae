"""The builds: one table, one name each, one function that picks the one a run plays on; the
cache key follows the imports of the compiled code; an error in a build's copy of the flow is
told at the line of the flow's module; the results say which build played."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from simulator.game import codes as K
from simulator.game.rules import Rules, flatten
from simulator.kernel import builds, cache, features, jit, pick, sources
from simulator.kernel.located import CompiledCodeError, located
from strategies import resolve_seats, seat_arrays

ROOT = Path(__file__).resolve().parents[1]
FLOW = builds.FLOW_PACKAGE


# ---- the cache key --------------------------------------------------------------------------
def test_the_cache_key_covers_what_compiled_code_imports():
    key = set(jit.KERNEL_SOURCES)
    # constants folded into compiled code, and policies imported by name (compiled.ENTRIES)
    assert {"simulator/game/cards.py", "simulator/game/codes.py",
            "strategies/random_policy.py", "strategies/lookahead_powers.py"} <= key
    # every module of the flow package (its modules import each other relatively)
    flow = {p.relative_to(ROOT).as_posix() for p in FLOW.glob("*.py")}
    assert len(flow) == len(builds.FLOW_MODULES) + 1 and flow <= key
    assert "simulator/experiments/runner.py" not in key   # plays compiled code, compiles none


def _tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_the_key_follows_imports_at_any_depth_and_by_name(tmp_path):
    _tree(tmp_path, {
        "simulator/__init__.py": "",
        "simulator/kernel/__init__.py": "",
        "simulator/kernel/jit.py": "import numba\n",
        # a package whose modules import each other relatively, as the flow's do
        "simulator/kernel/flow/__init__.py": "from .turn import f\n",
        "simulator/kernel/flow/turn.py": "from ..jit import hot\nfrom .moves import (\n"
                                         "    g,  # the moves\n)\n",
        "simulator/kernel/flow/moves.py": "def g():\n    from simulator.game import cards as C\n",
        "simulator/game/__init__.py": "",
        "simulator/game/cards.py": "from .deep import X  # a comment\n",
        "simulator/game/deep.py": "X = 1\n",
        "simulator/game/rules.py": "from . import cards\n",   # imported by nothing compiled
        "strategies/__init__.py": "",
        "strategies/table.py": "from simulator.kernel.jit import hot\n"
                               "ENTRIES = {0: ('strategies.named', 'f')}\n",
        "strategies/named.py": "",
    })
    assert sources.kernel_sources(tmp_path) == (
        "simulator/__init__.py", "simulator/game/__init__.py", "simulator/game/cards.py",
        "simulator/game/deep.py", "simulator/kernel/__init__.py",
        "simulator/kernel/flow/__init__.py", "simulator/kernel/flow/moves.py",
        "simulator/kernel/flow/turn.py", "simulator/kernel/jit.py", "strategies/__init__.py",
        "strategies/named.py", "strategies/table.py")


def test_an_edit_to_any_module_of_the_flow_changes_the_cache_key(tmp_path, monkeypatch):
    for package in ("simulator", "strategies"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(jit, "_ROOT", tmp_path)

    def key() -> str:
        monkeypatch.setattr(jit, "KERNEL_SOURCES", sources.kernel_sources(tmp_path))
        return jit._source_hash()
    keys = [key()]
    for path in sorted((tmp_path / FLOW.relative_to(ROOT)).glob("*.py")):
        path.write_text(path.read_text() + "\n# edited\n")
        keys.append(key())
    assert len(set(keys)) == len(keys) == len(builds.FLOW_MODULES) + 2


# ---- one table, one name per build, one choice ---------------------------------------------
def test_each_build_has_one_name_in_one_table():
    assert set(features.BUILDS) == {"lean", "general", "powers", "user", "table", "own",
                                    "random", "forgetful", "opponent-aware", "guide", "heuristic",
                                    "cache"}
    assert set(features.BUILD_FEATURES) == set(features.BUILDS)
    for name, build in features.BUILDS.items():
        assert build.name == name and build.estimate_s > 0 and build.description
        assert builds.estimate(name) == build.estimate_s
        assert builds.describe(name) == build.description
        lines = build.lines()
        for constant in features.FLOW_CONSTANTS:
            assert re.search(rf"^{constant} = (True|False)$", lines, re.M), (name, constant)
    # every kernel a run may ask for is a build of the table, or the Cabo build, which is
    # no copy of the flow (simulator/kernel/cabo) and has its compile estimate with the parts
    assert set(pick.KERNELS) - {"auto"} <= set(features.BUILDS) | {"cabo"}
    assert builds.estimate("cabo") == features.PARTS["cabo"][0] > 0


def _ids(strategy: str, players: int = 4):
    return seat_arrays(resolve_seats([strategy], players))[0]


@pytest.mark.parametrize("preset, strategy, kernel, check, expected", [
    ("six_card", "greedy", "auto", False, "lean"),
    ("six_card", "greedy", "auto", True, "general"),     # invariant checks: the general build
    ("six_card", "greedy", "general", False, "general"),
    ("six_card", "random", "auto", False, "table"),     # any seats on the common rules
    ("six_card", "random", "general", False, "general"),
    ("six_card", "greedy", "table", False, "table"),
    ("nine_card_fuchs", "random", "auto", False, "general"),   # groups leave the layout
    ("six_card", "greedy", "powers", False, "powers"),
    ("power_cabo", "greedy", "auto", False, "cabo"),    # greedy seats on Cabo's rules
    ("power_cabo", "greedy", "auto", True, "powers"),
    ("power_cabo", "greedy", "general", False, "powers"),
    ("power_cactus", "greedy", "auto", False, "powers"),
    ("power_cabo", "random", "general", False, "powers"),
])
def test_one_function_picks_the_build(preset, strategy, kernel, check, expected):
    ri = flatten(Rules.preset(preset), 4).ri
    assert pick.build(ri, _ids(strategy), kernel, check=check) == expected


def test_the_runner_plays_on_the_build_picked():
    from simulator.experiments.runner import make_job
    ids, params = seat_arrays(resolve_seats(["greedy"], 4))
    for kernel, expected in (("auto", "lean"), ("general", "general")):
        job = make_job(Rules.preset("six_card"), 4, ids, params, 1, kernel=kernel)
        assert job.build == expected
        assert pick.module(job.build).chunk_nb is not None
    with pytest.raises(ValueError, match="kernel = 'lean'"):
        pick.build(flatten(Rules.preset("six_card"), 4).ri, _ids("random"), "lean")


# ---- each line of a copy is a line of one module of the flow -------------------------------
_IMPORT_LINE = re.compile(r"^(from|import) |^\s+[\w, ]+\)?$")


def test_every_line_of_a_build_copy_is_its_modules_line():
    """Outside the build block, line N of a build's copy is the line of the flow's module
    builds.module_line names (or blank where the module imports another of the flow)."""
    from simulator.kernel import engine
    source = builds.flow_source().splitlines()
    start = source.index(builds.BUILD_START) + 1
    end = source.index(builds.BUILD_END) + 1
    texts = {p: p.read_text().splitlines() for p in FLOW.glob("*.py")}
    for module in engine.BUILDS.values():
        copy = Path(module.__file__).read_text().splitlines()
        assert len(copy) == len(source), module.__file__
        checked = 0
        for number, line in enumerate(copy, 1):
            if number == 1 or start < number < end:
                continue
            path, at = builds.module_line(number)
            original = texts[path][at - 1]
            assert line == original or (line == "" and _IMPORT_LINE.match(original)), \
                (module.__file__, number, path.name, at)
            checked += bool(line)
        assert checked > 2000
    # the first line of each module, and the last of the last
    firsts = [builds.module_line(s)[1] for s, _ in builds.flow_lines()]
    assert firsts == [1] * len(builds.FLOW_MODULES)
    assert builds.module_line(len(source)) == (FLOW / f"{builds.FLOW_MODULES[-1]}.py",
                                               len(texts[FLOW / f"{builds.FLOW_MODULES[-1]}.py"]))


def test_build_lines_longer_than_the_block_are_refused():
    assert builds.same_height("A = 1\nB = 2\n", 4) == "A = 1\nB = 2\n\n\n"
    with pytest.raises(ValueError, match="do not fit"):
        builds.same_height("A = 1\nB = 2\nC = 3\n", 2)


# ---- an error in compiled code names the line of the flow's module ---------------------------
_ARGS = "point, seat, held, public, legal, known, faceup, discard, memory, rules, rng, params"


def test_an_error_in_a_build_names_the_line_of_the_flows_module():
    """A build whose user policy answers a pair instead of an action: compiling the flow's
    decision step fails where the answer is used, and the error names that line of the flow's
    module (the copy the build runs lives in the cache folder, under another name)."""
    lines = features.BUILDS["user"].lines(
        f"user_decide = hot(lambda {_ARGS}: (1, 2), inline='always', cache=False)",
        f"user_decide_call = hot(lambda {_ARGS}: (1, 2), cache=False)")
    module = builds.flow_build("fault-test", lines)
    g = np.zeros(K.G_SIZE, dtype=np.int32)
    rt = np.zeros(K.RT_SIZE, dtype=np.int64)
    rng = np.zeros(64, dtype=np.uint64)
    try:
        with pytest.raises(CompiledCodeError) as err:
            with located():
                module._ask(g, rt, rng, np.zeros((4, 19)), (0,), K.DP_TURN, 0, -1, False)
    finally:
        stem = Path(module.__file__).stem
        cache.remove_build(jit.CACHE_DIR, "flow_builds", stem)
        builds._FLOW_BUILDS.pop(stem, None)
        sys.modules.pop(stem, None)
    message = str(err.value)
    assert "golfsim_flow_" not in message and jit.CACHE_DIR not in message
    places = re.findall(r"(simulator/kernel/flow/\w+\.py):(\d+):\n(?:.*\n)*?\s*(.+)\n\s*\^",
                        message)
    assert places, message
    file, line, quoted = places[0]
    assert file == "simulator/kernel/flow/ask.py", message   # _ask is there
    assert (ROOT / file).read_text().splitlines()[int(line) - 1].strip() == quoted.strip()
    assert "a < 0" in quoted   # the policy's answer, compared with 0: where it fails


def test_an_exception_raised_in_a_copy_names_the_line_of_the_flows_module(tmp_path):
    """Raised at run time in a build's copy (as compiled code raises: Numba puts the copy's
    file and line in the traceback) at the line of the turn's definition, the error is told
    at that line of simulator/kernel/flow/turn.py."""
    statement = "def _turn(g, rt, par, rng, ctx, seat,"
    line = next(n for n, text in enumerate(builds.flow_source().splitlines(), 1)
                if text.startswith(statement))
    in_turn = next(n for n, text in enumerate((FLOW / "turn.py").read_text().splitlines(), 1)
                   if text.startswith(statement))
    copy = tmp_path / "flow_builds" / "golfsim_flow_general_0123456789abcdef.py"
    code = compile("\n" * (line - 1) + "raise ValueError('forced')\n", str(copy), "exec")
    with pytest.raises(CompiledCodeError) as err:
        with located():
            exec(code, {})
    assert str(err.value).startswith(
        f"simulator/kernel/flow/turn.py:{in_turn}: ValueError: forced")
    assert isinstance(err.value.__cause__, ValueError)


def test_other_errors_pass_as_they_are():
    with pytest.raises(KeyError):
        with located():
            raise KeyError("x")


# ---- the results say which build played ----------------------------------------------------
@pytest.mark.parametrize("kernel, build", [("auto", "lean"), ("general", "general")])
def test_the_summary_metadata_names_the_build(tmp_path, kernel, build):
    import simulator.api as golf
    result = golf.run("six_card", strategy=["greedy"], rounds=200, seed=3, kernel=kernel,
                      out=str(tmp_path))
    assert result.build == build
    meta = pl.read_parquet_metadata(next(tmp_path.rglob("summary.parquet")))
    assert meta["build"] == build
    assert json.loads(meta["strategies"]) == ["greedy"] * 4


def test_verbose_says_which_build_played(tmp_path):
    from click.testing import CliRunner

    from simulator.cli import cli
    done = CliRunner().invoke(cli, ["run", "--preset", "six_card", "--rounds", "100", "-q",
                                    "--out", str(tmp_path), "--verbose"])
    assert done.exit_code == 0, done.output
    assert "golfsim: played on the lean build: the lean kernel" in done.output
    quiet = CliRunner().invoke(cli, ["run", "--preset", "six_card", "--rounds", "100", "-q",
                                     "--out", str(tmp_path / "b")])
    assert "played on" not in quiet.output


def test_a_run_flattens_its_rules_and_checks_its_policies_once(monkeypatch):
    """api.run checks its inputs, compiles, then plays: the rule tables are built and the
    policies checked once for all of it (they were about six times and three)."""
    import simulator.api as golf
    from simulator.experiments import runner
    from simulator.game import rules as rules_module
    from simulator.game.rules import description, flattening
    calls = {"flatten": 0, "check": 0}
    flatten_, check_ = runner.flatten, runner.check_policies

    def counted_flatten(*a, **kw):
        calls["flatten"] += 1
        return flatten_(*a, **kw)

    def counted_check(*a, **kw):
        calls["check"] += 1
        return check_(*a, **kw)
    for module in (runner, rules_module, flattening, description, pick):
        monkeypatch.setattr(module, "flatten", counted_flatten)
    monkeypatch.setattr(runner, "check_policies", counted_check)
    golf.run("six_card", strategy=["random"], rounds=300, seed=2, progress=False)
    assert calls == {"flatten": 1, "check": 1}


# ---- the turn loop's slot ----------------------------------------------------------------------
UNPROVIDED = """
import numpy as np
from simulator.experiments.runner import Totals, describe_error
from simulator.game import codes as K
from simulator.game.rules import Rules, flatten
from simulator.kernel import engine
from simulator.kernel.engine import State, pack_rules, policy_table
from simulator.kernel.policy_api import NO_USER_POLICY
from strategies import compiled, resolve_seats, seat_arrays

ids, params = seat_arrays(resolve_seats(["greedy"], 3))
rt, par = pack_rules(flatten(Rules.preset("six_card"), 3)), policy_table(ids, params)
none = (np.zeros((0, 3), np.int64), np.zeros(0, np.int64), np.zeros((0, 3, K.MAX_POS), np.int16))
for provided in (False, True):   # (engine.build fills the slot)
    module = engine.build("general") if provided else engine.BUILDS["general"]
    st, t = State(3), Totals(3)
    played = module.chunk_nb(5, 0, 4, rt, par, *st.arrays(), t.acc, t.tot, t.hist, *none,
                             False, NO_USER_POLICY, compiled.table(ids), st.aux)
    print(played, int(t.tot[0] if played == 0 else -1))
    print(describe_error(st.out, 0) if played == 0 else "played")
"""


def test_rounds_played_before_their_turn_loop_is_provided_fail_and_say_so(tmp_path):
    """The general and powers builds' rounds call their turn loop through a slot that
    engine.build (and so pick.module) fills: taken around it, in a process where nothing
    filled it, a build plays no round and its error says why; filled, the same call plays."""
    script = tmp_path / "unprovided.py"
    script.write_text(UNPROVIDED)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert lines[0] == "0 0" and "before its turn loop was loaded" in lines[1], lines
    assert lines[2:] == ["4 -1", "played"], lines


def test_greedy_plays_the_power_games_with_its_powers_entry():
    """greedy's and knock-threshold's plain entry points leave out the power rules (most of
    their compile); a power-card game's table of policies holds their powers entries."""
    from strategies import compiled
    for pid, name in ((K.POLICY_GREEDY, "greedy"),
                      (K.POLICY_KNOCK_THRESHOLD, "knock-threshold")):
        assert compiled.build_name(pid) == name
        assert compiled.build_name(pid, powers=True) == f"{name}-powers"
        slot = compiled.policy_slot(pid)
        assert compiled.table([pid], powers=True)[slot] is compiled.entry(pid, powers=True)
        assert compiled.table([pid])[slot] is compiled.entry(pid)
        assert compiled.entry(pid) is not compiled.entry(pid, powers=True)
