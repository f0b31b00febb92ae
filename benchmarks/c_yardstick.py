"""The engine against the shared speed yardstick, the single-purpose C programs of W1 and W2
in ``../shared/yardstick/`` (w1.c, w2.c), timed in alternation so that the machine's drifting
speed falls on both alike.

The speed targets are stated against these programs, built and run on the same machine in the
same minutes as the engine (their README). This compiles the workload's program from the
yardstick folder into a temporary directory (never into the project) with the README's build
line, ``gcc -O3 -march=native -fno-pie -no-pie -pthread ... -lm`` (``--cc`` to choose another
compiler), and runs it on one thread and ``runner.run`` (the path of ``golfsim run``) for the
same number of rounds, slice after slice. Prints ONE JSON line:

    python benchmarks/c_yardstick.py --workload w1 --rounds 200000 --repeats 15

``engine_vs_c`` is the median over the slices of engine rounds/s over C rounds/s (C time /
engine time): above 1 the engine is faster. The C program times its rounds only, without its
process start.

The yardstick folder is ``--yardstick DIR``, else ``$GOLFSIM_YARDSTICK``, else
``shared/yardstick`` beside the project's folder (``<project>/../shared/yardstick``); when it is
absent this says so in one line and exits with status 2.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent
sys.path.insert(0, str(HERE))  # importable from elsewhere too (tests/test_c_yardstick.py)
from workload import workload  # noqa: E402  (it puts the project on sys.path as well)

ENV = "GOLFSIM_YARDSTICK"
FLAGS = ["-O3", "-march=native", "-fno-pie", "-no-pie", "-pthread"]  # the yardstick's README
PROGRAMS = ("w1", "w2")


def fail(message: str):
    print(f"c_yardstick: {message}", file=sys.stderr)
    sys.exit(2)


def yardstick_dir(option: str | None = None) -> Path:
    """Where the yardstick's C files are: ``option``, else $GOLFSIM_YARDSTICK, else
    shared/yardstick beside the project's folder. Not checked: see ``missing``."""
    if option:
        return Path(option).expanduser()
    if os.environ.get(ENV):
        return Path(os.environ[ENV]).expanduser()
    return PROJECT.parent / "shared" / "yardstick"


def missing(folder: Path, names=PROGRAMS) -> str | None:
    """Why ``folder`` cannot serve as the yardstick (one line), or None when it can."""
    if not folder.is_dir():
        return (f"no yardstick folder at {folder} (give one with --yardstick DIR or "
                f"${ENV})")
    absent = [f"{n}.c" for n in names if not (folder / f"{n}.c").is_file()]
    if absent:
        return f"the yardstick folder {folder} has no {', '.join(absent)}"
    return None


def default_cc() -> str:
    """gcc, the compiler the yardstick's README names, else cc."""
    return "gcc" if shutil.which("gcc") else "cc"


def compiler_version(cc: str) -> str:
    done = subprocess.run([cc, "--version"], capture_output=True, text=True)
    lines = done.stdout.splitlines()
    return lines[0].strip() if done.returncode == 0 and lines else "unknown"


def build(cc: str, out_dir: Path, name: str = "w1", folder: Path | None = None) -> Path:
    """Compile the yardstick's <name>.c into out_dir; exits with a message when there is no
    yardstick folder or no working compiler."""
    folder = yardstick_dir() if folder is None else folder
    why = missing(folder, (name,))
    if why:
        fail(why)
    if shutil.which(cc) is None:
        fail(f"--cc {cc!r} is not on PATH; install a C compiler (e.g. apt install gcc) or "
             "name one with --cc")
    exe = out_dir / name
    cmd = [cc, *FLAGS, "-o", str(exe), str(folder / f"{name}.c"), "-lm"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(cmd)} failed:\n{done.stderr}")
    return exe


def run_c(exe: Path, rounds: int, seed: int, threads: int = 1) -> dict:
    """Run a yardstick program; its one JSON line as a dict. W2 is asked for T = 8."""
    cmd = [str(exe), str(rounds), str(seed), str(threads)]
    if exe.name == "w2":
        cmd.append("8")
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def quartiles(values) -> list[float]:
    ordered = sorted(values)
    return [ordered[len(ordered) // 4], ordered[(3 * len(ordered)) // 4]]


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200_000, help="rounds per timed slice")
    ap.add_argument("--repeats", type=int, default=10, help="timed slices of each program")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cc", default=None, help="C compiler (default: gcc, else cc)")
    ap.add_argument("--workload", choices=PROGRAMS, default="w1")
    ap.add_argument("--yardstick", metavar="DIR", default=None,
                    help=f"the folder of w1.c and w2.c (default: ${ENV}, else "
                         "shared/yardstick beside the project's folder)")
    args = ap.parse_args(argv)
    cc = args.cc or default_cc()
    folder = yardstick_dir(args.yardstick).resolve()
    why = missing(folder, (args.workload,))
    if why:  # before loading the engine
        fail(why)
    if shutil.which(cc) is None:
        fail(f"--cc {cc!r} is not on PATH; install a C compiler (e.g. apt install gcc) or "
             "name one with --cc")

    from simulator.experiments.runner import run
    from simulator.experiments.warm import warm_up
    from strategies import resolve_seats, seat_arrays

    rules, strategy = workload(args.workload)
    ids, params = seat_arrays(resolve_seats([strategy], 4))
    source = folder / f"{args.workload}.c"
    with tempfile.TemporaryDirectory(prefix="golfsim-c-") as tmp:
        exe = build(cc, Path(tmp), args.workload, folder)  # first: it may fail for want of a cc
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
    ratios = [c / e for c, e in zip(t_c, t_engine)]
    out = {
        "workload": args.workload.upper(), "threads": 1, "rounds_per_slice": args.rounds,
        "repeats": args.repeats,
        "engine_vs_c": round(statistics.median(ratios), 3),
        "engine_vs_c_quartiles": [round(r, 3) for r in quartiles(ratios)],
        "c_rounds_per_s": round(args.rounds / statistics.median(t_c), 1),
        "engine_rounds_per_s": round(args.rounds / statistics.median(t_engine), 1),
        "compiler": compiler_version(cc), "c_flags": " ".join([cc, *FLAGS, "-lm"]),
        "c_source": str(source),
        "c_source_sha256": hashlib.sha256(source.read_bytes()).hexdigest()[:12],
        # both play the same workload: W1 near 26.09 turns a round, W2 near 24.2
        "c_mean_turns": round(c_turns / args.repeats, 3),
        "engine_mean_turns": round(engine_turns / args.repeats, 3),
    }
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
