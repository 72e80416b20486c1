/*
 * The 9x9 engine (see band9.h): propagation over per-digit band words, the branch-cell
 * choice, then the resumable search of search_loop.h.
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

/* Digit d (0-based) goes to bit pos of band b: the other cells of its row and box in the
 * band lose d.  The band rule then finds a row single there and places it. */
static inline void
s9_assign(frame_t *st, int d, int b, int pos)
{
    st->cand[3 * d + b] &= ~ROW_BOX_OTHERS[pos];
}

/* The cells (bit 9 * row + column) of the rows, and of the boxes, of a band in a 3-bit set. */
static const uint32_t BAND_ROWS[8] = {
    0, ROW0, ROW1, ROW0 | ROW1, ROW2, ROW0 | ROW2, ROW1 | ROW2, BAND_ALL,
};
#define BOX0 0x1C0E07u
static const uint32_t BAND_BOXES[8] = {
    0, BOX0, BOX0 << 3, BOX0 * 9, BOX0 << 6, BOX0 * 65, BOX0 * 72, BAND_ALL,
};

/* The cells of each band (bit pos of band b) that hold a given. */
static inline void
s9_given_cells(const uint8_t *givens, uint32_t given_any[3])
{
#if defined(__SSE2__)
    /* 32 bytes a band: a copy, so that no load reads past the 81 givens */
    uint8_t bands[96];
    memset(bands, 0, sizeof bands);
    for (int b = 0; b < 3; b++)
        memcpy(bands + 32 * b, givens + 27 * b, 27);
    const __m128i zero = _mm_setzero_si128();
    for (int b = 0; b < 3; b++) {
        __m128i lo = _mm_loadu_si128((const __m128i *)(bands + 32 * b));
        __m128i hi = _mm_loadu_si128((const __m128i *)(bands + 32 * b + 16));
        uint32_t empty = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, zero)) |
                         (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, zero)) << 16;
        given_any[b] = ~empty & BAND_ALL;
    }
#else
    for (int b = 0; b < 3; b++) {
        uint32_t any = 0;
        for (int pos = 0; pos < 27; pos++)
            any |= (uint32_t)(givens[27 * b + pos] != 0) << pos;
        given_any[b] = any;
    }
#endif
}

/* The houses of each cell (0..80) as one word: bit r for row r, 9 + c for column c, 18 + k
 * for box k; two givens of one digit clash when their words share a bit. */
#define S9_UNITS(c) ((1u << (c) / 9) | (1u << (9 + (c) % 9)) | (1u << (18 + (c) / 27 * 3 + (c) % 9 / 3)))
#define S9_UNITS_ROW(r)                                                                        \
    S9_UNITS(9 * (r)), S9_UNITS(9 * (r) + 1), S9_UNITS(9 * (r) + 2), S9_UNITS(9 * (r) + 3),    \
        S9_UNITS(9 * (r) + 4), S9_UNITS(9 * (r) + 5), S9_UNITS(9 * (r) + 6),                   \
        S9_UNITS(9 * (r) + 7), S9_UNITS(9 * (r) + 8)
static const uint32_t CELL_UNITS[81] = {
    S9_UNITS_ROW(0), S9_UNITS_ROW(1), S9_UNITS_ROW(2), S9_UNITS_ROW(3), S9_UNITS_ROW(4),
    S9_UNITS_ROW(5), S9_UNITS_ROW(6), S9_UNITS_ROW(7), S9_UNITS_ROW(8),
};

/* The state with the givens placed.  0 if two givens clash. */
S9_INLINE int
s9_start(frame_t *st, const uint8_t *givens, const extra_t *x)
{
    uint32_t given_any[3], given[27] = {0};
    uint32_t units[9] = {0};  /* per digit, the houses its givens occupy (CELL_UNITS) */
    /* only the given cells are visited: which cells are empty is no branch to guess */
    s9_given_cells(givens, given_any);
    for (int b = 0; b < 3; b++)
        for (uint32_t any = given_any[b]; any; any &= any - 1) {
            int pos = CTZ(any), cell = 27 * b + pos, d = givens[cell] - 1;
            uint32_t u = CELL_UNITS[cell];
            if (units[d] & u)
                return 0;
            units[d] |= u;
            given[3 * d + b] |= 1u << pos;
        }
    for (int d = 0; d < 9; d++) {
        uint32_t rows = units[d] & 0x1FFu, boxes = units[d] >> 18;
        uint32_t colmask = (units[d] >> 9 & 0x1FFu) * COLUMN_BITS;
        for (int b = 0; b < 3; b++) {
            uint32_t placed = BAND_ROWS[rows >> (3 * b) & 7u] | BAND_BOXES[boxes >> (3 * b) & 7u];
            st->cand[3 * d + b] = (BAND_ALL & ~given_any[b] & ~colmask & ~placed) | given[3 * d + b];
            st->seen[3 * d + b] = ~0u; /* never a mask: every digit-band gets checked */
        }
    }
    st->cand[27] = st->seen[27] = 0;
    for (int b = 0; b < 3; b++)
        st->unsolved[b] = BAND_ALL & ~given_any[b];
    if (x)
        /* a given leaves its extra houses; two alike in one clash */
        for (int b = 0; b < 3; b++)
            for (uint32_t any = given_any[b]; any; any &= any - 1) {
                int pos = CTZ(any), d = givens[27 * b + pos] - 1;
                const uint32_t *pm = x->peers[27 * b + pos].w;
                for (int k = 0; k < 3; k++) {
                    if (given[3 * d + k] & pm[k])
                        return 0;
                    st->cand[3 * d + k] &= ~pm[k];
                }
            }
    return 1;
}

/* The band rule on digit-band i, then its row singles placed: the placed cells leave the
 * other digits and the digit leaves their columns in the other bands.  0 on
 * contradiction. */
S9_INLINE int
s9_band(frame_t *st, int i, int d, int b, const extra_t *x)
{
    uint32_t m = st->cand[i];
    /* the triads that hold the digit, row r's of box k at bit 9 * r + 3 * k, folded onto
     * bit 3 * k + r */
    uint32_t p = (m | m >> 1 | m >> 2) & TRIAD_BASES;
    uint32_t keep = BAND_KEEP_BY_BOX[(p | p >> 8 | p >> 16) & 0x1FFu];
    if (!keep)
        return 0;
    m &= keep;
    st->cand[i] = st->seen[i] = m;
    /* every row holds a cell now, so the subtraction borrows within rows only */
    uint32_t t = m & (m - COLUMN_BITS);
    /* the rows with a second cell, as masks taken without a branch (which rows those are
     * is no pattern a predictor learns): adding 0xFF to a row's low 8 bits carries into its
     * top bit, and no further, exactly when they are not all 0 */
    uint32_t nonzero = (((t & ROWS_LOW8) + ROWS_LOW8) | t) & ROWS_TOP;
    uint32_t more = (nonzero >> 8) * ROW0;
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
        if (x)
            for (; single; single &= single - 1) {
                const uint32_t *pm = x->peers[27 * b + CTZ(single)].w;
                st->cand[base] &= ~pm[0];
                st->cand[base + 1] &= ~pm[1];
                st->cand[base + 2] &= ~pm[2];
            }
    }
    return 1;
}

/* The words (bit i) where x[i] != y[i], of the 27. */
static inline uint32_t
s9_differ(const uint32_t *x, const uint32_t *y)
{
#if defined(__SSE2__)
    uint32_t same = 0;
    for (int k = 0; k < 7; k++) {
        __m128i a = _mm_loadu_si128((const __m128i *)(x + 4 * k));
        __m128i b = _mm_loadu_si128((const __m128i *)(y + 4 * k));
        same |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(a, b))) << (4 * k);
    }
    return ~same & BAND_ALL;
#else
    uint32_t ch = 0;
    for (int i = 0; i < 27; i++)
        ch |= (uint32_t)(x[i] != y[i]) << i;
    return ch;
#endif
}

/* The digit-bands changed since the band rule last saw them, as bits. */
static inline uint32_t
s9_changed(const frame_t *st)
{
    return s9_differ(st->cand, st->seen);
}

/* For each band b, the cells that hold a candidate (once[b]), two or more (twice[b]) and,
 * if thrice, three or more.  Arrays of 4 (the last entry is scratch). */
static inline void
s9_tally(const uint32_t *cand, uint32_t *once, uint32_t *twice, uint32_t *thrice)
{
#if defined(__SSE2__)
    /* the words of digit d for bands 0..2 are cand[3d..3d+2]: one unaligned load each */
    __m128i o = _mm_setzero_si128(), t = o, h = o;
    for (int d = 0; d < 9; d++) {
        __m128i m = _mm_loadu_si128((const __m128i *)(cand + 3 * d));
        h = _mm_or_si128(h, _mm_and_si128(t, m));
        t = _mm_or_si128(t, _mm_and_si128(o, m));
        o = _mm_or_si128(o, m);
    }
    _mm_storeu_si128((__m128i *)once, o);
    _mm_storeu_si128((__m128i *)twice, t);
    if (thrice)
        _mm_storeu_si128((__m128i *)thrice, h);
#else
    for (int b = 0; b < 3; b++) {
        uint32_t o = 0, t = 0, h = 0;
        for (int d = 0; d < 9; d++) {
            uint32_t m = cand[3 * d + b];
            h |= t & m;
            t |= o & m;
            o |= m;
        }
        once[b] = o;
        twice[b] = t;
        if (thrice)
            thrice[b] = h;
    }
#endif
}

/* For each digit-band word, the columns (bit k for column k) that hold the digit in that
 * band. */
static inline void
s9_columns(const uint32_t *cand, uint32_t *any)
{
#if defined(__SSE2__)
    const __m128i nine = _mm_set1_epi32(0x1FF);
    for (int k = 0; k < 7; k++) {
        __m128i m = _mm_loadu_si128((const __m128i *)(cand + 4 * k));
        __m128i r1 = _mm_srli_epi32(m, 9), r2 = _mm_srli_epi32(m, 18);
        _mm_storeu_si128((__m128i *)(any + 4 * k), _mm_and_si128(_mm_or_si128(_mm_or_si128(m, r1), r2), nine));
    }
#else
    for (int i = 0; i < 28; i++) {
        uint32_t m = cand[i];
        any[i] = (m | m >> 9 | m >> 18) & 0x1FFu;
    }
#endif
}

/* The stack rule on digit d, whose columns in band b are any[3 * d + b]: in each stack, the
 * (band, column) triads that hold the digit must contain a one-to-one matching of bands to
 * columns; the digit leaves every other triad.  TRIAD_KEEP serves, with band b as row b
 * and column k of the stack as box k.  `any` is updated to what it leaves.  1 if a
 * candidate went, 0 if none, -1 on contradiction. */
static inline int
s9_stack_rule(frame_t *st, int d, uint32_t *any)
{
    uint32_t *c = st->cand + 3 * d, *a = any + 3 * d;
    int dropped = 0;
    for (int s = 0; s < 3; s++) {
        int sh = 3 * s;
        uint32_t present = (a[0] >> sh & 7u) | (a[1] >> sh & 7u) << 3 | (a[2] >> sh & 7u) << 6;
        uint32_t keep = TRIAD_KEEP[present];
        if (!keep)
            return -1;
        uint32_t drop = present & ~keep;
        if (!drop)
            continue;
        dropped = 1;
        for (int b = 0; b < 3; b++) {
            uint32_t cols = (drop >> (3 * b) & 7u) << sh;
            c[b] &= ~(cols * COLUMN_BITS);
            a[b] &= ~cols;
        }
    }
    return dropped;
}

#include "vec4.h"

/* The rules of the extra houses on digit d (see the top of the file), where its words
 * changed since they last ran (`was`: the words then): 1 if a candidate went or a digit
 * was placed, 0 if nothing changed, -1 on contradiction.  A house none of whose cells
 * changed for the digit gives what it gave then: nothing, or what is done already.  The
 * pairs are all tested, without a branch until one applies: skipping those whose cells
 * did not change took about as many instructions and mispredicted a third of its
 * branches (callgrind's branch simulation), which cost windoku a third of its time. */
S9_INLINE int
s9_extra_rules(frame_t *st, int d, const uint32_t *was, const extra_t *x)
{
    /* four words from cand[3d] (cand[27] is a pad for the last digit) */
    uint32_t *c = st->cand + 3 * d;
    const s9v_t moved = s9v_xor(s9v_load(c), s9v_load(was));
    int found = 0;
    for (int h = 0; h < x->nhouses; h++) {
        const uint32_t *hm = x->house[h].w;
        if (!s9v_meets(moved, &x->house[h]))
            continue;
        uint32_t w0 = c[0] & hm[0], w1 = c[1] & hm[1], w2 = c[2] & hm[2];
        uint32_t all = w0 | w1 | w2;
        if (!all)
            return -1;
        /* one cell: one word holds it, and one bit */
        if ((all & (all - 1)) || (w0 && (w1 | w2)) || (w1 && w2))
            continue;
        int b = w0 ? 0 : w1 ? 1 : 2;
        if (st->unsolved[b] & all) {
            s9_assign(st, d, b, CTZ(all));
            found = 1;
        }
    }
    s9v_t now = s9v_load(c);
    int cleared = 0;
    for (int k = 0; k < x->nlocks; k++) {
        const band9_mask_t *lk = x->lock[k];
        int first = s9v_meets(now, &lk[1]), second = s9v_meets(now, &lk[2]);
        if (!(s9v_meets(now, &lk[0]) & (first ^ second)))
            continue;
        /* the house without the digit outside the shared cells clears the other's */
        now = s9v_clear(now, &lk[first ? 1 : 2]);
        cleared = 1;
    }
    if (cleared)
        s9v_store(c, now);  /* the fourth word unchanged */
    return found | cleared;
}

/* All rules until none applies; 0 on contradiction.  last[28]: each word's columns (as
 * s9_columns gives them) when the stack rule last held for its digit; a digit whose columns
 * still match needs no stack rule.  lastx[28] (with extra houses): each word when the
 * extra rules last ran on its digit.  Both updated. */
S9_INLINE int
s9_propagate_(frame_t *st, uint32_t *last, uint32_t *lastx, const extra_t *x)
{
    for (;;) {
        uint32_t ch;
        while ((ch = s9_changed(st)) != 0) {
            do {
                int i = CTZ(ch);
                ch &= ch - 1;
                /* still changed: a word only loses cells, and only its own band rule
                 * sets its `seen` */
                if (!s9_band(st, i, i / 3, i % 3, x))
                    return 0;
            } while (ch);
        }
        if (!(st->unsolved[0] | st->unsolved[1] | st->unsolved[2]))
            return 1;
        /* naked singles */
        int found = 0;
        uint32_t once[4], twice[4];
        s9_tally(st->cand, once, twice, NULL);
        for (int b = 0; b < 3; b++) {
            uint32_t u = st->unsolved[b];
            if (u & ~once[b])
                return 0;
            uint32_t naked = u & ~twice[b];
            if (naked) {
                found = 1;
                for (int d = 0; d < 9; d++)
                    for (uint32_t hit = st->cand[3 * d + b] & naked; hit; hit &= hit - 1)
                        s9_assign(st, d, b, CTZ(hit));
            }
        }
        if (found)
            continue;
        /* the columns each word holds its digit in (a column single needs no rule of its
         * own: see the top of the file) */
        uint32_t any[28];
        s9_columns(st->cand, any);
        /* the stack rule, on the digits whose columns changed since it last ran (`any` is
         * still current: nothing changed since it was taken) */
        uint32_t moved = s9_differ(any, last);
        moved = (moved | moved >> 1 | moved >> 2) & TRIAD_BASES;
        for (; moved; moved &= moved - 1) {
            int d = CTZ(moved) / 3;
            int dropped = s9_stack_rule(st, d, any);
            if (dropped < 0)
                return 0;
            found |= dropped;
            last[3 * d] = any[3 * d];
            last[3 * d + 1] = any[3 * d + 1];
            last[3 * d + 2] = any[3 * d + 2];
        }
        if (found)
            continue;
        if (!x)
            return 1;
        /* the extra houses' rules, on the digits whose words changed since they last ran */
        uint32_t redo = s9_differ(st->cand, lastx);
        redo = (redo | redo >> 1 | redo >> 2) & TRIAD_BASES;
        for (; redo; redo &= redo - 1) {
            int d = CTZ(redo) / 3;
            uint32_t was[4];
            memcpy(was, lastx + 3 * d, sizeof was);
            memcpy(lastx + 3 * d, st->cand + 3 * d, 3 * sizeof(uint32_t));
            int r = s9_extra_rules(st, d, was, x);
            if (r < 0)
                return 0;
            found |= r;
        }
        if (!found)
            return 1;
    }
}

/* Propagation once per search, called (not inlined) from its start and its places. */
static int
s9_propagate(frame_t *st, uint32_t *last)
{
    return s9_propagate_(st, last, NULL, NULL);
}

static int
s9x_propagate(frame_t *st, uint32_t *last, uint32_t *lastx, const extra_t *x)
{
    return s9_propagate_(st, last, lastx, x);
}

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
