/* lan_util.c - the LAN bring-up of ice's probe and ndo_open, and its data path (lan_util.h). */
#include <check.h>
#include <string.h>
#include "lan_util.h"
#include "emu/core/e810_regs.h"
#include "emu/core/le.h"
#include "tools/ddp_gen.h"

/* 0x0C40 download_pkg: flags, last buffer. */
#define DL_FLAGS            0
#define DL_LAST_BUF         0x01
/* A buffer's first section entry type; ICE_METADATA_BUF (ice_flex_type.h). */
#define BUF_SECT0_TYPE      4
#define METADATA_BUF        0x80000000u

/* 0x0412 / 0x0400 / 0x0401 / 0x0404 / 0x040F (ice_adminq_cmd.h) */
#define SCHED_NUM_REQ       0
#define SCHED_NUM_RESP      2
#define SCHED_LAYERS        9
#define QRES_BUF            (32 + SCHED_LAYERS * 32)
#define QRES_LOGICAL_LEVELS 2
#define TOPO_BUF            4096
#define TOPO_NUM_BRANCHES   1
#define TOPO_NUM_ELEMS      4
#define TOPO_ELEMS          8
#define GRP_PARENT          0
#define GRP_NUM_ELEMS       4
#define GRP_HDR             8
#define ELEMD_SIZE          24
#define ELEMD_PARENT        0
#define ELEMD_TEID          4
#define ELEMD_DATA          8
#define ELEM_TYPE           0
#define ELEM_VALID          1
#define ELEM_CIR_PROF       4
#define ELEM_CIR_BW         6
#define ELEM_EIR_PROF       8
#define ELEM_EIR_BW         10
#define ELEM_INFO_SIZE      16
#define ELEM_TYPE_SE        3
#define ELEM_TYPE_ENTRY     4
#define ELEM_VALID_GCE      0x07    /* generic, CIR, EIR */
#define DFLT_BW             4       /* ICE_SCHED_DFLT_BW_WT */

/* 0x0C30 add_txqs: one group header, then ice_aqc_add_txqs_perq. */
#define TXQS_NUM_GRPS       0
#define TXQ_GRP_PARENT      0
#define TXQ_GRP_NUM         4
#define TXQ_GRP_HDR         8
#define TXQ_ID              0
#define TXQ_TEID            4
#define TXQ_CTX             8
#define TXQ_CTX_SIZE        22
#define TXQ_INFO            32
#define TXQ_SIZE            48

/* ice_tlan_ctx_info / ice_rlan_ctx_info (ice_common.c): { lsb, width } */
#define TLAN_BASE           0, 57
#define TLAN_PF_NUM         65, 3
#define TLAN_VMVF_TYPE      78, 2
#define TLAN_SRC_VSI        80, 10
#define TLAN_QNUM_IN_FUNC   114, 14
#define TLAN_QLEN           135, 13
#define TLAN_VMVF_TYPE_PF   2
#define RLAN_BASE           32, 57
#define RLAN_QLEN           89, 13
#define RLAN_DBUF           102, 7
#define RLAN_DSIZE          116, 1          /* 1: 32-byte descriptors */
#define RLAN_CRCSTRIP       117, 1
#define RLAN_L2TSEL         119, 1
#define RLAN_RXMAX          174, 14
#define RLAN_LRXQTHRESH     198, 3
#define RLAN_PREFENA        201, 1
#define RLAN_CTX_BYTES      (QRX_CONTEXT_DWORDS * 4)
#define QUEUE_BASE_UNIT     128             /* ICE_QUEUE_BASE_ADDR_S, ICE_RLAN_BASE_S */
#define DBUF_UNIT           128             /* ICE_RLAN_CTX_DBUF_S */
#define ETH_PKT_HDR_PAD     (14 + 4 + 2 * 4)    /* ICE_ETH_PKT_HDR_PAD */

/* 0x0210 add_vsi params and ice_aqc_vsi_props */
#define VSI_PARAM_FLAGS     6
#define VSI_TYPE_PF         0x2
#define VSI_RESP_NUM        0
#define VSI_PROPS_SIZE      128
#define VSI_VALID_SECTIONS  0
#define VSI_SECT_SW         0x0001
#define VSI_SECT_VLAN       0x0004
#define VSI_SECT_RXQ_MAP    0x0040
#define VSI_SECT_Q_OPT      0x0080
#define VSI_SW_FLAGS2       4
#define VSI_SW_LAN_ENA      0x60            /* ICE_AQ_VSI_SW_FLAG_LAN_ENA */
#define VSI_INNER_VLAN      12
#define VSI_VLAN_TX_ALL     0x03            /* EMODE 0: strip both */
#define VSI_Q_MAPPING       30              /* [0] first queue, [1] count */
#define VSI_TC_MAPPING      62              /* [0] for TC 0: offset 0, 2^0 queues */
#define VSI_Q_OPT_RSS       78
#define VSI_RSS_LUT_PF      0x02
#define VSI_Q_OPT_FLAGS     80
#define VSI_PE_FLTR_EN      0x01

/* 0x0B02 / 0x0B03 */
#define RSS_VSI_ID          0
#define RSS_VSI_VALID       0x8000
#define RSS_KEY_SIZE        52
#define RSS_LUT_FLAGS       2
#define RSS_LUT_TYPE_PF     0x1
#define RSS_LUT_SIZE_512    (1u << 2)
#define RSS_LUT_PF_SIZE     512

/* 0x02A0 lookup rule (ice_aqc_sw_rules_elem) and its single action */
#define RULES_NUM           0
#define RULE_TYPE_LKUP_TX   0x1
#define RULE_TYPE           0
#define RULE_RECIPE         4
#define RULE_SRC            6
#define RULE_ACT            8
#define RULE_HDR_LEN        14
#define RULE_HDR            16
#define RECIPE_MAC          1
#define DUMMY_ETH_HDR_LEN   16
#define ACT_VSI_ID_S        4
#define ACT_LAN_ENABLE      (1u << 15)
#define ACT_LB_ENABLE       (1u << 16)
#define ACT_VALID           (1u << 17)
#define MAX_RULE_SIZE       (RULE_HDR + DUMMY_ETH_HDR_LEN)

/* QINT_[TR]QCTL.ITR_INDX, and the ITRs ice assigns (ICE_RX_ITR, ICE_TX_ITR) */
#define QINT_ITR_INDX_S     11
#define RX_ITR              0
#define TX_ITR              1

static const uint8_t broadcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

LantPort lan_port;

void lant_setup(void)
{
    h = fake_host_new(LANT_MEM_SIZE);
    d = fake_dev_new(h);
    aqt_init(h, d);
    lant_probe(&lan_port);
}

/* ice_set_ctx: @v into the field at @lsb of @width bits of a packed little-endian context. */
static void st_bits(uint8_t *ctx, unsigned lsb, unsigned width, uint64_t v)
{
    for (unsigned i = 0; i < width; i++) {
        unsigned b = lsb + i;

        ctx[b / 8] = (ctx[b / 8] & ~(1u << (b % 8))) | (((v >> i) & 1) << (b % 8));
    }
}

static void send_ok(uint16_t opcode, const uint8_t *params, void *buf, uint16_t len,
                    AqtResp *r)
{
    ck_assert_uint_eq(aqt_send(h, d, opcode, len ? AQ_FLAG_RD : 0, params, buf, len, r),
                      AQ_RC_OK);
}

void lant_download_pkg(void)
{
    DdpGenSpec spec;
    size_t len;
    g_autofree uint8_t *pkg = NULL;
    const uint8_t *bufs;
    unsigned n, cfg = 0;

    ddp_gen_spec_default(&spec);
    spec.download = true;
    pkg = ddp_gen_build(&spec, &len);
    bufs = ddp_gen_bufs(pkg, &n);
    /* ice_dwnld_cfg_bufs: configuration buffers, up to the first metadata buffer. */
    while (cfg < n && !(ld32(bufs + cfg * DDP_BUF_SIZE + BUF_SECT0_TYPE) & METADATA_BUF)) {
        cfg++;
    }
    ck_assert_uint_ge(cfg, 1);
    for (unsigned i = 0; i < cfg; i++) {
        uint8_t params[AQ_PARAMS_SIZE] = { 0 }, buf[DDP_BUF_SIZE];

        memcpy(buf, bufs + i * DDP_BUF_SIZE, DDP_BUF_SIZE);
        params[DL_FLAGS] = i + 1 == cfg ? DL_LAST_BUF : 0;
        send_ok(AQC_DOWNLOAD_PKG, params, buf, DDP_BUF_SIZE, NULL);
    }
}

void lant_elem_info_dflt(uint8_t *info)
{
    memset(info, 0, ELEM_INFO_SIZE);
    info[ELEM_TYPE] = ELEM_TYPE_SE;
    info[ELEM_VALID] = ELEM_VALID_GCE;
    st16(info + ELEM_CIR_PROF, 0);
    st16(info + ELEM_CIR_BW, DFLT_BW);
    st16(info + ELEM_EIR_PROF, 0);
    st16(info + ELEM_EIR_BW, DFLT_BW);
}

/* ice_sched_query_elem: 0x0404 of one node; its parent, its type in *@type. */
static uint32_t query_parent(uint32_t teid, uint8_t *type)
{
    uint8_t p[AQ_PARAMS_SIZE] = { 0 }, buf[ELEMD_SIZE] = { 0 };
    AqtResp r;

    st16(p + SCHED_NUM_REQ, 1);
    st32(buf + ELEMD_TEID, teid);
    send_ok(AQC_GET_SCHED_ELEMS, p, buf, sizeof(buf), &r);
    ck_assert_uint_eq(ld16(r.params + SCHED_NUM_RESP), 1);
    ck_assert_uint_eq(ld32(buf + ELEMD_TEID), teid);
    *type = buf[ELEMD_DATA + ELEM_TYPE];
    return ld32(buf + ELEMD_PARENT);
}

/* 0x0401 of one node under @parent, queried back as ice_sched_add_node does. */
static uint32_t add_node(uint32_t parent)
{
    uint8_t p[AQ_PARAMS_SIZE] = { 0 }, buf[GRP_HDR + ELEMD_SIZE] = { 0 };
    AqtResp r;
    uint32_t teid;
    uint8_t type;

    st16(p + SCHED_NUM_REQ, 1);
    st32(buf + GRP_PARENT, parent);
    st16(buf + GRP_NUM_ELEMS, 1);
    st32(buf + GRP_HDR + ELEMD_PARENT, parent);
    lant_elem_info_dflt(buf + GRP_HDR + ELEMD_DATA);
    send_ok(AQC_ADD_SCHED_ELEMS, p, buf, sizeof(buf), &r);
    ck_assert_uint_eq(ld16(r.params + SCHED_NUM_RESP), 1);
    teid = ld32(buf + GRP_HDR + ELEMD_TEID);
    ck_assert_uint_eq(query_parent(teid, &type), parent);
    ck_assert_uint_eq(type, ELEM_TYPE_SE);
    return teid;
}

void lant_sched_branch(LantBranch *b)
{
    static uint8_t topo[TOPO_BUF];
    uint8_t res[QRES_BUF], p[AQ_PARAMS_SIZE] = { 0 }, del[GRP_HDR + 4] = { 0 };
    unsigned num, entry = 0;
    AqtResp r;

    send_ok(AQC_QUERY_SCHED_RES, NULL, res, sizeof(res), NULL);
    ck_assert_uint_eq(ld16(res + QRES_LOGICAL_LEVELS), SCHED_LAYERS);
    send_ok(AQC_GET_DFLT_TOPO, NULL, topo, sizeof(topo), &r);
    ck_assert_uint_eq(r.params[TOPO_NUM_BRANCHES], 1);
    num = ld16(topo + TOPO_NUM_ELEMS);
    ck_assert_uint_ge(num, 3);
    ck_assert_uint_le(num, SCHED_LAYERS);
    for (unsigned j = 1; j < num; j++) {
        const uint8_t *e = topo + TOPO_ELEMS + j * ELEMD_SIZE;
        uint8_t type;

        if (e[ELEMD_DATA + ELEM_TYPE] == ELEM_TYPE_ENTRY) {
            entry = j;
        }
        ck_assert_uint_eq(query_parent(ld32(e + ELEMD_TEID), &type),
                          ld32(e - ELEMD_SIZE + ELEMD_TEID));
        ck_assert_uint_eq(type, e[ELEMD_DATA + ELEM_TYPE]);
    }
    ck_assert_uint_ge(entry, 1);
    b->root = ld32(topo + TOPO_ELEMS + ELEMD_TEID);
    b->tc0 = ld32(topo + TOPO_ELEMS + ELEMD_SIZE + ELEMD_TEID);

    /* ice_sched_rm_dflt_nodes: the entry point goes; the VSI's nodes take its layer. */
    st16(p + SCHED_NUM_REQ, 1);
    st32(del + GRP_PARENT, ld32(topo + TOPO_ELEMS + (entry - 1) * ELEMD_SIZE + ELEMD_TEID));
    st16(del + GRP_NUM_ELEMS, 1);
    st32(del + GRP_HDR, ld32(topo + TOPO_ELEMS + entry * ELEMD_SIZE + ELEMD_TEID));
    send_ok(AQC_DELETE_SCHED_ELEMS, p, del, sizeof(del), NULL);
    b->l[0] = b->root;
    b->l[1] = b->tc0;
    for (unsigned l = 2; l < G_N_ELEMENTS(b->l); l++) {
        b->l[l] = add_node(b->l[l - 1]);
    }
}

uint16_t lant_add_txq(uint32_t parent, uint16_t txq, const uint8_t ctx[TXQ_CTX_SIZE],
                      uint32_t *teid)
{
    uint8_t p[AQ_PARAMS_SIZE] = { 0 }, buf[TXQ_GRP_HDR + TXQ_SIZE] = { 0 };
    uint8_t *q = buf + TXQ_GRP_HDR;
    uint16_t rc;

    p[TXQS_NUM_GRPS] = 1;
    st32(buf + TXQ_GRP_PARENT, parent);
    buf[TXQ_GRP_NUM] = 1;
    st16(q + TXQ_ID, txq);
    memcpy(q + TXQ_CTX, ctx, TXQ_CTX_SIZE);
    lant_elem_info_dflt(q + TXQ_INFO);
    q[TXQ_INFO + ELEM_TYPE] = 0;       /* reserved here */
    rc = aqt_send(h, d, AQC_ADD_TXQS, AQ_FLAG_RD, p, buf, sizeof(buf), NULL);
    /* The firmware writes the TEID beside the queue id, which it leaves alone. */
    ck_assert_uint_eq(ld16(q + TXQ_ID), txq);
    if (teid) {
        *teid = ld32(q + TXQ_TEID);
    }
    return rc;
}

unsigned lant_mac_rule(uint8_t *rule, uint16_t type, const uint8_t mac[6], unsigned vsi)
{
    memset(rule, 0, MAX_RULE_SIZE);
    st16(rule + RULE_TYPE, type);
    st16(rule + RULE_RECIPE, RECIPE_MAC);
    st16(rule + RULE_SRC, vsi);
    st32(rule + RULE_ACT, vsi << ACT_VSI_ID_S | ACT_LAN_ENABLE | ACT_LB_ENABLE | ACT_VALID);
    st16(rule + RULE_HDR_LEN, DUMMY_ETH_HDR_LEN);
    memcpy(rule + RULE_HDR, mac, 6);
    return MAX_RULE_SIZE;
}

/* ice_vsi_init (add_vsi) and ice_vsi_cfg_rss_lut_key: one queue pair on TC 0, VLAN tags
 * stripped, the PF's LUT, RDMA frames passed to the RDMA engine. */
static unsigned add_vsi(void)
{
    uint8_t p[AQ_PARAMS_SIZE] = { 0 }, props[VSI_PROPS_SIZE] = { 0 };
    uint8_t key[RSS_KEY_SIZE], lut[RSS_LUT_PF_SIZE] = { 0 };
    AqtResp r;
    unsigned vsi;

    st16(props + VSI_VALID_SECTIONS,
         VSI_SECT_SW | VSI_SECT_VLAN | VSI_SECT_RXQ_MAP | VSI_SECT_Q_OPT);
    props[VSI_SW_FLAGS2] = VSI_SW_LAN_ENA;
    props[VSI_INNER_VLAN] = VSI_VLAN_TX_ALL;
    st16(props + VSI_Q_MAPPING, LANT_RXQ);
    st16(props + VSI_Q_MAPPING + 2, 1);
    st16(props + VSI_TC_MAPPING, 0);
    props[VSI_Q_OPT_RSS] = VSI_RSS_LUT_PF;
    props[VSI_Q_OPT_FLAGS] = VSI_PE_FLTR_EN;
    st16(p + VSI_PARAM_FLAGS, VSI_TYPE_PF);
    send_ok(AQC_ADD_VSI, p, props, sizeof(props), &r);
    vsi = ld16(r.params + VSI_RESP_NUM);

    memset(p, 0, sizeof(p));
    st16(p + RSS_VSI_ID, vsi | RSS_VSI_VALID);
    for (unsigned i = 0; i < sizeof(key); i++) {
        key[i] = 0x6d + 3 * i;          /* netdev_rss_key_fill: any bytes */
    }
    send_ok(AQC_SET_RSS_KEY, p, key, sizeof(key), NULL);
    st16(p + RSS_LUT_FLAGS, RSS_LUT_TYPE_PF | RSS_LUT_SIZE_512);
    send_ok(AQC_SET_RSS_LUT, p, lut, sizeof(lut), NULL);
    return vsi;
}

/* ice_vsi_add_vlan_zero / ice_fltr_add_mac: the port's MAC and broadcast, one command. */
static void add_mac_filters(unsigned vsi)
{
    uint8_t p[AQ_PARAMS_SIZE] = { 0 }, rules[2 * MAX_RULE_SIZE];
    unsigned len;

    len = lant_mac_rule(rules, RULE_TYPE_LKUP_TX, d->cfg.mac, vsi);
    len += lant_mac_rule(rules + len, RULE_TYPE_LKUP_TX, broadcast, vsi);
    st16(p + RULES_NUM, 2);
    send_ok(AQC_ADD_SW_RULES, p, rules, len, NULL);
}

/* ice_vsi_cfg_txq / ice_setup_tx_ctx: the ring, the PF and the VSI. */
static uint32_t add_tx_queue(const LantPort *port)
{
    uint8_t ctx[TXQ_CTX_SIZE] = { 0 };
    uint32_t teid;

    st_bits(ctx, TLAN_BASE, LANT_TX_RING / QUEUE_BASE_UNIT);
    st_bits(ctx, TLAN_PF_NUM, 0);
    st_bits(ctx, TLAN_VMVF_TYPE, TLAN_VMVF_TYPE_PF);
    st_bits(ctx, TLAN_SRC_VSI, port->vsi);
    st_bits(ctx, TLAN_QNUM_IN_FUNC, LANT_TXQ);
    st_bits(ctx, TLAN_QLEN, LANT_RING_LEN);
    ck_assert_uint_eq(lant_add_txq(port->branch.l[7], LANT_TXQ, ctx, &teid), AQ_RC_OK);
    return teid;
}

/* ice_setup_rx_ctx + ice_alloc_rx_bufs + ice_vsi_ctrl_one_rx_ring: the context through
 * QRX_CONTEXT, every descriptor but one posted, then the enable. */
static void add_rx_queue(LantPort *port)
{
    uint8_t ctx[RLAN_CTX_BYTES] = { 0 };

    st_bits(ctx, RLAN_BASE, LANT_RX_RING / QUEUE_BASE_UNIT);
    st_bits(ctx, RLAN_QLEN, LANT_RING_LEN);
    st_bits(ctx, RLAN_DBUF, LANT_RX_BUF_SIZE / DBUF_UNIT);
    st_bits(ctx, RLAN_DSIZE, 1);
    st_bits(ctx, RLAN_CRCSTRIP, 1);
    st_bits(ctx, RLAN_L2TSEL, 1);
    st_bits(ctx, RLAN_RXMAX, LANT_MTU + ETH_PKT_HDR_PAD);
    st_bits(ctx, RLAN_LRXQTHRESH, 1);
    st_bits(ctx, RLAN_PREFENA, 1);
    for (unsigned i = 0; i < QRX_CONTEXT_DWORDS; i++) {
        irdma_dev_mmio_write(d, QRX_CONTEXT(i, LANT_RXQ), ld32(ctx + 4 * i));
    }
    port->rx_tail = 0;
    for (unsigned i = 0; i + 1 < LANT_RING_LEN; i++) {
        lant_rx_post(port, LANT_RX_BUF + (uint64_t)i * LANT_RX_BUF_SIZE, i + 2 == LANT_RING_LEN);
    }
    irdma_dev_mmio_write(d, QRX_CTRL(LANT_RXQ), QRX_CTRL_QENA_REQ_M);
    ck_assert(irdma_dev_mmio_read(d, QRX_CTRL(LANT_RXQ)) & QRX_CTRL_QENA_STAT_M);
}

void lant_probe(LantPort *p)
{
    /* MSIX_INDX is the field's low bits; the ITR index is ice's per direction. */
    uint32_t rqctl = PFINT_CTL_CAUSE_ENA_M | LANT_MSIX | RX_ITR << QINT_ITR_INDX_S;
    uint32_t tqctl = PFINT_CTL_CAUSE_ENA_M | LANT_MSIX | TX_ITR << QINT_ITR_INDX_S;

    memset(p, 0, sizeof(*p));
    lant_download_pkg();
    lant_sched_branch(&p->branch);
    p->vsi = add_vsi();
    add_mac_filters(p->vsi);
    p->txq_teid = add_tx_queue(p);
    add_rx_queue(p);
    /* ice_cfg_txq_interrupt / ice_cfg_rxq_interrupt, and the vector enabled. */
    irdma_dev_mmio_write(d, QINT_TQCTL(LANT_TXQ), tqctl);
    irdma_dev_mmio_write(d, QINT_RQCTL(LANT_RXQ), rqctl);
    irdma_dev_mmio_write(d, GLINT_DYN_CTL(LANT_MSIX), GLINT_DYN_CTL_INTENA_M);
}

void lant_tx(LantPort *p, uint64_t qw0, uint64_t qw1, bool kick)
{
    uint8_t *desc = h->mem + LANT_TX_RING + p->tx_tail * LANT_TXD_SIZE;

    st64(desc, qw0);
    st64(desc + 8, qw1);
    p->tx_tail = (p->tx_tail + 1) % LANT_RING_LEN;
    if (kick) {
        irdma_dev_mmio_write(d, QTX_COMM_DBELL(LANT_TXQ), p->tx_tail);
    }
}

void lant_rx_post(LantPort *p, uint64_t buf, bool kick)
{
    uint8_t *desc = h->mem + LANT_RX_RING + p->rx_tail * LANT_RXD_SIZE;

    /* Read format: packet buffer, header buffer (unused: no split), the rest zero. */
    memset(desc, 0, LANT_RXD_SIZE);
    st64(desc, buf);
    p->rx_tail = (p->rx_tail + 1) % LANT_RING_LEN;
    if (kick) {
        irdma_dev_mmio_write(d, QRX_TAIL(LANT_RXQ), p->rx_tail);
    }
}

uint64_t lant_txd_qw1(uint16_t cmd, uint32_t offset, uint16_t size, uint16_t l2tag1)
{
    return (uint64_t)cmd << LANT_TXD_CMD_S | (uint64_t)offset << LANT_TXD_OFFSET_S |
           (uint64_t)size << LANT_TXD_BUF_SZ_S | (uint64_t)l2tag1 << LANT_TXD_L2TAG1_S;
}
