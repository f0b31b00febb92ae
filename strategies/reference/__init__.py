"""The reference engine's policies (simulator/game/reference/, simulator/game/powers/), in plain
Python: ``random``, and ``greedy`` and ``knock-threshold`` of the workloads W1 and W2
(docs/benchmarks.md) with their answers at the power-card games' decisions. They are the
specification the compiled built-ins of strategies/ must match move for move (the parity
tests), and what the reference engine and the RL environments (simulator/env) seat by name.

:mod:`.plain` holds the plain game's rules, :mod:`.powers` the power-card decisions;
:func:`policy_maker` turns a strategy spec into the policy maker a
:class:`simulator.game.reference.Hole` seats, and :mod:`.referee` seats holes by spec.
"""

from __future__ import annotations

from functools import partial

from simulator.game.rules import Rules, uses_power_engine

from .plain import GreedyPolicy, KnockThresholdPolicy, MemoryPool, RandomPolicy, UnseenPool
from .powers import decide

# strategy name -> (policy class, {parameter: default}); a spec is "name" or "name:k=v,..."
POLICIES = {
    "random": (RandomPolicy, {}),
    "greedy": (GreedyPolicy, {}),
    "knock-threshold": (KnockThresholdPolicy, {"T": 8.0}),
}


def parse_strategy(spec: str) -> tuple[type, dict[str, float]]:
    """``"knock-threshold:T=12"`` -> (KnockThresholdPolicy, {"T": 12.0})."""
    name, _, arg_text = spec.strip().partition(":")
    if name not in POLICIES:
        raise ValueError(f"unknown strategy {name!r}; known: {', '.join(POLICIES)}")
    cls, defaults = POLICIES[name]
    params = dict(defaults)
    for item in filter(None, (part.strip() for part in arg_text.split(","))):
        key, eq, text = item.partition("=")
        if not eq or key.strip() not in params:
            raise ValueError(f"strategy {name}: unknown parameter {item!r}")
        params[key.strip()] = float(text)
    return cls, params


def policy_maker(spec: str):
    """The maker of strategy ``spec`` (parse_strategy) for a reference hole:
    ``maker(rules, table, seat, stream)`` -> the seat's policy. In the power-card games a
    greedy-family seat answers their decisions by :func:`.powers.decide`."""
    cls, params = parse_strategy(spec)

    def make(rules: Rules, table, seat: int, stream):
        policy = cls(rules, table, seat, stream, **params)
        if isinstance(policy, GreedyPolicy) and uses_power_engine(rules):
            policy.power_rule = partial(decide, policy)
        return policy
    return make


__all__ = ["POLICIES", "GreedyPolicy", "KnockThresholdPolicy", "MemoryPool", "RandomPolicy",
           "UnseenPool", "decide", "parse_strategy", "policy_maker"]
