"""golf_aec: every seat an agent of a PettingZoo AECEnv (docs/env.md)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from simulator.game import codes as K

from .config import EnvConfig, Seeding
from .observation import VERSION, Encoder, action_mask
from .render import RENDER_MODES, table_text
from .table import Table

def observation_space(size: int) -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(-1.0, 1.0, (size,), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (K.N_ACTIONS,), dtype=np.int8)})


class GolfAEC(AECEnv):
    """One golfsim hole (or match) per episode, every seat an agent: ``player_k`` is seat k."""

    metadata = {"render_modes": list(RENDER_MODES), "name": f"golfsim_v{VERSION}",
                "is_parallelizable": False}

    def __init__(self, config: EnvConfig, render_mode: str | None = None):
        super().__init__()
        self.config = config
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(config.players)]
        self.seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self.table = Table(config)
        self.encoder = Encoder(self.table)
        self.seeding = Seeding()
        self._obs_space = observation_space(self.encoder.size)
        self._act_space = spaces.Discrete(K.N_ACTIONS)
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ---- the episode -----------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        self.table.start(*self.seeding.next(seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.rewarded = False
        self.agent_selection = self.possible_agents[self.table.pending[0]]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        table.act(action)
        paid = table.take_rewards()
        if paid is not None:
            self.rewards = {a: paid[s] for s, a in enumerate(self.possible_agents)}
            self._accumulate_rewards()
            self.rewarded = True
        elif self.rewarded:      # the rewards dict holds this step's rewards only
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.rewarded = False
        if table.over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[table.pending[0]]

    def observe(self, agent):
        seat = self.seat_of[agent]
        pending = self.table.pending
        mask = action_mask(pending[1]) if pending is not None and pending[0] == seat else \
            np.zeros(K.N_ACTIONS, dtype=np.int8)
        return {"observation": self.encoder.encode(seat), "action_mask": mask}

    def render(self):
        if self.render_mode is None:
            return None
        return table_text(self.table)

    def close(self):
        pass

    # ---- golfsim's own view (docs/env.md#golfsim-strategies-in-an-env) ---------------------
    @property
    def decision(self):
        """The pending decision as golfsim's strategies see it (a reference Observation)."""
        return self.table.decision

    def strategy_policy(self, agent: str, spec: str):
        """golfsim's reference strategy ``spec`` (random, greedy, knock-threshold[:T=..]) in
        ``agent``'s seat for the current hole: ``policy.choose(env.decision)``."""
        return self.table.game.policy(self.seat_of[agent], spec)
