"""Rule sets: one frozen, validated object per rule set, named presets, TOML files, and the
flattening into arrays that the compiled kernel reads at run time.

Option names are those of docs/rules.md#rule-options, where dots became underscores
(``initial_reveal.mode`` is ``initial_reveal_mode``; both spellings are accepted wherever a user
types an option).
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from . import cards as C
from . import codes as K
from .effects import COMBINABLE, effect_of, ranks_with_powers


class RuleError(ValueError):
    """A rule set or option value that cannot be played; the message is one user-facing line."""


def _opt(default, doc: str, allowed=None, lo=None, hi=None, nullable=False, supported=None):
    return field(default=default, metadata={"doc": doc, "allowed": allowed, "lo": lo, "hi": hi,
                                            "nullable": nullable, "supported": supported})


VALUE_SCHEMES = ("basic", "six_card", "harder", "whitnack", "fuchs_nines", "malaysia", "pablo",
                 "cumbia", "cabo", "cactus")
# rank -> value for A..K, then the joker (None: the table has no joker value)
SCHEME_TABLES = {
    "basic": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, None),
    "six_card": (1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, None),
    "harder": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, None),
    "whitnack": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, -5),
    "fuchs_nines": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 0, 10, -2),
    "malaysia": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 10),
    "pablo": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, -5),
    "cumbia": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, None),
    "cabo": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, None),
    "cactus": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, None),
}
# the red king of the Dutch powers table, a value rule rather than an action
DUTCH_RED_KING = -1
JOKER_PLUS15 = "plus15_pair_minus5"
JOKER_EAGLE = "plus2_pair_minus4"
# value_joker values that give a joker one value alone and another, for the two, when two
# jokers pair: (alone, pair)
JOKER_PAIR_SCHEMES = {JOKER_PLUS15: (15, -5), JOKER_EAGLE: (2, -4)}


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set for one hole of the Golf family. Defaults are preset ``six_card``."""

    players_min: int = _opt(2, "fewest players the rule set is played with", lo=2, hi=K.MAX_PLAYERS)
    players_max: int = _opt(6, "most players (more decks are added by deck_thresholds)", lo=2,
                            hi=K.MAX_PLAYERS)
    decks: int = _opt(0, "52-card decks shuffled together; 0 = by deck_thresholds", lo=0, hi=8)
    deck_thresholds: tuple = _opt(((2, 1), (5, 2), (9, 3)),
                                  "(players, decks) steps used when decks = 0")
    jokers_per_deck: int = _opt(0, "jokers added per deck", allowed=(0, 2))
    joker_count: int | None = _opt(None, "jokers in the whole deck whatever the number of "
                                   "decks, all in the first, instead of jokers_per_deck "
                                   "(which must then be 0; none: jokers_per_deck in each)",
                                   lo=0, hi=2, nullable=True)
    bonus_card: str = _opt("none", "cards worth -2 standing in for jokers",
                           allowed=("none", "twos", "one_eyed_jacks"))
    layout_mode: str = _opt("grid", "how a layout is laid out (hand: an unordered hand of "
                            "grid_rows x grid_cols cards; row: grid_cols cards side by side, "
                            "with grid_rows = 1)", allowed=("grid", "hand", "row"))
    grid_rows: int = _opt(2, "rows of the layout grid", lo=1, hi=3)
    grid_cols: int = _opt(3, "columns of the layout grid", lo=1, hi=5)
    initial_discard: str = _opt("turn_up", "how the discard pile starts (none: empty, the "
                                "first player must draw from the stock)",
                                allowed=("turn_up", "none"))
    initial_reveal_mode: str = _opt("flip", "what players see before play",
                                    allowed=K.REVEAL_MODES)
    initial_reveal_count: int = _opt(2, "cards flipped or peeked before play (-1 = a whole row)",
                                     lo=-1, hi=4)
    initial_reveal_constraint: str = _opt("any", "which cards may be revealed",
                                          allowed=K.REVEAL_CONSTRAINTS)
    initial_reveal_sequential: bool = _opt(True, "choose the next card after seeing the last")
    initial_reveal_order: str = _opt("turn_order", "reveal seat by seat or all at once",
                                     allowed=K.REVEAL_ORDERS)
    rearrange_after_reveal: bool = _opt(False, "after the initial flips each player moves its "
                                        "face-up cards where it likes (the face-down cards "
                                        "fill the places they leave, unseen)")
    placement_face: str = _opt("up", "face of a card placed into the layout",
                               allowed=K.PLACEMENT_FACES)
    draw_from_discard: bool = _opt(True, "the top discard may be taken (draw_sources)")
    discard_draw_must_be_placed: bool = _opt(True, "a taken discard must go into the layout",
                                             supported=(True,))
    stock_draw_may_be_discarded: bool = _opt(True, "a stock card may be discarded unplaced")
    replace_face_up_allowed: bool = _opt(True, "face-up cards may be replaced")
    lock_face_up_columns: bool = _opt(False, "a column with both cards face up is locked")
    replace_unseen_once: bool = _opt(False, "a position its owner had not seen when play began "
                                     "takes at most one replacement in the hole (positions "
                                     "seen at the start: no limit)")
    blind_replacement: bool = _opt(True, "a face-down card cannot be looked at before it is "
                                   "replaced (touching it commits); false: holding a card, a "
                                   "player may first look at one of its unknown face-down "
                                   "cards, then place or discard")
    private_stock_draw: bool = _opt(True, "a card drawn from the stock is seen only by the "
                                    "drawer (false: everyone sees it, and knows it when it is "
                                    "placed face down)")
    flip_instead_of_draw: bool = _opt(False, "a turn may be just turning one card face up")
    flip_after_stock_discard: str = _opt("none", "flip a card after discarding a stock card",
                                         allowed=K.FLIP_AFTER_DISCARD)
    flip_all_to_end: bool = _opt(False, "a turn may turn every face-down card up, ending the hole")
    flip_all_max_face_down: int | None = _opt(None, "flip_all_to_end only with at most this many "
                                              "face-down cards (none: any number)", lo=1,
                                              hi=K.MAX_POS, nullable=True)
    end_triggers: tuple = _opt(("all_face_up",), "what ends a hole", allowed=K.END_TRIGGERS)
    knock_exclusive: bool = _opt(True, "nobody may knock once someone has knocked (the rules "
                                 "give a second knock no effect, so only true is played)",
                                 supported=(True,))
    knock_min_laps: int = _opt(0, "laps to complete before anyone may knock", lo=0, hi=100)
    pay_to_peek: int | None = _opt(None, "points one look at an own face-down card costs "
                                   "(during your turn, before drawing)", lo=0, hi=100,
                                   nullable=True)
    jack_discard_skips_next: bool = _opt(False, "a jack put on the discard pile skips the "
                                         "next player's turn")
    reveal_on_trigger: bool = _opt(False, "when the end is triggered the others turn their "
                                   "cards face up at once")
    owner_view: str = _opt("none", "what owners may look at during play (memory is perfect, "
                           "so none = initially_peeked)",
                           allowed=("none", "initially_peeked", "all"))
    knock_timing: str = _opt("instead_of_turn", "when a knock is made: instead of a turn, right "
                             "after one's own turn, or either (AMB-12)", allowed=K.KNOCK_TIMINGS)
    final_turns: str = _opt("each_other_player_once", "turns played after the end is triggered",
                            allowed=K.FINAL_TURNS)
    final_turn_stock_only: bool = _opt(False, "final turns may only draw from the stock")
    stock_empty: str = _opt("reshuffle_keep_top", "what happens when the stock runs out",
                            allowed=K.STOCK_EMPTY)
    remove_cancelled: str = _opt("never", "a completed cancelling group (a pair-column of a "
                                 "2-row grid, a line or 2x2 block of a 3x3 grid), all face up, "
                                 "leaves the layout for the bottom of the discard pile: never, "
                                 "when its owner chooses (asked as it forms, and again at its "
                                 "turns), or at once; its value is banked and the positions "
                                 "stay empty", allowed=K.REMOVE_CANCELLED)
    turn_cap: int = _opt(400, "safety cap: a hole ends after this many turns", lo=1, hi=100000)
    value_scheme: str = _opt("six_card", "named card-value table", allowed=VALUE_SCHEMES)
    value_two: int | None = _opt(None, "value of a two (None = from the table)",
                                 allowed=(-2, 2), nullable=True)
    twos_positive_with_jokers: bool = _opt(False, "twos become +2 when jokers are in play")
    value_jack: int | None = _opt(None, "value of a jack", allowed=(10, 11, 0, 20), nullable=True)
    value_queen: int | None = _opt(None, "value of a queen", allowed=(10, 12, 13, 20, 0),
                                   nullable=True)
    value_king: int | None = _opt(None, "value of a king", allowed=(0, 13, 10, -2),
                                  nullable=True)
    value_ten: int | None = _opt(None, "value of a ten", allowed=(10, 1), nullable=True)
    value_queen_of_spades: int | None = _opt(None, "value of the queen of spades",
                                             allowed=(40,), nullable=True)
    value_eight: int | None = _opt(None, "value of an eight", allowed=(8, 0), nullable=True)
    value_red_king: int | None = _opt(None, "value of a red king (None: the table's, or -1 "
                                      "under power_set = dutch)", allowed=(-1, -5, 0, 10, 13),
                                      nullable=True)
    value_black_king: int | None = _opt(None, "value of a black king", allowed=(0,),
                                        nullable=True)
    value_king_of_diamonds: int | None = _opt(None, "value of the king of diamonds", allowed=(0,),
                                              nullable=True)
    value_two_of_diamonds: int | None = _opt(None, "value of the two of diamonds",
                                             allowed=(-10,), nullable=True)
    value_joker: Any = _opt(None, "value of a joker (None = the table's, else -2; "
                            f"{JOKER_PLUS15}: +15 alone, two that pair -5 together; "
                            f"{JOKER_EAGLE}: +2 alone, two that pair -4 together)",
                            allowed=(-2, -3, -4, -5, 0, 10, JOKER_PLUS15, JOKER_EAGLE),
                            nullable=True)
    one_eyed_jacks: str = _opt("normal", "treatment of J♠ and J♥ (wild: after the natural "
                               "pairs, each may pair with one unpaired related card, the pair "
                               "scoring 0, when that lowers the layout: step (d) of "
                               "docs/rules.md#how-a-layout-is-scored)",
                               allowed=("normal", "wild", "zero", "bonus"))
    match_key: str = _opt("rank", "what makes two cards equal for pairing", allowed=K.MATCH_KEYS)
    pair_scope: str = _opt("column", "where equal cards cancel", allowed=K.PAIR_SCOPES)
    line_sets: str = _opt("none", "3x3 grids: which complete lines of three equal cards score 0",
                          allowed=K.LINE_SETS)
    overlap_rule: str = _opt("union", "3x3: a card in any completed line or counted block "
                             "scores 0 (union), or completed lines and blocks leave the layout "
                             "as they form (remove_immediately, which is remove_cancelled = "
                             "immediate)", allowed=("union", "remove_immediately"))
    negative_pairs_keep_value: bool = _opt(False, "a pair of negative cards keeps its value")
    quad_two_columns_value: int | None = _opt(None, "four equal cards in two pair-columns score",
                                              allowed=(0, -10, -20), nullable=True)
    quad_two_columns_adjacent_only: bool = _opt(False, "the two quad columns must be adjacent")
    quad_apart_value: int | None = _opt(None, "two pair-columns of one key that are not side by "
                                        "side score this instead (none: as "
                                        "quad_two_columns_value says)", allowed=(-5,),
                                        nullable=True)
    joker_quad_value: int | None = _opt(None, "two pair-columns of jokers side by side score "
                                        "(before any other quad rule)", allowed=(-50,),
                                        nullable=True)
    joker_quad_apart_value: int | None = _opt(None, "two pair-columns of jokers not side by "
                                              "side score", allowed=(-20,), nullable=True)
    jack_pairs_bonus: int = _opt(0, "added once to a layout holding two or more pair-columns of "
                                 "jacks (on top of their own scores)", allowed=(0, -5, -20))
    quad_others_penalty: int = _opt(0, "others add this when someone scores a quad",
                                    allowed=(0, 10))
    block_2x2_value: int | None = _opt(None, "four equal cards in a 2x2 square score",
                                       allowed=(-20, -25), nullable=True)
    six_of_kind_value: int | None = _opt(None, "six equal cards score", allowed=(-20,),
                                         nullable=True)
    negative_quad_value: int | None = _opt(None, "four equal negative cards in two columns score",
                                           allowed=(-20,), nullable=True)
    shoot_the_moon: int | None = _opt(None, "a layout worth exactly this scores 0, others +it",
                                      allowed=(60,), nullable=True)
    twenty_one_scores_zero: bool = _opt(False, "a layout worth exactly 21 is worth 0 (before "
                                        "every hole rule)")
    lowest_scores_zero: bool = _opt(False, "the lowest layout of the hole scores 0")
    ender_penalty: str = _opt("none", "ender's score when not lowest", allowed=K.ENDER_PENALTIES)
    ender_bonus: str = _opt("none", "ender's score when lowest", allowed=K.ENDER_BONUSES)
    ender_tie: str = _opt("neutral", "how a tie for lowest counts for the ender",
                          allowed=K.ENDER_TIES)
    ender_rule_applies_to: str = _opt("any_ender", "who the ender rules apply to",
                                      allowed=K.ENDER_APPLIES)
    ender_clamp: bool = _opt(True, "ender_penalty never lowers the ender's score and "
                             "ender_bonus never raises it (false: the formula as written, "
                             "e.g. Pablo's -10 even below it, a negative highest opponent "
                             "added)")
    ender_extra: int = _opt(0, "added to the ender's hole score, lowest or not (after "
                            "ender_penalty and ender_bonus)", allowed=(0, -5))
    lowest_bonus: int = _opt(0, "added to the hole score of each player with the lowest one "
                             "(after the ender rules, lowest_scores_zero and shoot_the_moon)",
                             allowed=(0, -3))
    tie_penalty: int = _opt(0, "added to every hole score another player shares (last, after "
                            "lowest_bonus)", allowed=(0, 5))
    match_end_mode: str = _opt("holes", "how a match ends (recorded only: a run takes the "
                               "match length from --holes or --target)",
                               allowed=("holes", "target", "manual"))
    match_end_holes: int = _opt(9, "holes in a match", lo=1, hi=1000)
    match_end_target: int = _opt(100, "total that ends a match in target mode", lo=1, hi=10000)
    four_of_kind_wins_match: bool = _opt(False, "match play: a layout holding four cards of one "
                                         "rank wins the whole match at once")
    match_tie: str = _opt("share", "ties for the lowest match total: share the win, a "
                          "tiebreak (a uniformly random winner among the tied), or extra holes "
                          "until one total is lowest", allowed=K.MATCH_TIES)
    misdeal_if_card_seen: bool = _opt(True, "a player who looks at dealt cards forces a redeal "
                                      "(simulated players never look, so it changes nothing)")
    dealer_selection: str = _opt("random", "who deals a match's first hole (random: drawn per "
                                 "match; volunteer: the last seat, so seat 0 plays first)",
                                 allowed=("random", "volunteer"))
    dealer_rotation: str = _opt("left", "the deal passes to the left after every hole",
                                allowed=("left",))
    first_player: str = _opt("left_of_dealer", "who plays first in a hole (previous_hole_winner: "
                             "the previous hole's lowest scorer, the earliest in turn order on a "
                             "tie)", allowed=("left_of_dealer", "previous_hole_winner"))
    pot_enabled: bool = _opt(False, "match play: a pot every player antes into whenever it is "
                             "empty at the start of a hole; the ender takes it when lowest, "
                             "else pays in as much as it holds (AMB-38)")
    pot_ante: int = _opt(5, "each player's ante into an empty pot", lo=1, hi=10000)
    pot_cap: int | None = _opt(None, "the most won from or paid into the pot at once (none: no "
                               "cap)", lo=1, hi=1000000, nullable=True)
    # ---- power cards (docs/rules.md#power-card-games; specified by the reference engine,
    # simulator/game/powers/, played by the compiled powers build)
    power_set: str = _opt("none", "which cards have powers when drawn from the stock (the "
                          "power-card games, docs/rules.md#power-card-games; dutch: the Dutch "
                          "powers table, an "
                          "add-on to any preset, its cards chosen by dutch_powers)",
                          allowed=K.POWER_SETS)
    dutch_powers: tuple = _opt(K.DUTCH_POWER_CARDS, "power_set = dutch: the cards whose power "
                               "is enabled (K is the black king)", allowed=K.DUTCH_POWER_CARDS)
    powers_off: tuple = _opt((), "cards whose power is switched off, by rank (e.g. J, or Joker): "
                             "they play as ordinary cards (to measure what one power is "
                             "worth)", allowed=C.RANKS + ("Joker",))
    power_source: str = _opt("stock_only", "where a power may come from: only a card drawn "
                             "from the stock, or also (Cactus) the top discard whose power "
                             "nobody used, as a whole turn", allowed=K.POWER_SOURCES)
    power_card_placeable: bool = _opt(True, "a power card may be put into a layout as an "
                                      "ordinary card (false: it can only be used or "
                                      "discarded, and never taken from the discard pile, "
                                      "AMB-43)")
    snap_mode: str = _opt("none", "snapping a card onto a new top discard out of turn",
                          allowed=K.SNAP_MODES)
    snap_penalty_opponent_miss: int = _opt(0, "snap_mode = cumbia: points added to a snapper "
                                           "whose card taken from an opponent's layout does not "
                                           "match", lo=0, hi=100)
    snap_penalty_cards: int = _opt(0, "snap_mode = cactus: cards drawn from the stock, unseen, "
                                   "into the snapper's layout after a wrong snap", lo=0, hi=4)
    turn_match_mode: str = _opt("none", "matching the held card against layout cards as a "
                                "turn", allowed=K.TURN_MATCH_MODES)
    match_fail_penalty_cards: int = _opt(0, "turn_match_mode = cabo_match: cards drawn from the "
                                         "stock, unseen, into the matcher's layout for each "
                                         "nominated card that does not match", lo=0, hi=4)
    call_name: str = _opt("Knock", "what the call that ends a hole (end trigger call) is named "
                          "at the table", allowed=("Knock", "Pablo", "Cumbia", "Cabo", "Cactus"))
    non_caller_rule: str = _opt("layout_value", "what a player who did not call scores",
                                allowed=K.NON_CALLER_RULES)

    def __post_init__(self):
        for f in fields(self):
            _check_value(f, getattr(self, f.name))
        _check_combination(self)

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str, **overrides) -> "Rules":
        if name not in PRESETS:
            raise RuleError(f"unknown preset {name!r}; choose one of: {', '.join(PRESETS)}")
        values = dict(PRESETS[name])
        values.update(overrides)
        return cls.create(**values)

    @classmethod
    def create(cls, **values) -> "Rules":
        clean = {}
        for key, value in values.items():
            name = canonical_option(key)
            clean[name] = _coerce(OPTIONS[name], value)
        return cls(**clean)

    def with_options(self, **overrides) -> "Rules":
        clean = {}
        for key, value in overrides.items():
            name = canonical_option(key)
            clean[name] = _coerce(OPTIONS[name], value)
        return dataclasses.replace(self, **clean)

    def with_text_options(self, assignments: list[str]) -> "Rules":
        """Apply ``option=value`` strings as typed on a command line."""
        overrides = {}
        for item in assignments:
            if "=" not in item:
                raise RuleError(f"--set {item!r}: expected option=value, e.g. pair_scope=anywhere")
            key, text = item.split("=", 1)
            name = canonical_option(key.strip())
            overrides[name] = parse_option_text(name, text.strip())
        return self.with_options(**overrides)

    # ---- description --------------------------------------------------------------------
    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def diff(self, base: "Rules | None" = None) -> dict:
        """Options that differ from ``base`` (default: the plain ``six_card`` rules)."""
        base = base or Rules()
        return {k: v for k, v in self.as_dict().items() if getattr(base, k) != v}

    def __str__(self) -> str:
        d = self.diff()
        return "Rules(" + ", ".join(f"{k}={v!r}" for k, v in d.items()) + ")"

    @property
    def n_positions(self) -> int:
        return self.grid_rows * self.grid_cols

    def decks_for(self, players: int) -> int:
        if self.decks:
            return self.decks
        n = 1
        for min_players, count in sorted(self.deck_thresholds):
            if players >= min_players:
                n = count
        return n

    def jokers_in_copy(self, copy: int) -> int:
        """Jokers of deck copy ``copy`` (joker_count puts them all in the first copy)."""
        if self.joker_count is None:
            return self.jokers_per_deck
        return self.joker_count if copy == 0 else 0

    @property
    def red_king_value(self) -> int | None:
        """A red king's value when it differs from its rank's: the Dutch powers table makes it
        -1 (docs/rules.md#power-card-games) unless value_red_king says otherwise."""
        if self.value_red_king is None and self.power_set == "dutch":
            return DUTCH_RED_KING
        return self.value_red_king

    @property
    def has_jokers(self) -> bool:
        return self.jokers_in_copy(0) > 0

    def deck_locals(self, copy: int) -> range:
        """Card numbers within deck copy ``copy`` (cards.card_id's local part) that the
        shuffled deck holds: the 52 suited cards, then that copy's jokers."""
        return range(52 + self.jokers_in_copy(copy))

    def deck_size(self, players: int) -> int:
        return sum(len(self.deck_locals(c)) for c in range(self.decks_for(players)))

    def check_players(self, players: int) -> None:
        if not self.players_min <= players <= self.players_max:
            raise RuleError(f"--players {players}: this rule set is for {self.players_min} to "
                            f"{self.players_max} players (change players_max or decks to allow more)")
        if players > K.MAX_PLAYERS:
            raise RuleError(f"--players {players}: at most {K.MAX_PLAYERS} players are supported")
        need = players * self.n_positions + 2
        have = self.deck_size(players)
        if need > have:
            raise RuleError(f"--players {players}: {players} layouts of {self.n_positions} cards "
                            f"plus a discard and a stock card need {need} cards but "
                            f"{self.decks_for(players)} deck(s) hold {have}; set decks=N")

    def to_toml(self, preset: str | None = None) -> str:
        lines = ["# golfsim rule set: every option with its value (docs/rules.md#rule-options)"]
        if preset:
            lines.append(f'preset = "{preset}"')
        for f in fields(self):
            v = getattr(self, f.name)
            lines.append(f"# {f.metadata['doc']}")
            lines.append(f"{f.name} = {_toml_value(v)}")
        return "\n".join(lines) + "\n"


# ---- option table ---------------------------------------------------------------------------
OPTIONS = {f.name: f for f in fields(Rules)}
_ALIASES = {
    "decks.count": "decks", "jokers": "jokers_per_deck", "grid.rows": "grid_rows",
    "grid.cols": "grid_cols", "rows": "grid_rows", "cols": "grid_cols",
    "turn_limit": "turn_cap",
}


def canonical_option(name: str) -> str:
    key = _ALIASES.get(name, name)
    key = key.replace(".", "_").replace("-", "_")
    if key not in OPTIONS:
        import difflib
        close = difflib.get_close_matches(key, OPTIONS, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else \
            "; `golfsim rules six_card` lists every option"
        raise RuleError(f"unknown rule option {name!r}{hint}")
    return key


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


def parse_option_text(name: str, text: str):
    """Turn the text after ``option=`` into a typed value for that option."""
    f = OPTIONS[name]
    low = text.lower()
    if f.metadata["nullable"] and low in ("none", "null", "inherit", ""):
        return None
    if f.type in ("bool", bool):
        if low in ("true", "yes", "1", "on"):
            return True
        if low in ("false", "no", "0", "off"):
            return False
        raise RuleError(f"option {name} = {text!r}: expected true or false")
    if name == "deck_thresholds":
        try:
            return tuple(tuple(int(x) for x in p.split(":")) for p in text.split(","))
        except ValueError:
            raise RuleError(f"option deck_thresholds = {text!r}: expected players:decks pairs "
                            "such as 2:1,5:2,9:3") from None
    if name == "end_triggers":
        return tuple(v for v in text.replace("+", ",").split(",") if v)
    if name in ("dutch_powers", "powers_off") and text.strip().lower() == "none":
        return ()
    if name in ("dutch_powers", "powers_off"):
        items = tuple(v for v in text.replace("+", ",").split(",") if v)
        return tuple(_rank_name(v) for v in items) if name == "powers_off" else \
            tuple(v.upper() for v in items)
    try:
        return int(text)
    except ValueError:
        if f.type in ("int", int):
            raise RuleError(f"option {name} = {text!r}: expected {_allowed_text(f)}") from None
        return text


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


WILD_SCOPES = ("none", "column", "row_or_column", "row_column_diagonal", "anywhere")


def _pair_column_options(r: Rules) -> list[str]:
    """The scoring options set that score two pair-columns of a 2-row grid together."""
    return [name for name, on in (
        ("quad_two_columns_value", r.quad_two_columns_value is not None),
        ("quad_apart_value", r.quad_apart_value is not None),
        ("joker_quad_value", r.joker_quad_value is not None),
        ("joker_quad_apart_value", r.joker_quad_apart_value is not None),
        ("jack_pairs_bonus", r.jack_pairs_bonus != 0),
        ("negative_quad_value", r.negative_quad_value is not None)) if on]


def _check_removal(r: Rules) -> None:
    """remove_cancelled takes fixed groups off the layout: pair-columns of a 2-row grid, or
    the lines and 2x2 blocks of a 3x3 grid; rules that score across those groups, or pair
    cards wherever they lie, have nothing fixed to remove."""
    opt = f"remove_cancelled = {r.remove_cancelled}"
    two_row_columns = r.pair_scope == "column" and r.grid_rows == 2
    three_by_three = (r.grid_rows, r.grid_cols) == (3, 3) and r.pair_scope == "none" and \
        (r.line_sets != "none" or r.block_2x2_value is not None)
    if r.layout_mode == "hand" or not (two_row_columns or three_by_three):
        raise RuleError(f"{opt} needs groups that stay where they are: pair_scope = column on "
                        f"a 2-row grid, or line_sets / block_2x2_value on a 3x3 grid (got "
                        f"pair_scope = {r.pair_scope} on {r.grid_rows}x{r.grid_cols}, "
                        f"layout_mode = {r.layout_mode})")
    across = _pair_column_options(r) + [name for name, on in (
        ("block_2x2_value", r.block_2x2_value is not None and two_row_columns),
        ("six_of_kind_value", r.six_of_kind_value is not None),
        ("one_eyed_jacks = wild", r.one_eyed_jacks == "wild"),
        ("four_of_kind_wins_match", r.four_of_kind_wins_match)) if on]
    if across:
        raise RuleError(f"{opt} with {', '.join(across)}: those score cards of several groups "
                        f"together, which a removal would take apart; choose one")


def _check_jokers(r: Rules) -> None:
    """joker_count replaces jokers_per_deck: given both, one would be silently ignored."""
    if r.joker_count is not None and r.jokers_per_deck != 0:
        raise RuleError(f"joker_count = {r.joker_count} and jokers_per_deck = "
                        f"{r.jokers_per_deck} both say how many jokers there are (joker_count "
                        "in the whole deck, jokers_per_deck in each deck); set one, with "
                        "jokers_per_deck = 0 for joker_count")


def _check_stuck_final_turn(r: Rules) -> None:
    """reveal_on_trigger turns every card up for the final turns; a player who must then keep
    a drawn card (stock_draw_may_be_discarded = false) and may not replace a face-up one has
    nowhere to put it."""
    if r.reveal_on_trigger and not r.replace_face_up_allowed and \
            not r.stock_draw_may_be_discarded and r.power_set == "none":
        raise RuleError("reveal_on_trigger = true with replace_face_up_allowed = false and "
                        "stock_draw_may_be_discarded = false: after the end is triggered every "
                        "card is face up, so a drawn card could go nowhere; change one of them")


def _check_combination(r: Rules) -> None:
    """Refuse options that do not go together (RuleError naming them), in this order."""
    _check_jokers(r)
    _check_stuck_final_turn(r)
    _check_wild_jacks(r)
    _check_grid_and_reveal(r)
    _check_groups(r)
    _check_turn_options(r)
    _check_layout(r)
    _check_ending(r)


def _check_wild_jacks(r: Rules) -> None:
    """one_eyed_jacks = wild: only where its groups are supported."""
    if r.one_eyed_jacks == "wild":
        why = None
        if r.pair_scope not in WILD_SCOPES:
            why = f"pair_scope = {r.pair_scope} (supported: {', '.join(WILD_SCOPES)})"
        elif r.line_sets != "none":
            why = f"line_sets = {r.line_sets}"
        elif _couples_two_columns(r):
            why = "quads, 2x2 blocks or jack_pairs_bonus"
        elif r.grid_rows * r.grid_cols > 12:
            why = f"a {r.grid_rows}x{r.grid_cols} layout (at most 12 cards)"
        if why:
            raise RuleError(f"option one_eyed_jacks = 'wild' is not supported yet with {why}")


def _check_grid_and_reveal(r: Rules) -> None:
    """The seats, the grid's size and the initial reveal's count and constraint."""
    if r.players_min > r.players_max:
        raise RuleError(f"players_min = {r.players_min} is above players_max = {r.players_max}")
    npos = r.grid_rows * r.grid_cols
    if npos > K.MAX_POS:
        raise RuleError(f"grid {r.grid_rows}x{r.grid_cols} has {npos} positions; at most "
                        f"{K.MAX_POS} are supported")
    count = r.grid_cols if r.initial_reveal_count == -1 else r.initial_reveal_count
    if r.initial_reveal_mode != "none" and count > npos:
        raise RuleError(f"initial_reveal_count = {count} exceeds the {npos} positions of the "
                        f"grid (grid_rows = {r.grid_rows}, grid_cols = {r.grid_cols})")
    con = r.initial_reveal_constraint
    if r.initial_reveal_mode != "none" and con in ("same_column", "centre_and_outer") and count > 2:
        raise RuleError(f"initial_reveal_constraint = {con} allows at most 2 cards, but "
                        f"initial_reveal_count = {count}")
    if con == "same_column" and r.initial_reveal_mode != "none" and count > r.grid_rows:
        raise RuleError(f"initial_reveal_constraint = same_column needs initial_reveal_count <= "
                        f"grid_rows = {r.grid_rows}")
    if con == "different_columns" and r.initial_reveal_mode != "none" and count > r.grid_cols:
        raise RuleError(f"initial_reveal_constraint = different_columns needs "
                        f"initial_reveal_count <= grid_cols = {r.grid_cols}")
    if con == "centre_and_outer" and r.grid_cols % 2 == 0:
        raise RuleError(f"initial_reveal_constraint = centre_and_outer needs an odd number of "
                        f"columns, but grid_cols = {r.grid_cols}")
    if con == "nearest_row" and count > r.grid_cols:
        raise RuleError(f"initial_reveal_constraint = nearest_row allows at most grid_cols = "
                        f"{r.grid_cols} cards, but initial_reveal_count = {count}")


def _check_groups(r: Rules) -> None:
    """The options that score groups of several cards: the grids they need."""
    col_rules = _pair_column_options(r) + \
        (["lock_face_up_columns"] if r.lock_face_up_columns else [])
    if r.quad_apart_value is not None and r.quad_two_columns_adjacent_only:
        raise RuleError("quad_apart_value scores pair-columns that are not side by side, but "
                        "quad_two_columns_adjacent_only = true gives them nothing; choose one")
    if col_rules and (r.pair_scope != "column" or r.grid_rows != 2):
        raise RuleError(f"{', '.join(col_rules)} need pair_scope = column on a 2-row grid "
                        f"(got pair_scope = {r.pair_scope}, grid_rows = {r.grid_rows})")
    if r.line_sets != "none" and (r.grid_rows, r.grid_cols) != (3, 3):
        raise RuleError(f"line_sets = {r.line_sets} is for 3x3 grids; this grid is "
                        f"{r.grid_rows}x{r.grid_cols}")
    if r.grid_rows == 3 and (r.line_sets != "none" or r.block_2x2_value is not None) and \
            r.pair_scope != "none":
        raise RuleError(f"lines and 2x2 blocks on a 3-row grid are scored with pair_scope = "
                        f"none (docs/rules.md#amb-26), not {r.pair_scope}")
    if r.layout_mode == "hand" and r.block_2x2_value is not None:
        raise RuleError("block_2x2_value needs a grid: layout_mode = hand has no 2x2 squares")


def _check_turn_options(r: Rules) -> None:
    """The turn's options that need others: what the owner sees, removals, replacements,
    rearranging."""
    if r.owner_view == "all" and r.initial_reveal_mode in ("flip", "flip_on_first_turn"):
        raise RuleError(f"owner_view = all (cards held in hand) with initial_reveal_mode = "
                        f"{r.initial_reveal_mode}: the owner already sees every card; use "
                        f"initial_reveal_mode = none or peek")
    if r.overlap_rule == "remove_immediately" and r.remove_cancelled != "immediate":
        raise RuleError(f"overlap_rule = remove_immediately is remove_cancelled = immediate "
                        f"(docs/rules.md#overlap_rule): set both (got remove_cancelled = "
                        f"{r.remove_cancelled})")
    if r.remove_cancelled != "never":
        _check_removal(r)
    if r.replace_unseen_once and not r.stock_draw_may_be_discarded:
        raise RuleError("replace_unseen_once with stock_draw_may_be_discarded = false: once "
                        "every position has had its replacement, a drawn card would have "
                        "nowhere to go; allow discarding stock cards")
    if r.rearrange_after_reveal and (r.initial_reveal_mode != "flip" or
                                     r.layout_mode == "hand"):
        raise RuleError("rearrange_after_reveal moves the cards turned up by the initial flips "
                        "within a grid or row: it needs initial_reveal_mode = flip (not "
                        f"{r.initial_reveal_mode}) and a layout_mode other than hand")


def _check_layout(r: Rules) -> None:
    """The layout's shape (row, hand, grid) against the pairing, reveal and group options."""
    npos = r.grid_rows * r.grid_cols
    if r.layout_mode == "row" and r.grid_rows != 1:
        raise RuleError(f"layout_mode = row lays the cards side by side in one row: set "
                        f"grid_rows = 1 (and grid_cols to the number of cards), not grid_rows = "
                        f"{r.grid_rows}")
    if r.layout_mode == "row" and r.pair_scope == "column":
        raise RuleError("layout_mode = row: pair_scope = column pairs nothing in a single row; "
                        "use row_or_column, orthogonal_adjacent, anywhere or none")
    if r.layout_mode == "hand" and r.pair_scope not in ("anywhere", "none"):
        raise RuleError(f"layout_mode = hand has no rows or columns: pair_scope must be anywhere "
                        f"or none, not {r.pair_scope}")
    if r.initial_reveal_constraint == "whole_column" and \
            r.initial_reveal_mode not in ("flip", "flip_on_first_turn"):
        raise RuleError("initial_reveal_constraint = whole_column turns a column face up: it "
                        f"needs initial_reveal_mode flip or flip_on_first_turn, not "
                        f"{r.initial_reveal_mode}")
    if r.initial_reveal_constraint == "whole_column" and r.initial_reveal_mode == "flip":
        raise RuleError("initial_reveal_constraint = whole_column is played at the first turn: "
                        "use initial_reveal_mode = flip_on_first_turn")
    if r.pair_scope in ("row_or_column", "row_column_diagonal") and npos > 12:
        raise RuleError(f"pair_scope = {r.pair_scope} is supported on layouts of at most 12 "
                        f"cards; this grid has {npos}")
    if r.block_2x2_value is not None and r.grid_rows < 2:
        raise RuleError("block_2x2_value needs a grid with at least 2 rows")
    if r.block_2x2_value is not None and r.pair_scope not in ("column", "none"):
        raise RuleError(f"block_2x2_value is defined with pair_scope column or none, not "
                        f"{r.pair_scope}")
    if r.six_of_kind_value is not None and npos != 6:
        raise RuleError(f"six_of_kind_value needs a 6-card layout; this grid has {npos} positions")


def _check_ending(r: Rules) -> None:
    """A way for the hole to end, the powers' options, and what the ender's rules need."""
    if not {"knock", "all_face_up", "all_players_face_up", "call", "stock_exhausted"} & \
            set(r.end_triggers):
        raise RuleError("end_triggers must include knock, all_face_up, all_players_face_up, "
                        "call or stock_exhausted")
    _check_powers(r)
    if r.placement_face == "down" and \
            not ({"knock", "call", "stock_exhausted", "empty_layout"} & set(r.end_triggers)) and \
            not (r.flip_instead_of_draw or r.flip_all_to_end or
                 r.flip_after_stock_discard != "none"):
        raise RuleError("placement_face = down with end_triggers = "
                        f"{','.join(r.end_triggers)} gives no way to turn cards face up; add "
                        "flip_instead_of_draw, flip_all_to_end or flip_after_stock_discard")
    if r.ender_rule_applies_to == "knock_only" and "knock" not in r.end_triggers and \
            (r.ender_penalty != "none" or r.ender_bonus != "none"):
        raise RuleError("ender_penalty/ender_bonus with ender_rule_applies_to = knock_only have "
                        "no effect without the knock end trigger")


UNPLAYABLE = ("these rules need a feature no compiled build of golfsim has "
              "(simulator/kernel/features.py)")


def uses_power_engine(r: Rules) -> bool:
    """Does the rule set need the power-card engine (simulator/game/powers/): power cards,
    snaps, turn matches, or the end triggers only it plays (call, empty_layout,
    stock_exhausted)? The compiled engine plays them on its powers build
    (simulator/kernel/features.py)."""
    return r.power_set != "none" or r.snap_mode != "none" or r.turn_match_mode != "none" or \
        bool({"call", "empty_layout", "stock_exhausted"} & set(r.end_triggers))


# options the power-card engine does not combine with (none of the power games uses them)
_NOT_WITH_POWERS = (
    ("remove_cancelled", lambda r: r.remove_cancelled != "never", "never"),
    ("replace_unseen_once", lambda r: r.replace_unseen_once, "false"),
    ("rearrange_after_reveal", lambda r: r.rearrange_after_reveal, "false"),
    ("blind_replacement", lambda r: not r.blind_replacement, "true"),
    ("initial_reveal_mode", lambda r: r.initial_reveal_mode == "flip_on_first_turn",
     "none, flip or peek"),
    ("knock_min_laps", lambda r: r.knock_min_laps != 0, "0"),
)


def _check_powers(r: Rules) -> None:
    """The power options make sense only together (docs/rules.md#power-card-games)."""
    triggers = set(r.end_triggers)
    if {"knock", "call"} <= triggers:
        raise RuleError("end_triggers with both knock and call: a call is the knock of the "
                        "power-card games under another name (call_name); choose one")
    if "stock_exhausted" in triggers and r.stock_empty != "end_hole":
        raise RuleError(f"end_triggers = stock_exhausted needs stock_empty = end_hole (got "
                        f"{r.stock_empty}): a reshuffled stock is never exhausted")
    if r.non_caller_rule != "layout_value" and "call" not in triggers:
        raise RuleError(f"non_caller_rule = {r.non_caller_rule} scores the players who did not "
                        f"call: it needs end trigger call, which end_triggers lacks")
    if r.call_name != "Knock" and "call" not in triggers:
        raise RuleError(f"call_name = {r.call_name} names the call of end trigger call, which "
                        f"end_triggers lacks")
    for name, bad, need in (
            ("snap_penalty_opponent_miss", r.snap_penalty_opponent_miss and
             r.snap_mode != "cumbia", "snap_mode = cumbia"),
            ("snap_penalty_cards", r.snap_penalty_cards and r.snap_mode != "cactus",
             "snap_mode = cactus"),
            ("match_fail_penalty_cards", r.match_fail_penalty_cards and
             r.turn_match_mode != "cabo_match", "turn_match_mode = cabo_match"),
            ("power_source", r.power_source != "stock_only" and r.power_set == "none",
             "a power_set"),
            ("power_card_placeable", not r.power_card_placeable and r.power_set == "none",
             "a power_set"),
            ("dutch_powers", r.dutch_powers != K.DUTCH_POWER_CARDS and r.power_set != "dutch",
             "power_set = dutch"),
            ("powers_off", r.powers_off and r.power_set in ("none", "dutch"),
             "a named power_set (malaysia, pablo, cumbia, cabo, cactus; the Dutch table "
             "switches its cards with dutch_powers)")):
        if bad:
            raise RuleError(f"option {name} = {option_text(getattr(r, name))} needs {need}")
    if r.powers_off:
        having = ranks_with_powers(r.power_set)
        for v in r.powers_off:
            if v not in having:
                raise RuleError(f"option powers_off = {v}: power_set = {r.power_set} gives "
                                f"{v} no power; cards with powers: {', '.join(having)}")
    if uses_power_engine(r):
        for name, bad, allowed in _NOT_WITH_POWERS:
            if bad(r):
                raise RuleError(f"option {name} = {option_text(getattr(r, name))} is not "
                                f"played with power cards, snaps, turn matches or the end "
                                f"triggers call, empty_layout, stock_exhausted; allowed: "
                                f"{allowed}")


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


# ---- presets --------------------------------------------------------------------------------
PRESETS: dict[str, dict] = {
    "four_card": {
        "players_max": 8, "deck_thresholds": ((2, 1), (8, 2)), "grid_cols": 2,
        "initial_reveal_mode": "peek", "placement_face": "down", "end_triggers": ("knock",),
        "value_scheme": "basic", "pair_scope": "row_or_column",
    },
    "four_card_in_hand": {
        "players_max": 8, "deck_thresholds": ((2, 1), (8, 2)), "grid_cols": 2,
        "layout_mode": "hand", "initial_reveal_mode": "none", "owner_view": "all",
        "placement_face": "down", "end_triggers": ("knock",), "value_scheme": "basic",
        "pair_scope": "anywhere",
    },
    "six_card": {},
    "eight_card_whitnack": {
        "players_max": 4, "decks": 2, "jokers_per_deck": 2, "grid_cols": 4,
        "initial_reveal_mode": "flip_on_first_turn", "initial_reveal_constraint": "whole_column",
        "flip_after_stock_discard": "mandatory_unless_one_face_down", "value_scheme": "whitnack",
        "quad_two_columns_value": -10,
    },
    "eight_card_basic": {"grid_cols": 4, "decks": 2, "players_max": 8},
    "nine_card": {
        "players_max": 8, "decks": 2, "grid_rows": 3, "grid_cols": 3,
        "initial_reveal_count": 3, "pair_scope": "none", "line_sets": "columns",
    },
    "ten_card": {"grid_cols": 5, "decks": 2, "players_max": 8},
    # named variants of the four- and nine-card games (docs/rules.md#presets)
    "four_card_face_up": {
        "players_max": 8, "deck_thresholds": ((2, 1), (8, 2)), "grid_cols": 2,
        "initial_reveal_mode": "peek", "placement_face": "up", "end_triggers": ("all_face_up",),
        "value_scheme": "basic", "pair_scope": "row_or_column",
    },
    "four_card_strict": {
        "players_max": 8, "deck_thresholds": ((2, 1), (8, 2)), "grid_cols": 2,
        "initial_reveal_mode": "none", "placement_face": "up", "replace_face_up_allowed": False,
        "flip_after_stock_discard": "mandatory", "end_triggers": ("all_players_face_up",),
        "value_scheme": "basic", "pair_scope": "row_or_column",
    },
    "nine_card_moraco": {
        "players_max": 8, "decks": 2, "grid_rows": 3, "grid_cols": 3,
        "initial_reveal_count": 3, "pair_scope": "orthogonal_adjacent",
    },
    "nine_card_fuchs": {
        "players_max": 8, "decks": 2, "jokers_per_deck": 2, "grid_rows": 3, "grid_cols": 3,
        "initial_reveal_mode": "none", "value_scheme": "fuchs_nines", "pair_scope": "none",
        "line_sets": "rows_and_columns", "remove_cancelled": "immediate",
    },
}
# The power-card games (docs/rules.md#power-card-games), each inheriting four_card as its YAML block says. The
# named value tables give every card of a rank one value, so the suit-specific values of
# docs/rules.md#power-card-games are set here: Cumbia's red kings -5 and 2♦ -10, Cabo's K♦ 0 (TV-D15).
_FOUR_CARD = PRESETS["four_card"]
POWER_PRESETS: dict[str, dict] = {
    "power_malaysia": {
        **_FOUR_CARD, "decks": 1, "jokers_per_deck": 2, "value_scheme": "malaysia",
        "pair_scope": "none", "power_set": "malaysia", "end_triggers": ("stock_exhausted",),
        "stock_empty": "end_hole", "match_end_mode": "holes", "match_end_holes": 9,
    },
    "power_pablo": {
        **_FOUR_CARD, "decks": 1, "jokers_per_deck": 2, "value_scheme": "pablo",
        "pair_scope": "none", "power_set": "pablo", "turn_match_mode": "pablo_multi_replace",
        "end_triggers": ("call",), "call_name": "Pablo", "knock_timing": "end_of_own_turn",
        "final_turns": "each_other_player_once", "ender_penalty": "plus_highest_opponent",
        "ender_bonus": "fixed_minus_10", "ender_tie": "neutral", "match_end_mode": "target",
        "match_end_target": 100,
    },
    "power_cumbia": {
        **_FOUR_CARD, "decks": 1, "jokers_per_deck": 0, "value_scheme": "cumbia",
        "value_red_king": -5, "value_two_of_diamonds": -10,
        "pair_scope": "none", "match_key": "point_value", "power_set": "cumbia",
        "power_card_placeable": False, "snap_mode": "cumbia", "snap_penalty_opponent_miss": 10,
        "end_triggers": ("call",), "call_name": "Cumbia", "knock_timing": "any_time_in_turn",
        "final_turns": "each_other_player_once", "ender_penalty": "none",
        "ender_bonus": "none", "match_end_mode": "holes", "match_end_holes": 7,
    },
    "power_cabo": {
        **_FOUR_CARD, "decks": 1, "jokers_per_deck": 0, "value_scheme": "cabo",
        "value_king_of_diamonds": 0, "pair_scope": "none", "match_key": "rank",
        "power_set": "cabo", "turn_match_mode": "cabo_match", "match_fail_penalty_cards": 1,
        "end_triggers": ("call", "empty_layout", "stock_exhausted"), "stock_empty": "end_hole",
        "call_name": "Cabo", "knock_timing": "any_time_in_turn",
        "final_turns": "each_other_player_once", "match_end_mode": "target",
        "match_end_target": 100,
    },
    "power_cactus": {
        **_FOUR_CARD, "players_min": 2, "players_max": 8, "decks": 1, "jokers_per_deck": 0,
        "initial_discard": "none", "value_scheme": "cactus", "pair_scope": "none",
        "power_set": "cactus", "power_source": "stock_or_unused_discard",
        "snap_mode": "cactus", "snap_penalty_cards": 2, "end_triggers": ("call",),
        "call_name": "Cactus", "knock_timing": "end_of_own_turn",
        "final_turns": "each_other_player_once", "ender_penalty": "plus_10",
        "ender_bonus": "zero", "ender_tie": "counts_as_not_lowest",
        "non_caller_rule": "zero_if_not_above_caller", "first_player": "previous_hole_winner",
        "match_end_mode": "target", "match_end_target": 100, "match_tie": "extra_holes",
    },
}
PRESETS.update(POWER_PRESETS)
PRESET_DESCRIPTIONS = {  # each preset's section in docs/rules.md is docs/rules.md#<name>
    "four_card": "4-card Golf: 2x2 grid, peek at two, face-down memory play, knock to end, "
                 "pairs in a row or column cancel",
    "four_card_in_hand": "4 cards held in hand: the owner sees them all, any two equal cards "
                         "cancel, knock to end",
    "six_card": "6-card Golf: 2x3 grid, flip two, face-up replacement, column pairs cancel",
    "eight_card_whitnack": "8-card Golf (Bill Whitnack): 108 cards, a column flipped on the "
                           "first turn, two equal pair-columns score -10",
    "eight_card_basic": "8-card Golf by the 6-card rules on a 2x4 grid, two decks",
    "nine_card": "9-card Golf: 3x3 grid, flip three, a column of three equal cards scores 0, "
                 "single pairs do not cancel",
    "ten_card": "10-card Golf by the 6-card rules on a 2x5 grid, two decks",
    "four_card_face_up": "4-card Golf in face-up mode: peek at two, replacements face up, the "
                         "others get one more turn when a layout is all face up",
    "four_card_strict": "4-card Golf, strict face-up mode: no peeking, face-up cards stay, a "
                        "discarded stock card forces a flip, the hole ends when every card is "
                        "face up",
    "nine_card_moraco": "9-card Golf, Stephen Moraco's version: every pair of equal cards side "
                        "by side or one above the other scores 0",
    "nine_card_fuchs": "9-card Golf, Jesse Fuchs's version: nothing turned up at the start, "
                       "queens 0, kings 10, jokers -2, rows and columns of three equal cards "
                       "leave the layout as soon as they are formed",
    "power_malaysia": "power-card Golf, Malaysia: J peek own, Q peek an opponent's, K blind "
                      "swap, joker shuffles an opponent; no calling, the hole ends when the "
                      "stock runs out",
    "power_pablo": "power-card Golf, Pablo: 7 look at an opponent's card and swap it, 8 peek "
                   "at any card, replace several equal cards at once; call Pablo: -10 when "
                   "lowest, else plus the highest opponent",
    "power_cumbia": "power-card Golf, Cumbia: peeks, blind swaps, power cards never placed; "
                    "anyone snaps a matching card from any layout; call Cumbia",
    "power_cabo": "power-card Golf, Cabo: peeks and swaps, match the held card against "
                  "equal cards anywhere; call Cabo, or empty your layout, or run the stock out",
    "power_cactus": "power-card Golf, Cactus: no turn-up, peeks and blind swaps, the unused "
                    "power of the top discard, snaps of own cards; call Cactus: 0 when "
                    "strictly lowest, else +10",
}


def preset_reference(name: str) -> str:
    """Where the project's rules reference describes preset ``name``."""
    return f"docs/rules.md#{name}"


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


# What each named value of an option means, where the option's own description does not say
# (docs/rules.md lists them under the option; tests/test_docs.py keeps them complete).
VALUE_DESCRIPTIONS: dict[str, dict[str, str]] = {
    "bonus_card": {
        "none": "no bonus cards",
        "twos": "the twos are worth -2",
        "one_eyed_jacks": "the one-eyed jacks (J♠, J♥) are worth -2",
    },
    "initial_reveal_mode": {
        "none": "nobody sees a card of its layout before play",
        "flip": "each player turns cards face up, for everyone to see",
        "peek": "each player looks at cards privately and leaves them face down",
        "flip_on_first_turn": "each player turns its cards face up at the start of its first "
                              "turn, then plays the turn",
    },
    "initial_reveal_constraint": {
        "any": "any positions",
        "nearest_row": "positions in the row nearest the owner (the last row)",
        "same_column": "positions in one column",
        "different_columns": "positions in different columns",
        "centre_and_outer": "one card of the centre column and one of an outer column (an odd "
                            "number of columns)",
        "whole_column": "every card of one column",
    },
    "initial_reveal_order": {
        "turn_order": "seat by seat, starting with the first player, each seeing what the "
                      "earlier seats revealed",
        "simultaneous": "all seats at once",
    },
    "placement_face": {
        "up": "face up, seen by everyone",
        "down": "face down; its owner knows it (everyone does when it was the top discard)",
        "player_choice": "the player chooses when it replaces a face-down card; a card that "
                         "replaces a face-up card is always face up",
    },
    "flip_after_stock_discard": {
        "none": "no flip",
        "mandatory": "the player must turn one of its face-down cards face up",
        "mandatory_unless_one_face_down": "the player must turn one face-down card up, except "
                                          "that with one face-down card left the flip is "
                                          "optional",
        "optional_in_endgame": "no flip until some player (the discarder included) has at "
                               "most one face-down card; from then on the player may turn "
                               "one face-down card up",
    },
    "end_triggers": {
        "knock": "a player may knock (see knock_timing)",
        "all_face_up": "a player whose whole layout is face up at the end of its turn ends "
                       "the hole",
        "all_players_face_up": "the hole ends, with no final turns, once every layout is "
                               "entirely face up",
        "stock_exhausted": "the hole ends as soon as the action that took the last stock "
                           "card is complete, with no final turns (needs stock_empty "
                           "= end_hole)",
        "call": "a player may call the end, named call_name (the knock of the power-card "
                "games, timed by knock_timing)",
        "empty_layout": "the hole ends as soon as the action that left a player without "
                        "layout cards is complete, with no final turns (the power-card "
                        "games)",
    },
    "owner_view": {
        "none": "owners know only the cards they have seen",
        "initially_peeked": "owners may look again at the positions they saw at the start and "
                            "at the cards put there",
        "all": "owners see every card of their own layout at all times (cards held in hand)",
    },
    "knock_timing": {
        "instead_of_turn": "the knock is the whole turn",
        "end_of_own_turn": "a player may knock right after playing its turn",
        "any_time_in_turn": "either instead of a turn or right after it (knocking first and "
                            "then playing the turn would gain nothing over knocking after it, "
                            "AMB-12)",
    },
    "final_turns": {
        "none": "the hole ends at once",
        "each_other_player_once": "every other player plays one more turn; the ender does not "
                                  "play again",
        "complete_lap": "only the players after the ender up to the dealer (the last seat) "
                        "play once more",
    },
    "stock_empty": {
        "reshuffle_keep_top": "when a player must draw from an empty stock, the discard pile "
                              "but its top card is shuffled into a new stock",
        "end_hole": "the hole ends after the turn in which the stock runs out",
    },
    "value_joker": {
        "plus15_pair_minus5": "an unpaired joker scores +15; two jokers that pair under "
                              "pair_scope score -5 together",
        "plus2_pair_minus4": "an unpaired joker scores +2; two jokers that pair under "
                             "pair_scope score -4 together",
    },
    "one_eyed_jacks": {
        "normal": "ordinary jacks",
        "wild": "wild for pairing, as the option's description says",
        "zero": "worth 0",
        "bonus": "worth -2",
    },
    "match_key": {
        "rank": "equal rank (jokers pair with jokers)",
        "point_value": "equal point value (a jack and a queen both worth 10 pair)",
    },
    "pair_scope": {
        "none": "no two cards cancel",
        "column": "two equal cards in the same column",
        "row_or_column": "two equal cards in the same row or column",
        "row_column_diagonal": "two equal cards in the same row, column or diagonal",
        "anywhere": "any two equal cards of the layout",
        "orthogonal_adjacent": "equal cards side by side or one above the other; a card may "
                               "be part of several pairs",
    },
    "line_sets": {
        "none": "no lines",
        "columns": "columns of three",
        "rows_and_columns": "rows and columns of three",
        "rows_columns_diagonals": "rows, columns and both diagonals",
    },
    "ender_penalty": {
        "none": "s (no penalty)",
        "plus_10": "s + 10",
        "plus_20": "s + 20",
        "double_plus_5": "2s + 5",
        "double": "2s",
        "equal_highest": "the highest layout value of the hole, H",
        "plus_twice_players": "s + 2N",
        "plus_lowest_score": "s + m, the lowest layout value among the others",
        "plus_highest_opponent": "s + the highest layout value among the others",
    },
    "ender_bonus": {
        "none": "s (no bonus)",
        "zero": "0",
        "minus_players": "s - N",
        "fixed_minus_10": "-10",
    },
    "ender_tie": {
        "neutral": "neither penalty nor bonus",
        "counts_as_lowest": "the ender counts as lowest (bonus)",
        "counts_as_not_lowest": "the ender counts as not lowest (penalty)",
    },
    "ender_rule_applies_to": {
        "knock_only": "only an ender who knocked",
        "any_ender": "whoever ended the hole: by knocking, by turning its last card face up "
                     "or by flipping all",
    },
    "power_set": {
        "none": "no power cards",
        "malaysia": "J peek own, Q peek an opponent's, K swap own and opponent's blind, joker "
                    "shuffle an opponent's face-down cards (docs/rules.md#power_malaysia)",
        "pablo": "7 look at an opponent's card, then swap it with one of yours blind; 8 peek "
                 "at any card",
        "cumbia": "4, 5 peek own; 6, 7 peek an opponent's; 10 swap any two blind; J peek own "
                  "and an opponent's, then swap them if you like",
        "cabo": "7, 8 peek own; 9, 10 peek an opponent's; J, Q swap any two blind",
        "cactus": "6, 7, 8 peek own; 9, 10, J peek an opponent's; Q swap own and opponent's "
                  "blind",
        "dutch": "the Dutch table (docs/rules.md#power-card-games), each card switched by dutch_powers",
    },
    "power_source": {
        "stock_only": "a power works only when its card is drawn from the stock",
        "stock_or_unused_discard": "also: a whole turn using the power of the top discard, "
                                   "unless its power was used when it was discarded (Cactus)",
    },
    "snap_mode": {
        "none": "no snaps",
        "cumbia": "after a turn's discard anyone may take one card from any layout, blind; a "
                  "match is discarded (taken from an opponent, the snapper gives that "
                  "opponent one of its own cards blind), a miss goes back and, taken from an "
                  "opponent, costs snap_penalty_opponent_miss points",
        "cactus": "after a turn's discard anyone may discard one of its own cards onto it, "
                  "blind; a miss goes back and the snapper draws snap_penalty_cards cards",
    },
    "turn_match_mode": {
        "none": "no turn matches",
        "pablo_multi_replace": "the held card replaces two or more equal own cards at once; "
                               "if they are not all equal they stay, shown, and the held card "
                               "is added as an extra card",
        "cabo_match": "the held card is matched against nominated cards of any layouts: "
                      "equal ones are discarded (an opponent's is replaced by one of the "
                      "matcher's cards, blind), each other one costs match_fail_penalty_cards "
                      "cards",
    },
    "non_caller_rule": {
        "layout_value": "their layout value",
        "zero_if_not_above_caller": "0 when their layout value is at most the caller's "
                                    "(Cactus)",
    },
    "match_end_mode": {
        "holes": "a fixed number of holes (match_end_holes)",
        "target": "after the hole in which some total reaches match_end_target",
        "manual": "when the players stop",
    },
}


def load_toml(path: str | Path) -> Rules:
    """A rule file names a preset (default six_card) and overrides any options."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text())
    except FileNotFoundError:
        raise RuleError(f"--rules {path}: no such file") from None
    except tomllib.TOMLDecodeError as e:
        raise RuleError(f"--rules {path}: not valid TOML ({e})") from None
    preset = data.pop("preset", "six_card")
    flat = {}
    for key, value in data.items():
        if isinstance(value, dict):  # [initial_reveal] mode = "peek" style tables
            for sub, v in value.items():
                flat[f"{key}.{sub}"] = v
        else:
            flat[key] = value
    return Rules.preset(preset, **flat)


# ---- values and flattening --------------------------------------------------------------------
def card_values(r: Rules, n_decks: int = 1) -> np.ndarray:
    """Value of every card id (all deck copies) under the rule set."""
    table = list(SCHEME_TABLES[r.value_scheme])
    jokers_on = r.has_jokers
    if r.value_two is not None:
        table[C.RANK_TWO] = r.value_two
    if r.twos_positive_with_jokers and jokers_on:
        table[C.RANK_TWO] = 2
    for rank, v in ((C.RANK_JACK, r.value_jack), (C.RANK_QUEEN, r.value_queen),
                    (C.RANK_KING, r.value_king), (C.RANK_EIGHT, r.value_eight),
                    (C.RANK_TEN, r.value_ten)):
        if v is not None:
            table[rank] = v
    joker = r.value_joker
    if joker in JOKER_PAIR_SCHEMES:
        joker = JOKER_PAIR_SCHEMES[joker][0]
    elif joker is None:
        joker = table[C.RANK_JOKER] if table[C.RANK_JOKER] is not None else -2
    table[C.RANK_JOKER] = joker
    if r.bonus_card == "twos":
        table[C.RANK_TWO] = -2

    values = np.zeros(n_decks * C.CARDS_PER_DECK, dtype=np.int64)
    for cid in range(values.size):
        rank = C.rank_of(cid)
        values[cid] = suited_value(r, rank, C.suit_of(cid), table[rank])
    return values


def suited_value(r: Rules, rank: int, suit: int, value: int) -> int:
    """``value``, the value of a card of ``rank``, as its suit changes it under the rule set
    (the single-card options: the queen of spades, red and black kings, the king and the two
    of diamonds, the one-eyed jacks), applied after every rank's value."""
    if rank == C.RANK_QUEEN and suit == C.SPADES and r.value_queen_of_spades is not None:
        value = r.value_queen_of_spades
    if rank == C.RANK_KING:
        red = suit in (C.HEARTS, C.DIAMONDS)
        if red and r.red_king_value is not None:
            value = r.red_king_value
        if not red and r.value_black_king is not None:
            value = r.value_black_king
        if suit == C.DIAMONDS and r.value_king_of_diamonds is not None:
            value = r.value_king_of_diamonds
    if rank == C.RANK_TWO and suit == C.DIAMONDS and r.value_two_of_diamonds is not None:
        value = r.value_two_of_diamonds
    if rank == C.RANK_JACK and suit in (C.SPADES, C.HEARTS):   # the one-eyed jacks
        if r.one_eyed_jacks == "zero":
            value = 0
        elif r.one_eyed_jacks == "bonus" or r.bonus_card == "one_eyed_jacks":
            value = -2
    return value


def card_keys(r: Rules, values: np.ndarray) -> np.ndarray:
    """Pairing key of every card id: equal keys pair."""
    if r.match_key == "point_value":
        return values.copy()
    return np.array([C.rank_of(c) for c in range(values.size)], dtype=np.int64)


def value_groups(values: np.ndarray, rank: int) -> list[tuple[str, int]]:
    """The cards of a suited rank grouped by their value (``values``: card_values), in suit
    order: [("", v)] when every suit is worth v, else [(suit symbols, value), ...]."""
    by_value: dict[int, str] = {}
    for suit, symbol in enumerate(C.SUIT_SYMBOLS):
        v = int(values[C.card_id(rank, suit)])
        by_value[v] = by_value.get(v, "") + symbol
    if len(by_value) == 1:
        return [("", next(iter(by_value)))]
    return [(suits, v) for v, suits in by_value.items()]


def card_values_text(r: Rules) -> str:
    """Every card's value under ``r`` on one line, rank by rank ("A=1, 2=-2, ..., K=0"). A
    rank whose suits differ is split by suit ("K♠♣=0, K♥♦=-1"); jokers appear only when the
    decks hold them."""
    values = card_values(r)
    parts = [f"{name}{suits}={v}" for rank, name in enumerate(C.RANKS)
             for suits, v in value_groups(values, rank)]
    if r.has_jokers:
        joker = f"joker={int(values[C.card_id(C.RANK_JOKER, 0)])}"
        if r.value_joker in JOKER_PAIR_SCHEMES:
            joker += f" (two that pair: {JOKER_PAIR_SCHEMES[r.value_joker][1]})"
        parts.append(joker)
    return ", ".join(parts)


class RuleArrays(NamedTuple):
    """What the kernel needs: the rule slots, per-card tables and the deck in canonical order."""
    ri: np.ndarray          # int64[N_RULE_SLOTS]
    card_value: np.ndarray  # int64[n_ids]
    card_key: np.ndarray    # int64[n_ids]
    deck: np.ndarray        # int16[n_cards] card ids, canonical order before shuffling


def _couples_two_columns(r: Rules) -> bool:
    """Does the scoring couple pair-columns, or count them by rank (two-row grids)?"""
    return any(v is not None for v in (r.quad_two_columns_value, r.quad_apart_value,
                                       r.joker_quad_value, r.joker_quad_apart_value,
                                       r.negative_quad_value, r.block_2x2_value)) or \
        r.jack_pairs_bonus != 0


def layout_kind(r: Rules) -> int:
    """Which simple case of the layout scorer the rules are (K.LAYOUT_*): the kernels score
    those in place, without calls."""
    if r.six_of_kind_value is not None or r.one_eyed_jacks == "wild" or \
            r.line_sets != "none" or _couples_two_columns(r):
        return K.LAYOUT_GENERAL
    if r.pair_scope == "none":
        return K.LAYOUT_SUM
    if r.pair_scope == "column" and r.grid_rows == 2:
        return K.LAYOUT_COLUMNS
    return K.LAYOUT_GENERAL


def plain_hole(r: Rules) -> bool:
    """Is every seat's hole score its layout value plus its extras (points paid to peek)?"""
    return (r.quad_others_penalty == 0 and r.ender_penalty == "none" and
            r.ender_bonus == "none" and not r.lowest_scores_zero and r.shoot_the_moon is None
            and not r.twenty_one_scores_zero and r.ender_extra == 0 and r.lowest_bonus == 0
            and r.tie_penalty == 0 and r.non_caller_rule == "layout_value")


def _nullable(v) -> int:
    return K.NONE_VALUE if v is None else int(v)


def _flatten_effects(r: Rules, ri: np.ndarray) -> None:
    """Each card's power as rule data: the effect of each rank (a black card of it) and of
    a red king (the only card whose colour matters, powers.effect_of), and the ranks the
    Dutch 2 may combine, so the compiled games never derive them."""
    if r.power_set == "none":
        return
    for rank in range(C.RANK_JOKER + 1):
        ri[K.R_EFFECT0 + rank] = effect_of(r, C.card_id(rank, 0))
    ri[K.R_EFFECT_RED_KING] = effect_of(r, C.card_id(C.RANK_KING, 1))
    if r.power_set == "dutch":
        ri[K.R_COMBINABLE] = sum(1 << C.RANKS.index(name) for name in COMBINABLE
                                 if name in r.dutch_powers)


def flatten(r: Rules, players: int) -> RuleArrays:
    r.check_players(players)
    n_decks = r.decks_for(players)
    values = card_values(r, n_decks)
    keys = card_keys(r, values)
    deck = np.array([copy * C.CARDS_PER_DECK + local
                     for copy in range(n_decks) for local in r.deck_locals(copy)],
                    dtype=np.int16)
    dealt = values[deck.astype(np.int64)]
    ri = np.zeros(K.N_RULE_SLOTS, dtype=np.int64)
    slots = {**_deal_and_turn_slots(r, players, deck, dealt), **_scoring_slots(r),
             **_other_slots(r)}
    for slot, v in slots.items():
        ri[slot] = v
    _flatten_effects(r, ri)
    return RuleArrays(ri, values, keys, deck)


def _deal_and_turn_slots(r: Rules, players: int, deck: np.ndarray, dealt: np.ndarray) -> dict:
    """The rule slots of the deal, the reveal, the turn and the hole's end."""
    count = r.grid_cols if r.initial_reveal_count == -1 else r.initial_reveal_count
    triggers = 0
    for t in r.end_triggers:
        triggers |= {"knock": K.END_KNOCK, "all_face_up": K.END_ALL_FACE_UP,
                     "all_players_face_up": K.END_ALL_PLAYERS_FACE_UP,
                     "stock_exhausted": K.END_STOCK_EXHAUSTED, "call": K.END_CALL,
                     "empty_layout": K.END_EMPTY_LAYOUT}[t]
    return {
        K.R_PLAYERS: players, K.R_ROWS: r.grid_rows, K.R_COLS: r.grid_cols,
        K.R_NPOS: r.n_positions, K.R_NCARDS: deck.size,
        K.R_DECK_SUM: int(dealt.sum()),
        K.R_MAX_ABS_VALUE: int(np.abs(dealt).max()),
        K.R_REVEAL_MODE: K.REVEAL_MODES.index(r.initial_reveal_mode),
        K.R_REVEAL_COUNT: 0 if r.initial_reveal_mode == "none" else count,
        K.R_REVEAL_CONSTRAINT: K.REVEAL_CONSTRAINTS.index(r.initial_reveal_constraint),
        K.R_REVEAL_SEQUENTIAL: int(r.initial_reveal_sequential),
        K.R_REVEAL_SIMULTANEOUS: int(r.initial_reveal_order == "simultaneous"),
        K.R_PLACEMENT_FACE: K.PLACEMENT_FACES.index(r.placement_face),
        K.R_REPLACE_FACE_UP: int(r.replace_face_up_allowed),
        K.R_LOCK_FACE_UP_COLUMNS: int(r.lock_face_up_columns),
        K.R_FLIP_INSTEAD_OF_DRAW: int(r.flip_instead_of_draw),
        K.R_FLIP_AFTER_DISCARD: K.FLIP_AFTER_DISCARD.index(r.flip_after_stock_discard),
        K.R_FLIP_ALL_TO_END: int(r.flip_all_to_end),
        K.R_END_TRIGGERS: triggers,
        K.R_FINAL_TURNS: K.FINAL_TURNS.index(r.final_turns),
        K.R_FINAL_STOCK_ONLY: int(r.final_turn_stock_only),
        K.R_STOCK_EMPTY: K.STOCK_EMPTY.index(r.stock_empty),
        K.R_TURN_CAP: r.turn_cap,
    }


def _scoring_slots(r: Rules) -> dict:
    """The rule slots of scoring: pairs and groups, the ender's and the lowest's rules."""
    return {
        K.R_PAIR_SCOPE: K.PAIR_SCOPES.index(r.pair_scope),
        K.R_NEG_PAIRS_KEEP: int(r.negative_pairs_keep_value),
        K.R_QUAD_VALUE: _nullable(r.quad_two_columns_value),
        K.R_QUAD_ADJACENT_ONLY: int(r.quad_two_columns_adjacent_only),
        K.R_QUAD_OTHERS_PENALTY: r.quad_others_penalty,
        K.R_BLOCK_VALUE: _nullable(r.block_2x2_value),
        K.R_SIX_KIND_VALUE: _nullable(r.six_of_kind_value),
        K.R_NEG_QUAD_VALUE: _nullable(r.negative_quad_value),
        K.R_JOKER_PAIR_VALUE: JOKER_PAIR_SCHEMES[r.value_joker][1]
        if r.value_joker in JOKER_PAIR_SCHEMES else K.NONE_VALUE,
        K.R_ENDER_PENALTY: K.ENDER_PENALTIES.index(r.ender_penalty),
        K.R_ENDER_BONUS: K.ENDER_BONUSES.index(r.ender_bonus),
        K.R_ENDER_TIE: K.ENDER_TIES.index(r.ender_tie),
        K.R_ENDER_APPLIES: K.ENDER_APPLIES.index(r.ender_rule_applies_to),
        K.R_ENDER_CLAMP: int(r.ender_clamp),
        K.R_LOWEST_SCORES_ZERO: int(r.lowest_scores_zero),
        K.R_SHOOT_MOON: _nullable(r.shoot_the_moon),
    }


def _other_slots(r: Rules) -> dict:
    """The other rule slots: the turn's house rules, matches and the pot, the layout's kind,
    the powers."""
    return {
        K.R_DISCARD_MUST_PLACE: int(r.discard_draw_must_be_placed),
        K.R_STOCK_MAY_DISCARD: int(r.stock_draw_may_be_discarded),
        K.R_KNOCK_TIMING: K.KNOCK_TIMINGS.index(r.knock_timing),
        K.R_DRAW_FROM_DISCARD: int(r.draw_from_discard),
        K.R_KNOCK_MIN_LAPS: r.knock_min_laps,
        K.R_REVEAL_ON_TRIGGER: int(r.reveal_on_trigger),
        K.R_OWNER_VIEW_ALL: int(r.owner_view == "all"),
        K.R_PAY_TO_PEEK: _nullable(r.pay_to_peek),
        K.R_JACK_SKIPS: int(r.jack_discard_skips_next),
        K.R_LINE_SETS: K.LINE_SETS.index(r.line_sets),
        K.R_FOUR_KIND_WINS: int(r.four_of_kind_wins_match),
        K.R_INITIAL_TURN_UP: int(r.initial_discard == "turn_up"),
        K.R_DEALER_RANDOM: int(r.dealer_selection == "random"),
        K.R_FIRST_WINNER: int(r.first_player == "previous_hole_winner"),
        K.R_MATCH_TIE: K.MATCH_TIES.index(r.match_tie),
        K.R_POT_ANTE: r.pot_ante if r.pot_enabled else 0,
        K.R_POT_CAP: r.pot_cap or 0,
        K.R_WILD_JACKS: int(r.one_eyed_jacks == "wild"),
        K.R_REARRANGE: int(r.rearrange_after_reveal),
        K.R_REPLACE_UNSEEN_ONCE: int(r.replace_unseen_once),
        K.R_PRIVATE_STOCK: int(r.private_stock_draw),
        K.R_REMOVE_CANCELLED: K.REMOVE_CANCELLED.index(r.remove_cancelled),
        K.R_BLIND: int(r.blind_replacement),
        K.R_QUAD_APART_VALUE: _nullable(r.quad_apart_value),
        K.R_JOKER_QUAD_VALUE: _nullable(r.joker_quad_value),
        K.R_JOKER_QUAD_APART: _nullable(r.joker_quad_apart_value),
        K.R_JACK_PAIRS_BONUS: r.jack_pairs_bonus,
        K.R_TWENTY_ONE_ZERO: int(r.twenty_one_scores_zero),
        K.R_ENDER_EXTRA: r.ender_extra,
        K.R_LOWEST_BONUS: r.lowest_bonus,
        K.R_TIE_PENALTY: r.tie_penalty,
        K.R_FLIP_ALL_MAX: K.MAX_POS if r.flip_all_max_face_down is None
        else r.flip_all_max_face_down,
        K.R_LAYOUT_KIND: layout_kind(r),
        K.R_PLAIN_HOLE: int(plain_hole(r)),
        K.R_POWER_SET: K.POWER_SETS.index(r.power_set),
        K.R_SNAP_MODE: K.SNAP_MODES.index(r.snap_mode),
        K.R_TURN_MATCH: K.TURN_MATCH_MODES.index(r.turn_match_mode),
        K.R_POWER_SOURCE: K.POWER_SOURCES.index(r.power_source),
        K.R_NON_CALLER: K.NON_CALLER_RULES.index(r.non_caller_rule),
        K.R_POWER_PLACEABLE: int(r.power_card_placeable),
        K.R_SNAP_MISS_POINTS: r.snap_penalty_opponent_miss,
        K.R_SNAP_PENALTY_CARDS: r.snap_penalty_cards,
        K.R_MATCH_FAIL_CARDS: r.match_fail_penalty_cards,
        K.R_SWAP_LINE_OK: int(r.layout_mode != "hand"),
    }
