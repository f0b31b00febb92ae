"""The lookahead player: determinised Monte Carlo rollouts.

At the start of a turn (knock, take the discard to one of its positions, or draw) and when
holding a drawn card (each position, or discard) it tries every legal move: it deals the cards
it has not seen at random into the places it cannot see (the stock and every face-down card it
does not know), consistently with what it knows, plays the move, and plays the round on
(``laps`` laps, or to its end) with every seat modelled by a built-in (itself as
knock-threshold with its own T in knock games, greedy otherwise; knock-threshold seats as
themselves; everyone else as greedy). It keeps the move whose rollouts end with the lowest mean
margin (its score minus the best other score). Where a layout scores its cards' sum or
columns of pairs (``expect``, the default), a rollout's end is scored with every card nobody
has seen by then at its expectation: a part of a rollout's noise is the value of cards no seat's
play depended on, so the same deals tell the moves apart better.
The moves are tried on the same deals (common random numbers), up to ``budget`` of them, so the
comparison is paired, in a race (strategies/race.py): a move clearly worse than the leader, by
``race`` standard errors of the paired margins, is tried no more (race 0: every move on every
deal). Other decisions (initial reveal, optional flips) are greedy's.

The rollouts run on the game flow's lean build, so the player needs rule sets that build plays
(``simulator.kernel.flow.rules_eligible``); ``runner.make_job`` refuses others with a clear
message. The power-card games are played by strategies/lookahead_powers.py, compiled apart
(its rollouts need a powers build of the flow), with the scratch laid out here.
Its randomness comes from its own stream: results are reproducible and independent of threads.
Only what the seat may see is read: the set of unseen cards is the deck minus the discard pile,
the face-up cards, the cards it knows and the card it holds.
"""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.kernel import flow as FL
from simulator.kernel import lean_policy as LP
from simulator.game.codes import (G_DISCARD, G_FACE_DOWN, G_KNOWN, G_LAY, G_LEGAL, G_MEMORY,
                                  G_PUB, G_UP, MAX_IDS, MAX_PLAYERS, MAX_POS,
                                  POLICY_LOOKAHEAD,  # noqa: F401
                                  RT_DECK)
from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import can_replace_nb
from simulator.kernel.rng import (GAMMA, M1, N_STREAMS, STREAM_SEAT0, mix64_nb, next_u64_nb,
                                  shuffle_nb)
from simulator.kernel.scoring import TMP_SIZE
from strategies import race
from strategies.common import MEM_PLANNED_POS, lowest_legal_nb
from strategies.greedy import greedy_plain_nb, layout_estimate_nb

PAR_T = 1          # its model of itself in knock games: knock-threshold with this T
PAR_BUDGET = 2     # deals tried per candidate move
PAR_WIDTH = 3      # positions tried for a card: the best ones by greedy's estimate
PAR_RACE = 4       # z of the race that drops a move worse than the best (0: no race)
PAR_LAPS = 5       # laps a rollout plays before it is scored (0: to the end; -1: by the rules)
PAR_EXPECT = 6     # 1: a rollout's end scored with the cards nobody has seen at their expectation
# the laps of PAR_LAPS = -1 where no knock or call can end the round: about as strong as whole
# rollouts or stronger in every such game measured, and faster (docs/performance.md)
ROLLOUT_LAPS = 3
ROLLOUT_STREAM = STREAM_SEAT0 + MAX_PLAYERS   # rng slot the rollouts use
assert ROLLOUT_STREAM == N_STREAMS - 1

# a turn of a power-card game: call, take the discard to each position or to match, draw, the
# top discard's power (strategies/lookahead_powers.py)
MAX_CANDIDATES = MAX_POS + 4
# the int64 scratch array ``aux``
AUX_SCORES = 0
AUX_L = AUX_SCORES + MAX_PLAYERS
AUX_QUADS = AUX_L + MAX_PLAYERS
AUX_EXTRA = AUX_QUADS + MAX_PLAYERS
AUX_TMP = AUX_EXTRA + MAX_PLAYERS
AUX_STAMP = AUX_TMP + TMP_SIZE               # increases at every decision
AUX_SEEN = AUX_STAMP + 1                     # [card id]: == stamp when the seat has seen it
AUX_HIDDEN = AUX_SEEN + MAX_IDS              # the unseen cards
AUX_SAMPLE = AUX_HIDDEN + MAX_IDS            # one deal of them into the hidden places
AUX_PLACES = AUX_SAMPLE + MAX_IDS            # seat*MAX_POS + p, or -1 - i for stock slot i
AUX_CAND_ACTION = AUX_PLACES + MAX_IDS
AUX_CAND_POS = AUX_CAND_ACTION + MAX_CANDIDATES
AUX_CAND_SUM = AUX_CAND_POS + MAX_CANDIDATES
# power-card games (strategies/lookahead_powers.py, rollout_models.py)
AUX_FORCE_SEAT = AUX_CAND_SUM + MAX_CANDIDATES   # the seat whose first answers are forced
AUX_FORCE_TURN = AUX_FORCE_SEAT + 1   # its answer at DP_TURN or DP_KNOCK, -1 once given
AUX_FORCE_PLACE = AUX_FORCE_TURN + 1  # its answer to the placement that follows, -1 once given
AUX_CHECK = AUX_FORCE_PLACE + 1       # nonzero: rollouts check card conservation every turn
AUX_FAILED = AUX_CHECK + 1            # rollouts that failed (a check, an illegal answer)
AUX_GAIN = AUX_FAILED + 1             # [position]: a card's placement gain
AUX_PAR = AUX_GAIN + MAX_POS          # the rollouts' policy table (lookahead_powers.py)
AUX_ALIVE = AUX_PAR + MAX_PLAYERS * (1 + K.N_PARAMS)  # [candidate]: still in the race
AUX_DEAL = AUX_ALIVE + MAX_CANDIDATES      # [candidate]: its margin on the current deal
AUX_SQ = AUX_DEAL + MAX_CANDIDATES         # [c, c' <= c]: squared paired differences summed
AUX_ROLLOUTS = AUX_SQ + MAX_CANDIDATES * MAX_CANDIDATES  # rollouts played (for tests)
AUX_KEY_LOW = AUX_ROLLOUTS + 1     # the deck's lowest pairing key (expected_margin_nb)
AUX_NGROUPS = AUX_KEY_LOW + 1
AUX_GCNT = AUX_NGROUPS + 1              # [group]: unseen cards of the group at a rollout's end
AUX_GSUM = AUX_GCNT + MAX_IDS           # [group]: ... and their values' sum
AUX_PARTNER = AUX_GSUM + MAX_IDS        # the known cards of columns with one unseen card
AUX_SIZE = AUX_PARTNER + MAX_PLAYERS * MAX_POS
EXPECT_SCALE = 1024   # margins in expectation: units of 1/EXPECT_SCALE point

assert AUX_SIZE <= K.POLICY_SCRATCH
assert 2 * K.G_FLOW <= K.G_AUX_SIZE   # the deal as loaded, and the state a rollout plays


@hot
def _unseen_nb(g, rt, seat, held, aux, npos):
    """Collect the places the seat cannot see and the cards it has not seen, over positions
    0..npos-1 of every layout; returns their number, or -1 if the two counts disagree (never
    expected)."""
    stamp = aux[AUX_STAMP] + 1
    aux[AUX_STAMP] = stamp
    players = rt[K.R_PLAYERS]
    for i in range(g[G_PUB + K.PUB_DISCARD_N]):
        aux[AUX_SEEN + g[G_DISCARD + i]] = stamp
    if held >= 0:
        aux[AUX_SEEN + held] = stamp
    places = 0
    for s in range(players):
        for p in range(npos):
            c = g[G_KNOWN + (seat * MAX_PLAYERS + s) * MAX_POS + p]  # face-up cards included
            if c >= K.EMPTY0:   # an empty position (power-card games): no card, known to all
                continue
            if c >= 0:
                aux[AUX_SEEN + c] = stamp
            else:
                aux[AUX_PLACES + places] = s * MAX_POS + p
                places += 1
    for i in range(g[G_PUB + K.PUB_STOCK_N]):
        aux[AUX_PLACES + places] = -1 - i
        places += 1
    cards = 0
    for i in range(rt[K.R_NCARDS]):
        c = rt[RT_DECK + i]
        if aux[AUX_SEEN + c] != stamp:
            if cards < places:
                aux[AUX_HIDDEN + cards] = c
            cards += 1
    return places if cards == places else -1


@hot
def _load_nb(g, rt, seat, held, aux, hidden, w):
    """The flow state of this deal: the true cards where the seat can see them, the sampled
    ones elsewhere; every seat knows what it knew (of a resampled card: the sampled one).
    With ``held`` >= 0 (a drawn card in hand) it is put back on top of the stock, for the
    forced first move to draw it again. Returns the stock size."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    n_stock = g[G_PUB + K.PUB_STOCK_N]
    for s in range(players):
        up = 0
        for p in range(npos):
            i = s * MAX_POS + p
            w[G_LAY + i] = g[G_LAY + i]
            if g[G_UP + i]:
                up |= 1 << p
        w[K.G_UPMASK + s] = up
        w[G_FACE_DOWN + s] = g[G_FACE_DOWN + s]
        w[K.G_PLANNED + s] = 0
        LP.unknown_layout(w, rt, s)
    for k in range(hidden):
        place = aux[AUX_PLACES + k]
        if place >= 0:
            w[G_LAY + place] = aux[AUX_SAMPLE + k]
        else:
            w[K.G_STOCK + (-1 - place)] = aux[AUX_SAMPLE + k]
    for s in range(players):
        for p in range(npos):
            if g[G_KNOWN + (s * MAX_PLAYERS + s) * MAX_POS + p] >= 0:
                LP.learn(w, rt, s, p, w[G_LAY + s * MAX_POS + p])
    for i in range(g[G_PUB + K.PUB_DISCARD_N]):
        w[G_DISCARD + i] = g[G_DISCARD + i]
    if held >= 0:
        w[K.G_STOCK + n_stock] = held
        n_stock += 1
    return n_stock


@hot(inline="always")
def shuffle_hidden_nb(aux, hidden, roll):
    """Deal the ``hidden`` unseen cards (_unseen_nb) at random, with stream ``roll``, in the
    order of the places they go to."""
    for k in range(hidden):
        aux[AUX_SAMPLE + k] = aux[AUX_HIDDEN + k]
    shuffle_nb(aux, AUX_SAMPLE, hidden, roll, 0)


@hot
def _sample_deal_nb(g, rt, seat, held, aux, hidden, roll, w):
    """Deal the ``hidden`` unseen cards at random into the places the seat cannot see, with
    stream ``roll``, and load that deal into the flow state ``w``; returns the stock size."""
    shuffle_hidden_nb(aux, hidden, roll)
    return _load_nb(g, rt, seat, held, aux, hidden, w)


@hot
def _add_candidate_nb(aux, n, action, pos):
    aux[AUX_CAND_ACTION + n] = action
    aux[AUX_CAND_POS + n] = pos
    sums, alive, deal, sq = race_columns_nb(aux)
    race.enter_nb(sums, alive, sq, n)
    return n + 1


@hot
def _add_placements_nb(g, rt, seat, card, width, aux, n, action, legal_only):
    """Add (action, p) for the ``width`` positions where ``card`` gains most by greedy's
    estimate (ties to the lowest position); only replaceable (or, with ``legal_only``,
    legal) positions count."""
    pool = rt[K.R_NCARDS] - g[G_PUB + K.PUB_FACEUP_N] - g[G_PUB + K.PUB_DISCARD_N]
    total = rt[K.R_DECK_SUM] - g[G_PUB + K.PUB_FACEUP_SUM] - g[G_PUB + K.PUB_DISCARD_SUM]
    if card >= 0 and legal_only:  # the drawn card is out of the unseen pool
        pool -= 1
        total -= rt[K.RT_VALUE + card]
    pool = max(pool, 1)
    before = layout_estimate_nb(g, rt, seat, -1, -1, pool, total, 0)
    taken = 0
    for _ in range(width):
        best = -1
        best_gain = np.int64(0)
        for p in range(rt[K.R_NPOS]):
            if (taken >> p) & 1:
                continue
            ok = g[G_LEGAL + p] != 0 if legal_only else can_replace_nb(g, rt, seat, p)
            if not ok:
                continue
            gain = before - layout_estimate_nb(g, rt, seat, p, card, pool, total, 0)
            if best < 0 or gain > best_gain:
                best = p
                best_gain = gain
        if best < 0:
            break
        taken |= 1 << best
        n = _add_candidate_nb(aux, n, action, best)
    return n


@hot(inline="always")
def rollout_setup_nb(g, rng, par, seat):
    """What a decision's rollouts use: g's two spare flow states (a deal as loaded, the
    state a rollout plays), the rollouts' stream, the decision's draw from the seat's stream
    (each deal's seed follows from it) and the budget of deals."""
    w = g[K.G_AUX:K.G_AUX + K.G_FLOW]
    dealt = g[K.G_AUX + K.G_FLOW:K.G_AUX + 2 * K.G_FLOW]
    roll = rng[ROLLOUT_STREAM:ROLLOUT_STREAM + 1]
    base = next_u64_nb(rng, STREAM_SEAT0 + seat)
    return w, dealt, roll, base, max(1, np.int64(par[seat, PAR_BUDGET]))


@hot(inline="always")
def rollout_cap_nb(rt, par, seat, turn):
    """The turn count at which a rollout from ``turn`` stops: the round's cap, or ``laps``
    laps on (each layout then scores as it lies, every card at its dealt value). A round a
    knock or a call may end plays to its end by default: a rollout stopped before it
    misjudges ending the round."""
    laps = np.int64(par[seat, PAR_LAPS])
    if laps < 0:
        laps = 0 if (rt[K.R_END_TRIGGERS] & (K.END_KNOCK | K.END_CALL)) != 0 else ROLLOUT_LAPS
    cap = rt[K.R_TURN_CAP]
    return cap if laps == 0 else min(cap, turn + laps * rt[K.R_PLAYERS])


@hot(inline="always")
def margin_nb(score_nb, w, rt, ender, knocked, aux, seat):
    """A rollout's outcome as its flow build's ``score_nb`` scores the state ``w`` it ended
    in: the seat's score less the best other score."""
    scores = aux[AUX_SCORES:AUX_SCORES + MAX_PLAYERS]
    score_nb(w, rt, ender, knocked, scores, aux[AUX_L:AUX_L + MAX_PLAYERS],
             aux[AUX_QUADS:AUX_QUADS + MAX_PLAYERS], aux[AUX_EXTRA:AUX_EXTRA + MAX_PLAYERS],
             aux[AUX_TMP:AUX_TMP + TMP_SIZE])
    best_other = np.int64(1 << 40)
    for s in range(rt[K.R_PLAYERS]):
        if s != seat and scores[s] < best_other:
            best_other = scores[s]
    return scores[seat] - best_other


@hot(inline="always")
def expectation_applies_nb(rt):
    """Can a rollout's end be scored in expectation (expected_margin_nb)? Where a layout
    scores its cards' sum, or columns of two whose pairs cancel to 0, and a hole scores its
    layout's value; no power cards (their layouts grow and empty), so that every position
    holds a card (the lean build's rules, which lookahead's rollouts play, remove none)."""
    kind = rt[K.R_LAYOUT_KIND]
    return (kind == K.LAYOUT_SUM or kind == K.LAYOUT_COLUMNS) and rt[K.R_PLAIN_HOLE] != 0 and \
        rt[K.R_JOKER_PAIR_VALUE] == K.NONE_VALUE and rt[K.R_NEG_PAIRS_KEEP] == 0 and \
        rt[K.R_POWER_SET] == 0


@hot
def key_groups_nb(rt, aux):
    """A card's group in expected_margin_nb is its pairing key less the deck's lowest; returns
    whether the keys span at most MAX_IDS groups (else no expectation)."""
    low = rt[K.RT_KEY + rt[RT_DECK]]
    high = low
    for i in range(1, rt[K.R_NCARDS]):
        key = rt[K.RT_KEY + rt[RT_DECK + i]]
        low = min(low, key)
        high = max(high, key)
    aux[AUX_KEY_LOW] = low
    aux[AUX_NGROUPS] = high - low + 1
    return high - low < MAX_IDS


@hot(inline="always")
def _unseen_at_end(w, up, i, p):
    """Is the card at layout index i (position p) face down and known to no seat?"""
    return not ((up >> p) & 1) and w[ix(K.G_OWN + i)] < 0


@hot(inline="always")
def _pool_add(rt, aux, c, low):
    j = rt[ix(K.RT_KEY + c)] - low
    v = rt[ix(K.RT_VALUE + c)]
    aux[ix(AUX_GCNT + j)] += 1
    aux[ix(AUX_GSUM + j)] += v
    return v


@hot(inline="always")
def _tally_layouts_nb(w, rt, aux, low, pairs, cols):
    """expected_margin_nb's pass over the layouts: the unseen cards counted by group, and for
    each seat (in score_nb's scratch, unused here) the value of its columns without unseen
    cards (AUX_L), its columns of two unseen cards (or unseen cards, for sums: AUX_QUADS) and
    the end of its list of the known partners of columns of one (AUX_PARTNER, AUX_EXTRA).
    Returns the unseen cards' number and value sum."""
    n = 0
    total = 0
    partners = 0
    for s in range(rt[ix(K.R_PLAYERS)]):
        up = w[ix(K.G_UPMASK + s)]
        f = 0
        dbl = 0
        for col in range(cols):
            i = s * MAX_POS + col
            a = w[ix(G_LAY + i)]
            ua = _unseen_at_end(w, up, i, col)
            if ua:
                total += _pool_add(rt, aux, a, low)
                n += 1
            if not pairs:
                if ua:
                    dbl += 1
                else:
                    f += rt[ix(K.RT_VALUE + a)]
                continue
            b = w[ix(G_LAY + i + cols)]
            ub = _unseen_at_end(w, up, i + cols, col + cols)
            if ub:
                total += _pool_add(rt, aux, b, low)
                n += 1
            if ua and ub:
                dbl += 1
            elif ua or ub:
                aux[ix(AUX_PARTNER + partners)] = b if ua else a
                partners += 1
            elif rt[ix(K.RT_KEY + a)] != rt[ix(K.RT_KEY + b)]:
                f += rt[ix(K.RT_VALUE + a)] + rt[ix(K.RT_VALUE + b)]
        aux[ix(AUX_L + s)] = f
        aux[ix(AUX_QUADS + s)] = dbl
        aux[ix(AUX_EXTRA + s)] = partners
    return n, total


@hot
def expected_margin_nb(w, rt, aux, seat, reshuffles):
    """The margin of the state ``w`` a rollout ended in, in units of 1/EXPECT_SCALE, with
    every card nobody has seen (face down and known to no seat, or in the stock) at its
    expectation: given what the rollout revealed, those cards are dealt at random among those
    places. Exact for each layout's value; the best other score is the lowest expected one."""
    groups = aux[ix(AUX_NGROUPS)]
    low = aux[ix(AUX_KEY_LOW)]
    for j in range(groups):
        aux[ix(AUX_GCNT + j)] = 0
        aux[ix(AUX_GSUM + j)] = 0
    pairs = rt[ix(K.R_LAYOUT_KIND)] == K.LAYOUT_COLUMNS
    cols = rt[ix(K.R_COLS)] if pairs else rt[ix(K.R_NPOS)]
    n, total = _tally_layouts_nb(w, rt, aux, low, pairs, cols)
    if reshuffles == 0:   # else the stock holds discards, all seen
        for k in range(w[ix(G_PUB + K.PUB_STOCK_N)]):
            total += _pool_add(rt, aux, w[ix(K.G_STOCK + k)], low)
            n += 1
    inv = 1.0 / max(n, 1)
    if pairs:
        # a column of two unseen cards: the ordered pairs of distinct unseen cards, the pairs
        # of one key cancelling
        same = 0
        for j in range(groups):
            same += (aux[ix(AUX_GCNT + j)] - 1) * aux[ix(AUX_GSUM + j)]
        per_double = (2.0 * (n - 1) * total - 2.0 * same) / max(n * (n - 1), 1)
    else:
        per_double = total * inv     # LAYOUT_SUM: one unseen card
    own = 0.0
    best_other = 1e18
    first = 0
    for s in range(rt[ix(K.R_PLAYERS)]):
        e = aux[ix(AUX_L + s)] + aux[ix(AUX_QUADS + s)] * per_double
        for q in range(first, aux[ix(AUX_EXTRA + s)]):
            k = aux[ix(AUX_PARTNER + q)]
            vk = rt[ix(K.RT_VALUE + k)]
            j = rt[ix(K.RT_KEY + k)] - low
            e += vk + (total - aux[ix(AUX_GCNT + j)] * vk - aux[ix(AUX_GSUM + j)]) * inv
        first = aux[ix(AUX_EXTRA + s)]
        if s == seat:
            own = e
        elif e < best_other:
            best_other = e
    return np.int64(np.round((own - best_other) * EXPECT_SCALE))


@hot(inline="always")
def record_nb(aux, c, m):
    """Candidate c's rollout on this deal ended with margin m."""
    aux[AUX_ROLLOUTS] += 1
    aux[AUX_CAND_SUM + c] += m
    aux[AUX_DEAL + c] = m


@hot(inline="always")
def race_columns_nb(aux):
    """The race's columns of the scratch (strategies/race.py)."""
    return (aux[AUX_CAND_SUM:AUX_CAND_SUM + MAX_CANDIDATES],
            aux[AUX_ALIVE:AUX_ALIVE + MAX_CANDIDATES], aux[AUX_DEAL:AUX_DEAL + MAX_CANDIDATES],
            aux[AUX_SQ:AUX_SQ + MAX_CANDIDATES * MAX_CANDIDATES])


@hot(inline="always")
def best_candidate_nb(aux, n):
    """The candidate still in the race whose rollouts summed the lowest margin (the first of
    equals)."""
    sums, alive, deal, sq = race_columns_nb(aux)
    return race.leader_nb(sums, alive, n)


@hot(inline="always")
def race_on_nb(aux, n, deals, z):
    """After a deal (each move's margin added to its sum and in AUX_DEAL): the moves left in
    the race, n when there is none (z = 0)."""
    if z <= 0:
        return n
    sums, alive, deal, sq = race_columns_nb(aux)
    return race.race_nb(sums, alive, deal, sq, n, deals, z)


@hot
def lookahead_nb(point, seat, held, g, rt, rng, par, aux):
    memory = G_MEMORY + seat * K.MEMORY_SLOTS
    if point == K.DP_PLACE_TAKEN:
        p = g[memory + MEM_PLANNED_POS]
        if p >= 0 and g[G_LEGAL + p]:
            return p
        return lowest_legal_nb(g, 0, MAX_POS)
    if point != K.DP_TURN and point != K.DP_PLACE_DRAWN:
        return greedy_plain_nb(point, seat, held, g, rt, rng, par)
    width = max(1, np.int64(par[seat, PAR_WIDTH]))
    n = 0
    if point == K.DP_TURN:
        if g[G_LEGAL + K.A_KNOCK]:
            n = _add_candidate_nb(aux, n, K.A_KNOCK, -1)
        if g[G_LEGAL + K.A_TAKE_DISCARD]:
            top = g[G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1]
            n = _add_placements_nb(g, rt, seat, top, width, aux, n, K.A_TAKE_DISCARD, False)
        if g[G_LEGAL + K.A_DRAW_STOCK]:
            n = _add_candidate_nb(aux, n, K.A_DRAW_STOCK, -1)
    else:
        n = _add_placements_nb(g, rt, seat, held, width, aux, n, K.A_DRAW_STOCK, True)
        if g[G_LEGAL + K.A_DISCARD]:
            n = _add_candidate_nb(aux, n, K.A_DRAW_STOCK, K.A_DISCARD)
    hidden = _unseen_nb(g, rt, seat, held, aux, rt[K.R_NPOS]) if n > 1 else -1
    if hidden < 0:  # one move, or (never expected) an inconsistent view: play greedy's
        return greedy_plain_nb(point, seat, held, g, rt, rng, par)

    players = rt[K.R_PLAYERS]
    w, dealt, roll, base, budget = rollout_setup_nb(g, rng, par, seat)
    z = par[seat, PAR_RACE]
    n_disc = g[G_PUB + K.PUB_DISCARD_N]
    cap = rollout_cap_nb(rt, par, seat, g[G_PUB + K.PUB_TURN])
    expect = par[seat, PAR_EXPECT] != 0 and expectation_applies_nb(rt) and \
        key_groups_nb(rt, aux)
    for d in range(budget):
        # one deal for every move: shuffled and loaded once, copied before each rollout
        roll[0] = mix64_nb(base + np.uint64(d) * M1 + GAMMA)
        n_stock = _sample_deal_nb(g, rt, seat, held, aux, hidden, roll, dealt)
        after_deal = roll[0]
        for c in range(n):
            if not aux[AUX_ALIVE + c]:
                continue
            roll[0] = after_deal  # the same reshuffles, too, for every move
            FL.copy_state_nb(w, dealt, players, n_stock, n_disc)
            action = aux[AUX_CAND_ACTION + c]
            turn, ender, knocked, capped, reshuffles = FL.play_nb(
                w, rt, par, roll, (), seat, n_stock, n_disc,
                g[G_PUB + K.PUB_DISCARD_SUM], g[G_PUB + K.PUB_FACEUP_N],
                g[G_PUB + K.PUB_FACEUP_SUM], g[G_PUB + K.PUB_TURN], g[G_PUB + K.PUB_ENDER],
                g[G_PUB + K.PUB_FINAL_LEFT], g[G_PUB + K.PUB_KNOCKED], 0, action,
                aux[AUX_CAND_POS + c], cap)
            if expect:
                m = expected_margin_nb(w, rt, aux, seat, reshuffles)
            else:
                m = margin_nb(FL.score_nb, w, rt, ender, knocked, aux, seat)
            record_nb(aux, c, m)
        if race_on_nb(aux, n, d + 1, z) < 2:
            break
    best = best_candidate_nb(aux, n)
    action = aux[AUX_CAND_ACTION + best]
    pos = aux[AUX_CAND_POS + best]
    if point == K.DP_PLACE_DRAWN:
        return pos
    if action == K.A_TAKE_DISCARD:
        g[memory + MEM_PLANNED_POS] = pos
    return action


def lookahead_entry(point, seat, held, g, rt, rng, par, aux):
    """The entry point strategies.compiled compiles (as builtin's entries)."""
    return lookahead_nb(point, seat, held, g, rt, rng, par, aux)
