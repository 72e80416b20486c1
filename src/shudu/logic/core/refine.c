/*
 * A round of the colour refinement of a candidate grid (shudu.logic.engine.invariant.refinements, the
 * specification) in C, for the grids the settle tables cover.
 *
 * Each new colour is the hash of a tuple of ints and tuples, as in the Python code.  Those
 * hashes are computed here as CPython 3.8 and later compute them on 64-bit builds (an int's
 * hash is its value modulo 2**61 - 1, a tuple's an xxHash-like mix of its items' hashes), with
 * no object made.  On first use that is checked against PyObject_Hash on sample tuples; where
 * the two differ (another interpreter, another build) refine raises NotImplementedError and
 * Python keeps to its own rounds.  So the colours are always the interpreter's own, bit for
 * bit.  Nothing else is kept between calls.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../solvers/core/common.h"
#include "refine.h"
#include "settle_tables.h"

typedef long long colour_t;

/* --- hashes as CPython computes them (Objects/longobject.c, Objects/tupleobject.c) --- */

#define HASH_MODULUS (((uint64_t)1 << 61) - 1)
#define XXPRIME_1 11400714785074694791ULL
#define XXPRIME_2 14029467366897019727ULL
#define XXPRIME_5 2870177450012600261ULL

/* hash(v) of an int. */
static uint64_t
int_lane(colour_t v)
{
    uint64_t x = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    x %= HASH_MODULUS;
    long long h = v < 0 ? -(long long)x : (long long)x;
    return (uint64_t)(h == -1 ? -2 : h);
}

/* hash of a tuple whose items hash to lanes[0..k). */
static colour_t
tuple_of_lanes(const uint64_t *lanes, int k)
{
    uint64_t acc = XXPRIME_5;
    for (int i = 0; i < k; i++) {
        acc += lanes[i] * XXPRIME_2;
        acc = (acc << 31) | (acc >> 33);
        acc *= XXPRIME_1;
    }
    acc += (uint64_t)k ^ (XXPRIME_5 ^ 3527539ULL);
    return acc == UINT64_MAX ? 1546275796 : (colour_t)acc;
}

/* hash of the tuple of ints v[0..k). */
static colour_t
tuple_of_ints(const colour_t *v, int k)
{
    uint64_t lanes[S_MAX_CELLS];
    for (int i = 0; i < k; i++) lanes[i] = int_lane(v[i]);
    return tuple_of_lanes(lanes, k);
}

/* --- the same with real tuples and PyObject_Hash, to check the above (and tuples returned) --- */

/* tuple(v[0..k)); NULL with an exception on failure. */
static PyObject *
py_tuple(const colour_t *v, int k)
{
    PyObject *t = PyTuple_New(k);
    if (!t) return NULL;
    for (int i = 0; i < k; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* hash of a tuple made of items (the references are taken over, NULL ones included, in which
 * case an exception is set already); -1 with the exception on failure. */
static int
py_hash_of(int k, PyObject **items, colour_t *out)
{
    PyObject *t = NULL;
    for (int i = 0; i < k; i++)
        if (!items[i]) goto fail;
    t = PyTuple_New(k);
    if (!t) goto fail;
    for (int i = 0; i < k; i++) PyTuple_SET_ITEM(t, i, items[i]);
    Py_hash_t h = PyObject_Hash(t);
    Py_DECREF(t);
    if (h == -1 && PyErr_Occurred()) return -1;
    *out = (colour_t)h;
    return 0;
fail:
    for (int i = 0; i < k; i++) Py_XDECREF(items[i]);
    return -1;
}

/* Whether the hashes above are the interpreter's: 1 yes, 0 no, -1 not checked yet. */
static int native = -1;

static int
check_native(void)
{
    static const colour_t samples[] = {0, 1, -1, -2, 7, -3527539, 1546275796,
                                       (colour_t)HASH_MODULUS, -(colour_t)HASH_MODULUS,
                                       (colour_t)HASH_MODULUS + 5, LLONG_MAX, LLONG_MIN + 1,
                                       -4611686018427387904LL, 3074457345618258602LL};
    const int k = (int)(sizeof samples / sizeof samples[0]);
    for (int len = 0; len <= k; len++) {
        colour_t want, inner;
        PyObject *items[2] = {py_tuple(samples, len), PyLong_FromLongLong(samples[len % k])};
        if (py_hash_of(2, items, &want) || py_hash_of(1, (PyObject *[]){py_tuple(samples, len)}, &inner)) {
            PyErr_Clear();
            return 0;
        }
        uint64_t lanes[2] = {(uint64_t)tuple_of_ints(samples, len), int_lane(samples[len % k])};
        if (tuple_of_lanes(lanes, 2) != want) return 0;
        uint64_t one = (uint64_t)tuple_of_ints(samples, len);
        if (tuple_of_lanes(&one, 1) != inner) return 0;
    }
    return 1;
}

/* hash((a, b)) of two ints. */
static colour_t
hash_pair(colour_t a, colour_t b)
{
    colour_t v[2] = {a, b};
    return tuple_of_ints(v, 2);
}

static int
by_value(const void *a, const void *b)
{
    colour_t x = *(const colour_t *)a, y = *(const colour_t *)b;
    return (x > y) - (x < y);
}

/* v[0..k) in rising order: by insertion where short (most are), else qsort. */
static void
sort_colours(colour_t *v, int k)
{
    if (k > 16) {
        qsort(v, (size_t)k, sizeof *v, by_value);
        return;
    }
    for (int i = 1; i < k; i++) {
        colour_t x = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] > x; j--) v[j] = v[j - 1];
        v[j] = x;
    }
}

/* hash((own, tuple(sorted(a)), tuple(sorted(b)))); a and b are sorted in place. */
static colour_t
hash_colour(colour_t own, colour_t *a, int na, colour_t *b, int nb)
{
    sort_colours(a, na);
    sort_colours(b, nb);
    uint64_t lanes[3] = {int_lane(own), (uint64_t)tuple_of_ints(a, na), (uint64_t)tuple_of_ints(b, nb)};
    return tuple_of_lanes(lanes, 3);
}

/* hash((tuple(sorted(a)), tuple(sorted(b)), tuple(sorted(c)))); the arrays are sorted in place. */
static colour_t
hash_sorted3(colour_t *a, int na, colour_t *b, int nb, colour_t *c, int nc)
{
    sort_colours(a, na);
    sort_colours(b, nb);
    sort_colours(c, nc);
    uint64_t lanes[3] = {(uint64_t)tuple_of_ints(a, na), (uint64_t)tuple_of_ints(b, nb),
                         (uint64_t)tuple_of_ints(c, nc)};
    return tuple_of_lanes(lanes, 3);
}

/* A list or tuple of k Python ints read into v; -1 with an exception if it is not one. */
static int
read_colours(PyObject *seq, int k, const char *what, colour_t *v)
{
    if (!(PyList_Check(seq) || PyTuple_Check(seq)) || PySequence_Fast_GET_SIZE(seq) != k) {
        PyErr_Format(PyExc_ValueError, "refine: %s must be a list or tuple of %d ints", what, k);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (int i = 0; i < k; i++) {
        v[i] = PyLong_AsLongLong(items[i]);
        if (v[i] == -1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

PyObject *
shudu_refine(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 9, "refine");
    if (!t) return NULL;
    if (native < 0) native = check_native();
    if (!native) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "refine: this interpreter hashes tuples of ints otherwise than CPython 3.8+ "
                        "on a 64-bit build");
        return NULL;
    }
    settle_state_t s;
    if (shudu_load_settle_state(&s, t, args + 1)) return NULL;
    const int n = t->n, nc = t->ncells, nh = t->nhouses;
    colour_t cell[S_MAX_CELLS], digit[S_MAX_DIGITS], house[S_MAX_HOUSES];
    if (read_colours(args[6], nc, "the cells' colours", cell) ||
        read_colours(args[7], n, "the digits' colours", digit) ||
        read_colours(args[8], nh, "the houses' colours", house))
        return NULL;

    int places[S_MAX_HOUSES][S_MAX_DIGITS];
    for (int h = 0; h < nh; h++)
        for (int d = 0; d < n; d++) places[h][d] = cs_pop(cs_and(s.where[d], t->house[h]));

    colour_t a[S_MAX_CELLS > S_MAX_HOUSES ? S_MAX_CELLS : S_MAX_HOUSES], b[S_MAX_CELLS];
    colour_t new_house[S_MAX_HOUSES], new_digit[S_MAX_DIGITS], new_cell[S_MAX_CELLS];
    /* a house: its colour, its cells' colours, (digit colour, places) for every digit */
    for (int h = 0; h < nh; h++) {
        int na = 0;
        CS_FOR(c, t->house[h], { a[na++] = cell[c]; });
        for (int d = 0; d < n; d++) b[d] = hash_pair(digit[d], places[h][d]);
        new_house[h] = hash_colour(house[h], a, na, b, n);
    }
    /* a digit: its colour, (new house colour, places) for every house it has places in, the
     * colours of the cells it may go in */
    for (int d = 0; d < n; d++) {
        int na = 0, nb = 0;
        for (int h = 0; h < nh; h++)
            if (places[h][d]) a[na++] = hash_pair(new_house[h], places[h][d]);
        CS_FOR(c, s.where[d], { b[nb++] = cell[c]; });
        new_digit[d] = hash_colour(digit[d], a, na, b, nb);
    }
    /* a cell: its colour, its candidates' new colours, its houses' new colours */
    for (int c = 0; c < nc; c++) {
        int na = 0, nb = 0;
        for (uint32_t m = s.cands[c]; m; m &= m - 1) a[na++] = new_digit[ctz64(m)];
        for (uint64_t m = t->hmask[c]; m; m &= m - 1) b[nb++] = new_house[ctz64(m)];
        new_cell[c] = hash_colour(cell[c], a, na, b, nb);
    }
    /* the round's fingerprint: hash((sorted cells, sorted digits, sorted houses)) */
    colour_t sorted_cells[S_MAX_CELLS], sorted_digits[S_MAX_DIGITS], sorted_houses[S_MAX_HOUSES];
    memcpy(sorted_cells, new_cell, sizeof(colour_t) * (size_t)nc);
    memcpy(sorted_digits, new_digit, sizeof(colour_t) * (size_t)n);
    memcpy(sorted_houses, new_house, sizeof(colour_t) * (size_t)nh);
    colour_t print = hash_sorted3(sorted_cells, nc, sorted_digits, n, sorted_houses, nh);
    return Py_BuildValue("(LNNN)", print, py_tuple(new_cell, nc), py_tuple(new_digit, n),
                         py_tuple(new_house, nh));
}
