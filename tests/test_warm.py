"""How ``golfsim warm`` (and the test suite before its first test) shares the builds among
processes: builds that share compiled code stay in one process, and the processes get about
equal estimated compile times."""

from __future__ import annotations

import pytest

from simulator.experiments import warm
from simulator.kernel import builds


@pytest.mark.parametrize("jobs", [1, 2, 3, 8])
def test_every_build_is_compiled_once_and_groups_stay_together(jobs):
    plan = list(warm.PLAN) + list(warm.POWERS_PLAN)
    shares = warm.shares(plan, jobs)
    assert sorted(n for share in shares for n in share) == sorted(plan)
    assert len(shares) <= jobs
    for group in warm.TOGETHER:
        holders = {i for i, share in enumerate(shares) for n in share if n in group}
        assert len(holders) == 1, (group, shares)


def test_the_processes_get_about_equal_compile_times():
    plan = list(warm.PLAN) + list(warm.POWERS_PLAN)
    costs = [sum(builds.estimate(n) for n in share) for share in warm.shares(plan, 2)]
    # no unit (a TOGETHER group or a lone build) could move to make the longer one shorter
    largest_unit = max(sum(builds.estimate(n) for n in group) for group in warm.TOGETHER)
    assert max(costs) - min(costs) <= largest_unit, costs


def test_a_part_of_a_group_goes_alone():
    """A run that needs only some of a group's builds compiles just those."""
    shares = warm.shares(["policy:heuristic", "engine"], 2)
    assert sorted(map(sorted, shares)) == [["engine"], ["policy:heuristic"]]
