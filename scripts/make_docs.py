"""Rewrite the generated parts of docs/rules.md from the rule options' own metadata.

docs/rules.md is hand-written prose with generated blocks between marker comments:

    <!-- generated: presets -->
    ...
    <!-- end generated -->

Each block's content is rebuilt from simulator/game/rules/ (the options, their defaults,
descriptions and allowed values, the presets and the card-value tables); everything outside
the blocks is left as it is. Run it after changing an option or a preset:

    python scripts/make_docs.py           # rewrite docs/rules.md
    python scripts/make_docs.py --check   # exit 1 if docs/rules.md is out of date

tests/test_docs.py fails while docs/rules.md differs from what this prints.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.game import cards as C  # noqa: E402
from simulator.game import codes as K  # noqa: E402
from simulator.game import rules as R  # noqa: E402

RULES_DOC = ROOT / "docs/rules.md"
BEGIN = re.compile(r"^<!-- generated: ([\w ]+) -->$", re.M)
END = "<!-- end generated -->"

# The option sections of docs/rules.md, in order; every option is in exactly one.
GROUPS = (
    ("Players and decks", ("players_min", "players_max", "decks", "deck_thresholds",
                           "jokers_per_deck", "joker_count", "bonus_card")),
    ("Layout", ("layout_mode", "grid_rows", "grid_cols")),
    ("Deal and first look", ("initial_discard", "initial_reveal_mode", "initial_reveal_count",
                             "initial_reveal_constraint", "initial_reveal_sequential",
                             "initial_reveal_order", "rearrange_after_reveal",
                             "misdeal_if_card_seen", "dealer_selection", "dealer_rotation",
                             "first_player")),
    ("Turns", ("draw_from_discard", "discard_draw_must_be_placed", "stock_draw_may_be_discarded",
               "placement_face", "replace_face_up_allowed", "lock_face_up_columns",
               "replace_unseen_once", "blind_replacement", "private_stock_draw", "owner_view",
               "pay_to_peek", "flip_instead_of_draw", "flip_after_stock_discard",
               "flip_all_to_end", "flip_all_max_face_down", "jack_discard_skips_next")),
    ("End of a hole", ("end_triggers", "knock_timing", "knock_exclusive", "knock_min_laps",
                       "final_turns", "final_turn_stock_only", "reveal_on_trigger",
                       "stock_empty", "remove_cancelled", "turn_cap")),
    ("Card values", ("value_scheme", "value_two", "twos_positive_with_jokers", "value_jack",
                     "value_queen", "value_king", "value_ten", "value_queen_of_spades",
                     "value_eight",
                     "value_red_king", "value_black_king", "value_king_of_diamonds",
                     "value_two_of_diamonds", "value_joker", "one_eyed_jacks")),
    ("Pairs and lines", ("match_key", "pair_scope", "negative_pairs_keep_value", "line_sets",
                         "overlap_rule")),
    ("Patterns and special results", ("quad_two_columns_value", "quad_two_columns_adjacent_only",
                                      "quad_apart_value", "joker_quad_value",
                                      "joker_quad_apart_value", "jack_pairs_bonus",
                                      "quad_others_penalty", "block_2x2_value",
                                      "six_of_kind_value", "negative_quad_value",
                                      "shoot_the_moon", "twenty_one_scores_zero",
                                      "lowest_scores_zero", "lowest_bonus", "tie_penalty")),
    ("Ender scoring", ("ender_penalty", "ender_bonus", "ender_tie", "ender_rule_applies_to",
                       "ender_extra", "ender_clamp")),
    ("Match play", ("match_end_mode", "match_end_holes", "match_end_target", "match_tie",
                    "four_of_kind_wins_match", "pot_enabled", "pot_ante", "pot_cap")),
    ("Power cards", ("power_set", "dutch_powers", "powers_off", "power_source", "power_card_placeable",
                     "snap_mode", "snap_penalty_opponent_miss", "snap_penalty_cards",
                     "turn_match_mode", "match_fail_penalty_cards", "call_name",
                     "non_caller_rule")),
)


# A few words before a section's options, where its options share notation.
GROUP_INTROS = {
    "Power cards": "The power-card games ([Power-card games](#power-card-games); the presets `power_*`, and `power_set = "
                   "dutch` on any preset) are specified move by move by the reference engine "
                   "(`simulator/game/powers/`) and played by the compiled engine's powers "
                   "build, which every command uses for them.",
    "Card values": "`value_scheme` gives every card its points; the other options override "
                   "single ranks or cards on top of it.",
    "Ender scoring": "Below, `s` is the ender's layout value, `N` the number of players, `m` "
                     "the lowest layout value among the other players and `H` the highest in "
                     "the hole (step 4 of [scoring a hole](#scoring-a-hole)). A penalty never "
                     "lowers the ender's score and a bonus never raises it.",
}


class DocError(Exception):
    """docs/rules.md or the metadata cannot be turned into the reference."""


# ---- small pieces --------------------------------------------------------------------------
def code(v) -> str:
    """An option value as typed after ``--set option=``, in backticks."""
    return f"`{R.option_text(v)}`"


def sentence(text: str) -> str:
    """A description as a sentence: capital first letter, full stop, links inside this page."""
    text = text.strip()
    text = text[0].upper() + text[1:]
    return prose(text if text.endswith(".") else text + ".")


def prose(text: str) -> str:
    """Citations of this page become links to its sections; AMB ids link to their entry."""
    text = re.sub(r"docs/rules\.md#([\w-]+)",
                  lambda m: f"[{m.group(1).replace('-', ' ')}](#{m.group(1)})", text)
    return re.sub(r"\bAMB-(\d+)\b", r"[AMB-\1](#amb-\1)", text)


def option_link(name: str) -> str:
    return f"[`{name}`](#{name})"


def values_text(f) -> str:
    """What an option accepts, in words."""
    m = f.metadata
    if f.name == "deck_thresholds":
        return "`players:decks` steps separated by commas, e.g. `2:1,5:2,9:3` (from 2 " \
               "players 1 deck, from 5 players 2 decks, ...)"
    if f.name == "end_triggers":
        return "one or more of " + ", ".join(code(v) for v in K.END_TRIGGERS) + \
               ", separated by commas"
    if m["allowed"] is not None:
        return "one of " + ", ".join(code(v) for v in R.allowed_values(f))
    if f.type in ("bool", bool):
        return "`true` or `false`"
    if m["lo"] is not None:
        text = f"an integer from {m['lo']} to {m['hi']}"
        return text + (", or `none`" if m["nullable"] else "")
    raise DocError(f"option {f.name}: no allowed values, range or type to describe; give it "
                   "allowed= or lo=/hi= in simulator/game/rules/rule_set.py")


def aliases(name: str) -> list[str]:
    return sorted(a for a, target in R._ALIASES.items() if target == name)


def preset_rules() -> dict[str, R.Rules]:
    return {name: R.Rules.preset(name) for name in R.PRESETS}


# ---- the generated blocks ------------------------------------------------------------------
def presets_block() -> str:
    default = R.Rules()
    out = []
    for name, rules in preset_rules().items():
        desc = R.PRESET_DESCRIPTIONS.get(name)
        if not desc:
            raise DocError(f"preset {name} has no description in PRESET_DESCRIPTIONS "
                           "(simulator/game/rules/presets.py)")
        out += [f"### `{name}`", "", sentence(desc), ""]
        diff = rules.diff(default)
        if not diff:
            out += ["Every option has its default value: the defaults are this preset.", ""]
            continue
        out += ["| Option | Value | Default | Meaning |", "|---|---|---|---|"]
        for opt, value in diff.items():
            f = R.OPTIONS[opt]
            meaning = prose(f.metadata["doc"]).replace("|", "\\|")
            out.append(f"| {option_link(opt)} | {code(value)} | {code(f.default)} | "
                       f"{meaning} |")
        out.append("")
    return "\n".join(out)


def options_block() -> str:
    seen: dict[str, str] = {}
    for title, names in GROUPS:
        for name in names:
            if name not in R.OPTIONS:
                raise DocError(f"scripts/make_docs.py GROUPS names {name}, which is no option")
            if name in seen:
                raise DocError(f"option {name} is in two groups of scripts/make_docs.py GROUPS")
            seen[name] = title
    missing = [name for name in R.OPTIONS if name not in seen]
    if missing:
        raise DocError(f"options {', '.join(missing)} belong to no section: add them to GROUPS "
                       "in scripts/make_docs.py")
    presets = preset_rules()
    out = []
    for title, names in GROUPS:
        out += [f"### {title}", ""]
        if title in GROUP_INTROS:
            out += [GROUP_INTROS[title], ""]
        for name in names:
            out += option_entry(R.OPTIONS[name], presets)
    return "\n".join(out).rstrip("\n") + "\n"


def option_entry(f, presets: dict[str, R.Rules]) -> list[str]:
    m = f.metadata
    out = [f"#### `{f.name}`", "", sentence(m["doc"]), ""]
    facts = [f"Default: {code(f.default)}.", f"Values: {values_text(f)}."]
    if m["supported"] is not None:
        facts.append("The engine plays only " + ", ".join(code(v) for v in m["supported"])
                     + " so far; other values are refused with a message saying so.")
    other = aliases(f.name)
    if other:
        facts.append("Also accepted as: " + ", ".join(f"`{a}`" for a in other) + ".")
    changed = [(p, getattr(r, f.name)) for p, r in presets.items()
               if getattr(r, f.name) != f.default]
    if changed:
        facts.append("Presets that change it: " + ", ".join(
            f"[`{p}`](#{p}) ({code(v)})" for p, v in changed) + ".")
    out += [" ".join(facts), ""]
    described = R.VALUE_DESCRIPTIONS.get(f.name, {})
    allowed = R.allowed_values(f)
    for v in described:
        if v not in allowed:
            raise DocError(f"VALUE_DESCRIPTIONS[{f.name!r}] describes {v!r}, which the option "
                           "does not allow")
    if described:
        out += [f"- {code(v)}: {prose(described[v])}" for v in allowed if v in described]
        out.append("")
    if f.name == "value_scheme":
        out += value_tables()
    return out


def value_tables() -> list[str]:
    """Rank-by-rank values of every named table (before the value_* overrides)."""
    names = list(R.VALUE_SCHEMES)
    ranks = list(C.RANKS) + ["Joker"]
    out = ["| Card | " + " | ".join(f"`{n}`" for n in names) + " |",
           "|---|" + "---|" * len(names)]
    for i, rank in enumerate(ranks):
        cells = []
        for n in names:
            v = R.SCHEME_TABLES[n][i]
            cells.append("-2 (generic)" if v is None else str(v))
        out.append(f"| {rank} | " + " | ".join(cells) + " |")
    out += ["", "A table without a joker value scores a joker at -2 (the generic rule, "
            "[AMB-03](#amb-03)) unless `value_joker` says otherwise.", ""]
    return out


BLOCKS = {"presets": presets_block, "options": options_block}


# ---- rewriting the page --------------------------------------------------------------------
def render(text: str) -> str:
    """``text`` with every generated block rebuilt; the prose around them is kept as it is."""
    out, pos, done = [], 0, set()
    for m in BEGIN.finditer(text):
        name = m.group(1).strip()
        if m.start() < pos:
            raise DocError(f"docs/rules.md: block {name!r} starts inside another block")
        if name not in BLOCKS:
            raise DocError(f"docs/rules.md: unknown generated block {name!r} (known: "
                           f"{', '.join(BLOCKS)})")
        if name in done:
            raise DocError(f"docs/rules.md: block {name!r} appears twice")
        end = text.find(END, m.end())
        if end < 0:
            raise DocError(f"docs/rules.md: block {name!r} has no '{END}'")
        out += [text[pos:m.end()], "\n\n", BLOCKS[name]().strip("\n"), "\n\n"]
        pos = end
        done.add(name)
    missing = [name for name in BLOCKS if name not in done]
    if missing:
        raise DocError(f"docs/rules.md has no '<!-- generated: {missing[0]} -->' block")
    out.append(text[pos:])
    return "".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="change nothing; exit 1 when docs/rules.md is out of date")
    args = ap.parse_args(argv)
    old = RULES_DOC.read_text(encoding="utf-8")
    try:
        new = render(old)
    except DocError as e:
        print(f"make_docs: {e}", file=sys.stderr)
        return 2
    if new == old:
        print("docs/rules.md is up to date")
        return 0
    if args.check:
        print("docs/rules.md is out of date: run python scripts/make_docs.py", file=sys.stderr)
        return 1
    RULES_DOC.write_text(new, encoding="utf-8")
    print("docs/rules.md rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
