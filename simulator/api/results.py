"""What the API's commands return: a Result per command, with its tables (polars DataFrames),
the metadata its Parquet files carry, its text and its files."""

from __future__ import annotations

import json
from pathlib import Path

from .checks import check_folder
from .rulesets import RuleSet
from .words import GolfsimError


class Result:
    """What a command returns: its tables (polars DataFrames, ``tables`` by name, the main one
    first), the ``metadata`` its Parquet files carry, the ``warnings``, the ``text`` the
    command line prints, and ``written``: the files written into ``out`` (empty without)."""
    command_name = ""
    metadata: dict[str, str]
    warnings: list[str]
    written: list[Path]

    def __init__(self, raw, rs: RuleSet, threads, metadata: dict[str, str],
                 warnings: list[str] | None = None):
        """``raw``: the experiment's result; ``warnings``: default the metadata's."""
        self.raw, self.rule_set, self.threads = raw, rs, threads
        self.metadata = metadata
        self.warnings = json.loads(metadata["warnings"]) if warnings is None else warnings
        self.notes = list(getattr(raw, "notes", []))
        self.written = []

    @property
    def tables(self) -> dict:
        """The tables by name, the main one first (a command with one calls it ``table``)."""
        return {"table": self.table}

    @property
    def text(self) -> str:
        raise NotImplementedError

    def write(self, folder) -> list[Path]:
        """Write what ``golfsim <command> --out folder`` writes (its Parquet files with this
        metadata, Markdown, HTML and figures; not ``shards/``, which only the folder the
        command played in holds) and return the paths. The folder follows the command's
        contract (docs/cli.md#results-folders): the files an earlier result of this command
        wrote there are removed first, and while the files are written (or when writing
        them fails: an OSError naming the file) the folder holds the marker
        ``golfsim-in-progress.json``."""
        from ..experiments.folder import FolderBusy, ResultsFolder, key_of
        check_folder(folder, "folder", optional=False)
        f = ResultsFolder(folder, self.command_name, self.metadata.get("command", ""),
                          key_of(self.metadata))
        try:
            f.begin()
        except FolderBusy as e:
            raise GolfsimError(f"{folder}: {e}") from None
        written = f.write(lambda: self._write_files(folder))
        if self._complete:
            f.finish()
        else:
            f.stop(self._incomplete_reason)
        return written

    _complete = True
    _incomplete_reason = ""

    def _write_files(self, folder) -> list[Path]:
        """Write the files (each atomically) and return their paths."""
        raise NotImplementedError

    def to_pandas(self, table: str | None = None):
        """A table as a pandas DataFrame (the main one, or ``table`` by name); needs pandas."""
        name = next(iter(self.tables)) if table is None else table
        if name not in self.tables:
            raise KeyError(f"{self.command_name} has no table {name!r}; its tables: "
                           f"{', '.join(self.tables)}")
        frame = self.tables[name]
        if frame is None:
            raise KeyError(f"table {name!r} was not made (see the arguments of "
                           f"{self.command_name})")
        try:
            import pandas
        except ImportError:
            raise ImportError("to_pandas() needs pandas: pip install pandas (or use the "
                              "polars DataFrames as they are)") from None
        try:
            import pyarrow  # noqa: F401  (polars converts through it)
        except ImportError:   # column by column through numpy instead
            return pandas.DataFrame({c: frame[c].to_numpy() for c in frame.columns})
        return frame.to_pandas()

    @property
    def title(self) -> str:
        return self.metadata.get("title", "")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        shown = ", ".join(name for name, t in self.tables.items() if t is not None)
        return f"<golfsim {self.command_name}: {self.title}; tables: {shown}>"


def _mkdir(folder) -> Path:
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    return out


class RunResult(Result):
    """``run``: ``summary`` (summary.parquet, one row per seat), ``rounds`` (rounds.parquet,
    every round, only with per_round), ``complete`` and ``error`` (a policy error or an
    interruption stops a run; what was played is kept), ``build`` (the name of the compiled
    build that played, as the metadata records it) and ``build_description``, ``raw``
    (runner.RunResult)."""
    command_name = "run"

    def __init__(self, raw, rs: RuleSet, rounds_requested: int, command: str, threads: int):
        from ..experiments import report
        from ..kernel import builds
        super().__init__(raw, rs, threads, report.run_metadata(raw, rs.preset, rounds_requested,
                                                               command, rs.rules_file))
        self.build, self.build_description = raw.build, builds.describe(raw.build)
        self.summary = report.summary_frame(raw)
        self.rounds = report.rounds_frame(raw) if raw.per_round is not None else None

    @property
    def complete(self) -> bool:
        return self.raw.complete

    @property
    def _complete(self) -> bool:
        return self.raw.complete

    @property
    def _incomplete_reason(self) -> str:
        return self.raw.error or ""

    @property
    def error(self) -> str:
        return self.raw.error or ""

    @property
    def tables(self) -> dict:
        return {"summary": self.summary, "rounds": self.rounds}

    @property
    def text(self) -> str:
        from ..experiments import report
        return report.format_summary(self.summary, self.raw, self.rule_set.preset,
                                     self.threads)

    def _write_files(self, folder) -> list[Path]:
        from ..experiments import report
        from ..output import plots
        out = _mkdir(folder)
        written = [report.write_parquet_atomic(self.summary, out / "summary.parquet",
                                               self.metadata)]
        if self.rounds is not None:
            written.append(report.write_parquet_atomic(self.rounds, out / "rounds.parquet",
                                                       self.metadata))
        if self.raw.totals.rounds:
            written += plots.write_plots(self.summary, self.raw.totals, out,
                                         self.metadata["title"])
        return written


class CompareResult(Result):
    """``compare``: ``table`` (compare.parquet, one row per variant, quantity and seat or
    strategy), ``markdown`` (compare.md), ``notes``, ``raw`` (compare.CompareResult)."""
    command_name = "compare"

    def __init__(self, raw, rs: RuleSet, command: str, threads: int):
        from ..experiments import compare as cmp
        super().__init__(raw, rs, threads, cmp.metadata(raw, command, rs.rules_file))
        self.table = cmp.frame(raw)

    @property
    def markdown(self) -> str:
        from ..experiments import compare as cmp
        return cmp.markdown(self.raw)

    @property
    def text(self) -> str:
        from ..experiments import compare as cmp
        return cmp.format_compare(self.raw, self.threads)

    def _write_files(self, folder) -> list[Path]:
        from ..experiments import compare as cmp
        from ..experiments import report
        from ..output import plots
        out = _mkdir(folder)
        written = [report.write_parquet_atomic(self.table, out / "compare.parquet",
                                               self.metadata)]
        md = out / "compare.md"
        with report.atomic_path(md) as tmp:
            tmp.write_text(self.markdown)
        written.append(md)
        written.append(plots.write_compare_plot(self.table, out, cmp.title(self.raw)))
        return written


class TuneResult(Result):
    """``tune``: ``table`` (tune.parquet, one row per candidate), ``best`` (the best
    candidate's strategy spec), ``indistinguishable`` (the specs that cannot be told apart
    from it), ``raw`` (tune.TuneResult)."""
    command_name = "tune"

    def __init__(self, raw, rs: RuleSet, command: str, threads: int):
        from ..experiments import tune as tn
        super().__init__(raw, rs, threads, tn.metadata(raw, rs.preset, command, rs.rules_file))
        self.table = tn.result_frame(raw)

    @property
    def best(self) -> str:
        return self.raw.best.spec

    @property
    def indistinguishable(self) -> list[str]:
        return [g.spec for g in self.raw.indistinguishable()]

    @property
    def text(self) -> str:
        from ..experiments import tune as tn
        return tn.format_tune(self.raw, self.rule_set.preset, self.threads)

    def _write_files(self, folder) -> list[Path]:
        from ..experiments import report
        from ..experiments import tune as tn
        from ..output import plots
        out = _mkdir(folder)
        names = [p.name for p in self.raw.params]
        return [report.write_parquet_atomic(self.table, out / "tune.parquet", self.metadata),
                plots.write_tune_plot(self.table, names, self.raw.objective, out,
                                      tn.plot_title(self.raw, self.rule_set.preset))]


class TournamentResult(Result):
    """``tournament``: ``ranking`` (ranking.parquet, one row per strategy, best first),
    ``head_to_head`` (head_to_head.parquet, one row per strategy and opponent), ``raw``
    (tournament.TournamentResult)."""
    command_name = "tournament"

    def __init__(self, raw, rs: RuleSet, command: str, threads: int):
        from ..experiments import tournament as tour
        super().__init__(raw, rs, threads, tour.metadata(raw, rs.preset, command,
                                                         rs.rules_file))
        self.ranking = tour.ranking_frame(raw)
        self.head_to_head = tour.head_to_head_frame(raw)

    @property
    def tables(self) -> dict:
        return {"ranking": self.ranking, "head_to_head": self.head_to_head}

    @property
    def text(self) -> str:
        from ..experiments import tournament as tour
        return tour.format_tournament(self.raw, self.rule_set.preset, self.threads)

    def _write_files(self, folder) -> list[Path]:
        from ..experiments import report
        from ..output import plots
        out = _mkdir(folder)
        return [report.write_parquet_atomic(self.ranking, out / "ranking.parquet",
                                            self.metadata),
                report.write_parquet_atomic(self.head_to_head, out / "head_to_head.parquet",
                                            self.metadata),
                plots.write_tournament_plot(self.ranking, self.head_to_head, out,
                                            self.metadata["title"])]


class GuideResult(Result):
    """``guide``: ``table`` (guide.parquet, one row per measured entry and threshold value),
    ``house_rules`` (the house-rule comparison as compare.parquet's columns, None without
    one), ``check`` (the check tournament against the field, a dict, None without one),
    ``strategy`` (the finished guide as a strategy spec), ``markdown`` and ``html``
    (guide.md and guide.html as written beside their figures), ``raw`` (guide.GuideResult)."""
    command_name = "guide"

    def __init__(self, raw, rs: RuleSet, command: str, threads: int):
        from ..experiments import compare as cmp
        from ..output import guide_report as gr
        super().__init__(raw, rs, threads, gr.metadata(raw, command, rs.rules_file),
                         list(raw.warnings))
        self.command = command
        self.table = gr.frame(raw)
        self.house_rules = cmp.frame(raw.compare) if raw.compare is not None else None
        self.check = gr.check_summary(raw)

    @property
    def strategy(self) -> str:
        return self.raw.spec

    @property
    def tables(self) -> dict:
        return {"table": self.table, "house_rules": self.house_rules}

    @property
    def text(self) -> str:
        from ..output import guide_report as gr
        return gr.format_guide(self.raw, self.threads)

    def _write_files(self, folder) -> list[Path]:
        from ..output import guide_report as gr
        return gr.write(self.raw, folder, self.command, self.rule_set.rules_file)


class TuneTableResult(Result):
    """``tune_table``: ``table`` (symmetric.parquet or best_response.parquet: the tuned
    value's responses), ``raw`` (equilibrium.TableResult)."""

    def __init__(self, raw, rs: RuleSet, command: str, threads: int):
        from ..experiments import equilibrium as eq
        super().__init__(raw, rs, threads, eq.metadata(raw, rs.preset, command, rs.rules_file))
        self.command_name = f"tune --{raw.plan.mode.replace('_', '-')}"
        self.table = eq.result_frame(raw)

    @property
    def text(self) -> str:
        from ..experiments import equilibrium as eq
        return eq.format_result(self.raw, self.rule_set.preset, self.threads)

    def _write_files(self, folder) -> list[Path]:
        from ..experiments import equilibrium as eq
        from ..output import redraw
        # the figure is drawn from the file written, as `golfsim plot` draws it
        return (eq.write(self.raw, _mkdir(folder), self.rule_set.preset,
                         self.metadata["command"], self.rule_set.rules_file) +
                redraw.draw(folder, self.command_name))
