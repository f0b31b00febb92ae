"""The game flow, written once for compiled code and compiled per build.

A build is this package compiled with the lines between the build markers of build.py set for
it (simulator/kernel/builds.py ``flow_build`` writes a copy of the package into the cache
folder, build.py's lines replaced, and imports it from there):

- the lean build (this package as it is): common rule sets with every seat ``greedy`` or
  ``knock-threshold``, played inline from a cache of what each seat knows
  (simulator/kernel/lean_policy.py). W1 and W2 run here, and lookahead's rollouts;
- a user build (``USER``; ``policy_api.user_kernel`` writes the copy): common rule sets with
  every seat playing one user policy, compiled into the loop;
- the table build (``TABLE``; simulator/kernel/engine.py writes the copy): the rule sets of
  the user build with any seats, asked as the general build asks them (the built-ins'
  table, a user policy's pointer) from a flow whose steps are inlined: every built-in that
  the lean build does not play, on the common rule sets (no move log, no invariant checks);
- a built-in's own build (``OWN`` with ``TABLE``; simulator/experiments/runner.py ``own_kernel``
  writes the copy, builds.own_lines its lines): the table build with every seat playing one
  built-in, its entry point compiled into the loop instead of called through the table;
  random's own build (``RANDOM``, features.BUILDS "random") is the lean build instead, each
  seat drawing over a bit mask of its legal actions (random reads no views, so none are kept),
  and so are forgetful's (``FORGETFUL``: knock-threshold unlearning what it forgets),
  opponent-aware's (``AWARE``: greedy, with what every seat knows of the others' cards kept as
  one mask a seat for its rule), guide's (``GUIDE``: keeping what the guide reads besides
  the cache, and asking its entry point) and heuristic's (``GUIDE`` with ``SEEN``: the masks
  of opponent-aware's too and the cards in sight by type, from which it counts the cards it
  has seen);
- the general build (``GENERAL``; simulator/kernel/engine.py writes the copy): every rule
  feature, any seats: built-in policies through the run's table of compiled entry points
  (strategies/compiled.py), a user policy through its pointer; move logs and invariant
  checks. A round whose seats are all greedy or knock-threshold, on rules the lean build
  plays and without a move log, reads no views: the general build plays it on its cache
  build (``CACHED``: the lean flow with the general build's invariant checks,
  ``cached_round_nb``) through a slot, compiled apart (engine.SLOT_PARTS "general:cache").
  Its powers build (``POWERS``) plays the power-card games too, and the lookahead
  player's rollouts in them, from any seat's turn (``play_nb`` from ``FROM_CALL`` and the
  counters of the public slots, ``counters_nb``; strategies/lookahead_powers.py).

``USER``, ``TABLE``, ``GENERAL``, ``POWERS``, ``OWN``, ``RANDOM``, ``FORGETFUL``, ``AWARE``,
``GUIDE``, ``SEEN`` and ``CACHED`` are module
constants, so Numba drops the branches of the other builds before it compiles anything, and
each build pays only for what it has. The state is the array ``g`` (codes.G_*); the counters of a plain round
(stock, discard pile, face-up cards, turn, ender) live in local variables, and the builds whose
policies read the views (``VIEWS``) copy them into the public slots before each decision,
keep every seat's knowledge (codes.G_KNOWN) and the face-up flags; in a power round the
public slots hold them too (its steps read and write them there), and the moves write whole
cells (moves.py). Every build plays the very same rounds for a rule set it accepts (tests:
test_lean, test_user_kernel, test_reference_parity, test_contract); which features each has
is simulator/kernel/features.py's allow list. Rules stay data: one compiled build serves
every rule set it accepts.

The modules, by concern (each imports only those above it):

- build.py: the build's constants (the lines each build replaces);
- base.py: derived constants, error codes, which rule sets the lean builds play, accessors;
- moves.py: the card moves, one set for every build, with the knowledge each creates;
- ask.py: asking a seat's policy (the views published, the legal mask, the answer checked);
- reveal.py: the initial reveal, rearranging, groups leaving the layout;
- power_effects.py, power_turn.py: the power-card games' effects, and the power steps a
  turn takes under ``POWERS`` (the held card's power or match, the snap window, the end by
  an emptied layout or stock);
- turn.py: one turn, of every round (the power steps under ``POWERS``), and the end it may
  trigger;
- round.py: a round from the deal to its scores (one loop of turns, ``play_nb``), a chunk
  of rounds, match play.
"""

from simulator.game.codes import POLICY_GREEDY, POLICY_KNOCK_THRESHOLD

from .ask import counters_nb
from .base import (ERR_CONSERVATION, ERR_ILLEGAL_ACTION, ERR_LOG_FULL, ERR_NO_TURNS, FROM_CALL,
                   LOG_FIELDS, PRIV_OVER, eligible, known_at, lean_seats, own, policy_slot_nb,
                   rules_eligible)
from .build import GENERAL, POWERS, TABLE, USER, user_decide, user_decide_call
from .moves import copy_state_nb, learn_nb
from .round import (chunk_nb, placement_mask_nb, play_matches_nb, play_nb, play_slot_nb,
                    prefix_nb, round_nb, score_nb, turn_mask_nb)

# what the other modules read of the lean build (a build's copy has the same names)
__all__ = ["POLICY_GREEDY", "POLICY_KNOCK_THRESHOLD", "ERR_CONSERVATION", "ERR_ILLEGAL_ACTION",
           "ERR_LOG_FULL", "ERR_NO_TURNS", "LOG_FIELDS", "PRIV_OVER", "eligible", "known_at",
           "lean_seats", "own",
           "policy_slot_nb", "rules_eligible", "GENERAL", "POWERS", "TABLE", "USER",
           "user_decide", "user_decide_call", "copy_state_nb", "learn_nb", "chunk_nb",
           "placement_mask_nb", "play_matches_nb", "play_nb", "play_slot_nb", "prefix_nb",
           "round_nb", "score_nb", "turn_mask_nb", "counters_nb", "FROM_CALL"]
