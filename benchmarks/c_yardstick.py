"""The engine against a single-purpose C program of W1 or W2 (benchmarks/calibration/w1.c,
w2.c), timed in alternation so that the machine's drifting speed falls on both alike.

The speed targets were set against "a tuned, single-purpose C implementation of W1 [that] does
about 1,330,000 rounds/s on one core of this machine" (W2: "about 1,500,000"). This puts such
a program beside the engine on the machine at hand: it compiles the workload's C file with
``cc -O3 -march=native`` (``--cc`` to choose another compiler) and runs it and ``runner.run``
(the path of ``golfsim run``) for the same number of rounds, slice after slice. Prints ONE
JSON line:

    python benchmarks/c_yardstick.py --workload w1 --rounds 200000 --repeats 15

``engine_vs_c`` is the median over the slices of (C time / engine time): above 1 the engine is
faster. The C program times its rounds only, without its process start.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # importable from elsewhere too (tests/test_c_yardstick.py)
from workload import workload  # noqa: E402  (it puts the project on sys.path as well)

CALIBRATION = HERE / "calibration"


def fail(message: str):
    print(f"c_yardstick: {message}", file=sys.stderr)
    sys.exit(2)


def build(cc: str, out_dir: Path, name: str = "w1") -> Path:
    """Compile calibration/<name>.c; exits with a message when there is no working compiler."""
    if shutil.which(cc) is None:
        fail(f"--cc {cc!r} is not on PATH; install a C compiler (e.g. apt install gcc) or "
             "name one with --cc")
    exe = out_dir / name
    cmd = [cc, "-O3", "-march=native", "-o", str(exe), str(CALIBRATION / f"{name}.c")]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(cmd)} failed:\n{done.stderr}")
    return exe


def run_c(exe: Path, rounds: int, seed: int) -> dict:
    done = subprocess.run([str(exe), str(rounds), str(seed)], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200_000, help="rounds per timed slice")
    ap.add_argument("--repeats", type=int, default=10, help="timed slices of each program")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cc", default="cc", help="C compiler (default: cc)")
    ap.add_argument("--workload", choices=("w1", "w2"), default="w1")
    args = ap.parse_args(argv)

    from simulator.runner import run, warm_up
    from strategies import resolve_seats, seat_arrays

    rules, strategy = workload(args.workload)
    ids, params = seat_arrays(resolve_seats([strategy], 4))
    with tempfile.TemporaryDirectory(prefix="golfsim-c-") as tmp:
        exe = build(args.cc, Path(tmp), args.workload)  # first: it may fail for want of a cc
        warm_up(rules, 4, ids, params)
        run_c(exe, 1000, args.seed)
        run(rules, 4, ids, params, rounds=1000, seed=args.seed)
        t_c, t_engine, c_turns, engine_turns = [], [], 0.0, 0.0
        for rep in range(args.repeats):
            c = run_c(exe, args.rounds, args.seed + rep)
            t_c.append(c["seconds"])
            c_turns += c["mean_turns"]
            t0 = time.perf_counter()
            res = run(rules, 4, ids, params, rounds=args.rounds, seed=args.seed + rep)
            t_engine.append(time.perf_counter() - t0)
            engine_turns += res.totals.mean_turns()
    ratios = sorted(c / e for c, e in zip(t_c, t_engine))
    out = {
        "workload": args.workload.upper(), "threads": 1, "rounds_per_slice": args.rounds,
        "repeats": args.repeats, "compiler": f"{args.cc} -O3 -march=native",
        "c_rounds_per_s": round(args.rounds / statistics.median(t_c), 1),
        "engine_rounds_per_s": round(args.rounds / statistics.median(t_engine), 1),
        "engine_vs_c": round(statistics.median(ratios), 3),
        "engine_vs_c_quartiles": [round(ratios[len(ratios) // 4], 3),
                                  round(ratios[(3 * len(ratios)) // 4], 3)],
        # both play the same workload: W1 near 26.09 turns a round, W2 near 24.2
        "c_mean_turns": round(c_turns / args.repeats, 3),
        "engine_mean_turns": round(engine_turns / args.repeats, 3),
    }
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
