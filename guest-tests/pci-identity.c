/*
 * pci-identity: reads the irdma-sim function's PCI identity with libpci, the way the kernel
 * sees it, and compares it with what the harness says the device must be.
 *
 *   pci-identity --vendor 0x8086 --device 0x1593 --revision 0x02 --class 0x020000 \
 *                --bar0 33554432 --bar3 65536 --msix 1024 --msix-table 0 --msix-pba 0x8000 \
 *                --dsn 5254000012345678 [--subsys 8086:0002]
 *
 * Every option but --subsys is required: the MSI-X table and PBA are offsets in BAR3.
 * Prints every field it read, then "OK" or one "MISMATCH ..." line per difference; exit 0 only
 * when all match.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pci/pci.h>

/* Message Control of the MSI-X capability (libpci names only its bits). */
#define MSIX_MESSAGE_CONTROL 2

#ifndef PCI_EXT_CAP_ID_DSN
#define PCI_EXT_CAP_ID_DSN 0x03
#endif

struct expect {
    unsigned vendor, device, subsys_vendor, subsys_device;
    uint64_t revision, class, bar0, bar3, dsn, msix_table, msix_pba;
    unsigned msix;
};

static int mismatches;

static void check_u64(const char *what, uint64_t got, uint64_t want)
{
    if (got != want) {
        printf("MISMATCH %s: got 0x%" PRIx64 " want 0x%" PRIx64 "\n", what, got, want);
        mismatches++;
    }
}

static uint64_t parse_u64(const char *s, const char *opt)
{
    char *end;
    uint64_t v;

    errno = 0;
    v = strtoull(s, &end, 0);
    if (errno || *end || end == s) {
        fprintf(stderr, "pci-identity: bad value '%s' for --%s\n", s, opt);
        exit(2);
    }
    return v;
}

static uint64_t parse_hex(const char *s, const char *opt)
{
    char buf[64];

    snprintf(buf, sizeof(buf), "0x%s", s);
    return parse_u64(buf, opt);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "vendor", 1, NULL, 'v' }, { "device", 1, NULL, 'd' }, { "bar0", 1, NULL, '0' },
        { "bar3", 1, NULL, '3' }, { "msix", 1, NULL, 'm' }, { "dsn", 1, NULL, 's' },
        { "subsys", 1, NULL, 'S' }, { "revision", 1, NULL, 'r' }, { "class", 1, NULL, 'c' },
        { "msix-table", 1, NULL, 't' }, { "msix-pba", 1, NULL, 'p' }, { NULL, 0, NULL, 0 },
    };
    const char *required = "v" "d" "0" "3" "m" "s" "r" "c" "t" "p";
    char given[16] = "";
    struct expect want = { .vendor = 0x8086, .device = 0x1593 };
    struct pci_access *pacc;
    struct pci_dev *dev, *found = NULL;
    int c, have_subsys = 0;

    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (strlen(given) < sizeof(given) - 1) {
            given[strlen(given)] = c;
        }
        switch (c) {
        case 'v': want.vendor = parse_u64(optarg, "vendor"); break;
        case 'd': want.device = parse_u64(optarg, "device"); break;
        case '0': want.bar0 = parse_u64(optarg, "bar0"); break;
        case '3': want.bar3 = parse_u64(optarg, "bar3"); break;
        case 'm': want.msix = parse_u64(optarg, "msix"); break;
        case 's': want.dsn = parse_hex(optarg, "dsn"); break;
        case 'r': want.revision = parse_u64(optarg, "revision"); break;
        case 'c': want.class = parse_u64(optarg, "class"); break;
        case 't': want.msix_table = parse_u64(optarg, "msix-table"); break;
        case 'p': want.msix_pba = parse_u64(optarg, "msix-pba"); break;
        case 'S':
            if (sscanf(optarg, "%x:%x", &want.subsys_vendor, &want.subsys_device) != 2) {
                fprintf(stderr, "pci-identity: bad value '%s' for --subsys\n", optarg);
                return 2;
            }
            have_subsys = 1;
            break;
        default:
            return 2;
        }
    }
    for (const char *r = required; *r; r++) {
        if (!strchr(given, *r)) {
            for (const struct option *o = opts; o->name; o++) {
                if (o->val == *r) {
                    fprintf(stderr, "pci-identity: --%s is required\n", o->name);
                }
            }
            return 2;
        }
    }

    pacc = pci_alloc();
    pci_init(pacc);
    pci_scan_bus(pacc);
    for (dev = pacc->devices; dev; dev = dev->next) {
        pci_fill_info(dev, PCI_FILL_IDENT);
        if (dev->vendor_id == want.vendor && dev->device_id == want.device) {
            found = dev;
            break;
        }
    }
    if (!found) {
        printf("MISMATCH no function %04x:%04x on the bus\n", want.vendor, want.device);
        pci_cleanup(pacc);
        return 1;
    }
    dev = found;
    pci_fill_info(dev, PCI_FILL_IDENT | PCI_FILL_BASES | PCI_FILL_SIZES | PCI_FILL_CAPS |
                  PCI_FILL_EXT_CAPS);
    printf("slot %04x:%02x:%02x.%d id %04x:%04x\n", dev->domain, dev->bus, dev->dev, dev->func,
           dev->vendor_id, dev->device_id);

    {
        unsigned sv = pci_read_word(dev, PCI_SUBSYSTEM_VENDOR_ID);
        unsigned sd = pci_read_word(dev, PCI_SUBSYSTEM_ID);

        unsigned rev = pci_read_byte(dev, PCI_REVISION_ID);
        unsigned cls = pci_read_word(dev, PCI_CLASS_DEVICE) << 8 |
                       pci_read_byte(dev, PCI_CLASS_PROG);

        printf("subsystem %04x:%04x revision %02x class %06x\n", sv, sd, rev, cls);
        check_u64("revision", rev, want.revision);
        check_u64("class", cls, want.class);
        if (have_subsys) {
            check_u64("subsystem vendor", sv, want.subsys_vendor);
            check_u64("subsystem device", sd, want.subsys_device);
        }
    }

    for (int i = 0; i < 6; i++) {
        if (dev->size[i]) {
            printf("bar%d size %" PRIu64 " flags 0x%" PRIx64 "\n", i, (uint64_t)dev->size[i],
                   (uint64_t)(dev->base_addr[i] & 0xf));
        }
    }
    check_u64("bar0 size", dev->size[0], want.bar0);
    check_u64("bar0 64-bit prefetchable", dev->base_addr[0] & 0xe,
              PCI_BASE_ADDRESS_MEM_TYPE_64 | PCI_BASE_ADDRESS_MEM_PREFETCH);
    check_u64("bar3 size", dev->size[3], want.bar3);

    {
        struct pci_cap *msix = pci_find_cap(dev, PCI_CAP_ID_MSIX, PCI_CAP_NORMAL);
        struct pci_cap *pcie = pci_find_cap(dev, PCI_CAP_ID_EXP, PCI_CAP_NORMAL);
        struct pci_cap *dsn = pci_find_cap(dev, PCI_EXT_CAP_ID_DSN, PCI_CAP_EXTENDED);

        printf("pcie capability %s\n", pcie ? "present" : "absent");
        if (!pcie) {
            printf("MISMATCH no PCI Express capability\n");
            mismatches++;
        }
        if (msix) {
            unsigned flags = pci_read_word(dev, msix->addr + MSIX_MESSAGE_CONTROL);
            uint32_t table = pci_read_long(dev, msix->addr + PCI_MSIX_TABLE);
            uint32_t pba = pci_read_long(dev, msix->addr + PCI_MSIX_PBA);

            printf("msix vectors %u table bar%u+0x%x pba bar%u+0x%x\n",
                   (flags & PCI_MSIX_TABSIZE) + 1, table & PCI_MSIX_BIR, table & ~PCI_MSIX_BIR,
                   pba & PCI_MSIX_BIR, pba & ~PCI_MSIX_BIR);
            check_u64("msix vectors", (flags & PCI_MSIX_TABSIZE) + 1, want.msix);
            check_u64("msix table bar", table & PCI_MSIX_BIR, 3);
            check_u64("msix pba bar", pba & PCI_MSIX_BIR, 3);
            check_u64("msix table offset", table & ~PCI_MSIX_BIR, want.msix_table);
            check_u64("msix pba offset", pba & ~PCI_MSIX_BIR, want.msix_pba);
        } else {
            printf("MISMATCH no MSI-X capability\n");
            mismatches++;
        }
        if (dsn) {
            uint64_t v = ((uint64_t)pci_read_long(dev, dsn->addr + 8) << 32) |
                         pci_read_long(dev, dsn->addr + 4);

            printf("dsn %016" PRIx64 "\n", v);
            check_u64("dsn", v, want.dsn);
        } else {
            printf("MISMATCH no Device Serial Number capability\n");
            mismatches++;
        }
    }

    pci_cleanup(pacc);
    printf("%s\n", mismatches ? "FAILED" : "OK");
    return mismatches ? 1 : 0;
}
