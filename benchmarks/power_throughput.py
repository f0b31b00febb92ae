"""Throughput of the power-card games against W1, side by side, on the build that plays them.

Four seats of the greedy family play ``power_cabo`` (by default; ``--preset`` for another
power preset) on the general engine's powers build, and W1 (docs/benchmarks.md#w1: six_card,
four ``greedy`` seats) plays on that same build (``kernel="powers"``, which plays every rule set
exactly as the general engine does), in alternating timed slices after warm-up, one thread.
W1 on its own lean kernel is timed too, for scale, and the power game on the build ``auto``
picks (``power_auto``: the Cabo build for power_cabo with four ``greedy``). Prints ONE JSON
line: rounds/s of each (median of the slices), ``ratio_same_build`` = power game / W1 on the
powers build, and ``ratio_auto_to_w1_lean`` = the power game on its ``auto`` build / W1 on
the lean build, slice by slice (issue 41 asks 1/3 of power_cabo with four ``greedy``).

    python benchmarks/power_throughput.py --rounds 100000 --repeats 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=100_000, help="rounds per timed slice")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--preset", default="power_cabo")
    ap.add_argument("--strategy", default="greedy", help="the four seats' strategy")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    from simulator.experiments.runner import run
    from simulator.game.rules import Rules
    from strategies import resolve_seats, seat_arrays

    def seats(name):
        return seat_arrays(resolve_seats([name], 4))

    cases = {
        "power": (Rules.preset(args.preset), seats(args.strategy), "powers"),
        "power_auto": (Rules.preset(args.preset), seats(args.strategy), "auto"),
        "w1_powers_build": (Rules.preset("six_card"), seats("greedy"), "powers"),
        "w1_lean": (Rules.preset("six_card"), seats("greedy"), "auto"),
    }
    rates: dict[str, list[float]] = {name: [] for name in cases}
    turns = {}
    for name, (rules, (ids, params), kernel) in cases.items():   # compile or load, warm up
        run(rules, 4, ids, params, rounds=2000, seed=args.seed + 1, threads=1, kernel=kernel)
    for k in range(args.repeats):
        for name, (rules, (ids, params), kernel) in cases.items():
            t0 = time.perf_counter()
            res = run(rules, 4, ids, params, rounds=args.rounds, seed=args.seed + k,
                      threads=1, kernel=kernel)
            rates[name].append(args.rounds / (time.perf_counter() - t0))
            turns[name] = round(res.totals.mean_turns(), 2)
    med = {name: statistics.median(r) for name, r in rates.items()}
    ratios = [p / w for p, w in zip(rates["power"], rates["w1_powers_build"])]
    auto = [p / w for p, w in zip(rates["power_auto"], rates["w1_lean"])]
    fields = {
        "preset": args.preset, "strategy": args.strategy, "rounds_per_slice": args.rounds,
        "repeats": args.repeats,
        **{f"{name}_rounds_per_s": round(v) for name, v in med.items()},
        **{f"{name}_mean_turns": v for name, v in turns.items()},
        "ratio_same_build": round(statistics.median(ratios), 3),
        "ratio_same_build_range": [round(min(ratios), 3), round(max(ratios), 3)],
        "ratio_to_w1_lean": round(med["power"] / med["w1_lean"], 3),
        "ratio_auto_to_w1_lean": round(statistics.median(auto), 3),
        "ratio_auto_to_w1_lean_range": [round(min(auto), 3), round(max(auto), 3)],
    }
    print(json.dumps(fields))
    return fields


if __name__ == "__main__":
    main()
