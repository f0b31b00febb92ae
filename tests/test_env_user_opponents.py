"""golf_gym's opponents played by user policies (``file.py:function[:k=v,...]``,
simulator/env/compiled_seat.py UserSeat): in the plain rule sets each makes the decisions it
makes in ``golfsim run`` with the same seed, so an episode's hole is golfsim's round (the
power-card games: tests/test_env_power_opponents.py); two user functions at one table are
refused in one line. Skipped where the rl extra is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from env_episodes import assert_episodes_are_golfsims_rounds, greedy_episode
from rl_extra import HAVE_RL, needs_rl

from simulator import api

pytestmark = needs_rl
if HAVE_RL:
    from simulator.env import golf_gym

ROOT = Path(__file__).resolve().parents[1]
RULE_BOT = "strategies/examples/rule_bot.py:decide"
GREEDY_POLICY = "strategies/examples/greedy_policy.py:decide"
# reads every view (public slots, its known row, the face-up flags, the pile, its memory)
CYCLING = str(ROOT / "tests" / "policies" / "cycling_policy.py") + ":decide"
# draws from its random stream at every decision
DICE = str(ROOT / "tests" / "policies" / "dice_policy.py") + ":decide"
OPPONENTS = [[RULE_BOT], [GREEDY_POLICY], [RULE_BOT + ":low=4", RULE_BOT],
             [CYCLING], [DICE]]
# the default tier: each example on both table sizes and rule sets once, and the view and
# stream checks; the rest is slow
QUICK = {("six_card", 2, (RULE_BOT,)), ("four_card", 3, (GREEDY_POLICY,)),
         ("six_card", 3, (CYCLING,)), ("four_card", 2, (DICE,))}


def cases():
    for preset in ("six_card", "four_card"):
        for players in (2, 3):
            for opponents in OPPONENTS:
                if len(opponents) > 1 and players == 2:
                    continue
                key = (preset, players, tuple(opponents))
                marks = () if key in QUICK else (pytest.mark.slow,)
                name = "+".join(Path(o.split(".py")[0]).name + o.split(".py")[1].replace(
                    ":decide", "") for o in opponents)
                yield pytest.param(preset, players, opponents, marks=marks,
                                   id=f"{preset}-{players}-{name}")


@pytest.mark.filterwarnings("ignore:.*rounds hit the turn cap")
@pytest.mark.parametrize("preset, players, opponents", list(cases()))
def test_a_user_policy_opponent_plays_golfsims_rounds(preset, players, opponents,
                                                      monkeypatch):
    """golf_gym(opponents=[user policies]) with greedy deciding for the learning seat: hole k
    of the seed scores, seat by seat, what golfsim's round k scores with the same seats."""
    monkeypatch.chdir(ROOT)
    env = golf_gym(preset, players=players, opponents=opponents)
    assert_episodes_are_golfsims_rounds(env, preset, players, opponents)


def test_an_illegal_answer_of_a_user_policy_opponent_is_reported_in_one_line():
    """As golfsim run reports it: the policy, its seat, the round and the decision."""
    env = golf_gym("six_card", players=2, opponents=CYCLING + ":illegal_at=3")
    with pytest.raises(api.GolfsimError) as e:
        for k in range(60):
            env.reset(seed=1 if k == 0 else None)
            greedy_episode(env)
    message = str(e.value)
    assert message.startswith(f"opponents: {CYCLING}:illegal_at=3 at player_") and \
        "\n" not in message
    assert "decision point '" in message and "which is not legal" in message


def test_two_user_functions_at_one_table_are_refused_in_one_line(monkeypatch):
    monkeypatch.chdir(ROOT)
    with pytest.raises(api.GolfsimError) as e:
        golf_gym("six_card", players=3, opponents=[RULE_BOT, GREEDY_POLICY])
    message = str(e.value)
    assert message.startswith("opponents: a table plays one user policy function") and \
        "\n" not in message
    assert "rule_bot.py:decide" in message and "greedy_policy.py:decide" in message


@pytest.mark.parametrize("spec, words", [
    ("strategies/examples/no_such_file.py:decide", "does not exist"),
    (RULE_BOT + ":lo=3", "lo"),
])
def test_a_bad_user_policy_is_refused_in_one_line(spec, words, monkeypatch):
    monkeypatch.chdir(ROOT)
    with pytest.raises(api.GolfsimError) as e:
        golf_gym("six_card", players=2, opponents=spec)
    message = str(e.value)
    assert message.startswith("opponents: ") and "\n" not in message and words in message


def test_user_policy_opponents_are_allowed_with_parameters_and_beside_built_ins(monkeypatch):
    monkeypatch.chdir(ROOT)
    env = golf_gym("six_card", players=3, opponents=[RULE_BOT + ":low=3", "heuristic"])
    assert env.opponents == [RULE_BOT + ":low=3", "heuristic"]
    env.reset(seed=5)
