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
