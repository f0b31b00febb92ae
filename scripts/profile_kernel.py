"""Profile the compiled kernel with Linux perf, with function names.

Numba's machine code lives in anonymous memory, so perf shows bare addresses. This script
compiles the kernel into a fresh cache (inspection is disabled for code loaded from a cache),
writes /tmp/perf-<pid>.map naming every compiled function, then plays W1 for a while so that
perf can attach:

    python scripts/profile_kernel.py --seconds 20 &
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
    args = ap.parse_args()
    os.environ["GOLFSIM_CACHE_DIR"] = tempfile.mkdtemp(prefix="golfsim-profile-")

    import numpy as np

    from simulator import engine
    from simulator.rules import Rules
    from simulator.runner import make_job, play_chunk

    job = make_job(Rules.preset("six_card"), 4, [1] * 4, np.zeros((4, 1)), 1, kernel="general")
    play_chunk(job, 0, 10)
    symbols = {}
    for cres in engine.play_chunk_nb.overloads.values():
        library = cres.library
        for m in re.finditer(r'define [^@]*@"?([^"(\s]+)"?\(', library.get_llvm_str()):
            address = library.get_pointer_to_function(m.group(1))
            if address:
                symbols[address] = re.sub(r"B\d+v\d+.*", "", m.group(1))
    starts = sorted(symbols)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for i, a in enumerate(starts):
            size = starts[i + 1] - a if i + 1 < len(starts) else 4096
            f.write(f"{a:x} {min(size, 1 << 20):x} {symbols[a]}\n")
    print(f"{len(starts)} functions mapped; playing W1 for {args.seconds:g} s", flush=True)
    end = time.time() + args.seconds
    start = 0
    while time.time() < end:
        play_chunk(job, start, 50_000)
        start += 50_000


if __name__ == "__main__":
    main()
