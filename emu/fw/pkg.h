/*
 * fw/pkg.h - the DDP package the firmware holds: download (0x0C40), upload section (0x0C41),
 * update (0x0C42), get package info list (0x0C43).
 *
 * At power-on the active package is the synthetic one of ddp_format.h (what tools/mkddp
 * writes), so ice, finding the same version and name in its file, needs no download. A
 * download replaces it when its last buffer is accepted: the firmware then reports the
 * metadata section it received. PF reset keeps the active package (it is device state) and
 * only abandons a download or update in progress.
 */
#ifndef IRDMA_EMU_FW_PKG_H
#define IRDMA_EMU_FW_PKG_H

#include "fw/aq.h"

typedef struct FwPkg FwPkg;

extern const AqOpcodeTable fw_pkg_opcodes;

FwPkg *fw_pkg_new(IrdmaDev *d);
void fw_pkg_free(FwPkg *s);
/* PF reset / clear_pf_cfg: drop the PF's configuration, keep port and device state. */
void fw_pkg_pf_reset(FwPkg *s);

#endif
