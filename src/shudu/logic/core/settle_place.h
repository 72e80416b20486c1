/*
 * grid.place on a settle state: digit (1..n) put in cell, removed from the cell's peers, with
 * the cells and houses it touches marked for the next look.  The hot step of settle.c's loop
 * and singles.c's rounds: each file compiles its own copy (a static function), for the
 * compiler to inline as it did when they were one file; forcing.c calls it through
 * shudu_settle_place.
 */
#ifndef SHUDU_CORE_SETTLE_PLACE_H
#define SHUDU_CORE_SETTLE_PLACE_H

#include "settle_tables.h"

static void settle_place(settle_state_t *s, int cell, int digit)
{
    const tables_t *t = s->t;
    cset bit = cs_bit(cell);
    uint32_t own = s->cands[cell];
    for (uint32_t o = own; o; o &= o - 1) {
        int e = ctz64(o);
        s->where[e] = cs_andnot(s->where[e], bit);
    }
    int d = digit - 1;
    uint32_t dbit = (uint32_t)1 << d;
    for (int j = 0; j < t->nch[cell]; j++) {
        int h = t->ch[cell][j];
        s->placed[h] |= dbit;
        s->dh[h] |= own;
    }
    uint64_t mine = t->hmask[cell];
    s->hdirty |= mine;
    s->cands[cell] = 0;
    s->values[cell] = (uint8_t)digit;
    s->empty = cs_andnot(s->empty, bit);
    cset seen = cs_and(s->where[d], t->peer[cell]);
    if (cs_any(seen)) {
        s->where[d] = cs_andnot(s->where[d], seen);
        s->dcells = cs_or(s->dcells, seen);
        uint64_t touched = 0;
        CS_FOR(peer, seen, {
            s->cands[peer] &= ~dbit;
            touched |= t->hmask[peer];
        });
        touched &= ~mine;
        s->hdirty |= touched;
        for (; touched; touched &= touched - 1) s->dh[ctz64(touched)] |= dbit;
    }
}

#endif
