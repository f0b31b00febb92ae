"""Compiling ahead: what a run needs before it plays (``warm_up``), and ``golfsim warm``, the
common builds on several processes at once.

Numba compiles on one core; the builds are independent (the general engine calls the built-in
policies through pointers, strategies/compiled.py), so each process compiles a share of them
into the shared on-disk cache, and a later run only loads them. The test suite does the same
before its first test (tests/conftest.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

from strategies import compiled, resolve_seats, seat_arrays, user_policy

from ..game.rules import Rules
from ..kernel import builds, engine
from . import runner

# the general engine, its turn loop and its rounds from the lean cache (compiled apart:
# engine.build) and its match play
ENGINE_PLAN = ("general", "general:turns", "general:cache", "general:matches")
# the same of the power-card games' engine, whose turn loop lookahead's rollouts play too
POWERS_PLAN = ("powers", "powers:turns", "powers:matches")
# the built-ins that answer power decisions through greedy's rule (strategies/powers.py): the
# first of them to compile in a process compiles that rule, the others load it (greedy and
# knock-threshold have it in their powers entries only)
GREEDY_FAMILY = ("greedy-powers", "knock-threshold-powers", "heuristic", "forgetful",
                 "opponent-aware", "ev", "guide")
POLICIES = GREEDY_FAMILY + ("greedy", "knock-threshold", "lookahead", "lookahead-powers")
# every build a built-in strategy can reach
PLAN = ("lean", "table", "cabo") + ENGINE_PLAN + POWERS_PLAN + \
    tuple(f"policy:{p}" for p in POLICIES)
# builds that share compiled code stay in one process, in this order: match play extends its
# engine (not its turn loop, which it calls by name), the family and the power games'
# lookahead (its seats' models) share greedy's power rule, and the plain lookahead's rollouts
# play the lean build (compiled apart, each process would compile them again)
TOGETHER = (("general", "general:matches"), ("powers", "powers:matches"),
            tuple(f"policy:{p}" for p in GREEDY_FAMILY) + ("policy:lookahead-powers",),
            ("lean", "policy:lookahead"))


def warm_one(name: str, notify=None) -> float:
    """Compile (or load) ``name``: a build of features.BUILDS (lean, general, powers), what
    fills its slots (engine.SLOT_PARTS: ``general:turns``, ``general:cache``,
    ``powers:turns``), its match play (``general:matches``,
    ``powers:matches``), a built-in's ``policy:NAME`` such
    as ``policy:lookahead-powers``, ``own:NAME`` for a built-in's own build, or
    ``user:FILE:FUNCTION`` for a user policy's own build; returns the seconds it took."""
    t0 = time.perf_counter()
    if name.startswith("user:"):   # user:FILE:FUNCTION, a user policy's own kernel
        path, function = name[len("user:"):].rsplit(":", 1)
        seats = resolve_seats([f"{path}:{function}"], 4)
        ids, params = seat_arrays(seats)
        with builds.compiling(name):   # (user_kernel itself says when it compiles one)
            warm_up(Rules.preset("six_card"), 4, ids, params, user=user_policy(seats),
                    notify=notify)
    elif name.startswith("own:"):   # own:NAME, every seat playing built-in NAME
        ids, params = seat_arrays(resolve_seats([name[len("own:"):]], 4))
        warm_up(Rules.preset("six_card"), 4, ids, params, kernel="own", notify=notify)
    elif name.startswith("policy:"):
        compiled.entry_named(name.split(":", 1)[1], notify)
    elif name in engine.SLOT_PARTS:
        engine.provide(name, notify)
    else:   # a build, played on the kernel of its name (pick.build)
        build, _, matches = name.partition(":")
        rules = Rules.preset("power_cabo" if build in ("powers", "cabo") else "six_card")
        ids, params = seat_arrays(resolve_seats(
            ["greedy" if build in ("lean", "cabo") else "random"], 4))
        warm_up(rules, 4, ids, params, kernel=build, notify=notify, holes=9 if matches else 0,
                alone=True)
    return time.perf_counter() - t0


def compile_apart(arrays, policy_ids, kernel: str, match_mode: bool, notify) -> None:
    """When a run on the general engine needs more than one build that is not compiled yet
    (the engine, its policies, match play), compile them on one process per CPU at once, as
    ``golfsim warm`` does: a first run of ``heuristic`` or ``lookahead`` then waits for the
    longest build, not for their sum. ``arrays``: the rules flattened (check_policies)."""
    cpus = os.cpu_count() or 1
    build = runner.build_of(arrays, policy_ids, kernel)
    if cpus < 2 or build in ("lean", "cabo") or build.startswith("own:"):
        return
    needed = [build] + engine.slot_parts(build, engine.pack_rules(arrays), policy_ids) + \
        ([f"{build}:matches"] if match_mode else []) + sorted(
        {f"policy:{compiled.build_name(int(p), build == 'powers')}" for p in policy_ids
         if int(p) in compiled.ENTRIES})
    cold = [name for name in needed if not builds.is_compiled(name)]
    if len(cold) < 2:
        return
    jobs = min(cpus, len(cold))
    if notify is not None:
        longest = max(sum(builds.estimate(n) for n in share) for share in shares(cold, jobs))
        notify(f"compiling {', '.join(builds.describe(n) for n in cold)} on {jobs} processes "
               f"at once (once per version; about {longest:.0f} s)")
    try:
        with builds.elapsed(", ".join(builds.describe(n) for n in cold), notify):
            warm(cold, jobs=jobs)
    except (RuntimeError, OSError):
        pass   # each build is then compiled here, one after another, as without this


def warm_up(rules, players: int, policy_ids, params, kernel: str = "auto",
            user=None, notify=None, holes: int = 0, target: int = 0,
            arrays=None, alone: bool = False) -> float:
    """Compile (or load from the cache) what a run of these rules and seats needs, telling
    ``notify`` what it compiles; returns the seconds it took. ``arrays``: the rules as
    runner.check_policies returned them, when already checked. ``alone``: only the build
    itself, on this process (one of the processes compiling a plan's shares: warm_one), not
    what fills its slots (engine.SLOT_PARTS) nor other processes."""
    t0 = time.perf_counter()
    match_mode = holes > 0 or target > 0
    kernel = "general" if match_mode else kernel
    if arrays is None:
        arrays = runner.check_policies(rules, players, policy_ids)
    if user is None and not alone:
        compile_apart(arrays, policy_ids, kernel, match_mode, notify)
    job = runner.make_job(rules, players, policy_ids, params, 0, kernel=kernel, user=user,
                          notify=notify, arrays=arrays)
    # no round is played: a call compiles (or loads) the build whatever it plays, and a user
    # policy that never returns would hold this thread where Ctrl-C cannot reach it
    with builds.compiling(job.compiles, notify):
        runner.play_chunk(job, 0, 0)
    if not alone and engine.slot_parts(job.build):
        engine.build(job.build, notify, job.rt, job.policy_ids)
    if match_mode:
        with builds.compiling(job.match_build, notify):
            runner.play_match_chunk(job, 0, 0, holes, target)
    return time.perf_counter() - t0


def shares(plan, jobs: int) -> list[list[str]]:
    """``plan`` cut into ``jobs`` lists of about equal estimated compile time, the builds of
    each TOGETHER group in one list (largest first, each to the list with the least)."""
    units = [[n for n in plan if n in group] for group in TOGETHER]
    units = [u for u in units if u] + [[n] for n in plan
                                       if not any(n in group for group in TOGETHER)]
    units.sort(key=lambda u: sum(builds.estimate(n) for n in u), reverse=True)
    groups: list[list[str]] = [[] for _ in range(max(1, jobs))]
    cost = [0.0] * len(groups)
    for unit in units:
        i = cost.index(min(cost))
        groups[i] += unit
        cost[i] += sum(builds.estimate(n) for n in unit)
    return [g for g in groups if g]


def warm(plan=PLAN, jobs: int = 1, notify=None, done=None) -> None:
    """Compile every build of ``plan``; ``done(name, seconds)`` after each. With ``jobs`` > 1
    the builds are shared among that many processes. Raises cache.CacheError (before any
    process starts) when the cache folder cannot be written."""
    builds.ready()
    groups = shares(plan, jobs)
    if len(groups) == 1:
        for name in groups[0]:
            seconds = warm_one(name, notify)
            if done is not None:
                done(name, seconds)
        return
    procs = [subprocess.Popen([sys.executable, "-m", "simulator.experiments.warm", *g],
                              stdout=subprocess.PIPE, text=True, env=dict(os.environ))
             for g in groups]
    lock = threading.Lock()

    def follow(proc):   # each prints "<seconds> <name>" per build it compiled
        for line in proc.stdout:
            seconds, name = line.split(maxsplit=1)
            if done is not None:
                with lock:
                    done(name.strip(), float(seconds))
    readers = [threading.Thread(target=follow, args=(p,), daemon=True) for p in procs]
    try:
        for r in readers:
            r.start()
        failed = [p.wait() for p in procs]
        for r in readers:
            r.join()
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    if any(failed):
        raise RuntimeError("golfsim warm: a compiling process failed (its error is above)")


if __name__ == "__main__":
    for build in sys.argv[1:]:
        print(f"{warm_one(build):.1f} {build}", flush=True)
