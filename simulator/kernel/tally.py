"""Adding played holes into integer sums: the accumulator columns and the one function that
fills them, shared by the general engine and the lean kernel so both count alike."""

from simulator.kernel.jit import hot, ix

from ..game import codes as K
from ..game.codes import MAX_PLAYERS

# accumulator columns per seat (int64, exact, so chunk sums do not depend on chunking)
ACC_SCORE_SUM = 0
ACC_SCORE_SQ = 1
ACC_ENDER = 2
ACC_WIN_K0 = 3           # column ACC_WIN_K0 + k - 1: rounds won in a k-way tie
N_ACC = ACC_WIN_K0 + MAX_PLAYERS
# totals
TOT_ROUNDS = 0
TOT_TURNS_SUM = 1
TOT_TURNS_SQ = 2
TOT_CAPPED = 3
TOT_RESHUFFLES = 4
TOT_ENDED = 5            # rounds with an ender
TOT_KNOCKS = 6           # rounds ended by a knock
TOT_KNOCKER_WIN_K0 = 8   # TOT_KNOCKER_WIN_K0 + k - 1: knock rounds the knocker won in a k-way tie
N_TOT = TOT_KNOCKER_WIN_K0 + MAX_PLAYERS
# match accumulators (match play): per physical seat, and totals
MACC_TOTAL_SUM = 0
MACC_TOTAL_SQ = 1
MACC_WIN_K0 = 2          # MACC_WIN_K0 + k - 1: matches won in a k-way tie for the lowest total
MACC_POT_SUM = MACC_WIN_K0 + MAX_PLAYERS   # the seat's pot balance at the match's end
MACC_POT_SQ = MACC_POT_SUM + 1
N_MACC = MACC_POT_SQ + 1
MTOT_MATCHES = 0
MTOT_HOLES_SUM = 1
MTOT_HOLES_SQ = 2
N_MTOT = 4
MAX_MATCH_HOLES = 1000   # a target-mode match stops after this many holes; also the stride of
                         # round indices, so hole h of match m is round m * 1000 + h
HIST_OFFSET = 256        # score histogram bin = score + HIST_OFFSET, clipped
HIST_BINS = 768


@hot(inline="always")
def _lowest_nb(values, players):
    """The lowest of values[0:players] and how many seats share it (a k-way tie)."""
    best = values[0]
    for i in range(1, players):
        best = min(best, values[i])
    k = 0
    for i in range(players):
        k += values[i] == best   # who won is data: counted, not branched on
    return best, k


@hot(inline="always")  # once a round in both kernels: a call passes 7 words per array
def _add_hole_nb(first, scores, out, acc, tot, hist, players):
    """Add one hole to the sums. ``scores[i]`` is in-hole seat i, which is physical seat
    (first + i) % players when the deal has rotated (match play)."""
    best, k = _lowest_nb(scores, players)
    turns = out[K.OUT_TURNS]
    s = first - 1
    for i in range(players):
        # (first + i) % players without a division per seat (a division is ~30 cycles, and
        # this runs for every round)
        s += 1
        if s == players:
            s = 0
        v = scores[i]
        acc[s, ACC_SCORE_SUM] += v
        acc[s, ACC_SCORE_SQ] += v * v
        acc[s, ACC_WIN_K0 + k - 1] += v == best
        b = v + HIST_OFFSET
        if b < 0:
            b = 0
        elif b >= HIST_BINS:
            b = HIST_BINS - 1
        hist[s, b] += 1
    ender = out[K.OUT_ENDER]
    if ender >= 0:
        e = first + ender
        acc[e - players if e >= players else e, ACC_ENDER] += 1
        tot[TOT_ENDED] += 1
        if out[K.OUT_KNOCKED]:
            tot[TOT_KNOCKS] += 1
            tot[TOT_KNOCKER_WIN_K0 + k - 1] += scores[ender] == best
    tot[TOT_ROUNDS] += 1
    tot[TOT_TURNS_SUM] += turns
    tot[TOT_TURNS_SQ] += turns * turns
    tot[TOT_CAPPED] += out[K.OUT_CAPPED]
    tot[TOT_RESHUFFLES] += out[K.OUT_RESHUFFLES]


@hot(inline="always")
def keep_round_nb(i, count, g, scores, out, players, npos, per_round_scores, per_round_turns,
                  per_round_layouts):
    """Round ``i`` of a chunk of ``count`` into the per-round arrays that keep rounds (a first
    dimension of ``count``; the others, of length 0, keep none): its scores and turns, its
    final layouts (``npos`` positions)."""
    if per_round_scores.shape[0] == count:
        for s in range(players):
            per_round_scores[i, s] = scores[s]
        per_round_turns[i] = out[K.OUT_TURNS]
    if per_round_layouts.shape[0] == count:
        for s in range(players):
            for p in range(npos):
                per_round_layouts[i, s, p] = g[ix(K.G_LAY + s * K.MAX_POS + p)]
