"""golf_gym: one learning seat in a Gymnasium env, the others played by golfsim strategies
(docs/env.md)."""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from simulator.api import GolfsimError
from simulator.game import codes as K

from .config import EnvConfig, Seeding
from .observation import Encoder, action_mask
from .render import RENDER_MODES, table_text
from .table import Table


class GolfGym(gymnasium.Env):
    """One golfsim hole (or match) per episode from the learning seat's side. The learning
    seat of hole (or match) i of seed s is seat (s + i) % players; ``opponents[k]`` plays the
    k-th seat after it."""

    metadata = {"render_modes": list(RENDER_MODES)}

    def __init__(self, config: EnvConfig, opponents: list[str], illegal_reward: float,
                 render_mode: str | None = None):
        self.config = config
        self.opponents = opponents
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.table = Table(config)
        self.encoder = Encoder(self.table)
        self.seeding = Seeding()
        self.seat = 0
        self.observation_space = spaces.Box(-1.0, 1.0, (self.encoder.size,), dtype=np.float32)
        self.action_space = spaces.Discrete(K.N_ACTIONS)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        seed, index = self.seeding.next(seed)
        # a hole that never asks the learning seat anything (it can end before its first
        # turn) is no episode: the next one of the seed is played
        while True:
            self.seat_up(seed, index)
            self.table.start(seed, index)
            if not self.table.over:
                break
            seed, index = self.seeding.next(None)
        return self.encoder.encode(self.seat), self.info()

    def seat_up(self, seed: int, index: int) -> None:
        players = self.config.players
        self.seat = (seed + index) % players
        others = [(self.seat + 1 + k) % players for k in range(players - 1)]
        self.table.assign({self.seat}, dict(zip(others, self.opponents)))

    def step(self, action):
        t = self.table
        if t.over:
            raise GolfsimError("step: the episode is over; call reset() first")
        action = int(action)
        if action not in t.pending[1].legal:
            t.stop()
            return self.encoder.encode(self.seat), self.illegal_reward, True, False, \
                {**self.info(), "illegal_action": action}
        t.act(action)
        paid = t.take_rewards()
        reward = 0.0 if paid is None else paid[self.seat]
        return self.encoder.encode(self.seat), reward, t.over, False, self.info()

    def action_masks(self) -> np.ndarray:
        """The learning seat's legal actions now (bool; none once the episode is over)."""
        return self.mask().astype(bool)

    def mask(self) -> np.ndarray:
        pending = self.table.pending
        return np.zeros(K.N_ACTIONS, dtype=np.int8) if pending is None else \
            action_mask(pending[1])

    def info(self) -> dict:
        return {"action_mask": self.mask(), "seat": self.seat}

    @property
    def decision(self):
        """The learning seat's pending decision as golfsim's strategies see it."""
        return self.table.decision

    def strategy_policy(self, spec: str):
        """golfsim's reference strategy ``spec`` in the learning seat for the current hole:
        ``policy.choose(env.decision)``."""
        return self.table.game.policy(self.seat, spec)

    def render(self):
        if self.render_mode is None:
            return None
        return table_text(self.table)
