"""The lookahead player in the power-card games: determinised rollouts on the powers build.

It decides as strategies/lookahead.py does (candidate moves tried on the same deals of the cards
it has not seen, up to ``budget`` of them, in a race; the lowest mean margin kept), at three
points of its own turn: at its start (call, take the discard to each of the ``width`` best
positions or, when its turn match would use it, to match; draw; the top discard's power,
Cactus), holding the card it drew there (the ``width`` best positions, discard, the card's
power, a turn match), and when it may call after its turn (call or not). Its other decisions
(powers' targets, snaps, what a Dutch 8 draws, ...) are its model's
(strategies/rollout_models.py), and so are the moves it does not try.

A deal gives the cards it has not seen to the places it cannot see: the stock and every
face-down card it does not know, in any layout and at any position, grown ones included; an
empty position gets none. Whoever knew a card there knows the one dealt in its place, what it
knows of other layouts (peeks, swaps it saw) stays, and who was seen peeking, shields, skips,
penalties and the round's counters are as they are. A card it holds goes back on top of the
stock, for the move to draw it again.

Each rollout plays the round on from that state on the powers build itself (its turn loop,
``play_nb``, from any turn), with a table of policies whose every slot is the seats' model
(strategies/rollout_models.py) and no move log. The loop is called through the named slot
the build's own rounds call it through (``play_slot_nb``: simulator/kernel/by_name.py
``late_caller``), which the run fills before it plays (engine.build), so this module compiles
without it, on one process while another compiles the powers build; a user policy's seat is
modelled as ``greedy``, as every seat but knock-threshold's is (its id in the rollouts' copy
of the policy table is greedy's). This module is compiled only for a run of lookahead in a
power-card game (strategies/compiled.py), so the plain player's compile does not grow.
``aux[AUX_CHECK]`` nonzero makes every rollout check card conservation after every turn; a
rollout that fails (a check, an illegal answer, the slot not filled: never expected) is
counted in ``aux[AUX_FAILED]`` and the decision left to its model.
"""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import (G_DISCARD, G_KNOWN, G_LAY, G_LEGAL, G_MEMORY, G_PRIV, G_PUB,
                                  G_STOCK, MAX_PLAYERS, MAX_POS)
from simulator.game.codes import POLICY_GREEDY, POLICY_USER
from simulator.kernel import by_name, engine
from simulator.kernel.flow import FROM_CALL, LOG_FIELDS, PRIV_OVER
from simulator.kernel.jit import hot
from simulator.kernel.policy_api import SIGNATURE as USER_SIGNATURE
from simulator.kernel.rng import GAMMA, M1, mix64_nb
from simulator.kernel.scoring import TMP_SIZE
from simulator.kernel.signatures import POLICY_SIGNATURE
from strategies.common import MEM_DREW, MEM_PLANNED_POS
from strategies.lookahead import (AUX_ALIVE, AUX_CAND_ACTION, AUX_CAND_POS, AUX_CHECK,
                                  AUX_FAILED, AUX_FORCE_PLACE, AUX_FORCE_SEAT, AUX_FORCE_TURN,
                                  AUX_GAIN, AUX_PAR, AUX_PLACES, AUX_SAMPLE, AUX_TMP, PAR_RACE,
                                  PAR_WIDTH, _add_candidate_nb, _unseen_nb, best_candidate_nb,
                                  margin_nb, race_on_nb, record_nb, rollout_cap_nb,
                                  rollout_setup_nb, shuffle_hidden_nb)
from strategies.powers import (greedy_pool_nb, legal_positions_nb, now_nb,
                               placement_gain_nb, plan_match_nb, replaceable_nb, view_pool_nb)
from strategies.rollout_models import DECIDE_NAME, NO_USER_NAME, committed_nb, model_nb

# the powers build's moves (copy_state_nb, counters_nb, score_nb: small, compiled in here)
POWERS = engine.BUILDS["powers"]


_decide = by_name.pointer(DECIDE_NAME, POLICY_SIGNATURE)
_user = by_name.pointer(NO_USER_NAME, USER_SIGNATURE)
_play = POWERS.play_slot_nb   # (capped -1 while the slot is empty: the rollout fails)
assert K.N_POLICY_SLOTS == 9   # the rollouts' table (_best_move_nb) fills each slot


@hot
def _load_nb(g, rt, seat, held, aux, hidden, w):
    """The state ``w`` of a deal (the cards of aux's sample in the places of _unseen_nb) for
    rollouts from the decision in ``g``; returns its stock size."""
    players = rt[K.R_PLAYERS]
    n_stock = g[G_PUB + K.PUB_STOCK_N]
    POWERS.copy_state_nb(w, g, players, n_stock, g[G_PUB + K.PUB_DISCARD_N])
    for i in range(players * K.MEMORY_SLOTS):   # a seat's memory is its own: models start bare
        w[G_MEMORY + i] = 0
    w[G_PRIV + K.PRIV_LOG_N] = -1
    w[G_PRIV + K.PRIV_ERROR] = 0
    w[G_PRIV + PRIV_OVER] = 0   # (a drawn card put back ends the hole again when drawn)
    w[G_PUB + K.PUB_HELD_PUBLIC] = -1
    w[G_PUB + K.PUB_POWER] = 0
    w[G_PUB + K.PUB_TARGET_SEAT] = -1
    w[G_PUB + K.PUB_CHOICE0] = -1
    w[G_PUB + K.PUB_CHOICE1] = -1
    for k in range(hidden):
        place = aux[AUX_PLACES + k]
        card = aux[AUX_SAMPLE + k]
        if place < 0:
            w[G_STOCK + (-1 - place)] = card
            continue
        w[G_LAY + place] = card
        for obs in range(players):
            i = G_KNOWN + obs * MAX_PLAYERS * MAX_POS + place
            if g[i] >= 0:
                w[i] = card
    if held >= 0:
        w[G_STOCK + n_stock] = held
        n_stock += 1
        w[G_PUB + K.PUB_STOCK_N] = n_stock
    return n_stock


@hot
def _add_placements_nb(g, rt, seat, card, n, S, mask, width, aux, c, action):
    """Add (action, p) for the ``width`` positions of bit mask ``mask`` where ``card`` gains
    most by greedy's estimate with a pool of n cards worth S (ties to the lowest)."""
    n = max(n, 1)
    now = now_nb(g, rt, seat, n, S, 0)
    for p in range(MAX_POS):
        if (mask >> p) & 1:
            aux[AUX_GAIN + p] = placement_gain_nb(g, rt, seat, p, card, n, S, 0, now)
    for _ in range(width):
        best = -1
        for p in range(MAX_POS):
            if (mask >> p) & 1 and (best < 0 or aux[AUX_GAIN + p] > aux[AUX_GAIN + best]):
                best = p
        if best < 0:
            break
        mask &= ~(1 << best)
        c = _add_candidate_nb(aux, c, action, best)
    return c


@hot
def _candidates_nb(point, seat, held, g, rt, par, aux):
    """The moves to try, as (answer at the start of the turn or to the call, answer to the
    placement that follows or -1) in aux; returns how many."""
    width = max(1, np.int64(par[seat, PAR_WIDTH]))
    c = 0
    if point == K.DP_KNOCK:
        c = _add_candidate_nb(aux, c, K.A_KNOCK, -1)
        return _add_candidate_nb(aux, c, K.A_PASS, -1)
    if point == K.DP_PLACE_DRAWN:
        n, S = greedy_pool_nb(g, rt, seat)
        n, S = view_pool_nb(n, S, rt, held)
        c = _add_placements_nb(g, rt, seat, held, n, S, legal_positions_nb(g), width, aux, c,
                               K.A_DRAW_STOCK)
        for a in (K.A_DISCARD, K.A_POWER):
            if g[G_LEGAL + a]:
                c = _add_candidate_nb(aux, c, K.A_DRAW_STOCK, a)
        if g[G_LEGAL + K.A_MATCH] and plan_match_nb(g, rt, seat, held, False):
            c = _add_candidate_nb(aux, c, K.A_DRAW_STOCK, K.A_MATCH)
        return c
    if g[G_LEGAL + K.A_KNOCK]:
        c = _add_candidate_nb(aux, c, K.A_KNOCK, -1)
    if g[G_LEGAL + K.A_TAKE_DISCARD]:
        top = g[G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1]
        mask = 0
        for p in range(MAX_POS):
            if replaceable_nb(g, rt, seat, p):
                mask |= 1 << p
        n, S = greedy_pool_nb(g, rt, seat)   # (the top discard is out of it)
        c = _add_placements_nb(g, rt, seat, top, n, S, mask, width, aux, c, K.A_TAKE_DISCARD)
        if rt[K.R_TURN_MATCH] != K.TMATCH_NONE and plan_match_nb(g, rt, seat, top, False):
            c = _add_candidate_nb(aux, c, K.A_TAKE_DISCARD, K.A_MATCH)
    for a in (K.A_DRAW_STOCK, K.A_DISCARD_POWER):
        if g[G_LEGAL + a]:
            c = _add_candidate_nb(aux, c, a, -1)
    return c


@hot
def _best_move_nb(point, seat, held, g, rt, rng, par, aux, n):
    """The candidate whose rollouts end with the lowest mean margin; -1 when the seat's view
    is inconsistent or a rollout failed (never expected)."""
    hidden = _unseen_nb(g, rt, seat, held, aux, MAX_POS)
    if hidden < 0:
        return -1
    players = rt[K.R_PLAYERS]
    w, dealt, roll, base, budget = rollout_setup_nb(g, rng, par, seat)
    n_disc = g[G_PUB + K.PUB_DISCARD_N]
    decide = _decide()
    table = (decide, decide, decide, decide, decide, decide, decide, decide, decide)
    # no move log (the deal's PRIV_LOG_N is -1: _load_nb), so any rows will do
    ctx = (dealt[:LOG_FIELDS].reshape((1, LOG_FIELDS)), _user(), table, aux,
           aux[AUX_TMP:AUX_TMP + TMP_SIZE], aux[AUX_CHECK] != 0)
    cols = par.shape[1]
    rpar = aux[AUX_PAR:AUX_PAR + players * cols].view(np.float64).reshape((players, cols))
    for s in range(players):
        for k in range(cols):
            rpar[s, k] = par[s, k]
        if rpar[s, 0] == POLICY_USER:
            rpar[s, 0] = POLICY_GREEDY
    aux[AUX_FORCE_SEAT] = seat
    z = par[seat, PAR_RACE]
    for d in range(budget):
        # one deal for every move, as strategies/lookahead.py: loaded once, copied for each
        roll[0] = mix64_nb(base + np.uint64(d) * M1 + GAMMA)
        shuffle_hidden_nb(aux, hidden, roll)
        n_stock = _load_nb(g, rt, seat, held, aux, hidden, dealt)
        after_deal = roll[0]
        for c in range(n):
            if not aux[AUX_ALIVE + c]:
                continue
            roll[0] = after_deal
            POWERS.copy_state_nb(w, dealt, players, n_stock, n_disc)
            aux[AUX_FORCE_TURN] = aux[AUX_CAND_ACTION + c]
            aux[AUX_FORCE_PLACE] = aux[AUX_CAND_POS + c]
            n_stock_w, n_disc_w, sum_disc, up_n, up_sum, turn, ender, final_left, knocked, \
                reshuffles = POWERS.counters_nb(w)
            cap = rollout_cap_nb(rt, par, seat, turn)
            turn, ender, knocked, capped, reshuffles = _play(
                w, rt, rpar, roll, ctx, seat, n_stock_w, n_disc_w, sum_disc, up_n, up_sum, turn,
                ender, final_left, knocked, reshuffles,
                FROM_CALL if point == K.DP_KNOCK else -1, -1, cap)
            if capped < 0:
                aux[AUX_FAILED] += 1
                return -1
            record_nb(aux, c, margin_nb(POWERS.score_nb, w, rt, ender, knocked, aux, seat))
        if race_on_nb(aux, n, d + 1, z) < 2:
            break
    return best_candidate_nb(aux, n)


@hot
def lookahead_powers_nb(point, seat, held, g, rt, rng, par, aux):
    """The lookahead player's answer at any decision of a power-card game."""
    memory = G_MEMORY + seat * K.MEMORY_SLOTS
    turn = g[G_PUB + K.PUB_TURN]
    if point == K.DP_PLACE_TAKEN and g[G_PUB + K.PUB_POWER] == K.POW_NONE:
        a = g[memory + MEM_PLANNED_POS]   # what its turn's start chose the discard for
        if 0 <= a < K.N_ACTIONS and g[G_LEGAL + a]:
            return committed_nb(g, rt, seat, held, a)
        return model_nb(point, seat, held, g, rt, rng, par)
    # a card it holds is tried only when it drew it at its turn's start (not the Dutch 8's)
    own_draw = point == K.DP_PLACE_DRAWN and g[memory + MEM_DREW] == turn + 1
    if point != K.DP_TURN and point != K.DP_KNOCK and not own_draw:
        return model_nb(point, seat, held, g, rt, rng, par)
    g[memory + MEM_DREW] = 0
    n = _candidates_nb(point, seat, held, g, rt, par, aux)
    best = _best_move_nb(point, seat, held, g, rt, rng, par, aux, n) if n > 1 else -1
    if best < 0:
        a = model_nb(point, seat, held, g, rt, rng, par)
    elif point == K.DP_PLACE_DRAWN:
        a = committed_nb(g, rt, seat, held, aux[AUX_CAND_POS + best])
    else:
        a = aux[AUX_CAND_ACTION + best]
        if a == K.A_TAKE_DISCARD:
            g[memory + MEM_PLANNED_POS] = aux[AUX_CAND_POS + best]
        a = committed_nb(g, rt, seat, held, a)
    if point == K.DP_TURN and a == K.A_DRAW_STOCK:
        g[memory + MEM_DREW] = turn + 1
    return a


def lookahead_powers_entry(point, seat, held, g, rt, rng, par, aux):
    """The entry point strategies.compiled compiles for lookahead in the power-card games."""
    return lookahead_powers_nb(point, seat, held, g, rt, rng, par, aux)
