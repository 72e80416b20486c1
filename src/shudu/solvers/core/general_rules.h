/*
 * The general engine's propagation (part of general.c, which includes it once, after its
 * types and frame layout): a placement and what its peers lose, the naked and hidden singles
 * over any houses and links, the intersection rule, and the loop that runs them to a fixed
 * point, once per mode.  Kept in general.c's translation unit so that each of the three
 * searches inlines every rule, as when they were one file.
 */
#ifndef SHUDU_CORE_GENERAL_RULES_H
#define SHUDU_CORE_GENERAL_RULES_H

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

#endif
