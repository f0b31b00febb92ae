"""The seats of the lookahead player's rollouts in the power-card games: every decision of a
rollout (the powers build, strategies/lookahead_powers.py) comes here, the one function in
every slot of the rollouts' table of policies, by name (simulator/kernel/by_name.py: its code
is compiled once, here, and linked into nothing).

The seat that is trying a move first gives the answers the move is made of (the scratch's
forced answers, strategies/lookahead.py ``AUX_FORCE_*``): its action at the start of its turn
or its call after it, then where the card it holds goes. Every other decision is its model's,
as the lookahead player models a table (docs/policies.md#lookahead-strategieslookaheadpy):
``knock-threshold`` seats as themselves, the lookahead player as ``knock-threshold`` with its
own T in knock and call games and as ``greedy`` otherwise, every other seat as ``greedy``;
each with its power rules (strategies/powers.py).
"""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import POLICY_KNOCK_THRESHOLD, POLICY_LOOKAHEAD
from simulator.kernel import by_name
from simulator.kernel.jit import hot
from simulator.kernel.policy_api import SIGNATURE as USER_SIGNATURE, no_user
from simulator.kernel.signatures import POLICY_SIGNATURE
from strategies.common import decide_with_nb
from strategies.greedy import greedy_nb, knock_threshold_nb
from strategies.lookahead import AUX_FORCE_PLACE, AUX_FORCE_SEAT, AUX_FORCE_TURN
from strategies.powers import clear_plan_nb, plan_match_nb


@hot
def model_nb(point, seat, held, g, rt, rng, par):
    """The decision of ``seat``'s model."""
    policy = np.int64(par[seat, 0])
    if policy == POLICY_KNOCK_THRESHOLD or (
            policy == POLICY_LOOKAHEAD and
            (rt[K.R_END_TRIGGERS] & (K.END_KNOCK | K.END_CALL)) != 0):
        return decide_with_nb(point, seat, held, g, rt, rng, par, knock_threshold_nb)
    return decide_with_nb(point, seat, held, g, rt, rng, par, greedy_nb)


@hot
def committed_nb(g, rt, seat, held, a):
    """Answer ``a`` of a greedy-family seat at the start of a turn or holding ``held``, with
    what its power rules keep for the decisions that follow: a turn match's nominations
    planned, a power's plan cleared (as they are when the rules themselves choose so)."""
    if a == K.A_MATCH:
        plan_match_nb(g, rt, seat, held, False)
    elif a == K.A_POWER or a == K.A_DISCARD_POWER:
        clear_plan_nb(g, seat)
    return a


@hot
def rollout_decide_nb(point, seat, held, g, rt, rng, par, aux):
    """A decision in a rollout: the move being tried, else the seat's model."""
    if seat == aux[AUX_FORCE_SEAT]:
        slot = -1
        if point == K.DP_TURN or point == K.DP_KNOCK:
            slot = AUX_FORCE_TURN
        elif point == K.DP_PLACE_DRAWN or point == K.DP_PLACE_TAKEN:
            slot = AUX_FORCE_PLACE
        if slot >= 0 and aux[slot] >= 0:
            a = aux[slot]
            aux[slot] = -1
            return committed_nb(g, rt, seat, held, a)
    return model_nb(point, seat, held, g, rt, rng, par)


# provided before the code of lookahead_powers, which imports this module first, is loaded
# (here, not there: compiling anything of strategies.lookahead* is the slow tier's)
DECIDE_NAME = "golfsim_rollout_decide"
NO_USER_NAME = "golfsim_rollout_no_user"
by_name.provide(DECIDE_NAME, rollout_decide_nb, POLICY_SIGNATURE)
# (a user policy's seat plays greedy's model in the rollouts: never asked; not cached, as
# NO_USER_POLICY caches the same function)
by_name.provide(NO_USER_NAME, hot(no_user, cache=False), USER_SIGNATURE)
