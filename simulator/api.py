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

Bad arguments raise ``GolfsimError`` with the message the command line prints after
``golfsim: error:``, naming the function's arguments where the command line names its options
(``rounds`` for ``--rounds``, ``rules_file`` for ``--rules``). Nothing is imported here that the command line does not need for every
command (numba, polars and matplotlib are imported when something is played or written).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
import importlib
import inspect
import json
import os
import re
import shlex
import sys
import tempfile
import threading
import tomllib
import warnings as _warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .game.rules import (Rules, RuleError, canonical_option, describe, load_toml,
                         option_text)

__all__ = ["rules", "run", "compare", "tune", "tune_table", "tournament", "guide", "RuleSet",
           "RunResult", "CompareResult", "TuneResult", "TournamentResult", "GuideResult", "GolfsimError",
           "PolicyError", "Interrupted", "GolfsimWarning", "default_strategy"]

# ---- defaults: the command line's --help shows these -----------------------------------------
DEFAULT_PRESET = "six_card"
DEFAULT_PLAYERS = 4
DEFAULT_STRATEGY = "greedy"
DEFAULT_ROUNDS = 100_000
DEFAULT_SEED = 1
DEFAULT_COMPARE_ROUNDS = 100_000
DEFAULT_TUNE_ROUNDS = 200_000
DEFAULT_DEALS = 20_000
DEFAULT_CHECK_ROUNDS = 100_000
DEFAULT_GUIDE_COMPARE_ROUNDS = 20_000

# ---- the largest counts a command accepts ------------------------------------------------
# Rounds that are only summed (run, compare): 10^11, so that every sum stays an exact int64.
# A hole scores well under 2000 points in absolute value under any rule set (at most 15 cards
# of the 15 highest values the decks hold, 460 points, an ender penalty that at most doubles
# that plus 5, the quads of 15 others and the moon on top), and 10^11 squared scores stay below
# 2^63 while the mean |score| is below 9600: a margin of five. Turn counts squared too, while
# rounds average fewer than 9600 turns (only a turn_cap above that allows more). Round
# indices (1000 per match in match play) and seeds stay far from 2^63, and 10^11 rounds are
# hours to days of computing.
MAX_ROUNDS = 10**11
# Rounds that are kept one by one in memory (run --per-round, tournament, tune, the measured
# deals of a guide and its check, a compare shard): 10^8, a few gigabytes.
MAX_HELD_ROUNDS = 10**8
# Holes of a match (--holes): hole h of match m is round m * 1000 + h (tally.MAX_MATCH_HOLES),
# so a longer match would replay the next one's deals.
MAX_HOLES = 1000
MAX_TARGET = 100_000
MAX_SEED = 2**63 - 1
KERNELS = ("auto", "general")
DESIGNS = ("factorial", "one-at-a-time")
OBJECTIVES = ("win_share", "mean_score")
LOADING = ("loading the compiled kernel (the first run on a machine compiles it, which takes "
           "a while)...")


class GolfsimError(ValueError):
    """Bad arguments, or a command that cannot go on; the message is the one line the command
    line prints after ``golfsim: error:``."""


class PolicyError(GolfsimError):
    """A policy made an illegal move. ``result`` holds what was played before it when the
    command keeps that (``run``: the rounds of the chunks that finished), else None."""

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.result = result


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (a notebook's stop button) stopped a command. The message says what is kept;
    ``result`` holds what was played when the command returns that (``run``), else None."""

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.message = message
        self.result = result

    def __str__(self) -> str:
        return self.message


class GolfsimWarning(UserWarning):
    """Results that are not what they seem (e.g. most rounds stopped by the turn cap); the
    metadata's ``warnings`` holds the same text."""


# ---- counts and other values, checked as the command line checks them ------------------------
def power_text(n: int) -> str:
    """``10^k`` for a power of ten from 10^6 up, else the number's digits."""
    k = len(str(n)) - 1
    return f"10^{k}" if k >= 6 and n == 10**k else str(n)


def count_allowed(lo: int, hi: int) -> str:
    return f"a whole number from {lo} to {power_text(hi)}"


def whole_number(value, lo: int, hi: int) -> int:
    """``value`` as a whole number from ``lo`` to ``hi``: an int, or text of digits
    (``1000000``, ``1_000_000``) or in exponent notation (``1e6``, ``2.5e5``) when that is a
    whole number. Raises ValueError with the command line's text (after "Invalid value for
    '--option': ")."""
    if isinstance(value, int) and not isinstance(value, bool):
        n = value
    else:
        from decimal import Decimal, InvalidOperation
        text = str(value).strip().replace("_", "")
        try:
            d = Decimal(text)
        except InvalidOperation:
            d = None
        if d is None or not d.is_finite():
            raise ValueError(f"{value!r} is not a whole number; expected "
                             f"{count_allowed(lo, hi)}")
        if not lo <= d <= hi:   # before int(): 1e999999999 has a billion digits
            raise ValueError(f"{value} is not allowed; expected {count_allowed(lo, hi)}")
        if d != d.to_integral_value():
            raise ValueError(f"{value!r} is not a whole number; expected "
                             f"{count_allowed(lo, hi)}")
        n = int(d)
    if not lo <= n <= hi:
        raise ValueError(f"{value} is not allowed; expected {count_allowed(lo, hi)}")
    return n


# ---- errors in the caller's words ---------------------------------------------------------------
# The checks word their messages as the command line's options; called from Python, a message
# names the function's arguments instead. The command line's own flags whose argument has
# another name:
_FLAG_ARGUMENTS = {"rules": "rules_file"}
_FLAG = re.compile(r"--([a-z][a-z0-9-]*)( [^\s'\"()]+)?")
_WORD = re.compile(r"[a-z]+")   # a word of the sentence after an option, not its value
_FROM_COMMAND_LINE = contextvars.ContextVar("golfsim_command_line", default=False)


@contextlib.contextmanager
def command_line_words():
    """Within it, errors keep naming the command line's options (simulator/cli.py)."""
    token = _FROM_COMMAND_LINE.set(True)
    try:
        yield
    finally:
        _FROM_COMMAND_LINE.reset(token)


def python_words(message: str, arguments) -> str:
    """``message`` with every command-line option that is one of ``arguments`` named as the
    argument: "--players 9:" -> "players=9:", "--opponent SPEC" -> "opponent=SPEC",
    "--rules" -> "rules_file"."""
    def name(m: re.Match) -> str:
        arg = _FLAG_ARGUMENTS.get(m.group(1), m.group(1).replace("-", "_"))
        if arg not in arguments:
            return m.group(0)
        value = (m.group(2) or " ")[1:]
        tail = value[len(value.rstrip(",.;:")):]
        value = value[:len(value) - len(tail)]
        if not value or _WORD.fullmatch(value):
            return arg + (m.group(2) or "")
        return f"{arg}={value}{tail}"
    return _FLAG.sub(name, message)


def _in_python_words(fn):
    """The public function ``fn``, whose errors name its arguments when called from Python."""
    arguments = frozenset(inspect.signature(fn).parameters)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except GolfsimError as e:
            if not _FROM_COMMAND_LINE.get() and e.args and isinstance(e.args[0], str):
                e.args = (python_words(e.args[0], arguments),) + e.args[1:]
            raise
    return wrapper


def _invalid(option: str, message: str) -> GolfsimError:
    return GolfsimError(f"Invalid value for '{option}': {message}")


def _count(value, lo: int, hi: int, option: str) -> int:
    try:
        return whole_number(value, lo, hi)
    except ValueError as e:
        raise _invalid(option, str(e)) from None


def _optional_count(value, lo: int, hi: int, option: str) -> int | None:
    return None if value is None else _count(value, lo, hi, option)


def _seed(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value).strip())
        except ValueError:
            raise _invalid("--seed", f"{value!r} is not a valid integer.") from None
    if not 0 <= value <= MAX_SEED:
        raise _invalid("--seed", f"{value} is not in the range 0<=x<={MAX_SEED}.")
    return value


def _whole(value, option: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value).strip())
        except ValueError:
            raise _invalid(option, f"{value!r} is not a valid integer.") from None
    return value


def _threads(value) -> int:
    if value is None:
        return os.cpu_count() or 1
    value = _whole(value, "--threads")
    if value < 1:
        raise _invalid("--threads", f"{value} is not allowed; expected a whole number >= 1")
    return value


def _choice(value, choices, option: str) -> str:
    if value not in choices:
        raise _invalid(option, f"{value!r} is not one of "
                       f"{', '.join(repr(c) for c in choices)}.")
    return value


def _flags(**given) -> None:
    """Refuse a yes/no argument that is not True or False: Python would take any non-empty
    text, "no" and "false" included, as true."""
    for name, value in given.items():
        if not isinstance(value, bool):
            raise GolfsimError(f"{name}: expected True or False, got {value!r}")


def _check_folder(value, name: str, optional: bool = True) -> None:
    """Refuse a folder to write into, argument ``name``, that is not a path (a str or an
    os.PathLike), or None where ``optional``."""
    if not (isinstance(value, (str, os.PathLike)) or (optional and value is None)):
        raise GolfsimError(f"{name}: expected a folder path (a str or an os.PathLike such as "
                           f"pathlib.Path), got {type(value).__name__} {value!r}")


def _texts(value, option: str) -> list[str]:
    """A repeatable option's values: None, one string, or a list of strings."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    try:
        items = list(value)
    except TypeError:
        raise GolfsimError(f"{option}: expected a string or a list of strings, got "
                           f"{value!r}") from None
    for item in items:
        if not isinstance(item, str):
            raise GolfsimError(f"{option}: expected a string or a list of strings, got "
                               f"{item!r} in {value!r}")
    return items


def _value_text(v) -> str:
    """A Python value as typed after ``option=`` (a string is taken as it is)."""
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        v = tuple(tuple(x) if isinstance(x, list) else x for x in v)
    return option_text(v)


def _assignments(set_, options: dict | None = None) -> list[str]:
    """``--set`` as OPTION=VALUE strings: from a dict {option: value}, one string, a list of
    strings, and keyword options. An option given twice is refused: the later would silently
    win."""
    if set_ is None:
        items = []
    elif isinstance(set_, dict):
        items = [f"{k}={_value_text(v)}" for k, v in set_.items()]
    else:
        items = _texts(set_, "--set")
    keywords = [f"{k}={_value_text(v)}" for k, v in (options or {}).items()]
    given: dict[str, str] = {}
    for item, where in [(i, f"--set {i}") for i in items] + \
            [(k, f"the keyword argument {k}") for k in keywords]:
        name = _option_of(item)
        if name in given:
            raise GolfsimError(f"{given[name]} and {where}: option {name} is given twice; "
                               "give it once")
        if name is not None:
            given[name] = where
    return items + keywords


def _option_of(assignment: str) -> str | None:
    """The rule option an OPTION=VALUE string sets, by its canonical name; None when it names
    none (with_text_options then says what is wrong)."""
    try:
        return canonical_option(assignment.split("=", 1)[0].strip())
    except RuleError:
        return None


def _values_list(option: str, value, joiner: str = ",") -> list[str]:
    """``--vary`` or ``--param`` as NAME=VALUES strings: from a dict {name: values} (a list, or
    the text after the '='), one string or a list of strings."""
    if isinstance(value, dict):
        out = []
        for k, v in value.items():
            if isinstance(v, str):
                out.append(f"{k}={v}")
                continue
            if isinstance(v, range):
                step = f":{v.step}" if v.step != 1 else ""
                out.append(f"{k}={v.start}..{v[-1]}{step}" if len(v) else f"{k}=")
                continue
            texts = [_value_text(x) for x in v]
            sep = "|" if joiner == "," and any("," in t for t in texts) else joiner
            out.append(f"{k}={sep.join(texts)}")
        return out
    return _texts(value, option)


# ---- rule sets ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class RuleSet:
    """A checked rule set and how it was given: a preset (or a rules file naming one) and the
    ``--set`` assignments on top. ``rules`` is the simulator's Rules object."""
    rules: Rules
    preset: str
    rules_file: str | None = None
    assignments: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The preset and every changed option, as titles and summaries give them."""
        return describe(self.rules, self.preset)

    def toml(self) -> str:
        """A complete TOML rule file (what ``golfsim rules PRESET --toml`` prints)."""
        return self.rules.to_toml(self.preset)

    def changed(self) -> dict:
        """The options that differ from the preset, with their values."""
        from .game.rules import PRESETS
        base = Rules.preset(self.preset) if self.preset in PRESETS else Rules()
        return self.rules.diff(base)

    def argv(self) -> list[str]:
        """The command-line options that give this rule set."""
        out = ["--rules", self.rules_file] if self.rules_file else ["--preset", self.preset]
        for item in self.assignments:
            out += ["--set", item]
        return out

    def __str__(self) -> str:
        return self.text


def _load_rules_file(path: str) -> tuple[Rules, str]:
    p = Path(path)
    if p.is_dir():
        raise GolfsimError(f"--rules {path}: is a folder, expected a TOML file")
    try:
        rules = load_toml(p)
        preset = tomllib.loads(p.read_text()).get("preset", DEFAULT_PRESET)
    except RuleError as e:
        msg = str(e)
        raise GolfsimError(msg if msg.startswith("--rules") else f"--rules {path}: {msg}") \
            from None
    except (OSError, UnicodeDecodeError) as e:
        raise GolfsimError(f"--rules {path}: cannot read the file ({e})") from None
    except (TypeError, ValueError) as e:
        raise GolfsimError(f"--rules {path}: {_bad_toml_option(p) or e}") from None
    return rules, str(preset)


def _bad_toml_option(path: Path) -> str | None:
    """Name the option whose value has the wrong shape (e.g. a number where a list belongs)."""
    data = tomllib.loads(path.read_text())
    preset = data.pop("preset", DEFAULT_PRESET)
    for key, value in data.items():
        try:
            Rules.preset(preset, **{key: value})
        except RuleError:
            continue
        except (TypeError, ValueError):
            return f"option {key} = {value!r}: not a valid value (`golfsim rules` shows the form)"
    return None


@_in_python_words
def rules(preset: str | None = None, set=None, rules_file: str | None = None,
          **options) -> RuleSet:
    """A rule set: ``preset`` (default six_card) or ``rules_file`` (a TOML file naming its
    own preset), then ``set`` (a dict {option: value}, or "OPTION=VALUE" strings as after
    ``--set``) and keyword ``options`` on top, e.g.
    ``rules("six_card", pair_scope="anywhere", value_two=2)``."""
    assignments = _assignments(set, options)
    try:
        if rules_file:
            if preset is not None:
                raise GolfsimError(f"--preset {preset} and --rules {rules_file}: give one or the "
                                   "other (a rules file names its own preset)")
            base, name = _load_rules_file(str(rules_file))
        else:
            name = DEFAULT_PRESET if preset is None else preset
            base = Rules.preset(name)
        built = base.with_text_options(assignments) if assignments else base
    except RuleError as e:
        raise GolfsimError(str(e)) from None
    except (TypeError, ValueError) as e:  # a value of the wrong shape deep inside an option
        if isinstance(e, GolfsimError):
            raise
        raise GolfsimError(f"bad rule option value: {e}") from None
    return RuleSet(built, name, str(rules_file) if rules_file else None, tuple(assignments))


def _rule_set(rules_arg, preset, set_, rules_file) -> RuleSet:
    """The rule set of a command that plays: ``rules`` (a RuleSet or a Rules object) or
    preset/rules_file, then ``set`` on top."""
    return _given_rule_set(rules_arg, preset, set_, rules_file)


def _given_rule_set(rules_arg, preset, set_, rules_file) -> RuleSet:
    if rules_arg is None:
        return rules(preset, set_, rules_file)
    if preset is not None or rules_file is not None:
        raise GolfsimError("give the rule set once: rules=..., or preset=/rules_file=")
    if isinstance(rules_arg, Rules):
        rules_arg = RuleSet(rules_arg, DEFAULT_PRESET)
    if not isinstance(rules_arg, RuleSet):
        raise GolfsimError(f"rules: expected a rule set from golfsim's rules(), got "
                           f"{type(rules_arg).__name__}")
    extra = _assignments(set_)
    if not extra:
        return rules_arg
    try:
        built = rules_arg.rules.with_text_options(extra)
    except RuleError as e:
        raise GolfsimError(str(e)) from None
    except (TypeError, ValueError) as e:
        raise GolfsimError(f"bad rule option value: {e}") from None
    # ``set`` goes on top of the rule set given: its options replace the rule set's own, and
    # the recorded --set list keeps each option once, as the command line takes it
    replaced = {_option_of(item) for item in extra}
    kept = tuple(a for a in rules_arg.assignments if _option_of(a) not in replaced)
    return RuleSet(built, rules_arg.preset, rules_arg.rules_file, kept + tuple(extra))


def default_strategy(rules: Rules) -> str:
    """greedy, or knock-threshold where only a knock can end the hole (greedy never knocks)."""
    if "knock" in rules.end_triggers and not ({"all_face_up", "all_players_face_up"} &
                                              set(rules.end_triggers)):
        return "knock-threshold"
    return DEFAULT_STRATEGY


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


def _ui_for(progress: bool, ui: "UI | None") -> "UI":
    if ui is not None:
        return ui
    quiet = not progress
    return UI(None if quiet else _notebook_bar, None if quiet else _stderr,
              _ignore if quiet else _stderr, _python_warning)


def _ignore(message: str) -> None:
    """A note left out with progress=False (the result's ``notes`` hold it)."""


class _Bar:
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


def _say(ui: UI, message: str) -> None:
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


def _write_to_out(result: "Result", out, folder=None) -> None:
    """Write the result's files into ``out``: through ``folder`` (the folder.ResultsFolder the
    command began) or as ``result.write`` does. A failed write is one line naming the file;
    the folder stays marked unfinished, without any of the files of the failed write."""
    try:
        if folder is None:
            result.written = result.write(out)
        else:
            result.written = folder.write(lambda: result._write_files(out))
    except OSError as e:
        raise _write_failed(out, e, folder is not None) from None


def _write_failed(out, e: OSError, marked: bool = False) -> GolfsimError:
    """The one line of an I/O error (a full disk, say) while a command wrote into ``out``:
    the file and the reason."""
    from .experiments.folder import MARKER
    what = f"writing {e.filename}" if getattr(e, "filename", None) else "writing the results"
    reason = e.strerror or str(e) or type(e).__name__
    tail = (f"; the folder stays marked unfinished ({MARKER}) and holds no half-written "
            "file: rerun the same command to finish it") if marked else ""
    where = f"--out {out}: " if out is not None else ""
    return GolfsimError(f"{where}{what} failed ({reason}){tail}")


def _begin(out_dir: Path, out, command: str, command_line: str, key: str):
    """Mark ``out_dir`` as being written by ``command`` and clear the files of its earlier
    run (folder.ResultsFolder.begin), once every input is checked; returns the folder. With
    ``--cluster`` the cluster is reached first: one that cannot be leaves the folder as it was
    (cluster.ClusterError)."""
    from .experiments import cluster
    from .experiments.folder import FolderBusy, ResultsFolder
    cluster.active()
    folder = ResultsFolder(out_dir, command, command_line, key)
    try:
        folder.begin()
    except FolderBusy as e:
        raise GolfsimError(f"--out {out}: {e}") from None
    except OSError as e:
        raise _write_failed(out, e) from None
    return folder


class _Playing:
    """``with _Playing(folder, out):`` around what a command plays into its folder: an I/O
    error (writing a shard, say) is one line (GolfsimError, exit status 2), and whatever
    stops the command leaves the folder marked unfinished, saying why."""

    def __init__(self, folder, out):
        self.folder, self.out = folder, out

    def __enter__(self):
        return self

    def __exit__(self, kind, e, tb):
        if e is None or self.folder is None:
            if isinstance(e, OSError) and not isinstance(e, GolfsimError):
                raise _write_failed(self.out, e) from None
            return False
        if isinstance(e, OSError):
            self.folder.stop(f"writing failed: {e}")
            raise _write_failed(self.out, e, True) from None
        self.folder.stop("interrupted" if isinstance(e, KeyboardInterrupt) else
                         f"stopped: {e}" if str(e) else f"stopped: {type(e).__name__}")
        return False


def _prepare_writers() -> threading.Thread:
    """Import the writers and warm up the plots on another thread while the rounds run. The
    kernels release the GIL, so this (matplotlib and polars, half a second or more) overlaps
    the rounds instead of following them. Join the thread before using them; a failure here
    happens again, with its message, where they are used."""
    def work():
        try:
            importlib.import_module(".experiments.report", __package__)
            importlib.import_module(".output.plots", __package__).warm_up()
        except Exception:
            return
    thread = threading.Thread(target=work, name="golfsim-imports", daemon=True)
    thread.start()
    return thread


def _command(name: str, rs: RuleSet, *parts) -> str:
    """The ``golfsim`` command line that gives the same results: recorded as the metadata's
    ``command`` when the caller names none. ``parts`` are option lists, None for nothing."""
    argv = ["golfsim", name, *rs.argv()]
    for p in parts:
        if p:
            argv += [str(x) for x in p]
    return shlex.join(argv)


def _repeat(option: str, values) -> list[str]:
    return [x for v in values for x in (option, v)]


# ---- results -----------------------------------------------------------------------------------
class Result:
    """What a command returns: its tables (polars DataFrames, ``tables`` by name, the main one
    first), the ``metadata`` its Parquet files carry, the ``warnings``, the ``text`` the
    command line prints, and ``written``: the files written into ``out`` (empty without)."""
    command_name = ""
    metadata: dict[str, str]
    warnings: list[str]
    written: list[Path]

    @property
    def tables(self) -> dict:
        raise NotImplementedError

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
        from .experiments.folder import FolderBusy, ResultsFolder, key_of
        _check_folder(folder, "folder", optional=False)
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
        from .experiments import report
        from .kernel import builds
        self.raw, self.rule_set, self.threads = raw, rs, threads
        self.build, self.build_description = raw.build, builds.describe(raw.build)
        self.summary = report.summary_frame(raw)
        self.rounds = report.rounds_frame(raw) if raw.per_round is not None else None
        self.metadata = report.run_metadata(raw, rs.preset, rounds_requested, command,
                                            rs.rules_file)
        self.warnings = json.loads(self.metadata["warnings"])
        self.written = []

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
        from .experiments import report
        return report.format_summary(self.summary, self.raw, self.rule_set.preset,
                                     self.threads)

    def _write_files(self, folder) -> list[Path]:
        from .experiments import report
        from .output import plots
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
        from .experiments import compare as cmp
        self.raw, self.rule_set, self.threads = raw, rs, threads
        self.table = cmp.frame(raw)
        self.metadata = cmp.metadata(raw, command, rs.rules_file)
        self.warnings = json.loads(self.metadata["warnings"])
        self.notes = list(raw.notes)
        self.written = []

    @property
    def tables(self) -> dict:
        return {"table": self.table}

    @property
    def markdown(self) -> str:
        from .experiments import compare as cmp
        return cmp.markdown(self.raw)

    @property
    def text(self) -> str:
        from .experiments import compare as cmp
        return cmp.format_compare(self.raw, self.threads)

    def _write_files(self, folder) -> list[Path]:
        from .experiments import compare as cmp
        from .experiments import report
        from .output import plots
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
        from .experiments import tune as tn
        self.raw, self.rule_set, self.threads = raw, rs, threads
        self.table = tn.result_frame(raw)
        self.metadata = tn.metadata(raw, rs.preset, command, rs.rules_file)
        self.warnings = json.loads(self.metadata["warnings"])
        self.notes = list(raw.notes)
        self.written = []

    @property
    def best(self) -> str:
        return self.raw.best.spec

    @property
    def indistinguishable(self) -> list[str]:
        return [g.spec for g in self.raw.indistinguishable()]

    @property
    def tables(self) -> dict:
        return {"table": self.table}

    @property
    def text(self) -> str:
        from .experiments import tune as tn
        return tn.format_tune(self.raw, self.rule_set.preset, self.threads)

    def _write_files(self, folder) -> list[Path]:
        from .experiments import report
        from .experiments import tune as tn
        from .output import plots
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
        from .experiments import tournament as tour
        self.raw, self.rule_set, self.threads = raw, rs, threads
        self.ranking = tour.ranking_frame(raw)
        self.head_to_head = tour.head_to_head_frame(raw)
        self.metadata = tour.metadata(raw, rs.preset, command, rs.rules_file)
        self.warnings = json.loads(self.metadata["warnings"])
        self.written = []

    @property
    def tables(self) -> dict:
        return {"ranking": self.ranking, "head_to_head": self.head_to_head}

    @property
    def text(self) -> str:
        from .experiments import tournament as tour
        return tour.format_tournament(self.raw, self.rule_set.preset, self.threads)

    def _write_files(self, folder) -> list[Path]:
        from .experiments import report
        from .output import plots
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
        from .experiments import compare as cmp
        from .output import guide_report as gr
        self.raw, self.rule_set, self.threads, self.command = raw, rs, threads, command
        self.table = gr.frame(raw)
        self.house_rules = cmp.frame(raw.compare) if raw.compare is not None else None
        self.check = gr.check_summary(raw)
        self.metadata = gr.metadata(raw, command, rs.rules_file)
        self.warnings = list(raw.warnings)
        self.notes = list(raw.notes)
        self.written = []

    @property
    def strategy(self) -> str:
        return self.raw.spec

    @property
    def tables(self) -> dict:
        return {"table": self.table, "house_rules": self.house_rules}

    @property
    def text(self) -> str:
        from .output import guide_report as gr
        return gr.format_guide(self.raw, self.threads)

    def _write_files(self, folder) -> list[Path]:
        from .output import guide_report as gr
        return gr.write(self.raw, folder, self.command, self.rule_set.rules_file)


# ---- the commands ------------------------------------------------------------------------------
def _clustered(fn):
    """``cluster``: "tcp://HOST:PORT" (a Dask scheduler) or "local:N" (a LocalCluster of N
    worker processes for the duration of the call) plays the rounds there, with identical
    results (simulator/experiments/cluster.py, docs/cluster.md); None plays in-process and
    does not import Dask."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, cluster: str | None = None, **kwargs):
        if cluster is None:
            return fn(*args, **kwargs)
        from .experiments import cluster as cl
        try:
            cl.parse(cluster)
        except ValueError as e:
            raise _invalid("--cluster", str(e)) from None
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


@_in_python_words
@_clustered
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

    from .experiments import cluster, runner, warm

    _flags(per_round=per_round, progress=progress)
    _check_folder(out, "out")
    ui = _ui_for(progress, ui)
    rounds = _count(rounds, 1, MAX_ROUNDS, "--rounds")
    seed, threads = _seed(seed), _threads(threads)
    chunk_size = _optional_count(chunk_size, 1, MAX_ROUNDS, "--chunk-size")
    holes = _optional_count(holes, 1, MAX_HOLES, "--holes")
    target = _optional_count(target, 1, MAX_TARGET, "--target")
    kernel = _choice(kernel, KERNELS, "--kernel")
    players = _whole(players, "--players")
    specs = _texts(strategy, "--strategy")
    rs = _rule_set(rules, preset, set, rules_file)
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
    names = [s.label for s in seats]   # what the tables and figures call them
    command = command or _command(
        "run", rs, ["--players", players],
        _repeat("--strategy", specs or [default_strategy(rs.rules)]),
        ["--rounds", rounds, "--seed", seed], ["--per-round"] if per_round else None,
        ["--holes", holes] if holes else None, ["--target", target] if target else None,
        ["--kernel", kernel] if kernel != "auto" else None)
    out_dir = check_out_dir(out) if out is not None else None
    ids, params = seat_arrays(seats)
    folder = None
    store = _run_store(out, out_dir, _run_manifest(rs, players, seats, rounds, seed, per_round,
                                                   holes or 0, target or 0, kernel))

    _say(ui, LOADING)
    try:
        warm.warm_up(rs.rules, players, ids, params, kernel=kernel, user=user,
                     holes=holes or 0, target=target or 0,
                     notify=None if ui.say is None else ui.say, arrays=arrays)
    except runner.PolicyError:
        pass  # the run below meets the same error and reports it with what was summed
    unit = "match" if (holes or target) else "round"
    if out_dir is not None:
        folder = _begin(out_dir, out, "run", command, store.key)
    bar = _Bar(ui, "run", rounds, unit)
    writers = _prepare_writers() if out_dir is not None else None
    try:
        with _Playing(folder, out):
            if store is not None:
                store.open()
            raw = runner.run(rs.rules, players, ids, params, rounds, seed, threads=threads,
                             chunk_size=chunk_size, per_round=per_round,
                             progress=bar.progress, strategies=names, holes=holes or 0,
                             target=target or 0, kernel=kernel, user=user, store=store,
                             executor=cluster.executor(), arrays=arrays)
    finally:
        bar.close()
        if writers is not None:   # also on an error: exiting while it imports can abort
            writers.join()
    return _run_ended(RunResult(raw, rs, rounds, command, threads), ui, unit, out, folder,
                      store)


def _run_store(out, out_dir: Path | None, manifest):
    """The store a run keeps its state in (shards.RunStore; None without ``out``): what a
    killed or interrupted run left there is resumed, when it is the same run."""
    if out_dir is None:
        return None
    from .experiments.shards import RunStore, ShardError
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
        _write_to_out(result, out, folder)
        if raw.complete:
            with _Playing(folder, out):
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


def _check_rounds_and_matches(rs: RuleSet, rounds: int, holes: int | None,
                              target: int | None, per_round: bool) -> None:
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


def check_match_length(rs: RuleSet, holes: int | None, target: int | None) -> None:
    """A match is as long as --holes or --target says; the rules' match_end_* options only
    record a length. One of those given explicitly (--set or a keyword) that says otherwise
    would be silently ignored: refused, naming both."""
    if not (holes or target):
        return
    given = {_option_of(a): a for a in rs.assignments}
    flag, mode = (f"--holes {holes}", "holes") if holes else (f"--target {target}", "target")
    r = rs.rules
    for name, differs in (("match_end_mode", r.match_end_mode != mode),
                          ("match_end_holes", bool(holes) and r.match_end_holes != holes),
                          ("match_end_target", bool(target) and r.match_end_target != target)):
        if name in given and differs:
            raise GolfsimError(f"--set {given[name]} and {flag}: the match played is the one "
                               f"{flag.split()[0]} gives ({name} is only recorded); give one, "
                               "or both alike")


def _run_manifest(rs: RuleSet, players: int, seats, rounds: int, seed: int, per_round: bool,
                  holes: int, target: int, kernel: str) -> dict:
    """The arguments that fix a run's results (shards.RunStore): not the threads or the
    chunk size, which change nothing. A user policy's file counts by its content."""
    from .experiments.report import version
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


@_in_python_words
@_clustered
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

    from .experiments import compare as cmp

    _flags(fresh=fresh, progress=progress)
    _check_folder(out, "out")
    ui = _ui_for(progress, ui)
    rounds = _optional_count(rounds, 1, MAX_ROUNDS, "--rounds")
    max_rounds = _optional_count(max_rounds, 1, MAX_ROUNDS, "--max-rounds")
    shard_size = _optional_count(shard_size, 1, MAX_HELD_ROUNDS, "--shard-size")
    seed, threads = _seed(seed), _threads(threads)
    design = _choice(design, DESIGNS, "--design")
    players = _whole(players, "--players")
    until_width = _until_width(until_width)
    varies = _values_list("--vary", vary)
    specs = _texts(strategy, "--strategy")
    rs = _rule_set(rules, preset, set, rules_file)
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
    if command is None:
        command = _command("compare", rs, _repeat("--vary", varies),
                           ["--design", design] if design != "factorial" else None,
                           ["--players", players], _repeat("--strategy", plan.specs),
                           ["--rounds", rounds] if rounds is not None else
                           ["--until-width", repr(until_width), "--max-rounds", max_rounds],
                           ["--seed", seed],
                           ["--shard-size", plan.shard_size] if shard_size else None)
    out_dir, temporary = _shards_folder(out, plan.manifest(), fresh, "compare",
                                        lambda e: f"--out {out}: {e}")
    folder = None
    try:
        _say(ui, LOADING)
        cmp.warm_up(plan, user=user)
        if temporary is None:
            folder = _begin(out_dir, out, "compare", command, plan.key())
        per_deal = len(plan.rule_sets) * len(plan.seats)
        bar = _Bar(ui, "compare", (rounds or max_rounds) * per_deal)
        raw = _play_compare(out, out_dir, folder, bar, lambda on_shard: cmp.run(
            plan, out_dir, rounds=rounds, until_width=until_width, max_rounds=max_rounds,
            threads=threads, fresh=fresh, progress=bar.progress, user=user,
            on_shard=on_shard))
    finally:
        if temporary is not None:
            temporary.cleanup()
    for note in raw.notes:
        ui.note(note)
    return _finish(CompareResult(raw, rs, command, threads), ui, out, folder)


def _until_width(value) -> float | None:
    if value is None:
        return None
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise _invalid("--until-width", f"{value!r} is not a valid float.") from None
    if not value > 0:
        raise _invalid("--until-width", f"{value} is not allowed; expected a number > 0")
    return value


def _shards_folder(out, manifest: dict, fresh: bool, command: str, refused):
    """(the folder a command keeps its shards in, the temporary folder it is when there is
    no ``out``, else None); ``out``'s kept shards must fit ``manifest`` (else GolfsimError,
    ``refused(error)`` its message)."""
    if out is None:
        temporary = tempfile.TemporaryDirectory(prefix=f"golfsim-{command}-")
        return Path(temporary.name), temporary
    from .experiments.shards import ShardError, ShardStore
    out_dir = check_out_dir(out)
    try:
        ShardStore(out_dir).check(manifest, fresh)
    except ShardError as e:
        raise GolfsimError(refused(e)) from None
    return out_dir, None


def _play_compare(out, out_dir: Path, folder, bar: "_Bar", play):
    """``play(on_shard)``, a comparison into ``folder`` (None: a temporary one): a policy
    error and an interruption say how many shards are kept and where; the bar is closed."""
    from .experiments import compare as cmp
    from .experiments import runner
    finished = []
    kept = folder is not None
    try:
        with _Playing(folder, out):
            return play(lambda j, loaded: finished.append(j))
    except cmp.CompareError as e:
        raise GolfsimError(f"--out {out}: {e}") from None
    except runner.PolicyError as e:
        where = f" (kept in {out_dir / cmp.SHARD_DIR})" if kept else ""
        raise PolicyError(f"policy error, compare stopped after {len(finished)} shard(s)"
                          f"{where}: {e}") from None
    except KeyboardInterrupt:
        bar.close()
        where = (f"; they are kept in {out_dir / cmp.SHARD_DIR}: rerun the same command "
                 "to resume") if kept else ""
        raise Interrupted(f"compare interrupted after {len(finished)} shard(s){where}") \
            from None
    finally:
        bar.close()


@_in_python_words
@_clustered
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

    from .experiments import tune as tn

    _flags(fresh=fresh, progress=progress)
    _check_folder(out, "out")
    ui = _ui_for(progress, ui)
    rounds = _count(rounds, 1, MAX_HELD_ROUNDS, "--rounds")
    seed = _seed(seed)
    threads = _threads(threads)
    objective = _choice(objective, OBJECTIVES, "--objective")
    players = _whole(players, "--players")
    if not isinstance(strategy, str) or not strategy:
        raise GolfsimError("Missing option '--strategy'.")
    params = _values_list("--param", param)
    opponents = _texts(opponent, "--opponent")
    rs = _rule_set(rules, preset, set, rules_file)
    try:
        plan = tn.plan(rs.rules, players, strategy, list(params), list(opponents), rounds,
                       objective)
    except (RuleError, StrategyError, tn.TuneError) as e:
        raise GolfsimError(str(e)) from None
    if command is None:
        command = _command("tune", rs, ["--players", players, "--strategy", strategy],
                           _repeat("--param", params), _repeat("--opponent", opponents),
                           ["--objective", objective] if objective != "win_share" else None,
                           ["--rounds", rounds, "--seed", seed])
    out_dir = check_out_dir(out) if out is not None else None
    folder = None
    if out_dir is not None:
        from .experiments.shards import ShardStore
        try:
            ShardStore(out_dir).check(tn.manifest(plan, seed), fresh)
        except tn.ShardError as e:
            raise GolfsimError(f"--out {out}: {e}") from None

    _say(ui, LOADING)
    tn.warm_up(plan)
    if out_dir is not None:
        from .experiments.folder import key_of
        folder = _begin(out_dir, out, "tune", command, key_of(tn.manifest(plan, seed)))
    bar = _Bar(ui, "tune", plan.rounds_to_play)
    raw = _play_kept("tune", out, out_dir, folder, bar, lambda: tn.tune(
        plan, seed, threads=threads, progress=bar.progress, out_dir=out_dir, fresh=fresh),
        (tn.ShardError, lambda e: f"--out {out}: {e}"))
    for note in raw.notes:
        ui.note(note)
    return _finish(TuneResult(raw, rs, command, threads), ui, out, folder)


def _play_kept(what: str, out, out_dir: Path | None, folder, bar: "_Bar", play,
               *errors):
    """``play()``, a command ``what`` that keeps its work in ``out_dir`` (None: nowhere a
    rerun finds it), into ``folder`` (None: no folder): a policy error, an interruption and
    each of ``errors`` ((exception class, its message), the command's own) are one line;
    the bar is closed at the end."""
    from .experiments import runner
    try:
        with _Playing(folder, out):
            return play()
    except runner.PolicyError as e:
        raise PolicyError(f"policy error, {what} stopped: {e}") from None
    except KeyboardInterrupt:
        raise Interrupted(_interrupted(what, out_dir)) from None
    except tuple(kind for kind, _ in errors) as e:
        raise GolfsimError(next(say(e) for kind, say in errors if isinstance(e, kind))) \
            from None
    finally:
        bar.close()


def _finish(result: "Result", ui: UI, out, folder, *also: Path) -> "Result":
    """The result's warnings told, its files (and ``also``) written into ``folder`` when
    there is one, which is then finished."""
    for w in result.warnings:
        ui.warn(w)
    if folder is not None:
        _write_to_out(result, out, folder)
        result.written += list(also)
        folder.finish()
    return result


class TuneTableResult(Result):
    """``tune_table``: ``table`` (symmetric.parquet or best_response.parquet: the tuned
    value's responses), ``raw`` (equilibrium.TableResult)."""

    def __init__(self, raw, rs: RuleSet, command: str, threads: int):
        from .experiments import equilibrium as eq
        self.raw, self.rule_set, self.threads = raw, rs, threads
        self.command_name = f"tune --{raw.plan.mode.replace('_', '-')}"
        self.table = eq.result_frame(raw)
        self.metadata = eq.metadata(raw, rs.preset, command, rs.rules_file)
        self.warnings = json.loads(self.metadata["warnings"])
        self.written = []

    @property
    def tables(self) -> dict:
        return {"table": self.table}

    @property
    def text(self) -> str:
        from .experiments import equilibrium as eq
        return eq.format_result(self.raw, self.rule_set.preset, self.threads)

    def _write_files(self, folder) -> list[Path]:
        from .experiments import equilibrium as eq
        from .output import redraw
        # the figure is drawn from the file written, as `golfsim plot` draws it
        return (eq.write(self.raw, _mkdir(folder), self.rule_set.preset,
                         self.metadata["command"], self.rule_set.rules_file) +
                redraw.draw(folder, self.command_name))


@_in_python_words
@_clustered
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

    from .experiments import equilibrium as eq
    from .experiments import tune as tn
    from .experiments.folder import key_of

    _flags(fresh=fresh, progress=progress)
    _check_folder(out, "out", optional=False)
    ui = _ui_for(progress, ui)
    rounds = _count(rounds, 1, MAX_HELD_ROUNDS, "--rounds")
    seed, threads = _seed(seed), _threads(threads)
    objective = _choice(objective, OBJECTIVES, "--objective")
    mode = _choice(mode, eq.MODES, "mode")
    players = _whole(players, "--players")
    params = _values_list("--param", param)
    rs = _rule_set(rules, preset, set, rules_file)
    try:
        tp = eq.plan(rs.rules, players, strategy, list(params), rounds, objective, mode, start,
                     max_steps or eq.MAX_STEPS)
    except (RuleError, StrategyError, tn.TuneError) as e:
        raise GolfsimError(str(e)) from None
    flag = f"--{mode.replace('_', '-')}"
    if command is None:
        command = _command("tune", rs, [flag, "--players", players, "--strategy", strategy],
                           _repeat("--param", params),
                           ["--objective", objective] if objective != "win_share" else None,
                           ["--start", start] if start is not None else None,
                           ["--max-steps", max_steps] if max_steps is not None else None,
                           ["--rounds", rounds, "--seed", seed])
    out_dir = check_out_dir(out)
    _check_fields(tp, out, out_dir, seed, fresh)

    _say(ui, LOADING)
    tn.warm_up(tp.first)
    folder = _begin(out_dir, out, f"tune {flag}", command,
                    key_of({"mode": mode, "search": tn.manifest(tp.first, seed),
                            "grid": [c.spec for c in tp.grid], "start": tp.start,
                            "max_steps": tp.max_steps}))
    responses = len(tp.grid) if mode == "symmetric" else 1
    bar = _Bar(ui, "tune", tp.rounds_per_response * responses)

    def on_response(r):   # an iteration's length is not known ahead: one search at a time
        if mode == "best_response" and bar.bar is not None:
            bar.bar.total += tp.rounds_per_response
            bar.bar.refresh()
    run = eq.symmetric if mode == "symmetric" else eq.best_response
    raw = _play_kept("tune", out, out_dir, folder, bar, lambda: run(
        tp, seed, threads=threads, progress=bar.progress, out_dir=out_dir, fresh=fresh,
        on_response=on_response, preset=rs.preset, command=command),
        (tn.ShardError, lambda e: f"--out {out}: {e}"))
    return _finish(TuneTableResult(raw, rs, command, threads), ui, out, folder,
                   out_dir / "fields")


def _check_fields(tp, out, out_dir: Path, seed: int, fresh: bool) -> None:
    """Every field's kept search in ``out_dir`` fits ``tp`` (equilibrium.TablePlan), before
    anything is written."""
    from .experiments import equilibrium as eq
    from .experiments import tune as tn
    from .experiments.shards import ShardStore
    for v, candidate in enumerate(tp.grid):
        try:
            ShardStore(eq.field_folder(out_dir, candidate.spec)).check(
                tn.manifest(tp.field_plan(v), seed), fresh)
        except tn.ShardError as e:
            raise GolfsimError(f"--out {out}: {e}") from None


def _interrupted(what: str, out_dir: Path | None) -> str:
    if out_dir is None:
        return f"{what} interrupted"
    return (f"{what} interrupted; what was played is kept in {out_dir / 'shards'}: rerun the "
            "same command to resume")


@_in_python_words
@_clustered
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
    from strategies import StrategyError, check_net_players, seat_arrays, user_policy

    from .experiments import runner, warm
    from .experiments import tournament as tour

    _flags(progress=progress)
    _check_folder(out, "out")
    ui = _ui_for(progress, ui)
    rounds = _count(rounds, 1, MAX_HELD_ROUNDS, "--rounds")
    seed = _seed(seed)
    threads = _threads(threads)
    players = _whole(players, "--players")
    specs = _texts(strategy, "--strategy")
    rs = _rule_set(rules, preset, set, rules_file)
    try:
        rs.rules.check_players(players)
        seat_lists = tour.seatings(players)
        resolved = tour.resolve_strategies(specs)
        check_net_players(resolved, players)
        user = user_policy(resolved)
        runner.check_policies(rs.rules, players, [s.policy_id for s in resolved])
    except (RuleError, StrategyError, tour.TournamentError, ValueError) as e:
        raise GolfsimError(str(e)) from None
    if command is None:
        command = _command("tournament", rs, ["--players", players],
                           _repeat("--strategy", [s.spec for s in resolved]),
                           ["--rounds", rounds, "--seed", seed])
    out_dir = check_out_dir(out) if out is not None else None
    folder = None
    pairs = len(resolved) * (len(resolved) - 1) // 2
    per_seating = -(-rounds // len(seat_lists))

    _say(ui, LOADING)
    for i, a in enumerate(resolved):   # every pairing's kernel (lean or general) once
        for b in resolved[i + 1:]:
            ids, params = seat_arrays([(a, b)[x] for x in seat_lists[0]])
            try:
                warm.warm_up(rs.rules, players, ids, params, user=user)
            except runner.PolicyError:
                pass  # the tournament meets the same error and reports it
    if out_dir is not None:
        from .experiments.folder import key_of
        folder = _begin(out_dir, out, "tournament", command,
                        key_of({"rules": rs.rules.to_toml(), "players": players,
                                "strategies": [s.spec for s in resolved], "rounds": rounds,
                                "seed": seed}))
    bar = _Bar(ui, "tournament", pairs * len(seat_lists) * per_seating)
    try:
        with _Playing(folder, out):
            raw = tour.play(rs.rules, players, [s.spec for s in resolved], rounds, seed,
                            threads=threads, progress=bar.progress)
    except runner.PolicyError as e:
        stopped = " (nothing written)" if out_dir is not None else ""
        raise PolicyError(f"policy error, tournament stopped{stopped}: {e}") from None
    except KeyboardInterrupt:
        raise Interrupted("tournament interrupted" +
                          ("; nothing written" if out_dir is not None else "")) from None
    finally:
        bar.close()
    result = TournamentResult(raw, rs, command, threads)
    for w in result.warnings:
        ui.warn(w)
    if out_dir is not None:
        _write_to_out(result, out, folder)
        folder.finish()
    return result


@_in_python_words
@_clustered
def guide(preset: str | None = None, *, set=None, rules_file: str | None = None, rules=None,
          players: int = DEFAULT_PLAYERS, deals=DEFAULT_DEALS,
          check_rounds=DEFAULT_CHECK_ROUNDS, compare_rounds=DEFAULT_GUIDE_COMPARE_ROUNDS,
          vary=None, seed=DEFAULT_SEED, threads: int | None = None, out=None,
          fresh: bool = False, progress: bool = True, command: str | None = None,
          ui: UI | None = None, cluster: str | None = None) -> GuideResult:
    """Write a strategy guide for a rule set: every decision measured on ``deals`` deals
    against the field, checked by a tournament of ``check_rounds`` rounds (0: none), with the
    effects of the house rules ``vary`` (as in compare; default ender_penalty,
    final_turn_stock_only, negative_pairs_keep_value) on ``compare_rounds`` deals (0: none);
    ``golfsim guide``. With ``out`` the measurements are kept there (a rerun resumes) and the
    files are written there; without, they go to a temporary folder that is removed."""
    from .experiments import compare as cmp
    from .experiments import guide as gd

    _flags(fresh=fresh, progress=progress)
    _check_folder(out, "out")
    ui = _ui_for(progress, ui)
    deals = _count(deals, 100, MAX_HELD_ROUNDS, "--deals")
    check_rounds = _count(check_rounds, 0, MAX_HELD_ROUNDS, "--check-rounds")
    compare_rounds = _count(compare_rounds, 0, MAX_ROUNDS, "--compare-rounds")
    seed, threads = _seed(seed), _threads(threads)
    players = _whole(players, "--players")
    given = _values_list("--vary", vary)
    varies = given or list(gd.DEFAULT_VARIES)
    rs = _rule_set(rules, preset, set, rules_file)
    try:
        rs.rules.check_players(players)
        for v in varies:
            cmp.parse_vary(v, rs.rules)
    except (RuleError, ValueError) as e:
        raise GolfsimError(str(e)) from None
    if command is None:
        command = _command("guide", rs, ["--players", players, "--deals", deals,
                                         "--check-rounds", check_rounds,
                                         "--compare-rounds", compare_rounds],
                           _repeat("--vary", given), ["--seed", seed])
    manifest = gd.manifest(rs.rules, players, seed, deals)
    out_dir, temporary = _shards_folder(out, manifest, fresh, "guide",
                                        lambda e: str(e).replace("comparison", "guide"))
    folder = None
    try:
        _say(ui, LOADING)
        total = gd.rounds_planned(rs.rules, players, deals, check_rounds, compare_rounds,
                                  1 + len(varies))
        if temporary is None:
            from .experiments.folder import key_of
            folder = _begin(out_dir, out, "guide", command,
                            key_of({**manifest, "check_rounds": check_rounds,
                                    "compare_rounds": compare_rounds, "vary": varies}))
        bar = _Bar(ui, "guide", total)
        raw = _play_kept("guide", out, out_dir if temporary is None else None, folder, bar,
                         lambda: gd.build(rs.rules, rs.preset, players, seed, deals, out_dir,
                                          threads=threads, check_rounds=check_rounds,
                                          compare_rounds=compare_rounds, varies=varies,
                                          fresh=fresh, progress=bar.progress),
                         (gd.GuideError, str))
    finally:
        if temporary is not None:
            temporary.cleanup()
    return _finish(GuideResult(raw, rs, command, threads), ui, out, folder)
