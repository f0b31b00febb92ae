"""Profile the compiled kernel with Linux perf, with function names.

Numba's machine code lives in anonymous memory, so perf shows bare addresses. This script
compiles the kernel into a fresh cache (inspection is disabled for code loaded from a cache),
writes /tmp/perf-<pid>.map naming every compiled function (those the linker made internal
too, from each library's object code: readelf must be installed), then plays a workload of
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
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _functions(library) -> dict:
    """{address: (size, name)} of every function in a compiled library's object code, the
    ones the linker made internal too (most of a build's steps: the JIT gives them no
    address), each section placed by a function of it the JIT does give an address."""
    obj = getattr(library, "_compiled_object", None)   # the very object the JIT loaded
    if obj is None and hasattr(library, "emit_native_object"):
        obj = library.emit_native_object()
    if obj is None:
        return {}
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        out = subprocess.run(["readelf", "-sW", f.name], capture_output=True, text=True).stdout
    by_section = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 8 and parts[3] == "FUNC" and int(parts[2]) > 0:
            by_section.setdefault(parts[6], []).append(
                (int(parts[1], 16), int(parts[2]), parts[4] != "LOCAL", parts[7]))
    found = {}
    for functions in by_section.values():
        base = None
        for offset, size, exported, name in functions:
            address = library.get_pointer_to_function(name) if exported else 0
            if address:
                base = address - offset
                break
        if base is not None:
            found.update({base + offset: (size, name) for offset, size, _, name in functions})
    return found


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
    from simulator.kernel import engine
    for owner, function, _, _ in engine.SLOT_PARTS.values():   # compiled apart, called by slot
        libraries += [c.library for c in getattr(engine.BUILDS[owner], function).overloads.values()]
    symbols = {}
    seen = set()
    while libraries:   # and every library they link: their code calls its functions
        library = libraries.pop()
        if id(library) not in seen:
            seen.add(id(library))
            symbols.update(_functions(library))
            libraries += list(getattr(library, "_linking_libraries", ()))
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for a in sorted(symbols):
            size, name = symbols[a]
            f.write(f"{a:x} {size:x} {re.sub(r'B[0-9]+v[0-9]+.*', '', name)}\n")
    print(f"{len(symbols)} functions mapped; playing {args.preset or args.workload.upper()} on the "
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
