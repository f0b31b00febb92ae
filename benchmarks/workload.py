"""Shared driver of the workloads of docs/benchmarks.md: warm up, time one run through the same
path as `golfsim run` (simulator.experiments.runner.run), print ONE JSON line."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def workload(name: str, T: float = 8.0):
    """(rules, strategy) of workload ``name`` (docs/benchmarks.md): "w1" (six_card, greedy) or
    "w2" (four_card without pairs, peeking at the nearest row, knock-threshold with T)."""
    from simulator.game.rules import Rules
    if name == "w1":
        return Rules.preset("six_card"), "greedy"
    if name == "w2":
        return (Rules.preset("four_card", pair_scope="none",
                             initial_reveal_constraint="nearest_row"),
                f"knock-threshold:T={T:g}")
    raise ValueError(f"workload {name!r}: expected w1 or w2")


def parse_args(description: str, argv=None, extra=None):
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--rounds", type=int, default=2_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--chunk-size", type=int, default=None)
    ap.add_argument("--kernel", choices=("auto", "general", "lean"), default="auto",
                    help="auto: the lean kernel when the workload allows it (W1 and W2 do)")
    ap.add_argument("--cold", action="store_true",
                    help="compile into an empty cache (reports the cold compile time)")
    if extra:
        extra(ap)
    args = ap.parse_args(argv)
    if args.cold:  # must happen before the kernel modules are imported
        os.environ["GOLFSIM_CACHE_DIR"] = tempfile.mkdtemp(prefix="golfsim-cold-")
    return args


def measure(name: str, rules, strategy: str, players: int, args) -> tuple[dict, object]:
    """Run the workload and return (the JSON fields common to every workload, totals)."""
    from simulator.experiments.runner import DEFAULT_CHUNK, make_job, run
    from simulator.experiments.warm import warm_up
    from strategies import resolve_seats, seat_arrays

    ids, params = seat_arrays(resolve_seats([strategy], players))
    compile_s = warm_up(rules, players, ids, params, kernel=args.kernel)
    # warm-up proper: touch the code paths and the thread pool before timing
    run(rules, players, ids, params, rounds=min(20_000, args.rounds), seed=args.seed + 1,
        threads=args.threads, kernel=args.kernel)
    t0 = time.perf_counter()
    res = run(rules, players, ids, params, rounds=args.rounds, seed=args.seed,
              threads=args.threads, chunk_size=args.chunk_size or DEFAULT_CHUNK,
              kernel=args.kernel)
    seconds = time.perf_counter() - t0
    t = res.totals
    fields = {
        "workload": name, "rounds": t.rounds, "seconds": round(seconds, 4),
        "rounds_per_s": round(t.rounds / seconds, 1), "threads": args.threads,
        "mean_score": [round(x, 6) for x in t.mean_score()],
        "se_score": [round(x, 6) for x in t.se_score()],
        "mean_turns": round(t.mean_turns(), 6), "se_turns": round(t.se_turns(), 6),
        "win_share": [round(x, 6) for x in t.win_share()],
        "se_win": [round(x, 6) for x in t.se_win()],
        "capped": t.capped, "compile_s": round(compile_s, 3),
        "kernel": "lean" if make_job(rules, players, ids, params, 0,
                                     kernel=args.kernel).lean else "general",
    }
    return fields, t


def emit(fields: dict) -> None:
    print(json.dumps(fields))
