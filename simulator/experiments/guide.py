"""Strategy guides (``golfsim guide``): the decisions that matter, measured by simulation.

A guide is a set of tables read by the ``guide`` strategy (strategies/guide.py,
``guide_nb``): which discards to take and which drawn cards to keep, by rank and by the
situation (the card pairs one of the player's own; in games scoring lines of three, it
completes a line or joins one; else early in the round, later, or on the last turn); in
power-card games, whether to use the power of a card drawn and not kept, by rank, and where
the rules have them, when to snap (by the discard's rank: one's own card, an opponent's) and
when to make a turn match (with cards one knows, or blind); the highest score to go out (or
knock, or call) with; how to make the initial reveal. Everything
else (where a card goes, counting cards) is greedy's, which the pages call the baseline
player.

**How an entry is measured.** Starting from the tables that make ``guide`` play exactly as
``greedy``, the entries are settled one at a time (coordinate ascent): the two versions of
the current tables that differ in that entry alone play the same deals (common random
numbers) against a field of ``greedy`` opponents (``knock-threshold`` in games only a knock
can end, where the tables start out knocking at 8), the guided player taking every seat in
turn (tune.TableObjective). The entry's effect is the paired difference in the guided
player's win share (ties split), with a 95% interval; the guide keeps the better version when
the difference is clear (the interval leaves out 0), and the current one otherwise, so that
an entry the deals cannot settle keeps the play it started from (greedy's) in every situation
rather than flipping with the noise from one situation to the next. A power, snap or match
entry has three versions (always use the power, snap or match; never; or greedy's rule, where
the tables start): the first two are compared, and a clear winner is kept, else greedy's rule
stays ("either").

**Thresholds** (going out, knocking) are swept over a grid on the same deals against a field
that plays the guide itself: the other seats follow the tables as measured so far, at the
threshold the field currently plays. The best reply becomes the field's threshold and the
sweep is repeated (at most SWEEPS times) until the best reply is the field's own threshold;
the guide reports the last sweep and the field it was played against. In a game only a knock
can end, "never knock" is not a candidate: a field following it would never end a round.
The values indistinguishable from the best are those whose Holm-corrected paired test against
it is not rejected (as in ``golfsim tune``).

**What players say** (``claims``): common advice of Golf players, each played as the
finished tables set to follow it against the same tables set to break it (or, where the
tables have no parameter for it, two built-in players in the guided seat), on the same deals
against the same field; advice the rules make moot is kept with the reason, unmeasured.

**How the guide is checked.** The finished tables play a tournament against the field on
other deals (another seed), with every seating, and the guide reports the result.

Every measurement is kept in ``<out>/shards`` (written atomically), so an interrupted guide
resumes from what it has measured when rerun with the same arguments.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from strategies import STRATEGIES, resolve, user_policy
from strategies.common import ALL_RANKS

from . import compare as cmp
from . import runner, stats
from . import tournament as tour
from .report import capped_warning
from ..game.cards import card_id, RANK_JOKER, RANK_NAMES, SUIT_SYMBOLS
from ..game.codes import POW_NONE
from ..game.effects import effect_of
from .report import atomic_path, save_npy_atomic
from ..game.rules import Rules, card_values, value_groups
from .shards import ShardError, ShardStore
from .tune import Candidate, TableObjective, holm, number_text, paired_p

ADOPT_Z = stats.Z      # a changed entry is kept when it wins clearly (its 95% interval)
OUT_GRID = (-4, -2, 0, 2, 4, 6, 8, 10, 12, 15, 20)
NO_LIMIT = 1000.0      # "out" without a limit: greedy's behaviour
KNOCK_GRID = (0, 2, 4, 6, 8, 10, 12, 14, 16)
NEVER_KNOCK = -1000.0
SWEEPS = 3             # best replies to a field that plays the guide, at most
DEFAULT_VARIES = ("ender_penalty=none,plus_10", "final_turn_stock_only=false,true",
                  "negative_pairs_keep_value=false,true")
SITUATION_KEYS = ("line3", "line2", "pair", "early", "late", "last")
LINE_SITUATIONS = ("line3", "line2")
IGNORE = "ignore the match"   # a line table's other option: the card is played as any other
TABLES = {   # table: (verb when in the table, verb otherwise, parameter prefix, question)
    "take": ("take", "draw", "take", "The discard: take it, or draw from the stock?"),
    "keep": ("keep", "discard", "keep", "A card drawn from the stock: keep it, or discard it?"),
    "down": ("face down", "best gain", "down",
             "Where to put a card you keep that pairs nothing: over a face-down card, or "
             "where it saves most (usually over your highest face-up card)?"),
}
PLACE_SITUATION = ("other", "it pairs none of your cards")
# power-card games: (first option, second, parameter prefix, question), as a TABLES entry;
# the first option sets the rank's bit in power_use, the second in power_skip
POWER_TABLE = ("use", "discard unused", "power",
               "A card with a power, drawn from the stock, that you do not keep: use its "
               "power, or discard it unused?")
# snaps and turn matches, the same way, by situation: SAY_PARAMS names each one's parameters
SNAP_TABLE = ("snap", "let it go", "snap",
              "A discard matches a card you know: snap that card, or let it go?")
MATCH_TABLE = ("match", "don't match", "match",
               "The card you hold: make a turn match with it, or not?")
# the tables whose third version is greedy's rule, where they start
SAY_TABLES = {"power": POWER_TABLE, "snap": SNAP_TABLE, "match": MATCH_TABLE}
# (table, situation): the prefix of the guide's parameters <prefix>_use (the first option's
# ranks) and <prefix>_skip (the second's)
SAY_PARAMS = {("power", ""): "power", ("snap", "own"): "snap", ("snap", "opponent"): "snap_opp",
              ("match", "known"): "match", ("match", "blind"): "blind"}
EITHER = "either"   # a SAY_TABLES entry neither option of which won: greedy's rule stays
CONFIRMED, REFUTED, UNCLEAR = "confirmed", "refuted", "unclear"
MOOT = "does not apply under these rules"
NO_DISCARD = "no one may take the discard under these rules"
CAUTIOUS_END = 4.0   # "clearly lowest": going out or knocking only at this score or less
BOLD_KNOCK = float(KNOCK_GRID[-1])   # knocking as soon as the grid's highest allows
RANK_TABLES = {**TABLES, **SAY_TABLES}   # the tables whose entries are ranks
# options whose non-default values change what scores (beyond pairs and lines)
SCORING_OPTIONS = ("negative_pairs_keep_value", "quad_two_columns_value",
                   "quad_two_columns_adjacent_only", "quad_apart_value", "joker_quad_value",
                   "joker_quad_apart_value", "jack_pairs_bonus", "quad_others_penalty",
                   "block_2x2_value", "six_of_kind_value", "negative_quad_value",
                   "shoot_the_moon", "twenty_one_scores_zero", "lowest_scores_zero",
                   "remove_cancelled", "one_eyed_jacks")


def line_word(rules: Rules) -> str:
    """What the rule set's scoring lines of three are called."""
    return {"columns": "column", "rows_and_columns": "row or column"}.get(
        rules.line_sets, "line (row, column or diagonal)")


def has_lines(rules: Rules) -> bool:
    return rules.line_sets != "none"


def early_count(rules: Rules) -> int:
    """The fewest unknown cards of one's own that make it "early" (the guide's rule: more than
    a third of them unknown)."""
    return rules.n_positions // 3 + 1


def knock_words(rules: Rules) -> tuple[str, str]:
    """What ending the round by choice is called: ("knock", "knocking"), or in the power-card
    games ("call Cabo", "calling Cabo") by the rules' call_name."""
    if "call" in rules.end_triggers:
        return f"call {rules.call_name}", f"calling {rules.call_name}"
    return "knock", "knocking"


def ending(rules: Rules) -> str:
    """How someone ends a round, in words: "gone out", "knocked" or both."""
    out = [w for t, w in (("all_face_up", "gone out"), ("all_players_face_up", "gone out"),
                          ("knock", "knocked"), ("call", f"called {rules.call_name}"))
           if t in rules.end_triggers]
    return " or ".join(dict.fromkeys(out)) or "ended the round"


def situations(rules: Rules) -> list[tuple[str, str]]:
    """(key, column heading) of the situations the rule set has, in the order of the tables."""
    out = []
    if has_lines(rules):
        line = line_word(rules)
        out += [("line3", f"it completes a {line} of three"),
                ("line2", f"it matches one card of a {line}")]
    pairs = rules.pair_scope != "none"
    if pairs:
        out.append(("pair", "it pairs one of your cards"))
    other = "pairs nothing, " if pairs and not has_lines(rules) else \
        ("otherwise, " if pairs or has_lines(rules) else "")
    out += [("early", f"{other}early in the round"), ("late", f"{other}later")]
    if rules.final_turns != "none":
        out.append(("last", f"{other}your last turn"))
    return out


def say_situations(rules: Rules) -> list[tuple[str, str]]:
    """(table, situation) of the snaps and turn matches the rules have, in the order they
    are settled."""
    out = []
    if rules.snap_mode != "none":
        out.append(("snap", "own"))
    if rules.snap_mode == "cumbia":
        out.append(("snap", "opponent"))
    if rules.turn_match_mode != "none":
        out.append(("match", "known"))
    if rules.turn_match_mode == "cabo_match":
        out.append(("match", "blind"))
    return out


def equal_word(rules: Rules) -> str:
    """What makes two cards equal (match_key), in a word."""
    return "rank" if rules.match_key == "rank" else "value"


def say_labels(rules: Rules) -> dict[str, str]:
    """Column headings of the snap and match situations."""
    equal = equal_word(rules)
    known = "you know two or more of them" if rules.turn_match_mode == "pablo_multi_replace" \
        else f"you know a card of its {equal}"
    return {"own": "your own card", "opponent": "an opponent's card", "known": known,
            "blind": f"you know none of its {equal}: a blind match"}


def situation_help(rules: Rules) -> str:
    """What the situations mean, in words a player can apply at the table."""
    parts = []
    if has_lines(rules):
        line = line_word(rules)
        parts.append(f"'it completes a {line} of three': two known cards of one {line} of "
                     f"yours match it and it can take the third place (three equal cards in a "
                     f"{line} score 0); 'it matches one card of a {line}': one does and both "
                     f"other places of that {line} can still take a card. Taken for the {line}, "
                     f"it goes into that {line} (joining one: over the card there that is worth "
                     f"more to replace), and a complete {line} of a rank you build with is never "
                     "broken up afterwards.")
    if rules.pair_scope != "none":
        parts.append("'it pairs one of your cards': it can go where it pairs a card of yours "
                     "that you know.")
    k, n = early_count(rules), rules.n_positions
    parts.append(("Otherwise 'early" if parts else "'Early") +
                 f" in the round' while {k} or more of your {n} cards are "
                 "unknown to you (face down and never seen), 'later' after that"
                 + (f", and 'your last turn' once someone has {ending(rules)}."
                    if rules.final_turns != "none" else "."))
    return " ".join(parts)


class GuideError(ValueError):
    pass


def field_strategy(rules: Rules) -> str:
    """The opponents a guide is measured and checked against: greedy, or knock-threshold in
    games only a knock can end (greedy never knocks)."""
    if "knock" in rules.end_triggers and not ({"all_face_up", "all_players_face_up"} &
                                              set(rules.end_triggers)):
        return "knock-threshold"
    return "greedy"


@dataclass
class Entry:
    """One measured decision: ``a`` (the first option) against ``b`` on the same deals."""
    table: str                  # take, keep, down, power, snap, match, reveal
    row: str                    # rank name, or the reveal's cards
    situation: str              # a SITUATION_KEYS key, "other" (down), a say_situations one
    #                             (snap, match) or "" (power, reveal)
    a: str
    b: str
    deals: int
    win: stats.Interval         # paired difference in win share, a - b
    score: stats.Interval       # paired difference in mean score, a - b
    chosen: str                 # the option the guide keeps
    clear: bool                 # the 95% interval leaves out 0
    diffs: np.ndarray | None = field(default=None, repr=False)   # per deal: win share, a - b


@dataclass
class Threshold:
    table: str                  # out / knock
    values: list[float]
    win: stats.Interval         # per value: win share
    diff: stats.Interval        # per value: paired difference to the best
    same: np.ndarray            # per value: indistinguishable from the best
    best: float
    field: str = ""             # the other seats: the guide's tables as a strategy
    field_value: float = 0.0    # ... playing this threshold
    start: float = 0.0          # the threshold the tables started from (the baseline's)
    sweeps: int = 1             # sweeps played, each against the best reply to the last
    settled: bool = True        # the best reply is the field's own threshold


@dataclass
class Claim:
    """A piece of common advice of Golf players, measured: the play that follows it against
    the play that breaks it, on the guide's deals against its field (``win``, ``score``:
    follow minus break), or why it does not apply under the rules (``moot``)."""
    key: str
    advice: str                 # what players say
    follow: str                 # the play measured as following it, in words
    against: str                # the play measured as breaking it
    specs: tuple[str, str] = ("", "")   # the two strategies: following, breaking
    moot: str = ""              # why the advice does not apply under these rules
    deals: int = 0
    win: stats.Interval | None = None
    score: stats.Interval | None = None

    @property
    def verdict(self) -> str:
        if self.moot:
            return MOOT
        if self.win.lo > 0:
            return CONFIRMED
        return REFUTED if self.win.hi < 0 else UNCLEAR


@dataclass
class GuideResult:
    rules: Rules
    preset: str
    players: int
    seed: int
    deals: int
    entries: list[Entry]
    thresholds: list[Threshold]
    spec: str                   # the finished guide as a strategy
    field: str                  # the opponents' strategy
    check: tour.TournamentResult | None
    compare: cmp.CompareResult | None
    seconds: float
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)   # degenerate measurements (turn cap)
    claims: list[Claim] = field(default_factory=list)   # what players say, measured
    build: str = ""             # the builds that played it (runner.builds_text)


# ---- the tables as strategy parameters --------------------------------------------------------
def default_params(rules: Rules | None = None) -> dict[str, float]:
    """The tables that play as greedy; in a game only a knock can end they start out knocking
    as the field does (knock-threshold's T = 8), so that rounds end; in a game scoring lines
    of three they start out completing a line with any card that can (and keeping it): a
    line is only ever completed after cards were put in it for the line, so the entries for
    joining one are measured with the completion they lead to."""
    params = {p.name: p.default for p in STRATEGIES["guide"].params}
    if rules is not None and field_strategy(rules) == "knock-threshold":
        params["knock"] = 8.0
    if rules is not None and has_lines(rules):
        params["take_line3"] = params["keep_line3"] = float(ALL_RANKS)
    return params


def spec_of(params: dict[str, float]) -> str:
    base = default_params()
    parts = [f"{k}={number_text(v)}" for k, v in params.items() if v != base[k]]
    return "guide" + (":" + ",".join(parts) if parts else "")


def ranks_in_play(rules: Rules) -> list[int]:
    return list(range(13)) + ([RANK_JOKER] if rules.has_jokers else [])


def with_bit(mask: float, rank: int, on: bool) -> float:
    m = int(mask)
    return float(m | (1 << rank) if on else m & ~(1 << rank))


def power_ranks(rules: Rules) -> list[int]:
    """The ranks whose cards have a power under the rules (a black card's: the Dutch king's
    power is the black king's)."""
    return [r for r in ranks_in_play(rules) if effect_of(rules, card_id(r, 0)) != POW_NONE]


def placeable_ranks(rules: Rules) -> list[int]:
    """The ranks of the take, keep and placement tables: every rank in play, but where power
    cards may not be placed (Cumbia) none whose every card has a power."""
    if rules.power_card_placeable:
        return ranks_in_play(rules)
    return [r for r in ranks_in_play(rules)
            if any(effect_of(rules, card_id(r, s)) == POW_NONE for s in range(4))]


def table_ranks(mask: float) -> list[int]:
    return [r for r in range(RANK_JOKER + 1) if (int(mask) >> r) & 1]


# ---- the cards an entry stands for ---------------------------------------------------------------
@dataclass(frozen=True)
class CardGroup:
    """Cards of one rank worth the same: the whole rank (``suits`` "") or the suits of a rank
    whose suits differ in value (Cabo's K♦ worth 0, its other kings 13)."""
    rank: int
    suits: str
    value: int

    @property
    def name(self) -> str:
        """ "K", or "K♦" for some of a rank's suits."""
        return RANK_NAMES[self.rank] + self.suits

    @property
    def label(self) -> str:
        """The name, with the value of some of a rank's suits: "K", "K♦ (0)"."""
        return self.name + (f" ({self.value})" if self.suits else "")


def card_groups(rules: Rules, rank: int) -> list[CardGroup]:
    values = card_values(rules)
    if rank == RANK_JOKER:
        return [CardGroup(rank, "", int(values[card_id(rank, 0)]))]
    return [CardGroup(rank, suits, v) for suits, v in value_groups(values, rank)]


def nothing_cancels(rules: Rules) -> bool:
    """Does every card score its value wherever it lies (no pairs, no lines, no other scoring
    option)?"""
    default = Rules()
    return rules.pair_scope == "none" and not has_lines(rules) and \
        all(getattr(rules, name) == getattr(default, name) for name in SCORING_OPTIONS)


def split_groups(rules: Rules, rank: int) -> tuple[list[CardGroup], list[CardGroup]]:
    """A rank's cards as the take, keep and placement tables see them: (the groups its entries
    measure, the groups no entry can change). The tables decide by rank, so the cards of a
    rank whose suits differ in value share its entries, except that where nothing cancels
    the cards worth the most any card is worth are never taken nor kept under either option
    (such a card never lowers the estimated score: greedy's placement wants a gain of a point
    over a known card, and of at least nothing over an unknown one, which only a pool of
    unseen cards all worth as much gives, and then the two options score alike). Their part
    of the rank is then left out of its entries: Cabo's king entries are K♦'s alone."""
    groups = card_groups(rules, rank)
    if len(groups) == 1 or not nothing_cancels(rules):
        return groups, []
    values = card_values(rules)
    top = max(int(values[card_id(r, s)]) for r in ranks_in_play(rules) for s in range(4))
    return [g for g in groups if g.value < top], [g for g in groups if g.value >= top]


def power_suits(rules: Rules, rank: int) -> str:
    """The suits of a rank whose cards have a power ("" for all of them: the Dutch king's
    power is the black kings' alone, "♠♣")."""
    if rank == RANK_JOKER:
        return ""
    suits = "".join(sym for s, sym in enumerate(SUIT_SYMBOLS)
                    if effect_of(rules, card_id(rank, s)) != POW_NONE)
    return "" if len(suits) == len(SUIT_SYMBOLS) else suits


def entry_cards(rules: Rules, table: str, rank: int) -> str:
    """A rank's entry as its row is headed: the rank ("K"), or where its suits differ what the
    entry stands for: the cards with the power (a power entry, "K♠♣"), a snap or match
    entry's every card ("K♦ (0), K♠♥♣ (13)"), else the groups the entry measures ("K♦ (0)";
    "2♠♥♣ (2), 2♦ (-10)" when it is one decision for both)."""
    if table == "power":
        return RANK_NAMES[rank] + power_suits(rules, rank)
    if table in SAY_TABLES:
        return ", ".join(g.label for g in card_groups(rules, rank))
    return ", ".join(g.label for g in split_groups(rules, rank)[0])


def entry_name(rules: Rules, table: str, rank: int) -> str:
    """A rank's entry in a rule of thumb: the rank ("K", said "kings"), or the one group of
    its cards that the entry measures ("K♦")."""
    if table == "power":
        return entry_cards(rules, table, rank)
    if table in SAY_TABLES:
        return RANK_NAMES[rank]
    measured = split_groups(rules, rank)[0]
    return measured[0].name if len(measured) == 1 else RANK_NAMES[rank]


# ---- measuring ---------------------------------------------------------------------------------
class _Measurer:
    """Plays candidate specs on deals 0 .. deals-1 (every seating against the field) and keeps
    each answer on disk, keyed by the spec."""

    def __init__(self, rules, players, seed, deals, threads, store: ShardStore, progress,
                 field: str):
        self.rules, self.players, self.deals = rules, players, deals
        self.store = store
        self.opponents = [resolve(field)] * (players - 1)
        # a field of networks or of a policy file plays through its compiled user policy
        self.objective = TableObjective(rules, players, [], self.opponents, seed, threads,
                                        user=user_policy(self.opponents), progress=progress)
        self.loaded = 0
        self.progress = progress
        self.capped = [0, 0]   # rounds at the turn cap, rounds: of those whose count is known
        self.builds: set[str] = set()   # the builds the measurements play on

    def __enter__(self):
        self.objective.__enter__()
        return self

    def __exit__(self, *exc):
        self.objective.__exit__(*exc)

    def observe(self, spec: str, field: str | None = None) -> np.ndarray:
        """(deals, 2): the guided player's win share and score per deal, over the seatings;
        against the field, or with ``field`` every other seat playing that strategy."""
        text = f"{spec}|0|{self.deals}" if field is None else \
            f"{spec}|field={field}|0|{self.deals}"
        key = hashlib.sha256(text.encode()).hexdigest()[:20]
        path = self.store.dir / f"measure-{key}.npy"
        capped_path = path.with_name(f"capped-{path.name}")   # written first, as in tune
        self.objective.grid = [Candidate((), resolve(spec))]
        self.objective.opponents = self.opponents if field is None else \
            [resolve(field)] * (self.players - 1)
        self.builds.add(self.objective.build())
        if path.exists():
            try:
                o = np.load(path, allow_pickle=False)
                if o.shape == (self.deals, 2):
                    self.loaded += 1
                    if self.progress is not None:
                        self.progress(self.deals * self.players)
                    if capped_path.exists():
                        self._add(np.load(capped_path, allow_pickle=False))
                    return o
            except Exception:  # noqa: BLE001 - an unreadable file is simply played again
                self.store.notes.append(f"{path.name} is unreadable; playing it again")
        self.objective.capped.clear()
        o = np.asarray(self.objective(0, 0, self.deals), dtype=np.float64)
        counts = np.array(self.objective.capped.get(0, [0, 0]))
        save_npy_atomic(capped_path, counts)
        save_npy_atomic(path, o)
        self._add(counts)
        return o

    def _add(self, counts) -> None:
        self.capped[0] += int(counts[0])
        self.capped[1] += int(counts[1])


def _paired(x: np.ndarray, y: np.ndarray) -> stats.Interval:
    d = x - y
    return stats.paired_interval(d.sum(axis=0), (d * d).sum(axis=0), d.shape[0])


def _win_and_score(oa: np.ndarray, ob: np.ndarray) -> tuple[stats.Interval, stats.Interval]:
    """The paired differences a - b of two observations (``_Measurer.observe``): in win
    share and in mean score."""
    d = _paired(oa, ob)
    return tuple(stats.Interval(*(np.asarray(v)[k] for v in (d.mean, d.se, d.lo, d.hi)))
                 for k in (0, 1))


def _entry(m: _Measurer, table, row, situation, a, b, spec_a, spec_b, current) -> Entry:
    """``a`` against ``b``; ``current``: the option the tables hold now (a, b, or EITHER for
    a power entry), kept unless the other wins clearly (by more than ADOPT_Z standard
    errors)."""
    oa, ob = m.observe(spec_a), m.observe(spec_b)
    win, score = _win_and_score(oa, ob)
    clear = bool(win.lo > 0 or win.hi < 0)   # the interval is mean ± ADOPT_Z se
    chosen = (a if win.mean > 0 else b) if clear else current
    return Entry(table, row, situation, a, b, m.deals, win, score, chosen, clear,
                 (oa - ob)[:, 0])


def _say_entry(m: _Measurer, params: dict, table: str, rank: int, situation: str) -> Entry:
    """An entry of a table whose third version is greedy's rule (SAY_TABLES): the tables
    that always take its first option for the rank against those that always take the
    second; a clear winner is kept in ``params``, else greedy's rule stays (EITHER)."""
    first, second = SAY_TABLES[table][:2]
    prefix = SAY_PARAMS[(table, situation)]
    use, skip = f"{prefix}_use", f"{prefix}_skip"
    a, b = ({**params, use: with_bit(params[use], rank, on),
             skip: with_bit(params[skip], rank, not on)} for on in (True, False))
    e = _entry(m, table, RANK_NAMES[rank], situation, first, second, spec_of(a), spec_of(b),
               EITHER)
    params[use] = with_bit(params[use], rank, e.chosen == e.a)
    params[skip] = with_bit(params[skip], rank, e.chosen == e.b)
    return e


def _threshold(m: _Measurer, params, name, values, field=None) -> Threshold:
    values = [float(v) for v in values]
    obs = [m.observe(spec_of({**params, name: v}), field)[:, 0] for v in values]
    o = np.column_stack(obs)
    n = o.shape[0]
    win = stats.mean_interval(o.sum(axis=0), (o * o).sum(axis=0), n)
    best = int(np.argmax(win.mean))
    diff = _paired(o, o[:, [best]])
    p = paired_p(diff, np.full(len(values), n))
    p[best] = np.nan
    same = ~(holm(p) <= 0.05)
    return Threshold(name, values, win, diff, same, values[best])


def threshold_values(rules: Rules, table: str) -> list[float]:
    """The thresholds swept: the grid and "no limit" (out) or "never" (knock, unless only a
    knock can end the round)."""
    if table == "out":
        return [float(v) for v in OUT_GRID] + [NO_LIMIT]
    never = [] if field_strategy(rules) == "knock-threshold" else [NEVER_KNOCK]
    return [float(v) for v in KNOCK_GRID] + never


def _self_play_threshold(m: _Measurer, rules, params, name) -> Threshold:
    """The threshold swept against a field that plays the guide (its tables as they stand),
    replying to the field's threshold until the best reply is the field's own (SWEEPS at
    most). ``params[name]`` ends at the last sweep's best."""
    values = threshold_values(rules, name)
    start = params[name]
    for sweep in range(1, SWEEPS + 1):
        field_value = params[name]
        field = spec_of(params)
        th = _threshold(m, params, name, values, field)
        th.field, th.field_value, th.start, th.sweeps = field, field_value, start, sweep
        th.settled = th.best == field_value
        params[name] = th.best
        if th.settled:
            break
    return th


def applicable(rules: Rules, players: int) -> dict[str, bool]:
    return {
        # which cards one sees first matters for the pairs or lines they may start
        "reveal": rules.initial_reveal_mode in ("flip", "peek") and
        rules.initial_reveal_count >= 2 and rules.grid_rows >= 2 and
        rules.initial_reveal_constraint == "any" and rules.layout_mode == "grid" and
        (rules.pair_scope != "none" or has_lines(rules)),
        "take": bool(rules.draw_from_discard),
        "keep": bool(rules.stock_draw_may_be_discarded),
        # a kept card over a face-down card rather than a face-up one: not a choice where
        # every card stays face down
        "down": rules.placement_face != "down",
        "out": any(t in ("all_face_up", "all_players_face_up") for t in rules.end_triggers),
        # the call of the power-card games is their knock
        "knock": bool({"knock", "call"} & set(rules.end_triggers)),
        "power": bool(power_ranks(rules)),
    }


def steps(rules: Rules, players: int) -> list[tuple]:
    """The entries in the order they are settled: (table, rank, situation) or (table,)."""
    use = applicable(rules, players)
    out: list[tuple] = []
    if use["reveal"]:
        out.append(("reveal",))
    keys = [s for s, _ in situations(rules)]
    tables = [t for t in ("take", "keep") if use[t]]
    # the line entries first, joining a line before completing one (see default_params)
    ranks = placeable_ranks(rules)
    for s in ("line2", "line3"):
        if s in keys:
            out += [(t, r, s) for t in tables for r in ranks]
    for table in tables:
        out += [(table, r, s) for s in keys if s not in LINE_SITUATIONS for r in ranks]
    if use["down"]:
        out += [("down", r, PLACE_SITUATION[0]) for r in ranks]
    if use["power"]:   # after the keep table, which decides whether a card is not kept
        out += [("power", r, "") for r in power_ranks(rules)]
    out += [(table, r, s) for table, s in say_situations(rules) for r in ranks_in_play(rules)]
    for table in ("out", "knock"):
        if use[table]:
            out.append((table,))
    return out


def rounds_planned(rules: Rules, players: int, deals: int, check_rounds: int,
                   compare_rounds: int, n_compare_rule_sets: int) -> int:
    """An upper bound of the rounds a guide plays (for the progress bar)."""
    per = deals * players
    n = 0
    for st in steps(rules, players):
        if st[0] not in ("out", "knock"):
            n += 2 * per
        else:
            n += SWEEPS * len(threshold_values(rules, st[0])) * per
    n += 2 * per * sum(not c.moot for c in claims(rules, default_params(rules)))
    seat_count = len(tour.seatings(players))
    n += -(-check_rounds // seat_count) * seat_count
    n += compare_rounds * n_compare_rule_sets * 2
    return n


def manifest(rules: Rules, players: int, seed: int, deals: int, field: str | None = None) -> dict:
    return {"command": "guide", "rules": rules.to_toml(), "players": players,
            "seed": int(seed), "deals": int(deals), "field": field or field_strategy(rules),
            "adopt_z": ADOPT_Z, "out_grid": list(OUT_GRID), "knock_grid": list(KNOCK_GRID),
            "threshold_field": "the guide", "sweeps": SWEEPS}


def _open_store(out_dir: Path, kept: dict, fresh: bool) -> ShardStore:
    """The guide's measurements kept in ``out_dir`` (its manifest ``kept``), emptied first
    when ``fresh``; GuideError when another guide's are there."""
    store = ShardStore(out_dir)
    if fresh:   # before the manifest changes: the files are named without the seed, so a kill
        # between the two must not leave another seed's measurements under this manifest
        for pattern in ("measure-*.npy", "capped-measure-*.npy"):
            for old in store.dir.glob(pattern):
                old.unlink()
    try:
        store.open(kept, fresh=fresh)
    except ShardError as e:
        raise GuideError(str(e).replace("comparison", "guide")) from None
    return store


def build(rules: Rules, preset: str, players: int, seed: int, deals: int, out_dir,
          threads: int = 1, check_rounds: int = 100_000, compare_rounds: int = 20_000,
          varies=DEFAULT_VARIES, fresh: bool = False, progress=None,
          field: str | None = None) -> GuideResult:
    """Measure every entry against ``field`` (default field_strategy: greedy, or
    knock-threshold), check the finished guide against it and measure the house-rule
    effects. Raises GuideError, ShardError (another guide in ``out_dir``), RuleError,
    runner.PolicyError, KeyboardInterrupt (what was measured stays on disk)."""
    rules.check_players(players)
    if players < 2:
        raise GuideError(f"--players {players}: a guide needs at least 2 players")
    if deals < 100:
        raise GuideError(f"--deals {deals}: at least 100 deals per decision are needed")
    t0 = time.perf_counter()
    out_dir = Path(out_dir)
    field = field or field_strategy(rules)
    store = _open_store(out_dir, manifest(rules, players, seed, deals, field), fresh)
    params = default_params(rules)
    entries: list[Entry] = []
    thresholds: list[Threshold] = []
    with _Measurer(rules, players, seed, deals, threads, store, progress, field) as m:
        for st in steps(rules, players):
            table = st[0]
            if table == "reveal":
                a_p, b_p = {**params, "reveal": 1.0}, {**params, "reveal": 2.0}
                e = _entry(m, "reveal", "first cards", "", "different columns",
                           "same column", spec_of(a_p), spec_of(b_p), "different columns")
                params["reveal"] = 1.0 if e.chosen == e.a else 2.0
                entries.append(e)
            elif table in TABLES:
                _, rank, situation = st
                verb_a, verb_b, prefix, _ = TABLES[table]
                if situation in LINE_SITUATIONS:
                    verb_b = IGNORE
                name = prefix if table == "down" else f"{prefix}_{situation}"
                on = {**params, name: with_bit(params[name], rank, True)}
                off = {**params, name: with_bit(params[name], rank, False)}
                current = verb_a if (int(params[name]) >> rank) & 1 else verb_b
                e = _entry(m, table, RANK_NAMES[rank], situation, verb_a, verb_b,
                           spec_of(on), spec_of(off), current)
                params[name] = with_bit(params[name], rank, e.chosen == verb_a)
                entries.append(e)
            elif table in SAY_TABLES:
                entries.append(_say_entry(m, params, *st))
            elif table in ("out", "knock"):
                thresholds.append(_self_play_threshold(m, rules, params, table))
        advice = _measure_claims(m, rules, params)
        measured, builds = m.capped, m.builds
    spec = spec_of(params)
    check = None
    if check_rounds > 0:
        check = _cached_check(store, rules, players, spec, field, check_rounds, seed, threads,
                              progress)
    comparison = None
    if compare_rounds > 0 and varies:
        comparison = _house_rules(rules, preset, players, spec, field, varies, compare_rounds,
                                  seed, threads, out_dir, fresh, progress, store.notes)
    warnings = [w for w in [capped_warning(*measured, rules, ["guide", field],
                                           " while measuring the decisions")] if w]
    warnings += tour.warnings(check) if check is not None else []
    warnings += cmp.warnings(comparison) if comparison is not None else []
    builds |= {part.build for part in (check, comparison) if part is not None}
    return GuideResult(rules, preset, players, int(seed), deals, entries, thresholds, spec,
                       field, check, comparison, time.perf_counter() - t0, store.notes,
                       warnings, advice, runner.builds_text(builds))


# ---- what players say ----------------------------------------------------------------------
TWO, KING = RANK_NAMES.index("2"), RANK_NAMES.index("K")
UNPAIRED = ("early", "late", "last")   # the situations of a card that pairs nothing


def _masks(rules: Rules, tables, keys) -> list[str]:
    """The rank tables' parameters for ``tables`` (take, keep) in those of the situations
    ``keys`` that the rules have."""
    use = applicable(rules, 2)
    have = {s for s, _ in situations(rules)}
    return [f"{TABLES[t][2]}_{k}" for t in tables if use[t] for k in keys if k in have]


def _with_ranks(params: dict, names, ranks, on: bool) -> dict:
    out = dict(params)
    for name in names:
        for r in ranks:
            out[name] = with_bit(out[name], r, on)
    return out


def _rank_claim(params, key, words, names, ranks, follow_on: bool, moot: str) -> Claim:
    """Advice about ranks: the tables ``names`` holding ``ranks`` (``follow_on``) or not."""
    if not names:
        return Claim(key, *words, moot=moot)
    specs = tuple(spec_of(_with_ranks(params, names, ranks, on))
                  for on in (follow_on, not follow_on))
    return Claim(key, *words, specs)


def _ending_claim(rules: Rules, params: dict) -> Claim:
    advice = ("Do not go out unless you are clearly lowest, where the player who ends the "
              "round is penalised unless lowest")
    if rules.ender_penalty == "none":
        return Claim("ender", advice, "", "", moot="the player who ends the round is not "
                     "penalised")
    use = applicable(rules, 2)
    name, bold = ("out", NO_LIMIT) if use["out"] else ("knock", BOLD_KNOCK)
    verb = "go out" if name == "out" else knock_words(rules)[0]
    return Claim("ender", advice,
                 f"{verb} only when your score would be at most {CAUTIOUS_END:g}",
                 f"{verb} whenever you can" if name == "out" else
                 f"{verb} when your estimated score is at most {bold:g}",
                 (spec_of({**params, name: CAUTIOUS_END}), spec_of({**params, name: bold})))


def _jokers_note(rules: Rules, what: str) -> str:
    return "" if rules.has_jokers else f" (no jokers in this deck: the {what} alone)"


def _low_ranks(rules: Rules) -> list[int]:
    """The 2s and the jokers in play (the cards players keep)."""
    return [TWO] + ([RANK_JOKER] if rules.has_jokers else [])


def _free_words(rules: Rules, one: bool = False) -> str:
    """Where cards (``one``: a card) cancel nothing, in words ("" where nothing cancels)."""
    lead, pair, build = (" that", "pairs", "builds") if one else (" where they", "pair", "build")
    if rules.pair_scope != "none":
        return f"{lead} {pair} nothing"
    return f"{lead} {build} no {line_word(rules)}" if has_lines(rules) else ""


def _cancel_words(rules: Rules) -> dict[str, str]:
    """The advice about cards that cancel, as it applies where pairs or lines of three do."""
    if rules.pair_scope != "none":
        return {"never": "Never pair 2s or jokers: a pair of them scores 0, losing their value",
                "kings": ", and pair them", "take": "Take a discard that completes a pair"}
    line = line_word(rules)
    return {"never": f"Never build a {line} of 2s or jokers: it scores 0, losing their value",
            "kings": f", and build {line}s of them",
            "take": f"Take a discard that completes a {line} of three"}


def _cancel_claims(rules: Rules, params: dict) -> list[Claim]:
    """The advice about cards that cancel: none where nothing does (the page says so)."""
    if rules.pair_scope == "none" and not has_lines(rules):
        return []
    pairs = rules.pair_scope != "none"
    keys = ["pair"] if pairs else list(LINE_SITUATIONS)
    return [
        _rank_claim(params, "never_pair_twos", (
            _cancel_words(rules)["never"] + _jokers_note(rules, "twos"),
            "never take or keep them where they would " +
            ("pair one of your cards" if pairs else f"build a {line_word(rules)}"),
            "take and keep them there"),
            _masks(rules, ("take", "keep"), keys), _low_ranks(rules), False, NO_DISCARD),
        _rank_claim(params, "take_pair", (
            _cancel_words(rules)["take"],
            "take any discard that pairs one of your cards" if pairs else
            f"take any discard that completes a {line_word(rules)} of three",
            "draw from the stock instead"),
            _masks(rules, ("take",), keys[:1]), ranks_in_play(rules), True, NO_DISCARD),
    ]


def claims(rules: Rules, params: dict) -> list[Claim]:
    """The common advice of Golf players as comparisons the guide can play: the tables
    ``params`` set to follow each piece of advice against the same tables set to break it
    (where the tables cannot say it, two built-in players), or why it does not apply."""
    cancel = {c.key: c for c in _cancel_claims(rules, params)}
    free = _free_words(rules)
    every = ["pair"] + list(LINE_SITUATIONS) + list(UNPAIRED)
    keep_words = "take and keep {}" + free + " (when they lower your score)"
    out = [
        _rank_claim(params, "keep_twos", (
            "Keep 2s and jokers" + _jokers_note(rules, "twos"), keep_words.format("them"),
            "never take or keep them" + free),
            _masks(rules, ("take", "keep"), UNPAIRED), _low_ranks(rules), True, NO_DISCARD),
        cancel.get("never_pair_twos"),
        _rank_claim(params, "kings", (
            "Kings are safe: keep them" + (_cancel_words(rules)["kings"] if cancel else ""),
            "take and keep kings in every situation (when they lower your score)",
            "never take or keep them"),
            _masks(rules, ("take", "keep"), every), [KING], True, NO_DISCARD),
        _rank_claim(params, "replace_mid", (
            "Replace 6s and 7s when you can",
            keep_words.format("4s and 5s")[:-1] + ": over a 6 or a 7, say)",
            "never take or keep them" + free + ": wait for a lower card"),
            _masks(rules, ("take", "keep"), UNPAIRED), [3, 4], True, NO_DISCARD),
        _high_first_claim(rules, params),
        _rank_claim(params, "take_kings", (
            "Always take a joker or a king from the discard pile"
            + _jokers_note(rules, "kings"),
            "take them in every situation (when they lower your score)",
            "draw from the stock instead"),
            _masks(rules, ("take",), every), [KING] + _low_ranks(rules)[1:], True, NO_DISCARD),
        cancel.get("take_pair"),
        _ending_claim(rules, params),
        Claim("watch_next", "Watch what the next player collects, and do not discard it to "
              "them", "the baseline player that also holds back a card of a rank the next "
              "player is collecting, when that costs it at most 3 points of estimated score",
              "the baseline player", ("opponent-aware", "greedy"),
              moot="" if rules.draw_from_discard else NO_DISCARD),
    ]
    return [c for c in out if c is not None]


def _high_first_claim(rules: Rules, params: dict) -> Claim:
    advice = "Replace 8s to queens first"
    if not applicable(rules, 2)["down"]:
        return Claim("high_first", advice, "", "", moot="every card stays face down")
    return Claim("high_first", advice,
                 f"put a kept card{_free_words(rules, one=True)} where it saves "
                 "most (over your highest face-up card, an 8 to a queen when you have one)",
                 "put it over a face-down card",
                 (spec_of({**params, "down": 0.0}), spec_of({**params, "down": float(ALL_RANKS)})))


def _measure_claims(m: _Measurer, rules: Rules, params: dict) -> list[Claim]:
    out = claims(rules, params)
    for c in out:
        if not c.moot:
            c.win, c.score = _win_and_score(m.observe(c.specs[0]), m.observe(c.specs[1]))
            c.deals = m.deals
    return out


CHECK_SEED_OFFSET = 1_000_003   # the check plays other deals than the measurements


def other_seed(seed: int, k: int) -> int:
    """The seed of the guide's k-th other set of deals (1: the check, 2: the house rules):
    ``seed + k * CHECK_SEED_OFFSET``, wrapped to stay a seed (0 .. 2^63 - 1) for any seed."""
    return (int(seed) + k * CHECK_SEED_OFFSET) % 2**63


def _cached_check(store, rules, players, spec, field, rounds, seed, threads, progress):
    """The tournament of the finished guide against greedy on other deals; its estimates are
    kept in ``shards/check-<key>.json`` so that a rerun does not play it again."""
    key = hashlib.sha256(f"{spec}|{field}|{rounds}|{seed}".encode()).hexdigest()[:20]
    path = store.dir / f"check-{key}.json"
    if path.exists():
        try:
            return _tournament_from_json(json.loads(path.read_text()), rules)
        except (OSError, ValueError, KeyError, TypeError):
            store.notes.append(f"{path.name} is unreadable; playing the check again")
    result = tour.play(rules, players, [spec, field], rounds, other_seed(seed, 1),
                       threads=threads, progress=progress)
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(_tournament_json(result)))
    return result


def _est(e: tour.Estimate) -> list[float]:
    return [e.mean, e.se]


def _tournament_json(r: tour.TournamentResult) -> dict:
    return {"players": r.players, "strategies": r.strategies, "seed": r.seed,
            "rounds_requested": r.rounds_requested, "rounds_per_seating": r.rounds_per_seating,
            "seatings": [list(s) for s in r.seatings], "seconds": r.seconds, "order": r.order,
            "win": [_est(e) for e in r.win], "score": [_est(e) for e in r.score],
            "pairings": [{"a": p.a, "b": p.b, "rounds": p.rounds,
                          "win": [_est(e) for e in p.win],
                          "score": [_est(e) for e in p.score],
                          "score_diff": _est(p.score_diff), "capped": p.capped}
                         for p in r.pairings]}


def _tournament_from_json(d: dict, rules: Rules) -> tour.TournamentResult:
    E = tour.Estimate
    pairings = [tour.PairingResult(p["a"], p["b"], p["rounds"],
                                   tuple(E(*e) for e in p["win"]),
                                   tuple(E(*e) for e in p["score"]), E(*p["score_diff"]),
                                   p.get("capped", 0))   # not kept by older versions
                for p in d["pairings"]]
    return tour.TournamentResult(rules, d["players"], d["strategies"], d["seed"],
                                 d["rounds_requested"], d["rounds_per_seating"],
                                 [tuple(s) for s in d["seatings"]], pairings,
                                 [E(*e) for e in d["win"]], [E(*e) for e in d["score"]],
                                 d["seconds"], d["order"])


def _house_rules(rules, preset, players, spec, field, varies, rounds, seed, threads, out_dir,
                 fresh, progress, notes):
    usable = []
    for v in varies:
        try:
            cmp.make_plan(rules, preset, [v], "one-at-a-time", [field], players, seed)
            usable.append(v)
        except ValueError as e:   # an option this rule set cannot vary: say so, go on
            notes.append(f"house rule {v!r} left out: {e}")
    if not usable:
        return None
    plan = cmp.make_plan(rules, preset, usable, "one-at-a-time", [spec, field], players,
                         other_seed(seed, 2))
    try:
        ShardStore(out_dir / "compare").check(plan.manifest(), fresh)
    except ShardError:   # the guide's own comparison of other house rules: replaced
        notes.append("the house-rule comparison kept in compare/ was of other house rules; "
                     "played again")
        fresh = True
    return cmp.run(plan, out_dir / "compare", rounds=rounds, threads=threads, fresh=fresh,
                   progress=progress)
