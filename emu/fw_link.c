/* fw_link.c - see fw_link.h. */
#include "fw_link.h"

struct FwLink {
    IrdmaDev *d;
};

static const AqOpcode link_ops[] = {
    { 0 },
};

const AqOpcodeTable fw_link_opcodes = { link_ops, 0 };

FwLink *fw_link_new(IrdmaDev *d)
{
    FwLink *s = g_new0(FwLink, 1);

    s->d = d;
    return s;
}

void fw_link_free(FwLink *s)
{
    g_free(s);
}

void fw_link_pf_reset(FwLink *s)
{
    (void)s;
}
