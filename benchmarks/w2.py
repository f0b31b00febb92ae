"""W2 (docs/benchmarks.md#w2): four-card knock, 4 players, `knock-threshold` (T = 8) in every
seat.

The rules are preset `four_card` with `pair_scope = none` and the initial peek at the nearest
row. Prints ONE JSON line: W1's fields plus ``T``, ``knocks`` (rounds someone knocked),
``knock_share``, ``knocker_win_share`` and ``se_knocker_win_share``.

    python benchmarks/w2.py --rounds 10000000 --seed 1 --threads 1
"""

from __future__ import annotations

from workload import emit, measure, parse_args, workload


def main(argv=None) -> dict:
    args = parse_args(__doc__.splitlines()[0], argv,
                      extra=lambda ap: ap.add_argument("--T", type=float, default=8.0))
    fields, t = measure("W2", *workload("w2", args.T), 4, args)
    fields.update({"T": args.T, "knocks": t.knocks,
                   "knock_share": round(t.knocks / max(t.rounds, 1), 6),
                   "knocker_win_share": round(t.knocker_win_share(), 6),
                   "se_knocker_win_share": round(t.se_knocker_win_share(), 6)})
    emit(fields)
    return fields


if __name__ == "__main__":
    main()
