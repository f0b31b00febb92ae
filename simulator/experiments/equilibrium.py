"""Thresholds for a whole table: every seat plays the tuned value (``tune --symmetric``), and
the best-response iteration (``tune --best-response``).

When every seat plays the same value v, every seat wins 1/N of the deals by symmetry, so a
seat's win share cannot rank the values. Neither can the table's mean score, the obvious
seat-independent figure: in a knock game it keeps falling as the threshold falls (the holes
get longer and every layout better) until nobody knocks at all, so it would always point at
the lowest threshold that still ends the holes, a convention that no player would keep. What
makes a convention worth playing is that no single player gains by leaving it. So for a value
v the objective is **what one deviating seat gains**: the other seats play v, the deviating seat
plays its best response b(v) (found by the ``tune`` search on the same grid, every candidate
on the same deals, the deviating seat rotated through every seat), and the gain is b(v)'s
objective minus v's own, a paired difference on the deals v played, with its 95% interval.
v's own row is the symmetric table itself (every seat plays v): its win share is exactly 1/N
on every deal and its mean score is the table's mean score, reported beside the gain.

A value is **stable** when it cannot be told from its own best response (the tune search's
Holm-corrected paired test, familywise 5%): no deviation gains measurably. ``symmetric`` scans
every value of the grid; the stable values are the answer, and the one whose best deviation
gains least is named.

**Best-response iteration.** From a start value v0 (the strategy's default, or ``--start``),
v <- b(v) until b(v) = v (a fixed point: a symmetric equilibrium on the grid), or a value comes
back (a cycle), or a limit of steps. Every response plays the same deals (the same seed), so
b is a function of v and the iteration either settles or cycles. The answer is the fixed
point, with the values indistinguishable from it as the best response to a table playing it
(its interval).

Each response is a complete ``tune`` search with the ``--rounds`` budget; with an output
folder each keeps its evaluations under ``<out>/fields/<field>/shards`` (resumable, as
``tune`` is), and ``symmetric`` and the iteration share them.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from strategies import STRATEGIES, label_of

from . import report, runner
from . import tune as tn
from ..game.rules import Rules, describe

MAX_STEPS = 10
MODES = ("symmetric", "best_response")


@dataclass
class Response:
    """The best response of one seat when every other seat plays candidate ``field``."""
    field: int
    result: tn.TuneResult
    gain: float            # objective of the best response minus the field's own (better > 0)
    gain_se: float
    gain_lo: float
    gain_hi: float
    p: float               # two-sided paired p of "no gain" (alone, not Holm-corrected)
    p_holm: float          # ... Holm-adjusted over the grid: the test that decides ``stable``
    holm_hw: float         # half-width of the Holm-adjusted interval of the gain (that test's)
    stable: bool           # the field value is indistinguishable from its best response
    table_score: float     # mean hole score with every seat at the field value
    table_score_hw: float
    table_deals: int

    @property
    def best(self) -> int:
        return self.result.search.best

    def same(self) -> list[int]:
        """Candidates indistinguishable from the best response (familywise 95%)."""
        return [c for c, s in enumerate(self.result.comparison.indistinguishable) if s]


@dataclass
class TablePlan:
    """A checked request: the tuned strategy, its grid, the table and the budget of each
    response (``rounds``, as tune's --rounds)."""
    rules: Rules
    players: int
    strategy: str
    params: list[tn.ParamValues]
    grid: list[tn.Candidate]
    objective: str
    rounds: int
    mode: str
    start: int | None = None          # best_response: the first field (candidate index)
    max_steps: int = MAX_STEPS
    first: tn.Plan | None = None      # the plan of the first field (checked)

    def field_plan(self, v: int) -> tn.Plan:
        return tn.plan(self.rules, self.players, self.strategy, self.params,
                       [self.grid[v].spec], self.rounds, self.objective)

    @property
    def rounds_per_response(self) -> int:
        return self.first.rounds_to_play


def plan(rules: Rules, players: int, strategy: str, params: list[str], rounds: int,
         objective: str = "win_share", mode: str = "symmetric", start: str | None = None,
         max_steps: int = MAX_STEPS) -> TablePlan:
    """Check a symmetric or best-response request. Raises TuneError, StrategyError,
    RuleError."""
    if mode not in MODES:
        raise tn.TuneError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
    if max_steps < 1:
        raise tn.TuneError(f"--max-steps {max_steps}: expected at least 1")
    parsed = [tn.parse_param(p) if isinstance(p, str) else p for p in params]
    grid = tn.candidates(strategy, parsed)
    if len(grid) < 2:
        raise tn.TuneError("a table search needs at least two values to choose from; widen "
                           "--param")
    tp = TablePlan(rules, players, strategy, parsed, grid, objective, rounds, mode,
                   max_steps=max_steps)
    tp.first = tp.field_plan(0)        # checks the players, the objective and the budget
    if mode == "best_response":
        tp.start = start_candidate(tp, start)
    elif start is not None:
        raise tn.TuneError("--start is the first value of --best-response; --symmetric scans "
                           "every value")
    return tp


def start_candidate(tp: TablePlan, start: str | None) -> int:
    """The candidate index of ``start`` (values in --param order, comma-separated), or of the
    strategy's default values (each the nearest grid value, the lower on a tie)."""
    names = [p.name for p in tp.params]
    if start is None:
        defaults = _defaults(tp)
        want = tuple(min(p.values, key=lambda x: (abs(x - d), x))
                     for p, d in zip(tp.params, defaults))
    else:
        try:
            want = tuple(float(x) for x in start.split(","))
        except ValueError:
            raise tn.TuneError(f"--start {start}: expected a number per tuned parameter "
                               f"({', '.join(names)}), comma-separated") from None
        if len(want) != len(names):
            raise tn.TuneError(f"--start {start}: {len(want)} value(s) for {len(names)} tuned "
                               f"parameter(s) ({', '.join(names)})")
    for c, cand in enumerate(tp.grid):
        if all(math.isclose(a, b, rel_tol=0, abs_tol=1e-9) for a, b in zip(cand.values, want)):
            return c
    grid = "; ".join(f"{p.name} = {tn.values_text(list(p.values), p.values)}"
                     for p in tp.params)
    raise tn.TuneError(f"--start {start}: not a value of the grid ({grid})")


def _defaults(tp: TablePlan) -> list[float]:
    """The strategy's default value of each tuned parameter (0 when it declares none)."""
    base = tp.grid[0].strategy
    for info in STRATEGIES.values():
        if info.policy_id == base.policy_id:
            found = {p.name: p.default for p in info.params}
            return [found.get(p.name, 0.0) for p in tp.params]
    return [0.0] * len(tp.params)


def field_folder(out_dir: Path, spec: str) -> Path:
    """``<out>/fields/<spec>``, the spec made safe as a folder name."""
    return Path(out_dir) / "fields" / re.sub(r"[^A-Za-z0-9._=,-]+", "_", spec)


class Responder:
    """b(v), computed once per field and kept."""

    def __init__(self, tp: TablePlan, seed: int, threads: int = 1, progress=None,
                 out_dir=None, fresh: bool = False, on_response=None, preset: str = "",
                 command: str = ""):
        self.tp, self.seed, self.threads = tp, int(seed), threads
        self.preset, self.command = preset, command
        self.progress, self.out_dir, self.fresh = progress, out_dir, fresh
        self.on_response = on_response
        self.cache: dict[int, Response] = {}
        self.rounds = 0
        self.builds: list[str] = []   # of every search played (tune.TuneResult.build)

    def __call__(self, v: int) -> Response:
        if v in self.cache:
            return self.cache[v]
        p = self.tp.field_plan(v)
        sub = None
        if self.out_dir is not None:
            sub = field_folder(self.out_dir, self.tp.grid[v].spec)
            sub.mkdir(parents=True, exist_ok=True)
        result = tn.tune(p, self.seed, threads=self.threads, progress=self.progress,
                         out_dir=sub, fresh=self.fresh)
        self.rounds += result.rounds
        self.builds.append(result.build)
        r = response(v, result)
        self.cache[v] = r
        if sub is not None:   # the field's own tune table, as `tune` writes it
            frame = tn.result_frame(result)
            meta = tn.metadata(result, self.preset, self.command)
            report.write_parquet_atomic(frame, sub / "tune.parquet", meta)
        if self.on_response is not None:
            self.on_response(r)
        return r


def response(v: int, result: tn.TuneResult) -> Response:
    """The gain of the best response over the field value ``v`` itself, paired on the deals
    ``v`` played (tune's difference, candidate minus best, turned round)."""
    s, cmp = result.search, result.comparison
    col = s.column
    d = cmp.diff
    if s.best == v:
        gain = se = lo = hi = 0.0
        p = p_holm = 1.0
    else:
        sign = -1.0 if s.maximize else 1.0
        gain = sign * float(d.mean[v, col])
        se = float(d.se[v, col])
        a, b = sign * float(d.lo[v, col]), sign * float(d.hi[v, col])
        lo, hi = min(a, b), max(a, b)
        p, p_holm = float(cmp.p[v]), float(cmp.p_holm[v])
    e = cmp.estimate
    return Response(v, result, gain, se, lo, hi, p, p_holm, cmp.half_width(v),
                    bool(cmp.indistinguishable[v]),
                    float(e.mean[v, 1]), float(e.half_width[v, 1]), int(s.obs[v].shape[0]))


# ---- the two searches --------------------------------------------------------------------------
@dataclass
class TableResult:
    plan: TablePlan
    seed: int
    responses: list[Response]          # symmetric: one per grid value; best_response: the path
    seconds: float
    rounds: int
    outcome: str = "scan"              # best_response: fixed, cycle or limit
    cycle: list[int] = field(default_factory=list)
    build: str = ""                    # the builds that played it (runner.builds_text)

    @property
    def grid(self) -> list[tn.Candidate]:
        return self.plan.grid

    def stable(self) -> list[int]:
        return [r.field for r in self.responses if r.stable]

    def least_gain(self) -> Response:
        """The field value whose best deviation gains least (ties: the earlier value)."""
        return min(self.responses, key=lambda r: (r.gain, r.field))

    @property
    def final(self) -> Response:
        return self.responses[-1]

    def response_to(self, c: int) -> Response | None:
        return next((r for r in self.responses if r.field == c), None)


def symmetric(tp: TablePlan, seed: int, **kw) -> TableResult:
    """Every grid value as the table's convention, with its best deviation."""
    t0 = time.perf_counter()
    respond = Responder(tp, seed, **kw)
    responses = [respond(v) for v in range(len(tp.grid))]
    return TableResult(tp, int(seed), responses, time.perf_counter() - t0, respond.rounds,
                       build=runner.builds_text(respond.builds))


def best_response(tp: TablePlan, seed: int, **kw) -> TableResult:
    """v <- b(v) from ``tp.start`` until a fixed point, a cycle or ``tp.max_steps`` steps."""
    t0 = time.perf_counter()
    respond = Responder(tp, seed, **kw)
    path: list[Response] = []
    v = tp.start
    seen: list[int] = []
    outcome, cycle = "limit", []
    for _ in range(tp.max_steps):
        r = respond(v)
        path.append(r)
        seen.append(v)
        if r.best == v:
            outcome = "fixed"
            break
        if r.best in seen:
            outcome = "cycle"
            cycle = seen[seen.index(r.best):]
            break
        v = r.best
    return TableResult(tp, int(seed), path, time.perf_counter() - t0, respond.rounds, outcome,
                       cycle, runner.builds_text(respond.builds))


# ---- words and tables --------------------------------------------------------------------------
def _value(tp: TablePlan, c: int) -> str:
    names = [p.name for p in tp.params]
    return ", ".join(f"{n} = {tn.number_text(x)}" for n, x in zip(names, tp.grid[c].values))


def _gain_text(r: Response, objective: str) -> str:
    """The gain with the half-width of the interval that decides ``stable``."""
    if objective == "win_share":
        return f"{100 * r.gain:+.2f} pp ± {100 * r.holm_hw:.2f}"
    return f"{r.gain:+.3f} points ± {r.holm_hw:.3f}"


def _interval_text(tp: TablePlan, cands: list[int]) -> str:
    if len(tp.params) == 1:
        vals = [tp.grid[c].values[0] for c in cands]
        p = tp.params[0]
        return (f"{p.name} = {tn.values_text(vals, p.values)}; interval {p.name} in "
                f"[{tn.number_text(min(vals))}, {tn.number_text(max(vals))}]")
    return "; ".join(_value(tp, c) for c in cands)


def _on_edge(tp: TablePlan, c: int) -> list[tn.ParamValues]:
    """The tuned parameters whose value in candidate ``c`` is the first or last of theirs."""
    return [p for p, x in zip(tp.params, tp.grid[c].values)
            if len(p.values) > 1 and x in (p.values[0], p.values[-1])]


def edge_notes(result: TableResult) -> list[str]:
    """Notes when the answer (the fixed point; the least-gain or a stable value), or some
    best response, lies at the edge of the grid: the optimum may lie beyond it."""
    tp = result.plan
    notes = []
    if result.outcome == "fixed":
        answers = [result.final.field]
    elif result.outcome == "scan":
        answers = sorted({result.least_gain().field, *result.stable()})
    else:
        answers = []
    for c in answers:
        for p in _on_edge(tp, c):
            notes.append(f"note: the answer {_value(tp, c)} is at the edge of the grid "
                         f"({p.name} = {tn.values_text(list(p.values), p.values)}); it may lie "
                         f"beyond it: widen --param {p.name}")
    by_best: dict[int, list[int]] = {}
    for r in result.responses:
        if _on_edge(tp, r.best):
            by_best.setdefault(r.best, []).append(r.field)
    for b, fields in by_best.items():
        if len(tp.params) == 1:
            p = tp.params[0]
            to = f"{p.name} = " + tn.values_text([tp.grid[f].values[0] for f in fields],
                                                 p.values)
        else:
            to = "; ".join(_value(tp, f) for f in fields)
        notes.append(f"note: {_value(tp, b)}, at the edge of the grid, is the best response "
                     f"to {to}: a value beyond the grid may do better still")
    return notes


def at_edge(result: TableResult) -> bool:
    return bool(edge_notes(result))


def _header_lines(result: TableResult, threads) -> list[str]:
    tp = result.plan
    objective = ("win share (a k-way tie for the lowest score counts 1/k)"
                 if tp.objective == "win_share" else "mean hole score (lower is better)")
    grid_text = "; ".join(f"{p.name} = {tn.values_text(list(p.values), p.values)}"
                          for p in tp.params)
    rate = result.rounds / result.seconds if result.seconds > 0 else float("nan")
    lines = []
    others = tp.players - 1
    if tp.mode == "symmetric":
        lines += [
            f"symmetric tuning of {label_of(tp.strategy)}: {grid_text} ({len(tp.grid)} "
            "values), "
            f"{tp.players} players, every seat playing the value",
            f"objective: what one seat gains by deviating: with the other {others} seats at a "
            f"value, the best response of the {objective} among the {len(tp.grid)} values "
            f"(a tune search of {tp.rounds:,} rounds), minus the value's own",
        ]
    else:
        lines += [
            f"best-response iteration of {label_of(tp.strategy)}: {grid_text} "
            f"({len(tp.grid)} values), "
            f"{tp.players} players, from {_value(tp, tp.start)}",
            f"each step: the other {others} seats play the current value; the best response "
            f"of the {objective} (a tune search of {tp.rounds:,} rounds) becomes the next value",
        ]
    lines.append(f"seed {result.seed}: {result.rounds:,} rounds in {result.seconds:.2f} s on "
                 f"{report.ran_on(threads)} ({rate:,.0f} rounds/s)")
    return lines


STABLE = {True: "stable", False: "a deviation gains"}


def response_table(result: TableResult) -> list[str]:
    """A row per response: the table's score at the value, the best response and its
    objective, the gain with the interval and the Holm-adjusted p that decide ``stable``,
    and the mark."""
    tp = result.plan
    names = [p.name for p in tp.params]
    win = tp.objective == "win_share"
    scale, fmt, pct = (100, ".2f", "%") if win else (1, ".3f", "")
    header = (*(["step"] if tp.mode != "symmetric" else []), *names, "table score", "±95%",
              "deals", "best response", "its " + ("win share" if win else "mean score"),
              "±95%", f"gain ({'pp' if win else 'points'})", "± (Holm)", "p (Holm)", "")
    rows = []
    for i, r in enumerate(result.responses):
        e = r.result.comparison.estimate
        b, col = r.best, r.result.search.column
        rows.append((*([str(i + 1)] if tp.mode != "symmetric" else []),
                     *(tn.number_text(x) for x in tp.grid[r.field].values),
                     f"{r.table_score:.3f}", f"{r.table_score_hw:.3f}", f"{r.table_deals:,}",
                     ", ".join(tn.number_text(x) for x in tp.grid[b].values),
                     f"{scale * e.mean[b, col]:{fmt}}{pct}",
                     f"{scale * e.half_width[b, col]:{fmt}}{pct}",
                     f"{scale * r.gain:+{fmt}}", f"{scale * r.holm_hw:{fmt}}",
                     "-" if r.best == r.field else
                     ("<0.001" if r.p_holm < 0.001 else f"{r.p_holm:.3f}"), STABLE[r.stable]))
    return report.text_table(header, rows, left={len(header) - 1})


def _answer_lines(result: TableResult) -> list[str]:
    tp = result.plan
    if tp.mode == "symmetric":
        stable = result.stable()
        least = result.least_gain()
        lines = [f"stable (no deviation gains measurably): {_interval_text(tp, stable)}"
                 if stable else "stable: none: at every value some deviation gains measurably"]
        lines.append(f"least to gain by deviating: {_value(tp, least.field)}: its best response "
                     f"{_value(tp, least.best)} gains {_gain_text(least, tp.objective)} "
                     f"({STABLE[least.stable]})")
        return lines
    fin = result.final
    one = len(tp.params) == 1
    path = " -> ".join(tn.number_text(tp.grid[c].values[0]) if one else f"({_value(tp, c)})"
                       for c in [r.field for r in result.responses] + [fin.best])
    lines = [f"path: {path}"]
    others = tp.players - 1
    if result.outcome == "fixed":
        lines.append(f"fixed point: {_value(tp, fin.field)}: against {others} seats playing "
                     f"it, no value does better than it")
        lines.append(f"indistinguishable from it as the best response (familywise 95%): "
                     f"{_interval_text(tp, fin.same())}")
    elif result.outcome == "cycle":
        lines.append("no fixed point: the responses cycle through " +
                     "; ".join(_value(tp, c) for c in result.cycle) +
                     " (each the best response to the one before); their indistinguishable "
                     "sets: " + " | ".join(_interval_text(tp, result.response_to(c).same())
                                           for c in result.cycle))
    else:
        lines.append(f"no fixed point within {tp.max_steps} steps (--max-steps); the last "
                     f"best response is {_value(tp, fin.best)}")
    return lines


def format_result(result: TableResult, preset: str, threads: int) -> str:
    lines = [f"rules: {describe(result.plan.rules, preset)}", *_header_lines(result, threads), ""]
    lines += response_table(result)
    lines += ["",
              "table score: the mean hole score when every seat plays the value (its 95% "
              "interval, on the deals the value played in its own field's search); gain: the "
              "best response's objective minus the value's own, paired, with the interval at "
              "the level Holm's step-down tests it at (familywise 95% over the grid, as in "
              "tune) and its Holm-adjusted p; stable: the value cannot be told from its best "
              "response by that test (the interval holds 0)"]
    lines += _answer_lines(result)
    lines += edge_notes(result)
    return "\n".join(lines)


def result_frame(result: TableResult) -> pl.DataFrame:
    """One row per response: per grid value (symmetric) or per step (best response)."""
    tp = result.plan
    rows = []
    for i, r in enumerate(result.responses):
        e = r.result.comparison.estimate
        b, col = r.best, r.result.search.column
        same = r.same()
        row = {"step": i + 1 if tp.mode != "symmetric" else None,
               "field": tp.grid[r.field].spec}
        row.update({f"param_{p.name}": float(v) for p, v in zip(tp.params,
                                                                 tp.grid[r.field].values)})
        row.update({
            "table_mean_score": r.table_score, "table_mean_score_hw95": r.table_score_hw,
            "table_deals": r.table_deals,
            "table_win_share": float(e.mean[r.field, 0]),
            "best_response": tp.grid[b].spec,
        })
        row.update({f"best_{p.name}": float(v) for p, v in zip(tp.params, tp.grid[b].values)})
        row.update({
            "best_objective": float(e.mean[b, col]),
            "best_objective_hw95": float(e.half_width[b, col]),
            "gain": r.gain, "se_gain": r.gain_se, "gain_lo95": r.gain_lo,
            "gain_hi95": r.gain_hi, "gain_holm_lo95": r.gain - r.holm_hw,
            "gain_holm_hi95": r.gain + r.holm_hw, "p_value": r.p, "p_holm": r.p_holm,
            "stable": r.stable,
            "indistinguishable": json.dumps([tp.grid[c].spec for c in same]),
            "rounds": int(r.result.search.deals.sum()) * tp.players,
        })
        rows.append(row)
    schema = {k: (pl.String if k in ("field", "best_response", "indistinguishable") else
                  pl.Boolean if k == "stable" else
                  pl.Int64 if k in ("step", "table_deals", "rounds") else pl.Float64)
              for k in rows[0]}
    return pl.DataFrame(rows, schema=schema)


def metadata(result: TableResult, preset: str, command: str,
             rules_file: str | None = None) -> dict[str, str]:
    tp = result.plan
    kind = ("symmetric.parquet: one row per value every seat plays" if tp.mode == "symmetric"
            else "best_response.parquet: one row per step of the iteration")
    meta = {
        **report.rules_metadata(f"a golfsim tune --{tp.mode.replace('_', '-')} ({kind})",
                                tp.rules, preset, command, rules_file),
        "mode": tp.mode,
        "build": result.build,
        "players": str(tp.players),
        "strategy": tp.strategy,
        "params": json.dumps({p.name: list(p.values) for p in tp.params}),
        "objective": tp.objective,
        "seed": str(result.seed),
        "rounds_per_response": str(tp.rounds),
        "rounds": str(result.rounds),
        "seatings": json.dumps([["deviating" if i < 0 else "field" for i in s]
                                for s in tn.rotations(tp.players)]),
        "fields": json.dumps([tp.grid[r.field].spec for r in result.responses]),
        "test": "a value is stable when the two-sided paired t-test of its best response "
                "against it is not rejected, Holm-corrected over the grid as in tune, "
                f"familywise alpha {tn.ALPHA}",
        "at_edge": json.dumps(edge_notes(result)),
        "warnings": json.dumps(warnings(result)),
        "title": title(result, preset),
        "complete": "true",
    }
    if tp.mode == "symmetric":
        meta["stable"] = json.dumps([tp.grid[c].spec for c in result.stable()])
        meta["least_gain"] = tp.grid[result.least_gain().field].spec
    else:
        meta["start"] = tp.grid[tp.start].spec
        meta["outcome"] = result.outcome
        meta["path"] = json.dumps([tp.grid[r.field].spec for r in result.responses] +
                                  [tp.grid[result.final.best].spec])
        if result.outcome == "fixed":
            meta["fixed_point"] = tp.grid[result.final.field].spec
            meta["interval"] = json.dumps([tp.grid[c].spec for c in result.final.same()])
        meta["cycle"] = json.dumps([tp.grid[c].spec for c in result.cycle])
    return meta


def title(result: TableResult, preset: str) -> str:
    """The title of the results and their figure (report.title)."""
    tp = result.plan
    what = ("every seat at the value" if tp.mode == "symmetric" else
            f"best responses from {_value(tp, tp.start)}")
    return report.title(tp.rules, preset,
                        f"{label_of(tp.strategy)}, {what}, {tp.players} players, "
                        f"{tp.rounds:,} rounds per response, seed {result.seed}")


def warnings(result: TableResult) -> list[str]:
    out = []
    for r in result.responses:
        for w in tn.warnings(r.result):
            out.append(f"against {result.plan.grid[r.field].spec}: {w}")
    return out


def write(result: TableResult, out_dir: Path, preset: str, command: str,
          rules_file: str | None = None) -> list[Path]:
    name = "symmetric.parquet" if result.plan.mode == "symmetric" else "best_response.parquet"
    meta = metadata(result, preset, command, rules_file)
    return [report.write_parquet_atomic(result_frame(result), Path(out_dir) / name, meta)]


__all__ = ["MAX_STEPS", "MODES", "Responder", "Response", "TablePlan", "TableResult",
           "at_edge", "best_response", "edge_notes", "field_folder", "format_result",
           "metadata", "plan", "response", "result_frame", "start_candidate", "symmetric",
           "title", "warnings", "write"]
