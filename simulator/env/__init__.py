"""Every golfsim rule set as a reinforcement-learning environment (docs/env.md).

    from simulator.env import golf_aec, golf_gym
    env = golf_aec("power_cabo", players=4)          # PettingZoo AECEnv, agents player_0..
    env = golf_gym("six_card", opponents=["greedy"])  # Gymnasium Env with action_masks()

Both need the ``rl`` extra (``pip install 'golfsim[rl]'``: pettingzoo, gymnasium, greenlet).
They are imported when an env is made, not here, so that this package's name can be imported
and its error read without them.
"""

from __future__ import annotations

import importlib

from simulator.api import GolfsimError

from .config import check_opponents, make_config

__all__ = ["golf_aec", "golf_gym"]
NEEDS = ("pettingzoo", "gymnasium", "greenlet")


def _module(name: str):
    """One of this package's env modules; without the rl extra a one-line GolfsimError."""
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as e:
        if e.name not in NEEDS:
            raise
        raise GolfsimError(f"the environments need the rl extra ({e.name} is not installed): "
                           "pip install 'golfsim[rl]'") from None


def golf_aec(preset: str | None = None, players: int = 4, rules=None, *,
             reward: str = "score", holes: int | None = None, target: int | None = None,
             render_mode: str | None = None, **options):
    """A PettingZoo AECEnv playing golfsim's ``preset`` (or ``rules``, a RuleSet from
    ``simulator.api.rules``), with rule ``options`` on top, every seat an agent. ``reward``:
    "score" (minus the hole score, at the end of each hole) or "win" (the win share of the
    hole, or with ``holes``/``target`` of the match, at its end)."""
    config = make_config(preset, players, rules, reward, holes, target, options)
    aec = _module("aec")
    _check_render_mode(render_mode, aec.RENDER_MODES)
    return aec.GolfAEC(config, render_mode)


def golf_gym(preset: str | None = None, players: int = 4, rules=None, *,
             opponents=None, reward: str = "score", holes: int | None = None,
             target: int | None = None, illegal_reward: float = -100.0,
             render_mode: str | None = None, **options):
    """A Gymnasium Env: one learning seat (seat (seed + i) % players in hole or match i of a
    seed), the other seats played by ``opponents`` (one strategy for all, or one per seat
    after the learning one; default golfsim's default strategy). An action the mask forbids
    ends the episode with ``illegal_reward``. The other arguments are golf_aec's."""
    config = make_config(preset, players, rules, reward, holes, target, options)
    single = _module("single")
    specs = check_opponents(opponents, config.rules, config.players)
    _check_render_mode(render_mode, single.RENDER_MODES)
    return single.GolfGym(config, specs, _number(illegal_reward, "illegal_reward"), render_mode)


def _check_render_mode(mode, allowed) -> None:
    if mode is not None and mode not in allowed:
        raise GolfsimError(f"render_mode: {mode!r} is not one of "
                           f"{', '.join(repr(m) for m in allowed)} (or None)")


def _number(value, name: str) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        x = float("nan")
    if isinstance(value, bool) or x != x or x in (float("inf"), float("-inf")):
        raise GolfsimError(f"{name}: {value!r} is not a finite number")
    return x
