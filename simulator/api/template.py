"""The skeleton of the API's commands (Command) and what it is made of: how a command shows
itself (UI, Bar), its results folder (check_out_dir, begin_folder, Playing, write_to_out), the
command line it records, and the cluster it may play on (clustered)."""

from __future__ import annotations

import functools
import importlib
import os
import shlex
import sys
import tempfile
import threading
import warnings as _warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .checks import check_flags, check_folder, invalid, seed_of, threads_of, whole_of
from .rulesets import RuleSet, rule_set
from .words import GolfsimError, GolfsimWarning, Interrupted, PolicyError

LOADING = ("loading the compiled kernel (the first run on a machine compiles it, which takes "
           "a while)...")


# ---- what a command shows while it plays ------------------------------------------------------
@dataclass
class UI:
    """How a command shows itself: ``bar(desc, total, unit)`` makes a progress bar (an object
    with update(n) and close(), e.g. a tqdm), or None for none; ``say`` gets the lines of
    information a quiet command leaves out, ``note`` those it always shows, ``warn`` the
    warnings (each without the "golfsim: " the command line adds)."""
    bar: Callable[[str, int, str], Any] | None
    say: Callable[[str], None] | None
    note: Callable[[str], None]
    warn: Callable[[str], None]


def _stderr(message: str) -> None:
    print(f"golfsim: {message}", file=sys.stderr, flush=True)


def _python_warning(message: str) -> None:
    _warnings.warn(message, GolfsimWarning, stacklevel=3)


def _notebook_bar(desc: str, total: int, unit: str):
    from tqdm.auto import tqdm   # a widget in Jupyter (with ipywidgets), text elsewhere
    return tqdm(total=total, unit=unit, unit_scale=True, desc=desc, dynamic_ncols=True)


def ui_for(progress: bool, ui: "UI | None") -> "UI":
    if ui is not None:
        return ui
    quiet = not progress
    return UI(None if quiet else _notebook_bar, None if quiet else _stderr,
              _ignore if quiet else _stderr, _python_warning)


def _ignore(message: str) -> None:
    """A note left out with progress=False (the result's ``notes`` hold it)."""


class Bar:
    """A progress bar and the thread-safe ``progress(n)`` that advances it (None without a
    bar, which plays exactly the same rounds)."""

    def __init__(self, ui: UI, what: str, total: int, unit: str = "round"):
        self.bar = ui.bar(f"golfsim {what}", total, unit) if ui.bar is not None else None
        self.lock = threading.Lock()
        self.progress = self._update if self.bar is not None else None

    def _update(self, n: int) -> None:
        with self.lock:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def say(ui: UI, message: str) -> None:
    if ui.say is not None:
        ui.say(message)


# ---- output folders ----------------------------------------------------------------------------
def check_out_dir(out) -> Path:
    """Create ``out`` and prove a file can be written there, before any round is played."""
    import secrets
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise GolfsimError(f"--out {out}: exists and is not a folder; give a folder to write into")
    try:
        path.mkdir(parents=True, exist_ok=True)
        # named as every temporary file is (report.atomic_path): a killed process's is
        # removed by the next command that writes into the folder
        probe = path / f".golfsim-write-test.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        try:
            with open(probe, "x"):
                pass
        finally:
            probe.unlink(missing_ok=True)
    except OSError as e:
        reason = e.strerror or str(e)
        raise GolfsimError(f"--out {out}: cannot write there ({reason}); give a writable "
                           "folder") from None
    return path


def write_to_out(result, out, folder=None) -> None:
    """Write the files of ``result`` (results.Result) into ``out``: through ``folder`` (the
    folder.ResultsFolder the command began) or as ``result.write`` does. A failed write is
    one line naming the file; the folder stays marked unfinished, without any of the files
    of the failed write."""
    try:
        if folder is None:
            result.written = result.write(out)
        else:
            result.written = folder.write(lambda: result._write_files(out))
    except OSError as e:
        raise write_failed(out, e, folder is not None) from None


def write_failed(out, e: OSError, marked: bool = False) -> GolfsimError:
    """The one line of an I/O error (a full disk, say) while a command wrote into ``out``:
    the file and the reason."""
    from ..experiments.folder import MARKER
    what = f"writing {e.filename}" if getattr(e, "filename", None) else "writing the results"
    reason = e.strerror or str(e) or type(e).__name__
    tail = (f"; the folder stays marked unfinished ({MARKER}) and holds no half-written "
            "file: rerun the same command to finish it") if marked else ""
    where = f"--out {out}: " if out is not None else ""
    return GolfsimError(f"{where}{what} failed ({reason}){tail}")


def begin_folder(out_dir: Path, out, command: str, command_line: str, key: str):
    """Mark ``out_dir`` as being written by ``command`` and clear the files of its earlier
    run (folder.ResultsFolder.begin), once every input is checked; returns the folder. With
    ``--cluster`` the cluster is reached first: one that cannot be leaves the folder as it was
    (cluster.ClusterError)."""
    from ..experiments import cluster
    from ..experiments.folder import FolderBusy, ResultsFolder
    cluster.active()
    folder = ResultsFolder(out_dir, command, command_line, key)
    try:
        folder.begin()
    except FolderBusy as e:
        raise GolfsimError(f"--out {out}: {e}") from None
    except OSError as e:
        raise write_failed(out, e) from None
    return folder


class Playing:
    """``with Playing(folder, out):`` around what a command plays into its folder: an I/O
    error (writing a shard, say) is one line (GolfsimError, exit status 2), and whatever
    stops the command leaves the folder marked unfinished, saying why."""

    def __init__(self, folder, out):
        self.folder, self.out = folder, out

    def __enter__(self):
        return self

    def __exit__(self, kind, e, tb):
        if e is None or self.folder is None:
            if isinstance(e, OSError) and not isinstance(e, GolfsimError):
                raise write_failed(self.out, e) from None
            return False
        if isinstance(e, OSError):
            self.folder.stop(f"writing failed: {e}")
            raise write_failed(self.out, e, True) from None
        self.folder.stop("interrupted" if isinstance(e, KeyboardInterrupt) else
                         f"stopped: {e}" if str(e) else f"stopped: {type(e).__name__}")
        return False


def prepare_writers() -> threading.Thread:
    """Import the writers and warm up the plots on another thread while the rounds run. The
    kernels release the GIL, so this (matplotlib and polars, half a second or more) overlaps
    the rounds instead of following them. Join the thread before using them; a failure here
    happens again, with its message, where they are used."""
    def work():
        try:
            importlib.import_module("..experiments.report", __package__)
            importlib.import_module("..output.plots", __package__).warm_up()
        except Exception:
            return
    thread = threading.Thread(target=work, name="golfsim-imports", daemon=True)
    thread.start()
    return thread


def command_line(name: str, rs: RuleSet, *parts) -> str:
    """The ``golfsim`` command line that gives the same results: recorded as the metadata's
    ``command`` when the caller names none. ``parts`` are option lists, None for nothing."""
    argv = ["golfsim", name, *rs.argv()]
    for p in parts:
        if p:
            argv += [str(x) for x in p]
    return shlex.join(argv)


def repeat(option: str, values) -> list[str]:
    return [x for v in values for x in (option, v)]


# ---- the cluster -------------------------------------------------------------------------------
def clustered(fn):
    """``cluster``: "tcp://HOST:PORT" (a Dask scheduler) or "local:N" (a LocalCluster of N
    worker processes for the duration of the call) plays the rounds there, with identical
    results (simulator/experiments/cluster.py, docs/cluster.md); None plays in-process and
    does not import Dask."""
    @functools.wraps(fn)
    def wrapper(*args, cluster: str | None = None, **kwargs):
        if cluster is None:
            return fn(*args, **kwargs)
        from ..experiments import cluster as cl
        try:
            cl.parse(cluster)
        except ValueError as e:
            raise invalid("--cluster", str(e)) from None
        try:
            with cl.session(cluster):
                result = fn(*args, **kwargs)
                where = cl.description()
                if where is not None and hasattr(result, "threads"):
                    result.threads = where   # its report says where it was played
                return result
        except cl.ClusterError as e:
            raise GolfsimError(str(e)) from None
    return wrapper


# ---- the skeleton of a command -----------------------------------------------------------------
def given(rules, preset, set_, rules_file, players, seed, threads, out, progress, ui,
          optional: bool = True, **flags):
    """The arguments every command that plays takes, checked: its yes/no ``flags`` and
    ``progress``, the folder ``out`` (None allowed where ``optional``), the seed, the
    threads, the players and the rule set. Returns (UI, seed, threads, players, RuleSet)."""
    check_flags(**flags, progress=progress)
    check_folder(out, "out", optional)
    return (ui_for(progress, ui), seed_of(seed), threads_of(threads),
            whole_of(players, "--players"), rule_set(rules, preset, set_, rules_file))


@dataclass
class Command:
    """A command that plays, once its arguments are checked and its plan made: ``perform()``
    opens the results folder ``out`` and checks what an earlier call kept there
    (``resume``), compiles (``warm``), marks the folder as being written (``key``), plays
    (``play``) under a progress bar, with a policy error, an interruption and each of the
    command's own ``errors`` told in one line, then makes the result (``result``), tells its
    notes and warnings and writes its files (``finish``).

    ``play(command)`` reads ``command.progress`` (the bar's, None without one),
    ``command.work_dir`` (where it keeps its work: ``out``, or with ``scratch`` and no
    ``out`` a temporary folder removed afterwards; else None) and ``command.kept``
    (what ``resume`` returned)."""
    name: str                          # as the bar and the messages name the command
    ui: UI
    out: Any                           # the folder written into; None: nothing is written
    command: str                       # the command line recorded in the metadata
    total: Callable[[], int]           # the bar's total
    play: Callable[["Command"], Any]   # the experiment's raw result
    result: Callable[[Any], Any]       # the Result of a raw result
    key: Callable[[], str]             # the results folder's key (folder.key_of)
    resume: Callable[[Path], Any] | None = None   # checks ``out``'s kept work (GolfsimError)
    warm: Callable[[], None] | None = None
    scratch: bool = False
    unit: str = "round"
    folder_name: str = ""              # the results folder's command, default ``name``
    errors: tuple = ()                 # (exception class, its one line), the command's own
    stopped: Callable[[Exception], str] | None = None   # a policy error's line
    interrupted: Callable[[], str] | None = None        # an interruption's line
    finish: Callable[[Any, Any], Any] | None = None     # (result, folder): the default's stead
    also: tuple = ()                   # paths written besides the result's files
    out_dir: Path | None = field(default=None, init=False)
    work_dir: Path | None = field(default=None, init=False)
    kept: Any = field(default=None, init=False)
    progress: Callable[[int], None] | None = field(default=None, init=False)
    bar: Any = field(default=None, init=False)   # the progress bar (UI.bar's), or None

    def perform(self):
        self.out_dir = self.work_dir = check_out_dir(self.out) if self.out is not None else None
        if self.resume is not None and self.out_dir is not None:
            self.kept = self.resume(self.out_dir)
        temporary = None
        if self.scratch and self.out_dir is None:
            temporary = tempfile.TemporaryDirectory(prefix=f"golfsim-{self.name}-")
            self.work_dir = Path(temporary.name)
        try:
            raw, folder = self._played()
        finally:
            if temporary is not None:
                temporary.cleanup()
        return (self.finish or self._finish)(self.result(raw), folder)

    def _played(self):
        """(the raw result, the results folder or None)."""
        from ..experiments import runner
        say(self.ui, LOADING)
        if self.warm is not None:
            self.warm()
        folder = None
        if self.out_dir is not None:
            folder = begin_folder(self.out_dir, self.out, self.folder_name or self.name,
                                  self.command, self.key())
        bar = Bar(self.ui, self.name, self.total(), self.unit)
        self.progress, self.bar = bar.progress, bar.bar
        try:
            with Playing(folder, self.out):
                return self.play(self), folder
        except runner.PolicyError as e:
            raise PolicyError(self.stopped(e) if self.stopped is not None else
                              f"policy error, {self.name} stopped: {e}") from None
        except KeyboardInterrupt:
            raise Interrupted(self.interrupted() if self.interrupted is not None else
                              interrupted_text(self.name, self.out_dir)) from None
        except tuple(kind for kind, _ in self.errors) as e:
            raise GolfsimError(next(line(e) for kind, line in self.errors
                                    if isinstance(e, kind))) from None
        finally:
            bar.close()

    def _finish(self, result, folder):
        """The result's notes and warnings told, its files (and ``also``) written into the
        folder when there is one, which is then finished."""
        for note in getattr(result, "notes", ()):
            self.ui.note(note)
        for w in result.warnings:
            self.ui.warn(w)
        if folder is not None:
            write_to_out(result, self.out, folder)
            result.written += list(self.also)
            folder.finish()
        return result


def interrupted_text(what: str, out_dir: Path | None) -> str:
    if out_dir is None:
        return f"{what} interrupted"
    return (f"{what} interrupted; what was played is kept in {out_dir / 'shards'}: rerun the "
            "same command to resume")


def shards_fit(manifest: dict, fresh: bool, refused: Callable[[Exception], str]):
    """A command's ``resume``: the shards kept in its folder fit ``manifest`` (else
    GolfsimError, ``refused(error)`` its message)."""
    def check(out_dir: Path) -> None:
        from ..experiments.shards import ShardError, ShardStore
        try:
            ShardStore(out_dir).check(manifest, fresh)
        except ShardError as e:
            raise GolfsimError(refused(e)) from None
    return check
