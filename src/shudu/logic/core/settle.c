/*
 * The forcing nets' propagation in C: shudu.logic.engine.propagate.settle and the rules of
 * shudu.logic.techniques.netrules, step for step.  Python stays the specification (and the fallback):
 * every loop here walks cells, houses, digits and overlaps in the order the Python code does,
 * so the first step a rule finds, the count of deductions and the grid left behind are the same.
 *
 * Cell sets are two 64-bit words (up to 128 cells: every 9x9 geometry), house sets one word
 * (up to 64 houses), digit sets 32 bits (up to 16 digits).  The tables of a geometry are built
 * once (settle_tables.c) and kept by the caller in a capsule.  The rounds of singles the ratings
 * play live in singles.c, the patterns of locked candidates and subsets in patterns.c.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../solvers/core/common.h"
#include "settle.h"
#include "settle_tables.h"
#include "settle_place.h"

/* ------------------------------------------------------------------------ */
/* The state of one settle call                                             */
/* ------------------------------------------------------------------------ */



/* Pointing (kind 0) or claiming (kind 1): the first step of the finder. */
static int rule_locked(settle_state_t *s, int kind)
{
    const tables_t *t = s->t;
    for (int g = 0; g < t->ngroups[kind]; g++) {
        const group_t *grp = &t->groups[kind][g];
        int best_i = -1, best_d = 0;
        cset best_out = {0, 0};
        for (int d = 0; d < t->n; d++) {
            cset w = s->where[d];
            cset inside = cs_and(w, grp->abits);
            if (!cs_many(inside)) continue;
            for (int k = grp->first; k < grp->end; k++) {
                const overlap_t *o = &t->ov[k];
                if (cs_any(cs_and(inside, o->outside))) continue;
                cset out = cs_and(w, o->rest);
                if (cs_any(out) && (best_i < 0 || o->index < best_i)) {
                    best_i = o->index;
                    best_d = d;
                    best_out = out;
                }
            }
        }
        if (best_i >= 0) {
            s->elim[best_d] = best_out;
            return 1;
        }
    }
    return 0;
}

static int rule_naked_pair(settle_state_t *s)
{
    const tables_t *t = s->t;
    cset ones = {0, 0}, twos = {0, 0}, more = {0, 0};
    for (int d = 0; d < t->n; d++) {
        cset plane = s->where[d];
        more = cs_or(more, cs_and(twos, plane));
        twos = cs_or(twos, cs_and(ones, plane));
        ones = cs_or(ones, plane);
    }
    cset small_cells = cs_andnot(s->empty, more);
    for (int h = 0; h < t->nhouses; h++) {
        cset small_here = cs_and(t->house[h], small_cells);
        if (!cs_many(small_here) || cs_at_most2(cs_and(t->house[h], s->empty))) continue;
        int small[S_MAX_CELLS], ns = 0;
        CS_FOR(c, small_here, { small[ns++] = c; });
        for (int i = 0; i < ns; i++) {
            int a = small[i];
            for (int j = i + 1; j < ns; j++) {
                int b = small[j];
                uint32_t uni = s->cands[a] | s->cands[b];
                if (!two_bits(uni) || cs_has(t->locked[a], b)) continue;
                cset inside = cs_or(cs_bit(a), cs_bit(b));
                int any = 0;
                for (uint32_t u = uni; u; u &= u - 1) {
                    int d = ctz64(u);
                    cset seen = cs_andnot(s->where[d], inside);
                    if (s->cands[a] >> d & 1) seen = cs_and(seen, t->peer[a]);
                    if (s->cands[b] >> d & 1) seen = cs_and(seen, t->peer[b]);
                    s->elim[d] = seen;
                    any |= cs_any(seen);
                }
                if (any) return 1;
                for (uint32_t u = uni; u; u &= u - 1) s->elim[ctz64(u)] = (cset){0, 0};
            }
        }
    }
    return 0;
}

static int rule_hidden_pair(settle_state_t *s)
{
    const tables_t *t = s->t;
    for (int h = 0; h < t->nhouses; h++) {
        cset hbits = t->house[h];
        if (cs_at_most2(cs_and(hbits, s->empty))) continue;
        int fd[S_MAX_DIGITS], nf = 0;
        cset fs[S_MAX_DIGITS];
        for (int d = 0; d < t->n; d++) {
            cset spots = cs_and(s->where[d], hbits);
            if (cs_any(spots) && cs_at_most2(spots)) {
                fd[nf] = d;
                fs[nf++] = spots;
            }
        }
        if (nf < 2) continue;
        for (int i = 0; i < nf; i++)
            for (int j = i + 1; j < nf; j++) {
                cset uni = cs_or(fs[i], fs[j]);
                if (!cs_two(uni)) continue;
                uint32_t keep = ~(((uint32_t)1 << fd[i]) | ((uint32_t)1 << fd[j]));
                int any = 0;
                CS_FOR(c, uni, {
                    for (uint32_t e = s->cands[c] & keep; e; e &= e - 1) {
                        int d = ctz64(e);
                        s->elim[d] = cs_or(s->elim[d], cs_bit(c));
                        any = 1;
                    }
                });
                if (any) return 1;
            }
    }
    return 0;
}

/* A forcing-net contradiction inside (forcing.forcing_net_inside): the first candidate, cells
 * with fewest candidates first, then by index, digits ascending, whose assumption followed with
 * singles and the net's rules breaks the grid goes.  Each assumption is one unit of s->nest's
 * budget; once that is spent, the rule stops and says so. */
static int rule_inner(settle_state_t *s)
{
    const tables_t *t = s->t;
    settle_nest_t *nest = s->nest;
    for (int k = 0; k <= t->n; k++)
        CS_FOR(c, s->empty, {
            if (pop64(s->cands[c]) != k) continue;
            for (uint32_t m = s->cands[c]; m; m &= m - 1) {
                if (nest->spent || budget_spent(&nest->budget, nest->settles)) {
                    nest->spent = 1;
                    return 0;
                }
                nest->settles++;
                int d = ctz64(m);
                settle_state_t trial = *s;
                long steps;
                if (shudu_run_settle(&trial, c, d + 1, 1, 0, 4, &steps) == S_BROKEN) {
                    s->elim[d] = cs_bit(c);
                    s->inner++;
                    return 1;
                }
            }
        });
    return 0;
}

void shudu_settle_place(settle_state_t *s, int cell, int digit) { settle_place(s, cell, digit); }

int shudu_settle_rule(settle_state_t *s, int r)
{
    memset(s->elim, 0, sizeof s->elim);
    switch (r) {
    case 0: return rule_locked(s, 0);
    case 1: return rule_locked(s, 1);
    case 2: return rule_naked_pair(s);
    case 3: return rule_hidden_pair(s);
    default: return rule_inner(s);
    }
}

int shudu_first_contradiction(settle_state_t *s, int *cell, int *digit)
{
    for (int d = 0; d < s->t->n; d++) s->elim[d] = (cset){0, 0};
    if (!rule_inner(s)) return 0;
    for (int d = 0; d < s->t->n; d++)
        if (cs_any(s->elim[d])) {
            *cell = cs_low(s->elim[d]);
            *digit = d + 1;
            return 1;
        }
    return 0;
}

/* Mark what the first look reads: nothing (quiet: only what the assumption touches) or every
 * open cell and every house. */
static void mark_dirty(settle_state_t *s, int quiet)
{
    const tables_t *t = s->t;
    int nh = t->nhouses;
    uint32_t full = (uint32_t)((1u << t->n) - 1);
    if (quiet) {
        s->dcells = (cset){0, 0};
        s->hdirty = 0;
        memset(s->dh, 0, sizeof s->dh);
    } else {
        s->dcells = s->empty;
        s->hdirty = nh == 64 ? ~(uint64_t)0 : ((uint64_t)1 << nh) - 1;
        for (int h = 0; h < nh; h++) s->dh[h] = full;
    }
}

/* The singles of the cells and houses marked since the last look (naked, then hidden), into
 * fcell/fdgt with fdig[cell] the digit found: their count, or -1 when a cell has no candidate
 * or a digit no place in a house; *clash set when a cell gets two digits. */
static inline int find_singles(settle_state_t *s, uint8_t *fdig, uint8_t *fcell, uint8_t *fdgt,
                               int *clash)
{
    const tables_t *t = s->t;
    int nfound = 0;
    while (cs_any(s->dcells)) {
        int cell = cs_low(s->dcells);
        cs_clear(&s->dcells, cell);
        if (!cs_has(s->empty, cell)) continue;
        uint32_t mask = s->cands[cell];
        if (!mask) return -1;
        if (!(mask & (mask - 1))) {
            fdig[cell] = fdgt[nfound] = (uint8_t)(ctz64(mask) + 1);
            fcell[nfound++] = (uint8_t)cell;
        }
    }
    while (s->hdirty) {
        int h = ctz64(s->hdirty);
        s->hdirty &= s->hdirty - 1;
        cset hbits = t->house[h];
        uint32_t ds = s->dh[h] & ~s->placed[h];
        s->dh[h] = 0;
        for (; ds; ds &= ds - 1) {
            int d = ctz64(ds);
            cset spots = cs_and(s->where[d], hbits);
            if (!cs_any(spots)) return -1;
            if (!cs_many(spots)) {
                int cell = cs_low(spots);
                if (!fdig[cell]) {
                    fdig[cell] = fdgt[nfound] = (uint8_t)(d + 1);
                    fcell[nfound++] = (uint8_t)cell;
                } else if (fdig[cell] != d + 1) {
                    *clash = 1;
                }
            }
        }
    }
    return nfound;
}

/* A rule's eliminations (s->elim) carried out, with the cells and houses they touch marked. */
static inline void eliminate(settle_state_t *s)
{
    const tables_t *t = s->t;
    for (int d = 0; d < t->n; d++) {
        uint32_t dbit = (uint32_t)1 << d;
        CS_FOR(cell, s->elim[d], {
            if (s->cands[cell] & dbit) {
                s->cands[cell] &= ~dbit;
                cs_clear(&s->where[d], cell);
                s->dcells = cs_or(s->dcells, cs_bit(cell));
                for (int j = 0; j < t->nch[cell]; j++) s->dh[t->ch[cell][j]] |= dbit;
                s->hdirty |= t->hmask[cell];
            }
        });
    }
}

/* The loop of propagate.settle; *steps gets the count. */
int shudu_run_settle(settle_state_t *s, int start_cell, int start_digit, int quiet, long limit,
                      int nrules, long *steps)
{
    mark_dirty(s, quiet);
    if (start_cell >= 0) settle_place(s, start_cell, start_digit);
    long count = 0;
    uint8_t fdig[S_MAX_CELLS];
    uint8_t fcell[S_MAX_CELLS], fdgt[S_MAX_CELLS];
    memset(fdig, 0, sizeof fdig);
    for (;;) {
        int clash = 0;
        int nfound = find_singles(s, fdig, fcell, fdgt, &clash);
        if (nfound < 0) goto broken;
        if (clash) {
            count += nfound;
            goto broken;
        }
        if (nfound) {
            count += nfound;
            for (int i = 0; i < nfound; i++) fdig[fcell[i]] = 0;
            for (int i = 0; i < nfound; i++) {
                int cell = fcell[i], digit = fdgt[i];
                if (!(s->cands[cell] >> (digit - 1) & 1)) goto broken; /* two singles clash */
                settle_place(s, cell, digit);
            }
            if (limit && count >= limit) {
                *steps = -1;
                return S_STOPPED;
            }
            continue;
        }
        int hit = 0;
        for (int r = 0; r < nrules && !hit; r++) hit = shudu_settle_rule(s, r);
        if (!hit && nrules > 4 && s->nest->spent) {
            *steps = -1;
            return S_STOPPED;
        }
        if (!hit) {
            *steps = count;
            return S_SETTLED;
        }
        eliminate(s);
        count += 1;
        if (limit && count >= limit) {
            *steps = -1;
            return S_STOPPED;
        }
    }
broken:
    *steps = count;
    return S_BROKEN;
}

/* ------------------------------------------------------------------------ */
/* The Python entry point                                                   */
/* ------------------------------------------------------------------------ */

PyObject *shudu_settle(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 11, "settle");
    if (!t) return NULL;
    int nc = t->ncells, n = t->n;
    long start_cell = PyLong_AsLong(args[6]), start_digit = PyLong_AsLong(args[7]);
    int quiet = PyObject_IsTrue(args[8]);
    long limit = PyLong_AsLong(args[9]), nrules = PyLong_AsLong(args[10]);
    if (PyErr_Occurred() || quiet < 0) return NULL;
    if (start_cell >= nc || (start_cell >= 0 && (start_digit < 1 || start_digit > n)) ||
        nrules < 0 || nrules > 4 || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "settle: start, limit or rules out of range");
        return NULL;
    }
    settle_state_t s;
    saved_t saved;
    if (shudu_load_grid(&s, t, args + 1, &saved)) return NULL;
    long steps = 0;
    int code = shudu_run_settle(&s, (int)start_cell, (int)start_digit, quiet, limit, (int)nrules, &steps);
    PyObject *empty = shudu_store_grid(&s, args + 1, &saved);
    if (!empty) return NULL;
    return Py_BuildValue("(ilN)", code, steps, empty);
}
