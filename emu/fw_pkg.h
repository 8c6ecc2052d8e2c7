/*
 * fw_pkg.h - the DDP package the firmware holds: download (0x0C40), upload section (0x0C41), update (0x0C42), get package info list (0x0C43).
 */
#ifndef IRDMA_EMU_FW_PKG_H
#define IRDMA_EMU_FW_PKG_H

#include "aq.h"

typedef struct FwPkg FwPkg;

extern const AqOpcodeTable fw_pkg_opcodes;

FwPkg *fw_pkg_new(IrdmaDev *d);
void fw_pkg_free(FwPkg *s);
/* PF reset / clear_pf_cfg: drop the PF's configuration, keep port and device state. */
void fw_pkg_pf_reset(FwPkg *s);

#endif
