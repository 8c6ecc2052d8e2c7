/*
 * aq_util.h - drive the admin queue the way ice does, against the fake host: rings in fake
 * guest memory, commands written into ATQ slots, the doorbell rung, the clock advanced, the
 * written-back descriptor and buffer read back.
 */
#ifndef IRDMA_TEST_AQ_UTIL_H
#define IRDMA_TEST_AQ_UTIL_H

#include "fake_host.h"
#include "emu/fw/aq_defs.h"

/* Guest-memory layout the helpers use (the fake host needs AQT_MEM_SIZE bytes). */
#define AQT_ATQ_RING     0x1000
#define AQT_ARQ_RING     0x3000
#define AQT_ATQ_BUF      0x10000
#define AQT_ARQ_BUF      0x20000          /* AQT_ARQ_LEN buffers of AQ_MAX_BUF bytes */
#define AQT_RING_LEN     16
#define AQT_MEM_SIZE     (AQT_ARQ_BUF + AQT_RING_LEN * AQ_MAX_BUF)

typedef struct AqtResp {
    uint16_t flags, opcode, datalen, retval;
    uint8_t params[AQ_PARAMS_SIZE];
} AqtResp;

/* The fixture of the device-level suites: a fake host of AQT_MEM_SIZE bytes (@h) and a reset
 * device (@d) with both admin-queue rings programmed as ice does. */
extern FakeHost *h;
extern IrdmaDev *d;
void aqt_setup(void);
void aqt_teardown(void);

/* Program both rings as ice_init_all_ctrlq does (ARQ slots posted with buffers). */
void aqt_init(FakeHost *h, IrdmaDev *d);

/* Send one command. @buf (may be NULL) holds @len bytes in and receives the response buffer;
 * @flags are added to SI (and BUF/LB when @len). Returns the descriptor's retval. */
uint16_t aqt_send(FakeHost *h, IrdmaDev *d, uint16_t opcode, uint16_t flags,
                  const uint8_t params[AQ_PARAMS_SIZE], void *buf, uint16_t len, AqtResp *resp);

/* Read the next ARQ event the device wrote, if any; copies up to @cap bytes of its buffer. */
bool aqt_next_event(FakeHost *h, IrdmaDev *d, AqtResp *ev, void *buf, uint16_t cap);

#endif
