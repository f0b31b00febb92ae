"""Rule sets: one frozen, validated object per rule set, named presets, TOML files, and the
flattening into arrays that the compiled kernel reads at run time.

Option names are those of docs/rules.md#rule-options, where dots became underscores
(``initial_reveal.mode`` is ``initial_reveal_mode``; both spellings are accepted wherever a user
types an option).

The modules, by concern: :mod:`.rule_set` (:class:`Rules`, its option table, presets and TOML
files made into rule sets), :mod:`.option_values` (one option's value read, checked and
written), :mod:`.checks` (the combinations that cannot be played; which engine a rule set
needs), :mod:`.presets`, :mod:`.value_schemes` (the card-value tables), :mod:`.flattening` (card
values and the kernel's arrays), :mod:`.description` and :mod:`.value_descriptions` (a rule set
and its values in words). Everything is importable from here.
"""

from __future__ import annotations

from .checks import UNPLAYABLE, WILD_SCOPES, uses_power_engine
from .description import describe
from .flattening import (RuleArrays, card_keys, card_values, card_values_text, flatten,
                      layout_kind, plain_hole, suited_value, value_groups)
from .option_values import RuleError, allowed_values, option_text
from .option_values import _allowed_text  # noqa: F401  (simulator/cli.py: `golfsim rules`)
from .presets import POWER_PRESETS, PRESET_DESCRIPTIONS, PRESETS, preset_reference
from .rule_set import OPTIONS, Rules, canonical_option, load_toml, parse_option_text
from .rule_set import _ALIASES  # noqa: F401  (scripts/make_docs.py: the aliases)
from .value_descriptions import VALUE_DESCRIPTIONS
from .value_schemes import (DUTCH_RED_KING, JOKER_EAGLE, JOKER_PAIR_SCHEMES, JOKER_PLUS15,
                            SCHEME_TABLES, VALUE_SCHEMES)

__all__ = ["DUTCH_RED_KING", "JOKER_EAGLE", "JOKER_PAIR_SCHEMES", "JOKER_PLUS15", "OPTIONS",
           "POWER_PRESETS", "PRESETS", "PRESET_DESCRIPTIONS", "RuleArrays", "RuleError", "Rules",
           "SCHEME_TABLES", "UNPLAYABLE", "VALUE_DESCRIPTIONS", "VALUE_SCHEMES", "WILD_SCOPES",
           "allowed_values", "canonical_option", "card_keys", "card_values", "card_values_text",
           "describe", "flatten", "layout_kind", "load_toml", "option_text", "parse_option_text",
           "plain_hole", "preset_reference", "suited_value", "uses_power_engine",
           "value_groups"]
