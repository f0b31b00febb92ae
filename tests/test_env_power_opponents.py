"""golf_gym's opponents played by golfsim's compiled built-ins and user policies in the
power-card games (simulator/env/compiled_seat.py, power_views.py): each makes the decisions
it makes in ``golfsim run`` with the same seed, so an episode's hole is golfsim's round (slow:
golfsim run compiles the powers build); the views a compiled seat is given agree with the
reference engine's observation at every decision (default tier: no golfsim run); lookahead:
tests/test_env_lookahead.py. Skipped where the rl extra is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from env_episodes import assert_episodes_are_golfsims_rounds, greedy_episode
from rl_extra import HAVE_RL, needs_rl

from simulator.game import codes as K

pytestmark = needs_rl
if HAVE_RL:
    from simulator.env import compiled_seat, golf_gym

ROOT = Path(__file__).resolve().parents[1]
RULE_BOT = "strategies/examples/rule_bot.py:decide"
# reads every view (public slots, its known row, the face-up flags, the pile, its memory)
CYCLING = str(ROOT / "tests" / "policies" / "cycling_policy.py") + ":decide"
# draws from its random stream at every decision
DICE = str(ROOT / "tests" / "policies" / "dice_policy.py") + ":decide"
# every compiled built-in the powers build plays (lookahead aside), forgetful also forgetting
# often (its random stream drawn from), and user policies
BUILT_INS = [["heuristic"], ["guide"], ["forgetful"], ["forgetful:decay=0.5"],
             ["opponent-aware"], ["ev"], ["heuristic", "ev"]]
USERS = [[RULE_BOT], [CYCLING], [DICE], [CYCLING, "guide"]]
# the Dutch powers table on four_card: the Dutch 8's kept card and the card a Dutch 9 brings
# in, which no preset plays
DUTCH = {"power_set": "dutch"}
DUTCH_CASES = [(2, [CYCLING]), (3, ["forgetful:decay=0.5", "ev"])]
N = K.MAX_PLAYERS * K.MAX_POS


def name_of(opponents) -> str:
    return "+".join(Path(o.split(".py")[0]).name + o.split(".py")[1].replace(":decide", "")
                    if ".py" in o else o for o in opponents)


def cases():
    for preset in ("power_cabo", "power_cactus"):
        for players in (2, 3):
            for opponents in BUILT_INS + USERS:
                if len(opponents) in (1, players - 1):
                    yield pytest.param(preset, players, opponents, None,
                                       id=f"{preset}-{players}-{name_of(opponents)}")
    for players, opponents in DUTCH_CASES:
        yield pytest.param("four_card", players, opponents, DUTCH,
                           id=f"four_card+dutch-{players}-{name_of(opponents)}")


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:.*rounds hit the turn cap")
@pytest.mark.parametrize("preset, players, opponents, options", list(cases()))
def test_a_compiled_opponent_plays_golfsims_power_rounds(preset, players, opponents, options,
                                                         monkeypatch):
    """golf_gym(opponents=[built-ins or user policies]) in a power-card game with greedy
    deciding for the learning seat: hole k of the seed scores, seat by seat, what golfsim's
    round k scores with the same seats (every decision of the opponents the same, their
    random draws included)."""
    monkeypatch.chdir(ROOT)
    env = golf_gym(preset, players=players, opponents=opponents, **(options or {}))
    assert_episodes_are_golfsims_rounds(env, preset, players, opponents, options)


def expected_cells(obs, players: int) -> dict:
    """What the powers build shows the deciding seat of every position, from the reference
    engine's observation: its knowledge row, the face-up flags, the peek records, whether the
    position holds a card."""
    want = {"known": [0] * N, "up": [0] * N, "peeked": [0] * N, "card": [False] * N}
    for s in range(players):
        for p in range(K.MAX_POS):
            at = s * K.MAX_POS + p
            if p >= len(obs.known[s]):   # not grown into: empty, face up, known to all
                want["known"][at], want["up"][at] = K.EMPTY0 + p, 1
                continue
            card = obs.known[s][p]
            want["known"][at] = -1 if card is None else card
            want["up"][at] = int(obs.face_up[s][p] is not None)
            want["peeked"][at] = sum(1 << o for o in obs.peeked[s][p])
            want["card"][at] = card is None or card < K.EMPTY0
    return want


def assert_power_views(seat, obs) -> None:
    """The state array a compiled seat decides on shows what the reference engine's
    observation of its decision shows."""
    g, me, players = seat.g, seat.position, seat.game.players
    pub = g[K.G_PUB:K.G_PUB + K.N_PUBLIC]
    assert pub[K.PUB_ACTOR] == me
    assert pub[K.PUB_POWER] == obs.power and pub[K.PUB_TARGET_SEAT] == obs.target_seat
    assert pub[K.PUB_SHIELDED] == sum(1 << s for s, on in enumerate(obs.shielded) if on)
    assert list(pub[K.PUB_CHOICE0:K.PUB_CHOICE1 + 1]) == (list(obs.choices) + [-1, -1])[:2]
    if obs.discard:
        assert pub[K.PUB_TOP_POWER_UNUSED] == obs.top_power_unused
    want = expected_cells(obs, players)
    row = K.G_KNOWN + me * N
    assert list(g[row:row + N]) == want["known"]
    assert list(g[K.G_UP:K.G_UP + N]) == want["up"]
    assert list(g[K.G_PEEKED:K.G_PEEKED + N]) == want["peeked"]
    table = players * K.MAX_POS
    assert [c < K.EMPTY0 for c in g[K.G_LAY:K.G_LAY + table]] == want["card"][:table]
    for s in range(players):
        down = sum(1 for p in range(K.MAX_POS) if want["card"][s * K.MAX_POS + p] and
                   not want["up"][s * K.MAX_POS + p])
        assert g[K.G_FACE_DOWN + s] == down
    legal = [a for a in range(K.N_ACTIONS) if g[K.G_LEGAL + a]]
    assert legal == list(obs.legal)


def situations(obs, npos: int) -> dict:
    """Which of the situations the power views are about a decision met (``npos``: the
    grid's positions)."""
    return {"power": obs.power != K.POW_NONE,
            "peeked": any(p for row in obs.peeked for p in row),
            "empty": any(c is not None and c >= K.EMPTY0 for row in obs.known for c in row),
            "grown": any(len(row) > npos for row in obs.known),
            "shielded": any(obs.shielded), "choices": bool(obs.choices)}


@pytest.mark.parametrize("preset, players, opponents, options, met", [
    ("power_cabo", 3, ["heuristic", CYCLING], None, ("power", "peeked", "empty", "grown")),
    ("power_cactus", 2, ["forgetful"], None, ("power", "peeked", "empty")),
    ("four_card", 2, [CYCLING], DUTCH, ("power", "grown", "shielded", "choices"))])
def test_a_compiled_opponent_sees_the_power_views_of_the_reference_engine(
        preset, players, opponents, options, met, monkeypatch):
    """At every decision of a compiled opponent in a power-card game, its state array shows
    the effect asked about, the target seat, shields, the Dutch 8's cards, its knowledge of
    every position (peeked at, swapped, emptied or not yet grown into), the face-up flags,
    the peek records and the legal actions as the reference engine's observation does."""
    monkeypatch.chdir(ROOT)
    seen = dict.fromkeys(met, 0)
    fill = compiled_seat.CompiledSeat.fill

    def checked_fill(seat, obs):
        point, held = fill(seat, obs)
        assert_power_views(seat, obs)
        for k, on in situations(obs, seat.game.config.rules.n_positions).items():
            if k in seen:
                seen[k] += on
        return point, held

    monkeypatch.setattr(compiled_seat.CompiledSeat, "fill", checked_fill)
    env = golf_gym(preset, players=players, opponents=opponents, **(options or {}))
    for k in range(12):
        env.reset(seed=3 if k == 0 else None)
        greedy_episode(env)
    # the check met the situations it is about
    assert all(seen.values()), seen


def test_compiled_and_user_opponents_are_taken_in_a_power_card_game(monkeypatch):
    monkeypatch.chdir(ROOT)
    env = golf_gym("power_cabo", players=4,
                   opponents=["heuristic", "forgetful:decay=0.3", RULE_BOT + ":low=3"])
    assert env.opponents == ["heuristic", "forgetful:decay=0.3", RULE_BOT + ":low=3"]
    env.reset(seed=5)
