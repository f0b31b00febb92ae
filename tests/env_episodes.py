"""An episode of golf_gym against golfsim's own rounds: the check that an env's opponents
decide as they do in ``golfsim run`` (tests/test_env_opponents.py, test_env_user_opponents.py)."""

from __future__ import annotations

from simulator import api

SEED = 21
ROUNDS = 10


def greedy_episode(env) -> float:
    """The episode just reset played to its end with greedy deciding for the learning seat;
    its last reward."""
    policy = env.strategy_policy("greedy")
    terminated = False
    while not terminated:
        _, reward, terminated, _, _ = env.step(policy.choose(env.decision))
    return reward


def golfsim_scores(preset, players, learner, opponents, options=None) -> list[list[int]]:
    """golfsim run --per-round (``options``: rule options on top of the preset, as --set
    gives them): greedy at seat ``learner``, ``opponents[k]`` at the k-th seat after it;
    [round][seat] scores."""
    others = opponents * (players - 1) if len(opponents) == 1 else opponents
    specs = [None] * players
    specs[learner] = "greedy"
    for k, spec in enumerate(others):
        specs[(learner + 1 + k) % players] = spec
    given = [f"{k}={v}" for k, v in (options or {}).items()] or None
    run = api.run(preset, set=given, players=players, strategy=specs, rounds=ROUNDS, seed=SEED,
                  per_round=True, progress=False, threads=1)
    return [list(r) for r in run.tables["rounds"].sort("round").select(
        [f"score_{s}" for s in range(players)]).rows()]


def assert_episodes_are_golfsims_rounds(env, preset, players, opponents,
                                        options=None) -> None:
    """With greedy deciding for the learning seat, hole k of the seed scores, seat by seat,
    what golfsim's round k scores with the same seats (the env made with rule ``options``
    on top of the preset, golfsim run given them), and the reward is minus the learning
    seat's score."""
    want = {}
    for k in range(ROUNDS):
        _, info = env.reset(seed=SEED if k == 0 else None)
        seat = info["seat"]
        if seat not in want:
            want[seat] = golfsim_scores(preset, players, seat, opponents, options)
        reward = greedy_episode(env)
        order, record = env.table.game.holes[-1]
        got = [0] * players
        for i, s in enumerate(order):
            got[s] = record.scores[i]
        assert got == want[seat][k], f"hole {k}, learning seat {seat}"
        assert reward == -want[seat][k][seat]
