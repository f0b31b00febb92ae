"""The ``golfsim`` command line: ``run``, ``tournament``, ``tune``, ``compare``, ``guide``,
``plot``, ``score``, ``presets``, ``rules``, ``warm``.

Commands only parse options, call the Python API (simulator/api/: ``run``, ``compare``,
``tune``, ``tournament`` and ``guide`` check, play, and write into --out there, so the command
line and the API cannot drift apart) or the layers below it (layout_score, plots), and print.
Every bad input ends as one line ``golfsim: error: <message>`` on stderr with exit status 2,
never a traceback.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import click

from . import api
from .game.cards import CardParseError
from .game.rules import (OPTIONS, POWER_PRESETS, PRESET_DESCRIPTIONS, PRESETS, RuleError, Rules,  # noqa: F401
                         card_values_text, option_text, preset_reference)
from .game.rules import _allowed_text
from .kernel.cache import CacheError

DEFAULT_PRESET = api.DEFAULT_PRESET
DEFAULT_PLAYERS = api.DEFAULT_PLAYERS
DEFAULT_STRATEGY = api.DEFAULT_STRATEGY
DEFAULT_ROUNDS = api.DEFAULT_ROUNDS
DEFAULT_SEED = api.DEFAULT_SEED
DEFAULT_OUT = "results/run"
DEFAULT_TOURNAMENT_OUT = "results/tournament"
default_strategy = api.default_strategy


class GolfsimError(click.ClickException):
    """A user error: printed as one line, exit status 2."""
    exit_code = 2


class GolfsimGroup(click.Group):
    """A group whose errors (click's own usage errors included) are one line each."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        args = list(sys.argv[1:] if args is None else args)
        extra.setdefault("obj", {})["argv"] = args
        with api.command_line_words():
            return self._main(args, prog_name, complete_var, standalone_mode, **extra)

    def _main(self, args, prog_name, complete_var, standalone_mode, **extra):
        if not standalone_mode:
            return super().main(args, prog_name or "golfsim", complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name or "golfsim", complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as e:
            click.echo(e.ctx.get_help())
            sys.exit(0)
        except click.ClickException as e:
            click.echo(f"golfsim: error: {_one_line(e.format_message())}", err=True)
            sys.exit(e.exit_code)
        except CacheError as e:   # met by whichever command compiles first
            click.echo(f"golfsim: error: {_one_line(str(e))}", err=True)
            sys.exit(GolfsimError.exit_code)
        except click.Abort:
            click.echo("golfsim: aborted", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _command_line(ctx: click.Context) -> str:
    root = ctx.find_root()
    return shlex.join(["golfsim", *(root.obj or {}).get("argv", [])])


def _print_version(ctx: click.Context) -> None:
    from .experiments.report import version
    click.echo(f"golfsim {version()}")
    ctx.exit(0)


def _at_least_one(ctx, param, value):
    if value is not None and value < 1:
        raise click.BadParameter(f"{value} is not allowed; expected a whole number >= 1")
    return value


# ---- the largest counts a command accepts (simulator/api/checks.py says why) ---------------
MAX_ROUNDS = api.MAX_ROUNDS
MAX_HELD_ROUNDS = api.MAX_HELD_ROUNDS
MAX_HOLES = api.MAX_HOLES
MAX_TARGET = api.MAX_TARGET
_power_text = api.power_text


class Count(click.ParamType):
    """A whole number from ``lo`` to ``hi``, typed as digits (``1000000``, ``1_000_000``) or
    in exponent notation (``1e6``, ``2.5e5``) when that is a whole number (api.whole_number).
    A value outside the range is refused while the command line is parsed: before any folder
    is created or round is played."""
    name = "integer"

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi

    def allowed(self) -> str:
        return api.count_allowed(self.lo, self.hi)

    def convert(self, value, param, ctx):
        try:
            return api.whole_number(value, self.lo, self.hi)
        except ValueError as e:
            self.fail(str(e), param, ctx)


def _count_option(name: str, default: int, lo: int, hi: int, help_text: str):
    """An option taking a count from ``lo`` to ``hi`` (Count), its default shown."""
    return click.option(name, default=default, show_default=True, type=Count(lo, hi),
                        help=help_text)


class _ChunkSizeOption(click.Option):
    """Shows runner.DEFAULT_CHUNK in --help without importing the engine for every command."""

    def get_help_record(self, ctx):
        from .experiments.runner import DEFAULT_CHUNK
        names, text = super().get_help_record(ctx)
        return names, text.replace("DEFAULT_CHUNK", str(DEFAULT_CHUNK))


# ---- options shared by the commands ----------------------------------------------------------
_threads_option = click.option("--threads", type=int, default=None, callback=_at_least_one,
                               help="Worker threads  [default: number of CPUs]")
_cluster_option = click.option(
    "--cluster", default=None, metavar="tcp://HOST:PORT|local:N",
    help="Play on a Dask cluster: a scheduler's address, or local:N for N worker processes "
         "started for this command (identical results; needs golfsim[cluster]; "
         "docs/cluster.md).")
def _seed_option(help_text: str):
    """--seed: the seed of the random streams (the commands say what it replays)."""
    return click.option("--seed", default=DEFAULT_SEED, show_default=True,
                        type=click.IntRange(0, 2**63 - 1), help=help_text)


def _play_options(seed_help: str, out: str, out_help: str, fresh_help: str | None = None):
    """--seed, --threads, --cluster and --out of a command that plays, and its --fresh when
    it keeps what it played in --out."""
    options = [_seed_option(seed_help), _threads_option, _cluster_option,
               click.option("--out", default=out, show_default=True, metavar="FOLDER",
                            help=out_help)]
    if fresh_help is not None:
        options.append(click.option("--fresh", is_flag=True, help=fresh_help))

    def apply(fn):
        for option in reversed(options):
            fn = option(fn)
        return fn
    return apply


_quiet_option = click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
_players_option = click.option("--players", default=DEFAULT_PLAYERS, show_default=True,
                               type=int, help="Players at the table.")
# one strategy per seat, or one for all (run, replay)
_seat_strategies_option = click.option(
    "--strategy", "strategies", multiple=True, metavar="NAME",
    help=f"Strategy for all seats (give once) or for each seat (give once per seat); "
         f"default {DEFAULT_STRATEGY} (knock-threshold in knock-only games).")


# ---- rule options shared by run, score and rules ------------------------------------------
def _rule_options(fn):
    fn = click.option("--set", "assignments", multiple=True, metavar="OPTION=VALUE",
                      help="Override a rule option (repeatable), e.g. "
                           "--set pair_scope=anywhere.")(fn)
    fn = click.option("--rules", "rules_file", metavar="FILE.toml",
                      help="Load a rule set: a TOML file naming a preset plus option overrides "
                           "(see `golfsim rules PRESET --toml`).")(fn)
    fn = click.option("--preset", default=DEFAULT_PRESET, show_default=True,
                      help="Named rule set; `golfsim presets` lists them.")(fn)
    return fn


def _table_options(fn):
    """The rule set's options and --players."""
    return _rule_options(_players_option(fn))


def build_rules(ctx: click.Context, preset: str, rules_file: str | None,
                assignments: tuple[str, ...]) -> tuple[Rules, str]:
    """The rule set from --preset or --rules, then --set (api.rules); returns (rules, preset
    name)."""
    rule_set = build_rule_set(ctx, preset, rules_file, assignments)
    return rule_set.rules, rule_set.preset


def build_rule_set(ctx: click.Context, preset: str, rules_file: str | None,
                   assignments: tuple[str, ...]) -> api.RuleSet:
    """The rule set from --preset or --rules, then --set, as api.rules gives it."""
    with _api_errors():
        return api.rules(**_rule_arguments(ctx, preset, rules_file, assignments))


def _rule_arguments(ctx: click.Context, preset: str, rules_file: str | None,
                    assignments: tuple[str, ...]) -> dict:
    """The API's rule-set arguments of --preset, --rules and --set (checked there). --preset
    counts as given only when typed: a rules file names its own preset."""
    source = ctx.get_parameter_source("preset")
    typed = source is not None and source.name == "COMMANDLINE"
    return {"preset": preset if typed or not rules_file else None,
            "rules_file": rules_file, "set": list(assignments)}


@contextmanager
def _api_errors():
    """An API error is one line (exit status 2); an interruption says what is kept (130)."""
    try:
        yield
    except api.Interrupted as e:
        click.echo(f"golfsim: {e}", err=True)
        _exit(130)
    except api.GolfsimError as e:
        raise GolfsimError(str(e)) from None


def _exit(code: int) -> None:
    """Exit with ``code``; when a policy is stuck in a thread that never returns (after a
    Ctrl-C, runner.STUCK), without waiting for that thread, which Python would do forever."""
    from .experiments import runner
    if runner.STUCK.is_set():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


def _say(message: str) -> None:
    click.echo(f"golfsim: {message}", err=True)


def _warn(warnings) -> None:
    """Results that are not what they seem (e.g. most rounds stopped by the turn cap): on
    stderr, even with --quiet; the metadata written with the results holds them too."""
    for w in warnings:
        click.echo(f"golfsim: warning: {w}", err=True)


def _tqdm(quiet: bool):
    """``bar(desc, total, unit)``: a tqdm progress bar on stderr (disabled with --quiet)."""
    def bar(desc, total, unit="round"):
        from tqdm import tqdm
        return tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, disable=quiet,
                    desc=desc, dynamic_ncols=True)
    return bar


def _ui(quiet: bool) -> api.UI:
    """How an API command shows itself on the command line: progress on stderr, lines of
    information as ``golfsim: ...`` on stderr (the loading ones not with --quiet), warnings
    as ``golfsim: warning: ...``."""
    return api.UI(_tqdm(quiet), None if quiet else _say, _say, lambda w: _warn([w]))


def _report(result, *extra: str) -> None:
    """Print what the command prints, then the files it wrote."""
    click.echo(result.text)
    click.echo("")
    click.echo("wrote:")
    for p in result.written:
        click.echo(f"  {p}")
    for line in extra:
        click.echo(f"  {line}")


# ---- commands ---------------------------------------------------------------------------------
@click.group(cls=GolfsimGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=lambda ctx, param, value: _print_version(ctx) if value else None,
              help="Print the version and exit.")
def cli():
    """golfsim: Monte Carlo simulator for the Golf card-game family."""


@cli.command()
@_table_options
@_seat_strategies_option
@_count_option("--rounds", DEFAULT_ROUNDS, 1, MAX_ROUNDS,
               "Rounds (holes) to play (at most 10^11; 10^8 with --per-round; with "
               "--holes or --target, matches times holes at most 10^11).")
@_play_options("Seed; round i of a seed is always the same deal and choices.", DEFAULT_OUT,
               "Folder for summary.parquet, rounds.parquet and the plots.")
@click.option("--chunk-size", type=Count(1, MAX_ROUNDS), default=None,
              cls=_ChunkSizeOption, help="Rounds per chunk (the unit of work and progress)  "
                                         "[default: DEFAULT_CHUNK]")
@click.option("--per-round", is_flag=True, help="Also write rounds.parquet (every round's "
                                                "per-seat scores and turn count).")
@click.option("--holes", type=Count(1, MAX_HOLES), default=None,
              help="Play whole matches of this many holes (the deal rotates, at most 1000); "
                   "--rounds then counts matches.")
@click.option("--target", type=Count(1, MAX_TARGET), default=None,
              help="Play whole matches until some total reaches this; --rounds then counts "
                   "matches.")
@_quiet_option
@click.option("--kernel", type=click.Choice(list(api.KERNELS)), default="auto",
              show_default=True,
              help="auto plays common rule sets with greedy/knock-threshold seats on the lean "
                   "kernel, with every seat playing one user policy on that policy's own "
                   "kernel (a user policy's is compiled once per version of its file), "
                   "power_cabo with greedy seats on its own build, and other seats on the "
                   "table build of the common rule sets (identical results, faster); general "
                   "forces the general engine.")
@click.option("--verbose", "-v", is_flag=True,
              help="Also say which compiled build played (the results' metadata keeps it).")
@click.pass_context
def run(ctx, preset, rules_file, assignments, players, strategies, rounds, seed, threads,
        cluster, chunk_size, out, per_round, holes, target, quiet, kernel, verbose):
    """Play rounds of Golf (or whole matches); write the summary, plots and (optionally)
    every round."""
    args = _rule_arguments(ctx, preset, rules_file, assignments)
    with _api_errors():
        try:
            result = api.run(**args, players=players, strategy=list(strategies),
                             rounds=rounds, seed=seed, threads=threads, chunk_size=chunk_size,
                             cluster=cluster,
                             per_round=per_round, holes=holes, target=target, kernel=kernel,
                             out=out, command=_command_line(ctx), ui=_ui(quiet))
        except (api.PolicyError, api.Interrupted) as e:
            if e.result is not None:   # what was played is written: show it, then the error
                _report(e.result)
                _say_build(e.result, verbose)
            raise
    _report(result)
    _say_build(result, verbose)


def _say_build(result, verbose: bool) -> None:
    if verbose:
        _say(f"played on the {result.build} build: {result.build_description}")


@cli.command()
@_table_options
@click.option("--strategy", "strategies", multiple=True, metavar="NAME",
              help="A strategy in the tournament; give once per strategy (at least two); "
                   "NAME=SPEC names it NAME in the tables and figures.")
@_count_option("--rounds", DEFAULT_ROUNDS, 1, MAX_HELD_ROUNDS,
               "Rounds per pairing, split evenly over its seatings (rounded up; at most "
               "10^8).")
@_play_options("Seed; every seating and pairing replays the same deals.",
               DEFAULT_TOURNAMENT_OUT,
               "Folder for ranking.parquet, head_to_head.parquet and tournament.png.")
@_quiet_option
@click.pass_context
def tournament(ctx, preset, rules_file, assignments, players, strategies, rounds, seed, threads,
               cluster, out, quiet):
    """Play every pair of strategies against each other with the seats rotated; rate them
    (Bradley-Terry on the pairings), rank them so that none is below one it beats clearly
    head to head, name where the ranking, the head-to-heads, the average win share and the
    rating disagree, and write the ranking, the head-to-head matrix and a plot.

    \b
    Example:
      golfsim tournament --strategy greedy --strategy random \\
          --strategy knock-threshold:T=10 --rounds 100000 --out results/tournament
    """
    args = _rule_arguments(ctx, preset, rules_file, assignments)
    with _api_errors():
        result = api.tournament(**args, players=players, strategy=list(strategies),
                                rounds=rounds, seed=seed, threads=threads, out=out,
                                cluster=cluster, command=_command_line(ctx),
                                ui=_ui(quiet))
    _report(result)


@cli.command()
@_table_options
@click.option("--strategy", "strategy", required=True, metavar="NAME",
              help="The strategy to tune (it may fix its other parameters, e.g. "
                   "heuristic:hold=2).")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUES",
              help="A parameter to tune and its values: T=4..20 (whole steps, both ends), "
                   "T=4..20:2 (a step), X=0,0.5,1 (a list). Repeat for several parameters: "
                   "every combination is a candidate.")
@click.option("--opponent", "opponents", multiple=True, metavar="NAME",
              help="The field: give once (every other seat) or once per opponent seat (the "
                   "i-th sits i seats after the tuned strategy).")
@click.option("--objective", type=click.Choice(list(api.OBJECTIVES)),
              default="win_share", show_default=True,
              help="What is optimised: the tuned strategy's win share (ties split) or its "
                   "mean hole score (lower is better).")
@_count_option("--rounds", api.DEFAULT_TUNE_ROUNDS, 1, MAX_HELD_ROUNDS,
               "Budget: rounds the whole search may play (all candidates and seatings; "
               "at most 10^8).")
@_play_options("Seed; every candidate and seating replays the same deals.", "results/tune",
               "Folder for tune.parquet, tune.png and shards/ (what is played is kept there, "
               "so an interrupted search resumes when rerun).",
               "Discard the kept evaluations of an earlier search in --out.")
@click.option("--symmetric", is_flag=True,
              help="Every seat plays the tuned value: for each value, what one seat gains by "
                   "deviating to its best response (a search with --rounds against the other "
                   "seats at that value); the values where no deviation gains measurably are "
                   "stable. No --opponent.")
@click.option("--best-response", is_flag=True,
              help="Iterate: the other seats play the current value, its best response (a "
                   "search with --rounds) becomes the next, until it stops moving (a fixed "
                   "point), cycles, or --max-steps. No --opponent.")
@click.option("--start", metavar="VALUE[,VALUE...]", default=None,
              help="With --best-response: the first value (one per --param, in order)  "
                   "[default: the strategy's default, or the nearest grid value]")
@click.option("--max-steps", type=click.IntRange(1, 100), default=None,
              help="With --best-response: the most steps  [default: 10]")
@_quiet_option
@click.pass_context
def tune(ctx, preset, rules_file, assignments, players, strategy, params, opponents,
         objective, rounds, seed, threads, cluster, out, fresh, symmetric, best_response,
         start, max_steps, quiet):
    """Find the best value of a strategy's numeric parameters against a field of opponents:
    successive halving over shards of deals (every candidate on the same deals, the tuned
    seat rotated through every seat); report the best value, the values indistinguishable
    from it, a table and a plot.

    \b
    Example (the rules of W2, docs/benchmarks.md#w2):
      golfsim tune --preset four_card --set pair_scope=none \\
          --set initial_reveal_constraint=nearest_row --strategy knock-threshold \\
          --param T=4..16 --opponent knock-threshold:T=8 --rounds 400000 --out results/tune
    """
    args = _rule_arguments(ctx, preset, rules_file, assignments)
    if symmetric or best_response or start is not None or max_steps is not None:
        mode = _table_mode(symmetric, best_response, start, max_steps, opponents)
        with _api_errors():
            result = api.tune_table(**args, players=players, strategy=strategy,
                                    param=list(params), mode=mode, start=start,
                                    max_steps=max_steps, objective=objective, rounds=rounds,
                                    seed=seed, threads=threads, out=out, fresh=fresh,
                                    cluster=cluster, command=_command_line(ctx),
                                    ui=_ui(quiet))
        _report(result)
        return
    with _api_errors():
        result = api.tune(**args, players=players, strategy=strategy, param=list(params),
                          opponent=list(opponents), objective=objective, rounds=rounds,
                          seed=seed, threads=threads, out=out, fresh=fresh,
                          cluster=cluster, command=_command_line(ctx), ui=_ui(quiet))
    _report(result)


def _table_mode(symmetric, best_response, start, max_steps, opponents) -> str:
    """tune --symmetric / --best-response: the mode the flags ask for (or the one-line error
    of flags that do not go together)."""
    if symmetric and best_response:
        raise GolfsimError("--symmetric and --best-response: give one (the first scans every "
                           "value, the second iterates best responses)")
    if not symmetric and not best_response:
        name = "--start" if start is not None else "--max-steps"
        raise GolfsimError(f"{name} belongs to --best-response")
    if opponents:
        raise GolfsimError(f"--opponent {opponents[0]}: with --symmetric or --best-response the "
                           "other seats play the tuned strategy's own values; leave --opponent "
                           "out")
    if symmetric and (start is not None or max_steps is not None):
        raise GolfsimError(f"{'--start' if start is not None else '--max-steps'} belongs to "
                           "--best-response; --symmetric scans every value")
    return "symmetric" if symmetric else "best_response"


@cli.command()
@_rule_options
@click.option("--ender", type=int, default=None, metavar="SEAT",
              help="With several layouts: the seat that ended the hole (0 = the first "
                   "layout); default: nobody.")
@click.option("--knocked", is_flag=True, help="The ender ended the hole by knocking.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.argument("layout", nargs=-1, required=True)
@click.pass_context
def score(ctx, preset, rules_file, assignments, ender, knocked, as_json, layout):
    """Score a LAYOUT written row by row, rows separated by '/'; several layouts, one per
    seat separated by '|', are scored as one hole (the hole rules: ender, lowest, ties).

    \b
    Examples:
      golfsim score "K♠ 5♥ J♣ / K♦ 5♣ 2♥"          (prints 8)
      golfsim score KS 5H JC / KD 5C 2H
      golfsim score --set value_two=2 "KS 5H JC / KD 5C 2H"   (prints 12)
      golfsim score --set lowest_bonus=-3 --ender 1 "KS 5H JC / KD 5C 2H | 9S 9H 3C / 4D 5D 6D"
    """
    from .output.layout_score import (LayoutError, format_hole_score, format_layout_score,
                                      score_hole, score_layout)

    rules, preset = build_rules(ctx, preset, rules_file, assignments)
    text = " ".join(layout)
    several = "|" in text
    if not several and (ender is not None or knocked):
        raise GolfsimError("--ender and --knocked need two or more layouts, separated by '|'")
    try:
        result = score_hole(rules, text, ender, knocked) if several else \
            score_layout(rules, text)
    except (CardParseError, LayoutError) as e:
        raise GolfsimError(str(e)) from None
    if as_json:
        click.echo(json.dumps(result.as_json(preset), ensure_ascii=False))
    else:
        click.echo((format_hole_score if several else format_layout_score)(result, preset))


@cli.command()
def presets():
    """List the named rule sets."""
    width = max(len(name) for name in PRESETS)
    for name in PRESETS:
        click.echo(f"{name.ljust(width)}  {PRESET_DESCRIPTIONS.get(name, '')} "
                   f"({preset_reference(name)})")


@cli.command(name="rules")
@click.argument("preset", default=DEFAULT_PRESET)
@click.option("--set", "assignments", multiple=True, metavar="OPTION=VALUE",
              help="Override a rule option (repeatable).")
@click.option("--toml", "as_toml", is_flag=True,
              help="Print a complete TOML rule file that --rules can load.")
def rules_command(preset, assignments, as_toml):
    """Print every rule option of PRESET with its value and meaning, and each card's value."""
    with _api_errors():
        rules, base = api.rules(preset, list(assignments)).rules, api.rules(preset).rules
    if as_toml:
        click.echo(rules.to_toml(preset), nl=False)
        return
    values = {name: option_text(getattr(rules, name)) for name in OPTIONS}
    nw = max(len(n) for n in OPTIONS)
    vw = min(24, max(len(v) for v in values.values()))
    click.echo(f"# {preset}: {PRESET_DESCRIPTIONS.get(preset, '')} ({preset_reference(preset)}; "
               f"every option: docs/rules.md#rule-options)")
    click.echo(f"# card values: {card_values_text(rules)}")
    for name, f in OPTIONS.items():
        mark = "*" if getattr(rules, name) != getattr(base, name) else " "
        allowed = _allowed_text(f)
        allowed = "" if allowed == "a valid value" else f" [{allowed}]"
        click.echo(f"{mark}{name.ljust(nw)}  {values[name].ljust(vw)}  {f.metadata['doc']}"
                   f"{allowed}")
    if assignments:
        click.echo("(* = changed by --set)")


# ---- compare and plot ---------------------------------------------------------------------------
DEFAULT_COMPARE_OUT = "results/compare"
DEFAULT_COMPARE_ROUNDS = api.DEFAULT_COMPARE_ROUNDS


def _positive_float(ctx, param, value):
    if value is not None and not value > 0:
        raise click.BadParameter(f"{value} is not allowed; expected a number > 0")
    return value


@cli.command()
@_rule_options
@click.option("--vary", "varies", multiple=True, metavar="OPTION=V1,V2,...",
              help="A rule option and its values, the baseline's first, e.g. "
                   "--vary pair_scope=column,anywhere (repeatable; separate values with | when "
                   "they hold commas).")
@click.option("--design", type=click.Choice(list(api.DESIGNS)),
              default="factorial", show_default=True,
              help="factorial: every combination of the values; one-at-a-time: each option "
                   "changed alone.")
@_players_option
@click.option("--strategy", "strategies", multiple=True, metavar="NAME[,NAME...]",
              help="Strategies at the table (comma-separated or repeated, at most one per "
                   f"seat); with several they rotate through the seats. Default "
                   f"{DEFAULT_STRATEGY} (knock-threshold in knock-only games).")
@click.option("--rounds", type=Count(1, MAX_ROUNDS), default=None,
              help=f"Deals every rule set plays (at most 10^11)  "
                   f"[default: {DEFAULT_COMPARE_ROUNDS:,}]")
@click.option("--until-width", type=float, default=None, callback=_positive_float,
              metavar="X",
              help="Instead of --rounds: add shards until the 95% half-width (the ± shown) "
                   "of every change is below X, in the unit shown (points, turns, "
                   "percentage points).")
@click.option("--max-rounds", type=Count(1, MAX_ROUNDS), default=None,
              help="With --until-width: stop at this many deals  [default: 10,000,000]")
@_play_options("Seed; every rule set and seating replays the same deals.",
               DEFAULT_COMPARE_OUT,
               "Folder for compare.parquet, compare.md, compare.png and shards/.",
               "Discard the shards of an earlier comparison in --out instead of resuming.")
@click.option("--shard-size", type=Count(1, MAX_HELD_ROUNDS), default=None,
              help="Deals per shard, the unit saved for resuming (at most 10^8)  "
                   "[default: 20,000]")
@_quiet_option
@click.pass_context
def compare(ctx, preset, rules_file, assignments, varies, design, players, strategies, rounds,
            until_width, max_rounds, seed, threads, cluster, shard_size, out, fresh, quiet):
    """Compare house rules on the same deals: the effect of each rule change on every seat
    and strategy (mean score, win share, first-player advantage, knocker's success, round
    length) with paired 95% intervals. Resumable: rerun an interrupted command to continue.

    \b
    Example:
      golfsim compare --preset six_card --vary pair_scope=column,anywhere \\
          --vary ender_penalty=none,plus_10 --strategy greedy --rounds 200000
    """
    args = _rule_arguments(ctx, preset, rules_file, assignments)
    with _api_errors():
        result = api.compare(**args, vary=list(varies), design=design, players=players,
                             strategy=list(strategies), rounds=rounds,
                             until_width=until_width, max_rounds=max_rounds, seed=seed,
                             threads=threads, shard_size=shard_size, out=out, fresh=fresh,
                             cluster=cluster, command=_command_line(ctx), ui=_ui(quiet))
    _report(result, f"{Path(out) / 'shards'}/ ({result.raw.shards} shard(s): rerun the "
            "command to resume, or with more --rounds to extend)")


@cli.command()
@_table_options
@_count_option("--deals", api.DEFAULT_DEALS, 100, MAX_HELD_ROUNDS,
               "Deals each decision is measured on (each deal is played in every "
               "seating, by both versions of the tables; 100 to 10^8).")
@_count_option("--check-rounds", api.DEFAULT_CHECK_ROUNDS, 0, MAX_HELD_ROUNDS,
               "Rounds of the tournament that checks the finished guide against greedy "
               "(0: no check; at most 10^8).")
@_count_option("--compare-rounds", api.DEFAULT_GUIDE_COMPARE_ROUNDS, 0, MAX_ROUNDS,
               "Deals per rule set for the house-rule effects (0: none; at most 10^11).")
@click.option("--vary", "varies", multiple=True, metavar="OPTION=V1,V2,...",
              help="House rules whose effects the guide shows, the baseline value first "
                   "[default: ender_penalty, final_turn_stock_only, negative_pairs_keep_value].")
@click.option("--field", default=None, metavar="STRATEGY",
              help="The opponents every decision is measured and checked against, e.g. "
                   "heuristic or net:path.npz [default: greedy; knock-threshold where only a "
                   "knock ends a round].")
@_play_options("Seed of the measured deals.", "results/guide",
               "Folder for guide.html, guide.md, guide.parquet, the figures and shards/ (an "
               "interrupted guide resumes when rerun).", "Discard the measurements kept in --out.")
@_quiet_option
@click.pass_context
def guide(ctx, preset, rules_file, assignments, players, deals, check_rounds, compare_rounds,
          varies, field, seed, threads, cluster, out, fresh, quiet):
    """Write a strategy guide for a rule set: when to take the discard, which drawn cards to
    keep, when to go out or knock, how to reveal, each backed by measured win-share
    differences with paired 95% intervals; the house-rule effects; and a tournament showing
    by how much a player following the guide beats greedy. One self-contained HTML file, a
    Markdown file, Parquet and plots.

    \b
    Example:
      golfsim guide --preset six_card --players 4 --out results/guide
    """
    args = _rule_arguments(ctx, preset, rules_file, assignments)
    with _api_errors():
        result = api.guide(**args, players=players, deals=deals, check_rounds=check_rounds,
                           compare_rounds=compare_rounds, vary=list(varies), seed=seed,
                           threads=threads, out=out, fresh=fresh, cluster=cluster,
                           command=_command_line(ctx), ui=_ui(quiet), field=field)
    _report(result)


@cli.command()
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Processes compiling at once (default: the number of CPUs).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--clear", is_flag=True,
              help="Empty the compile cache instead (every version's builds; the next runs "
                   "compile again). Not while another golfsim command runs.")
def warm(jobs, quiet, clear):
    """Compile every build a built-in strategy can reach ahead (the lean kernel, the Cabo
    build, the general engine, the power-card games' engine, match play and every built-in
    policy), so that later runs start at once. Each is compiled once per version and machine;
    what is compiled already is only loaded."""
    from .kernel import builds
    if clear:
        _clear_cache(builds.CACHE_DIR)
        return
    from tqdm import tqdm
    from .experiments import warm as warming
    t0 = time.perf_counter()
    bar = tqdm(total=len(warming.PLAN), unit="build", file=sys.stderr, disable=quiet,
               desc="golfsim warm", dynamic_ncols=True)

    def done(name, seconds):
        bar.set_postfix_str(f"{builds.describe(name)}: {seconds:.1f} s")
        bar.update(1)
    try:
        warming.warm(jobs=jobs or os.cpu_count() or 1, done=done,
                     notify=None if quiet else
                     (lambda m: bar.write(f"golfsim: {m}", file=sys.stderr)))
    except RuntimeError as e:
        raise GolfsimError(str(e)) from None
    finally:
        bar.close()
    click.echo(f"golfsim: {len(warming.PLAN)} builds ready in {builds.CACHE_DIR} "
               f"({time.perf_counter() - t0:.0f} s)")


def _clear_cache(cache_dir: str) -> None:
    from .kernel import cache
    removed, freed = cache.clear(cache_dir)
    base = Path(cache_dir).parent
    click.echo(f"golfsim: removed {len(removed)} version folder{'s' * (len(removed) != 1)} "
               f"of the compile cache {base} ({freed / 1e6:.1f} MB)")


class _PlotCommand(click.Command):
    """Names, in its help, the commands whose folders it redraws (output/redraw.py's
    registry), imported only when the help is shown: matplotlib is slow to load."""

    def format_help_text(self, ctx, formatter):
        from .output.redraw import commands
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(self.help.replace("COMMANDS", commands()))


@cli.command(cls=_PlotCommand,
             short_help="Redraw every figure of a results folder from its Parquet files.")
@click.argument("folder")
def plot(folder):
    """Redraw every figure of a results FOLDER (of COMMANDS) from its Parquet files."""
    from .output import plots, redraw

    path = Path(folder)
    if not path.is_dir():
        raise GolfsimError(f"{folder}: no such folder; give a folder written by golfsim "
                           f"{redraw.commands()}")
    from .experiments.folder import MARKER, read_marker
    marker = read_marker(path)
    if marker is not None:
        click.echo(f"golfsim: note: {folder} is unfinished ({MARKER}: "
                   f"`{marker.get('command_line', '?')}` {marker.get('state', 'stopped')}); "
                   "rerun that command to finish it", err=True)
    try:
        written, notes = redraw.redraw(path)
    except plots.ResultsFileError as e:
        raise GolfsimError(str(e)) from None
    except ValueError as e:
        raise GolfsimError(f"{folder}: {e}") from None
    except OSError as e:
        raise GolfsimError(f"{folder}: cannot redraw ({e.strerror or e})") from None
    for note in notes:
        click.echo(f"golfsim: {note}", err=True)
    click.echo("wrote:")
    for p in written:
        click.echo(f"  {p}")


# ---- replay ------------------------------------------------------------------------------------
@cli.command()
@_table_options
@_seat_strategies_option
@_seed_option("The seed of the run to replay.")
@click.option("--round", "round_index", type=Count(0, MAX_ROUNDS - 1), default=None,
              help="The round (0-based, as in rounds.parquet) to replay  [default: 0]")
@click.option("--holes", type=Count(1, MAX_HOLES), default=None,
              help="Replay a match of this many holes, as `run --holes` plays it.")
@click.option("--target", type=Count(1, MAX_TARGET), default=None,
              help="Replay a match played until some total reaches this, as `run --target`.")
@click.option("--match", "match_index", type=Count(0, MAX_ROUNDS - 1), default=None,
              help="With --holes or --target: the match (0-based) to replay  [default: 0]")
@click.option("--hole", "only_hole", type=Count(1, MAX_HOLES), default=None,
              help="With --holes or --target: show only this hole of the match (counted "
                   "from 1; the earlier holes are still played, they decide who plays first).")
@click.option("--html", "html_file", metavar="FILE.html", default=None,
              help="Also write the replay as a self-contained HTML page.")
@click.option("--json", "json_file", metavar="FILE.json", default=None,
              help="Also write every step and the table after it as JSON.")
@click.option("--ascii", "ascii_only", is_flag=True, help="Suits as letters (KS) in the text.")
@click.option("--show-hidden", is_flag=True,
              help="Show the face-down cards their owner does not know (as ??=K♠).")
@click.option("--quiet", "-q", is_flag=True, help="Do not print the replay (only write the "
                                                  "files).")
@click.pass_context
def replay(ctx, preset, rules_file, assignments, players, strategies, seed, round_index, holes,
           target, match_index, only_hole, html_file, json_file, ascii_only, show_hidden,
           quiet):
    """Show one round move by move as the players saw it: the deal, the reveals, every draw
    and decision in words, the end and the scores, and what each seat knew of its own layout
    after every turn. It is exactly the round `golfsim run` played with the same rules,
    strategies and seed (round I of rounds.parquet); with --holes or --target, every hole of
    one match as `run --holes`/`--target` plays it.

    \b
    Examples:
      golfsim replay --preset six_card --players 4 --strategy greedy --seed 7 --round 12
      golfsim replay --preset four_card --strategy knock-threshold:T=6 \\
          --strategy knock-threshold:T=10 --players 2 --round 3 --html replay.html
      golfsim replay --preset six_card --holes 9 --match 2 --hole 4
    """
    rule_set = build_rule_set(ctx, preset, rules_file, assignments)
    rules, preset = rule_set.rules, rule_set.preset
    seats, user = _replay_seats(rules, players, strategies)
    _check_replay_options(rule_set, round_index, holes, target, match_index, only_hole)
    for option, path in (("--html", html_file), ("--json", json_file)):
        _check_output_file(option, path)
    shown = None if only_hole is None else only_hole - 1
    text, page, data = _play_replay(rules, preset, players, seats, user, seed, round_index,
                                    (holes or 0, target or 0, match_index or 0, shown),
                                    ascii_only, show_hidden)
    _write_replay(text, [("--html", html_file, page), ("--json", json_file, data)], quiet)


def _replay_seats(rules, players: int, strategies):
    """(the seats' strategies, their compiled user policy or None), checked."""
    from strategies import StrategyError, resolve_seats, user_policy

    from .experiments import runner
    try:
        rules.check_players(players)
        seats = resolve_seats(list(strategies) or [default_strategy(rules)], players)
        user = user_policy(seats)
        runner.check_policies(rules, players, [s.policy_id for s in seats])
    except (RuleError, StrategyError, ValueError) as e:
        raise GolfsimError(str(e)) from None
    return seats, user


def _check_replay_options(rule_set, round_index, holes, target, match_index,
                          only_hole) -> None:
    match_mode = bool(holes or target)
    if holes and target:
        raise GolfsimError(f"--holes {holes} and --target {target}: a match ends by one or the "
                           "other; give one")
    with _api_errors():
        api.check_match_length(rule_set, holes, target)
    if match_mode and round_index is not None:
        raise GolfsimError(f"--round {round_index} names a single round; a match is named by "
                           "--match (its hole h is round match * 1000 + h)")
    if not match_mode and (match_index is not None or only_hole is not None):
        name = "--match" if match_index is not None else "--hole"
        raise GolfsimError(f"{name} needs --holes or --target (a match)")
    if holes and only_hole is not None and only_hole > holes:
        raise GolfsimError(f"--hole {only_hole}: the match has {holes} holes")


def _check_output_file(option: str, path: str | None) -> None:
    """Refuse, before anything is played, a file that cannot be written: a folder, a folder
    that does not exist, a name longer than the file system allows, a folder without write
    permission."""
    if path is None:
        return
    from .experiments.report import check_writable
    file = Path(path)
    try:
        if not file.parent.is_dir():
            raise GolfsimError(f"{option} {path}: the folder {file.parent} does not exist")
        size, longest = len(os.fsencode(file.name)), os.pathconf(file.parent, "PC_NAME_MAX")
        if size > longest:
            raise GolfsimError(f"{option} {path}: the file name is {size} bytes long; its "
                               f"folder's file system allows at most {longest}")
        if file.is_dir():
            raise GolfsimError(f"{option} {path}: is a folder; give a file name")
        check_writable(file)
    except OSError as e:
        raise GolfsimError(f"{option} {path}: cannot write there ({e.strerror or e})") from None


def _play_replay(rules, preset, players, seats, user, seed, round_index, match, ascii_only,
                 show_hidden):
    """The replay's text, HTML page and JSON data, each a function that makes it (so that
    one failing loses none of the others). ``match``: (holes, target, match index, the hole
    shown or None); holes = target = 0 replays round ``round_index``."""
    from .experiments import replay as rp
    from .experiments import runner
    from .output import replay_report as rr
    holes, target, match_index, shown = match
    try:
        if not (holes or target):
            h = rp.replay_round(rules, players, seats, seed, round_index or 0, user=user)
            return (lambda: rr.hole_text(h, ascii_only, show_hidden, preset=preset),
                    lambda: rr.hole_html(h, False, preset),
                    lambda: json.dumps(rp.hole_dict(h), ensure_ascii=False))
        m = rp.replay_match(rules, players, seats, seed, match_index, holes, target, user=user)
    except runner.PolicyError as e:
        raise GolfsimError(f"policy error: {e}") from None
    except rp.ReplayError as e:
        raise GolfsimError(f"replay: {e}") from None
    if shown is not None and shown >= len(m.holes):
        raise GolfsimError(f"--hole {shown + 1}: match {m.match} ended after {len(m.holes)} "
                           "hole(s)")
    return (lambda: rr.match_text(m, ascii_only, show_hidden, preset, shown),
            lambda: rr.match_html(m, False, preset, shown),
            lambda: json.dumps(rp.match_dict(m), ensure_ascii=False))


def _write_replay(text, files, quiet: bool) -> None:
    """Write each file of ``files`` ((option, path or None, function making its content)),
    then print the text unless ``quiet``: each on its own, so that one failing loses none
    of the others; the failures are then told in one error line."""
    from .experiments.report import atomic_path
    written, failed = [], []

    def attempt(what: str, output) -> bool:
        try:
            output()
            return True
        except OSError as e:
            failed.append(f"{what}: writing it failed ({e.strerror or e})")
        except Exception as e:  # noqa: BLE001 - a fault in one output must not lose the others
            failed.append(f"{what}: it could not be made ({type(e).__name__}: {e})")
        return False

    def write(path, make):
        content = make()
        with atomic_path(Path(path)) as tmp:
            tmp.write_text(content, encoding="utf-8")

    for option, path, make in files:
        if path and attempt(f"{option} {path}", lambda: write(path, make)):
            written.append(path)
    if not quiet:
        attempt("the replay's text", lambda: click.echo(text()))
    if written:
        click.echo("wrote:" if quiet else "\nwrote:")
        for p in written:
            click.echo(f"  {p}")
    if failed:
        raise GolfsimError("replay: " + "; ".join(failed))


def main(argv=None):
    """Console-script entry point (``golfsim``)."""
    cli.main(args=argv, prog_name="golfsim")


if __name__ == "__main__":
    main()
