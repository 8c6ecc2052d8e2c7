/*
 * mr.h - memory regions and memory windows: the STag table behind ALLOC_STAG (0x09, MR or MW),
 * REG_MR (0x0a) and DEALLOC_STAG (0x0d).
 *
 * An STag is (index << 8) | key. The WQE's STAG_IDX field is the STag >> 8, so its high bits
 * are the driver's own key bits (hw.c mr_stagmask): the table index is the low
 * max(log2(MR count), STAG_IDX_BITS_MIN) bits, and the whole 24-bit value is kept so the data
 * path can compare a presented STag with the registered one. Every entry's MR context lives
 * in HMC (HMC_MR): the SD backing the index must be programmed.
 *
 *   ALLOC_STAG (MR=1)  an MR for fast registration: allocated, INVALID until an SQ FAST_REG
 *   ALLOC_STAG (MR=0)  a memory window (type 1 or 2), unbound
 *   REG_MR             an MR registered at once: VALID, with VA/FBO, length, page size, PBL
 *   DEALLOC_STAG       frees the index; the MR bit and the PD must match the entry
 *
 * The data path (FAST_REG, bind, invalidate, STag checks) works on the entries through
 * mr_lookup_mut().
 */
#ifndef IRDMA_EMU_MR_H
#define IRDMA_EMU_MR_H

#include "rdma/pe.h"
#include "rdma/wqe.h"

typedef enum PeMrState {
    MR_STATE_INVALID,          /* allocated, not registered (or invalidated) */
    MR_STATE_VALID,
} PeMrState;

typedef struct PeMr {
    uint32_t index;            /* table index (the masked STag index) */
    uint32_t stag_idx;         /* the WQE's 24-bit STAG_IDX: index plus driver key bits */
    uint8_t key;               /* consumer key (REG_MR; 0 until a fast-reg sets one) */
    bool is_mw;
    uint8_t mw_type;           /* 1 or 2 (MW only) */
    bool mw1_no_key_check;     /* MW1_BIND_DONT_VLDT_KEY */
    PeMrState state;
    uint32_t pd;
    uint8_t rights;            /* STAG_RIGHT_* */
    bool remote_access;        /* REMACCENABLED */
    bool va_based;             /* VABASEDTO: tagged offsets are VAs, else zero-based */
    uint64_t va;               /* VA-based: the MR's VA; zero-based: 0 */
    uint64_t fbo;              /* offset of the first byte in the first page */
    uint64_t len;              /* 0 with a PD allowing all memory (get_dma_mr) */
    uint8_t page_enc;          /* STAG_PAGE_* */
    uint64_t page_size;
    uint8_t pbl_level;         /* PBL_LEVEL_NONE, PBL_LEVEL_1, PBL_LEVEL_2 */
    uint32_t first_pble;       /* PBL: first PBLE index (level 2: of the root) */
    uint64_t pa;               /* no PBL: the physical address of the (only) page */
    /* MW binding (data path): the MR it is bound to and the window. */
    bool bound;
    uint32_t bound_mr;         /* table index of the parent MR */
    uint64_t bound_va, bound_len;
    uint8_t bound_rights;
} PeMr;

typedef struct PeMrs PeMrs;

PeMrs *mr_block_new(IrdmaDev *d);
void mr_block_free(PeMrs *mrs);
void mr_block_reset(PeMrs *mrs);

extern const CqpOpTable mr_cqp_ops;

/* Table index of an STag (or of a WQE's STAG_IDX << 8) with the committed MR count. */
uint32_t mr_stag_index(IrdmaDev *d, uint32_t stag);
/* The entry at table index @index, or NULL. */
const PeMr *mr_lookup(IrdmaDev *d, uint32_t index);
PeMr *mr_lookup_mut(IrdmaDev *d, uint32_t index);
/* Live MRs and MWs. */
unsigned mr_count(IrdmaDev *d);

/* The data path's view: an STag presented with an address range and the access it wants. */
typedef enum MrAccess {
    MR_ACCESS_OK,
    MR_ACCESS_INVALID_STAG,    /* no entry, not valid, or an unbound window */
    MR_ACCESS_BAD_KEY,
    MR_ACCESS_BAD_PD,
    MR_ACCESS_RIGHTS,
    MR_ACCESS_BOUNDS,
    MR_ACCESS_DMA,             /* a PBLE or the guest page behind it is unreachable */
} MrAccess;

/* Access the data path asks for (an STag's ARIGHTS bits, or 0 for a local read). */
#define MR_WANT_LOCAL_READ   0
#define MR_WANT_LOCAL_WRITE  STAG_RIGHT_LOCAL_WRITE
#define MR_WANT_REMOTE_READ  STAG_RIGHT_REMOTE_READ
#define MR_WANT_REMOTE_WRITE STAG_RIGHT_REMOTE_WRITE

/* A resolved range: the MR whose pages back it (by table index and STag index, looked up
 * again at every copy: the guest may deregister it while a message is in flight) and the
 * offset of its first byte from the MR's first page start; or (@phys) guest physical memory
 * at @pa (STag 0 on a privileged QP). */
typedef struct MrRange {
    uint32_t index, stag_idx;
    uint64_t pos;
    bool phys;
    uint64_t pa;
} MrRange;

/* Check @stag for @len bytes at @va (a VA or a zero-based offset) for QP PD @pd; @priv: the
 * QP may use STag 0 for physical addresses (kernel QPs). */
MrAccess mr_resolve(IrdmaDev *d, uint32_t stag, uint32_t pd, bool priv, uint64_t va,
                    uint64_t len, unsigned want, MrRange *out);
/* Copy @len bytes at offset @off of a resolved range to (@to_guest) or from @buf; an MR gone
 * or invalidated since it was resolved is MR_ACCESS_INVALID_STAG. @done, if not NULL, gets
 * how many bytes went: all, or those before the piece of guest memory that failed. */
MrAccess mr_copy(IrdmaDev *d, const MrRange *rg, uint64_t off, void *buf, size_t len,
                 bool to_guest, size_t *done);
/* Resolve the @n fragments of an SGE list for @want into @rg (one range each); on a refusal
 * the failing fragment's index is in @bad. */
MrAccess mr_resolve_sgl(IrdmaDev *d, const WqeSge *sge, unsigned n, uint32_t pd, bool priv,
                        unsigned want, MrRange *rg, unsigned *bad);
/* Copy @len bytes at byte @off of the message an SGE list (resolved into @rg) holds, fragment
 * by fragment; MR_ACCESS_BOUNDS if the list ends first. @done as for mr_copy(). */
MrAccess mr_sgl_copy(IrdmaDev *d, const WqeSge *sge, const MrRange *rg, unsigned n,
                     uint64_t off, void *buf, size_t len, bool to_guest, size_t *done);
/* What mr_sgl_map() mapped: @len bytes of the message at guest address @gpa, of a mapping
 * of @map_len bytes (what dma_unmap takes). */
typedef struct MrMapping {
    uint64_t gpa;
    size_t len, map_len;
} MrMapping;

/* Map for reading in place (the host's dma_map) the longest run of the message bytes [@off,
 * @off + @len) an SGE list (resolved into @rg) holds that is one piece of guest memory: within
 * one fragment, over consecutive pages. NULL if none maps, or if the fragment's MR is gone;
 * mr_sgl_copy() then copies the bytes, or says why it cannot. */
const void *mr_sgl_map(IrdmaDev *d, const WqeSge *sge, const MrRange *rg, unsigned n,
                       uint64_t off, size_t len, MrMapping *m);
/* The AE a failed access raises. */
unsigned mr_access_ae(MrAccess a);
const char *mr_access_name(MrAccess a);

#endif
