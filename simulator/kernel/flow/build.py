"""The build's constants: the lines between the markers below are what each build sets
(simulator/kernel/builds.py ``flow_build`` writes a copy of this package with them replaced).
This file as it is makes the lean build. Every module of the flow reads these names from here,
so Numba drops the branches of the other builds before it compiles anything."""

from __future__ import annotations

from simulator.kernel.jit import hot

# A built-in's own build (OWN, with TABLE) plays every seat with that one built-in's entry
# point compiled in (strategies/compiled.py ENTRIES). Random's own build (RANDOM) is the lean
# flow with every seat playing ``random``, which reads nothing but the legal actions: no views
# are kept, and each decision draws from ``random_pick`` (strategies/random_policy.py) over
# the legal actions as a bit mask. The own builds of
# ``forgetful`` (FORGETFUL) and ``opponent-aware`` (AWARE) are the lean flow too, its cache of
# what each seat knows kept as for knock-threshold and greedy, whose rules they play: forgetful
# unlearns the cards it forgets at the start of its turn (``forget``, strategies/forgetful.py),
# opponent-aware moves the card it would leave on the discard pile when the next seat collects
# it (``withhold``, strategies/opponent_aware.py), from G_SEEN_ALL, which only its build keeps.
# So is ``guide``'s (GUIDE): it keeps what the guide reads besides the cache (each seat's row of
# G_KNOWN for its own cards, their face-up flags, the counters and the legal actions of each
# decision) and asks its entry point, ``own_decide``, which places cards from the cache.
# ``heuristic``'s build is guide's flow with what every seat knows of the others' cards kept as
# opponent-aware's is, and the cards in every seat's sight counted by type (SEEN: G_SEEN_ALL and
# G_PUBLIC_TYPES, from which it counts the cards it has seen).
# Only those builds' lines set these: the others keep them.
OWN = False
RANDOM = False
# The general build's rounds whose seats are all greedy or knock-threshold, on rules the lean
# build plays, with no move log, are played by its cache build (CACHED): nothing reads the
# views, so that is the lean flow, with the general build's invariant checks and the state
# its rounds score and report from (base.cache_round, round.cached_round_nb).
CACHED = False
FORGETFUL = False
AWARE = False
GUIDE = False
SEEN = False


def _no_policy(point, seat, held, g, rt, rng, par, aux):
    return -1


def _no_pick(rng, seat, legal):
    return -1


def _no_forget(g, rt, rng, par, seat):
    return


def _no_withhold(g, rt, par, seat, card, n, S, choice, may_discard):
    return choice


own_decide = hot(_no_policy, cache=False)
random_pick = hot(_no_pick, inline="always", cache=False)
forget = hot(_no_forget, cache=False)
withhold = hot(_no_withhold, cache=False)
# ---- the build: each build's copy replaces these lines (builds.flow_build) ----
USER = False      # every seat plays the user policy compiled in below
TABLE = False     # common rule sets, any seats: the policies' table and the user's pointer
GENERAL = False   # every feature, any seats (the policies' table and the user's pointer)
POWERS = False    # (with GENERAL) the power-card games too


def _no_user(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
             params):
    return -1


user_decide = hot(_no_user, inline="always", cache=False)   # copied where it is asked
user_decide_call = hot(_no_user, cache=False)               # called (rare decisions)
# ---- end of the build ----
