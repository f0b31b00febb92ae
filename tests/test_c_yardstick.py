"""benchmarks/c_yardstick.py measures the engine against C programs of W1 and W2; they must
play the same workloads, or the comparison means nothing. The bench tier (-m bench); skipped
without a C compiler or without the C sources."""

import importlib.util
import shutil
from pathlib import Path

import numpy as np
import pytest

from simulator.runner import run
from strategies import resolve_seats, seat_arrays
from test_w1_statistics import REFERENCE

CALIBRATION = Path(__file__).resolve().parents[1] / "benchmarks" / "calibration"
_missing = [f.name for f in (CALIBRATION / "w1.c", CALIBRATION / "w2.c") if not f.exists()]
pytestmark = [
    pytest.mark.bench,
    pytest.mark.skipif(shutil.which("cc") is None,
                       reason="no C compiler (cc on PATH) to build the yardsticks"),
    pytest.mark.skipif(bool(_missing), reason=f"the C sources of the yardsticks are missing: "
                       f"{', '.join(_missing)} in {CALIBRATION}"),
]
ROUNDS = 300_000


@pytest.fixture(scope="module")
def yardstick():
    spec = importlib.util.spec_from_file_location(
        "c_yardstick", Path(__file__).resolve().parents[1] / "benchmarks" / "c_yardstick.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_w1_program_agrees_with_the_independent_reference(yardstick, tmp_path):
    c = yardstick.run_c(yardstick.build("cc", tmp_path, "w1"), ROUNDS, 5)
    assert c["rounds"] == ROUNDS and c["capped"] == 0
    # the reference's standard errors are for 8,000,000 rounds; the program's are larger
    scale = np.sqrt(8_000_000 / ROUNDS)
    for figure in REFERENCE:
        ref_mean, ref_se = (np.array(x) for x in REFERENCE[figure])
        z = (np.atleast_1d(c[figure]) - ref_mean) / (ref_se * np.sqrt(1 + scale ** 2))
        assert np.all(np.abs(z) < 4.5), (figure, c[figure], ref_mean, z)


def test_the_w2_program_agrees_with_the_engine(yardstick, tmp_path):
    c = yardstick.run_c(yardstick.build("cc", tmp_path, "w2"), ROUNDS, 5)
    assert c["rounds"] == ROUNDS and c["capped"] == 0 and c["knock_share"] == 1.0
    rules, strategy = yardstick.workload("w2")
    ids, params = seat_arrays(resolve_seats([strategy], 4))
    t = run(rules, 4, ids, params, rounds=ROUNDS, seed=11, threads=2).totals
    # same rounds on both sides: the C program's standard errors are about the engine's
    for figure, ours, se in (("mean_score", t.mean_score(), t.se_score()),
                             ("win_share", t.win_share(), t.se_win()),
                             ("mean_turns", t.mean_turns(), t.se_turns()),
                             ("knocker_win_share", t.knocker_win_share(),
                              t.se_knocker_win_share())):
        z = (np.atleast_1d(c[figure]) - np.atleast_1d(ours)) / (np.sqrt(2) * np.atleast_1d(se))
        assert np.all(np.abs(z) < 4.5), (figure, c[figure], ours, z)
