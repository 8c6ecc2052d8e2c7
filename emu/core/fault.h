/*
 * fault.h - fault injection: a plan of rules that make the device misbehave on purpose, so a
 * driver's error paths can be tested (docs/faults.md).
 *
 * A plan is an ini file (GKeyFile): a [plan] group with the seed, and one [rule NAME] group per
 * rule, each naming an event to match ("on"), what to do ("action"), and when ("once",
 * "every", "probability", "times", "after", "when"; "state" moves the plan to a named state
 * when the rule fires). The device asks fault_check() at each hook; the first rule that
 * matches and triggers decides, and is logged (trace event + the fault log the tests read over
 * QOM). Triggers count only matching events and draw from one GRand per rule seeded from the
 * plan's seed, so the same plan, seed and guest actions give the same log.
 *
 * fault_check() carries out the actions that do not depend on the event itself (oicr, remove,
 * none); the hook carries out the others (error, drop, delay, duplicate, corrupt, raise-ae,
 * fail), and the parser refuses an action the event's hook cannot carry out.
 */
#ifndef IRDMA_EMU_FAULT_H
#define IRDMA_EMU_FAULT_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct IrdmaDev IrdmaDev;

typedef enum FaultEvent {
    FAULT_ON_CQP,              /* a CQP WQE about to run; code: opcode, id: its QP or CQ */
    FAULT_ON_AQ,               /* an admin command about to run; code: opcode */
    FAULT_ON_AE,               /* an AE about to be posted; code: the AE code, id: the QP */
    FAULT_ON_WQE,              /* an SQ WQE about to run; code: its opcode, id: the QP */
    FAULT_ON_REG_READ,         /* a BAR0 read; code: the offset */
    FAULT_ON_REG_WRITE,        /* a BAR0 write; code: the offset */
    FAULT_ON_DMA_READ,         /* a DMA read of guest memory */
    FAULT_ON_DMA_WRITE,        /* a DMA write of guest memory */
    FAULT_ON_IRQ,              /* an MSI-X message about to be sent; code: the vector */
    FAULT_EVENT_COUNT
} FaultEvent;

typedef enum FaultActionKind {
    FAULT_NONE,                /* nothing: the rule only logs and moves the state */
    FAULT_ERROR,               /* complete with an error code instead of running (CQP, AQ) */
    FAULT_DROP,                /* the completion, AE, interrupt or register write is lost */
    FAULT_DELAY,               /* the event happens delay_ns later */
    FAULT_DUPLICATE,           /* the AE, interrupt or SQ WQE completion happens twice */
    FAULT_CORRUPT,             /* one field of the AE or register value is replaced */
    FAULT_RAISE_AE,            /* the event's QP gets AE @ae */
    FAULT_OICR,                /* raise an OICR cause (and GLPE_CRITERR) */
    FAULT_REMOVE,              /* surprise removal: BAR reads all-ones, nothing else out */
    FAULT_FAIL,                /* the DMA fails, as an unbacked address does */
    FAULT_ACTION_COUNT
} FaultActionKind;

typedef enum FaultField {
    FAULT_FIELD_VALUE,         /* a register read's or write's value */
    FAULT_FIELD_CODE,          /* an AE's code */
    FAULT_FIELD_QP,            /* an AE's QP id */
    FAULT_FIELD_STATE,         /* an AE's IWSTATE */
} FaultField;

typedef struct FaultAction {
    FaultActionKind kind;
    uint16_t maj, min;         /* FAULT_ERROR: CQP major and minor code; AQ: maj = return code */
    uint64_t delay_cycles;     /* FAULT_DELAY, in device clock cycles (timing clock-mhz) */
    bool until_next;           /* FAULT_DELAY of an admin command: held past its delay until
                                * the driver posts one behind it (it has given up waiting) */
    FaultField field;          /* FAULT_CORRUPT: which field ... */
    uint32_t value;            /* ... gets this value */
    uint16_t ae;               /* FAULT_RAISE_AE */
    uint32_t oicr;             /* FAULT_OICR: the PFINT_OICR cause */
    uint32_t latch;            /* FAULT_OICR: GLPE_CRITERR (pe-critical) or PFHMC_ERRORINFO
                                * (hmc-error) latched with the cause */
} FaultAction;

typedef struct FaultPlan FaultPlan;

/* The opcodes of one event kind that a plan may name, from the block that owns them. */
typedef struct FaultOpcodes {
    const char *(*name)(unsigned code);      /* NULL: the device implements no such opcode */
    int (*named)(const char *name);          /* the opcode called @name (any case), or -1 */
    const char *(*object)(unsigned code);    /* what the op's id names: "qp", "cq" or NULL */
} FaultOpcodes;

/* What plans may name, gathered by the composition root from the blocks (device.h,
 * irdma_dev_fault_vocab): the fault engine reads no block's tables itself. */
typedef struct FaultVocab {
    const FaultOpcodes *cqp;   /* CQP WQE opcodes */
    const FaultOpcodes *wqe;   /* SQ WQE opcodes (their id is always the QP: no object) */
} FaultVocab;

/* A device's fault state: its plan, what fired, what a delay holds back, removal. */
typedef struct FaultState {
    FaultPlan *plan;           /* or NULL */
    GString *log;              /* the faults fired, a line each */
    GQueue deferred;           /* FaultDeferred: delayed AEs and interrupts */
    bool removed;              /* surprise-removed: until the next plan or a system reset */
    /* Action oicr: latch @value in the register that goes with @cause (installed by the
     * root: GLPE_CRITERR and PFHMC_ERRORINFO are the PE block's). */
    void (*latch_oicr)(IrdmaDev *d, uint32_t cause, uint32_t value);
} FaultState;

/* No plan loaded and the device on the bus, as almost always: no hook can fire. Inline for the
 * hooks that run on every DMA. */
static inline bool fault_quiet(const FaultState *f)
{
    return !f->plan && !f->removed;
}

GQuark fault_error_quark(void);

/* Parse @text (from @source, for messages), with the opcode names of @vocab. NULL with @errp
 * naming the line and the problem. */
FaultPlan *fault_plan_parse(const FaultVocab *vocab, const char *text, const char *source,
                            GError **errp);
FaultPlan *fault_plan_load(const FaultVocab *vocab, const char *path, GError **errp);
void fault_plan_free(FaultPlan *plan);
/* Every rule's counters and random stream, and the state, back to where the plan started. */
void fault_plan_rewind(FaultPlan *plan);

void fault_state_init(FaultState *fs);
void fault_state_destroy(IrdmaDev *d);
/* Install @plan on @d (NULL: none), taking ownership; the fault log starts empty, a removed
 * device is back, and delayed events are dropped. */
void fault_set_plan(IrdmaDev *d, FaultPlan *plan);
/* System reset: delayed events dropped, a removed device back (the plan stays). */
void fault_reset(IrdmaDev *d);
/* PF reset: the delayed AEs and interrupts are gone with the state they belonged to. */
void fault_drop_deferred(IrdmaDev *d);
/* The action for event @ev (@code, object @id), or NULL to go on as normal. */
const FaultAction *fault_check(IrdmaDev *d, FaultEvent ev, unsigned code, unsigned id);
/* fault_check() for an in-order engine that holds the event back for a FAULT_DELAY and then
 * takes it again: *@held says a delay was asked for, and the retry that follows goes through
 * once without asking the plan again. */
const FaultAction *fault_check_held(IrdmaDev *d, bool *held, FaultEvent ev, unsigned code,
                                    unsigned id);
/* One line per fault fired: "<virtual ns> <rule> <event> <action>". */
const char *fault_log(IrdmaDev *d);
/* What every BAR read returns from a removed device: no one answers the read request. */
#define FAULT_REMOVED_READ   0xffffffffu
/* Surprise-removed (action remove): BAR reads all-ones, no DMA, interrupts or frames. */
bool fault_removed(const IrdmaDev *d);

/* Run @fn(@d, copy of @payload) @fa's delay from now (FAULT_DELAY of an AE or interrupt);
 * @len at most FAULT_DEFERRED_MAX. */
#define FAULT_DEFERRED_MAX   32
typedef void (*FaultDeferredFn)(IrdmaDev *d, const void *payload);
void fault_defer(IrdmaDev *d, const FaultAction *fa, FaultDeferredFn fn, const void *payload,
                 size_t len);
uint64_t fault_delay_ns(IrdmaDev *d, const FaultAction *fa);

#endif
