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
from strategies.net_encode import CARD, CELL, VERSION, field_sizes, obs_size

from .view_fill import (CARDS, DISCARD, FACEUP, KNOWN, NO_POSITION, PUBLIC, SEEN, UP,
                        fill_views_nb, new_views, observe_nb, part)

__all__ = ["CARD", "CELL", "CELL_FLAGS", "VERSION", "Encoder", "Views", "action_mask",
           "fields"]
# a position's flags (the last is the card's own presence flag); the card follows them
CELL_FLAGS = ("present", "face_up", "known")
assert CELL == len(CELL_FLAGS) + CARD


def fields(players: int) -> list[tuple[str, int]]:
    """(name, floats) of every field in order, for a table of ``players`` seats."""
    return field_sizes(players)


class Views:
    """The policy views of one seat at a reference table: what the compiled engine passes a
    policy (public slots, known cards, face-up flags, the discard pile, the rules), filled
    from the reference engine's state in the slots the encoder reads. The layouts are read
    through a mirror that follows the state's record of touched cells (view_fill.py)."""

    def __init__(self, rules, players: int):
        self.players = players
        self.rules = packed_rules(rules, players)
        self.size = obs_size(players)
        # the views and the layouts' mirror, parts of one array (view_fill.py)
        self.buf = new_views()
        self.public, self.known, self.faceup, self.discard, self.cards, self.up, self.seen = (
            part(self.buf, where) for where in (PUBLIC, KNOWN, FACEUP, DISCARD, CARDS, UP, SEEN))
        self.legal = legal_row(())
        self.state = None     # the state the mirror follows, and how much of its record
        self.synced = 0

    def fill(self, st, me: int, actor: int, asked) -> tuple[int, int]:
        """The views of turn position ``me`` in reference state ``st``; ``actor``: the
        position asked now (-1: none); ``asked``: the Observation of ``me``'s pending
        decision, or None. Returns (decision point, held) as the engine passes them."""
        point, held, counters = self.prepare(st, actor, asked)
        fill_views_nb(self.buf, me, self.players, counters)
        return point, held

    def observation(self, st, me: int, actor: int, asked) -> np.ndarray:
        """Turn position ``me``'s observation vector (``fill``'s arguments)."""
        out = np.empty(self.size, dtype=np.float32)   # observe_nb zeroes it
        point, held, counters = self.prepare(st, actor, asked)
        observe_nb(out, self.buf, self.rules, me, self.players, point, held, counters)
        return out

    def prepare(self, st, actor: int, asked) -> tuple[int, int, tuple]:
        """The mirror, the discard pile and the legal mask brought up to ``st`` and
        ``asked``: (decision point, held, the counters fill_views_nb takes)."""
        self.sync(st)
        self.discard[:len(st.discard)] = st.discard
        counters = (st.turn, actor, len(st.stock), len(st.discard),
                    -1 if st.ender is None else st.ender, st.final_turns_left or 0,
                    st.reshuffles, int(st.knocked)) + power_slots(st)
        if asked is None:
            self.legal = legal_row(())
            return -1, -1, counters + (0, 0)
        self.legal = legal_row(asked.legal)
        choices = tuple(asked.choices) + (0, 0)
        return (int(asked.decision), -1 if asked.held is None else int(asked.held),
                counters + choices[:2])

    def sync(self, st) -> None:
        """The mirror brought up to ``st``: the cells touched since the last call, or every
        cell of a state it has not followed yet."""
        touched = st.touched
        if st is not self.state:
            self.state, self.synced = st, 0
            self.cards[:] = NO_POSITION
            touched = [i * K.MAX_POS + p for i, row in enumerate(st.layouts)
                       for p in range(len(row))]
        for at in touched[self.synced:]:
            cell = st.layouts[at // K.MAX_POS][at % K.MAX_POS]
            self.cards[at], self.up[at] = cell.card, cell.face_up
            self.seen[at] = sum(1 << s for s in cell.known_to)
        self.synced = len(st.touched)


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


def power_slots(st) -> tuple[int, int, int, int]:
    """(PUB_POWER, PUB_TARGET_SEAT, PUB_SHIELDED, PUB_TOP_POWER_UNUSED) of reference state
    ``st``: a plain game's have no power, no target seat and no shield."""
    if not hasattr(st, "pub_power"):
        return K.POW_NONE, -1, 0, 0
    shielded = sum(1 << s for s, on in enumerate(st.shielded) if on) if any(st.shielded) else 0
    return (int(st.pub_power), int(st.pub_target), shielded,
            int(st.top_power_unused and bool(st.discard)))


@lru_cache(maxsize=4096)
def legal_row(legal: tuple[int, ...]) -> np.ndarray:
    """The legal mask of these actions as the views hold it (int32): one array shared by
    every decision that offers these actions, so never written (not flagged read-only, which
    compiled code would take for another type)."""
    row = np.zeros(K.N_ACTIONS, dtype=np.int32)
    row[list(legal)] = 1
    return row


@lru_cache(maxsize=4096)
def _mask(legal: tuple[int, ...]) -> np.ndarray:
    return legal_row(legal).astype(np.int8)


def action_mask(obs) -> np.ndarray:
    """The legal actions of a pending decision (a reference Observation), int8 (a fresh
    array the caller may keep or change)."""
    return _mask(obs.legal).copy()
