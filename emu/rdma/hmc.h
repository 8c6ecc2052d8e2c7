/*
 * hmc.h - the Host Memory Cache: the function's private memory (FPM) in which the engine keeps
 * its object contexts, backed by guest pages the driver hands over as segment descriptors (SDs).
 *
 * QUERY_FPM_VAL reports what the engine can hold per object type; COMMIT_FPM_VAL takes the
 * driver's counts, lays the objects out in FPM and writes the bases back; UPDATE_PE_SDS programs
 * SDs (direct 2 MiB pages, or paged: a 4 KiB page of 512 PD entries); SHMC_PAGES_ALLOCATED closes
 * the static set-up. hmc_obj_gpa() is the single (object type, index) -> guest address
 * translation every HMC access of the engine goes through.
 */
#ifndef IRDMA_EMU_HMC_H
#define IRDMA_EMU_HMC_H

#include "rdma/pe.h"

typedef enum HmcObjType {
    HMC_QP, HMC_CQ, HMC_RSVD, HMC_HTE, HMC_ARP, HMC_APBVT, HMC_MR, HMC_XF, HMC_XFFL, HMC_Q1,
    HMC_Q1FL, HMC_TIMER, HMC_FSIMC, HMC_FSIAV, HMC_PBLE, HMC_RRF, HMC_RRFFL, HMC_HDR, HMC_MD,
    HMC_OOISC, HMC_OOISCFFL,
    HMC_NUM_OBJ_TYPES
} HmcObjType;

#define HMC_SD_SIZE        (2u << 20)
#define HMC_PD_SIZE        4096u
#define HMC_PDS_PER_SD     512u
#define HMC_MAX_SDS        64u       /* QUERY_FPM max_pe_sds; first SD index is 0 */

typedef enum HmcStatus {
    HMC_OK,
    HMC_NOT_COMMITTED,      /* no COMMIT_FPM_VAL yet */
    HMC_BAD_INDEX,          /* index >= the committed count */
    HMC_UNMAPPED,           /* the SD (or PD entry) backing the object is not valid */
} HmcStatus;

typedef struct PeHmc PeHmc;

PeHmc *hmc_new(IrdmaDev *d);
void hmc_free(PeHmc *hmc);
void hmc_reset(PeHmc *hmc);

extern const CqpOpTable hmc_cqp_ops;

/* Guest physical address of object @idx of @type (its first byte). */
HmcStatus hmc_obj_gpa(IrdmaDev *d, HmcObjType type, uint32_t idx, uint64_t *gpa);
/* Committed count of @type (0 before COMMIT_FPM_VAL). */
uint32_t hmc_obj_count(IrdmaDev *d, HmcObjType type);
/* Fill @r with the CQP error for a failed translation. */
void hmc_status_fail(HmcStatus st, CqpResult *r);

/* PBLE @idx (a page address, or a leaf's PBLE index in a level-2 root). */
HmcStatus hmc_pble_read(IrdmaDev *d, uint32_t idx, uint64_t *val);

/* Checks that @m can address @bytes of queue memory (PBLEs in range and mapped). */
HmcStatus hmc_queue_check(IrdmaDev *d, const PeQueueMap *m, uint64_t bytes);
/* Guest address of byte @off of a queue; @off must not cross a 4 KiB page within the element. */
HmcStatus hmc_queue_gpa(IrdmaDev *d, const PeQueueMap *m, uint64_t off, uint64_t *gpa);

#endif
