/*
 * cqp_util.h - drive the RDMA engine's control QP as irdma does, against the fake host: the
 * CQP host context, SQ, CCQ, FPM buffers and SD pages in fake guest memory; WQEs written with
 * the ring's polarity and the header last; the doorbell rung and the clock advanced.
 */
#ifndef IRDMA_TEST_CQP_UTIL_H
#define IRDMA_TEST_CQP_UTIL_H

#include "fake_host.h"
#include "emu/rdma/pe_defs.h"

#define CQPT_HOSTCTX      0x1000
#define CQPT_QUERY_BUF    0x1100
#define CQPT_COMMIT_BUF   0x1200
#define CQPT_FEAT_BUF     0x1400
#define CQPT_CCQ_SHADOW   0x1800
#define CQPT_CQ_SHADOW    0x1840
#define CQPT_SDBUF        0x2000
#define CQPT_PD_PAGE      0x3000
#define CQPT_SQ           0x10000
#define CQPT_CCQ          0x20000
#define CQPT_CEQ          0x40000
#define CQPT_AEQ          0x50000
#define CQPT_CQ           0x60000
#define CQPT_SD_PAGES     0x200000        /* SD i backed at CQPT_SD_PAGES + i * 2 MiB */
#define CQPT_NUM_SD_PAGES 6
#define CQPT_MEM_SIZE     (CQPT_SD_PAGES + CQPT_NUM_SD_PAGES * (2u << 20))
#define CQPT_COMPL_CTX    0xffff888012345678ull
#define CQPT_CCQ_CTX      0x7fffc4401234ull

extern FakeHost *h;          /* defined in aq_util.c */
extern IrdmaDev *d;

/* Fixture: fake host of CQPT_MEM_SIZE bytes and a reset device; the CQP not yet created. */
void cqpt_setup(void);
void cqpt_teardown(void);

/* irdma_sc_cqp_init + irdma_sc_cqp_create with an SQ of 2^(@enc+1) WQEs; CCQPSTATUS back. */
uint32_t cqpt_create(unsigned enc);
/* Write a WQE (8 qwords; VALID is added to qw3) at the producer index; returns its slot. */
unsigned cqpt_post(const uint64_t qw[8]);
/* Ring the doorbell with the producer index and run the due events. */
void cqpt_ring(void);
/* CQPTAIL's WQ tail: the next WQE the CQP will complete. */
unsigned cqpt_tail(void);
/* Post + ring; returns CQPTAIL. */
uint32_t cqpt_run(const uint64_t qw[8]);
/* Complete HMC bring-up: QUERY_FPM, COMMIT_FPM with irdma's counts, direct SDs for everything
 * but PBLE (and the first PBLE SD), SHMC_PAGES_ALLOCATED. Returns the SD count the driver
 * would compute from the commit reply. */
unsigned cqpt_hmc_setup(void);
/* CREATE_CQ of the CCQ with @size CQEs (checked to complete into itself). */
void cqpt_create_ccq(unsigned size);

/* Bring-up as irdma's probe does it: CQP, HMC (returns the SDs programmed), a CCQ of @ccq_size
 * whose completions cqpt_op() then consumes in order. */
unsigned cqpt_start(unsigned ccq_size);
/* Post @qw, ring, and return the CCQ CQE of the op (checked to be there, consumed at once). */
const uint8_t *cqpt_op(const uint64_t qw[8]);
uint16_t cqpt_maj(const uint8_t *cqe);
uint16_t cqpt_min(const uint8_t *cqe);
uint32_t cqpt_retval(const uint8_t *cqe);
/* CCQ CQE @slot. */
const uint8_t *cqpt_ccqe(unsigned slot);
uint64_t cqpt_hdr(unsigned opcode);
/* MANAGE_WS_NODE @op of node @id under @parent on VSI 3, as irdma_sc_manage_ws_node. */
const uint8_t *cqpt_ws_op(unsigned op, unsigned id, unsigned parent, bool leaf, bool enable);
/* irdma_ws_add for the first QP: root 0, VSI node 1, leaf 2 enabled after ice placed it;
 * returns the leaf's qs_handle. */
unsigned cqpt_ws_add_tree(void);

#endif
