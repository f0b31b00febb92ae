"""The rule set a guide was measured under, and its baseline players, in words."""

from __future__ import annotations

import re

from ...experiments.guide import (SCORING_OPTIONS, GuideResult, applicable, has_lines, knock_words,
                                  line_word)
from ...game import codes as K
from ...game.rules import (OPTIONS, PRESET_DESCRIPTIONS, PRESETS, VALUE_DESCRIPTIONS, Rules,
                           card_values_text, option_text)
from .words import NUMBER_WORDS


def _option_words(name: str, value) -> str:
    """``name=value`` and what it means: the value's description, else the option's."""
    doc = OPTIONS[name].metadata["doc"]
    named = VALUE_DESCRIPTIONS.get(name, {})
    values = value if isinstance(value, tuple) else (value,)
    meant = [named[v] for v in values if isinstance(v, str) and v in named]
    text = f"{name}={option_text(value)}"
    if meant:
        return f"{text} ({doc}: {'; '.join(meant)})"
    return f"{text} ({doc})"


def _preset_rules(preset: str) -> Rules:
    return Rules.preset(preset) if preset in PRESETS else Rules()


def rules_lines(result: GuideResult) -> list[tuple[str, str]]:
    """The rule set in words, as (label, text): the preset and every change from it, what
    every card is worth, what cancels, how a round starts and ends."""
    r, preset = result.rules, result.preset
    about = PRESET_DESCRIPTIONS.get(preset)
    changes = r.diff(_preset_rules(preset))
    game = f"{preset}" + (f" ({about})" if about else "")
    if changes:
        game += ", with " + ("this change" if len(changes) == 1 else "these changes") + ": " + \
            "; ".join(_option_words(k, v) for k, v in changes.items())
    else:
        game += ", as the preset has it (no option changed)"
    out = [("Rules", game + "."),
           ("Card values", card_values_text(r) + ".")]
    cancels = []
    equal = "the same rank" if r.match_key == "rank" else \
        "the same point value (a jack and a queen both worth 10 pair)"
    if r.pair_scope != "none":
        cancels.append(f"a pair scores 0: {VALUE_DESCRIPTIONS['pair_scope'][r.pair_scope]} "
                       f"(equal: {equal})")
    if r.line_sets != "none":
        cancels.append(f"three equal cards in a line score 0: "
                       f"{VALUE_DESCRIPTIONS['line_sets'][r.line_sets]}")
    if not cancels:
        cancels.append("nothing: every card scores its value")
    default = Rules()
    for name in SCORING_OPTIONS:
        v = getattr(r, name)
        if v != getattr(default, name):
            cancels.append(_option_words(name, v))
    out.append(("What cancels", "; ".join(cancels) + "."))
    out.append(("Start and end", _start_and_end(r)))
    return [(label, for_players(text)) for label, text in out]


# the option texts' references to docs/rules.md's ambiguity notes: "(AMB-12)", ", AMB-43)",
# "AMB-44; "
AMBIGUITY_REF = re.compile(r" \(AMB-\d+[a-z]?\)|,? AMB-\d+[a-z]?(?=\))|AMB-\d+[a-z]?; ")


def for_players(text: str) -> str:
    """An option's or preset's description as the guide's reader needs it: without the
    references to the rules' notes, and a hole called a round, as everywhere in the guide."""
    return AMBIGUITY_REF.sub("", text).replace("the hole", "the round")


def _start_and_end(r: Rules) -> str:
    n = r.n_positions
    count = r.initial_reveal_count
    many = "a whole row" if count < 0 else f"{NUMBER_WORDS.get(count, count)}"
    start = {"flip": f"each player turns {many} of their {n} cards face up",
             "peek": f"each player looks at {many} of their {n} cards, which stay face down",
             "flip_on_first_turn": f"each player turns {many} of their {n} cards face up at "
                                   "the start of their first turn",
             "none": f"nobody sees any of their {n} cards before play"}.get(
        r.initial_reveal_mode, VALUE_DESCRIPTIONS["initial_reveal_mode"].get(
            r.initial_reveal_mode, r.initial_reveal_mode))
    placed = VALUE_DESCRIPTIONS["placement_face"][r.placement_face]
    return f"To start, {start}. A card put into the layout goes {placed}. {_end_words(r)}"


CALL_TIMING = {"instead_of_turn": "instead of playing a turn",
               "end_of_own_turn": "right after playing a turn",
               "any_time_in_turn": "instead of playing a turn or right after it"}
# the end triggers that end the round with no more turns, whatever final_turns says
AT_ONCE = {"all_players_face_up": "when every player's cards are all face up",
           "stock_exhausted": "when the last card of the stock has been taken",
           "empty_layout": "when a player has no cards left"}


def _end_words(r: Rules) -> str:
    """How the round ends, in a player's words: the ends after which the others play their
    last turns (a knock, a call by its name, a layout all face up), then those that end it
    at once."""
    timing = CALL_TIMING[r.knock_timing]
    lasting = {"knock": f"a player may knock {timing}",
               "call": f"a player may call {r.call_name} {timing}",
               "all_face_up": "a player whose cards are all face up at the end of their turn "
                              "ends it"}
    then = [lasting[t] for t in r.end_triggers if t in lasting]
    now = [AT_ONCE[t] for t in r.end_triggers if t in AT_ONCE]
    text = []
    if then:
        text.append(f"The round ends: {'; '.join(then)}; then "
                    f"{VALUE_DESCRIPTIONS['final_turns'][r.final_turns]}.")
    if now:
        text.append(("It also ends" if then else "The round ends") + " at once, with no more "
                    f"turns, {' or '.join(now)}.")
    return " ".join(text)


def baseline_text(result: GuideResult) -> str:
    """Who the baseline players are, in words (the field the entries are measured against)."""
    if result.field not in ("greedy", "knock-threshold"):   # a field asked for (--field)
        return (f"The baseline players play `{result.field}` (the guide's --field); the check "
                "plays the guide against them.")
    text = ("The baseline player counts cards: it takes the discard, or keeps a card drawn "
            "from the stock, when that lowers its estimated score (the cards it knows at "
            "their values, each card it does not know at the average of the cards it has not "
            "seen), and puts the card where it lowers that estimate most (over a card it "
            "knows only when that saves at least a point).")
    if result.field == "knock-threshold":
        text += " It knocks when its estimated score is at most 8."
    elif applicable(result.rules, result.players)["out"]:
        text += " It goes out whenever it can."
    if has_lines(result.rules):
        text += (f" It does not build {line_word(result.rules)}s of three on purpose: a card "
                 "counts at its value wherever it lies.")
    if "call" in result.rules.end_triggers and result.field == "greedy":
        call = knock_words(result.rules)[0]
        text += (f" It does not {call} before it knows every one of its cards, and then only "
                 f"when their total plus {K.GREEDY_CALL_MARGIN} is at most every opponent's "
                 "estimated score" + (
                     " (or at its first chance once the stock has been reshuffled "
                     f"{K.GREEDY_STALL_RESHUFFLES} times)."
                     if result.rules.stock_empty == "reshuffle_keep_top" else "."))
    if any(e.table == "power" for e in result.entries):
        text += (" When it draws a card with a power and does not keep it, it uses the power "
                 "as the table of powers says (its column 'the baseline player uses it').")
    return text + _snaps_and_matches(result.rules)


# how the baseline player (and the guide, which has no table for them) matches and snaps, in
# words (docs/policies.md, the power-card games' shared rule); {equal}: "rank" or "value"
TURN_MATCH_WORDS = {
    "pablo_multi_replace": "Holding a card, it first replaces with it two or more of its own "
                           "cards of one {equal} that it knows, when together they are worth "
                           "more than the card it holds.",
    "cabo_match": "Holding a card, drawn or taken, it first matches it whenever it knows a "
                  "card of the same {equal} on the table, naming every such card it knows, "
                  "its own first.",
}
SNAP_WORDS = {
    "cumbia": "After each discard it snaps a card it knows of the discard's {equal}: one of "
              "its own worth more than 0, else an opponent's when it has a card worth more "
              "than 0 to give back (its worst).",
    "cactus": "After each discard it snaps one of its own cards that it knows of the "
              "discard's {equal}, when that card is worth more than 0.",
}


def _snaps_and_matches(r: Rules) -> str:
    said = [words[mode].format(equal="rank" if r.match_key == "rank" else "point value")
            for words, mode in ((TURN_MATCH_WORDS, r.turn_match_mode),
                                (SNAP_WORDS, r.snap_mode)) if mode in words]
    if not said:
        return ""
    tables = " and ".join(w for w, mode in (("snaps", r.snap_mode),
                                            ("matches", r.turn_match_mode)) if mode != "none")
    return (" " + " ".join(said) + f" The guide does the same, except where its table of "
            f"{tables} says otherwise.")
