/*
 * The solving path's basic fish finders (shudu.logic.techniques.fish: X-Wing, Swordfish, Jellyfish, plain,
 * finned and sashimi) in C.  Include after <Python.h>.
 */
#ifndef SHUDU_CORE_FISH_H
#define SHUDU_CORE_FISH_H

#include <Python.h>

/* fish(tables, where, rows, columns, k, finned, fin_lines) -> None, or (across, base, cover):
 * the first fish of size k on one digit's places ``where``, in the order of shudu.logic.techniques.fish._fish
 * (rows as base lines first, then columns); ``across`` is 1 when its base lines are rows, ``base``
 * the house indices of its base lines, ``cover`` the indices (in columns, or rows) of its cover
 * lines.  ``fin_lines``: at most this many cover lines beyond k with fins. */
PyObject *shudu_fish(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* fishes(tables, where, k, base_pool, cover_pool, max_fins, max_endo) -> (units, [(units, base,
 * cover, base_cells, fins, eliminations)]): every fish of size k on one digit's places whose base
 * houses come from base_pool and cover houses from cover_pool, in the order of
 * shudu.logic.techniques.complex_fish.fishes; units: the base choices counted (the logic budget's units)
 * in all, and when each fish was found. */
PyObject *shudu_fishes(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#endif
