/*
 * The libqtest / QEMU header differences between the releases irdma-sim-test.c builds in
 * (7.2 to 11.1), in one place, as hw/irdma-sim-compat.h does for the device:
 *   - QDict: qapi/qmp/qdict.h until QEMU 9.2, qobject/qdict.h after.
 */
#ifndef IRDMA_SIM_TEST_COMPAT_H
#define IRDMA_SIM_TEST_COMPAT_H

#if __has_include("qobject/qdict.h")
#include "qobject/qdict.h"
#else
#include "qapi/qmp/qdict.h"
#endif

#endif
