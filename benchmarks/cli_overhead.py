"""What `golfsim run` costs beyond the rounds themselves, on W1: how soon a cached start
reaches the first round, and the whole command's time against benchmarks/w1.py's timed run.

    python benchmarks/cli_overhead.py --rounds 10000000 --pairs 3

- ``first_round_s``: from starting `golfsim run` (its kernels already in the on-disk cache)
  to its progress bar appearing on stderr, which happens right before the first chunk is
  handed out (so: interpreter start, imports, rule checks, loading the compiled kernels and
  their warm-up). Median and largest of ``--starts`` runs.
- ``cli_over_benchmark``: the whole `golfsim run ... --threads 1 --quiet` process, wall clock
  (start, cache load, the rounds, the Parquet file and three plots), over the ``seconds`` that
  `benchmarks/w1.py` reports for the same rounds on one thread (rounds only). The two are
  run in turn ``--pairs`` times; median and each pair's ratio. The machine's speed drifts
  between the two runs of a pair, so ``other_share`` also gives the part of the command's
  time that is not its rounds (wall clock less the run time it prints) over the benchmark's.

Prints ONE JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLFSIM = [sys.executable, "-c", "from simulator.cli import main; main()"]


def run_args(rounds: int, out: Path) -> list[str]:
    return ["run", "--preset", "six_card", "--players", "4", "--strategy", "greedy",
            "--rounds", str(rounds), "--seed", "1", "--threads", "1", "--out", str(out)]


def first_round_seconds(out: Path) -> float:
    """Seconds from process start until the progress bar ("golfsim run") shows on stderr."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(GOLFSIM + run_args(200_000, out), cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seen = b""
    elapsed = None
    while True:
        chunk = os.read(proc.stderr.fileno(), 4096)
        if not chunk:
            break
        seen += chunk
        if elapsed is None and b"golfsim run" in seen:
            elapsed = time.perf_counter() - t0
    if proc.wait() != 0 or elapsed is None:
        raise SystemExit(f"cli_overhead: golfsim run failed:\n{seen.decode(errors='replace')}")
    return elapsed


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10_000_000)
    ap.add_argument("--pairs", type=int, default=3, help="CLI/benchmark runs in turn")
    ap.add_argument("--starts", type=int, default=5, help="cached starts timed")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="golfsim-overhead-") as tmp:
        out_dir = Path(tmp)
        # fill the on-disk cache if it is empty, so that what follows are cached starts
        subprocess.run(GOLFSIM + run_args(1000, out_dir) + ["--quiet"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        starts = sorted(first_round_seconds(out_dir) for _ in range(args.starts))
        ratios, cli_s, run_s, bench_s = [], [], [], []
        for _ in range(args.pairs):
            t0 = time.perf_counter()
            done = subprocess.run(GOLFSIM + run_args(args.rounds, out_dir) + ["--quiet"],
                                  cwd=ROOT, check=True, capture_output=True, text=True)
            cli_s.append(time.perf_counter() - t0)
            # the summary's "N rounds, seed S, X s on T thread(s)"
            run_s.append(float(re.search(r"rounds, seed \d+, ([\d.]+) s on", done.stdout)[1]))
            done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "w1.py"),
                                   "--rounds", str(args.rounds), "--seed", "1",
                                   "--threads", "1"], cwd=ROOT, check=True,
                                  capture_output=True, text=True)
            bench_s.append(json.loads(done.stdout.strip().splitlines()[-1])["seconds"])
            ratios.append(cli_s[-1] / bench_s[-1])
    out = {
        "workload": "W1", "rounds": args.rounds, "threads": 1,
        "first_round_s": round(statistics.median(starts), 3),
        "first_round_s_max": round(starts[-1], 3),
        "cli_wall_s": [round(x, 2) for x in cli_s],
        "benchmark_s": [round(x, 2) for x in bench_s],
        "cli_over_benchmark": round(statistics.median(ratios), 3),
        "cli_over_benchmark_each": [round(x, 3) for x in ratios],
        "cli_run_s": [round(x, 2) for x in run_s],
        "other_share": round(statistics.median(
            (c - r) / b for c, r, b in zip(cli_s, run_s, bench_s)), 3),
    }
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
