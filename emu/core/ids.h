/*
 * ids.h - PCI identity and BAR layout of the modelled function: an E810-C for SFP (8086:1593),
 * chosen because only E810-C ids get the DSCP QoS feature in ice 6.1 (ice_lib.c, ICE_F_DSCP)
 * and it is not one of the E810-T subsystems that turn on GNSS/SMA probing.
 */
#ifndef IRDMA_EMU_IDS_H
#define IRDMA_EMU_IDS_H

#define IRDMA_PCI_VENDOR_ID          0x8086
#define IRDMA_PCI_DEVICE_ID          0x1593    /* E810-C for SFP */
#define IRDMA_PCI_SUBSYS_VENDOR_ID   0x8086
#define IRDMA_PCI_SUBSYS_ID          0x0002    /* E810-XXVDA4 adapter */
#define IRDMA_PCI_REVISION           0x02

/* BAR0: the register file, 32 MiB, 64-bit prefetchable as on the real part. */
#define IRDMA_BAR0_SIZE              (32u << 20)
/* BAR3: MSI-X table at 0, PBA at 0x8000, 64 KiB, 64-bit prefetchable. */
#define IRDMA_MSIX_BAR               3
#define IRDMA_MSIX_BAR_SIZE          0x10000
#define IRDMA_MSIX_TABLE_OFFSET      0x0
#define IRDMA_MSIX_PBA_OFFSET        0x8000
/* Vectors: the real PF exposes 1024; the table may hold up to 2048 before reaching the PBA. */
#define IRDMA_MSIX_VECTORS_DEFAULT   1024
#define IRDMA_MSIX_VECTORS_MIN       8
#define IRDMA_MSIX_VECTORS_MAX       2048

/* Port speed (Mb/s) unless the speed property says otherwise: the XXVDA4 is a 4x25G card. */
#define IRDMA_LINK_SPEED_DEFAULT     25000

#endif
