/*
 * The constraint engine in C: the network read from its records, the fixed-point queue and
 * the dom/wdeg search (core/constraints.h).  The propagators are in constraints_props.c and
 * constraints_lines.c.
 */
#include <stdlib.h>

#include "constraints.h"

/* The most cells a propagator may have, and the most bits a set of sums may take. */
#define CN_MAX_LINE 4096
#define CN_MAX_BITS (1 << 22)

static int
check_params(int n, int ncells, const int32_t *hdr, const int32_t *cells, const int32_t *par, long long *bits,
             const char **why)
{
    int kind = hdr[0], k = hdr[1], np = hdr[2];
    long long total = np > 0 ? par[0] : 0, abs_sum = 0;
    *bits = 1;
    switch (kind) {
    case CK_ALLDIFF: case CK_CHAIN: case CK_ALLOWED:
        if (np != 1) { *why = "takes one parameter"; return -1; }
        return 0;
    case CK_INTERSECT:
        if (np != 2 || par[0] < 0 || par[1] < 0 || (long long)par[0] + par[1] > k) {
            *why = "an intersection takes [nshared, nfirst] within its cells";
            return -1;
        }
        return 0;
    case CK_RELATION:
        if (k != 2 || np != 2 * n) { *why = "a relation takes two cells and 2n tables"; return -1; }
        return 0;
    case CK_SUM:
        if (np < 2 + k || par[1] < 0 || par[1] > 3 || ((par[1] & 2) && np < 2 + 2 * k)) {
            *why = "a sum takes [total, flags, coeffs..., groups..., combos...]";
            return -1;
        }
        for (int i = 0, groups = 0; (par[1] & 2) && i < k; i++) { /* numbered from 0 in order */
            if (par[2 + k + i] < 0 || par[2 + k + i] > groups) { *why = "a sum's groups are out of order"; return -1; }
            if (par[2 + k + i] == groups)
                groups++;
        }
        for (int i = 0; i < k; i++) {
            if (par[2 + i] < -100000 || par[2 + i] > 100000) { *why = "a coefficient is too large"; return -1; }
            abs_sum += llabs((long long)par[2 + i]);
        }
        *bits = 2 * abs_sum * n + 1;
        (void)total;
        return 0;
    case CK_RENBAN: /* the cells near the line: [cell, mask of the line's places it sees] each */
        if (np % 2 || (np && k > 31)) { *why = "a renban takes [cell, places] pairs"; return -1; }
        for (int i = 0; i < np; i += 2)
            if (par[i] < 0 || par[i] >= ncells || par[i + 1] < 1 || (k < 31 && par[i + 1] >= 1 << k)) {
                *why = "a renban's near cell is out of range";
                return -1;
            }
        return 0;
    case CK_BETWEEN:
        if (np != 0 || k < 2) { *why = "wrong parameters or cells"; return -1; }
        return 0;
    case CK_SANDWICH: case CK_XSUM: case CK_LUNCHBOX:
        if (np != 1) { *why = "takes one parameter"; return -1; }
        *bits = 2LL * k * n + 1;
        return 0;
    case CK_SKYSCRAPER:
        if (np < 1 || np > 2 || (np == 2 && (par[1] < 0 || par[1] > 1))) {
            *why = "a skyscraper takes [count, floor 0 or 1]";
            return -1;
        }
        *bits = 2LL * k * n + 1;
        return 0;
    case CK_SUMLINE:
        if (np != 2 || total < 1 || total > CN_MAX_BITS) { *why = "a sum line takes [total >= 1, loop]"; return -1; }
        *bits = total + 1;
        return 0;
    case CK_QUAD:
        if (np % 2) { *why = "a quad takes pairs [digit mask, count]"; return -1; }
        for (int i = 0; i < np; i += 2)
            if (par[i] <= 0 || (par[i] & (par[i] - 1)) || par[i] >= (1 << n)) {
                *why = "a quad's digit mask is not one digit";
                return -1;
            }
        return 0;
    case CK_COVER: /* [nclasses, classes..., then cell, mask of places near it pairs] */
        if (np < 1 || par[0] < 0 || par[0] > 32 || k > 64 || (np - 1 - par[0]) < 0 || (np - 1 - par[0]) % 2
            || (np - 1 - par[0] && k > 31)) {
            *why = "a cover takes [nclasses <= 32, classes..., cell, places...] on 64 cells at most";
            return -1;
        }
        for (int i = 1 + par[0]; i < np; i += 2)
            if (par[i] < 0 || par[i] >= ncells || par[i + 1] < 1 || (k < 31 && par[i + 1] >= 1 << k)) {
                *why = "a cover's near cell is out of range";
                return -1;
            }
        return 0;
    default:
        *why = "unknown kind";
        return -1;
    }
}

/* Count the records and check them; the pool size and the scratch sizes. */
static int
scan(cnet_t *net, const int32_t *rec, size_t nrec, size_t *pool, const char **why)
{
    size_t at = 0;
    long long maxbits = 1;
    net->nprops = 0;
    net->maxline = 1;
    *pool = 0;
    while (at < nrec) {
        if (nrec - at < 3) { *why = "a record is cut short"; return -1; }
        const int32_t *hdr = rec + at;
        if (hdr[1] < 0 || hdr[1] > CN_MAX_LINE || hdr[2] < 0 || (size_t)hdr[1] + (size_t)hdr[2] > nrec - at - 3) {
            *why = "a record's lengths are out of range";
            return -1;
        }
        const int32_t *cells = hdr + 3, *par = cells + hdr[1];
        for (int i = 0; i < hdr[1]; i++)
            if (cells[i] < 0 || cells[i] >= net->ncells) { *why = "a cell is outside the grid"; return -1; }
        long long bits;
        if (check_params(net->n, net->ncells, hdr, cells, par, &bits, why) < 0)
            return -1;
        if (bits > CN_MAX_BITS) { *why = "a sum is too large"; return -1; }
        if (bits > maxbits)
            maxbits = bits;
        if (hdr[1] > net->maxline)
            net->maxline = hdr[1];
        *pool += (size_t)hdr[1] + (size_t)hdr[2];
        net->nprops++;
        at += 3 + (size_t)hdr[1] + (size_t)hdr[2];
    }
    net->words = (int)((maxbits + 63) / 64);
    return 0;
}

static int
build_watch(cnet_t *net)
{
    int nc = net->ncells;
    /* each propagator watches each of its cells once (the Python engine's set(prop.cells)) */
    int32_t *last = malloc(sizeof(int32_t) * (size_t)(nc ? nc : 1));
    net->watch_start = calloc((size_t)nc + 1, sizeof(int32_t));
    if (!last || !net->watch_start) { free(last); return -2; }
    for (int c = 0; c < nc; c++)
        last[c] = -1;
    size_t total = 0;
    for (int i = 0; i < net->nprops; i++)
        for (int k = 0; k < net->props[i].ncells; k++) {
            int c = net->props[i].cells[k];
            if (last[c] != i) { last[c] = i; net->watch_start[c + 1]++; total++; }
        }
    for (int c = 0; c < nc; c++)
        net->watch_start[c + 1] += net->watch_start[c];
    net->watch = malloc(sizeof(int32_t) * (total ? total : 1));
    if (!net->watch) { free(last); return -2; }
    int32_t *fill = last;
    for (int c = 0; c < nc; c++)
        fill[c] = net->watch_start[c];
    int32_t *seen = calloc((size_t)(nc ? nc : 1), sizeof(int32_t));
    if (!seen) { free(last); return -2; }
    for (int i = 0; i < net->nprops; i++)
        for (int k = 0; k < net->props[i].ncells; k++) {
            int c = net->props[i].cells[k];
            if (seen[c] != i + 1) { seen[c] = i + 1; net->watch[fill[c]++] = i; }
        }
    free(seen);
    free(last);
    return 0;
}

int
cnet_init(cnet_t *net, int n, int ncells, const int32_t *rec, size_t nrec, const char **why)
{
    size_t pool;
    memset(net, 0, sizeof(*net));
    net->n = n;
    net->ncells = ncells;
    net->full = (mask_t)((1u << n) - 1u);
    if (scan(net, rec, nrec, &pool, why) < 0)
        return -1;
    int L = net->maxline, W = net->words, P = net->nprops ? net->nprops : 1;
    net->props = malloc(sizeof(cprop_t) * (size_t)P);
    net->pool = malloc(sizeof(int32_t) * (pool ? pool : 1));
    net->queue = malloc(sizeof(int32_t) * (size_t)P);
    net->queued = calloc((size_t)P, 1);
    net->weight = malloc(sizeof(uint64_t) * (size_t)(ncells ? ncells : 1));
    net->u64 = malloc(sizeof(uint64_t) * (size_t)(L + 4) * (size_t)W);
    net->u32 = malloc(sizeof(uint32_t) * ((size_t)8 * L + (size_t)(L + 1) * (L + 2)));
    if (!net->props || !net->pool || !net->queue || !net->queued || !net->weight || !net->u64 || !net->u32) {
        cnet_free(net);
        return -2;
    }
    size_t at = 0, put = 0;
    for (int i = 0; i < net->nprops; i++) {
        const int32_t *hdr = rec + at;
        size_t len = (size_t)hdr[1] + (size_t)hdr[2];
        memcpy(net->pool + put, hdr + 3, sizeof(int32_t) * len);
        net->props[i] = (cprop_t){hdr[0], hdr[1], hdr[2], net->pool + put, net->pool + put + hdr[1]};
        put += len;
        at += 3 + len;
    }
    if (build_watch(net) < 0) {
        cnet_free(net);
        return -2;
    }
    /* a cell starts weighing one, and one more for each rule on it: each propagator but a
     * house (an all-different group of n cells), a pair of linked cells and an intersection */
    for (int c = 0; c < ncells; c++) {
        net->weight[c] = 1;
        for (int w = net->watch_start[c]; w < net->watch_start[c + 1]; w++) {
            const cprop_t *p = &net->props[net->watch[w]];
            net->weight[c] += p->kind != CK_INTERSECT
                && !(p->kind == CK_ALLDIFF && (p->params[0] || p->ncells == 2));
        }
    }
    return 0;
}

void
cnet_free(cnet_t *net)
{
    free(net->props);
    free(net->pool);
    free(net->watch_start);
    free(net->watch);
    free(net->queue);
    free(net->queued);
    free(net->weight);
    free(net->u64);
    free(net->u32);
    memset(net, 0, sizeof(*net));
}

int
cnet_propagate(cnet_t *net, mask_t *dom, int seed)
{
    net->qhead = net->qlen = 0;
    if (seed < 0) {
        for (int i = 0; i < net->nprops; i++) {
            net->queued[i] = 1;
            net->queue[i] = i;
        }
        net->qlen = net->nprops;
    } else {
        cnet_touch(net, seed);
    }
    while (net->qlen) {
        int i = net->queue[net->qhead];
        net->qhead = net->qhead + 1 == net->nprops ? 0 : net->qhead + 1;
        net->qlen--;
        net->queued[i] = 0;
        const cprop_t *p = &net->props[i];
        if (!cprop_run(net, dom, p)) {
            for (; net->qlen; net->qlen--) {
                net->queued[net->queue[net->qhead]] = 0;
                net->qhead = net->qhead + 1 == net->nprops ? 0 : net->qhead + 1;
            }
            for (int k = 0; k < p->ncells; k++)
                net->weight[p->cells[k]]++;
            return 0;
        }
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* The search                                                               */
/* ------------------------------------------------------------------------ */

int
csearch_init(csearch_t *s, cnet_t *net, const mask_t *init)
{
    memset(s, 0, sizeof(*s));
    s->net = *net;
    size_t nc = (size_t)net->ncells ? (size_t)net->ncells : 1;
    s->init = malloc(sizeof(mask_t) * nc);
    s->dom = malloc(sizeof(mask_t) * nc);
    s->snap = malloc(sizeof(mask_t) * nc * (nc + 1));
    s->fcell = malloc(sizeof(int32_t) * (nc + 1));
    s->fdigit = malloc(sizeof(mask_t) * (nc + 1));
    s->fout = malloc(nc + 1);
    s->houses = malloc(sizeof(int32_t) * (size_t)(net->nprops ? net->nprops : 1));
    if (!s->init || !s->dom || !s->snap || !s->fcell || !s->fdigit || !s->fout || !s->houses) {
        csearch_free(s);
        return -1;
    }
    for (int i = 0; i < net->nprops; i++) /* the all-different groups of n cells */
        if (net->props[i].kind == CK_ALLDIFF && net->props[i].params[0])
            s->houses[s->nhouses++] = i;
    memcpy(s->init, init, sizeof(mask_t) * (size_t)net->ncells);
    return 0;
}

void
csearch_free(csearch_t *s)
{
    cnet_free(&s->net);
    free(s->init);
    free(s->dom);
    free(s->snap);
    free(s->fcell);
    free(s->fdigit);
    free(s->fout);
    free(s->houses);
    memset(s, 0, sizeof(*s));
}

/* The open cell with the fewest digits for its weight (dom/wdeg), or -1 when none is open:
 * the Python engine's float comparison, first cell on a tie. */
static int
pick(const cnet_t *net, const mask_t *dom)
{
    int best = -1;
    double score = 1e30;
    for (int c = 0; c < net->ncells; c++) {
        mask_t d = dom[c];
        if (d & (d - 1)) {
            double k = (double)POPCOUNT(d) / (double)net->weight[c];
            if (k < score) {
                best = c;
                score = k;
            }
        }
    }
    return best;
}

/* The digit to try in the chosen cell, which may move the choice to another cell: a digit
 * with two places left in a house (in the order of the houses, lowest digit first) whose
 * heavier place weighs more for its two options than the cell for its digits; that place
 * then, else the cell's lowest digit. */
static mask_t
pick_digit(const csearch_t *s, int *cell)
{
    const cnet_t *net = &s->net;
    const mask_t *dom = s->dom;
    mask_t d = dom[*cell], digit = d & (~d + 1u);
    int count = POPCOUNT(d);
    if (count <= 2)
        return digit;
    double best = (double)net->weight[*cell] / (double)count;
    for (int h = 0; h < s->nhouses; h++) {
        const cprop_t *p = &net->props[s->houses[h]];
        mask_t once = 0, twice = 0, more = 0;
        for (int k = 0; k < p->ncells; k++) {
            mask_t v = dom[p->cells[k]];
            more |= twice & v;
            twice |= once & v;
            once |= v;
        }
        for (mask_t two = twice & ~more; two; two &= two - 1) {
            mask_t v = two & (~two + 1u);
            int a = -1, b = -1;
            for (int k = 0; k < p->ncells && b < 0; k++)
                if (dom[p->cells[k]] & v) {
                    if (a < 0)
                        a = p->cells[k];
                    else
                        b = p->cells[k];
                }
            int c = net->weight[b] > net->weight[a] ? b : a;
            double score = (double)net->weight[c] / 2.0;
            if (score > best) {
                best = score;
                *cell = c;
                digit = v;
            }
        }
    }
    return digit;
}

static void
write_grid(const csearch_t *s, uint8_t *out)
{
    if (out)
        for (int c = 0; c < s->net.ncells; c++)
            out[c] = (uint8_t)(CTZ(s->dom[c]) + 1);
}

/* After a propagation that held: a full grid (RUN_SOLUTION), or a new frame on the chosen
 * cell (0). */
static int
branch(csearch_t *s, uint8_t *out)
{
    int cell = pick(&s->net, s->dom);
    if (cell < 0) {
        write_grid(s, out);
        return RUN_SOLUTION;
    }
    int nc = s->net.ncells;
    s->guesses++;
    memcpy(s->snap + (size_t)s->depth * nc, s->dom, sizeof(mask_t) * (size_t)nc);
    s->fdigit[s->depth] = pick_digit(s, &cell);
    s->fcell[s->depth] = cell;
    s->fout[s->depth] = 0;
    s->depth++;
    return 0;
}

int
csearch_next(csearch_t *s, uint8_t *out, budget_t *b)
{
    int nc = s->net.ncells;
    if (s->finished)
        return RUN_EXHAUSTED;
    if (!s->started) {
        s->started = 1;
        memcpy(s->dom, s->init, sizeof(mask_t) * (size_t)nc);
        if (!cnet_propagate(&s->net, s->dom, -1)) {
            s->finished = 1;
            return RUN_EXHAUSTED;
        }
        for (int c = 0; c < nc; c++)
            if ((s->init[c] & (s->init[c] - 1)) && !(s->dom[c] & (s->dom[c] - 1)))
                s->settled++;
        if (branch(s, out) == RUN_SOLUTION) {
            s->finished = 1;
            return RUN_SOLUTION;
        }
    }
    while (s->depth > 0) {
        int top = s->depth - 1;
        s->nodes++;
        if (budget_spent(b, s->nodes)) {
            if (b->interrupted)
                s->nodes--;
            return RUN_BUDGET;
        }
        int cell = s->fcell[top];
        mask_t digit = s->fdigit[top];
        memcpy(s->dom, s->snap + (size_t)top * nc, sizeof(mask_t) * (size_t)nc);
        if (!s->fout[top]) { /* first the digit in its cell, then (on the way back) out of it */
            s->fout[top] = 1;
            s->dom[cell] = digit;
        } else {
            s->depth--; /* the frame is done: what follows chooses afresh */
            s->dom[cell] &= ~digit;
        }
        if (!cnet_propagate(&s->net, s->dom, cell)) {
            s->net.weight[cell]++; /* the branch failed: its cell weighs more too */
            continue;
        }
        if (branch(s, out) == RUN_SOLUTION)
            return RUN_SOLUTION;
    }
    s->finished = 1;
    return RUN_EXHAUSTED;
}
