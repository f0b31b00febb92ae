"""The compiled types the builds and the built-in policies agree on: a built-in's entry point
as a run's table holds it, that table, and the powers build's turn loop as its rounds and the
lookahead player's rollouts call it through a named slot (simulator/kernel/by_name.py), as
the general build's rounds call its own."""

from __future__ import annotations

from numba import types

from ..game import codes as K
from .policy_api import SIGNATURE as USER_SIGNATURE

POLICY_SIGNATURE = types.int64(
    types.int64, types.int64, types.int64,   # decision point, seat, held card
    types.int32[::1],                        # g: the engine's state
    types.int64[::1],                        # rt: rules and card tables
    types.uint64[::1],                       # rng: every random stream
    types.float64[:, ::1],                   # par: the policy table
    types.int64[::1])                        # aux: the policy's scratch

TABLE_TYPE = types.UniTuple(types.FunctionType(POLICY_SIGNATURE), K.N_POLICY_SLOTS)

# the turn loop (play_nb) of the general and powers builds: its context is the one round_nb
# makes of a run's arguments (move log, user policy, the policies' table, the policy's scratch,
# the scorer's scratch, the check flag), then the seat, the round's ten counters, the forced
# move and position, the turn cap; it returns (turns, ender, knocked, capped, reshuffles).
# Their rounds call it through a named slot (play_slot), so that the functions above it do not
# emit the whole loop again when compiled; the power games' rollouts call the very same loop.
CONTEXT_TYPE = types.Tuple((types.int32[:, ::1], types.FunctionType(USER_SIGNATURE), TABLE_TYPE,
                            types.int64[::1], types.int64[::1], types.boolean))
PLAY_SIGNATURE = types.UniTuple(types.int64, 5)(
    types.int32[::1], types.int64[::1], types.float64[:, ::1], types.uint64[::1], CONTEXT_TYPE,
    *([types.int64] * 14))
SLOTTED = ("general", "powers")   # the builds whose rounds call their loop through a slot
# the general build's rounds played from the lean cache (flow.base.cache_round): the cache
# build's whole round (round.cached_round_nb), from the seed and the round's index, with the
# same context and returns as play_nb
CACHED_SIGNATURE = types.UniTuple(types.int64, 5)(
    types.int32[::1], types.int64[::1], types.float64[:, ::1], types.uint64[::1], CONTEXT_TYPE,
    types.int64, types.int64)
CACHED_SLOT = "golfsim_general_cached_round"


def play_slot(build: str) -> str:
    """The name of the slot holding build ``build``'s turn loop (one of SLOTTED)."""
    return f"golfsim_{build}_play"
