"""The API's commands: ``run``, ``compare``, ``tune``, ``tune_table``, ``tournament`` and
``guide``. Each checks its arguments and makes its plan, then fills in the command skeleton
(template.Command) with how it resumes, compiles, plays and writes."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..game.rules import RuleError, canonical_option
from .checks import (DEFAULT_CHECK_ROUNDS, DEFAULT_COMPARE_ROUNDS, DEFAULT_DEALS,
                     DEFAULT_GUIDE_COMPARE_ROUNDS, DEFAULT_PLAYERS, DEFAULT_ROUNDS,
                     DEFAULT_SEED, DEFAULT_TUNE_ROUNDS, DESIGNS, KERNELS, MAX_HELD_ROUNDS,
                     MAX_HOLES, MAX_ROUNDS, MAX_TARGET, OBJECTIVES, choice_of, count_of,
                     optional_count, power_text, texts_of, until_width_of, values_list)
from .results import (CompareResult, GuideResult, RunResult, TournamentResult, TuneResult,
                      TuneTableResult)
from .rulesets import RuleSet, check_match_length, default_strategy
from .template import (UI, Command, Playing, clustered, command_line, given, prepare_writers,
                       repeat, shards_fit, write_to_out)
from .words import GolfsimError, Interrupted, PolicyError, in_python_words


# ---- run ---------------------------------------------------------------------------------------
@in_python_words
@clustered
def run(preset: str | None = None, *, set=None, rules_file: str | None = None, rules=None,
        players: int = DEFAULT_PLAYERS, strategy=None, rounds=DEFAULT_ROUNDS,
        seed=DEFAULT_SEED, threads: int | None = None, chunk_size=None,
        per_round: bool = False, holes=None, target=None, kernel: str = "auto",
        out=None, progress: bool = True, command: str | None = None,
        ui: UI | None = None, cluster: str | None = None) -> RunResult:
    """Play ``rounds`` rounds (or, with ``holes`` or ``target``, whole matches) of a rule set;
    ``golfsim run``. ``strategy``: one spec for every seat or a list, one per seat (default
    greedy, knock-threshold in knock-only games). With ``out`` the folder is checked before
    anything is played and the files are written there. A policy error raises PolicyError and
    Ctrl-C raises Interrupted, each holding the rounds played (``.result``, written to ``out``
    first)."""
    from strategies import StrategyError, resolve_seats, seat_arrays, user_policy

    from ..experiments import cluster, runner, warm

    ui, seed, threads, players, rs = given(rules, preset, set, rules_file, players, seed,
                                           threads, out, progress, ui, per_round=per_round)
    rounds = count_of(rounds, 1, MAX_ROUNDS, "--rounds")
    chunk_size = optional_count(chunk_size, 1, MAX_ROUNDS, "--chunk-size")
    holes = optional_count(holes, 1, MAX_HOLES, "--holes") or 0
    target = optional_count(target, 1, MAX_TARGET, "--target") or 0
    kernel = choice_of(kernel, KERNELS, "--kernel")
    specs = texts_of(strategy, "--strategy")
    try:
        rs.rules.check_players(players)
        seats = resolve_seats(specs or [default_strategy(rs.rules)], players)
        user = user_policy(seats)
        # the rule tables, flattened and checked once for the whole run
        arrays = runner.check_policies(rs.rules, players, [s.policy_id for s in seats])
    except (RuleError, StrategyError, ValueError) as e:
        raise GolfsimError(str(e)) from None
    _check_rounds_and_matches(rs, rounds, holes, target, per_round)
    if chunk_size is None:
        chunk_size = (cluster.chunk_rounds(rounds, runner.DEFAULT_CHUNK) if cluster.pending()
                      else runner.DEFAULT_CHUNK)
    command = command or command_line(
        "run", rs, ["--players", players],
        repeat("--strategy", specs or [default_strategy(rs.rules)]),
        ["--rounds", rounds, "--seed", seed], ["--per-round"] if per_round else None,
        ["--holes", holes] if holes else None, ["--target", target] if target else None,
        ["--kernel", kernel] if kernel != "auto" else None)
    ids, params = seat_arrays(seats)
    manifest = run_manifest(rs, players, seats, rounds, seed, per_round, holes, target, kernel)
    unit = "match" if (holes or target) else "round"

    def warm_up():
        try:
            warm.warm_up(rs.rules, players, ids, params, kernel=kernel, user=user, holes=holes,
                         target=target, notify=ui.say, arrays=arrays)
        except runner.PolicyError:
            pass  # the run meets the same error and reports it with what was summed

    def play(c: Command):
        writers = prepare_writers() if c.kept is not None else None
        try:
            if c.kept is not None:
                c.kept.open()
            return runner.run(rs.rules, players, ids, params, rounds, seed, threads=threads,
                              chunk_size=chunk_size, per_round=per_round,
                              progress=c.progress, strategies=[s.label for s in seats],
                              holes=holes, target=target, kernel=kernel, user=user,
                              store=c.kept, executor=cluster.executor(), arrays=arrays)
        finally:
            if writers is not None:   # also on an error: exiting while it imports can abort
                writers.join()

    c = Command("run", ui, out, command, lambda: rounds, play,
                lambda raw: RunResult(raw, rs, rounds, command, threads),
                key=lambda: c.kept.key, resume=lambda out_dir: _run_store(out, out_dir, manifest),
                warm=warm_up, unit=unit,
                finish=lambda result, folder: _run_ended(result, ui, unit, out, folder, c.kept))
    return c.perform()


def _run_store(out, out_dir: Path, manifest):
    """The store a run keeps its state in (shards.RunStore): what a killed or interrupted run
    left there is resumed, when it is the same run."""
    from ..experiments.shards import RunStore, ShardError
    store = RunStore(out_dir, manifest)
    try:
        store.check()
    except ShardError as e:
        raise GolfsimError(f"--out {out}: {e}") from None
    return store


def _run_ended(result: RunResult, ui: UI, unit: str, out, folder, store) -> RunResult:
    """A run played: what is noted and warned, the files written (and its store cleared when
    it is complete); an incomplete run raises Interrupted or PolicyError holding it."""
    raw, rounds = result.raw, int(result.metadata["rounds_requested"])
    if store is not None:
        for note in store.notes:
            ui.note(note)
    if raw.resumed:
        units = "matches" if unit == "match" else "rounds"
        ui.note(f"resumed: {raw.resumed:,} of the {rounds:,} {units} were played by an "
                f"earlier, unfinished run (kept in {store.dir})")
    for w in result.warnings:
        ui.warn(w)
    if store is not None:
        write_to_out(result, out, folder)
        if raw.complete:
            with Playing(folder, out):
                store.clear()
            folder.finish()
        else:
            folder.stop(raw.error or "")
    if not raw.complete:
        held = "the files hold those" if store is not None else "the result holds those"
        if raw.error.startswith("interrupted"):
            stuck = raw.error.partition("; ")[2]   # a policy that never returned, if any
            resume = "; rerun the same command to resume" if store is not None else ""
            raise Interrupted(f"interrupted after {raw.totals.rounds:,} of {rounds:,} rounds; "
                              f"{held}{resume}" + (f" ({stuck})" if stuck else ""), result)
        raise PolicyError(f"policy error, run stopped after {raw.totals.rounds:,} of "
                          f"{rounds:,} rounds ({held}): {raw.error}", result)
    return result


def _check_rounds_and_matches(rs: RuleSet, rounds: int, holes: int, target: int,
                              per_round: bool) -> None:
    """run's --rounds, --holes, --target and --per-round together, and the match length they
    give against the one the rule set's options were explicitly given."""
    if holes and target:
        raise GolfsimError(f"--holes {holes} and --target {target}: a match ends by one or the "
                           "other; give one")
    if (holes or target) and per_round:
        raise GolfsimError("--per-round writes single holes; it cannot be combined with "
                           "--holes or --target (match play)")
    if per_round and rounds > MAX_HELD_ROUNDS:
        raise GolfsimError(f"--rounds {rounds} with --per-round: expected at most "
                           f"{power_text(MAX_HELD_ROUNDS)} (every round is kept in memory); "
                           "give fewer rounds or leave out --per-round")
    if holes or target:
        most = holes or MAX_HOLES    # a --target match lasts at most 1000 holes
        if rounds * most > MAX_ROUNDS:
            what = f"--holes {holes}" if holes else f"--target {target} (up to {MAX_HOLES} " \
                                                      "holes a match)"
            raise GolfsimError(f"--rounds {rounds} with {what}: expected at most "
                               f"{MAX_ROUNDS // most} matches, {power_text(MAX_ROUNDS)} "
                               "holes in all")
    check_match_length(rs, holes, target)


def run_manifest(rs: RuleSet, players: int, seats, rounds: int, seed: int, per_round: bool,
                 holes: int, target: int, kernel: str) -> dict:
    """The arguments that fix a run's results (shards.RunStore): not the threads or the
    chunk size, which change nothing. A user policy's file counts by its content."""
    from ..experiments.report import version
    files = {}
    for s in seats:
        if s.user is not None:
            try:
                files[str(s.user[0])] = hashlib.sha256(Path(s.user[0]).read_bytes()).hexdigest()
            except OSError:
                files[str(s.user[0])] = None
    return {"version": version(), "rules": rs.rules.to_toml(), "players": players,
            "strategies": [s.spec for s in seats],
            "params": [[float(x) for x in s.params] for s in seats], "policy_files": files,
            "rounds": rounds, "seed": seed, "per_round": bool(per_round), "holes": holes,
            "target": target, "kernel": kernel}


# ---- compare -----------------------------------------------------------------------------------
@in_python_words
@clustered
def compare(preset: str | None = None, *, vary=None, design: str = "factorial", set=None,
            rules_file: str | None = None, rules=None, players: int = DEFAULT_PLAYERS,
            strategy=None, rounds=None, until_width: float | None = None, max_rounds=None,
            seed=DEFAULT_SEED, threads: int | None = None, shard_size=None, out=None,
            fresh: bool = False, progress: bool = True, command: str | None = None,
            ui: UI | None = None, cluster: str | None = None) -> CompareResult:
    """Play a baseline rule set and its variants on the same deals and measure what each
    change does, with paired 95% intervals; ``golfsim compare``. ``vary``: "OPTION=V1,V2"
    strings (the baseline's value first) or a dict {option: [values]}. ``rounds`` deals
    (default 100,000), or instead ``until_width``. With ``out`` the shards are kept there (a
    rerun resumes) and the files are written there; without, the shards go to a temporary
    folder that is removed."""
    from strategies import StrategyError, user_policy

    from ..experiments import compare as cmp

    ui, seed, threads, players, rs = given(rules, preset, set, rules_file, players, seed,
                                           threads, out, progress, ui, fresh=fresh)
    rounds = optional_count(rounds, 1, MAX_ROUNDS, "--rounds")
    max_rounds = optional_count(max_rounds, 1, MAX_ROUNDS, "--max-rounds")
    shard_size = optional_count(shard_size, 1, MAX_HELD_ROUNDS, "--shard-size")
    design = choice_of(design, DESIGNS, "--design")
    until_width = until_width_of(until_width)
    varies = values_list("--vary", vary)
    specs = texts_of(strategy, "--strategy")
    if rounds is not None and until_width is not None:
        raise GolfsimError(f"--rounds {rounds} and --until-width {until_width:g}: give one or "
                           "the other")
    if max_rounds is not None and until_width is None:
        raise GolfsimError("--max-rounds caps --until-width; with a fixed count use --rounds")
    try:
        set_options = [canonical_option(item.split("=", 1)[0].strip())
                       for item in rs.assignments]
        plan = cmp.make_plan(rs.rules, rs.preset, varies, design,
                             specs or [default_strategy(rs.rules)], players, seed,
                             shard_size or cmp.DEFAULT_SHARD, set_options)
        user = user_policy(plan.strategies)
    except (RuleError, StrategyError, cmp.CompareError) as e:
        raise GolfsimError(str(e)) from None
    if until_width is None:
        rounds = rounds or DEFAULT_COMPARE_ROUNDS
    max_rounds = max_rounds or cmp.DEFAULT_MAX_ROUNDS
    command = command or command_line(
        "compare", rs, repeat("--vary", varies),
        ["--design", design] if design != "factorial" else None, ["--players", players],
        repeat("--strategy", plan.specs),
        ["--rounds", rounds] if rounds is not None else
        ["--until-width", repr(until_width), "--max-rounds", max_rounds], ["--seed", seed],
        ["--shard-size", plan.shard_size] if shard_size else None)
    finished = []   # the shards played or loaded, for the messages of a stop

    def stopped_after() -> str:
        return f"after {len(finished)} shard(s)"

    def kept() -> str:
        return f"{c.out_dir / cmp.SHARD_DIR}"

    c = Command(
        "compare", ui, out, command,
        lambda: (rounds or max_rounds) * len(plan.rule_sets) * len(plan.seats),
        lambda c: cmp.run(plan, c.work_dir, rounds=rounds, until_width=until_width,
                          max_rounds=max_rounds, threads=threads, fresh=fresh,
                          progress=c.progress, user=user,
                          on_shard=lambda j, loaded: finished.append(j)),
        lambda raw: CompareResult(raw, rs, command, threads), key=plan.key,
        resume=shards_fit(plan.manifest(), fresh, lambda e: f"--out {out}: {e}"),
        warm=lambda: cmp.warm_up(plan, user=user), scratch=True,
        errors=((cmp.CompareError, lambda e: f"--out {out}: {e}"),),
        stopped=lambda e: f"policy error, compare stopped {stopped_after()}" +
        (f" (kept in {kept()})" if out is not None else "") + f": {e}",
        interrupted=lambda: f"compare interrupted {stopped_after()}" +
        (f"; they are kept in {kept()}: rerun the same command to resume"
         if out is not None else ""))
    return c.perform()


# ---- tune --------------------------------------------------------------------------------------
@in_python_words
@clustered
def tune(preset: str | None = None, *, strategy: str, param=None, opponent=None,
         objective: str = "win_share", set=None, rules_file: str | None = None, rules=None,
         players: int = DEFAULT_PLAYERS, rounds=DEFAULT_TUNE_ROUNDS, seed=DEFAULT_SEED,
         threads: int | None = None, out=None, fresh: bool = False, progress: bool = True,
         command: str | None = None, ui: UI | None = None,
         cluster: str | None = None) -> TuneResult:
    """Find the best values of a strategy's numeric parameters against a field of opponents
    (successive halving on shared deals); ``golfsim tune``. ``param``: "NAME=VALUES" strings
    (``T=4..20``, ``T=4..20:2``, ``x=0,0.5,1``) or a dict {name: values or range}; ``opponent``:
    one spec for every other seat or a list, one per opponent seat; ``rounds``: the budget of
    the whole search. With ``out`` every evaluation is kept there (a rerun resumes) and the
    files are written there."""
    from strategies import StrategyError

    from ..experiments import tune as tn
    from ..experiments.folder import key_of

    ui, seed, threads, players, rs = given(rules, preset, set, rules_file, players, seed,
                                           threads, out, progress, ui, fresh=fresh)
    rounds = count_of(rounds, 1, MAX_HELD_ROUNDS, "--rounds")
    objective = choice_of(objective, OBJECTIVES, "--objective")
    if not isinstance(strategy, str) or not strategy:
        raise GolfsimError("Missing option '--strategy'.")
    params = values_list("--param", param)
    opponents = texts_of(opponent, "--opponent")
    try:
        plan = tn.plan(rs.rules, players, strategy, list(params), list(opponents), rounds,
                       objective)
    except (RuleError, StrategyError, tn.TuneError) as e:
        raise GolfsimError(str(e)) from None
    command = command or command_line(
        "tune", rs, ["--players", players, "--strategy", strategy], repeat("--param", params),
        repeat("--opponent", opponents),
        ["--objective", objective] if objective != "win_share" else None,
        ["--rounds", rounds, "--seed", seed])
    refused = (tn.ShardError, lambda e: f"--out {out}: {e}")
    return Command(
        "tune", ui, out, command, lambda: plan.rounds_to_play,
        lambda c: tn.tune(plan, seed, threads=threads, progress=c.progress,
                          out_dir=c.out_dir, fresh=fresh),
        lambda raw: TuneResult(raw, rs, command, threads),
        key=lambda: key_of(tn.manifest(plan, seed)),
        resume=shards_fit(tn.manifest(plan, seed), fresh, refused[1]),
        warm=lambda: tn.warm_up(plan), errors=(refused,)).perform()


@in_python_words
@clustered
def tune_table(preset: str | None = None, *, strategy: str, param=None,
               mode: str = "symmetric", start: str | None = None, max_steps=None,
               objective: str = "win_share", set=None, rules_file: str | None = None,
               rules=None, players: int = DEFAULT_PLAYERS, rounds=DEFAULT_TUNE_ROUNDS,
               seed=DEFAULT_SEED, threads: int | None = None, out="results/tune",
               fresh: bool = False, progress: bool = True, command: str | None = None,
               ui: UI | None = None) -> TuneTableResult:
    """The value of a strategy's parameters a whole table should play, every seat playing
    it (``golfsim tune --symmetric``, mode "symmetric": every value's best response) or
    iterated best responses from ``start`` (mode "best_response", at most ``max_steps``);
    simulator/experiments/equilibrium.py. Every search is kept in ``out`` (a rerun
    resumes) and the files are written there."""
    from strategies import StrategyError

    from ..experiments import equilibrium as eq
    from ..experiments import tune as tn
    from ..experiments.folder import key_of

    ui, seed, threads, players, rs = given(rules, preset, set, rules_file, players, seed,
                                           threads, out, progress, ui, False, fresh=fresh)
    rounds = count_of(rounds, 1, MAX_HELD_ROUNDS, "--rounds")
    objective = choice_of(objective, OBJECTIVES, "--objective")
    mode = choice_of(mode, eq.MODES, "mode")
    params = values_list("--param", param)
    try:
        tp = eq.plan(rs.rules, players, strategy, list(params), rounds, objective, mode, start,
                     max_steps or eq.MAX_STEPS)
    except (RuleError, StrategyError, tn.TuneError) as e:
        raise GolfsimError(str(e)) from None
    flag = f"--{mode.replace('_', '-')}"
    command = command or command_line(
        "tune", rs, [flag, "--players", players, "--strategy", strategy],
        repeat("--param", params),
        ["--objective", objective] if objective != "win_share" else None,
        ["--start", start] if start is not None else None,
        ["--max-steps", max_steps] if max_steps is not None else None,
        ["--rounds", rounds, "--seed", seed])
    responses = len(tp.grid) if mode == "symmetric" else 1
    run = eq.symmetric if mode == "symmetric" else eq.best_response

    def play(c: Command):
        def on_response(r):   # an iteration's length is not known ahead: one search at a time
            if mode == "best_response" and c.bar is not None:
                c.bar.total += tp.rounds_per_response
                c.bar.refresh()
        return run(tp, seed, threads=threads, progress=c.progress, out_dir=c.out_dir,
                   fresh=fresh, on_response=on_response, preset=rs.preset, command=command)

    return Command(
        "tune", ui, out, command, lambda: tp.rounds_per_response * responses, play,
        lambda raw: TuneTableResult(raw, rs, command, threads),
        key=lambda: key_of({"mode": mode, "search": tn.manifest(tp.first, seed),
                            "grid": [c.spec for c in tp.grid], "start": tp.start,
                            "max_steps": tp.max_steps}),
        resume=lambda out_dir: _check_fields(tp, out, out_dir, seed, fresh),
        warm=lambda: tn.warm_up(tp.first), folder_name=f"tune {flag}",
        errors=((tn.ShardError, lambda e: f"--out {out}: {e}"),),
        also=(Path(out) / "fields",)).perform()


def _check_fields(tp, out, out_dir: Path, seed: int, fresh: bool) -> None:
    """Every field's kept search in ``out_dir`` fits ``tp`` (equilibrium.TablePlan), before
    anything is written."""
    from ..experiments import equilibrium as eq
    from ..experiments import tune as tn
    for v, candidate in enumerate(tp.grid):
        shards_fit(tn.manifest(tp.field_plan(v), seed), fresh,
                   lambda e: f"--out {out}: {e}")(eq.field_folder(out_dir, candidate.spec))


# ---- tournament --------------------------------------------------------------------------------
@in_python_words
@clustered
def tournament(preset: str | None = None, *, strategy, set=None,
               rules_file: str | None = None, rules=None, players: int = DEFAULT_PLAYERS,
               rounds=DEFAULT_ROUNDS, seed=DEFAULT_SEED, threads: int | None = None,
               out=None, progress: bool = True, command: str | None = None,
               ui: UI | None = None, cluster: str | None = None) -> TournamentResult:
    """Play every pair of the strategies (a list of at least two specs) against each other,
    the seats rotated, on the same deals; rate them (Bradley-Terry) and rank them consistently
    with the clear head-to-head results; ``golfsim tournament``.
    ``rounds`` counts one pairing's rounds, split over its seatings. With ``out`` the files
    are written there."""
    from strategies import StrategyError, check_net_players, user_policy

    from ..experiments import runner
    from ..experiments import tournament as tour
    from ..experiments.folder import key_of

    ui, seed, threads, players, rs = given(rules, preset, set, rules_file, players, seed,
                                           threads, out, progress, ui)
    rounds = count_of(rounds, 1, MAX_HELD_ROUNDS, "--rounds")
    specs = texts_of(strategy, "--strategy")
    try:
        rs.rules.check_players(players)
        seat_lists = tour.seatings(players)
        resolved = tour.resolve_strategies(specs)
        check_net_players(resolved, players)
        user = user_policy(resolved)
        runner.check_policies(rs.rules, players, [s.policy_id for s in resolved])
    except (RuleError, StrategyError, tour.TournamentError, ValueError) as e:
        raise GolfsimError(str(e)) from None
    named = [s.spec for s in resolved]
    command = command or command_line("tournament", rs, ["--players", players],
                                      repeat("--strategy", named),
                                      ["--rounds", rounds, "--seed", seed])
    pairs = len(resolved) * (len(resolved) - 1) // 2
    nothing = " (nothing written)" if out is not None else ""
    return Command(
        "tournament", ui, out, command,
        lambda: pairs * len(seat_lists) * -(-rounds // len(seat_lists)),
        lambda c: tour.play(rs.rules, players, named, rounds, seed, threads=threads,
                            progress=c.progress),
        lambda raw: TournamentResult(raw, rs, command, threads),
        key=lambda: key_of({"rules": rs.rules.to_toml(), "players": players,
                            "strategies": named, "rounds": rounds, "seed": seed}),
        warm=lambda: _warm_pairings(rs, players, resolved, seat_lists[0], user),
        stopped=lambda e: f"policy error, tournament stopped{nothing}: {e}",
        interrupted=lambda: "tournament interrupted" +
        ("; nothing written" if out is not None else "")).perform()


def _warm_pairings(rs: RuleSet, players: int, resolved, seating, user) -> None:
    """Compile (or load) every pairing's build (lean or general) once."""
    from strategies import seat_arrays

    from ..experiments import runner, warm
    for i, a in enumerate(resolved):
        for b in resolved[i + 1:]:
            ids, params = seat_arrays([(a, b)[x] for x in seating])
            try:
                warm.warm_up(rs.rules, players, ids, params, user=user)
            except runner.PolicyError:
                pass  # the tournament meets the same error and reports it


# ---- guide -------------------------------------------------------------------------------------
@in_python_words
@clustered
def guide(preset: str | None = None, *, set=None, rules_file: str | None = None, rules=None,
          players: int = DEFAULT_PLAYERS, deals=DEFAULT_DEALS,
          check_rounds=DEFAULT_CHECK_ROUNDS, compare_rounds=DEFAULT_GUIDE_COMPARE_ROUNDS,
          vary=None, seed=DEFAULT_SEED, threads: int | None = None, out=None,
          fresh: bool = False, progress: bool = True, command: str | None = None,
          ui: UI | None = None, cluster: str | None = None,
          field: str | None = None) -> GuideResult:
    """Write a strategy guide for a rule set: every decision measured on ``deals`` deals
    against the field, checked by a tournament of ``check_rounds`` rounds (0: none), with the
    effects of the house rules ``vary`` (as in compare; default ender_penalty,
    final_turn_stock_only, negative_pairs_keep_value) on ``compare_rounds`` deals (0: none);
    ``golfsim guide``. With ``out`` the measurements are kept there (a rerun resumes) and the
    files are written there; without, they go to a temporary folder that is removed.
    ``field``: the opponents every decision is measured and checked against (a strategy
    spec, e.g. ``net:path.npz``; default greedy, or knock-threshold where only a knock ends
    a round)."""
    from ..experiments import compare as cmp
    from ..experiments import guide as gd
    from ..experiments.folder import key_of

    ui, seed, threads, players, rs = given(rules, preset, set, rules_file, players, seed,
                                           threads, out, progress, ui, fresh=fresh)
    deals = count_of(deals, 100, MAX_HELD_ROUNDS, "--deals")
    check_rounds = count_of(check_rounds, 0, MAX_HELD_ROUNDS, "--check-rounds")
    compare_rounds = count_of(compare_rounds, 0, MAX_ROUNDS, "--compare-rounds")
    asked = values_list("--vary", vary)
    varies = asked or list(gd.DEFAULT_VARIES)
    try:
        rs.rules.check_players(players)
        for v in varies:
            cmp.parse_vary(v, rs.rules)
    except (RuleError, ValueError) as e:
        raise GolfsimError(str(e)) from None
    if field is not None:
        field = _field_of(field, players)
    command = command or command_line(
        "guide", rs, ["--players", players, "--deals", deals, "--check-rounds", check_rounds,
                      "--compare-rounds", compare_rounds], repeat("--vary", asked),
        ["--field", field] if field else [], ["--seed", seed])
    manifest = gd.manifest(rs.rules, players, seed, deals, field)
    return Command(
        "guide", ui, out, command,
        lambda: gd.rounds_planned(rs.rules, players, deals, check_rounds, compare_rounds,
                                  1 + len(varies)),
        lambda c: gd.build(rs.rules, rs.preset, players, seed, deals, c.work_dir,
                           threads=threads, check_rounds=check_rounds,
                           compare_rounds=compare_rounds, varies=varies, fresh=fresh,
                           progress=c.progress, field=field),
        lambda raw: GuideResult(raw, rs, command, threads),
        key=lambda: key_of({**manifest, "check_rounds": check_rounds,
                            "compare_rounds": compare_rounds, "vary": varies}),
        resume=shards_fit(manifest, fresh, lambda e: str(e).replace("comparison", "guide")),
        scratch=True, errors=((gd.GuideError, str),)).perform()


def _field_of(field: str, players: int) -> str:
    """guide's ``field``, checked: one strategy (a network's table size and a policy file
    compiled here), or GolfsimError naming ``--field``."""
    from strategies import StrategyError, resolve_seats, user_policy
    text = str(field).strip()
    if not text or "," in text:
        raise GolfsimError(f"--field {field!r}: one strategy (e.g. greedy, heuristic, "
                           "net:path.npz or file.py:function)")
    try:
        user_policy(resolve_seats([text], players))
    except StrategyError as e:
        raise GolfsimError(f"--field {text}: {e}") from None
    return text
