"""A rule set in brief, for titles and printed summaries."""

from __future__ import annotations

import numpy as np

from .flattening import flatten
from .option_values import RuleError, option_text
from .presets import PRESETS
from .rule_set import Rules


def _same_as_derived(rules: Rules, base: Rules, option: str) -> bool:
    """Does ``option``, which ``base`` leaves to be derived (None: e.g. a card value that
    follows from other options), have the value it would be derived to? A title then leaves it
    out: six_card's 2s are worth -2 whether or not value_two = -2 is given."""
    if getattr(base, option) is not None:
        return False
    derived = rules.with_options(**{option: None})
    players = max(rules.players_min, min(rules.players_max, 4))
    try:
        a, b = flatten(rules, players), flatten(derived, players)
    except (RuleError, ValueError):
        return False
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def describe(rules: Rules, preset: str, width: int | None = None) -> str:
    """The rule set in brief, for titles and printed summaries: the preset, then every option
    that differs from it as typed after --set ("six_card, pair_scope=anywhere"). A name that
    is not a preset is compared with the defaults. With ``width``, the options that would make
    the text longer are counted instead ("six_card, a=1, +3 more options"): a plot title has
    room for one line, and the metadata written with the results keeps every option."""
    base = Rules.preset(preset) if preset in PRESETS else Rules()
    items = [preset] + [f"{k}={option_text(v)}" for k, v in rules.diff(base).items()
                        if not _same_as_derived(rules, base, k)]
    text = ", ".join(items)
    if width is None or len(text) <= width:
        return text
    for keep in range(len(items) - 1, 0, -1):
        more = len(items) - keep
        short = ", ".join(items[:keep]) + f", +{more} more option{'s' if more > 1 else ''}"
        if len(short) <= width or keep == 1:
            return short
    return text
