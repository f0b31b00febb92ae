"""golfsim's Python API: the commands of the ``golfsim`` command line as functions.

    import simulator.api as golf

    house = golf.rules("six_card", pair_scope="anywhere")
    res = golf.run(rules=house, players=4, strategy="greedy", rounds=200_000)
    res.summary                # a polars DataFrame: summary.parquet
    res.metadata["title"]      # summary.parquet's key-value metadata
    res.write("results/house") # the files `golfsim run --out results/house` writes

``rules``, ``run``, ``compare``, ``tune``, ``tournament`` and ``guide`` take the arguments of
the commands of the same names (``--per-round`` is ``per_round=True``, a repeatable option
takes a string or a list), check them with the same messages, play the same rounds and return
a result whose tables are the DataFrames those commands write to Parquet, with the same
metadata. ``simulator/cli.py`` is a thin layer over these functions: it parses the options,
calls them and prints. docs/api.md documents every function and result.

The package: words.py (the errors and their wording), checks.py (the defaults, the limits and
the argument checks), rulesets.py (``rules`` and RuleSet), template.py (the skeleton every
command fills in: results folder, compile, progress, interruption, writing), results.py (what
the commands return), commands.py (the commands).

Bad arguments raise ``GolfsimError`` with the message the command line prints after
``golfsim: error:``, naming the function's arguments where the command line names its options
(``rounds`` for ``--rounds``, ``rules_file`` for ``--rules``). Nothing is imported here that the
command line does not need for every command (numba, polars and matplotlib are imported when
something is played or written).
"""

from __future__ import annotations

# the public names, and those the command line (simulator/cli.py) reads
from .checks import (DEFAULT_CHECK_ROUNDS, DEFAULT_COMPARE_ROUNDS, DEFAULT_DEALS,
                     DEFAULT_GUIDE_COMPARE_ROUNDS, DEFAULT_PLAYERS, DEFAULT_PRESET,
                     DEFAULT_ROUNDS, DEFAULT_SEED, DEFAULT_STRATEGY, DEFAULT_TUNE_ROUNDS, DESIGNS,
                     KERNELS, MAX_HELD_ROUNDS, MAX_HOLES, MAX_ROUNDS, MAX_SEED, MAX_TARGET,
                     OBJECTIVES, count_allowed, optional_count, power_text, whole_number,
                     whole_of)
from .commands import compare, guide, run, tournament, tune, tune_table
from .results import (CompareResult, GuideResult, Result, RunResult, TournamentResult,
                      TuneResult, TuneTableResult)
from .rulesets import RuleSet, check_match_length, default_strategy, rule_set, rules
from .template import LOADING, UI, check_out_dir
from .words import (GolfsimError, GolfsimWarning, Interrupted, PolicyError, command_line_words,
                    python_words)

__all__ = ["rules", "run", "compare", "tune", "tune_table", "tournament", "guide", "RuleSet",
           "RunResult", "CompareResult", "TuneResult", "TournamentResult", "GuideResult", "GolfsimError",
           "PolicyError", "Interrupted", "GolfsimWarning", "default_strategy"]

# the names simulator/env/config.py checks its arguments with
_rule_set, _whole, _optional_count = rule_set, whole_of, optional_count
