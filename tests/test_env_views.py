"""The environments' views follow the reference layouts through a mirror of the cells the
state says it touched (simulator/env/observation.py Views.sync): at every step of random play
in every preset, for every seat, the views equal those read from every cell afresh. A
mutation of a cell that the state does not record would leave the mirror stale and fail here."""

from __future__ import annotations

import numpy as np
import pytest
from rl_extra import HAVE_RL, needs_rl

from simulator.game import codes as K
from simulator.game.rules import PRESETS, Rules

if HAVE_RL:
    from simulator.env import golf_aec
    from simulator.env.observation import Views

HOLES = 6


def players_for(preset: str) -> int:
    rules = Rules.preset(preset)
    for n in (3, 2, 4, 5):
        try:
            rules.check_players(n)
            return n
        except Exception:
            continue
    raise AssertionError(f"{preset}: no table of 2 to 5 seats")


def from_every_cell(st, me: int, players: int):
    """(known, faceup, face-down counts) of turn position ``me``, each cell read afresh."""
    known = np.full(K.MAX_PLAYERS * K.MAX_POS, -1, dtype=np.int32)
    faceup = np.zeros(K.MAX_PLAYERS * K.MAX_POS, dtype=np.int32)
    down = [0] * players
    for i in range(players):
        for p, cell in enumerate(st.layouts[i]):
            at = i * K.MAX_POS + p
            if cell.card >= K.EMPTY0:
                known[at], faceup[at] = K.EMPTY0 + p, 1
                continue
            faceup[at] = cell.face_up
            down[i] += not cell.face_up
            if me in cell.known_to:
                known[at] = cell.card
    return known, faceup, down


def check_every_seat(views, st, players: int, pending) -> None:
    for me in range(players):
        asked = pending[1] if pending is not None and pending[0] == me else None
        views.fill(st, me, -1, asked)
        known, faceup, down = from_every_cell(st, me, players)
        np.testing.assert_array_equal(views.known, known)
        np.testing.assert_array_equal(views.faceup, faceup)
        assert list(views.public[K.N_PUB_SLOTS:K.N_PUB_SLOTS + players]) == down
        assert views.public[K.PUB_STOCK_N] == len(st.stock)
        assert views.public[K.PUB_DISCARD_N] == len(st.discard)
        assert list(views.discard[:len(st.discard)]) == st.discard
        legal = [] if asked is None else sorted(asked.legal)
        assert list(np.flatnonzero(views.legal)) == legal


def matching(st, me: int) -> list[tuple[int, int]]:
    """(seat, position) of the other seats' cards of the top discard's key: what a snap
    takes (and then moves one of the snapper's cards into), where there is a pile."""
    if not st.discard:
        return []
    key = st.table.key
    top = key[st.discard[-1]]
    return [(s, p) for s, row in enumerate(st.layouts) if s != me
            for p, cell in enumerate(row) if cell.card < K.EMPTY0 and key[cell.card] == top]


def sharp_or_random(env, rng, mask) -> int:
    """A snap wherever another seat holds a card of the top discard's key (the card it takes
    is replaced by one of the snapper's, moved: the rarest change of a cell), else a random
    legal action."""
    obs = env.decision
    legal = set(np.flatnonzero(mask))
    if obs is not None and obs.power == K.CTX_SNAP:
        hits = matching(env.unwrapped.table.game.hole.state, obs.seat)
        wanted = [K.A_SNAP] if obs.decision == K.DP_SNAP else \
            [s for s, _ in hits] if obs.decision == K.DP_TARGET_SEAT else \
            [p for s, p in hits if s == obs.target_seat]
        for a in wanted:
            if a in legal and hits:
                return int(a)
    return int(rng.choice(sorted(legal)))


@needs_rl
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_views_mirror_follows_every_cell(preset):
    players = players_for(preset)
    env = golf_aec(preset, players=players)
    rng = np.random.default_rng(3)
    for hole in range(HOLES):
        env.reset(seed=hole)
        views = Views(env.config.rules, players)   # follows the hole step by step
        steps = 0
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            game = env.unwrapped.table.game
            pending = env.unwrapped.table.pending
            turn_pending = None if pending is None else (game.position[pending[0]], pending[1])
            check_every_seat(views, game.hole.state, players, turn_pending)
            env.step(sharp_or_random(env, rng, env.observe(agent)["action_mask"]))
            steps += 1
        assert steps > 0
