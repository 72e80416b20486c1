/*
 * The constraint engine's propagators in C: all-different, intersections, relations, weighted
 * sums and ordered chains, each the twin of its class in shudu/solvers/_propagators_py.py
 * (same narrowing, same cells changed in the same order).  The line conditions are in
 * constraints_lines.c.
 */
#include <stdlib.h>

#include "constraints.h"

int
cn_narrow(cnet_t *net, mask_t *dom, int c, mask_t keep)
{
    mask_t nd = dom[c] & keep;
    if (!nd)
        return 0;
    if (nd != dom[c]) {
        dom[c] = nd;
        cnet_touch(net, c);
    }
    return 1;
}

int
cn_commit(cnet_t *net, mask_t *dom, const int32_t *cells, const mask_t *keep, int k)
{
    for (int i = 0; i < k; i++)
        if (!cn_narrow(net, dom, cells[i], keep[i]))
            return 0;
    return 1;
}

static int
alldiff(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    const int32_t *cells = p->cells;
    int k = p->ncells;
    mask_t fixed = 0, newly, once = 0, twice = 0, pending = 0;
    for (int i = 0; i < k; i++) {
        mask_t d = dom[cells[i]];
        twice |= once & d;
        once |= d;
        if (!(d & (d - 1))) {
            if (fixed & d)
                return 0;
            fixed |= d;
        } else {
            pending |= d;
        }
    }
    /* the naked singles leave the other cells: once and twice stand unless one does */
    newly = pending & fixed;
    if (newly) {
        newly = fixed;
        once = twice = 0;
    }
    while (newly) {
        newly = 0;
        for (int i = 0; i < k; i++) {
            int c = cells[i];
            mask_t d = dom[c];
            if ((d & (d - 1)) && (d & fixed)) {
                d &= ~fixed;
                if (!d || (!(d & (d - 1)) && (newly & d)))
                    return 0;
                dom[c] = d;
                cnet_touch(net, c);
                if (!(d & (d - 1)))
                    newly |= d;
            }
        }
        fixed |= newly;
    }
    if (!once)
        for (int i = 0; i < k; i++) {
            mask_t d = dom[cells[i]];
            twice |= once & d;
            once |= d;
        }
    if (POPCOUNT(once) < k)
        return 0;
    mask_t only = once & ~twice & ~fixed;
    if (p->params[0] && only)
        for (int i = 0; i < k; i++) {
            int c = cells[i];
            mask_t hit = dom[c] & only;
            if (hit && hit != dom[c]) {
                if (hit & (hit - 1))
                    return 0;
                dom[c] = hit;
                cnet_touch(net, c);
            }
        }
    return 1;
}

static int
intersect(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    int ns = p->params[0], nf = p->params[1], k = p->ncells;
    mask_t inside = 0, first = 0, second = 0;
    for (int i = 0; i < ns; i++)
        inside |= dom[p->cells[i]];
    for (int i = ns; i < ns + nf; i++)
        first |= dom[p->cells[i]];
    for (int i = ns + nf; i < k; i++)
        second |= dom[p->cells[i]];
    /* the second house's rest first, then the first's */
    const int from[2] = {ns + nf, ns}, to[2] = {k, ns + nf};
    const mask_t locked[2] = {inside & ~first, inside & ~second};
    for (int r = 0; r < 2; r++) {
        if (!locked[r])
            continue;
        for (int i = from[r]; i < to[r]; i++) {
            int c = p->cells[i];
            if (dom[c] & locked[r]) {
                dom[c] &= ~locked[r];
                if (!dom[c])
                    return 0;
                cnet_touch(net, c);
            }
        }
    }
    return 1;
}

static int
relation(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    int a = p->cells[0], b = p->cells[1], n = net->n;
    const int32_t *fwd = p->params, *rev = p->params + n;
    mask_t support = 0;
    for (mask_t m = dom[a]; m; m &= m - 1)
        support |= (mask_t)fwd[CTZ(m)];
    mask_t ndb = dom[b] & support;
    support = 0;
    for (mask_t m = ndb; m; m &= m - 1)
        support |= (mask_t)rev[CTZ(m)];
    return cn_narrow(net, dom, a, support) && cn_narrow(net, dom, b, ndb);
}

/* ---- sets of partial sums: bit sets of `words` 64-bit words ---- */

/* dst |= src shifted up by s (down when s < 0); bits beyond the words drop out. */
static void
shift_or(uint64_t *dst, const uint64_t *src, int words, long s)
{
    if (s >= 0) {
        long ws = s / 64;
        int bs = (int)(s % 64);
        for (long j = words - 1; j >= ws; j--) {
            uint64_t v = src[j - ws] << bs;
            if (bs && j - ws - 1 >= 0)
                v |= src[j - ws - 1] >> (64 - bs);
            dst[j] |= v;
        }
    } else {
        long ws = -s / 64;
        int bs = (int)(-s % 64);
        for (long j = 0; j + ws < words; j++) {
            uint64_t v = src[j + ws] >> bs;
            if (bs && j + ws + 1 < words)
                v |= src[j + ws + 1] << (64 - bs);
            dst[j] |= v;
        }
    }
}

/* Whether (src shifted by s) and set share a bit. */
static int
shift_meets(const uint64_t *src, const uint64_t *set, int words, long s)
{
    if (s >= 0) {
        long ws = s / 64;
        int bs = (int)(s % 64);
        for (long j = words - 1; j >= ws; j--) {
            uint64_t v = src[j - ws] << bs;
            if (bs && j - ws - 1 >= 0)
                v |= src[j - ws - 1] >> (64 - bs);
            if (v & set[j])
                return 1;
        }
    } else {
        long ws = -s / 64;
        int bs = (int)(-s % 64);
        for (long j = 0; j + ws < words; j++) {
            uint64_t v = src[j + ws] >> bs;
            if (bs && j + ws + 1 < words)
                v |= src[j + ws + 1] << (64 - bs);
            if (v & set[j])
                return 1;
        }
    }
    return 0;
}

int
cn_sum_filter(cnet_t *net, const mask_t *doms, const int32_t *coeffs, int k, long total, mask_t *out)
{
    long offset = 0;
    for (int i = 0; i < k; i++)
        offset += coeffs ? labs((long)coeffs[i]) : 1;
    offset *= net->n;
    long nbits = 2 * offset + 1;
    int words = (int)((nbits + 63) / 64);
    uint64_t *F = net->u64, *reach = F + (size_t)(k + 1) * words, *back = reach + words;
    memset(F, 0, sizeof(uint64_t) * (size_t)(k + 1) * words);
    F[offset / 64] = 1ull << (offset % 64);
    for (int i = 0; i < k; i++) {
        long c = coeffs ? coeffs[i] : 1;
        for (mask_t m = doms[i]; m; m &= m - 1)
            shift_or(F + (size_t)(i + 1) * words, F + (size_t)i * words, words, c * (CTZ(m) + 1));
    }
    long target = offset + total;
    if (target < 0 || target >= nbits || !(F[(size_t)k * words + target / 64] >> (target % 64) & 1))
        return 0;
    memset(reach, 0, sizeof(uint64_t) * words);
    reach[target / 64] = 1ull << (target % 64);
    for (int i = k - 1; i >= 0; i--) {
        long c = coeffs ? coeffs[i] : 1;
        mask_t kept = 0;
        memset(back, 0, sizeof(uint64_t) * words);
        for (mask_t m = doms[i]; m; m &= m - 1) {
            long s = c * (CTZ(m) + 1);
            if (shift_meets(F + (size_t)i * words, reach, words, s)) {
                kept |= m & (~m + 1u);
                shift_or(back, reach, words, -s);
            }
        }
        out[i] = kept;
        uint64_t *t = reach;
        reach = back;
        back = t;
    }
    return 1;
}

/* The digit combinations of a distinct cage with unit coefficients (SumProp._combinations). */
static int
sum_combinations(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    int k = p->ncells;
    int skip = 2 + k + ((p->params[1] & 2) ? k : 0); /* total, flags, coeffs, groups */
    const int32_t *combos = p->params + skip;
    int ncombos = p->nparams - skip;
    mask_t uni = 0, allowed = 0, required = ~(mask_t)0;
    for (int i = 0; i < k; i++)
        uni |= dom[p->cells[i]];
    for (int j = 0; j < ncombos; j++) {
        mask_t m = (mask_t)combos[j];
        if (m & ~uni)
            continue;
        int all = 1;
        for (int i = 0; i < k && all; i++)
            all = (dom[p->cells[i]] & m) != 0;
        if (all) {
            allowed |= m;
            required &= m;
        }
    }
    if (!allowed)
        return 0;
    for (int i = 0; i < k; i++)
        if (!cn_narrow(net, dom, p->cells[i], allowed))
            return 0;
    for (mask_t r = required; r; r &= r - 1) {
        mask_t low = r & (~r + 1u);
        int owners = 0, owner = -1;
        for (int i = 0; i < k; i++)
            if (dom[p->cells[i]] & low) {
                owners++;
                if (owner < 0)
                    owner = p->cells[i];
            }
        if (!owners)
            return 0;
        if (owners == 1 && dom[owner] != low) {
            dom[owner] = low;
            cnet_touch(net, owner);
        }
    }
    return 1;
}

/* The sum of the m lowest (highest) digits of mask, which holds at least m (_extreme_digits). */
static long
extreme_digits(mask_t mask, int m, int highest)
{
    long total = 0;
    for (; m > 0 && mask; m--) {
        int d = highest ? cn_bitlen(mask) - 1 : CTZ(mask);
        total += d + 1;
        mask &= ~(1u << d);
    }
    return total;
}

/* The least and the most that m different digits of mask weigh, times coeff (_span). */
static void
span(long coeff, mask_t mask, int m, long *lo, long *hi)
{
    long a = coeff * extreme_digits(mask, m, 0), b = coeff * extreme_digits(mask, m, 1);
    *lo = a <= b ? a : b;
    *hi = a <= b ? b : a;
}

/* Bounds of the sum where the cells of a group (sharing a house) differ
 * (SumProp._house_bounds); group[i] numbers each place's group from 0 in order. */
static int
house_bounds(cnet_t *net, mask_t *dom, const cprop_t *p, const int32_t *group)
{
    int k = p->ncells, G = 0;
    const int32_t *coeffs = p->params + 2;
    long total = p->params[0], lo = 0, hi = 0, a, b, x, y;
    mask_t *doms = net->u32, *keep = doms + k, *uni = keep + k, *count = uni + k;
    int32_t *first = (int32_t *)(count + k);
    for (int i = 0; i < k; i++) {
        doms[i] = dom[p->cells[i]];
        if (group[i] >= G) { /* numbered in order: a new group */
            uni[G] = count[G] = 0;
            first[G++] = i;
        }
        uni[group[i]] |= doms[i];
        count[group[i]]++;
    }
    for (int g = 0; g < G; g++) {
        if (POPCOUNT(uni[g]) < (int)count[g])
            return 0;
        span(coeffs[first[g]], uni[g], (int)count[g], &a, &b);
        lo += a;
        hi += b;
    }
    if (total < lo || total > hi)
        return 0;
    for (int i = 0; i < k; i++) {
        int g = group[i], m = (int)count[g] - 1;
        mask_t rest = 0;
        for (int j = 0; j < k; j++)
            if (j != i && group[j] == g)
                rest |= doms[j];
        span(coeffs[i], uni[g], (int)count[g], &a, &b);
        keep[i] = 0;
        for (mask_t r = doms[i]; r; r &= r - 1) {
            mask_t low = r & (~r + 1u);
            if (POPCOUNT(rest & ~low) < m)
                continue;
            span(coeffs[i], rest & ~low, m, &x, &y);
            long v = (long)coeffs[i] * (CTZ(low) + 1);
            if (lo - a + x + v <= total && total <= hi - b + y + v)
                keep[i] |= low;
        }
    }
    return cn_commit(net, dom, p->cells, keep, k);
}

static int
weighted_sum(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    int k = p->ncells;
    if ((p->params[1] & 1) && !sum_combinations(net, dom, p))
        return 0;
    mask_t *doms = net->u32, *keep = doms + k;
    for (int i = 0; i < k; i++)
        doms[i] = dom[p->cells[i]];
    if (!cn_sum_filter(net, doms, p->params + 2, k, p->params[0], keep))
        return 0;
    if (!cn_commit(net, dom, p->cells, keep, k))
        return 0;
    return (p->params[1] & 2) ? house_bounds(net, dom, p, p->params + 2 + k) : 1;
}

static int
chain(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    int k = p->ncells, step = p->params[0] ? 1 : 0;
    mask_t *doms = net->u32;
    for (int i = 0; i < k; i++)
        doms[i] = dom[p->cells[i]];
    for (int i = 1; i < k; i++) {
        int cut = CTZ(doms[i - 1]) + step; /* above the least digit of the cell before */
        if (cut > 0)
            doms[i] &= cut >= 32 ? 0u : ~((1u << cut) - 1u);
        if (!doms[i])
            return 0;
    }
    for (int i = k - 2; i >= 0; i--) { /* below the greatest digit of the cell after */
        int top = cn_bitlen(doms[i + 1]) - step;
        doms[i] &= top >= 32 ? ~0u : (1u << top) - 1u;
        if (!doms[i])
            return 0;
    }
    return cn_commit(net, dom, p->cells, doms, k);
}

int
cprop_run(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    switch (p->kind) {
    case CK_ALLDIFF: return alldiff(net, dom, p);
    case CK_INTERSECT: return intersect(net, dom, p);
    case CK_RELATION: return relation(net, dom, p);
    case CK_SUM: return weighted_sum(net, dom, p);
    case CK_CHAIN: return chain(net, dom, p);
    default: return cline_run(net, dom, p);
    }
}
