/*
 * ws.h - the RDMA work scheduler tree, managed with WORK_SCHED_NODE (0x2c) add/modify/delete.
 *
 * irdma builds root (id 0, its own parent) -> one node per VSI -> one leaf per traffic class
 * (ws.c). Adding a leaf returns its qs_handle in OPRETVAL: the driver puts it in the QP host
 * contexts and hands it to ice as the RDMA qset id. The model hands out the leaf's node id. A
 * leaf is added disabled and enabled by a modify once ice has placed the qset. Refused: an id
 * already in use, an unknown or leaf parent, a second root, a modify that moves a node or
 * changes its kind, deleting a node with children or naming the wrong parent.
 */
#ifndef IRDMA_EMU_WS_H
#define IRDMA_EMU_WS_H

#include "rdma/pe.h"

typedef struct PeWs PeWs;

PeWs *ws_new(IrdmaDev *d);
void ws_free(PeWs *ws);
void ws_reset(PeWs *ws);

extern const CqpOpTable ws_cqp_ops;

/* Live nodes. */
unsigned ws_node_count(IrdmaDev *d);
/* True if @qs_handle names an enabled leaf. */
bool ws_qs_handle_enabled(IrdmaDev *d, unsigned qs_handle);
/* True if @qs_handle names a leaf, enabled or not. */
bool ws_qs_handle_leaf(IrdmaDev *d, unsigned qs_handle);

#endif
