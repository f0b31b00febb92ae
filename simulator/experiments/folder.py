"""A results folder (``--out``) as a whole: never the files of two runs side by side, never
a half-written file, and an unfinished folder always marked (docs/cli.md#results-folders).

A command that writes into a folder (run, compare, tune, tournament, guide):

1. checks all its inputs first, the shards kept in the folder included (a folder holding
   another command's shards is refused), so a refused command leaves the folder as it was;
2. ``begin``: removes the temporary files of processes that are gone, writes the marker
   ``golfsim-in-progress.json`` (the command, its command line, the key of the arguments
   that fix its results, its process) and removes the files an earlier run of the same
   command wrote there, so that the old files are never mixed with the new ones;
3. plays, keeping what it finished under ``shards/`` (a rerun of the same command resumes);
4. ``write``: writes its files, each atomically (a temporary file, then a rename); when one
   of them cannot be written, removes those it wrote and keeps the marker;
5. ``finish``: removes the marker.

A folder holding the marker is unfinished: its command is still running, or was killed,
interrupted or failed (the marker's ``state`` and ``reason`` say which, when it could say).
Rerunning the command it names finishes it.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import time
from pathlib import Path

from .report import atomic_path

MARKER = "golfsim-in-progress.json"

# the files each command writes at the top of its folder (every one it may write)
OUTPUTS = {
    "run": ("summary.parquet", "rounds.parquet", "win_share.png", "mean_score.png",
            "score_distribution.png", "match_win_share.png"),
    "compare": ("compare.parquet", "compare.md", "compare.png"),
    "tune": ("tune.parquet", "tune.png"),
    "tune --symmetric": ("symmetric.parquet", "symmetric.png"),
    "tune --best-response": ("best_response.parquet", "best_response.png"),
    "tournament": ("ranking.parquet", "head_to_head.parquet", "tournament.png"),
    "guide": ("guide.parquet", "guide.md", "guide.html", "guide-decisions.png",
              "guide-thresholds.png", "guide-check.png", "guide-house-rules.png",
              "guide-house-rules.parquet"),
}
# folders below ``--out`` where temporary files are written (shards, a guide's comparison)
TEMPORARY_PLACES = (".", "shards", "compare", "compare/shards")


class FolderBusy(Exception):
    """Another running golfsim process is writing into the folder; the message is one
    line."""


def key_of(what) -> str:
    """A short hash of ``what`` (JSON-serialisable): the key of a command's arguments."""
    text = json.dumps(what, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


class ResultsFolder:
    """The folder ``path`` written by ``command`` (a key of OUTPUTS), started by
    ``command_line``; ``key`` identifies the arguments that fix its results."""

    def __init__(self, path, command: str, command_line: str, key: str = ""):
        if command not in OUTPUTS:
            raise ValueError(f"unknown command {command!r}")
        self.path = Path(path)
        self.command, self.command_line, self.key = command, command_line, key
        self.previous: dict | None = None   # the marker found by begin(), if any

    @property
    def marker(self) -> Path:
        return self.path / MARKER

    def read_marker(self) -> dict | None:
        return read_marker(self.path)

    def begin(self) -> None:
        """Mark the folder as being written, after removing stale temporary files; then
        remove the files of an earlier run of this command. Raises FolderBusy when another
        running golfsim process is writing there, and WriteError when the marker cannot be
        written (the folder is then left as it was)."""
        self.path.mkdir(parents=True, exist_ok=True)
        self.previous = self.read_marker()
        if self.previous is not None and running(self.previous):
            p = self.previous
            raise FolderBusy(f"another golfsim process ({p.get('pid')}, "
                             f"`{p.get('command_line', '?')}`) is writing into this folder; "
                             "wait for it to end or choose another folder")
        places = [self.path / place for place in TEMPORARY_PLACES]
        places += list(self.path.glob("fields/*"))   # tune --symmetric's searches
        for place in places:
            remove_stale_temporaries(place)
        self._write_marker("running", "")
        self.remove_outputs()

    def remove_outputs(self) -> None:
        for name in OUTPUTS[self.command]:
            (self.path / name).unlink(missing_ok=True)

    def write(self, write_files) -> list[Path]:
        """``write_files()`` (returning the paths written); when it fails, the files this
        command writes are removed (none is left of an incomplete set) and the marker stays,
        saying why."""
        try:
            return write_files()
        except BaseException as e:
            try:
                self.remove_outputs()
            except OSError:
                pass
            self.stop(f"writing the results failed: {e}" if isinstance(e, Exception)
                      else "interrupted while writing the results")
            raise

    def stop(self, reason: str) -> None:
        """Leave the folder marked unfinished, saying why (as far as the disk allows)."""
        try:
            self._write_marker("stopped", reason)
        except OSError:
            pass   # the marker written by begin() stays: still marked

    def finish(self) -> None:
        """The folder is complete: remove the marker."""
        self.marker.unlink(missing_ok=True)

    def _write_marker(self, state: str, reason: str) -> None:
        pid = os.getpid()
        content = {
            "golfsim": "this folder is unfinished: a golfsim command is writing it, or was "
                       "stopped before it finished (see state and reason); rerun the command "
                       "below to finish it",
            "command": self.command,
            "command_line": self.command_line,
            "key": self.key,
            "state": state,
            "reason": reason,
            "pid": pid,
            "process_start": process_start(pid),
            "host": socket.gethostname(),
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        with atomic_path(self.marker) as tmp:
            tmp.write_text(json.dumps(content, indent=1) + "\n")


def read_marker(folder) -> dict | None:
    """The marker of ``folder`` (an unreadable one as an empty dict), None without one."""
    path = Path(folder) / MARKER
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def running(marker: dict) -> bool:
    """Is the process that wrote ``marker`` still running (another process than this one,
    on this machine, started when the marker says)?"""
    pid = marker.get("pid")
    if not isinstance(pid, int) or pid == os.getpid():
        return False
    if marker.get("host") not in (None, socket.gethostname()):
        return False   # another machine's process: it cannot be asked
    if not alive(pid):
        return False
    start = marker.get("process_start")
    return start is None or process_start(pid) in (None, start)


def process_start(pid: int) -> str | None:
    """When process ``pid`` started (Linux: /proc/<pid>/stat's start time), to tell a
    process from a later one given the same id; None where that is not known."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
        return text.rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def remove_stale_temporaries(folder) -> list[Path]:
    """Remove the temporary files (``.<name>.<pid>.<random>.tmp``) in ``folder`` whose
    process is gone: what a killed process was writing. Returns those removed."""
    removed = []
    try:
        found = list(Path(folder).glob(".*.tmp"))
    except OSError:
        return removed
    for p in found:
        parts = p.name.split(".")
        try:
            pid = int(parts[-3])
        except (IndexError, ValueError):
            continue
        if pid != os.getpid() and not alive(pid):
            try:
                p.unlink(missing_ok=True)
                removed.append(p)
            except OSError:
                pass
    return removed
