"""simulator.env (docs/env.md): golf_aec passes PettingZoo's API and seed tests and golf_gym
Gymnasium's env checker; played with greedy's decisions in every seat the AEC env scores
golfsim run --per-round's rounds; the observation holds what its seat knows and nothing
more; without the rl extra nothing imports pettingzoo, gymnasium or greenlet. Skipped where
the rl extra (golfsim[rl]) is not installed, except the import checks."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import warnings
import weakref
from pathlib import Path

import numpy as np
import pytest
from rl_extra import HAVE_RL, RL, needs_rl

from simulator import api
from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game import reference as R
from strategies.reference import referee
from simulator.game.rules import Rules

if HAVE_RL:
    import greenlet
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test

    from simulator.env import golf_aec, golf_gym
    from simulator.env.observation import CARD, CELL, CELL_FLAGS, VERSION, fields

ROOT = Path(__file__).resolve().parents[1]
API_PRESETS = ("six_card", "four_card", "nine_card", "power_cabo", "power_cactus")
SEED = 11
ROUNDS = 12


def quiet(fn, *args, **kw):
    """PettingZoo's and Gymnasium's checks warn about style (a dict observation, a Box that
    is not an image); the checks that matter raise."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def seat_of(agent: str) -> int:
    return int(agent.rpartition("_")[2])


def play_aec(env, strategy: str = "greedy", seed: int | None = None) -> dict[str, float]:
    """One episode with ``strategy``'s decision at every seat (through env.strategy_policy
    and env.decision): each agent's summed rewards."""
    env.reset(seed=seed)
    total = {a: 0.0 for a in env.agents}
    policies = {}
    hole = None
    for agent in env.agent_iter():
        if env.terminations[agent]:
            env.step(None)
            continue
        if env.unwrapped.table.game.hole is not hole:   # a new hole of a match: new policies
            hole = env.unwrapped.table.game.hole
            policies = {a: env.strategy_policy(a, strategy) for a in env.possible_agents}
        env.step(policies[agent].choose(env.decision))
        for a, r in env.rewards.items():
            total[a] += r
    return total


def random_steps(env, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(n):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)
                                                ["action_mask"]))))


# ---- the two APIs ---------------------------------------------------------------------------
@needs_rl
@pytest.mark.parametrize("preset", API_PRESETS)
def test_pettingzoo_api_and_seed_tests(preset):
    quiet(api_test, golf_aec(preset, players=4), num_cycles=1000)
    quiet(seed_test, lambda: golf_aec(preset, players=4), num_cycles=1000)


@needs_rl
@pytest.mark.parametrize("preset", ("six_card", "power_cabo"))
def test_gymnasium_env_checker(preset):
    quiet(check_env, golf_gym(preset, players=4, opponents=["greedy"]), skip_render_check=False)


# ---- the same game as golfsim ---------------------------------------------------------------
@needs_rl
@pytest.mark.filterwarnings("ignore:100.0% of rounds hit the turn cap")  # greedy, four_card
@pytest.mark.parametrize("preset, strategy", [
    ("six_card", "greedy"), ("four_card", "greedy"), ("four_card", "knock-threshold:T=6"),
    ("nine_card", "greedy"), pytest.param("power_cabo", "greedy", marks=pytest.mark.slow)])
def test_strategy_in_every_seat_scores_golfsims_rounds(preset, strategy):
    """reset(seed=s), then reset() again and again: golfsim's rounds 0, 1, ... of seed s,
    each seat deciding as golfsim's ``strategy`` (greedy never knocks: its four_card holes
    run to the turn cap, knock-threshold's end by a knock)."""
    run = api.run(preset, players=4, strategy=strategy, rounds=ROUNDS, seed=SEED,
                  per_round=True, progress=False, threads=1)
    want = run.tables["rounds"].sort("round").select(
        [f"score_{s}" for s in range(4)]).rows()
    env = golf_aec(preset, players=4)
    got = []
    for k in range(ROUNDS):
        total = play_aec(env, strategy, seed=SEED if k == 0 else None)
        got.append(tuple(int(-total[f"player_{s}"]) for s in range(4)))
    assert got == want


@needs_rl
def test_gym_learning_seat_rotates_with_the_seed_and_plays_golfsims_round():
    run = api.run("six_card", players=4, strategy="greedy", rounds=6, seed=SEED,
                  per_round=True, progress=False, threads=1)
    want = run.tables["rounds"].sort("round").rows(named=True)
    env = golf_gym("six_card", players=4, opponents="greedy")
    for k in range(6):
        _, info = env.reset(seed=SEED if k == 0 else None)
        seat = (SEED + k) % 4
        assert info["seat"] == seat and env.seat == seat
        policy = env.strategy_policy("greedy")
        terminated = False
        while not terminated:
            assert env.action_masks()[policy.choose(env.decision)]
            _, reward, terminated, truncated, _ = env.step(policy.choose(env.decision))
            assert not truncated
        assert reward == -want[k][f"score_{seat}"]
        assert not env.action_masks().any()


@needs_rl
def test_reset_deals_golfsims_cards():
    env = golf_aec("nine_card", players=3)
    env.reset(seed=5)
    hole = referee.make_hole(Rules.preset("nine_card"), 3, ["random"], 5, 0)
    hole.state.deal()
    assert [[c.card for c in row] for row in env.unwrapped.table.game.hole.state.layouts] == \
        [[c.card for c in row] for row in hole.state.layouts]
    assert env.unwrapped.table.game.hole.state.discard[:1] == hole.state.discard


@needs_rl
@pytest.mark.parametrize("reward", ["score", "win"])
def test_match_rewards_are_the_reference_match(reward):
    """A match of three holes: reward="score" pays minus each hole's score (adding up to
    minus the match total), reward="win" the match's win share at its end."""
    rules = Rules.preset("six_card")

    def hole(order, round_index):
        r = referee.make_hole(rules, 4, ["greedy"], 3, round_index).play()
        return {"scores": r.scores, "layout_values": r.layout_values, "ender": r.ender,
                "knocked": r.knocked, "layouts": r.layouts}

    match = R.play_match(rules, 4, 3, 0, 3, 0, hole)
    total = play_aec(golf_aec("six_card", players=4, holes=3, reward=reward), seed=3)
    got = [total[f"player_{s}"] for s in range(4)]
    want = [-t for t in match.totals] if reward == "score" else [float(w) for w in match.wins]
    assert got == want


@needs_rl
def test_hole_win_share_reward():
    env = golf_aec("six_card", players=4, reward="win")
    total = play_aec(env, seed=2)
    scores = referee.play_round(Rules.preset("six_card"), 4, ["greedy"], 2, 0).scores
    low = min(scores)
    assert [total[f"player_{s}"] for s in range(4)] == \
        [1 / scores.count(low) if v == low else 0.0 for v in scores]


# ---- the observation ------------------------------------------------------------------------
def cell_block(env, agent: str) -> np.ndarray:
    """[relative seat, position, CELL] of the agent's observation."""
    enc = env.unwrapped.encoder
    at = enc.offset["positions"]
    vec = env.observe(agent)["observation"]
    return vec[at:at + enc.players * K.MAX_POS * CELL].reshape(enc.players, K.MAX_POS, CELL)


@needs_rl
@pytest.mark.parametrize("preset", ["six_card", "power_cabo"])
def test_observation_shows_the_seats_own_cards_as_it_knows_them(preset):
    env = golf_aec(preset, players=4)
    env.reset(seed=4)
    known = CELL_FLAGS.index("known")
    for step in range(40):
        agent = env.agent_selection
        obs = env.decision
        block = cell_block(env, agent)
        for p, card in enumerate(obs.own):
            if card is None or card >= K.EMPTY0:
                assert block[0, p, known] == 0 and not block[0, p, known:].any()
            else:
                assert block[0, p, known] == 1
                card_at = len(CELL_FLAGS)
                assert np.argmax(block[0, p, card_at:card_at + C.N_RANKS]) == C.rank_of(card)
        random_steps(env, 1, step)
        if env.terminations[env.agent_selection]:
            break


@needs_rl
@pytest.mark.parametrize("preset", ["nine_card", "power_malaysia"])
def test_observation_hides_what_the_seat_does_not_know(preset):
    """Two hidden cards swapped leave a seat's vector as it was; a card it knows swapped
    with one it does not changes it."""
    env = golf_aec(preset, players=3)
    env.reset(seed=9)
    random_steps(env, 25, 1)
    game = env.unwrapped.table.game
    st = game.hole.state
    agent = env.agent_selection
    me = game.position[seat_of(agent)]
    cells = [(i * K.MAX_POS + p, c) for i, row in enumerate(st.layouts)
             for p, c in enumerate(row) if c.card < K.EMPTY0]
    hidden = [(at, c) for at, c in cells if me not in c.known_to]

    def swap(x, y):   # as the state's own moves do: the cells changed are recorded
        x[1].card, y[1].card = y[1].card, x[1].card
        st.touched += (x[0], y[0])
    a, b = next((x, y) for x in hidden for y in hidden
                if C.rank_of(x[1].card) != C.rank_of(y[1].card))
    before = env.observe(agent)["observation"]
    swap(a, b)
    assert np.array_equal(env.observe(agent)["observation"], before)
    seen = next(c for c in cells
                if me in c[1].known_to and C.rank_of(c[1].card) != C.rank_of(a[1].card))
    swap(seen, a)
    assert not np.array_equal(env.observe(agent)["observation"], before)


@needs_rl
def test_observation_fields_are_documented_in_order():
    page = (ROOT / "docs/env.md").read_text()
    text = page[page.index("## Observation"):page.index("## Rewards")]
    names = [name for name, _ in fields(4)]
    places = [text.find(f"| `{name}` |") for name in names]
    assert -1 not in places, [n for n, p in zip(names, places) if p == -1]
    assert places == sorted(places)
    assert f"version {VERSION}" in text
    assert golf_aec("six_card", players=4).observation_space("player_0")["observation"] \
        .shape == (sum(n for _, n in fields(4)),)
    assert CARD == C.N_RANKS + 4 + 1


# ---- errors, rendering ---------------------------------------------------------------------
@needs_rl
def test_an_illegal_action():
    env = golf_aec("six_card", players=4)
    env.reset(seed=1)
    with pytest.raises(api.GolfsimError, match=r"^action: 19 \(discard\) is not legal for "
                       r"player_0 at reveal; legal: 0 \(pos0\),") as e:
        env.step(K.A_DISCARD)
    assert "\n" not in str(e.value)
    gym = golf_gym("six_card", players=4, illegal_reward=-7)
    gym.reset(seed=1)
    _, reward, terminated, truncated, info = gym.step(K.A_DISCARD)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-7, True, False,
                                                                       K.A_DISCARD)
    with pytest.raises(api.GolfsimError, match="^step: the episode is over; call reset"):
        gym.step(0)


@needs_rl
@pytest.mark.parametrize("make, kwargs, message", [
    ("aec", {"preset": "no_such"}, "unknown preset"),
    ("aec", {"players": 1}, r"^players 1: this rule set is for 2 to"),
    ("aec", {"reward": "money"}, r"^reward: 'money' is not one of 'score', 'win'$"),
    ("aec", {"holes": 3, "target": 50}, r"^holes=3 and target=50: a match ends by one"),
    ("aec", {"holes": 0}, r"^Invalid value for 'holes': 0 is not allowed"),
    ("aec", {"render_mode": "human"}, r"^render_mode: 'human' is not one of 'ansi'"),
    ("aec", {"pair_scope": "sideways"}, "pair_scope"),
    ("gym", {"preset": "eight_card_whitnack", "opponents": "lookahead"},
     r"^opponents: 'lookahead': strategy lookahead: its rollouts run on the lean kernel, "
     r"which does not play these rules \(it lacks "),
    ("gym", {"opponents": "my_policy.py:decide"}, r"^opponents: policy file 'my_policy.py' "
     "does not exist"),
    ("gym", {"opponents": "greedyy"}, r"^opponents: unknown strategy 'greedyy'"),
    ("gym", {"opponents": ["greedy", "random"]}, r"^opponents: 2 strategies for 3 other seats"),
    ("gym", {"illegal_reward": "lots"}, r"^illegal_reward: 'lots' is not a finite number$"),
])
def test_bad_arguments_are_refused_in_one_line(make, kwargs, message):
    fn = golf_aec if make == "aec" else golf_gym
    with pytest.raises(api.GolfsimError, match=message) as e:
        fn(**kwargs)
    assert "\n" not in str(e.value)


@needs_rl
def test_a_bad_seed_is_refused():
    env = golf_aec("six_card")
    with pytest.raises(api.GolfsimError, match=r"^seed: -1 is not allowed; expected a whole "
                       "number from 0 to"):
        env.reset(seed=-1)


@needs_rl
def test_render_ansi_prints_the_table():
    env = golf_aec("six_card", players=2, render_mode="ansi")
    env.reset(seed=1)
    random_steps(env, 6, 0)
    text = env.render()
    lines = text.splitlines()
    assert lines[0].startswith("seed 1, hole 0: turn")
    assert lines[1].startswith("player_0: ") and lines[2].startswith("player_1: ")
    assert "<- to decide" in text and f"{env.agent_selection} decides " in text
    up = [c for row in env.unwrapped.table.game.hole.state.layouts for c in row
          if c.face_up]
    assert up and all(C.card_name(c.card) in text for c in up)
    assert golf_aec("six_card").render() is None


# ---- the rl extra stays optional ------------------------------------------------------------
def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_golfsim_does_not_import_the_rl_packages():
    got = _python("import sys, simulator, simulator.env; from simulator import api; "
                  "from simulator.cli import main; "
                  "api.run(rounds=100, threads=1, progress=False); "
                  f"print(sorted(m for m in sys.modules if m.split('.')[0] in {RL!r}))")
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip().splitlines()[-1] == "[]"


def test_without_the_rl_extra_an_env_is_refused_in_one_line():
    got = _python("import sys; sys.modules['pettingzoo'] = None\n"
                  "from simulator.env import golf_aec\n"
                  "from simulator.api import GolfsimError\n"
                  "try:\n    golf_aec('six_card')\nexcept GolfsimError as e:\n    print(e)")
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip() == ("the environments need the rl extra (pettingzoo is not "
                                  "installed): pip install 'golfsim[rl]'")


@needs_rl
def test_golf_gym_needs_no_pettingzoo():
    got = _python("import sys; sys.modules['pettingzoo'] = None\n"
                  "from simulator.env import golf_gym\n"
                  "env = golf_gym('six_card'); env.reset(seed=1)\n"
                  "print(env.seat, 'pettingzoo' in sys.modules and sys.modules['pettingzoo'])")
    assert got.returncode == 0, got.stderr
    assert got.stdout.split() == ["1", "None"]


@needs_rl
def test_the_pages_python_examples_run():
    page = (ROOT / "docs/env.md").read_text()
    blocks = page.split("```python\n")[1:]
    codes = [b.split("```")[0] for b in blocks]
    runnable = [c for c in codes if "for agent in" in c or "gym.step" in c]
    assert len(runnable) == 2
    namespace = {}   # in the page's order: the later example uses the first's import
    for code in runnable:
        exec(compile(code, "docs/env.md", "exec"), namespace)


@needs_rl
def test_an_env_dropped_in_the_middle_of_a_hole_frees_its_game():
    """The hole of an env reset or dropped mid-hole is suspended in its greenlet: it must be
    freed with the env, not kept alive by a reference cycle."""
    games = []
    for k in range(20):
        env = golf_aec("six_card", players=4)
        env.reset(seed=k)
        random_steps(env, 5, k)
        games.append(weakref.ref(env.unwrapped.table.game))
        env.reset()
        random_steps(env, 3, k)
        games.append(weakref.ref(env.unwrapped.table.game))
        del env
    gc.collect()
    assert [g for g in games if g() is not None] == []
    # (by type: isinstance would follow a weak proxy another test left dead, and raise)
    assert sum(issubclass(type(o), greenlet.greenlet) for o in gc.get_objects()) <= 1
