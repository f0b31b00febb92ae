"""The guide's small words: its questions, card and number texts, and the cells and rules of
thumb its tables hold."""

from __future__ import annotations

from dataclasses import dataclass

from ...experiments.guide import (PLACE_SITUATION, RANK_TABLES, entry_cards, knock_words,
                                  say_labels, situations)
from ...game.cards import RANK_NAMES, SUIT_SYMBOLS
from ...game.rules import Rules


ANY_CARD = "any card"   # the placement table's one column where no two cards pair


def question(table: str, pairs: bool = True) -> str:
    """A decision table's question (its heading)."""
    if table == "down" and not pairs:
        return ("Where to put a card you keep: over a face-down card, or where it saves most "
                "(usually over your highest face-up card)?")
    return RANK_TABLES[table][3]


def threshold_question(rules: Rules, table: str) -> str:
    """A threshold's question, as its figure asks it (kept as its rows' situation_text)."""
    if table == "out":
        return "Go out only when your score would be at most ..."
    return f"{_capital(knock_words(rules)[0])} when your estimated score is at most ..."


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _labels(rules: Rules) -> dict[str, str]:
    """Column headings of the situations, the placement table's and the snap and match
    tables' included."""
    labels = dict(situations(rules) + [PLACE_SITUATION]) | say_labels(rules)
    if rules.pair_scope == "none":
        labels[PLACE_SITUATION[0]] = ANY_CARD
    return labels


def cards_of(rules: Rules, e) -> str:
    """What an entry's row stands for: its rank, or some of its suits (``entry_cards``)."""
    if e.table in RANK_TABLES:
        return entry_cards(rules, e.table, RANK_NAMES.index(e.row))
    return e.row


def pp(x: float) -> str:
    """A share difference in percentage points."""
    return f"{100 * x:+.2f}"


def _pm(lo: float, hi: float) -> str:
    return f"±{100 * (hi - lo) / 2:.2f}"

CLEAR_MARK = "✓"
NA = "n/a"
MAX_RULES = 8          # rules of thumb listed at the top of a guide
BASELINE = "the baseline players"
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
PLURALS = {"A": "aces", "2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes",
           "7": "sevens", "8": "eights", "9": "nines", "10": "tens", "J": "jacks",
           "Q": "queens", "K": "kings", "Joker": "jokers"}
RANK_ORDER = list(PLURALS)


@dataclass
class Cell:
    """A table cell: its text and what it is ("clear": a clear difference, "na": the
    situation never came up; "" otherwise)."""
    text: str
    kind: str = ""

    def __str__(self) -> str:
        return self.text


@dataclass
class Rule:
    """A rule of thumb: what to do, and what it is worth in win share (a paired interval)."""
    text: str
    worth: float
    lo: float
    hi: float
    against: str = ""       # whom it was measured against, when not the baseline players

    def line(self) -> str:
        against = f", against {self.against}" if self.against else ""
        return (f"{self.text}: worth {pp(self.worth)} ± {100 * (self.hi - self.lo) / 2:.2f} "
                f"percentage points of win share{against}.")

ADVICE_TABLE = "advice"   # its rows in guide.parquet, and its class on the page

def _ranks_text(names: list[str]) -> str:
    """Plural rank names, runs of three or more as "threes to nines"; some of a rank's suits
    by name, in its place ("aces to fives and K♦")."""
    def rank(name: str) -> int:
        return RANK_ORDER.index(name.rstrip("".join(SUIT_SYMBOLS)))

    runs: list[list[str]] = []
    for name in sorted(names, key=lambda n: (rank(n), n)):
        if runs and name in PLURALS and runs[-1][-1] in PLURALS and \
                rank(name) == rank(runs[-1][-1]) + 1:
            runs[-1].append(name)
        else:
            runs.append([name])
    parts = []
    for run in runs:
        words = [PLURALS.get(n, n) for n in run]
        parts += [f"{words[0]} to {words[-1]}"] if len(run) >= 3 else words
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
