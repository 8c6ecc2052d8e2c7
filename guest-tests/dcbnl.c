/*
 * dcbnl: sets a netdev's IEEE DCB configuration over rtnetlink and reports the driver's own
 * result, for the traffic-class change tests.
 *
 *   dcbnl DEV ets BW0,..,BW7 PRIO_TC0,..,PRIO_TC7   (ETS, every TC's TSA ets, willing off)
 *   dcbnl DEV app-add DSCP PRIO                      (a DSCP -> priority APP entry)
 *   dcbnl DEV app-del DSCP PRIO
 *
 * Why not iproute2's dcb: in 6.1 it asks for an ACK, stops reading at the GET's reply and sends
 * the SET on the same socket with seq = time(NULL). The stale ACK then answers the SET: within
 * the same second the SET's own result is never read, across a second boundary dcb fails with
 * "Attribute write: Protocol error" although the kernel applied the change. Here every request
 * has its own sequence number and both its reply (DCB_ATTR_IEEE, the driver's errno as an s8)
 * and its ACK are read. Exit 0 only when the driver returned 0.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#define BUF_SIZE 8192

struct request {
    struct nlmsghdr *nlh;
    char buf[BUF_SIZE];
};

static void usage(void)
{
    fprintf(stderr, "usage: dcbnl DEV ets BW0,..,BW7 PRIO_TC0,..,PRIO_TC7\n"
                    "       dcbnl DEV app-add|app-del DSCP PRIO\n");
    exit(2);
}

static struct nlattr *put_attr(struct request *r, int type, const void *data, size_t len)
{
    struct nlattr *a = (struct nlattr *)(r->buf + NLMSG_ALIGN(r->nlh->nlmsg_len));

    a->nla_type = type;
    a->nla_len = NLA_HDRLEN + len;
    if (data) {
        memcpy((char *)a + NLA_HDRLEN, data, len);
    }
    r->nlh->nlmsg_len = NLMSG_ALIGN(r->nlh->nlmsg_len) + NLA_ALIGN(a->nla_len);
    return a;
}

/* Closes a nest opened by put_attr(r, type, NULL, 0). */
static void end_nest(struct request *r, struct nlattr *nest)
{
    nest->nla_len = r->buf + r->nlh->nlmsg_len - (char *)nest;
}

static void prepare(struct request *r, uint8_t cmd, const char *dev)
{
    struct dcbmsg *dcb;

    memset(r->buf, 0, sizeof(r->buf));
    r->nlh = (struct nlmsghdr *)r->buf;
    r->nlh->nlmsg_len = NLMSG_LENGTH(sizeof(*dcb));
    r->nlh->nlmsg_type = RTM_SETDCB;
    r->nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
    r->nlh->nlmsg_seq = 1;
    dcb = NLMSG_DATA(r->nlh);
    dcb->dcb_family = AF_UNSPEC;
    dcb->cmd = cmd;
    put_attr(r, DCB_ATTR_IFNAME, dev, strlen(dev) + 1);
}

/* Eight comma-separated numbers below @limit. */
static void parse_list(const char *s, uint8_t out[8], unsigned limit)
{
    char *end;

    for (int i = 0; i < 8; i++) {
        unsigned long v = strtoul(s, &end, 0);

        if (end == s || v >= limit || (i < 7 ? *end != ',' : *end != '\0')) {
            fprintf(stderr, "dcbnl: '%s' is not 8 comma-separated numbers below %u\n", s, limit);
            exit(2);
        }
        out[i] = v;
        s = end + 1;
    }
}

static unsigned parse_num(const char *s, unsigned limit)
{
    char *end;
    unsigned long v = strtoul(s, &end, 0);

    if (end == s || *end || v >= limit) {
        fprintf(stderr, "dcbnl: '%s' is not a number below %u\n", s, limit);
        exit(2);
    }
    return v;
}

/* The driver's result from the reply's DCB_ATTR_IEEE (an errno as s8), -EPROTO if absent. */
static int reply_result(const struct nlmsghdr *nlh)
{
    const struct nlattr *a = (const struct nlattr *)((const char *)NLMSG_DATA(nlh) +
                                                     NLMSG_ALIGN(sizeof(struct dcbmsg)));
    int left = nlh->nlmsg_len - NLMSG_LENGTH(NLMSG_ALIGN(sizeof(struct dcbmsg)));

    while (left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= left) {
        if (a->nla_type == DCB_ATTR_IEEE && a->nla_len == NLA_HDRLEN + 1) {
            return (int8_t)*((const uint8_t *)a + NLA_HDRLEN);
        }
        left -= NLA_ALIGN(a->nla_len);
        a = (const struct nlattr *)((const char *)a + NLA_ALIGN(a->nla_len));
    }
    return -EPROTO;
}

/* Sends @r and reads its reply and ACK; returns the driver's result (0 or -errno). */
static int talk(struct request *r)
{
    struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    int result = -EPROTO;
    char buf[BUF_SIZE];

    if (fd < 0 || sendto(fd, r->buf, r->nlh->nlmsg_len, 0, (struct sockaddr *)&kernel,
                         sizeof(kernel)) < 0) {
        perror("dcbnl: netlink");
        exit(1);
    }
    for (;;) {
        ssize_t n = recv(fd, buf, sizeof(buf), 0);

        if (n < 0) {
            perror("dcbnl: recv");
            exit(1);
        }
        for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
            if (h->nlmsg_seq != r->nlh->nlmsg_seq) {
                continue;
            }
            if (h->nlmsg_type == NLMSG_ERROR) {
                int err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;

                close(fd);
                return err ? err : result;     /* the ACK comes last */
            }
            if (h->nlmsg_type == RTM_SETDCB) {
                result = reply_result(h);
            }
        }
    }
}

int main(int argc, char **argv)
{
    struct request r;
    int err;

    if (argc < 3) {
        usage();
    }
    if (!strcmp(argv[2], "ets") && argc == 5) {
        struct ieee_ets ets = { .willing = 0 };
        struct nlattr *nest;

        parse_list(argv[3], ets.tc_tx_bw, 101);
        parse_list(argv[4], ets.prio_tc, IEEE_8021QAZ_MAX_TCS);
        for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
            ets.tc_tsa[i] = IEEE_8021QAZ_TSA_ETS;
        }
        prepare(&r, DCB_CMD_IEEE_SET, argv[1]);
        nest = put_attr(&r, DCB_ATTR_IEEE, NULL, 0);
        put_attr(&r, DCB_ATTR_IEEE_ETS, &ets, sizeof(ets));
        end_nest(&r, nest);
    } else if ((!strcmp(argv[2], "app-add") || !strcmp(argv[2], "app-del")) && argc == 5) {
        struct dcb_app app = {
            .selector = IEEE_8021QAZ_APP_SEL_DSCP,
            .protocol = parse_num(argv[3], 64),
            .priority = parse_num(argv[4], IEEE_8021QAZ_MAX_TCS),
        };
        struct nlattr *nest, *table;

        prepare(&r, argv[2][4] == 'a' ? DCB_CMD_IEEE_SET : DCB_CMD_IEEE_DEL, argv[1]);
        nest = put_attr(&r, DCB_ATTR_IEEE, NULL, 0);
        table = put_attr(&r, DCB_ATTR_IEEE_APP_TABLE, NULL, 0);
        put_attr(&r, DCB_ATTR_IEEE_APP, &app, sizeof(app));
        end_nest(&r, table);
        end_nest(&r, nest);
    } else {
        usage();
    }
    err = talk(&r);
    if (err) {
        fprintf(stderr, "dcbnl: %s %s: %s\n", argv[1], argv[2], strerror(-err));
        return 1;
    }
    return 0;
}
