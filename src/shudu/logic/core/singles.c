/*
 * Rounds of singles in C (shudu.logic.techniques.singles_tallies, the specification): every single of a kind
 * placed in one go, round after round, as the ratings play them.
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

enum { K_FULL_HOUSE = 0, K_NAKED = 1, K_HIDDEN = 2, K_BOX = 3, K_HIDDEN_ONE = 4, K_KINDS = 5 };

/* One placement found for a round: kept once; a second digit for the same cell, or a digit
 * twice among peers, is a clash (-1). */
static int add_single(int cell, int digit, uint8_t *fdig, cset *by_digit, const tables_t *t,
                      uint8_t *cells, uint8_t *digits, int *count)
{
    if (fdig[cell]) return fdig[cell] == digit ? 0 : -1;
    if (cs_any(cs_and(by_digit[digit - 1], t->peer[cell]))) return -1;
    fdig[cell] = (uint8_t)digit;
    by_digit[digit - 1] = cs_or(by_digit[digit - 1], cs_bit(cell));
    cells[*count] = (uint8_t)cell;
    digits[*count] = (uint8_t)digit;
    (*count)++;
    return 0;
}

/* Every single of one kind on the grid as it stands (the steps of the kind's finder in
 * shudu.logic.techniques.singles): their count, or -1 when two of them clash. */
static int singles_of(const settle_state_t *s, int kind, uint8_t *cells, uint8_t *digits)
{
    const tables_t *t = s->t;
    uint8_t fdig[S_MAX_CELLS];
    cset by_digit[S_MAX_DIGITS];
    memset(fdig, 0, sizeof fdig);
    memset(by_digit, 0, sizeof by_digit);
    int count = 0;
    if (kind == K_FULL_HOUSE) {
        /* a house with one open cell, whose one candidate is the digit the house lacks */
        for (int h = 0; h < t->nhouses; h++) {
            cset open = cs_and(t->house[h], s->empty);
            if (!cs_any(open) || cs_many(open)) continue;
            int cell = cs_low(open);
            uint32_t mask = s->cands[cell];
            if (mask && !(mask & (mask - 1)) &&
                add_single(cell, ctz64(mask) + 1, fdig, by_digit, t, cells, digits, &count))
                return -1;
        }
    } else if (kind == K_NAKED) {
        CS_FOR(cell, s->empty, {
            uint32_t mask = s->cands[cell];
            if (mask && !(mask & (mask - 1)) &&
                add_single(cell, ctz64(mask) + 1, fdig, by_digit, t, cells, digits, &count))
                return -1;
        });
    } else {
        /* a digit with one place in a house (of every house, or of the boxes and regions) */
        for (int h = 0; h < t->nhouses; h++) {
            if (kind == K_BOX && !(t->boxlike >> h & 1)) continue;
            cset hbits = t->house[h];
            if (!cs_any(cs_and(hbits, s->empty))) continue;
            for (int d = 0; d < t->n; d++) {
                cset spots = cs_and(s->where[d], hbits);
                if (cs_any(spots) && !cs_many(spots) &&
                    add_single(cs_low(spots), d + 1, fdig, by_digit, t, cells, digits, &count))
                    return -1;
            }
        }
    }
    return count;
}

/* How many cells full houses and naked singles fill after ``digit`` is placed in ``cell``
 * (``trial`` changed): every cell when two of them clash. */
static int easier_fill(settle_state_t *trial, int cell, int digit)
{
    uint8_t cells[S_MAX_CELLS], digits[S_MAX_CELLS];
    int filled = 0;
    settle_place(trial, cell, digit);
    while (cs_any(trial->empty)) {
        int found = singles_of(trial, K_FULL_HOUSE, cells, digits);
        if (!found) found = singles_of(trial, K_NAKED, cells, digits);
        if (found < 0) return trial->t->ncells;
        if (!found) break;
        for (int i = 0; i < found; i++) settle_place(trial, cells[i], digits[i]);
        filled += found;
    }
    return filled;
}

/* The hidden singles a K_HIDDEN_ONE round places (singles_rounds.hidden_one): of those that
 * have waited longest (``since``: the round each was first listed in, 0 for never; ``stamp``:
 * the last round), the ones after which full houses and naked singles fill the most cells,
 * one for each grid those leave (the lowest cell).  Their count, or -1 when two clash. */
static int hidden_one(const settle_state_t *s, uint32_t *since, uint32_t *stamp, uint8_t *cells,
                      uint8_t *digits)
{
    int found = singles_of(s, K_HIDDEN, cells, digits);
    if (found <= 0) return found;
    int n = s->t->n;
    uint32_t now = ++*stamp, first = UINT32_MAX;
    for (int i = 0; i < found; i++) {
        uint32_t *w = &since[cells[i] * n + digits[i] - 1];
        if (!*w) *w = now;
        if (*w < first) first = *w;
    }
    uint8_t rc[S_MAX_CELLS], rd[S_MAX_CELLS];
    cset left[S_MAX_CELLS];
    int best = -1, reps = 0;
    settle_state_t *trial = PyMem_Malloc(sizeof *trial);
    if (!trial) return -2;
    for (int i = 0; i < found; i++) {
        if (since[cells[i] * n + digits[i] - 1] != first) continue;
        memcpy(trial, s, sizeof *trial);
        int fill = easier_fill(trial, cells[i], digits[i]);
        if (fill < best) continue;
        if (fill > best) {
            best = fill;
            reps = 0;
        }
        int g = 0;
        while (g < reps && !cs_eq(left[g], trial->empty)) g++;
        if (g == reps) left[reps++] = trial->empty;
        else if (rc[g] < cells[i]) continue;
        rc[g] = cells[i];
        rd[g] = digits[i];
    }
    PyMem_Free(trial);
    memcpy(cells, rc, (size_t)reps);
    memcpy(digits, rd, (size_t)reps);
    return reps;
}

PyObject *shudu_singles(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    const tables_t *t = shudu_call_tables(args, nargs, 10, "singles");
    if (!t) return NULL;
    char *kinds;
    Py_ssize_t nkinds;
    if (PyBytes_AsStringAndSize(args[6], &kinds, &nkinds)) return NULL;
    long max_rounds = PyLong_AsLong(args[7]);
    if (max_rounds == -1 && PyErr_Occurred()) return NULL;
    if (nkinds < 1 || nkinds > K_KINDS || max_rounds < 0) {
        PyErr_SetString(PyExc_ValueError, "singles: kinds or rounds out of range");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nkinds; i++)
        if ((unsigned char)kinds[i] >= K_KINDS) {
            PyErr_SetString(PyExc_ValueError, "singles: unknown kind");
            return NULL;
        }
    long stamp_in = PyLong_AsLong(args[9]);
    if (stamp_in == -1 && PyErr_Occurred()) return NULL;
    Py_buffer waiting = {0};
    int one = memchr(kinds, K_HIDDEN_ONE, (size_t)nkinds) != NULL;
    if (one) {
        if (PyObject_GetBuffer(args[8], &waiting, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS)) return NULL;
        if (waiting.len != (Py_ssize_t)(sizeof(uint32_t) * (size_t)t->ncells * (size_t)t->n) ||
            stamp_in < 0 || stamp_in >= (long)UINT32_MAX - t->ncells) {
            PyBuffer_Release(&waiting);
            PyErr_SetString(PyExc_ValueError, "singles: waiting buffer or rounds out of range");
            return NULL;
        }
    }
    uint32_t stamp = (uint32_t)stamp_in;
    settle_state_t s;
    saved_t saved;
    if (shudu_load_grid(&s, t, args + 1, &saved)) {
        if (one) PyBuffer_Release(&waiting);
        return NULL;
    }
    /* two bytes a round: the kind's position in kinds, and how many singles it placed */
    uint8_t log[2 * S_MAX_CELLS];
    int nrounds = 0, code = R_SETTLED;
    uint8_t cells[S_MAX_CELLS], digits[S_MAX_CELLS];
    while (cs_any(s.empty)) {
        if (max_rounds && nrounds >= max_rounds) {
            code = R_ROUNDS;
            break;
        }
        int found = 0, k = 0;
        for (; k < nkinds; k++) {
            if (kinds[k] == K_HIDDEN_ONE)
                found = hidden_one(&s, (uint32_t *)waiting.buf, &stamp, cells, digits);
            else
                found = singles_of(&s, (unsigned char)kinds[k], cells, digits);
            if (found) break;
        }
        if (found == -2) {
            PyBuffer_Release(&waiting);
            return PyErr_NoMemory();
        }
        if (found < 0) {
            code = R_CLASH;
            break;
        }
        if (!found) break;
        for (int i = 0; i < found; i++) settle_place(&s, cells[i], digits[i]);
        log[2 * nrounds] = (uint8_t)k;
        log[2 * nrounds + 1] = (uint8_t)found;
        nrounds++; /* each round fills a cell: at most ncells rounds */
    }
    if (one) PyBuffer_Release(&waiting);
    PyObject *empty = shudu_store_grid(&s, args + 1, &saved);
    if (!empty) return NULL;
    return Py_BuildValue("(iNy#k)", code, empty, (const char *)log, (Py_ssize_t)(2 * nrounds),
                         (unsigned long)stamp);
}
