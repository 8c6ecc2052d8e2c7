/*
 * trace_events.h - the catalogue of the device core's trace events.
 *
 * One X(ID, name, block, kind) line per event. ID makes the constant TR_<ID> that call sites
 * pass to emu_trace() (core/trace.h), so an event that is not listed here does not compile.
 * name is the QEMU trace event irdma_sim_<name>: it starts with its block (the part of the
 * device that emits it), and with err_<block> in the error section. kind says what else the
 * host does with the event besides tracing it:
 *   NORMAL       a decision of the device, traced only;
 *   GUEST_ERROR  the guest programmed the device wrongly (a bad field, index, address or
 *                state): QEMU also logs it under -d guest_errors;
 *   UNIMP        the guest asked for something the model does not implement: QEMU also logs
 *                it under -d unimp.
 * hw/trace-events is generated from this list (scripts/trace-catalogue.py --write) and the
 * meson test trace-catalogue checks it, and that every event here is used in emu/.
 */
#ifndef IRDMA_EMU_TRACE_EVENTS_H
#define IRDMA_EMU_TRACE_EVENTS_H

#define EMU_TRACE_EVENTS(X) \
    /* dev: device.c: function reset, fault-plan effects on DMA, MSI-X and MMIO */ \
    X(DEV_DMA_FAILED, dev_dma_failed, dev, NORMAL) \
    X(DEV_MMIO_READ_CORRUPTED, dev_mmio_read_corrupted, dev, NORMAL) \
    X(DEV_MMIO_WRITE_FAULTED, dev_mmio_write_faulted, dev, NORMAL) \
    X(DEV_MSIX_DROPPED, dev_msix_dropped, dev, NORMAL) \
    X(DEV_RESET, dev_reset, dev, NORMAL) \
    /* pf: pf.c: PF and core/global resets */ \
    X(PF_CORE_RESET, pf_core_reset, pf, NORMAL) \
    X(PF_RESET, pf_reset, pf, NORMAL) \
    /* event: core/event.c: the event queue */ \
    X(EVENT_BUDGET_EXHAUSTED, event_budget_exhausted, event, NORMAL) \
    /* fault: core/fault.c: the fault plan */ \
    X(FAULT_FIRED, fault_fired, fault, NORMAL) \
    X(FAULT_REINSERTED, fault_reinserted, fault, NORMAL) \
    /* intr: core/intr.c: interrupt causes and vectors */ \
    X(INTR_CAUSE_DISABLED, intr_cause_disabled, intr, NORMAL) \
    X(INTR_OICR_MASKED, intr_oicr_masked, intr, NORMAL) \
    X(INTR_PENDING, intr_pending, intr, NORMAL) \
    X(INTR_SWINT, intr_swint, intr, NORMAL) \
    /* aq: fw/aq.c: the admin queue */ \
    X(AQ_ATQ_DISABLED, aq_atq_disabled, aq, NORMAL) \
    X(AQ_CMD, aq_cmd, aq, NORMAL) \
    X(AQ_CMD_DELAYED, aq_cmd_delayed, aq, NORMAL) \
    X(AQ_CMD_FAILED, aq_cmd_failed, aq, NORMAL) \
    X(AQ_DMA_ERROR, aq_dma_error, aq, NORMAL) \
    X(AQ_EVENT, aq_event, aq, NORMAL) \
    X(AQ_EVENT_OVERFLOW, aq_event_overflow, aq, NORMAL) \
    /* fw: fw/: firmware commands (general, link, DCB, package, scheduler, switch) */ \
    X(FW_CLEAR_PF_CFG, fw_clear_pf_cfg, fw, NORMAL) \
    X(FW_DCB_CFG, fw_dcb_cfg, fw, NORMAL) \
    X(FW_DRIVER_VERSION, fw_driver_version, fw, NORMAL) \
    X(FW_HEALTH_SOURCES, fw_health_sources, fw, NORMAL) \
    X(FW_LINK_CHANGE, fw_link_change, fw, NORMAL) \
    X(FW_LINK_EVENT_SUPPRESSED, fw_link_event_suppressed, fw, NORMAL) \
    X(FW_LINK_TOPO, fw_link_topo, fw, NORMAL) \
    X(FW_LINK_TOPO_NO_NODE, fw_link_topo_no_node, fw, NORMAL) \
    X(FW_LLDP_AGENT, fw_lldp_agent, fw, NORMAL) \
    X(FW_LLDP_FILTER, fw_lldp_filter, fw, NORMAL) \
    X(FW_LLDP_MIB_CHANGE_EVENTS, fw_lldp_mib_change_events, fw, NORMAL) \
    X(FW_LOG_CONFIG, fw_log_config, fw, NORMAL) \
    X(FW_LOG_QUERY, fw_log_query, fw, NORMAL) \
    X(FW_LOG_REGISTER, fw_log_register, fw, NORMAL) \
    X(FW_MAC_LOOPBACK, fw_mac_loopback, fw, NORMAL) \
    X(FW_PHY_CFG, fw_phy_cfg, fw, NORMAL) \
    X(FW_PKG_ACTIVATED, fw_pkg_activated, fw, NORMAL) \
    X(FW_PKG_DOWNLOAD_ABORTED, fw_pkg_download_aborted, fw, NORMAL) \
    X(FW_PKG_DOWNLOAD_START, fw_pkg_download_start, fw, NORMAL) \
    X(FW_PKG_INFO, fw_pkg_info, fw, NORMAL) \
    X(FW_PKG_UPDATE, fw_pkg_update, fw, NORMAL) \
    X(FW_PKG_UPLOAD, fw_pkg_upload, fw, NORMAL) \
    X(FW_PORT_LOCAL_FWD, fw_port_local_fwd, fw, NORMAL) \
    X(FW_PORT_OPTIONS, fw_port_options, fw, NORMAL) \
    X(FW_Q_SHUTDOWN, fw_q_shutdown, fw, NORMAL) \
    X(FW_RES_BUSY, fw_res_busy, fw, NORMAL) \
    X(FW_RES_EXHAUSTED, fw_res_exhausted, fw, NORMAL) \
    X(FW_RSS_PF_LUT, fw_rss_pf_lut, fw, NORMAL) \
    X(FW_RULE, fw_rule, fw, NORMAL) \
    X(FW_RULE_ACTION, fw_rule_action, fw, NORMAL) \
    X(FW_SCHED_ADD, fw_sched_add, fw, NORMAL) \
    X(FW_SCHED_CFG, fw_sched_cfg, fw, NORMAL) \
    X(FW_SCHED_DELETE, fw_sched_delete, fw, NORMAL) \
    X(FW_SCHED_DFLT_TOPO, fw_sched_dflt_topo, fw, NORMAL) \
    X(FW_SCHED_LAYER_FULL, fw_sched_layer_full, fw, NORMAL) \
    X(FW_SCHED_MOVE, fw_sched_move, fw, NORMAL) \
    X(FW_SCHED_PARENT_FULL, fw_sched_parent_full, fw, NORMAL) \
    X(FW_SCHED_PROFILES_FULL, fw_sched_profiles_full, fw, NORMAL) \
    X(FW_SCHED_QSET_ADD, fw_sched_qset_add, fw, NORMAL) \
    X(FW_SCHED_QSET_DIS, fw_sched_qset_dis, fw, NORMAL) \
    X(FW_SCHED_RESET, fw_sched_reset, fw, NORMAL) \
    X(FW_SCHED_RESUME, fw_sched_resume, fw, NORMAL) \
    X(FW_SCHED_RL_ADD, fw_sched_rl_add, fw, NORMAL) \
    X(FW_SCHED_RL_REMOVE, fw_sched_rl_remove, fw, NORMAL) \
    X(FW_SCHED_SUSPEND, fw_sched_suspend, fw, NORMAL) \
    X(FW_SCHED_TC0_FORCED, fw_sched_tc0_forced, fw, NORMAL) \
    X(FW_SCHED_TCS, fw_sched_tcs, fw, NORMAL) \
    X(FW_SCHED_TX_TOPO, fw_sched_tx_topo, fw, NORMAL) \
    X(FW_SCHED_TXQ_ADD, fw_sched_txq_add, fw, NORMAL) \
    X(FW_SCHED_TXQ_DIS, fw_sched_txq_dis, fw, NORMAL) \
    X(FW_SFF_NAK, fw_sff_nak, fw, NORMAL) \
    X(FW_SFF_READ, fw_sff_read, fw, NORMAL) \
    X(FW_VSI_ADD, fw_vsi_add, fw, NORMAL) \
    X(FW_VSI_EXHAUSTED, fw_vsi_exhausted, fw, NORMAL) \
    X(FW_VSI_FREE, fw_vsi_free, fw, NORMAL) \
    X(FW_VSI_UPDATE, fw_vsi_update, fw, NORMAL) \
    /* nvm: fw/nvm.c: NVM reads and checksum */ \
    X(NVM_CHECKSUM, nvm_checksum, nvm, NORMAL) \
    X(NVM_READ, nvm_read, nvm, NORMAL) \
    X(NVM_READ_OUT_OF_RANGE, nvm_read_out_of_range, nvm, NORMAL) \
    /* wire: port/wire.c: the port's wire */ \
    X(WIRE_DROPPED, wire_dropped, wire, NORMAL) \
    X(WIRE_MAC_LOOPED, wire_mac_looped, wire, NORMAL) \
    /* lan: lan/: LAN Tx and Rx queues */ \
    X(LAN_RX_DMA_ERROR, lan_rx_dma_error, lan, NORMAL) \
    X(LAN_RX_FILTERED, lan_rx_filtered, lan, NORMAL) \
    X(LAN_RX_NO_DESC, lan_rx_no_desc, lan, NORMAL) \
    X(LAN_RX_NO_QUEUE, lan_rx_no_queue, lan, NORMAL) \
    X(LAN_RX_QUEUE, lan_rx_queue, lan, NORMAL) \
    X(LAN_RX_REPLICATED, lan_rx_replicated, lan, NORMAL) \
    X(LAN_RXQ, lan_rxq, lan, NORMAL) \
    X(LAN_STATS_NOT_COUNTED, lan_stats_not_counted, lan, NORMAL) \
    X(LAN_TX_DMA_ERROR, lan_tx_dma_error, lan, NORMAL) \
    /* cqp: rdma/cqp.c: the control QP */ \
    X(CQP_COMPLETION_DROPPED, cqp_completion_dropped, cqp, NORMAL) \
    X(CQP_CREATE, cqp_create, cqp, NORMAL) \
    X(CQP_DB_NO_CQP, cqp_db_no_cqp, cqp, NORMAL) \
    X(CQP_DESTROY, cqp_destroy, cqp, NORMAL) \
    X(CQP_LEAK_CHECK, cqp_leak_check, cqp, NORMAL) \
    X(CQP_WQE, cqp_wqe, cqp, NORMAL) \
    X(CQP_WQE_DELAYED, cqp_wqe_delayed, cqp, NORMAL) \
    /* hmc: rdma/hmc.c: host memory cache */ \
    X(HMC_COMMIT, hmc_commit, hmc, NORMAL) \
    X(HMC_SD, hmc_sd, hmc, NORMAL) \
    /* pe: rdma/pe_regs.c: protocol engine registers */ \
    X(PE_CQACK, pe_cqack, pe, NORMAL) \
    X(PE_PDINV, pe_pdinv, pe, NORMAL) \
    /* ceq: rdma/ceq.c: completion event queues */ \
    X(CEQ_CREATE, ceq_create, ceq, NORMAL) \
    X(CEQ_DESTROY, ceq_destroy, ceq, NORMAL) \
    X(CEQ_DMA_ERROR, ceq_dma_error, ceq, NORMAL) \
    X(CEQ_NONE, ceq_none, ceq, NORMAL) \
    X(CEQ_POST, ceq_post, ceq, NORMAL) \
    /* aeq: rdma/ceq.c: the asynchronous event queue */ \
    X(AEQ_CREATE, aeq_create, aeq, NORMAL) \
    X(AEQ_DESTROY, aeq_destroy, aeq, NORMAL) \
    X(AEQ_DMA_ERROR, aeq_dma_error, aeq, NORMAL) \
    X(AEQ_NONE, aeq_none, aeq, NORMAL) \
    X(AEQ_OVERFLOW, aeq_overflow, aeq, NORMAL) \
    /* eq: rdma/ceq.c: event queue interrupts */ \
    X(EQ_RAISE, eq_raise, eq, NORMAL) \
    /* cq: rdma/cq.c: completion queues */ \
    X(CQ_ARM, cq_arm, cq, NORMAL) \
    X(CQ_ARM_DMA_ERROR, cq_arm_dma_error, cq, NORMAL) \
    X(CQ_CREATE, cq_create, cq, NORMAL) \
    X(CQ_DESTROY, cq_destroy, cq, NORMAL) \
    X(CQ_DMA_ERROR, cq_dma_error, cq, NORMAL) \
    X(CQ_MODIFY, cq_modify, cq, NORMAL) \
    X(CQ_RESIZE, cq_resize, cq, NORMAL) \
    /* qp: rdma/qp.c: queue pairs */ \
    X(QP_AE, qp_ae, qp, NORMAL) \
    X(QP_CREATE, qp_create, qp, NORMAL) \
    X(QP_DESTROY, qp_destroy, qp, NORMAL) \
    X(QP_DESTROY_SUSPENDED, qp_destroy_suspended, qp, NORMAL) \
    X(QP_FAULT_AE_NO_QP, qp_fault_ae_no_qp, qp, NORMAL) \
    X(QP_FLUSH, qp_flush, qp, NORMAL) \
    X(QP_FLUSH_NOT_ERROR, qp_flush_not_error, qp, NORMAL) \
    X(QP_FLUSH_NOTHING, qp_flush_nothing, qp, NORMAL) \
    X(QP_MODIFY, qp_modify, qp, NORMAL) \
    X(QP_NO_ARP, qp_no_arp, qp, NORMAL) \
    X(QP_RESUME, qp_resume, qp, NORMAL) \
    X(QP_SUSPEND, qp_suspend, qp, NORMAL) \
    /* sq: rdma/sq.c: the requester (send queue) */ \
    X(SQ_BIND_MW, sq_bind_mw, sq, NORMAL) \
    X(SQ_COMPLETE, sq_complete, sq, NORMAL) \
    X(SQ_CQE_LOST, sq_cqe_lost, sq, NORMAL) \
    X(SQ_FAIL, sq_fail, sq, NORMAL) \
    X(SQ_FAST_REG, sq_fast_reg, sq, NORMAL) \
    X(SQ_FLUSHED, sq_flushed, sq, NORMAL) \
    X(SQ_LOCAL_INV, sq_local_inv, sq, NORMAL) \
    X(SQ_REWIND, sq_rewind, sq, NORMAL) \
    X(SQ_RNR, sq_rnr, sq, NORMAL) \
    X(SQ_RNR_WAIT, sq_rnr_wait, sq, NORMAL) \
    X(SQ_RX_STALE, sq_rx_stale, sq, NORMAL) \
    X(SQ_SGE_REFUSED, sq_sge_refused, sq, NORMAL) \
    X(SQ_SHADOW_DMA_ERROR, sq_shadow_dma_error, sq, NORMAL) \
    X(SQ_TIMEOUT, sq_timeout, sq, NORMAL) \
    X(SQ_WQE, sq_wqe, sq, NORMAL) \
    /* rq: rdma/rq.c: the responder (receive queue) */ \
    X(RQ_CQE_LOST, rq_cqe_lost, rq, NORMAL) \
    X(RQ_FLUSHED, rq_flushed, rq, NORMAL) \
    X(RQ_NAK, rq_nak, rq, NORMAL) \
    X(RQ_READ_IRD_FULL, rq_read_ird_full, rq, NORMAL) \
    X(RQ_READ_REFUSED, rq_read_refused, rq, NORMAL) \
    X(RQ_RX_NOT_READY, rq_rx_not_ready, rq, NORMAL) \
    X(RQ_UD_DROPPED, rq_ud_dropped, rq, NORMAL) \
    X(RQ_UD_UNREACHABLE, rq_ud_unreachable, rq, NORMAL) \
    X(RQ_WRITE_REFUSED, rq_write_refused, rq, NORMAL) \
    /* roce: rdma/roce.c: RoCEv2 frames */ \
    X(ROCE_AH_NO_ARP, roce_ah_no_arp, roce, NORMAL) \
    X(ROCE_RX_DROPPED, roce_rx_dropped, roce, NORMAL) \
    X(ROCE_RX_MCAST, roce_rx_mcast, roce, NORMAL) \
    X(ROCE_RX_MCAST_NO_GROUP, roce_rx_mcast_no_group, roce, NORMAL) \
    X(ROCE_RX_MCAST_NO_QP, roce_rx_mcast_no_qp, roce, NORMAL) \
    X(ROCE_RX_NO_QP, roce_rx_no_qp, roce, NORMAL) \
    X(ROCE_TX, roce_tx, roce, NORMAL) \
    /* mr: rdma/mr.c: memory regions and windows (STags) */ \
    X(MR_DEALLOC, mr_dealloc, mr, NORMAL) \
    X(MR_MW_ALLOC, mr_mw_alloc, mr, NORMAL) \
    X(MR_REG, mr_reg, mr, NORMAL) \
    X(MR_STAG_ALLOC, mr_stag_alloc, mr, NORMAL) \
    /* ah: rdma/ah.c: address handles */ \
    X(AH_CREATE, ah_create, ah, NORMAL) \
    X(AH_DESTROY, ah_destroy, ah, NORMAL) \
    X(AH_MODIFY, ah_modify, ah, NORMAL) \
    /* mcg: rdma/ah.c: multicast groups */ \
    X(MCG_CREATE, mcg_create, mcg, NORMAL) \
    X(MCG_DESTROY, mcg_destroy, mcg, NORMAL) \
    X(MCG_MEMBER_NO_QP, mcg_member_no_qp, mcg, NORMAL) \
    X(MCG_MODIFY, mcg_modify, mcg, NORMAL) \
    /* arp: rdma/cqp.c: the ARP table */ \
    X(ARP_ADD, arp_add, arp, NORMAL) \
    X(ARP_DEL, arp_del, arp, NORMAL) \
    /* apbvt: rdma/ltab.c: the port table (APBVT) */ \
    X(APBVT_ADD, apbvt_add, apbvt, NORMAL) \
    X(APBVT_DEL, apbvt_del, apbvt, NORMAL) \
    /* qhash: rdma/ltab.c: the quad hash table */ \
    X(QHASH_FULL, qhash_full, qhash, NORMAL) \
    X(QHASH_MANAGE, qhash_manage, qhash, NORMAL) \
    /* local_mac: rdma/ltab.c: local MAC entries */ \
    X(LOCAL_MAC_ALLOC, local_mac_alloc, local_mac, NORMAL) \
    X(LOCAL_MAC_FREE, local_mac_free, local_mac, NORMAL) \
    X(LOCAL_MAC_FULL, local_mac_full, local_mac, NORMAL) \
    X(LOCAL_MAC_SET, local_mac_set, local_mac, NORMAL) \
    /* push_page: rdma/ltab.c: push pages */ \
    X(PUSH_PAGE_ALLOC, push_page_alloc, push_page, NORMAL) \
    X(PUSH_PAGE_FREE, push_page_free, push_page, NORMAL) \
    X(PUSH_PAGE_FULL, push_page_full, push_page, NORMAL) \
    /* stats: rdma/stats.c: statistics instances */ \
    X(STATS_GATHER, stats_gather, stats, NORMAL) \
    X(STATS_GATHER_DMA_ERROR, stats_gather_dma_error, stats, NORMAL) \
    X(STATS_INST_ALLOC, stats_inst_alloc, stats, NORMAL) \
    X(STATS_INST_FREE, stats_inst_free, stats, NORMAL) \
    /* ws: rdma/ws.c: the work-scheduler tree */ \
    X(WS_ADD, ws_add, ws, NORMAL) \
    X(WS_DELETE, ws_delete, ws, NORMAL) \
    X(WS_MODIFY, ws_modify, ws, NORMAL) \
    /* ---- errors: GUEST_ERROR (the guest misprogrammed the device), UNIMP (not modelled) */ \
    /* intr: core/intr.c: interrupt causes and vectors */ \
    X(ERR_INTR_BAD_VECTOR, err_intr_bad_vector, intr, GUEST_ERROR) \
    /* reg: core/regs.c: the register file */ \
    X(ERR_REG_READ_UNIMPLEMENTED, err_reg_read_unimplemented, reg, UNIMP) \
    X(ERR_REG_WRITE_UNIMPLEMENTED, err_reg_write_unimplemented, reg, UNIMP) \
    /* aq: fw/aq.c: the admin queue */ \
    X(ERR_AQ_ATQ_BAD_INDEX, err_aq_atq_bad_index, aq, GUEST_ERROR) \
    X(ERR_AQ_BAD_BUFFER, err_aq_bad_buffer, aq, GUEST_ERROR) \
    X(ERR_AQ_UNKNOWN_OPCODE, err_aq_unknown_opcode, aq, UNIMP) \
    /* fw: fw/: firmware commands (general, link, DCB, package, scheduler, switch) */ \
    X(ERR_FW_DCB_BAD_MIB, err_fw_dcb_bad_mib, fw, GUEST_ERROR) \
    X(ERR_FW_ETS_BAD_PORT, err_fw_ets_bad_port, fw, GUEST_ERROR) \
    X(ERR_FW_HEALTH_BAD_SOURCES, err_fw_health_bad_sources, fw, GUEST_ERROR) \
    X(ERR_FW_LINK_TOPO_BAD_PORT, err_fw_link_topo_bad_port, fw, GUEST_ERROR) \
    X(ERR_FW_LOG_BAD_CONFIG, err_fw_log_bad_config, fw, GUEST_ERROR) \
    X(ERR_FW_LOG_BAD_MODULE, err_fw_log_bad_module, fw, GUEST_ERROR) \
    X(ERR_FW_LOG_BAD_QUERY, err_fw_log_bad_query, fw, GUEST_ERROR) \
    X(ERR_FW_MAC_CFG_REJECTED, err_fw_mac_cfg_rejected, fw, GUEST_ERROR) \
    X(ERR_FW_PHY_CAPS_BAD_MODE, err_fw_phy_caps_bad_mode, fw, GUEST_ERROR) \
    X(ERR_FW_PHY_CFG_REJECTED, err_fw_phy_cfg_rejected, fw, GUEST_ERROR) \
    X(ERR_FW_PKG_BAD_BUFFER, err_fw_pkg_bad_buffer, fw, GUEST_ERROR) \
    X(ERR_FW_PKG_UPLOAD_UNSUPPORTED, err_fw_pkg_upload_unsupported, fw, UNIMP) \
    X(ERR_FW_PORT_OPTIONS_BAD_PORT, err_fw_port_options_bad_port, fw, GUEST_ERROR) \
    X(ERR_FW_PORT_PARAMS_REJECTED, err_fw_port_params_rejected, fw, GUEST_ERROR) \
    X(ERR_FW_RES_BAD_REQUEST, err_fw_res_bad_request, fw, GUEST_ERROR) \
    X(ERR_FW_RES_NOT_ALLOCATED, err_fw_res_not_allocated, fw, GUEST_ERROR) \
    X(ERR_FW_RES_NOT_HELD, err_fw_res_not_held, fw, GUEST_ERROR) \
    X(ERR_FW_RSS_BAD_LUT, err_fw_rss_bad_lut, fw, GUEST_ERROR) \
    X(ERR_FW_RSS_BAD_VSI, err_fw_rss_bad_vsi, fw, GUEST_ERROR) \
    X(ERR_FW_RULE_BAD_LIST, err_fw_rule_bad_list, fw, GUEST_ERROR) \
    X(ERR_FW_RULE_MALFORMED, err_fw_rule_malformed, fw, GUEST_ERROR) \
    X(ERR_FW_RULE_UNKNOWN, err_fw_rule_unknown, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_BAD_COUNT, err_fw_sched_bad_count, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_BAD_ELEM, err_fw_sched_bad_elem, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_BAD_LAYER, err_fw_sched_bad_layer, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_BAD_PARENT, err_fw_sched_bad_parent, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_BAD_PORT, err_fw_sched_bad_port, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_BAD_PROFILE, err_fw_sched_bad_profile, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_BAD_QUEUE, err_fw_sched_bad_queue, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_BAD_TYPE, err_fw_sched_bad_type, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_HAS_CHILDREN, err_fw_sched_has_children, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_NOT_DELETABLE, err_fw_sched_not_deletable, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_QUEUE_EXISTS, err_fw_sched_queue_exists, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_RL_IN_USE, err_fw_sched_rl_in_use, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_SHORT_BUFFER, err_fw_sched_short_buffer, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_TX_TOPO_BAD_FLAGS, err_fw_sched_tx_topo_bad_flags, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_UNKNOWN_QUEUE, err_fw_sched_unknown_queue, fw, GUEST_ERROR) \
    X(ERR_FW_SCHED_UNKNOWN_TEID, err_fw_sched_unknown_teid, fw, GUEST_ERROR) \
    X(ERR_FW_SFF_BAD_PORT, err_fw_sff_bad_port, fw, GUEST_ERROR) \
    X(ERR_FW_SFF_REJECTED, err_fw_sff_rejected, fw, GUEST_ERROR) \
    X(ERR_FW_VSI_UNKNOWN, err_fw_vsi_unknown, fw, GUEST_ERROR) \
    /* nvm: fw/nvm.c: NVM reads and checksum */ \
    X(ERR_NVM_CHECKSUM_BAD_FLAGS, err_nvm_checksum_bad_flags, nvm, GUEST_ERROR) \
    X(ERR_NVM_READ_BAD_LENGTH, err_nvm_read_bad_length, nvm, GUEST_ERROR) \
    X(ERR_NVM_READ_BAD_MODULE, err_nvm_read_bad_module, nvm, GUEST_ERROR) \
    X(ERR_NVM_READ_CROSSES_SECTOR, err_nvm_read_crosses_sector, nvm, GUEST_ERROR) \
    /* lan: lan/: LAN Tx and Rx queues */ \
    X(ERR_LAN_RX_BAD_CONTEXT, err_lan_rx_bad_context, lan, GUEST_ERROR) \
    X(ERR_LAN_TX_BAD_CHAIN, err_lan_tx_bad_chain, lan, GUEST_ERROR) \
    X(ERR_LAN_TX_BAD_DTYPE, err_lan_tx_bad_dtype, lan, GUEST_ERROR) \
    X(ERR_LAN_TX_BAD_RING, err_lan_tx_bad_ring, lan, GUEST_ERROR) \
    X(ERR_LAN_TX_BAD_TSO, err_lan_tx_bad_tso, lan, GUEST_ERROR) \
    X(ERR_LAN_TX_NO_QUEUE, err_lan_tx_no_queue, lan, GUEST_ERROR) \
    X(ERR_LAN_TX_OVERSIZE, err_lan_tx_oversize, lan, GUEST_ERROR) \
    /* cqp: rdma/cqp.c: the control QP */ \
    X(ERR_CQP_CREATE_FAILED, err_cqp_create_failed, cqp, GUEST_ERROR) \
    X(ERR_CQP_DB_BAD_HEAD, err_cqp_db_bad_head, cqp, GUEST_ERROR) \
    X(ERR_CQP_LEAK, err_cqp_leak, cqp, GUEST_ERROR) \
    /* hmc: rdma/hmc.c: host memory cache */ \
    X(ERR_HMC_BAD_FN, err_hmc_bad_fn, hmc, GUEST_ERROR) \
    X(ERR_HMC_COMMIT_BAD_COUNT, err_hmc_commit_bad_count, hmc, GUEST_ERROR) \
    X(ERR_HMC_COMMIT_TOO_BIG, err_hmc_commit_too_big, hmc, GUEST_ERROR) \
    X(ERR_HMC_SD_BAD_ENTRY, err_hmc_sd_bad_entry, hmc, GUEST_ERROR) \
    /* ceq: rdma/ceq.c: completion event queues */ \
    /* aeq: rdma/ceq.c: the asynchronous event queue */ \
    X(ERR_AEQ_ALLOC_NO_AEQ, err_aeq_alloc_no_aeq, aeq, GUEST_ERROR) \
    /* cq: rdma/cq.c: completion queues */ \
    X(ERR_CQ_ARM_NO_CQ, err_cq_arm_no_cq, cq, GUEST_ERROR) \
    X(ERR_CQ_MODIFY_BAD_SHADOW, err_cq_modify_bad_shadow, cq, GUEST_ERROR) \
    X(ERR_CQ_MODIFY_REFUSED, err_cq_modify_refused, cq, GUEST_ERROR) \
    X(ERR_CQ_OVERFLOW, err_cq_overflow, cq, GUEST_ERROR) \
    X(ERR_CQ_POST_NO_CQ, err_cq_post_no_cq, cq, GUEST_ERROR) \
    X(ERR_CQ_RESIZE_BAD_ADDR, err_cq_resize_bad_addr, cq, GUEST_ERROR) \
    X(ERR_CQ_RESIZE_BAD_FIELD, err_cq_resize_bad_field, cq, GUEST_ERROR) \
    X(ERR_CQ_RESIZE_BAD_SIZE, err_cq_resize_bad_size, cq, GUEST_ERROR) \
    X(ERR_CQ_RESIZE_UNMAPPED, err_cq_resize_unmapped, cq, GUEST_ERROR) \
    X(ERR_CQ_UNMAPPED, err_cq_unmapped, cq, GUEST_ERROR) \
    /* qp: rdma/qp.c: queue pairs */ \
    X(ERR_QP_BAD_ARP_IDX, err_qp_bad_arp_idx, qp, GUEST_ERROR) \
    X(ERR_QP_BAD_CQ, err_qp_bad_cq, qp, GUEST_ERROR) \
    X(ERR_QP_BAD_STATS_INST, err_qp_bad_stats_inst, qp, GUEST_ERROR) \
    X(ERR_QP_CREATE_BAD_FIELD, err_qp_create_bad_field, qp, GUEST_ERROR) \
    X(ERR_QP_CREATE_BAD_RINGS, err_qp_create_bad_rings, qp, GUEST_ERROR) \
    X(ERR_QP_CREATE_BAD_SHADOW, err_qp_create_bad_shadow, qp, GUEST_ERROR) \
    X(ERR_QP_CREATE_EXISTS, err_qp_create_exists, qp, GUEST_ERROR) \
    X(ERR_QP_CREATE_NO_HMC, err_qp_create_no_hmc, qp, GUEST_ERROR) \
    X(ERR_QP_CTX_UNREACHABLE, err_qp_ctx_unreachable, qp, GUEST_ERROR) \
    X(ERR_QP_MODIFY_BAD_FIELD, err_qp_modify_bad_field, qp, UNIMP) \
    X(ERR_QP_MODIFY_BAD_RINGS, err_qp_modify_bad_rings, qp, GUEST_ERROR) \
    X(ERR_QP_MODIFY_BAD_TRANSITION, err_qp_modify_bad_transition, qp, GUEST_ERROR) \
    X(ERR_QP_MODIFY_RINGS_MOVED, err_qp_modify_rings_moved, qp, GUEST_ERROR) \
    X(ERR_QP_NO_PUSH_PAGE, err_qp_no_push_page, qp, GUEST_ERROR) \
    X(ERR_QP_NONE, err_qp_none, qp, GUEST_ERROR) \
    X(ERR_QP_RESUME_BAD_QS, err_qp_resume_bad_qs, qp, GUEST_ERROR) \
    X(ERR_QP_RESUME_NOT_SUSPENDED, err_qp_resume_not_suspended, qp, GUEST_ERROR) \
    X(ERR_QP_TYPE_MISMATCH, err_qp_type_mismatch, qp, GUEST_ERROR) \
    /* sq: rdma/sq.c: the requester (send queue) */ \
    X(ERR_SQ_DOORBELL_NO_QP, err_sq_doorbell_no_qp, sq, GUEST_ERROR) \
    /* mr: rdma/mr.c: memory regions and windows (STags) */ \
    X(ERR_MR_DEALLOC_BAD_PD, err_mr_dealloc_bad_pd, mr, GUEST_ERROR) \
    X(ERR_MR_DEALLOC_NONE, err_mr_dealloc_none, mr, GUEST_ERROR) \
    X(ERR_MR_MW_ALLOC_BAD_FIELD, err_mr_mw_alloc_bad_field, mr, GUEST_ERROR) \
    X(ERR_MR_REG_BAD_PA, err_mr_reg_bad_pa, mr, GUEST_ERROR) \
    X(ERR_MR_REG_BAD_RANGE, err_mr_reg_bad_range, mr, GUEST_ERROR) \
    X(ERR_MR_REG_NOT_MR, err_mr_reg_not_mr, mr, GUEST_ERROR) \
    X(ERR_MR_STAG_BAD_FN, err_mr_stag_bad_fn, mr, GUEST_ERROR) \
    X(ERR_MR_STAG_BAD_PAGE_SIZE, err_mr_stag_bad_page_size, mr, GUEST_ERROR) \
    X(ERR_MR_STAG_BAD_PBL, err_mr_stag_bad_pbl, mr, GUEST_ERROR) \
    X(ERR_MR_STAG_BAD_PBL_LEVEL, err_mr_stag_bad_pbl_level, mr, GUEST_ERROR) \
    X(ERR_MR_STAG_BAD_RIGHTS, err_mr_stag_bad_rights, mr, GUEST_ERROR) \
    X(ERR_MR_STAG_IN_USE, err_mr_stag_in_use, mr, GUEST_ERROR) \
    X(ERR_MR_STAG_NO_HMC, err_mr_stag_no_hmc, mr, GUEST_ERROR) \
    X(ERR_MR_STAG_PBL_UNMAPPED, err_mr_stag_pbl_unmapped, mr, GUEST_ERROR) \
    X(ERR_MR_STAG_ZERO, err_mr_stag_zero, mr, GUEST_ERROR) \
    /* ah: rdma/ah.c: address handles */ \
    X(ERR_AH_BAD_ARP_IDX, err_ah_bad_arp_idx, ah, GUEST_ERROR) \
    X(ERR_AH_EXISTS, err_ah_exists, ah, GUEST_ERROR) \
    X(ERR_AH_NO_HMC, err_ah_no_hmc, ah, GUEST_ERROR) \
    X(ERR_AH_NONE, err_ah_none, ah, GUEST_ERROR) \
    /* mcg: rdma/ah.c: multicast groups */ \
    X(ERR_MCG_BAD_IDX, err_mcg_bad_idx, mcg, GUEST_ERROR) \
    X(ERR_MCG_BAD_QP, err_mcg_bad_qp, mcg, GUEST_ERROR) \
    X(ERR_MCG_CTX_UNREACHABLE, err_mcg_ctx_unreachable, mcg, GUEST_ERROR) \
    X(ERR_MCG_EXISTS, err_mcg_exists, mcg, GUEST_ERROR) \
    X(ERR_MCG_NONE, err_mcg_none, mcg, GUEST_ERROR) \
    /* apbvt: rdma/ltab.c: the port table (APBVT) */ \
    X(ERR_APBVT_NO_HMC, err_apbvt_no_hmc, apbvt, GUEST_ERROR) \
    X(ERR_APBVT_REFUSED, err_apbvt_refused, apbvt, GUEST_ERROR) \
    /* qhash: rdma/ltab.c: the quad hash table */ \
    X(ERR_QHASH_BAD_FIELD, err_qhash_bad_field, qhash, GUEST_ERROR) \
    X(ERR_QHASH_BAD_QP, err_qhash_bad_qp, qhash, GUEST_ERROR) \
    X(ERR_QHASH_EXISTS, err_qhash_exists, qhash, GUEST_ERROR) \
    X(ERR_QHASH_NONE, err_qhash_none, qhash, GUEST_ERROR) \
    /* local_mac: rdma/ltab.c: local MAC entries */ \
    X(ERR_LOCAL_MAC_NONE, err_local_mac_none, local_mac, GUEST_ERROR) \
    /* push_page: rdma/ltab.c: push pages */ \
    X(ERR_PUSH_PAGE_BAD_QS, err_push_page_bad_qs, push_page, GUEST_ERROR) \
    X(ERR_PUSH_PAGE_BAD_TYPE, err_push_page_bad_type, push_page, GUEST_ERROR) \
    X(ERR_PUSH_PAGE_NONE, err_push_page_none, push_page, GUEST_ERROR) \
    /* stats: rdma/stats.c: statistics instances */ \
    X(ERR_STATS_GATHER_BAD_BUF, err_stats_gather_bad_buf, stats, GUEST_ERROR) \
    X(ERR_STATS_GATHER_BAD_FN, err_stats_gather_bad_fn, stats, GUEST_ERROR) \
    X(ERR_STATS_GATHER_NO_INST, err_stats_gather_no_inst, stats, GUEST_ERROR) \
    /* ws: rdma/ws.c: the work-scheduler tree */ \
    X(ERR_WS_REFUSED, err_ws_refused, ws, GUEST_ERROR)

typedef enum EmuTraceKind {
    EMU_TRACE_NORMAL,
    EMU_TRACE_GUEST_ERROR,
    EMU_TRACE_UNIMP,
} EmuTraceKind;

typedef enum EmuTraceId {
#define EMU_TRACE_ID(id, name, block, kind) TR_##id,
    EMU_TRACE_EVENTS(EMU_TRACE_ID)
#undef EMU_TRACE_ID
    TR__COUNT
} EmuTraceId;

#endif
