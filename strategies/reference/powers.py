"""The built-in policies' power decisions in the reference engine (docs/policies.md#power-cards):
what a greedy or knock-threshold seat answers at a power card, a turn match, a snap or a call
(simulator/game/powers/), written as the plain-Python specification of the compiled greedy
family's power moves (strategies/powers.py); the parity tests hold the two to the same moves.
Its judgments are :mod:`.power_view`'s."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.reference import Action, Decision, Observation

from .plain import KnockThresholdPolicy
from .power_view import (PowerView, beats_placement, best_line, blind_match, cabo_nomination,
                         combine_choice, exchange_target, flip_target, greedy_calls, leader,
                         line_target, pablo_nomination, removal, shuffle_target, snap_target,
                         turn_power_wanted, wants_power)


def decide(policy, obs: Observation) -> int | None:
    """A greedy or knock-threshold seat's answer at a power-card decision, or None to leave it
    to the plain game's rules (docs/policies.md#power-cards)."""
    d, legal, rules = obs.decision, obs.legal, policy.rules
    view = PowerView(policy, obs)
    me = obs.seat
    plan = getattr(policy, "power_plan", {})
    policy.power_plan = plan
    if d in (Decision.TURN, Decision.KNOCK):
        return _turn(view, obs, plan, not isinstance(policy, KnockThresholdPolicy))
    if d == Decision.PLACE_DRAWN or (d == Decision.PLACE_TAKEN and Action.MATCH in legal):
        if Action.MATCH in legal:
            if rules.turn_match_mode == "pablo_multi_replace":
                chosen = pablo_nomination(view)
                if chosen:
                    plan["nominate"], plan["done"] = [(me, p) for p in chosen], []
                    return Action.MATCH
            else:
                chosen = cabo_nomination(view)
                if chosen:
                    plan["nominate"], plan["done"] = chosen, []
                    return Action.MATCH
        if d == Decision.PLACE_TAKEN:
            return None
        return _held(view, obs, plan)
    if d == Decision.PLACE_TAKEN and obs.power == K.POW_EXCHANGE_THIS:
        p = policy.best_placement(obs, obs.held, policy.pool(obs, obs.held))
        return p if p in legal else view.worst_own(list(legal))
    if d == Decision.SNAP:
        target = snap_target(view, rules)
        if target is None:
            return Action.PASS
        plan["snap"] = target
        return Action.SNAP
    if d == Decision.SWAP:
        own, theirs = plan.get("own"), plan.get("theirs")
        if own is not None and theirs is not None and \
                view.est(*theirs) < view.est(me, own):
            return Action.SWAP
        return Action.PASS
    if d == Decision.KEEP:
        values = [view.table.value[c] for c in obs.choices]
        return 0 if values[0] <= values[1] else 1
    if d == Decision.CHOOSE_POWER:
        view.held = plan.get("held")
        rank = combine_choice(view, legal)
        return Action.PASS if rank is None else rank
    if d == Decision.NOMINATE or (d == Decision.TARGET_SEAT and obs.power == K.CTX_NOMINATE):
        wanted = [t for t in plan.get("nominate", []) if t not in plan.get("done", [])]
        if d == Decision.TARGET_SEAT:
            for s, _ in wanted:
                if s in legal:
                    return s
            return Action.PASS if Action.PASS in legal else legal[0]
        for s, p in wanted:
            if s == obs.target_seat and p in legal:
                plan.setdefault("done", []).append((s, p))
                return p
        return Action.PASS if Action.PASS in legal else legal[0]
    if d == Decision.TARGET_SEAT:
        return _target_seat(view, obs, plan)
    if d == Decision.TARGET_POS:
        return _target_pos(view, obs, plan)
    return None


def _turn(view: PowerView, obs: Observation, plan: dict, greedy: bool) -> int | None:
    """decide at TURN and KNOCK: greedy's call; Cactus's turn on the top discard's power
    instead of the draw its turn rule would make; None: the plain rules."""
    policy, legal = view.policy, obs.legal
    if greedy and "call" in view.rules.end_triggers and Action.KNOCK in legal and \
            greedy_calls(view):
        return Action.KNOCK
    if greedy and obs.decision == Decision.KNOCK:
        return Action.PASS
    if obs.decision == Decision.TURN and Action.DISCARD_POWER in legal:
        pool = policy.pool(obs, None)   # its turn rule would take the discard, or draw
        takes = Action.TAKE_DISCARD in legal and pool.n > 0 and \
            policy.best_placement(obs, obs.discard[-1], pool) is not None
        if not takes and turn_power_wanted(view):
            plan.clear()
            return Action.DISCARD_POWER
    return None


def _held(view: PowerView, obs: Observation, plan: dict) -> int:
    """decide holding a drawn card it does not match: the placement, unless the power is
    worth more; Cabo's blind match; the power when worth using; else discard."""
    policy, legal = view.policy, obs.legal
    positions = [a for a in legal if a < K.MAX_POS]
    if positions:
        p = policy.best_placement(obs, obs.held, policy.pool(obs, obs.held)) \
            if policy.pool(obs, obs.held).n > 0 else None
        if p is not None and p in positions:
            if Action.POWER in legal and beats_placement(view, obs.power, obs.held, p):
                return use_power(plan, obs)
            return p
    if Action.MATCH in legal and view.rules.turn_match_mode == "cabo_match" and \
            obs.held is not None:
        chosen = blind_match(view)
        if chosen:
            plan["nominate"], plan["done"] = [chosen], []
            return Action.MATCH
    if Action.POWER in legal and wants_power(view, obs.power):
        return use_power(plan, obs)
    if Action.DISCARD in legal:
        return Action.DISCARD
    if Action.POWER in legal:
        return Action.POWER
    return min(legal)


def use_power(plan: dict, obs: Observation) -> int:
    """POWER: the plan starts anew; the Dutch 2 remembers the card it uses (its choices are
    asked without it)."""
    plan.clear()
    if obs.power == K.POW_COMBINE:
        plan["held"] = obs.held
    return Action.POWER


def _target_seat(view: PowerView, obs: Observation, plan: dict) -> int:
    me, legal, effect = obs.seat, obs.legal, obs.power
    if effect == K.CTX_SNAP and plan.get("snap") and plan["snap"][0] in legal:
        return plan["snap"][0]
    chosen = None
    if effect == K.POW_SHUFFLE_OPP:
        chosen = shuffle_target(view)
    elif effect == K.POW_SWAP_LINE:
        chosen = line_target(view)[0]
    elif effect == K.POW_FLIP_OPP:
        chosen = (flip_target(view) or (None,))[0]
    elif effect == K.POW_GIVE_OR_REMOVE:
        chosen = me if removal(view)[1] > 0 else leader(view, legal)
    elif effect == K.POW_EXCHANGE_THIS:
        target = exchange_target(view)[0]
        if target is not None and target[0] in legal:
            plan["theirs"] = target
            return target[0]
    if chosen is not None and chosen in legal:
        return chosen
    if effect in (K.POW_PEEK_OPP, K.POW_PEEK_ANY, K.POW_FLIP_OPP, K.POW_SHUFFLE_OPP):
        target = view.peek_target(effect == K.POW_PEEK_ANY)
        if target is not None and target[0] in legal:
            return target[0]
    if effect in (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_AFTER_PEEK_OPP, K.POW_PEEK_BOTH_SWAP,
                  K.POW_SWAP_ANY_TWO, K.POW_EXCHANGE_THIS):
        if effect == K.POW_SWAP_ANY_TWO and plan.get("first"):
            return me if me in legal else legal[0]
        best = view.best_opponent_card()
        if best is not None and best[0] in legal:
            if effect == K.POW_PEEK_BOTH_SWAP:
                target = view.peek_target(False)
                if target is not None and target[0] in legal:
                    best = target
            plan["theirs"] = best
            return best[0]
    if effect == K.POW_GIVE_OR_REMOVE and me in legal:
        return me
    return legal[0]


def _target_pos(view: PowerView, obs: Observation, plan: dict) -> int:
    me, legal, effect, t = obs.seat, list(obs.legal), obs.power, obs.target_seat
    if effect == K.CTX_SNAP and plan.get("snap") and plan["snap"][0] == t and \
            plan["snap"][1] in legal:
        return plan["snap"][1]
    if effect == K.POW_GIVE_OR_REMOVE and t == me and removal(view)[0] in legal:
        return removal(view)[0]
    if effect == K.POW_SWAP_LINE:
        k = best_line(view, t)[0]
        return k if k in legal else legal[0]
    if effect == K.POW_FLIP_OPP:
        target = flip_target(view)
        if target is not None and target[0] == t and target[1] in legal:
            return target[1]
    if effect == K.CTX_GIVE and removal(view)[0] in legal:
        return removal(view)[0]
    swaps = (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_AFTER_PEEK_OPP, K.POW_SWAP_ANY_TWO)
    if t == me and effect in swaps:
        if effect == K.POW_SWAP_ANY_TWO:
            plan.pop("first", None)
        if plan.get("theirs") is not None:
            s, q = plan["theirs"]
            return view.best_receiver(legal, obs.known[s][q])[0]
    if effect == K.CTX_GIVE or (t == me and effect in swaps + (K.POW_GIVE_OR_REMOVE,)):
        return view.worst_own(legal)
    if effect == K.POW_PEEK_BOTH_SWAP and t == me:
        unknown = view.unknown(me, legal)
        plan["own"] = unknown[0] if unknown else view.worst_own(legal)
        return plan["own"]
    if effect in (K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_AFTER_PEEK_OPP, K.POW_PEEK_BOTH_SWAP,
                  K.POW_SWAP_ANY_TWO, K.POW_EXCHANGE_THIS):
        theirs = plan.get("theirs")
        p = theirs[1] if theirs is not None and theirs[0] == t and theirs[1] in legal else \
            view.best_of(t, legal)
        plan["theirs"] = (t, p)
        if effect == K.POW_SWAP_ANY_TWO:
            plan["first"] = True
        return p
    unknown = view.unknown(t, legal)
    return unknown[0] if unknown else legal[0]
