/*
 * One search, whichever engine: the shape picks the engine once, and the module calls it
 * through engine_t without knowing which it is.
 */
#ifndef SHUDU_CORE_SEARCH_H
#define SHUDU_CORE_SEARCH_H

#include "band9.h"
#include "common.h"
#include "general.h"

typedef struct {
    const engine_t *engine;
    const shape_t *sh;
    progress_t p;  /* nodes, guesses, settled: read them here */
    union {
        general_state_t general;
        band9_state_t band9;
    } state;
} search_t;

static inline int
search_init(search_t *s, const shape_t *sh)
{
    s->engine = sh->std9 ? &shudu_engine_9x9 : sh->b9x ? &shudu_engine_9x9x : &shudu_engine_general;
    s->sh = sh;
    s->p.depth = s->p.started = s->p.finished = 0;
    s->p.nodes = s->p.guesses = s->p.settled = 0;
    return s->engine->init(&s->state, sh);
}

static inline void
search_free(search_t *s)
{
    s->engine->release(&s->state);
}

static inline void
search_reset(search_t *s, const uint8_t *givens)
{
    progress_reset(&s->p, givens, s->sh->ncells);
}

/* Run to the next solution: RUN_SOLUTION (written to out as digit values, if out),
 * RUN_EXHAUSTED, RUN_BUDGET or RUN_NOMEM. */
static inline int
search_next(search_t *s, uint8_t *out, budget_t *b)
{
    return s->engine->next(&s->p, &s->state, out, b);
}

#endif
