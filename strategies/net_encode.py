"""The observation vector of a seat, computed from the policy views, and a network's choice.

One encoder for both sides of a learned player: the environments (simulator/env) build the
views a compiled policy receives (simulator/kernel/policy_api.py SIGNATURE) from the reference
engine's state and encode them here; ``net:`` strategies (strategies/net.py) encode the
compiled engine's views here. The same views make the same vector, so a network decides the
same in both. docs/env.md#observation documents every field; :func:`field_sizes` gives their
order and sizes. Seats are counted in turn order from the observing seat.

A network reaches compiled code as one float32 array (``pack`` in strategies/net.py):
``[layers, n0, n1, .., n_layers, W0 (n0 x n1, row-major), b0, W1, b1, ..]``; hidden layers are
ReLU, the last one's outputs are logits over the actions.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic

from simulator.game import codes as K
from simulator.game.cards import CARDS_PER_DECK, N_RANKS
from simulator.kernel.jit import hot

VERSION = 2
CARD = N_RANKS + 4 + 1           # a card: its rank, its suit (none for a joker), its value
VALUE_SCALE = 20                 # values are divided by this, or by the largest |value|
CELL = 3 + CARD                  # a layout position: present, face_up, known, then the card
RESHUFFLE_SCALE = 8              # reshuffles count up to this many (then 1)
RANK_COPIES_SCALE = 8            # copies of a rank in the discard pile count up to this many
N_EFFECTS = K.CTX_GIVE           # PUB_POWER codes 1..CTX_GIVE (0: none)
SEAT_FIELDS = 2                  # per seat: face-down cards / MAX_POS, shielded
NO_CARD = -1


def field_sizes(players: int) -> list[tuple[str, int]]:
    """(name, floats) of every field in order, for a table of ``players`` seats."""
    return [("decision", K.N_DECISION_POINTS), ("actor", players), ("held", 1 + CARD),
            ("group", K.MAX_POS), ("power", N_EFFECTS), ("target_seat", players),
            ("choices", 2 * (1 + CARD)), ("top_power_unused", 1), ("discard_top", 1 + CARD),
            ("discard_ranks", N_RANKS), ("discard_size", 1), ("stock_size", 1), ("turn", 1),
            ("reshuffles", 1), ("ender", players), ("final_turns_left", 1), ("knocked", 1),
            ("position", players), ("positions", players * K.MAX_POS * CELL),
            ("seats", players * SEAT_FIELDS)]


# the vector's size is FIXED + PER_SEAT * players
FIXED = sum(n for _, n in field_sizes(0))
PER_SEAT = sum(n for _, n in field_sizes(1)) - FIXED


@hot
def obs_size(players):
    return FIXED + PER_SEAT * players


@hot
def _rel(i, me, players):
    return (i - me + players) % players


@hot
def _put_card(out, at, card, rules):
    """A card with its presence flag at ``out[at]``: 1, rank, suit, value."""
    out[at] = 1.0
    local = card % CARDS_PER_DECK
    if local >= 52:
        out[at + 1 + N_RANKS - 1] = 1.0
    else:
        out[at + 1 + local % 13] = 1.0
        out[at + 1 + N_RANKS + local // 13] = 1.0
    scale = max(VALUE_SCALE, rules[K.R_MAX_ABS_VALUE])
    out[at + CARD] = rules[K.RT_VALUE + card] / scale


@hot
def _clip1(x):
    return min(max(x, -1.0), 1.0)


@hot
def _decision(out, at, point, held, public, rules, players, me):
    """The question asked (nothing when ``point`` < 0: the seat is not asked): the decision
    point, the card held (the group's position at remove), the power in progress, the seat
    offered and the Dutch 8's two cards. The views' slots are read only where the engine
    keeps them (the target seat at the decisions that offer one, the choices at keep)."""
    if point >= 0:
        out[at + point] = 1.0
    at += K.N_DECISION_POINTS
    actor = public[K.PUB_ACTOR]
    if actor >= 0:
        out[at + _rel(actor, me, players)] = 1.0
    at += players
    if point == K.DP_REMOVE:
        out[at + 1 + CARD + held] = 1.0
    elif point >= 0 and 0 <= held < K.MAX_IDS:
        _put_card(out, at, held, rules)
    at += 1 + CARD + K.MAX_POS
    power = public[K.PUB_POWER]
    if power > 0:
        out[at + power - 1] = 1.0
    at += N_EFFECTS
    target = public[K.PUB_TARGET_SEAT]
    if (point == K.DP_TARGET_POS or point == K.DP_NOMINATE) and target >= 0:
        out[at + _rel(target, me, players)] = 1.0
    at += players
    for k in range(2):
        c = public[K.PUB_CHOICE0 + k]
        if point == K.DP_KEEP and c >= 0:
            _put_card(out, at + k * (1 + CARD), c, rules)
    return at + 2 * (1 + CARD)


@hot
def _piles(out, at, point, public, discard, rules):
    """The discard pile (the top discard's unused power at a turn's start, where it may be
    used), the stock's size."""
    n = public[K.PUB_DISCARD_N]
    out[at] = 1.0 if point == K.DP_TURN and public[K.PUB_TOP_POWER_UNUSED] != 0 and n > 0 \
        else 0.0
    at += 1
    if n > 0:
        _put_card(out, at, discard[n - 1], rules)
    at += 1 + CARD
    for i in range(n):
        local = discard[i] % CARDS_PER_DECK
        r = N_RANKS - 1 if local >= 52 else local % 13
        out[at + r] = min(out[at + r] + 1.0 / RANK_COPIES_SCALE, 1.0)
    at += N_RANKS
    out[at] = n / rules[K.R_NCARDS]
    out[at + 1] = public[K.PUB_STOCK_N] / rules[K.R_NCARDS]
    return at + 2


@hot
def _stage(out, at, public, rules, players, me):
    out[at] = min(public[K.PUB_TURN] / max(rules[K.R_TURN_CAP], 1), 1.0)
    out[at + 1] = min(public[K.PUB_RESHUFFLES] / RESHUFFLE_SCALE, 1.0)
    at += 2
    ender = public[K.PUB_ENDER]
    if ender >= 0:
        out[at + _rel(ender, me, players)] = 1.0
        out[at + players] = _clip1(public[K.PUB_FINAL_LEFT] / players)
    at += players + 1
    out[at] = 1.0 if public[K.PUB_KNOCKED] != 0 else 0.0
    out[at + 1 + me] = 1.0
    return at + 1 + players


@hot
def _layouts(out, at, public, known, faceup, rules, players, me):
    """Every seat's positions as the observer knows them, then each seat's public counts."""
    npos = rules[K.R_NPOS]
    for r in range(players):
        s = (me + r) % players
        for p in range(K.MAX_POS):
            i = s * K.MAX_POS + p
            c = known[i]
            cell = at + (r * K.MAX_POS + p) * CELL
            if c == K.EMPTY0 + p or (p >= npos and faceup[i] == 0):
                continue   # emptied, or beyond the grid and not face up: nothing shown
            out[cell] = 1.0
            out[cell + 1] = 1.0 if faceup[i] != 0 else 0.0
            if 0 <= c < K.MAX_IDS:
                _put_card(out, cell + 2, c, rules)
    at += players * K.MAX_POS * CELL
    shielded = public[K.PUB_SHIELDED]
    for r in range(players):
        s = (me + r) % players
        out[at + r * SEAT_FIELDS] = public[K.N_PUB_SLOTS + s] / K.MAX_POS
        out[at + r * SEAT_FIELDS + 1] = 1.0 if (shielded >> s) & 1 else 0.0
    return at + players * SEAT_FIELDS


@hot
def encode(out, point, me, held, public, known, faceup, discard, rules, players):
    """Write seat ``me``'s observation into ``out`` (zeroed first; obs_size(players) floats)
    from its views; ``point`` < 0: the seat is not asked anything now. Returns the floats
    written."""
    for i in range(out.shape[0]):
        out[i] = 0.0
    at = _decision(out, 0, point, held, public, rules, players, me)
    at = _piles(out, at, point, public, discard, rules)
    at = _stage(out, at, public, rules, players, me)
    return _layouts(out, at, public, known, faceup, rules, players, me)


# ---- the network -------------------------------------------------------------------------------
@intrinsic
def float_pointer(typingctx, address):
    """The int64 ``address`` as a float32 pointer (the network's array, kept alive by
    strategies/net.py's registry)."""
    sig = types.CPointer(types.float32)(types.int64)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))
    return sig, codegen


@hot
def _layer(net, w, n_in, n_out, x, y, relu):
    """y = x @ W + b (ReLU'd for a hidden layer), skipping the zero inputs (most of them)."""
    b = w + n_in * n_out
    for j in range(n_out):
        y[j] = net[b + j]
    for i in range(n_in):
        xi = x[i]
        if xi != 0.0:
            row = w + i * n_out
            for j in range(n_out):
                y[j] += xi * net[row + j]
    if relu:
        for j in range(n_out):
            y[j] = max(y[j], 0.0)
    return b + n_out


@hot
def logits(net, x, a, b):
    """The network's output for input ``x``: the index into ``a`` or ``b`` (scratch arrays of
    at least the widest layer each) holding it, ping-ponged layer by layer."""
    layers = int(net[0])
    w = 2 + layers
    src = x
    for k in range(layers):
        n_in, n_out = int(net[1 + k]), int(net[2 + k])
        dst = a if k % 2 == 0 else b
        w = _layer(net, w, n_in, n_out, src, dst, k < layers - 1)
        src = dst
    return (layers - 1) % 2


@hot
def choose(net, x, legal, a, b):
    """The legal action with the largest logit (ties: the lowest), -1 when none is legal."""
    out = a if logits(net, x, a, b) == 0 else b
    best = -1
    for act in range(K.N_ACTIONS):
        if legal[act] != 0 and (best < 0 or out[act] > out[best]):
            best = act
    return best
