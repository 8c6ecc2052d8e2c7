/* fault.c - fault plans: parsing, triggers, the fault log and delayed events (see fault.h,
 * docs/faults.md). */
#include <stdarg.h>
#include <string.h>
#include "core/fault.h"
#include "core/dev.h"
#include "core/e810_regs.h"
#include "core/ids.h"
#include "core/intr.h"
#include "core/trace.h"

#define RULE_GROUP_PREFIX  "rule "
#define PLAN_GROUP         "plan"
#define START_STATE        "start"
#define SEED_SPREAD        0x9e3779b9u     /* rule i's stream: seed + i * this */
/* GLPE_CRITERR of "oicr pe-critical" without a value: anything but irdma's benign
 * IRDMA_Q1_RESOURCE_ERR (0x1024d), which it only warns about. */
#define CRITERR_DEFAULT    0x00010001u
#define DELAY_CYCLES_MAX   (1ull << 40)    /* about 23 minutes at 800 MHz */

#define ACT(k)             (1u << (k))
/* What fault_check() itself carries out, so every hook can. */
#define ACTS_COMMON        (ACT(FAULT_NONE) | ACT(FAULT_REMOVE))

/* The events of 'on =': first word (and direction), and the actions their hook carries out.
 * oicr is left out where raising the interrupt would come back into the same hook (irq) or
 * would run inside a DMA; raise-ae where the AE's own post would match again. */
static const struct {
    const char *word, *dir;
    FaultEvent ev;
    unsigned actions;
} event_kinds[FAULT_EVENT_COUNT] = {
    [FAULT_ON_CQP] = { "cqp", NULL, FAULT_ON_CQP, ACTS_COMMON | ACT(FAULT_OICR) |
                       ACT(FAULT_ERROR) | ACT(FAULT_DROP) | ACT(FAULT_DELAY) | ACT(FAULT_RAISE_AE) },
    [FAULT_ON_AQ] = { "aq", NULL, FAULT_ON_AQ, ACTS_COMMON | ACT(FAULT_OICR) | ACT(FAULT_ERROR) |
                      ACT(FAULT_DELAY) },
    [FAULT_ON_AE] = { "ae", NULL, FAULT_ON_AE, ACTS_COMMON | ACT(FAULT_OICR) | ACT(FAULT_DROP) |
                      ACT(FAULT_DELAY) | ACT(FAULT_DUPLICATE) | ACT(FAULT_CORRUPT) },
    [FAULT_ON_WQE] = { "wqe", NULL, FAULT_ON_WQE, ACTS_COMMON | ACT(FAULT_OICR) |
                       ACT(FAULT_RAISE_AE) | ACT(FAULT_DUPLICATE) },
    [FAULT_ON_REG_READ] = { "reg", "read", FAULT_ON_REG_READ, ACTS_COMMON | ACT(FAULT_OICR) |
                            ACT(FAULT_CORRUPT) },
    [FAULT_ON_REG_WRITE] = { "reg", "write", FAULT_ON_REG_WRITE, ACTS_COMMON | ACT(FAULT_OICR) |
                             ACT(FAULT_DROP) | ACT(FAULT_CORRUPT) },
    [FAULT_ON_DMA_READ] = { "dma", "read", FAULT_ON_DMA_READ, ACTS_COMMON | ACT(FAULT_FAIL) },
    [FAULT_ON_DMA_WRITE] = { "dma", "write", FAULT_ON_DMA_WRITE, ACTS_COMMON | ACT(FAULT_FAIL) },
    [FAULT_ON_IRQ] = { "irq", NULL, FAULT_ON_IRQ, ACTS_COMMON | ACT(FAULT_DROP) |
                       ACT(FAULT_DELAY) | ACT(FAULT_DUPLICATE) },
};

static const char *const action_names[FAULT_ACTION_COUNT] = {
    [FAULT_NONE] = "none", [FAULT_ERROR] = "error", [FAULT_DROP] = "drop",
    [FAULT_DELAY] = "delay", [FAULT_DUPLICATE] = "duplicate", [FAULT_CORRUPT] = "corrupt",
    [FAULT_RAISE_AE] = "raise-ae", [FAULT_OICR] = "oicr", [FAULT_REMOVE] = "remove",
    [FAULT_FAIL] = "fail",
};

static const struct {
    const char *name;
    uint32_t cause;
} oicr_causes[] = {
    { "hmc-error", PFINT_OICR_HMC_ERR_M },
    { "pe-critical", PFINT_OICR_PE_CRITERR_M },
    { "pe-push", PFINT_OICR_PE_PUSH_M },
};

/* corrupt FIELD VALUE: the fields, the event whose hook has them, and their widths. */
static const struct {
    const char *name;
    FaultField field;
    FaultEvent ev, ev2;
    uint32_t max;
} corrupt_fields[] = {
    { "value", FAULT_FIELD_VALUE, FAULT_ON_REG_READ, FAULT_ON_REG_WRITE, G_MAXUINT32 },
    { "code", FAULT_FIELD_CODE, FAULT_ON_AE, FAULT_ON_AE, 0xfff },
    { "qp", FAULT_FIELD_QP, FAULT_ON_AE, FAULT_ON_AE, 0x7ffff },
    { "state", FAULT_FIELD_STATE, FAULT_ON_AE, FAULT_ON_AE, 0xf },
};

typedef struct FaultRule {
    char *name;
    FaultEvent event;
    bool any_code;             /* reg any, irq any, dma */
    unsigned code;
    bool any_id;
    unsigned id;               /* CQP: the QP or CQ; AE, WQE: the QP */
    FaultAction action;
    unsigned every;            /* fire on every Nth matching event (1: each) */
    double probability;        /* then with this probability */
    unsigned times;            /* at most this many times (0: no limit) */
    int after;                 /* only once rule @after has fired (-1: none) */
    int when;                  /* only in this state (-1: any) */
    int next_state;            /* firing moves the plan here (-1: stays) */
    GRand *rand;
    uint64_t seen, fired;
} FaultRule;

struct FaultPlan {
    const FaultVocab *vocab;
    uint32_t seed;
    GPtrArray *rules;          /* FaultRule * */
    GPtrArray *states;         /* state names; 0 is "start" */
    unsigned state;
};

typedef struct FaultDeferred {
    IrdmaDev *d;
    EmuEvent *ev;
    FaultDeferredFn fn;
    GList link;                /* in FaultState.deferred */
    uint8_t payload[FAULT_DEFERRED_MAX];
} FaultDeferred;

G_DEFINE_QUARK(irdma-fault-error-quark, fault_error)

static void rule_free(gpointer p)
{
    FaultRule *r = p;

    g_rand_free(r->rand);
    g_free(r->name);
    g_free(r);
}

void fault_plan_free(FaultPlan *plan)
{
    if (plan) {
        g_ptr_array_free(plan->rules, TRUE);
        g_ptr_array_free(plan->states, TRUE);
        g_free(plan);
    }
}

void fault_plan_rewind(FaultPlan *plan)
{
    for (unsigned i = 0; i < plan->rules->len; i++) {
        FaultRule *r = g_ptr_array_index(plan->rules, i);

        g_rand_set_seed(r->rand, plan->seed + i * SEED_SPREAD);
        r->seen = r->fired = 0;
    }
    plan->state = 0;
}

/* --- parsing --- */

/* The 1-based line of key @key in group @group of @text (of the group header if @key is
 * NULL), for messages; 0 if not found. */
static unsigned line_of(const char *text, const char *group, const char *key)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    bool in_group = false;

    for (unsigned i = 0; lines[i]; i++) {
        g_autofree char *l = g_strstrip(g_strdup(lines[i]));

        if (l[0] == '[') {
            in_group = strlen(l) == strlen(group) + 2 && !strncmp(l + 1, group, strlen(group));
            if (in_group && !key) {
                return i + 1;
            }
        } else if (in_group && key && g_str_has_prefix(l, key) &&
                   g_strstrip(l + strlen(key))[0] == '=') {
            return i + 1;
        }
    }
    return 0;
}

/* Every line a comment, a group header or KEY = VALUE; else its number. */
static unsigned bad_syntax_line(const char *text)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

    for (unsigned i = 0; lines[i]; i++) {
        g_autofree char *l = g_strstrip(g_strdup(lines[i]));

        if (l[0] && l[0] != '#' && l[0] != ';' &&
            !(l[0] == '[' && l[strlen(l) - 1] == ']') && !(strchr(l, '=') && l[0] != '=')) {
            return i + 1;
        }
    }
    return 0;
}

typedef struct ParseCtx {
    const FaultVocab *vocab;
    const char *text, *source, *group;
    GError **errp;
} ParseCtx;

static bool fail_at(const ParseCtx *c, const char *key, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static bool fail_at(const ParseCtx *c, const char *key, const char *fmt, ...)
{
    g_autofree char *msg = NULL;
    va_list ap;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(c->errp, fault_error_quark(), 0, "%s:%u: [%s] %s%s%s", c->source,
                line_of(c->text, c->group, key), c->group, key ? key : "", key ? ": " : "",
                msg);
    return false;
}

static bool parse_uint(const char *s, unsigned max, unsigned *out)
{
    char *end;
    guint64 v;

    if (!s || !*s) {
        return false;
    }
    v = g_ascii_strtoull(s, &end, 0);
    if (*end || v > max) {
        return false;
    }
    *out = v;
    return true;
}

/* The blank-separated words of @val into @words (at most @max); how many there were. */
static unsigned split_words(const char *val, GStrv *all, char **words, unsigned max)
{
    unsigned n = 0;

    *all = g_strsplit_set(val, " \t", -1);
    for (unsigned i = 0; (*all)[i]; i++) {
        if (*(*all)[i]) {
            if (n < max) {
                words[n] = (*all)[i];
            }
            n++;
        }
    }
    return n;
}

/* NAME=N with N at most @max, into @id. */
static bool parse_keyed(const char *word, const char *name, unsigned max, unsigned *id)
{
    size_t n = strlen(name);

    return !strncmp(word, name, n) && word[n] == '=' && parse_uint(word + n + 1, max, id);
}

/* on = cqp NAME|OPCODE [qp=N|cq=N] | aq OPCODE | ae CODE [qp=N] | wqe NAME|OPCODE [qp=N] |
 *      reg read|write OFFSET|any | dma read|write | irq VECTOR|any */
static bool parse_on(const ParseCtx *c, const char *val, FaultRule *r)
{
    g_auto(GStrv) all = NULL;
    char *w[4];
    unsigned n = split_words(val, &all, w, G_N_ELEMENTS(w));
    int named;

    r->any_id = true;
    for (unsigned e = 0; e < FAULT_EVENT_COUNT && n; e++) {
        if (strcmp(w[0], event_kinds[e].word) ||
            (event_kinds[e].dir && (n < 2 || strcmp(w[1], event_kinds[e].dir)))) {
            continue;
        }
        r->event = e;
        switch (r->event) {
        case FAULT_ON_CQP: {
            const char *obj;

            if (n < 2 || n > 3) {
                break;
            }
            named = c->vocab->cqp->named(w[1]);
            if (named >= 0) {
                r->code = named;
            } else if (!parse_uint(w[1], 0xff, &r->code) || !c->vocab->cqp->name(r->code)) {
                return fail_at(c, "on", "'%s' is no CQP opcode the device implements", w[1]);
            }
            if (n == 2) {
                return true;
            }
            obj = c->vocab->cqp->object(r->code);
            if (!obj || !parse_keyed(w[2], obj, 0xffffff, &r->id)) {
                return fail_at(c, "on", "'%s': %s names %s", w[2], c->vocab->cqp->name(r->code),
                               obj ? (obj[0] == 'q' ? "a QP (qp=N)" : "a CQ (cq=N)") :
                                     "no QP or CQ");
            }
            r->any_id = false;
            return true;
        }
        case FAULT_ON_AQ:
            if (n != 2 || !parse_uint(w[1], 0xffff, &r->code)) {
                return fail_at(c, "on", "'%s' is not 'aq OPCODE' (0 to 0xffff)", val);
            }
            return true;
        case FAULT_ON_AE:
        case FAULT_ON_WQE:
            if (n < 2 || n > 3) {
                break;
            }
            named = r->event == FAULT_ON_WQE ? c->vocab->wqe->named(w[1]) : -1;
            if (named >= 0) {
                r->code = named;
            } else if (r->event == FAULT_ON_AE ? !parse_uint(w[1], 0xfff, &r->code) :
                       !parse_uint(w[1], 0x3f, &r->code) || !c->vocab->wqe->name(r->code)) {
                return fail_at(c, "on", "'%s' is no %s", w[1], r->event == FAULT_ON_AE ?
                               "AE code (0 to 0xfff)" : "SQ WQE opcode (RDMA_WRITE, SEND, ...)");
            }
            if (n == 3) {
                if (!parse_keyed(w[2], "qp", 0x3ffff, &r->id)) {
                    return fail_at(c, "on", "'%s' is not qp=N", w[2]);
                }
                r->any_id = false;
            }
            return true;
        case FAULT_ON_REG_READ:
        case FAULT_ON_REG_WRITE:
            if (n != 3) {
                break;
            }
            r->any_code = !strcmp(w[2], "any");
            if (!r->any_code && (!parse_uint(w[2], IRDMA_BAR0_SIZE - 4, &r->code) ||
                                 r->code % 4)) {
                return fail_at(c, "on", "'%s' is no BAR0 register offset (4-aligned, below "
                               "0x%x) nor 'any'", w[2], IRDMA_BAR0_SIZE);
            }
            return true;
        case FAULT_ON_DMA_READ:
        case FAULT_ON_DMA_WRITE:
            if (n != 2) {
                break;
            }
            r->any_code = true;
            return true;
        case FAULT_ON_IRQ:
            if (n != 2) {
                break;
            }
            r->any_code = !strcmp(w[1], "any");
            if (!r->any_code && !parse_uint(w[1], IRDMA_MSIX_VECTORS_MAX - 1, &r->code)) {
                return fail_at(c, "on", "'%s' is no MSI-X vector (0 to %u) nor 'any'", w[1],
                               IRDMA_MSIX_VECTORS_MAX - 1);
            }
            return true;
        case FAULT_EVENT_COUNT:
            break;
        }
        break;
    }
    return fail_at(c, "on", "'%s' is none of: cqp OPCODE [qp=N|cq=N], aq OPCODE, ae CODE "
                   "[qp=N], wqe OPCODE [qp=N], reg read|write OFFSET|any, dma read|write, "
                   "irq VECTOR|any", val);
}

static bool parse_error(const ParseCtx *c, const char *val, char **w, unsigned n, FaultRule *r)
{
    unsigned maj, min = 0;

    if (r->event == FAULT_ON_AQ) {
        if (n != 2 || !parse_uint(w[1], 0xff, &maj) || maj == 0) {
            return fail_at(c, "action", "'%s' is not 'error RETVAL' (an AQ return code, 1 to "
                           "0xff)", val);
        }
    } else if (n != 3 || !parse_uint(w[1], 0xffff, &maj) || maj == 0 ||
               !parse_uint(w[2], 0xffff, &min)) {
        return fail_at(c, "action", "'%s' is not 'error MAJOR MINOR' (major 1 to 0xffff, "
                       "minor 0 to 0xffff)", val);
    }
    r->action.maj = maj;
    r->action.min = min;
    return true;
}

static bool parse_oicr(const ParseCtx *c, char **w, unsigned n, FaultRule *r)
{
    size_t i = 0;

    while (n >= 2 && i < G_N_ELEMENTS(oicr_causes) && strcmp(w[1], oicr_causes[i].name)) {
        i++;
    }
    if (n < 2 || n > 3 || i == G_N_ELEMENTS(oicr_causes)) {
        return fail_at(c, "action", "not 'oicr CAUSE' with a cause of hmc-error [VALUE], "
                       "pe-critical [VALUE], pe-push");
    }
    r->action.oicr = oicr_causes[i].cause;
    if (oicr_causes[i].cause == PFINT_OICR_PE_CRITERR_M) {
        r->action.latch = CRITERR_DEFAULT;
        if (n == 3 && !parse_uint(w[2], G_MAXUINT32, &r->action.latch)) {
            return fail_at(c, "action", "'%s' is not a GLPE_CRITERR value", w[2]);
        }
    } else if (oicr_causes[i].cause == PFINT_OICR_HMC_ERR_M) {
        if (n == 3 && !parse_uint(w[2], G_MAXUINT32, &r->action.latch)) {
            return fail_at(c, "action", "'%s' is not a PFHMC_ERRORINFO value", w[2]);
        }
    } else if (n == 3) {
        return fail_at(c, "action", "only pe-critical and hmc-error take a value");
    }
    return true;
}

static bool parse_corrupt(const ParseCtx *c, const char *val, char **w, unsigned n,
                          FaultRule *r)
{
    for (size_t i = 0; n == 3 && i < G_N_ELEMENTS(corrupt_fields); i++) {
        if (strcmp(w[1], corrupt_fields[i].name)) {
            continue;
        }
        if (r->event != corrupt_fields[i].ev && r->event != corrupt_fields[i].ev2) {
            return fail_at(c, "action", "'%s': field %s is not one of this event's "
                           "(ae: code, qp, state; reg: value)", val, w[1]);
        }
        if (!parse_uint(w[2], corrupt_fields[i].max, &r->action.value)) {
            return fail_at(c, "action", "'%s': %s is 0 to 0x%x", val, w[1],
                           corrupt_fields[i].max);
        }
        r->action.field = corrupt_fields[i].field;
        return true;
    }
    return fail_at(c, "action", "'%s' is not 'corrupt FIELD VALUE' (ae: code, qp, state; "
                   "reg: value)", val);
}

/* action = none | error ... | drop | delay CYCLES [until-next] | duplicate |
 *          corrupt FIELD VALUE | raise-ae CODE | oicr CAUSE [VALUE] | remove | fail */
static bool parse_action(const ParseCtx *c, const char *val, FaultRule *r)
{
    g_auto(GStrv) all = NULL;
    char *w[4];
    unsigned n = split_words(val, &all, w, G_N_ELEMENTS(w)), k = 0, v;
    const char *on = event_kinds[r->event].word;
    guint64 cycles;
    char *end;

    while (n && k < FAULT_ACTION_COUNT && strcmp(w[0], action_names[k])) {
        k++;
    }
    if (!n || k == FAULT_ACTION_COUNT) {
        return fail_at(c, "action", "'%s' is no action (none, error, drop, delay, duplicate, "
                       "corrupt, raise-ae, oicr, remove, fail)", val);
    }
    if (!(event_kinds[r->event].actions & ACT(k))) {
        return fail_at(c, "action", "%s does not apply to 'on = %s%s%s' (docs/faults.md lists "
                       "what does)", action_names[k], on, event_kinds[r->event].dir ? " " : "",
                       event_kinds[r->event].dir ? event_kinds[r->event].dir : "");
    }
    r->action.kind = k;
    switch (r->action.kind) {
    case FAULT_ERROR:
        return parse_error(c, val, w, n, r);
    case FAULT_DELAY:
        cycles = n == 2 || n == 3 ? g_ascii_strtoull(w[1], &end, 0) : 0;
        if (n < 2 || n > 3 || *end || cycles == 0 || cycles > DELAY_CYCLES_MAX) {
            return fail_at(c, "action", "'%s' is not 'delay CYCLES' (1 to %llu device clock "
                           "cycles)", val, DELAY_CYCLES_MAX);
        }
        if (n == 3 && (strcmp(w[2], "until-next") || r->event != FAULT_ON_AQ)) {
            return fail_at(c, "action", "'%s': after the cycles only 'until-next', and only "
                           "on 'on = aq'", val);
        }
        r->action.delay_cycles = cycles;
        r->action.until_next = n == 3;
        return true;
    case FAULT_CORRUPT:
        return parse_corrupt(c, val, w, n, r);
    case FAULT_RAISE_AE:
        if (n != 2 || !parse_uint(w[1], 0xfff, &v)) {
            return fail_at(c, "action", "'%s' is not 'raise-ae CODE' (0 to 0xfff)", val);
        }
        if (r->event == FAULT_ON_CQP && g_strcmp0(c->vocab->cqp->object(r->code), "qp")) {
            return fail_at(c, "action", "raise-ae needs a QP: %s names none",
                           c->vocab->cqp->name(r->code));
        }
        r->action.ae = v;
        return true;
    case FAULT_OICR:
        return parse_oicr(c, w, n, r);
    case FAULT_NONE:
    case FAULT_DROP:
    case FAULT_DUPLICATE:
    case FAULT_REMOVE:
    case FAULT_FAIL:
        if (n != 1) {
            return fail_at(c, "action", "'%s': %s takes nothing after it", val, w[0]);
        }
        return true;
    case FAULT_ACTION_COUNT:
        break;
    }
    return false;
}

/* The index of state @name, added if new; -1 if @name is no state name. */
static int state_index(FaultPlan *plan, const char *name)
{
    for (const char *p = name; *p; p++) {
        if (!g_ascii_isalnum(*p) && *p != '-' && *p != '_') {
            return -1;
        }
    }
    if (!*name) {
        return -1;
    }
    for (unsigned i = 0; i < plan->states->len; i++) {
        if (!strcmp(g_ptr_array_index(plan->states, i), name)) {
            return i;
        }
    }
    g_ptr_array_add(plan->states, g_strdup(name));
    return plan->states->len - 1;
}

static const char *const rule_keys[] = { "on", "action", "once", "every", "probability",
                                         "times", "after", "when", "state" };

static bool parse_rule(const ParseCtx *c, GKeyFile *kf, FaultPlan *plan, FaultRule *r)
{
    g_auto(GStrv) keys = g_key_file_get_keys(kf, c->group, NULL, NULL);
    g_autofree char *on = g_key_file_get_value(kf, c->group, "on", NULL);
    g_autofree char *action = g_key_file_get_value(kf, c->group, "action", NULL);
    g_autofree char *once = g_key_file_get_value(kf, c->group, "once", NULL);
    g_autofree char *every = g_key_file_get_value(kf, c->group, "every", NULL);
    g_autofree char *prob = g_key_file_get_value(kf, c->group, "probability", NULL);
    g_autofree char *times = g_key_file_get_value(kf, c->group, "times", NULL);
    g_autofree char *after = g_key_file_get_value(kf, c->group, "after", NULL);
    g_autofree char *when = g_key_file_get_value(kf, c->group, "when", NULL);
    g_autofree char *state = g_key_file_get_value(kf, c->group, "state", NULL);
    char *end;

    for (unsigned i = 0; keys && keys[i]; i++) {
        bool known = false;

        for (size_t k = 0; k < G_N_ELEMENTS(rule_keys); k++) {
            known |= !strcmp(keys[i], rule_keys[k]);
        }
        if (!known) {
            return fail_at(c, keys[i], "unknown key (on, action, once, every, probability, "
                           "times, after, when, state)");
        }
    }
    if (!on || !action) {
        return fail_at(c, NULL, "a rule needs 'on' and 'action'");
    }
    if (!parse_on(c, on, r) || !parse_action(c, action, r)) {
        return false;
    }
    r->every = 1;
    r->probability = 1.0;
    r->after = r->when = r->next_state = -1;
    if (once) {
        if (strcmp(once, "true") && strcmp(once, "false")) {
            return fail_at(c, "once", "'%s' is not true or false", once);
        }
        r->times = !strcmp(once, "true") ? 1 : 0;
    }
    if (times && (!parse_uint(times, G_MAXUINT32, &r->times) || r->times == 0)) {
        return fail_at(c, "times", "'%s' is not a count of 1 or more", times);
    }
    if (every && (!parse_uint(every, G_MAXUINT32, &r->every) || r->every == 0)) {
        return fail_at(c, "every", "'%s' is not a count of 1 or more", every);
    }
    if (prob) {
        r->probability = g_ascii_strtod(prob, &end);
        if (*end || end == prob || !(r->probability > 0 && r->probability <= 1)) {
            return fail_at(c, "probability", "'%s' is not a probability in (0, 1]", prob);
        }
    }
    if (after) {
        for (unsigned i = 0; i < plan->rules->len && r->after < 0; i++) {
            if (!strcmp(((FaultRule *)g_ptr_array_index(plan->rules, i))->name, after)) {
                r->after = i;
            }
        }
        if (r->after < 0) {
            return fail_at(c, "after", "no rule '%s' before this one", after);
        }
    }
    if (when && (r->when = state_index(plan, when)) < 0) {
        return fail_at(c, "when", "'%s' is no state name (letters, digits, - and _)", when);
    }
    if (state && (r->next_state = state_index(plan, state)) < 0) {
        return fail_at(c, "state", "'%s' is no state name (letters, digits, - and _)", state);
    }
    return true;
}

/* Every state a rule waits for is the start or one some rule enters. */
static bool states_reachable(const ParseCtx *c0, FaultPlan *plan)
{
    for (unsigned i = 0; i < plan->rules->len; i++) {
        FaultRule *r = g_ptr_array_index(plan->rules, i);
        bool entered = r->when <= 0;
        g_autofree char *group = g_strconcat(RULE_GROUP_PREFIX, r->name, NULL);
        ParseCtx c = *c0;

        for (unsigned j = 0; j < plan->rules->len && !entered; j++) {
            entered = ((FaultRule *)g_ptr_array_index(plan->rules, j))->next_state == r->when;
        }
        if (!entered) {
            c.group = group;
            return fail_at(&c, "when", "no rule enters state '%s'",
                           (char *)g_ptr_array_index(plan->states, r->when));
        }
    }
    return true;
}

FaultPlan *fault_plan_parse(const FaultVocab *vocab, const char *text, const char *source,
                            GError **errp)
{
    g_autoptr(GKeyFile) kf = g_key_file_new();
    g_autoptr(GError) kerr = NULL;
    g_auto(GStrv) groups = NULL;
    FaultPlan *plan;
    ParseCtx c = { .vocab = vocab, .text = text, .source = source, .errp = errp };
    unsigned bad = bad_syntax_line(text), seed = 0;

    if (bad) {
        g_set_error(errp, fault_error_quark(), 0, "%s:%u: not a [group], KEY = VALUE or comment",
                    source, bad);
        return NULL;
    }
    if (!g_key_file_load_from_data(kf, text, -1, G_KEY_FILE_NONE, &kerr)) {
        g_set_error(errp, fault_error_quark(), 0, "%s: %s", source, kerr->message);
        return NULL;
    }
    plan = g_new0(FaultPlan, 1);
    plan->vocab = vocab;
    plan->rules = g_ptr_array_new_with_free_func(rule_free);
    plan->states = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(plan->states, g_strdup(START_STATE));
    groups = g_key_file_get_groups(kf, NULL);
    for (unsigned i = 0; groups[i]; i++) {
        c.group = groups[i];
        if (!strcmp(groups[i], PLAN_GROUP)) {
            g_auto(GStrv) keys = g_key_file_get_keys(kf, PLAN_GROUP, NULL, NULL);
            g_autofree char *s = g_key_file_get_value(kf, PLAN_GROUP, "seed", NULL);

            for (unsigned k = 0; keys[k]; k++) {
                if (strcmp(keys[k], "seed")) {
                    fail_at(&c, keys[k], "unknown key (seed)");
                    goto fail;
                }
            }
            if (s && !parse_uint(s, G_MAXUINT32, &seed)) {
                fail_at(&c, "seed", "'%s' is not a 32-bit number", s);
                goto fail;
            }
        } else if (g_str_has_prefix(groups[i], RULE_GROUP_PREFIX) &&
                   groups[i][strlen(RULE_GROUP_PREFIX)]) {
            FaultRule *r = g_new0(FaultRule, 1);

            r->name = g_strdup(groups[i] + strlen(RULE_GROUP_PREFIX));
            r->rand = g_rand_new();
            if (!parse_rule(&c, kf, plan, r)) {
                rule_free(r);
                goto fail;
            }
            g_ptr_array_add(plan->rules, r);
        } else {
            fail_at(&c, NULL, "unknown group (plan, or rule NAME)");
            goto fail;
        }
    }
    if (!states_reachable(&c, plan)) {
        goto fail;
    }
    plan->seed = seed;
    fault_plan_rewind(plan);
    return plan;

fail:
    fault_plan_free(plan);
    return NULL;
}

FaultPlan *fault_plan_load(const FaultVocab *vocab, const char *path, GError **errp)
{
    g_autofree char *text = NULL;

    if (!g_file_get_contents(path, &text, NULL, errp)) {
        return NULL;
    }
    return fault_plan_parse(vocab, text, path, errp);
}

/* --- at run time --- */

void fault_state_init(FaultState *fs)
{
    fs->plan = NULL;
    fs->log = g_string_new(NULL);
    g_queue_init(&fs->deferred);
    fs->removed = false;
    fs->latch_oicr = NULL;
}

void fault_drop_deferred(IrdmaDev *d)
{
    GList *l;

    while ((l = g_queue_pop_head_link(&d->fault.deferred))) {
        FaultDeferred *fd = l->data;

        emu_event_cancel(&d->events, fd->ev);
        g_free(fd);
    }
}

void fault_state_destroy(IrdmaDev *d)
{
    fault_drop_deferred(d);
    fault_plan_free(d->fault.plan);
    g_string_free(d->fault.log, TRUE);
}

void fault_set_plan(IrdmaDev *d, FaultPlan *plan)
{
    fault_reset(d);
    fault_plan_free(d->fault.plan);
    d->fault.plan = plan;
    g_string_truncate(d->fault.log, 0);
}

void fault_reset(IrdmaDev *d)
{
    fault_drop_deferred(d);
    if (d->fault.removed) {
        emu_trace(&d->host, TR_FAULT_REINSERTED, "the device answers again");
    }
    d->fault.removed = false;
}

bool fault_removed(const IrdmaDev *d)
{
    return d->fault.removed;
}

static bool matches(const FaultRule *r, FaultEvent ev, unsigned code, unsigned id)
{
    return r->event == ev && (r->any_code || r->code == code) && (r->any_id || r->id == id);
}

/* Only events the rule is active for (its 'after' rule fired, the plan in its 'when' state)
 * count towards 'every'. */
static bool triggers(const FaultPlan *plan, FaultRule *r)
{
    if ((r->after >= 0 && !((FaultRule *)g_ptr_array_index(plan->rules, r->after))->fired) ||
        (r->when >= 0 && (unsigned)r->when != plan->state)) {
        return false;
    }
    r->seen++;
    if ((r->times && r->fired >= r->times) || r->seen % r->every) {
        return false;
    }
    return r->probability >= 1.0 || g_rand_double(r->rand) < r->probability;
}

static char *describe_event(const FaultVocab *v, const FaultRule *r, unsigned code, unsigned id)
{
    const char *obj;

    switch (r->event) {
    case FAULT_ON_CQP:
        obj = v->cqp->object(code);
        return !obj ? g_strdup_printf("cqp 0x%02x %s", code, v->cqp->name(code)) :
            g_strdup_printf("cqp 0x%02x %s %s=%u", code, v->cqp->name(code), obj, id);
    case FAULT_ON_AQ:
        return g_strdup_printf("aq 0x%04x", code);
    case FAULT_ON_AE:
        return g_strdup_printf("ae 0x%03x qp=%u", code, id);
    case FAULT_ON_WQE:
        return g_strdup_printf("wqe 0x%02x %s qp=%u", code, v->wqe->name(code), id);
    case FAULT_ON_REG_READ:
    case FAULT_ON_REG_WRITE:
        return g_strdup_printf("reg %s 0x%08x", event_kinds[r->event].dir, code);
    case FAULT_ON_IRQ:
        return g_strdup_printf("irq %u", code);
    case FAULT_ON_DMA_READ:
    case FAULT_ON_DMA_WRITE:
    case FAULT_EVENT_COUNT:
        break;
    }
    return g_strdup_printf("dma %s", event_kinds[r->event].dir);
}

static char *describe_action(const FaultRule *r)
{
    const FaultAction *a = &r->action;

    switch (a->kind) {
    case FAULT_ERROR:
        return r->event == FAULT_ON_AQ ? g_strdup_printf("error 0x%02x", a->maj) :
               g_strdup_printf("error 0x%04x 0x%04x", a->maj, a->min);
    case FAULT_DELAY:
        return g_strdup_printf("delay %" G_GUINT64_FORMAT "%s", a->delay_cycles,
                               a->until_next ? " until-next" : "");
    case FAULT_CORRUPT:
        for (size_t i = 0; i < G_N_ELEMENTS(corrupt_fields); i++) {
            if (corrupt_fields[i].field == a->field) {
                return g_strdup_printf("corrupt %s 0x%x", corrupt_fields[i].name, a->value);
            }
        }
        break;
    case FAULT_RAISE_AE:
        return g_strdup_printf("raise-ae 0x%03x", a->ae);
    case FAULT_OICR:
        return g_strdup_printf("oicr 0x%08x %s 0x%08x", a->oicr,
                               a->oicr == PFINT_OICR_HMC_ERR_M ? "errorinfo" : "criterr",
                               a->latch);
    default:
        break;
    }
    return g_strdup(action_names[a->kind]);
}

static void log_fired(IrdmaDev *d, const FaultPlan *plan, const FaultRule *r, unsigned code,
                      unsigned id)
{
    uint64_t now = d->host.ops->clock_ns(d->host.opaque);
    g_autofree char *event = describe_event(plan->vocab, r, code, id);
    g_autofree char *action = describe_action(r);
    g_autofree char *state = r->next_state < 0 ? g_strdup("") :
        g_strdup_printf(" -> %s", (char *)g_ptr_array_index(plan->states, r->next_state));

    g_string_append_printf(d->fault.log, "%" G_GUINT64_FORMAT " %s %s %s%s\n", now, r->name,
                           event, action, state);
    emu_trace(&d->host, TR_FAULT_FIRED, "rule %s: %s -> %s%s", r->name, event, action, state);
}

/* The actions that do not depend on the event: the device's, not the hook's. */
static void apply_common(IrdmaDev *d, const FaultAction *a)
{
    if (a->kind == FAULT_REMOVE) {
        d->fault.removed = true;
    } else if (a->kind == FAULT_OICR) {
        if (d->fault.latch_oicr) {
            d->fault.latch_oicr(d, a->oicr, a->latch);
        }
        intr_raise_oicr(d, a->oicr);
    }
}

const FaultAction *fault_check(IrdmaDev *d, FaultEvent ev, unsigned code, unsigned id)
{
    FaultPlan *plan = d->fault.plan;

    if (!plan) {
        return NULL;
    }
    for (unsigned i = 0; i < plan->rules->len; i++) {
        FaultRule *r = g_ptr_array_index(plan->rules, i);

        if (matches(r, ev, code, id) && triggers(plan, r)) {
            r->fired++;
            if (r->next_state >= 0) {
                plan->state = r->next_state;
            }
            log_fired(d, plan, r, code, id);
            apply_common(d, &r->action);
            return &r->action;
        }
    }
    return NULL;
}

const FaultAction *fault_check_held(IrdmaDev *d, bool *held, FaultEvent ev, unsigned code,
                                    unsigned id)
{
    const FaultAction *fa;

    if (*held) {
        *held = false;
        return NULL;
    }
    fa = fault_check(d, ev, code, id);
    *held = fa && fa->kind == FAULT_DELAY;
    return fa;
}

const char *fault_log(IrdmaDev *d)
{
    return d->fault.log->str;
}

uint64_t fault_delay_ns(IrdmaDev *d, const FaultAction *fa)
{
    return timing_cycles_ns(&d->timing, fa->delay_cycles);
}

static void deferred_run(void *arg)
{
    FaultDeferred *fd = arg;
    IrdmaDev *d = fd->d;

    g_queue_unlink(&d->fault.deferred, &fd->link);
    fd->fn(d, fd->payload);
    g_free(fd);
}

void fault_defer(IrdmaDev *d, const FaultAction *fa, FaultDeferredFn fn, const void *payload,
                 size_t len)
{
    FaultDeferred *fd = g_new0(FaultDeferred, 1);

    /* Fixed-size records (an AEQ entry, a vector), checked where they are defined. */
    memcpy(fd->payload, payload, MIN(len, sizeof(fd->payload)));
    fd->d = d;
    fd->fn = fn;
    fd->link.data = fd;
    g_queue_push_tail_link(&d->fault.deferred, &fd->link);
    fd->ev = emu_event_schedule(&d->events, fault_delay_ns(d, fa), deferred_run, fd);
}
