/* BENCHMARK.md W1 as a single-purpose C program: a speed yardstick for this machine, not part
 * of golfsim. Four seats, six positions and one deck are hard-coded; greedy is computed from the
 * layouts at every decision, with a branch-free placement search (on this machine it made the
 * program about 1.4x faster than the obvious loop with an early test per position, whose
 * outcome the processor cannot predict). Its own random stream, so its deals differ from the
 * engine's: its statistics agree with the engine's only statistically.
 *
 *   cc -O3 -march=native -o w1 w1.c && ./w1 ROUNDS SEED
 *
 * prints one JSON line; "seconds" times the rounds only (no process start).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common.h"

static const int RANK_VALUE[13] = {1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0}; /* A..K */
static int lay[4][6], up[4][6];

/* W1's best placement for `card` at seat s, with n unseen cards of value sum S: n*G(p) in
 * integers; each eligible p becomes the key gain*8 + (7-p), so the largest key is the largest
 * gain with ties to the lowest p; -1 when no position is eligible */
static inline int best(int s, int card, long n, long S) {
    long vc = VALUE[card] * n, best_key = -(1L << 60);
    int rc = RANK[card];
    for (int p = 0; p < 6; p++) {
        int q = p < 3 ? p + 3 : p - 3, x = lay[s][p], y = lay[s][q];
        long up_p = up[s][p], up_q = up[s][q];
        long vp = up_p ? VALUE[x] * n : S, vq = up_q ? VALUE[y] * n : S;
        long now = (up_p & up_q & (RANK[x] == RANK[y])) ? 0 : vp + vq;
        long after = (up_q & (RANK[y] == rc)) ? 0 : vc + vq;
        long gain = now - after, need = up_p ? n : 0;
        long key = gain >= need ? gain * 8 + (7 - p) : -(1L << 60);
        best_key = key > best_key ? key : best_key;
    }
    return best_key < 0 ? -1 : 7 - (int)(best_key & 7);
}

int main(int argc, char **argv) {
    long rounds = setup(argc, argv, RANK_VALUE);
    long turns_sum = 0, capped = 0;
    double score_sum[4] = {0}, wins[4] = {0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long r = 0; r < rounds; r++) {
        for (int i = 0; i < 52; i++) stock[i] = i;
        shuffle(stock, 52);
        int ns = 52, down[4];
        for (int p = 0; p < 6; p++)
            for (int s = 0; s < 4; s++) { lay[s][p] = stock[--ns]; up[s][p] = 0; }
        disc[0] = stock[--ns];
        /* the unseen pool is the same for every seat but the drawn card: keep its complement */
        int nd = 1, disc_sum = VALUE[disc[0]], up_n = 0, up_sum = 0;
        for (int s = 0; s < 4; s++) {
            up[s][0] = up[s][1] = 1;
            up_n += 2;
            up_sum += VALUE[lay[s][0]] + VALUE[lay[s][1]];
            down[s] = 4;
        }
        int s = 0, ender = -1, left = 0, turn = 0;
        for (;;) {
            int n = 52 - up_n - nd, S = DECK_SUM - up_sum - disc_sum, top = disc[nd - 1], card;
            int p = best(s, top, n, S);
            if (p >= 0) {
                nd--;
                disc_sum -= VALUE[top];
                card = top;
            } else {
                if (ns == 0) {
                    restock(&ns, &nd, &disc_sum);
                    n = 52 - up_n - nd;
                    S = DECK_SUM - up_sum - disc_sum;
                }
                card = stock[--ns];
                p = n > 1 ? best(s, card, n - 1, S - VALUE[card]) : -1;
                if (p < 0) { disc[nd++] = card; disc_sum += VALUE[card]; }
            }
            if (p >= 0) {
                int old = lay[s][p];
                if (up[s][p]) { up_n--; up_sum -= VALUE[old]; } else down[s]--;
                lay[s][p] = card;
                up[s][p] = 1;
                up_n++;
                up_sum += VALUE[card];
                disc[nd++] = old;
                disc_sum += VALUE[old];
            }
            turn++;
            if (ender >= 0) { if (--left <= 0) break; }
            else if (down[s] == 0) { ender = s; left = 3; }
            if (turn >= 400) { capped++; break; }
            s = (s + 1) & 3;
        }
        turns_sum += turn;
        int score[4], low = 1 << 30, tied = 0;
        for (int q = 0; q < 4; q++) {
            int t = 0;
            for (int c = 0; c < 3; c++) {
                int a = lay[q][c], b = lay[q][c + 3];
                t += RANK[a] == RANK[b] ? 0 : VALUE[a] + VALUE[b];
            }
            score[q] = t;
            score_sum[q] += t;
            if (t < low) low = t;
        }
        for (int q = 0; q < 4; q++) tied += score[q] == low;
        for (int q = 0; q < 4; q++) if (score[q] == low) wins[q] += 1.0 / tied;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    printf("{\"rounds\": %ld, \"seconds\": %.6f, \"rounds_per_s\": %.1f, \"mean_turns\": %.6f, "
           "\"capped\": %ld, \"mean_score\": [%.6f, %.6f, %.6f, %.6f], "
           "\"win_share\": [%.6f, %.6f, %.6f, %.6f]}\n",
           rounds, sec, rounds / sec, (double)turns_sum / rounds, capped,
           score_sum[0] / rounds, score_sum[1] / rounds, score_sum[2] / rounds,
           score_sum[3] / rounds, wins[0] / rounds, wins[1] / rounds, wins[2] / rounds,
           wins[3] / rounds);
    return 0;
}
