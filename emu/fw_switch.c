/* fw_switch.c - see fw_switch.h. */
#include "fw_switch.h"

struct FwSwitch {
    IrdmaDev *d;
};

static const AqOpcode switch_ops[] = {
    { 0 },
};

const AqOpcodeTable fw_switch_opcodes = { switch_ops, 0 };

FwSwitch *fw_switch_new(IrdmaDev *d)
{
    FwSwitch *s = g_new0(FwSwitch, 1);

    s->d = d;
    return s;
}

void fw_switch_free(FwSwitch *s)
{
    g_free(s);
}

void fw_switch_pf_reset(FwSwitch *s)
{
    (void)s;
}
