/*
 * aq.h - the admin queue engine: what the E810 firmware does with the ATQ and ARQ rings.
 *
 * A write of PF_FW_ATQT schedules one processing event; it consumes descriptors from ATQH to
 * ATQT, copies an indirect buffer in (RD) and out, dispatches each opcode to its handler
 * (fw_*.c, one per opcode), writes the descriptor back with DD|CMP (|ERR) and the handler's
 * return code, and advances ATQH, which is all the driver polls. Events for the driver (link
 * changes, LLDP MIB changes) are queued and written into the ARQ slots the driver posted, each
 * followed by the admin-queue interrupt (PFINT_FW_CTL).
 */
#ifndef IRDMA_EMU_AQ_H
#define IRDMA_EMU_AQ_H

#include "core/dev.h"
#include "fw/aq_defs.h"

/* One command as a handler sees it. */
typedef struct AqCmd {
    uint16_t opcode;
    uint16_t flags;                  /* as the driver set them */
    uint8_t params[AQ_PARAMS_SIZE];  /* in, and written back as the response */
    uint8_t *buf;                    /* AQ_MAX_BUF bytes: request contents (RD), response */
    uint16_t buf_len;                /* request datalen; 0 without AQ_FLAG_BUF */
    uint16_t resp_len;               /* response datalen, <= buf_len; defaults to buf_len */
} AqCmd;

/* Returns an AQ_RC_* code. */
typedef uint16_t (*AqHandler)(IrdmaDev *d, AqCmd *c);

typedef enum AqBufDir {
    AQ_BUF_NONE,      /* direct command */
    AQ_BUF_IN,        /* the driver supplies data (RD set); nothing is written back */
    AQ_BUF_OUT,       /* the firmware fills the buffer */
    AQ_BUF_INOUT,     /* RD set and the firmware updates it (TEIDs, rule indexes) */
    AQ_BUF_OUT_OPT,   /* the firmware fills the buffer if the driver gave one */
} AqBufDir;

typedef struct AqOpcode {
    uint16_t opcode;
    const char *name;
    AqHandler handler;
    AqBufDir buf;
    uint16_t min_len;  /* smallest buffer accepted (bytes) */
} AqOpcode;

typedef struct AqOpcodeTable {
    const AqOpcode *ops;
    size_t n;
} AqOpcodeTable;

typedef struct AqEngine AqEngine;

AqEngine *aq_new(IrdmaDev *d);
void aq_free(AqEngine *aq);
/* PF reset: drop pending events. */
void aq_pf_reset(AqEngine *aq);

/* Ring doorbells: the control-queue tail registers ring them (ctlq.h, CtlqDoorbells). */
void aq_atq_tail_written(AqEngine *aq);
void aq_arq_tail_written(AqEngine *aq);

/* Queue an event for the driver (opcode, params and data of the ARQ descriptor). */
void aq_post_event(AqEngine *aq, uint16_t opcode, const uint8_t params[AQ_PARAMS_SIZE],
                   const void *data, uint16_t len);

/* Every opcode table the firmware model has (for coverage listings). */
const AqOpcodeTable *const *aq_opcode_tables(size_t *n);

/* The opcode table entry of @opcode, or NULL. */
const AqOpcode *aq_lookup(const AqEngine *aq, uint16_t opcode);

#endif
