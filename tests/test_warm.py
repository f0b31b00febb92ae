"""How ``golfsim warm`` (and the test suite before its first test) shares the builds among
processes: builds that share compiled code stay in one process, and the processes get about
equal estimated compile times."""

from __future__ import annotations

import pytest

from simulator.experiments import warm
from simulator.kernel import builds


@pytest.mark.parametrize("jobs", [1, 2, 3, 8])
def test_every_build_is_compiled_once_and_groups_stay_together(jobs):
    plan = list(warm.PLAN)
    shares = warm.shares(plan, jobs)
    assert sorted(n for share in shares for n in share) == sorted(plan)
    assert len(shares) <= jobs
    for group in warm.TOGETHER:
        holders = {i for i, share in enumerate(shares) for n in share if n in group}
        assert len(holders) == 1, (group, shares)


def test_the_processes_get_about_equal_compile_times():
    plan = list(warm.PLAN)
    costs = [sum(builds.estimate(n) for n in share) for share in warm.shares(plan, 2)]
    # no unit (a TOGETHER group or a lone build) could move to make the longer one shorter
    largest_unit = max(sum(builds.estimate(n) for n in group) for group in warm.TOGETHER)
    assert max(costs) - min(costs) <= largest_unit, costs


def test_a_part_of_a_group_goes_alone():
    """A run that needs only some of a group's builds compiles just those."""
    shares = warm.shares(["policy:heuristic", "general"], 2)
    assert sorted(map(sorted, shares)) == [["general"], ["policy:heuristic"]]


def test_a_first_power_run_compiles_the_turn_loop_beside_the_rest():
    """The powers build's turn loop compiles apart from the rest of the build (its rounds
    call it through a slot), so a first power-card run with greedy's policy spreads the three
    over two processes: the loop alone, the rest beside the policy."""
    shares = warm.shares(["powers", "powers:turns", "policy:greedy-powers"], 2)
    assert sorted(map(sorted, shares)) == [["policy:greedy-powers", "powers"], ["powers:turns"]]


def test_a_process_compiling_a_build_compiles_only_that(monkeypatch):
    """A process given a build of a plan's share (warm_one) compiles that build and nothing
    else: not its turn loop (a part of its own) and no further processes, which would in
    turn start processes of their own while the plan is not compiled."""
    from simulator.kernel import engine
    called = []
    monkeypatch.setattr(warm, "compile_apart", lambda *a, **k: called.append("apart"))
    monkeypatch.setattr(engine, "build", lambda *a, **k: called.append("build"))
    monkeypatch.setattr(engine, "provide", lambda part, *a, **k: called.append(part))
    warm.warm_one("general")
    assert called == []
    warm.warm_one("general:turns")
    warm.warm_one("general:cache")
    assert called == ["general:turns", "general:cache"]


def test_warm_compiles_every_build_a_built_in_reaches():
    """The power-card games' engine and lookahead's power rollouts included (a first power
    command after ``golfsim warm`` should compile nothing)."""
    from strategies import STRATEGIES
    for name in ("lean", "general", "general:turns", "general:cache", "general:matches", "powers",
                 "powers:turns", "powers:matches", "policy:lookahead-powers"):
        assert name in warm.PLAN
    for strategy in STRATEGIES:
        if strategy != "random":     # random's policy is compiled into the engine
            assert f"policy:{strategy}" in warm.PLAN, strategy


def test_a_compile_says_how_long_it_has_been_at_it():
    """A first run that compiles for a minute says so as it goes, and when it is done."""
    import time
    said = []
    with builds.elapsed("the power-card games' engine", said.append, every=0.05):
        time.sleep(0.18)
    assert any(m.startswith("still compiling the power-card games' engine: ") for m in said)
    assert said[-1].startswith("compiled the power-card games' engine in ")
    said.clear()
    with pytest.raises(KeyError):
        with builds.elapsed("x", said.append, every=10):
            raise KeyError("failed")
    assert said == []            # a failed compile claims nothing
    with builds.elapsed("x", None):
        pass                     # nobody to tell: nothing happens
