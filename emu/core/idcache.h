/*
 * idcache.h - a small direct-mapped cache in front of a GHashTable of objects keyed by a 32-bit
 * id (QPs, MRs, CQs): the packet path looks the same few objects up for every packet, and a
 * slot compare is cheaper than a hash table probe. The owner of the table forgets an id in the
 * cache whenever it removes or replaces that id's object, and clears the cache with the table.
 */
#ifndef IRDMA_EMU_IDCACHE_H
#define IRDMA_EMU_IDCACHE_H

#include <glib.h>
#include <stdint.h>
#include <string.h>

#define IDCACHE_SLOTS 64           /* a power of two: the slot is the id's low bits */

typedef struct IdCache {
    void *val[IDCACHE_SLOTS];      /* NULL: the slot is empty */
    uint32_t key[IDCACHE_SLOTS];
} IdCache;

/* The object of @id in @table (NULL if none), through @c. */
static inline void *idcache_lookup(IdCache *c, GHashTable *table, uint32_t id)
{
    unsigned slot = id & (IDCACHE_SLOTS - 1);
    void *v;

    if (c->val[slot] && c->key[slot] == id) {
        return c->val[slot];
    }
    v = g_hash_table_lookup(table, GUINT_TO_POINTER(id));
    if (v) {
        c->val[slot] = v;
        c->key[slot] = id;
    }
    return v;
}

/* @id's object is going (or being replaced) in the table. */
static inline void idcache_forget(IdCache *c, uint32_t id)
{
    unsigned slot = id & (IDCACHE_SLOTS - 1);

    if (c->key[slot] == id) {
        c->val[slot] = NULL;
    }
}

/* Every object is going. */
static inline void idcache_clear(IdCache *c)
{
    memset(c, 0, sizeof(*c));
}

#endif
