"""This working tree's kernel against an earlier commit's, slice by slice in one process.

Whole-process timings on this machine drift by up to 1.5x from one minute to the next, so a
change worth 5% cannot be seen in them. Here both versions play in the same process, in
alternating slices of the same rounds: the earlier commit's ``simulator`` and ``strategies``
are exported (``git archive``) into a temporary folder and imported under other names
(``simulator_base``, ``strategies_base``), each with its own compile cache. Prints ONE JSON
line; ``speedup`` is the median over the slice pairs of (base time / this tree's time):

    python benchmarks/ab_kernel.py --base fdb98e5 --workload w1 --rounds 30000 --repeats 20
    python benchmarks/ab_kernel.py --base HEAD --strategy ev --rounds 2000 --repeats 10
    python benchmarks/ab_kernel.py --base HEAD --set pair_scope=anywhere --rounds 5000
    python benchmarks/ab_kernel.py --base HEAD --preset power_cabo --strategy greedy

Both versions play the same rounds with the same seed, and their sums must agree: the script
stops with an error when any accumulator, total or histogram bin differs (a change of results
is not a speed-up).
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

_RENAME = re.compile(r"\b(simulator|strategies)(?=[./ ])")


def _extract(tar: tarfile.TarFile, dest: Path) -> None:
    """Extract ``tar`` into ``dest`` with the "data" filter where this Python has it (3.11.4+);
    on older ones only regular files and folders whose paths stay inside ``dest``."""
    if hasattr(tarfile, "data_filter"):
        tar.extractall(dest, filter="data")
        return
    dest = dest.resolve()
    members = []
    for member in tar.getmembers():
        target = (dest / member.name).resolve()
        if member.name.startswith("/") or not target.is_relative_to(dest):
            sys.exit(f"ab_kernel: the archive names a path outside its folder: {member.name!r}")
        if member.isfile() or member.isdir():
            members.append(member)
    tar.extractall(dest, members=members)


def export_base(rev: str, into: Path) -> None:
    """The packages of commit ``rev`` as simulator_base/ and strategies_base/ under ``into``."""
    archive = into / "base.tar"
    done = subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), rev,
                           "simulator", "strategies"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"ab_kernel: --base {rev!r}: git archive failed: {done.stderr.strip()}")
    with tarfile.open(archive) as tar:
        _extract(tar, into / "src")
    for package in ("simulator", "strategies"):
        for path in (into / "src" / package).rglob("*.py"):
            text = _RENAME.sub(lambda m: m.group(1) + "_base", path.read_text())
            target = into / f"{package}_base" / path.relative_to(into / "src" / package)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)


def _module(package: str, *names: str):
    """The first of ``package``'s modules ``names`` that exists: the modules live in
    sub-packages (``game.rules``, ``experiments.runner``) since the layout change, and a base
    commit from before it has them at the top (``rules``, ``runner``)."""
    for name in names:
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError as e:
            if not f"{package}.{name}".startswith(f"{e.name}"):
                raise
    raise ModuleNotFoundError(f"{package} has none of the modules {', '.join(names)}")


def player(sim: str, strat: str, workload: str, kernel: str, spec=None,
           sets: tuple[str, ...] = (), preset: str | None = None):
    """A function playing ``rounds`` rounds from ``start`` on one version, and its totals
    (``spec``, when given, replaces the workload's: one strategy for every seat, or a list of
    one a seat; ``preset``, when given, replaces its rules; ``sets``, option=value
    strings, change its rules)."""
    rules_mod = _module(sim, "game.rules", "rules")
    runner = _module(sim, "experiments.runner", "runner")
    strategies = importlib.import_module(strat)
    if workload == "w1":
        rules, strategy = rules_mod.Rules.preset("six_card"), "greedy"
    else:
        rules = rules_mod.Rules.preset("four_card", pair_scope="none",
                                       initial_reveal_constraint="nearest_row")
        strategy = "knock-threshold:T=8"
    if preset:
        rules = rules_mod.Rules.preset(preset)
    if sets:
        pairs = (text.split("=", 1) for text in sets)
        rules = rules.with_options(**{k: rules_mod.parse_option_text(k, v) for k, v in pairs})
    seats = spec if isinstance(spec, list) else [spec or strategy]
    ids, params = strategies.seat_arrays(strategies.resolve_seats(seats, 4))
    job = runner.make_job(rules, 4, ids, params, 1, kernel=kernel)
    state = runner.new_state(job, 4)
    runner.play_chunk(job, 0, 2000, state)   # compile (or load) and warm up

    def play(start: int, rounds: int):
        totals = runner.play_chunk(job, start, rounds, state)[0]
        return totals.acc, totals.tot, totals.hist
    return play


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the commit to compare with (any git rev)")
    ap.add_argument("--workload", choices=("w1", "w2"), default="w1")
    ap.add_argument("--kernel", choices=("auto", "lean", "general"), default="auto",
                    help="auto: the lean kernel when the rules and strategy allow it")
    ap.add_argument("--strategy", default=None, action="append",
                    help="a strategy for every seat instead of the workload's (its rules stay); "
                         "given four times, one a seat")
    ap.add_argument("--preset", default=None,
                    help="play this preset's rules instead of the workload's (its strategy "
                         "stays unless --strategy): e.g. power_cabo on the powers build")
    ap.add_argument("--set", dest="sets", action="append", default=[], metavar="OPTION=VALUE",
                    help="change a rule of the workload, as `golfsim run --set` (repeatable)")
    ap.add_argument("--rounds", type=int, default=30_000, help="rounds per timed slice")
    ap.add_argument("--repeats", type=int, default=20, help="timed slices of each version")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="cpu: the playing thread's CPU time, which a busy machine's other "
                         "processes disturb far less than the wall clock")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="golfsim-ab-") as tmp:
        export_base(args.base, Path(tmp))
        sys.path.insert(0, tmp)
        here = player("simulator", "strategies", args.workload, args.kernel, args.strategy,
                      tuple(args.sets), args.preset)
        base = player("simulator_base", "strategies_base", args.workload, args.kernel,
                      args.strategy, tuple(args.sets), args.preset)
        clock = time.thread_time if args.clock == "cpu" else time.perf_counter
        t_here, t_base, ratios = [], [], []
        for rep in range(args.repeats):
            start = rep * args.rounds
            pair = [(here, t_here), (base, t_base)]
            results = {}
            for play, times in (pair if rep % 2 == 0 else pair[::-1]):
                t0 = clock()
                results[id(play)] = play(start, args.rounds)
                times.append(clock() - t0)
            # a speed-up that changes results is a bug: both must play the same rounds alike
            if not all((a == b).all() for a, b in zip(results[id(here)], results[id(base)])):
                sys.exit(f"ab_kernel: slice {rep}: the two versions' results differ")
            ratios.append(t_base[-1] / t_here[-1])
    ratios.sort()
    out = {
        "workload": args.workload.upper(), "strategy": args.strategy, "kernel": args.kernel,
        "preset": args.preset, "set": args.sets,
        "base": args.base, "clock": args.clock,
        "rounds_per_slice": args.rounds, "repeats": args.repeats,
        "speedup": round(statistics.median(ratios), 3),
        "speedup_quartiles": [round(ratios[len(ratios) // 4], 3),
                              round(ratios[(3 * len(ratios)) // 4], 3)],
        "rounds_per_s": round(args.rounds / statistics.median(t_here)),
        "base_rounds_per_s": round(args.rounds / statistics.median(t_base)),
    }
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
