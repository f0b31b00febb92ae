"""The power-card games at a glance: the README's two tables, from golfsim's Python API.

    python scripts/power_games.py                    # both tables, 200,000 deals each
    python scripts/power_games.py --rounds 20000 --only presets

``presets``: for each power preset, four ``greedy`` players on the same deals with and without
the peeks at one's own cards (``powers_off``): the first-player advantage (seat 0's win share
minus 1/4) and the mean hole length, with 95% intervals, and what switching the own peeks off
changes (paired on the same deals). ``memory``: a tournament on ``power_cabo`` between
``forgetful`` at memory decay 0, 0.2 and 0.5 and ``greedy``: how much remembering what you
peeked is worth. Prints Markdown.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # run from a checkout, too

import simulator.api as golf  # noqa: E402

# the cards whose power is a peek at one's own card, by preset
OWN_PEEKS = {"power_malaysia": "J", "power_pablo": "8", "power_cumbia": "4,5",
             "power_cabo": "7,8", "power_cactus": "6,7,8"}
MEMORY_FIELD = ["forgetful:decay=0", "forgetful:decay=0.2", "forgetful:decay=0.5", "greedy"]


def _pm(value: float, lo: float, hi: float, scale: float = 1.0, digits: int = 2) -> str:
    return f"{scale * value:+.{digits}f} ± {scale * (hi - lo) / 2:.{digits}f}"


def presets_table(rounds: int, seed: int, threads, progress: bool) -> str:
    rows = ["| preset | first-player advantage (pp) | mean hole length (turns) | own peeks "
            "switched off | change in first-player advantage (pp) | change in hole length "
            "(turns) | change in greedy's mean score |",
            "|---|---|---|---|---|---|---|"]
    for preset, cards in OWN_PEEKS.items():
        res = golf.compare(preset, vary={"powers_off": ["none", cards]}, strategy="greedy",
                           players=4, rounds=rounds, seed=seed, threads=threads,
                           progress=progress)
        t = res.table

        def row(quantity, group):
            return t.filter((t["quantity"] == quantity) & (t["group"] == group)).row(
                0, named=True)
        fpa = row("first_player_advantage", "table")
        length = row("round_length", "table")
        score = row("mean_score", "greedy")
        base_fpa = _pm(fpa["baseline"], fpa["baseline_lo95"], fpa["baseline_hi95"], 100)
        base_len = f"{length['baseline']:.2f} ± " \
                   f"{(length['baseline_hi95'] - length['baseline_lo95']) / 2:.2f}"
        rows.append(f"| {preset} | {base_fpa} | {base_len} | {cards.replace(',', ', ')} | "
                    f"{_pm(fpa['diff'], fpa['diff_lo95'], fpa['diff_hi95'], 100)} | "
                    f"{_pm(length['diff'], length['diff_lo95'], length['diff_hi95'])} | "
                    f"{_pm(score['diff'], score['diff_lo95'], score['diff_hi95'])} |")
    return "\n".join(rows)


def memory_table(rounds: int, seed: int, threads, progress: bool) -> str:
    res = golf.tournament("power_cabo", strategy=MEMORY_FIELD, players=4, rounds=rounds,
                          seed=seed, threads=threads, progress=progress)
    rows = ["| rank | strategy | win share | mean score |", "|---|---|---|---|"]
    for r in res.ranking.iter_rows(named=True):
        win = f"{100 * r['win_share']:.2f}% ± " \
              f"{100 * (r['win_share_hi95'] - r['win_share_lo95']) / 2:.2f}"
        score = f"{r['mean_score']:.3f} ± " \
                f"{(r['mean_score_hi95'] - r['mean_score_lo95']) / 2:.3f}"
        rows.append(f"| {r['rank']} | `{r['strategy']}` | {win} | {score} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=200_000, help="deals per rule set or pairing")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None, help="default: every CPU")
    ap.add_argument("--only", choices=("presets", "memory"), default=None)
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    common = (args.rounds, args.seed, args.threads, not args.quiet)
    if args.only in (None, "presets"):
        print(f"four greedy players, {args.rounds:,} deals per rule set, seed {args.seed}\n")
        print(presets_table(*common) + "\n")
    if args.only in (None, "memory"):
        print(f"power_cabo tournament, four players, {args.rounds:,} deals per pairing, seed "
              f"{args.seed}\n")
        print(memory_table(*common))
    return 0


if __name__ == "__main__":
    sys.exit(main())
