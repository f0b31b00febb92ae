"""User policies loaded from a file: the example plays exactly like the built-in it copies,
parameters reach it, and every way a policy file can be wrong is one clear error (exit 2)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from simulator.game import codes as K
from simulator.cli import cli
from simulator.experiments.runner import play_logged_round
from simulator.game.rules import Rules, flatten
from simulator.experiments.runner import make_job, run
from strategies import StrategyError, resolve, resolve_seats, seat_arrays, user_policy

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "strategies" / "examples" / "greedy_policy.py") + ":decide"
SIX = Rules.preset("six_card")


def _write(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return str(path)


# "auto" plays every seat on the policy's own kernel, compiled for minutes: the slow tier
@pytest.mark.parametrize("kernel", ["general", pytest.param("auto", marks=pytest.mark.slow)])
def test_example_plays_exactly_like_builtin_greedy(kernel):
    seats = resolve_seats([EXAMPLE], 4)
    ids, params = seat_arrays(seats)
    assert all(s.user is not None for s in seats)
    a = run(SIX, 4, ids, params, rounds=3000, seed=9, user=user_policy(seats), threads=2,
            chunk_size=500, kernel=kernel)
    b = run(SIX, 4, *seat_arrays(resolve_seats(["greedy"], 4)), rounds=3000, seed=9,
            kernel="general")
    assert a.complete and a.totals.rounds == 3000
    assert np.array_equal(a.totals.acc, b.totals.acc)
    assert np.array_equal(a.totals.tot, b.totals.tot)


@pytest.mark.parametrize("preset", ["four_card", "four_card_in_hand", "nine_card", "ten_card",
                                    "nine_card_moraco", "one_row"])
def test_example_plays_legally_off_the_six_card_family(preset):
    """Its search reads positions c and c + cols as a column whatever the layout; on one row
    that names positions the layout does not have, which it must not answer."""
    rules = SIX.with_options(grid_rows=1, grid_cols=5) if preset == "one_row" \
        else Rules.preset(preset)
    seats = resolve_seats([EXAMPLE], 4)
    r = run(rules, 4, *seat_arrays(seats), rounds=300, seed=3, user=user_policy(seats),
            kernel="general")
    assert r.complete and r.totals.rounds == 300, r.error


def test_example_runs_through_the_cli(tmp_path):
    out = tmp_path / "user"
    r = CliRunner().invoke(cli, ["run", "--preset", "six_card", "--players", "4", "--strategy",
                                 EXAMPLE, "--strategy", "greedy", "--strategy", EXAMPLE,
                                 "--strategy", "random", "--rounds", "2000", "--quiet",
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    df = pl.read_parquet(out / "summary.parquet")
    assert df["rounds"].to_list() == [2000] * 4
    assert df["strategy"][0].endswith("greedy_policy.py:decide")


THRESHOLD = """
    from simulator.game.codes import (A_DISCARD, A_DRAW_STOCK, A_TAKE_DISCARD, DP_TURN, N_ACTIONS,
                                      PUB_DISCARD_N, RT_VALUE)
    PARAMS = (("take_at_most", 0.0, "take the discard when its value is at most this"),)

    def lowest(legal):
        for a in range(N_ACTIONS):
            if legal[a]:
                return a
        return -1

    def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
               params):
        if point == DP_TURN:
            top = discard[public[PUB_DISCARD_N] - 1]
            if legal[A_TAKE_DISCARD] and rules[RT_VALUE + top] <= params[1]:
                return A_TAKE_DISCARD
            return A_DRAW_STOCK
        if legal[A_DISCARD]:
            return A_DISCARD
        return lowest(legal)
"""


def test_parameters_reach_the_policy(tmp_path):
    path = _write(tmp_path, "threshold.py", THRESHOLD)
    takes = {}
    for x in (-100, 100):
        s = resolve(f"{path}:decide:take_at_most={x}")
        assert s.params == (float(x),)
        fn = user_policy([s])
        ids, params = seat_arrays([s] * 4)
        log = play_logged_round(flatten(SIX, 4), ids, params, seed=3, round_index=0, user=fn)
        assert log["ok"]
        takes[x] = int(((log["log"][:, 2] == K.DP_TURN) &
                        (log["log"][:, 3] == K.A_TAKE_DISCARD)).sum())
    assert takes[-100] == 0 and takes[100] > 0
    with pytest.raises(StrategyError, match="unknown parameter"):
        resolve(f"{path}:decide:nope=1")


ALLOCATING = """
    import numpy as np
    from simulator.game.codes import N_ACTIONS

    def legal_actions(legal):
        out = np.zeros(N_ACTIONS, dtype=np.int64)   # needs Numba's reference counting
        n = 0
        for a in range(N_ACTIONS):
            if legal[a]:
                out[n] = a
                n += 1
        return out[:n]

    def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
               params):
        return legal_actions(legal)[0]
"""

LOWEST = """
    from simulator.game.codes import N_ACTIONS

    def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
               params):
        for a in range(N_ACTIONS):
            if legal[a]:
                return a
        return -1
"""


def test_a_policy_that_allocates_arrays_still_compiles(tmp_path):
    """Policies are compiled without reference counting first (faster); one that allocates
    is compiled again with it, and plays the same moves as its allocation-free twin."""
    logs = []
    for name, body in (("allocating.py", ALLOCATING), ("lowest.py", LOWEST)):
        s = resolve(f"{_write(tmp_path, name, body)}:decide")
        ids, params = seat_arrays([s] * 4)
        log = play_logged_round(flatten(SIX, 4), ids, params, seed=5, round_index=2,
                                user=user_policy([s]))
        assert log["ok"]
        logs.append(log["log"])
    assert len(logs[0]) > 8 and np.array_equal(logs[0], logs[1])


def test_a_policy_that_allocates_is_never_taken_as_inlinable(tmp_path):
    """Numba's cache does not tell a function compiled with reference counting from one
    compiled without: once the allocating policy is cached, a later process's attempt without
    it loaded that code and called the policy inlinable, and its own build then never cached
    (the ``net:`` policy's was compiled again in every process). A marker keeps the verdict."""
    from simulator.kernel import policy_api
    spec = f"{_write(tmp_path, 'allocating.py', ALLOCATING)}:decide"
    first = user_policy([resolve(spec)])
    assert not policy_api.inlinable(first)
    policy_api._COMPILED.clear()   # as a new process: only the disk cache remembers
    again = user_policy([resolve(spec)])
    assert again is not first and not policy_api.inlinable(again)
    ids, params = seat_arrays([resolve(spec)] * 4)
    assert make_job(SIX, 4, ids, params, 1, user=again).build == "table"


def _cli_error(args):
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2, r.output
    return r.output


def _run_args(spec, tmp_path, extra=()):
    return ["run", "--preset", "six_card", "--strategy", spec, "--rounds", "2000", "--quiet",
            "--out", str(tmp_path / "out"), *extra]


def test_missing_file_and_missing_function(tmp_path):
    assert "does not exist" in _cli_error(_run_args(str(tmp_path / "nope.py:decide"), tmp_path))
    path = _write(tmp_path, "empty.py", "X = 1\n")
    assert "has no function 'decide'" in _cli_error(_run_args(f"{path}:decide", tmp_path))


def test_wrong_signature_and_not_compilable(tmp_path):
    path = _write(tmp_path, "short.py", "def decide(point, seat, held):\n    return 0\n")
    out = _cli_error(_run_args(f"{path}:decide", tmp_path))
    assert "takes 3 arguments" in out and "point, seat, held, public" in out
    path = _write(tmp_path, "bad.py", """
        def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules,
                   rng, params):
            return "draw"
    """)
    assert "returns Literal[str](draw), not an integer action" in \
        _cli_error(_run_args(f"{path}:decide", tmp_path))


def test_two_different_user_functions_are_refused(tmp_path):
    path = _write(tmp_path, "threshold.py", THRESHOLD)
    with pytest.raises(StrategyError, match="one user policy function"):
        user_policy([resolve(f"{path}:decide"), resolve(EXAMPLE)])


def test_illegal_action_stops_the_run_and_keeps_what_was_played(tmp_path):
    # knocking is not legal in six-card Golf: this policy knocks when a round opens with the
    # card id 0 on the discard pile (about one round in 52), and otherwise fills its grid
    path = _write(tmp_path, "knocker.py", """
        from simulator.game.codes import (A_DRAW_STOCK, A_KNOCK, DP_TURN, MAX_POS, N_ACTIONS,
                                          PUB_DISCARD_N, PUB_TURN)
        def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules,
                   rng, params):
            if point == DP_TURN:
                if public[PUB_TURN] == 0 and discard[public[PUB_DISCARD_N] - 1] == 0:
                    return A_KNOCK
                return A_DRAW_STOCK
            for p in range(MAX_POS):
                if legal[p] and not faceup[seat * MAX_POS + p]:
                    return p
            for a in range(N_ACTIONS):
                if legal[a]:
                    return a
            return -1
    """)
    out_dir = tmp_path / "out"
    # on the general engine: the user-policy kernel's report of it is tested in
    # test_user_kernel.py, and a build of its own would cost this test a compile
    out = _cli_error(_run_args(f"{path}:decide", tmp_path, ["--chunk-size", "1", "--threads",
                                                             "1", "--kernel", "general"]))
    assert "seat 0" in out and "knock" in out and "'turn'" in out
    df = pl.read_parquet(out_dir / "summary.parquet")
    assert 0 < df["rounds"][0] < 2000


@pytest.mark.parametrize("point", range(K.N_DECISION_POINTS))
def test_an_illegal_action_is_described_at_every_decision_point(point):
    """The message names the decision point for every DP_* (remove_cancelled's DP_REMOVE
    and rearrange's DP_ARRANGE included), never failing on a point without a name."""
    from simulator.kernel.engine import ERR_ILLEGAL_ACTION
    from simulator.experiments.runner import describe_error
    out = np.zeros(K.N_OUT_SLOTS, dtype=np.int64)
    out[K.OUT_ERROR] = ERR_ILLEGAL_ACTION
    out[K.OUT_ERR_SEAT] = 2
    out[K.OUT_ERR_POINT] = point
    out[K.OUT_ERR_ACTION] = K.A_KNOCK
    message = describe_error(out, 5)
    assert f"point '{K.DECISION_NAMES[point]}'" in message and "seat 2" in message
    assert len(set(K.DECISION_NAMES)) == K.N_DECISION_POINTS
    assert K.DECISION_NAMES[K.DP_REMOVE] == "remove" and K.DECISION_NAMES[K.DP_ARRANGE] == \
        "arrange"


@pytest.mark.slow   # a seating of four example seats compiles the policy's own kernel
def test_user_policy_in_a_tournament(tmp_path):
    out = tmp_path / "tour"
    r = CliRunner().invoke(cli, ["tournament", "--preset", "six_card", "--strategy", EXAMPLE,
                                 "--strategy", "random", "--rounds", "2000", "--quiet",
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    ranking = pl.read_parquet(out / "ranking.parquet")
    assert ranking["strategy"][0].endswith("greedy_policy.py:decide")


# ---- faults of a policy's own code (a round number, the policy's name, exit 2; never a
# silent action 0, a Numba traceback, or a process that ignores Ctrl-C) ---------------------
RAISING = """
    from simulator.game.codes import N_ACTIONS, PUB_TURN
    def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
               params):
        if public[PUB_TURN] > 40:
            raise ValueError("boom")
        for a in range(N_ACTIONS):
            if legal[a]:
                return a
        return 0
"""


def _raising_run(tmp_path, seats):
    path = _write(tmp_path, "raising.py", RAISING)
    spec = f"{path}:decide"
    strategies = [x for s in seats for x in ("--strategy", spec if s == "user" else s)]
    r = CliRunner().invoke(cli, ["run", "--preset", "six_card", "--rounds", "400", "--quiet",
                                 "--threads", "1", "--chunk-size", "10", "--out",
                                 str(tmp_path / "out"), *strategies])
    return spec, r


def _assert_reported(spec, r, tmp_path, exception):
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.splitlines() if ln.startswith("golfsim: error")]
    assert len(lines) == 1 and "Traceback" not in r.output, r.output
    line = lines[0]
    assert "raised an exception" in line and spec in line and "'turn'" in line, line
    assert line.endswith(f"raised an exception: {exception}"), line   # its own message
    round_no = int(line.split(": round ")[1].split(":")[0])
    df = pl.read_parquet(tmp_path / "out" / "summary.parquet")
    # the rounds before the failing one are kept (whole chunks of 10) and marked incomplete
    assert df["rounds"][0] == round_no - round_no % 10
    meta = pl.read_parquet_metadata(tmp_path / "out" / "summary.parquet")
    assert meta["complete"] == "false"


def test_a_policy_that_raises_stops_the_run_with_one_line(tmp_path):
    spec, r = _raising_run(tmp_path, ["user", "greedy", "greedy", "greedy"])
    _assert_reported(spec, r, tmp_path, "ValueError: boom")


# writes past the end of its memory once the round is under way: an IndexError under the
# guard's bounds checks, not a write into the engine's state or a segmentation fault
OUT_OF_RANGE = RAISING.replace('raise ValueError("boom")', "memory[memory.shape[0] + 7] = 1")


def test_a_policy_writing_out_of_range_stops_the_run_with_one_line(tmp_path):
    path = _write(tmp_path, "raising.py", OUT_OF_RANGE)
    spec = f"{path}:decide"
    r = CliRunner().invoke(cli, ["run", "--preset", "six_card", "--rounds", "400", "--quiet",
                                 "--threads", "1", "--chunk-size", "10", "--out",
                                 str(tmp_path / "out"), "--strategy", spec,
                                 *["--strategy", "greedy"] * 3])
    _assert_reported(spec, r, tmp_path, "IndexError: index is out of bounds")


@pytest.mark.slow   # every seat: the policy's own build of the flow, compiled for minutes
def test_a_policy_that_raises_in_its_own_build(tmp_path):
    spec, r = _raising_run(tmp_path, ["user"] * 4)
    _assert_reported(spec, r, tmp_path, "ValueError: boom")


# counts its calls in its memory and raises at the 8th: its fault is found again only from
# the inputs of that call (policy_faults), not from the memory it left behind
COUNTING = """
    from simulator.game.codes import N_ACTIONS
    def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
               params):
        memory[0] += 1
        if memory[0] == 8:
            raise ValueError("boom on its 8th call")
        for a in range(N_ACTIONS):
            if legal[a]:
                return a
        return 0
"""
# answers ANSWER at its turns once the round is under way
ANSWERING = """
    from simulator.game.codes import DP_TURN, N_ACTIONS, PUB_TURN
    def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
               params):
        if point == DP_TURN and public[PUB_TURN] > 3:
            return ANSWER
        for a in range(N_ACTIONS):
            if legal[a]:
                return a
        return 0
"""


def _fault_line(tmp_path, command, spec, seats=("user", "greedy")):
    """The error line of ``golfsim run`` or ``replay`` with ``spec`` for the user seats."""
    args = [command, "--preset", "six_card", "--players", str(len(seats))]
    for s in seats:
        args += ["--strategy", spec if s == "user" else s]
    if command == "run":
        args += ["--rounds", "20", "--threads", "1", "--quiet", "--out",
                 str(tmp_path / "out")]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("golfsim: error: policy error"), r.stderr
    return lines[0]


@pytest.mark.parametrize("command", ["run", "replay"])
def test_a_raising_policy_is_reported_with_its_exception(tmp_path, command):
    spec = _write(tmp_path, "counting.py", COUNTING) + ":decide"
    line = _fault_line(tmp_path, command, spec)
    assert "round 0: the policy of seat 0" in line, line
    assert line.endswith("raised an exception: ValueError: boom on its 8th call"), line


@pytest.mark.parametrize("answer", [2**32 + 16, -(2**40), 99])
def test_an_answer_out_of_range_is_reported_with_its_value(tmp_path, answer):
    """2**32 + 16 was reported as draw_stock (16), the engine keeping 32 bits of it."""
    spec = _write(tmp_path, "answering.py", ANSWERING.replace("ANSWER", str(answer)))
    spec += ":decide"
    for command in ("run", "replay"):
        line = _fault_line(tmp_path, command, spec)
        assert f"at decision point 'turn', returned {answer}, which is out of range: an " \
            f"action is 0 to {K.N_ACTIONS - 1}" in line, (command, line)


@pytest.mark.slow   # every seat: the policy's own build of the flow, compiled for minutes
def test_an_answer_out_of_range_in_its_own_build(tmp_path):
    spec = _write(tmp_path, "answering.py", ANSWERING.replace("ANSWER", str(2**32 + 16)))
    line = _fault_line(tmp_path, "run", spec + ":decide", ["user", "user"])
    assert f"returned {2**32 + 16}, which is out of range" in line, line


def test_a_policy_that_answers_a_float_is_refused_before_playing(tmp_path):
    path = _write(tmp_path, "floaty.py", """
        def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules,
                   rng, params):
            return point * 1.5
    """)
    out = _cli_error(_run_args(f"{path}:decide", tmp_path))
    assert "returns float64, not an integer action" in out
    assert len(out.strip().splitlines()) == 1 and not (tmp_path / "out").exists()


@pytest.mark.slow   # half a minute: the run is given time to compile and start
def test_ctrl_c_stops_a_policy_that_never_returns(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    path = _write(tmp_path, "looping.py", """
        def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules,
                   rng, params):
            while memory[0] >= 0:      # never false: the policy loops forever
                memory[1] += 1
            return 0
    """)
    from simulator.kernel.policy_api import compile_policy
    compile_policy(path, "decide")   # cached on disk: the run below loads it and plays at once
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "simulator.cli", "run", "--strategy",
                             f"{path}:decide", "--strategy", "greedy", "--players", "2",
                             "--rounds", "1000",
                             "--threads", "1", "--out", str(tmp_path / "out"), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=tmp_path)
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:   # compiled and playing?
        time.sleep(1)
        if (tmp_path / "out").exists():
            break
    time.sleep(20)    # the policy compiles in a few seconds, then loops at its first decision
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("Ctrl-C did not stop a run whose policy loops")
    assert proc.returncode == 130, out
    assert "interrupted" in out and "may never return" in out, out
