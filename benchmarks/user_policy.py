"""The cost of the user-policy interface: W1's rules and greedy logic played three ways, timed
after warm-up, printed as ONE JSON line:

- ``builtin_general``: the built-in ``greedy`` on the general engine,
- ``user``: the same logic as a user policy (strategies/examples/greedy_policy.py),
  called through a function pointer with per-seat views, on the general engine,
- ``builtin_lean``: the built-in ``greedy`` on the lean kernel (what `golfsim run` uses).

``user_vs_builtin`` is user / builtin_general (the issue asks for at least 0.5).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3, help="best of this many timed runs")
    args = ap.parse_args(argv)

    import numpy as np

    from simulator.rules import Rules
    from simulator.runner import run
    from strategies import resolve_seats, seat_arrays, user_policy

    rules = Rules.preset("six_card")
    example = str(ROOT / "strategies" / "examples" / "greedy_policy.py") + ":decide"
    user_seats = resolve_seats([example], 4)
    user = user_policy(user_seats)
    ways = {
        "builtin_general": (resolve_seats(["greedy"], 4), "general", None),
        "user": (user_seats, "general", user),
        "builtin_lean": (resolve_seats(["greedy"], 4), "auto", None),
    }
    out = {"workload": "W1 rules, greedy logic", "rounds": args.rounds, "threads": 1}
    means = {}
    for name, (seats, kernel, fn) in ways.items():
        ids, params = seat_arrays(seats)
        run(rules, 4, ids, params, rounds=2000, seed=args.seed + 1, kernel=kernel, user=fn)
        best = float("inf")
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            res = run(rules, 4, ids, params, rounds=args.rounds, seed=args.seed, kernel=kernel,
                      user=fn)
            best = min(best, time.perf_counter() - t0)
        out[name] = round(args.rounds / best, 1)
        means[name] = res.totals.mean_score()
    out["user_vs_builtin"] = round(out["user"] / out["builtin_general"], 3)
    out["same_results"] = bool(np.array_equal(means["user"], means["builtin_general"]) and
                               np.array_equal(means["user"], means["builtin_lean"]))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
