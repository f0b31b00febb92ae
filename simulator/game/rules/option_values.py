"""One option's value: its declaration in the rule set's table (its doc, its allowed values or
range), how a typed value is read, checked and written back."""

from __future__ import annotations

from dataclasses import field

import numpy as np

from .. import cards as C
from .. import codes as K


class RuleError(ValueError):
    """A rule set or option value that cannot be played; the message is one user-facing line."""


def _opt(default, doc: str, allowed=None, lo=None, hi=None, nullable=False, supported=None):
    return field(default=default, metadata={"doc": doc, "allowed": allowed, "lo": lo, "hi": hi,
                                            "nullable": nullable, "supported": supported})


def allowed_values(f) -> list:
    """The named values option field ``f`` accepts, in order, with None last when it may be
    empty; [] when it is a number or a flag."""
    m = f.metadata
    if m["allowed"] is None:
        return []
    return list(m["allowed"]) + ([None] if m["nullable"] else [])


def _allowed_text(f) -> str:
    m = f.metadata
    if m["allowed"] is not None:
        return "one of " + ", ".join("none" if v is None else str(v) for v in allowed_values(f))
    if f.type in ("bool", bool):
        return "true or false"
    if m["lo"] is not None:
        return f"an integer from {m['lo']} to {m['hi']}"
    return "a valid value"


_POWER_RANKS = C.RANKS + ("Joker",)


def _rank_name(v) -> str:
    """A rank as powers_off names it ("j" -> "J", "joker" -> "Joker"); unknown text is kept
    for _check_value to refuse."""
    text = str(v).strip()
    for name in _POWER_RANKS:
        if text.upper() == name.upper():
            return name
    return text


def _as_list(name: str, value, allowed) -> tuple:
    """A list option's value: a list, or text with its items separated by "," or "+"."""
    if isinstance(value, str):
        value = [v for v in value.replace("+", ",").split(",") if v]
    if not isinstance(value, (list, tuple)):
        raise RuleError(f"option {name} = {value!r}: expected a list of " + ", ".join(allowed))
    return tuple(value)


def _coerce(f, value):
    """Normalise a Python value (from TOML or code) to the field's type, or raise RuleError."""
    m = f.metadata
    if value is None or (isinstance(value, str) and value.lower() in ("none", "null", "inherit")
                         and m["nullable"]):
        if m["nullable"]:
            return None
    if f.name == "end_triggers":
        return _as_list(f.name, value, K.END_TRIGGERS)
    if f.name in ("dutch_powers", "powers_off") and isinstance(value, str) and \
            value.strip().lower() == "none":
        return ()
    if f.name == "dutch_powers":
        return tuple(str(v).upper() for v in _as_list(f.name, value, K.DUTCH_POWER_CARDS))
    if f.name == "powers_off":
        return tuple(_rank_name(v) for v in _as_list(f.name, value, _POWER_RANKS))
    if f.name == "deck_thresholds":
        try:
            return tuple(tuple(int(x) for x in pair) for pair in value)
        except (TypeError, ValueError):
            raise RuleError(f"option deck_thresholds = {value!r}: expected (players, decks) "
                            "pairs such as [[2, 1], [5, 2]]") from None
    if f.type in ("bool", bool):
        if isinstance(value, bool):
            return value
        raise RuleError(f"option {f.name} = {value!r}: expected true or false")
    if f.type in ("int", int) or f.type.startswith("int"):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            if isinstance(value, float) and value.is_integer():
                return int(value)
            raise RuleError(f"option {f.name} = {value!r}: expected {_allowed_text(f)}")
        return int(value)
    return value


def option_text(v) -> str:
    """An option value as typed after ``option=`` (the inverse of ``parse_option_text``)."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if v == ():
        return "none"   # an empty list (powers_off, dutch_powers)
    if isinstance(v, tuple):
        return ",".join(":".join(map(str, x)) if isinstance(x, tuple) else option_text(x)
                        for x in v)
    return str(v)


def _check_value(f, value) -> None:
    m = f.metadata
    if value is None:
        if not m["nullable"]:
            raise RuleError(f"option {f.name} may not be empty: expected {_allowed_text(f)}")
        return
    if f.name == "end_triggers":
        if not value:
            raise RuleError("option end_triggers is empty: name at least one of "
                            + ", ".join(K.END_TRIGGERS))
        for v in value:
            if v not in K.END_TRIGGERS:
                raise RuleError(f"option end_triggers = {v!r}: expected items from "
                                + ", ".join(K.END_TRIGGERS))
            if m["supported"] and v not in m["supported"]:
                raise RuleError(f"option end_triggers = {v!r} is not supported yet; supported: "
                                + ", ".join(m["supported"]))
        return
    if f.name == "powers_off":
        for v in value:
            if v not in _POWER_RANKS:
                raise RuleError(f"option powers_off = {v!r}: expected ranks from "
                                + ", ".join(_POWER_RANKS))
        return
    if f.name == "dutch_powers":
        for v in value:
            if v not in K.DUTCH_POWER_CARDS:
                raise RuleError(f"option dutch_powers = {v!r}: expected items from "
                                + ", ".join(K.DUTCH_POWER_CARDS))
        return
    if f.name == "deck_thresholds":
        if not value or any(len(p) != 2 or p[1] < 1 for p in value):
            raise RuleError(f"option deck_thresholds = {value!r}: expected (players, decks) pairs")
        return
    if m["allowed"] is not None and value not in m["allowed"]:
        raise RuleError(f"option {f.name} = {value!r}: expected {_allowed_text(f)}")
    if m["lo"] is not None and not (m["lo"] <= value <= m["hi"]):
        raise RuleError(f"option {f.name} = {value!r}: expected {_allowed_text(f)}")
    if m["supported"] is not None and value not in m["supported"]:
        raise RuleError(f"option {f.name} = {value!r} is not supported yet by the engine; "
                        f"supported: {', '.join(str(s) for s in m['supported'])}")


def _toml_value(v) -> str:
    if v is None:
        return '"none"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(v)
