/*
 * The almost-locked-set listings in C (shudu.logic.techniques.als_listings, the specification): every set, every
 * set's links, or the ALS-XY-Wings over them, as the Python listings give them (als_sets).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "als.h"
#include "als_sets.h"
#include "../../solvers/core/common.h"
#include "settle_tables.h"

/* A digit-indexed tuple of n cell sets. */
static PyObject *cset_tuple(const cset *per_digit, int n)
{
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (int d = 0; d < n; d++) {
        PyObject *one = shudu_from_cset(per_digit[d]);
        if (!one) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, d, one);
    }
    return out;
}

/* Every set as (cells, digits, house, holding, seeing): the fields of als.Als. */
static PyObject *sets_list(const als_ctx *g)
{
    PyObject *list = PyList_New(g->nsets);
    if (!list) return NULL;
    for (int32_t i = 0; i < g->nsets; i++) {
        const als_t *s = &g->sets[i];
        PyObject *cells = shudu_from_cset(s->cells);
        PyObject *holding = cells ? cset_tuple(s->holding, g->n) : NULL;
        PyObject *seeing = holding ? cset_tuple(s->seeing, g->n) : NULL;
        PyObject *one = seeing ? Py_BuildValue("(NkiNN)", cells, (unsigned long)s->digits, s->house, holding,
                                               seeing)
                               : NULL;
        if (!one) {
            if (!seeing) {
                Py_XDECREF(cells);
                Py_XDECREF(holding);
            }
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, one);
    }
    return list;
}

/* Per set, a dict of the sets it links to (in the order found) and their restricted commons. */
static PyObject *links_list(const als_ctx *g)
{
    PyObject *list = PyList_New(g->nsets);
    if (!list) return NULL;
    for (int32_t i = 0; i < g->nsets; i++) {
        const links_t *l = &g->links[i];
        PyObject *dict = PyDict_New();
        if (!dict) goto fail;
        PyList_SET_ITEM(list, i, dict);
        for (int32_t k = 0; k < l->count; k++) {
            PyObject *key = PyLong_FromLong(l->to[k]);
            PyObject *value = key ? PyLong_FromUnsignedLong(l->rcc[k]) : NULL;
            int bad = !value || PyDict_SetItem(dict, key, value);
            Py_XDECREF(key);
            Py_XDECREF(value);
            if (bad) goto fail;
        }
    }
    return list;
fail:
    Py_DECREF(list);
    return NULL;
}

/* One ALS-XY-Wing of the listing: pivot k, wings i and j, digits x (i-k) and y (j-k), and the
 * eliminations (cell, digit) by digit, then cell. */
static int add_wing(PyObject *hits, int32_t k, int32_t i, int32_t j, int x, int y, const cset *both,
                    uint32_t zs)
{
    PyObject *elims = als_cell_digit_list(both, zs);
    if (!elims) return -1;
    PyObject *hit = Py_BuildValue("(iiiiiN)", k, i, j, x, y, elims);
    if (!hit) return -1;
    int rc = PyList_Append(hits, hit);
    Py_DECREF(hit);
    return rc;
}

/* The elimination sets met so far, each once: a signature is its digits' count, then per digit
 * (rising) the digit and its cells (two words); kept in one block, found by a hash. */
typedef struct {
    uint64_t *hash; /* per slot; 0: empty */
    size_t *at;     /* per slot, where its signature starts in words */
    size_t cap, used;
    uint64_t *words;
    size_t nwords, capwords;
} elimset_t;

static uint64_t sig_hash(const uint64_t *sig, size_t len)
{
    uint64_t h = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < len; i++) {
        h ^= sig[i];
        h *= 0xBF58476D1CE4E5B9u;
        h ^= h >> 31;
    }
    return h | 1; /* never 0, the empty slot */
}

static int sig_grow(elimset_t *set)
{
    size_t cap = set->cap ? 2 * set->cap : 1024;
    uint64_t *hash = (uint64_t *)calloc(cap, sizeof(uint64_t));
    size_t *at = (size_t *)malloc(cap * sizeof(size_t));
    if (!hash || !at) {
        free(hash);
        free(at);
        return -1;
    }
    for (size_t i = 0; i < set->cap; i++) {
        if (!set->hash[i]) continue;
        size_t j = (size_t)set->hash[i] & (cap - 1);
        while (hash[j]) j = (j + 1) & (cap - 1);
        hash[j] = set->hash[i];
        at[j] = set->at[i];
    }
    free(set->hash);
    free(set->at);
    set->hash = hash;
    set->at = at;
    set->cap = cap;
    return 0;
}

/* 1 if the signature is new (and now kept), 0 if met before, -1 out of memory. */
static int sig_add(elimset_t *set, const uint64_t *sig, size_t len)
{
    if (2 * (set->used + 1) > set->cap && sig_grow(set)) return -1;
    uint64_t h = sig_hash(sig, len);
    size_t j = (size_t)h & (set->cap - 1);
    for (; set->hash[j]; j = (j + 1) & (set->cap - 1)) {
        const uint64_t *kept = set->words + set->at[j];
        if (set->hash[j] == h && kept[0] == sig[0] && !memcmp(kept, sig, len * sizeof(uint64_t))) return 0;
    }
    if (set->nwords + len > set->capwords) {
        size_t capwords = 2 * (set->nwords + len) + 256;
        uint64_t *words = (uint64_t *)realloc(set->words, capwords * sizeof(uint64_t));
        if (!words) return -1;
        set->words = words;
        set->capwords = capwords;
    }
    memcpy(set->words + set->nwords, sig, len * sizeof(uint64_t));
    set->hash[j] = h;
    set->at[j] = set->nwords;
    set->nwords += len;
    set->used++;
    return 1;
}

/* als._xy_wing_hits_py: every pivot C (in set order), its partners A and B (pairs in set index
 * order) and digits x, y whose wings leave cells outside C that see all of some z of both, the
 * first met of each set of eliminations; a unit a partner. 1 done, 0 stopped, -1 error. */
static int xy_wings(als_ctx *g, PyObject *hits)
{
    int32_t *sorted = (int32_t *)malloc(((size_t)2 * (size_t)g->nsets + 2) * sizeof(int32_t));
    elimset_t met = {NULL, NULL, 0, 0, NULL, 0, 0};
    if (!sorted) {
        PyErr_NoMemory();
        return -1;
    }
    int rc = 1;
    for (int32_t k = 0; k < g->nsets && rc == 1; k++) {
        const als_t *c = &g->sets[k];
        const links_t *l = &g->links[k];
        for (int32_t q = 0; q < l->count; q++) {
            sorted[2 * q] = l->to[q];
            sorted[2 * q + 1] = (int32_t)l->rcc[q];
        }
        qsort(sorted, (size_t)l->count, 2 * sizeof(int32_t), als_by_set);
        for (int32_t p = 0; p < l->count && rc == 1; p++) {
            if (!unit(g)) {
                rc = 0;
                break;
            }
            int32_t i = sorted[2 * p];
            uint32_t rcc_a = (uint32_t)sorted[2 * p + 1];
            const als_t *a = &g->sets[i];
            for (int32_t q = p + 1; q < l->count && rc == 1; q++) {
                int32_t j = sorted[2 * q];
                uint32_t rcc_b = (uint32_t)sorted[2 * q + 1];
                const als_t *b = &g->sets[j];
                cset both[S_MAX_DIGITS];
                uint32_t common = 0; /* the digits with cells to lose */
                for (uint32_t m = a->digits & b->digits; m; m &= m - 1) {
                    int z = ctz64(m);
                    both[z] = cs_andnot(cs_and(g->where[z], cs_and(a->seeing[z], b->seeing[z])), c->cells);
                    if (cs_any(both[z])) common |= 1u << z;
                }
                if (!common) continue;
                for (uint32_t xm = rcc_a; xm && rc == 1; xm &= xm - 1) {
                    int x = ctz64(xm);
                    for (uint32_t ym = rcc_b & ~(1u << x); ym; ym &= ym - 1) {
                        int y = ctz64(ym);
                        uint32_t zs = common & ~(1u << x) & ~(1u << y);
                        if (!zs) continue;
                        uint64_t sig[1 + 3 * S_MAX_DIGITS];
                        size_t len = 1;
                        for (uint32_t m = zs; m; m &= m - 1) {
                            int z = ctz64(m);
                            sig[len++] = (uint64_t)z;
                            sig[len++] = both[z].lo;
                            sig[len++] = both[z].hi;
                        }
                        sig[0] = (uint64_t)(len - 1) / 3;
                        int fresh = sig_add(&met, sig, len);
                        if (fresh < 0) PyErr_NoMemory();
                        if (fresh < 0 || (fresh && add_wing(hits, k, i, j, x, y, both, zs))) {
                            rc = -1;
                            break;
                        }
                    }
                }
            }
        }
    }
    free(sorted);
    free(met.hash);
    free(met.at);
    free(met.words);
    return rc;
}

PyObject *shudu_als_sets(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    int most, want;
    als_ctx *g = als_read_call("als_sets", args, nargs, 4, &most, &want);
    if (!g) return NULL;
    g->overlap = want >= 2;
    g->uncounted = want == 3;
    PyObject *result = NULL, *found = NULL;
    if (als_list_sets(g, most) || (!g->spent && want && als_list_links(g))) {
        PyErr_NoMemory();
        goto done;
    }
    if (!g->spent && want == 3) {
        found = PyList_New(0);
        if (!found || xy_wings(g, found) < 0) goto done;
    } else if (!g->spent) {
        found = want ? links_list(g) : sets_list(g);
        if (!found) goto done;
    }
    if (g->spent) {
        result = Py_BuildValue("(iKO)", 2, (unsigned long long)g->units, Py_None);
    } else {
        result = Py_BuildValue("(iKO)", 0, (unsigned long long)g->units, found);
    }
done:
    Py_XDECREF(found);
    als_free_ctx(g);
    return result;
}

