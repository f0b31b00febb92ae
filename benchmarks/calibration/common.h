/* What the calibration programs share: the deck's values, stock and discard pile, the random
 * stream, the shuffle and the reshuffle of an empty stock. */
#ifndef CALIBRATION_COMMON_H
#define CALIBRATION_COMMON_H
#include <stdint.h>
#include <stdlib.h>

static uint64_t rng;
static int VALUE[52], RANK[52], DECK_SUM, stock[52], disc[52];

static inline uint64_t splitmix64(void) {
    uint64_t z = (rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* uniform in [0, bound): Lemire's multiply-shift with rejection, so unbiased */
static inline int below(uint32_t bound) {
    uint64_t m = (splitmix64() >> 32) * bound;
    if ((uint32_t)m < bound) {
        uint32_t floor = -bound % bound;
        while ((uint32_t)m < floor) m = (splitmix64() >> 32) * bound;
    }
    return (int)(m >> 32);
}

static void shuffle(int *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = below(i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* the arguments ROUNDS SEED, and the deck's card values from a value per rank (A..K) */
static long setup(int argc, char **argv, const int *rank_value) {
    rng = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    DECK_SUM = 0;
    for (int i = 0; i < 52; i++) {
        VALUE[i] = rank_value[i % 13];
        RANK[i] = i % 13;
        DECK_SUM += VALUE[i];
    }
    return argc > 1 ? atol(argv[1]) : 1000000;
}

/* the stock is empty: the discard pile but its top becomes the stock, shuffled */
static void restock(int *ns, int *nd, int *disc_sum) {
    *ns = *nd - 1;
    for (int i = 0; i < *ns; i++) stock[i] = disc[i];
    disc[0] = disc[*nd - 1];
    *nd = 1;
    *disc_sum = VALUE[disc[0]];
    shuffle(stock, *ns);
}

#endif
