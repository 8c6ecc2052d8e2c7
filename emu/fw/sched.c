/*
 * fw/sched.c - the Tx scheduler tree (see fw/sched.h).
 *
 * The firmware keeps every node by TEID: its parent, layer, element data and who made it. The
 * driver (ice_sched.c) mirrors the tree in software from the answers to these commands, and
 * trusts them: 0x0404 must return what was added, child counts must never exceed the sibling
 * group sizes of 0x0412, and TEIDs must stay stable while it holds them. Requests are validated
 * completely before anything changes, so a refused command leaves the tree as it was (group
 * commands are applied group by group, as num_elem_resp counts them).
 */
#include "fw/sched.h"
#include "fw/fw.h"
#include "core/le.h"
#include "core/trace.h"

/* Layers of the tree (ice_sched.h: qgroup = layers - 2, VSI = layers - 4, agg = layers - 6). */
#define LAYER_ROOT              0
#define LAYER_TC                1
#define LAYER_ENTRY             2       /* sw_entry_point_layer */
#define LAYER_QGRP              (FW_SCHED_NUM_LAYERS - 2)
#define LAYER_LEAF              (FW_SCHED_NUM_LAYERS - 1)

/* Nodes per layer the PF may have (0x0412 max_pf_nodes); they bound the tree's memory. */
#define MAX_NODES_ROOT          1
#define MAX_NODES_TC            FW_SCHED_NUM_TCS
#define MAX_NODES_SE            512     /* each of layers 2..7 */
#define MAX_RDMA_QSETS          256
#define MAX_NODES_LEAF          (FW_NUM_QUEUES + MAX_RDMA_QSETS)
#define MAX_PF_CGDS             4
#define MAX_DEVICE_CGDS         32
/* RL profiles per layer and type (0x0412 max_{cir,eir,srl}_rl_profiles). */
#define MAX_RL_PROFILES         64

/* TEIDs: fixed ones for the root and the TC nodes (a TC keeps its TEID across disable/enable,
 * see fw_sched_set_tcs), a counter for everything else. Never 0 (ice's unset ring->txq_teid)
 * nor ICE_INVAL_TEID. */
#define TEID_ROOT               0x00000100u
#define TEID_TC(tc)             (0x00000110u + (tc))
#define TEID_DYN_FIRST          0x00000200u
#define TEID_DYN_LAST           0x00FFFFFFu

/* enum ice_aqc_txsched_elem elem_type */
#define ELEM_TYPE_UNDEFINED     0
#define ELEM_TYPE_ROOT_PORT     1
#define ELEM_TYPE_TC            2
#define ELEM_TYPE_SE_GENERIC    3
#define ELEM_TYPE_ENTRY_POINT   4
#define ELEM_TYPE_LEAF          5
#define ELEM_TYPE_SE_PADDED     6
/* valid_sections */
#define ELEM_VALID_GENERIC      0x01
#define ELEM_VALID_CIR          0x02
#define ELEM_VALID_EIR          0x04
#define ELEM_VALID_SHARED       0x08
/* flags */
#define ELEM_FLAG_SUSPEND       0x01

/* struct ice_aqc_txsched_elem (16 bytes) */
#define ELEM_SIZE               16
#define ELEM_TYPE               0
#define ELEM_VALID              1
#define ELEM_GENERIC            2
#define ELEM_FLAGS              3
#define ELEM_CIR_PROFILE        4
#define ELEM_CIR_ALLOC          6
#define ELEM_EIR_PROFILE        8
#define ELEM_EIR_ALLOC          10
#define ELEM_SRL_ID             12
/* struct ice_aqc_txsched_elem_data (24 bytes) */
#define ELEMD_SIZE              24
#define ELEMD_PARENT_TEID       0
#define ELEMD_NODE_TEID         4
#define ELEMD_DATA              8

#define DFLT_RL_PROF_ID         0       /* ICE_SCHED_DFLT_RL_PROF_ID */
#define DFLT_BW_WT              4       /* ICE_SCHED_DFLT_BW_WT */

/* ice_aqc_sched_elem_cmd params (0x0401/03/04/08/09/0A/0F) */
#define SCHED_CMD_NUM_REQ       0
#define SCHED_CMD_NUM_RESP      2
/* The elements of 0x0408/0x0409/0x040A/0x040F: le32 TEIDs */
#define TEID_SIZE               4

/* 0x0412 query_sched_res: response buffer */
#define QRES_SIZE               (32 + FW_SCHED_NUM_LAYERS * 32)
#define QRES_PHYS_LEVELS        0
#define QRES_LOGICAL_LEVELS     2
#define QRES_FLATTENING         4
#define QRES_MAX_DEVICE_CGDS    5
#define QRES_MAX_PF_CGDS        6
#define QRES_RDMA_QSETS         8
#define QRES_LAYER(k)           (32 + (k) * 32)
#define LAYER_LOGICAL           0
#define LAYER_CHUNK_SIZE        1
#define LAYER_MAX_DEVICE_NODES  2
#define LAYER_MAX_PF_NODES      4
#define LAYER_MAX_SIBL          10
#define LAYER_MAX_CIR_RL        12
#define LAYER_MAX_EIR_RL        14
#define LAYER_MAX_SRL           16

/* 0x0400 get_dflt_topo: params, and one ice_aqc_get_topo_elem per branch */
#define TOPO_PORT_NUM           0
#define TOPO_NUM_BRANCHES       1
#define TOPO_BRANCH_SIZE        (8 + FW_SCHED_NUM_LAYERS * ELEMD_SIZE)
/* ice_aqc_txsched_topo_grp_info_hdr (0x0400, 0x0401, 0x040F) */
#define GRP_HDR_SIZE            8
#define GRP_PARENT_TEID         0
#define GRP_NUM_ELEMS           4

/* 0x0418 get_tx_topo params (struct ice_aqc_get_set_tx_topo) */
#define TX_TOPO_SET_FLAGS       0       /* response: the topology in force */
#define TX_TOPO_GET_FLAGS       1
#define TX_TOPO_GET_RAM         2
#define TX_TOPO_FLAGS_DEFAULT   0       /* not LOAD_NEW (the 5-layer tree), not ISSUED */

/* 0x0408 move: ice_aqc_txsched_move_grp_info_hdr + teid[] */
#define MOVE_HDR_SIZE           12
#define MOVE_SRC_PARENT         0
#define MOVE_DEST_PARENT        4
#define MOVE_NUM_ELEMS          8

/* 0x0410/0x0415 RL profiles: params and ice_aqc_rl_profile_elem (12 bytes) */
#define RL_NUM_PROFILES         0
#define RL_NUM_PROCESSED        2
#define RL_ELEM_SIZE            12
#define RL_LEVEL                0
#define RL_FLAGS                1
#define RL_PROFILE_ID           2
#define RL_MAX_BURST            4
#define RL_MULTIPLY             6
#define RL_WAKE_UP_CALC         8
#define RL_ENCODE               10
#define RL_TYPE_M               0x03
#define RL_TYPE_CIR             0
#define RL_TYPE_EIR             1
#define RL_TYPE_SRL             2
#define RL_NUM_TYPES            3
#define RL_PROFILE_ID_MAX       0xFFFE  /* 0xFFFF = ICE_SCHED_INVAL_PROF_ID */

/* 0x0C30 add_txqs: params, ice_aqc_add_tx_qgrp, ice_aqc_add_txqs_perq (48 bytes) */
#define TXQS_NUM_QGRPS          0
#define MAX_QGRPS               127     /* ICE_LAN_TXQ_MAX_QGRPS */
#define TXQ_GRP_HDR_SIZE        8
#define TXQ_GRP_PARENT          0
#define TXQ_GRP_NUM_TXQS        4       /* u8 */
#define TXQ_SIZE                48
#define TXQ_ID                  0
#define TXQ_TEID                4
#define TXQ_CTX                 8
#define TXQ_INFO                32

/* 0x0C33 add_rdma_qset: params, ice_aqc_add_rdma_qset_data, entries (24 bytes) */
#define QSET_NUM_GRPS           0
#define QSET_GRP_HDR_SIZE       8
#define QSET_GRP_PARENT         0
#define QSET_GRP_NUM_QSETS      4       /* le16 */
#define QSET_SIZE               24
#define QSET_ID                 0
#define QSET_TEID               4
#define QSET_INFO               8
#define QSET_ID_MAX             0x7FFF  /* bit 15 selects qsets in 0x0C31 */

/* 0x0C31 dis_txqs: params and ice_aqc_dis_txq_item (packed) */
#define DIS_CMD_TYPE            0
#define DIS_NUM_ENTRIES         1
#define DIS_VMVF_TIMEOUT        2
#define DIS_CMD_M               0x03
#define DIS_CMD_NO_FUNC_RESET   0
#define DIS_CMD_VM_RESET        1
#define DIS_CMD_VF_RESET        2
#define DIS_CMD_PF_RESET        3
#define DIS_CMD_FLUSH_PIPE      0x08
#define DIS_VMVF_NUM_M          0x03FF
#define DIS_ITEM_HDR_SIZE       6
#define DIS_ITEM_PARENT         0
#define DIS_ITEM_NUM_QS         4
#define DIS_QID_SIZE            2       /* le16 q_id[], right after the header */
#define DIS_ITEM_ALIGN          4       /* each item starts 4-aligned (pad after even counts) */
#define DIS_QID_RDMA_QSET       0x8000
#define DIS_QID_M               0x7FFF

typedef enum SchedOwner {
    OWNER_FW,           /* root, TC nodes, the default entry point */
    OWNER_DRIVER,       /* 0x0401 */
    OWNER_LAN,          /* 0x0C30 queue leaf */
    OWNER_RDMA,         /* 0x0C33 qset leaf */
} SchedOwner;

typedef struct SchedElem {
    uint8_t elem_type;
    uint8_t valid_sections;
    uint8_t generic;
    uint16_t cir_profile, cir_bw;
    uint16_t eir_profile, eir_bw;
    uint16_t srl_id;
} SchedElem;

typedef struct SchedNode SchedNode;
struct SchedNode {
    uint32_t teid;
    SchedNode *parent;
    uint8_t layer;
    SchedOwner owner;
    SchedElem elem;
    bool suspended;
    GPtrArray *children;            /* SchedNode *, in insertion order */
    uint8_t tc;                     /* TC nodes: the TC number */
    uint16_t qid;                   /* leaves: txq_id or tx_qset_id */
    uint8_t txq_ctx[FW_SCHED_TXQ_CTX_SIZE];
};

typedef struct RlProfile {
    uint16_t id;
    uint8_t level;                  /* 1-based layer */
    uint8_t type;
    uint16_t max_burst, rl_multiply, wake_up_calc, rl_encode;
} RlProfile;

struct FwSched {
    IrdmaDev *d;
    GHashTable *nodes;              /* TEID -> SchedNode * (owns them) */
    GHashTable *lan_q;              /* txq_id -> leaf */
    GHashTable *rdma_qs;            /* qset id -> leaf */
    SchedNode *root;
    SchedNode *tc[FW_SCHED_NUM_TCS];
    uint8_t tc_enabled;
    unsigned layer_nodes[FW_SCHED_NUM_LAYERS];
    uint32_t next_teid;
    GHashTable *profiles;           /* id -> RlProfile * (owns them) */
    unsigned profile_count[FW_SCHED_NUM_LAYERS][RL_NUM_TYPES];
    uint16_t next_profile_id;
};

/* ---- layer properties (what 0x0412 reports and the tree enforces) ---- */

static unsigned layer_max_pf_nodes(unsigned layer)
{
    switch (layer) {
    case LAYER_ROOT:
        return MAX_NODES_ROOT;
    case LAYER_TC:
        return MAX_NODES_TC;
    case LAYER_LEAF:
        return MAX_NODES_LEAF;
    default:
        return MAX_NODES_SE;
    }
}

/* max_sibl_grp_sz of @layer: how many children a node of @layer - 1 takes. */
static unsigned layer_max_siblings(unsigned layer)
{
    return layer == LAYER_ROOT ? 1 : FW_SCHED_MAX_SIBLINGS;
}

static unsigned max_children(const SchedNode *n)
{
    return n->layer >= LAYER_LEAF ? 0 : layer_max_siblings(n->layer + 1);
}

/* RL profiles of @type a node of @layer may use: CIR/EIR below the root, SRL on the inner
 * layers. */
static unsigned layer_max_rl(unsigned layer, unsigned type)
{
    if (layer == LAYER_ROOT) {
        return 0;
    }
    if (type == RL_TYPE_SRL) {
        return layer < LAYER_LEAF ? MAX_RL_PROFILES : 0;
    }
    return MAX_RL_PROFILES;
}

/* ---- nodes ---- */

static SchedNode *node_lookup(FwSched *s, uint32_t teid)
{
    return g_hash_table_lookup(s->nodes, GUINT_TO_POINTER(teid));
}

static uint32_t teid_alloc(FwSched *s)
{
    /* The tree holds far fewer nodes than the range, so this ends quickly. */
    for (;;) {
        uint32_t teid = s->next_teid;

        s->next_teid = teid >= TEID_DYN_LAST ? TEID_DYN_FIRST : teid + 1;
        if (!node_lookup(s, teid)) {
            return teid;
        }
    }
}

static SchedElem default_elem(uint8_t type)
{
    return (SchedElem) {
        .elem_type = type,
        .valid_sections = ELEM_VALID_GENERIC | ELEM_VALID_CIR | ELEM_VALID_EIR,
        .cir_profile = DFLT_RL_PROF_ID, .cir_bw = DFLT_BW_WT,
        .eir_profile = DFLT_RL_PROF_ID, .eir_bw = DFLT_BW_WT,
    };
}

/* Inserts a node under @parent (NULL for the root); the caller checked the limits. */
static SchedNode *node_add(FwSched *s, SchedNode *parent, uint32_t teid, SchedOwner owner,
                           const SchedElem *elem)
{
    SchedNode *n = g_new0(SchedNode, 1);

    n->teid = teid;
    n->parent = parent;
    n->layer = parent ? parent->layer + 1 : LAYER_ROOT;
    n->owner = owner;
    n->elem = *elem;
    n->children = g_ptr_array_new();
    if (parent) {
        g_ptr_array_add(parent->children, n);
    }
    s->layer_nodes[n->layer]++;
    g_hash_table_insert(s->nodes, GUINT_TO_POINTER(teid), n);
    return n;
}

/* Removes @n and its subtree (depth is bounded by the layer count). */
static void node_remove(FwSched *s, SchedNode *n)
{
    while (n->children->len) {
        node_remove(s, g_ptr_array_index(n->children, n->children->len - 1));
    }
    if (n->parent) {
        g_ptr_array_remove(n->parent->children, n);
    }
    if (n->owner == OWNER_LAN) {
        g_hash_table_remove(s->lan_q, GUINT_TO_POINTER(n->qid));
    } else if (n->owner == OWNER_RDMA) {
        g_hash_table_remove(s->rdma_qs, GUINT_TO_POINTER(n->qid));
    }
    if (n->layer == LAYER_TC && n->elem.elem_type == ELEM_TYPE_TC && s->tc[n->tc] == n) {
        s->tc[n->tc] = NULL;
    }
    if (n == s->root) {
        s->root = NULL;
    }
    s->layer_nodes[n->layer]--;
    g_ptr_array_free(n->children, TRUE);
    g_hash_table_remove(s->nodes, GUINT_TO_POINTER(n->teid));    /* frees n */
}

static bool node_deletable(const SchedNode *n)
{
    /* ice_free_sched_node: root, TC and leaf nodes are not the software's to delete (queues and
     * qsets go with 0x0C31). */
    return n->elem.elem_type == ELEM_TYPE_SE_GENERIC || n->elem.elem_type == ELEM_TYPE_SE_PADDED ||
           n->elem.elem_type == ELEM_TYPE_ENTRY_POINT;
}

static SchedNode *node_tc(const SchedNode *n)
{
    while (n && n->layer > LAYER_TC) {
        n = n->parent;
    }
    return n && n->layer == LAYER_TC ? (SchedNode *)n : NULL;
}

/* ---- element data ---- */

static void elem_parse(const uint8_t *p, SchedElem *e)
{
    e->elem_type = p[ELEM_TYPE];
    e->valid_sections = p[ELEM_VALID];
    e->generic = p[ELEM_GENERIC];
    e->cir_profile = ld16(p + ELEM_CIR_PROFILE);
    e->cir_bw = ld16(p + ELEM_CIR_ALLOC);
    e->eir_profile = ld16(p + ELEM_EIR_PROFILE);
    e->eir_bw = ld16(p + ELEM_EIR_ALLOC);
    e->srl_id = ld16(p + ELEM_SRL_ID);
}

/* The 24-byte ice_aqc_txsched_elem_data of @n. */
static void elemd_store(uint8_t *p, const SchedNode *n)
{
    uint8_t *e = p + ELEMD_DATA;

    memset(p, 0, ELEMD_SIZE);
    st32(p + ELEMD_PARENT_TEID, n->parent ? n->parent->teid : FW_SCHED_INVALID_TEID);
    st32(p + ELEMD_NODE_TEID, n->teid);
    e[ELEM_TYPE] = n->elem.elem_type;
    e[ELEM_VALID] = n->elem.valid_sections;
    e[ELEM_GENERIC] = n->elem.generic;
    e[ELEM_FLAGS] = n->suspended ? ELEM_FLAG_SUSPEND : 0;
    st16(e + ELEM_CIR_PROFILE, n->elem.cir_profile);
    st16(e + ELEM_CIR_ALLOC, n->elem.cir_bw);
    st16(e + ELEM_EIR_PROFILE, n->elem.eir_profile);
    st16(e + ELEM_EIR_ALLOC, n->elem.eir_bw);
    st16(e + ELEM_SRL_ID, n->elem.srl_id);
}

static bool profile_exists(FwSched *s, uint16_t id, unsigned type)
{
    RlProfile *p = g_hash_table_lookup(s->profiles, GUINT_TO_POINTER(id));

    return p && p->type == type;
}

/* The RL profiles @e refers to exist (profile 0 is the firmware's default); else traces and
 * returns false. */
static bool elem_profiles_valid(FwSched *s, const char *op, uint32_t teid, const SchedElem *e)
{
    const char *bad = NULL;
    unsigned id = 0;

    if ((e->valid_sections & ELEM_VALID_CIR) && e->cir_profile != DFLT_RL_PROF_ID &&
        !profile_exists(s, e->cir_profile, RL_TYPE_CIR)) {
        bad = "CIR";
        id = e->cir_profile;
    } else if ((e->valid_sections & ELEM_VALID_EIR) && e->eir_profile != DFLT_RL_PROF_ID &&
               !profile_exists(s, e->eir_profile, RL_TYPE_EIR)) {
        bad = "EIR";
        id = e->eir_profile;
    } else if ((e->valid_sections & ELEM_VALID_SHARED) && e->srl_id != 0 &&
               !profile_exists(s, e->srl_id, RL_TYPE_SRL)) {
        bad = "SRL";
        id = e->srl_id;
    }
    if (bad) {
        emu_trace(&s->d->host, TR_ERR_FW_SCHED_BAD_PROFILE, "%s teid 0x%x: %s profile %u unknown: "
                  "EINVAL", op, teid, bad, id);
        return false;
    }
    return true;
}

/* ---- default topology ---- */

static SchedNode *tc_node_create(FwSched *s, unsigned tc)
{
    SchedElem e = default_elem(ELEM_TYPE_TC);
    SchedNode *n = node_add(s, s->root, TEID_TC(tc), OWNER_FW, &e);

    n->tc = tc;
    s->tc[tc] = n;
    return n;
}

/* Root port, the TC nodes of the enabled TCs, and the SW entry point under TC0: what
 * get_dflt_topo reports on a fresh PF. */
static void build_default_tree(FwSched *s)
{
    SchedElem root = default_elem(ELEM_TYPE_ROOT_PORT);
    SchedElem entry = default_elem(ELEM_TYPE_ENTRY_POINT);

    s->next_teid = TEID_DYN_FIRST;
    s->root = node_add(s, NULL, TEID_ROOT, OWNER_FW, &root);
    for (unsigned tc = 0; tc < FW_SCHED_NUM_TCS; tc++) {
        if (s->tc_enabled & (1u << tc)) {
            tc_node_create(s, tc);
        }
    }
    node_add(s, s->tc[0], teid_alloc(s), OWNER_FW, &entry);
}

/* ---- 0x0412 query_sched_res ---- */

static uint16_t fw_query_sched_res(IrdmaDev *d, AqCmd *c)
{
    uint8_t *b = c->buf;

    (void)d;
    memset(b, 0, QRES_SIZE);
    st16(b + QRES_PHYS_LEVELS, FW_SCHED_NUM_LAYERS);
    st16(b + QRES_LOGICAL_LEVELS, FW_SCHED_NUM_LAYERS);
    b[QRES_FLATTENING] = 0;
    b[QRES_MAX_DEVICE_CGDS] = MAX_DEVICE_CGDS;
    b[QRES_MAX_PF_CGDS] = MAX_PF_CGDS;
    st16(b + QRES_RDMA_QSETS, MAX_RDMA_QSETS);
    for (unsigned k = 0; k < FW_SCHED_NUM_LAYERS; k++) {
        uint8_t *l = b + QRES_LAYER(k);

        l[LAYER_LOGICAL] = k;
        l[LAYER_CHUNK_SIZE] = 0;
        st16(l + LAYER_MAX_DEVICE_NODES, layer_max_pf_nodes(k));
        st16(l + LAYER_MAX_PF_NODES, layer_max_pf_nodes(k));
        st16(l + LAYER_MAX_SIBL, layer_max_siblings(k));
        st16(l + LAYER_MAX_CIR_RL, layer_max_rl(k, RL_TYPE_CIR));
        st16(l + LAYER_MAX_EIR_RL, layer_max_rl(k, RL_TYPE_EIR));
        st16(l + LAYER_MAX_SRL, layer_max_rl(k, RL_TYPE_SRL));
    }
    c->resp_len = QRES_SIZE;
    return AQ_RC_OK;
}

/* ---- 0x0418 get_tx_topo ---- */

/*
 * The Tx topology in force is the default 9-layer one and no change is pending: ice 6.12 on
 * (ice_cfg_tx_topo) then keeps it without a set (0x0417). ice sends its 4 KiB buffer with RD
 * on E810 and reads only the flags back; the buffer is left as it came.
 */
static uint16_t fw_get_tx_topo(IrdmaDev *d, AqCmd *c)
{
    if (c->params[TX_TOPO_GET_FLAGS] != TX_TOPO_GET_RAM) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_TX_TOPO_BAD_FLAGS, "get_flags 0x%02x: EINVAL",
                  c->params[TX_TOPO_GET_FLAGS]);
        return AQ_RC_EINVAL;
    }
    c->params[TX_TOPO_SET_FLAGS] = TX_TOPO_FLAGS_DEFAULT;
    emu_trace(&d->host, TR_FW_SCHED_TX_TOPO, "default %u layers", FW_SCHED_NUM_LAYERS);
    return AQ_RC_OK;
}

/* ---- 0x0400 get_dflt_topo ---- */

/* One branch: root, TC0 and the firmware's nodes below it (the entry point until the driver
 * deletes it). ice_sched_init_port takes the ENTRY_POINT's index as sw_entry_point_layer. The
 * other TCs are learnt through query_port_ets. */
static uint16_t fw_get_dflt_topo(IrdmaDev *d, AqCmd *c)
{
    FwSched *s = d->sched;
    SchedNode *n = s->root;
    unsigned num = 0;

    if (c->params[TOPO_PORT_NUM] != 0) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_PORT, "get_dflt_topo port %u: EINVAL",
                  c->params[TOPO_PORT_NUM]);
        return AQ_RC_EINVAL;
    }
    memset(c->buf, 0, TOPO_BRANCH_SIZE);
    st32(c->buf + GRP_PARENT_TEID, FW_SCHED_INVALID_TEID);
    while (n && num < FW_SCHED_NUM_LAYERS) {
        SchedNode *next = NULL;

        elemd_store(c->buf + GRP_HDR_SIZE + num * ELEMD_SIZE, n);
        num++;
        if (n == s->root) {
            next = s->tc[0];
        } else if (n->children->len) {
            next = g_ptr_array_index(n->children, 0);
            next = next->owner == OWNER_FW ? next : NULL;
        }
        n = next;
    }
    st16(c->buf + GRP_NUM_ELEMS, num);
    c->params[TOPO_NUM_BRANCHES] = 1;
    c->resp_len = TOPO_BRANCH_SIZE;
    emu_trace(&d->host, TR_FW_SCHED_DFLT_TOPO, "1 branch of %u elements", num);
    return AQ_RC_OK;
}

/* ---- requests: the bounds and lookups the commands share ---- */

/* How a group command lays out one group: a header holding the element count, then the
 * elements. */
typedef struct GroupFormat {
    const char *op;
    const char *what;               /* the elements, as the traces call them */
    size_t hdr_size, entry_size;
    size_t count_off;
    bool count16;                   /* the count is le16, else u8 */
    size_t align;                   /* groups start on multiples of this; 0: packed */
} GroupFormat;

/* The layouts of 0x0401, 0x0408, 0x040F and 0x0C31 (0x0C30/0x0C33's are in LeafFormat). */
static const GroupFormat add_format = {
    "add_sched_elems", "elements", GRP_HDR_SIZE, ELEMD_SIZE, GRP_NUM_ELEMS, true, 0,
};
static const GroupFormat move_format = {
    "move_sched_elems", "elements", MOVE_HDR_SIZE, TEID_SIZE, MOVE_NUM_ELEMS, true, 0,
};
static const GroupFormat delete_format = {
    "delete_sched_elems", "elements", GRP_HDR_SIZE, TEID_SIZE, GRP_NUM_ELEMS, true, 0,
};
static const GroupFormat dis_format = {
    "dis_txqs", "queues", DIS_ITEM_HDR_SIZE, DIS_QID_SIZE, DIS_ITEM_NUM_QS, false, DIS_ITEM_ALIGN,
};

static unsigned group_count(const GroupFormat *f, const uint8_t *g)
{
    return f->count16 ? ld16(g + f->count_off) : g[f->count_off];
}

static size_t group_size(const GroupFormat *f, unsigned n)
{
    size_t size = f->hdr_size + (size_t)n * f->entry_size;

    return f->align ? (size + f->align - 1) / f->align * f->align : size;
}

static uint8_t *group_entry(const GroupFormat *f, uint8_t *g, unsigned i)
{
    return g + f->hdr_size + (size_t)i * f->entry_size;
}

/* Group @gi of @c, at @off: its header and its *@n elements (at least one) lie in the buffer,
 * or it traces and returns NULL (EINVAL). The last group's alignment pad is not required. */
static uint8_t *group_at(IrdmaDev *d, const AqCmd *c, const GroupFormat *f, size_t off,
                         unsigned gi, unsigned *n)
{
    if (off + f->hdr_size > c->buf_len) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_SHORT_BUFFER, "%s group %u: header beyond %u bytes: "
                  "EINVAL", f->op, gi, c->buf_len);
        return NULL;
    }
    *n = group_count(f, c->buf + off);
    if (*n == 0 || off + f->hdr_size + (size_t)*n * f->entry_size > c->buf_len) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_SHORT_BUFFER, "%s group %u: %u %s in %u bytes: EINVAL",
                  f->op, gi, *n, f->what, c->buf_len);
        return NULL;
    }
    return c->buf + off;
}

/* The group at *@off of a request group_at has accepted whole; *@off moves past it. */
static uint8_t *group_next(const GroupFormat *f, uint8_t *buf, size_t *off, unsigned *n)
{
    uint8_t *g = buf + *off;

    *n = group_count(f, g);
    *off += group_size(f, *n);
    return g;
}

/* One checked group of 0x0401/0x0408/0x040F: validated whole, then applied. */
typedef uint16_t (*GroupHandler)(FwSched *s, const GroupFormat *f, uint8_t *g, unsigned n);

/* Runs the groups one by one: a refused group ends the command, and the ones before it stay
 * applied, as num_elem_resp reports. */
static uint16_t sched_groups(IrdmaDev *d, AqCmd *c, const GroupFormat *f, GroupHandler group)
{
    unsigned num_grps = ld16(c->params + SCHED_CMD_NUM_REQ);
    unsigned done;
    size_t off = 0;
    uint16_t rc = AQ_RC_OK;

    st16(c->params + SCHED_CMD_NUM_RESP, 0);
    if (num_grps == 0) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_COUNT, "%s 0 groups: EINVAL", f->op);
        return AQ_RC_EINVAL;
    }
    for (done = 0; done < num_grps; done++) {
        unsigned n;
        uint8_t *g = group_at(d, c, f, off, done, &n);

        rc = g ? group(d->sched, f, g, n) : AQ_RC_EINVAL;
        if (rc != AQ_RC_OK) {
            break;
        }
        off += group_size(f, n);
    }
    st16(c->params + SCHED_CMD_NUM_RESP, done);
    return rc;
}

/* A plain array of @num elements of @elem_size (at least one) fits in the buffer; else
 * traces and returns false. */
static bool array_fits(IrdmaDev *d, const AqCmd *c, const char *op, const char *what,
                       unsigned num, size_t elem_size)
{
    if (num == 0 || (size_t)num * elem_size > c->buf_len) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_COUNT,
                  "%s %u %s in %u bytes: EINVAL", op, num, what,
                  c->buf_len);
        return false;
    }
    return true;
}

/* The node @teid that @op names; else traces and returns NULL (ENOENT). */
static SchedNode *node_find(FwSched *s, const char *op, uint32_t teid)
{
    SchedNode *n = node_lookup(s, teid);

    if (!n) {
        emu_trace(&s->d->host, TR_ERR_FW_SCHED_UNKNOWN_TEID, "%s teid 0x%x: ENOENT", op, teid);
    }
    return n;
}

/* Every TEID of an array of @num elements of @stride bytes, at @teid_off in each, exists;
 * else traces the first unknown one and returns false (ENOENT). */
static bool teids_known(FwSched *s, const char *op, const uint8_t *buf, unsigned num,
                        size_t stride, size_t teid_off)
{
    for (unsigned i = 0; i < num; i++) {
        if (!node_find(s, op, ld32(buf + i * stride + teid_off))) {
            return false;
        }
    }
    return true;
}

/* The parent node a group names; else traces and returns NULL (EINVAL). */
static SchedNode *parent_find(FwSched *s, const char *op, uint32_t teid)
{
    SchedNode *n = node_lookup(s, teid);

    if (!n) {
        emu_trace(&s->d->host, TR_ERR_FW_SCHED_BAD_PARENT, "%s parent 0x%x unknown: EINVAL", op,
                  teid);
    }
    return n;
}

/* What 0x0408/0x040F require of each node they list, besides being a child of the group's
 * parent; traces a refusal. */
typedef uint16_t (*ChildCheck)(FwSched *s, const char *op, const SchedNode *n);

/* Every TEID of group @g names a child of @parent that @check accepts; else the code of the
 * first refusal, traced. */
static uint16_t children_check(FwSched *s, const GroupFormat *f, uint8_t *g, unsigned n,
                               const SchedNode *parent, ChildCheck check)
{
    for (unsigned i = 0; i < n; i++) {
        uint32_t teid = ld32(group_entry(f, g, i));
        SchedNode *node = node_find(s, f->op, teid);
        uint16_t rc;

        if (!node) {
            return AQ_RC_ENOENT;
        }
        if (node->parent != parent) {
            emu_trace(&s->d->host, TR_ERR_FW_SCHED_BAD_PARENT,
                      "%s teid 0x%x is not a child of 0x%x: EINVAL", f->op, teid, parent->teid);
            return AQ_RC_EINVAL;
        }
        rc = check(s, f->op, node);
        if (rc != AQ_RC_OK) {
            return rc;
        }
    }
    return AQ_RC_OK;
}

/* @parent, holding @have children (counting those the request already places), takes @n
 * more; else traces and returns false (ENOSPC). */
static bool parent_has_room(FwSched *s, const char *op, const SchedNode *parent, unsigned have,
                            unsigned n)
{
    if (have + n > max_children(parent)) {
        emu_trace(&s->d->host, TR_FW_SCHED_PARENT_FULL, "%s %u under 0x%x with %u of %u "
                  "children: ENOSPC", op, n, parent->teid, have, max_children(parent));
        return false;
    }
    return true;
}

/* ---- 0x0401 add_sched_elems ---- */

static uint16_t add_group(FwSched *s, const GroupFormat *f, uint8_t *g, unsigned n)
{
    IrdmaDev *d = s->d;
    uint32_t parent_teid = ld32(g + GRP_PARENT_TEID);
    SchedNode *parent = parent_find(s, f->op, parent_teid);
    unsigned layer;

    if (!parent) {
        return AQ_RC_EINVAL;
    }
    layer = parent->layer + 1;
    /* Layers 0/1 are the firmware's, the leaf layer is 0x0C30/0x0C33's. */
    if (layer < LAYER_ENTRY || layer > LAYER_QGRP) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_LAYER, "%s under 0x%x (layer %u): layer %u not the "
                  "driver's: EINVAL", f->op, parent_teid, parent->layer, layer);
        return AQ_RC_EINVAL;
    }
    if (!parent_has_room(s, f->op, parent, parent->children->len, n)) {
        return AQ_RC_ENOSPC;
    }
    if (s->layer_nodes[layer] + n > layer_max_pf_nodes(layer)) {
        emu_trace(&d->host, TR_FW_SCHED_LAYER_FULL, "%s %u on layer %u with %u of %u nodes: "
                  "ENOSPC", f->op, n, layer, s->layer_nodes[layer], layer_max_pf_nodes(layer));
        return AQ_RC_ENOSPC;
    }
    for (unsigned i = 0; i < n; i++) {
        SchedElem e;

        elem_parse(group_entry(f, g, i) + ELEMD_DATA, &e);
        if (e.elem_type != ELEM_TYPE_SE_GENERIC && e.elem_type != ELEM_TYPE_SE_PADDED) {
            emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_TYPE, "%s element %u type %u: EINVAL", f->op, i,
                      e.elem_type);
            return AQ_RC_EINVAL;
        }
        if (!elem_profiles_valid(s, f->op, 0, &e)) {
            return AQ_RC_EINVAL;
        }
    }
    for (unsigned i = 0; i < n; i++) {
        uint8_t *p = group_entry(f, g, i);
        SchedElem e;
        SchedNode *node;

        elem_parse(p + ELEMD_DATA, &e);
        node = node_add(s, parent, teid_alloc(s), OWNER_DRIVER, &e);
        st32(p + ELEMD_PARENT_TEID, parent->teid);
        st32(p + ELEMD_NODE_TEID, node->teid);
        emu_trace(&d->host, TR_FW_SCHED_ADD, "teid 0x%x layer %u parent 0x%x", node->teid,
                  node->layer, parent->teid);
    }
    return AQ_RC_OK;
}

static uint16_t fw_add_sched_elems(IrdmaDev *d, AqCmd *c)
{
    return sched_groups(d, c, &add_format, add_group);
}

/* ---- 0x0403 cfg / 0x0404 get: arrays of ice_aqc_txsched_elem_data ---- */

/* The element count of a 0x0403/0x0404/0x0409/0x040A command, checked against the buffer. */
static bool elem_count_ok(IrdmaDev *d, AqCmd *c, const char *op, size_t elem_size, unsigned *num)
{
    *num = ld16(c->params + SCHED_CMD_NUM_REQ);
    st16(c->params + SCHED_CMD_NUM_RESP, 0);
    return array_fits(d, c, op, "elements", *num, elem_size);
}

static uint16_t fw_cfg_sched_elems(IrdmaDev *d, AqCmd *c)
{
    FwSched *s = d->sched;
    unsigned num;

    if (!elem_count_ok(d, c, "cfg_sched_elems", ELEMD_SIZE, &num)) {
        return AQ_RC_EINVAL;
    }
    for (unsigned i = 0; i < num; i++) {
        const uint8_t *p = c->buf + i * ELEMD_SIZE;
        uint32_t teid = ld32(p + ELEMD_NODE_TEID);
        SchedElem e;

        if (!node_find(s, "cfg_sched_elems", teid)) {
            return AQ_RC_ENOENT;
        }
        elem_parse(p + ELEMD_DATA, &e);
        if (!elem_profiles_valid(s, "cfg_sched_elems", teid, &e)) {
            return AQ_RC_EINVAL;
        }
    }
    /* Parent TEID, element type and flags are reserved here; the sections marked valid are
     * updated and valid_sections becomes the request's. */
    for (unsigned i = 0; i < num; i++) {
        const uint8_t *p = c->buf + i * ELEMD_SIZE;
        SchedNode *n = node_lookup(s, ld32(p + ELEMD_NODE_TEID));
        SchedElem e;

        elem_parse(p + ELEMD_DATA, &e);
        if (e.valid_sections & ELEM_VALID_GENERIC) {
            n->elem.generic = e.generic;
        }
        if (e.valid_sections & ELEM_VALID_CIR) {
            n->elem.cir_profile = e.cir_profile;
            n->elem.cir_bw = e.cir_bw;
        }
        if (e.valid_sections & ELEM_VALID_EIR) {
            n->elem.eir_profile = e.eir_profile;
            n->elem.eir_bw = e.eir_bw;
        }
        n->elem.srl_id = (e.valid_sections & ELEM_VALID_SHARED) ? e.srl_id : 0;
        n->elem.valid_sections = e.valid_sections;
        emu_trace(&d->host, TR_FW_SCHED_CFG, "teid 0x%x valid 0x%02x cir %u/%u eir %u/%u srl %u",
                  n->teid, e.valid_sections, n->elem.cir_profile, n->elem.cir_bw,
                  n->elem.eir_profile, n->elem.eir_bw, n->elem.srl_id);
    }
    st16(c->params + SCHED_CMD_NUM_RESP, num);
    return AQ_RC_OK;
}

static uint16_t fw_get_sched_elems(IrdmaDev *d, AqCmd *c)
{
    FwSched *s = d->sched;
    unsigned num;

    if (!elem_count_ok(d, c, "get_sched_elems", ELEMD_SIZE, &num)) {
        return AQ_RC_EINVAL;
    }
    if (!teids_known(s, "get_sched_elems", c->buf, num, ELEMD_SIZE, ELEMD_NODE_TEID)) {
        return AQ_RC_ENOENT;
    }
    for (unsigned i = 0; i < num; i++) {
        uint8_t *p = c->buf + i * ELEMD_SIZE;

        elemd_store(p, node_lookup(s, ld32(p + ELEMD_NODE_TEID)));
    }
    st16(c->params + SCHED_CMD_NUM_RESP, num);
    c->resp_len = num * ELEMD_SIZE;
    return AQ_RC_OK;
}

/* ---- 0x0408 move_sched_elems ---- */

static uint16_t move_child_ok(FwSched *s, const char *op, const SchedNode *n)
{
    if (n->layer <= LAYER_TC) {
        emu_trace(&s->d->host, TR_ERR_FW_SCHED_BAD_LAYER, "%s teid 0x%x is a root/TC node: EINVAL",
                  op, n->teid);
        return AQ_RC_EINVAL;
    }
    return AQ_RC_OK;
}

static uint16_t move_group(FwSched *s, const GroupFormat *f, uint8_t *g, unsigned n)
{
    IrdmaDev *d = s->d;
    uint32_t src_teid = ld32(g + MOVE_SRC_PARENT), dest_teid = ld32(g + MOVE_DEST_PARENT);
    SchedNode *src = node_lookup(s, src_teid), *dest = node_lookup(s, dest_teid);
    unsigned incoming = 0;
    uint16_t rc;

    if (!src || !dest) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_PARENT,
                  "%s 0x%x -> 0x%x: %s parent unknown: EINVAL",
                  f->op, src_teid, dest_teid, src ? "destination" : "source");
        return AQ_RC_EINVAL;
    }
    /* A move keeps the nodes' layer, so the new parent sits where the old one did (and can't
     * be inside the moved subtrees). */
    if (dest->layer != src->layer || dest->layer >= LAYER_LEAF) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_LAYER, "%s 0x%x (layer %u) -> 0x%x (layer %u): "
                  "EINVAL", f->op, src_teid, src->layer, dest_teid, dest->layer);
        return AQ_RC_EINVAL;
    }
    rc = children_check(s, f, g, n, src, move_child_ok);
    if (rc != AQ_RC_OK) {
        return rc;
    }
    if (dest != src) {
        /* Counted as listed: a TEID repeated in the group would be refused anyway. */
        incoming = n;
    }
    if (!parent_has_room(s, f->op, dest, dest->children->len, incoming)) {
        return AQ_RC_ENOSPC;
    }
    for (unsigned i = 0; i < n; i++) {
        SchedNode *node = node_lookup(s, ld32(group_entry(f, g, i)));

        if (node->parent == dest) {
            continue;
        }
        g_ptr_array_remove(node->parent->children, node);
        g_ptr_array_add(dest->children, node);
        node->parent = dest;
        emu_trace(&d->host, TR_FW_SCHED_MOVE, "teid 0x%x from 0x%x to 0x%x", node->teid,
                  src_teid, dest_teid);
    }
    return AQ_RC_OK;
}

static uint16_t fw_move_sched_elems(IrdmaDev *d, AqCmd *c)
{
    return sched_groups(d, c, &move_format, move_group);
}

/* ---- 0x0409/0x040A suspend/resume: an array of TEIDs ---- */

static uint16_t suspend_resume(IrdmaDev *d, AqCmd *c, bool suspend)
{
    FwSched *s = d->sched;
    const char *op = suspend ? "suspend_sched_elems" : "resume_sched_elems";
    unsigned num;

    if (!elem_count_ok(d, c, op, TEID_SIZE, &num)) {
        return AQ_RC_EINVAL;
    }
    if (!teids_known(s, op, c->buf, num, TEID_SIZE, 0)) {
        return AQ_RC_ENOENT;
    }
    for (unsigned i = 0; i < num; i++) {
        SchedNode *n = node_lookup(s, ld32(c->buf + i * TEID_SIZE));

        n->suspended = suspend;
        emu_trace(&d->host, suspend ? TR_FW_SCHED_SUSPEND : TR_FW_SCHED_RESUME, "teid 0x%x",
                  n->teid);
    }
    st16(c->params + SCHED_CMD_NUM_RESP, num);
    return AQ_RC_OK;
}

static uint16_t fw_suspend_sched_elems(IrdmaDev *d, AqCmd *c)
{
    return suspend_resume(d, c, true);
}

static uint16_t fw_resume_sched_elems(IrdmaDev *d, AqCmd *c)
{
    return suspend_resume(d, c, false);
}

/* ---- 0x040F delete_sched_elems ---- */

static uint16_t delete_child_ok(FwSched *s, const char *op, const SchedNode *n)
{
    if (!node_deletable(n)) {
        emu_trace(&s->d->host, TR_ERR_FW_SCHED_NOT_DELETABLE, "%s teid 0x%x type %u: EINVAL", op,
                  n->teid, n->elem.elem_type);
        return AQ_RC_EINVAL;
    }
    if (n->children->len) {
        /* ice frees children first (ice_free_sched_node); a node still holding some is in
         * use. */
        emu_trace(&s->d->host, TR_ERR_FW_SCHED_HAS_CHILDREN, "%s teid 0x%x has %u children: EBUSY",
                  op, n->teid, n->children->len);
        return AQ_RC_EBUSY;
    }
    return AQ_RC_OK;
}

static uint16_t delete_group(FwSched *s, const GroupFormat *f, uint8_t *g, unsigned n)
{
    IrdmaDev *d = s->d;
    uint32_t parent_teid = ld32(g + GRP_PARENT_TEID);
    SchedNode *parent = parent_find(s, f->op, parent_teid);
    uint16_t rc;

    if (!parent) {
        return AQ_RC_EINVAL;
    }
    rc = children_check(s, f, g, n, parent, delete_child_ok);
    if (rc != AQ_RC_OK) {
        return rc;
    }
    for (unsigned i = 0; i < n; i++) {
        uint32_t teid = ld32(group_entry(f, g, i));
        SchedNode *node = node_lookup(s, teid);

        if (node) {         /* NULL: listed twice */
            node_remove(s, node);
            emu_trace(&d->host, TR_FW_SCHED_DELETE, "teid 0x%x parent 0x%x", teid, parent_teid);
        }
    }
    return AQ_RC_OK;
}

static uint16_t fw_delete_sched_elems(IrdmaDev *d, AqCmd *c)
{
    return sched_groups(d, c, &delete_format, delete_group);
}

/* ---- 0x0410/0x0415 RL profiles ---- */

static uint16_t profile_id_alloc(FwSched *s)
{
    /* Fewer profiles than ids exist (bounded per layer and type), so this ends. */
    for (;;) {
        uint16_t id = s->next_profile_id;

        s->next_profile_id = id >= RL_PROFILE_ID_MAX ? 1 : id + 1;
        if (!g_hash_table_contains(s->profiles, GUINT_TO_POINTER(id))) {
            return id;
        }
    }
}

/* One profile of 0x0410/0x0415, at @e. */
typedef uint16_t (*RlHandler)(FwSched *s, uint8_t *e);

/* Runs the profiles one by one: a refused profile ends the command, and the ones before it
 * stay done, as num_processed reports. */
static uint16_t rl_profiles(IrdmaDev *d, AqCmd *c, const char *op, RlHandler one)
{
    unsigned num = ld16(c->params + RL_NUM_PROFILES);
    unsigned done;
    uint16_t rc = AQ_RC_OK;

    st16(c->params + RL_NUM_PROCESSED, 0);
    if (!array_fits(d, c, op, "profiles", num, RL_ELEM_SIZE)) {
        return AQ_RC_EINVAL;
    }
    for (done = 0; done < num; done++) {
        rc = one(d->sched, c->buf + done * RL_ELEM_SIZE);
        if (rc != AQ_RC_OK) {
            break;
        }
    }
    st16(c->params + RL_NUM_PROCESSED, done);
    return rc;
}

/* Each profile gets a fresh id, written into its profile_id (ice keeps the returned element
 * and removes it by that id later). */
static uint16_t rl_add(FwSched *s, uint8_t *e)
{
    IrdmaDev *d = s->d;
    unsigned level = e[RL_LEVEL], type = e[RL_FLAGS] & RL_TYPE_M;
    RlProfile *p;

    if (level < 1 || level > FW_SCHED_NUM_LAYERS || type >= RL_NUM_TYPES ||
        !layer_max_rl(level - 1, type)) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_PROFILE, "add_rl_profiles level %u type %u: EINVAL",
                  level, type);
        return AQ_RC_EINVAL;
    }
    if (s->profile_count[level - 1][type] >= layer_max_rl(level - 1, type)) {
        emu_trace(&d->host, TR_FW_SCHED_PROFILES_FULL, "add_rl_profiles level %u type %u has %u "
                  "profiles: ENOSPC", level, type, s->profile_count[level - 1][type]);
        return AQ_RC_ENOSPC;
    }
    p = g_new0(RlProfile, 1);
    p->id = profile_id_alloc(s);
    p->level = level;
    p->type = type;
    p->max_burst = ld16(e + RL_MAX_BURST);
    p->rl_multiply = ld16(e + RL_MULTIPLY);
    p->wake_up_calc = ld16(e + RL_WAKE_UP_CALC);
    p->rl_encode = ld16(e + RL_ENCODE);
    g_hash_table_insert(s->profiles, GUINT_TO_POINTER(p->id), p);
    s->profile_count[level - 1][type]++;
    st16(e + RL_PROFILE_ID, p->id);
    emu_trace(&d->host, TR_FW_SCHED_RL_ADD, "profile %u level %u type %u multiply %u encode %u "
              "burst %u", p->id, level, type, p->rl_multiply, p->rl_encode, p->max_burst);
    return AQ_RC_OK;
}

static uint16_t fw_add_rl_profiles(IrdmaDev *d, AqCmd *c)
{
    return rl_profiles(d, c, "add_rl_profiles", rl_add);
}

static gboolean node_uses_profile(gpointer key, gpointer value, gpointer opaque)
{
    const SchedNode *n = value;
    const RlProfile *p = opaque;

    (void)key;
    switch (p->type) {
    case RL_TYPE_CIR:
        return (n->elem.valid_sections & ELEM_VALID_CIR) && n->elem.cir_profile == p->id;
    case RL_TYPE_EIR:
        return (n->elem.valid_sections & ELEM_VALID_EIR) && n->elem.eir_profile == p->id;
    default:
        return (n->elem.valid_sections & ELEM_VALID_SHARED) && n->elem.srl_id == p->id;
    }
}

static uint16_t rl_remove(FwSched *s, uint8_t *e)
{
    IrdmaDev *d = s->d;
    unsigned id = ld16(e + RL_PROFILE_ID);
    RlProfile *p = g_hash_table_lookup(s->profiles, GUINT_TO_POINTER(id));

    if (!p) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_PROFILE, "remove_rl_profiles profile %u unknown: "
                  "ENOENT", id);
        return AQ_RC_ENOENT;
    }
    if (p->level != e[RL_LEVEL] || p->type != (e[RL_FLAGS] & RL_TYPE_M)) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_PROFILE,
                  "remove_rl_profiles profile %u is level %u "
                  "type %u, not %u/%u: EINVAL", id, p->level, p->type, e[RL_LEVEL],
                  e[RL_FLAGS] & RL_TYPE_M);
        return AQ_RC_EINVAL;
    }
    /* ice clears all profiles before freeing the tree (ice_sched_clear_tx_topo), so nodes may
     * still name one; they fall back to nothing in particular, as on hardware. */
    if (g_hash_table_find(s->nodes, node_uses_profile, p)) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_RL_IN_USE, "profile %u removed while referenced", id);
    }
    s->profile_count[p->level - 1][p->type]--;
    g_hash_table_remove(s->profiles, GUINT_TO_POINTER(id));
    emu_trace(&d->host, TR_FW_SCHED_RL_REMOVE, "profile %u", id);
    return AQ_RC_OK;
}

static uint16_t fw_remove_rl_profiles(IrdmaDev *d, AqCmd *c)
{
    return rl_profiles(d, c, "remove_rl_profiles", rl_remove);
}

/* ---- 0x0C30 add_txqs / 0x0C33 add_rdma_qset: leaves under queue groups ---- */

typedef struct LeafFormat {
    GroupFormat grp;
    SchedOwner owner;
    size_t parent_off;
    size_t id_off, teid_off, info_off;
    unsigned id_max;
} LeafFormat;

static const LeafFormat lan_format = {
    { "add_txqs", "entries", TXQ_GRP_HDR_SIZE, TXQ_SIZE, TXQ_GRP_NUM_TXQS, false, 0 },
    OWNER_LAN, TXQ_GRP_PARENT, TXQ_ID, TXQ_TEID, TXQ_INFO, FW_NUM_QUEUES - 1,
};

static const LeafFormat rdma_format = {
    { "add_rdma_qset", "entries", QSET_GRP_HDR_SIZE, QSET_SIZE, QSET_GRP_NUM_QSETS, true, 0 },
    OWNER_RDMA, QSET_GRP_PARENT, QSET_ID, QSET_TEID, QSET_INFO, QSET_ID_MAX,
};

/* Validates every group and entry of the command (nothing changes unless all fit). */
static uint16_t leaves_check(FwSched *s, AqCmd *c, const LeafFormat *f, unsigned num_grps)
{
    IrdmaDev *d = s->d;
    const char *op = f->grp.op;
    GHashTable *queues = f->owner == OWNER_LAN ? s->lan_q : s->rdma_qs;
    g_autoptr(GHashTable) pending = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_autoptr(GHashTable) ids = g_hash_table_new(g_direct_hash, g_direct_equal);
    unsigned total = 0;
    size_t off = 0;

    for (unsigned gi = 0; gi < num_grps; gi++) {
        unsigned n, have;
        uint8_t *g = group_at(d, c, &f->grp, off, gi, &n);
        uint32_t parent_teid;
        SchedNode *parent;

        if (!g) {
            return AQ_RC_EINVAL;
        }
        parent_teid = ld32(g + f->parent_off);
        parent = parent_find(s, op, parent_teid);
        if (!parent) {
            return AQ_RC_EINVAL;
        }
        if (parent->layer != LAYER_QGRP) {
            emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_LAYER, "%s parent 0x%x is on layer %u, not the "
                      "queue-group layer %u: EINVAL", op, parent_teid, parent->layer,
                      LAYER_QGRP);
            return AQ_RC_EINVAL;
        }
        have = parent->children->len +
               GPOINTER_TO_UINT(g_hash_table_lookup(pending, GUINT_TO_POINTER(parent_teid)));
        if (!parent_has_room(s, op, parent, have, n)) {
            return AQ_RC_ENOSPC;
        }
        g_hash_table_insert(pending, GUINT_TO_POINTER(parent_teid), GUINT_TO_POINTER(have + n -
                            parent->children->len));
        for (unsigned i = 0; i < n; i++) {
            const uint8_t *q = group_entry(&f->grp, g, i);
            unsigned id = ld16(q + f->id_off);
            SchedElem e;

            if (id > f->id_max) {
                emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_QUEUE, "%s id %u beyond %u: EINVAL", op, id,
                          f->id_max);
                return AQ_RC_EINVAL;
            }
            if (g_hash_table_contains(queues, GUINT_TO_POINTER(id)) ||
                g_hash_table_contains(ids, GUINT_TO_POINTER(id))) {
                emu_trace(&d->host, TR_ERR_FW_SCHED_QUEUE_EXISTS,
                          "%s id %u already enabled: EEXIST",
                          op, id);
                return AQ_RC_EEXIST;
            }
            g_hash_table_add(ids, GUINT_TO_POINTER(id));
            elem_parse(q + f->info_off, &e);
            /* ice_ena_vsi_txq: without the generic section the firmware says EINVAL. */
            if (!(e.valid_sections & ELEM_VALID_GENERIC)) {
                emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_ELEM,
                          "%s id %u: generic section not valid: EINVAL", op, id);
                return AQ_RC_EINVAL;
            }
            if (!elem_profiles_valid(s, op, 0, &e)) {
                return AQ_RC_EINVAL;
            }
        }
        total += n;
        off += group_size(&f->grp, n);
    }
    if (s->layer_nodes[LAYER_LEAF] + total > MAX_NODES_LEAF ||
        (f->owner == OWNER_RDMA && g_hash_table_size(s->rdma_qs) + total > MAX_RDMA_QSETS)) {
        emu_trace(&d->host, TR_FW_SCHED_LAYER_FULL, "%s %u leaves with %u in the tree: ENOSPC",
                  op, total, s->layer_nodes[LAYER_LEAF]);
        return AQ_RC_ENOSPC;
    }
    return AQ_RC_OK;
}

static uint16_t add_leaves(IrdmaDev *d, AqCmd *c, const LeafFormat *f, unsigned num_grps)
{
    FwSched *s = d->sched;
    GHashTable *queues = f->owner == OWNER_LAN ? s->lan_q : s->rdma_qs;
    size_t off = 0;
    uint16_t rc;

    if (num_grps == 0 || num_grps > MAX_QGRPS) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_COUNT, "%s %u groups: EINVAL", f->grp.op, num_grps);
        return AQ_RC_EINVAL;
    }
    rc = leaves_check(s, c, f, num_grps);
    if (rc != AQ_RC_OK) {
        return rc;
    }
    for (unsigned gi = 0; gi < num_grps; gi++) {
        unsigned n;
        uint8_t *g = group_next(&f->grp, c->buf, &off, &n);
        SchedNode *parent = node_lookup(s, ld32(g + f->parent_off));

        for (unsigned i = 0; i < n; i++) {
            uint8_t *q = group_entry(&f->grp, g, i);
            SchedElem e;
            SchedNode *leaf;

            elem_parse(q + f->info_off, &e);
            e.elem_type = ELEM_TYPE_LEAF;
            leaf = node_add(s, parent, teid_alloc(s), f->owner, &e);
            leaf->qid = ld16(q + f->id_off);
            if (f->owner == OWNER_LAN) {
                memcpy(leaf->txq_ctx, q + TXQ_CTX, FW_SCHED_TXQ_CTX_SIZE);
            }
            g_hash_table_insert(queues, GUINT_TO_POINTER(leaf->qid), leaf);
            st32(q + f->teid_off, leaf->teid);
            emu_trace(&d->host, f->owner == OWNER_LAN ? TR_FW_SCHED_TXQ_ADD : TR_FW_SCHED_QSET_ADD,
                      "id %u teid 0x%x parent 0x%x", leaf->qid, leaf->teid, parent->teid);
        }
    }
    return AQ_RC_OK;
}

static uint16_t fw_add_txqs(IrdmaDev *d, AqCmd *c)
{
    return add_leaves(d, c, &lan_format, c->params[TXQS_NUM_QGRPS]);
}

static uint16_t fw_add_rdma_qset(IrdmaDev *d, AqCmd *c)
{
    return add_leaves(d, c, &rdma_format, c->params[QSET_NUM_GRPS]);
}

/* ---- 0x0C31 dis_txqs ---- */

static SchedNode *dis_lookup(FwSched *s, uint16_t q_id)
{
    GHashTable *t = (q_id & DIS_QID_RDMA_QSET) ? s->rdma_qs : s->lan_q;

    return g_hash_table_lookup(t, GUINT_TO_POINTER(q_id & DIS_QID_M));
}

static const char *dis_kind(uint16_t q_id)
{
    return (q_id & DIS_QID_RDMA_QSET) ? "qset" : "queue";
}

/* Removes LAN queues (q_id = PF queue) and, with bit 15, RDMA qsets (ice_dis_vsi_rdma_qset).
 * The buffer is optional: ice sends the VM/VF-reset variants without one when the queues are
 * already gone, which is why the opcode is registered without a buffer direction and this
 * handler checks the buffer itself. */
static uint16_t fw_dis_txqs(IrdmaDev *d, AqCmd *c)
{
    FwSched *s = d->sched;
    unsigned cmd = c->params[DIS_CMD_TYPE] & DIS_CMD_M;
    unsigned num_grps = c->params[DIS_NUM_ENTRIES];
    unsigned vmvf = ld16(c->params + DIS_VMVF_TIMEOUT) & DIS_VMVF_NUM_M;
    size_t off = 0;

    if (num_grps == 0) {
        if (cmd == DIS_CMD_NO_FUNC_RESET) {
            emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_COUNT,
                      "dis_txqs without queues outside a reset: EINVAL");
            return AQ_RC_EINVAL;
        }
        if (cmd == DIS_CMD_PF_RESET) {
            unsigned n = g_hash_table_size(s->lan_q);
            GList *leaves = g_hash_table_get_values(s->lan_q);

            for (GList *l = leaves; l; l = l->next) {
                node_remove(s, l->data);
            }
            g_list_free(leaves);
            emu_trace(&d->host, TR_FW_SCHED_TXQ_DIS, "PF reset: all %u LAN queues", n);
        } else {
            /* No VFs are modelled: their queues, if any, are named in the list. */
            emu_trace(&d->host, TR_FW_SCHED_TXQ_DIS, "%s reset of %u without a list: nothing to do",
                      cmd == DIS_CMD_VM_RESET ? "VM" : "VF", vmvf);
        }
        return AQ_RC_OK;
    }
    if (!(c->flags & AQ_FLAG_BUF) || !(c->flags & AQ_FLAG_RD) || num_grps > MAX_QGRPS) {
        emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_COUNT, "dis_txqs %u groups, flags 0x%04x: EINVAL",
                  num_grps, c->flags);
        return AQ_RC_EINVAL;
    }
    for (unsigned gi = 0; gi < num_grps; gi++) {
        unsigned n;
        uint8_t *g = group_at(d, c, &dis_format, off, gi, &n);
        uint32_t parent_teid;

        if (!g) {
            return AQ_RC_EINVAL;
        }
        parent_teid = ld32(g + DIS_ITEM_PARENT);
        for (unsigned i = 0; i < n; i++) {
            unsigned q_id = ld16(group_entry(&dis_format, g, i));
            SchedNode *leaf = dis_lookup(s, q_id);

            if (!leaf) {
                emu_trace(&d->host, TR_ERR_FW_SCHED_UNKNOWN_QUEUE,
                          "dis_txqs %s %u not enabled: ENOENT",
                          dis_kind(q_id), q_id & DIS_QID_M);
                return AQ_RC_ENOENT;
            }
            if (leaf->parent->teid != parent_teid) {
                emu_trace(&d->host, TR_ERR_FW_SCHED_BAD_PARENT,
                          "dis_txqs %s %u hangs under 0x%x, not "
                          "0x%x: EINVAL", dis_kind(q_id), q_id & DIS_QID_M, leaf->parent->teid,
                          parent_teid);
                return AQ_RC_EINVAL;
            }
        }
        off += group_size(&dis_format, n);
    }
    off = 0;
    for (unsigned gi = 0; gi < num_grps; gi++) {
        unsigned n;
        uint8_t *g = group_next(&dis_format, c->buf, &off, &n);

        for (unsigned i = 0; i < n; i++) {
            unsigned q_id = ld16(group_entry(&dis_format, g, i));
            SchedNode *leaf = dis_lookup(s, q_id);

            if (leaf) {         /* NULL: listed twice */
                emu_trace(&d->host, (q_id & DIS_QID_RDMA_QSET) ? TR_FW_SCHED_QSET_DIS :
                          TR_FW_SCHED_TXQ_DIS, "id %u teid 0x%x cmd_type 0x%02x", q_id & DIS_QID_M,
                          leaf->teid, c->params[DIS_CMD_TYPE]);
                node_remove(s, leaf);
            }
        }
    }
    return AQ_RC_OK;
}

static const AqOpcode sched_ops[] = {
    { AQC_GET_DFLT_TOPO, "get_dflt_topo", fw_get_dflt_topo, AQ_BUF_OUT, TOPO_BRANCH_SIZE },
    { AQC_ADD_SCHED_ELEMS, "add_sched_elems", fw_add_sched_elems, AQ_BUF_INOUT,
      GRP_HDR_SIZE + ELEMD_SIZE },
    { AQC_CFG_SCHED_ELEMS, "cfg_sched_elems", fw_cfg_sched_elems, AQ_BUF_IN, ELEMD_SIZE },
    { AQC_GET_SCHED_ELEMS, "get_sched_elems", fw_get_sched_elems, AQ_BUF_INOUT, ELEMD_SIZE },
    { AQC_MOVE_SCHED_ELEMS, "move_sched_elems", fw_move_sched_elems, AQ_BUF_IN,
      MOVE_HDR_SIZE + TEID_SIZE },
    { AQC_SUSPEND_SCHED_ELEMS, "suspend_sched_elems", fw_suspend_sched_elems, AQ_BUF_IN,
      TEID_SIZE },
    { AQC_RESUME_SCHED_ELEMS, "resume_sched_elems", fw_resume_sched_elems, AQ_BUF_IN,
      TEID_SIZE },
    { AQC_DELETE_SCHED_ELEMS, "delete_sched_elems", fw_delete_sched_elems, AQ_BUF_IN,
      GRP_HDR_SIZE + TEID_SIZE },
    { AQC_ADD_RL_PROFILES, "add_rl_profiles", fw_add_rl_profiles, AQ_BUF_INOUT, RL_ELEM_SIZE },
    { AQC_QUERY_SCHED_RES, "query_sched_res", fw_query_sched_res, AQ_BUF_OUT, QRES_SIZE },
    { AQC_GET_TX_TOPO, "get_tx_topo", fw_get_tx_topo, AQ_BUF_IN, 0 },
    { AQC_REMOVE_RL_PROFILES, "remove_rl_profiles", fw_remove_rl_profiles, AQ_BUF_IN,
      RL_ELEM_SIZE },
    { AQC_ADD_TXQS, "add_txqs", fw_add_txqs, AQ_BUF_INOUT, TXQ_GRP_HDR_SIZE + TXQ_SIZE },
    /* Buffer optional (reset variants): checked by the handler. */
    { AQC_DIS_TXQS, "dis_txqs", fw_dis_txqs, AQ_BUF_NONE, 0 },
    { AQC_ADD_RDMA_QSET, "add_rdma_qset", fw_add_rdma_qset, AQ_BUF_INOUT,
      QSET_GRP_HDR_SIZE + QSET_SIZE },
};

const AqOpcodeTable fw_sched_opcodes = { sched_ops, G_N_ELEMENTS(sched_ops) };

/* ---- lifetime and the API of fw/sched.h ---- */

FwSched *fw_sched_new(IrdmaDev *d)
{
    FwSched *s = g_new0(FwSched, 1);

    s->d = d;
    s->nodes = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    s->lan_q = g_hash_table_new(g_direct_hash, g_direct_equal);
    s->rdma_qs = g_hash_table_new(g_direct_hash, g_direct_equal);
    s->profiles = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    s->tc_enabled = 0x01;
    s->next_profile_id = 1;
    build_default_tree(s);
    return s;
}

void fw_sched_free(FwSched *s)
{
    if (!s) {
        return;
    }
    if (s->root) {
        node_remove(s, s->root);
    }
    g_hash_table_destroy(s->nodes);
    g_hash_table_destroy(s->lan_q);
    g_hash_table_destroy(s->rdma_qs);
    g_hash_table_destroy(s->profiles);
    g_free(s);
}

void fw_sched_pf_reset(FwSched *s)
{
    if (s->root) {
        node_remove(s, s->root);
    }
    g_hash_table_remove_all(s->profiles);
    memset(s->profile_count, 0, sizeof(s->profile_count));
    s->next_profile_id = 1;
    build_default_tree(s);
    emu_trace(&s->d->host, TR_FW_SCHED_RESET, "default tree, TCs 0x%02x", s->tc_enabled);
}

void fw_sched_set_tcs(FwSched *s, uint8_t tc_bitmap)
{
    uint8_t want = tc_bitmap | 0x01;
    uint8_t added = want & ~s->tc_enabled, dropped = s->tc_enabled & ~want;

    if (!(tc_bitmap & 0x01)) {
        emu_trace(&s->d->host, TR_FW_SCHED_TC0_FORCED, "TC bitmap 0x%02x: TC0 stays enabled",
                  tc_bitmap);
    }
    for (unsigned tc = 0; tc < FW_SCHED_NUM_TCS; tc++) {
        if ((want & (1u << tc)) && !s->tc[tc]) {
            tc_node_create(s, tc);
        }
    }
    s->tc_enabled = want;
    if (added || dropped) {
        emu_trace(&s->d->host, TR_FW_SCHED_TCS, "enabled 0x%02x (added 0x%02x, disabled 0x%02x)",
                  want, added, dropped);
    }
}

uint32_t fw_sched_tc_teid(FwSched *s, unsigned tc)
{
    if (tc >= FW_SCHED_NUM_TCS || !(s->tc_enabled & (1u << tc)) || !s->tc[tc]) {
        return FW_SCHED_INVALID_TEID;
    }
    return s->tc[tc]->teid;
}

uint8_t fw_sched_tc_bitmap(FwSched *s)
{
    return s->tc_enabled;
}

uint32_t fw_sched_root_teid(FwSched *s)
{
    return s->root ? s->root->teid : FW_SCHED_INVALID_TEID;
}

bool fw_sched_get_txq(FwSched *s, uint16_t txq_id, FwSchedTxq *out)
{
    SchedNode *leaf = g_hash_table_lookup(s->lan_q, GUINT_TO_POINTER(txq_id));
    SchedNode *tc;

    if (!leaf) {
        return false;
    }
    tc = node_tc(leaf);
    out->teid = leaf->teid;
    out->parent_teid = leaf->parent->teid;
    out->tc = tc ? tc->tc : 0;
    out->tc_enabled = tc && (s->tc_enabled & (1u << tc->tc));
    out->suspended = false;
    for (SchedNode *n = leaf; n; n = n->parent) {
        out->suspended |= n->suspended;
    }
    memcpy(out->ctx, leaf->txq_ctx, FW_SCHED_TXQ_CTX_SIZE);
    return true;
}

unsigned fw_sched_num_txqs(FwSched *s)
{
    return g_hash_table_size(s->lan_q);
}

uint32_t fw_sched_rdma_qset_teid(FwSched *s, uint16_t qset_id)
{
    SchedNode *leaf = g_hash_table_lookup(s->rdma_qs, GUINT_TO_POINTER(qset_id));

    return leaf ? leaf->teid : FW_SCHED_INVALID_TEID;
}
