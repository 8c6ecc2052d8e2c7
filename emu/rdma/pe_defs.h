/*
 * pe_defs.h - layouts of the RDMA engine's (the "PE", protocol engine) host-memory structures as
 * the gen2 irdma driver builds them: the CQP host context, CQP SQ WQEs, CCQ CQEs, CEQEs, AEQEs,
 * the FPM query/commit buffers and SD entries. Everything is little-endian 64-bit words; a field
 * is (byte offset of its qword, mask within it). Source: irdma defs.h, icrdma_hw.h, irdma.h.
 */
#ifndef IRDMA_EMU_PE_DEFS_H
#define IRDMA_EMU_PE_DEFS_H

#include <stdint.h>
#include "core/le.h"

#define PE_BIT64(n)        (1ull << (n))
#define PE_MASK64(hi, lo)  ((~0ull >> (63 - (hi))) & ~((1ull << (lo)) - 1))

/* The one field-extraction helper for every 64-bit layout below. */
static inline uint64_t pe_get(uint64_t qw, uint64_t mask)
{
    return (qw & mask) >> __builtin_ctzll(mask);
}

static inline uint64_t pe_prep(uint64_t mask, uint64_t v)
{
    return (v << __builtin_ctzll(mask)) & mask;
}

/* --- CQP host context (64 bytes at CCQPHIGH:CCQPLOW) --- */
#define CQPHC_SIZE                 64
#define CQPHC_QW0                  0
#define CQPHC_SQSIZE               PE_MASK64(11, 8)   /* size = 2^(enc + 1) */
#define CQPHC_PROTOCOL_USED        PE_MASK64(4, 3)
#define CQPHC_SQBASE_OFF           8
#define CQPHC_SQBASE               PE_MASK64(63, 9)
#define CQPHC_QW2                  16
#define CQPHC_HMC_PROFILE          PE_MASK64(2, 0)
#define CQPHC_COMPL_CTX_OFF        24                 /* echoed in every CCQ CQE */
#define CQPHC_QW4                  32
#define CQPHC_HW_MAJVER            PE_MASK64(31, 16)
#define CQPHC_HW_MINVER            PE_MASK64(15, 0)
#define CQPHC_SQSIZE_ENC_MIN       1                  /* 4 WQEs */
#define CQPHC_SQSIZE_ENC_MAX       10                 /* 2048 WQEs */
#define CQP_SQ_MAX                 (1u << (CQPHC_SQSIZE_ENC_MAX + 1))
#define CQPHC_PROTOCOL_ROCE        2
#define CQPHC_HW_MAJVER_GEN2       1

/* --- CQP SQ WQE (64 bytes); header qword at 24 is written last --- */
#define CQP_WQE_SIZE               64
#define CQP_WQE_HDR                24
#define CQP_WQE_OPCODE             PE_MASK64(37, 32)
#define CQP_WQE_VALID              PE_BIT64(63)
#define CQP_NUM_OPCODES            64

#define CQP_OP_CREATE_QP           0x00
#define CQP_OP_MODIFY_QP           0x01
#define CQP_OP_DESTROY_QP          0x02
#define CQP_OP_CREATE_CQ           0x03
#define CQP_OP_MODIFY_CQ           0x04
#define CQP_OP_DESTROY_CQ          0x05
#define CQP_OP_ALLOC_STAG          0x09               /* also MW alloc: STAG_MR clear */
#define CQP_OP_REG_MR              0x0a
#define CQP_OP_DEALLOC_STAG        0x0d
#define CQP_OP_MANAGE_LOC_MAC      0x0e               /* add / delete (FREEENTRY) */
#define CQP_OP_MANAGE_ARP          0x0f
#define CQP_OP_MANAGE_PUSH_PAGES   0x11
#define CQP_OP_QUERY_RDMA_FEATURES 0x12
#define CQP_OP_ALLOC_LOC_MAC       0x14
#define CQP_OP_CREATE_CEQ          0x16
#define CQP_OP_DESTROY_CEQ         0x18
#define CQP_OP_CREATE_AEQ          0x19
#define CQP_OP_DESTROY_AEQ         0x1b
#define CQP_OP_CREATE_AH           0x1c
#define CQP_OP_MODIFY_AH           0x1d
#define CQP_OP_DESTROY_AH          0x1e
#define CQP_OP_UPDATE_PE_SDS       0x1f
#define CQP_OP_QUERY_FPM_VAL       0x20
#define CQP_OP_COMMIT_FPM_VAL      0x21
#define CQP_OP_FLUSH_WQES          0x22               /* also GEN_AE: same opcode */
#define CQP_OP_MANAGE_APBVT        0x23
#define CQP_OP_NOP                 0x24
#define CQP_OP_MANAGE_QHASH        0x25
#define CQP_OP_CREATE_MCAST_GRP    0x26
#define CQP_OP_MODIFY_MCAST_GRP    0x27
#define CQP_OP_DESTROY_MCAST_GRP   0x28
#define CQP_OP_SUSPEND_QP          0x29
#define CQP_OP_RESUME_QP           0x2a
#define CQP_OP_SHMC_PAGES_ALLOCATED 0x2b
#define CQP_OP_WORK_SCHED_NODE     0x2c
#define CQP_OP_MANAGE_STATS        0x2d
#define CQP_OP_GATHER_STATS        0x2e

/* Completion codes. Major 0 = success; 0xffff, 0xf000 and 0xf001 are the driver's named majors
 * (defs.h). Real firmware's minor codes are not public except the few the driver tests
 * (0x8002 "invalid state" -> -EBUSY, 0x8029 -> reset); the others are the model's own, chosen
 * outside the driver's special list so each malformed-WQE class is distinguishable. */
#define CQP_MAJ_OK                 0x0000
#define CQP_MAJ_OBJCACHE_ERROR     0xf000             /* HMC backing missing */
#define CQP_MAJ_ERROR              0xffff
#define CQP_MIN_OK                 0x0000
#define CQP_MIN_BAD_OPCODE         0x8001
#define CQP_MIN_INVALID_STATE      0x8002             /* object exists / does not exist */
#define CQP_MIN_BAD_ID             0x8003
#define CQP_MIN_BAD_SIZE           0x8004
#define CQP_MIN_BAD_ADDR           0x8005             /* unreachable or misaligned DMA */
#define CQP_MIN_BAD_VALID          0x8010             /* doorbell past a WQE without VALID */
#define CQP_MIN_BAD_FIELD          0x8011
#define CQP_MIN_HMC_UNMAPPED       0x0001             /* with CQP_MAJ_OBJCACHE_ERROR */
#define CQP_MIN_HMC_NOT_COMMITTED  0x0002             /* with CQP_MAJ_OBJCACHE_ERROR */

/* --- CQ elements (32 bytes) and the CQ doorbell shadow area --- */
#define CQE_SIZE                   32
#define CQE_QW1_CTX                8
#define CQE_QW2                    16
#define CCQ_OPRETVAL               PE_MASK64(31, 0)
#define CQE_HDR                    24
#define CQE_MINERR                 PE_MASK64(15, 0)
#define CQE_MAJERR                 PE_MASK64(31, 16)
#define CQE_WQEIDX                 PE_MASK64(46, 32)
#define CQE_ERROR                  PE_BIT64(55)
#define CQE_SOEVENT                PE_BIT64(54)
#define CQE_VALID                  PE_BIT64(63)
#define CQ_SHADOW_CQEIDX_OFF       0
#define CQ_SHADOW_CQEIDX           PE_MASK64(19, 0)
#define CQ_SHADOW_ARM_OFF          32
#define CQ_SHADOW_ARM_NEXT         PE_BIT64(14)
#define CQ_SHADOW_ARM_NEXT_SE      PE_BIT64(15)

/* --- CREATE_CQ / DESTROY_CQ WQE --- */
#define CQPWQE_CQ_SIZE_OFF         0
#define CQPWQE_CQ_SIZE             PE_MASK64(20, 0)
#define CQPWQE_CQ_CTX_OFF          8
#define CQPWQE_CQ_CTX              PE_MASK64(62, 0)
#define CQPWQE_CQ_PA_OFF           32
#define CQPWQE_CQ_SHADOW_OFF       40
#define CQPWQE_CQ_PBL_OFF          48
#define CQPWQE_FIRSTPMPBLIDX       PE_MASK64(27, 0)
#define CQPWQE_CQ_ID               PE_MASK64(18, 0)
#define CQPWQE_CQ_CEQID            PE_MASK64(31, 22)
#define CQPWQE_LPBLSIZE            PE_MASK64(45, 44)
#define CQPWQE_CQ_CHKOVERFLOW      PE_BIT64(46)
#define CQPWQE_VIRTMAP             PE_BIT64(47)
#define CQPWQE_CQ_ENCEQEMASK       PE_BIT64(48)
#define CQPWQE_CQ_CEQIDVALID       PE_BIT64(49)
#define CQPWQE_CQ_AVOIDMEMCNFLCT   PE_BIT64(61)
#define PBL_LEVEL_1                1

/* --- CREATE_CEQ / CREATE_AEQ WQEs, CEQE (8 bytes), AEQE (16 bytes) --- */
#define CQPWQE_EQ_ELEMS_OFF        16
#define CQPWQE_CEQ_SIZE            PE_MASK64(21, 0)
#define CQPWQE_AEQ_SIZE            PE_MASK64(18, 0)
#define CQPWQE_EQ_PA_OFF           32
#define CQPWQE_EQ_PBL_OFF          48
#define CQPWQE_CEQ_ID              PE_MASK64(9, 0)
#define CEQ_SIZE_MAX               262143u
#define AEQ_SIZE_MAX               524287u
#define CEQE_SIZE                  8
#define CEQE_CTX                   PE_MASK64(62, 0)
#define CEQE_VALID                 PE_BIT64(63)
#define AEQE_SIZE                  16
#define AEQE_QW1                   8
#define AEQE_QPCQID_LOW            PE_MASK64(17, 0)
#define AEQE_WQDESCIDX             PE_MASK64(32, 18)
#define AEQE_OVERFLOW              PE_BIT64(33)
#define AEQE_AECODE                PE_MASK64(45, 34)
#define AEQE_QPCQID_HI             PE_BIT64(46)
#define AEQE_AESRC                 PE_MASK64(53, 50)
#define AEQE_IWSTATE               PE_MASK64(56, 54)
#define AEQE_VALID                 PE_BIT64(63)

/* --- QUERY_FPM_VAL / COMMIT_FPM_VAL WQEs and their 176-byte buffers --- */
#define CQPWQE_FPM_FN_OFF          16
#define CQPWQE_HMC_FN_ID           PE_MASK64(5, 0)
#define CQPWQE_FPM_BUF_OFF         32
#define CQPWQE_BUFSIZE             PE_MASK64(31, 0)
#define FPM_BUF_SIZE               176
#define FPM_BUF_ALIGN              8
#define FPMQ_SD_OFF                0
#define FPMQ_FIRST_PE_SD_INDEX     PE_MASK64(13, 0)
#define FPMQ_MAX_PE_SDS            PE_MASK64(45, 32)
#define FPMQ_MAX_CNT               PE_MASK64(31, 0)
#define FPMQ_SIZE_EXP              PE_MASK64(63, 32)   /* or a block size for the *FL objects */
#define FPMQ_MISC_OFF              120
#define FPMQ_MAX_CEQS              PE_MASK64(9, 0)
#define FPMQ_HTMULTIPLIER          PE_MASK64(19, 16)
#define FPMQ_TIMERBUCKET           PE_MASK64(47, 32)
#define FPMC_QP_CNT                PE_MASK64(18, 0)
#define FPMC_CQ_CNT                PE_MASK64(19, 0)
#define FPMC_CNT                   PE_MASK64(31, 0)
#define FPMC_BASE                  PE_MASK64(63, 32)   /* in 512-byte units */
#define FPM_BASE_UNIT              512

/* --- UPDATE_PE_SDS WQE and SD entries --- */
#define CQPWQE_SDS_E0_CMD_OFF      0
#define CQPWQE_SDS_E0_DATA_OFF     8
#define CQPWQE_SDS_BUF_OFF         16                  /* extra-entry buffer PA | HMCFNID */
#define CQPWQE_SDS_BUF_PA          PE_MASK64(63, 6)
#define CQPWQE_SDS_E1_CMD_OFF      32
#define CQPWQE_SDS_E1_DATA_OFF     40
#define CQPWQE_SDS_E2_CMD_OFF      48
#define CQPWQE_SDS_E2_DATA_OFF     56
#define CQPWQE_SDS_ENTRY_VALID     PE_BIT64(63)
#define CQPWQE_SDS_ENTRY_COUNT     PE_MASK64(3, 0)      /* extra entries in the buffer */
#define SDS_WQE_ENTRIES            3
#define SDS_BUF_ENTRIES_MAX        8
#define SDS_BUF_ENTRY_SIZE         16
#define SD_CMD_IDX                 PE_MASK64(11, 0)
#define SD_CMD_PARTSEL             PE_BIT64(15)
#define SD_CMD_WRITE               PE_BIT64(31)
#define SD_DATA_VALID              PE_BIT64(0)
#define SD_DATA_DIRECT             PE_BIT64(1)
#define SD_DATA_BPCOUNT            PE_MASK64(11, 2)
#define SD_DATA_PA                 PE_MASK64(63, 12)
#define PD_ENTRY_VALID             PE_BIT64(0)
#define PD_ENTRY_PA                PE_MASK64(63, 12)

/* --- SHMC_PAGES_ALLOCATED, QUERY_RDMA_FEATURES, MANAGE_STATS, MANAGE_ARP, WS node --- */
#define CQPWQE_SHMC_FN_OFF         16
#define CQPWQE_FEAT_BUF_OFF        32
#define CQPWQE_FEAT_BUF_LEN        PE_MASK64(31, 0)
#define FEAT_TYPE                  PE_MASK64(63, 48)
#define FEAT_CNT                   PE_MASK64(47, 32)
#define FEAT_INFO                  PE_MASK64(47, 0)
#define FEAT_FW_MAJOR              PE_MASK64(31, 16)
#define FEAT_FW_MINOR              PE_MASK64(15, 0)
#define FEAT_TYPE_FW_INFO          0
#define FEAT_TYPE_HW_VERSION       1
#define CQPWQE_STATS_FN_OFF        40
#define CQPWQE_STATS_INST_INDEX    PE_MASK64(6, 0)
#define CQPWQE_STATS_USE_FN_INDEX  PE_BIT64(60)
#define CQPWQE_STATS_USE_INST      PE_BIT64(61)
#define CQPWQE_STATS_ALLOC_INST    PE_BIT64(62)
#define STATS_INST_MAX             128
#define CQPWQE_ARP_MAC_OFF         16
#define CQPWQE_ARP_MAC             PE_MASK64(47, 0)
#define CQPWQE_ARP_INDEX           PE_MASK64(11, 0)
#define CQPWQE_ARP_ENTRYVALID      PE_BIT64(42)
#define CQPWQE_ARP_PERMANENT       PE_BIT64(43)
#define CQPWQE_WS_VSI_OFF          32
#define CQPWQE_WS_VSI              PE_MASK64(57, 48)
#define CQPWQE_WS_WEIGHT           PE_MASK64(38, 32)
#define CQPWQE_WS_NODEID           PE_MASK64(9, 0)
#define CQPWQE_WS_PARENTID         PE_MASK64(25, 16)
#define CQPWQE_WS_NODEOP           PE_MASK64(53, 52)
#define CQPWQE_WS_TC               PE_MASK64(58, 56)
#define CQPWQE_WS_PRIOTYPE         PE_MASK64(60, 59)
#define CQPWQE_WS_NODETYPE_LEAF    PE_BIT64(61)
#define CQPWQE_WS_ENABLENODE       PE_BIT64(62)
#define WS_NODEOP_ADD              0
#define WS_NODEOP_MODIFY           1
#define WS_NODEOP_DELETE           2
#define WS_NODES_MAX               1024
#define WS_ROOT_ID                 0                   /* its own parent (ws.c) */

/* --- GATHER_STATS WQE and the statistics buffer: gen2's layout, as 6.12+ reads it through
 * icrdma_hw_stat_map (byte offset of the qword, bit offset, width) and 6.1 through struct
 * irdma_gather_stats (type.h): the 48-bit counters fill a qword from bit 0, the 32-bit ones
 * named here the upper half of theirs (6.1: the second u32) --- */
#define CQPWQE_GSTATS_BUF_OFF      32
#define GSTATS_BUF_SIZE            1024                /* IRDMA_GATHER_STATS_BUF_SIZE */
#define GSTATS_BUF_ALIGN           8
#define GSTATS_IP4RXOCTS           8                   /* byte offsets of the counters' qwords */
#define GSTATS_IP4RXPKTS           16
#define GSTATS_IP4RXDISCARD        24                  /* bits 63:32 */
#define GSTATS_IP4RXMCOCTS         40
#define GSTATS_IP4RXMCPKTS         48
#define GSTATS_IP6RXOCTS           56
#define GSTATS_IP6RXPKTS           64
#define GSTATS_IP6RXDISCARD        72                  /* bits 63:32 */
#define GSTATS_IP6RXMCOCTS         88
#define GSTATS_IP6RXMCPKTS         96
#define GSTATS_IP4TXOCTS           104
#define GSTATS_IP4TXPKTS           112
#define GSTATS_IP4TXMCOCTS         128
#define GSTATS_IP4TXMCPKTS         136
#define GSTATS_IP6TXOCTS           144
#define GSTATS_IP6TXPKTS           152
#define GSTATS_IP6TXMCOCTS         168
#define GSTATS_IP6TXMCPKTS         176
#define GSTATS_TCPRTXSEG           216                 /* bits 63:32 */
#define GSTATS_UDPRXPKTS           224
#define GSTATS_UDPTXPKTS           232
#define GSTATS_RDMARXWRS           240
#define GSTATS_RDMARXRDS           248
#define GSTATS_RDMARXSNDS          256
#define GSTATS_RDMATXWRS           264
#define GSTATS_RDMATXRDS           272
#define GSTATS_RDMATXSNDS          280
#define GSTATS_RDMAVBND            288
#define GSTATS_RDMAVINV            296
#define GSTATS_HIGH_HALF           32                  /* bit offset of the 32-bit ones */
#define GSTATS_WIDTH_48            48                  /* IRDMA_MAX_STATS_48 */
#define GSTATS_WIDTH_32            32                  /* IRDMA_MAX_STATS_32 */

/* --- CREATE_QP / MODIFY_QP / DESTROY_QP WQE --- */
#define CQPWQE_QP_MSS_OFF          8                   /* MODIFY only */
#define CQPWQE_QP_NEWMSS           PE_MASK64(45, 32)
#define CQPWQE_QP_TERMLEN          PE_MASK64(51, 48)
#define CQPWQE_QP_CTX_OFF          16                  /* host context PA (256 B) */
#define CQPWQE_QP_SHADOW_OFF       40                  /* QP doorbell shadow area PA */
#define CQPWQE_QP_ID               PE_MASK64(23, 0)
#define CQPWQE_QP_ORDVALID         PE_BIT64(42)
#define CQPWQE_QP_TOECTXVALID      PE_BIT64(43)
#define CQPWQE_QP_CACHEDVARVALID   PE_BIT64(44)
#define CQPWQE_QP_VQ               PE_BIT64(45)        /* SQ/RQ addresses are PBLE indices */
#define CQPWQE_QP_FORCELOOPBACK    PE_BIT64(46)
#define CQPWQE_QP_CQNUMVALID       PE_BIT64(47)
#define CQPWQE_QP_TYPE             PE_MASK64(50, 48)
#define CQPWQE_QP_MACVALID         PE_BIT64(51)
#define CQPWQE_QP_MSSCHANGE        PE_BIT64(52)
#define CQPWQE_QP_IGNOREMWBOUND    PE_BIT64(54)
#define CQPWQE_QP_REMOVEHASHENTRY  PE_BIT64(55)
#define CQPWQE_QP_TERMACT          PE_MASK64(57, 56)
#define CQPWQE_QP_RESETCON         PE_BIT64(58)
#define CQPWQE_QP_ARPTABIDXVALID   PE_BIT64(59)
#define CQPWQE_QP_NEXTSTATE        PE_MASK64(62, 60)
#define QP_TYPE_IWARP              1
#define QP_TYPE_UDA                2
#define QP_TYPE_ROCE_RC            3
#define QP_TYPE_ROCE_UD            4
/* QP states as next_iwarp_state / AEQE IWSTATE encode them (defs.h). */
#define QP_STATE_INVALID           0                   /* RESET: before CREATE */
#define QP_STATE_IDLE              1                   /* INIT */
#define QP_STATE_RTS               2
#define QP_STATE_SQD               3                   /* iWARP: CLOSING */
#define QP_STATE_RTR               4
#define QP_STATE_TERMINATE         5
#define QP_STATE_ERROR             6

/* --- FLUSH_WQES / GEN_AE WQE --- */
#define CQPWQE_FLUSH_AE_OFF        8
#define CQPWQE_FLUSH_AECODE        PE_MASK64(15, 0)
#define CQPWQE_FLUSH_AESOURCE      PE_MASK64(19, 16)
#define CQPWQE_FLUSH_CODES_OFF     16
#define CQPWQE_FLUSH_RQMNERR       PE_MASK64(15, 0)
#define CQPWQE_FLUSH_RQMJERR       PE_MASK64(31, 16)
#define CQPWQE_FLUSH_SQMNERR       PE_MASK64(47, 32)
#define CQPWQE_FLUSH_SQMJERR       PE_MASK64(63, 48)
#define CQPWQE_FLUSH_GENERATE_AE   PE_BIT64(59)
#define CQPWQE_FLUSH_USERFLCODE    PE_BIT64(60)
#define CQPWQE_FLUSH_SQ            PE_BIT64(61)
#define CQPWQE_FLUSH_RQ            PE_BIT64(62)
/* FLUSH_WQES completion minor codes the driver tests (main.h). */
#define CQP_MIN_NOTHING_FLUSHED    0
#define CQP_MIN_RQ_WQE_FLUSHED     2
#define CQP_MIN_SQ_WQE_FLUSHED     3
#define CQP_MIN_BOTH_FLUSHED       1                   /* the model's: not one of the above */
/* AE codes the engine raises (defs.h IRDMA_AE_*) and their sources. */
#define AE_AMP_INVALID_STAG        0x0103
#define AE_AMP_BAD_PD              0x0105
#define AE_AMP_BAD_STAG_KEY        0x0106
#define AE_AMP_BOUNDS_VIOLATION    0x0108
#define AE_AMP_RIGHTS_VIOLATION    0x0109
#define AE_AMP_MWBIND_INVALID_RIGHTS 0x0118
#define AE_AMP_MWBIND_INVALID_BOUNDS 0x0119
#define AE_IB_INVALID_REQUEST      0x0208
#define AE_WQE_UNEXPECTED_OPCODE   0x020a
#define AE_WQE_INVALID_PARAMETER   0x020b
#define AE_IB_REMOTE_ACCESS_ERROR  0x020d
#define AE_IB_REMOTE_OP_ERROR      0x020e
#define AE_DDP_MSG_TOO_LONG        0x0303      /* receive larger than the RQ WQE */
#define AE_LLP_TOO_MANY_RETRIES    0x050a
#define AE_LLP_TOO_MANY_RNRS       0x050f
#define AE_QP_SUSPEND_COMPLETE     0x0900
#define AE_SOURCE_RSVD             0
#define AE_SOURCE_RQ               1
#define AE_SOURCE_SQ               5

/* --- QP host context (256 B after a 256-B Q2 area; irdma_sc_qp_setctx_roce) --- */
#define QPC_SIZE                   256
#define QPC_Q2_SIZE                256                 /* what precedes it in the buffer */
#define QPC_QW0                    0
#define QPC_IPV4                   PE_BIT64(3)
#define QPC_INSERTVLANTAG          PE_BIT64(5)
#define QPC_ISQP1                  PE_BIT64(6)
#define QPC_RQWQESIZE              PE_MASK64(9, 8)     /* RQ WQE = 32 << enc bytes */
#define QPC_PDIDXHI                PE_MASK64(21, 20)
#define QPC_PPIDX                  PE_MASK64(41, 32)
#define QPC_PMENA                  PE_BIT64(47)
#define QPC_SQADDR_OFF             8                   /* PA, or first PBLE index with VQ */
#define QPC_RQADDR_OFF             16
#define QPC_QW3                    24
#define QPC_TTL                    PE_MASK64(7, 0)
#define QPC_RQSIZE                 PE_MASK64(11, 8)    /* quanta = 4 << enc */
#define QPC_SQSIZE                 PE_MASK64(15, 12)
#define QPC_TOS                    PE_MASK64(31, 24)
#define QPC_SRCPORT                PE_MASK64(47, 32)
#define QPC_DSTPORT                PE_MASK64(63, 48)
#define QPC_DESTIP23_OFF           32                  /* [63:32] word 2, [31:0] word 3 (IPv4) */
#define QPC_DESTIP01_OFF           40
#define QPC_QW6                    48
#define QPC_SNDMSS                 PE_MASK64(29, 16)
#define QPC_VLANTAG                PE_MASK64(47, 32)
#define QPC_ARPIDX                 PE_MASK64(63, 48)
#define QPC_QW7                    56
#define QPC_FLOWLABEL              PE_MASK64(19, 0)
#define QPC_ACKCREDITS             PE_MASK64(24, 20)
#define QPC_PKEY                   PE_MASK64(47, 32)
#define QPC_PDIDX                  PE_MASK64(63, 48)
#define QPC_QW8                    64
#define QPC_DESTQP                 PE_MASK64(23, 0)
#define QPC_QKEY                   PE_MASK64(63, 32)
#define QPC_QW10                   80
#define QPC_PSNNXT                 PE_MASK64(23, 0)
#define QPC_QW11                   88
#define QPC_EPSN                   PE_MASK64(23, 0)
#define QPC_QW16                   128
#define QPC_REXMIT_THRESH          PE_MASK64(53, 48)
#define QPC_RNRNAK_THRESH          PE_MASK64(56, 54)
#define QPC_QW17                   136
#define QPC_TXCQNUM                PE_MASK64(18, 0)
#define QPC_RXCQNUM                PE_MASK64(50, 32)
#define QPC_QW18                   144
#define QPC_STAT_INDEX             PE_MASK64(6, 0)
#define QPC_MAC_OFF                152                 /* source MAC << 16 */
#define QPC_MACADDRESS             PE_MASK64(63, 16)
#define QPC_QW20                   160
#define QPC_ORDSIZE                PE_MASK64(7, 0)
#define QPC_IRDSIZE                PE_MASK64(18, 16)
#define QPC_WRRDRSPOK              PE_BIT64(20)
#define QPC_RDOK                   PE_BIT64(21)
#define QPC_FASTREGEN              PE_BIT64(24)
#define QPC_PRIVEN                 PE_BIT64(25)
#define QPC_USESTATSINSTANCE       PE_BIT64(26)
#define QPC_COMPL_CTX_OFF          168                 /* echoed in CQEs and QP AEQEs */
#define QPC_QW22                   176
#define QPC_QSHANDLE               PE_MASK64(25, 16)
#define QPC_LOCALIP23_OFF          184
#define QPC_LOCALIP01_OFF          192
#define QPC_QW26                   208
#define QPC_REMENDPOINTIDX         PE_MASK64(16, 0)
#define QP_WQ_QUANTUM              32                  /* SQ/RQ ring unit */
#define QP_WQ_SIZE_ENC_MAX         13                  /* 32768 quanta, IRDMA_QP_SW_MAX_*_QUANTA */
#define QP_SHADOW_SIZE             64                  /* IRDMA_SHADOW_AREA_SIZE qwords */
#define QP_PUSH_PAGES              1024                /* PPIDX is 10 bits */

/* --- MODIFY_CQ (resize) WQE: the CREATE_CQ layout plus --- */
#define CQPWQE_CQ_RESIZE           PE_BIT64(43)

/* --- SUSPEND_QP / RESUME_QP WQEs (the QP id in the header as CQPWQE_QP_ID) --- */
#define CQPWQE_RESUME_QS_OFF       16
#define CQPWQE_RESUME_QSHANDLE     PE_MASK64(31, 0)

/* --- ALLOC_STAG (MR and MW), REG_MR, DEALLOC_STAG WQEs --- */
#define CQPWQE_STAG_VA_OFF         0                   /* VA (VA-based) or first-byte offset */
#define CQPWQE_STAG_LEN_OFF        8
#define CQPWQE_STAG_LEN            PE_MASK64(45, 0)
#define CQPWQE_STAG_PDID           PE_MASK64(63, 46)   /* gen2 (icrdma_hw.h) */
#define CQPWQE_STAG_IDX_OFF        16
#define CQPWQE_STAG_KEY            PE_MASK64(7, 0)
#define CQPWQE_STAG_IDX            PE_MASK64(31, 8)    /* STag >> 8: driver key bits on top */
#define CQPWQE_STAG_PA_OFF         32                  /* the one page without a PBL */
#define CQPWQE_STAG_FN_OFF         40
#define CQPWQE_STAG_HMCFNIDX       PE_MASK64(5, 0)
#define CQPWQE_STAG_PBL_OFF        48                  /* CQPWQE_FIRSTPMPBLIDX */
#define CQPWQE_STAG_MWTYPE         PE_BIT64(42)        /* MW: 1 = type 1 */
#define CQPWQE_STAG_MR             PE_BIT64(43)
#define CQPWQE_STAG_HPAGESIZE      PE_MASK64(47, 46)
#define CQPWQE_STAG_ARIGHTS        PE_MASK64(52, 48)
#define CQPWQE_STAG_REMACCENABLED  PE_BIT64(53)
#define CQPWQE_STAG_MW1_NO_KEY     PE_BIT64(58)        /* MW1_BIND_DONT_VLDT_KEY */
#define CQPWQE_STAG_VABASEDTO      PE_BIT64(59)
#define CQPWQE_STAG_USEHMCFNIDX    PE_BIT64(60)
#define CQPWQE_STAG_USEPFRID       PE_BIT64(61)
#define STAG_RIGHT_LOCAL_READ      0x01                /* ARIGHTS (user.h) */
#define STAG_RIGHT_LOCAL_WRITE     0x02
#define STAG_RIGHT_REMOTE_READ     0x04
#define STAG_RIGHT_REMOTE_WRITE    0x08
#define STAG_RIGHT_BIND            0x10
#define STAG_PAGE_4K               0                   /* HPAGESIZE */
#define STAG_PAGE_2M               1
#define STAG_PAGE_1G               2
#define PBL_LEVEL_NONE             0                   /* LPBLSIZE of an MR */
#define PBL_LEVEL_2                3                   /* root PBLEs hold leaf PBLE indices */
#define PBLES_PER_LEAF             512
/* The STag index takes max(log2(MR count), 14) bits above the key (hw.c: mr_stagmask). */
#define STAG_IDX_BITS_MIN          14

/* --- CREATE/MODIFY/DESTROY_ADDR_HANDLE WQE (uda_d.h, irdma_sc_access_ah) --- */
#define CQPWQE_AH_MAC_OFF          0
#define CQPWQE_AH_MAC              PE_MASK64(63, 16)   /* source MAC, MAC[0] in bits 63:56 */
#define CQPWQE_AH_QW1              8
#define CQPWQE_AH_VLANTAG          PE_MASK64(15, 0)
#define CQPWQE_AH_TC               PE_MASK64(39, 32)
#define CQPWQE_AH_PDINDEXLO        PE_MASK64(63, 48)
#define CQPWQE_AH_QW2              16
#define CQPWQE_AH_FLOWLABEL        PE_MASK64(19, 0)
#define CQPWQE_AH_PDINDEXHI        PE_MASK64(21, 20)
#define CQPWQE_AH_HOPLIMIT         PE_MASK64(39, 32)
#define CQPWQE_AH_ARPINDEX         PE_MASK64(63, 48)
#define CQPWQE_AH_DESTIP23_OFF     32                  /* IPv4: the address in [31:0] */
#define CQPWQE_AH_DESTIP01_OFF     40
#define CQPWQE_AH_SRCIP23_OFF      48
#define CQPWQE_AH_SRCIP01_OFF      56
#define CQPWQE_IP_ADDR0            PE_MASK64(63, 32)   /* words 0/2 of an IPv6 address */
#define CQPWQE_IP_ADDR1            PE_MASK64(31, 0)    /* words 1/3; the IPv4 address */
#define CQPWQE_AH_AVIDX            PE_MASK64(16, 0)
#define CQPWQE_AH_IPV4VALID        PE_BIT64(59)
#define CQPWQE_AH_INSERTVLANTAG    PE_BIT64(60)
#define CQPWQE_AH_DOLOOPBACK       PE_BIT64(62)

/* --- CREATE/MODIFY/DESTROY_MCAST_GRP WQE and the 8-entry group context --- */
#define CQPWQE_MG_MAC_OFF          0                   /* dest MAC, MAC[0] in bits 47:40 */
#define CQPWQE_MG_MAC              PE_MASK64(47, 0)
#define CQPWQE_MG_QW2              16
#define CQPWQE_MG_QS_HANDLE        PE_MASK64(9, 0)
#define CQPWQE_MG_VLANID           PE_MASK64(43, 32)
#define CQPWQE_MG_CTX_OFF          32
#define CQPWQE_MG_IP23_OFF         48
#define CQPWQE_MG_IP01_OFF         56
#define CQPWQE_MG_IDX              PE_MASK64(12, 0)
#define CQPWQE_MG_VLANVALID        PE_BIT64(59)
#define CQPWQE_MG_IPV4VALID        PE_BIT64(60)
#define MG_CTX_ENTRIES             8                   /* IRDMA_MAX_MGS_PER_CTX */
#define MG_CTX_QPID                PE_MASK64(17, 0)
#define MG_CTX_VALIDENT            PE_BIT64(31)
#define MG_CTX_DESTPORT            PE_MASK64(47, 32)
#define MG_MAX                     4096                /* IRDMA_UDA_MAX_FSI_MGS */

/* --- MANAGE_APBVT WQE --- */
#define CQPWQE_APBVT_PORT_OFF      16
#define CQPWQE_APBVT_PORT          PE_MASK64(15, 0)
#define CQPWQE_APBVT_ADDPORT       PE_BIT64(62)

/* --- MANAGE_QUAD_HASH_TABLE_ENTRY WQE --- */
#define CQPWQE_QHASH_MAC_OFF       0
#define CQPWQE_QHASH_MAC           PE_MASK64(47, 0)
#define CQPWQE_QHASH_QW1           8
#define CQPWQE_QHASH_DEST_PORT     PE_MASK64(15, 0)
#define CQPWQE_QHASH_SRC_PORT      PE_MASK64(31, 16)
#define CQPWQE_QHASH_QPN           PE_MASK64(49, 32)
#define CQPWQE_QHASH_QW2           16
#define CQPWQE_QHASH_QS_HANDLE     PE_MASK64(9, 0)
#define CQPWQE_QHASH_VLANID        PE_MASK64(43, 32)
#define CQPWQE_QHASH_SRCIP23_OFF   32                  /* IPv4: the address in [31:0] */
#define CQPWQE_QHASH_SRCIP01_OFF   40
#define CQPWQE_QHASH_DESTIP23_OFF  48
#define CQPWQE_QHASH_DESTIP01_OFF  56
#define CQPWQE_QHASH_ENTRYTYPE     PE_MASK64(44, 42)
#define CQPWQE_QHASH_VLANVALID     PE_BIT64(59)
#define CQPWQE_QHASH_IPV4VALID     PE_BIT64(60)
#define CQPWQE_QHASH_MANAGE        PE_MASK64(62, 61)
#define QHASH_MANAGE_DELETE        0
#define QHASH_MANAGE_ADD           1
#define QHASH_MANAGE_MODIFY        2
#define QHASH_TYPE_TCP_ESTABLISHED 1
#define QHASH_TYPE_ROCEV2_HW       6                   /* the last type.h names */
#define QHASH_ENTRIES_MAX          4096                /* the model's bound */

/* --- ALLOCATE_LOC_MAC_TABLE_ENTRY / MANAGE_LOC_MAC_TABLE WQEs --- */
#define CQPWQE_LMAC_MAC_OFF        32                  /* MAC[0] in bits 47:40 */
#define CQPWQE_LMAC_MAC            PE_MASK64(47, 0)
#define CQPWQE_LMAC_IDX            PE_MASK64(5, 0)
#define CQPWQE_LMAC_IGNORE_REF_CNT PE_BIT64(61)
#define CQPWQE_LMAC_FREEENTRY      PE_BIT64(62)
#define LMAC_ENTRIES               64                  /* TABLEIDX is 6 bits */

/* --- MANAGE_PUSH_PAGES WQE --- */
#define CQPWQE_PUSH_QS_OFF         16
#define CQPWQE_PUSH_QS_HANDLE      PE_MASK64(9, 0)
#define CQPWQE_PUSH_IDX            PE_MASK64(9, 0)
#define CQPWQE_PUSH_TYPE           PE_MASK64(61, 60)
#define CQPWQE_PUSH_FREE_PAGE      PE_BIT64(62)

/* --- QP SQ WQEs (32-byte quanta, header qword at 24 of the first; uk.c, defs.h) --- */
#define SQWQE_QW0                  0                   /* immediate data, or fragment 0 */
#define SQWQE_QW2                  16
#define SQWQE_REMOTE_VA_OFF        16                  /* write/read: remote VA; bind: length */
#define SQWQE_DESTQKEY             PE_MASK64(31, 0)    /* UD send: qw2 */
#define SQWQE_DESTQPN              PE_MASK64(55, 32)
#define SQWQE_HDR                  24
#define SQWQE_REMSTAG              PE_MASK64(31, 0)    /* rkey / STag to invalidate */
#define SQWQE_AHID                 PE_MASK64(16, 0)    /* UD send */
#define SQWQE_OPCODE               PE_MASK64(37, 32)
#define SQWQE_ADDFRAGCNT           PE_MASK64(41, 38)
#define SQWQE_REPORTRTT            PE_BIT64(46)
#define SQWQE_IMMDATAFLAG          PE_BIT64(47)
#define SQWQE_INLINEDATALEN        PE_MASK64(55, 48)
#define SQWQE_PUSHWQE              PE_BIT64(56)
#define SQWQE_INLINEDATAFLAG       PE_BIT64(57)
#define SQWQE_READFENCE            PE_BIT64(60)
#define SQWQE_LOCALFENCE           PE_BIT64(61)
#define SQWQE_SIGCOMPL             PE_BIT64(62)
#define SQWQE_VALID                PE_BIT64(63)
/* A fragment (SGE): address, then STag | length << 32 | VALID. Slot 0 is bytes 0-15 (the
 * immediate with IMMDATAFLAG), slot s >= 1 is at 32 + 16 (s - 1). */
#define WQE_FRAG_SIZE              16
#define WQE_FRAG_STAG              PE_MASK64(31, 0)
#define WQE_FRAG_LEN               PE_MASK64(62, 32)
#define WQE_FRAGS_MAX              13                  /* IRDMA_MAX_WQ_FRAGMENT_COUNT */
#define WQE_INLINE_MAX             101                 /* IRDMA_MAX_INLINE_DATA_SIZE */
#define WQE_INLINE_FIRST_OFF       8                   /* 8 bytes in quantum 0, then 31 per */
#define WQE_INLINE_FIRST_LEN       8                   /* quantum (its last byte is a valid */
#define WQE_INLINE_PER_QUANTUM     31                  /* marker) */
#define WQE_QUANTA_MAX             8                   /* a WQE never crosses 8 quanta */
/* FAST_REG: qw0 VA or FBO, qw1 PBL address or first PBLE index high, qw2 length | index low. */
#define SQWQE_FR_VA_OFF            0
#define SQWQE_FR_PBL_OFF           8
#define SQWQE_FR_PBLADDR           PE_MASK64(63, 12)
#define SQWQE_FR_FIRSTPBLIDXHI     PE_MASK64(11, 0)
#define SQWQE_FR_LEN_OFF           16
#define SQWQE_FR_STAGLEN           PE_MASK64(40, 0)
#define SQWQE_FR_FIRSTPBLIDXLO     PE_MASK64(63, 48)
#define SQWQE_STAGKEY              PE_MASK64(7, 0)     /* FAST_REG header */
#define SQWQE_STAGINDEX            PE_MASK64(31, 8)
#define SQWQE_LPBLSIZE             PE_MASK64(45, 44)
#define SQWQE_HPAGESIZE            PE_MASK64(47, 46)
#define SQWQE_STAGRIGHTS           PE_MASK64(52, 48)
#define SQWQE_VABASEDTO            PE_BIT64(53)
#define SQWQE_MEMWINDOWTYPE        PE_BIT64(54)        /* BIND_MW: 1 = a type 1 window */
/* BIND_MW: qw0 VA, qw1 parent MR STag << 32 | MW STag, qw2 length. LOCAL_INV: qw1 STag. */
#define SQWQE_BIND_STAGS_OFF       8
#define SQWQE_PARENTMRSTAG         PE_MASK64(63, 32)
#define SQWQE_MWSTAG               PE_MASK64(31, 0)
#define SQWQE_LOCINV_STAG_OFF      8
#define SQ_OP_RDMA_WRITE           0x00
#define SQ_OP_RDMA_READ            0x01
#define SQ_OP_SEND                 0x03
#define SQ_OP_SEND_INV             0x04
#define SQ_OP_SEND_SOL             0x05
#define SQ_OP_SEND_SOL_INV         0x06
#define SQ_OP_BIND_MW              0x08
#define SQ_OP_FAST_REG             0x09
#define SQ_OP_LOCAL_INV            0x0a
#define SQ_OP_RDMA_READ_LOC_INV    0x0b
#define SQ_OP_NOP                  0x0c
#define SQ_OP_RDMA_WRITE_SOL       0x0d
/* QP doorbell shadow area: the SQ tail (quanta) the device reports. */
#define QP_SHADOW_SQ_TAIL          PE_MASK64(14, 0)
/* --- RQ WQE (32 << RQWQESIZE bytes): fragments as on the SQ, header at 24 --- */
#define RQWQE_HDR                  24
#define RQWQE_ADDFRAGCNT           SQWQE_ADDFRAGCNT
#define RQWQE_VALID                SQWQE_VALID
/* --- QP CQE (32 bytes) and its extension (the next 32-byte slot) --- */
#define CQE_PAYLDLEN_OFF           0
#define CQE_PAYLDLEN               PE_MASK64(31, 0)
#define CQE_UDSRCQPN               PE_MASK64(31, 0)    /* qw2, UD receive */
#define CQE_INVSTAG                PE_MASK64(31, 0)    /* qw2, RC receive with invalidate */
#define CQE_QPID                   PE_MASK64(55, 32)
#define CQE_EXTCQE                 PE_BIT64(50)
#define CQE_STAG_OR_IPV4           PE_BIT64(53)        /* RC: STag invalidated; UD: IPv4 */
#define CQE_OP                     PE_MASK64(61, 56)
#define CQE_SQ                     PE_BIT64(62)
#define CQE_EXT_IMM_OFF            0
#define CQE_EXT_SMAC_OFF           16                  /* MAC[0] in bits 47:40, VLAN 63:48 */
#define CQE_EXT_UDSMAC             PE_MASK64(47, 0)
#define CQE_EXT_UDVLAN             PE_MASK64(63, 48)
#define CQE_EXT_UDVLANVALID        PE_BIT64(60)
#define CQE_EXT_UDSMACVALID        PE_BIT64(61)
#define CQE_EXT_IMMVALID           PE_BIT64(62)

#endif
