/*
 * The extra houses of a 9x9 shape, compiled for the 9x9 engine (see band9.h): which of the
 * shape's houses are beyond the 27 standard ones, each cell's peers in them, and the
 * intersections they make.  Runs once per shape.
 */
#include <stdlib.h>

#include "band9.h"

typedef band9_extra_t extra_t;

/* The mask of a list of cells. */
static band9_mask_t
s9_mask_of(const int16_t *cells, int count)
{
    band9_mask_t m = {{0, 0, 0, 0}};
    for (int i = 0; i < count; i++)
        m.w[cells[i] / 27] |= 1u << (cells[i] % 27);
    return m;
}

static int
s9_mask_count(band9_mask_t a)
{
    return POPCOUNT(a.w[0]) + POPCOUNT(a.w[1]) + POPCOUNT(a.w[2]);
}

static band9_mask_t
s9_mask_and(band9_mask_t a, band9_mask_t b, int not_b)
{
    band9_mask_t m = {{0, 0, 0, 0}};
    for (int k = 0; k < 3; k++)
        m.w[k] = a.w[k] & (not_b ? ~b.w[k] : b.w[k]);
    return m;
}

int
shudu_standard_house9(const int16_t *c)
{
    int r0 = c[0] / 9, c0 = c[0] % 9;
    int same_row = 1, same_col = 1, same_box = 1;
    for (int i = 1; i < 9; i++) {
        same_row &= c[i] / 9 == r0;
        same_col &= c[i] % 9 == c0;
        same_box &= (c[i] / 27 == c[0] / 27) && ((c[i] % 9) / 3 == c0 / 3);
    }
    /* a house has 9 distinct cells, so "all in one row" means "the row" */
    return same_row ? r0 : same_col ? 9 + c0 : same_box ? 18 + 3 * (r0 / 3) + c0 / 3 : -1;
}

int
shudu_band9_extras(shape_t *sh, int links)
{
    sh->b9x = NULL;
    if (links || sh->n != 9 || sh->ncells != 81)
        return 0;
    band9_mask_t all[27 + B9X_HOUSES];
    int standard = 0, nextra = 0;
    int16_t cells[9];
    for (int h = 0; h < sh->nhouses; h++) {
        memcpy(cells, sh->house + 9 * h, sizeof cells);
        int id = shudu_standard_house9(cells);
        band9_mask_t m = s9_mask_of(cells, 9);
        if (id >= 0) {
            all[id] = m;
            standard |= 1 << id;
            continue;
        }
        int repeat = 0;
        for (int e = 0; e < nextra && !repeat; e++)
            repeat = !memcmp(all[27 + e].w, m.w, sizeof m.w);
        if (repeat)
            continue;
        if (nextra == B9X_HOUSES)
            return 0;
        all[27 + nextra++] = m;
    }
    if (standard != (1 << 27) - 1)
        return 0;
    extra_t *x = calloc(1, sizeof *x);
    if (!x)
        return -1;
    x->nhouses = nextra;
    memcpy(x->house, all + 27, sizeof(band9_mask_t) * (size_t)nextra);
    for (int c = 0; c < 81; c++) {
        band9_mask_t self = {{0, 0, 0, 0}};
        self.w[c / 27] = 1u << (c % 27);
        for (int e = 0; e < nextra; e++)
            if (s9_mask_count(s9_mask_and(x->house[e], self, 0)))
                for (int k = 0; k < 3; k++)
                    x->peers[c].w[k] |= x->house[e].w[k] & ~self.w[k];
        int r = c / 9, col = c % 9;
        band9_mask_t near = {{0, 0, 0, 0}};
        for (int k = 0; k < 3; k++)
            near.w[k] = all[r].w[k] | all[9 + col].w[k] | all[18 + 3 * (r / 3) + col / 3].w[k];
        x->far[c] = s9_mask_and(x->peers[c], near, 1);
    }
    /* every pair with an extra house as its second, the first standard or extra */
    for (int j = 27; j < 27 + nextra; j++)
        for (int i = 0; i < j; i++) {
            int shared = s9_mask_count(s9_mask_and(all[i], all[j], 0));
            if (shared < 2 || shared > 8)
                continue;
            band9_mask_t *lk = x->lock[x->nlocks++];
            lk[0] = s9_mask_and(all[i], all[j], 0);
            lk[1] = s9_mask_and(all[i], all[j], 1);
            lk[2] = s9_mask_and(all[j], all[i], 1);
        }
    sh->b9x = x;
    return 0;
}
