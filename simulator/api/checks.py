"""The arguments of the Python API's commands, checked as the command line checks them: the
defaults, the largest counts, and one check for each kind of argument. Each raises
GolfsimError with the command line's words (words.py)."""

from __future__ import annotations

import os

from ..game.rules import RuleError, canonical_option, option_text
from .words import GolfsimError

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


def invalid(option: str, message: str) -> GolfsimError:
    return GolfsimError(f"Invalid value for '{option}': {message}")


def count_of(value, lo: int, hi: int, option: str) -> int:
    try:
        return whole_number(value, lo, hi)
    except ValueError as e:
        raise invalid(option, str(e)) from None


def optional_count(value, lo: int, hi: int, option: str) -> int | None:
    return None if value is None else count_of(value, lo, hi, option)


def seed_of(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value).strip())
        except ValueError:
            raise invalid("--seed", f"{value!r} is not a valid integer.") from None
    if not 0 <= value <= MAX_SEED:
        raise invalid("--seed", f"{value} is not in the range 0<=x<={MAX_SEED}.")
    return value


def whole_of(value, option: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value).strip())
        except ValueError:
            raise invalid(option, f"{value!r} is not a valid integer.") from None
    return value


def threads_of(value) -> int:
    if value is None:
        return os.cpu_count() or 1
    value = whole_of(value, "--threads")
    if value < 1:
        raise invalid("--threads", f"{value} is not allowed; expected a whole number >= 1")
    return value


def choice_of(value, choices, option: str) -> str:
    if value not in choices:
        raise invalid(option, f"{value!r} is not one of "
                       f"{', '.join(repr(c) for c in choices)}.")
    return value


def check_flags(**given) -> None:
    """Refuse a yes/no argument that is not True or False: Python would take any non-empty
    text, "no" and "false" included, as true."""
    for name, value in given.items():
        if not isinstance(value, bool):
            raise GolfsimError(f"{name}: expected True or False, got {value!r}")


def check_folder(value, name: str, optional: bool = True) -> None:
    """Refuse a folder to write into, argument ``name``, that is not a path (a str or an
    os.PathLike), or None where ``optional``."""
    if not (isinstance(value, (str, os.PathLike)) or (optional and value is None)):
        raise GolfsimError(f"{name}: expected a folder path (a str or an os.PathLike such as "
                           f"pathlib.Path), got {type(value).__name__} {value!r}")


def texts_of(value, option: str) -> list[str]:
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


def value_text(v) -> str:
    """A Python value as typed after ``option=`` (a string is taken as it is)."""
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        v = tuple(tuple(x) if isinstance(x, list) else x for x in v)
    return option_text(v)


def assignments_of(set_, options: dict | None = None) -> list[str]:
    """``--set`` as OPTION=VALUE strings: from a dict {option: value}, one string, a list of
    strings, and keyword options. An option given twice is refused: the later would silently
    win."""
    if set_ is None:
        items = []
    elif isinstance(set_, dict):
        items = [f"{k}={value_text(v)}" for k, v in set_.items()]
    else:
        items = texts_of(set_, "--set")
    keywords = [f"{k}={value_text(v)}" for k, v in (options or {}).items()]
    given: dict[str, str] = {}
    for item, where in [(i, f"--set {i}") for i in items] + \
            [(k, f"the keyword argument {k}") for k in keywords]:
        name = option_of(item)
        if name in given:
            raise GolfsimError(f"{given[name]} and {where}: option {name} is given twice; "
                               "give it once")
        if name is not None:
            given[name] = where
    return items + keywords


def option_of(assignment: str) -> str | None:
    """The rule option an OPTION=VALUE string sets, by its canonical name; None when it names
    none (with_text_options then says what is wrong)."""
    try:
        return canonical_option(assignment.split("=", 1)[0].strip())
    except RuleError:
        return None


def values_list(option: str, value, joiner: str = ",") -> list[str]:
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
            texts = [value_text(x) for x in v]
            sep = "|" if joiner == "," and any("," in t for t in texts) else joiner
            out.append(f"{k}={sep.join(texts)}")
        return out
    return texts_of(value, option)


def until_width_of(value) -> float | None:
    if value is None:
        return None
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise invalid("--until-width", f"{value!r} is not a valid float.") from None
    if not value > 0:
        raise invalid("--until-width", f"{value} is not allowed; expected a number > 0")
    return value
