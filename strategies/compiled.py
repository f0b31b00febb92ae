"""The one registry through which the general engine reaches the built-in policies.

Each built-in is compiled on its own, the first time a run needs it, as a C-callable function
of ``POLICY_SIGNATURE``; a run passes the engine a table of ``N_POLICY_SLOTS`` of them, the
policies its seats do not play filled with a stand-in. The engine is therefore compiled once
for every mix of seats, and a run compiles only the policies it uses: compiling every policy
into the engine (as it once was) made the first run of any strategy take six minutes.
Both are cached on disk like every kernel (simulator/kernel/jit.py).
"""

from __future__ import annotations

import importlib
import threading

import numpy as np
from numba import cfunc

from simulator.kernel import builds, engine
from simulator.game import codes as K
from simulator.kernel.engine import policy_slot_nb
from simulator.kernel.signatures import POLICY_SIGNATURE
from simulator.kernel.jit import hot
from strategies.powers import power_game_nb

# policy id -> (module, entry function); the table's slot is policy_slot(id)
ENTRIES = {
    K.POLICY_RANDOM: ("strategies.random_policy", "random_entry"),
    K.POLICY_GREEDY: ("strategies.greedy", "greedy_entry"),
    K.POLICY_KNOCK_THRESHOLD: ("strategies.greedy", "knock_threshold_entry"),
    K.POLICY_HEURISTIC: ("strategies.heuristic", "heuristic_entry"),
    K.POLICY_FORGETFUL: ("strategies.forgetful", "forgetful_entry"),
    K.POLICY_OPPONENT_AWARE: ("strategies.opponent_aware", "opponent_aware_entry"),
    K.POLICY_EV: ("strategies.ev", "ev_entry"),
    K.POLICY_GUIDE: ("strategies.guide", "guide_entry"),
    K.POLICY_LOOKAHEAD: ("strategies.lookahead", "lookahead_entry"),
}
assert len(ENTRIES) == K.N_POLICY_SLOTS
# in the power-card games, where their plain entries would compile in for every run what
# only these games reach: lookahead's rollouts on the powers build, greedy's and
# knock-threshold's power rules
POWER_ENTRIES = {
    K.POLICY_GREEDY: ("strategies.greedy", "greedy_powers_entry"),
    K.POLICY_KNOCK_THRESHOLD: ("strategies.greedy", "knock_threshold_powers_entry"),
    K.POLICY_LOOKAHEAD: ("strategies.lookahead_powers", "lookahead_powers_entry"),
}


def policy_slot(policy_id: int) -> int:
    return int(policy_slot_nb.py_func(policy_id))


def _unused(point, seat, held, g, rt, rng, par, aux):
    return -1   # never called: the engine asks only the seats' own policies


_LOCK = threading.Lock()
_COMPILED: dict = {}


def _compile(key, fn, notify):
    with _LOCK:
        if key not in _COMPILED:
            with builds.compiling(f"policy:{key}", notify):
                _COMPILED[key] = cfunc(POLICY_SIGNATURE, cache=True, nogil=True, _nrt=False,
                                       error_model="numpy")(fn)
        return _COMPILED[key]


def _entry_of(policy_id: int, powers: bool) -> tuple:
    policy_id = int(policy_id)
    return POWER_ENTRIES[policy_id] if powers and policy_id in POWER_ENTRIES else \
        ENTRIES[policy_id]


def build_name(policy_id: int, powers: bool = False) -> str:
    """The built-in's name (as ``--strategy`` spells it; ``powers``: the name of the entry it
    plays the power-card games with, e.g. ``lookahead-powers``): its build is
    ``policy:NAME``."""
    return _entry_of(policy_id, powers)[1].removesuffix("_entry").replace("_", "-")


def _compiled_entry(policy_id: int, notify=None, powers: bool = False):
    module, name = _entry_of(policy_id, powers)
    return _compile(build_name(policy_id, powers),
                    getattr(importlib.import_module(module), name), notify)


def entry(policy_id: int, notify=None, powers: bool = False):
    """The compiled entry point of built-in ``policy_id`` (compiled or loaded on first use);
    ``powers``: the one it plays the power-card games with (POWER_ENTRIES; lookahead's
    rollouts play the powers build's turn loop, which is provided here, as before the build
    plays: engine.build)."""
    fn = _compiled_entry(policy_id, notify, powers)
    if powers and int(policy_id) == K.POLICY_LOOKAHEAD:
        engine.build("powers", notify)
    return fn


def entry_named(build: str, notify=None):
    """Compile (or load) the entry point of build ``policy:BUILD`` (``golfsim warm``): only
    it, not the builds it calls."""
    for powers in (False, True):
        for policy_id in (POWER_ENTRIES if powers else ENTRIES):
            if build_name(policy_id, powers) == build:
                return _compiled_entry(policy_id, notify, powers)
    raise KeyError(f"no built-in policy build is named {build!r}")


def table(policy_ids, notify=None, powers: bool = False) -> tuple:
    """The engine's table for a run whose seats play ``policy_ids`` (the user policy's id
    among them is skipped: the engine calls that one through its own pointer); ``powers``:
    a power-card game's."""
    slots = [None] * K.N_POLICY_SLOTS
    for p in policy_ids:
        if int(p) in ENTRIES:
            slots[policy_slot(int(p))] = entry(int(p), notify, powers)
    unused = None
    if None in slots:
        unused = _compile("unused", _unused, notify)
    return tuple(unused if s is None else s for s in slots)


@hot
def call_nb(fn, point, seat, held, g, rt, rng, par, aux):
    return fn(point, seat, held, g, rt, rng, par, aux)


def decide(point, seat, held, g, rt, rng, par, aux=None) -> int:
    """One decision of the built-in that ``seat`` plays (``par[seat, 0]``), called from Python
    as the engine calls it (tests and tools): its powers entry under rules ``rt`` of a
    power-card game."""
    if aux is None:
        aux = np.zeros(K.POLICY_SCRATCH, dtype=np.int64)
    fn = entry(int(par[seat, 0]), powers=bool(power_game_nb.py_func(rt)))
    return int(call_nb(fn, point, seat, held, g, rt, rng, par, aux))
