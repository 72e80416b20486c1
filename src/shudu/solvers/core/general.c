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
    s->queue = malloc(sizeof(int16_t) * (size_t)nc);
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
    for (; p < end; p++) {
        mask_t m = cand[*p];
        if (m & bit) {
            m &= ~bit;
            cand[*p] = m;
            if (!m)
                return 0;
            if (!(m & (m - 1)))
                s->queue[s->qn++] = *p;
        }
    }
    return 1;
}

/* Naked and hidden singles until nothing changes.  0 on contradiction. */
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
        if (!progress && qi == s->qn)
            return 1;
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

/* The branch cell: the unplaced cell with fewest candidates, the first such in reading
 * order (and the first with two: none has fewer). */
static inline void
choose_branch(state_t *s, frame_t *f)
{
    const int nc = s->sh->ncells;
    const mask_t *cand = G_CAND(f);
    const uint8_t *val = G_VAL(f, nc);
    int best = -1, best_count = 99;
    for (int c = 0; c < nc; c++) {
        if (!val[c]) {
            int k = POPCOUNT(cand[c]);
            if (k < best_count) {
                best_count = k;
                best = c;
                if (k == 2)
                    break;
            }
        }
    }
    f->cell = best;
    f->rem = cand[best];
}

#include "search_loop.h"

const engine_t shudu_engine_general = {"general", general_init, general_release, search_next};
