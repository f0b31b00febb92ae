"""BENCHMARK.md W1: six-card standard, 4 players, `greedy` in every seat.

Prints ONE JSON line with the statistics BENCHMARK.md asks for and the throughput after
warm-up. It goes through the same path as `golfsim run` (simulator.runner.run), so what it
measures is what users get. ``compile_s`` is the time to compile the kernel or load it from
Numba's on-disk cache; ``--cold`` compiles into an empty cache to report the cold compile.

    python benchmarks/w1.py --rounds 10000000 --seed 1 --threads 2
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--chunk-size", type=int, default=None)
    ap.add_argument("--cold", action="store_true",
                    help="compile into an empty cache (reports the cold compile time)")
    return ap.parse_args(argv)


def main(argv=None) -> dict:
    args = parse_args(argv)
    if args.cold:  # must happen before numba is imported
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="golfsim-cold-")
    from simulator.rules import Rules
    from simulator.runner import DEFAULT_CHUNK, run, warm_up
    from strategies import resolve_seats, seat_arrays

    players = 4
    rules = Rules.preset("six_card")
    ids, params = seat_arrays(resolve_seats(["greedy"], players))
    compile_s = warm_up(rules, players, ids, params)
    # warm-up proper: touch the code paths and the thread pool before timing
    run(rules, players, ids, params, rounds=min(20_000, args.rounds), seed=args.seed + 1,
        threads=args.threads)
    chunk = args.chunk_size or DEFAULT_CHUNK
    t0 = time.perf_counter()
    res = run(rules, players, ids, params, rounds=args.rounds, seed=args.seed,
              threads=args.threads, chunk_size=chunk)
    seconds = time.perf_counter() - t0
    t = res.totals
    out = {
        "workload": "W1", "rounds": t.rounds, "seconds": round(seconds, 4),
        "rounds_per_s": round(t.rounds / seconds, 1), "threads": args.threads,
        "mean_score": [round(x, 6) for x in t.mean_score()],
        "se_score": [round(x, 6) for x in t.se_score()],
        "mean_turns": round(t.mean_turns(), 6), "se_turns": round(t.se_turns(), 6),
        "win_share": [round(x, 6) for x in t.win_share()],
        "se_win": [round(x, 6) for x in t.se_win()],
        "capped": t.capped, "compile_s": round(compile_s, 3),
    }
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
