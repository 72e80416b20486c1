/*
 * Four 32-bit words at once, for the 9x9 engine's extra houses (core/band9.c): the three
 * band words of a digit and one more, which the masks of band9_mask_t clear with their
 * pad word.  SSE2 where the build has it, plain words otherwise.
 */
#ifndef SHUDU_CORE_VEC4_H
#define SHUDU_CORE_VEC4_H

#include "band9.h"

#if defined(__SSE2__)
#include <emmintrin.h>

typedef __m128i s9v_t;

static inline s9v_t
s9v_load(const uint32_t *p)
{
    return _mm_loadu_si128((const __m128i *)p);
}

static inline void
s9v_store(uint32_t *p, s9v_t v)
{
    _mm_storeu_si128((__m128i *)p, v);
}

static inline s9v_t
s9v_xor(s9v_t a, s9v_t b)
{
    return _mm_xor_si128(a, b);
}

/* a without the cells of m */
static inline s9v_t
s9v_clear(s9v_t a, const band9_mask_t *m)
{
    return _mm_andnot_si128(s9v_load(m->w), a);
}

/* Does a hold a cell of m? */
static inline int
s9v_meets(s9v_t a, const band9_mask_t *m)
{
    __m128i both = _mm_and_si128(a, s9v_load(m->w));
    return _mm_movemask_epi8(_mm_cmpeq_epi32(both, _mm_setzero_si128())) != 0xFFFF;
}
#else
typedef band9_mask_t s9v_t;

static inline s9v_t
s9v_load(const uint32_t *p)
{
    s9v_t v;
    memcpy(v.w, p, sizeof v.w);
    return v;
}

static inline void
s9v_store(uint32_t *p, s9v_t v)
{
    memcpy(p, v.w, sizeof v.w);
}

static inline s9v_t
s9v_xor(s9v_t a, s9v_t b)
{
    for (int k = 0; k < 4; k++)
        a.w[k] ^= b.w[k];
    return a;
}

static inline s9v_t
s9v_clear(s9v_t a, const band9_mask_t *m)
{
    for (int k = 0; k < 4; k++)
        a.w[k] &= ~m->w[k];
    return a;
}

static inline int
s9v_meets(s9v_t a, const band9_mask_t *m)
{
    return ((a.w[0] & m->w[0]) | (a.w[1] & m->w[1]) | (a.w[2] & m->w[2]) | (a.w[3] & m->w[3])) != 0;
}
#endif

#endif
