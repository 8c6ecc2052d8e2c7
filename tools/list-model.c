/*
 * list-model: prints what the model implements, one item per line, for the coverage check
 * (tests/coverage-check.sh compares it with docs/coverage.md):
 *   aq 0x0001 get_version
 */
#include <stdio.h>
#include "emu/aq.h"

int main(void)
{
    size_t nt;
    const AqOpcodeTable *const *tables = aq_opcode_tables(&nt);

    for (size_t t = 0; t < nt; t++) {
        for (size_t i = 0; i < tables[t]->n; i++) {
            printf("aq 0x%04X %s\n", tables[t]->ops[i].opcode, tables[t]->ops[i].name);
        }
    }
    return 0;
}
