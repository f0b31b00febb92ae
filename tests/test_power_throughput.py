"""benchmarks/power_throughput.py measures what it says: the power game and W1 side by side on
the powers build (which plays W1 exactly as the general engine does), W1 on the lean kernel
for scale. The bench tier (-m bench); small slices, so no speed is asserted."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from simulator.experiments.runner import run
from simulator.game.rules import Rules
from strategies import resolve_seats, seat_arrays

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.bench


def test_the_powers_build_plays_w1_as_the_general_engine():
    ids, params = seat_arrays(resolve_seats(["greedy"], 4))
    a = run(Rules.preset("six_card"), 4, ids, params, rounds=2000, seed=3, kernel="general")
    b = run(Rules.preset("six_card"), 4, ids, params, rounds=2000, seed=3, kernel="powers")
    assert np.array_equal(a.totals.acc, b.totals.acc)
    assert np.array_equal(a.totals.tot, b.totals.tot)


def test_power_throughput_reports_both_rates_and_their_ratio():
    spec = importlib.util.spec_from_file_location(
        "power_throughput", ROOT / "benchmarks" / "power_throughput.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = mod.main(["--rounds", "2000", "--repeats", "1"])
    assert out["w1_powers_build_mean_turns"] == out["w1_lean_mean_turns"]   # the same rounds
    assert out["power_mean_turns"] != out["w1_lean_mean_turns"]
    assert out["ratio_same_build"] == pytest.approx(
        out["power_rounds_per_s"] / out["w1_powers_build_rounds_per_s"], rel=0.01)
    assert out["power_auto_mean_turns"] == out["power_mean_turns"]   # (the same rounds)
    low, high = out["ratio_auto_to_w1_lean_range"]
    assert low <= out["ratio_auto_to_w1_lean"] <= high
