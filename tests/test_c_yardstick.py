"""benchmarks/c_yardstick.py measures the engine against the shared speed yardstick, C programs of
W1 and W2, kept outside the repository (where benchmarks/c_yardstick.py looks for them, or
$GOLFSIM_YARDSTICK); they must play the same workloads, or the comparison means nothing. Their
random streams are their own, so the agreement is statistical: every figure within 4 combined
standard errors, using the standard errors the programs print. Skipped without a C compiler or
without the yardstick folder."""

import importlib.util
import shutil
from pathlib import Path

import numpy as np
import pytest

from simulator.experiments.runner import run
from strategies import resolve_seats, seat_arrays
from test_w1_statistics import REFERENCE


def _load():
    spec = importlib.util.spec_from_file_location(
        "c_yardstick", Path(__file__).resolve().parents[1] / "benchmarks" / "c_yardstick.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


yardstick = _load()
FOLDER = yardstick.yardstick_dir()
CC = yardstick.default_cc()
_ABSENT = yardstick.missing(FOLDER)

pytestmark = [
    pytest.mark.bench,
    pytest.mark.skipif(shutil.which(CC) is None, reason="no C compiler to build the yardstick"),
    pytest.mark.skipif(_ABSENT is not None, reason=f"yardstick: {_ABSENT}"),
]
ROUNDS = 300_000
Z = 4.0


def z_scores(a, se_a, b, se_b):
    a, se_a, b, se_b = (np.atleast_1d(np.asarray(x, dtype=float)) for x in (a, se_a, b, se_b))
    return (a - b) / np.sqrt(se_a ** 2 + se_b ** 2)


def test_the_w1_program_agrees_with_the_independent_reference(tmp_path):
    c = yardstick.run_c(yardstick.build(CC, tmp_path, "w1", FOLDER), ROUNDS, 5)
    assert c["rounds"] == ROUNDS and c["capped"] == 0
    for figure, se in (("mean_score", "se_score"), ("mean_turns", "se_turns"),
                       ("win_share", "se_win")):
        ref_mean, ref_se = REFERENCE[figure]
        z = z_scores(c[figure], c[se], ref_mean, ref_se)
        assert np.all(np.abs(z) < Z), (figure, c[figure], ref_mean, z)


def test_the_w2_program_agrees_with_the_engine(tmp_path):
    c = yardstick.run_c(yardstick.build(CC, tmp_path, "w2", FOLDER), ROUNDS, 5)
    assert c["rounds"] == ROUNDS and c["capped"] == 0 and c["T"] == 8
    rules, strategy = yardstick.workload("w2")
    ids, params = seat_arrays(resolve_seats([strategy], 4))
    t = run(rules, 4, ids, params, rounds=ROUNDS, seed=11, threads=2).totals
    # every W2 round ends with a knock, on both sides
    assert c["knock_share"] == 1.0 and t.knocks == ROUNDS and t.capped == 0
    for figure, se, ours, ours_se in (
            ("mean_score", "se_score", t.mean_score(), t.se_score()),
            ("win_share", "se_win", t.win_share(), t.se_win()),
            ("mean_turns", "se_turns", t.mean_turns(), t.se_turns()),
            ("knocker_win_share", "se_knocker_win_share", t.knocker_win_share(),
             t.se_knocker_win_share())):
        z = z_scores(c[figure], c[se], ours, ours_se)
        assert np.all(np.abs(z) < Z), (figure, c[figure], ours, z)
