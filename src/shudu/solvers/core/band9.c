/*
 * The 9x9 engine (see band9.h): propagation over per-digit band words (band9_rules.h), the
 * branch-cell choice, then the resumable search of search_loop.h.
 */
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "band9.h"
#include "band_tables.h"

typedef band9_frame_t frame_t;
typedef band9_state_t state_t;
typedef band9_extra_t extra_t;

/* The functions that take the extra houses (x, NULL on the standard grid) are inlined
 * into each of the two searches, where x is NULL or not from the start. */
#if defined(__GNUC__) || defined(__clang__)
#define S9_INLINE static inline __attribute__((always_inline))
#else
#define S9_INLINE static inline
#endif

/* Candidates are kept per digit and band: cand[3 * d + b] is a 27-bit mask of the cells
 * of band b (rows 3b..3b+2; bit 9 * row + column) where digit d + 1 may go, its placed
 * cell included.  Rules, applied until nothing changes (the same closure as the
 * general engine's naked and hidden singles, plus two rules the general engine lacks):
 *   - band rule: in a band, a digit takes one cell in each of the three rows and each of
 *     the three boxes, so the (row, box) triads that hold it must contain a one-to-one
 *     matching of rows to boxes; a triad in no such matching loses the digit
 *     (pointing and claiming between rows and boxes, and a little more);
 *   - a row of the band with one cell left for the digit: place it (hidden single; box
 *     hidden singles follow from the band rule);
 *   - a cell with one digit left: place it (naked single);
 *   - stack rule: the band rule turned a quarter, on the (band, column) triads of a stack,
 *     read from the columns each band word holds the digit in; it runs last, once the
 *     others are done, and only on digits whose columns changed since it last held.
 *     Column hidden singles follow from it: where a column holds the digit in one cell,
 *     only that cell's band holds the column's triad, so the stack rule leaves the digit
 *     in that column alone in the cell's box, the band rule then leaves it that one cell
 *     in the box's row, and places it.  A column without the digit leaves no matching.
 *     (Checking column singles on their own cost more than the few they found sooner.)
 * With extra houses (band9.h: diagonals, windows ...), three more, run last and only on
 * the digits whose words changed since they last ran:
 *   - a placed digit leaves the other cells of its extra houses (done where it is placed);
 *   - an extra house with one cell left for a digit: place it there;
 *   - intersection: where an extra house and another house share cells, a digit one of
 *     them holds only in the shared cells leaves the other's other cells.
 * Only the row singles of the band rule place digits: a naked single or a branch digit
 * just clears the rest of the cell's row and box for its digit, and the
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
#define ROWS_LOW8 0x3FDFEFFu  /* the low 8 bits of each row */
#define ROWS_TOP 0x4020100u   /* the top bit of each row */

#include "band9_rules.h"

/* Digits (bit d) still possible in cell (band b, bit pos). */
static inline uint32_t
s9_digits(const frame_t *st, int b, int pos)
{
    uint32_t digits = 0;
    for (int d = 0; d < 9; d++)
        digits |= ((st->cand[3 * d + b] >> pos) & 1u) << d;
    return digits;
}

/* Set bits of a mask: with the popcnt instruction when hw (a constant where it is used),
 * else without it. */
static inline int
s9_popcount(uint32_t x, int hw)
{
#if defined(__GNUC__) || defined(__clang__)
    if (hw)
        return __builtin_popcount(x);
#else
    (void)hw;
#endif
    return shudu_pop32(x);
}

/* The empty peers of cell (band b, bit pos): its row and box in the band, its column in
 * the other bands, and its extra houses' cells beyond those. */
S9_INLINE int
s9_open_peers(const frame_t *st, int b, int pos, int hw, const extra_t *x)
{
    static const uint8_t POS_COL[27] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4,
                                        5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8};
    const uint32_t *u = st->unsolved;
    int col = POS_COL[pos];
    uint32_t col_bits = ((u[b == 0] >> col) & COLUMN_BITS) + ((u[2 - (b == 2)] >> col) & COLUMN_BITS);
    int k = s9_popcount(u[b] & ROW_BOX_OTHERS[pos], hw) + (int)((col_bits * COLUMN_BITS) >> 18 & 7u);
    if (x) {
        const uint32_t *far = x->far[27 * b + pos].w;
        k += s9_popcount(u[0] & far[0], hw) + s9_popcount(u[1] & far[1], hw) + s9_popcount(u[2] & far[2], hw);
    }
    return k;
}

/* The branch cell: an empty cell with fewest candidates, and among those the one with most
 * empty peers (whichever digit is tried, it reaches most of the grid that is still open),
 * the first such in reading order. */
S9_INLINE int
s9_branch_cell(const frame_t *st, int hw, const extra_t *x)
{
    uint32_t once[4], twice[4], thrice[4];
    s9_tally(st->cand, once, twice, thrice);
    int best = -1, best_count = 99, best_peers = -1;
    for (int b = 0; b < 3; b++)
        for (uint32_t pb = st->unsolved[b] & twice[b] & ~thrice[b]; pb; pb &= pb - 1) {
            int pos = CTZ(pb), k = s9_open_peers(st, b, pos, hw, x);
            int better = k > best_peers;
            best = better ? 27 * b + pos : best;
            best_peers = better ? k : best_peers;
        }
    if (best >= 0)
        return best;
    /* no cell with two candidates: count each empty cell's */
    for (int b = 0; b < 3; b++)
        for (uint32_t u = st->unsolved[b]; u; u &= u - 1) {
            int pos = CTZ(u);
            int count = s9_popcount(s9_digits(st, b, pos), hw);
            if (count > best_count)
                continue;
            int k = s9_open_peers(st, b, pos, hw, x);
            if (count < best_count || k > best_peers) {
                best_count = count;
                best_peers = k;
                best = 27 * b + pos;
            }
        }
    return best;
}

/* The branch cell scoring counts bits a lot: where the build targets any x86-64 but the
 * processor has the popcnt instruction (almost all do), a copy compiled for it is used. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__)) && \
    !defined(__POPCNT__)
__attribute__((target("popcnt"))) static int
s9_branch_cell_popcnt(const frame_t *st)
{
    return s9_branch_cell(st, 1, NULL);
}

static int
s9_branch_cell_plain(const frame_t *st)
{
    return s9_branch_cell(st, 0, NULL);
}

__attribute__((target("popcnt"))) static int
s9x_branch_cell_popcnt(const frame_t *st, const extra_t *x)
{
    return s9_branch_cell(st, 1, x);
}

static int
s9x_branch_cell_plain(const frame_t *st, const extra_t *x)
{
    return s9_branch_cell(st, 0, x);
}

S9_INLINE int
s9_choose_cell(const frame_t *st, const extra_t *x)
{
    if (x)
        return __builtin_cpu_supports("popcnt") ? s9x_branch_cell_popcnt(st, x) : s9x_branch_cell_plain(st, x);
    return __builtin_cpu_supports("popcnt") ? s9_branch_cell_popcnt(st) : s9_branch_cell_plain(st);
}
#elif defined(__POPCNT__)
S9_INLINE int
s9_choose_cell(const frame_t *st, const extra_t *x)
{
    return s9_branch_cell(st, 1, x);
}
#else
S9_INLINE int
s9_choose_cell(const frame_t *st, const extra_t *x)
{
    return s9_branch_cell(st, 0, x);
}
#endif

static inline frame_t *
frame_at(state_t *s, int i)
{
    return &s->stack[i];
}

/* 82 frames always suffice: each frame above the root branches on its own empty cell. */
static inline int
frame_reserve(state_t *s, int i)
{
    (void)s;
    (void)i;
    return 0;
}

static inline void
frame_copy(state_t *s, frame_t *dst, const frame_t *src)
{
    (void)s;
    *dst = *src;
}

static inline int
cells_left(const frame_t *f)
{
    return POPCOUNT(f->unsolved[0]) + POPCOUNT(f->unsolved[1]) + POPCOUNT(f->unsolved[2]);
}

S9_INLINE int
start_(const uint8_t *givens, frame_t *f, uint64_t *settled, const extra_t *x)
{
    /* never a set of columns, never a word: every digit gets checked */
    uint32_t last[28], lastx[28];
    memset(last, 0xFF, sizeof last);
    memset(lastx, 0xFF, sizeof lastx);
    if (!s9_start(f, givens, x))
        return 0;
    int empty = cells_left(f);
    if (!(x ? s9x_propagate(f, last, lastx, x) : s9_propagate(f, last)))
        return 0;
    *settled = (uint64_t)(empty - cells_left(f));
    return 1;
}

S9_INLINE int
place_(frame_t *f, int cell, mask_t bit, const extra_t *x)
{
    /* f is a propagated state: the stack rule and the extra rules hold there */
    uint32_t last[28], lastx[28];
    s9_columns(f->cand, last);
    if (x)
        memcpy(lastx, f->cand, sizeof lastx);
    s9_assign(f, CTZ(bit), cell / 27, cell % 27);
    return x ? s9x_propagate(f, last, lastx, x) : s9_propagate(f, last);
}

static inline int
solved(const frame_t *f)
{
    return !(f->unsolved[0] | f->unsolved[1] | f->unsolved[2]);
}

#if defined(__SSE2__)
/* The 27 bits of m as bytes, 0xFF where the bit is set: bytes 0..15 in *lo, 16..31 in *hi. */
static inline void
s9_bits_to_bytes(uint32_t m, __m128i *lo, __m128i *hi)
{
    const __m128i select = _mm_set_epi8(-128, 64, 32, 16, 8, 4, 2, 1, -128, 64, 32, 16, 8, 4, 2, 1);
    __m128i v = _mm_cvtsi32_si128((int)m);
    v = _mm_unpacklo_epi8(v, v);   /* bytes m0 m0 m1 m1 m2 m2 m3 m3 */
    v = _mm_unpacklo_epi16(v, v);  /* each byte of m four times */
    __m128i a = _mm_unpacklo_epi32(v, v), b = _mm_unpackhi_epi32(v, v);  /* eight times */
    *lo = _mm_cmpeq_epi8(_mm_and_si128(a, select), select);
    *hi = _mm_cmpeq_epi8(_mm_and_si128(b, select), select);
}
#endif

/* A solved frame holds each cell in exactly one digit's word: the digit values to out. */
static inline void
emit(const state_t *s, const frame_t *f, uint8_t *out)
{
    (void)s;
    if (!out)
        return;
#if defined(__SSE2__)
    /* bit k of each cell's digit - 1, as four planes of cells per band, each plane spread to
     * bytes and weighted; 32 bytes a band, then the 81 copied out */
    uint8_t bands[96];
    const uint32_t *c = f->cand;
    for (int b = 0; b < 3; b++) {
        uint32_t plane[4] = {
            c[3 + b] | c[9 + b] | c[15 + b] | c[21 + b],
            c[6 + b] | c[9 + b] | c[18 + b] | c[21 + b],
            c[12 + b] | c[15 + b] | c[18 + b] | c[21 + b],
            c[24 + b],
        };
        __m128i lo = _mm_set1_epi8(1), hi = lo;
        for (int k = 0; k < 4; k++) {
            __m128i l, h, w = _mm_set1_epi8((char)(1 << k));
            s9_bits_to_bytes(plane[k], &l, &h);
            lo = _mm_add_epi8(lo, _mm_and_si128(l, w));
            hi = _mm_add_epi8(hi, _mm_and_si128(h, w));
        }
        _mm_storeu_si128((__m128i *)(bands + 32 * b), lo);
        _mm_storeu_si128((__m128i *)(bands + 32 * b + 16), hi);
    }
    for (int b = 0; b < 3; b++)
        memcpy(out + 27 * b, bands + 32 * b, 27);
#else
    for (int d = 0; d < 9; d++)
        for (int b = 0; b < 3; b++)
            for (uint32_t m = f->cand[3 * d + b]; m; m &= m - 1)
                out[27 * b + CTZ(m)] = (uint8_t)(d + 1);
#endif
}

S9_INLINE void
choose_branch_(frame_t *f, const extra_t *x)
{
    f->cell = s9_choose_cell(f, x);
    f->rem = s9_digits(f, f->cell / 27, f->cell % 27);
}

/* The search loop twice: on the standard grid (no extra houses, x a constant NULL) and
 * with extra houses. */
#define start(s, g, f, settled) start_(g, f, settled, S9_X(s))
#define place(s, f, c, bit) place_(f, c, bit, S9_X(s))
#define choose_branch(s, f) choose_branch_(f, S9_X(s))

#define S9_X(s) ((void)(s), (const extra_t *)NULL)
#define search_next search_next_std
#include "search_loop.h"
#undef search_next
#undef S9_X

#define S9_X(s) ((s)->x)
#define search_next search_next_extra
#include "search_loop.h"
#undef search_next
#undef S9_X

static int
band9_init(void *state, const shape_t *sh)
{
    ((state_t *)state)->x = sh->b9x;
    return 0;
}

static void
band9_release(void *state)
{
    (void)state;
}

const engine_t shudu_engine_9x9 = {"9x9", band9_init, band9_release, search_next_std};
const engine_t shudu_engine_9x9x = {"9x9 with extra houses", band9_init, band9_release, search_next_extra};

const uint32_t *const shudu_band_keep = BAND_KEEP;
const uint32_t *const shudu_triad_keep = TRIAD_KEEP;
const uint32_t *const shudu_row_box_others = ROW_BOX_OTHERS;

int
shudu_propagate9(const uint8_t *givens, mask_t out[81])
{
    frame_t f;
    uint32_t last[28];
    memset(last, 0xFF, sizeof last);
    if (!s9_start(&f, givens, NULL) || !s9_propagate(&f, last))
        return 0;
    for (int b = 0; b < 3; b++)
        for (int pos = 0; pos < 27; pos++)
            out[27 * b + pos] = s9_digits(&f, b, pos);
    return 1;
}
