"""Steps per second of simulator.env's two environments, and what the env adds to a step.

For each preset, in alternating timed slices of ``--seconds`` each, one thread:

- ``engine``: the reference engine alone, four seats of ``--strategy`` (default random, whose
  decisions cost least, so that what the env adds shows), ``make_hole(...).play()``, in
  decisions per second (the game itself);
- ``aec_step``: golf_aec with that strategy's decision at every seat
  (``env.strategy_policy`` and ``env.decision``), ``step`` only: the same holes and the same
  decisions through the env, so
  ``step_overhead_us`` = 1/aec_step - 1/engine is what a step adds to the game;
- ``aec_last``: the same with ``env.last()`` (the observation vector and mask) before every
  step, the usual agent loop: ``observe_us`` = 1/aec_last - 1/aec_step;
- ``aec_random``: pettingzoo.test.performance_benchmark's loop (``last()``, then a random
  legal action), steps per second;
- ``gym_random``: golf_gym with greedy opponents, the learning seat's random legal actions,
  learner steps per second (the opponents' moves are played inside them);
- ``observe_call_us``: one ``env.observe(agent)`` (the observation vector and the mask) of
  the agent about to act, timed call by call along the same holes as ``aec_step`` (less
  noisy than ``observe_us``, a difference of two rates; a clock read included).

Also the round trip of one switch into a greenlet and back, against a thread with two
semaphores (why simulator/env/table.py runs a hole in a greenlet). Prints ONE JSON line:
the medians of the slices, and their best (the machine's least disturbed slice: on a shared
machine the closest to its unloaded speed).

    python benchmarks/env_speed.py --presets six_card power_cabo --seconds 2 --repeats 5
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import greenlet  # noqa: E402

from simulator.env import golf_aec, golf_gym  # noqa: E402
from strategies.reference.referee import make_hole  # noqa: E402

SWITCHES = 20_000


def engine(preset: str, seconds: float, strategy: str) -> float:
    env = golf_aec(preset)   # for its checked rules only
    rules = env.config.rules
    n, k, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        n += len(make_hole(rules, 4, [strategy], 1, k).play().log)
        k += 1
    return n / (time.perf_counter() - start)


def aec(preset: str, seconds: float, strategy: str, last: bool) -> float:
    env = golf_aec(preset)
    env.reset(seed=1)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        policies = {a: env.strategy_policy(a, strategy) for a in env.agents}
        for agent in env.agent_iter():
            if last:
                env.last()
            if env.terminations[agent]:
                env.step(None)
                continue
            env.step(policies[agent].choose(env.decision))
            n += 1
        env.reset()
    return n / (time.perf_counter() - start)


def observe_call(preset: str, seconds: float, strategy: str) -> float:
    """Microseconds of one ``env.observe(agent)`` call for the agent about to act, timed
    call by call (a clock read included) along the same holes as ``aec``."""
    env = golf_aec(preset)
    env.reset(seed=1)
    n, spent, start = 0, 0.0, time.perf_counter()
    clock = time.perf_counter
    while clock() - start < seconds:
        policies = {a: env.strategy_policy(a, strategy) for a in env.agents}
        for agent in env.agent_iter():
            if env.terminations[agent]:
                env.step(None)
                continue
            t0 = clock()
            env.observe(agent)
            spent += clock() - t0
            env.step(policies[agent].choose(env.decision))
            n += 1
        env.reset()
    return spent / n * 1e6


def aec_random(preset: str, seconds: float) -> float:
    env = golf_aec(preset)
    env.reset(seed=1)
    rng = random.Random(1)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for agent in env.agent_iter():
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            env.step(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
            n += 1
        env.reset()
    return n / (time.perf_counter() - start)


def gym_random(preset: str, seconds: float) -> float:
    env = golf_gym(preset, opponents="greedy")
    env.reset(seed=1)
    rng = random.Random(1)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, terminated, _, _ = env.step(rng.choice(env.action_masks().nonzero()[0].tolist()))
        n += 1
        if terminated:
            env.reset()
    return n / (time.perf_counter() - start)


def switch_us() -> dict:
    """Microseconds of one round trip (into the game and back) by greenlet and by thread."""
    def game():
        x = main.switch()
        while True:
            x = main.switch(x)

    main = greenlet.getcurrent()
    g = greenlet.greenlet(game)
    g.switch()
    start = time.perf_counter()
    for i in range(SWITCHES):
        g.switch(i)
    by_greenlet = (time.perf_counter() - start) / SWITCHES * 1e6
    ask, answer = threading.Semaphore(0), threading.Semaphore(0)

    def worker():
        for _ in range(SWITCHES):
            ask.acquire()
            answer.release()

    threading.Thread(target=worker, daemon=True).start()
    start = time.perf_counter()
    for _ in range(SWITCHES):
        ask.release()
        answer.acquire()
    by_thread = (time.perf_counter() - start) / SWITCHES * 1e6
    return {"greenlet_us": round(by_greenlet, 2), "thread_us": round(by_thread, 1)}


def measure(preset: str, seconds: float, repeats: int, strategy: str) -> dict:
    kinds = {"engine": lambda: engine(preset, seconds, strategy),
             "aec_step": lambda: aec(preset, seconds, strategy, last=False),
             "aec_last": lambda: aec(preset, seconds, strategy, last=True),
             "aec_random": lambda: aec_random(preset, seconds),
             "gym_random": lambda: gym_random(preset, seconds)}
    rates = {k: [] for k in kinds}
    calls = []
    for _ in range(repeats):
        for k, fn in kinds.items():
            rates[k].append(fn())
        calls.append(observe_call(preset, seconds, strategy))
    out = {}
    for stat, fn, low in (("median", statistics.median, statistics.median), ("best", max, min)):
        got = {k: round(fn(v)) for k, v in rates.items()}
        got["step_overhead_us"] = round(1e6 / got["aec_step"] - 1e6 / got["engine"], 1)
        got["observe_us"] = round(1e6 / got["aec_last"] - 1e6 / got["aec_step"], 1)
        got["observe_call_us"] = round(low(calls), 2)
        out[stat] = got
    return out


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presets", nargs="+", default=["six_card", "power_cabo"])
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one timed slice")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--strategy", default="random", help="every seat's strategy in the "
                    "engine and aec slices")
    args = ap.parse_args(argv)
    result = {"switch": switch_us()}
    for preset in args.presets:
        result[preset] = measure(preset, args.seconds, args.repeats, args.strategy)
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
