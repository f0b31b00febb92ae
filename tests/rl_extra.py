"""Whether the ``rl`` extra (pettingzoo, gymnasium, greenlet) is installed, for the tests of
the environments: without it they skip, saying how to install it."""

from __future__ import annotations

import importlib.util

import pytest

RL = ("pettingzoo", "gymnasium", "greenlet")
HAVE_RL = all(importlib.util.find_spec(m) is not None for m in RL)
needs_rl = pytest.mark.skipif(not HAVE_RL, reason="the rl extra is not installed "
                              "(pip install 'golfsim[rl]')")
