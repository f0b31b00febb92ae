"""golf_gym's opponents played by ``lookahead`` (simulator/env/compiled_seat.py LookaheadSeat,
PowerLookaheadSeat): in every rule set golfsim plays it in, the power-card games included, it
makes the decisions it makes in ``golfsim run`` with the same seed, rollouts included, so an
episode's hole is golfsim's round. Where golfsim refuses it, it is refused in one line.
Skipped where the rl extra is not installed; the cases that compile lookahead (or the powers
build) are slow (tests/conftest.py SLOW_BUILDS)."""

from __future__ import annotations

import pytest
from env_episodes import assert_episodes_are_golfsims_rounds
from rl_extra import HAVE_RL, needs_rl

from simulator import api

pytestmark = needs_rl
if HAVE_RL:
    from simulator.env import golf_gym

# six_card ends by a revealed layout; four_card by a knock, where lookahead models itself as
# knock-threshold with its own T and a knock-threshold seat as itself (the table's policy
# table), and where a small width and budget try other candidates
CASES = [
    ("six_card", 2, ["lookahead"], None),
    ("six_card", 3, ["lookahead", "greedy"], None),
    ("four_card", 2, ["lookahead:T=4,budget=3,width=2"], None),
    ("four_card", 3, ["knock-threshold:T=5", "lookahead"], None),
    # the rollouts copy the powers build's whole state: every seat's knowledge of every layout
    # (peeks, swaps), the face-up masks (power_malaysia's decisions read them), the turns a
    # discarded jack skips, penalties, banks and the round's private counters
    ("power_cabo", 2, ["lookahead"], None),
    ("power_cactus", 3, ["lookahead", "heuristic"], None),
    ("power_pablo", 4, ["lookahead:budget=4", "greedy", "lookahead"], None),
    ("power_malaysia", 2, ["lookahead"], None),
    ("power_cactus", 4, ["lookahead:budget=8"], {"jack_discard_skips_next": True}),
]


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*rounds hit the turn cap")
@pytest.mark.parametrize("preset, players, opponents, options", CASES,
                         ids=[f"{p}-{n}-{'+'.join(o)}{'-' + '+'.join(x) if x else ''}"
                              for p, n, o, x in CASES])
def test_lookahead_plays_golfsims_rounds(preset, players, opponents, options):
    """golf_gym(opponents=[lookahead, ...]) with greedy deciding for the learning seat: hole k
    of the seed scores, seat by seat, what golfsim's round k scores with the same seats (and
    rule ``options``)."""
    env = golf_gym(preset, players=players, opponents=opponents, **(options or {}))
    assert_episodes_are_golfsims_rounds(env, preset, players, opponents, options)


def test_lookahead_is_taken_where_golfsim_plays_it():
    env = golf_gym("four_card", players=3, opponents=["lookahead:budget=2", "greedy"])
    assert env.opponents == ["lookahead:budget=2", "greedy"]


def test_lookahead_is_refused_where_golfsim_refuses_it_in_one_line():
    """eight_card_whitnack needs a rule feature the lean build lacks: golfsim run refuses
    lookahead there, and so does golf_gym, with golfsim's reason."""
    with pytest.raises(api.GolfsimError) as ran:
        api.run("eight_card_whitnack", players=2, strategy="lookahead", rounds=1, seed=1,
                progress=False)
    with pytest.raises(api.GolfsimError) as e:
        golf_gym("eight_card_whitnack", players=2, opponents="lookahead")
    message = str(e.value)
    assert message.startswith("opponents: 'lookahead': ") and "\n" not in message
    assert "lean kernel" in message and "lean kernel" in str(ran.value)


@pytest.mark.parametrize("preset", ["power_cabo", "power_cactus"])
def test_lookahead_is_taken_in_a_power_card_game(preset):
    env = golf_gym(preset, players=3, opponents=["heuristic", "lookahead"])
    assert env.opponents == ["heuristic", "lookahead"]
