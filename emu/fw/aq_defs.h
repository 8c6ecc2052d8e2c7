/*
 * aq_defs.h - the admin queue interface of the E810 firmware as ice 6.1, 6.12 and 7.3 use it
 * (drivers/net/ethernet/intel/ice/ice_adminq_cmd.h; 7.3 moved the generic part to
 * include/linux/net/intel/libie/adminq.h): descriptor layout, flags, return codes, opcodes.
 * Facts of the interface; the behaviour is in aq.c and fw_*.c.
 */
#ifndef IRDMA_EMU_AQ_DEFS_H
#define IRDMA_EMU_AQ_DEFS_H

/* Descriptor: 32 bytes, little-endian. */
#define AQ_DESC_SIZE            32
#define AQ_DESC_FLAGS           0
#define AQ_DESC_OPCODE          2
#define AQ_DESC_DATALEN         4
#define AQ_DESC_RETVAL          6
#define AQ_DESC_COOKIE_H        8
#define AQ_DESC_COOKIE_L        12
#define AQ_DESC_PARAMS          16
#define AQ_PARAMS_SIZE          16
/* Indirect commands: buffer address in the last 8 bytes of params. */
#define AQ_PARAM_ADDR_H         8
#define AQ_PARAM_ADDR_L         12

#define AQ_FLAG_DD              0x0001
#define AQ_FLAG_CMP             0x0002
#define AQ_FLAG_ERR             0x0004
#define AQ_FLAG_LB              0x0200
#define AQ_FLAG_RD              0x0400
#define AQ_FLAG_BUF             0x1000
#define AQ_FLAG_SI              0x2000

/* The largest indirect buffer: the driver's per-slot DMA buffers are 4 KiB. */
#define AQ_MAX_BUF              4096
/* Buffers larger than this must carry AQ_FLAG_LB. */
#define AQ_LARGE_BUF            512

/* enum ice_aq_err */
#define AQ_RC_OK                0
#define AQ_RC_EPERM             1
#define AQ_RC_ENOENT            2
#define AQ_RC_ESRCH             3       /* bad opcode: what firmware answers to one it lacks */
#define AQ_RC_EIO               5
#define AQ_RC_ENOMEM            9
#define AQ_RC_EFAULT            11
#define AQ_RC_EBUSY             12
#define AQ_RC_EEXIST            13
#define AQ_RC_EINVAL            14
#define AQ_RC_ENOSPC            16
#define AQ_RC_ENOSYS            17
#define AQ_RC_EMODE             21

/* enum ice_adminq_opc */
#define AQC_GET_VER                     0x0001
#define AQC_DRIVER_VER                  0x0002
#define AQC_Q_SHUTDOWN                  0x0003
#define AQC_REQ_RES                     0x0008
#define AQC_RELEASE_RES                 0x0009
#define AQC_LIST_FUNC_CAPS              0x000A
#define AQC_LIST_DEV_CAPS               0x000B
#define AQC_MANAGE_MAC_READ             0x0107
#define AQC_MANAGE_MAC_WRITE            0x0108
#define AQC_CLEAR_PXE_MODE              0x0110
#define AQC_GET_SW_CFG                  0x0200
#define AQC_SET_PORT_PARAMS             0x0203
#define AQC_ALLOC_RES                   0x0208
#define AQC_FREE_RES                    0x0209
#define AQC_SET_VLAN_MODE               0x020C
#define AQC_GET_VLAN_MODE               0x020D
#define AQC_ADD_VSI                     0x0210
#define AQC_UPDATE_VSI                  0x0211
#define AQC_FREE_VSI                    0x0213
#define AQC_ADD_RECIPE                  0x0290
#define AQC_RECIPE_TO_PROFILE           0x0291
#define AQC_GET_RECIPE                  0x0292
#define AQC_GET_RECIPE_TO_PROFILE       0x0293
#define AQC_ADD_SW_RULES                0x02A0
#define AQC_UPDATE_SW_RULES             0x02A1
#define AQC_REMOVE_SW_RULES             0x02A2
#define AQC_CLEAR_PF_CFG                0x02A4
#define AQC_QUERY_PFC_MODE              0x0302
#define AQC_SET_PFC_MODE                0x0303
#define AQC_GET_DFLT_TOPO               0x0400
#define AQC_ADD_SCHED_ELEMS             0x0401
#define AQC_CFG_SCHED_ELEMS             0x0403
#define AQC_GET_SCHED_ELEMS             0x0404
#define AQC_MOVE_SCHED_ELEMS            0x0408
#define AQC_SUSPEND_SCHED_ELEMS         0x0409
#define AQC_RESUME_SCHED_ELEMS          0x040A
#define AQC_QUERY_PORT_ETS              0x040E
#define AQC_DELETE_SCHED_ELEMS          0x040F
#define AQC_ADD_RL_PROFILES             0x0410
#define AQC_QUERY_SCHED_RES             0x0412
#define AQC_GET_TX_TOPO                 0x0418
#define AQC_REMOVE_RL_PROFILES          0x0415
#define AQC_GET_PHY_CAPS                0x0600
#define AQC_SET_PHY_CFG                 0x0601
#define AQC_SET_MAC_CFG                 0x0603
#define AQC_RESTART_AN                  0x0605
#define AQC_GET_LINK_STATUS             0x0607
#define AQC_SET_EVENT_MASK              0x0613
#define AQC_SET_MAC_LB                  0x0620
#define AQC_GET_LINK_TOPO               0x06E0
#define AQC_GET_PORT_OPTIONS            0x06EA
#define AQC_SFF_EEPROM                  0x06EE
#define AQC_NVM_READ                    0x0701
#define AQC_NVM_CHECKSUM                0x0706
#define AQC_LLDP_GET_MIB                0x0A00
#define AQC_LLDP_SET_MIB_CHANGE         0x0A01
#define AQC_LLDP_STOP                   0x0A05
#define AQC_LLDP_START                  0x0A06
#define AQC_GET_CEE_DCB_CFG             0x0A07
#define AQC_LLDP_SET_LOCAL_MIB          0x0A08
#define AQC_LLDP_STOP_START_AGENT       0x0A09
#define AQC_LLDP_FILTER_CTRL            0x0A0A
#define AQC_SET_RSS_KEY                 0x0B02
#define AQC_SET_RSS_LUT                 0x0B03
#define AQC_GET_RSS_KEY                 0x0B04
#define AQC_GET_RSS_LUT                 0x0B05
#define AQC_ADD_TXQS                    0x0C30
#define AQC_DIS_TXQS                    0x0C31
#define AQC_ADD_RDMA_QSET               0x0C33
#define AQC_DOWNLOAD_PKG                0x0C40
#define AQC_UPLOAD_SECTION              0x0C41
#define AQC_UPDATE_PKG                  0x0C42
#define AQC_GET_PKG_INFO_LIST           0x0C43
#define AQC_EVENT_LAN_OVERFLOW          0x1001
#define AQC_SET_HEALTH_STATUS_CFG       0xFF20
#define AQC_FW_LOGS_CONFIG              0xFF30
#define AQC_FW_LOGS_REGISTER            0xFF31
#define AQC_FW_LOGS_QUERY               0xFF32

#endif
