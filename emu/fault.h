/*
 * fault.h - fault injection: a plan of rules that make the device misbehave on purpose, so a
 * driver's error paths can be tested (docs/faults.md).
 *
 * A plan is an ini file (GKeyFile): a [plan] group with the seed, and one [rule NAME] group per
 * rule, each naming an event to match ("on"), what to do ("action"), and when ("once",
 * "every", "probability", "times", "after"). The device asks fault_check() at each hook; the
 * first rule that matches and triggers decides, and is logged (trace event + the fault log the
 * tests read over QOM). Triggers count only matching events and draw from one GRand per rule
 * seeded from the plan's seed, so the same plan, seed and guest actions give the same log.
 */
#ifndef IRDMA_EMU_FAULT_H
#define IRDMA_EMU_FAULT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct IrdmaDev IrdmaDev;

typedef enum FaultEvent {
    FAULT_ON_CQP,              /* a CQP WQE about to run; code: its opcode, id: the QP if any */
    FAULT_ON_AE,               /* an AE about to be posted; code: the AE code, id: the QP */
} FaultEvent;

typedef enum FaultActionKind {
    FAULT_ERROR,               /* complete with major/minor code instead of running (CQP) */
    FAULT_DROP,                /* AE: do not post it; CQP: run the op, write no completion */
    FAULT_OICR,                /* CQP: run and complete the op, then raise an OICR cause */
} FaultActionKind;

typedef struct FaultAction {
    FaultActionKind kind;
    uint16_t maj, min;         /* FAULT_ERROR */
    uint32_t oicr;             /* FAULT_OICR: the PFINT_OICR cause */
    uint32_t criterr;          /* FAULT_OICR of a PE critical error: GLPE_CRITERR */
} FaultAction;

typedef struct FaultPlan FaultPlan;

GQuark fault_error_quark(void);

/* Parse @text (from @source, for messages). NULL with @errp naming the line and the problem. */
FaultPlan *fault_plan_parse(const char *text, const char *source, GError **errp);
FaultPlan *fault_plan_load(const char *path, GError **errp);
void fault_plan_free(FaultPlan *plan);
/* Every rule's counters and random stream back to where the plan started. */
void fault_plan_rewind(FaultPlan *plan);

/* Install @plan on @d (NULL: none), taking ownership; the fault log starts empty. */
void fault_set_plan(IrdmaDev *d, FaultPlan *plan);
/* The action for event @ev (@code, object @id), or NULL to go on as normal. */
const FaultAction *fault_check(IrdmaDev *d, FaultEvent ev, unsigned code, unsigned id);
/* One line per fault fired: "<virtual ns> <rule> <event> <action>". */
const char *fault_log(IrdmaDev *d);

#endif
