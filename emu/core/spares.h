/*
 * spares.h - objects of one kind the packet path is done with, kept for its next ones: a
 * message's SqOp, a looped train and the WireFrame that carries it are taken and given back
 * once per WRITE, and a stack of up to SPARES_MAX of them saves the allocator every time.
 */
#ifndef IRDMA_EMU_SPARES_H
#define IRDMA_EMU_SPARES_H

#include <glib.h>

#define SPARES_MAX 64

typedef struct Spares {
    unsigned n;
    void *obj[SPARES_MAX];
} Spares;

/* A spare object, or a new one of @size bytes (not cleared either way). */
static inline void *spares_take(Spares *s, size_t size)
{
    return s->n ? s->obj[--s->n] : g_malloc(size);
}

/* @obj is done with: kept, or freed when SPARES_MAX are kept already. */
static inline void spares_give(Spares *s, void *obj)
{
    if (s->n < SPARES_MAX) {
        s->obj[s->n++] = obj;
    } else {
        g_free(obj);
    }
}

static inline void spares_free(Spares *s)
{
    while (s->n) {
        g_free(s->obj[--s->n]);
    }
}

#endif
