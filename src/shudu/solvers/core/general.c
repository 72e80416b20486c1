/*
 * The general engine (see general.h): naked and hidden singles over any houses and links,
 * the intersection rule, then the resumable search of search_loop.h.
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

/* A peer q of a 9x9 placement loses the digit of `bit` (it held it). */
G_INLINE void
drop9(state_t *s, mask_t *cand, int q, mask_t bit, mask_t *emptied, uint64_t *changed)
{
    mask_t left = cand[q] & ~bit;
    cand[q] = left;
    if (!(left & (left - 1)))
        s->queue[s->qn++] = (int16_t)q;
    *emptied |= (mask_t)(left == 0);
    *changed |= s->house_bits[q];
}

/* assign() on a 9x9 frame (cand[c] holds bit): only the peers that hold the digit, read
 * from the digit's cells, are visited. */
G_INLINE int
assign9(state_t *s, mask_t *cand, uint8_t *val, int32_t *nleft, int c, mask_t bit)
{
    uint64_t *boards = G_BOARDS(cand);
    const uint64_t *peers = s->peer_bits + 2 * c;
    const int d = CTZ(bit), half = c >= 64;
    const uint64_t cbit = (uint64_t)1 << (c & 63);
    for (mask_t other = cand[c] & ~bit; other; other &= other - 1)
        boards[2 * CTZ(other) + half] &= ~cbit;
    val[c] = (uint8_t)(d + 1);
    cand[c] = bit;
    (*nleft)--;
    uint64_t lo = boards[2 * d] & peers[0], hi = boards[2 * d + 1] & peers[1];
    boards[2 * d] ^= lo;
    boards[2 * d + 1] ^= hi;
    mask_t emptied = 0;
    uint64_t changed = s->house_bits[c];
    for (; lo; lo &= lo - 1)
        drop9(s, cand, ctz64(lo), bit, &emptied, &changed);
    for (; hi; hi &= hi - 1)
        drop9(s, cand, 64 + ctz64(hi), bit, &emptied, &changed);
    s->rescan |= changed;
    s->relock |= changed;
    return !emptied;
}

/* Place digit `bit` in cell c and remove it from every peer; a peer left with
 * one candidate joins the queue of naked singles.  0 on contradiction. */
G_INLINE int
assign(state_t *s, mask_t *cand, uint8_t *val, int32_t *nleft, int c, mask_t bit, int mode)
{
    const int nine = mode == G_MODE9;
    const shape_t *sh = s->sh;
    if (!(cand[c] & bit))
        return 0;
    if (nine)
        return assign9(s, cand, val, nleft, c, bit);
    val[c] = (uint8_t)(CTZ(bit) + 1);
    cand[c] = bit;
    (*nleft)--;
    const int16_t *p = sh->peers + sh->peer_start[c];
    const int16_t *end = sh->peers + sh->peer_start[c + 1];
    /* without a branch per peer: whether a peer holds the digit is not predictable.  The
     * peer is written to the queue's next slot in any case and kept there only when it
     * just became a single (the queue has a spare slot for the last write) */
    int16_t *queue = s->queue;
    const uint64_t *house_bits = s->house_bits;
    int qn = s->qn;
    mask_t emptied = 0;
    if (mode == G_MODE_ANY) {
        for (; p < end; p++) {
            int q = *p;
            mask_t m = cand[q], left = m & ~bit;
            cand[q] = left;
            queue[qn] = (int16_t)q;
            qn += (m != left) & ((left & (left - 1)) == 0);
            emptied |= (mask_t)(left == 0);
        }
        s->qn = qn;
        return !emptied;
    }
    uint64_t changed = house_bits[c];
    for (; p < end; p++) {
        int q = *p;
        mask_t m = cand[q], left = m & ~bit;
        cand[q] = left;
        queue[qn] = (int16_t)q;
        qn += (m != left) & ((left & (left - 1)) == 0);
        changed |= house_bits[q] & ((uint64_t)0 - (m != left));
        emptied |= (mask_t)(left == 0);
    }
    s->qn = qn;
    s->rescan |= changed;
    s->relock |= changed;
    return !emptied;
}

/* Remove the digits of `gone` from the cells c[0..count), queueing a cell left with one
 * candidate.  -1 on contradiction, else whether a candidate went. */
G_INLINE int
remove_digits(state_t *s, mask_t *cand, const int16_t *c, int count, mask_t gone, int mode)
{
    const int nine = mode == G_MODE9;
    int changed = 0;
    for (int i = 0; i < count; i++) {
        mask_t m = cand[c[i]];
        if (m & gone) {
            if (nine) {
                uint64_t *boards = G_BOARDS(cand), cbit = (uint64_t)1 << (c[i] & 63);
                for (mask_t lost = m & gone; lost; lost &= lost - 1)
                    boards[2 * CTZ(lost) + (c[i] >= 64)] &= ~cbit;
            }
            m &= ~gone;
            cand[c[i]] = m;
            if (!m)
                return -1;
            if (!(m & (m - 1)))
                s->queue[s->qn++] = c[i];
            if (mode != G_MODE_ANY) {
                s->rescan |= s->house_bits[c[i]];
                s->relock |= s->house_bits[c[i]];
            }
            changed = 1;
        }
    }
    return changed;
}

/* The intersection rule on pair k: a digit that one house holds only in the shared cells
 * leaves the other house's other cells (pointing and claiming, any two houses).  -1 on
 * contradiction, else whether a candidate went. */
G_INLINE int
intersect_pair(state_t *s, mask_t *cand, int k, int mode)
{
    const int32_t *start = s->sh->lock_start + 3 * k;
    const int16_t *cells = s->sh->lock_cells;
    mask_t shared = 0, only_a = 0, only_b = 0;
    for (int32_t i = start[0]; i < start[1]; i++)
        shared |= cand[cells[i]];
    for (int32_t i = start[1]; i < start[2]; i++)
        only_a |= cand[cells[i]];
    for (int32_t i = start[2]; i < start[3]; i++)
        only_b |= cand[cells[i]];
    /* the digits the first house holds only in the shared cells leave the second's other
     * cells, and the other way round */
    mask_t out_b = shared & ~only_a & only_b, out_a = shared & ~only_b & only_a;
    int changed = 0;
    if (out_b) {
        int r = remove_digits(s, cand, cells + start[2], start[3] - start[2], out_b, mode);
        if (r < 0)
            return -1;
        changed |= r;
    }
    if (out_a) {
        int r = remove_digits(s, cand, cells + start[1], start[2] - start[1], out_a, mode);
        if (r < 0)
            return -1;
        changed |= r;
    }
    return changed;
}

/* The intersection rule once over every pair of houses that share cells.  -1 on
 * contradiction, else whether a candidate went. */
G_INLINE int
intersections(state_t *s, mask_t *cand, int mode)
{
    const shape_t *sh = s->sh;
    int changed = 0;
    /* a pair whose houses are as they were when it last gave nothing gives nothing again */
    const uint64_t relock = s->relock;
    s->relock = 0;
    if (mode != G_MODE_ANY && s->house_locks) {
        /* the pairs of the changed houses, visited by their set bits in increasing order:
         * a test per pair mispredicts where houses change at random */
        const int words = s->lock_words;
        uint64_t todo[G_LOCK_WORDS] = {0};
        for (uint64_t hs = relock; hs; hs &= hs - 1) {
            const uint64_t *own = s->house_locks + ctz64(hs) * words;
            for (int w = 0; w < words; w++)
                todo[w] |= own[w];
        }
        for (int w = 0; w < words; w++)
            for (uint64_t ks = todo[w]; ks; ks &= ks - 1) {
                int r = intersect_pair(s, cand, 64 * w + ctz64(ks), mode);
                if (r < 0)
                    return -1;
                changed |= r;
            }
        return changed;
    }
    for (int k = 0; k < sh->nlocks; k++) {
        if (mode != G_MODE_ANY && !(s->lock_bits[k] & relock))
            continue;
        int r = intersect_pair(s, cand, k, mode);
        if (r < 0)
            return -1;
        changed |= r;
    }
    return changed;
}

/* Naked and hidden singles until nothing changes, then the intersection rule, and again
 * while it removes candidates.  0 on contradiction. */
G_INLINE int
propagate_body(state_t *s, mask_t *cand, uint8_t *val, int32_t *nleft, int mode)
{
    const int nine = mode == G_MODE9;
    const shape_t *sh = s->sh;
    const int n = G_N(s, mode);
    const mask_t full = sh->full;
    int qi = 0;
    for (;;) {
        while (qi < s->qn) {
            int c = s->queue[qi++];
            if (!val[c] && !assign(s, cand, val, nleft, c, cand[c], mode))
                return 0;
        }
        if (*nleft == 0)
            return 1;
        int progress = 0;
        /* a house unchanged since it was last looked at holds no hidden single: the
         * houses 0..63 are visited by the set bits of rescan (a test per house mispredicts
         * where houses change at random), every house from 64 on */
        uint64_t todo = mode == G_MODE_ANY ? ~(uint64_t)0 : s->rescan;
        s->rescan = 0;
        for (int k = -1;;) {
            if (todo) {
                k = ctz64(todo);
                todo &= todo - 1;
            } else {
                k = k < 64 ? 64 : k + 1;
            }
            if (k >= sh->nhouses)
                break;
            const int16_t *h = sh->house + (size_t)k * n;
            mask_t once = 0, twice = 0, placed = 0;
            for (int i = 0; i < n; i++) {
                /* open: the candidates of a cell without a value, else 0; computed
                 * without a branch, since whether a cell is placed is not predictable */
                mask_t m = cand[h[i]];
                mask_t open = m & ((mask_t)(val[h[i]] != 0) - 1u);
                placed |= m ^ open;
                twice |= once & open;
                once |= open;
            }
            if ((once | placed) != full)
                return 0;
            mask_t hidden = once & ~twice;
            while (hidden) {
                mask_t bit = hidden & (~hidden + 1);
                hidden ^= bit;
                int cell = -1;
                if (nine) {
                    /* the one cell of the house that still holds the digit, if any */
                    const uint64_t *boards = G_BOARDS(cand), *in = s->house_bits9 + 2 * k;
                    uint64_t lo = boards[2 * CTZ(bit)] & in[0], hi = boards[2 * CTZ(bit) + 1] & in[1];
                    cell = lo ? ctz64(lo) : hi ? 64 + ctz64(hi) : -1;
                } else {
                    int i = 0;
                    while (i < n && (val[h[i]] || !(cand[h[i]] & bit)))
                        i++;
                    cell = i < n ? h[i] : -1;
                }
                if (cell < 0 || !assign(s, cand, val, nleft, cell, bit, mode))
                    return 0;
                progress = 1;
            }
        }
        if (!progress && qi == s->qn) {
            int r = intersections(s, cand, mode);
            if (r < 0)
                return 0;
            if (!r)
                return 1;
        }
    }
}

/* One function per copy, kept out of the search loop (inlined there, it made the search
 * of large grids slower). */
static int
propagate_any(state_t *s, mask_t *cand, uint8_t *val, int32_t *nleft)
{
    return propagate_body(s, cand, val, nleft, G_MODE_ANY);
}

static int
propagate_tracked(state_t *s, mask_t *cand, uint8_t *val, int32_t *nleft)
{
    return propagate_body(s, cand, val, nleft, G_MODE_TRACKED);
}

static int
propagate_9(state_t *s, mask_t *cand, uint8_t *val, int32_t *nleft)
{
    return propagate_body(s, cand, val, nleft, G_MODE9);
}

G_INLINE int
propagate(state_t *s, mask_t *cand, uint8_t *val, int32_t *nleft, int mode)
{
    if (mode == G_MODE9)
        return propagate_9(s, cand, val, nleft);
    if (mode == G_MODE_TRACKED)
        return propagate_tracked(s, cand, val, nleft);
    return propagate_any(s, cand, val, nleft);
}

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
