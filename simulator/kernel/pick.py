"""Which build a run plays on: the one place that decides it.

The builds are simulator/kernel/features.py's table (``BUILDS``). ``build`` picks one for a
rule set, its seats and the ``kernel`` asked for; the runner (``make_job``, the builds it
compiles ahead), ``golfsim warm``, the cluster's workers and the tests all ask it, and
``module`` gives the compiled module of the name it returns. The name is what the results'
metadata records as the build that played (``build``) and what ``--verbose`` prints.
"""

from __future__ import annotations

from ..game import codes as K
from ..game.rules import flatten
from . import cabo, engine, flow
from .cabo import round as cabo_round
from .features import BIT, BUILDS, lacking, needed_from_ri

# what ``kernel`` may ask for: "auto" (the fastest build that plays the run exactly as the
# general build does), or a build by name ("own": the seats' built-in's own build)
KERNELS = ("auto", "cabo", "general", "lean", "own", "powers", "table")


def needed(rules, players: int, matches: bool = False) -> int:
    """The features (bit mask) a rule set needs with ``players`` seats."""
    return needed_from_ri(flatten(rules, players).ri, matches)


def missing(build_name: str, rules, players: int, matches: bool = False) -> list[str]:
    """The features build ``build_name`` lacks for this rule set (empty: it may play it; the
    lean-based builds also bound the layout and the card values, see ``flow.rules_eligible``)."""
    return lacking(build_name, needed(rules, players, matches))


def powers(ri) -> bool:
    """Do the flat rules ``ri`` need the powers build (a power-card game)?"""
    return bool(needed_from_ri(ri) & BIT["powers"])


def own_build(ri, policy_ids, own, check: bool = False) -> str | None:
    """"own:NAME" when every seat plays the one built-in that ``own`` (policy id -> NAME of
    every built-in with a build of its own) names, on rules that build plays (those of the
    table build, or of the built-in's flow build: features.BUILDS) without invariant checks;
    else None."""
    first = int(policy_ids[0])
    if not own or first not in own or check or any(int(p) != first for p in policy_ids):
        return None
    # a built-in with a flow build of its own plays the rules that build has the features of
    name = own[first]
    return f"own:{name}" if flow.rules_eligible(ri, name if name in BUILDS else "table") \
        else None


def build(ri, policy_ids, kernel: str = "auto", user: bool = False,
          check: bool = False, own=None) -> str:
    """The name of the build that plays the flat rules ``ri`` with these seats.

    ``kernel`` "auto": the lean build whenever it can (every seat greedy or knock-threshold,
    rules it plays, no invariant checks), the Cabo build for greedy seats on the rules it
    plays (simulator/kernel/cabo: power_cabo's structure), a user policy's own build when
    every seat plays the user policy and ``user`` says it compiles into one
    (policy_api.inlinable), a built-in's own build when every seat plays a built-in of
    ``own`` (own_build; the runner passes it when that build may be taken), else the table
    build for the rule sets it plays (any seats, no invariant checks), else the general
    build, or its powers build for a power-card game. "lean", "cabo", "own" and "table"
    insist on that build (ValueError when it cannot); "general" never takes the lean, the
    Cabo, a user, an own or the table build; "powers" plays on the powers build whatever the
    rules (it plays every rule set: for benchmarks)."""
    if kernel not in KERNELS:
        raise ValueError(f"kernel = {kernel!r}: expected one of {', '.join(KERNELS)}")
    own_name = own_build(ri, policy_ids, own, check)
    if kernel == "own":
        if own_name is None:
            first = own.get(int(policy_ids[0])) if own else None
            lacks = lacking(first if first in BUILDS else "table", needed_from_ri(ri))
            raise ValueError("kernel = 'own': every seat must play the same built-in (not "
                             "lookahead) on rules its own build plays, without invariant "
                             "checks" + (f" (the own build of {first} lacks "
                                         f"{', '.join(lacks)})" if lacks else ""))
        return own_name
    lean = flow.eligible(ri, policy_ids) and not check
    if kernel == "lean" and not lean:
        lacks = lacking("lean", needed_from_ri(ri))
        raise ValueError("kernel = 'lean': these rules or strategies need the general engine "
                         + (f"(the lean kernel lacks {', '.join(lacks)})" if lacks else
                            "(or invariant checks were asked for)"))
    if kernel == "auto" and user and not check and \
            all(int(p) == K.POLICY_USER for p in policy_ids) and flow.rules_eligible(ri, "user"):
        return "user"
    if lean and kernel in ("auto", "lean"):
        return "lean"
    if kernel in ("auto", "cabo") and not check and cabo.plays(ri, policy_ids):
        return "cabo"
    if kernel == "cabo":
        raise ValueError("kernel = 'cabo': it plays power_cabo's rules (but for counts, values "
                         "and scoring) with every seat greedy, without invariant checks")
    if kernel == "auto" and own_name is not None:
        return own_name
    if kernel in ("auto", "table") and not check and flow.rules_eligible(ri, "table"):
        return "table"
    if kernel == "table":
        raise ValueError("kernel = 'table': these rules need the general engine (the table "
                         f"build lacks {', '.join(lacking('table', needed_from_ri(ri)))})"
                         if lacking("table", needed_from_ri(ri)) else
                         "kernel = 'table': invariant checks need the general engine")
    return "powers" if kernel == "powers" or powers(ri) else "general"


def module(name: str, turns: bool = True, notify=None, rt=None, policy_ids=None,
           log: bool = False):
    """The compiled module of build ``name`` (a user build has one per policy:
    policy_api.user_kernel; a built-in's own build one per built-in: runner.own_kernel), with
    its turn loop provided (engine.build, telling ``notify`` when it compiles it; given the
    rules ``rt`` and the seats, the one their rounds call); ``turns`` False: only to compile
    (or load) the rest of it, which plays no round before its loop is provided."""
    if name == "lean":
        return flow
    if name == "cabo":
        return cabo_round
    return engine.build(name, notify, rt, policy_ids, log) if turns else engine.BUILDS[name]
