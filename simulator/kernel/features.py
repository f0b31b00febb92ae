"""Which compiled build may play which rule set: refusing by default.

Each rule option is classified once, in ``OPTION_FEATURES``: either ``DATA_ONLY`` (every
build plays every value of it: card values, scoring tables, counts, and the turn steps all
kernels share), or the structural features (named parts of a turn or of a match that a build
must have been written for) that some of its values need. A build names the features it has
in the table of builds, ``BUILDS`` (with the rest of what defines it: its constants, its compile
time, its description), and it plays a rule set only when it has every feature the rule set
needs. A new option is unclassified until someone decides, and tests/test_features.py fails
until then, so no build can silently play (and ignore) an option it was never written for.

The classification reads the option's slot of the flat rule array (``flatten(...).ri``), not
the ``Rules`` object, because the kernels are chosen from that array (``flow.rules_eligible``
gets nothing else); simulator/kernel/pick.py flattens a ``Rules`` first, so both ways share
this table, and picks the build a run plays on from it.

Match features are needed only when whole matches are played: single holes never reach the
match loop (only the general engine has one), so the hole builds are asked with
``matches=False``, lookahead's rollouts included, which play one hole even within a match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

from ..game import codes as K

FEATURES = (
    # the common family, which every build plays
    "initial_reveal",        # flip or peek at chosen cards before play (any, nearest row)
    "knock",                 # a knock, at the start of a turn, ends the hole
    "face_choice",           # the player chooses the face of a placed card
    # beyond it: the general engine only
    "reveal_constraints",    # reveal choices tied together (columns, centre and outer, ...)
    "reveal_on_first_turn",  # the reveal is made at each player's first turn
    "rearrange",             # face-up cards moved after the reveal
    "replace_once",          # unseen positions take one replacement
    "look_before_replace",   # holding a card, look at an own face-down card first
    "flip_turns",            # a turn that only turns a card up
    "flip_after_discard",    # a flip after discarding a stock card
    "flip_all_to_end",       # a turn that turns everything up and ends the hole
    "pay_to_peek",           # a look at an own face-down card, for points
    "jack_skips",            # a discarded jack skips the next player
    "knock_in_turn",         # a knock after one's own turn, or at any time in it
    "wild_jacks",            # one-eyed jacks pair with related cards
    "remove_cancelled",      # completed groups leave the layout
    # the powers build only (simulator/game/powers/ is its specification)
    "powers",                # power cards, snaps, turn matches, and the end triggers call,
                             # empty_layout and stock_exhausted
    # whole matches
    "match_play",            # the match loop: dealers, first players, ties, instant wins
    "pot",                   # antes and payouts between holes
)
MATCH_FEATURES = ("match_play", "pot")
BIT = {name: 1 << i for i, name in enumerate(FEATURES)}
ALL = (1 << len(FEATURES)) - 1
_MATCH_MASK = sum(BIT[f] for f in MATCH_FEATURES)


class Need(NamedTuple):
    """The option needs ``feature`` when ``when`` holds for its code in rule slot ``slot``
    (always when ``slot`` is None)."""
    feature: str
    slot: int | None = None
    when: Callable[[int], bool] | None = None


DATA_ONLY = ()
MATCH_ONLY = (Need("match_play"),)


def _flag(feature: str, slot: int) -> tuple:
    return (Need(feature, slot, bool),)


OPTION_FEATURES: dict[str, tuple] = {
    "players_min": DATA_ONLY,
    "players_max": DATA_ONLY,
    "decks": DATA_ONLY,
    "deck_thresholds": DATA_ONLY,
    "jokers_per_deck": DATA_ONLY,
    "joker_count": DATA_ONLY,
    "bonus_card": DATA_ONLY,
    # hand and row reach the kernels as pair_scope and owner_view
    "layout_mode": DATA_ONLY,
    # the layout's size is bounded separately (codes.MAX_POS)
    "grid_rows": DATA_ONLY,
    "grid_cols": DATA_ONLY,
    "initial_discard": DATA_ONLY,
    "initial_reveal_mode": (
        Need("initial_reveal", K.R_REVEAL_MODE, lambda v: v in (K.REVEAL_FLIP, K.REVEAL_PEEK)),
        Need("reveal_on_first_turn", K.R_REVEAL_MODE, lambda v: v == K.REVEAL_FLIP_FIRST_TURN)),
    "initial_reveal_count": DATA_ONLY,
    "initial_reveal_constraint": (
        Need("reveal_constraints", K.R_REVEAL_CONSTRAINT,
             lambda v: v not in (K.CON_ANY, K.CON_NEAREST_ROW)),),
    "initial_reveal_sequential": DATA_ONLY,
    "initial_reveal_order": DATA_ONLY,
    "rearrange_after_reveal": _flag("rearrange", K.R_REARRANGE),
    "placement_face": (Need("face_choice", K.R_PLACEMENT_FACE, lambda v: v == K.FACE_CHOICE),),
    "draw_from_discard": DATA_ONLY,
    "discard_draw_must_be_placed": DATA_ONLY,   # the rules accept only true
    "stock_draw_may_be_discarded": DATA_ONLY,
    "replace_face_up_allowed": DATA_ONLY,
    "lock_face_up_columns": DATA_ONLY,
    "replace_unseen_once": _flag("replace_once", K.R_REPLACE_UNSEEN_ONCE),
    "blind_replacement": (Need("look_before_replace", K.R_BLIND, lambda v: v == 0),),
    # only what the other seats know changes, and no built-in policy reads that
    "private_stock_draw": DATA_ONLY,
    "flip_instead_of_draw": _flag("flip_turns", K.R_FLIP_INSTEAD_OF_DRAW),
    "flip_after_stock_discard": _flag("flip_after_discard", K.R_FLIP_AFTER_DISCARD),
    "flip_all_to_end": _flag("flip_all_to_end", K.R_FLIP_ALL_TO_END),
    # a limit on flip_all_to_end, which needs the feature itself
    "flip_all_max_face_down": DATA_ONLY,
    "end_triggers": (Need("knock", K.R_END_TRIGGERS, lambda v: v & K.END_KNOCK),
                     Need("powers", K.R_END_TRIGGERS,
                          lambda v: v & (K.END_CALL | K.END_EMPTY_LAYOUT |
                                         K.END_STOCK_EXHAUSTED))),
    "knock_exclusive": DATA_ONLY,   # the rules accept only true
    "knock_min_laps": DATA_ONLY,
    "pay_to_peek": (Need("pay_to_peek", K.R_PAY_TO_PEEK, lambda v: v != K.NONE_VALUE),),
    "jack_discard_skips_next": _flag("jack_skips", K.R_JACK_SKIPS),
    "reveal_on_trigger": DATA_ONLY,
    "owner_view": DATA_ONLY,
    "knock_timing": (Need("knock_in_turn", K.R_KNOCK_TIMING, lambda v: v != K.KNOCK_INSTEAD),),
    "final_turns": DATA_ONLY,
    "final_turn_stock_only": DATA_ONLY,
    "stock_empty": DATA_ONLY,
    "remove_cancelled": _flag("remove_cancelled", K.R_REMOVE_CANCELLED),
    "turn_cap": DATA_ONLY,
    "value_scheme": DATA_ONLY,
    "value_two": DATA_ONLY,
    "twos_positive_with_jokers": DATA_ONLY,
    "value_jack": DATA_ONLY,
    "value_queen": DATA_ONLY,
    "value_king": DATA_ONLY,
    "value_ten": DATA_ONLY,
    "value_queen_of_spades": DATA_ONLY,
    "value_eight": DATA_ONLY,
    "value_red_king": DATA_ONLY,
    "value_black_king": DATA_ONLY,
    "value_king_of_diamonds": DATA_ONLY,
    "value_two_of_diamonds": DATA_ONLY,
    "value_joker": DATA_ONLY,
    # zero and bonus are card values
    "one_eyed_jacks": _flag("wild_jacks", K.R_WILD_JACKS),
    "match_key": DATA_ONLY,
    "pair_scope": DATA_ONLY,
    "line_sets": DATA_ONLY,
    # remove_immediately is remove_cancelled = immediate (the rules insist), classified there
    "overlap_rule": DATA_ONLY,
    "negative_pairs_keep_value": DATA_ONLY,
    "quad_two_columns_value": DATA_ONLY,
    "quad_two_columns_adjacent_only": DATA_ONLY,
    "quad_others_penalty": DATA_ONLY,
    "block_2x2_value": DATA_ONLY,
    "six_of_kind_value": DATA_ONLY,
    "quad_apart_value": DATA_ONLY,
    "joker_quad_value": DATA_ONLY,
    "joker_quad_apart_value": DATA_ONLY,
    "jack_pairs_bonus": DATA_ONLY,
    "negative_quad_value": DATA_ONLY,
    "shoot_the_moon": DATA_ONLY,
    "twenty_one_scores_zero": DATA_ONLY,
    "lowest_scores_zero": DATA_ONLY,
    "ender_penalty": DATA_ONLY,
    "ender_bonus": DATA_ONLY,
    "ender_tie": DATA_ONLY,
    "ender_rule_applies_to": DATA_ONLY,
    "ender_extra": DATA_ONLY,
    "ender_clamp": DATA_ONLY,
    "lowest_bonus": DATA_ONLY,
    "tie_penalty": DATA_ONLY,
    "match_end_mode": MATCH_ONLY,
    "match_end_holes": MATCH_ONLY,
    "match_end_target": MATCH_ONLY,
    "four_of_kind_wins_match": MATCH_ONLY,
    "match_tie": MATCH_ONLY,
    "misdeal_if_card_seen": DATA_ONLY,   # simulated players never look
    "dealer_selection": MATCH_ONLY,
    "dealer_rotation": MATCH_ONLY,
    "first_player": MATCH_ONLY,
    "pot_enabled": (Need("pot", K.R_POT_ANTE, bool),),
    "pot_ante": DATA_ONLY,
    "pot_cap": DATA_ONLY,
    "power_set": (Need("powers", K.R_POWER_SET, bool),),
    # the following only mean something with a power set, a snap or turn-match mode, or the
    # call trigger (the rules insist), each of which needs "powers"
    "dutch_powers": DATA_ONLY,
    "powers_off": DATA_ONLY,
    "power_source": (Need("powers", K.R_POWER_SOURCE, bool),),
    "power_card_placeable": DATA_ONLY,
    "snap_mode": (Need("powers", K.R_SNAP_MODE, bool),),
    "snap_penalty_opponent_miss": DATA_ONLY,
    "snap_penalty_cards": DATA_ONLY,
    "turn_match_mode": (Need("powers", K.R_TURN_MATCH, bool),),
    "match_fail_penalty_cards": DATA_ONLY,
    "call_name": DATA_ONLY,
    # the caller exists only with the call trigger; a knocker's opponents keep their values
    "non_caller_rule": (Need("powers", K.R_NON_CALLER, bool),),
}

_COMMON = frozenset({"initial_reveal", "knock", "face_choice"})
_EVERY = frozenset(FEATURES)


# the constants of the build block (simulator/kernel/flow/build.py) that every build's lines set
FLOW_CONSTANTS = ("USER", "TABLE", "GENERAL", "POWERS")
# the flow's own stand-ins for the user policy, which only a user build replaces
_FLOW_STAND_INS = "from simulator.kernel.flow import user_decide, user_decide_call"


@dataclass(frozen=True)
class Build:
    """One compiled build of the game flow (the package simulator/kernel/flow): its name (the
    one every command, the results' metadata and ``golfsim warm`` use), the values of the
    flow's build constants in it, the features it plays (a rule set needing any other is refused),
    about how long its first compile takes (seconds, cold, on an idle 2-core machine:
    benchmarks/compile_time.py), what a user is told it is, and the lines that bring in the
    policy it compiles in."""
    name: str
    constants: tuple
    features: frozenset
    estimate_s: float
    description: str
    imports: tuple = (_FLOW_STAND_INS,)

    def lines(self, *policy: str) -> str:
        """The flow's build lines for this build (builds.flow_build): its constants, then its
        imports, or ``policy``'s lines when given (a user build's policy)."""
        given = dict(self.constants)
        lines = [f"{name} = {given.get(name, False)}" for name in FLOW_CONSTANTS]
        lines += [f"{name} = {value}" for name, value in self.constants
                  if name not in FLOW_CONSTANTS]
        return "\n".join(lines + list(policy or self.imports)) + "\n"


_CACHE_S = 22   # the cache build, which compiles only as the part "general:cache" (PARTS)
BUILDS = {b.name: b for b in (
    # the flow package as it is: W1 and W2 run here, and the plain lookahead's rollouts
    Build("lean", (), _COMMON, 50, "the lean kernel"),
    # every feature but "powers", whose moves only the powers build compiles in
    Build("general", (("GENERAL", True),), _EVERY - {"powers"}, 20, "the general engine"),
    # the general engine's rounds whose seats all decide from the lean cache (flow/build.py
    # CACHED): the lean flow with the general engine's checks; compiled as the part
    # "general:cache" (engine.build), not a build a run is given
    Build("cache", (("CACHED", True),), _COMMON, _CACHE_S, "the general engine's cache build"),
    Build("powers", (("GENERAL", True), ("POWERS", True)), _EVERY, 20,
          "the power-card games' engine"),
    # any seats on the common rule sets: the general engine's policies' table and user
    # pointer in the flow of the user build (its steps inlined)
    Build("table", (("TABLE", True),), _COMMON, 38, "the engine of the common rule sets"),
    # every seat plays one user policy, compiled in (policy_api.user_kernel)
    Build("user", (("USER", True),), _COMMON, 180, "a user policy's own build"),
    # every seat plays one built-in (not lookahead), compiled in: the table build without the
    # table (builds.own_lines); one build per built-in, "own:NAME"
    Build("own", (("TABLE", True), ("OWN", True)), _COMMON, 70, "a built-in's own build"),
    # random's own build: the lean flow with every seat drawing over its legal actions
    # (random reads no views); "own:random" is built from it (builds.own_lines)
    Build("random", (("RANDOM", True),), _COMMON, 45, "the random policy's own build",
          (_FLOW_STAND_INS, "from strategies.random_policy import random_pick_nb as "
                            "random_pick")),
    # forgetful's and opponent-aware's own builds: the lean flow with knock-threshold's and
    # greedy's cache of what each seat knows, and the rule each adds to them (flow/build.py)
    Build("forgetful", (("FORGETFUL", True),), _COMMON, 50, "the forgetful policy's own build",
          (_FLOW_STAND_INS, "from strategies.forgetful import forget_lean_nb as forget")),
    Build("opponent-aware", (("AWARE", True),), _COMMON, 55,
          "the opponent-aware policy's own build",
          (_FLOW_STAND_INS, "from strategies.opponent_aware import withhold_lean_nb as "
                            "withhold")),
    # guide's own build: the lean flow keeping what the guide reads besides its cache
    Build("guide", (("GUIDE", True),), _COMMON, 60, "the guide policy's own build",
          (_FLOW_STAND_INS, "from strategies.guide import guide_lean_entry as _own",
           "own_decide = hot(_own, cache=False)")),
    # heuristic's: guide's flow, keeping what every seat knows of the others' cards as
    # opponent-aware's does; not face_choice, whose face the lean flow does not ask
    Build("heuristic", (("GUIDE", True), ("SEEN", True)), _COMMON - {"face_choice"}, 70,
          "the heuristic policy's own build",
          (_FLOW_STAND_INS, "from strategies.heuristic import heuristic_lean_entry as _own",
           "own_decide = hot(_own, cache=False)")),
)}
BUILD_FEATURES: dict[str, frozenset] = {name: b.features for name, b in BUILDS.items()}
# what else compiles apart: a build's match play, and each built-in policy (strategies/
# compiled.py) as "policy:NAME"; the seconds of a cold compile as for BUILDS. Greedy's powers
# entry includes the power rule that the rest of its family (warm.GREEDY_FAMILY) then loads.
PARTS = {
    # power_cabo's rules with every seat greedy (simulator/kernel/cabo): not a flow build
    "cabo": (45, "the Cabo build"),
    "general:matches": (5, "match play"),
    "powers:matches": (5, "match play of the power-card games"),
    # the turn loops of the general and powers builds, which compile apart from the rest
    # (engine.build), on another process when a first run has two
    "general:turns": (29, "the general engine's turn loop"),
    "general:cache": (_CACHE_S, "the general engine's rounds from the lean cache"),
    "powers:turns": (40, "the power-card games' turn loop"),
    "policy:random": (1, "the random policy"),
    "policy:greedy": (9, "the greedy policy"),
    "policy:knock-threshold": (9, "the knock-threshold policy"),
    "policy:greedy-powers": (40, "the greedy policy of the power-card games"),
    "policy:knock-threshold-powers": (7, "the knock-threshold policy of the power-card games"),
    "policy:forgetful": (6, "the forgetful policy"),
    "policy:heuristic": (10, "the heuristic policy"),
    "policy:opponent-aware": (7, "the opponent-aware policy"),
    "policy:ev": (16, "the ev policy"),
    "policy:guide": (12, "the guide policy"),
    # 36 s after the lean build in the same process (warm.TOGETHER), whose flow it shares
    "policy:lookahead": (79, "the lookahead policy"),
    # its rollouts' seat models and its search (the rollouts play on the powers build); after
    # greedy's build in the same process (warm.TOGETHER), whose power rule the models share
    "policy:lookahead-powers": (55, "the lookahead policy of the power-card games"),
    "policy:unused": (5, "the policy table's stand-in"),
}


def mask(names) -> int:
    return sum(BIT[name] for name in set(names))


def needed_from_ri(ri, matches: bool = False) -> int:
    """The features (bit mask) a flat rule array needs."""
    out = 0
    for needs in OPTION_FEATURES.values():
        for need in needs:
            if need.slot is None or need.when(int(ri[need.slot])):
                out |= BIT[need.feature]
    return out if matches else out & ~_MATCH_MASK


def lacking(build: str, needs: int) -> list[str]:
    """The features of ``needs`` that ``build`` does not have, in FEATURES order."""
    has = mask(BUILD_FEATURES[build])
    return [name for name in FEATURES if needs & BIT[name] and not has & BIT[name]]
