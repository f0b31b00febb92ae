"""Before the first test: compile the builds the tests use, on every CPU at once.

Tests compile what they use on first use, one build after another on one core; from an empty
cache that alone would take most of the default tier's time. ``simulator.experiments.warm``
compiles the same builds on one process per CPU into the shared on-disk cache, so the tests only
load them.
Nothing is done when everything is compiled already. The slow tier also plays the example user
policy's own kernel, which is compiled alongside."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

EXAMPLE_POLICY = Path(__file__).resolve().parents[1] / "strategies" / "examples" / \
    "greedy_policy.py"


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
    plan = list(warm.PLAN) + list(warm.POWERS_PLAN)   # the power-card games' tests too
    markexpr = session.config.option.markexpr or ""
    if "slow" in markexpr and "not slow" not in markexpr:
        plan.append(f"user:{EXAMPLE_POLICY}:decide")
    cold = [name for name in plan if not builds.is_compiled(name)]
    if not cold:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"compiling {', '.join(cold)} on {os.cpu_count()} processes "
                            "before the tests (once per version)")
    warm.warm(cold, jobs=os.cpu_count() or 1)
