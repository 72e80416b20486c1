/*
 * shudu.solvers._core_c -- the compiled search engine behind solver "fast".
 *
 * The pure-Python twin, shudu/solvers/_fast_py.py, is the specification: it
 * holds the docstrings and carries out the same algorithms step for step, so
 * that both give the same solutions in the same order and the same counters.
 *
 * Two engines share one resumable, iterative depth-first search:
 *   - the general engine works on any list of n-cell houses plus extra "links"
 *     (cells that must differ without sharing a house), n = 4..25: candidates
 *     are a bit mask per cell; propagation is naked and hidden singles;
 *   - the 9x9 engine serves the standard 9x9 grid: candidates are kept per
 *     digit and band (three rows, 27 bits), so that hidden singles and locked
 *     candidates inside a band are a few word-wide operations and a table
 *     lookup.
 *
 * Everything a search touches lives in objects the caller owns: there is no
 * global mutable state, and the GIL is released while searching.  Nothing the
 * caller passes is trusted: bad sizes, lengths or characters raise ValueError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if !defined(_WIN32) && !defined(SHUDU_NO_THREADS)
#include <pthread.h>
#define SHUDU_THREADS 1
#else
#define SHUDU_THREADS 0
#endif

#define MAX_N 25
#define MAX_CELLS (MAX_N * MAX_N)

typedef uint32_t mask_t;

#if defined(__GNUC__) || defined(__clang__)
#define POPCOUNT(x) __builtin_popcount(x)
#define CTZ(x) __builtin_ctz(x)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
static int POPCOUNT(uint32_t x) { int c = 0; while (x) { x &= x - 1; c++; } return c; }
static int CTZ(uint32_t x) { int c = 0; while (!(x & 1u)) { x >>= 1; c++; } return c; }
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#endif

/* ------------------------------------------------------------------------ */
/* Budgets                                                                  */
/* ------------------------------------------------------------------------ */

static double
monotonic_seconds(void)
{
#if defined(CLOCK_MONOTONIC) && !defined(_WIN32)
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#else
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
}

typedef struct {
    uint64_t node_limit;  /* UINT64_MAX: none */
    double deadline;      /* monotonic_seconds() value; < 0: none */
    unsigned tick;
} budget_t;

/* True when the search may not open another node.  The clock is read only
 * every 64 nodes: a node costs at most some microseconds, even on 25x25. */
static inline int
budget_spent(budget_t *b, uint64_t nodes)
{
    if (nodes >= b->node_limit)
        return 1;
    if (b->deadline >= 0 && (b->tick++ & 63u) == 0)
        return monotonic_seconds() > b->deadline;
    return 0;
}

/* Search results. */
enum { RUN_SOLUTION = 1, RUN_EXHAUSTED = 0, RUN_BUDGET = -1, RUN_NOMEM = -2 };

/* ------------------------------------------------------------------------ */
/* Shapes                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    int n, ncells, nhouses;
    mask_t full;
    int std9;             /* standard 9x9 houses, no links: the 9x9 engine */
    int16_t *house;       /* nhouses * n cell indices */
    int32_t *peer_start;  /* ncells + 1 offsets into peers */
    int16_t *peers;
} ShapeObject;

/* ------------------------------------------------------------------------ */
/* The general engine                                                       */
/* ------------------------------------------------------------------------ */

/* A frame holds one search state and the branch taken from it. */
typedef struct {
    int32_t nleft;  /* cells without a value */
    int32_t cell;   /* branch cell */
    mask_t rem;     /* digits of the branch cell not tried yet */
    int32_t pad;
} gframe_hdr;

#define G_CAND(f) ((mask_t *)((char *)(f) + sizeof(gframe_hdr)))
#define G_VAL(f, nc) ((uint8_t *)(G_CAND(f) + (nc)))

typedef struct {
    const ShapeObject *sh;
    size_t fsize;
    char *frames;
    int cap, depth;
    int started, finished;
    int16_t *queue;
    int qn;
    uint64_t nodes, guesses, settled;
    uint8_t givens[MAX_CELLS];
} gsearch_t;

static inline gframe_hdr *
g_frame(gsearch_t *s, int i)
{
    return (gframe_hdr *)(s->frames + (size_t)i * s->fsize);
}

static int
g_init(gsearch_t *s, const ShapeObject *sh)
{
    int nc = sh->ncells;
    memset(s, 0, sizeof(*s));
    s->sh = sh;
    s->fsize = (sizeof(gframe_hdr) + (size_t)nc * (sizeof(mask_t) + 1) + 15) & ~(size_t)15;
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
g_free(gsearch_t *s)
{
    free(s->frames);
    free(s->queue);
    s->frames = NULL;
    s->queue = NULL;
}

static void
g_reset(gsearch_t *s, const uint8_t *givens)
{
    memcpy(s->givens, givens, (size_t)s->sh->ncells);
    s->depth = 0;
    s->started = s->finished = 0;
    s->nodes = s->guesses = s->settled = 0;
}

/* Place digit `bit` in cell c and remove it from every peer; a peer left with
 * one candidate joins the queue of naked singles.  0 on contradiction. */
static inline int
g_assign(gsearch_t *s, mask_t *cand, uint8_t *val, int32_t *nleft, int c, mask_t bit)
{
    const ShapeObject *sh = s->sh;
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
g_propagate(gsearch_t *s, mask_t *cand, uint8_t *val, int32_t *nleft)
{
    const ShapeObject *sh = s->sh;
    const int n = sh->n;
    const mask_t full = sh->full;
    int qi = 0;
    for (;;) {
        while (qi < s->qn) {
            int c = s->queue[qi++];
            if (!val[c] && !g_assign(s, cand, val, nleft, c, cand[c]))
                return 0;
        }
        if (*nleft == 0)
            return 1;
        int progress = 0;
        const int16_t *h = sh->house;
        for (int k = 0; k < sh->nhouses; k++, h += n) {
            mask_t once = 0, twice = 0, placed = 0;
            for (int i = 0; i < n; i++) {
                mask_t m = cand[h[i]];
                if (val[h[i]]) {
                    placed |= m;
                } else {
                    twice |= once & m;
                    once |= m;
                }
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
                if (i == n || !g_assign(s, cand, val, nleft, h[i], bit))
                    return 0;
                progress = 1;
            }
        }
        if (!progress && qi == s->qn)
            return 1;
    }
}

/* The unplaced cell with fewest candidates, the first such in reading order. */
static inline int
g_branch_cell(const gsearch_t *s, const mask_t *cand, const uint8_t *val)
{
    int best = -1, best_count = 99;
    for (int c = 0; c < s->sh->ncells; c++) {
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
    return best;
}

static int
g_grow(gsearch_t *s)
{
    int cap = s->cap * 2;
    char *f = realloc(s->frames, s->fsize * (size_t)cap);
    if (!f)
        return -1;
    s->frames = f;
    s->cap = cap;
    return 0;
}

static inline void
g_emit(const gsearch_t *s, const uint8_t *val, uint8_t *out)
{
    if (out)
        memcpy(out, val, (size_t)s->sh->ncells);
}

/* Run to the next solution (written to out as digit values, if out). */
static int
g_next(gsearch_t *s, uint8_t *out, budget_t *b)
{
    const int nc = s->sh->ncells;
    if (s->finished)
        return RUN_EXHAUSTED;
    if (!s->started) {
        if (budget_spent(b, s->nodes))
            return RUN_BUDGET;
        s->started = 1;
        s->nodes = 1;
        gframe_hdr *f = g_frame(s, 0);
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
            if (s->givens[c] && !val[c])
                ok = g_assign(s, cand, val, &f->nleft, c, (mask_t)1 << (s->givens[c] - 1));
            else if (s->givens[c] && val[c] != s->givens[c])
                ok = 0;
        ok = ok && g_propagate(s, cand, val, &f->nleft);
        if (!ok) {
            s->finished = 1;
            return RUN_EXHAUSTED;
        }
        for (int c = 0; c < nc; c++)
            s->settled += !s->givens[c] && val[c];
        if (f->nleft == 0) {
            s->finished = 1;
            g_emit(s, val, out);
            return RUN_SOLUTION;
        }
        f->cell = g_branch_cell(s, cand, val);
        f->rem = cand[f->cell];
        s->depth = 1;
    }
    for (;;) {
        if (s->depth == 0) {
            s->finished = 1;
            return RUN_EXHAUSTED;
        }
        gframe_hdr *f = g_frame(s, s->depth - 1);
        if (!f->rem) {
            s->depth--;
            continue;
        }
        if (budget_spent(b, s->nodes))
            return RUN_BUDGET;
        int cell = f->cell;
        mask_t bit = f->rem & (~f->rem + 1);
        f->rem ^= bit;
        gframe_hdr *child = f;
        if (f->rem) {
            /* other digits remain: a guess; work on a copy, keep this frame */
            if (s->depth == s->cap && g_grow(s) < 0)
                return RUN_NOMEM;
            f = g_frame(s, s->depth - 1);
            child = g_frame(s, s->depth);
            memcpy(child, f, s->fsize);
            s->depth++;
            s->guesses++;
        }
        s->nodes++;
        mask_t *cand = G_CAND(child);
        uint8_t *val = G_VAL(child, nc);
        s->qn = 0;
        if (!g_assign(s, cand, val, &child->nleft, cell, bit) ||
            !g_propagate(s, cand, val, &child->nleft)) {
            s->depth--;
            continue;
        }
        if (child->nleft == 0) {
            s->depth--;
            g_emit(s, val, out);
            return RUN_SOLUTION;
        }
        child->cell = g_branch_cell(s, cand, val);
        child->rem = cand[child->cell];
    }
}

/* ------------------------------------------------------------------------ */
/* The 9x9 engine                                                           */
/* ------------------------------------------------------------------------ */

/* Candidates are kept per digit and band: cand[3 * d + b] is a 27-bit mask of the cells
 * of band b (rows 3b..3b+2; bit 9 * row + column) where digit d + 1 may go, its placed
 * cell included.  Rules, applied until nothing changes (the same closure as the
 * general engine's naked and hidden singles, plus one rule the general engine lacks):
 *   - band rule: in a band, a digit takes one cell in each of the three rows and each of
 *     the three boxes, so the (row, box) triads that hold it must contain a one-to-one
 *     matching of rows to boxes; a triad in no such matching loses the digit
 *     (pointing and claiming between rows and boxes, and a little more);
 *   - a row of the band with one cell left for the digit: place it (hidden single; box
 *     hidden singles follow from the band rule);
 *   - a column with one cell left for the digit: place it;
 *   - a cell with one digit left: place it (naked single).
 * Only the row singles of the band rule place digits: a naked single, a column single or
 * a branch digit just clears the rest of the cell's row and box for its digit, and the
 * band rule then sees a row single there.  A placed cell needs nothing more in its own
 * band (the band rule has cleared its row and box): it leaves the other digits, and the
 * digit leaves its column in the other bands.  Each frame keeps `seen`, the words as the
 * band rule last left them, and the rule re-runs only where cand and seen differ. */

#define BAND_ALL 0x7FFFFFFu
#define TRIAD_BASES 0x1249249u  /* lowest bit of each of the 9 triads */
#define COLUMN_BITS 0x40201u    /* one column in the three rows of a band */
#define ROW0 0x1FFu
#define ROW1 (0x1FFu << 9)
#define ROW2 (0x1FFu << 18)

/* Band rule table: for the 9-bit set of (row, box) triads holding a digit in a band (bit
 * 3 * row + box), the cells of the triads that lie in some one-to-one matching of rows to
 * boxes within that set; 0 when there is none. */
static const uint32_t BAND_KEEP[512] = {
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x01C71C0u, 0x01C71C0u, 0x01C71C0u, 0x01C71C0u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x01C71C0u, 0x01C71C0u, 0x01C71C0u, 0x01C71C0u,
    0x0000000u, 0x0000000u, 0x01F8038u, 0x01F8038u, 0x0000000u, 0x0000000u,
    0x01F8038u, 0x01F8038u, 0x0000000u, 0x0000000u, 0x01F8038u, 0x01F8038u,
    0x0000000u, 0x0000000u, 0x01F8038u, 0x01F8038u, 0x0000000u, 0x0000000u,
    0x01F8038u, 0x01F8038u, 0x01C71C0u, 0x01C71C0u, 0x01FF1F8u, 0x01FF1F8u,
    0x0000000u, 0x0000000u, 0x01F8038u, 0x01F8038u, 0x01C71C0u, 0x01C71C0u,
    0x01FF1F8u, 0x01FF1F8u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0E00FC0u, 0x0E00FC0u, 0x0E00FC0u, 0x0E00FC0u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0E00FC0u, 0x0E00FC0u, 0x0E00FC0u, 0x0E00FC0u, 0x0000000u, 0x0E38007u,
    0x0000000u, 0x0E38007u, 0x0000000u, 0x0E38007u, 0x0000000u, 0x0E38007u,
    0x0000000u, 0x0E38007u, 0x0000000u, 0x0E38007u, 0x0E00FC0u, 0x0E38FC7u,
    0x0E00FC0u, 0x0E38FC7u, 0x0000000u, 0x0E38007u, 0x0000000u, 0x0E38007u,
    0x0000000u, 0x0E38007u, 0x0000000u, 0x0E38007u, 0x0000000u, 0x0E38007u,
    0x0000000u, 0x0E38007u, 0x0E00FC0u, 0x0E38FC7u, 0x0E00FC0u, 0x0E38FC7u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0E00FC0u, 0x0E00FC0u, 0x0E00FC0u, 0x0E00FC0u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x01C71C0u, 0x01C71C0u, 0x01C71C0u, 0x01C71C0u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0FC7FC0u, 0x0FC7FC0u,
    0x0FC7FC0u, 0x0FC7FC0u, 0x0000000u, 0x0E38007u, 0x01F8038u, 0x0FF803Fu,
    0x0000000u, 0x0E38007u, 0x01F8038u, 0x0FF803Fu, 0x0000000u, 0x0E38007u,
    0x01F8038u, 0x0FF803Fu, 0x0E00FC0u, 0x0E38FC7u, 0x0FF8FF8u, 0x0FF8FFFu,
    0x0000000u, 0x0E38007u, 0x01F8038u, 0x0FF803Fu, 0x01C71C0u, 0x0FFF1C7u,
    0x01FF1F8u, 0x0FFF1FFu, 0x0000000u, 0x0E38007u, 0x01F8038u, 0x0FF803Fu,
    0x0FC7FC0u, 0x0FFFFC7u, 0x0FFFFF8u, 0x0FFFFFFu, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x7000E38u, 0x7000E38u, 0x0000000u, 0x0000000u,
    0x7000E38u, 0x7000E38u, 0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u,
    0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u,
    0x7000E38u, 0x7007E3Fu, 0x0000000u, 0x7007007u, 0x7000E38u, 0x7007E3Fu,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x7000E38u, 0x7000E38u,
    0x0000000u, 0x0000000u, 0x7000E38u, 0x7000E38u, 0x0000000u, 0x7007007u,
    0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u,
    0x0000000u, 0x7007007u, 0x7000E38u, 0x7007E3Fu, 0x0000000u, 0x7007007u,
    0x7000E38u, 0x7007E3Fu, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x7000E38u, 0x7000E38u, 0x0000000u, 0x0000000u, 0x7000E38u, 0x7000E38u,
    0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u, 0x01C71C0u, 0x71C71C7u,
    0x01C71C0u, 0x71C71C7u, 0x0000000u, 0x7007007u, 0x7000E38u, 0x7007E3Fu,
    0x01C71C0u, 0x71C71C7u, 0x71C7FF8u, 0x71C7FFFu, 0x0000000u, 0x0000000u,
    0x01F8038u, 0x01F8038u, 0x0000000u, 0x0000000u, 0x01F8038u, 0x01F8038u,
    0x0000000u, 0x0000000u, 0x71F8E38u, 0x71F8E38u, 0x0000000u, 0x0000000u,
    0x71F8E38u, 0x71F8E38u, 0x0000000u, 0x7007007u, 0x01F8038u, 0x71FF03Fu,
    0x01C71C0u, 0x71C71C7u, 0x01FF1F8u, 0x71FF1FFu, 0x0000000u, 0x7007007u,
    0x71F8E38u, 0x71FFE3Fu, 0x01C71C0u, 0x71C71C7u, 0x71FFFF8u, 0x71FFFFFu,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x7000E38u, 0x7000E38u,
    0x0E00FC0u, 0x0E00FC0u, 0x7E00FF8u, 0x7E00FF8u, 0x0000000u, 0x7007007u,
    0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u,
    0x0000000u, 0x7007007u, 0x7000E38u, 0x7007E3Fu, 0x0E00FC0u, 0x7E07FC7u,
    0x7E00FF8u, 0x7E07FFFu, 0x0000000u, 0x0E38007u, 0x0000000u, 0x0E38007u,
    0x0000000u, 0x0E38007u, 0x0000000u, 0x0E38007u, 0x0000000u, 0x0E38007u,
    0x7000E38u, 0x7E38E3Fu, 0x0E00FC0u, 0x0E38FC7u, 0x7E00FF8u, 0x7E38FFFu,
    0x0000000u, 0x7E3F007u, 0x0000000u, 0x7E3F007u, 0x0000000u, 0x7E3F007u,
    0x0000000u, 0x7E3F007u, 0x0000000u, 0x7E3F007u, 0x7000E38u, 0x7E3FE3Fu,
    0x0E00FC0u, 0x7E3FFC7u, 0x7E00FF8u, 0x7E3FFFFu, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u, 0x0000000u,
    0x0000000u, 0x0000000u, 0x7000E38u, 0x7000E38u, 0x0E00FC0u, 0x0E00FC0u,
    0x7E00FF8u, 0x7E00FF8u, 0x0000000u, 0x7007007u, 0x0000000u, 0x7007007u,
    0x01C71C0u, 0x71C71C7u, 0x01C71C0u, 0x71C71C7u, 0x0000000u, 0x7007007u,
    0x7000E38u, 0x7007E3Fu, 0x0FC7FC0u, 0x7FC7FC7u, 0x7FC7FF8u, 0x7FC7FFFu,
    0x0000000u, 0x0E38007u, 0x01F8038u, 0x0FF803Fu, 0x0000000u, 0x0E38007u,
    0x01F8038u, 0x0FF803Fu, 0x0000000u, 0x0E38007u, 0x71F8E38u, 0x7FF8E3Fu,
    0x0E00FC0u, 0x0E38FC7u, 0x7FF8FF8u, 0x7FF8FFFu, 0x0000000u, 0x7E3F007u,
    0x01F8038u, 0x7FFF03Fu, 0x01C71C0u, 0x7FFF1C7u, 0x01FF1F8u, 0x7FFF1FFu,
    0x0000000u, 0x7E3F007u, 0x71F8E38u, 0x7FFFE3Fu, 0x0FC7FC0u, 0x7FFFFC7u,
    0x7FFFFF8u, 0x7FFFFFFu,
};

/* For each cell of a band (bit 9 * row + column), the other cells of its row and box. */
static const uint32_t ROW_BOX_OTHERS[27] = {
    0x01C0FFEu, 0x01C0FFDu, 0x01C0FFBu, 0x0E071F7u, 0x0E071EFu, 0x0E071DFu,
    0x70381BFu, 0x703817Fu, 0x70380FFu, 0x01FFC07u, 0x01FFA07u, 0x01FF607u,
    0x0E3EE38u, 0x0E3DE38u, 0x0E3BE38u, 0x7037FC0u, 0x702FFC0u, 0x701FFC0u,
    0x7F80E07u, 0x7F40E07u, 0x7EC0E07u, 0x7DC7038u, 0x7BC7038u, 0x77C7038u,
    0x6FF81C0u, 0x5FF81C0u, 0x3FF81C0u,
};

typedef struct {
    /* 28 words each (the last one 0 in both) for whole 16-byte vectors */
    uint32_t cand[28];      /* per digit d and band b, at 3 * d + b */
    uint32_t seen[28];      /* cand[i] as the band rule last left it */
    uint32_t unsolved[3];   /* cells without a value, per band */
    int32_t cell;           /* branch cell, 0..80 */
    uint32_t rem;           /* its digits not tried yet */
} s9frame_t;

typedef struct {
    s9frame_t stack[82];
    int depth, started, finished;
    uint64_t nodes, guesses, settled;
    uint8_t givens[81];
} s9search_t;

static void
s9_reset(s9search_t *s, const uint8_t *givens)
{
    memcpy(s->givens, givens, 81);
    s->depth = 0;
    s->started = s->finished = 0;
    s->nodes = s->guesses = s->settled = 0;
}

/* Digit d (0-based) goes to bit pos of band b: the other cells of its row and box in the
 * band lose d.  The band rule then finds a row single there and places it. */
static inline void
s9_assign(s9frame_t *st, int d, int b, int pos)
{
    st->cand[3 * d + b] &= ~ROW_BOX_OTHERS[pos];
}

/* The state with the givens placed.  0 if two givens clash. */
static int
s9_start(s9frame_t *st, const uint8_t *givens)
{
    uint32_t given_any[3] = {0, 0, 0}, given[27] = {0};
    uint32_t rows[9] = {0}, cols[9] = {0}, boxes[9] = {0};
    for (int c = 0; c < 81; c++) {
        if (!givens[c])
            continue;
        int d = givens[c] - 1, b = c / 27, pos = c - 27 * b;
        int row = c / 9, col = c - 9 * row, box = 3 * b + col / 3;
        if ((rows[d] >> row | cols[d] >> col | boxes[d] >> box) & 1u)
            return 0;
        rows[d] |= 1u << row;
        cols[d] |= 1u << col;
        boxes[d] |= 1u << box;
        given_any[b] |= 1u << pos;
        given[3 * d + b] |= 1u << pos;
    }
    for (int d = 0; d < 9; d++) {
        uint32_t colmask = cols[d] * COLUMN_BITS;
        for (int b = 0; b < 3; b++) {
            uint32_t m = BAND_ALL & ~given_any[b] & ~colmask;
            for (int k = 0; k < 3; k++) {
                if (rows[d] >> (3 * b + k) & 1u)
                    m &= ~(0x1FFu << (9 * k));
                if (boxes[d] >> (3 * b + k) & 1u)
                    m &= ~(0x1C0E07u << (3 * k));
            }
            st->cand[3 * d + b] = m | given[3 * d + b];
            st->seen[3 * d + b] = ~0u; /* never a mask: every digit-band gets checked */
        }
    }
    st->cand[27] = st->seen[27] = 0;
    for (int b = 0; b < 3; b++)
        st->unsolved[b] = BAND_ALL & ~given_any[b];
    return 1;
}

/* The band rule on digit-band i, then its row singles placed: the placed cells leave the
 * other digits and the digit leaves their columns in the other bands.  0 on
 * contradiction. */
static inline int
s9_band(s9frame_t *st, int i, int d, int b)
{
    uint32_t m = st->cand[i];
    uint32_t p = (m | m >> 1 | m >> 2) & TRIAD_BASES;
    p |= p >> 2 | p >> 4;
    uint32_t keep = BAND_KEEP[(p & 7u) | (p >> 6 & 0x38u) | (p >> 12 & 0x1C0u)];
    if (!keep)
        return 0;
    m &= keep;
    st->cand[i] = st->seen[i] = m;
    /* every row holds a cell now, so the subtraction borrows within rows only */
    uint32_t t = m & (m - COLUMN_BITS);
    uint32_t more = ((t & ROW0) ? ROW0 : 0) | ((t & ROW1) ? ROW1 : 0) | ((t & ROW2) ? ROW2 : 0);
    uint32_t single = m & ~more & st->unsolved[b];
    if (single) {
        st->unsolved[b] &= ~single;
        uint32_t *c = st->cand + b;
        for (int e = 0; e < 9; e++)
            c[3 * e] &= ~single;
        st->cand[i] = m;
        uint32_t cols = (single | single >> 9 | single >> 18) & 0x1FFu;
        uint32_t off = ~(cols * COLUMN_BITS);
        int base = 3 * d;
        st->cand[base + (b == 0)] &= off;
        st->cand[base + 2 - (b == 2)] &= off;
    }
    return 1;
}

/* The digit-bands changed since the band rule last saw them, as bits. */
static inline uint32_t
s9_changed(const s9frame_t *st)
{
#if defined(__SSE2__)
    uint32_t ch = 0;
    for (int k = 0; k < 7; k++) {
        __m128i a = _mm_loadu_si128((const __m128i *)(st->cand + 4 * k));
        __m128i s = _mm_loadu_si128((const __m128i *)(st->seen + 4 * k));
        ch |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, s))) << (4 * k);
    }
    return ~ch & BAND_ALL;
#else
    uint32_t ch = 0;
    for (int i = 0; i < 27; i++)
        ch |= (uint32_t)(st->cand[i] != st->seen[i]) << i;
    return ch;
#endif
}

static int
s9_propagate(s9frame_t *st)
{
    for (;;) {
        uint32_t ch;
        while ((ch = s9_changed(st)) != 0) {
            do {
                int i = CTZ(ch);
                ch &= ch - 1;
                if (st->cand[i] != st->seen[i] && !s9_band(st, i, i / 3, i % 3))
                    return 0;
            } while (ch);
        }
        if (!(st->unsolved[0] | st->unsolved[1] | st->unsolved[2]))
            return 1;
        /* naked singles */
        int found = 0;
        for (int b = 0; b < 3; b++) {
            uint32_t once = 0, twice = 0, u = st->unsolved[b];
            for (int d = 0; d < 9; d++) {
                uint32_t m = st->cand[3 * d + b];
                twice |= once & m;
                once |= m;
            }
            if (u & ~once)
                return 0;
            uint32_t naked = u & ~twice;
            if (naked) {
                found = 1;
                for (int d = 0; d < 9; d++)
                    for (uint32_t hit = st->cand[3 * d + b] & naked; hit; hit &= hit - 1)
                        s9_assign(st, d, b, CTZ(hit));
            }
        }
        if (found)
            continue;
        /* hidden singles in columns */
        for (int d = 0; d < 9; d++) {
            const uint32_t *c = st->cand + 3 * d;
            uint32_t once = 0, twice = 0;
            for (int b = 0; b < 3; b++) {
                uint32_t m = c[b];
                uint32_t any = (m | m >> 9 | m >> 18) & 0x1FFu;
                uint32_t two = ((m & m >> 9) | (m & m >> 18) | (m >> 9 & m >> 18)) & 0x1FFu;
                twice |= two | (once & any);
                once |= any;
            }
            if (once != 0x1FFu)
                return 0;
            uint32_t single = (once & ~twice) * COLUMN_BITS;
            for (int b = 0; b < 3; b++)
                for (uint32_t hit = c[b] & single & st->unsolved[b]; hit; hit &= hit - 1) {
                    s9_assign(st, d, b, CTZ(hit));
                    found = 1;
                }
        }
        if (!found)
            return 1;
    }
}

/* Digits (bit d) still possible in cell (band b, bit pos). */
static inline uint32_t
s9_digits(const s9frame_t *st, int b, int pos)
{
    uint32_t digits = 0;
    for (int d = 0; d < 9; d++)
        digits |= ((st->cand[3 * d + b] >> pos) & 1u) << d;
    return digits;
}

/* Set bits of a mask (no popcnt instruction needed). */
static inline int
s9_popcount(uint32_t x)
{
#if defined(__POPCNT__)
    return __builtin_popcount(x);
#else
    x -= (x >> 1) & 0x55555555u;
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}

/* The branch cell.  Among the empty cells with two candidates, the one whose weaker digit
 * is a candidate in most of its 20 peers (either choice then removes the most), the first
 * such in reading order; without such cells, the empty cell with fewest candidates, the
 * first such in reading order. */
static int
s9_branch_cell(const s9frame_t *st)
{
    uint32_t pairs[3];
    int best = -1, best_score = -1;
    for (int b = 0; b < 3; b++) {
        uint32_t once = 0, twice = 0, thrice = 0;
        for (int d = 0; d < 9; d++) {
            uint32_t m = st->cand[3 * d + b];
            thrice |= twice & m;
            twice |= once & m;
            once |= m;
        }
        pairs[b] = st->unsolved[b] & twice & ~thrice;
    }
    for (int b = 0; b < 3; b++) {
        uint32_t pb = pairs[b], first_done = 0;
        if (!pb)
            continue;
        int b1 = b == 0, b2 = 2 - (b == 2);
        uint8_t first[27];
        for (int d = 0; d < 9; d++) {
            const uint32_t *c = st->cand + 3 * d;
            for (uint32_t h = c[b] & pb; h; h &= h - 1) {
                int pos = CTZ(h), col = pos % 9;
                /* peers holding d: its row and box in the band, its column elsewhere */
                uint32_t x = ((c[b1] >> col) & COLUMN_BITS) + ((c[b2] >> col) & COLUMN_BITS);
                int k = s9_popcount(c[b] & ROW_BOX_OTHERS[pos]) + (int)((x * COLUMN_BITS) >> 18 & 7u);
                if (!(first_done >> pos & 1u)) {
                    first_done |= 1u << pos;
                    first[pos] = (uint8_t)k;
                    continue;
                }
                int score = k < first[pos] ? k : first[pos], cell = 27 * b + pos;
                if (score > best_score || (score == best_score && cell < best)) {
                    best_score = score;
                    best = cell;
                }
            }
        }
    }
    if (best >= 0)
        return best;
    int best_count = 99;
    for (int b = 0; b < 3; b++)
        for (uint32_t u = st->unsolved[b]; u; u &= u - 1) {
            int pos = CTZ(u);
            int k = s9_popcount(s9_digits(st, b, pos));
            if (k < best_count) {
                best_count = k;
                best = 27 * b + pos;
            }
        }
    return best;
}

static void
s9_emit(const s9frame_t *st, uint8_t *out)
{
    if (!out)
        return;
    for (int d = 0; d < 9; d++)
        for (int b = 0; b < 3; b++)
            for (uint32_t m = st->cand[3 * d + b]; m; m &= m - 1)
                out[27 * b + CTZ(m)] = (uint8_t)(d + 1);
}

static int
s9_next(s9search_t *s, uint8_t *out, budget_t *bud)
{
    if (s->finished)
        return RUN_EXHAUSTED;
    if (!s->started) {
        if (budget_spent(bud, s->nodes))
            return RUN_BUDGET;
        s->started = 1;
        s->nodes = 1;
        s9frame_t *st = &s->stack[0];
        int ok = s9_start(st, s->givens), empty = 0;
        for (int c = 0; c < 81; c++)
            empty += !s->givens[c];
        if (!ok || !s9_propagate(st)) {
            s->finished = 1;
            return RUN_EXHAUSTED;
        }
        int left = POPCOUNT(st->unsolved[0]) + POPCOUNT(st->unsolved[1]) +
                   POPCOUNT(st->unsolved[2]);
        s->settled = (uint64_t)(empty - left);
        if (!left) {
            s->finished = 1;
            s9_emit(st, out);
            return RUN_SOLUTION;
        }
        st->cell = s9_branch_cell(st);
        st->rem = s9_digits(st, st->cell / 27, st->cell % 27);
        s->depth = 1;
    }
    for (;;) {
        if (s->depth == 0) {
            s->finished = 1;
            return RUN_EXHAUSTED;
        }
        s9frame_t *f = &s->stack[s->depth - 1];
        if (!f->rem) {
            s->depth--;
            continue;
        }
        if (budget_spent(bud, s->nodes))
            return RUN_BUDGET;
        int cell = f->cell;
        int d = CTZ(f->rem);
        f->rem &= f->rem - 1;
        s9frame_t *child = f;
        if (f->rem) {
            child = f + 1;
            *child = *f;
            s->depth++;
            s->guesses++;
        }
        s->nodes++;
        s9_assign(child, d, cell / 27, cell % 27);
        if (!s9_propagate(child)) {
            s->depth--;
            continue;
        }
        if (!(child->unsolved[0] | child->unsolved[1] | child->unsolved[2])) {
            s->depth--;
            s9_emit(child, out);
            return RUN_SOLUTION;
        }
        child->cell = s9_branch_cell(child);
        child->rem = s9_digits(child, child->cell / 27, child->cell % 27);
    }
}

/* ------------------------------------------------------------------------ */
/* One search, whichever engine                                             */
/* ------------------------------------------------------------------------ */

typedef struct {
    int std9;
    gsearch_t g;
    s9search_t b;
} search_t;

static int
search_init(search_t *s, const ShapeObject *sh, int use9)
{
    memset(s, 0, sizeof(*s));
    s->std9 = use9;
    if (use9)
        return 0;
    return g_init(&s->g, sh);
}

static void
search_free(search_t *s)
{
    if (!s->std9)
        g_free(&s->g);
}

static void
search_reset(search_t *s, const uint8_t *givens)
{
    if (s->std9)
        s9_reset(&s->b, givens);
    else
        g_reset(&s->g, givens);
}

static inline int
search_next(search_t *s, uint8_t *out, budget_t *b)
{
    return s->std9 ? s9_next(&s->b, out, b) : g_next(&s->g, out, b);
}

static inline uint64_t
search_nodes(const search_t *s)
{
    return s->std9 ? s->b.nodes : s->g.nodes;
}

static inline uint64_t
search_guesses(const search_t *s)
{
    return s->std9 ? s->b.guesses : s->g.guesses;
}

static inline uint64_t
search_settled(const search_t *s)
{
    return s->std9 ? s->b.settled : s->g.settled;
}

/* ------------------------------------------------------------------------ */
/* Shape objects                                                            */
/* ------------------------------------------------------------------------ */

static void
Shape_dealloc(ShapeObject *self)
{
    free(self->house);
    free(self->peer_start);
    free(self->peers);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Read a sequence of cell indices into out[]; returns its length or -1. */
static Py_ssize_t
read_cells(PyObject *seq, const char *what, Py_ssize_t index, int ncells, int16_t *out,
           Py_ssize_t max)
{
    PyObject *fast = PySequence_Fast(seq, "");
    if (!fast) {
        PyErr_Format(PyExc_TypeError, "%s %zd is not a sequence of cell indices", what, index);
        return -1;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s %zd has %zd cells, more than %zd", what, index, len,
                     max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (!PyLong_Check(item)) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_TypeError, "%s %zd: cell indices must be int", what, index);
            return -1;
        }
        long v = PyLong_AsLong(item);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            v = -1;
        }
        if (v < 0 || v >= ncells) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s %zd: cell index %R is outside 0..%d", what, index,
                         item, ncells - 1);
            return -1;
        }
        out[i] = (int16_t)v;
    }
    Py_DECREF(fast);
    return len;
}

/* Do the houses equal the 27 standard houses of 9x9 (in any order)? */
static int
is_standard9(const int16_t *house, int nhouses)
{
    int seen[27] = {0};
    if (nhouses != 27)
        return 0;
    for (int h = 0; h < 27; h++) {
        const int16_t *c = house + 9 * h;
        int r0 = c[0] / 9, c0 = c[0] % 9;
        int same_row = 1, same_col = 1, same_box = 1;
        for (int i = 1; i < 9; i++) {
            same_row &= c[i] / 9 == r0;
            same_col &= c[i] % 9 == c0;
            same_box &= (c[i] / 27 == c[0] / 27) && ((c[i] % 9) / 3 == c0 / 3);
        }
        /* a house has 9 distinct cells, so "all in one row" means "the row" */
        int id = same_row ? r0 : same_col ? 9 + c0 : same_box ? 18 + 3 * (r0 / 3) + c0 / 3 : -1;
        if (id < 0 || seen[id])
            return 0;
        seen[id] = 1;
    }
    return 1;
}

static PyObject *
Shape_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"n", "houses", "links", "general", NULL};
    int n, general = 0;
    PyObject *houses, *links = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO|Op:Shape", kwlist, &n, &houses, &links,
                                     &general))
        return NULL;
    if (n < 4 || n > MAX_N)
        return PyErr_Format(PyExc_ValueError, "grid size must be between 4 and %d, got %d", MAX_N,
                            n);
    int nc = n * n;
    PyObject *hs = PySequence_Fast(houses, "houses must be a sequence of houses");
    if (!hs)
        return NULL;
    Py_ssize_t nh = PySequence_Fast_GET_SIZE(hs);
    if (nh > 4 * nc) {
        Py_DECREF(hs);
        return PyErr_Format(PyExc_ValueError, "too many houses: %zd", nh);
    }
    ShapeObject *self = (ShapeObject *)type->tp_alloc(type, 0);
    uint8_t *adj = calloc((size_t)nc * nc, 1);
    int16_t buf[MAX_CELLS];
    if (!self || !adj)
        goto nomem;
    self->n = n;
    self->ncells = nc;
    self->nhouses = (int)nh;
    self->full = (mask_t)((1u << n) - 1);
    self->house = malloc(sizeof(int16_t) * (size_t)(nh * n + 1));
    self->peer_start = malloc(sizeof(int32_t) * (size_t)(nc + 1));
    if (!self->house || !self->peer_start)
        goto nomem;
    for (Py_ssize_t h = 0; h < nh; h++) {
        Py_ssize_t len =
            read_cells(PySequence_Fast_GET_ITEM(hs, h), "house", h, nc, buf, MAX_CELLS);
        if (len < 0)
            goto fail;
        if (len != n) {
            PyErr_Format(PyExc_ValueError, "house %zd has %zd cells; a %dx%d grid needs %d", h, len,
                         n, n, n);
            goto fail;
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++)
                if (buf[i] == buf[j]) {
                    PyErr_Format(PyExc_ValueError, "house %zd holds cell %d twice", h, buf[i]);
                    goto fail;
                }
        memcpy(self->house + h * n, buf, sizeof(int16_t) * (size_t)n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (i != j)
                    adj[(size_t)buf[i] * nc + buf[j]] = 1;
    }
    int has_links = 0;
    if (links != Py_None) {
        PyObject *ls = PySequence_Fast(links, "links must be a sequence (one entry per cell)");
        if (!ls)
            goto fail;
        if (PySequence_Fast_GET_SIZE(ls) != nc) {
            PyErr_Format(PyExc_ValueError, "links must have one entry per cell (%d), got %zd", nc,
                         PySequence_Fast_GET_SIZE(ls));
            Py_DECREF(ls);
            goto fail;
        }
        for (int c = 0; c < nc; c++) {
            Py_ssize_t len =
                read_cells(PySequence_Fast_GET_ITEM(ls, c), "links of cell", c, nc, buf, nc);
            if (len < 0) {
                Py_DECREF(ls);
                goto fail;
            }
            for (Py_ssize_t i = 0; i < len; i++) {
                if (buf[i] == c) {
                    Py_DECREF(ls);
                    PyErr_Format(PyExc_ValueError, "cell %d is linked to itself", c);
                    goto fail;
                }
                adj[(size_t)c * nc + buf[i]] = adj[(size_t)buf[i] * nc + c] = 1;
                has_links = 1;
            }
        }
        Py_DECREF(ls);
    }
    size_t total = 0;
    for (size_t i = 0; i < (size_t)nc * nc; i++)
        total += adj[i];
    self->peers = malloc(sizeof(int16_t) * (total + 1));
    if (!self->peers)
        goto nomem;
    total = 0;
    for (int c = 0; c < nc; c++) {
        self->peer_start[c] = (int32_t)total;
        for (int p = 0; p < nc; p++)
            if (adj[(size_t)c * nc + p])
                self->peers[total++] = (int16_t)p;
    }
    self->peer_start[nc] = (int32_t)total;
    self->std9 = !general && n == 9 && !has_links && is_standard9(self->house, (int)nh);
    free(adj);
    Py_DECREF(hs);
    return (PyObject *)self;
nomem:
    PyErr_NoMemory();
fail:
    free(adj);
    Py_DECREF(hs);
    Py_XDECREF(self);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Reading givens                                                           */
/* ------------------------------------------------------------------------ */

/* Digit value of one puzzle character, 0 for empty, -1 if not a character
 * of an n x n puzzle: 1-9 then A-P (either case) for 10-25; '.' or '0' empty. */
static inline int
char_value(int ch, int n)
{
    int v;
    if (ch == '.' || ch == '0')
        return 0;
    if (ch >= '1' && ch <= '9')
        v = ch - '0';
    else if (ch >= 'A' && ch <= 'Z')
        v = ch - 'A' + 10;
    else if (ch >= 'a' && ch <= 'z')
        v = ch - 'a' + 10;
    else
        return -1;
    return v <= n ? v : -1;
}

static const char DIGIT_CHARS[] = ".123456789ABCDEFGHIJKLMNOP";

static int
bad_char(Py_ssize_t puzzle, Py_ssize_t pos, Py_UCS4 ch, int n)
{
    PyErr_Format(PyExc_ValueError,
                 "puzzle %zd, character %zd: '%c' is not a digit of a %dx%d puzzle (1-%c, '.' or "
                 "'0' for empty)",
                 puzzle + 1, pos + 1, (int)ch, n, n, DIGIT_CHARS[n]);
    return -1;
}

/* Fill givens (nc bytes) from one line of text. */
static int
read_line_bytes(const char *s, Py_ssize_t len, Py_ssize_t index, int n, uint8_t *givens)
{
    int nc = n * n;
    if (len != nc) {
        PyErr_Format(PyExc_ValueError, "puzzle %zd has %zd characters; a %dx%d puzzle needs %d",
                     index + 1, len, n, n, nc);
        return -1;
    }
    for (int i = 0; i < nc; i++) {
        int v = char_value((unsigned char)s[i], n);
        if (v < 0)
            return bad_char(index, i, (unsigned char)s[i], n);
        givens[i] = (uint8_t)v;
    }
    return 0;
}

static int
read_line_str(PyObject *str, Py_ssize_t index, int n, uint8_t *givens)
{
    if (!PyUnicode_Check(str)) {
        if (PyBytes_Check(str))
            return read_line_bytes(PyBytes_AS_STRING(str), PyBytes_GET_SIZE(str), index, n,
                                   givens);
        PyErr_Format(PyExc_TypeError, "puzzle %zd is %.100s, not str", index + 1,
                     Py_TYPE(str)->tp_name);
        return -1;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    int nc = n * n;
    if (len != nc) {
        PyErr_Format(PyExc_ValueError, "puzzle %zd has %zd characters; a %dx%d puzzle needs %d",
                     index + 1, len, n, n, nc);
        return -1;
    }
    int kind = PyUnicode_KIND(str);
    const void *data = PyUnicode_DATA(str);
    for (int i = 0; i < nc; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        int v = ch < 128 ? char_value((int)ch, n) : -1;
        if (v < 0)
            return bad_char(index, i, ch, n);
        givens[i] = (uint8_t)v;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Search objects (one puzzle, resumable)                                   */
/* ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    ShapeObject *shape;
    search_t s;
    int ready;
    int busy;
} SearchObject;

static PyTypeObject SearchType;

static void
Search_dealloc(SearchObject *self)
{
    if (self->ready)
        search_free(&self->s);
    Py_XDECREF(self->shape);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
parse_budget(PyObject *node_limit, double timeout, budget_t *b)
{
    b->tick = 0;
    b->node_limit = UINT64_MAX;
    if (node_limit != Py_None) {
        int overflow = 0;
        long long v;
        if (!PyLong_Check(node_limit)) {
            PyErr_SetString(PyExc_TypeError, "node_limit must be an int or None");
            return -1;
        }
        v = PyLong_AsLongLongAndOverflow(node_limit, &overflow);
        if (v < 0 || overflow < 0) {
            PyErr_SetString(PyExc_ValueError, "node_limit must not be negative");
            return -1;
        }
        b->node_limit = overflow > 0 ? UINT64_MAX : (uint64_t)v;
    }
    if (timeout != timeout) {
        PyErr_SetString(PyExc_ValueError, "timeout must not be NaN");
        return -1;
    }
    b->deadline = timeout < 0 ? -1.0 : monotonic_seconds() + timeout;
    return 0;
}

/* Shape.search(givens: bytes) -> Search */
static PyObject *
Shape_search(ShapeObject *self, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (view.len != self->ncells) {
        PyErr_Format(PyExc_ValueError, "givens must have %d entries, got %zd", self->ncells,
                     view.len);
        PyBuffer_Release(&view);
        return NULL;
    }
    const uint8_t *g = view.buf;
    for (int c = 0; c < self->ncells; c++)
        if (g[c] > self->n) {
            PyErr_Format(PyExc_ValueError, "given %d at cell %d is outside 0..%d", g[c], c,
                         self->n);
            PyBuffer_Release(&view);
            return NULL;
        }
    SearchObject *obj = PyObject_New(SearchObject, &SearchType);
    if (!obj) {
        PyBuffer_Release(&view);
        return NULL;
    }
    obj->ready = obj->busy = 0;
    Py_INCREF(self);
    obj->shape = self;
    if (search_init(&obj->s, self, self->std9) < 0) {
        PyBuffer_Release(&view);
        Py_DECREF(obj);
        return PyErr_NoMemory();
    }
    obj->ready = 1;
    search_reset(&obj->s, g);
    PyBuffer_Release(&view);
    return (PyObject *)obj;
}

/* Search.run(want, keep, node_limit=None, timeout=-1.0) -> (solutions, code) */
static PyObject *
Search_run(SearchObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"want", "keep", "node_limit", "timeout", NULL};
    Py_ssize_t want, keep;
    PyObject *node_limit = Py_None;
    double timeout = -1.0;
    budget_t b;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nn|Od:run", kwlist, &want, &keep, &node_limit,
                                     &timeout))
        return NULL;
    if (want < 0 || keep < 0)
        return PyErr_Format(PyExc_ValueError, "want and keep must not be negative");
    if (parse_budget(node_limit, timeout, &b) < 0)
        return NULL;
    if (self->busy)
        return PyErr_Format(PyExc_RuntimeError, "this search is running in another thread");
    int nc = self->shape->ncells;
    if (keep > want)
        keep = want;
    uint8_t *out = keep ? malloc((size_t)keep * nc) : NULL;
    if (keep && !out)
        return PyErr_NoMemory();
    Py_ssize_t found = 0;
    int rc = RUN_SOLUTION;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    while (found < want) {
        rc = search_next(&self->s, found < keep ? out + found * nc : NULL, &b);
        if (rc != RUN_SOLUTION)
            break;
        found++;
    }
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (rc == RUN_NOMEM) {
        free(out);
        return PyErr_NoMemory();
    }
    Py_ssize_t kept = found < keep ? found : keep;
    PyObject *list = PyList_New(kept);
    if (!list) {
        free(out);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < kept; i++) {
        PyObject *sol = PyBytes_FromStringAndSize((const char *)out + i * nc, nc);
        if (!sol) {
            Py_DECREF(list);
            free(out);
            return NULL;
        }
        PyList_SET_ITEM(list, i, sol);
    }
    free(out);
    /* 0: stopped at `want` (more may follow), 1: exhausted, 2: budget spent */
    int code = rc == RUN_SOLUTION ? 0 : rc == RUN_EXHAUSTED ? 1 : 2;
    return Py_BuildValue("(Nni)", list, found, code);
}

static PyObject *
Search_get_nodes(SearchObject *self, void *closure)
{
    return PyLong_FromUnsignedLongLong(search_nodes(&self->s));
}

static PyObject *
Search_get_guesses(SearchObject *self, void *closure)
{
    return PyLong_FromUnsignedLongLong(search_guesses(&self->s));
}

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)(void (*)(void))Search_run, METH_VARARGS | METH_KEYWORDS,
     "run(want, keep, node_limit=None, timeout=-1.0) -> (solutions, found, code)"},
    {NULL, NULL, 0, NULL},
};

static PyObject *
Search_get_settled(SearchObject *self, void *closure)
{
    return PyLong_FromUnsignedLongLong(search_settled(&self->s));
}

static PyGetSetDef Search_getset[] = {
    {"settled", (getter)Search_get_settled, NULL, "empty cells filled before the first guess",
     NULL},
    {"nodes", (getter)Search_get_nodes, NULL, "search nodes opened so far", NULL},
    {"guesses", (getter)Search_get_guesses, NULL, "guesses made so far", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "shudu.solvers._core_c.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One resumable search over one puzzle (see _fast_py.Search).",
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* ------------------------------------------------------------------------ */
/* Batches                                                                  */
/* ------------------------------------------------------------------------ */

enum { ST_NONE = 0, ST_UNIQUE = 1, ST_MULTIPLE = 2, ST_SOLVED = 3, ST_TIMEOUT = 4 };

typedef struct {
    const ShapeObject *sh;
    const uint8_t *givens;  /* count * ncells */
    Py_ssize_t count;
    uint64_t limit;
    budget_t budget;        /* template: each worker takes a copy */
    uint8_t *status;
    uint8_t *solutions;     /* count * ncells digit values */
    uint64_t *counts, *nodes, *guesses, *settled;
    Py_ssize_t next;        /* next puzzle to take (under lock when threaded) */
    int failed;             /* out of memory */
#if SHUDU_THREADS
    pthread_mutex_t lock;
#endif
} batch_t;

static void
batch_one(batch_t *bt, search_t *s, budget_t *b, Py_ssize_t i)
{
    int nc = bt->sh->ncells;
    uint8_t *sol = bt->solutions + (size_t)i * nc;
    uint64_t found = 0;
    int rc = RUN_SOLUTION;
    search_reset(s, bt->givens + (size_t)i * nc);
    memset(sol, 0, (size_t)nc);
    while (found < bt->limit) {
        rc = search_next(s, found ? NULL : sol, b);
        if (rc != RUN_SOLUTION)
            break;
        found++;
    }
    if (rc == RUN_NOMEM)
        bt->failed = 1;
    bt->status[i] = rc == RUN_BUDGET || rc == RUN_NOMEM ? ST_TIMEOUT
                    : found == 0                        ? ST_NONE
                    : found >= 2                        ? ST_MULTIPLE
                    : rc == RUN_EXHAUSTED               ? ST_UNIQUE
                                                        : ST_SOLVED;
    bt->counts[i] = found;
    bt->nodes[i] = search_nodes(s);
    bt->guesses[i] = search_guesses(s);
    bt->settled[i] = search_settled(s);
}

static Py_ssize_t
batch_take(batch_t *bt)
{
#if SHUDU_THREADS
    pthread_mutex_lock(&bt->lock);
#endif
    Py_ssize_t i = bt->next < bt->count ? bt->next++ : -1;
#if SHUDU_THREADS
    pthread_mutex_unlock(&bt->lock);
#endif
    return i;
}

static void *
batch_worker(void *arg)
{
    batch_t *bt = arg;
    search_t s;
    if (search_init(&s, bt->sh, bt->sh->std9) < 0) {
        bt->failed = 1;
        return NULL;
    }
    budget_t b = bt->budget;
    for (;;) {
        /* hand out puzzles in small runs to keep the lock cold */
        Py_ssize_t i = batch_take(bt);
        if (i < 0)
            break;
        b.tick = 0;
        batch_one(bt, &s, &b, i);
    }
    search_free(&s);
    return NULL;
}

/* Shape.solve_many(puzzles, limit, threads, node_limit, timeout)
 *   -> (status bytes, solution bytes, counts, nodes, guesses, settled) */
static PyObject *
Shape_solve_many(ShapeObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"puzzles", "limit", "threads", "node_limit", "timeout", NULL};
    PyObject *puzzles, *limit_obj = NULL, *threads_obj = NULL;
    unsigned long long limit = 1;
    int threads = 1;
    PyObject *node_limit = Py_None;
    double timeout = -1.0;
    batch_t bt;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOOd:solve_many", kwlist, &puzzles,
                                     &limit_obj, &threads_obj, &node_limit, &timeout))
        return NULL;
    if (threads_obj) {
        int overflow = 0;
        long long v = PyLong_Check(threads_obj)
                          ? PyLong_AsLongLongAndOverflow(threads_obj, &overflow) : 0;
        if (!PyLong_Check(threads_obj))
            return PyErr_Format(PyExc_TypeError, "threads must be an int");
        if (v == -1 && PyErr_Occurred())
            return NULL;
        if (overflow || v < 1 || v > 256)
            return PyErr_Format(PyExc_ValueError, "threads must be between 1 and 256, got %R",
                                threads_obj);
        threads = (int)v;
    }
    if (limit_obj) {
        int overflow = 0;
        if (!PyLong_Check(limit_obj))
            return PyErr_Format(PyExc_TypeError, "limit must be an int");
        long long v = PyLong_AsLongLongAndOverflow(limit_obj, &overflow);
        if (v == -1 && PyErr_Occurred())
            return NULL;
        if (overflow < 0 || (!overflow && v < 1))
            return PyErr_Format(PyExc_ValueError, "limit must be at least 1");
        limit = overflow > 0 ? ULLONG_MAX : (unsigned long long)v;
    }
    memset(&bt, 0, sizeof(bt));
    if (parse_budget(node_limit, timeout, &bt.budget) < 0)
        return NULL;
    int n = self->n, nc = self->ncells;
    uint8_t *givens = NULL;
    Py_ssize_t count = 0;
    if (PyObject_CheckBuffer(puzzles) && !PyUnicode_Check(puzzles)) {
        /* one buffer of fixed-width lines, each ended by \n (or \r\n) */
        Py_buffer view;
        if (PyObject_GetBuffer(puzzles, &view, PyBUF_SIMPLE) < 0)
            return NULL;
        const char *p = view.buf, *end = p + view.len;
        Py_ssize_t lines = 0;
        for (const char *q = p; q < end; q++)
            lines += *q == '\n';
        lines += view.len > 0 && end[-1] != '\n';
        givens = malloc((size_t)(lines ? lines : 1) * nc);
        if (!givens) {
            PyBuffer_Release(&view);
            return PyErr_NoMemory();
        }
        while (p < end) {
            const char *eol = memchr(p, '\n', (size_t)(end - p));
            const char *stop = eol ? eol : end;
            Py_ssize_t len = stop - p;
            if (len && p[len - 1] == '\r')
                len--;
            if (read_line_bytes(p, len, count, n, givens + (size_t)count * nc) < 0) {
                PyBuffer_Release(&view);
                free(givens);
                return NULL;
            }
            count++;
            p = eol ? eol + 1 : end;
        }
        PyBuffer_Release(&view);
    } else {
        PyObject *seq = PySequence_Fast(puzzles, "puzzles must be a list of str or a bytes buffer");
        if (!seq)
            return NULL;
        count = PySequence_Fast_GET_SIZE(seq);
        givens = malloc((size_t)(count ? count : 1) * nc);
        if (!givens) {
            Py_DECREF(seq);
            return PyErr_NoMemory();
        }
        for (Py_ssize_t i = 0; i < count; i++)
            if (read_line_str(PySequence_Fast_GET_ITEM(seq, i), i, n,
                              givens + (size_t)i * nc) < 0) {
                Py_DECREF(seq);
                free(givens);
                return NULL;
            }
        Py_DECREF(seq);
    }
    PyObject *status = PyBytes_FromStringAndSize(NULL, count);
    PyObject *sols = PyBytes_FromStringAndSize(NULL, count * nc);
    PyObject *counts = PyBytes_FromStringAndSize(NULL, count * 8);
    PyObject *nodes = PyBytes_FromStringAndSize(NULL, count * 8);
    PyObject *guesses = PyBytes_FromStringAndSize(NULL, count * 8);
    PyObject *settled = PyBytes_FromStringAndSize(NULL, count * 8);
    if (!status || !sols || !counts || !nodes || !guesses || !settled)
        goto fail;
    bt.sh = self;
    bt.givens = givens;
    bt.count = count;
    bt.limit = limit;
    bt.status = (uint8_t *)PyBytes_AS_STRING(status);
    bt.solutions = (uint8_t *)PyBytes_AS_STRING(sols);
    bt.counts = (uint64_t *)PyBytes_AS_STRING(counts);
    bt.nodes = (uint64_t *)PyBytes_AS_STRING(nodes);
    bt.guesses = (uint64_t *)PyBytes_AS_STRING(guesses);
    bt.settled = (uint64_t *)PyBytes_AS_STRING(settled);
    if (threads > count)
        threads = count > 0 ? (int)count : 1;
    Py_BEGIN_ALLOW_THREADS
#if SHUDU_THREADS
    if (threads > 1) {
        pthread_t tid[256];
        int started = 0;
        pthread_mutex_init(&bt.lock, NULL);
        for (int t = 1; t < threads; t++)
            if (pthread_create(&tid[started], NULL, batch_worker, &bt) == 0)
                started++;
        batch_worker(&bt);
        for (int t = 0; t < started; t++)
            pthread_join(tid[t], NULL);
        pthread_mutex_destroy(&bt.lock);
    } else {
        batch_worker(&bt);
    }
#else
    batch_worker(&bt);
#endif
    Py_END_ALLOW_THREADS
    free(givens);
    givens = NULL;
    if (bt.failed) {
        PyErr_NoMemory();
        goto fail;
    }
    {
        /* digit values to characters, in place */
        uint8_t *s = bt.solutions;
        for (Py_ssize_t i = 0; i < count * nc; i++)
            s[i] = (uint8_t)DIGIT_CHARS[s[i]];
    }
    return Py_BuildValue("(NNNNNN)", status, sols, counts, nodes, guesses, settled);
fail:
    free(givens);
    Py_XDECREF(status);
    Py_XDECREF(sols);
    Py_XDECREF(counts);
    Py_XDECREF(nodes);
    Py_XDECREF(guesses);
    Py_XDECREF(settled);
    return NULL;
}

static PyObject *
Shape_get_n(ShapeObject *self, void *closure)
{
    return PyLong_FromLong(self->n);
}

static PyObject *
Shape_get_std9(ShapeObject *self, void *closure)
{
    return PyBool_FromLong(self->std9);
}

static PyMethodDef Shape_methods[] = {
    {"search", (PyCFunction)Shape_search, METH_O, "search(givens: bytes) -> Search"},
    {"solve_many", (PyCFunction)(void (*)(void))Shape_solve_many, METH_VARARGS | METH_KEYWORDS,
     "solve_many(puzzles, limit=1, threads=1, node_limit=None, timeout=-1.0)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Shape_getset[] = {
    {"n", (getter)Shape_get_n, NULL, "grid size", NULL},
    {"std9", (getter)Shape_get_std9, NULL, "served by the 9x9 engine", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ShapeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "shudu.solvers._core_c.Shape",
    .tp_basicsize = sizeof(ShapeObject),
    .tp_dealloc = (destructor)Shape_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A compiled grid shape: size, houses and links (see _fast_py.Shape).",
    .tp_methods = Shape_methods,
    .tp_getset = Shape_getset,
    .tp_new = Shape_new,
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, .m_name = "shudu.solvers._core_c",
    .m_doc = "Compiled search engine of solver 'fast' (see shudu.solvers._fast_py).",
    .m_size = 0,
};

PyMODINIT_FUNC
PyInit__core_c(void)
{
    if (PyType_Ready(&ShapeType) < 0 || PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    Py_INCREF(&ShapeType);
    if (PyModule_AddObject(m, "Shape", (PyObject *)&ShapeType) < 0) {
        Py_DECREF(&ShapeType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "THREADS", SHUDU_THREADS);
    return m;
}
