/*
 * ddp_gen.h - builds a synthetic DDP package that ice 6.1's parser (ice_init_pkg) accepts.
 *
 * Used by tools/mkddp (which writes it to a file) and by the unit tests (which re-parse it with
 * their own checker). The layout is in emu/fw/ddp_format.h and explained in docs/ddp-package.md.
 */
#ifndef IRDMA_TOOLS_DDP_GEN_H
#define IRDMA_TOOLS_DDP_GEN_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "emu/fw/ddp_format.h"

typedef struct DdpGenSpec {
    uint8_t ver[DDP_VER_SIZE];            /* metadata section version (what ice reports) */
    char name[DDP_META_NAME_SIZE];        /* NUL-padded metadata name */
    uint32_t track_id;
    /* false: one metadata buffer, nothing for ice to download (the default package).
     * true: a configuration buffer ice downloads with 0x0C40 (metadata section and a
     * metadata-init section without double-VLAN support), then a metadata buffer. */
    bool download;
} DdpGenSpec;

/* The synthetic package of emu/fw/ddp_format.h (DDP_SYNTH_*), without download. */
void ddp_gen_spec_default(DdpGenSpec *s);

/* Sets the metadata name: 1..DDP_META_NAME_SIZE-1 printable ASCII characters. */
bool ddp_gen_set_name(DdpGenSpec *s, const char *name, GError **errp);

/* Parses "MAJOR.MINOR.UPDATE.DRAFT", each 0..255. */
bool ddp_gen_parse_version(const char *str, uint8_t ver[DDP_VER_SIZE], GError **errp);

/* The package (free with g_free) and its size in *len. */
uint8_t *ddp_gen_build(const DdpGenSpec *s, size_t *len);

/* The 4 KiB buffers of a package ddp_gen_build made: the first one, and their number in
 * *@count (what a driver downloads from, without parsing the package again). */
const uint8_t *ddp_gen_bufs(const uint8_t *pkg, unsigned *count);

#define DDP_GEN_ERROR ddp_gen_error_quark()
GQuark ddp_gen_error_quark(void);

#endif
