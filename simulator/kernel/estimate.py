"""The card-counting estimate that ``greedy`` and ``knock-threshold`` (W1 and W2,
docs/benchmarks.md) share, and their placement search, for every pair scope.

Both the general engine (strategies/builtin.py, from what a seat may see) and the flow's
lean build (simulator/kernel/flow, from its cache) play these two policies. So the functions here read a
seat's own cards from any array at any offset, ``cards[base + p]`` (-1 when the seat does not
know the card), and both call the very same code: their decisions cannot drift apart. The
lean build keeps a vectorised search for its two commonest scopes (none, and two-row
columns); every other scope comes here.

``hide`` (bit p set) makes the seat treat its face-down card at p as unknown, read from the
face-up flags ``up[up_base + p]``; only ``forgetful`` forgets, so the lean build passes 0.
"""

from __future__ import annotations

from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from ..game import codes as K
from ..game.codes import RT_KEY, RT_VALUE
from .jit import hot, ix


@hot(inline="always")
def own_card_at_nb(cards, base, up, up_base, hide, p):
    """The seat's card at p as far as it remembers it, or -1."""
    c = cards[ix(base + p)]
    if hide != 0 and (hide >> p) & 1 and up[ix(up_base + p)] == 0:
        return -1
    return c


@hot(inline="always")
def partner_nb(cards, base, up, up_base, hide, rt, p, x, at, card, used):
    """The known card that ``x`` at p pairs with: the first position after p related to p
    (codes.RT_REL), not in ``used``, holding a known card of the same key; -1 if none.
    ``card`` is imagined at ``at``."""
    # over the set bits of the relation after p, lowest first
    free = rt[ix(K.RT_REL + p)] & ~used & ~((2 << p) - 1) & ((1 << rt[K.R_NPOS]) - 1)
    kx = rt[ix(RT_KEY + x)]
    while free != 0:
        q = trailing_zeros(free)
        free &= free - 1
        y = card if q == at else own_card_at_nb(cards, base, up, up_base, hide, q)
        if y >= 0 and rt[ix(RT_KEY + y)] == kx:
            return q
    return -1


@hot
def estimate_cards_nb(cards, base, up, up_base, hide, rt, at, card, n, S):
    """n times the estimated layout score, with ``card`` imagined at position ``at`` (at = -1:
    as it is). Unknown cards count S/n and pair with nothing; known cards pair among themselves
    by key, each with the first free related position after it (codes.RT_REL)."""
    scope = rt[K.R_PAIR_SCOPE]
    total = 0
    used = 0
    for p in range(rt[K.R_NPOS]):
        x = card if p == at else own_card_at_nb(cards, base, up, up_base, hide, p)
        partner = -1
        if x >= 0 and not (used >> p) & 1 and scope != K.PAIR_NONE:
            partner = partner_nb(cards, base, up, up_base, hide, rt, p, x, at, card, used)
        total, used = tally_nb(rt, total, used, p, x, partner, n, S)
    return total


@hot(inline="always")
def tally_nb(rt, total, used, p, x, partner, n, S):
    """(total, used) after position p of a layout estimate: an unknown card (x = -1) adds S,
    a card already paired (bit p of ``used``) nothing, a card pairing with position
    ``partner`` nothing (and marks that one used), any other card n times its value."""
    if x < 0:
        return total + S, used
    if (used >> p) & 1:
        return total, used
    if partner >= 0:
        return total, used | (1 << partner)
    return total + rt[ix(RT_VALUE + x)] * n, used


@hot(inline="always")
def column_estimate_nb(ka, va, kb, vb, a_known, b_known, n, S, keep_negative):
    """n times the estimated score of a 2-card column: a known pair scores its pair value,
    known cards their values, an unknown card S/n (it pairs with nothing)."""
    if a_known and b_known:
        if ka == kb:
            return (va + vb) * n if keep_negative and va < 0 and vb < 0 else 0
        return (va + vb) * n
    if a_known:
        return va * n + S
    if b_known:
        return vb * n + S
    return 2 * S


@intrinsic
def trailing_zeros(typingctx, x):
    """The index of the lowest set bit of x (x != 0): one instruction (tzcnt)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = context.cast(builder, args[0], signature.args[0], types.int64)
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i64, [i64, ir.IntType(1)]), "llvm.cttz.i64")
        return builder.call(fn, [value, ir.Constant(ir.IntType(1), 1)])

    return types.int64(x), codegen


@hot(inline="always")
def _unmatched_nb(cards, base, up, up_base, hide, rt, group, at, card):
    """The value sum of the positions in ``group`` (known cards of one key) that
    estimate_cards_nb leaves unpaired, with ``card`` at ``at``: each position, lowest first,
    pairs with the first free related position after it in the group."""
    total = 0
    used = 0
    left = group
    while left != 0:
        p = trailing_zeros(left)
        left &= left - 1
        if (used >> p) & 1:
            continue
        free = rt[ix(K.RT_REL + p)] & group & ~used & ~((2 << p) - 1)
        if free != 0:
            used |= free & -free
        else:
            x = card if p == at else own_card_at_nb(cards, base, up, up_base, hide, p)
            total += rt[ix(RT_VALUE + x)]
    return total


@hot(inline="always")
def key_group_nb(cards, base, up, up_base, hide, rt, key):
    """Bit q set for each position whose known card has match key ``key``."""
    group = 0
    for q in range(rt[K.R_NPOS]):
        y = own_card_at_nb(cards, base, up, up_base, hide, q)
        if y >= 0 and rt[ix(RT_KEY + y)] == key:
            group |= 1 << q
    return group


@hot
def best_scan_nb(cards, base, up, up_base, hide, rt, replaceable, card, n, S):
    """W1's placement rule (docs/benchmarks.md#w1) for any pair scope: among the positions
    whose bit is set in ``replaceable``, the one with the largest gain n*G(p) = n*(E now - E
    with ``card`` at p) (E as estimate_cards_nb), eligible when G >= 1 over a known card and
    G >= 0 over an unknown one, ties to the lowest position; -1 if none is eligible.

    Cards pair only with cards of their own key, so E is a sum over key groups, and putting
    ``card`` at p changes two groups only: the card's (which gains p) and that of the card it
    replaces (which loses p). The gain is computed from those two instead of estimating the
    whole layout twice per position."""
    kc = rt[ix(RT_KEY + card)]
    mine = key_group_nb(cards, base, up, up_base, hide, rt, kc)
    mine_now = _unmatched_nb(cards, base, up, up_base, hide, rt, mine, -1, -1)
    best = -1
    best_gain = 0
    for p in range(rt[K.R_NPOS]):
        if (replaceable >> p) & 1 == 0:
            continue
        bit = 1 << p
        x = own_card_at_nb(cards, base, up, up_base, hide, p)
        if x >= 0 and rt[ix(RT_KEY + x)] == kc:
            # the same group, the same pairs: only the value at p changes if it is unpaired
            gain = (mine_now - _unmatched_nb(cards, base, up, up_base, hide, rt, mine, p,
                                             card)) * n
        else:
            with_it = _unmatched_nb(cards, base, up, up_base, hide, rt, mine | bit, p, card)
            gain = (mine_now - with_it) * n
            if x < 0:
                gain += S
            else:
                theirs = key_group_nb(cards, base, up, up_base, hide, rt, rt[ix(RT_KEY + x)])
                gain += (_unmatched_nb(cards, base, up, up_base, hide, rt, theirs, -1, -1) -
                         _unmatched_nb(cards, base, up, up_base, hide, rt, theirs & ~bit, -1,
                                       -1)) * n
        if gain >= (n if x >= 0 else 0) and (best < 0 or gain > best_gain):
            best = p
            best_gain = gain
    return best
