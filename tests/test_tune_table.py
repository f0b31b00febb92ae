"""`golfsim tune --symmetric` and `--best-response` (simulator/experiments/equilibrium.py):
every seat at the candidate value, the gain of one deviating seat, the best-response
iteration's path and its ends (fixed point, cycle, limit), and the note when a best value lies
at the edge of the grid (plain `tune` too)."""

from __future__ import annotations

import json
import re

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from cli_errors import assert_one_line_error
from simulator.cli import cli
from simulator.experiments import equilibrium as eq
from simulator.experiments import runner
from simulator.experiments import tune as tn
from simulator.game.rules import Rules
from strategies import resolve_seats, seat_arrays

FOUR = Rules.preset("four_card")


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_symmetric_plays_every_seat_at_the_candidate_value(tmp_path):
    out = tmp_path / "sym"
    res = invoke("tune", "--preset", "four_card", "--players", 4, "--strategy",
                 "knock-threshold", "--param", "T=2,6", "--symmetric", "--rounds", 8000,
                 "--seed", 3, "--threads", 2, "--quiet", "--out", out)
    assert res.exit_code == 0, res.output
    assert "symmetric tuning of knock-threshold" in res.output
    frame = pl.read_parquet(out / "symmetric.parquet")
    meta = pl.read_parquet_metadata(out / "symmetric.parquet")
    assert meta["mode"] == "symmetric"
    assert json.loads(meta["fields"]) == ["knock-threshold:T=2", "knock-threshold:T=6"]
    assert frame["param_T"].to_list() == [2.0, 6.0]
    for row in frame.iter_rows(named=True):
        spec = row["field"]
        # the field's own search: every other seat plays the value
        field_meta = pl.read_parquet_metadata(eq.field_folder(out, spec) / "tune.parquet")
        assert json.loads(field_meta["opponents"]) == [spec] * 3
        # the value's own row is the table where every seat plays it: shares split evenly ...
        assert row["table_win_share"] == 0.25
        # ... and its mean score is the table's, deal by deal
        ids, params = seat_arrays(resolve_seats([spec], 4))
        run = runner.run(FOUR, 4, ids, params, row["table_deals"], 3, per_round=True)
        assert row["table_mean_score"] == pytest.approx(run.per_round.scores.mean(), abs=1e-12)
        if row["best_response"] == spec:
            assert row["stable"] and row["gain"] == 0.0
    assert set(json.loads(meta["stable"])) <= {"knock-threshold:T=2", "knock-threshold:T=6"}


def test_the_gain_is_the_best_responses_paired_advantage():
    tp = eq.plan(FOUR, 4, "knock-threshold", ["T=2,8"], 8000, mode="symmetric")
    r = eq.Responder(tp, 5)(1)               # the other seats at T = 8
    res = r.result
    assert r.best == 0                       # against T = 8 knockers a low threshold wins
    o = res.search.obs
    n = o[1].shape[0]
    diff = o[0][:n, 0] - o[1][:, 0]          # T = 2 minus T = 8 on the deals T = 8 played
    assert r.gain == pytest.approx(diff.mean(), abs=1e-12) and r.gain > 0
    assert np.allclose(o[1][:, 0], 0.25)     # T = 8 among T = 8 wins exactly its share
    assert r.gain_lo < r.gain < r.gain_hi and not r.stable


def test_best_response_converges_and_records_its_path(tmp_path):
    out = tmp_path / "br"
    res = invoke("tune", "--preset", "four_card", "--players", 4, "--strategy",
                 "knock-threshold", "--param", "T=0,2,4,8", "--best-response", "--start", 8,
                 "--rounds", 16000, "--seed", 2, "--threads", 2, "--quiet", "--out", out)
    assert res.exit_code == 0, res.output
    frame = pl.read_parquet(out / "best_response.parquet")
    meta = pl.read_parquet_metadata(out / "best_response.parquet")
    path = json.loads(meta["path"])
    assert meta["outcome"] == "fixed" and path[0] == "knock-threshold:T=8"
    assert frame["field"].to_list() == path[:-1]
    assert frame["step"].to_list() == list(range(1, len(path)))
    for a, b in zip(frame.iter_rows(named=True), list(frame.iter_rows(named=True))[1:]):
        assert b["field"] == a["best_response"]         # each step plays the last response
    last = frame.row(-1, named=True)
    assert last["best_response"] == last["field"] == meta["fixed_point"] == path[-1]
    assert last["gain"] == 0.0 and last["stable"]
    assert meta["fixed_point"] in json.loads(meta["interval"])
    assert f"fixed point: T = {meta['fixed_point'].split('=')[1]}" in res.output
    assert "path: 8 -> " in res.output
    # the searches are kept per field: a rerun resumes them and ends identically
    again = invoke("tune", "--preset", "four_card", "--players", 4, "--strategy",
                   "knock-threshold", "--param", "T=0,2,4,8", "--best-response", "--start", 8,
                   "--rounds", 16000, "--seed", 2, "--threads", 1, "--quiet", "--out", out)
    assert again.exit_code == 0, again.output
    assert pl.read_parquet(out / "best_response.parquet").equals(frame)


class FakeResponder:
    """b(v) from a table, for the iteration's logic alone."""

    def __init__(self, table):
        self.table = table

    def __call__(self, tp, seed, **kw):
        table = self.table

        def respond(v):
            r = eq.Response.__new__(eq.Response)
            r.field, r.result = v, None
            r.__dict__["_best"] = table[v]
            return r
        respond.rounds, respond.builds = 0, []
        return respond


@pytest.mark.parametrize("table, start, outcome, fields, cycle", [
    ({0: 1, 1: 2, 2: 2}, 0, "fixed", [0, 1, 2], []),
    ({0: 1, 1: 2, 2: 1}, 0, "cycle", [0, 1, 2], [1, 2]),
    ({0: 1, 1: 2, 2: 3, 3: 4, 4: 0}, 0, "limit", [0, 1, 2], []),
])
def test_the_iteration_stops_at_a_fixed_point_a_cycle_or_the_limit(monkeypatch, table, start,
                                                                  outcome, fields, cycle):
    monkeypatch.setattr(eq, "Responder", FakeResponder(table))
    monkeypatch.setattr(eq.Response, "best", property(lambda r: r.__dict__["_best"]))
    tp = eq.TablePlan(FOUR, 4, "knock-threshold", [], [], "win_share", 1000, "best_response",
                      start=start, max_steps=3)
    res = eq.best_response(tp, 1)
    assert res.outcome == outcome
    assert [r.field for r in res.responses] == fields
    assert res.cycle == cycle


def test_the_start_is_the_strategys_default_or_the_nearest_value():
    tp = eq.plan(FOUR, 4, "knock-threshold", ["T=0..16:3"], 20000, mode="best_response")
    assert tp.grid[tp.start].values == (9.0,)       # default T = 8: 9 is nearest (6 is 2 off)
    tp = eq.plan(FOUR, 4, "knock-threshold", ["T=0..16:2"], 20000, mode="best_response",
                 start="4")
    assert tp.grid[tp.start].values == (4.0,)
    with pytest.raises(tn.TuneError, match="not a value of the grid"):
        eq.plan(FOUR, 4, "knock-threshold", ["T=0..16:2"], 20000, mode="best_response",
                start="5")


# ---- the edge of the grid ------------------------------------------------------------------------
def test_tune_says_when_the_best_is_at_the_edge(tmp_path):
    out = tmp_path / "edge"
    res = invoke("tune", "--preset", "four_card", "--players", 4, "--strategy",
                 "knock-threshold", "--param", "T=8..12:2", "--opponent", "knock-threshold:T=8",
                 "--rounds", 8000, "--seed", 1, "--threads", 2, "--quiet", "--out", out)
    assert res.exit_code == 0, res.output
    meta = pl.read_parquet_metadata(out / "tune.parquet")
    assert json.loads(meta["best"]) == {"T": 8.0}     # patience beats T = 8: the lowest wins
    assert json.loads(meta["at_edge"]) == ["T"]
    assert "note: the best T is at the edge of its grid (T = 8..12:2)" in res.output


def test_best_response_says_when_a_response_is_at_the_edge(tmp_path):
    tp = eq.plan(FOUR, 4, "knock-threshold", ["T=6,8"], 8000, mode="best_response",
                 start="8")
    result = eq.best_response(tp, 1)
    assert result.responses[0].best == 0     # T = 6 against T = 8
    notes = eq.edge_notes(result)
    assert any(n.startswith("note: T = 6, at the edge of the grid, is the best response to "
                            "T = ") and "8" in n for n in notes)
    text = eq.format_result(result, "four_card", 1)
    assert "widen --param T" in text or "beyond the grid" in text
    assert json.loads(eq.metadata(result, "four_card", "golfsim tune")["at_edge"]) == notes


@pytest.mark.parametrize("args, needle", [
    (["--symmetric", "--best-response"], "give one"),
    (["--symmetric", "--opponent", "greedy"], "leave --opponent out"),
    (["--start", "4", "--opponent", "greedy"], "belongs to --best-response"),
    (["--symmetric", "--start", "4"], "belongs to --best-response"),
    (["--best-response", "--start", "5"], "not a value of the grid"),
    (["--best-response", "--start", "4,4"], "2 value(s) for 1 tuned parameter"),
])
def test_table_search_errors_are_one_line(tmp_path, args, needle):
    full = ["tune", "--preset", "four_card", "--strategy", "knock-threshold", "--param",
            "T=0..8:2", "--rounds", 8000, "--out", tmp_path / "x", *args]
    assert_one_line_error(invoke(*full), full, [needle])


SYMMETRIC_ROW = re.compile(r"^\s*(?P<T>-?[\d.]+)\s+[\d.]+\s+[\d.]+\s+[\d,]+\s+\S+\s+[\d.]+%\s+"
                           r"[\d.]+%\s+(?P<gain>[-+][\d.]+)\s+(?P<hw>[\d.]+)\s+"
                           r"(?P<p>-|<0.001|[\d.]+)\s+(?P<mark>stable|a deviation gains)$")


def test_symmetric_marks_p_values_and_the_stable_range_come_from_one_test(tmp_path):
    """On these deals (seed 5) T = 5's best deviation gains more than its own 95% interval
    (p about 0.025 alone) but not under the Holm correction over the grid that decides
    "stable": the row shows that test's p and interval, and every claim agrees with it."""
    out = tmp_path / "sym"
    res = invoke("tune", "--preset", "four_card", "--players", 4, "--strategy",
                 "knock-threshold", "--param", "T=0..6", "--symmetric", "--rounds", 20_000,
                 "--seed", 5, "--threads", 2, "--quiet", "--out", out)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("T  table score"))
    assert "gain (pp)" in lines[head] and "p (Holm)" in lines[head]
    rows = [SYMMETRIC_ROW.match(line) for line in lines[head + 1:head + 8]]
    assert all(rows), lines[head + 1:head + 8]
    marks = {}
    for m in rows:
        stable = m["mark"] == "stable"
        marks[float(m["T"])] = stable
        assert (abs(float(m["gain"])) <= float(m["hw"])) == stable
        if m["p"] != "-":
            assert ((0.0 if m["p"] == "<0.001" else float(m["p"])) > 0.05) == stable
    stable_line = next(line for line in lines if line.startswith("stable"))
    listed = stable_line.split(": T = ")[1].split(";")[0]
    shown = {v for piece in listed.split(", ") for v in tn.parse_param(f"T={piece}").values}
    assert shown == {t for t, s in marks.items() if s}
    least = next(line for line in lines if line.startswith("least to gain"))
    assert least.endswith("(stable)") == marks[float(least.split(": T = ")[1].split(":")[0])]
    frame = pl.read_parquet(out / "symmetric.parquet")
    t5 = frame.filter(pl.col("param_T") == 5.0)
    assert t5["stable"][0] and t5["p_value"][0] < 0.05 < t5["p_holm"][0]
    for row in frame.iter_rows(named=True):
        assert row["stable"] == marks[row["param_T"]]
        assert row["stable"] == (row["gain_holm_lo95"] <= 0 <= row["gain_holm_hi95"])
        assert row["stable"] == (row["p_holm"] > 0.05)
