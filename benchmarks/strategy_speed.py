"""Rounds per second of every built-in strategy, each played by all four seats of a rule set
(default: six_card) on one thread, after warm-up, through the path of `golfsim run`. Prints
ONE JSON line, ``rounds_per_s`` by strategy:

    python benchmarks/strategy_speed.py --rounds 20000

Tournaments, `compare`, `tune` and `guide` spend their time in these policies, and all but
``greedy`` and ``knock-threshold`` play on the general engine (``--kernel general`` puts those
two there as well, for a like-for-like table). ``lookahead`` plays a tenth of the rounds: each
of its decisions plays out rollouts.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--preset", default="six_card")
    ap.add_argument("--kernel", choices=("auto", "general"), default="auto")
    ap.add_argument("--only", default=None, help="comma-separated strategies (default: all)")
    args = ap.parse_args(argv)

    from simulator.game.rules import Rules
    from simulator.experiments.runner import run
    from strategies import STRATEGIES, resolve_seats, seat_arrays

    rules = Rules.preset(args.preset)
    names = args.only.split(",") if args.only else list(STRATEGIES)
    rates = {}
    for name in names:
        ids, params = seat_arrays(resolve_seats([name], 4))
        rounds = max(args.rounds // 10, 1) if name == "lookahead" else args.rounds
        try:
            run(rules, 4, ids, params, rounds=min(rounds, 200), seed=args.seed + 1,
                kernel=args.kernel)   # compile or load, and warm up
        except ValueError as e:   # a strategy these rules cannot field
            rates[name] = str(e)
            continue
        t0 = time.perf_counter()
        run(rules, 4, ids, params, rounds=rounds, seed=args.seed, kernel=args.kernel)
        rates[name] = round(rounds / (time.perf_counter() - t0))
    out = {"preset": args.preset, "players": 4, "threads": 1, "kernel": args.kernel,
           "rounds": args.rounds, "rounds_per_s": rates}
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
