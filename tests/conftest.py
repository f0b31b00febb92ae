"""Before the first test: compile the builds the tests use, on every CPU at once.

Tests compile what they use on first use, one build after another on one core; from an empty
cache that alone would take most of the default tier's time. ``simulator.experiments.warm``
compiles the same builds on one process per CPU into the shared on-disk cache, so the tests only
load them.
Nothing is done when everything is compiled already. The default tier leaves out the builds
that take longest to compile for the fewest tests (``SLOW_BUILDS``: the power-card games'
engine and lookahead's rollouts): their tests are in the slow tier, and a default-tier test that
would compile one fails and says so, so the tier stays within its five minutes. The slow tier
also plays the example user policy's own kernel, which is compiled alongside."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

EXAMPLE_POLICY = Path(__file__).resolve().parents[1] / "strategies" / "examples" / \
    "greedy_policy.py"
# a run with a user policy in every seat waits for the policy's own build (policy_api.waits),
# so that the tests of that build play on it; tests/test_first_user_run.py plays without
os.environ.setdefault("GOLFSIM_USER_BUILD", "wait")
# a run of one built-in in every seat plays on the table build, as before the built-ins' own
# builds (each would compile a minute or more); tests/test_own_build.py asks for them
os.environ.setdefault("GOLFSIM_OWN_BUILD", "no")

# compiled for the slow tier only (about a minute each on 2 cores, for a few dozen tests)
SLOW_BUILDS = ("powers", "powers:turns", "powers:matches", "policy:lookahead",
               "policy:lookahead-powers")


def _slow_selected(config) -> bool:
    """Does this session run slow tests (``-m slow``, ``-m ''``, ...)?"""
    return "not slow" not in (config.option.markexpr or "")


# first, before pytest-xdist's own hook starts the workers (``-n``): they find everything
# compiled and compile nothing
@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    if os.environ.get("NUMBA_DISABLE_JIT"):
        return
    # imported before any test, also in a worker: simulator.kernel.jit's warning filters then
    # hold for the whole session (imported inside a test, pytest would undo them after it)
    from simulator.kernel import builds
    from simulator.experiments import warm
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    plan = [name for name in warm.PLAN if name not in SLOW_BUILDS]
    if _slow_selected(session.config):
        plan += [name for name in SLOW_BUILDS if name not in plan]
        plan.append(f"user:{EXAMPLE_POLICY}:decide")
    cold = [name for name in plan if not builds.is_compiled(name)]
    if not cold:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"compiling {', '.join(cold)} on {os.cpu_count()} processes "
                            "before the tests (once per version)")
    warm.warm(cold, jobs=os.cpu_count() or 1)


def pytest_configure(config):
    """In a session without the slow tier, compiling one of SLOW_BUILDS is a test's error: it
    belongs in the slow tier (the build is then compiled before the tests, with the others).
    Caught where compiled code starts compiling (a cache miss), whoever calls it, and where a
    run hands builds to other processes to compile."""
    if os.environ.get("NUMBA_DISABLE_JIT") or _slow_selected(config):
        return
    from numba.core import event

    from simulator.experiments import warm
    from simulator.kernel import builds

    def refuse(what):
        pytest.fail(f"this test compiles {what}, which only the slow tier compiles "
                    "(tests/conftest.py SLOW_BUILDS): mark it slow", pytrace=False)

    class Listener(event.Listener):
        def on_start(self, ev):
            module = getattr(ev.data["dispatcher"].py_func, "__module__", "") or ""
            if module.startswith("golfsim_flow_powers"):
                refuse("the power-card games' engine")
            if module.startswith("strategies.lookahead"):
                refuse("lookahead")

        def on_end(self, ev):
            pass
    event.register("numba:compile", Listener())
    warm_builds = warm.warm

    def guarded_warm(plan=warm.PLAN, *args, **kwargs):
        cold = [n for n in plan if n in SLOW_BUILDS and not builds.is_compiled(n)]
        if cold:
            refuse(", ".join(cold))
        return warm_builds(plan, *args, **kwargs)
    warm.warm = guarded_warm
