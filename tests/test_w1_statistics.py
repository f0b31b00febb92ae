"""W1 (docs/benchmarks.md#w1) agrees statistically with an independent implementation of the same
workload. The reference figures come from 8,000,000 rounds of that implementation; the
tolerance is 4.5 combined standard errors per figure (about one false alarm in 150,000)."""

import numpy as np
import pytest

from simulator.game.rules import Rules
from simulator.experiments.runner import run
from strategies import resolve_seats, seat_arrays

# independent implementation of W1, 8,000,000 rounds: (means, standard errors)
REFERENCE = {
    "mean_score": ([8.492422, 9.129416, 9.781306, 10.325144],
                   [0.002555, 0.002701, 0.002816, 0.002878]),
    "mean_turns": ([26.095665], [0.002027]),
    "win_share": ([0.287717, 0.262742, 0.236662, 0.21288],
                  [0.000155, 0.000151, 0.000146, 0.00014]),
}


@pytest.fixture(scope="module")
def w1():
    ids, params = seat_arrays(resolve_seats(["greedy"], 4))
    return run(Rules.preset("six_card"), 4, ids, params, rounds=300_000, seed=2024, threads=2)


@pytest.mark.parametrize("figure", list(REFERENCE))
def test_w1_matches_independent_implementation(w1, figure):
    t = w1.totals
    ours = {"mean_score": (t.mean_score(), t.se_score()),
            "mean_turns": (np.array([t.mean_turns()]), np.array([t.se_turns()])),
            "win_share": (t.win_share(), t.se_win())}[figure]
    ref_mean, ref_se = (np.array(x) for x in REFERENCE[figure])
    z = (ours[0] - ref_mean) / np.sqrt(ours[1] ** 2 + ref_se ** 2)
    assert np.all(np.abs(z) < 4.5), (figure, ours[0], ref_mean, z)


def test_w1_is_never_capped_and_seat_order_matters(w1):
    t = w1.totals
    assert t.capped == 0
    # the first player's advantage is the largest effect in W1: far beyond noise
    assert t.win_share()[0] - t.win_share()[3] > 20 * t.se_win()[0]
