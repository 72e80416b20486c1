/*
 * The constraint engine of solver "constraints" in C: the twin of the pure-Python engine
 * (shudu/solvers/constraints.py, with the propagators of _propagators_py.py and
 * _conditions_py.py as the specification).  Plain C, no Python: _core_constraints.c wraps it.
 *
 * A network is read from a flat array of int32 records, one a propagator, in the order the
 * Python engine builds them (shudu.solvers.constraints.encode_network writes it):
 *
 *     kind, ncells, nparams, cells[ncells], params[nparams]
 *
 * with the kinds and their parameters of the CK_* enum below.  Domains are bit masks (bit k
 * for digit k + 1).  The search is the Python one step for step: the same fixed-point queue
 * (first in, first out; a propagator's changed cells queue their watchers as it changes
 * them), the same dom/wdeg choice (fewest digits for the cell's failure weight, compared as
 * doubles, first cell on a tie), lowest digit first, so the same solutions in the same order
 * and the same counters.
 */
#ifndef SHUDU_CORE_CONSTRAINTS_H
#define SHUDU_CORE_CONSTRAINTS_H

#include "common.h"

/* The propagator kinds and their params:
 *   ALLDIFF     [house]                        (house: the cells are a whole house)
 *   INTERSECT   [nshared, nfirst]              cells: shared, first's rest, second's rest
 *   RELATION    [fwd[n], rev[n]]               cells: a, b
 *   SUM         [total, flags, coeffs[ncells], groups[ncells]?, combos...]
 *               (flags bit 0: combos listed; bit 1: groups listed, each place's group of
 *               cells sharing a house, numbered from 0 in order of first place)
 *   CHAIN       [step]                         (1: strictly rising)
 *   ALLOWED     [mask]
 *   RENBAN      [cell, places, ...]  (cells off the line that see two or more of its cells,
 *                                     each with the mask of the line's places it sees)
 *   BETWEEN     []
 *   SANDWICH    [total]
 *   XSUM        [total]
 *   SKYSCRAPER  [count, floor?]                (floor: the tallest it starts from, 0 or 1)
 *   SUMLINE     [total, loop]
 *   QUAD        [mask, count, mask, count, ...]   (in the order of the Python dict)
 *   COVER       [nclasses, mask..., cell, places, ...]  (the classes, then near cells as
 *                                     RENBAN's)
 *   LUNCHBOX    [total]                                                                */
/* A renban line of this many cells or fewer keeps only the digits of assignments of distinct
 * digits that fill a run (the Python engine's RENBAN_MATCHED). */
#define RENBAN_MATCHED 4

enum {
    CK_ALLDIFF = 0, CK_INTERSECT, CK_RELATION, CK_SUM, CK_CHAIN, CK_ALLOWED, CK_RENBAN,
    CK_BETWEEN, CK_SANDWICH, CK_XSUM, CK_SKYSCRAPER, CK_SUMLINE, CK_QUAD, CK_COVER,
    CK_LUNCHBOX, CK_NKINDS
};

typedef struct {
    int kind, ncells, nparams;
    const int32_t *cells;   /* into cnet_t.pool */
    const int32_t *params;
} cprop_t;

/* A network and everything one propagation needs (owned; one search uses it at a time). */
typedef struct {
    int n, ncells, nprops;
    mask_t full;
    cprop_t *props;
    int32_t *pool;          /* the records' cells and params */
    int32_t *watch_start;   /* ncells + 1 offsets into watch */
    int32_t *watch;         /* the propagators of each cell, in order */
    int32_t *queue;         /* a ring of nprops */
    uint8_t *queued;
    int qhead, qlen;
    uint64_t *weight;       /* per cell: failures of its propagators, plus one */
    int words;              /* 64-bit words of the largest set of sums or states */
    int maxline;            /* cells of the longest propagator */
    uint64_t *u64;          /* scratch: (maxline + 4) * words */
    uint32_t *u32;          /* scratch: 8 * maxline + (maxline + 1) * (maxline + 2) */
} cnet_t;

/* Read a network of ncells cells of size n from its records; 0 on success, -1 with *why
 * set when the records are malformed, -2 when out of memory. */
int cnet_init(cnet_t *net, int n, int ncells, const int32_t *rec, size_t nrec, const char **why);
void cnet_free(cnet_t *net);

/* Propagate dom to a fixed point: every propagator first (seed < 0), or those of cell seed.
 * 0 when one finds its constraint broken (the weights of its cells then grow). */
int cnet_propagate(cnet_t *net, mask_t *dom, int seed);

/* One propagator's run (core/constraints_props.c): 0 when its constraint cannot hold.  The
 * line conditions' runs are in core/constraints_lines.c. */
int cprop_run(cnet_t *net, mask_t *dom, const cprop_t *p);
int cline_run(cnet_t *net, mask_t *dom, const cprop_t *p);

/* Narrow cell c to keep (touching it when it changes): 0 when nothing is left.  cn_commit
 * narrows cells[i] to keep[i] in order (the Python engine's _commit). */
int cn_narrow(cnet_t *net, mask_t *dom, int c, mask_t keep);
int cn_commit(cnet_t *net, mask_t *dom, const int32_t *cells, const mask_t *keep, int k);

/* The digits of each of k domains that take part in an assignment with sum(coeff * digit)
 * == total (coeffs NULL: all 1), written to out; 0 when there is none (sum_filter of the
 * Python engine, on sets of partial sums in net->u64). */
int cn_sum_filter(cnet_t *net, const mask_t *doms, const int32_t *coeffs, int k, long total, mask_t *out);

/* The number of bits up to the highest set one (Python's int.bit_length). */
static inline int
cn_bitlen(mask_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return x ? 32 - __builtin_clz(x) : 0;
#else
    int b = 0;
    while (x) { b++; x >>= 1; }
    return b;
#endif
}

/* A resumable search over a network. */
typedef struct {
    cnet_t net;
    mask_t *init;     /* the domains it starts from */
    mask_t *dom;      /* the working domains */
    mask_t *snap;     /* a frame's domains, (ncells + 1) frames */
    int32_t *fcell;   /* the frame's cell */
    mask_t *fdigit;   /* the digit the frame tries in its cell, then takes out of it */
    uint8_t *fout;    /* whether the frame's digit is now taken out (its second branch) */
    int32_t *houses;  /* the propagators that are houses (all-different groups of n cells) */
    int nhouses;
    int depth, started, finished;
    uint64_t nodes, guesses, settled;
} csearch_t;

/* Take over net (on success or failure) and start from domains init; -1 when out of memory. */
int csearch_init(csearch_t *s, cnet_t *net, const mask_t *init);
void csearch_free(csearch_t *s);
/* Run to the next full grid (its digits written to out, ncells of them) or the end:
 * RUN_SOLUTION, RUN_EXHAUSTED or RUN_BUDGET (b->interrupted: a poll asked to stop; the
 * search can be run again).  A node is counted before the budget is checked, as the Python
 * engine counts it. */
int csearch_next(csearch_t *s, uint8_t *out, budget_t *b);

/* Touch a cell: queue its propagators that are not queued. */
static inline void
cnet_touch(cnet_t *net, int cell)
{
    const int32_t *w = net->watch + net->watch_start[cell], *end = net->watch + net->watch_start[cell + 1];
    uint8_t *queued = net->queued;
    int tail = net->qhead + net->qlen;
    if (tail >= net->nprops)
        tail -= net->nprops;
    for (; w < end; w++) {
        int j = *w;
        if (!queued[j]) {
            queued[j] = 1;
            net->queue[tail] = j;
            net->qlen++;
            if (++tail == net->nprops)
                tail = 0;
        }
    }
}

#endif
