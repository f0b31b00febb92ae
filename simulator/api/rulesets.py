"""Rule sets as the API's commands take them: ``rules()``, the RuleSet it returns, and the rule
set of a command from its ``rules``, ``preset``, ``rules_file`` and ``set`` arguments."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..game.rules import PRESETS, Rules, RuleError, describe, load_toml
from .checks import DEFAULT_PRESET, DEFAULT_STRATEGY, assignments_of, option_of
from .words import GolfsimError, in_python_words


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


@in_python_words
def rules(preset: str | None = None, set=None, rules_file: str | None = None,
          **options) -> RuleSet:
    """A rule set: ``preset`` (default six_card) or ``rules_file`` (a TOML file naming its
    own preset), then ``set`` (a dict {option: value}, or "OPTION=VALUE" strings as after
    ``--set``) and keyword ``options`` on top, e.g.
    ``rules("six_card", pair_scope="anywhere", value_two=2)``."""
    assignments = assignments_of(set, options)
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


def rule_set(rules_arg, preset, set_, rules_file) -> RuleSet:
    """The rule set of a command that plays: ``rules`` (a RuleSet or a Rules object) or
    preset/rules_file, then ``set`` on top."""
    if rules_arg is None:
        return rules(preset, set_, rules_file)
    if preset is not None or rules_file is not None:
        raise GolfsimError("give the rule set once: rules=..., or preset=/rules_file=")
    if isinstance(rules_arg, Rules):
        rules_arg = RuleSet(rules_arg, DEFAULT_PRESET)
    if not isinstance(rules_arg, RuleSet):
        raise GolfsimError(f"rules: expected a rule set from golfsim's rules(), got "
                           f"{type(rules_arg).__name__}")
    extra = assignments_of(set_)
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
    replaced = {option_of(item) for item in extra}
    kept = tuple(a for a in rules_arg.assignments if option_of(a) not in replaced)
    return RuleSet(built, rules_arg.preset, rules_arg.rules_file, kept + tuple(extra))


def default_strategy(rules: Rules) -> str:
    """greedy, or knock-threshold where only a knock can end the hole (greedy never knocks)."""
    if "knock" in rules.end_triggers and not ({"all_face_up", "all_players_face_up"} &
                                              set(rules.end_triggers)):
        return "knock-threshold"
    return DEFAULT_STRATEGY


def check_match_length(rs: RuleSet, holes: int | None, target: int | None) -> None:
    """A match is as long as --holes or --target says; the rules' match_end_* options only
    record a length. One of those given explicitly (--set or a keyword) that says otherwise
    would be silently ignored: refused, naming both."""
    if not (holes or target):
        return
    given = {option_of(a): a for a in rs.assignments}
    flag, mode = (f"--holes {holes}", "holes") if holes else (f"--target {target}", "target")
    r = rs.rules
    for name, differs in (("match_end_mode", r.match_end_mode != mode),
                          ("match_end_holes", bool(holes) and r.match_end_holes != holes),
                          ("match_end_target", bool(target) and r.match_end_target != target)):
        if name in given and differs:
            raise GolfsimError(f"--set {given[name]} and {flag}: the match played is the one "
                               f"{flag.split()[0]} gives ({name} is only recorded); give one, "
                               "or both alike")
