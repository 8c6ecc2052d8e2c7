/*
 * intr.h - the interrupt block: per-vector enable and auto-mask (GLINT_DYN_CTL), ITR and rate
 * registers, and the PF cause registers that route "other" causes (PFINT_OICR*), the admin
 * queue (PFINT_FW_CTL) and the mailbox (PFINT_MBX_CTL) to MSI-X vectors.
 *
 * A vector fires only while its INTENA is set; firing auto-masks it (unless GLINT_CTL says
 * otherwise) until the driver re-enables it, and a cause raised while masked stays pending and
 * fires on re-enable, as NAPI-style drivers expect. A cause with an ITR index also waits until
 * that ITR's interval (GLINT_ITR, 2 us units) has passed since the vector last fired.
 */
#ifndef IRDMA_EMU_INTR_H
#define IRDMA_EMU_INTR_H

#include "core/dev.h"

typedef struct IntrBlock IntrBlock;

IntrBlock *intr_new(IrdmaDev *d);
void intr_free(IntrBlock *ib);
void intr_reset(IntrBlock *ib);
/* Core reset: the interrupt registers too. */
void intr_regs_reset(IntrBlock *ib);

/* Raise MSI-X vector @vector through its GLINT_DYN_CTL gate, without ITR moderation. */
void intr_raise_vector(IrdmaDev *d, unsigned vector);
/* A cause routed by a *_CTL register of the common layout (MSIX_INDX, ITR_INDX, CAUSE_ENA):
 * raised if enabled, moderated by the vector's ITR of that index. @what names it in traces. */
void intr_raise_ctl(IrdmaDev *d, uint32_t ctl, const char *what);
/* Admin-queue cause: the vector in PFINT_FW_CTL, if its cause is enabled. */
void intr_raise_fw(IrdmaDev *d);
/* "Other" causes (PFINT_OICR bits): latched, then the PFINT_OICR_CTL vector if enabled. */
void intr_raise_oicr(IrdmaDev *d, uint32_t cause);
/* Latch an "other" cause for PFINT_OICR to report, without raising the vector. */
void intr_latch_oicr(IrdmaDev *d, uint32_t cause);

#endif
