/* fw_sched.c - see fw_sched.h. */
#include "fw_sched.h"

struct FwSched {
    IrdmaDev *d;
};

static const AqOpcode sched_ops[] = {
    { 0 },
};

const AqOpcodeTable fw_sched_opcodes = { sched_ops, 0 };

FwSched *fw_sched_new(IrdmaDev *d)
{
    FwSched *s = g_new0(FwSched, 1);

    s->d = d;
    return s;
}

void fw_sched_free(FwSched *s)
{
    g_free(s);
}

void fw_sched_pf_reset(FwSched *s)
{
    (void)s;
}

/* Until the scheduler tree exists: a single TC 0 under a root, nothing to change. */
void fw_sched_set_tcs(FwSched *s, uint8_t tc_bitmap)
{
    (void)s;
    (void)tc_bitmap;
}

uint32_t fw_sched_tc_teid(FwSched *s, unsigned tc)
{
    (void)s;
    return tc == 0 ? 2 : FW_SCHED_INVALID_TEID;
}

uint32_t fw_sched_root_teid(FwSched *s)
{
    (void)s;
    return 1;
}
