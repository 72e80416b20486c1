/*
 * The general engine (see general.h): naked and hidden singles over any houses and links,
 * the intersection rule (general_rules.h), then the resumable search of search_loop.h.
 */
#include <stdlib.h>

#include "general.h"

/* A frame holds one search state and the branch taken from it. */
typedef struct {
    int32_t nleft;  /* cells without a value */
    int32_t cell;   /* branch cell */
    mask_t rem;     /* digits of the branch cell not tried yet */
    int32_t pad;
} frame_t;

typedef general_state_t state_t;

/* The engine is compiled three times (see the end of this file); `mode`, a constant in
 * each copy, says which:
 *   G_MODE_ANY      any shape, as the twin states it;
 *   G_MODE_TRACKED  n > 9 with at most 64 houses (16x16): the same, but a house is scanned
 *                   for hidden singles, and a pair of houses for the intersection rule,
 *                   only when a cell of it lost a candidate since it last gave nothing (it
 *                   would give nothing again; on small grids the bookkeeping costs more
 *                   than it saves);
 *   G_MODE9         9x9 shapes other than the standard grid (X, windoku, pyramid, links,
 *                   and the standard grid when forced): tracked too, with the size, cell
 *                   count and frame size constant, and each digit's cells kept as bits.
 * None of this changes what propagation reaches (the closure of the rules does not depend
 * on the order of the steps), so every copy keeps the twin's counters. */
#if defined(__GNUC__) || defined(__clang__)
#define G_INLINE static inline __attribute__((always_inline))
#else
#define G_INLINE static inline
#endif
#define G_MODE_ANY 0
#define G_MODE_TRACKED 1
#define G_MODE9 2
#define G_LOCK_WORDS 16 /* pairs listed by house up to 1,024 pairs */
#define G_N(s, mode) ((mode) == G_MODE9 ? 9 : (s)->sh->n)
#define G_NC(s, mode) ((mode) == G_MODE9 ? 81 : (s)->sh->ncells)

#define G_CAND(f) ((mask_t *)((char *)(f) + sizeof(frame_t)))
#define G_VAL(f, nc) ((uint8_t *)(G_CAND(f) + (nc)))

/* A 9x9 frame also keeps, per digit, the cells that hold it as a candidate (a placed
 * cell holds its digit) in two words, cells 0-63 and 64-80: a placement then visits only
 * the peers that hold its digit, and the branch rule counts peers with two popcounts. */
#define G_B9OFF (((size_t)81 * (sizeof(mask_t) + 1) + 7) & ~(size_t)7)
#define G_BOARDS(cand) ((uint64_t *)((char *)(cand) + G_B9OFF))
#define G_FSIZE9 ((sizeof(frame_t) + G_B9OFF + 18 * sizeof(uint64_t) + 15) & ~(size_t)15)
#define G_FSIZE(s, mode) ((mode) == G_MODE9 ? G_FSIZE9 : (s)->fsize)
#define G_HI17 (((uint64_t)1 << 17) - 1)

static inline int
ctz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int c = 0;
    while (!(x & 1u)) {
        x >>= 1;
        c++;
    }
    return c;
#endif
}

#define pop64 shudu_pop64

static void
general_release(void *state)
{
    state_t *s = state;
    free(s->frames);
    free(s->queue);
    free(s->house_bits);
    free(s->lock_bits);
    free(s->house_locks);
    s->house_locks = NULL;
    free(s->peer_bits);
    free(s->house_bits9);
    s->house_bits9 = NULL;
    s->frames = NULL;
    s->queue = NULL;
    s->house_bits = s->lock_bits = s->peer_bits = NULL;
}

static int
general_init(void *state, const shape_t *sh)
{
    state_t *s = state;
    int nc = sh->ncells;
    memset(s, 0, sizeof(*s));
    s->sh = sh;
    const int nine = sh->n == 9 && nc == 81;
    s->fsize = nine ? G_FSIZE9 : (sizeof(frame_t) + (size_t)nc * (sizeof(mask_t) + 1) + 15) & ~(size_t)15;
    s->cap = 16;
    s->frames = malloc(s->fsize * (size_t)s->cap);
    s->queue = malloc(sizeof(int16_t) * ((size_t)nc + 1));
    s->house_bits = malloc(sizeof(uint64_t) * (size_t)nc);
    s->lock_bits = malloc(sizeof(uint64_t) * ((size_t)sh->nlocks + 1));
    s->peer_bits = nine ? calloc(2 * 81, sizeof(uint64_t)) : NULL;
    s->house_bits9 = nine ? calloc(2 * (size_t)sh->nhouses + 1, sizeof(uint64_t)) : NULL;
    if (!s->frames || !s->queue || !s->house_bits || !s->lock_bits ||
        (nine && (!s->peer_bits || !s->house_bits9))) {
        general_release(s);
        return -1;
    }
    for (int c = 0; c < nc; c++)
        s->house_bits[c] = sh->nhouses > 64 ? ~(uint64_t)0 : 0;
    for (int h = 0; h < sh->nhouses && sh->nhouses <= 64; h++)
        for (int i = 0; i < sh->n; i++)
            s->house_bits[sh->house[h * sh->n + i]] |= (uint64_t)1 << h;
    /* a pair's two houses: those holding all of the first house's cells (the shared ones
     * and its own), and those holding all of the second's */
    const int32_t *start = sh->lock_start;
    for (int k = 0; k < sh->nlocks; k++, start += 3) {
        uint64_t a = ~(uint64_t)0, b = ~(uint64_t)0;
        for (int32_t i = start[0]; i < start[2]; i++)
            a &= s->house_bits[sh->lock_cells[i]];
        for (int32_t i = start[0]; i < start[3]; i++)
            if (i < start[1] || i >= start[2])
                b &= s->house_bits[sh->lock_cells[i]];
        s->lock_bits[k] = a | b;
    }
    s->lock_words = (sh->nlocks + 63) / 64;
    if (sh->nhouses <= 64 && s->lock_words <= G_LOCK_WORDS) {
        s->house_locks = calloc(64 * (size_t)s->lock_words + 1, sizeof(uint64_t));
        if (!s->house_locks) {
            general_release(s);
            return -1;
        }
        for (int k = 0; k < sh->nlocks; k++)
            for (uint64_t hs = s->lock_bits[k]; hs; hs &= hs - 1)
                s->house_locks[ctz64(hs) * s->lock_words + k / 64] |= (uint64_t)1 << (k % 64);
    }
    for (int c = 0; nine && c < 81; c++)
        for (int32_t i = sh->peer_start[c]; i < sh->peer_start[c + 1]; i++) {
            int q = sh->peers[i];
            s->peer_bits[2 * c + (q >= 64)] |= (uint64_t)1 << (q & 63);
        }
    for (int k = 0; nine && k < sh->nhouses; k++)
        for (int i = 0; i < 9; i++) {
            int c = sh->house[9 * k + i];
            s->house_bits9[2 * k + (c >= 64)] |= (uint64_t)1 << (c & 63);
        }
    return 0;
}

G_INLINE frame_t *
frame_at_(state_t *s, int i, int mode)
{
    return (frame_t *)(s->frames + (size_t)i * G_FSIZE(s, mode));
}

static int
frame_reserve(state_t *s, int i)
{
    if (LIKELY(i < s->cap))
        return 0;
    int cap = s->cap * 2;
    char *f = realloc(s->frames, s->fsize * (size_t)cap);
    if (!f)
        return -1;
    s->frames = f;
    s->cap = cap;
    return 0;
}

G_INLINE void
frame_copy_(state_t *s, frame_t *dst, const frame_t *src, int mode)
{
    memcpy(dst, src, G_FSIZE(s, mode));
}

#include "general_rules.h"

G_INLINE int
start_(state_t *s, const uint8_t *givens, frame_t *f, uint64_t *settled, int mode)
{
    const int nine = mode == G_MODE9;
    const int nc = G_NC(s, mode);
    mask_t *cand = G_CAND(f);
    uint8_t *val = G_VAL(f, nc);
    f->nleft = nc;
    for (int c = 0; c < nc; c++) {
        cand[c] = s->sh->full;
        val[c] = 0;
    }
    for (int d = 0; nine && d < 9; d++) {
        G_BOARDS(cand)[2 * d] = ~(uint64_t)0;
        G_BOARDS(cand)[2 * d + 1] = G_HI17;
    }
    s->qn = 0;
    s->rescan = s->relock = ~(uint64_t)0;
    int ok = 1;
    for (int c = 0; c < nc && ok; c++)
        if (givens[c] && !val[c])
            ok = assign(s, cand, val, &f->nleft, c, (mask_t)1 << (givens[c] - 1), mode);
        else if (givens[c] && val[c] != givens[c])
            ok = 0;
    if (!ok || !propagate(s, cand, val, &f->nleft, mode))
        return 0;
    for (int c = 0; c < nc; c++)
        *settled += !givens[c] && val[c];
    return 1;
}

G_INLINE int
place_(state_t *s, frame_t *f, int cell, mask_t bit, int mode)
{
    const int nc = G_NC(s, mode);
    mask_t *cand = G_CAND(f);
    uint8_t *val = G_VAL(f, nc);
    s->qn = 0;
    s->rescan = s->relock = 0;
    return assign(s, cand, val, &f->nleft, cell, bit, mode) && propagate(s, cand, val, &f->nleft, mode);
}

static inline int
solved(const frame_t *f)
{
    return f->nleft == 0;
}

G_INLINE void
emit_(const state_t *s, frame_t *f, uint8_t *out, int mode)
{
    if (out)
        memcpy(out, G_VAL(f, G_NC(s, mode)), (size_t)G_NC(s, mode));
}

/* The branch cell of a 9x9 shape: an unplaced cell with fewest candidates, and among those
 * the one with most unplaced peers (whichever digit is tried, it reaches most of the grid
 * still open), the first such in reading order. */
G_INLINE void
choose_branch9_(state_t *s, frame_t *f)
{
    const mask_t *cand = G_CAND(f);
    const uint8_t *val = G_VAL(f, 81);
    uint8_t count[81];
    uint64_t open[2] = {0, 0};
    int fewest = 99;
    for (int c = 0; c < 81; c++) {
        if (val[c])
            continue;
        mask_t m = cand[c], rest = m & (m - 1);
        /* two candidates, told without a popcount (a library call in portable builds) */
        int k = rest && !(rest & (rest - 1)) ? 2 : POPCOUNT(m);
        count[c] = (uint8_t)k;
        fewest = k < fewest ? k : fewest;
        open[c >= 64] |= (uint64_t)1 << (c & 63);
    }
    int best = -1, best_peers = -1;
    for (int c = 0; c < 81; c++) {
        if (val[c] || count[c] != fewest)
            continue;
        const uint64_t *peers = s->peer_bits + 2 * c;
        int k = pop64(open[0] & peers[0]) + pop64(open[1] & peers[1]);
        if (k > best_peers) {
            best_peers = k;
            best = c;
        }
    }
    f->cell = best;
    f->rem = cand[best];
}

/* How many empty cells with two candidates the branch rule of the larger and smaller
 * shapes weighs (the twin's BRANCH_PAIRS in shudu/solvers/_fast_py.py). */
#define BRANCH_PAIRS 8

/* The branch cell; 9x9 shapes: choose_branch9_.  When some unplaced cells have two
 * candidates, the one among the first BRANCH_PAIRS of them (reading order) whose weaker
 * digit (the one fewer of its peers hold) is held by most peers, the first such: whichever
 * digit is tried, many candidates go at once.  Otherwise the unplaced cell with fewest
 * candidates, the first such. */
G_INLINE void
choose_branch_(state_t *s, frame_t *f, int mode)
{
    if (mode == G_MODE9) {
        choose_branch9_(s, f);
        return;
    }
    const shape_t *sh = s->sh;
    const int nc = G_NC(s, mode);
    const mask_t *cand = G_CAND(f);
    const uint8_t *val = G_VAL(f, nc);
    int best = -1, best_count = 99, pair = -1, pair_score = -1, weighed = 0;
    for (int c = 0; c < nc; c++) {
        if (val[c])
            continue;
        mask_t m = cand[c], rest = m & (m - 1);
        /* two candidates, told without a popcount (a library call in portable builds) */
        if (rest && !(rest & (rest - 1))) {
            if (weighed == BRANCH_PAIRS)
                break;
            weighed++;
            mask_t low = m & (~m + 1), high = m ^ low;
            int with_low = 0, with_high = 0;
            const int16_t *p = sh->peers + sh->peer_start[c];
            const int16_t *end = sh->peers + sh->peer_start[c + 1];
            for (; p < end; p++) {
                mask_t q = cand[*p];
                with_low += (q & low) != 0;
                with_high += (q & high) != 0;
            }
            int score = with_low < with_high ? with_low : with_high;
            if (score > pair_score) {
                pair_score = score;
                pair = c;
            }
        } else if (!weighed) {
            int k = POPCOUNT(m);
            if (k < best_count) {
                best_count = k;
                best = c;
            }
        }
    }
    if (pair >= 0)
        best = pair;
    f->cell = best;
    f->rem = cand[best];
}

/* The search loop three times: search_next_any, search_next_tracked, search_next_9. */
#define frame_at(s, i) frame_at_(s, i, G_MODE)
#define frame_copy(s, d, f) frame_copy_(s, d, f, G_MODE)
#define start(s, g, f, settled) start_(s, g, f, settled, G_MODE)
#define place(s, f, c, bit) place_(s, f, c, bit, G_MODE)
#define emit(s, f, out) emit_(s, f, out, G_MODE)
#define choose_branch(s, f) choose_branch_(s, f, G_MODE)

#define G_MODE G_MODE_ANY
#define search_next search_next_any
#include "search_loop.h"
#undef search_next
#undef G_MODE

#define G_MODE G_MODE_TRACKED
#define search_next search_next_tracked
#include "search_loop.h"
#undef search_next
#undef G_MODE

#define G_MODE G_MODE9
#define search_next search_next_9
#include "search_loop.h"
#undef search_next
#undef G_MODE

static int
general_next(progress_t *p, void *state, uint8_t *out, budget_t *b)
{
    const shape_t *sh = ((state_t *)state)->sh;
    if (sh->n == 9 && sh->ncells == 81)
        return search_next_9(p, state, out, b);
    if (sh->n > 9 && sh->nhouses <= 64)
        return search_next_tracked(p, state, out, b);
    return search_next_any(p, state, out, b);
}

const engine_t shudu_engine_general = {"general", general_init, general_release, general_next};
