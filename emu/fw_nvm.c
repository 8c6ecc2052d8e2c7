/* fw_nvm.c - see fw_nvm.h. */
#include "fw_nvm.h"

struct FwNvm {
    IrdmaDev *d;
};

static const AqOpcode nvm_ops[] = {
    { 0 },
};

const AqOpcodeTable fw_nvm_opcodes = { nvm_ops, 0 };

FwNvm *fw_nvm_new(IrdmaDev *d)
{
    FwNvm *s = g_new0(FwNvm, 1);

    s->d = d;
    return s;
}

void fw_nvm_free(FwNvm *s)
{
    g_free(s);
}

void fw_nvm_pf_reset(FwNvm *s)
{
    (void)s;
}
