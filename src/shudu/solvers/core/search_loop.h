/*
 * The resumable depth-first search, written once for every engine.
 *
 * An engine file includes this header after defining its interface:
 *
 *   state_t, frame_t      its search state and its frame (one search state and the
 *                         branch taken from it: int32_t cell; mask_t rem, the digits of
 *                         the branch cell not tried yet, bit d - 1 for digit d)
 *   frame_at(e, i)        frame i of the stack
 *   frame_reserve(e, i)   make room for frame i; -1 when out of memory
 *   frame_copy(e, d, s)   copy frame s to frame d
 *   start(e, givens, f, &settled)
 *                         frame f as the givens and propagation leave it, settled the
 *                         empty cells propagation filled; 0 on contradiction
 *   place(e, f, cell, bit)
 *                         put the digit of bit in cell, propagate; 0 on contradiction
 *   solved(f)             every cell holds a digit
 *   emit(e, f, out)       the digit values of a solved frame to out (if out)
 *   choose_branch(e, f)   set f->cell and f->rem
 *
 * and gets `search_next`, the engine_t.next of that engine.  Every engine function is
 * static inline in the same translation unit, so the loop compiles to the same code as a
 * loop written out by hand per engine.
 *
 * The search: the root frame is the puzzle propagated; at each frame, try the branch
 * cell's digits in increasing order.  A digit tried while others remain is a guess and
 * works on a copy pushed above the frame; the last digit reuses the frame itself.
 * `nodes` counts the root and every digit tried; the budget is checked before each.
 */

static int
search_next(progress_t *p, void *state, uint8_t *out, budget_t *b)
{
    state_t *e = state;
    if (p->finished)
        return RUN_EXHAUSTED;
    if (!p->started) {
        if (budget_spent(b, p->nodes))
            return RUN_BUDGET;
        p->started = 1;
        p->nodes = 1;
        frame_t *root = frame_at(e, 0);
        if (!start(e, p->givens, root, &p->settled)) {
            p->finished = 1;
            return RUN_EXHAUSTED;
        }
        if (solved(root)) {
            p->finished = 1;
            emit(e, root, out);
            return RUN_SOLUTION;
        }
        choose_branch(e, root);
        p->depth = 1;
    }
    for (;;) {
        if (p->depth == 0) {
            p->finished = 1;
            return RUN_EXHAUSTED;
        }
        frame_t *f = frame_at(e, p->depth - 1);
        if (!f->rem) {
            p->depth--;
            continue;
        }
        if (budget_spent(b, p->nodes))
            return RUN_BUDGET;
        int cell = f->cell;
        mask_t bit = f->rem & (~f->rem + 1);
        f->rem ^= bit;
        frame_t *child = f;
        if (f->rem) {
            /* other digits remain: a guess; work on a copy, keep this frame */
            if (frame_reserve(e, p->depth) < 0)
                return RUN_NOMEM;
            f = frame_at(e, p->depth - 1);
            child = frame_at(e, p->depth);
            frame_copy(e, child, f);
            p->depth++;
            p->guesses++;
        }
        p->nodes++;
        if (!place(e, child, cell, bit)) {
            p->depth--;
            continue;
        }
        if (solved(child)) {
            p->depth--;
            emit(e, child, out);
            return RUN_SOLUTION;
        }
        choose_branch(e, child);
    }
}
