/*
 * The constraint engine's line conditions in C, each the twin of its function in
 * shudu/solvers/_conditions_py.py: allowed, renban, between, sandwich, x-sum, skyscraper,
 * sum-line, quad, cover and lunchbox.  (The generic condition "rule" stays in Python: a network with
 * one is searched by the Python engine.)  Scratch arrays live in net->u32 and net->u64.
 */
#include <stdlib.h>

#include "constraints.h"

/* The scratch arrays of maxline masks: the domains read, and what is seen. */
#define DOMS(net) ((net)->u32)
#define SEEN(net) ((net)->u32 + (net)->maxline)
#define AUX(net, i) ((net)->u32 + (size_t)(2 + (i)) * (net)->maxline)

static void
read_doms(const mask_t *dom, const cprop_t *p, mask_t *doms)
{
    for (int i = 0; i < p->ncells; i++)
        doms[i] = dom[p->cells[i]];
}

static int
allowed(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    for (int i = 0; i < p->ncells; i++)
        if (!cn_narrow(net, dom, p->cells[i], (mask_t)p->params[0]))
            return 0;
    return 1;
}

/* A digit of `required` that one cell alone can take goes there. */
static void
place_required(cnet_t *net, mask_t *dom, const cprop_t *p, mask_t required)
{
    for (mask_t r = required; r; r &= r - 1) {
        mask_t low = r & (~r + 1u);
        int owners = 0, owner = -1;
        for (int i = 0; i < p->ncells; i++)
            if (dom[p->cells[i]] & low) {
                owners++;
                if (owner < 0)
                    owner = p->cells[i];
            }
        if (owners == 1 && dom[owner] != low) {
            dom[owner] = low;
            cnet_touch(net, owner);
        }
    }
}

/* The digits each of k cells takes in some assignment of distinct digits of doms, or'd
 * into support (pick: scratch of k); 0 when there is none. */
static int
distinct_supports(const mask_t *doms, int k, int i, mask_t used, mask_t *pick, mask_t *support)
{
    if (i == k) {
        for (int j = 0; j < k; j++)
            support[j] |= pick[j];
        return 1;
    }
    if (i >= RENBAN_MATCHED) /* not reached: k <= RENBAN_MATCHED */
        return 0;
    int any = 0;
    for (mask_t d = doms[i] & ~used; d; d &= d - 1) {
        pick[i] = d & (~d + 1u);
        any |= distinct_supports(doms, k, i + 1, used | pick[i], pick, support);
    }
    return any;
}

static int
renban(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    int k = p->ncells, n = net->n;
    mask_t *doms = DOMS(net), allowed_ = 0, required = ~(mask_t)0;
    read_doms(dom, p, doms);
    if (k <= RENBAN_MATCHED) { /* a short line: the runs its cells can fill with distinct digits */
        mask_t inside[RENBAN_MATCHED], pick[RENBAN_MATCHED], support[RENBAN_MATCHED] = {0};
        for (int low = 0; low <= n - k; low++) {
            mask_t w = (mask_t)(((1u << k) - 1u) << low);
            for (int i = 0; i < k; i++)
                inside[i] = doms[i] & w;
            if (distinct_supports(inside, k, 0, 0, pick, support)) {
                allowed_ |= w;
                required &= w;
            }
        }
        if (!allowed_ || !cn_commit(net, dom, p->cells, support, k))
            return 0;
    } else {
        for (int low = 0; k <= 32 && low <= n - k; low++) {
            mask_t w = (mask_t)((k == 32 ? ~0u : (1u << k) - 1u) << low), uni = 0;
            int i;
            for (i = 0; i < k && (doms[i] & w); i++)
                uni |= doms[i] & w;
            if (i == k && uni == w) {
                allowed_ |= w;
                required &= w;
            }
        }
        if (!allowed_)
            return 0;
        for (int i = 0; i < k; i++)
            if (!cn_narrow(net, dom, p->cells[i], allowed_))
                return 0;
    }
    place_required(net, dom, p, required);
    /* a required digit leaves every cell off the line that sees all the line's cells that can
     * take it (params: [cell, mask of the line's places it sees] pairs) */
    for (mask_t r = p->nparams ? required : 0; r; r &= r - 1) {
        mask_t low = r & (~r + 1u);
        uint32_t places = 0;
        for (int i = 0; i < k; i++)
            if (dom[p->cells[i]] & low)
                places |= (uint32_t)1 << i;
        if (!(places & (places - 1)))
            continue;
        for (int j = 0; j < p->nparams; j += 2) {
            int c = p->params[j];
            if (!(places & ~(uint32_t)p->params[j + 1]) && (dom[c] & low) && !cn_narrow(net, dom, c, ~low))
                return 0;
        }
    }
    return 1;
}

static int
between(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    int k = p->ncells, a = p->cells[0], b = p->cells[k - 1], nm = k - 2;
    const int32_t *middle = p->cells + 1;
    mask_t seen_a = 0, seen_b = 0, *seen_mid = SEEN(net), *fits = AUX(net, 0);
    for (int i = 0; i < nm; i++)
        seen_mid[i] = 0;
    for (mask_t ma = dom[a]; ma; ma &= ma - 1) {
        mask_t la = ma & (~ma + 1u);
        for (mask_t mb = dom[b]; mb; mb &= mb - 1) {
            mask_t lb = mb & (~mb + 1u);
            mask_t lo = la < lb ? la : lb, hi = la < lb ? lb : la;
            mask_t inside = (hi - 1) & ~(lo | (lo - 1)); /* the digits strictly between */
            int all = 1;
            for (int i = 0; i < nm && all; i++)
                all = (fits[i] = dom[middle[i]] & inside) != 0;
            if (all) {
                seen_a |= la;
                seen_b |= lb;
                for (int i = 0; i < nm; i++)
                    seen_mid[i] |= fits[i];
            }
        }
    }
    if (!cn_narrow(net, dom, a, seen_a) || !cn_narrow(net, dom, b, seen_b))
        return 0;
    return cn_commit(net, dom, middle, seen_mid, nm);
}

/* One place i of the 1 and j of the n: what it supports, added to seen (0: none). */
static void
sandwich_pair(cnet_t *net, const mask_t *doms, int k, int i, int j, long total, mask_t *seen)
{
    mask_t one = 1, top = 1u << (net->n - 1), crust = one | top;
    mask_t *inner = AUX(net, 0), *filling = AUX(net, 1);
    int lo = i < j ? i : j, hi = i < j ? j : i, ni = hi - lo - 1;
    for (int m = 0; m < ni; m++)
        if (!(inner[m] = doms[lo + 1 + m] & ~crust))
            return;
    if (!cn_sum_filter(net, inner, NULL, ni, total, filling))
        return;
    for (int m = 0; m < k; m++)
        if ((m < lo || m > hi) && !(doms[m] & ~crust))
            return;
    seen[i] |= one;
    seen[j] |= top;
    for (int m = 0; m < k; m++) {
        if (lo < m && m < hi)
            seen[m] |= filling[m - lo - 1];
        else if (m != i && m != j)
            seen[m] |= doms[m] & ~crust;
    }
}

static int
sandwich(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    int k = p->ncells;
    mask_t *doms = DOMS(net), *seen = SEEN(net), top = 1u << (net->n - 1);
    read_doms(dom, p, doms);
    for (int m = 0; m < k; m++)
        seen[m] = 0;
    for (int i = 0; i < k; i++)
        if (doms[i] & 1u)
            for (int j = 0; j < k; j++)
                if ((doms[j] & top) && i != j)
                    sandwich_pair(net, doms, k, i, j, p->params[0], seen);
    return cn_commit(net, dom, p->cells, seen, k);
}

/* The smallest digit at place i and the largest at j: what they support, added to seen
 * (_lunchbox_pair). */
static void
lunchbox_pair(cnet_t *net, const mask_t *doms, int k, int i, int j, long total, mask_t *seen)
{
    mask_t *fits = AUX(net, 0), *filling = AUX(net, 1);
    int a = i < j ? i : j, b = i < j ? j : i;
    long m = b - a - 1;
    for (mask_t rl = doms[i]; rl; rl &= rl - 1) {
        mask_t lo = rl & (~rl + 1u);
        for (mask_t rh = doms[j] & ~(lo | (lo - 1)); rh; rh &= rh - 1) {
            mask_t hi = rh & (~rh + 1u), inside = (hi - 1) & ~(lo | (lo - 1));
            if (POPCOUNT(inside) < k - 2)
                continue;
            long low = CTZ(lo) + 1, high = CTZ(hi) + 1;
            if (total < m * low + m * (m + 1) / 2 || total > m * high - m * (m + 1) / 2)
                continue;
            int all = 1;
            for (int x = 0; x < k; x++) {
                fits[x] = doms[x] & inside;
                if (x != i && x != j && !fits[x])
                    all = 0;
            }
            if (!all || !cn_sum_filter(net, fits + a + 1, NULL, (int)m, total, filling))
                continue;
            seen[i] |= lo;
            seen[j] |= hi;
            for (int x = 0; x < k; x++) {
                if (a < x && x < b)
                    seen[x] |= filling[x - a - 1];
                else if (x != i && x != j)
                    seen[x] |= fits[x];
            }
        }
    }
}

static int
lunchbox(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    int k = p->ncells;
    mask_t *doms = DOMS(net), *seen = SEEN(net), fixed = 0;
    read_doms(dom, p, doms);
    for (int x = 0; x < k; x++) { /* two cells fixed to one digit: the digits do not differ */
        if (!(doms[x] & (doms[x] - 1))) {
            if (fixed & doms[x])
                return 0;
            fixed |= doms[x];
        }
        seen[x] = 0;
    }
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            if (i != j)
                lunchbox_pair(net, doms, k, i, j, p->params[0], seen);
    return cn_commit(net, dom, p->cells, seen, k);
}

static int
xsum(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    int k = p->ncells;
    mask_t *doms = DOMS(net), *seen = SEEN(net), *head = AUX(net, 0), *fit = AUX(net, 1);
    read_doms(dom, p, doms);
    for (int m = 0; m < k; m++)
        seen[m] = 0;
    for (mask_t r = doms[0]; r; r &= r - 1) {
        mask_t low = r & (~r + 1u);
        int x = CTZ(low) + 1;
        if (x > k)
            continue;
        head[0] = low;
        for (int m = 1; m < x; m++)
            head[m] = doms[m];
        if (!cn_sum_filter(net, head, NULL, x, p->params[0], fit))
            continue;
        for (int m = 0; m < k; m++)
            seen[m] |= m < x ? fit[m] : doms[m];
    }
    return cn_commit(net, dom, p->cells, seen, k);
}

/* States (tallest so far, buildings seen) as masks over the tallest, one per count seen:
 * forward from the clue, then back from the states that saw exactly `count`. */
static int
skyscraper(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    int k = p->ncells, count = p->params[0], floor_ = p->nparams > 1 ? p->params[1] : 0;
    mask_t *doms = DOMS(net), *out = SEEN(net), *G = AUX(net, 0), *B = AUX(net, 2); /* count + 1 <= 2 maxline */
    if (count < 1 || count > k) {
        for (int m = 0; m < k; m++)
            out[m] = 0;
        return cn_commit(net, dom, p->cells, out, k);
    }
    int S = count + 1;
    mask_t *F = net->u32 + (size_t)8 * net->maxline; /* (k + 1) * S */
    read_doms(dom, p, doms);
    memset(F, 0, sizeof(mask_t) * (size_t)(k + 1) * S);
    F[0] = 1u << floor_; /* tallest floor_ (the 0 of digits from 0 is no building), none seen */
    for (int i = 0; i < k; i++)
        for (int s = 0; s < S; s++)
            for (mask_t ts = F[i * S + s]; ts; ts &= ts - 1) {
                int t = CTZ(ts);
                mask_t higher = doms[i] & ~((1u << t) - 1u);
                if (higher && s + 1 <= count)
                    F[(i + 1) * S + s + 1] |= higher << 1;
                if (doms[i] & ((1u << t) - 1u))
                    F[(i + 1) * S + s] |= 1u << t;
            }
    for (int s = 0; s < S; s++)
        G[s] = s == count ? F[k * S + s] : 0;
    for (int i = k - 1; i >= 0; i--) {
        out[i] = 0;
        for (int s = 0; s < S; s++)
            B[s] = 0;
        for (int s = 0; s < S; s++)
            for (mask_t ts = F[i * S + s]; ts; ts &= ts - 1) {
                int t = CTZ(ts);
                mask_t below = (1u << t) - 1u, hits = 0;
                if (s + 1 < S)
                    hits |= ((doms[i] & ~below) << 1 & G[s + 1]) >> 1;
                if (G[s] >> t & 1)
                    hits |= doms[i] & below;
                if (hits) {
                    out[i] |= hits;
                    B[s] |= 1u << t;
                }
            }
        for (int s = 0; s < S; s++)
            G[s] = B[s];
    }
    return cn_commit(net, dom, p->cells, out, k);
}

/* A line that splits into stretches each adding up to total: the open stretch's sum
 * (0 .. total - 1) as bit sets, forward and back (_split_filter). */
static int
split_filter(cnet_t *net, const mask_t *doms, int k, int total, mask_t *out)
{
    int W = (total + 63) / 64;
    uint64_t *F = net->u64, *G = F + (size_t)(k + 1) * W, *B = G + W, *T = B + W;
    uint64_t topmask = total % 64 ? (1ull << (total % 64)) - 1 : ~0ull;
    memset(F, 0, sizeof(uint64_t) * (size_t)(k + 1) * W);
    F[0] = 1;
    for (int i = 0; i < k; i++) {
        const uint64_t *f = F + (size_t)i * W;
        uint64_t *acc = F + (size_t)(i + 1) * W;
        for (mask_t r = doms[i]; r; r &= r - 1) {
            int v = CTZ(r) + 1, ws = v / 64, bs = v % 64;
            for (int j = W - 1; j >= ws; j--) { /* s + v < total */
                uint64_t x = f[j - ws] << bs;
                if (bs && j - ws - 1 >= 0)
                    x |= f[j - ws - 1] >> (64 - bs);
                acc[j] |= j == W - 1 ? x & topmask : x;
            }
            int s = total - v; /* s + v == total: a stretch closes */
            if (s >= 0 && (f[s / 64] >> (s % 64) & 1))
                acc[0] |= 1;
        }
    }
    if (!(F[(size_t)k * W] & 1))
        return 0;
    memset(G, 0, sizeof(uint64_t) * W);
    G[0] = 1;
    for (int i = k - 1; i >= 0; i--) {
        const uint64_t *f = F + (size_t)i * W;
        out[i] = 0;
        memset(B, 0, sizeof(uint64_t) * W);
        for (mask_t r = doms[i]; r; r &= r - 1) {
            int v = CTZ(r) + 1, ws = v / 64, bs = v % 64, any = 0;
            for (int j = 0; j < W; j++) { /* s with s + v < total in G */
                uint64_t x = j + ws < W ? G[j + ws] >> bs : 0;
                if (bs && j + ws + 1 < W)
                    x |= G[j + ws + 1] << (64 - bs);
                T[j] = x & f[j];
                any |= T[j] != 0;
            }
            int s = total - v;
            if (s >= 0 && (G[0] & 1) && (f[s / 64] >> (s % 64) & 1)) {
                T[s / 64] |= 1ull << (s % 64);
                any = 1;
            }
            if (any) {
                out[i] |= r & (~r + 1u);
                for (int j = 0; j < W; j++)
                    B[j] |= T[j];
            }
        }
        memcpy(G, B, sizeof(uint64_t) * W);
    }
    return 1;
}

static int
sum_line(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    int k = p->ncells, total = p->params[0], starts = p->params[1] == 1 ? k : 1;
    mask_t *doms = DOMS(net), *seen = SEEN(net), *odoms = AUX(net, 0), *fit = AUX(net, 1);
    read_doms(dom, p, doms);
    for (int m = 0; m < k; m++)
        seen[m] = 0;
    for (int start = 0; start < starts; start++) {
        for (int m = 0; m < k; m++)
            odoms[m] = doms[(start + m) % k];
        if (split_filter(net, odoms, k, total, fit))
            for (int m = 0; m < k; m++)
                seen[(start + m) % k] |= fit[m];
    }
    return cn_commit(net, dom, p->cells, seen, k);
}

static int
quad(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    /* the digits listed fill the cells (four on four): each cell holds one of them */
    mask_t listed = 0;
    long need = 0;
    for (int q = 0; q + 1 < p->nparams; q += 2) {
        listed |= (mask_t)p->params[q];
        need += p->params[q + 1];
    }
    if (need == p->ncells)
        for (int i = 0; i < p->ncells; i++)
            if (!cn_narrow(net, dom, p->cells[i], listed))
                return 0;
    for (int q = 0; q + 1 < p->nparams; q += 2) {
        mask_t low = (mask_t)p->params[q];
        int need = p->params[q + 1], owners = 0;
        for (int i = 0; i < p->ncells; i++)
            owners += (dom[p->cells[i]] & low) != 0;
        if (owners < need)
            return 0;
        if (owners == need)
            for (int i = 0; i < p->ncells; i++) {
                int c = p->cells[i];
                if ((dom[c] & low) && dom[c] != low) {
                    dom[c] &= low; /* low is one digit: the record's check */
                    cnet_touch(net, c);
                }
            }
    }
    return 1;
}

/* Whether each class of todo (a mask of class numbers) finds a place in free among its
 * owners (masks of places), distinct places when distinct (the Python engine's matched). */
static int
cover_matched(const uint64_t *owners, uint32_t todo, uint64_t free, int distinct)
{
    if (!todo)
        return 1;
    int q = CTZ(todo);
    uint32_t rest = todo & (todo - 1);
    if (!distinct)
        return (owners[q] & free) && cover_matched(owners, rest, free, distinct);
    for (uint64_t o = owners[q] & free; o; o &= o - 1)
        if (cover_matched(owners, rest, free & ~(o & (~o + 1u)), distinct))
            return 1;
    return 0;
}

/* Every class has a cell: a digit stays in a cell when the classes it does not cover can
 * still be given cells among the others, distinct ones when the classes are disjoint and the
 * cells differ (at most 32 classes of 64 cells, checked when the record is read). */
static int
cover(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    int k = p->ncells, np = p->params[0], distinct = 1;
    const int32_t *classes = p->params + 1, *near = classes + np;
    int nnear = p->nparams - 1 - np;
    uint64_t owners[32];
    uint32_t covers[33] = {0};
    mask_t seen = 0, *keep = SEEN(net);
    for (int q = 0; q < np; q++) {
        mask_t mask = (mask_t)classes[q];
        distinct = distinct && !(seen & mask);
        seen |= mask;
        owners[q] = 0;
        for (int i = 0; i < k; i++)
            if (dom[p->cells[i]] & mask)
                owners[q] |= (uint64_t)1 << i;
        for (int v = 0; v < 32; v++)
            if (mask >> v & 1)
                covers[v + 1] |= (uint32_t)1 << q;
    }
    for (int i = 0; i < k && distinct; i++)
        for (int j = 0; j < i; j++)
            if (p->cells[i] == p->cells[j])
                distinct = 0;
    uint32_t todo = np == 32 ? 0xffffffffu : ((uint32_t)1 << np) - 1;
    uint64_t every = k == 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1;
    if (!cover_matched(owners, todo, every, distinct))
        return 0;
    for (int i = 0; i < k; i++) {
        uint64_t free = every & ~((uint64_t)1 << i);
        uint32_t tried[4];
        int results[4], ntried = 0;
        keep[i] = 0;
        for (mask_t d = dom[p->cells[i]]; d; d &= d - 1) {
            mask_t low = d & (~d + 1u);
            uint32_t left = todo & ~covers[CTZ(low) + 1];
            int held = -1;
            for (int t = 0; t < ntried; t++)
                if (tried[t] == left)
                    held = results[t];
            if (held < 0) {
                held = cover_matched(owners, left, free, distinct);
                if (ntried < 4) {
                    tried[ntried] = left;
                    results[ntried++] = held;
                }
            }
            if (held)
                keep[i] |= low;
        }
    }
    if (!cn_commit(net, dom, p->cells, keep, k))
        return 0;
    if (!nnear)
        return 1;
    /* a class with one digit left among the cells needs it: it leaves the cells near the line
     * that see all its places */
    mask_t uni = 0;
    for (int i = 0; i < k; i++)
        uni |= dom[p->cells[i]];
    for (int q = 0; q < np; q++) {
        mask_t low = uni & (mask_t)classes[q];
        if (!low || (low & (low - 1)))
            continue;
        uint32_t places = 0;
        for (int i = 0; i < k; i++)
            if (dom[p->cells[i]] & low)
                places |= (uint32_t)1 << i;
        if (!(places & (places - 1)))
            continue;
        for (int j = 0; j < nnear; j += 2) {
            int c = near[j];
            if (!(places & ~(uint32_t)near[j + 1]) && (dom[c] & low) && !cn_narrow(net, dom, c, ~low))
                return 0;
        }
    }
    return 1;
}

int
cline_run(cnet_t *net, mask_t *dom, const cprop_t *p)
{
    switch (p->kind) {
    case CK_ALLOWED: return allowed(net, dom, p);
    case CK_RENBAN: return renban(net, dom, p);
    case CK_BETWEEN: return between(net, dom, p);
    case CK_SANDWICH: return sandwich(net, dom, p);
    case CK_XSUM: return xsum(net, dom, p);
    case CK_SKYSCRAPER: return skyscraper(net, dom, p);
    case CK_SUMLINE: return sum_line(net, dom, p);
    case CK_QUAD: return quad(net, dom, p);
    case CK_COVER: return cover(net, dom, p);
    case CK_LUNCHBOX: return lunchbox(net, dom, p);
    default: return 0;
    }
}
