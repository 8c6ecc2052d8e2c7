/* ws.c - the RDMA work scheduler tree (see ws.h). */
#include "rdma/ws.h"
#include "core/trace.h"

typedef struct WsNode {
    bool used;
    bool leaf;
    bool enabled;
    uint16_t parent;
    uint16_t vsi;
    uint8_t tc;
    uint8_t weight;
    uint8_t prio_type;
    unsigned children;
} WsNode;

struct PeWs {
    IrdmaDev *d;
    WsNode node[WS_NODES_MAX];
    unsigned count;
};

PeWs *ws_new(IrdmaDev *d)
{
    PeWs *ws = g_new0(PeWs, 1);

    ws->d = d;
    return ws;
}

void ws_free(PeWs *ws)
{
    g_free(ws);
}

void ws_reset(PeWs *ws)
{
    IrdmaDev *d = ws->d;

    memset(ws, 0, sizeof(*ws));
    ws->d = d;
}

unsigned ws_node_count(IrdmaDev *d)
{
    return d->ws->count;
}

bool ws_qs_handle_enabled(IrdmaDev *d, unsigned qs_handle)
{
    const WsNode *n = qs_handle < WS_NODES_MAX ? &d->ws->node[qs_handle] : NULL;

    return n && n->used && n->leaf && n->enabled;
}

bool ws_qs_handle_leaf(IrdmaDev *d, unsigned qs_handle)
{
    const WsNode *n = qs_handle < WS_NODES_MAX ? &d->ws->node[qs_handle] : NULL;

    return n && n->used && n->leaf;
}

static void ws_refuse(IrdmaDev *d, CqpResult *r, uint16_t min, unsigned op, unsigned id,
                      const char *why)
{
    static const char *const ops[] = { "add", "modify", "delete", "op3" };

    cqp_fail(r, CQP_MAJ_ERROR, min);
    emu_trace(&d->host, TR_ERR_WS_REFUSED, "%s node %u: %s", ops[op & 3], id, why);
}

static void op_work_sched_node(IrdmaDev *d, const CqpWqe *w, CqpResult *r)
{
    PeWs *ws = d->ws;
    unsigned op = pe_get(w->hdr, CQPWQE_WS_NODEOP);
    unsigned id = pe_get(w->hdr, CQPWQE_WS_NODEID), parent = pe_get(w->hdr, CQPWQE_WS_PARENTID);
    bool leaf = w->hdr & CQPWQE_WS_NODETYPE_LEAF, enable = w->hdr & CQPWQE_WS_ENABLENODE;
    uint64_t qw4 = cqp_qw(w, CQPWQE_WS_VSI_OFF);
    WsNode *n = &ws->node[id], *p = &ws->node[parent];
    bool root = parent == id;

    switch (op) {
    case WS_NODEOP_ADD:
        if (n->used) {
            ws_refuse(d, r, CQP_MIN_INVALID_STATE, op, id, "id in use");
            return;
        }
        if (root ? (id != WS_ROOT_ID || leaf) : (!p->used || p->leaf)) {
            ws_refuse(d, r, CQP_MIN_BAD_ID, op, id, root ? "root must be node 0, not a leaf"
                                                         : "parent missing or a leaf");
            return;
        }
        *n = (WsNode) {
            .used = true, .leaf = leaf, .enabled = enable, .parent = parent,
            .vsi = pe_get(qw4, CQPWQE_WS_VSI), .tc = pe_get(w->hdr, CQPWQE_WS_TC),
            .weight = pe_get(qw4, CQPWQE_WS_WEIGHT),
            .prio_type = pe_get(w->hdr, CQPWQE_WS_PRIOTYPE),
        };
        if (!root) {
            p->children++;
        }
        ws->count++;
        break;
    case WS_NODEOP_MODIFY:
        if (!n->used) {
            ws_refuse(d, r, CQP_MIN_INVALID_STATE, op, id, "no such node");
            return;
        }
        if (n->parent != parent || n->leaf != leaf) {
            ws_refuse(d, r, CQP_MIN_BAD_FIELD, op, id, "moves the node or changes its kind");
            return;
        }
        n->enabled = enable;
        n->vsi = pe_get(qw4, CQPWQE_WS_VSI);
        n->tc = pe_get(w->hdr, CQPWQE_WS_TC);
        n->weight = pe_get(qw4, CQPWQE_WS_WEIGHT);
        n->prio_type = pe_get(w->hdr, CQPWQE_WS_PRIOTYPE);
        break;
    case WS_NODEOP_DELETE:
        if (!n->used) {
            ws_refuse(d, r, CQP_MIN_INVALID_STATE, op, id, "no such node");
            return;
        }
        if (n->parent != parent) {
            ws_refuse(d, r, CQP_MIN_BAD_FIELD, op, id, "wrong parent");
            return;
        }
        if (n->children) {
            ws_refuse(d, r, CQP_MIN_INVALID_STATE, op, id, "has children");
            return;
        }
        if (!root) {
            p->children--;
        }
        *n = (WsNode) { 0 };
        ws->count--;
        emu_trace(&d->host, TR_WS_DELETE, "node %u (parent %u)", id, parent);
        return;
    default:
        ws_refuse(d, r, CQP_MIN_BAD_FIELD, op, id, "unknown node op");
        return;
    }
    /* The leaf's qs_handle: its node id (unique, 10 bits like the QSHANDLE context field). */
    r->ret_val = n->leaf ? id : 0;
    emu_trace(&d->host, op == WS_NODEOP_ADD ? TR_WS_ADD : TR_WS_MODIFY,
              "node %u parent %u %s vsi=%u tc=%u weight=%u %s qs_handle=%u", id, parent,
              n->leaf ? "leaf" : "inner", n->vsi, n->tc, n->weight,
              n->enabled ? "enabled" : "disabled", r->ret_val);
}

static const CqpOp ws_ops[] = {
    { CQP_OP_WORK_SCHED_NODE, "WORK_SCHED_NODE", op_work_sched_node, CQP_OBJ_NONE },
};

const CqpOpTable ws_cqp_ops = { ws_ops, G_N_ELEMENTS(ws_ops) };
