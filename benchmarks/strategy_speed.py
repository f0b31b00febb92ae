"""Rounds per second of every built-in strategy, each played by all four seats, beside W1 on the
lean build and the shared yardstick's W1 in C, in one run, one thread. Prints ONE JSON line:

    python benchmarks/strategy_speed.py [--seconds 1] [--presets six_card,power_cabo]

For each preset and strategy it times the strategy's rounds between two timings of W1 on the
lean build (``greedy``, six_card, four seats) and of the C program, so every ratio compares
programs timed within seconds of each other on a machine whose speed drifts:
``vs_lean_w1`` is the strategy's rounds/s over the lean build's, ``vs_c_w1`` over the C
program's. The run goes through the path of `golfsim run` after a warm-up (compile excluded),
on the build ``auto`` picks (``--kernel`` forces one: ``table``, ``general``, ``own``). A
built-in that ``auto`` plays on its own build (every built-in but greedy, knock-threshold and
lookahead on the common rule sets; the run waits for that build to compile,
GOLFSIM_USER_BUILD=wait) is timed on the table build too, its row's ``table``. Each timing
plays about ``--seconds`` of rounds (sized from a first, shorter one), so that a run's fixed
costs weigh alike on fast and slow strategies. Without the yardstick
(shared/yardstick beside the project, or $GOLFSIM_YARDSTICK) the C columns are null and the
output says why.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import c_yardstick  # noqa: E402  (puts the project on sys.path as well)

# auto waits for a built-in's own build rather than timing the table build while it compiles
os.environ.setdefault("GOLFSIM_USER_BUILD", "wait")


def _timed(rules, ids, params, rounds, seed, kernel="auto"):
    from simulator.experiments.runner import run
    t0 = time.perf_counter()
    res = run(rules, 4, ids, params, rounds=rounds, seed=seed, kernel=kernel)
    return rounds / (time.perf_counter() - t0), res


def sized(rate: float, seconds: float) -> int:
    """Rounds that take about ``seconds`` at ``rate`` rounds/s."""
    return max(50, int(rate * seconds))


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="length of each timing")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--presets", default="six_card,power_cabo")
    ap.add_argument("--kernel", choices=("auto", "general", "table", "own", "powers"),
                    default="auto")
    ap.add_argument("--only", default=None, help="comma-separated strategies (default: all)")
    ap.add_argument("--yardstick", metavar="DIR", default=None,
                    help="the folder of w1.c (default: $GOLFSIM_YARDSTICK, else "
                         "shared/yardstick beside the project's folder)")
    args = ap.parse_args(argv)

    from simulator.experiments.runner import run
    from simulator.game.rules import Rules
    from strategies import STRATEGIES, resolve_seats, seat_arrays
    from workload import workload

    folder = c_yardstick.yardstick_dir(args.yardstick).resolve()
    cc = c_yardstick.default_cc()
    why = c_yardstick.missing(folder, ("w1",)) or \
        (None if shutil.which(cc) else f"no C compiler ({cc}) on PATH")
    w1_rules, w1_strategy = workload("w1")
    w1 = seat_arrays(resolve_seats([w1_strategy], 4))
    names = args.only.split(",") if args.only else list(STRATEGIES)
    out = {"threads": 1, "players": 4, "kernel": args.kernel, "seconds": args.seconds,
           "yardstick": str(folder) if why is None else None,
           "yardstick_missing": why, "presets": {}}
    with tempfile.TemporaryDirectory(prefix="golfsim-c-") as tmp:
        exe = c_yardstick.build(cc, Path(tmp), "w1", folder) if why is None else None
        run(w1_rules, 4, *w1, rounds=1000, seed=args.seed)   # compile or load, warm up
        w1_rounds = sized(_timed(w1_rules, *w1, 20_000, args.seed)[0], args.seconds)

        def references():
            lean, _ = _timed(w1_rules, *w1, w1_rounds, args.seed)
            c = None
            if exe is not None:
                c = w1_rounds / c_yardstick.run_c(exe, w1_rounds, args.seed)["seconds"]
            return lean, c

        def timing(rules, ids, params, kernel) -> dict:
            """The rounds/s of these seats on ``kernel``, beside W1's timed around it."""
            first = 0.1 * args.seconds * _timed(rules, ids, params, 50, args.seed + 2,
                                                kernel)[0]
            rounds = sized(_timed(rules, ids, params, max(int(first), 50), args.seed + 3,
                                  kernel)[0], args.seconds)
            before = references()
            rate, res = _timed(rules, ids, params, rounds, args.seed, kernel)
            after = references()
            lean = statistics.mean([before[0], after[0]])
            row = {"build": res.build, "rounds": rounds, "rounds_per_s": round(rate),
                   "mean_turns": round(res.totals.mean_turns(), 2),
                   "lean_w1_rounds_per_s": round(lean), "vs_lean_w1": round(rate / lean, 3)}
            if exe is not None:
                c = statistics.mean([before[1], after[1]])
                row.update(c_w1_rounds_per_s=round(c), vs_c_w1=round(rate / c, 3))
            return row

        for preset in args.presets.split(","):
            rules = Rules.preset(preset)
            table = {}
            for name in names:
                ids, params = seat_arrays(resolve_seats([name], 4))
                try:
                    warm = run(rules, 4, ids, params, rounds=20, seed=args.seed + 1,
                               kernel=args.kernel)   # compile or load
                except ValueError as e:   # a strategy or build these rules cannot field
                    table[name] = {"refused": str(e)}
                    continue
                row = timing(rules, ids, params, args.kernel)
                if warm.build.startswith("own:"):   # its own build beside the table build
                    run(rules, 4, ids, params, rounds=20, seed=args.seed + 1, kernel="table")
                    row["table"] = timing(rules, ids, params, "table")
                table[name] = row
                print(f"{preset} {name}: {row}", file=sys.stderr, flush=True)
            out["presets"][preset] = table
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
