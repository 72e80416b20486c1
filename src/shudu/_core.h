/*
 * What the files of the CPython module shudu._core_c share (_core.c registers the module;
 * _core_shape.c, _core_search.c, _core_batch.c and _core_constraints.c hold its types and
 * functions).  Internal: nothing outside the module includes it.
 */
#ifndef SHUDU_CORE_MODULE_H
#define SHUDU_CORE_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "solvers/core/common.h"
#include "solvers/core/search.h"

#if !defined(_WIN32) && !defined(SHUDU_NO_THREADS)
#define SHUDU_THREADS 1
#else
#define SHUDU_THREADS 0
#endif

/* A compiled grid shape (_core_shape.c). */
typedef struct {
    PyObject_HEAD
    shape_t sh;
} ShapeObject;

/* A search's hold on the GIL while it runs without it (_core_search.c). */
typedef struct {
    PyThreadState *ts;
    volatile int *stop;
} poll_t;

extern PyTypeObject ShapeType, SearchType, ConstraintSearchType;

/* _core_search.c: budgets, releasing the GIL, one resumable search, the engines' test hooks */
int parse_budget(PyObject *node_limit, double timeout, budget_t *b);
int parse_batch_counts(PyObject *threads_obj, PyObject *limit_obj, int *threads,
                       unsigned long long *limit);
void release_for_search(budget_t *b, poll_t *pl, volatile int *stop);
PyObject *Shape_search(ShapeObject *self, PyObject *arg);
PyObject *int_tuple(const uint32_t *values, int count);
PyObject *core_propagate9(PyObject *module, PyObject *arg);
PyObject *core_band_tables(PyObject *module, PyObject *unused);

/* _core_batch.c: Shape.solve_many */
PyObject *Shape_solve_many(ShapeObject *self, PyObject *args, PyObject *kwds);

/* _core_constraints.c: the constraint engine's search type and test hook */
PyObject *core_constraint_propagate(PyObject *module, PyObject *args);

#endif
