"""How long each build takes to compile from an empty cache, and its peak memory.

Each build is compiled in a fresh process with its own empty cache folder, as a new user's
first run would: the one-strategy builds through ``golfsim run`` (a few rounds, so that the
time is the compile's), the largest through ``golfsim warm`` (the lean kernel, the general
engine, match play and every built-in policy). Prints ONE JSON line: for each build its wall
seconds and peak resident memory (MB), with the limits issue 25 sets (60 s and 1 GB for a
one-strategy build, 120 s for the largest).

    python benchmarks/compile_time.py                 # every build (about 10 minutes)
    python benchmarks/compile_time.py --only lean,random
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# name -> golfsim arguments; each compiles what one strategy needs on a rule set
RUN = ["run", "--rounds", "50", "--players", "4", "--threads", "1", "--quiet"]
BUILDS = {
    "lean": RUN + ["--strategy", "greedy"],
    "random": RUN + ["--strategy", "random"],
    "greedy-general": RUN + ["--strategy", "greedy", "--kernel", "general"],
    "knock-threshold-general": RUN + ["--preset", "four_card", "--strategy", "knock-threshold",
                                      "--kernel", "general"],
    "heuristic": RUN + ["--strategy", "heuristic"],
    "forgetful": RUN + ["--strategy", "forgetful"],
    "opponent-aware": RUN + ["--strategy", "opponent-aware"],
    "ev": RUN + ["--strategy", "ev"],
    "guide": RUN + ["--strategy", "guide"],
    "lookahead": RUN + ["--strategy", "lookahead:budget=1", "--rounds", "2"],
    "match-play": RUN + ["--strategy", "random", "--holes", "9", "--rounds", "5"],
    # the power-card games' build and the greedy policy that plays them
    "power-cabo": RUN + ["--preset", "power_cabo", "--strategy", "greedy"],
    # lookahead in a power-card game: the powers build and lookahead's own (its rollouts')
    "lookahead-powers": RUN + ["--preset", "power_cabo", "--strategy", "lookahead:budget=1",
                               "--rounds", "2"],
    "largest": ["warm", "--quiet"],
}
LIMITS = {name: {"seconds": 60, "peak_mb": 1024} for name in BUILDS}
LIMITS["largest"] = {"seconds": 300}   # issue 41: `golfsim warm` within 5 minutes on 2 cores


def golfsim_command() -> list[str]:
    exe = Path(sys.executable).with_name("golfsim")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "simulator.cli"]


def measure(args: list[str]) -> dict:
    """Wall time and peak RSS of one golfsim command in an empty cache folder."""
    with tempfile.TemporaryDirectory(prefix="golfsim-compile-") as tmp:
        # no own build compiled behind the command (it would share the cores being timed)
        env = dict(os.environ, GOLFSIM_CACHE_DIR=str(Path(tmp) / "cache"),
                   GOLFSIM_OWN_BUILD="no")
        env.pop("NUMBA_CACHE_DIR", None)
        if args[0] == "run":
            args = args + ["--out", str(Path(tmp) / "out")]
        t0 = time.perf_counter()
        proc = subprocess.Popen(golfsim_command() + args, cwd=tmp, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
        err = proc.stderr.read()
        proc.stderr.close()
        proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"compile_time: golfsim {' '.join(args)} failed "
                         f"(exit {proc.returncode}): {err.strip()[-500:]}")
    return {"seconds": round(seconds, 1), "peak_mb": round(usage.ru_maxrss / 1024)}


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated builds: "
                        + ", ".join(BUILDS))
    args = parser.parse_args(argv)
    names = [n for n in args.only.split(",") if n] or list(BUILDS)
    unknown = [n for n in names if n not in BUILDS]
    if unknown:
        parser.error(f"--only {','.join(unknown)}: expected some of {', '.join(BUILDS)}")
    results = {}
    for name in names:
        r = measure(BUILDS[name])
        r["within_limits"] = all(r[k] <= v for k, v in LIMITS[name].items())
        results[name] = r
        print(f"compile_time: {name}: {r['seconds']} s, {r['peak_mb']} MB", file=sys.stderr,
              flush=True)
    line = {"benchmark": "compile_time", "builds": results, "limits": LIMITS,
            "all_within_limits": all(r["within_limits"] for r in results.values()),
            "cpus": os.cpu_count(), "machine": platform.processor() or platform.machine(),
            "python": platform.python_version()}
    print(json.dumps(line))
    return line


if __name__ == "__main__":
    main()
