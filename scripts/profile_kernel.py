"""Profile the compiled kernel with Linux perf, with function names.

Numba's machine code lives in anonymous memory, so perf shows bare addresses. This script
compiles the kernel into a fresh cache (inspection is disabled for code loaded from a cache),
writes /tmp/perf-<pid>.map naming every compiled function, then plays a workload of
docs/benchmarks.md (W1 or W2) on the general engine or the lean kernel for a while so that perf
can attach:

    python scripts/profile_kernel.py --seconds 20 [--workload w2] [--kernel lean] \
        [--strategy lookahead] [--preset power_cabo] &
    sleep 90   # the compile
    perf record -F 4000 -p $(pgrep -f profile_kernel.py) -o /tmp/kernel.data -- sleep 5
    perf report -i /tmp/kernel.data --no-children --sort symbol
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--workload", choices=("w1", "w2"), default="w1")
    ap.add_argument("--preset", default=None,
                    help="play this preset (e.g. power_cabo) instead of the workload's rules")
    ap.add_argument("--kernel", choices=("general", "lean", "table", "own"), default="general")
    ap.add_argument("--strategy", default=None,
                    help="every seat plays this strategy instead of the workload's")
    args = ap.parse_args()
    os.environ["GOLFSIM_CACHE_DIR"] = tempfile.mkdtemp(prefix="golfsim-profile-")

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from workload import workload

    from simulator.experiments.runner import make_job, new_state, play_chunk
    from strategies import resolve_seats, seat_arrays

    rules, strategy = workload(args.workload)
    if args.preset is not None:
        from simulator.game.rules import Rules
        rules = Rules.preset(args.preset)
    strategy = args.strategy or strategy
    ids, params = seat_arrays(resolve_seats([strategy], 4))
    job = make_job(rules, 4, ids, params, 1, kernel=args.kernel)
    state = new_state(job, 4)
    play_chunk(job, 0, 10, state)
    from simulator.kernel import pick
    from strategies import compiled as policies
    chunk_nb = job.own_chunk if job.build.startswith("own:") else pick.module(job.build).chunk_nb
    libraries = [c.library for c in chunk_nb.overloads.values()]
    libraries += [fn._library for fn in policies._COMPILED.values()]   # the seats' policies
    symbols = {}
    for library in libraries:
        for m in re.finditer(r'define [^@]*@"?([^"(\s]+)"?\(', library.get_llvm_str()):
            address = library.get_pointer_to_function(m.group(1))
            if address:
                symbols[address] = re.sub(r"B\d+v\d+.*", "", m.group(1))
    starts = sorted(symbols)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for i, a in enumerate(starts):
            size = starts[i + 1] - a if i + 1 < len(starts) else 4096
            f.write(f"{a:x} {min(size, 1 << 20):x} {symbols[a]}\n")
    print(f"{len(starts)} functions mapped; playing {args.preset or args.workload.upper()} on the "
          f"{job.build} build for {args.seconds:g} s", flush=True)
    end = time.time() + args.seconds
    # short chunks for another strategy: lookahead plays a few hundred rounds a second
    chunk = 50_000 if args.strategy is None else 200
    start = 0
    while time.time() < end:
        play_chunk(job, start, chunk, state)
        start += chunk


if __name__ == "__main__":
    main()
