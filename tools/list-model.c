/*
 * list-model: prints what the model implements, one item per line, for the coverage check
 * (tests/coverage-check.sh compares it with docs/coverage.md):
 *   aq 0x0001 get_version
 * With --timing, the timing model's parameters instead (tests/timing-doc-check.sh compares
 * them with docs/timing.md):
 *   timing-clock-mhz 800 MHz
 */
#include <stdio.h>
#include <string.h>
#include <inttypes.h>
#include "emu/fw/aq.h"
#include "emu/core/timing.h"

static int list_timing(void)
{
    for (size_t i = 0; i < timing_param_count; i++) {
        printf("timing-%s %" PRIu64 " %s\n", timing_params[i].name, timing_params[i].def,
               timing_params[i].unit);
    }
    return 0;
}

int main(int argc, char **argv)
{
    size_t nt;
    const AqOpcodeTable *const *tables = aq_opcode_tables(&nt);

    if (argc == 2 && !strcmp(argv[1], "--timing")) {
        return list_timing();
    }
    if (argc != 1) {
        fprintf(stderr, "usage: list-model [--timing] (not '%s')\n", argv[1]);
        return 2;
    }

    for (size_t t = 0; t < nt; t++) {
        for (size_t i = 0; i < tables[t]->n; i++) {
            printf("aq 0x%04X %s\n", tables[t]->ops[i].opcode, tables[t]->ops[i].name);
        }
    }
    return 0;
}
