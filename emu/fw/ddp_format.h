/*
 * ddp_format.h - the DDP package format as ice 6.1 parses it, and the synthetic package both the
 * generator (tools/mkddp) and the firmware model (fw/pkg.c) describe.
 *
 * Layouts are byte offsets into little-endian data (ice_flex_type.h, ice_adminq_cmd.h); the
 * limits are the ones ice_flex_pipe.c checks (see docs/ddp-package.md for which function checks
 * what). The version and name of the synthetic package live here only, so the file the driver
 * reads and the package the firmware reports as active can never disagree.
 */
#ifndef IRDMA_EMU_DDP_FORMAT_H
#define IRDMA_EMU_DDP_FORMAT_H

/* ---- versions ---- */
/* struct ice_pkg_ver: major, minor, update, draft (one byte each). */
#define DDP_VER_SIZE                4
#define DDP_VER_MAJOR               0
#define DDP_VER_MINOR               1
#define DDP_VER_UPDATE              2
#define DDP_VER_DRAFT               3

/* Package format version ice_verify_pkg insists on (ICE_PKG_FMT_VER_*). */
#define DDP_FMT_VER_MAJOR           1
#define DDP_FMT_VER_MINOR           0
#define DDP_FMT_VER_UPDATE          0
#define DDP_FMT_VER_DRAFT           0

/* Package version ice 6.1 supports: major.minor must be exactly this (ICE_PKG_SUPP_VER_*). */
#define DDP_SUPP_VER_MAJOR          1
#define DDP_SUPP_VER_MINOR          3

/* ---- package header (struct ice_pkg_hdr) ---- */
#define DDP_PKG_HDR_FMT_VER         0
#define DDP_PKG_HDR_SEG_COUNT       4
#define DDP_PKG_HDR_SEG_OFFSET      8       /* __le32 seg_offset[seg_count] */
#define DDP_PKG_SEG_OFFSET_SIZE     4

/* ---- generic segment header (struct ice_generic_seg_hdr) ---- */
#define DDP_SEG_HDR_TYPE            0
#define DDP_SEG_HDR_FMT_VER         4
#define DDP_SEG_HDR_SIZE            8       /* whole segment, header included */
#define DDP_SEG_HDR_ID              12
#define DDP_SEG_ID_SIZE             32      /* ICE_PKG_NAME_SIZE */
#define DDP_SEG_HDR_LEN             44

#define DDP_SEG_TYPE_METADATA       0x00000001u
#define DDP_SEG_TYPE_ICE            0x00000010u

/* ---- ICE segment (struct ice_seg), after the generic header ----
 * __le32 device_table_count; ice_device_id_entry[count] (8 bytes each);
 * __le32 nvm table_count; __le32 vers[count];
 * __le32 buf_count; struct ice_buf buf_array[buf_count] (4 KiB each). */
#define DDP_ICE_SEG_DEV_TABLE_COUNT DDP_SEG_HDR_LEN
#define DDP_DEV_TABLE_ENTRY_SIZE    8
#define DDP_NVM_TABLE_ENTRY_SIZE    4
#define DDP_TABLE_COUNT_SIZE        4

/* ---- 4 KiB buffers (struct ice_buf, struct ice_buf_hdr) ---- */
#define DDP_BUF_SIZE                4096
#define DDP_BUF_SECTION_COUNT       0
#define DDP_BUF_DATA_END            2
#define DDP_BUF_SECTION_ENTRY       4       /* struct ice_section_entry[section_count] */
#define DDP_SECT_ENTRY_SIZE         8
#define DDP_SECT_ENTRY_TYPE         0
#define DDP_SECT_ENTRY_OFFSET       4
#define DDP_SECT_ENTRY_SIZE_FIELD   6

/* Limits of ice_pkg_val_buf / ice_pkg_enum_section (ice_flex_type.h). */
#define DDP_MIN_S_COUNT             1
#define DDP_MAX_S_COUNT             511
#define DDP_MIN_S_DATA_END          12
#define DDP_MAX_S_DATA_END          4096
#define DDP_MIN_S_OFF               12
#define DDP_MAX_S_OFF               4095
#define DDP_MIN_S_SZ                1
#define DDP_MAX_S_SZ                4084
/* ice_pkg_buf_alloc_section places section data on 4-byte boundaries. */
#define DDP_SECT_ALIGN              4

/* A section type with this bit is metadata: a buffer whose first section has it is not
 * downloaded, and neither is any buffer after it (ice_dwnld_cfg_bufs). */
#define DDP_METADATA_BUF            0x80000000u

/* ---- section types (ICE_SID_*) ---- */
#define DDP_SID_METADATA            1
/* Per block: base + kind. */
#define DDP_SID_BASE_SW             10
#define DDP_SID_BASE_ACL            20
#define DDP_SID_BASE_FD             30
#define DDP_SID_BASE_RSS            40
#define DDP_SID_BASE_PE             80
#define DDP_SID_KIND_XLT0           0
#define DDP_SID_KIND_XLT_KB         1
#define DDP_SID_KIND_XLT1           2
#define DDP_SID_KIND_XLT2           3
#define DDP_SID_KIND_PROF_TCAM      4
#define DDP_SID_KIND_PROF_REDIR     5
#define DDP_SID_KIND_VEC_TBL        6
#define DDP_SID_KIND_CDID_KB        7
#define DDP_SID_KIND_CDID_REDIR     8
#define DDP_SID_RXPARSER_MARKER_PTYPE  55
#define DDP_SID_RXPARSER_BOOST_TCAM    56
#define DDP_SID_RXPARSER_METADATA_INIT 58
#define DDP_SID_TXPARSER_BOOST_TCAM    66
#define DDP_SID_LBL_FIRST           0x80000010u
#define DDP_SID_LBL_RXPARSER_TMEM   0x80000018u
#define DDP_SID_LBL_LAST            0x80000038u

/* ---- section contents ---- */
/* ICE_SID_METADATA: struct ice_meta_sect { ver; name[28]; __le32 track_id; } */
#define DDP_META_VER                0
#define DDP_META_NAME               4
#define DDP_META_NAME_SIZE          28      /* ICE_META_SECT_NAME_SIZE */
#define DDP_META_TRACK_ID           32
#define DDP_META_SECT_SIZE          36

/* Label sections: struct ice_label_section { __le16 count; { __le16 value; char name[64]; }[] } */
#define DDP_LABEL_SECT_COUNT        0
#define DDP_LABEL_SECT_HDR          2
#define DDP_LABEL_SIZE              66
#define DDP_LABEL_VALUE             0
#define DDP_LABEL_NAME              2
#define DDP_LABEL_NAME_SIZE         64

/* ICE_SID_RXPARSER_METADATA_INIT: struct ice_meta_init_section { __le16 count; __le16 offset;
 * struct ice_meta_init_entry { __le32 bm[6]; } entry[]; } - offset is the first entry index. */
#define DDP_META_INIT_COUNT         0
#define DDP_META_INIT_OFFSET        2
#define DDP_META_INIT_ENTRY         4
#define DDP_META_INIT_ENTRY_SIZE    24      /* ICE_META_INIT_BITS / 8 */
/* Entry 0, bit 123 + 60: the parser supports double VLAN mode (ice_vlan_mode.c). */
#define DDP_META_VLAN_MODE_ENTRY    0
#define DDP_META_VLAN_MODE_BIT      183

/* Table sections the driver updates with 0x0C42 (ice_upd_prof_hw, ice_create_tunnel):
 * XLT1 { __le16 count, offset; u8 value[count] }, XLT2 { __le16 count, offset; __le16 value[] },
 * PROF_TCAM { __le16 count; { __le16 addr; u8 key[10]; u8 prof_id; }[] } (packed),
 * VEC_TBL (ES) { __le16 count, offset; { u8 prot_id; __le16 off; u8 rsvd; }[count * fvw] },
 * BOOST_TCAM { __le16 count, reserved; { __le16 addr, rsvd; key[40]; u8 hit; u8 bits[43]; }[] } */
#define DDP_TBL_COUNT               0
#define DDP_TBL_OFFSET              2
#define DDP_TBL_DATA                4
#define DDP_XLT1_VALUE_SIZE         1
#define DDP_XLT2_VALUE_SIZE         2
#define DDP_PROF_TCAM_DATA          2
#define DDP_PROF_TCAM_ENTRY_SIZE    13
#define DDP_PROF_TCAM_ADDR          0
#define DDP_PROF_TCAM_PROF_ID       12
#define DDP_FV_WORD_SIZE            4
#define DDP_BOOST_TCAM_ENTRY_SIZE   88
#define DDP_BOOST_TCAM_ADDR         0
/* Table sizes per block (blk_sizes[] in ice_flex_pipe.c): XLT1 1024, XLT2 768 for every block. */
#define DDP_XLT1_ENTRIES            1024
#define DDP_XLT2_ENTRIES            768

/* ---- the synthetic package ----
 * One ICE segment holding one buffer. The buffer's first section is the Rx-parser label
 * section (the tunnel hints below), a metadata type, so ice downloads nothing; its second
 * section is ICE_SID_METADATA with the version and name below, which the firmware also reports
 * as its active package; its third the boost TCAM entries the tunnel hints name. */
#define DDP_SYNTH_VER_MAJOR         DDP_SUPP_VER_MAJOR
#define DDP_SYNTH_VER_MINOR         DDP_SUPP_VER_MINOR
#define DDP_SYNTH_VER_UPDATE        99
#define DDP_SYNTH_VER_DRAFT         0
#define DDP_SYNTH_NAME              "irdma-sim synthetic DDP"
#define DDP_SYNTH_TRACK_ID          0x1a5d0001
/* Tunnel hints (ice_flex_pipe.c tnls[]): a VXLAN and a GENEVE label per PF (the PF number
 * follows the prefix), each naming an Rx boost TCAM entry. */
#define DDP_TNL_VXLAN_LABEL         "TNL_VXLAN_PF"
#define DDP_TNL_GENEVE_LABEL        "TNL_GENEVE_PF"
#define DDP_TNL_PFS                 8
#define DDP_TNL_HINTS               (2 * DDP_TNL_PFS)
#define DDP_TNL_BOOST_ADDR(i)       (0x40 + (i))   /* VXLAN PF0..7, then GENEVE PF0..7 */
#define DDP_SYNTH_SEG_ID            "irdma-sim ICE segment"
/* Format version of the ICE segment (compared only against packages the NVM holds). */
#define DDP_SYNTH_SEG_FMT_MAJOR     1
#define DDP_SYNTH_SEG_FMT_MINOR     0

#endif
