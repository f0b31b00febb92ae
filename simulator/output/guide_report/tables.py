"""The guide's tables: its decisions, powers, snaps and matches, thresholds and the players'
advice, as headings, headers and rows of cells (shared by HTML, Markdown and the printed text)."""

from __future__ import annotations

from ...experiments.guide import (CONFIRMED, EITHER, IGNORE, MOOT, POWER_TABLE, REFUTED, SAY_TABLES,
                                  TABLES, GuideResult, entry_cards, equal_word, has_lines,
                                  knock_words, line_word, placeable_ranks, ranks_in_play,
                                  situation_help, split_groups)
from ...game import codes as K
from ...game.cards import RANK_NAMES, card_id
from ...game.effects import effect_of
from ...game.rules import Rules
from .data import _value_text
from .rules_text import baseline_text
from .words import (CLEAR_MARK, Cell, NA, NUMBER_WORDS, PLURALS, _capital, _labels, _pm,
                    _ranks_text, cards_of, pp, question)


def advice(e) -> tuple[str, float, float, float]:
    """An entry from its advice's side: (the option it plays, what that option gains over the
    other in win share, the gain's 95% interval). A power, snap or match entry neither option
    of which won ("either") is given from its first option's side (using the power, snapping,
    matching)."""
    if e.chosen == e.b:
        return e.b, -float(e.win.mean), -float(e.win.hi), -float(e.win.lo)
    return e.chosen, float(e.win.mean), float(e.win.lo), float(e.win.hi)


def _alike(e) -> str:
    """What an entry whose options played alike on every deal shows: in the take, keep and
    placement tables the play both made (the second option: the first one's card never met
    its condition, such as lowering the estimated score), else NA."""
    if e.table not in TABLES:
        return NA
    return "ignore" if e.b == IGNORE else e.b


def _cell(e) -> Cell:
    if e.win.se == 0 and e.win.mean == 0:
        return Cell(_alike(e), "na")
    play, gain, lo, hi = advice(e)
    play = "ignore" if play == IGNORE else play
    number = f"{pp(gain)} {_pm(lo, hi)}"
    if e.clear:
        return Cell(f"{play} {number} {CLEAR_MARK}", "clear")
    if play == EITHER:
        return Cell(f"{EITHER} {number}")
    return Cell(f"{EITHER} ({play}) {number}")


def legend_lines(result: GuideResult) -> list[str]:
    """How to read the tables: the baseline, the cells, the marks, the situations."""
    never = "that pairs nothing and is worth" if result.rules.pair_scope != "none" else \
        "worth"
    return [
        baseline_text(result) + " Every entry was measured at a table of baseline players.",
        "Each cell: what to do, then what doing it gains over the other option, in "
        "percentage points of your share of rounds won, ± its paired 95% interval (a clear "
        "advice's number is positive). 'take' and 'keep' mean: take (keep) the card when it "
        "lowers your "
        "estimated score, as the baseline player does; 'draw' and 'discard': never in that "
        "situation." + (" In the two columns about lines of three, 'take' and 'keep' mean: "
                        f"take (keep) it for the {line_word(result.rules)}, and 'ignore': play "
                        "it like any other card." if has_lines(result.rules) else ""),
        f"{CLEAR_MARK} (in bold): a clear difference, the 95% interval leaves out zero. "
        f"'{EITHER} (take)': the measurement cannot tell the two options apart, so either "
        "will do; the guide then plays, in every such situation alike, the choice it started "
        "from (in brackets: the baseline player's; in a game of lines, completing one), so "
        "that its advice does not flip with the noise from one situation to the next; the "
        "number is what that choice gains over the other.",
        "A play without a number (greyed): the two options played alike on every measured "
        f"deal, so that is what to do and there is nothing to measure; for example a card "
        f"{never} more than any card it could replace never lowers your estimated score, so "
        f"even 'take' draws. {NA}: the situation never came up.",
        "Situations: " + situation_help(result.rules),
    ] + [x for x in [cards_note(result)] if x]


def decision_tables(result: GuideResult) -> list[tuple[str, str, list[str], list[list[Cell]]]]:
    """(heading, explanation, header, rows) for the take, keep and placement tables: a row
    per rank, or per group of a rank's cards worth the same where its suits differ in value
    (``split_groups``): the row its entries measure, then a row for each group no entry can
    change."""
    out = []
    rules = result.rules
    labels = _labels(rules)
    for table, (verb_a, verb_b, _, _) in TABLES.items():
        entries = [e for e in result.entries if e.table == table]
        if not entries:
            continue
        keys = [s for s in labels if any(e.situation == s for e in entries)]
        ranks = list(dict.fromkeys(e.row for e in entries))
        header = ["card"] + [labels[s] for s in keys]
        rows = []
        unchanged = Cell(NA if table == "down" else verb_b, "na")
        for r in ranks:
            rows.append(_rank_row(rules, table, r, entries, keys))
            rows += [[Cell(g.label)] + [unchanged] * len(keys)
                     for g in split_groups(rules, RANK_NAMES.index(r))[1]]
        out.append((question(table, rules.pair_scope != "none"), _table_note(rules, table),
                    header, rows))
    return out


def _rank_row(rules: Rules, table: str, row: str, entries, keys) -> list[Cell]:
    """A rank's row of a table with a column per situation: the cards, then its entries
    ("-" where it has none)."""
    cells = [Cell(entry_cards(rules, table, RANK_NAMES.index(row)))]
    for s in keys:
        e = next((x for x in entries if x.row == row and x.situation == s), None)
        cells.append(_cell(e) if e is not None else Cell("-"))
    return cells


def _table_note(rules: Rules, table: str) -> str:
    verb_a = TABLES[table][0]
    if table == "down":
        return ("'face down': over your first face-down card you do not know, when the card "
                "is below the average of the cards you have not seen; 'best gain': where it "
                "lowers your estimated score most.")
    note = (f"'{verb_a}': {verb_a} it when it lowers your estimated score; "
            + ("'draw': draw from the stock instead." if table == "take" else
               "'discard': discard it instead."))
    if has_lines(rules):
        note += (f" In the two columns about lines of three, '{verb_a}': {verb_a} it for the "
                 f"{line_word(rules)}, 'ignore': play it like any other card.")
    unplaced = [RANK_NAMES[r] for r in ranks_in_play(rules) if r not in placeable_ranks(rules)]
    if unplaced:
        note += (f" {_capital(_ranks_text(unplaced))} have a power and may not be put into a "
                 "layout: the table of powers says what to do with them.")
    return note


def cards_note(result: GuideResult) -> str:
    """What the rows of the ranks whose suits differ in value stand for, in the take, keep and
    placement tables ("" when there are none)."""
    rules = result.rules
    out = []
    for r in dict.fromkeys(e.row for e in result.entries if e.table in TABLES):
        measured, fixed = split_groups(rules, RANK_NAMES.index(r))
        if fixed:
            out.append(f"{' and '.join(g.label for g in fixed)}: no card is worth more, so "
                       "taking or keeping one never lowers your score, and the guide never does "
                       "(there is nothing to measure); the tables decide by rank, so the "
                       f"{PLURALS[r]}' entries measure {' and '.join(g.label for g in measured)} "
                       "alone.")
        elif len(measured) > 1:
            out.append(f"{', '.join(g.label for g in measured)}: one entry for all of them, "
                       "the tables deciding by rank, not by value.")
    return " ".join(out)


# each power in words, and when the baseline player uses it (strategies/powers.py
# wants_power_nb; docs/policies.md#power-cards)
EFFECT_WORDS = {
    K.POW_PEEK_OWN: ("look at one of your own cards", "when one of its cards is unknown to it"),
    K.POW_PEEK_OPP: ("look at one of an opponent's cards",
                     "when an opponent has a card unknown to it"),
    K.POW_PEEK_ANY: ("look at any one card, yours or an opponent's",
                     "when a card on the table is unknown to it"),
    K.POW_SWAP_OWN_OPP_BLIND: ("swap one of your cards with one of an opponent's, unseen",
                               "when taking the opponents' best card lowers its score"),
    K.POW_SWAP_AFTER_PEEK_OPP: ("look at one of an opponent's cards, then swap it with one of "
                                "yours, unseen", "when its worst card is worth more than an "
                                "average card it has not seen"),
    K.POW_SWAP_ANY_TWO: ("swap any two cards on the table, unseen",
                         "when taking the opponents' best card lowers its score"),
    K.POW_PEEK_BOTH_SWAP: ("look at one of your cards and one of an opponent's, then swap "
                           "them if you like", "always"),
    K.POW_SHUFFLE_OPP: ("shuffle an opponent's face-down cards",
                        "when an opponent was seen looking at his own face-down cards"),
    K.POW_FLIP_OPP: ("turn one of an opponent's cards face up",
                     "when an opponent's card it does not know is one its owner looked at"),
    K.POW_SWAP_LINE: ("swap a row or column of yours with the same line of an opponent's",
                      "when a line swap lowers its score by a point or more"),
    K.POW_DRAW_TWO: ("draw two cards and keep one", "always"),
    K.POW_SHIELD: ("shield your cards from powers until your next turn",
                   "when an opponent knows one of its low cards"),
    K.POW_GIVE_OR_REMOVE: ("give an opponent the top card of the stock, or remove one of your "
                           "cards", "to remove a card when that lowers its score, else to "
                           "give one to the leader"),
    K.POW_CANCEL_FINAL: ("a black king: cancel the final lap in progress",
                         "when it is not the lowest"),
    K.POW_COMBINE: ("use two of the other powers at once",
                    "when it would use one of them"),
    K.POW_EXCHANGE_THIS: ("swap this card with one of an opponent's cards",
                          "when it would place an opponent's card it knows"),
}
POWER_HEADING = "When to use each power"
POWERS_CLASS = "powers"   # the table of powers on the page (its own alignment: CSS)


def power_table(result: GuideResult) -> tuple[str, str, list[str], list[list[Cell]]] | None:
    """(heading, explanation, header, rows) of the table of powers: one row per rank with a
    power, None in games without powers."""
    entries = [e for e in result.entries if e.table == "power"]
    if not entries:
        return None
    use, unused, _, asked = POWER_TABLE
    rows = []
    for e in entries:
        words, baseline = EFFECT_WORDS[effect_of(result.rules,
                                                 card_id(RANK_NAMES.index(e.row), 0))]
        rows.append([Cell(cards_of(result.rules, e)), Cell(words), Cell(baseline), _cell(e)])
    note = (f"{asked} '{use}': use it whenever it has something to act on; '{unused}': never "
            f"use it; '{EITHER}': the two could not be told apart, and the guide does what the "
            "baseline player does (its column). The value: what the advice gains over the "
            "other option; for 'either', what using the power gains over discarding the card "
            "unused.")
    if result.rules.power_source == "stock_or_unused_discard":
        note += (" A card discarded unused leaves its power on the discard pile, for the next "
                 "player to spend a turn on.")
    header = ["card", "its power", "the baseline player uses it", "use it, or discard it?"]
    return POWER_HEADING, note, header, rows


SAY_HEADINGS = {"snap": "When to snap", "match": "When to match"}


def say_question(rules: Rules, table: str) -> str:
    """The snap or match table's question, in the rules' words."""
    if table == "match" and rules.turn_match_mode == "pablo_multi_replace":
        return ("You know two or more of your cards of one rank: replace them all with the "
                "card you hold, or not?")
    if table == "match":
        return (f"The card you hold has the {equal_word(rules)} of a card on the table: "
                "match it, or not?")
    return SAY_TABLES[table][3]


def say_row_heading(rules: Rules, table: str) -> str:
    """What the rows of the snap or match table are."""
    if table == "snap":
        return "the discard"
    return "your cards" if rules.turn_match_mode == "pablo_multi_replace" else \
        "the card you hold"


def _say_rule_words(rules: Rules, table: str) -> str:
    """What the first option of the snap or match table does, and the baseline's rule."""
    equal = equal_word(rules)
    if table == "snap":
        cumbia = rules.snap_mode == "cumbia"
        return (f"'snap': snap a card you know of the discard's {equal} whenever you have one "
                "(your own even when it is worth 0 or less"
                + ("; an opponent's whenever you have a card to give back, your worst, and "
                   "snap none of your own" if cumbia else "")
                + "); the baseline player snaps its own card when it is worth more than 0"
                + (", else an opponent's when it has a card worth more than 0 to give back"
                   if cumbia else "") + ". The rows are the discard's rank.")
    if rules.turn_match_mode == "pablo_multi_replace":
        return ("'match': replace them whenever you know two or more of your cards of that "
                "rank, whatever they total; the baseline player replaces them when together "
                "they are worth more than the card it holds (the rank whose cards total most). "
                "The rows are the rank of your cards, not of the card you hold.")
    penalty = rules.match_fail_penalty_cards
    cost = (f"only when the chance of a hit pays for the {penalty} penalty "
            f"card{'s' if penalty != 1 else ''} of a miss" if penalty else
            "whenever a hit gains, a miss costing nothing")
    return (f"'match': match it whenever you know a card of its {equal} (naming every one you "
            "know, yours first), as the baseline player does. A blind match: you know no "
            f"card of its {equal} and do not put it into your layout; 'match': name a card "
            "nobody has seen (your first face-down card you don't know, else an opponent's) "
            f"whenever a card of its {equal} is still unseen; the baseline player matches "
            f"blind {cost}.")


def say_tables(result: GuideResult) -> list[tuple[str, str, list[str], list[list[Cell]]]]:
    """(heading, explanation, header, rows) of the snap and match tables the rules have: a row
    per rank, a column per situation (your own card, an opponent's; a card you know, a blind
    match)."""
    rules = result.rules
    labels = _labels(rules)
    out = []
    for table, heading in SAY_HEADINGS.items():
        entries = [e for e in result.entries if e.table == table]
        if not entries:
            continue
        keys = list(dict.fromkeys(e.situation for e in entries))
        first, second = SAY_TABLES[table][:2]
        note = (f"{say_question(rules, table)} {_say_rule_words(rules, table)} "
                f"'{second}': never. '{EITHER}': the two could not be told apart, and the "
                "guide does what the baseline player does. The value: what the advice gains "
                f"over the other option; for '{EITHER}', what '{first}' gains over "
                f"'{second}'.")
        rows = [_rank_row(rules, table, r, entries, keys)
                for r in dict.fromkeys(e.row for e in entries)]
        out.append((heading, note, [say_row_heading(rules, table)] +
                    [labels[s] for s in keys], rows))
    return out


ADVICE_HEADING = "What players say, and what the simulation says"

ADVICE_KINDS = {CONFIRMED: "good", REFUTED: "bad", MOOT: "na"}   # cells coloured by verdict


def advice_note(result: GuideResult) -> str:
    return ("Common advice of Golf players, each measured under these rules as a comparison "
            "the guide can play: its tables as measured, set to follow the advice, against "
            "the same tables set to break it (where the tables cannot say it, the two players "
            f"the row names), on the same {result.deals:,} deals against the same baseline "
            "players, taking every seat in turn. The number: what following it gains in "
            "percentage points of win share, ± its paired 95% interval. Confirmed: the "
            "interval lies above zero; refuted: below zero; unclear: it holds zero."
            + ("" if any(c.key == "take_pair" for c in result.claims) else
               " The advice about cards that cancel each other (never cancel your 2s or "
               "jokers; take a discard that completes a match) is left out: nothing cancels "
               "under these rules."))


def advice_table(result: GuideResult) -> tuple[str, str, list[str], list[list[Cell]]] | None:
    """(heading, explanation, header, rows) of what players say, measured; None where the
    guide measured none (a result of an older version)."""
    if not result.claims:
        return None
    rows = []
    for c in result.claims:
        kind = ADVICE_KINDS.get(c.verdict, "")
        if c.moot:
            rows.append([Cell(c.advice), Cell(""), Cell(f"{MOOT}: {c.moot}", kind), Cell(""),
                         Cell("")])
            continue
        rows.append([Cell(c.advice), Cell(f"{c.follow}, against: {c.against}"),
                     Cell(c.verdict, kind), Cell(pp(c.win.mean), kind),
                     Cell(_pm(c.win.lo, c.win.hi))])
    header = ["what players say", "measured as", "verdict", "following it gains (pp)",
              "± 95%"]
    return ADVICE_HEADING, advice_note(result), header, rows


def _against(th, players: int, rules: Rules) -> str:
    what = {"out": "going out only at", "knock": f"{knock_words(rules)[1]} at"}[th.table]
    return (f"{players - 1} players who follow this guide, {what} {_value_text(th.field_value)}"
            if th.table == "knock" or th.field_value < 1000 else
            f"{players - 1} players who follow this guide, going out whenever they can")


def threshold_tables(result: GuideResult):
    out = []
    knock = knock_words(result.rules)[0]
    names = {"out": ("When to go out",
                     "Turn your last face-down card up (ending the round) only when your score "
                     "would then be at most the threshold; otherwise discard the card. "),
             "knock": (f"When to {knock}", f"{_capital(knock)} when your estimated score is "
                       "at most the threshold (the cards you know at their values, each card "
                       "you don't know at the average of the cards you have not seen). ")}
    for th in result.thresholds:
        head, text = names[th.table]
        text += (f"Measured against {_against(th, result.players, result.rules)}, so that the "
                 "advice holds at a table where everyone plays by it. ")
        if th.settled:
            text += (f"Best: {_value_text(th.best)}, which is also what the others play: "
                     "no other threshold does better against them. ")
        else:
            text += (f"Best against them: {_value_text(th.best)}; after {th.sweeps} rounds "
                     "of replies the best reply still differed from what the others play, so "
                     "the threshold is not settled. ")
        text += ("Your win share with each threshold and its paired difference to the best "
                 "(95% intervals); 'same' marks values that cannot be told apart from the "
                 "best (Holm-corrected paired tests).")
        header = ["threshold", "win share %", "± 95%", "minus best (pp)", "± 95%", ""]
        rows = []
        for i, v in enumerate(th.values):
            rows.append([Cell(_value_text(v)), Cell(f"{100 * th.win.mean[i]:.2f}"),
                         Cell(_pm(th.win.lo[i], th.win.hi[i])),
                         Cell(pp(th.diff.mean[i])), Cell(_pm(th.diff.lo[i], th.diff.hi[i])),
                         Cell("best" if v == th.best else ("same" if th.same[i] else ""))])
        out.append((head, text, header, rows))
    return out


def _reveal_words(rules: Rules) -> tuple[str, str, str]:
    """(what one does, the first option, the second) for the reveal entry."""
    count = rules.initial_reveal_count
    verb = "Turn up" if rules.initial_reveal_mode == "flip" else "Look at"
    cards = f"your {NUMBER_WORDS.get(count, count)} cards"
    apart = "in different rows and columns" if rules.pair_scope in (
        "row_or_column", "row_column_diagonal") else "in different columns"
    together = "in the same column" if count == 2 else "all in one column"
    return f"{verb} {cards}", apart, together


def reveal_lines(result: GuideResult) -> list[str]:
    out = []
    what, apart, together = _reveal_words(result.rules)
    for e in result.entries:
        if e.table == "reveal":
            chosen, other = (apart, together) if e.chosen == e.a else (together, apart)
            gain = e.win.mean if e.chosen == e.a else -e.win.mean
            out.append(f"{what} {chosen}, rather than {other}: {pp(gain)} "
                       f"{_pm(e.win.lo, e.win.hi)} percentage points of win share "
                       f"({'a clear difference' if e.clear else 'not a clear difference'}; "
                       f"mean score {(e.score.mean if e.chosen == e.a else -e.score.mean):+.3f} "
                       "points).")
    return out

def _optional(table) -> list:
    return [] if table is None else [table]
