/*
 * The lines of a forcing step (shudu.logic.engine.implications.Trace, the specification) in C.
 *
 * An assumption is followed in rounds: every single of the grid as it stands is found before
 * any is placed (of a placement's reasons the one needing the fewest lines is kept), then a
 * line for each candidate the round's placements remove; where no single is left, the first
 * rule with eliminations (the forcing nets' rules of settle.c) removes them, citing the lines
 * that made its pattern.  Every line keeps its causes and the set of lines it needs; of the
 * contradictions a round meets, the one needing the fewest lines is kept.  The lines, their
 * order, causes and rules are those of the Python class, so a branch reads and rates the same
 * whichever ran.
 *
 * trace_result.c writes the lines out.  Nothing here calls back into Python; the fifth rule's inner searches count their settles
 * against the limits the caller gives, as forcing.forcing_net_inside does.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../solvers/core/common.h"
#include "settle_tables.h"
#include "trace.h"
#include "trace_lines.h"

static int grow_pool(trace_t *tr, size_t more)
{
    if (tr->npool + more <= tr->pool_cap) return 0;
    size_t cap = tr->pool_cap * 2 + more;
    int *p = (int *)realloc(tr->pool, cap * sizeof(int));
    if (!p) return -1;
    tr->pool = p;
    tr->pool_cap = cap;
    return 0;
}

/* How many lines these causes need, themselves included (Trace._size). */
static int size_of(trace_t *tr, const int *causes, int k)
{
    int w = tr->words;
    uint64_t *acc = tr->scratch;
    memset(acc, 0, sizeof(uint64_t) * (size_t)w);
    for (int i = 0; i < k; i++) {
        const uint64_t *row = tr->needs + (size_t)causes[i] * (size_t)w;
        for (int j = 0; j < w; j++) acc[j] |= row[j];
    }
    int count = 0;
    for (int j = 0; j < w; j++) count += pop64(acc[j]);
    return count;
}

/* Trace._add: a new line, its causes sorted and distinct; its index, -1 out of memory. */
static int add_line(trace_t *tr, int cell, int digit, int on, int kind, int rule, int house,
                    cset cells, const int *because, int k)
{
    if (tr->nlines >= tr->cap || grow_pool(tr, (size_t)k)) return -1;
    int *out = tr->pool + tr->npool;
    int count = 0;
    for (int i = 0; i < k; i++) {
        int v = because[i], j = count;
        while (j > 0 && out[j - 1] > v) j--;
        if (j > 0 && out[j - 1] == v) continue;
        memmove(out + j + 1, out + j, sizeof(int) * (size_t)(count - j));
        out[j] = v;
        count++;
    }
    int index = tr->nlines++;
    line_t *line = &tr->lines[index];
    line->cell = cell;
    line->digit = digit;
    line->on = on;
    line->kind = kind;
    line->rule = rule;
    line->house = house;
    line->cells = cells;
    line->first = tr->npool;
    line->count = count;
    tr->npool += (size_t)count;
    int w = tr->words;
    uint64_t *row = tr->needs + (size_t)index * (size_t)w;
    memset(row, 0, sizeof(uint64_t) * (size_t)w);
    row[index >> 6] |= (uint64_t)1 << (index & 63);
    for (int i = 0; i < count; i++) {
        const uint64_t *other = tr->needs + (size_t)out[i] * (size_t)w;
        for (int j = 0; j < w; j++) row[j] |= other[j];
    }
    return index;
}

/* The lines that removed these candidates of the grid before (Trace._causes). */
static int push_gone(const trace_t *tr, int cell, int d, int *out, int k)
{
    int g = tr->gone[cell * tr->n + d];
    if (g >= 0) out[k++] = g;
    return k;
}

/* The causes of a cell's candidates before, but digit (0: all of them). */
static int cell_causes(const trace_t *tr, int cell, int digit, int *out, int k)
{
    for (uint32_t m = tr->bcands[cell]; m; m &= m - 1) {
        int d = ctz64(m);
        if (d != digit - 1) k = push_gone(tr, cell, d, out, k);
    }
    return k;
}

/* The causes of the places digit index d had in cells before. */
static int place_causes(const trace_t *tr, int d, cset cells, int *out, int k)
{
    CS_FOR(c, cs_and(tr->bwhere[d], cells), { k = push_gone(tr, c, d, out, k); });
    return k;
}

/* An offer's causes (the same as when it was made: the grid has not changed since). */
static int offer_causes(const trace_t *tr, int cell, const offer_t *o, int *out, int k)
{
    if (o->kind == K_NAKED) return cell_causes(tr, cell, o->digit, out, k);
    return place_causes(tr, o->digit - 1, cs_andnot(tr->s.t->house[o->house], cs_bit(cell)), out, k);
}

#define CAUSES_MAX (2 * S_MAX_CELLS + 2 * S_MAX_DIGITS)

static void offer(trace_t *tr, int cell, int digit, int kind, int house, int size)
{
    int n = tr->held[cell];
    if (!n) tr->ocells[tr->nocells++] = cell;
    for (int i = 0; i < n; i++) {
        offer_t *o = &tr->offers[cell][i];
        if (o->digit == digit) {
            if (size < o->size) *o = (offer_t){digit, kind, house, size};
            return;
        }
    }
    tr->offers[cell][n] = (offer_t){digit, kind, house, size};
    tr->held[cell] = n + 1;
}

/* The size of two offers' causes together. */
static int pair_size(trace_t *tr, int a, const offer_t *oa, int b, const offer_t *ob)
{
    int buf[CAUSES_MAX];
    int k = offer_causes(tr, a, oa, buf, 0);
    k = offer_causes(tr, b, ob, buf, k);
    return size_of(tr, buf, k);
}

/* Trace._place_round: the cells of `cells` (ascending) take their offers (or the assumption). */
static int place_round(trace_t *tr, cset cells, int assumed_digit)
{
    settle_state_t *s = &tr->s;
    const tables_t *t = s->t;
    int n = tr->n;
    int digit_of[S_MAX_CELLS], line_of[S_MAX_CELLS];
    int buf[CAUSES_MAX];
    int order[S_MAX_CELLS], count = 0;
    CS_FOR(c, cells, { order[count++] = c; });
    for (int i = 0; i < count; i++) {
        int cell = order[i], digit, kind, house = -1, k = 0;
        if (assumed_digit) {
            digit = assumed_digit;
            kind = K_ASSUMPTION;
        } else {
            const offer_t *o = &tr->offers[cell][0];
            digit = o->digit;
            kind = o->kind;
            house = o->house;
            k = offer_causes(tr, cell, o, buf, 0);
        }
        int index = add_line(tr, cell, digit, 1, kind, 0, house, (cset){0, 0}, buf, k);
        if (index < 0) return -1;
        digit_of[cell] = digit;
        line_of[cell] = index;
        tr->placed[cell] = index;
        for (uint32_t m = s->cands[cell]; m; m &= m - 1) {
            int e = ctz64(m);
            if (e != digit - 1) tr->gone[cell * n + e] = index;
        }
    }
    /* per digit, the peers the round's placements of it remove it from */
    cset seen[S_MAX_DIGITS];
    for (int d = 0; d < n; d++) seen[d] = (cset){0, 0};
    for (int i = 0; i < count; i++) {
        int cell = order[i], d = digit_of[cell] - 1;
        seen[d] = cs_or(seen[d], cs_andnot(cs_and(s->where[d], t->peer[cell]), cells));
    }
    for (int i = 0; i < count; i++) shudu_settle_place(s, order[i], digit_of[order[i]]);
    cset peers = {0, 0};
    for (int d = 0; d < n; d++) peers = cs_or(peers, seen[d]);
    int plist[S_MAX_CELLS], np = 0;
    CS_FOR(p, peers, { plist[np++] = p; });
    for (int j = 0; j < np; j++) {
        int peer = plist[j];
        for (int d = 0; d < n; d++) {
            if (!cs_has(seen[d], peer)) continue;
            cset by = {0, 0};
            int k = 0;
            for (int i = 0; i < count; i++) {
                int c = order[i];
                if (digit_of[c] == d + 1 && cs_has(t->peer[c], peer)) {
                    by = cs_or(by, cs_bit(c));
                    buf[k++] = line_of[c];
                }
            }
            int index = add_line(tr, peer, d + 1, 0, K_SEES, 0, -1, by, buf, k);
            if (index < 0) return -1;
            tr->gone[peer * n + d] = index;
        }
    }
    return 0;
}

/* Keep this contradiction if it needs fewer lines than the one kept (ties: the first). */
static int keep_broken(trace_t *tr, int *best, int size, int kind, int a, int b)
{
    if (*best >= 0 && size >= *best) return 0;
    *best = size;
    tr->bkind = kind;
    tr->ba = a;
    tr->bb = b;
    return 1;
}

/* Write the kept contradiction's causes (and an extra line, >= 0) to the pool. */
static int store_broken(trace_t *tr, const int *causes, int k, int extra)
{
    if (grow_pool(tr, (size_t)k + 1)) return -1;
    tr->bfirst = tr->npool;
    memcpy(tr->pool + tr->npool, causes, sizeof(int) * (size_t)k);
    tr->npool += (size_t)k;
    if (extra >= 0) tr->pool[tr->npool++] = extra, k++;
    tr->bcount = k;
    tr->broken = 1;
    return 0;
}

/* This round's singles offered (naked singles, then hidden ones), and of the contradictions met
 * (a cell without candidates, a digit without a place in a house) the one needing the fewest
 * lines kept: *best_broken its size, -1 when there is none. */
static void offer_singles(trace_t *tr, int *best_broken)
{
    settle_state_t *s = &tr->s;
    const tables_t *t = s->t;
    int n = tr->n;
    int buf[CAUSES_MAX];
    cset once = {0, 0}, twice = {0, 0};
    for (int d = 0; d < n; d++) {
        twice = cs_or(twice, cs_and(once, s->where[d]));
        once = cs_or(once, s->where[d]);
    }
    *best_broken = -1;
    tr->nocells = 0;
    int few[S_MAX_CELLS], nfew = 0;
    CS_FOR(c, cs_andnot(s->empty, twice), { few[nfew++] = c; });
    for (int i = 0; i < nfew; i++) {
        int cell = few[i];
        uint32_t mask = s->cands[cell];
        if (!mask) {
            int k = cell_causes(tr, cell, 0, buf, 0);
            keep_broken(tr, best_broken, size_of(tr, buf, k), 0, cell, 0);
        } else {
            int digit = ctz64(mask) + 1;
            int k = cell_causes(tr, cell, digit, buf, 0);
            offer(tr, cell, digit, K_NAKED, -1, size_of(tr, buf, k));
        }
    }
    uint32_t full = (uint32_t)((1u << n) - 1);
    for (int h = 0; h < t->nhouses; h++) {
        cset hbits = t->house[h];
        for (uint32_t ds = full & ~s->placed[h]; ds; ds &= ds - 1) {
            int d = ctz64(ds);
            cset spots = cs_and(s->where[d], hbits);
            if (cs_many(spots)) continue;
            int k = place_causes(tr, d, cs_andnot(hbits, spots), buf, 0);
            int size = size_of(tr, buf, k);
            if (!cs_any(spots)) keep_broken(tr, best_broken, size, 1, d, h);
            else offer(tr, cs_low(spots), d + 1, K_HIDDEN, h, size);
        }
    }
}

/* Of this round's singles that clash (two reasons of one cell, or two cells that see each other
 * and take one digit; each needs the lines of both), the one needing the fewest lines: its size
 * (-1: none), with the cells and their reasons' positions in *ca, *ia, *cb, *ib. */
static int cheapest_clash(trace_t *tr, int *ca, int *ia, int *cb, int *ib)
{
    const tables_t *t = tr->s.t;
    int best_clash = -1;
    for (int i = 0; i < tr->nocells; i++) {
        int cell = tr->ocells[i], m = tr->held[cell];
        for (int x = 0; x < m; x++)
            for (int y = 0; y < m; y++) {
                const offer_t *ox = &tr->offers[cell][x], *oy = &tr->offers[cell][y];
                if (ox->digit >= oy->digit) continue;
                int size = pair_size(tr, cell, ox, cell, oy) + 1;
                if (best_clash < 0 || size < best_clash) {
                    best_clash = size;
                    *ca = *cb = cell;
                    *ia = x;
                    *ib = y;
                }
            }
    }
    for (int i = 0; i < tr->nocells; i++) {
        int a = tr->ocells[i];
        if (tr->held[a] != 1) continue;
        for (int j = 0; j < tr->nocells; j++) {
            int b = tr->ocells[j];
            if (tr->held[b] != 1 || a >= b) continue;
            const offer_t *oa = &tr->offers[a][0], *ob = &tr->offers[b][0];
            if (oa->digit != ob->digit || !cs_has(t->peer[a], b)) continue;
            int size = pair_size(tr, a, oa, b, ob) + 2;
            if (best_clash < 0 || size < best_clash) {
                best_clash = size;
                *ca = a;
                *cb = b;
                *ia = *ib = 0;
            }
        }
    }
    return best_clash;
}

/* Trace._clash: the first single placed, then the second's cell (or house) left without its
 * digit, kept as the contradiction.  0, or -1 out of memory. */
static int write_clash(trace_t *tr, int ca, int ia, int cb, int ib)
{
    int buf[CAUSES_MAX];
    const offer_t *oa = &tr->offers[ca][ia], *ob = &tr->offers[cb][ib];
    int k = offer_causes(tr, ca, oa, buf, 0);
    int index = add_line(tr, ca, oa->digit, 1, oa->kind, 0, oa->house, (cset){0, 0}, buf, k);
    if (index < 0) return -1;
    int gone = index;
    if (ca != cb) {
        gone = add_line(tr, cb, ob->digit, 0, K_SEES, 0, -1, cs_bit(ca), &index, 1);
        if (gone < 0) return -1;
    }
    if (ob->kind == K_NAKED) tr->bkind = 0, tr->ba = cb, tr->bb = 0;
    else tr->bkind = 1, tr->ba = ob->digit - 1, tr->bb = ob->house;
    k = offer_causes(tr, cb, ob, buf, 0);
    return store_broken(tr, buf, k, gone);
}

/* Trace._singles: TRACE_DONE when a round was placed, TRACE_NONE when none was found or the grid
 * broke, TRACE_NOMEM out of memory. */
static int singles_round(trace_t *tr)
{
    const tables_t *t = tr->s.t;
    int buf[CAUSES_MAX];
    int best_broken;
    offer_singles(tr, &best_broken);
    int ca = 0, ia = 0, cb = 0, ib = 0;
    int best_clash = cheapest_clash(tr, &ca, &ia, &cb, &ib);
    int result = TRACE_NONE;
    if (best_clash >= 0 && (best_broken < 0 || best_clash < best_broken)) {
        if (write_clash(tr, ca, ia, cb, ib)) return TRACE_NOMEM;
    } else if (best_broken >= 0) {
        int k = tr->bkind == 0 ? cell_causes(tr, tr->ba, 0, buf, 0)
                               : place_causes(tr, tr->ba, t->house[tr->bb], buf, 0);
        if (store_broken(tr, buf, k, -1)) return TRACE_NOMEM;
    } else if (tr->nocells) {
        cset cells = {0, 0};
        for (int i = 0; i < tr->nocells; i++) cells = cs_or(cells, cs_bit(tr->ocells[i]));
        if (place_round(tr, cells, 0)) return TRACE_NOMEM;
        result = TRACE_DONE;
    }
    for (int i = 0; i < tr->nocells; i++) tr->held[tr->ocells[i]] = 0;
    return result;
}

/* Trace._pattern: the causes of a rule's eliminations (cells, digits) into out; the line's
 * kind, house and cells. */
static int pattern(trace_t *tr, cset cells, uint32_t digits, int *out, int *kind, int *house,
                   cset *pair_out)
{
    settle_state_t *s = &tr->s;
    const tables_t *t = s->t;
    *house = -1;
    *pair_out = (cset){0, 0};
    if (!(digits & (digits - 1))) {
        /* pointing or claiming: the digit's places in house a all lie in house b */
        int d = ctz64(digits), best = -1, total = 0;
        const overlap_t *found = NULL;
        /* every overlap, by kind then by house a: the first in the geometry's order has the
         * least index */
        for (int kd = 0; kd < 2; kd++)
            for (int g = 0; g < t->ngroups[kd]; g++)
                if (t->groups[kd][g].end > total) total = t->groups[kd][g].end;
        for (int i = 0; i < total; i++) {
            const overlap_t *o = &t->ov[i];
            if (cs_any(cs_andnot(cells, t->house[o->b])) || cs_any(cs_and(cells, t->house[o->a])))
                continue;
            cset inside = cs_and(s->where[d], t->house[o->a]);
            if (cs_any(inside) && !cs_any(cs_and(inside, o->outside)) && (best < 0 || o->index < best)) {
                best = o->index;
                found = o;
            }
        }
        if (found) {
            *kind = K_LOCKED;
            *house = found->a;
            return place_causes(tr, d, found->outside, out, 0);
        }
    }
    for (int h = 0; h < t->nhouses; h++) {
        cset hbits = t->house[h];
        int open[S_MAX_CELLS], m = 0;
        CS_FOR(c, cs_and(hbits, s->empty), { open[m++] = c; });
        for (int i = 0; i < m; i++)
            for (int j = i + 1; j < m; j++) {
                int a = open[i], b = open[j];
                cset pair = cs_or(cs_bit(a), cs_bit(b));
                uint32_t uni = s->cands[a] | s->cands[b];
                if (pop64(uni) == 2 && !(digits & ~uni) && !cs_any(cs_andnot(cells, cs_andnot(hbits, pair)))) {
                    /* naked pair: the two cells' other candidates are gone */
                    int k = 0;
                    for (uint32_t e = tr->bcands[a] & ~uni; e; e &= e - 1) k = push_gone(tr, a, ctz64(e), out, k);
                    for (uint32_t e = tr->bcands[b] & ~uni; e; e &= e - 1) k = push_gone(tr, b, ctz64(e), out, k);
                    *kind = K_PAIR;
                    *pair_out = pair;
                    return k;
                }
                if (!cs_any(cs_andnot(cells, pair))) {
                    uint32_t kept = s->cands[a] & s->cands[b] & ~digits;
                    int ds[2], nd = 0;
                    for (; kept && nd < 2; kept &= kept - 1) {
                        int d = ctz64(kept);
                        if (!cs_any(cs_andnot(cs_and(s->where[d], hbits), pair))) ds[nd++] = d;
                    }
                    if (nd >= 2) {
                        /* hidden pair: the two digits' other places in the house are gone */
                        int k = place_causes(tr, ds[0], cs_andnot(hbits, pair), out, 0);
                        k = place_causes(tr, ds[1], cs_andnot(hbits, pair), out, k);
                        *kind = K_PAIR;
                        *pair_out = pair;
                        return k;
                    }
                }
            }
    }
    *kind = K_RULE;
    return -1; /* every line so far */
}

/* Trace._rules: TRACE_DONE when a rule removed something, TRACE_NONE when none applies,
 * TRACE_STOPPED when the fifth rule's budget ran out, TRACE_NOMEM out of memory. */
static int rules_step(trace_t *tr, int nrules)
{
    settle_state_t *s = &tr->s;
    int n = tr->n;
    for (int r = 0; r < nrules; r++) {
        if (r == 4) {
            tr->inner_calls++;
            s->nest->budget.tick = 0; /* each call reads the clock first, as in Python */
        }
        if (!shudu_settle_rule(s, r)) {
            if (r == 4 && s->nest->spent) return TRACE_STOPPED;
            continue;
        }
        /* the eliminations in the rule's order: a hidden pair's cell by cell, the others' digit
         * by digit */
        int ec[S_MAX_CELLS * S_MAX_DIGITS], ed[S_MAX_CELLS * S_MAX_DIGITS], ne = 0;
        cset cells = {0, 0};
        uint32_t digits = 0;
        for (int d = 0; d < n; d++) {
            s->elim[d] = cs_and(s->elim[d], s->where[d]);
            if (cs_any(s->elim[d])) digits |= (uint32_t)1 << d;
            cells = cs_or(cells, s->elim[d]);
        }
        if (!digits) continue;
        if (r == 3) {
            int list[S_MAX_CELLS], m = 0;
            CS_FOR(c, cells, { list[m++] = c; });
            for (int i = 0; i < m; i++)
                for (int d = 0; d < n; d++)
                    if (cs_has(s->elim[d], list[i])) {
                        ec[ne] = list[i];
                        ed[ne++] = d;
                    }
        } else {
            for (int d = 0; d < n; d++) CS_FOR(c, s->elim[d], { ec[ne] = c; ed[ne++] = d; });
        }
        int buf[CAUSES_MAX], kind, house;
        cset pair;
        int k = pattern(tr, cells, digits, buf, &kind, &house, &pair);
        int *because = buf;
        int *all = NULL;
        if (k < 0) {
            k = tr->nlines;
            all = (int *)malloc(sizeof(int) * (size_t)(k ? k : 1));
            if (!all) return TRACE_NOMEM;
            for (int i = 0; i < k; i++) all[i] = i;
            because = all;
        }
        for (int i = 0; i < ne; i++) {
            int c = ec[i], d = ed[i];
            if (!(s->cands[c] >> d & 1)) continue;
            s->cands[c] &= ~((uint32_t)1 << d);
            cs_clear(&s->where[d], c);
            int index = add_line(tr, c, d + 1, 0, kind, r, house, pair, because, k);
            if (index < 0) {
                free(all);
                return TRACE_NOMEM;
            }
            tr->gone[c * n + d] = index;
        }
        free(all);
        return TRACE_DONE;
    }
    return TRACE_NONE;
}

PyObject *shudu_trace(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 12, "trace");
    if (!t) return NULL;
    long cell = PyLong_AsLong(args[6]), digit = PyLong_AsLong(args[7]), nrules = PyLong_AsLong(args[8]);
    int keep = PyObject_IsTrue(args[9]);
    double seconds = PyFloat_AsDouble(args[10]);
    long long nodes = PyLong_AsLongLong(args[11]);
    if (PyErr_Occurred() || keep < 0) return NULL;
    if (cell < 0 || cell >= t->ncells || digit < 1 || digit > t->n || nrules < 0 || nrules > 5) {
        PyErr_SetString(PyExc_ValueError, "trace: the assumption or the rules are out of range");
        return NULL;
    }
    trace_t *tr = (trace_t *)calloc(1, sizeof(trace_t));
    if (!tr) return PyErr_NoMemory();
    PyObject *result = NULL;
    if (shudu_load_settle_state(&tr->s, t, args + 1)) goto done;
    settle_nest_t nest = {{nodes < 0 ? UINT64_MAX : (uint64_t)nodes,
                           seconds < 0 ? -1.0 : monotonic_seconds() + seconds, 0},
                          0, 0};
    tr->s.nest = nrules == 5 ? &nest : NULL;
    tr->n = t->n;
    tr->nc = t->ncells;
    memcpy(tr->bcands, tr->s.cands, sizeof tr->bcands);
    memcpy(tr->bwhere, tr->s.where, sizeof tr->bwhere);
    /* a placement or a removed candidate each, and the two lines of a clash */
    tr->cap = tr->nc * (tr->n + 1) + 2;
    tr->words = (tr->cap + 63) / 64;
    tr->lines = (line_t *)malloc(sizeof(line_t) * (size_t)tr->cap);
    tr->needs = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)tr->cap * (size_t)tr->words);
    tr->scratch = (uint64_t *)malloc(sizeof(uint64_t) * (size_t)tr->words);
    tr->gone = (int *)malloc(sizeof(int) * (size_t)tr->nc * (size_t)tr->n);
    tr->pool_cap = (size_t)tr->cap * 4;
    tr->pool = (int *)malloc(sizeof(int) * tr->pool_cap);
    if (!tr->lines || !tr->needs || !tr->scratch || !tr->gone || !tr->pool) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < tr->nc * tr->n; i++) tr->gone[i] = -1;
    for (int i = 0; i < tr->nc; i++) tr->placed[i] = -1;
    int code = S_SETTLED, got = TRACE_NONE;
    if (!(tr->s.cands[cell] >> (digit - 1) & 1) || !cs_has(tr->s.empty, (int)cell)) {
        PyErr_SetString(PyExc_ValueError, "trace: the assumption is not a candidate");
        goto done;
    }
    if (place_round(tr, cs_bit((int)cell), (int)digit)) goto oom;
    while (!tr->broken) {
        got = singles_round(tr);
        if (got == TRACE_NOMEM) goto oom;
        if (got == TRACE_DONE) continue;
        if (tr->broken) break;
        got = rules_step(tr, (int)nrules);
        if (got == TRACE_NOMEM) goto oom;
        if (got == TRACE_STOPPED) {
            code = S_STOPPED;
            break;
        }
        if (got == TRACE_NONE) break;
    }
    if (tr->broken) code = S_BROKEN;
    result = trace_result(tr, code, tr->inner_calls ? (long long)nest.settles : -1, keep);
    goto done;
oom:
    PyErr_NoMemory();
done:
    free(tr->lines);
    free(tr->needs);
    free(tr->scratch);
    free(tr->gone);
    free(tr->pool);
    free(tr);
    return result;
}
