/* BENCHMARK.md W2 as a single-purpose C program: a speed yardstick for this machine, not part
 * of golfsim. Four seats, four positions (0 1 far row / 2 3 near row), one deck and T = 8
 * are hard-coded. Its own random stream, so its deals differ from the engine's: its
 * statistics agree with the engine's only statistically.
 *
 *   cc -O3 -march=native -o w2 w2.c && ./w2 ROUNDS SEED
 *
 * prints one JSON line; "seconds" times the rounds only (no process start).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common.h"

#define T 8
static const int RANK_VALUE[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0}; /* A..K */
static int lay[4][4], known[4][4];

/* the best placement of `card` for seat s, n*G(p) in integers (n unseen cards of value sum
 * S): a known position p gains (v(p) - v(card))*n and needs at least n, an unknown one gains
 * S - v(card)*n and needs at least 0; the largest gain, ties to the lowest p; -1 if none */
static inline int best(int s, int card, long n, long S) {
    long vc = VALUE[card] * n, best_key = -(1L << 60);
    for (int p = 0; p < 4; p++) {
        long k = known[s][p];
        long gain = (k ? VALUE[lay[s][p]] * n : S) - vc, need = k ? n : 0;
        long key = gain >= need ? gain * 4 + (3 - p) : -(1L << 60);
        best_key = key > best_key ? key : best_key;
    }
    return best_key < 0 ? -1 : 3 - (int)(best_key & 3);
}

int main(int argc, char **argv) {
    long rounds = setup(argc, argv, RANK_VALUE);
    long turns_sum = 0, capped = 0, knocks = 0;
    double score_sum[4] = {0}, wins[4] = {0}, knocker_wins = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long r = 0; r < rounds; r++) {
        for (int i = 0; i < 52; i++) stock[i] = i;
        shuffle(stock, 52);
        int ns = 52;
        for (int p = 0; p < 4; p++)
            for (int s = 0; s < 4; s++) { lay[s][p] = stock[--ns]; known[s][p] = 0; }
        disc[0] = stock[--ns];
        int nd = 1, disc_sum = VALUE[disc[0]], kn[4], ksum[4]; /* own known count and sum */
        for (int s = 0; s < 4; s++) {
            known[s][2] = known[s][3] = 1; /* each looks at its near row */
            kn[s] = 2;
            ksum[s] = VALUE[lay[s][2]] + VALUE[lay[s][3]];
        }
        int s = 0, knocker = -1, left = 0, turn = 0;
        for (;;) {
            /* the seat's unseen pool: all but the discard pile and its own known cards */
            long n = 52 - nd - kn[s], S = DECK_SUM - disc_sum - ksum[s];
            long e = ksum[s] * n + (4 - kn[s]) * S; /* n times the estimated score */
            if (knocker < 0 && e <= T * n) {
                knocker = s;
                left = 3;
            } else {
                int top = disc[nd - 1], card;
                int p = best(s, top, n, S);
                if (p >= 0) {
                    nd--;
                    disc_sum -= VALUE[top];
                    card = top;
                } else {
                    if (ns == 0) {
                        restock(&ns, &nd, &disc_sum);
                        n = 52 - nd - kn[s];
                        S = DECK_SUM - disc_sum - ksum[s];
                    }
                    card = stock[--ns];
                    p = n > 1 ? best(s, card, n - 1, S - VALUE[card]) : -1;
                    if (p < 0) { disc[nd++] = card; disc_sum += VALUE[card]; }
                }
                if (p >= 0) { /* face down, remembered; the old card onto the pile unseen */
                    int old = lay[s][p];
                    if (known[s][p]) ksum[s] -= VALUE[old];
                    else { known[s][p] = 1; kn[s]++; }
                    lay[s][p] = card;
                    ksum[s] += VALUE[card];
                    disc[nd++] = old;
                    disc_sum += VALUE[old];
                }
                if (knocker >= 0) left--;
            }
            turn++;
            if (knocker >= 0 && left <= 0) break;
            if (turn >= 400) { capped++; break; }
            s = (s + 1) & 3;
        }
        turns_sum += turn;
        knocks += knocker >= 0;
        int score[4], low = 1 << 30, tied = 0;
        for (int q = 0; q < 4; q++) {
            score[q] = VALUE[lay[q][0]] + VALUE[lay[q][1]] + VALUE[lay[q][2]] + VALUE[lay[q][3]];
            score_sum[q] += score[q];
            if (score[q] < low) low = score[q];
        }
        for (int q = 0; q < 4; q++) tied += score[q] == low;
        for (int q = 0; q < 4; q++)
            if (score[q] == low) {
                wins[q] += 1.0 / tied;
                if (q == knocker) knocker_wins += 1.0 / tied;
            }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    printf("{\"rounds\": %ld, \"seconds\": %.6f, \"rounds_per_s\": %.1f, \"mean_turns\": %.6f, "
           "\"capped\": %ld, \"mean_score\": [%.6f, %.6f, %.6f, %.6f], "
           "\"win_share\": [%.6f, %.6f, %.6f, %.6f], \"knock_share\": %.6f, "
           "\"knocker_win_share\": %.6f}\n",
           rounds, sec, rounds / sec, (double)turns_sum / rounds, capped,
           score_sum[0] / rounds, score_sum[1] / rounds, score_sum[2] / rounds,
           score_sum[3] / rounds, wins[0] / rounds, wins[1] / rounds, wins[2] / rounds,
           wins[3] / rounds, (double)knocks / rounds,
           knocks ? knocker_wins / knocks : 0.0);
    return 0;
}
