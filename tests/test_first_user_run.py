"""The first run of a user policy in every seat does not wait for the policy's own build of
the game flow (minutes of compiling): it plays on the general engine through the policy's
pointer (the table build of the common rule sets), the same rounds, while a background
process compiles the build for later runs."""

from __future__ import annotations

import textwrap

import numpy as np

from simulator.experiments.runner import make_job, run
from simulator.game.rules import Rules
from simulator.experiments import behind
from strategies import resolve_seats, seat_arrays, user_policy

SIX = Rules.preset("six_card")
LOWEST = """
    from simulator.kernel.policy_tools import lowest_legal

    def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
               params):
        return lowest_legal(legal)
    # a version of its own: {tag}
"""


def test_the_first_run_plays_while_the_build_compiles_behind(tmp_path, monkeypatch):
    monkeypatch.delenv(behind.WAIT_VARIABLE, raising=False)
    path = tmp_path / "fresh_policy.py"
    path.write_text(textwrap.dedent(LOWEST.format(tag=tmp_path)))
    seats = resolve_seats([f"{path}:decide"], 4)
    user = user_policy(seats)
    ids, params = seat_arrays(seats)
    told = []
    job = make_job(SIX, 4, ids, params, 1, user=user, notify=told.append)
    spec = f"{path.resolve()}:decide"
    process = behind.started(spec)
    try:
        assert job.build == "table" and job.user_chunk is None
        assert process is not None and any("background" in m for m in told), told
        first = run(SIX, 4, ids, params, rounds=400, seed=2, user=user, per_round=True)
        engine = run(SIX, 4, ids, params, rounds=400, seed=2, user=user, per_round=True,
                     kernel="general")
        assert first.complete and first.build == "table" and engine.build == "general"
        assert np.array_equal(first.per_round.scores, engine.per_round.scores)
        # one background compile per policy version, however many runs start meanwhile
        assert behind.started(spec) is process
    finally:
        if process is not None:
            process.kill()
            process.wait()
