/*
 * shudu._core_c -- the C core: the CPython module (types, argument parsing, batches and their
 * threads) over the compiled search engines behind solvers "fast" and "constraints" and the
 * logic engine's hot loops.  shudu._backend loads it (or, with SHUDU_IMPLEMENTATION=python,
 * does not) for the solvers and the logic engine alike.
 *
 * The search engines live under solvers/core/: solvers/core/general.c (any houses and links,
 * n = 4..25) and solvers/core/band9.c (the standard 9x9 grid), both running the one resumable
 * search of solvers/core/search_loop.h behind the engine interface of solvers/core/common.h,
 * and the constraint engine (solvers/core/constraints*.c).  The logic engine's loops live
 * under logic/core/ (settle, the forcing chains and nets, fish, ALS, chains, traces, the
 * fingerprint's rounds), each beside the Python code that is its specification.
 * docs/core.md maps the parts and states what the pure-Python twin,
 * shudu/solvers/_fast_py.py, promises: the same solutions in the same order and the same
 * counters.
 *
 * Everything a search touches lives in objects the caller owns: there is no global
 * mutable state, and the GIL is released while searching.  Nothing the caller passes is
 * trusted: bad sizes, lengths or characters raise ValueError.
 *
 * A search called from the main thread takes the GIL back for a moment every
 * POLL_SECONDS or so (at its budget checkpoints, solvers/core/common.h) to run
 * PyErr_CheckSignals: Ctrl-C ends it with KeyboardInterrupt, and the search object stays
 * usable (docs/core.md, "Signals and deadlines").
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "solvers/core/common.h"
#include "solvers/core/search.h"
#include "logic/core/settle.h"
#include "logic/core/direct.h"
#include "logic/core/forcing.h"
#include "logic/core/als.h"
#include "logic/core/fish.h"
#include "logic/core/chainbfs.h"
#include "logic/core/trace.h"
#include "logic/core/refine.h"
#include "solvers/core/constraints.h"

#if !defined(_WIN32) && !defined(SHUDU_NO_THREADS)
#include <pthread.h>
#define SHUDU_THREADS 1
#else
#define SHUDU_THREADS 0
#endif

typedef struct {
    PyObject_HEAD
    shape_t sh;
} ShapeObject;

/* ------------------------------------------------------------------------ */
/* Shape objects                                                            */
/* ------------------------------------------------------------------------ */

static void
Shape_dealloc(ShapeObject *self)
{
    free(self->sh.house);
    free(self->sh.peer_start);
    free(self->sh.peers);
    free(self->sh.lock_start);
    free(self->sh.lock_cells);
    free(self->sh.b9x);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Read a sequence of cell indices into out[]; returns its length or -1. */
static Py_ssize_t
read_cells(PyObject *seq, const char *what, Py_ssize_t index, int ncells, int16_t *out,
           Py_ssize_t max)
{
    PyObject *fast = PySequence_Fast(seq, "");
    if (!fast) {
        PyErr_Format(PyExc_TypeError, "%s %zd is not a sequence of cell indices", what, index);
        return -1;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s %zd has %zd cells, more than %zd", what, index, len,
                     max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (!PyLong_Check(item)) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_TypeError, "%s %zd: cell indices must be int", what, index);
            return -1;
        }
        long v = PyLong_AsLong(item);
        if (v == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            v = -1;
        }
        if (v < 0 || v >= ncells) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s %zd: cell index %R is outside 0..%d", what, index,
                         item, ncells - 1);
            return -1;
        }
        out[i] = (int16_t)v;
    }
    Py_DECREF(fast);
    return len;
}

/* Do the houses equal the 27 standard houses of 9x9 (in any order)? */
static int
is_standard9(const int16_t *house, int nhouses)
{
    int seen[27] = {0};
    if (nhouses != 27)
        return 0;
    for (int h = 0; h < 27; h++) {
        int id = shudu_standard_house9(house + 9 * h);
        if (id < 0 || seen[id])
            return 0;
        seen[id] = 1;
    }
    return 1;
}

/* The intersections of the houses (see shape_t): every pair of houses, in the order of
 * the first house then the second, that shares at least two cells but not all of them.
 * -1 when out of memory. */
static int
build_locks(shape_t *sh)
{
    const int n = sh->n, nc = sh->ncells, nh = sh->nhouses;
    int32_t *count = calloc((size_t)nh, sizeof(int32_t));
    uint8_t *mark = calloc((size_t)nc, 1);
    int32_t *cell_start = calloc((size_t)nc + 1, sizeof(int32_t));
    int32_t *cell_house = malloc(sizeof(int32_t) * ((size_t)nh * n + 1));
    int32_t *pairs = NULL;
    int npairs = 0, cap = 0, rc = -1;
    size_t total = 0;
    sh->nlocks = 0;
    sh->lock_start = NULL;
    sh->lock_cells = NULL;
    if (!count || !mark || !cell_start || !cell_house)
        goto done;
    /* the houses of each cell, in house order */
    for (int h = 0; h < nh; h++)
        for (int i = 0; i < n; i++)
            cell_start[sh->house[h * n + i] + 1]++;
    for (int c = 0; c < nc; c++)
        cell_start[c + 1] += cell_start[c];
    {
        int32_t *fill = calloc((size_t)nc, sizeof(int32_t));
        if (!fill)
            goto done;
        for (int h = 0; h < nh; h++)
            for (int i = 0; i < n; i++) {
                int c = sh->house[h * n + i];
                cell_house[cell_start[c] + fill[c]++] = h;
            }
        free(fill);
    }
    for (int a = 0; a < nh; a++) {
        const int16_t *ha = sh->house + (size_t)a * n;
        for (int i = 0; i < n; i++)
            for (int32_t j = cell_start[ha[i]]; j < cell_start[ha[i] + 1]; j++)
                if (cell_house[j] > a)
                    count[cell_house[j]]++;
        for (int b = a + 1; b < nh; b++) {
            if (count[b] >= 2 && count[b] < n) {
                if (npairs == cap) {
                    cap = cap ? 2 * cap : 64;
                    int32_t *grown = realloc(pairs, sizeof(int32_t) * 2 * (size_t)cap);
                    if (!grown)
                        goto done;
                    pairs = grown;
                }
                pairs[2 * npairs] = a;
                pairs[2 * npairs + 1] = b;
                npairs++;
                total += 2 * (size_t)n - (size_t)count[b];
            }
            count[b] = 0;
        }
    }
    sh->lock_start = malloc(sizeof(int32_t) * (3 * (size_t)npairs + 1));
    sh->lock_cells = malloc(sizeof(int16_t) * (total + 1));
    if (!sh->lock_start || !sh->lock_cells)
        goto done;
    total = 0;
    for (int k = 0; k < npairs; k++) {
        const int16_t *ha = sh->house + (size_t)pairs[2 * k] * n;
        const int16_t *hb = sh->house + (size_t)pairs[2 * k + 1] * n;
        /* mark: 1 in the first house, 2 in the second, 3 in both */
        for (int i = 0; i < n; i++)
            mark[ha[i]] = 1;
        for (int i = 0; i < n; i++)
            mark[hb[i]] |= 2;
        sh->lock_start[3 * k] = (int32_t)total;
        for (int i = 0; i < n; i++)
            if (mark[ha[i]] == 3)
                sh->lock_cells[total++] = ha[i];
        sh->lock_start[3 * k + 1] = (int32_t)total;
        for (int i = 0; i < n; i++)
            if (mark[ha[i]] == 1)
                sh->lock_cells[total++] = ha[i];
        sh->lock_start[3 * k + 2] = (int32_t)total;
        for (int i = 0; i < n; i++)
            if (mark[hb[i]] == 2)
                sh->lock_cells[total++] = hb[i];
        for (int i = 0; i < n; i++)
            mark[ha[i]] = mark[hb[i]] = 0;
    }
    sh->lock_start[3 * npairs] = (int32_t)total;
    sh->nlocks = npairs;
    rc = 0;
done:
    free(count);
    free(mark);
    free(cell_start);
    free(cell_house);
    free(pairs);
    return rc;
}

static PyObject *
Shape_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"n", "houses", "links", "general", NULL};
    int n, general = 0;
    PyObject *houses, *links = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO|Op:Shape", kwlist, &n, &houses, &links,
                                     &general))
        return NULL;
    if (n < 4 || n > MAX_N)
        return PyErr_Format(PyExc_ValueError, "grid size must be between 4 and %d, got %d", MAX_N,
                            n);
    int nc = n * n;
    PyObject *hs = PySequence_Fast(houses, "houses must be a sequence of houses");
    if (!hs)
        return NULL;
    Py_ssize_t nh = PySequence_Fast_GET_SIZE(hs);
    if (nh > 4 * nc) {
        Py_DECREF(hs);
        return PyErr_Format(PyExc_ValueError, "too many houses: %zd", nh);
    }
    ShapeObject *self = (ShapeObject *)type->tp_alloc(type, 0);
    uint8_t *adj = calloc((size_t)nc * nc, 1);
    int16_t buf[MAX_CELLS];
    if (!self || !adj)
        goto nomem;
    self->sh.n = n;
    self->sh.ncells = nc;
    self->sh.nhouses = (int)nh;
    self->sh.full = (mask_t)((1u << n) - 1);
    self->sh.house = malloc(sizeof(int16_t) * (size_t)(nh * n + 1));
    self->sh.peer_start = malloc(sizeof(int32_t) * (size_t)(nc + 1));
    if (!self->sh.house || !self->sh.peer_start)
        goto nomem;
    for (Py_ssize_t h = 0; h < nh; h++) {
        Py_ssize_t len =
            read_cells(PySequence_Fast_GET_ITEM(hs, h), "house", h, nc, buf, MAX_CELLS);
        if (len < 0)
            goto fail;
        if (len != n) {
            PyErr_Format(PyExc_ValueError, "house %zd has %zd cells; a %dx%d grid needs %d", h, len,
                         n, n, n);
            goto fail;
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++)
                if (buf[i] == buf[j]) {
                    PyErr_Format(PyExc_ValueError, "house %zd holds cell %d twice", h, buf[i]);
                    goto fail;
                }
        memcpy(self->sh.house + h * n, buf, sizeof(int16_t) * (size_t)n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (i != j)
                    adj[(size_t)buf[i] * nc + buf[j]] = 1;
    }
    int has_links = 0;
    if (links != Py_None) {
        PyObject *ls = PySequence_Fast(links, "links must be a sequence (one entry per cell)");
        if (!ls)
            goto fail;
        if (PySequence_Fast_GET_SIZE(ls) != nc) {
            PyErr_Format(PyExc_ValueError, "links must have one entry per cell (%d), got %zd", nc,
                         PySequence_Fast_GET_SIZE(ls));
            Py_DECREF(ls);
            goto fail;
        }
        for (int c = 0; c < nc; c++) {
            Py_ssize_t len =
                read_cells(PySequence_Fast_GET_ITEM(ls, c), "links of cell", c, nc, buf, nc);
            if (len < 0) {
                Py_DECREF(ls);
                goto fail;
            }
            for (Py_ssize_t i = 0; i < len; i++) {
                if (buf[i] == c) {
                    Py_DECREF(ls);
                    PyErr_Format(PyExc_ValueError, "cell %d is linked to itself", c);
                    goto fail;
                }
                adj[(size_t)c * nc + buf[i]] = adj[(size_t)buf[i] * nc + c] = 1;
                has_links = 1;
            }
        }
        Py_DECREF(ls);
    }
    size_t total = 0;
    for (size_t i = 0; i < (size_t)nc * nc; i++)
        total += adj[i];
    self->sh.peers = malloc(sizeof(int16_t) * (total + 1));
    if (!self->sh.peers)
        goto nomem;
    total = 0;
    for (int c = 0; c < nc; c++) {
        self->sh.peer_start[c] = (int32_t)total;
        for (int p = 0; p < nc; p++)
            if (adj[(size_t)c * nc + p])
                self->sh.peers[total++] = (int16_t)p;
    }
    self->sh.peer_start[nc] = (int32_t)total;
    self->sh.std9 = !general && n == 9 && !has_links && is_standard9(self->sh.house, (int)nh);
    if (!self->sh.std9 && !general && shudu_band9_extras(&self->sh, has_links) < 0)
        goto nomem;
    if (!self->sh.std9 && !self->sh.b9x && build_locks(&self->sh) < 0)
        goto nomem;
    free(adj);
    Py_DECREF(hs);
    return (PyObject *)self;
nomem:
    PyErr_NoMemory();
fail:
    free(adj);
    Py_DECREF(hs);
    Py_XDECREF(self);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Reading givens                                                           */
/* ------------------------------------------------------------------------ */

/* Digit value of one puzzle character, 0 for empty, -1 if not a character
 * of an n x n puzzle: 1-9 then A-P (either case) for 10-25; '.' or '0' empty. */
static inline int
char_value(int ch, int n)
{
    int v;
    if (ch == '.' || ch == '0')
        return 0;
    if (ch >= '1' && ch <= '9')
        v = ch - '0';
    else if (ch >= 'A' && ch <= 'Z')
        v = ch - 'A' + 10;
    else if (ch >= 'a' && ch <= 'z')
        v = ch - 'a' + 10;
    else
        return -1;
    return v <= n ? v : -1;
}

static const char DIGIT_CHARS[] = SHUDU_DIGIT_CHARS;

static int
bad_char(Py_ssize_t puzzle, Py_ssize_t pos, Py_UCS4 ch, int n)
{
    PyErr_Format(PyExc_ValueError,
                 "puzzle %zd, character %zd: '%c' is not a digit of a %dx%d puzzle (1-%c, '.' or "
                 "'0' for empty)",
                 puzzle + 1, pos + 1, (int)ch, n, n, DIGIT_CHARS[n]);
    return -1;
}

/* One more than the digit value of each byte (1 for '.' and '0', 2..26 for 1-9 and A-P in
 * either case, up to 36 for Z), 0 for a byte that is no puzzle character: reading a line
 * is then one load per character, with no branch, and the message is looked for only
 * when some character is bad. */
#define DIGIT_CODE(c, v) [c] = (v) + 1
static const uint8_t CHAR_CODE[256] = {
    DIGIT_CODE('.', 0),  DIGIT_CODE('0', 0),  DIGIT_CODE('1', 1),  DIGIT_CODE('2', 2),
    DIGIT_CODE('3', 3),  DIGIT_CODE('4', 4),  DIGIT_CODE('5', 5),  DIGIT_CODE('6', 6),
    DIGIT_CODE('7', 7),  DIGIT_CODE('8', 8),  DIGIT_CODE('9', 9),  DIGIT_CODE('A', 10),
    DIGIT_CODE('B', 11), DIGIT_CODE('C', 12), DIGIT_CODE('D', 13), DIGIT_CODE('E', 14),
    DIGIT_CODE('F', 15), DIGIT_CODE('G', 16), DIGIT_CODE('H', 17), DIGIT_CODE('I', 18),
    DIGIT_CODE('J', 19), DIGIT_CODE('K', 20), DIGIT_CODE('L', 21), DIGIT_CODE('M', 22),
    DIGIT_CODE('N', 23), DIGIT_CODE('O', 24), DIGIT_CODE('P', 25), DIGIT_CODE('Q', 26),
    DIGIT_CODE('R', 27), DIGIT_CODE('S', 28), DIGIT_CODE('T', 29), DIGIT_CODE('U', 30),
    DIGIT_CODE('V', 31), DIGIT_CODE('W', 32), DIGIT_CODE('X', 33), DIGIT_CODE('Y', 34),
    DIGIT_CODE('Z', 35), DIGIT_CODE('a', 10), DIGIT_CODE('b', 11), DIGIT_CODE('c', 12),
    DIGIT_CODE('d', 13), DIGIT_CODE('e', 14), DIGIT_CODE('f', 15), DIGIT_CODE('g', 16),
    DIGIT_CODE('h', 17), DIGIT_CODE('i', 18), DIGIT_CODE('j', 19), DIGIT_CODE('k', 20),
    DIGIT_CODE('l', 21), DIGIT_CODE('m', 22), DIGIT_CODE('n', 23), DIGIT_CODE('o', 24),
    DIGIT_CODE('p', 25), DIGIT_CODE('q', 26), DIGIT_CODE('r', 27), DIGIT_CODE('s', 28),
    DIGIT_CODE('t', 29), DIGIT_CODE('u', 30), DIGIT_CODE('v', 31), DIGIT_CODE('w', 32),
    DIGIT_CODE('x', 33), DIGIT_CODE('y', 34), DIGIT_CODE('z', 35),
};
#undef DIGIT_CODE

/* A 9x9 line (81 bytes at u) of '.', '0' and 1-9 only, the common case, read 16 bytes at a
 * time: 1 with givens filled, 0 (givens partly written) when some byte is anything else,
 * for the table-driven loops below to read and judge. */
static inline int
read_line9(const unsigned char *u, uint8_t *givens)
{
#if defined(__SSE2__)
    const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9), dot = _mm_set1_epi8('.');
    int good = 0xFFFF;
    for (int k = 0; k < 5; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(u + 16 * k));
        __m128i d = _mm_sub_epi8(v, zero);
        __m128i digit = _mm_cmpeq_epi8(_mm_min_epu8(d, nine), d);  /* '0'..'9' */
        __m128i empty = _mm_cmpeq_epi8(v, dot);
        good &= _mm_movemask_epi8(_mm_or_si128(digit, empty));
        _mm_storeu_si128((__m128i *)(givens + 16 * k), _mm_and_si128(d, digit));
    }
    unsigned last = u[80] - (unsigned)'0';
    givens[80] = (uint8_t)(last <= 9 ? last : 0);
    return good == 0xFFFF && (last <= 9 || u[80] == '.');
#else
    (void)u;
    (void)givens;
    return 0;
#endif
}

/* Fill givens (nc bytes) from one line of text. */
static int
read_line_bytes(const char *s, Py_ssize_t len, Py_ssize_t index, int n, uint8_t *givens)
{
    int nc = n * n;
    if (len != nc) {
        PyErr_Format(PyExc_ValueError, "puzzle %zd has %zd characters; a %dx%d puzzle needs %d",
                     index + 1, len, n, n, nc);
        return -1;
    }
    const unsigned char *u = (const unsigned char *)s;
    if (n == 9 && read_line9(u, givens))
        return 0;
    unsigned top = (unsigned)n + 1, bad = 0;
    for (int i = 0; i < nc; i++) {
        unsigned code = CHAR_CODE[u[i]];
        bad |= (unsigned)(code - 1u >= top); /* 0 (no character) wraps around */
        givens[i] = (uint8_t)(code - 1u);
    }
    if (bad)
        for (int i = 0; i < nc; i++)
            if (char_value(u[i], n) < 0)
                return bad_char(index, i, u[i], n);
    return 0;
}

/* Fill givens (nc bytes) from one line of nc characters, with no error raised: 1 when every
 * character is a digit of the size or an empty mark, else 0 (read_line_bytes names it).
 * Needs no interpreter, so batch workers run it. */
static int
scan_line(const char *s, int n, uint8_t *givens)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n == 9 && read_line9(u, givens))
        return 1;
    unsigned top = (unsigned)n + 1, bad = 0;
    for (int i = 0; i < n * n; i++) {
        unsigned code = CHAR_CODE[u[i]];
        bad |= (unsigned)(code - 1u >= top);
        givens[i] = (uint8_t)(code - 1u);
    }
    return !bad;
}

/* The line of a batch buffer that starts at p (before end): its length, less a final \r, in
 * *len; returns where the next line starts. */
static const char *
line_at(const char *p, const char *end, Py_ssize_t *len)
{
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    *len = (eol ? eol : end) - p;
    if (*len && p[*len - 1] == '\r')
        (*len)--;
    return eol ? eol + 1 : end;
}

/* Read every line of a batch buffer, as read_line_bytes does: -1 with the error of the first
 * line that is no puzzle, else 0. */
static int
read_lines(const Py_buffer *view, int n)
{
    const char *p = view->buf, *end = p + view->len;
    Py_ssize_t count = 0;
    uint8_t givens[MAX_CELLS];
    while (p < end) {
        Py_ssize_t len;
        const char *next = line_at(p, end, &len);
        if (read_line_bytes(p, len, count, n, givens) < 0)
            return -1;
        count++;
        p = next;
    }
    return 0;
}

static int
read_line_str(PyObject *str, Py_ssize_t index, int n, uint8_t *givens)
{
    if (!PyUnicode_Check(str)) {
        if (PyBytes_Check(str))
            return read_line_bytes(PyBytes_AS_STRING(str), PyBytes_GET_SIZE(str), index, n,
                                   givens);
        PyErr_Format(PyExc_TypeError, "puzzle %zd is %.100s, not str", index + 1,
                     Py_TYPE(str)->tp_name);
        return -1;
    }
    Py_ssize_t len = PyUnicode_GET_LENGTH(str);
    /* an ASCII string's characters are its bytes: read them as a bytes line is read, with
     * a table and no branch a character (the loop below costs 0.2 µs a 9x9 puzzle more) */
    if (PyUnicode_IS_ASCII(str))
        return read_line_bytes((const char *)PyUnicode_DATA(str), len, index, n, givens);
    int nc = n * n;
    if (len != nc) {
        PyErr_Format(PyExc_ValueError, "puzzle %zd has %zd characters; a %dx%d puzzle needs %d",
                     index + 1, len, n, n, nc);
        return -1;
    }
    int kind = PyUnicode_KIND(str);
    const void *data = PyUnicode_DATA(str);
    for (int i = 0; i < nc; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        int v = ch < 128 ? char_value((int)ch, n) : -1;
        if (v < 0)
            return bad_char(index, i, ch, n);
        givens[i] = (uint8_t)v;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Search objects (one puzzle, resumable)                                   */
/* ------------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    ShapeObject *shape;
    search_t s;
    int ready;
    int busy;
} SearchObject;

static PyTypeObject SearchType;

static void
Search_dealloc(SearchObject *self)
{
    if (self->ready)
        search_free(&self->s);
    Py_XDECREF(self->shape);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ------------------------------------------------------------------------ */
/* Signals                                                                  */
/* ------------------------------------------------------------------------ */

/* The interrupt poll of a search that runs with the GIL released (budget_t.poll): take the
 * GIL back, run the signal handlers, release it again.  Nonzero when a handler raised (the
 * exception stays set on the thread state, for the caller to return once it holds the GIL);
 * then the batch's stop flag, if any, is set for the other threads. */
typedef struct {
    PyThreadState *ts;
    volatile int *stop;
} poll_t;

static int
poll_signals(void *arg)
{
    poll_t *pl = arg;
    PyEval_RestoreThread(pl->ts);
    int raised = PyErr_CheckSignals() < 0;
    pl->ts = PyEval_SaveThread();
    if (raised && pl->stop)
        *pl->stop = 1;
    return raised;
}

/* Whether this thread runs Python's signal handlers (only the main thread does): elsewhere a
 * poll would only wait for the GIL. */
static int
handles_signals(void)
{
#if PY_VERSION_HEX < 0x030D0000
    return _PyOS_IsMainThread();
#else
    return 1; /* PyErr_CheckSignals does nothing in other threads */
#endif
}

/* Release the GIL for a search with budget b, polling for signals when this thread handles
 * them (stop: the batch's flag, or NULL). */
static void
release_for_search(budget_t *b, poll_t *pl, volatile int *stop)
{
    pl->stop = stop;
    b->stop = stop;
    if (handles_signals()) {
        b->poll = poll_signals;
        b->poll_arg = pl;
    }
    pl->ts = PyEval_SaveThread();
}

static int
parse_budget(PyObject *node_limit, double timeout, budget_t *b)
{
    memset(b, 0, sizeof(*b));
    b->node_limit = UINT64_MAX;
    if (node_limit != Py_None) {
        int overflow = 0;
        long long v;
        if (!PyLong_Check(node_limit)) {
            PyErr_SetString(PyExc_TypeError, "node_limit must be an int or None");
            return -1;
        }
        v = PyLong_AsLongLongAndOverflow(node_limit, &overflow);
        if (v < 0 || overflow < 0) {
            PyErr_SetString(PyExc_ValueError, "node_limit must not be negative");
            return -1;
        }
        b->node_limit = overflow > 0 ? UINT64_MAX : (uint64_t)v;
    }
    if (timeout != timeout) {
        PyErr_SetString(PyExc_ValueError, "timeout must not be NaN");
        return -1;
    }
    b->deadline = timeout < 0 ? -1.0 : monotonic_seconds() + timeout;
    /* with a deadline the first node reads the clock; without one the first checkpoint is
     * BUDGET_EVERY nodes in (and the first poll POLL_SECONDS after it, see common.h) */
    b->tick = b->deadline < 0 ? 1u : 0u;
    return 0;
}

/* Shape.search(givens: bytes) -> Search */
static PyObject *
Shape_search(ShapeObject *self, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (view.len != self->sh.ncells) {
        PyErr_Format(PyExc_ValueError, "givens must have %d entries, got %zd", self->sh.ncells,
                     view.len);
        PyBuffer_Release(&view);
        return NULL;
    }
    const uint8_t *g = view.buf;
    for (int c = 0; c < self->sh.ncells; c++)
        if (g[c] > self->sh.n) {
            PyErr_Format(PyExc_ValueError, "given %d at cell %d is outside 0..%d", g[c], c,
                         self->sh.n);
            PyBuffer_Release(&view);
            return NULL;
        }
    SearchObject *obj = PyObject_New(SearchObject, &SearchType);
    if (!obj) {
        PyBuffer_Release(&view);
        return NULL;
    }
    obj->ready = obj->busy = 0;
    Py_INCREF(self);
    obj->shape = self;
    if (search_init(&obj->s, &self->sh) < 0) {
        PyBuffer_Release(&view);
        Py_DECREF(obj);
        return PyErr_NoMemory();
    }
    obj->ready = 1;
    search_reset(&obj->s, g);
    PyBuffer_Release(&view);
    return (PyObject *)obj;
}

/* Search.run(want, keep, node_limit=None, timeout=-1.0) -> (solutions, code) */
static PyObject *
Search_run(SearchObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"want", "keep", "node_limit", "timeout", NULL};
    Py_ssize_t want, keep;
    PyObject *node_limit = Py_None;
    double timeout = -1.0;
    budget_t b;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nn|Od:run", kwlist, &want, &keep, &node_limit,
                                     &timeout))
        return NULL;
    if (want < 0 || keep < 0)
        return PyErr_Format(PyExc_ValueError, "want and keep must not be negative");
    if (parse_budget(node_limit, timeout, &b) < 0)
        return NULL;
    if (self->busy)
        return PyErr_Format(PyExc_RuntimeError, "this search is running in another thread");
    int nc = self->shape->sh.ncells;
    if (keep > want)
        keep = want;
    uint8_t *out = keep ? malloc((size_t)keep * nc) : NULL;
    if (keep && !out)
        return PyErr_NoMemory();
    Py_ssize_t found = 0;
    int rc = RUN_SOLUTION;
    poll_t pl;
    self->busy = 1;
    release_for_search(&b, &pl, NULL);
    while (found < want) {
        rc = search_next(&self->s, found < keep ? out + found * nc : NULL, &b);
        if (rc != RUN_SOLUTION)
            break;
        found++;
    }
    PyEval_RestoreThread(pl.ts);
    self->busy = 0;
    if (b.interrupted) {
        /* a signal handler raised (KeyboardInterrupt): the search stopped before a node and
         * can be run again */
        free(out);
        return NULL;
    }
    if (rc == RUN_NOMEM) {
        free(out);
        return PyErr_NoMemory();
    }
    Py_ssize_t kept = found < keep ? found : keep;
    PyObject *list = PyList_New(kept);
    if (!list) {
        free(out);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < kept; i++) {
        PyObject *sol = PyBytes_FromStringAndSize((const char *)out + i * nc, nc);
        if (!sol) {
            Py_DECREF(list);
            free(out);
            return NULL;
        }
        PyList_SET_ITEM(list, i, sol);
    }
    free(out);
    /* 0: stopped at `want` (more may follow), 1: exhausted, 2: budget spent */
    int code = rc == RUN_SOLUTION ? CALL_STOPPED : rc == RUN_EXHAUSTED ? CALL_EXHAUSTED : CALL_BUDGET;
    return Py_BuildValue("(Nni)", list, found, code);
}

static PyObject *
Search_get_nodes(SearchObject *self, void *closure)
{
    return PyLong_FromUnsignedLongLong(self->s.p.nodes);
}

static PyObject *
Search_get_guesses(SearchObject *self, void *closure)
{
    return PyLong_FromUnsignedLongLong(self->s.p.guesses);
}

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)(void (*)(void))Search_run, METH_VARARGS | METH_KEYWORDS,
     "run(want, keep, node_limit=None, timeout=-1.0) -> (solutions, found, code)"},
    {NULL, NULL, 0, NULL},
};

static PyObject *
Search_get_settled(SearchObject *self, void *closure)
{
    return PyLong_FromUnsignedLongLong(self->s.p.settled);
}

static PyGetSetDef Search_getset[] = {
    {"settled", (getter)Search_get_settled, NULL, "empty cells filled before the first guess",
     NULL},
    {"nodes", (getter)Search_get_nodes, NULL, "search nodes opened so far", NULL},
    {"guesses", (getter)Search_get_guesses, NULL, "guesses made so far", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "shudu._core_c.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One resumable search over one puzzle (see _fast_py.Search).",
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* ------------------------------------------------------------------------ */
/* Batches                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct {
    const shape_t *sh;
    uint8_t *givens;        /* count * ncells, when the puzzles came as a list */
    const char *text;       /* else the lines, read by the workers (see below) */
    const Py_ssize_t *starts; /* where each line of text starts, or NULL: every `stride` bytes */
    Py_ssize_t stride;
    int unread;             /* some line of text held a character that is no digit */
    Py_ssize_t count;
    uint64_t limit;
    budget_t budget;        /* template: each worker takes a copy */
    uint8_t *status;
    uint8_t *solutions;     /* count * ncells digit values */
    uint64_t *counts, *nodes, *guesses, *settled;
    Py_ssize_t next;        /* next puzzle to take (under lock when threaded) */
    Py_ssize_t chunk;       /* puzzles taken at a time */
    int failed;             /* out of memory */
    volatile int stop;      /* interrupted: every thread stops at its next checkpoint */
#if SHUDU_THREADS
    pthread_mutex_t lock;
    pthread_cond_t done;    /* signalled as each worker thread ends */
    int active;             /* worker threads still running (under lock) */
#endif
} batch_t;

static void
batch_one(batch_t *bt, search_t *s, budget_t *b, Py_ssize_t i)
{
    int nc = bt->sh->ncells;
    uint8_t *sol = bt->solutions + (size_t)i * nc;
    uint64_t found = 0;
    int rc = RUN_SOLUTION;
    uint8_t line[MAX_CELLS]; /* a line of text read on this thread: no batch-wide buffer to fill */
    if (!bt->text) {
        search_reset(s, bt->givens + (size_t)i * nc);
    } else if (scan_line(bt->text + (bt->starts ? bt->starts[i] : i * bt->stride), bt->sh->n, line)) {
        search_reset(s, line);
    } else {
        bt->unread = 1; /* the calling thread reads the batch again, to raise the error */
        bt->status[i] = ST_NONE;
        return;
    }
    memset(sol, 0, (size_t)nc);
    while (found < bt->limit) {
        rc = search_next(s, found ? NULL : sol, b);
        if (rc != RUN_SOLUTION)
            break;
        found++;
    }
    if (rc == RUN_NOMEM)
        bt->failed = 1;
    bt->status[i] = rc == RUN_BUDGET || rc == RUN_NOMEM ? ST_TIMEOUT
                    : found == 0                        ? ST_NONE
                    : found >= 2                        ? ST_MULTIPLE
                    : rc == RUN_EXHAUSTED               ? ST_UNIQUE
                                                        : ST_SOLVED;
    /* digit values to characters, here on the worker's thread (up to 9x9 without the table:
     * the compiler turns that loop into a few vector instructions) */
    if (nc <= 81)
        for (int j = 0; j < nc; j++)
            sol[j] = (uint8_t)(sol[j] ? sol[j] + '0' : '.');
    else
        for (int j = 0; j < nc; j++)
            sol[j] = (uint8_t)DIGIT_CHARS[sol[j]];
    bt->counts[i] = found;
    bt->nodes[i] = s->p.nodes;
    bt->guesses[i] = s->p.guesses;
    bt->settled[i] = s->p.settled;
}

/* The next chunk of puzzles, [*first, return value); empty at the end.  Whole chunks keep
 * each thread writing its own stretch of the result buffers (one status byte and four
 * 8-byte counters a puzzle): threads share a cache line only where two chunks meet. */
static Py_ssize_t
batch_take(batch_t *bt, Py_ssize_t *first)
{
#if SHUDU_THREADS
    pthread_mutex_lock(&bt->lock);
#endif
    Py_ssize_t i = bt->next, end = i + bt->chunk < bt->count ? i + bt->chunk : bt->count;
    bt->next = end;
#if SHUDU_THREADS
    pthread_mutex_unlock(&bt->lock);
#endif
    *first = i;
    return end;
}

/* Search chunks of the batch until none is left or the batch is stopped, with budget b (the
 * batch's, with this thread's poll and the stop flag). */
static void
batch_run(batch_t *bt, budget_t *b)
{
    search_t s;
    if (search_init(&s, bt->sh) < 0) {
        bt->failed = 1;
        return;
    }
    while (!b->interrupted) {
        Py_ssize_t i, end = batch_take(bt, &i);
        if (i >= end)
            break;
        for (; i < end && !b->interrupted; i++) {
            if (b->deadline >= 0)
                b->tick = 0; /* each puzzle reads the clock first */
            batch_one(bt, &s, b, i);
        }
    }
    search_free(&s);
}

#if SHUDU_THREADS
/* A worker thread: no interpreter, so no poll; the stop flag tells it to end. */
static void *
batch_worker(void *arg)
{
    batch_t *bt = arg;
    budget_t b = bt->budget;
    b.stop = &bt->stop;
    batch_run(bt, &b);
    pthread_mutex_lock(&bt->lock);
    bt->active--;
    pthread_cond_signal(&bt->done);
    pthread_mutex_unlock(&bt->lock);
    return NULL;
}

/* The calling thread, its own share done, waits for the workers, polling for signals every
 * POLL_SECONDS meanwhile when it handles them (an interrupt sets the stop flag). */
static void
batch_wait(batch_t *bt, budget_t *b)
{
    pthread_mutex_lock(&bt->lock);
    while (bt->active > 0) {
        if (b->poll && !b->interrupted) {
            pthread_mutex_unlock(&bt->lock);
            if (b->poll(b->poll_arg))
                b->interrupted = 1;
            pthread_mutex_lock(&bt->lock);
            if (bt->active == 0)
                break;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (long)(POLL_SECONDS * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&bt->done, &bt->lock, &until);
    }
    pthread_mutex_unlock(&bt->lock);
}
#endif

/* The batch on `threads` threads, this one among them; 1 when a signal handler raised. */
static int
batch_threads(batch_t *bt, int threads)
{
    poll_t pl;
    budget_t b = bt->budget;
    release_for_search(&b, &pl, &bt->stop);
#if SHUDU_THREADS
    if (threads > 1) {
        pthread_t tid[256];
        int started = 0;
        pthread_mutex_init(&bt->lock, NULL);
        pthread_cond_init(&bt->done, NULL);
        bt->active = 0;
        for (int t = 1; t < threads; t++) {
            pthread_mutex_lock(&bt->lock);
            bt->active++;
            pthread_mutex_unlock(&bt->lock);
            if (pthread_create(&tid[started], NULL, batch_worker, bt) == 0) {
                started++;
            } else {
                pthread_mutex_lock(&bt->lock);
                bt->active--;
                pthread_mutex_unlock(&bt->lock);
            }
        }
        batch_run(bt, &b);
        batch_wait(bt, &b);
        for (int t = 0; t < started; t++)
            pthread_join(tid[t], NULL);
        pthread_cond_destroy(&bt->done);
        pthread_mutex_destroy(&bt->lock);
    } else {
        batch_run(bt, &b);
    }
#else
    (void)threads;
    batch_run(bt, &b);
#endif
    PyEval_RestoreThread(pl.ts);
    return b.interrupted && PyErr_Occurred();
}

/* Shape.solve_many(puzzles, limit, threads, node_limit, timeout)
 *   -> (status bytes, solution bytes, counts, nodes, guesses, settled) */
static PyObject *
Shape_solve_many(ShapeObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"puzzles", "limit", "threads", "node_limit", "timeout", NULL};
    PyObject *puzzles, *limit_obj = NULL, *threads_obj = NULL;
    unsigned long long limit = 1;
    int threads = 1;
    PyObject *node_limit = Py_None;
    double timeout = -1.0;
    batch_t bt;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOOd:solve_many", kwlist, &puzzles,
                                     &limit_obj, &threads_obj, &node_limit, &timeout))
        return NULL;
    if (threads_obj) {
        int overflow = 0;
        long long v = PyLong_Check(threads_obj)
                          ? PyLong_AsLongLongAndOverflow(threads_obj, &overflow) : 0;
        if (!PyLong_Check(threads_obj))
            return PyErr_Format(PyExc_TypeError, "threads must be an int");
        if (v == -1 && PyErr_Occurred())
            return NULL;
        if (overflow || v < 1 || v > 256)
            return PyErr_Format(PyExc_ValueError, "threads must be between 1 and 256, got %R",
                                threads_obj);
        threads = (int)v;
    }
    if (limit_obj) {
        int overflow = 0;
        if (!PyLong_Check(limit_obj))
            return PyErr_Format(PyExc_TypeError, "limit must be an int");
        long long v = PyLong_AsLongLongAndOverflow(limit_obj, &overflow);
        if (v == -1 && PyErr_Occurred())
            return NULL;
        if (overflow < 0 || (!overflow && v < 1))
            return PyErr_Format(PyExc_ValueError, "limit must be at least 1");
        limit = overflow > 0 ? ULLONG_MAX : (unsigned long long)v;
    }
    memset(&bt, 0, sizeof(bt));
    if (parse_budget(node_limit, timeout, &bt.budget) < 0)
        return NULL;
    int n = self->sh.n, nc = self->sh.ncells;
    uint8_t *givens = NULL;
    Py_ssize_t count = 0;
    Py_buffer view;
    int held = 0;
    Py_ssize_t *starts = NULL;
    PyObject *status = NULL, *sols = NULL, *counts = NULL, *nodes = NULL, *guesses = NULL,
             *settled = NULL;
    if (PyObject_CheckBuffer(puzzles) && !PyUnicode_Check(puzzles)) {
        /* one buffer of fixed-width lines, each ended by \n (or \r\n): this thread finds
         * where the lines start, and the workers read them (a line that is no puzzle makes
         * this thread read them all again, to raise the error of the first such line) */
        if (PyObject_GetBuffer(puzzles, &view, PyBUF_SIMPLE) < 0)
            return NULL;
        held = 1;
        const char *p = view.buf, *end = p + view.len;
        /* the usual batch: lines of nc characters, each ended by \n.  Where every
         * (nc + 1)th byte is a line end, line i starts at i * (nc + 1): a line end inside a
         * line is a character that is no digit, which the workers find, and the error
         * comes from read_lines as below.  Else find where each line starts. */
        Py_ssize_t stride = nc + 1, fixed = view.len % stride == 0;
        for (Py_ssize_t at = nc; fixed && at < view.len; at += stride)
            fixed = p[at] == '\n';
        if (fixed) {
            bt.text = view.buf;
            bt.stride = stride;
            count = view.len / stride;
            goto read;
        }
        Py_ssize_t lines = 0;
        for (const char *q = p; (q = memchr(q, '\n', (size_t)(end - q))) != NULL; q++)
            lines++;
        lines += view.len > 0 && end[-1] != '\n';
        starts = malloc((size_t)(lines ? lines : 1) * sizeof(Py_ssize_t));
        if (!starts) {
            PyErr_NoMemory();
            goto fail;
        }
        int even = 1;
        while (p < end) {
            Py_ssize_t len;
            const char *next = line_at(p, end, &len);
            even &= len == nc;
            starts[count++] = p - (const char *)view.buf;
            p = next;
        }
        if (!even) {
            read_lines(&view, n); /* raises the first line's error */
            goto fail;
        }
        bt.text = view.buf;
        bt.starts = starts;
    } else {
        PyObject *seq = PySequence_Fast(puzzles, "puzzles must be a list of str or a bytes buffer");
        if (!seq)
            return NULL;
        count = PySequence_Fast_GET_SIZE(seq);
        givens = malloc((size_t)(count ? count : 1) * nc);
        if (!givens) {
            Py_DECREF(seq);
            return PyErr_NoMemory();
        }
        for (Py_ssize_t i = 0; i < count; i++)
            if (read_line_str(PySequence_Fast_GET_ITEM(seq, i), i, n,
                              givens + (size_t)i * nc) < 0) {
                Py_DECREF(seq);
                free(givens);
                return NULL;
            }
        Py_DECREF(seq);
    }
read:
    status = PyBytes_FromStringAndSize(NULL, count);
    sols = PyBytes_FromStringAndSize(NULL, count * nc);
    counts = PyBytes_FromStringAndSize(NULL, count * 8);
    nodes = PyBytes_FromStringAndSize(NULL, count * 8);
    guesses = PyBytes_FromStringAndSize(NULL, count * 8);
    settled = PyBytes_FromStringAndSize(NULL, count * 8);
    if (!status || !sols || !counts || !nodes || !guesses || !settled)
        goto fail;
    bt.sh = &self->sh;
    bt.givens = givens;
    bt.count = count;
    bt.limit = limit;
    bt.status = (uint8_t *)PyBytes_AS_STRING(status);
    bt.solutions = (uint8_t *)PyBytes_AS_STRING(sols);
    bt.counts = (uint64_t *)PyBytes_AS_STRING(counts);
    bt.nodes = (uint64_t *)PyBytes_AS_STRING(nodes);
    bt.guesses = (uint64_t *)PyBytes_AS_STRING(guesses);
    bt.settled = (uint64_t *)PyBytes_AS_STRING(settled);
    if (threads > count)
        threads = count > 0 ? (int)count : 1;
    /* chunks of 64 puzzles (a multiple of a cache line in every result buffer), smaller
     * when a batch is short, so that each thread still gets about eight of them */
    bt.chunk = threads == 1 ? (count > 0 ? count : 1) : count / (8 * threads);
    bt.chunk = bt.chunk > 64 && threads > 1 ? 64 : bt.chunk < 1 ? 1 : bt.chunk;
    if (batch_threads(&bt, threads))
        goto fail; /* a signal handler raised (KeyboardInterrupt) */
    if (bt.unread) {
        read_lines(&view, n); /* raises the first line's error */
        goto fail;
    }
    if (held)
        PyBuffer_Release(&view);
    held = 0;
    free(givens);
    free(starts);
    givens = NULL;
    starts = NULL;
    if (bt.failed) {
        PyErr_NoMemory();
        goto fail;
    }
    return Py_BuildValue("(NNNNNN)", status, sols, counts, nodes, guesses, settled);
fail:
    if (held)
        PyBuffer_Release(&view);
    free(givens);
    free(starts);
    Py_XDECREF(status);
    Py_XDECREF(sols);
    Py_XDECREF(counts);
    Py_XDECREF(nodes);
    Py_XDECREF(guesses);
    Py_XDECREF(settled);
    return NULL;
}

static PyObject *
Shape_get_n(ShapeObject *self, void *closure)
{
    return PyLong_FromLong(self->sh.n);
}

static PyObject *
Shape_get_std9(ShapeObject *self, void *closure)
{
    return PyBool_FromLong(self->sh.std9);
}

static PyObject *
Shape_get_var9(ShapeObject *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(self->sh.b9x != NULL);
}

static PyMethodDef Shape_methods[] = {
    {"search", (PyCFunction)Shape_search, METH_O, "search(givens: bytes) -> Search"},
    {"solve_many", (PyCFunction)(void (*)(void))Shape_solve_many, METH_VARARGS | METH_KEYWORDS,
     "solve_many(puzzles, limit=1, threads=1, node_limit=None, timeout=-1.0)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Shape_getset[] = {
    {"n", (getter)Shape_get_n, NULL, "grid size", NULL},
    {"std9", (getter)Shape_get_std9, NULL, "served by the 9x9 engine", NULL},
    {"var9", (getter)Shape_get_var9, NULL, "served by the 9x9 engine with extra houses", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ShapeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "shudu._core_c.Shape",
    .tp_basicsize = sizeof(ShapeObject),
    .tp_dealloc = (destructor)Shape_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A compiled grid shape: size, houses and links (see _fast_py.Shape).",
    .tp_methods = Shape_methods,
    .tp_getset = Shape_getset,
    .tp_new = Shape_new,
};

/* ------------------------------------------------------------------------ */
/* Module                                                                   */
/* ------------------------------------------------------------------------ */

/* _propagate9(givens: bytes) -> tuple of 81 digit masks, or None on contradiction.
 * The 9x9 engine's propagation from the givens alone, for the tests that compare it with
 * its Python statement (shudu/solvers/_band9_py.py). */
static PyObject *
core_propagate9(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    mask_t cand[81];
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (view.len != 81) {
        PyErr_Format(PyExc_ValueError, "givens must have 81 entries, got %zd", view.len);
        PyBuffer_Release(&view);
        return NULL;
    }
    uint8_t givens[81];
    memcpy(givens, view.buf, 81);
    PyBuffer_Release(&view);
    for (int c = 0; c < 81; c++)
        if (givens[c] > 9)
            return PyErr_Format(PyExc_ValueError, "given %d at cell %d is outside 0..9",
                                givens[c], c);
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = shudu_propagate9(givens, cand);
    Py_END_ALLOW_THREADS
    if (!ok)
        Py_RETURN_NONE;
    PyObject *out = PyTuple_New(81);
    if (!out)
        return NULL;
    for (int c = 0; c < 81; c++) {
        PyObject *v = PyLong_FromUnsignedLong(cand[c]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, c, v);
    }
    return out;
}

static PyObject *
int_tuple(const uint32_t *values, int count)
{
    PyObject *out = PyTuple_New(count);
    if (!out)
        return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *v = PyLong_FromUnsignedLong(values[i]);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

/* _band_tables() -> (BAND_KEEP, TRIAD_KEEP, ROW_BOX_OTHERS) as tuples of ints, for the
 * tests. */
static PyObject *
core_band_tables(PyObject *module, PyObject *unused)
{
    PyObject *keep = int_tuple(shudu_band_keep, 512);
    PyObject *triads = keep ? int_tuple(shudu_triad_keep, 512) : NULL;
    PyObject *others = triads ? int_tuple(shudu_row_box_others, 27) : NULL;
    if (!others) {
        Py_XDECREF(keep);
        Py_XDECREF(triads);
        return NULL;
    }
    return Py_BuildValue("(NNN)", keep, triads, others);
}

/* ------------------------------------------------------------------------ */
/* The constraint engine (solvers/core/constraints.h)                       */
/* ------------------------------------------------------------------------ */

/* Read a network of size n (int32 records, shudu.solvers.constraints.encode_network) and
 * its domains (uint32, one a cell, each a non-empty set of digits): 0, or -1 with an
 * exception set.  *dom is malloc'd. */
static int
read_network(int n, PyObject *records, PyObject *domains, cnet_t *net, mask_t **dom)
{
    Py_buffer rv, dv;
    const char *why = NULL;
    if (n < 4 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "size must be 4..%d, not %d", MAX_N, n);
        return -1;
    }
    if (PyObject_GetBuffer(records, &rv, PyBUF_SIMPLE) < 0)
        return -1;
    if (PyObject_GetBuffer(domains, &dv, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&rv);
        return -1;
    }
    Py_ssize_t ncells = dv.len / 4, nrec = rv.len / 4;
    int32_t *rec = malloc(rv.len ? (size_t)rv.len : 1);
    *dom = malloc(dv.len ? (size_t)dv.len : 1);
    int rc = -1;
    if (!rec || !*dom) {
        PyErr_NoMemory();
    } else if (rv.len % 4 || dv.len % 4 || ncells > MAX_CELLS) {
        PyErr_SetString(PyExc_ValueError, "records and domains must be arrays of 4-byte ints, "
                                          "at most MAX_SIZE**2 domains");
    } else {
        memcpy(rec, rv.buf, (size_t)rv.len);
        memcpy(*dom, dv.buf, (size_t)dv.len);
        mask_t full = (mask_t)((1u << n) - 1u);
        rc = 0;
        for (Py_ssize_t c = 0; c < ncells && !rc; c++)
            if (!(*dom)[c] || ((*dom)[c] & ~full)) {
                PyErr_Format(PyExc_ValueError, "domain %zd is not a non-empty set of 1..%d", c, n);
                rc = -1;
            }
        if (!rc) {
            rc = cnet_init(net, n, (int)ncells, rec, (size_t)nrec, &why);
            if (rc == -1)
                PyErr_Format(PyExc_ValueError, "bad constraint network: %s", why);
            else if (rc < 0)
                PyErr_NoMemory();
        }
    }
    free(rec);
    PyBuffer_Release(&rv);
    PyBuffer_Release(&dv);
    if (rc < 0) {
        free(*dom);
        *dom = NULL;
    }
    return rc < 0 ? -1 : 0;
}

/* constraint_propagate(size, records, domains) -> the domains after one propagation of every
 * propagator to a fixed point, or None on a contradiction (for the tests that compare it
 * with the Python engine). */
static PyObject *
core_constraint_propagate(PyObject *module, PyObject *args)
{
    int n, ok;
    PyObject *records, *domains;
    cnet_t net;
    mask_t *dom;
    if (!PyArg_ParseTuple(args, "iOO:constraint_propagate", &n, &records, &domains))
        return NULL;
    if (read_network(n, records, domains, &net, &dom) < 0)
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    ok = cnet_propagate(&net, dom, -1);
    Py_END_ALLOW_THREADS
    PyObject *out = ok ? int_tuple(dom, net.ncells) : Py_NewRef(Py_None);
    cnet_free(&net);
    free(dom);
    return out;
}

typedef struct {
    PyObject_HEAD
    csearch_t s;
    int ready;
    int busy;
} ConstraintSearchObject;

static void
ConstraintSearch_dealloc(ConstraintSearchObject *self)
{
    if (self->ready)
        csearch_free(&self->s);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ConstraintSearch(size, records, domains) */
static PyObject *
ConstraintSearch_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"size", "records", "domains", NULL};
    int n;
    PyObject *records, *domains;
    cnet_t net;
    mask_t *dom;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOO:ConstraintSearch", kwlist, &n, &records,
                                     &domains))
        return NULL;
    if (read_network(n, records, domains, &net, &dom) < 0)
        return NULL;
    ConstraintSearchObject *self = (ConstraintSearchObject *)type->tp_alloc(type, 0);
    if (!self) {
        cnet_free(&net);
        free(dom);
        return NULL;
    }
    int rc = csearch_init(&self->s, &net, dom);
    free(dom);
    if (rc < 0) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    self->ready = 1;
    return (PyObject *)self;
}

/* ConstraintSearch.run(want, node_limit=None, timeout=-1.0) -> (grids, code): up to want
 * full grids (bytes of digits), and 0 (stopped at want), 1 (exhausted) or 2 (budget spent:
 * the node count passed node_limit, or the timeout ran out). */
static PyObject *
ConstraintSearch_run(ConstraintSearchObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"want", "node_limit", "timeout", NULL};
    Py_ssize_t want;
    PyObject *node_limit = Py_None;
    double timeout = -1.0;
    budget_t b;
    poll_t pl;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "n|Od:run", kwlist, &want, &node_limit, &timeout))
        return NULL;
    if (want < 0)
        return PyErr_Format(PyExc_ValueError, "want must not be negative");
    if (parse_budget(node_limit, timeout, &b) < 0)
        return NULL;
    if (b.node_limit != UINT64_MAX)
        b.node_limit++; /* a node past the limit is counted, then refused (as in Python) */
    if (self->busy)
        return PyErr_Format(PyExc_RuntimeError, "this search is running in another thread");
    int nc = self->s.net.ncells, rc = RUN_SOLUTION;
    uint8_t *out = want ? malloc((size_t)want * (size_t)(nc ? nc : 1)) : NULL;
    if (want && !out)
        return PyErr_NoMemory();
    Py_ssize_t found = 0;
    self->busy = 1;
    release_for_search(&b, &pl, NULL);
    while (found < want && (rc = csearch_next(&self->s, out + found * nc, &b)) == RUN_SOLUTION)
        found++;
    PyEval_RestoreThread(pl.ts);
    self->busy = 0;
    PyObject *list = b.interrupted ? NULL : PyList_New(found);
    for (Py_ssize_t i = 0; list && i < found; i++) {
        PyObject *grid = PyBytes_FromStringAndSize((const char *)out + i * nc, nc);
        if (!grid)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, grid);
    }
    free(out);
    if (!list)
        return NULL;
    int code = rc == RUN_SOLUTION ? CALL_STOPPED : rc == RUN_EXHAUSTED ? CALL_EXHAUSTED : CALL_BUDGET;
    return Py_BuildValue("(Ni)", list, code);
}

static PyObject *
ConstraintSearch_get(ConstraintSearchObject *self, void *which)
{
    uint64_t v = which == (void *)0 ? self->s.nodes : which == (void *)1 ? self->s.guesses : self->s.settled;
    return PyLong_FromUnsignedLongLong(v);
}

static PyMethodDef ConstraintSearch_methods[] = {
    {"run", (PyCFunction)(void (*)(void))ConstraintSearch_run, METH_VARARGS | METH_KEYWORDS,
     "run(want, node_limit=None, timeout=-1.0) -> (grids, code)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef ConstraintSearch_getset[] = {
    {"nodes", (getter)ConstraintSearch_get, NULL, "search nodes opened so far", (void *)0},
    {"guesses", (getter)ConstraintSearch_get, NULL, "branch points so far", (void *)1},
    {"settled", (getter)ConstraintSearch_get, NULL, "open cells fixed before the first guess",
     (void *)2},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ConstraintSearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "shudu._core_c.ConstraintSearch",
    .tp_basicsize = sizeof(ConstraintSearchObject),
    .tp_dealloc = (destructor)ConstraintSearch_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One resumable search of the constraint engine (see shudu.solvers.constraints).",
    .tp_methods = ConstraintSearch_methods,
    .tp_getset = ConstraintSearch_getset,
    .tp_new = ConstraintSearch_new,
};

static PyMethodDef core_methods[] = {
    {"_propagate9", (PyCFunction)core_propagate9, METH_O,
     "_propagate9(givens: bytes) -> 81 digit masks after the 9x9 engine's propagation, or "
     "None (for tests)"},
    {"_band_tables", (PyCFunction)core_band_tables, METH_NOARGS,
     "_band_tables() -> (BAND_KEEP, TRIAD_KEEP, ROW_BOX_OTHERS) of the 9x9 engine (for tests)"},
    {"settle_tables", (PyCFunction)shudu_settle_tables, METH_VARARGS,
     "settle_tables(size, house_bits, peer_bits, cell_houses, boxlike, overlaps) -> tables"},
    {"settle", (PyCFunction)(void (*)(void))shudu_settle, METH_FASTCALL,
     "settle(tables, cands, where, placed, values, empty, start_cell, start_digit, quiet, "
     "limit, nrules) -> (code, steps, empty): shudu.logic.propagate.settle in C"},
    {"start", (PyCFunction)(void (*)(void))shudu_start, METH_FASTCALL,
     "start(tables, values) -> (cands, where, placed, empty): the grid of some placed digits, "
     "shudu.logic.grid.start_py in C"},
    {"singles", (PyCFunction)(void (*)(void))shudu_singles, METH_FASTCALL,
     "singles(tables, cands, where, placed, values, empty, kinds, max_rounds, waiting, stamp) -> "
     "(code, empty, log, stamp): rounds of singles, shudu.logic.singles_rounds in C"},
    {"locked", (PyCFunction)(void (*)(void))shudu_locked, METH_FASTCALL,
     "locked(tables, cands, where, placed, values, empty, pointing) -> the patterns of "
     "shudu.logic.intersections.locked"},
    {"subsets", (PyCFunction)(void (*)(void))shudu_subsets, METH_FASTCALL,
     "subsets(tables, cands, where, placed, values, empty, k, mode) -> the patterns of "
     "shudu.logic.subsets (mode 0 naked, 1 locked, 2 hidden)"},
    {"direct_forcing", (PyCFunction)(void (*)(void))shudu_direct_forcing, METH_FASTCALL,
     "direct_forcing(tables, cands, where, empty) -> [(nodes, cell, digit index, on, choice)]: "
     "the conclusions of shudu.logic.static_forcing in C"},
    {"forcing", (PyCFunction)(void (*)(void))shudu_forcing, METH_FASTCALL,
     "forcing(tables, cands, where, placed, values, empty, nrules, quiet, contradictions) -> "
     "the shortest contradictions or the cheapest verities of shudu.logic.forcing in C"},
    {"nested", (PyCFunction)(void (*)(void))shudu_nested, METH_FASTCALL,
     "nested(tables, cands, where, placed, values, empty, cell, digit, quiet, seconds, nodes) -> "
     "(code, steps, inner, settles): an assumption of shudu.logic.forcing's nested nets in C"},
    {"first_contradiction", (PyCFunction)(void (*)(void))shudu_first_contradiction_call, METH_FASTCALL,
     "first_contradiction(tables, cands, where, placed, values, empty, seconds, nodes) -> (code, "
     "settles, found): the forcing-net contradiction inside of shudu.logic.forcing in C"},
    {"trace", (PyCFunction)(void (*)(void))shudu_trace, METH_FASTCALL,
     "trace(tables, cands, where, placed, values, empty, cell, digit, nrules, keep, seconds, "
     "nodes) -> (code, settles, lines, broken, placed, gone): the lines of "
     "shudu.logic.implications.Trace in C"},
    {"nishio", (PyCFunction)(void (*)(void))shudu_nishio, METH_FASTCALL,
     "nishio(tables, where, placed) -> the shortest one-digit contradictions of "
     "shudu.logic.nishio in C"},
    {"als", (PyCFunction)(void (*)(void))shudu_als, METH_FASTCALL,
     "als(tables, cands, where, empty, max_cells, finder, seconds, nodes) -> (code, units, step): "
     "the first step of an almost-locked-set finder of shudu.logic.als_find in C"},
    {"als_sets", (PyCFunction)(void (*)(void))shudu_als_sets, METH_FASTCALL,
     "als_sets(tables, cands, where, empty, max_cells, want, seconds, nodes) -> (code, units, found): "
     "the almost locked sets of shudu.logic.als (want 0), their links (1: disjoint, 2: overlapping) "
     "or the ALS-XY-Wings over them (3)"},
    {"fish", (PyCFunction)(void (*)(void))shudu_fish, METH_FASTCALL,
     "fish(tables, where, rows, columns, k, finned, fin_lines) -> None or (across, base, cover): "
     "the first fish of one digit of shudu.logic.fish in C"},
    {"fishes", (PyCFunction)(void (*)(void))shudu_fishes, METH_FASTCALL,
     "fishes(tables, where, k, base_pool, cover_pool, max_fins, max_endo) -> (units, fish): every "
     "fish of one digit of shudu.logic.complex_fish in C"},
    {"chain_graph", (PyCFunction)(void (*)(void))shudu_chain_graph, METH_FASTCALL,
     "chain_graph(strong, weak) -> graph: a chain search's links, read once"},
    {"chain_weak", (PyCFunction)(void (*)(void))shudu_chain_weak, METH_FASTCALL,
     "chain_weak(tables, nodes, cells, digits, cands, base, in_cell) -> the weak links of "
     "shudu.logic.loop_graph.Graph in C"},
    {"chain_search", (PyCFunction)(void (*)(void))shudu_chain_search, METH_FASTCALL,
     "chain_search(graph, starts, limit, ends, seconds, nodes) -> (code, units, chain): "
     "shudu.logic.chains._search in C"},
    {"chain_sweep", (PyCFunction)(void (*)(void))shudu_chain_sweep, METH_FASTCALL,
     "chain_sweep(graph, starts, limit, seconds, nodes) -> (code, units, kept): the continuous "
     "nice loops' sweep of shudu.logic.loops in C"},
    {"chain_ends", (PyCFunction)(void (*)(void))shudu_chain_ends, METH_FASTCALL,
     "chain_ends(tables, cands, where, groups, base, proves) -> ends: what a chain's two ends "
     "prove, for chain_bfs"},
    {"loop_strong", (PyCFunction)(void (*)(void))shudu_loop_strong, METH_FASTCALL,
     "loop_strong(tables, where, digits, groups, strong) -> groups: the loop graph's strong links "
     "of each digit's houses added to strong in the order Python adds them, and the group nodes made"},
    {"chain_bfs", (PyCFunction)(void (*)(void))shudu_chain_bfs, METH_FASTCALL,
     "chain_bfs(graph, start, limit[, only]) -> search: shudu.logic.chains.layers in C"},
    {"chain_bfs_layer", (PyCFunction)shudu_chain_bfs_layer, METH_O,
     "chain_bfs_layer(search) -> (frontier size, states met on) of the next layer, or None"},
    {"chain_bfs_edges", (PyCFunction)(void (*)(void))shudu_chain_bfs_edges, METH_FASTCALL,
     "chain_bfs_edges(search, start) -> the (state, parent) pairs met from pair start, as bytes"},
    {"constraint_propagate", (PyCFunction)core_constraint_propagate, METH_VARARGS,
     "constraint_propagate(size, records, domains) -> domains after the constraint engine's "
     "propagation to a fixed point, or None (for tests)"},
    {"refine", (PyCFunction)(void (*)(void))shudu_refine, METH_FASTCALL,
     "refine(tables, cands, where, placed, values, empty, cells, digits, houses) -> (fingerprint, "
     "cells, digits, houses): a round of logic.invariant.refinements"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, .m_name = "shudu._core_c",
    .m_doc = "The C core of shudu: the solvers' search engines and the logic engine's loops "
              "(see shudu._backend).",
    .m_size = 0,
    .m_methods = core_methods,
};

/* The codes the module hands out, by name (shudu.notation mirrors them). */
static const struct {
    const char *name;
    int value;
} CORE_CODES[] = {
    {"BATCH_NONE", ST_NONE},          {"BATCH_UNIQUE", ST_UNIQUE},
    {"BATCH_MULTIPLE", ST_MULTIPLE},  {"BATCH_SOLVED", ST_SOLVED},
    {"BATCH_TIMEOUT", ST_TIMEOUT},    {"RUN_EXHAUSTED", RUN_EXHAUSTED},
    {"RUN_SOLUTION", RUN_SOLUTION},   {"RUN_BUDGET", RUN_BUDGET},
    {"RUN_NOMEM", RUN_NOMEM},         {"STOPPED", CALL_STOPPED},
    {"EXHAUSTED", CALL_EXHAUSTED},    {"BUDGET", CALL_BUDGET},
    {"THREADS", SHUDU_THREADS},
};

PyMODINIT_FUNC
PyInit__core_c(void)
{
    if (PyType_Ready(&ShapeType) < 0 || PyType_Ready(&SearchType) < 0 ||
        PyType_Ready(&ConstraintSearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m)
        return NULL;
    Py_INCREF(&ShapeType);
    if (PyModule_AddObject(m, "Shape", (PyObject *)&ShapeType) < 0) {
        Py_DECREF(&ShapeType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&ConstraintSearchType);
    if (PyModule_AddObject(m, "ConstraintSearch", (PyObject *)&ConstraintSearchType) < 0) {
        Py_DECREF(&ConstraintSearchType);
        Py_DECREF(m);
        return NULL;
    }
    for (size_t i = 0; i < sizeof(CORE_CODES) / sizeof(CORE_CODES[0]); i++)
        if (PyModule_AddIntConstant(m, CORE_CODES[i].name, CORE_CODES[i].value) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    if (PyModule_AddStringConstant(m, "DIGITS", SHUDU_DIGITS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_SIZE", MAX_N) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
