/*
 * Shape.solve_many: batches of puzzles, read from a list or from lines of text (one table load
 * per character), solved by worker threads that each take whole chunks of the batch and write
 * their own stretch of the result buffers.
 */
#include "_core.h"

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if SHUDU_THREADS
#include <pthread.h>
#endif

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

/* Where the lines of a batch buffer start: every (nc + 1)th byte a line end, the usual batch
 * (a line end inside a line is then a character that is no digit, which the workers find, and
 * the error comes from read_lines), else each start found here into *starts.  Returns the
 * number of lines, or -1 with the error set (that of the first line that is no puzzle). */
static Py_ssize_t
index_lines(batch_t *bt, const Py_buffer *view, int n, Py_ssize_t **starts)
{
    int nc = n * n;
    const char *p = view->buf, *end = p + view->len;
    Py_ssize_t stride = nc + 1, fixed = view->len % stride == 0, count = 0, lines = 0;
    for (Py_ssize_t at = nc; fixed && at < view->len; at += stride)
        fixed = p[at] == '\n';
    bt->text = view->buf;
    if (fixed) {
        bt->stride = stride;
        return view->len / stride;
    }
    for (const char *q = p; (q = memchr(q, '\n', (size_t)(end - q))) != NULL; q++)
        lines++;
    lines += view->len > 0 && end[-1] != '\n';
    *starts = malloc((size_t)(lines ? lines : 1) * sizeof(Py_ssize_t));
    if (!*starts) {
        PyErr_NoMemory();
        return -1;
    }
    int even = 1;
    while (p < end) {
        Py_ssize_t len;
        const char *next = line_at(p, end, &len);
        even &= len == nc;
        (*starts)[count++] = p - (const char *)view->buf;
        p = next;
    }
    if (!even) {
        read_lines(view, n); /* raises the first line's error */
        return -1;
    }
    bt->starts = *starts;
    return count;
}

/* The givens of a list of puzzles (str or bytes), malloc'ed, their number in *count; NULL with
 * the error set. */
static uint8_t *
read_list(PyObject *puzzles, int n, Py_ssize_t *count)
{
    int nc = n * n;
    PyObject *seq = PySequence_Fast(puzzles, "puzzles must be a list of str or a bytes buffer");
    if (!seq)
        return NULL;
    *count = PySequence_Fast_GET_SIZE(seq);
    uint8_t *givens = malloc((size_t)(*count ? *count : 1) * nc);
    if (!givens)
        PyErr_NoMemory();
    for (Py_ssize_t i = 0; givens && i < *count; i++)
        if (read_line_str(PySequence_Fast_GET_ITEM(seq, i), i, n, givens + (size_t)i * nc) < 0) {
            free(givens);
            givens = NULL;
        }
    Py_DECREF(seq);
    return givens;
}

/* The six result buffers of a batch of count puzzles (status, solutions, then counts, nodes,
 * guesses and settled, 8 bytes a puzzle), bt's pointers set to them; -1 when memory ran out. */
static int
batch_results(batch_t *bt, PyObject *out[6])
{
    Py_ssize_t count = bt->count;
    out[0] = PyBytes_FromStringAndSize(NULL, count);
    out[1] = PyBytes_FromStringAndSize(NULL, count * bt->sh->ncells);
    for (int k = 2; k < 6; k++)
        out[k] = PyBytes_FromStringAndSize(NULL, count * 8);
    for (int k = 0; k < 6; k++)
        if (!out[k])
            return -1;
    bt->status = (uint8_t *)PyBytes_AS_STRING(out[0]);
    bt->solutions = (uint8_t *)PyBytes_AS_STRING(out[1]);
    bt->counts = (uint64_t *)PyBytes_AS_STRING(out[2]);
    bt->nodes = (uint64_t *)PyBytes_AS_STRING(out[3]);
    bt->guesses = (uint64_t *)PyBytes_AS_STRING(out[4]);
    bt->settled = (uint64_t *)PyBytes_AS_STRING(out[5]);
    return 0;
}

/* Shape.solve_many(puzzles, limit, threads, node_limit, timeout)
 *   -> (status bytes, solution bytes, counts, nodes, guesses, settled) */
PyObject *
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
    if (parse_batch_counts(threads_obj, limit_obj, &threads, &limit) < 0)
        return NULL;
    memset(&bt, 0, sizeof(bt));
    if (parse_budget(node_limit, timeout, &bt.budget) < 0)
        return NULL;
    int n = self->sh.n;
    uint8_t *givens = NULL;
    Py_ssize_t count = 0;
    Py_buffer view;
    int held = 0;
    Py_ssize_t *starts = NULL;
    PyObject *out[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    if (PyObject_CheckBuffer(puzzles) && !PyUnicode_Check(puzzles)) {
        /* one buffer of fixed-width lines, each ended by \n (or \r\n): this thread finds
         * where the lines start, and the workers read them (a line that is no puzzle makes
         * this thread read them all again, to raise the error of the first such line) */
        if (PyObject_GetBuffer(puzzles, &view, PyBUF_SIMPLE) < 0)
            return NULL;
        held = 1;
        count = index_lines(&bt, &view, n, &starts);
        if (count < 0)
            goto fail;
    } else if (!(givens = read_list(puzzles, n, &count))) {
        return NULL;
    }
    bt.sh = &self->sh;
    bt.givens = givens;
    bt.count = count;
    bt.limit = limit;
    if (batch_results(&bt, out) < 0)
        goto fail;
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
    if (bt.failed) {
        PyErr_NoMemory();
        goto fail;
    }
    if (held)
        PyBuffer_Release(&view);
    free(givens);
    free(starts);
    return Py_BuildValue("(NNNNNN)", out[0], out[1], out[2], out[3], out[4], out[5]);
fail:
    if (held)
        PyBuffer_Release(&view);
    free(givens);
    free(starts);
    for (int k = 0; k < 6; k++)
        Py_XDECREF(out[k]);
    return NULL;
}
