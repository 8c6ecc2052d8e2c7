/* test_rocev2.c - the RoCEv2 wire format: build/parse round trips, the ICRC, SQ/RQ WQE decoding. */
#include <check.h>
#include <string.h>
#include <glib.h>
#include <zlib.h>
#include "emu/core/crc32.h"
#include "emu/rdma/rocev2.h"
#include "emu/rdma/wqe.h"

static const uint8_t payload[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!";

static RocePkt sample(uint8_t opcode, bool ipv4)
{
    RocePkt p = {
        .dmac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x57 },
        .smac = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 },
        .ipv4 = ipv4, .tos = 0x08, .ttl = 64, .flow_label = 0x12345, .sport = 0xc123,
        .opcode = opcode, .se = true, .ackreq = true, .pkey = ROCE_PKEY_DEFAULT,
        .dqpn = 0x000abc, .psn = 0xfffffe, .reth_va = 0x00007f0012345678ull,
        .reth_rkey = 0x1234ab, .reth_len = 63, .aeth_syndrome = AETH_ACK, .aeth_msn = 77,
        .deth_qkey = 0x80010000u, .deth_sqpn = 1, .imm = 0xdeadbeef, .ieth_rkey = 0x55aa00,
        .payload = payload, .payload_len = 63,
    };

    memcpy(p.sip, ipv4 ? (uint8_t[16]) { 10, 0, 2, 15 } :
                         (uint8_t[16]) { 0xfe, 0x80, [15] = 1 }, 16);
    memcpy(p.dip, ipv4 ? (uint8_t[16]) { 10, 0, 2, 16 } :
                         (uint8_t[16]) { 0xfe, 0x80, [15] = 2 }, 16);
    return p;
}

static const uint8_t all_ops[] = {
    BTH_RC_SEND_FIRST, BTH_RC_SEND_MIDDLE, BTH_RC_SEND_LAST, BTH_RC_SEND_LAST_IMM,
    BTH_RC_SEND_ONLY, BTH_RC_SEND_ONLY_IMM, BTH_RC_SEND_LAST_INV, BTH_RC_SEND_ONLY_INV,
    BTH_RC_WRITE_FIRST, BTH_RC_WRITE_MIDDLE, BTH_RC_WRITE_LAST, BTH_RC_WRITE_LAST_IMM,
    BTH_RC_WRITE_ONLY, BTH_RC_WRITE_ONLY_IMM, BTH_RC_READ_REQUEST, BTH_RC_READ_RESP_FIRST,
    BTH_RC_READ_RESP_MIDDLE, BTH_RC_READ_RESP_LAST, BTH_RC_READ_RESP_ONLY, BTH_RC_ACK,
    BTH_UD_SEND_ONLY, BTH_UD_SEND_ONLY_IMM,
};

START_TEST(every_opcode_round_trips)
{
    uint8_t frame[ROCE_FRAME_MAX];

    for (int v4 = 0; v4 < 2; v4++) {
        for (size_t i = 0; i < sizeof(all_ops); i++) {
            RocePkt in = sample(all_ops[i], v4), out;
            unsigned fl = rocev2_opcode_flags(all_ops[i]);
            size_t len = rocev2_build(&in, frame);

            ck_assert_int_eq(rocev2_parse(frame, len, &out, true), ROCE_PARSE_OK);
            ck_assert_uint_eq(out.opcode, all_ops[i]);
            ck_assert_uint_eq(out.dqpn, in.dqpn);
            ck_assert_uint_eq(out.psn, in.psn);
            ck_assert(out.ackreq && out.se);
            ck_assert_int_eq(out.ipv4, v4);
            ck_assert_mem_eq(out.sip, in.sip, 16);
            ck_assert_mem_eq(out.dip, in.dip, 16);
            ck_assert_uint_eq(out.sport, in.sport);
            ck_assert_uint_eq(out.payload_len, (fl & BTH_HAS_PAYLOAD) ? 63 : 0);
            if (fl & BTH_HAS_PAYLOAD) {
                ck_assert_mem_eq(out.payload, payload, 63);
            }
            if (fl & BTH_HAS_RETH) {
                ck_assert_uint_eq(out.reth_va, in.reth_va);
                ck_assert_uint_eq(out.reth_rkey, in.reth_rkey);
                ck_assert_uint_eq(out.reth_len, in.reth_len);
            }
            if (fl & BTH_HAS_AETH) {
                ck_assert_uint_eq(out.aeth_syndrome, AETH_ACK);
                ck_assert_uint_eq(out.aeth_msn, 77);
            }
            if (fl & BTH_HAS_DETH) {
                ck_assert_uint_eq(out.deth_qkey, in.deth_qkey);
                ck_assert_uint_eq(out.deth_sqpn, 1);
            }
            ck_assert_uint_eq(out.imm, (fl & BTH_HAS_IMM) ? in.imm : 0);
            ck_assert_uint_eq(out.ieth_rkey, (fl & BTH_HAS_IETH) ? in.ieth_rkey : 0);
            /* Payload padded to 4 bytes, 4 bytes of ICRC. */
            ck_assert_uint_eq((len - 14) % 4, 0);
        }
    }
}
END_TEST

START_TEST(icrc_covers_the_invariant_fields_only)
{
    RocePkt in = sample(BTH_RC_SEND_ONLY, true), out;
    uint8_t frame[ROCE_FRAME_MAX], copy[ROCE_FRAME_MAX];
    size_t len = rocev2_build(&in, frame);

    /* A router may change TTL/TOS (and the IP checksum with them): the ICRC still holds. */
    memcpy(copy, frame, len);
    copy[14 + 8] = 3;
    copy[14 + 1] = 0xb8;
    ck_assert_int_eq(rocev2_parse(copy, len, &out, true), ROCE_PARSE_OK);
    /* A payload bit, the PSN, the destination QP: ICRC mismatch. */
    for (size_t at = 14 + 20 + 8 + 5; at < len - 4; at += 7) {   /* past BTH resv8a */
        memcpy(copy, frame, len);
        copy[at] ^= 0x10;
        ck_assert_int_eq(rocev2_parse(copy, len, &out, true), ROCE_PARSE_BAD_ICRC);
        /* Unchecked (internal loopback) it still parses. */
        ck_assert_int_ne(rocev2_parse(copy, len, &out, false), ROCE_PARSE_NOT_ROCE);
    }
}
END_TEST

/* A looped frame is the wire frame but for the ICRC and the IPv6 UDP checksum, both zero: it
 * parses only unchecked, to the same packet. */
START_TEST(looped_frames_skip_the_icrc_only)
{
    for (int v4 = 0; v4 < 2; v4++) {
        RocePkt in = sample(BTH_RC_WRITE_ONLY, v4), out;
        uint8_t wire[ROCE_FRAME_MAX], looped[ROCE_FRAME_MAX];
        size_t len = rocev2_build(&in, wire), udp_csum = 14 + (v4 ? 20 : 40) + 6;

        ck_assert_uint_eq(rocev2_build_looped(&in, looped), len);
        ck_assert_mem_eq(looped + len - ROCE_ICRC_LEN, "\0\0\0\0", ROCE_ICRC_LEN);
        if (!v4) {
            ck_assert_mem_eq(looped + udp_csum, "\0\0", 2);
            memcpy(looped + udp_csum, wire + udp_csum, 2);
        }
        ck_assert_mem_eq(looped, wire, len - ROCE_ICRC_LEN);
        ck_assert_int_eq(rocev2_parse(looped, len, &out, true), ROCE_PARSE_BAD_ICRC);
        ck_assert_int_eq(rocev2_parse(looped, len, &out, false), ROCE_PARSE_OK);
        ck_assert_uint_eq(out.reth_va, in.reth_va);
        ck_assert_mem_eq(out.payload, payload, in.payload_len);
    }
}
END_TEST

/* The payload lands at rocev2_payload_offset(); one already there builds the same frame. */
START_TEST(a_payload_in_place_builds_the_same_frame)
{
    static const uint8_t ops[] = {
        BTH_RC_SEND_ONLY_INV, BTH_RC_WRITE_MIDDLE, BTH_RC_WRITE_ONLY_IMM, BTH_RC_READ_RESP_FIRST,
        BTH_UD_SEND_ONLY_IMM,
    };

    for (int v4 = 0; v4 < 2; v4++) {
        for (int vlan = 0; vlan < 2; vlan++) {
            for (size_t i = 0; i < sizeof(ops); i++) {
                RocePkt in = sample(ops[i], v4);
                uint8_t frame[ROCE_FRAME_MAX], in_place[ROCE_FRAME_MAX];
                size_t off, len;

                in.vlan = vlan;
                in.vlan_tci = 0x2005;
                off = rocev2_payload_offset(&in);
                len = rocev2_build(&in, frame);
                ck_assert_mem_eq(frame + off, payload, in.payload_len);
                memset(in_place, 0xa5, sizeof(in_place));
                memcpy(in_place + off, payload, in.payload_len);
                in.payload = in_place + off;
                ck_assert_uint_eq(rocev2_build(&in, in_place), len);
                ck_assert_mem_eq(in_place, frame, len);
            }
        }
    }
}
END_TEST

/* Every field of two packets but where their payloads are and the IP header. */
static void expect_same_fields(const RocePkt *a, const RocePkt *b)
{
    ck_assert_mem_eq(a->dmac, b->dmac, 6);
    ck_assert_mem_eq(a->smac, b->smac, 6);
    ck_assert_int_eq(a->vlan, b->vlan);
    ck_assert_uint_eq(a->vlan_tci, b->vlan_tci);
    ck_assert_int_eq(a->ipv4, b->ipv4);
    ck_assert_mem_eq(a->sip, b->sip, 16);
    ck_assert_mem_eq(a->dip, b->dip, 16);
    ck_assert_uint_eq(a->tos, b->tos);
    ck_assert_uint_eq(a->ttl, b->ttl);
    ck_assert_uint_eq(a->flow_label, b->flow_label);
    ck_assert_uint_eq(a->sport, b->sport);
    ck_assert_uint_eq(a->opcode, b->opcode);
    ck_assert_int_eq(a->se, b->se);
    ck_assert_int_eq(a->ackreq, b->ackreq);
    ck_assert_uint_eq(a->pkey, b->pkey);
    ck_assert_uint_eq(a->dqpn, b->dqpn);
    ck_assert_uint_eq(a->psn, b->psn);
    ck_assert_uint_eq(a->reth_va, b->reth_va);
    ck_assert_uint_eq(a->reth_rkey, b->reth_rkey);
    ck_assert_uint_eq(a->reth_len, b->reth_len);
    ck_assert_uint_eq(a->aeth_syndrome, b->aeth_syndrome);
    ck_assert_uint_eq(a->aeth_msn, b->aeth_msn);
    ck_assert_uint_eq(a->deth_qkey, b->deth_qkey);
    ck_assert_uint_eq(a->deth_sqpn, b->deth_sqpn);
    ck_assert_uint_eq(a->imm, b->imm);
    ck_assert_uint_eq(a->ieth_rkey, b->ieth_rkey);
    ck_assert_uint_eq(a->payload_len, b->payload_len);
}

/* A packet delivered without a frame (rocev2_as_parsed) is what its frame parses to, whatever
 * its fields hold past their width on the wire or where its opcode does not carry them; and
 * rocev2_frame_len() is the frame's length. */
START_TEST(as_parsed_is_what_the_frame_parses_to)
{
    for (int v4 = 0; v4 < 2; v4++) {
        for (int vlan = 0; vlan < 2; vlan++) {
            for (size_t i = 0; i < sizeof(all_ops); i++) {
                RocePkt in = sample(all_ops[i], v4), out, exp;
                uint8_t frame[ROCE_FRAME_MAX];
                size_t len;

                in.vlan = vlan;
                in.vlan_tci = 0x2005;
                in.dqpn |= 0xab000000u;
                in.psn |= 0x7f000000u;
                in.deth_sqpn |= 0xff000000u;
                in.aeth_msn |= 0x5a000000u;
                in.flow_label |= 0xfff00000u;
                in.sip[7] = in.dip[9] = v4 ? 0xee : in.sip[7];
                len = rocev2_build(&in, frame);
                ck_assert_int_eq(rocev2_parse(frame, len, &out, true), ROCE_PARSE_OK);
                exp = in;
                rocev2_as_parsed(&exp);
                expect_same_fields(&exp, &out);
                ck_assert_ptr_eq(exp.payload, in.payload);
                ck_assert_ptr_null(exp.l3);
                ck_assert_uint_eq(rocev2_frame_len(&in), len);
            }
        }
    }
}
END_TEST

START_TEST(hostile_frames_are_refused)
{
    RocePkt in = sample(BTH_RC_WRITE_ONLY, true), out;
    uint8_t frame[ROCE_FRAME_MAX], copy[ROCE_FRAME_MAX];
    size_t len = rocev2_build(&in, frame);

    /* Every truncation is refused (or not RoCE at all), never read past. */
    for (size_t n = 0; n < len; n++) {
        ck_assert_int_ne(rocev2_parse(frame, n, &out, true), ROCE_PARSE_OK);
    }
    /* An opcode the engine does not implement; a UDP length that lies. */
    memcpy(copy, frame, len);
    copy[14 + 20 + 8] = 0x13;
    ck_assert_int_eq(rocev2_parse(copy, len, &out, false), ROCE_PARSE_MALFORMED);
    memcpy(copy, frame, len);
    copy[14 + 20 + 4] = 0xff;
    ck_assert_int_eq(rocev2_parse(copy, len, &out, false), ROCE_PARSE_MALFORMED);
    /* Another UDP port is LAN traffic. */
    memcpy(copy, frame, len);
    copy[14 + 20 + 3] = 0x00;
    ck_assert_int_eq(rocev2_parse(copy, len, &out, false), ROCE_PARSE_NOT_ROCE);
}
END_TEST

#define CRC_MAX_LEN   4200      /* past a 4 KiB MTU frame */
#define CRC_MAX_ALIGN 16

/* The folding CRC against zlib's for every length, from aligned and unaligned starts, from a
 * fresh start and continuing other CRCs (random data, one seed: reproducible). */
START_TEST(crc32_is_zlibs_crc32)
{
    static const unsigned aligns[] = { 0, 1, 3, 8, 15 };
    static const uint32_t seeds[] = { 0, 0xffffffffu, 0x12345678u, 0x80000001u };
    GRand *rnd = g_rand_new_with_seed(0x1cc5c0de);
    uint8_t *buf = g_malloc(CRC_MAX_LEN + CRC_MAX_ALIGN);

    for (size_t i = 0; i < CRC_MAX_LEN + CRC_MAX_ALIGN; i++) {
        buf[i] = g_rand_int(rnd);
    }
    for (size_t a = 0; a < G_N_ELEMENTS(aligns); a++) {
        for (size_t s = 0; s < G_N_ELEMENTS(seeds); s++) {
            for (size_t len = 0; len <= CRC_MAX_LEN; len++) {
                const uint8_t *p = buf + aligns[a];

                ck_assert_msg(emu_crc32(seeds[s], p, len) == crc32_z(seeds[s], p, len),
                              "align %u seed 0x%08x len %zu", aligns[a], seeds[s], len);
            }
        }
    }
    g_free(buf);
    g_rand_free(rnd);
}
END_TEST

START_TEST(psn_arithmetic_wraps_at_24_bits)
{
    ck_assert_int_eq(psn_diff(0, 0xffffff), 1);
    ck_assert_int_eq(psn_diff(0xffffff, 0), -1);
    ck_assert_int_eq(psn_diff(5, 3), 2);
}
END_TEST

/* A WQE as irdma_uk_send builds it: immediate in slot 0, two SGEs, a pad slot. */
START_TEST(sq_wqe_decode_follows_the_fragment_slots)
{
    uint8_t raw[8 * 32] = { 0 };
    SqWqe w;

    st64(raw + 0, 0x11223344);
    st64(raw + 32, 0x1000);
    st64(raw + 40, SQWQE_VALID | pe_prep(WQE_FRAG_LEN, 100) | 0x0101);
    st64(raw + 48, 0x2003);
    st64(raw + 56, SQWQE_VALID | pe_prep(WQE_FRAG_LEN, 5) | 0x0202);
    st64(raw + 64 + 8, SQWQE_VALID);
    st64(raw + SQWQE_HDR, SQWQE_VALID | SQWQE_SIGCOMPL | SQWQE_IMMDATAFLAG |
                          pe_prep(SQWQE_OPCODE, SQ_OP_SEND) | pe_prep(SQWQE_ADDFRAGCNT, 3));
    ck_assert_uint_eq(sq_wqe_quanta(ld64(raw + SQWQE_HDR)), 3);
    ck_assert(sq_wqe_decode(raw, &w));
    ck_assert(w.imm_valid && w.signaled);
    ck_assert_uint_eq(w.imm, 0x11223344);
    ck_assert_uint_eq(w.nsge, 2);
    ck_assert_uint_eq(w.len, 105);
    ck_assert_uint_eq(w.sge[1].addr, 0x2003);
    ck_assert_uint_eq(w.sge[1].stag, 0x0202);
    /* Inline: 8 bytes in quantum 0, 31 per quantum after, valid markers skipped. */
    memset(raw, 0, sizeof(raw));
    for (int i = 0; i < 8; i++) {
        raw[8 + i] = i;
    }
    for (int i = 0; i < 31; i++) {
        raw[32 + i] = 8 + i;
        raw[64 + i] = 39 + i;
    }
    raw[63] = 0x80;
    st64(raw + SQWQE_HDR, SQWQE_VALID | SQWQE_INLINEDATAFLAG | pe_prep(SQWQE_INLINEDATALEN, 50) |
                          pe_prep(SQWQE_OPCODE, SQ_OP_RDMA_WRITE));
    ck_assert_uint_eq(sq_wqe_quanta(ld64(raw + SQWQE_HDR)), 3);
    ck_assert(sq_wqe_decode(raw, &w));
    ck_assert_uint_eq(w.len, 50);
    for (int i = 0; i < 50; i++) {
        ck_assert_uint_eq(w.inline_buf[i], i);
    }
    /* Too many fragments to fit eight quanta; inline data longer than the maximum. */
    st64(raw + SQWQE_HDR, SQWQE_VALID | pe_prep(SQWQE_ADDFRAGCNT, 15));
    ck_assert_uint_eq(sq_wqe_quanta(ld64(raw + SQWQE_HDR)), 0);
    ck_assert(!sq_wqe_decode(raw, &w));
    st64(raw + SQWQE_HDR, SQWQE_VALID | SQWQE_INLINEDATAFLAG | pe_prep(SQWQE_INLINEDATALEN, 200));
    ck_assert(!sq_wqe_decode(raw, &w));
}
END_TEST

Suite *rocev2_suite(void)
{
    Suite *s = suite_create("rocev2");
    TCase *tc = tcase_create("wire");

    tcase_add_test(tc, every_opcode_round_trips);
    tcase_add_test(tc, crc32_is_zlibs_crc32);
    tcase_add_test(tc, icrc_covers_the_invariant_fields_only);
    tcase_add_test(tc, looped_frames_skip_the_icrc_only);
    tcase_add_test(tc, a_payload_in_place_builds_the_same_frame);
    tcase_add_test(tc, as_parsed_is_what_the_frame_parses_to);
    tcase_add_test(tc, hostile_frames_are_refused);
    tcase_add_test(tc, psn_arithmetic_wraps_at_24_bits);
    tcase_add_test(tc, sq_wqe_decode_follows_the_fragment_slots);
    suite_add_tcase(s, tc);
    return s;
}
