/*
 * The 9x9 engine's propagation (part of band9.c, which includes it once, after its types and
 * band masks): the givens placed, the band rule, the stack rule (vec4.h), the extra houses'
 * rules, and the loop that runs them to a fixed point.  Kept in band9.c's translation unit so
 * that each search inlines every rule, as when they were one file.
 */
#ifndef SHUDU_CORE_BAND9_RULES_H
#define SHUDU_CORE_BAND9_RULES_H

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

#endif
