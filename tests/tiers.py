"""Test tiers (pyproject.toml): the default run skips tests marked ``slow`` (long statistical
and parity sweeps) and ``bench`` (the benchmark tools). ``sweep`` keeps a few cases of a
parametrised sweep in the default tier and puts the others in the slow tier."""

from __future__ import annotations

import pytest
from _pytest.mark import ParameterSet

slow = pytest.mark.slow


def sweep(cases, keep, ids=None):
    """``cases`` for ``pytest.mark.parametrize``, every one but those in ``keep`` marked slow.

    ``keep`` holds indices into ``cases``, test ids (``ids[i]``, or the id of a
    ``pytest.param``) or cases themselves. A case that is a tuple is one value per argument
    name; anything else (a ``pytest.param`` aside) is the single argument's value. Without
    ``ids`` pytest names the cases as it would have anyway."""
    out, found = [], set()
    for i, case in enumerate(cases):
        if isinstance(case, ParameterSet):
            values, marks, name = case.values, tuple(case.marks), case.id
        else:
            values = case if isinstance(case, tuple) else (case,)
            marks, name = (), None
        if ids is not None:
            name = ids[i]
        kept = i in keep or (name is not None and name in keep) or _holds(keep, case)
        if kept:
            found.add(i)
        out.append(pytest.param(*values, marks=marks if kept else (*marks, slow), id=name))
    assert len(found) >= len(keep), f"sweep: some of {keep} name no case"
    return out


def _holds(keep, case) -> bool:
    try:
        return case in keep
    except TypeError:   # an unhashable case
        return False
