"""``golfsim plot``: every figure of a results folder drawn again from its Parquet files.

``KINDS`` is the one registry of what a folder holds: per command, the Parquet file that marks
its folder and the function that draws all of that command's figures from its files (with the
figure functions the command itself draws them with). tests/test_redraw.py runs every command,
deletes its figures and checks that `golfsim plot` brings every one of them back, so a figure
added to a command without a way to draw it again from its files is found.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import guide_report, plots


@dataclass(frozen=True)
class Kind:
    """A command's results folder: the Parquet file that marks it (besides ``also``, files
    it needs too, whose absence is named) and ``draw(folder, notes)``, which draws its
    figures and returns their paths (``notes``: what it could not draw, and why)."""
    command: str
    marker: str
    draw: Callable[[Path, list[str]], list[Path]]
    also: tuple[str, ...] = ()

    def found_in(self, folder: Path) -> bool:
        return any((folder / name).exists() for name in (self.marker, *self.also))


KINDS = (
    Kind("run", "summary.parquet", plots.redraw_run),
    Kind("compare", "compare.parquet", plots.redraw_compare),
    Kind("tune", "tune.parquet", lambda folder, notes: [plots.redraw_tune(folder)]),
    Kind("tune --symmetric", "symmetric.parquet",
         lambda folder, notes: plots.redraw_table(folder, "symmetric")),
    Kind("tune --best-response", "best_response.parquet",
         lambda folder, notes: plots.redraw_table(folder, "best_response")),
    Kind("tournament", "ranking.parquet", plots.redraw_tournament, ("head_to_head.parquet",)),
    Kind("guide", guide_report.PARQUET, lambda folder, notes: guide_report.redraw(folder)),
)


def commands() -> str:
    """The commands whose folders `golfsim plot` redraws, as words: "run, compare, ... or
    guide"."""
    names = [k.command for k in KINDS]
    return ", ".join(names[:-1]) + " or " + names[-1]


def draw(folder: str | Path, command: str) -> list[Path]:
    """Draw the figures of ``command``'s folder from the files it has just written there."""
    notes: list[str] = []
    return next(k for k in KINDS if k.command == command).draw(Path(folder), notes)


def redraw(folder: str | Path) -> tuple[list[Path], list[str]]:
    """Redraw every figure of a results folder from its Parquet files; returns (written
    paths, notes). Raises plots.ResultsFileError (a ValueError) naming a file that cannot be
    read or does not hold what golfsim writes, and ValueError when the folder holds no
    results."""
    folder = Path(folder)
    kinds = [k for k in KINDS if k.found_in(folder)]
    if not kinds:
        files = ", ".join(k.marker for k in KINDS)
        raise ValueError(f"holds no golfsim results (the folder of {commands()}: {files})")
    written: list[Path] = []
    notes: list[str] = []
    for kind in kinds:
        written += kind.draw(folder, notes)
    return written, notes


__all__ = ["KINDS", "Kind", "commands", "draw", "redraw"]
