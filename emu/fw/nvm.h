/*
 * fw/nvm.h - the NVM: shadow RAM and flash banks (NVM, option ROM, netlist) with the version
 * records ice and devlink read; AQ 0x0701 nvm_read, 0x0706 nvm_checksum.
 *
 * The image is built once when the device is created and never changes (no NVM write, erase
 * or activation is modelled). The versions it carries are below, together with the strings
 * ice formats from them (the same in 6.1, 6.12 and 7.3), so that guest tests can compare
 * against `ethtool -i` and `devlink dev info`.
 */
#ifndef IRDMA_EMU_FW_NVM_H
#define IRDMA_EMU_FW_NVM_H

#include "fw/aq.h"

typedef struct FwNvm FwNvm;

extern const AqOpcodeTable fw_nvm_opcodes;

FwNvm *fw_nvm_new(IrdmaDev *d);
void fw_nvm_free(FwNvm *s);
/* PF reset / clear_pf_cfg: drop the PF's configuration, keep port and device state. */
void fw_nvm_pf_reset(FwNvm *s);

/* Shadow RAM: 32 Ki words = 64 KiB, what GLNVM_GENS.SR_SIZE = 6 reports (pf.c). */
#define FW_NVM_SR_WORDS             0x8000u
#define FW_NVM_SR_SIZE              (FW_NVM_SR_WORDS * 2u)
/* Flash size, found by ice with 1-byte reads (ice_discover_flash_size): 2 MiB. */
#define FW_NVM_FLASH_SIZE           0x200000u

/* NVM map version (SR word 0x18: major in bits 15:12, minor in bits 7:0; ice prints both in
 * hex, so minor 0x30 reads "30") and EETRACK id (SR words 0x2D/0x2E). */
#define FW_NVM_VER_MAJOR            0x4
#define FW_NVM_VER_MINOR            0x30
#define FW_NVM_EETRACK              0x8001e810u
/* Option ROM combo version in the $CIV block: major 31:24, build 23:8, patch 7:0. */
#define FW_NVM_OROM_MAJOR           1
#define FW_NVM_OROM_BUILD           3430
#define FW_NVM_OROM_PATCH           0
/* Netlist ID block (BCD-style fields, printed in hex). */
#define FW_NVM_NETLIST_MAJOR        0x4u
#define FW_NVM_NETLIST_MINOR        0x30u
#define FW_NVM_NETLIST_TYPE         0x20000003u
#define FW_NVM_NETLIST_REV          0x1du
#define FW_NVM_NETLIST_CUST_VER     0x0u
#define FW_NVM_NETLIST_HASH         0x3a5e8101u
/* Product Board Assembly string (PFA TLV 0x16): devlink's board.id. */
#define FW_NVM_PBA                  "SIM810-000"
/* NVM software checksum: the sum of all shadow RAM words, what 0x0706 verify reports. */
#define FW_NVM_CHECKSUM_CORRECT     0xBABAu

/* What ice 6.1 prints from these (see the formats in ice_ethtool.c __ice_get_drvinfo and
 * ice_devlink.c ice_info_*; tests/unit/test_fw_nvm.c checks they agree with the image). */
#define FW_NVM_ETHTOOL_FW_VERSION   "4.30 0x8001e810 1.3430.0"
#define FW_NVM_DEVLINK_BOARD_ID     FW_NVM_PBA
#define FW_NVM_DEVLINK_UNDI         "1.3430.0"
#define FW_NVM_DEVLINK_PSID_API     "4.30"
#define FW_NVM_DEVLINK_BUNDLE_ID    "0x8001e810"
#define FW_NVM_DEVLINK_NETLIST      "4.30.2000-3.1d.0"
#define FW_NVM_DEVLINK_NETLIST_BUILD "0x3a5e8101"

#endif
