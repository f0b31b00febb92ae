"""W1 (docs/benchmarks.md#w1): six-card standard, 4 players, `greedy` in every seat.

Prints ONE JSON line with the statistics docs/benchmarks.md lists and the throughput after
warm-up (compilation excluded; ``compile_s`` is the time to compile the kernel or load it from
the on-disk cache, and ``--cold`` compiles into an empty cache to report the cold compile).

    python benchmarks/w1.py --rounds 10000000 --seed 1 --threads 2
"""

from __future__ import annotations

from workload import emit, measure, parse_args, workload


def main(argv=None) -> dict:
    args = parse_args(__doc__.splitlines()[0], argv)
    fields, _ = measure("W1", *workload("w1"), 4, args)
    emit(fields)
    return fields


if __name__ == "__main__":
    main()
