"""The observation vector: exactly what one seat may know, as float32 in [-1, 1].

The vector is strategies/net_encode.py's encoding of the seat's policy views (the arrays a
compiled policy receives: simulator/kernel/policy_api.py), built here from the reference
engine's state: a ``net:`` strategy on the compiled engine encodes that engine's views with
the same code, so a network decides the same in an env and in golfsim. docs/env.md#observation
documents every field; :func:`fields` gives their order and sizes, and :data:`VERSION` changes
whenever the layout does.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from simulator.game import codes as K
from simulator.game.rules import flatten
from simulator.kernel.engine import pack_rules
from strategies.net_encode import CARD, CELL, VERSION, encode, field_sizes, obs_size

__all__ = ["CARD", "CELL", "CELL_FLAGS", "VERSION", "Encoder", "Views", "action_mask",
           "fields"]
NO_CARD = -1
# a position's flags (the last is the card's own presence flag); the card follows them
CELL_FLAGS = ("present", "face_up", "known")
assert CELL == len(CELL_FLAGS) + CARD


def fields(players: int) -> list[tuple[str, int]]:
    """(name, floats) of every field in order, for a table of ``players`` seats."""
    return field_sizes(players)


class Views:
    """The policy views of one seat at a reference table: what the compiled engine passes a
    policy (public slots, known cards, face-up flags, the discard pile, the rules), filled
    from the reference engine's state in the slots the encoder reads."""

    def __init__(self, rules, players: int):
        self.players = players
        self.rules = packed_rules(rules, players)
        self.public = np.zeros(K.N_PUB_SLOTS + K.MAX_PLAYERS, dtype=np.int32)
        self.known = np.full(K.MAX_PLAYERS * K.MAX_POS, NO_CARD, dtype=np.int32)
        self.faceup = np.zeros(K.MAX_PLAYERS * K.MAX_POS, dtype=np.int32)
        self.discard = np.zeros(K.MAX_IDS, dtype=np.int32)
        self.legal = np.zeros(K.N_ACTIONS, dtype=np.int32)

    def fill(self, st, me: int, actor: int, asked) -> tuple[int, int]:
        """The views of turn position ``me`` in reference state ``st``; ``actor``: the
        position asked now (-1: none); ``asked``: the Observation of ``me``'s pending
        decision, or None. Returns (decision point, held) as the engine passes them."""
        pub = self.public
        pub[:] = 0
        pub[K.PUB_TURN], pub[K.PUB_ACTOR] = st.turn, actor
        pub[K.PUB_STOCK_N], pub[K.PUB_DISCARD_N] = len(st.stock), len(st.discard)
        pub[K.PUB_ENDER] = -1 if st.ender is None else st.ender
        pub[K.PUB_FINAL_LEFT] = st.final_turns_left or 0
        pub[K.PUB_RESHUFFLES], pub[K.PUB_KNOCKED] = st.reshuffles, st.knocked
        self.power_slots(st)
        self.discard[:len(st.discard)] = st.discard
        self.cells(st, me)
        self.legal[:] = 0
        if asked is None:
            return -1, -1
        self.legal[list(asked.legal)] = 1
        for k, c in enumerate(asked.choices):
            pub[K.PUB_CHOICE0 + k] = c
        return int(asked.decision), -1 if asked.held is None else int(asked.held)

    def observation(self, st, me: int, actor: int, asked) -> np.ndarray:
        """Turn position ``me``'s observation vector (``fill``'s arguments)."""
        out = np.zeros(obs_size(self.players), dtype=np.float32)
        point, held = self.fill(st, me, actor, asked)
        encode(out, point, me, held, self.public, self.known, self.faceup, self.discard,
               self.rules, self.players)
        return out

    def power_slots(self, st) -> None:
        if not hasattr(st, "pub_power"):
            self.public[K.PUB_TARGET_SEAT] = -1
            return
        pub = self.public
        pub[K.PUB_POWER], pub[K.PUB_TARGET_SEAT] = st.pub_power, st.pub_target
        pub[K.PUB_SHIELDED] = sum(1 << s for s, on in enumerate(st.shielded) if on)
        pub[K.PUB_TOP_POWER_UNUSED] = st.top_power_unused and bool(st.discard)

    def cells(self, st, me: int) -> None:
        known, faceup = self.known, self.faceup
        known[:] = NO_CARD
        faceup[:] = 0
        for i in range(self.players):
            down = 0
            for p, cell in enumerate(st.layouts[i]):
                at = i * K.MAX_POS + p
                if cell.card >= K.EMPTY0:
                    known[at], faceup[at] = K.EMPTY0 + p, 1
                    continue
                faceup[at] = cell.face_up
                down += not cell.face_up
                if me in cell.known_to:
                    known[at] = cell.card
            self.public[K.N_PUB_SLOTS + i] = down


class Encoder:
    """Builds the vector of one seat from a table.Table (the hole it is playing)."""

    def __init__(self, table):
        config = table.config
        self.table = table
        self.players = config.players
        self.size = obs_size(self.players)
        self.offset = {}   # field name -> where it starts
        at = 0
        for name, n in fields(self.players):
            self.offset[name] = at
            at += n
        assert at == self.size
        self.views = Views(config.rules, config.players)

    def encode(self, seat: int) -> np.ndarray:
        t = self.table
        game = t.game
        asked = t.pending[1] if t.pending is not None and t.pending[0] == seat else None
        actor = -1 if t.pending is None else game.position[t.pending[0]]
        return self.views.observation(game.hole.state, game.position[seat], actor, asked)


@lru_cache(maxsize=32)
def packed_rules(rules, players: int) -> np.ndarray:
    """The rules array a compiled policy receives (its ``rules`` view)."""
    return pack_rules(flatten(rules, players))


def action_mask(obs) -> np.ndarray:
    """The legal actions of a pending decision (a reference Observation), int8."""
    mask = np.zeros(K.N_ACTIONS, dtype=np.int8)
    mask[list(obs.legal)] = 1
    return mask
