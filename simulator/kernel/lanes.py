"""The lean build's placement search as vector code: every layout position at once.

A decision of ``greedy`` or ``knock-threshold`` scores every position of the seat's layout and
keeps the best eligible one. As a loop, the processor mispredicts the eligibility tests and the
running maximum (their outcomes are data, not patterns), and LLVM's vectoriser leaves the loop
alone (too few iterations, and a tie rule on the position). So the search is emitted here as
LLVM vector instructions, one lane per position, as a C programmer would write it with vector
extensions: loads, multiplies, compares, selects and one max-reduction, no branch. LLVM lowers
it to whatever the machine has (AVX-512, AVX2 or SSE), and it is cached with the kernel like
any other compiled code.

Three widths, the narrowest that holds the layout: 4 lanes (four-card games), 8 (six- and
eight-card) and 16 (nine- and ten-card); each halving saves a step of the reduction, which is
on the critical path of every turn. Lane arithmetic is 32-bit, exact while |gain| stays below
GAIN_LIMIT: ``flow.rules_eligible`` refuses rule sets whose card values could overflow it.
"""

from __future__ import annotations

from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

import numpy as np

from .jit import hot, ix

NO_KEY = -(1 << 30)   # the key of no card (keys can be negative: match_key = point_value)

KEY_SHIFT = 4                            # key = gain * 16 + (15 - p): ties to the lowest p
POS_MASK = (1 << KEY_SHIFT) - 1
GAIN_LIMIT = 1 << (31 - KEY_SHIFT - 1)   # |gain| below this keeps every key exact in 32 bits

_I1 = ir.IntType(1)
_I32 = ir.IntType(32)


def _search(lanes: int):
    vec = ir.VectorType(_I32, lanes)
    splat_mask = ir.Constant(ir.VectorType(_I32, lanes), [0] * lanes)

    def constant(values):
        return ir.Constant(vec, [int(v) for v in values])

    def splat(builder, value, vtype):
        undef = ir.Constant(vtype, ir.Undefined)
        one = builder.insert_element(undef, value, ir.Constant(_I32, 0))
        return builder.shuffle_vector(one, undef, splat_mask)

    @intrinsic
    def best_key(typingctx, w, xn, bn, kq, negq, u, uq, rep, kc, vcn, negc, n, S):
        if not (isinstance(w, types.Array) and w.dtype == types.int32 and w.layout == "C"):
            return None
        sig = types.int64(w, xn, bn, kq, negq, u, uq, rep, kc, vcn, negc, n, S)

        def codegen(context, builder, signature, args):
            arr = context.make_array(signature.args[0])(context, builder, args[0])

            def field(k):  # lanes w[args[k] : args[k] + lanes]
                start = context.cast(builder, args[k], signature.args[k], types.intp)
                ptr = builder.bitcast(builder.gep(arr.data, [start]), vec.as_pointer())
                return builder.load(ptr, align=4)

            def scalar(k):  # args[k] in every lane
                value = context.cast(builder, args[k], signature.args[k], types.int32)
                return splat(builder, value, vec)

            v_xn, v_bn, v_kq, v_negq, v_u, v_uq = (field(k) for k in range(1, 7))
            s_rep, s_kc, s_vcn, s_n, s_S = (scalar(k) for k in (7, 8, 9, 11, 12))
            negc_flag = context.cast(builder, args[10], signature.args[10], types.boolean)
            s_negc = splat(builder, negc_flag, ir.VectorType(_I1, lanes))
            zero = constant([0] * lanes)

            # a negative card does not cancel with a negative one under negative_pairs_keep
            blocked = builder.and_(builder.icmp_signed("!=", v_negq, zero), s_negc)
            pairs = builder.and_(builder.icmp_signed("==", v_kq, s_kc), builder.not_(blocked))
            # an unknown card counts S: a mask, where a multiplication would take ten cycles
            u_S = builder.and_(v_u, s_S)
            g_pair = builder.add(builder.add(builder.mul(v_bn, s_n), u_S),
                                 builder.and_(v_uq, s_S))
            g_else = builder.sub(builder.add(builder.mul(v_xn, s_n), u_S), s_vcn)
            gain = builder.select(pairs, g_pair, g_else)
            bit = builder.and_(builder.lshr(s_rep, constant(range(lanes))), constant([1] * lanes))
            # over a known card the gain must reach n, over an unknown one 0
            ok = builder.and_(builder.icmp_signed("!=", bit, zero),
                              builder.icmp_signed(">=", gain, builder.and_(builder.not_(v_u),
                                                                            s_n)))
            key = builder.add(builder.shl(gain, constant([KEY_SHIFT] * lanes)),
                              constant(POS_MASK - p for p in range(lanes)))
            key = builder.select(ok, key, constant([-1] * lanes))
            smax = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(_I32, [vec]),
                f"llvm.vector.reduce.smax.v{lanes}i32")
            return builder.sext(builder.call(smax, [key]), ir.IntType(64))

        return sig, codegen

    best_key.__doc__ = f"""Over lanes p = 0..{lanes - 1}, each field F read at ``w[F + p]`` (an int32
        array; the field arguments are offsets into it):

            pairs = kq[p] == kc and not (negc and negq[p] != 0)
            U     = S if u[p] else 0          (u, uq: -1 when that card is unknown, else 0)
            gain  = bn[p]*n + U + (S if uq[p] else 0) if pairs else xn[p]*n + U - vcn
            eligible when bit p of ``rep`` is set and gain >= (0 if u[p] else n)

        returns the largest gain*16 + 15 - p over eligible lanes, or -1 when none is: the
        best position is then ``15 - (key & 15)``, the largest gain, ties to the lowest p."""
    return best_key


best_key4 = _search(4)
best_key8 = _search(8)
best_key16 = _search(16)


@hot(inline="always")
def best_key(w, npos, xn, bn, kq, negq, u, uq, rep, kc, vcn, negc, n, S):
    """The search over a layout of ``npos`` positions, at the narrowest width that holds it
    (the arguments after ``npos`` as for the widths above)."""
    if npos <= 4:
        return best_key4(w, xn, bn, kq, negq, u, uq, rep, kc, vcn, negc, n, S)
    if npos <= 8:
        return best_key8(w, xn, bn, kq, negq, u, uq, rep, kc, vcn, negc, n, S)
    return best_key16(w, xn, bn, kq, negq, u, uq, rep, kc, vcn, negc, n, S)


@hot(inline="always")
def _set_position(w, xn, stride, p, bn, v_other, k_other, key_other, neg_other, known):
    w[ix(xn + p)] = bn - v_other
    w[ix(xn + stride + p)] = bn
    w[ix(xn + 2 * stride + p)] = key_other
    w[ix(xn + 3 * stride + p)] = neg_other
    w[ix(xn + 4 * stride + p)] = known - 1
    w[ix(xn + 5 * stride + p)] = k_other - 1


@hot(inline="always")
def set_column(w, xn, stride, i, j, va, vb, ka, kb, kka, kkb, keep):
    """Write the fields ``best_key`` reads for a column of two cards at positions i and j
    (offsets within each field): xn at ``xn``, then bn, kq, negq, u and uq each ``stride``
    further. va, vb: the cards' values (0 when unknown); ka, kb: 1 when known; kka, kkb: their
    keys (NO_KEY when unknown); keep: 1 under negative_pairs_keep. Returns 1 when they pair."""
    # 0/1 arithmetic, not `and`: each test is data and would be a branch, often mispredicted
    equal = ka & kb & np.int64(kka == kkb)
    nega = keep & np.int64(va < 0)
    negb = keep & np.int64(vb < 0)
    bn = (va + vb) * (1 - equal + equal * nega * negb)
    _set_position(w, xn, stride, i, bn, vb, kb, kkb, negb, ka)
    _set_position(w, xn, stride, j, bn, va, ka, kka, nega, kb)
    return equal
