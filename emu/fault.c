/* fault.c - fault plans: parsing, triggers and the fault log (see fault.h, docs/faults.md). */
#include <stdarg.h>
#include <string.h>
#include "fault.h"
#include "cqp.h"
#include "device.h"
#include "e810_regs.h"
#include "trace.h"

#define RULE_GROUP_PREFIX  "rule "
#define PLAN_GROUP         "plan"
#define SEED_SPREAD        0x9e3779b9u     /* rule i's stream: seed + i * this */
/* GLPE_CRITERR of "oicr pe-critical" without a value: anything but irdma's benign
 * IRDMA_Q1_RESOURCE_ERR (0x1024d), which it only warns about. */
#define CRITERR_DEFAULT    0x00010001u

static const struct {
    const char *name;
    uint32_t cause;
} oicr_causes[] = {
    { "hmc-error", PFINT_OICR_HMC_ERR_M },
    { "pe-critical", PFINT_OICR_PE_CRITERR_M },
    { "pe-push", PFINT_OICR_PE_PUSH_M },
};

typedef struct FaultRule {
    char *name;
    FaultEvent event;
    unsigned code;
    bool any_id;
    unsigned id;               /* AE: the QP */
    FaultAction action;
    unsigned every;            /* fire on every Nth matching event (1: each) */
    double probability;        /* then with this probability */
    unsigned times;            /* at most this many times (0: no limit) */
    int after;                 /* only once rule @after has fired (-1: none) */
    GRand *rand;
    uint64_t seen, fired;
} FaultRule;

struct FaultPlan {
    uint32_t seed;
    GPtrArray *rules;          /* FaultRule * */
};

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

/* on = cqp NAME|OPCODE  |  ae CODE [qp=N] */
static bool parse_on(const ParseCtx *c, const char *val, FaultRule *r)
{
    g_auto(GStrv) all = NULL;
    char *words[3];
    unsigned n = split_words(val, &all, words, G_N_ELEMENTS(words));

    r->any_id = true;
    if (n == 2 && !strcmp(words[0], "cqp")) {
        int op = cqp_opcode_named(words[1]);

        r->event = FAULT_ON_CQP;
        if (op >= 0) {
            r->code = op;
            return true;
        }
        if (parse_uint(words[1], 0xff, &r->code) && cqp_opcode_name(r->code)) {
            return true;
        }
        return fail_at(c, "on", "'%s' is no CQP opcode the device implements", words[1]);
    }
    if ((n == 2 || n == 3) && !strcmp(words[0], "ae")) {
        r->event = FAULT_ON_AE;
        if (!parse_uint(words[1], 0xfff, &r->code)) {
            return fail_at(c, "on", "'%s' is no AE code (0 to 0xfff)", words[1]);
        }
        if (n == 3) {
            if (!g_str_has_prefix(words[2], "qp=") || !parse_uint(words[2] + 3, 0x3ffff, &r->id)) {
                return fail_at(c, "on", "'%s' is not qp=N", words[2]);
            }
            r->any_id = false;
        }
        return true;
    }
    return fail_at(c, "on", "'%s' is not 'cqp OPCODE' or 'ae CODE [qp=N]'", val);
}

/* action = error MAJ MIN  |  drop */
static bool parse_action(const ParseCtx *c, const char *val, FaultRule *r)
{
    g_auto(GStrv) all = NULL;
    char *words[3];
    unsigned n = split_words(val, &all, words, G_N_ELEMENTS(words)), maj, min;

    if (n == 1 && !strcmp(words[0], "drop")) {
        r->action.kind = FAULT_DROP;
        return true;
    }
    if (n == 3 && !strcmp(words[0], "error")) {
        if (r->event != FAULT_ON_CQP) {
            return fail_at(c, "action", "error applies to 'on = cqp ...' rules");
        }
        if (!parse_uint(words[1], 0xffff, &maj) || maj == 0 ||
            !parse_uint(words[2], 0xffff, &min)) {
            return fail_at(c, "action", "'%s': the major code is 1 to 0xffff, the minor 0 to "
                           "0xffff", val);
        }
        r->action = (FaultAction) { .kind = FAULT_ERROR, .maj = maj, .min = min };
        return true;
    }
    if ((n == 2 || n == 3) && !strcmp(words[0], "oicr")) {
        size_t i = 0;

        while (i < G_N_ELEMENTS(oicr_causes) && strcmp(words[1], oicr_causes[i].name)) {
            i++;
        }
        if (r->event != FAULT_ON_CQP) {
            return fail_at(c, "action", "oicr applies to 'on = cqp ...' rules");
        }
        if (i == G_N_ELEMENTS(oicr_causes)) {
            return fail_at(c, "action", "'%s' is no OICR cause (hmc-error, pe-critical, "
                           "pe-push)", words[1]);
        }
        r->action = (FaultAction) { .kind = FAULT_OICR, .oicr = oicr_causes[i].cause };
        if (oicr_causes[i].cause == PFINT_OICR_PE_CRITERR_M) {
            r->action.criterr = CRITERR_DEFAULT;
            if (n == 3 && !parse_uint(words[2], G_MAXUINT32, &r->action.criterr)) {
                return fail_at(c, "action", "'%s' is not a GLPE_CRITERR value", words[2]);
            }
        } else if (n == 3) {
            return fail_at(c, "action", "only pe-critical takes a value");
        }
        return true;
    }
    return fail_at(c, "action", "'%s' is not 'error MAJOR MINOR', 'drop' or 'oicr CAUSE'", val);
}

static const char *const rule_keys[] = { "on", "action", "once", "every", "probability",
                                         "times", "after" };

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
    char *end;

    for (unsigned i = 0; keys && keys[i]; i++) {
        bool known = false;

        for (size_t k = 0; k < G_N_ELEMENTS(rule_keys); k++) {
            known |= !strcmp(keys[i], rule_keys[k]);
        }
        if (!known) {
            return fail_at(c, keys[i], "unknown key (on, action, once, every, probability, "
                           "times, after)");
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
    r->after = -1;
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
    return true;
}

FaultPlan *fault_plan_parse(const char *text, const char *source, GError **errp)
{
    g_autoptr(GKeyFile) kf = g_key_file_new();
    g_autoptr(GError) kerr = NULL;
    g_auto(GStrv) groups = NULL;
    FaultPlan *plan;
    ParseCtx c = { .text = text, .source = source, .errp = errp };
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
    plan->rules = g_ptr_array_new_with_free_func(rule_free);
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
    plan->seed = seed;
    fault_plan_rewind(plan);
    return plan;

fail:
    fault_plan_free(plan);
    return NULL;
}

FaultPlan *fault_plan_load(const char *path, GError **errp)
{
    g_autofree char *text = NULL;

    if (!g_file_get_contents(path, &text, NULL, errp)) {
        return NULL;
    }
    return fault_plan_parse(text, path, errp);
}

/* --- at run time --- */

void fault_set_plan(IrdmaDev *d, FaultPlan *plan)
{
    fault_plan_free(d->faults);
    d->faults = plan;
    g_string_truncate(d->fault_log, 0);
}

static bool matches(const FaultRule *r, FaultEvent ev, unsigned code, unsigned id)
{
    return r->event == ev && r->code == code && (r->any_id || r->id == id);
}

static bool triggers(const FaultPlan *plan, FaultRule *r)
{
    r->seen++;
    if (r->after >= 0 && !((FaultRule *)g_ptr_array_index(plan->rules, r->after))->fired) {
        return false;
    }
    if ((r->times && r->fired >= r->times) || r->seen % r->every) {
        return false;
    }
    return r->probability >= 1.0 || g_rand_double(r->rand) < r->probability;
}

static void log_fired(IrdmaDev *d, const FaultRule *r, unsigned code, unsigned id)
{
    uint64_t now = d->host.ops->clock_ns(d->host.opaque);
    g_autofree char *event = r->event == FAULT_ON_CQP ?
        g_strdup_printf("cqp 0x%02x %s", code, cqp_opcode_name(code)) :
        g_strdup_printf("ae 0x%03x qp=%u", code, id);
    g_autofree char *action =
        r->action.kind == FAULT_ERROR ?
            g_strdup_printf("error 0x%04x 0x%04x", r->action.maj, r->action.min) :
        r->action.kind == FAULT_OICR ?
            g_strdup_printf("oicr 0x%08x criterr 0x%08x", r->action.oicr, r->action.criterr) :
            g_strdup("drop");

    g_string_append_printf(d->fault_log, "%" G_GUINT64_FORMAT " %s %s %s\n", now, r->name, event,
                           action);
    emu_trace(&d->host, "fault_fired", "rule %s: %s -> %s", r->name, event, action);
}

const FaultAction *fault_check(IrdmaDev *d, FaultEvent ev, unsigned code, unsigned id)
{
    FaultPlan *plan = d->faults;

    if (!plan) {
        return NULL;
    }
    for (unsigned i = 0; i < plan->rules->len; i++) {
        FaultRule *r = g_ptr_array_index(plan->rules, i);

        if (matches(r, ev, code, id) && triggers(plan, r)) {
            r->fired++;
            log_fired(d, r, code, id);
            return &r->action;
        }
    }
    return NULL;
}

const char *fault_log(IrdmaDev *d)
{
    return d->fault_log->str;
}
