"""simulator/kernel/by_name.py: a compiled function called by name, or through a named slot
filled later, answers as when called directly, from freshly compiled code and from the cache
in a new process; before the slot is filled its caller gets the stand-in's answer."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# a module with a callee provided by name and a cached caller of it (as strategies/
# rollout_models.py provides the rollouts' seat model to lookahead_powers.py)
MODULE = textwrap.dedent("""
    import numpy as np
    from numba import types
    from simulator.kernel import by_name
    from simulator.kernel.jit import hot

    SIG = types.int64(types.int64, types.int32[::1], types.float64[:, ::1], types.int64[::1])

    @hot
    def model(point, g, par, aux):
        aux[0] += 1
        return point * 100 + g[point] + np.int64(par[point % 2, 1])

    by_name.provide("golfsim_test_model", model, SIG)
    model_call = by_name.caller("golfsim_test_model", SIG)

    @hot
    def flow(g, par, aux):
        total = 0
        for point in range(5):
            total = total * 7 + model_call(point, g[1:9], par, aux)
        return total

    @hot
    def direct(g, par, aux):
        total = 0
        for point in range(5):
            total = total * 7 + model(point, g[1:9], par, aux)
        return total

    g = np.arange(10, dtype=np.int32) * 3
    par = np.arange(8.0).reshape(2, 4)
    aux = np.zeros(2, dtype=np.int64)
    aux2 = np.zeros(2, dtype=np.int64)
    print(flow(g, par, aux), direct(g, par, aux2), aux[0], aux2[0],
          sum(flow.stats.cache_hits.values()))
""")


def _fresh_and_cached(tmp_path: Path, text: str) -> tuple[list[int], list[int]]:
    """What the module ``text`` prints, run in a new process with an empty cache, then again
    in another with that cache."""
    module = tmp_path / "case.py"
    module.write_text(text)
    return _run(module, tmp_path / "cache"), _run(module, tmp_path / "cache")


def _run(module: Path, cache: Path) -> list[int]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(module)], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return [int(x) for x in out.stdout.split()]


def test_called_by_name_as_directly_fresh_and_from_the_cache(tmp_path):
    fresh, cached = _fresh_and_cached(tmp_path, MODULE)
    assert fresh[0] == fresh[1] and fresh[2] == fresh[3] == 5   # the same answers, calls
    assert fresh[4] == 0 and cached[4] == 1   # the second process loaded the caller
    assert cached[:4] == fresh[:4]


def test_a_name_is_provided_by_one_function():
    from numba import types

    from simulator.kernel import by_name
    from simulator.kernel.jit import hot

    sig = types.int64(types.int64)

    @hot(cache=False)
    def one(x):
        return x + 1

    @hot(cache=False)
    def other(x):
        return x + 2

    by_name.provide("golfsim_test_once", one, sig)
    by_name.provide("golfsim_test_once", one, sig)   # again: the same function, accepted
    with pytest.raises(RuntimeError, match="golfsim_test_once"):
        by_name.provide("golfsim_test_once", other, sig)


# a cached caller through a slot, compiled and loaded before the callee is compiled at all,
# and a table of first-class function values made from a provided name (as strategies/
# lookahead_powers.py calls the powers build and fills its rollouts' table of policies)
LATE = textwrap.dedent("""
    import numpy as np
    from numba import types
    from simulator.kernel import by_name
    from simulator.kernel.jit import hot

    SIG = types.UniTuple(types.int64, 2)(types.int64, types.int64[::1])
    ONE = types.int64(types.int64)

    @hot
    def stand_in(x, aux):
        return -1, -1

    @hot
    def twice(x):
        return 2 * x

    @hot
    def later(x, aux):
        aux[0] += x
        return x + 1, aux[0]

    by_name.provide("golfsim_test_twice", twice, ONE)
    late = by_name.late_caller("golfsim_test_late", SIG, stand_in)
    twice_value = by_name.pointer("golfsim_test_twice", ONE)

    @hot
    def flow(aux):
        f = twice_value()
        table = (f, f)
        a, b = late(5, aux)
        return a * 1000 + b * 10 + table[1](3)

    aux = np.zeros(1, dtype=np.int64)
    before = flow(aux)
    by_name.provide_late("golfsim_test_late", later, SIG)
    after = flow(aux)
    print(before, after, aux[0], sum(flow.stats.cache_hits.values()))
""")


def test_a_slot_is_called_once_filled_fresh_and_from_the_cache(tmp_path):
    fresh, cached = _fresh_and_cached(tmp_path, LATE)
    # before: the stand-in's (-1, -1) and 2 * 3; after: later(5) = (6, 5)
    assert fresh[:3] == [-1000 - 10 + 6, 6000 + 50 + 6, 5]
    assert fresh[3] == 0 and cached[3] == 1   # the second process loaded the caller
    assert cached[:3] == fresh[:3]


def test_a_slot_takes_only_a_function_of_its_signature():
    from numba import types

    from simulator.kernel import by_name
    from simulator.kernel.jit import hot

    @hot(cache=False)
    def floats(x):
        return x * 0.5

    with pytest.raises(TypeError, match="golfsim_test_typed"):
        by_name.provide_late("golfsim_test_typed", floats, types.int64(types.int64))
