/*
 * fw/general.c - firmware basics: get_version, driver_version, queue shutdown, resource
 * ownership (NVM / change lock / global config lock), device and function capabilities,
 * manage-MAC read, clear PXE mode and clear PF configuration; the firmware's diagnostics:
 * health status event sources (0xFF20) and firmware logging (0xFF30-0xFF32).
 */
#include "fw/fw.h"
#include "fw/nvm.h"
#include "fw/sched.h"
#include "fw/pkg.h"
#include "fw/dcb.h"
#include "fw/link.h"
#include "fw/switch.h"
#include "core/le.h"
#include "core/trace.h"

/* 0x0001 get_version: response params */
#define GET_VER_ROM_VER         0
#define GET_VER_FW_BUILD        4
#define GET_VER_FW_BRANCH       8
#define GET_VER_FW_MAJOR        9
#define GET_VER_FW_MINOR        10
#define GET_VER_FW_PATCH        11
#define GET_VER_API_BRANCH      12
#define GET_VER_API_MAJOR       13
#define GET_VER_API_MINOR       14
#define GET_VER_API_PATCH       15

/* 0x0003 q_shutdown */
#define Q_SHUTDOWN_FLAGS        0
#define Q_SHUTDOWN_DRIVER_UNLOADING 0x01

/* 0x0008/0x0009 request/release resource */
#define REQ_RES_ID              0
#define REQ_RES_ACCESS          2
#define REQ_RES_TIMEOUT         4
#define REQ_RES_NUMBER          8
#define REQ_RES_STATUS          12
#define RES_ID_NVM              1
#define RES_ID_SDP              2
#define RES_ID_CHNG_LOCK        3
#define RES_ID_GLBL_LOCK        4
#define RES_ID_MAX              RES_ID_GLBL_LOCK
#define RES_ACCESS_READ         1
#define RES_ACCESS_WRITE        2
#define RES_GLBL_SUCCESS        0
#define RES_NVM_READ_TIMEOUT_MS   3000
#define RES_NVM_WRITE_TIMEOUT_MS  180000
#define RES_CHNG_LOCK_TIMEOUT_MS  1000
#define RES_GLBL_LOCK_TIMEOUT_MS  3000

/* 0x000A/0x000B list capabilities */
#define LIST_CAPS_COUNT         4
#define CAPS_ELEM_SIZE          32
#define CAPS_ELEM_CAP           0
#define CAPS_ELEM_MAJOR         2
#define CAPS_ELEM_MINOR         3
#define CAPS_ELEM_NUMBER        4
#define CAPS_ELEM_LOGICAL_ID    8
#define CAPS_ELEM_PHYS_ID       12
#define CAP_VALID_FUNCTIONS     0x0005
#define CAP_VSI                 0x0017
#define CAP_DCB                 0x0018
#define CAP_RSS                 0x0040
#define CAP_RXQS                0x0041
#define CAP_TXQS                0x0042
#define CAP_MSIX                0x0043
#define CAP_FD                  0x0045
#define CAP_MAX_MTU             0x0047
#define CAP_RDMA                0x0051
#define CAP_TX_SCHED_TOPO_COMP_MODE 0x0085

/* 0x0107 manage MAC read */
#define MAC_READ_FLAGS          0
#define MAC_READ_NUM_ADDR       4
#define MAC_READ_LAN_ADDR_VALID 0x0010
#define MAC_READ_RESP_SIZE      8
#define MAC_READ_RESP_LPORT     0
#define MAC_READ_RESP_ADDR_TYPE 1
#define MAC_READ_RESP_MAC       2
#define MAC_ADDR_TYPE_LAN       0

/* 0x0002 driver_version: params major/minor/build/subbuild, buffer = version string. */
#define DRIVER_VER_MAJOR        0
#define DRIVER_VER_STRING_MAX   32

/* 0xFF20 set_health_status_cfg: event sources (enum ice_aqc_health_status_mask) */
#define HEALTH_EVENT_SOURCE     0
#define HEALTH_SRC_PF_SPECIFIC  0x01
#define HEALTH_SRC_ALL_PF       0x02
#define HEALTH_SRC_GLOBAL       0x04
#define HEALTH_SRC_ALL          (HEALTH_SRC_PF_SPECIFIC | HEALTH_SRC_ALL_PF | HEALTH_SRC_GLOBAL)

/* 0xFF30-0xFF32 firmware logging (struct ice_aqc_fw_log / libie_aqc_fw_log) */
#define FWLOG_CMD_FLAGS         0
#define FWLOG_CONF_UART_EN      0x01
#define FWLOG_CONF_AQ_EN        0x02
#define FWLOG_QUERY_REGISTERED  0x04    /* 0xFF32 response */
#define FWLOG_CONF_SET_VALID    0x08    /* 0xFF30: the resolution and the modules apply */
#define FWLOG_AQ_REGISTER       0x01    /* 0xFF31 */
#define FWLOG_AQ_QUERY          0x04    /* 0xFF32 request */
#define FWLOG_LOG_RESOLUTION    4       /* le16 */
#define FWLOG_MDL_CNT           6       /* le16 */
#define FWLOG_MIN_RESOLUTION    1
#define FWLOG_MAX_RESOLUTION    128
#define FWLOG_DFLT_RESOLUTION   10
/* ice_aqc_fw_log_cfg_resp: one per module */
#define FWLOG_MDL_SIZE          4
#define FWLOG_MDL_ID            0       /* le16 */
#define FWLOG_MDL_LEVEL         2
/* The firmware's modules: GENERAL .. MDLVER, ICE_AQC_FW_LOG_ID_MAX of ice 6.12 and 7.3. */
#define FWLOG_NUM_MODULES       32
/* enum ice_fwlog_level: NONE, ERROR, WARNING, NORMAL, VERBOSE */
#define FWLOG_LEVEL_MAX         4

struct FwGeneral {
    IrdmaDev *d;
    bool res_held[RES_ID_MAX + 1];
    uint8_t res_access[RES_ID_MAX + 1];
    char driver_version[DRIVER_VER_STRING_MAX + 1];
    uint8_t driver_ver[4];
    /* Diagnostics, kept across PF resets: ice configures them once per load. */
    uint8_t health_sources;
    uint8_t fwlog_enables;          /* FWLOG_CONF_UART_EN | FWLOG_CONF_AQ_EN */
    bool fwlog_registered;
    uint16_t fwlog_resolution;
    uint8_t fwlog_level[FWLOG_NUM_MODULES];
};

static uint16_t fw_get_version(IrdmaDev *d, AqCmd *c)
{
    (void)d;
    st32(c->params + GET_VER_ROM_VER, FW_ROM_VER);
    st32(c->params + GET_VER_FW_BUILD, FW_VER_BUILD);
    c->params[GET_VER_FW_BRANCH] = 0;
    c->params[GET_VER_FW_MAJOR] = FW_VER_MAJOR;
    c->params[GET_VER_FW_MINOR] = FW_VER_MINOR;
    c->params[GET_VER_FW_PATCH] = FW_VER_PATCH;
    c->params[GET_VER_API_BRANCH] = 0;
    c->params[GET_VER_API_MAJOR] = FW_API_MAJOR;
    c->params[GET_VER_API_MINOR] = FW_API_MINOR;
    c->params[GET_VER_API_PATCH] = FW_API_PATCH;
    return AQ_RC_OK;
}

static uint16_t fw_driver_version(IrdmaDev *d, AqCmd *c)
{
    FwGeneral *g = d->fw;
    size_t n = MIN(c->buf_len, DRIVER_VER_STRING_MAX);

    memcpy(g->driver_ver, c->params + DRIVER_VER_MAJOR, sizeof(g->driver_ver));
    memcpy(g->driver_version, c->buf, n);
    g->driver_version[n] = '\0';
    emu_trace(&d->host, TR_FW_DRIVER_VERSION, "\"%s\"", g->driver_version);
    return AQ_RC_OK;
}

static uint16_t fw_q_shutdown(IrdmaDev *d, AqCmd *c)
{
    emu_trace(&d->host, TR_FW_Q_SHUTDOWN, "driver %s",
              (c->params[Q_SHUTDOWN_FLAGS] & Q_SHUTDOWN_DRIVER_UNLOADING) ? "unloading" : "resetting");
    return AQ_RC_OK;
}

static uint32_t res_timeout_ms(unsigned id, unsigned access)
{
    switch (id) {
    case RES_ID_NVM:
        return access == RES_ACCESS_WRITE ? RES_NVM_WRITE_TIMEOUT_MS : RES_NVM_READ_TIMEOUT_MS;
    case RES_ID_CHNG_LOCK:
        return RES_CHNG_LOCK_TIMEOUT_MS;
    default:
        return RES_GLBL_LOCK_TIMEOUT_MS;
    }
}

/* One PF: a resource is granted unless already held; a holder must release it first. */
static uint16_t fw_req_res(IrdmaDev *d, AqCmd *c)
{
    FwGeneral *g = d->fw;
    unsigned id = ld16(c->params + REQ_RES_ID);
    unsigned access = ld16(c->params + REQ_RES_ACCESS);

    if (id == 0 || id > RES_ID_MAX || id == RES_ID_SDP ||
        (access != RES_ACCESS_READ && access != RES_ACCESS_WRITE)) {
        return AQ_RC_EINVAL;
    }
    if (g->res_held[id]) {
        st32(c->params + REQ_RES_TIMEOUT, res_timeout_ms(id, g->res_access[id]));
        emu_trace(&d->host, TR_FW_RES_BUSY, "resource %u already held", id);
        return AQ_RC_EBUSY;
    }
    g->res_held[id] = true;
    g->res_access[id] = access;
    st32(c->params + REQ_RES_TIMEOUT, res_timeout_ms(id, access));
    st16(c->params + REQ_RES_STATUS, RES_GLBL_SUCCESS);
    return AQ_RC_OK;
}

static uint16_t fw_release_res(IrdmaDev *d, AqCmd *c)
{
    FwGeneral *g = d->fw;
    unsigned id = ld16(c->params + REQ_RES_ID);

    if (id == 0 || id > RES_ID_MAX || id == RES_ID_SDP) {
        return AQ_RC_EINVAL;
    }
    if (!g->res_held[id]) {
        emu_trace(&d->host, TR_ERR_FW_RES_NOT_HELD, "release of resource %u", id);
        return AQ_RC_EPERM;
    }
    g->res_held[id] = false;
    return AQ_RC_OK;
}

typedef struct CapEntry {
    uint16_t cap;
    uint32_t number, logical_id, phys_id;
} CapEntry;

/* The capabilities of the device and of PF 0 (the only function). Flow director is there as on
 * every E810 (its pool sizes are in GLQF_FD_SIZE); absent on purpose: 1588, SR-IOV, NVM
 * management (0x0080), sensor reading (0x0088). */
static size_t fill_caps(IrdmaDev *d, CapEntry *caps)
{
    size_t n = 0;

    caps[n++] = (CapEntry) { CAP_VALID_FUNCTIONS, 0x1, 0, 0 };
    caps[n++] = (CapEntry) { CAP_VSI, FW_NUM_VSI, 0, 0 };
    caps[n++] = (CapEntry) { CAP_DCB, 1, 0x1, FW_MAX_TC };
    caps[n++] = (CapEntry) { CAP_RSS, FW_RSS_LUT_SIZE, FW_RSS_ENTRY_WIDTH, 0 };
    caps[n++] = (CapEntry) { CAP_RXQS, FW_NUM_QUEUES, 0, 0 };
    caps[n++] = (CapEntry) { CAP_TXQS, FW_NUM_QUEUES, 0, 0 };
    caps[n++] = (CapEntry) { CAP_MSIX, d->cfg.msix_vectors, 0, 0 };
    caps[n++] = (CapEntry) { CAP_FD, 1, 0, 0 };
    caps[n++] = (CapEntry) { CAP_MAX_MTU, FW_MAX_MTU, 0, 0 };
    caps[n++] = (CapEntry) { CAP_RDMA, 1, 0, 0 };
    /* The Tx topology can be queried (0x0418); it is the default 9-layer tree. */
    caps[n++] = (CapEntry) { CAP_TX_SCHED_TOPO_COMP_MODE, 1, 0, 0 };
    return n;
}

#define MAX_CAPS 16

static uint16_t list_caps(IrdmaDev *d, AqCmd *c)
{
    CapEntry caps[MAX_CAPS];
    size_t n = fill_caps(d, caps);

    st32(c->params + LIST_CAPS_COUNT, n);
    if (c->buf_len < n * CAPS_ELEM_SIZE) {
        /* The driver retries with a buffer of count * 32 bytes. */
        c->resp_len = 0;
        return AQ_RC_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        uint8_t *e = c->buf + i * CAPS_ELEM_SIZE;

        st16(e + CAPS_ELEM_CAP, caps[i].cap);
        e[CAPS_ELEM_MAJOR] = 1;
        e[CAPS_ELEM_MINOR] = 0;
        st32(e + CAPS_ELEM_NUMBER, caps[i].number);
        st32(e + CAPS_ELEM_LOGICAL_ID, caps[i].logical_id);
        st32(e + CAPS_ELEM_PHYS_ID, caps[i].phys_id);
    }
    c->resp_len = n * CAPS_ELEM_SIZE;
    return AQ_RC_OK;
}

static uint16_t fw_manage_mac_read(IrdmaDev *d, AqCmd *c)
{
    if (c->buf_len < MAC_READ_RESP_SIZE) {
        return AQ_RC_ENOMEM;
    }
    st16(c->params + MAC_READ_FLAGS, MAC_READ_LAN_ADDR_VALID);
    c->params[MAC_READ_NUM_ADDR] = 1;
    c->buf[MAC_READ_RESP_LPORT] = 0;
    c->buf[MAC_READ_RESP_ADDR_TYPE] = MAC_ADDR_TYPE_LAN;
    memcpy(c->buf + MAC_READ_RESP_MAC, d->cfg.mac, 6);
    c->resp_len = MAC_READ_RESP_SIZE;
    return AQ_RC_OK;
}

static uint16_t fw_clear_pxe_mode(IrdmaDev *d, AqCmd *c)
{
    (void)d;
    (void)c;
    return AQ_RC_OK;
}

static uint16_t fw_clear_pf_cfg(IrdmaDev *d, AqCmd *c)
{
    (void)c;
    emu_trace(&d->host, TR_FW_CLEAR_PF_CFG, "PF configuration dropped");
    fw_pf_reset(d);
    return AQ_RC_OK;
}

/* ---- 0xFF20 ---- */

/* The sources ice enables; nothing in the model ever goes unhealthy, so no 0xFF22 event
 * follows. */
static uint16_t fw_set_health_status_cfg(IrdmaDev *d, AqCmd *c)
{
    FwGeneral *g = d->fw;
    uint8_t src = c->params[HEALTH_EVENT_SOURCE];

    if (src & ~HEALTH_SRC_ALL) {
        emu_trace(&d->host, TR_ERR_FW_HEALTH_BAD_SOURCES, "0x%02x: EINVAL", src);
        return AQ_RC_EINVAL;
    }
    g->health_sources = src;
    emu_trace(&d->host, TR_FW_HEALTH_SOURCES, "0x%02x", src);
    return AQ_RC_OK;
}

/* ---- 0xFF30-0xFF32 ---- */

/* Configure: the output enables always; with SET_VALID also the resolution and the level of
 * each module listed, all or nothing. Log events (0xFF33) are never produced: the model's
 * firmware has nothing to log. */
static uint16_t fw_logs_config(IrdmaDev *d, AqCmd *c)
{
    FwGeneral *g = d->fw;
    uint8_t flags = c->params[FWLOG_CMD_FLAGS];
    unsigned res = ld16(c->params + FWLOG_LOG_RESOLUTION);
    unsigned n = ld16(c->params + FWLOG_MDL_CNT);

    if (flags & FWLOG_CONF_SET_VALID) {
        if (res < FWLOG_MIN_RESOLUTION || res > FWLOG_MAX_RESOLUTION ||
            (size_t)n * FWLOG_MDL_SIZE > c->buf_len) {
            emu_trace(&d->host, TR_ERR_FW_LOG_BAD_CONFIG, "resolution %u, %u modules in %u bytes: "
                      "EINVAL", res, n, c->buf_len);
            return AQ_RC_EINVAL;
        }
        for (unsigned i = 0; i < n; i++) {
            const uint8_t *m = c->buf + i * FWLOG_MDL_SIZE;

            if (ld16(m + FWLOG_MDL_ID) >= FWLOG_NUM_MODULES ||
                m[FWLOG_MDL_LEVEL] > FWLOG_LEVEL_MAX) {
                emu_trace(&d->host, TR_ERR_FW_LOG_BAD_MODULE, "module %u level %u: EINVAL",
                          ld16(m + FWLOG_MDL_ID), m[FWLOG_MDL_LEVEL]);
                return AQ_RC_EINVAL;
            }
        }
        for (unsigned i = 0; i < n; i++) {
            const uint8_t *m = c->buf + i * FWLOG_MDL_SIZE;

            g->fwlog_level[ld16(m + FWLOG_MDL_ID)] = m[FWLOG_MDL_LEVEL];
        }
        g->fwlog_resolution = res;
    }
    g->fwlog_enables = flags & (FWLOG_CONF_UART_EN | FWLOG_CONF_AQ_EN);
    emu_trace(&d->host, TR_FW_LOG_CONFIG, "enables 0x%02x resolution %u, %u modules",
              g->fwlog_enables, g->fwlog_resolution, (flags & FWLOG_CONF_SET_VALID) ? n : 0);
    return AQ_RC_OK;
}

static uint16_t fw_logs_register(IrdmaDev *d, AqCmd *c)
{
    FwGeneral *g = d->fw;

    g->fwlog_registered = c->params[FWLOG_CMD_FLAGS] & FWLOG_AQ_REGISTER;
    emu_trace(&d->host, TR_FW_LOG_REGISTER, "%s", g->fwlog_registered ? "registered" :
              "unregistered");
    return AQ_RC_OK;
}

/* What ice_fwlog_set_supported takes as "FW logging supported": the configuration, every
 * module with its level. */
static uint16_t fw_logs_query(IrdmaDev *d, AqCmd *c)
{
    FwGeneral *g = d->fw;

    if (!(c->params[FWLOG_CMD_FLAGS] & FWLOG_AQ_QUERY) ||
        c->buf_len < FWLOG_NUM_MODULES * FWLOG_MDL_SIZE) {
        emu_trace(&d->host, TR_ERR_FW_LOG_BAD_QUERY, "flags 0x%02x, %u bytes: EINVAL",
                  c->params[FWLOG_CMD_FLAGS], c->buf_len);
        c->resp_len = 0;
        return AQ_RC_EINVAL;
    }
    c->params[FWLOG_CMD_FLAGS] = g->fwlog_enables |
                                 (g->fwlog_registered ? FWLOG_QUERY_REGISTERED : 0);
    st16(c->params + FWLOG_LOG_RESOLUTION, g->fwlog_resolution);
    st16(c->params + FWLOG_MDL_CNT, FWLOG_NUM_MODULES);
    for (unsigned i = 0; i < FWLOG_NUM_MODULES; i++) {
        uint8_t *m = c->buf + i * FWLOG_MDL_SIZE;

        st16(m + FWLOG_MDL_ID, i);
        m[FWLOG_MDL_LEVEL] = g->fwlog_level[i];
        m[FWLOG_MDL_LEVEL + 1] = 0;
    }
    c->resp_len = FWLOG_NUM_MODULES * FWLOG_MDL_SIZE;
    emu_trace(&d->host, TR_FW_LOG_QUERY, "%u modules", FWLOG_NUM_MODULES);
    return AQ_RC_OK;
}

static const AqOpcode general_ops[] = {
    { AQC_GET_VER, "get_version", fw_get_version, AQ_BUF_NONE, 0 },
    { AQC_DRIVER_VER, "driver_version", fw_driver_version, AQ_BUF_IN, 1 },
    { AQC_Q_SHUTDOWN, "queue_shutdown", fw_q_shutdown, AQ_BUF_NONE, 0 },
    { AQC_REQ_RES, "request_resource", fw_req_res, AQ_BUF_NONE, 0 },
    { AQC_RELEASE_RES, "release_resource", fw_release_res, AQ_BUF_NONE, 0 },
    { AQC_LIST_FUNC_CAPS, "list_func_caps", list_caps, AQ_BUF_OUT, 0 },
    { AQC_LIST_DEV_CAPS, "list_dev_caps", list_caps, AQ_BUF_OUT, 0 },
    { AQC_MANAGE_MAC_READ, "manage_mac_read", fw_manage_mac_read, AQ_BUF_OUT, 0 },
    { AQC_CLEAR_PXE_MODE, "clear_pxe_mode", fw_clear_pxe_mode, AQ_BUF_NONE, 0 },
    { AQC_CLEAR_PF_CFG, "clear_pf_cfg", fw_clear_pf_cfg, AQ_BUF_NONE, 0 },
    { AQC_SET_HEALTH_STATUS_CFG, "set_health_status_cfg", fw_set_health_status_cfg,
      AQ_BUF_NONE, 0 },
    { AQC_FW_LOGS_CONFIG, "fw_logs_config", fw_logs_config, AQ_BUF_IN, 0 },
    { AQC_FW_LOGS_REGISTER, "fw_logs_register", fw_logs_register, AQ_BUF_NONE, 0 },
    { AQC_FW_LOGS_QUERY, "fw_logs_query", fw_logs_query, AQ_BUF_OUT, 0 },
};

const AqOpcodeTable fw_general_opcodes = { general_ops, G_N_ELEMENTS(general_ops) };

FwGeneral *fw_general_new(IrdmaDev *d)
{
    FwGeneral *g = g_new0(FwGeneral, 1);

    g->d = d;
    g->fwlog_resolution = FWLOG_DFLT_RESOLUTION;
    return g;
}

void fw_general_free(FwGeneral *g)
{
    g_free(g);
}

void fw_general_pf_reset(FwGeneral *g)
{
    memset(g->res_held, 0, sizeof(g->res_held));
}

void fw_pf_reset(IrdmaDev *d)
{
    fw_general_pf_reset(d->fw);
    fw_nvm_pf_reset(d->nvm);
    fw_sched_pf_reset(d->sched);
    fw_pkg_pf_reset(d->pkg);
    fw_dcb_pf_reset(d->dcb);
    fw_link_pf_reset(d->link);
    fw_switch_pf_reset(d->sw);
}
