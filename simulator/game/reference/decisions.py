"""What a policy is asked and may answer in the reference engine: the decision points and
actions (the kernel's codes, by the names simulator/game/codes.py gives them), and the engine's
errors."""

from __future__ import annotations

from enum import IntEnum

from .. import codes as K

# the kernel's DP_* and A_* codes by the names simulator/game/codes.py gives them (what each
# one means is said there): Decision.TURN is codes.DP_TURN, Action.DRAW_STOCK codes.A_DRAW_STOCK;
# positions are the plain ints 0..15, not actions
Decision = IntEnum("Decision", {name.upper(): code for code, name in enumerate(K.DECISION_NAMES)},
                   module=__name__)
Decision.__doc__ = "What a policy is asked (the kernel's DP_* codes)."
Action = IntEnum("Action", {name.upper(): code for code, name in K.ACTION_NAMES.items()},
                 module=__name__)
Action.__doc__ = "Non-position actions (the kernel's A_* codes): positions are the ints 0..15."


NO_CARD = -1  # "no card" in log rows, as in the kernel


class InvariantError(AssertionError):
    """The reference engine's own bookkeeping is inconsistent (a bug in this module)."""


class IllegalActionError(RuntimeError):
    """A policy chose an action that is not legal at its decision point."""
