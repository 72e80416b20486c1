/*
 * The general engine (see general.h): naked and hidden singles over any houses and links,
 * then the resumable search of search_loop.h.
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

#define G_CAND(f) ((mask_t *)((char *)(f) + sizeof(frame_t)))
#define G_VAL(f, nc) ((uint8_t *)(G_CAND(f) + (nc)))

static int
general_init(void *state, const shape_t *sh)
{
    state_t *s = state;
    int nc = sh->ncells;
    memset(s, 0, sizeof(*s));
    s->sh = sh;
    s->fsize = (sizeof(frame_t) + (size_t)nc * (sizeof(mask_t) + 1) + 15) & ~(size_t)15;
    s->cap = 16;
    s->frames = malloc(s->fsize * (size_t)s->cap);
    s->queue = malloc(sizeof(int16_t) * ((size_t)nc + 1));
    if (!s->frames || !s->queue) {
        free(s->frames);
        free(s->queue);
        s->frames = NULL;
        s->queue = NULL;
        return -1;
    }
    return 0;
}

static void
general_release(void *state)
{
    state_t *s = state;
    free(s->frames);
    free(s->queue);
    s->frames = NULL;
    s->queue = NULL;
}

static inline frame_t *
frame_at(state_t *s, int i)
{
    return (frame_t *)(s->frames + (size_t)i * s->fsize);
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

static inline void
frame_copy(state_t *s, frame_t *dst, const frame_t *src)
{
    memcpy(dst, src, s->fsize);
}

/* Place digit `bit` in cell c and remove it from every peer; a peer left with
 * one candidate joins the queue of naked singles.  0 on contradiction. */
static inline int
assign(state_t *s, mask_t *cand, uint8_t *val, int32_t *nleft, int c, mask_t bit)
{
    const shape_t *sh = s->sh;
    if (!(cand[c] & bit))
        return 0;
    val[c] = (uint8_t)(CTZ(bit) + 1);
    cand[c] = bit;
    (*nleft)--;
    const int16_t *p = sh->peers + sh->peer_start[c];
    const int16_t *end = sh->peers + sh->peer_start[c + 1];
    /* without a branch per peer: whether a peer holds the digit is not predictable.  The
     * peer is written to the queue's next slot in any case and kept there only when it
     * just became a single (the queue has a spare slot for the last write) */
    int16_t *queue = s->queue;
    int qn = s->qn;
    mask_t emptied = 0;
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

/* Remove the digits of `gone` from the cells c[0..count), queueing a cell left with one
 * candidate.  -1 on contradiction, else whether a candidate went. */
static inline int
remove_digits(state_t *s, mask_t *cand, const int16_t *c, int count, mask_t gone)
{
    int changed = 0;
    for (int i = 0; i < count; i++) {
        mask_t m = cand[c[i]];
        if (m & gone) {
            m &= ~gone;
            cand[c[i]] = m;
            if (!m)
                return -1;
            if (!(m & (m - 1)))
                s->queue[s->qn++] = c[i];
            changed = 1;
        }
    }
    return changed;
}

/* The intersection rule, once over every pair of houses that share cells: a digit that
 * one house holds only in the shared cells leaves the other house's other cells
 * (pointing and claiming, any two houses).  -1 on contradiction, else whether a
 * candidate went. */
static int
intersections(state_t *s, mask_t *cand)
{
    const shape_t *sh = s->sh;
    const int32_t *start = sh->lock_start;
    const int16_t *cells = sh->lock_cells;
    int changed = 0;
    for (int k = 0; k < sh->nlocks; k++, start += 3) {
        mask_t shared = 0, only_a = 0, only_b = 0;
        for (int32_t i = start[0]; i < start[1]; i++)
            shared |= cand[cells[i]];
        for (int32_t i = start[1]; i < start[2]; i++)
            only_a |= cand[cells[i]];
        for (int32_t i = start[2]; i < start[3]; i++)
            only_b |= cand[cells[i]];
        /* the digits the first house holds only in the shared cells leave the second's
         * other cells, and the other way round */
        mask_t out_b = shared & ~only_a & only_b, out_a = shared & ~only_b & only_a;
        if (out_b) {
            int r = remove_digits(s, cand, cells + start[2], start[3] - start[2], out_b);
            if (r < 0)
                return -1;
            changed |= r;
        }
        if (out_a) {
            int r = remove_digits(s, cand, cells + start[1], start[2] - start[1], out_a);
            if (r < 0)
                return -1;
            changed |= r;
        }
    }
    return changed;
}

/* Naked and hidden singles until nothing changes, then the intersection rule, and again
 * while it removes candidates.  0 on contradiction. */
static int
propagate(state_t *s, mask_t *cand, uint8_t *val, int32_t *nleft)
{
    const shape_t *sh = s->sh;
    const int n = sh->n;
    const mask_t full = sh->full;
    int qi = 0;
    for (;;) {
        while (qi < s->qn) {
            int c = s->queue[qi++];
            if (!val[c] && !assign(s, cand, val, nleft, c, cand[c]))
                return 0;
        }
        if (*nleft == 0)
            return 1;
        int progress = 0;
        const int16_t *h = sh->house;
        for (int k = 0; k < sh->nhouses; k++, h += n) {
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
                int i = 0;
                while (i < n && (val[h[i]] || !(cand[h[i]] & bit)))
                    i++;
                if (i == n || !assign(s, cand, val, nleft, h[i], bit))
                    return 0;
                progress = 1;
            }
        }
        if (!progress && qi == s->qn) {
            int r = intersections(s, cand);
            if (r < 0)
                return 0;
            if (!r)
                return 1;
        }
    }
}

static int
start(state_t *s, const uint8_t *givens, frame_t *f, uint64_t *settled)
{
    const int nc = s->sh->ncells;
    mask_t *cand = G_CAND(f);
    uint8_t *val = G_VAL(f, nc);
    f->nleft = nc;
    for (int c = 0; c < nc; c++) {
        cand[c] = s->sh->full;
        val[c] = 0;
    }
    s->qn = 0;
    int ok = 1;
    for (int c = 0; c < nc && ok; c++)
        if (givens[c] && !val[c])
            ok = assign(s, cand, val, &f->nleft, c, (mask_t)1 << (givens[c] - 1));
        else if (givens[c] && val[c] != givens[c])
            ok = 0;
    if (!ok || !propagate(s, cand, val, &f->nleft))
        return 0;
    for (int c = 0; c < nc; c++)
        *settled += !givens[c] && val[c];
    return 1;
}

static inline int
place(state_t *s, frame_t *f, int cell, mask_t bit)
{
    const int nc = s->sh->ncells;
    mask_t *cand = G_CAND(f);
    uint8_t *val = G_VAL(f, nc);
    s->qn = 0;
    return assign(s, cand, val, &f->nleft, cell, bit) && propagate(s, cand, val, &f->nleft);
}

static inline int
solved(const frame_t *f)
{
    return f->nleft == 0;
}

static inline void
emit(const state_t *s, frame_t *f, uint8_t *out)
{
    if (out)
        memcpy(out, G_VAL(f, s->sh->ncells), (size_t)s->sh->ncells);
}

/* How many empty cells with two candidates the branch rule weighs (the twin's
 * BRANCH_PAIRS in shudu/solvers/_fast_py.py). */
#define BRANCH_PAIRS 8

/* The branch cell.  When some unplaced cells have two candidates, the one among the first
 * BRANCH_PAIRS of them (reading order) whose weaker digit (the one fewer of its peers
 * hold) is held by most peers, the first such: whichever digit is tried, many candidates
 * go at once.  Otherwise the unplaced cell with fewest candidates, the first such. */
static inline void
choose_branch(state_t *s, frame_t *f)
{
    const shape_t *sh = s->sh;
    const int nc = sh->ncells;
    const mask_t *cand = G_CAND(f);
    const uint8_t *val = G_VAL(f, nc);
    int best = -1, best_count = 99, pair = -1, pair_score = -1, weighed = 0;
    for (int c = 0; c < nc; c++) {
        if (val[c])
            continue;
        mask_t m = cand[c];
        int k = POPCOUNT(m);
        if (k == 2) {
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
        } else if (k < best_count && !weighed) {
            best_count = k;
            best = c;
        }
    }
    if (pair >= 0)
        best = pair;
    f->cell = best;
    f->rem = cand[best];
}

#include "search_loop.h"

const engine_t shudu_engine_general = {"general", general_init, general_release, search_next};
