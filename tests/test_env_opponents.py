"""golf_gym's opponents played by golfsim's compiled built-ins (simulator/env/compiled_seat.py):
in the plain rule sets each makes the decisions it makes in ``golfsim run`` with the same
seed, so an episode's hole is golfsim's round (the power-card games:
tests/test_env_power_opponents.py; lookahead: tests/test_env_lookahead.py). Skipped where the rl
extra is not installed."""

from __future__ import annotations


import pytest
from env_episodes import assert_episodes_are_golfsims_rounds
from rl_extra import HAVE_RL, needs_rl


pytestmark = needs_rl
if HAVE_RL:
    from simulator.env import golf_gym

OPPONENTS = [["heuristic"], ["guide"], ["forgetful", "opponent-aware"], ["ev"]]
# the default tier: one case of every built-in, both table sizes and the three rule sets (a
# forgetful that forgets often, so that its random stream is drawn from); the rest is slow
QUICK = {("six_card", 2, ("heuristic",)), ("four_card", 3, ("forgetful:decay=0.5", "ev")),
         ("nine_card", 2, ("guide",)), ("six_card", 3, ("forgetful", "opponent-aware")),
         ("nine_card", 3, ("ev",))}


def cases():
    seen = set()
    for preset in ("six_card", "four_card", "nine_card"):
        for players in (2, 3):
            for opponents in OPPONENTS + [list(q[2]) for q in QUICK]:
                if len(opponents) > 1 and players == 2:
                    # one other seat: each of the pair on its own
                    groups = [[o] for o in opponents]
                else:
                    groups = [opponents]
                for group in groups:
                    key = (preset, players, tuple(group))
                    if key in seen:
                        continue
                    seen.add(key)
                    marks = () if key in QUICK else (pytest.mark.slow,)
                    yield pytest.param(preset, players, group, marks=marks,
                                       id=f"{preset}-{players}-{'+'.join(group)}")


@pytest.mark.filterwarnings("ignore:.*rounds hit the turn cap")
@pytest.mark.parametrize("preset, players, opponents", list(cases()))
def test_a_compiled_opponent_plays_golfsims_rounds(preset, players, opponents):
    """golf_gym(opponents=[built-ins]) with greedy deciding for the learning seat: hole k of
    the seed scores, seat by seat, what golfsim's round k scores with the same seats (every
    decision of the built-ins the same, their random draws included)."""
    env = golf_gym(preset, players=players, opponents=opponents)
    assert_episodes_are_golfsims_rounds(env, preset, players, opponents)


def test_compiled_opponents_are_allowed_with_parameters():
    env = golf_gym("six_card", players=3, opponents=["heuristic", "forgetful:decay=0.3"])
    assert env.opponents == ["heuristic", "forgetful:decay=0.3"]
