/* fw_dcb.c - see fw_dcb.h. */
#include "fw_dcb.h"

struct FwDcb {
    IrdmaDev *d;
};

static const AqOpcode dcb_ops[] = {
    { 0 },
};

const AqOpcodeTable fw_dcb_opcodes = { dcb_ops, 0 };

FwDcb *fw_dcb_new(IrdmaDev *d)
{
    FwDcb *s = g_new0(FwDcb, 1);

    s->d = d;
    return s;
}

void fw_dcb_free(FwDcb *s)
{
    g_free(s);
}

void fw_dcb_pf_reset(FwDcb *s)
{
    (void)s;
}
