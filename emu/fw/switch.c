/* fw/switch.c - switch configuration, VSIs, resources, rules, VLAN mode, RSS (see fw/switch.h). */
#include "fw/switch.h"
#include "fw/fw.h"
#include "core/inet.h"
#include "core/le.h"
#include "core/trace.h"

/* 0x0200 get_sw_cfg: params and response element */
#define SW_CFG_ELEMENT              2
#define SW_CFG_NUM_ELEMS            4
#define SW_CFG_ELEM_SIZE            6
#define SW_CFG_ELEM_VSI_PORT_NUM    0
#define SW_CFG_ELEM_SWID            2
#define SW_CFG_ELEM_PF_VF_NUM       4
#define SW_CFG_TYPE_PHYS_PORT       (0u << 14)
#define FW_SWITCH_ID                0

/* 0x0203 set_port_params */
#define PORT_PARAMS_FLAGS           0
#define PORT_PARAMS_SWID            4
#define PORT_PARAMS_DOUBLE_VLAN     0x0004
/* Byte 6, sent by ice 6.12 on (reserved, zero, in 6.1): local forwarding mode when VALID. */
#define PORT_PARAMS_LOCAL_FWD       6
#define LOCAL_FWD_MODE_M            0x03
#define LOCAL_FWD_MODE_ENABLED      0
#define LOCAL_FWD_MODE_PRIORITIZED  2
#define LOCAL_FWD_MODE_VALID        0x04

/* 0x0208/0x0209 alloc/free resources */
#define RES_NUM_ENTRIES             0
#define RES_ELEM_TYPE               0
#define RES_ELEM_NUM                2
#define RES_ELEM_IDS                4
#define RES_TYPE_M                  0x007f
#define RES_TYPE_VSI_LIST_REP       0x03
#define RES_TYPE_VSI_LIST_PRUNE     0x04
#define RES_TYPE_RECIPE             0x05
#define RES_TYPE_FDIR_COUNTER_BLOCK 0x21
#define RES_TYPE_FDIR_GUARANTEED    0x22
#define RES_TYPE_FDIR_SHARED        0x23
#define RES_TYPE_FD_PROFID          0x58
#define RES_TYPE_FD_TCAM            0x59
#define RES_TYPE_HASH_PROFID        0x60
#define RES_TYPE_HASH_TCAM          0x61

/* 0x0210/0x0211/0x0213 VSI commands: request and response params */
#define VSI_NUM                     0
#define VSI_NUM_M                   0x03ff
#define VSI_CMD_FLAGS               2
#define VSI_FLAGS                   6
#define VSI_TYPE_M                  0x0003
#define VSI_TYPE_PF                 0x2
#define VSI_RESP_USED               4
#define VSI_RESP_FREE               6
/* ice_aqc_vsi_props: valid_sections, then one byte range per section bit. */
#define VSI_PROP_VALID_SECTIONS     0

/* 0x02A0-0x02A2 switch rules */
#define RULES_NUM                   0
#define RULE_TYPE                   0
#define RULE_STATUS                 2
#define RULE_T_LKUP_RX              0x0
#define RULE_T_LKUP_TX              0x1
#define RULE_T_LG_ACT               0x2
#define RULE_T_VSI_LIST_SET         0x3
#define RULE_T_VSI_LIST_CLEAR       0x4
#define RULE_T_PRUNE_LIST_SET       0x5
#define RULE_T_PRUNE_LIST_CLEAR     0x6
#define LKUP_RECIPE                 4
#define LKUP_SRC                    6
#define LKUP_ACT                    8
#define LKUP_INDEX                  12
#define LKUP_HDR_LEN                14
#define LKUP_HDR_DATA               16
#define LIST_INDEX                  4
#define LIST_NUM_VSI                6
#define LIST_VSI                    8
#define LG_ACT_INDEX                4
#define LG_ACT_SIZE                 6
#define LG_ACT_ACTS                 8
#define MAX_LG_ACTS                 4
/* Lookup types of the default recipes (enum ice_sw_lkup_type) and single-action fields */
#define LKUP_T_ETHERTYPE            0
#define LKUP_T_MAC                  1
#define LKUP_T_MAC_VLAN             2
#define LKUP_T_PROMISC              3
#define LKUP_T_DFLT                 5
#define ACT_TYPE_M                  0x3
#define ACT_TYPE_VSI_FORWARDING     0x0
#define ACT_VSI_ID_M                (0x3ffu << 4)
#define ACT_VSI_LIST                (1u << 14)
#define ACT_DROP                    (1u << 18)
#define LIST_RULE_KEY               0x10000u
#define MAX_RULES                   4096

/* 0x020C/0x020D VLAN mode */
#define VLAN_MODE_BUF_SIZE          100
#define VLAN_MODE_SET_PRIO_TAGGING  1
#define VLAN_MODE_GET_MODE          0
#define VLAN_MODE_GET_PRIO_TAGGING  1
#define VLAN_MODE_DVM_ENA           0x01

/* 0x0B02-0x0B05 RSS */
#define RSS_VSI_ID                  0
#define RSS_VSI_ID_M                0x03ff
#define RSS_VSI_VALID               0x8000
#define RSS_LUT_FLAGS               2
#define RSS_LUT_TYPE_M              0x0003
#define RSS_LUT_TYPE_VSI            0
#define RSS_LUT_TYPE_PF             1
#define RSS_LUT_SIZE_M              0x000c
#define RSS_KEY_SIZE                52
#define RSS_LUT_MAX                 2048
G_STATIC_ASSERT(FW_RSS_LUT_SIZE <= RSS_LUT_MAX);

typedef struct VsiSection {
    uint16_t bit;
    uint8_t start, end;
} VsiSection;

/* Byte range of each section of ice_aqc_vsi_props, by its valid_sections bit. */
static const VsiSection vsi_sections[] = {
    { 1u << 0, 2, 6 },      /* switch */
    { 1u << 1, 6, 8 },      /* security */
    { 1u << 2, 8, 16 },     /* inner VLAN */
    { 1u << 3, 24, 28 },    /* outer tag */
    { 1u << 4, 16, 20 },    /* ingress UP table */
    { 1u << 5, 20, 24 },    /* egress UP table */
    { 1u << 6, 28, 78 },    /* Rx queue mapping */
    { 1u << 7, 78, 84 },    /* queueing options (RSS, PE filter) */
    { 1u << 8, 84, 88 },    /* outer UP table */
    { 1u << 11, 90, 100 },  /* flow director */
    { 1u << 12, 100, 104 }, /* PASID */
};

typedef struct ResPool {
    uint16_t type;
    uint16_t size;
} ResPool;

static const ResPool res_pools[] = {
    { RES_TYPE_VSI_LIST_REP, 512 }, { RES_TYPE_VSI_LIST_PRUNE, 512 }, { RES_TYPE_RECIPE, 64 },
    { RES_TYPE_FDIR_COUNTER_BLOCK, 32 }, { RES_TYPE_FDIR_GUARANTEED, 2048 },
    { RES_TYPE_FDIR_SHARED, 2048 }, { RES_TYPE_FD_PROFID, 128 }, { RES_TYPE_FD_TCAM, 512 },
    { RES_TYPE_HASH_PROFID, 128 }, { RES_TYPE_HASH_TCAM, 512 },
};

typedef struct FwVsi {
    uint16_t flags;
    uint8_t props[FW_VSI_PROPS_SIZE];
    uint8_t rss_key[RSS_KEY_SIZE];
    uint8_t *rss_lut;
    uint16_t rss_lut_size;
} FwVsi;

typedef struct FwRule {
    uint16_t type;
    uint16_t len;
    uint8_t data[];
} FwRule;

struct FwSwitch {
    IrdmaDev *d;
    FwVsi *vsi[FW_NUM_VSI];
    unsigned num_vsi;
    GHashTable *res[G_N_ELEMENTS(res_pools)];   /* allocated ids per pool */
    GHashTable *rules;                          /* lookup/large-action index -> FwRule */
    uint32_t next_rule_index;
    uint16_t port_flags;
    uint8_t local_fwd_mode;                     /* LOCAL_FWD_MODE_*, ENABLED by default */
    uint8_t vlan_prio_tagging;
    uint8_t pf_lut[RSS_LUT_MAX];
    uint16_t pf_lut_size;
};

/* ---- 0x0200, 0x0203 ---- */

static uint16_t fw_get_sw_cfg(IrdmaDev *d, AqCmd *c)
{
    (void)d;
    if (c->buf_len < SW_CFG_ELEM_SIZE) {
        return AQ_RC_ENOMEM;
    }
    /* One element: the physical port. VSIs are not listed (the driver ignores them). */
    st16(c->buf + SW_CFG_ELEM_VSI_PORT_NUM, SW_CFG_TYPE_PHYS_PORT | 0);
    st16(c->buf + SW_CFG_ELEM_SWID, FW_SWITCH_ID);
    st16(c->buf + SW_CFG_ELEM_PF_VF_NUM, 0);
    st16(c->params + SW_CFG_ELEMENT, 0);
    st16(c->params + SW_CFG_NUM_ELEMS, 1);
    c->resp_len = SW_CFG_ELEM_SIZE;
    return AQ_RC_OK;
}

/* The local forwarding mode (VSI to VSI inside the switch: enabled, disabled, prioritized) is
 * kept and traced; the model's switch forwards locally in every mode. */
static uint16_t fw_set_port_params(IrdmaDev *d, AqCmd *c)
{
    uint8_t fwd = c->params[PORT_PARAMS_LOCAL_FWD];

    if (ld16(c->params + PORT_PARAMS_SWID) != FW_SWITCH_ID) {
        emu_trace(&d->host, TR_ERR_FW_PORT_PARAMS_REJECTED,
                  "swid %u", ld16(c->params + PORT_PARAMS_SWID));
        return AQ_RC_EINVAL;
    }
    if ((fwd & LOCAL_FWD_MODE_VALID) && (fwd & LOCAL_FWD_MODE_M) > LOCAL_FWD_MODE_PRIORITIZED) {
        emu_trace(&d->host, TR_ERR_FW_PORT_PARAMS_REJECTED, "local forwarding mode %u",
                  fwd & LOCAL_FWD_MODE_M);
        return AQ_RC_EINVAL;
    }
    d->sw->port_flags = ld16(c->params + PORT_PARAMS_FLAGS);
    if (fwd & LOCAL_FWD_MODE_VALID) {
        d->sw->local_fwd_mode = fwd & LOCAL_FWD_MODE_M;
        emu_trace(&d->host, TR_FW_PORT_LOCAL_FWD, "mode %u", d->sw->local_fwd_mode);
    }
    return AQ_RC_OK;
}

/* ---- 0x0208, 0x0209 ---- */

static int find_pool(unsigned type)
{
    for (size_t i = 0; i < G_N_ELEMENTS(res_pools); i++) {
        if (res_pools[i].type == type) {
            return i;
        }
    }
    return -1;
}

/* Validates the single resource element of the buffer; returns its pool or -1. @num entries
 * are asked for; the buffer holds @listed ids (all of them, or just the first of a block). */
static int res_request(IrdmaDev *d, AqCmd *c, unsigned *num, unsigned *listed)
{
    int pool;

    if (ld16(c->params + RES_NUM_ENTRIES) != 1 || c->buf_len < RES_ELEM_IDS + 2) {
        return -1;
    }
    pool = find_pool(ld16(c->buf + RES_ELEM_TYPE) & RES_TYPE_M);
    *num = ld16(c->buf + RES_ELEM_NUM);
    *listed = MIN(*num, (c->buf_len - RES_ELEM_IDS) / 2u);
    if (pool < 0 || *num == 0 || *num > res_pools[pool].size) {
        emu_trace(&d->host, TR_ERR_FW_RES_BAD_REQUEST, "type 0x%04x num %u datalen %u",
                  ld16(c->buf + RES_ELEM_TYPE), *num, c->buf_len);
        return -1;
    }
    return pool;
}

static bool res_held(FwSwitch *s, int pool, unsigned id)
{
    return g_hash_table_contains(s->res[pool], GUINT_TO_POINTER(id));
}

/* Ids are handed out as one contiguous block: a driver asking for many entries (FD filter
 * pools) gets back only the first id, with room for one element in its buffer. */
static uint16_t fw_alloc_res(IrdmaDev *d, AqCmd *c)
{
    FwSwitch *s = d->sw;
    unsigned num, listed, base, run = 0;
    int pool = res_request(d, c, &num, &listed);

    if (pool < 0) {
        return AQ_RC_EINVAL;
    }
    for (base = 0; base < res_pools[pool].size && run < num; base++) {
        run = res_held(s, pool, base) ? 0 : run + 1;
    }
    if (run < num) {
        emu_trace(&d->host, TR_FW_RES_EXHAUSTED,
                  "type 0x%02x: no free block of %u (%u in use of %u)",
                  res_pools[pool].type, num, g_hash_table_size(s->res[pool]), res_pools[pool].size);
        return AQ_RC_ENOSPC;
    }
    base -= num;
    for (unsigned i = 0; i < num; i++) {
        g_hash_table_add(s->res[pool], GUINT_TO_POINTER(base + i));
    }
    for (unsigned i = 0; i < listed; i++) {
        st16(c->buf + RES_ELEM_IDS + 2 * i, base + i);
    }
    c->resp_len = RES_ELEM_IDS + 2 * listed;
    return AQ_RC_OK;
}

/* The ids to free: those listed, or the block that starts at the one listed. */
static unsigned res_free_id(const AqCmd *c, unsigned num, unsigned listed, unsigned i)
{
    return listed == num ? ld16(c->buf + RES_ELEM_IDS + 2 * i) : ld16(c->buf + RES_ELEM_IDS) + i;
}

static uint16_t fw_free_res(IrdmaDev *d, AqCmd *c)
{
    FwSwitch *s = d->sw;
    unsigned num, listed;
    int pool = res_request(d, c, &num, &listed);

    if (pool < 0) {
        return AQ_RC_EINVAL;
    }
    for (unsigned i = 0; i < num; i++) {
        unsigned id = res_free_id(c, num, listed, i);

        if (!res_held(s, pool, id)) {
            emu_trace(&d->host, TR_ERR_FW_RES_NOT_ALLOCATED, "type 0x%02x id %u",
                      res_pools[pool].type, id);
            return AQ_RC_ENOENT;
        }
    }
    for (unsigned i = 0; i < num; i++) {
        g_hash_table_remove(s->res[pool], GUINT_TO_POINTER(res_free_id(c, num, listed, i)));
    }
    return AQ_RC_OK;
}

/* ---- 0x020C, 0x020D ---- */

static uint16_t fw_set_vlan_mode(IrdmaDev *d, AqCmd *c)
{
    /* The synthetic DDP package has no double-VLAN support: single VLAN mode stays. */
    d->sw->vlan_prio_tagging = c->buf[VLAN_MODE_SET_PRIO_TAGGING];
    return AQ_RC_OK;
}

static uint16_t fw_get_vlan_mode(IrdmaDev *d, AqCmd *c)
{
    memset(c->buf, 0, VLAN_MODE_BUF_SIZE);
    c->buf[VLAN_MODE_GET_MODE] = 0;            /* SVM */
    c->buf[VLAN_MODE_GET_PRIO_TAGGING] = d->sw->vlan_prio_tagging;
    c->resp_len = VLAN_MODE_BUF_SIZE;
    return AQ_RC_OK;
}

/* ---- 0x0210, 0x0211, 0x0213 ---- */

static void set_vsi_resp(FwSwitch *s, AqCmd *c, unsigned vsi_num)
{
    memset(c->params, 0, AQ_PARAM_ADDR_H);
    st16(c->params + VSI_NUM, vsi_num);
    st16(c->params + VSI_RESP_USED, s->num_vsi);
    st16(c->params + VSI_RESP_FREE, FW_NUM_VSI - s->num_vsi);
}

static void merge_sections(uint8_t *props, const uint8_t *req)
{
    uint16_t valid = ld16(req + VSI_PROP_VALID_SECTIONS);

    for (size_t i = 0; i < G_N_ELEMENTS(vsi_sections); i++) {
        const VsiSection *sec = &vsi_sections[i];

        if (valid & sec->bit) {
            memcpy(props + sec->start, req + sec->start, sec->end - sec->start);
        }
    }
    st16(props + VSI_PROP_VALID_SECTIONS, ld16(props + VSI_PROP_VALID_SECTIONS) | valid);
}

static uint16_t fw_add_vsi(IrdmaDev *d, AqCmd *c)
{
    FwSwitch *s = d->sw;
    unsigned n;
    FwVsi *v;

    for (n = 0; n < FW_NUM_VSI && s->vsi[n]; n++) {
    }
    if (n == FW_NUM_VSI) {
        emu_trace(&d->host, TR_FW_VSI_EXHAUSTED, "%u VSIs in use", s->num_vsi);
        return AQ_RC_ENOSPC;
    }
    v = g_new0(FwVsi, 1);
    v->flags = ld16(c->params + VSI_FLAGS);
    /* A new VSI takes its whole context: ice fills queue mapping, VLAN and queueing options
     * for add_vsi without flagging their sections valid (valid_sections is for updates). */
    memcpy(v->props, c->buf, FW_VSI_PROPS_SIZE);
    s->vsi[n] = v;
    s->num_vsi++;
    emu_trace(&d->host, TR_FW_VSI_ADD, "vsi %u type %u sections 0x%04x", n,
              v->flags & VSI_TYPE_M, ld16(c->buf + VSI_PROP_VALID_SECTIONS));
    set_vsi_resp(s, c, n);
    return AQ_RC_OK;
}

static FwVsi *lookup_vsi(IrdmaDev *d, AqCmd *c, unsigned *n)
{
    *n = ld16(c->params + VSI_NUM) & VSI_NUM_M;
    if (*n >= FW_NUM_VSI || !d->sw->vsi[*n]) {
        emu_trace(&d->host, TR_ERR_FW_VSI_UNKNOWN, "vsi %u", *n);
        return NULL;
    }
    return d->sw->vsi[*n];
}

static uint16_t fw_update_vsi(IrdmaDev *d, AqCmd *c)
{
    unsigned n;
    FwVsi *v = lookup_vsi(d, c, &n);

    if (!v) {
        return AQ_RC_ENOENT;
    }
    merge_sections(v->props, c->buf);
    emu_trace(&d->host, TR_FW_VSI_UPDATE, "vsi %u sections 0x%04x", n,
              ld16(c->buf + VSI_PROP_VALID_SECTIONS));
    set_vsi_resp(d->sw, c, n);
    return AQ_RC_OK;
}

static void vsi_free(FwVsi *v)
{
    if (v) {
        g_free(v->rss_lut);
        g_free(v);
    }
}

static uint16_t fw_free_vsi(IrdmaDev *d, AqCmd *c)
{
    FwSwitch *s = d->sw;
    unsigned n;
    FwVsi *v = lookup_vsi(d, c, &n);

    if (!v) {
        return AQ_RC_ENOENT;
    }
    vsi_free(v);
    s->vsi[n] = NULL;
    s->num_vsi--;
    emu_trace(&d->host, TR_FW_VSI_FREE, "vsi %u", n);
    set_vsi_resp(s, c, n);
    return AQ_RC_OK;
}

/* ---- 0x02A0, 0x02A1, 0x02A2 ---- */

/* Size of the rule at @r (within @avail bytes), or 0 if it does not fit or is unknown. */
static unsigned rule_size(const uint8_t *r, unsigned avail)
{
    unsigned size;

    if (avail < 8) {
        return 0;
    }
    switch (ld16(r + RULE_TYPE)) {
    case RULE_T_LKUP_RX:
    case RULE_T_LKUP_TX:
        size = avail >= LKUP_HDR_DATA ? LKUP_HDR_DATA + ld16(r + LKUP_HDR_LEN) : 0;
        break;
    case RULE_T_LG_ACT:
        size = ld16(r + LG_ACT_SIZE) <= MAX_LG_ACTS ? LG_ACT_ACTS + 4u * ld16(r + LG_ACT_SIZE) : 0;
        break;
    case RULE_T_VSI_LIST_SET:
    case RULE_T_VSI_LIST_CLEAR:
    case RULE_T_PRUNE_LIST_SET:
    case RULE_T_PRUNE_LIST_CLEAR:
        size = LIST_VSI + 2u * ld16(r + LIST_NUM_VSI);
        break;
    default:
        return 0;
    }
    return size <= avail ? size : 0;
}

static unsigned rule_index_offset(uint16_t type)
{
    switch (type) {
    case RULE_T_LKUP_RX:
    case RULE_T_LKUP_TX:
        return LKUP_INDEX;
    case RULE_T_LG_ACT:
        return LG_ACT_INDEX;
    default:
        return LIST_INDEX;
    }
}

static bool is_list_rule(uint16_t type)
{
    return type >= RULE_T_VSI_LIST_SET;
}

/* VSI list rules name a list id allocated through 0x0208; they edit that list. */
static bool list_id_allocated(FwSwitch *s, uint16_t type, unsigned id)
{
    int pool = find_pool(type == RULE_T_VSI_LIST_SET || type == RULE_T_VSI_LIST_CLEAR ?
                         RES_TYPE_VSI_LIST_REP : RES_TYPE_VSI_LIST_PRUNE);

    return res_held(s, pool, id);
}

typedef enum RuleOp { RULE_ADD, RULE_UPDATE, RULE_REMOVE } RuleOp;

/* A stored lookup rule with its header. */
static bool is_lookup(const FwRule *r)
{
    return r && (r->type == RULE_T_LKUP_RX || r->type == RULE_T_LKUP_TX) &&
           r->len >= LKUP_HDR_DATA;
}

static uint16_t apply_rule(IrdmaDev *d, RuleOp op, uint8_t *r, unsigned size)
{
    FwSwitch *s = d->sw;
    uint16_t type = ld16(r + RULE_TYPE);
    unsigned idx_off = rule_index_offset(type);
    uint32_t index = ld16(r + idx_off);
    const FwRule *old;
    FwRule *rule;

    if (is_list_rule(type)) {
        if (!list_id_allocated(s, type, index)) {
            emu_trace(&d->host, TR_ERR_FW_RULE_BAD_LIST,
                      "type %u list %u not allocated", type, index);
            return AQ_RC_ENOENT;
        }
        index |= LIST_RULE_KEY;     /* list ids live beside rule indexes */
    } else if (op == RULE_ADD) {
        if (g_hash_table_size(s->rules) >= MAX_RULES) {
            return AQ_RC_ENOSPC;
        }
        do {
            index = s->next_rule_index++ & 0xffff;
        } while (g_hash_table_contains(s->rules, GUINT_TO_POINTER(index)));
        st16(r + idx_off, index);
    } else if (!g_hash_table_contains(s->rules, GUINT_TO_POINTER(index))) {
        emu_trace(&d->host, TR_ERR_FW_RULE_UNKNOWN, "type %u index %u", type, index);
        return AQ_RC_ENOENT;
    }
    old = g_hash_table_lookup(s->rules, GUINT_TO_POINTER(index));
    if (op == RULE_REMOVE) {
        g_hash_table_remove(s->rules, GUINT_TO_POINTER(index));
    } else if (op == RULE_UPDATE && (type == RULE_T_LKUP_RX || type == RULE_T_LKUP_TX) &&
               ld16(r + LKUP_HDR_LEN) == 0 && is_lookup(old)) {
        /* ice_update_pkt_fwd_rule sends a lookup rule without its header: the lookup stays as
         * it was and the rule forwards by the new action (to a VSI list, or back to one VSI). */
        rule = g_malloc(sizeof(*rule) + old->len);
        rule->type = old->type;
        rule->len = old->len;
        memcpy(rule->data, old->data, old->len);
        st32(rule->data + LKUP_ACT, ld32(r + LKUP_ACT));
        st16(rule->data + LKUP_SRC, ld16(r + LKUP_SRC));
        g_hash_table_replace(s->rules, GUINT_TO_POINTER(index), rule);
        emu_trace(&d->host, TR_FW_RULE_ACTION, "index %u: action 0x%08x, lookup kept", index,
                  ld32(r + LKUP_ACT));
    } else {
        rule = g_malloc(sizeof(*rule) + size);
        rule->type = type;
        rule->len = size;
        memcpy(rule->data, r, size);
        g_hash_table_replace(s->rules, GUINT_TO_POINTER(index), rule);
    }
    st16(r + RULE_STATUS, 0);
    emu_trace(&d->host, TR_FW_RULE, "%s type %u index %u",
              op == RULE_ADD ? "add" : op == RULE_UPDATE ? "update" : "remove", type,
              index & 0xffff);
    return AQ_RC_OK;
}

static uint16_t sw_rules(IrdmaDev *d, AqCmd *c, RuleOp op)
{
    unsigned num = ld16(c->params + RULES_NUM);
    unsigned off = 0;

    if (num == 0) {
        return AQ_RC_EINVAL;
    }
    for (unsigned i = 0; i < num; i++) {
        unsigned size = rule_size(c->buf + off, c->buf_len - off);
        uint16_t rc;

        if (!size) {
            emu_trace(&d->host, TR_ERR_FW_RULE_MALFORMED,
                      "rule %u of %u at offset %u", i, num, off);
            return AQ_RC_EINVAL;
        }
        rc = apply_rule(d, op, c->buf + off, size);
        if (rc != AQ_RC_OK) {
            return rc;
        }
        off += size;
    }
    c->resp_len = off;
    return AQ_RC_OK;
}

static uint16_t fw_add_sw_rules(IrdmaDev *d, AqCmd *c)
{
    return sw_rules(d, c, RULE_ADD);
}

static uint16_t fw_update_sw_rules(IrdmaDev *d, AqCmd *c)
{
    return sw_rules(d, c, RULE_UPDATE);
}

static uint16_t fw_remove_sw_rules(IrdmaDev *d, AqCmd *c)
{
    return sw_rules(d, c, RULE_REMOVE);
}

/* ---- 0x0B02-0x0B05 ---- */

static FwVsi *rss_vsi(IrdmaDev *d, AqCmd *c)
{
    unsigned id = ld16(c->params + RSS_VSI_ID);
    unsigned n = id & RSS_VSI_ID_M;

    if (!(id & RSS_VSI_VALID) || n >= FW_NUM_VSI || !d->sw->vsi[n]) {
        emu_trace(&d->host, TR_ERR_FW_RSS_BAD_VSI, "vsi_id 0x%04x", id);
        return NULL;
    }
    return d->sw->vsi[n];
}

static uint16_t fw_set_rss_key(IrdmaDev *d, AqCmd *c)
{
    FwVsi *v = rss_vsi(d, c);

    if (!v) {
        return AQ_RC_EINVAL;
    }
    memcpy(v->rss_key, c->buf, RSS_KEY_SIZE);
    return AQ_RC_OK;
}

static uint16_t fw_get_rss_key(IrdmaDev *d, AqCmd *c)
{
    FwVsi *v = rss_vsi(d, c);

    if (!v) {
        return AQ_RC_EINVAL;
    }
    memcpy(c->buf, v->rss_key, RSS_KEY_SIZE);
    c->resp_len = RSS_KEY_SIZE;
    return AQ_RC_OK;
}

/* Size flag codes: 0 = 128 (ICE_AQC_LUT_SIZE_SMALL: 64 for a VSI table), 1 = 512, 2 = 2K. */
static const unsigned lut_sizes[] = { 128, 512, 2048 };
/* A VSI's own table: 16 VSIQF_HLUT registers of 4 entries (ICE_VSIQF_HLUT_ARRAY_SIZE). */
#define RSS_VSI_LUT_SIZE            64

/*
 * The table a LUT command addresses and its size, checked against the buffer. The PF table
 * is programmed at any of the three sizes (as PFQF_HLUT_SIZE allows): ice 6.1 sets it at the
 * size the RSS capability reports, ice 6.12 on always at 2K. A get of the PF table returns it
 * at the size it was set to, FW_RSS_LUT_SIZE before any set: ice 6.1 sends no size flag with
 * that get, ice 6.12 the 2K one.
 */
static uint8_t *rss_lut(IrdmaDev *d, AqCmd *c, uint16_t *size, bool set)
{
    FwSwitch *s = d->sw;
    unsigned flags = ld16(c->params + RSS_LUT_FLAGS);
    unsigned type = flags & RSS_LUT_TYPE_M;
    unsigned size_code = emu_field_get(flags, RSS_LUT_SIZE_M);
    FwVsi *v = rss_vsi(d, c);
    unsigned want;

    if (!v || size_code >= G_N_ELEMENTS(lut_sizes) ||
        (type != RSS_LUT_TYPE_VSI && type != RSS_LUT_TYPE_PF) ||
        (type == RSS_LUT_TYPE_VSI && size_code != 0)) {
        emu_trace(&d->host, TR_ERR_FW_RSS_BAD_LUT, "flags 0x%04x datalen %u", flags, c->buf_len);
        return NULL;
    }
    want = type == RSS_LUT_TYPE_VSI ? RSS_VSI_LUT_SIZE : lut_sizes[size_code];
    if (type == RSS_LUT_TYPE_PF && !set) {
        want = s->pf_lut_size ? s->pf_lut_size : FW_RSS_LUT_SIZE;
    }
    if (c->buf_len < want) {
        emu_trace(&d->host, TR_ERR_FW_RSS_BAD_LUT, "flags 0x%04x datalen %u < %u", flags,
                  c->buf_len, want);
        return NULL;
    }
    *size = want;
    if (type == RSS_LUT_TYPE_PF) {
        if (set) {
            s->pf_lut_size = want;
            emu_trace(&d->host, TR_FW_RSS_PF_LUT, "set at %u entries", want);
        }
        return s->pf_lut;
    }
    if (set && !v->rss_lut) {
        v->rss_lut = g_malloc0(*size);
        v->rss_lut_size = *size;
    }
    return v->rss_lut;
}

static uint16_t fw_set_rss_lut(IrdmaDev *d, AqCmd *c)
{
    uint16_t size;
    uint8_t *lut = rss_lut(d, c, &size, true);

    if (!lut) {
        return AQ_RC_EINVAL;
    }
    memcpy(lut, c->buf, size);
    return AQ_RC_OK;
}

static uint16_t fw_get_rss_lut(IrdmaDev *d, AqCmd *c)
{
    uint16_t size;
    uint8_t *lut = rss_lut(d, c, &size, false);

    if (!lut) {
        return AQ_RC_EINVAL;
    }
    memcpy(c->buf, lut, size);
    c->resp_len = size;
    return AQ_RC_OK;
}

static const AqOpcode switch_ops[] = {
    { AQC_GET_SW_CFG, "get_sw_cfg", fw_get_sw_cfg, AQ_BUF_OUT, 0 },
    { AQC_SET_PORT_PARAMS, "set_port_params", fw_set_port_params, AQ_BUF_NONE, 0 },
    { AQC_ALLOC_RES, "alloc_res", fw_alloc_res, AQ_BUF_INOUT, RES_ELEM_IDS + 2 },
    { AQC_FREE_RES, "free_res", fw_free_res, AQ_BUF_IN, RES_ELEM_IDS + 2 },
    { AQC_SET_VLAN_MODE, "set_vlan_mode", fw_set_vlan_mode, AQ_BUF_IN, VLAN_MODE_BUF_SIZE },
    { AQC_GET_VLAN_MODE, "get_vlan_mode", fw_get_vlan_mode, AQ_BUF_OUT, VLAN_MODE_BUF_SIZE },
    { AQC_ADD_VSI, "add_vsi", fw_add_vsi, AQ_BUF_IN, FW_VSI_PROPS_SIZE },
    { AQC_UPDATE_VSI, "update_vsi", fw_update_vsi, AQ_BUF_IN, FW_VSI_PROPS_SIZE },
    { AQC_FREE_VSI, "free_vsi", fw_free_vsi, AQ_BUF_NONE, 0 },
    { AQC_ADD_SW_RULES, "add_sw_rules", fw_add_sw_rules, AQ_BUF_INOUT, 8 },
    { AQC_UPDATE_SW_RULES, "update_sw_rules", fw_update_sw_rules, AQ_BUF_INOUT, 8 },
    { AQC_REMOVE_SW_RULES, "remove_sw_rules", fw_remove_sw_rules, AQ_BUF_INOUT, 8 },
    { AQC_SET_RSS_KEY, "set_rss_key", fw_set_rss_key, AQ_BUF_IN, RSS_KEY_SIZE },
    { AQC_SET_RSS_LUT, "set_rss_lut", fw_set_rss_lut, AQ_BUF_IN, RSS_VSI_LUT_SIZE },
    { AQC_GET_RSS_KEY, "get_rss_key", fw_get_rss_key, AQ_BUF_OUT, RSS_KEY_SIZE },
    { AQC_GET_RSS_LUT, "get_rss_lut", fw_get_rss_lut, AQ_BUF_OUT, RSS_VSI_LUT_SIZE },
};

const AqOpcodeTable fw_switch_opcodes = { switch_ops, G_N_ELEMENTS(switch_ops) };

FwSwitch *fw_switch_new(IrdmaDev *d)
{
    FwSwitch *s = g_new0(FwSwitch, 1);

    s->d = d;
    for (size_t i = 0; i < G_N_ELEMENTS(res_pools); i++) {
        s->res[i] = g_hash_table_new(g_direct_hash, g_direct_equal);
    }
    s->rules = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    return s;
}

void fw_switch_pf_reset(FwSwitch *s)
{
    for (unsigned i = 0; i < FW_NUM_VSI; i++) {
        vsi_free(s->vsi[i]);
        s->vsi[i] = NULL;
    }
    s->num_vsi = 0;
    for (size_t i = 0; i < G_N_ELEMENTS(res_pools); i++) {
        g_hash_table_remove_all(s->res[i]);
    }
    g_hash_table_remove_all(s->rules);
    s->next_rule_index = 0;
    s->port_flags = 0;
    s->local_fwd_mode = LOCAL_FWD_MODE_ENABLED;
    s->vlan_prio_tagging = 0;
    s->pf_lut_size = 0;
}

void fw_switch_free(FwSwitch *s)
{
    fw_switch_pf_reset(s);
    for (size_t i = 0; i < G_N_ELEMENTS(res_pools); i++) {
        g_hash_table_destroy(s->res[i]);
    }
    g_hash_table_destroy(s->rules);
    g_free(s);
}

/* The VSIs a forwarding action names: one, or every member of a VSI list (the switch
 * replicates the frame to each, as it does a broadcast two VSIs subscribed to); at most @max,
 * returns how many. */
static unsigned action_vsis(FwSwitch *s, uint32_t act, unsigned *vsis, unsigned max)
{
    unsigned id = emu_field_get(act, ACT_VSI_ID_M), n = 0, num;
    const FwRule *list;

    if ((act & ACT_DROP) || (act & ACT_TYPE_M) != ACT_TYPE_VSI_FORWARDING || max == 0) {
        return 0;
    }
    if (!(act & ACT_VSI_LIST)) {
        if (id >= FW_NUM_VSI || !s->vsi[id]) {
            return 0;
        }
        vsis[0] = id;
        return 1;
    }
    list = g_hash_table_lookup(s->rules, GUINT_TO_POINTER(id | LIST_RULE_KEY));
    if (!list || list->len < LIST_VSI) {
        return 0;
    }
    num = MIN(ld16(list->data + LIST_NUM_VSI), (list->len - LIST_VSI) / 2u);
    for (unsigned i = 0; i < num && n < max; i++) {
        unsigned v = ld16(list->data + LIST_VSI + 2 * i);

        if (v < FW_NUM_VSI && s->vsi[v]) {
            vsis[n++] = v;
        }
    }
    return n;
}

/* Does lookup rule @r steer @frame to a VSI? ice installs its MAC filters as Tx-direction
 * rules forwarding to the VSI that owns the address (ICE_FLTR_TX), and the switch delivers
 * frames from the wire by the same address, so both directions count. Exact matches
 * (@exact) and catch-alls are two passes. */
static bool rule_matches(const FwRule *r, const uint8_t *frame, size_t len, bool exact)
{
    unsigned recipe, hdr_len;
    const uint8_t *hdr;

    if ((r->type != RULE_T_LKUP_RX && r->type != RULE_T_LKUP_TX) || r->len < LKUP_HDR_DATA) {
        return false;
    }
    recipe = ld16(r->data + LKUP_RECIPE);
    hdr_len = ld16(r->data + LKUP_HDR_LEN);
    hdr = r->data + LKUP_HDR_DATA;
    switch (recipe) {
    case LKUP_T_MAC:
        return exact && hdr_len >= 6 && !memcmp(hdr, frame, 6);
    case LKUP_T_MAC_VLAN:
        return exact && hdr_len >= 16 && len >= 16 && !memcmp(hdr, frame, 6) &&
               frame[12] == 0x81 && frame[13] == 0x00 &&
               ((get_be16(frame + 14) ^ get_be16(hdr + 14)) & 0x0fff) == 0;
    case LKUP_T_ETHERTYPE:
        return exact && hdr_len >= 14 && hdr[12] == frame[12] && hdr[13] == frame[13];
    case LKUP_T_PROMISC:
    case LKUP_T_DFLT:
        return !exact;
    default:
        return false;
    }
}

unsigned fw_switch_rx_lookup(FwSwitch *s, const uint8_t *frame, size_t len, unsigned *vsis,
                             unsigned max)
{
    for (int exact = 1; exact >= 0; exact--) {
        GHashTableIter it;
        gpointer v;

        g_hash_table_iter_init(&it, s->rules);
        while (g_hash_table_iter_next(&it, NULL, &v)) {
            const FwRule *r = v;

            if (rule_matches(r, frame, len, exact)) {
                return action_vsis(s, ld32(r->data + LKUP_ACT), vsis, max);
            }
        }
    }
    return 0;
}

#define VSI_Q_OPT_RSS               78
#define VSI_Q_OPT_RSS_LUT_M         0x03
#define VSI_Q_OPT_RSS_LUT_VSI       0x0
#define VSI_Q_OPT_RSS_LUT_PF        0x2

bool fw_switch_vsi_rss(FwSwitch *s, unsigned vsi, const uint8_t **key, const uint8_t **lut,
                       unsigned *lut_size)
{
    FwVsi *v = vsi < FW_NUM_VSI ? s->vsi[vsi] : NULL;
    unsigned type;

    if (!v) {
        return false;
    }
    type = v->props[VSI_Q_OPT_RSS] & VSI_Q_OPT_RSS_LUT_M;
    *key = v->rss_key;
    if (type == VSI_Q_OPT_RSS_LUT_PF && s->pf_lut_size) {
        *lut = s->pf_lut;
        *lut_size = s->pf_lut_size;
        return true;
    }
    if (type == VSI_Q_OPT_RSS_LUT_VSI && v->rss_lut) {
        *lut = v->rss_lut;
        *lut_size = v->rss_lut_size;
        return true;
    }
    return false;
}

const uint8_t *fw_switch_vsi_props(FwSwitch *s, unsigned vsi_num)
{
    return vsi_num < FW_NUM_VSI && s->vsi[vsi_num] ? s->vsi[vsi_num]->props : NULL;
}

unsigned fw_switch_vsi_count(FwSwitch *s)
{
    return s->num_vsi;
}

unsigned fw_switch_rule_count(FwSwitch *s)
{
    return g_hash_table_size(s->rules);
}
