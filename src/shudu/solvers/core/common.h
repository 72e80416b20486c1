/*
 * What every part of the C core shares: portable bit helpers, the compiled shape, the
 * search budget, the result codes and the engine interface.  No Python here: the engines
 * are plain C; only _core*.c (the module) talks to the interpreter.
 */
#ifndef SHUDU_CORE_COMMON_H
#define SHUDU_CORE_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define MAX_N 25
#define MAX_CELLS (MAX_N * MAX_N)

/* The characters of digits 1..25 (shudu.notation.DIGITS); index 0 is the empty cell. */
#define SHUDU_DIGITS "123456789ABCDEFGHIJKLMNOP"
#define SHUDU_DIGIT_CHARS ("." SHUDU_DIGITS)

typedef uint32_t mask_t;

#if defined(__GNUC__) || defined(__clang__)
#define CTZ(x) __builtin_ctz(x)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define SHUDU_HIDDEN __attribute__((visibility("hidden")))
#else
static inline int CTZ(uint32_t x) { int c = 0; while (!(x & 1u)) { x >>= 1; c++; } return c; }
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#define SHUDU_HIDDEN
#endif

/* Set bits of a word. With the popcnt instruction (-mpopcnt, -march=native) the builtin is
 * that instruction; without it (the portable build) GCC would call libgcc's table loop, so
 * the count is done here bit-parallel, a dozen instructions inline. */
static inline int
shudu_pop32(uint32_t x)
{
#if (defined(__GNUC__) || defined(__clang__)) && defined(__POPCNT__)
    return __builtin_popcount(x);
#else
    x -= (x >> 1) & 0x55555555u;
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}

static inline int
shudu_pop64(uint64_t x)
{
#if (defined(__GNUC__) || defined(__clang__)) && defined(__POPCNT__)
    return __builtin_popcountll(x);
#else
    x -= (x >> 1) & 0x5555555555555555u;
    x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
    return (int)((x * 0x0101010101010101u) >> 56);
#endif
}
#define POPCOUNT(x) shudu_pop32(x)

/* ------------------------------------------------------------------------ */
/* Result codes (shudu.notation.RunCode and BatchCode mirror them)          */
/* ------------------------------------------------------------------------ */

/* What one step of a search (engine_t.next) ended with. */
enum { RUN_SOLUTION = 1, RUN_EXHAUSTED = 0, RUN_BUDGET = -1, RUN_NOMEM = -2 };

/* Per-puzzle status of a batch: no solution, exactly one, two or more, one found without
 * looking further (limit 1), budget spent. */
enum { ST_NONE = 0, ST_UNIQUE = 1, ST_MULTIPLE = 2, ST_SOLVED = 3, ST_TIMEOUT = 4 };

/* What Search.run ended with: stopped at `want` (more may follow), exhausted, budget. */
enum { CALL_STOPPED = 0, CALL_EXHAUSTED = 1, CALL_BUDGET = 2 };

/* ------------------------------------------------------------------------ */
/* Shapes                                                                   */
/* ------------------------------------------------------------------------ */

struct band9_extra;

/* A grid shape compiled for searching: size, houses, and each cell's peers (the cells of
 * its houses and its links).  Read-only once built; several searches share one. */
typedef struct {
    int n, ncells, nhouses;
    mask_t full;
    int std9;             /* standard 9x9 houses, no links: the 9x9 engine */
    /* The 27 standard houses and a few more, no links: the 9x9 engine with extra houses
     * (core/band9.h); NULL otherwise.  Owned by the shape. */
    struct band9_extra *b9x;
    int16_t *house;       /* nhouses * n cell indices */
    int32_t *peer_start;  /* ncells + 1 offsets into peers */
    int16_t *peers;
    /* The intersections: pairs of houses that share two cells or more (none on the 9x9
     * engine's shape).  Pair k's cells are lock_cells[lock_start[3k] .. lock_start[3k + 3]):
     * first the shared cells, then those of the first house only, then the second's only. */
    int nlocks;
    int32_t *lock_start;  /* 3 * nlocks + 1 offsets into lock_cells */
    int16_t *lock_cells;
} shape_t;

/* ------------------------------------------------------------------------ */
/* Budgets                                                                  */
/* ------------------------------------------------------------------------ */

/* Every translation unit must read the same clock: a deadline set by the module and checked by an
 * engine on another clock would be spent at once.  The build defines _POSIX_C_SOURCE for that. */
#if !defined(_WIN32) && !defined(CLOCK_MONOTONIC)
#error "CLOCK_MONOTONIC is not declared: compile with -D_POSIX_C_SOURCE=200809L"
#endif

static inline double
monotonic_seconds(void)
{
    struct timespec ts;
#if defined(_WIN32)
    timespec_get(&ts, TIME_UTC);
#else
    clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* How often a search looks up from its work: every BUDGET_EVERY nodes it reaches a
 * checkpoint (a node costs at most some microseconds, even on 25x25), where it reads the
 * clock when it has a deadline or an interrupt poll, and the stop flag it may share. */
#define BUDGET_EVERY 64u
/* The least time between two interrupt polls (the poll takes the GIL back for a moment). */
#define POLL_SECONDS 0.02
/* A search with no deadline reads the clock for its poll every POLL_EVERY checkpoints only. */
#define POLL_EVERY 16u

/* A search's budget.  node_limit and deadline are set by whoever starts the search; poll,
 * poll_arg and stop only by the module (_core_search.c, _core_batch.c), which has the
 * interpreter: the engines only reach budget_checkpoint, which calls poll (at most every
 * POLL_SECONDS) and reads stop.  poll returns nonzero when the search must end now (Ctrl-C: the module raises
 * KeyboardInterrupt once it has the GIL back); stop is a flag that another thread of the
 * same batch sets when its poll said so. */
typedef struct {
    uint64_t node_limit;  /* UINT64_MAX: none */
    double deadline;      /* monotonic_seconds() value; < 0: none */
    unsigned tick;
    int (*poll)(void *poll_arg);  /* NULL: none */
    void *poll_arg;
    double next_poll;     /* monotonic_seconds() value of the next poll; 0: not timed yet */
    volatile int *stop;   /* NULL: none */
    int interrupted;      /* the poll or the stop flag ended the search */
} budget_t;

/* The checkpoint itself, out of line: the deadline, the stop flag, the poll. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, cold))
#endif
static int
budget_checkpoint(budget_t *b)
{
    if (b->stop && *b->stop) {
        b->interrupted = 1;
        return 1;
    }
    /* with no deadline the clock is read for the poll alone, every POLL_EVERY checkpoints */
    if (b->deadline < 0 && (!b->poll || ((b->tick - 1u) & (POLL_EVERY * BUDGET_EVERY - 1u))))
        return 0;
    double now = monotonic_seconds();
    if (b->deadline >= 0 && now > b->deadline)
        return 1;
    if (b->poll && now >= b->next_poll) {
        /* the first look at the clock only starts the poll's timer: a search shorter than
         * POLL_SECONDS never takes the GIL back */
        int first = b->next_poll == 0;
        b->next_poll = now + POLL_SECONDS;
        if (!first && b->poll(b->poll_arg)) {
            b->interrupted = 1;
            return 1;
        }
    }
    return 0;
}

/* True when the search may not open another node: the node limit at every node, the rest
 * at a checkpoint every BUDGET_EVERY nodes (the first one at once when tick starts at 0). */
static inline int
budget_spent(budget_t *b, uint64_t nodes)
{
    if (nodes >= b->node_limit)
        return 1;
    if (UNLIKELY((b->tick++ & (BUDGET_EVERY - 1u)) == 0))
        return budget_checkpoint(b);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The engine interface                                                     */
/* ------------------------------------------------------------------------ */

/* Where a resumable search stands, whichever engine runs it.  The engine's frames (one
 * search state and the branch taken from it each) live in the engine's own state. */
typedef struct {
    int depth;            /* frames in use */
    int started, finished;
    uint64_t nodes;       /* search states opened */
    uint64_t guesses;     /* digits tried while another of the cell was untried */
    uint64_t settled;     /* empty cells filled before the first guess */
    uint8_t givens[MAX_CELLS];
} progress_t;

/* An engine: a frame stack it owns (init/release) and the resumable search over it
 * (next: run to the next solution, written to out as digit values if out). */
typedef struct {
    const char *name;
    int (*init)(void *state, const shape_t *sh);
    void (*release)(void *state);
    int (*next)(progress_t *p, void *state, uint8_t *out, budget_t *b);
} engine_t;

/* Start a search over new givens (ncells digit values, 0 for empty). */
static inline void
progress_reset(progress_t *p, const uint8_t *givens, int ncells)
{
    memcpy(p->givens, givens, (size_t)ncells);
    p->depth = 0;
    p->started = p->finished = 0;
    p->nodes = p->guesses = p->settled = 0;
}

#endif
