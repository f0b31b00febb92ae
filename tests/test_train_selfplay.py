"""scripts/train_selfplay.py (docs/env.md#an-example-that-learns): its gradients are the
loss's, the decisions it records are the expert's in golfsim's rounds, and what it writes
plays as a net: strategy. The full run (minutes) is not part of the tests: docs/env.md
records its result. Skipped where the rl extra is not installed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from rl_extra import needs_rl

from simulator import api

ROOT = Path(__file__).resolve().parents[1]
pytestmark = needs_rl


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("train_selfplay",
                                                  ROOT / "scripts/train_selfplay.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gradients_are_the_losss(script):
    rng = np.random.default_rng(0)
    layers = script.init([7, 5, 4], rng)
    for w, b in layers:
        b += rng.normal(0, 0.1, b.shape).astype(np.float32)
    x = rng.normal(0, 1, (6, 7)).astype(np.float32)
    mask = rng.random((6, 4)) < 0.7
    mask[:, 1] = True
    action = np.array([1] * 6)
    _, grads = script.loss_and_grads(layers, x, mask, action)
    eps = 1e-3
    for k, (w, _) in enumerate(layers):
        for i, j in [(0, 0), (2, 3), (4, 1)]:
            w = layers[k][0]
            keep = w[i, j]
            w[i, j] = keep + eps
            up, _ = script.loss_and_grads(layers, x, mask, action)
            w[i, j] = keep - eps
            down, _ = script.loss_and_grads(layers, x, mask, action)
            w[i, j] = keep
            assert grads[k][0][i, j] == pytest.approx((up - down) / (2 * eps), abs=2e-3)


@pytest.mark.filterwarnings("ignore:.*rounds hit the turn cap")
def test_a_short_run_records_the_expert_and_writes_a_playable_network(script, tmp_path):
    x, mask, action = script.record("heuristic", 4, seed=3)
    assert len(x) == len(mask) == len(action) > 20
    assert all(mask[i, a] for i, a in enumerate(action))   # the expert's moves are legal
    out = tmp_path / "small.npz"
    script.main(["--out", str(out), "--rounds", "6", "--epochs", "1", "--hidden", "8"])
    run = api.run("six_card", players=2, strategy=[f"net:{out}", "greedy"], rounds=20,
                  progress=False, threads=1)
    assert run.tables["summary"].height == 2
