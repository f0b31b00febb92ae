"""``net:path.npz`` (docs/env.md#networks): a network decides on the compiled engine as it
does in the environments, for the same situations; its file is checked in one line; a new
network compiles nothing. Skipped where the rl extra is not installed."""

from __future__ import annotations


import numpy as np
import pytest
from rl_extra import HAVE_RL, needs_rl
from click.testing import CliRunner

from cli_errors import assert_one_line_error
from simulator import api
from simulator.cli import cli
from simulator.game import codes as K

import strategies
from strategies import StrategyError, net
from strategies.net_encode import VERSION, obs_size

if HAVE_RL:
    from simulator.env import golf_aec, golf_gym

SEED = 21
ROUNDS = 10


def random_layers(players: int, seed: int, hidden=(24, 16)) -> list:
    """A network of random weights whose choices vary with the observation: the logits lean
    on the decision, the cards known and the piles, not on one fixed action."""
    rng = np.random.default_rng(seed)
    sizes = [obs_size(players), *hidden, K.N_ACTIONS]
    return [(rng.normal(0, 1 / np.sqrt(a), (a, b)), rng.normal(0, 0.2, b))
            for a, b in zip(sizes, sizes[1:])]


@pytest.fixture
def net_file(tmp_path):
    def make(players=2, seed=0):
        path = tmp_path / f"net_{players}_{seed}.npz"
        net.save(path, random_layers(players, seed), players, "six_card")
        return str(path)
    return make


def numpy_decision(layers, observation, mask) -> int:
    """The format's decision, in plain numpy: ReLU hidden layers, the legal action with the
    largest logit, ties to the lowest index."""
    x = observation.astype(np.float32)
    for k, (w, b) in enumerate(layers):
        x = x @ np.asarray(w, np.float32) + np.asarray(b, np.float32)
        if k < len(layers) - 1:
            x = np.maximum(x, 0)
    logits = np.where(mask.astype(bool), x, -np.inf)
    return int(np.argmax(logits))


def play_aec(env, seats: dict, seed=None) -> list[int]:
    """One hole: seat k decides by ``seats[k]`` (a Net: from its env observation, or a
    reference strategy name); each seat's score."""
    env.reset(seed=seed)
    policies = {a: env.strategy_policy(a, s) for a, s in seats.items() if isinstance(s, str)}
    total = {a: 0.0 for a in env.agents}
    for agent in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        who = seats[agent]
        action = policies[agent].choose(env.decision) if isinstance(who, str) else \
            who.decide(obs["observation"], obs["action_mask"])
        env.step(action)
        for a, r in env.rewards.items():
            total[a] += r
    return [int(-total[f"player_{s}"]) for s in range(len(seats))]


@needs_rl
@pytest.mark.filterwarnings("ignore:.*rounds hit the turn cap")
@pytest.mark.parametrize("preset, players, others", [
    ("six_card", 2, ["greedy"]),
    # every seat a network: the policy's own build of the flow, compiled in each process
    pytest.param("six_card", 3, ["net", "net"], marks=pytest.mark.slow),
    ("four_card", 2, ["knock-threshold"]), ("nine_card", 2, ["net"])])
def test_a_network_plays_golfsims_rounds_as_in_the_env(net_file, preset, players, others):
    """golfsim run --per-round with net:FILE at seat 0 scores, round by round, what the AEC
    env scores when the network decides from the env's observation at that seat: the same
    decision at every one of its situations."""
    path = net_file(players, seed=players)
    specs = [f"net:{path}"] + [f"net:{path}" if o == "net" else o for o in others]
    run = api.run(preset, players=players, strategy=specs, rounds=ROUNDS, seed=SEED,
                  per_round=True, progress=False, threads=1)
    want = [list(r) for r in run.tables["rounds"].sort("round").select(
        [f"score_{s}" for s in range(players)]).rows()]
    player = net.load(path)
    seats = {f"player_{s}": player if spec.startswith("net:") else spec
             for s, spec in enumerate(specs)}
    env = golf_aec(preset, players=players)
    got = [play_aec(env, seats, SEED if k == 0 else None) for k in range(ROUNDS)]
    assert got == want


@needs_rl
@pytest.mark.parametrize("preset", ["six_card", "power_cabo"])
def test_recorded_situations_decide_as_the_format_says(net_file, preset):
    """On situations recorded from the env (observation and mask), the compiled decision
    (the one the engine's net strategy runs) is the format's: numpy's forward pass."""
    path = net_file(2, seed=5)
    player = net.load(path)
    layers = player.layers
    env = golf_aec(preset, players=2)
    rng = np.random.default_rng(3)
    checked = 0
    for hole in range(6):
        env.reset(seed=40 + hole)
        for agent in env.agent_iter():
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert player.decide(obs["observation"], mask) == \
                numpy_decision(layers, obs["observation"], mask)
            checked += 1
            env.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked > 50


@needs_rl
def test_a_network_opponent_in_golf_gym_plays_as_on_the_compiled_engine(net_file):
    """golf_gym(opponents="net:FILE"): with greedy in the learning seat, each episode scores
    golfsim's round with the network in the other seat."""
    path = net_file(2, seed=7)
    runs = {}
    for seat in range(2):
        specs = ["greedy", f"net:{path}"] if seat == 0 else [f"net:{path}", "greedy"]
        runs[seat] = api.run("six_card", players=2, strategy=specs, rounds=ROUNDS, seed=SEED,
                             per_round=True, progress=False, threads=1) \
            .tables["rounds"].sort("round").rows(named=True)
    env = golf_gym("six_card", players=2, opponents=f"net:{path}")
    for k in range(ROUNDS):
        _, info = env.reset(seed=SEED if k == 0 else None)
        policy = env.strategy_policy("greedy")
        terminated = False
        while not terminated:
            _, reward, terminated, _, _ = env.step(policy.choose(env.decision))
        assert reward == -runs[info["seat"]][k][f"score_{info['seat']}"]


@needs_rl
@pytest.mark.parametrize("opponents, message", [
    ("net:/nonexistent/x.npz", "opponents: net:/nonexistent/x.npz: network file "
                               "'/nonexistent/x.npz' does not exist"),
])
def test_an_opponent_the_env_cannot_play_is_refused_in_one_line(opponents, message):
    with pytest.raises(api.GolfsimError) as e:
        golf_gym("six_card", players=2, opponents=opponents)
    assert message in str(e.value) and "\n" not in str(e.value)


@needs_rl
def test_a_network_opponent_for_another_table_size_is_refused(net_file):
    with pytest.raises(api.GolfsimError, match="opponents: net:.*made for 3 players, not 2"):
        golf_gym("six_card", players=2, opponents=f"net:{net_file(3)}")


def test_a_new_network_compiles_nothing(net_file):
    """Two networks are the same compiled policy: only their parameter rows differ."""
    a, b = strategies.resolve(f"net:{net_file(2, 1)}"), strategies.resolve(f"net:{net_file(2, 2)}")
    assert a.user == b.user and a.params != b.params
    assert a.key == strategies.resolve(a.spec).key


@pytest.mark.parametrize("change, message", [
    ({"obs_version": VERSION + 1}, f"obs_version {VERSION + 1}; golfsim reads observation "
                                    f"version {VERSION}"),
    ({"W1": np.zeros((3, 32))}, "W1 must be (24, n)"),
    ({"W2": np.zeros((16, 7)), "b2": np.zeros(7)}, "the last layer has 7 outputs"),
    ({"players": 1}, "players 1 is not 2 to"),
])
def test_a_bad_network_file_is_refused_in_one_line(tmp_path, change, message):
    data = {f"{n}{k}": a for k, (w, b) in enumerate(random_layers(2, 0))
            for n, a in (("W", w), ("b", b))}
    data.update(obs_version=VERSION, players=2, preset="six_card")
    data.update(change)
    path = tmp_path / "bad.npz"
    np.savez(path, **data)
    with pytest.raises(StrategyError) as e:
        strategies.resolve(f"net:{path}")
    assert message in str(e.value) and "\n" not in str(e.value)
    assert str(path) in str(e.value)


def test_a_network_for_another_table_size_is_refused(net_file):
    with pytest.raises(api.GolfsimError, match="made for 3 players, not 2"):
        api.run("six_card", players=2, strategy=f"net:{net_file(3)}", rounds=2,
                progress=False, threads=1)


@pytest.mark.parametrize("command", ["tournament", "compare"])
def test_a_network_for_another_table_size_is_a_cli_error(net_file, command):
    path = net_file(2)
    args = [command, "--players", "3", "--rounds", "10", "--strategy", f"net:{path}",
            "--strategy", "greedy"]
    if command == "compare":
        args += ["--vary", "pair_scope=column,anywhere"]
    assert_one_line_error(CliRunner().invoke(cli, args), args,
                          [f"strategy net:{path}", "made for 2 players, not 3"])


def test_a_missing_network_file_is_a_cli_error(tmp_path):
    missing = tmp_path / "none.npz"
    args = ["run", "--players", "2", "--rounds", "2", "--strategy", f"net:{missing}"]
    assert_one_line_error(CliRunner().invoke(cli, args), args,
                          [f"strategy net:{missing}",
                           f"network file {str(missing)!r} does not exist"])
