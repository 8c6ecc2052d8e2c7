/* fw_pkg.c - see fw_pkg.h. */
#include "fw_pkg.h"

struct FwPkg {
    IrdmaDev *d;
};

static const AqOpcode pkg_ops[] = {
    { 0 },
};

const AqOpcodeTable fw_pkg_opcodes = { pkg_ops, 0 };

FwPkg *fw_pkg_new(IrdmaDev *d)
{
    FwPkg *s = g_new0(FwPkg, 1);

    s->d = d;
    return s;
}

void fw_pkg_free(FwPkg *s)
{
    g_free(s);
}

void fw_pkg_pf_reset(FwPkg *s)
{
    (void)s;
}
