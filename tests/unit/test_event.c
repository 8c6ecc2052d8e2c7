/* test_event.c - the event queue: order, timer arming, cancel, budget. */
#include <check.h>
#include "fake_host.h"
#include "emu/core/event.h"

static FakeHost *h;
static IrdmaHost host;
static EmuEventQueue q;
static GString *log_;

static void setup(void)
{
    h = fake_host_new(16);
    host = (IrdmaHost) { .ops = &fake_host_ops, .opaque = h };
    emu_event_queue_init(&q, &host);
    log_ = g_string_new(NULL);
}

static void teardown(void)
{
    emu_event_queue_destroy(&q);
    g_string_free(log_, TRUE);
    fake_host_free(h);
}

static void record(void *arg)
{
    g_string_append(log_, arg);
}

/* Advance the fake clock to @ns and run the queue if its timer is due. */
static void advance(uint64_t ns)
{
    h->now_ns = ns;
    if (h->timer_armed && h->timer_deadline <= ns) {
        h->timer_armed = false;
        emu_event_queue_run(&q);
    }
}

START_TEST(events_run_in_deadline_order_ties_in_fifo_order)
{
    emu_event_schedule(&q, 300, record, "c");
    emu_event_schedule(&q, 100, record, "a");
    emu_event_schedule(&q, 200, record, "b1");
    emu_event_schedule(&q, 200, record, "b2");
    ck_assert(h->timer_armed);
    ck_assert_uint_eq(h->timer_deadline, 100);
    advance(250);
    ck_assert_str_eq(log_->str, "ab1b2");
    ck_assert(h->timer_armed);
    ck_assert_uint_eq(h->timer_deadline, 300);
    advance(300);
    ck_assert_str_eq(log_->str, "ab1b2c");
    ck_assert(!h->timer_armed);
}
END_TEST

START_TEST(nothing_runs_before_its_deadline)
{
    h->now_ns = 1000;
    emu_event_schedule(&q, 50, record, "x");
    ck_assert_uint_eq(h->timer_deadline, 1050);
    emu_event_queue_run(&q);          /* a spurious early fire */
    ck_assert_str_eq(log_->str, "");
    ck_assert(h->timer_armed);
    advance(1050);
    ck_assert_str_eq(log_->str, "x");
}
END_TEST

START_TEST(cancel_removes_event_and_rearms)
{
    EmuEvent *a = emu_event_schedule(&q, 10, record, "a");

    emu_event_schedule(&q, 20, record, "b");
    emu_event_cancel(&q, a);
    ck_assert_uint_eq(h->timer_deadline, 20);
    advance(100);
    ck_assert_str_eq(log_->str, "b");
}
END_TEST

START_TEST(cancel_all_disarms)
{
    emu_event_schedule(&q, 10, record, "a");
    emu_event_schedule(&q, 20, record, "b");
    emu_event_cancel_all(&q);
    ck_assert(!h->timer_armed);
    ck_assert_uint_eq(emu_event_queue_length(&q), 0);
}
END_TEST

static void reschedule_self(void *arg)
{
    g_string_append_c(log_, 'r');
    emu_event_schedule(&q, 0, reschedule_self, arg);
}

START_TEST(a_self_rescheduling_storm_is_budgeted)
{
    unsigned arms;

    q.run_budget = 8;
    emu_event_schedule(&q, 0, reschedule_self, NULL);
    arms = h->timer_arms;
    advance(0);
    /* One run ran the budget, then gave the host its loop back with the timer re-armed. */
    ck_assert_uint_eq(log_->len, 8);
    ck_assert(h->timer_armed);
    ck_assert_uint_eq(h->timer_arms, arms + 1);
    ck_assert_uint_eq(fake_host_trace_count(h, "event_budget_exhausted"), 1);
}
END_TEST

START_TEST(timer_is_not_rearmed_for_a_later_event)
{
    unsigned arms;

    emu_event_schedule(&q, 10, record, "a");
    arms = h->timer_arms;
    emu_event_schedule(&q, 50, record, "b");
    ck_assert_uint_eq(h->timer_arms, arms);
    ck_assert_uint_eq(h->timer_deadline, 10);
}
END_TEST

START_TEST(huge_delay_saturates)
{
    h->now_ns = 10;
    emu_event_schedule(&q, UINT64_MAX, record, "a");
    ck_assert_uint_eq(h->timer_deadline, UINT64_MAX);
}
END_TEST

/* An event scheduled with an earlier ticket runs where one scheduled then would have. */
START_TEST(a_ticket_keeps_its_place_among_equal_deadlines)
{
    uint64_t deadline = emu_event_deadline(&q, 100), ticket = emu_event_ticket(&q);

    emu_event_schedule(&q, 100, record, "b");
    h->now_ns = 40;
    emu_event_schedule_at(&q, deadline, ticket, record, "a");
    emu_event_schedule(&q, 60, record, "c");
    ck_assert_uint_eq(h->timer_deadline, 100);
    advance(100);
    ck_assert_str_eq(log_->str, "abc");
}
END_TEST

#define RANDOM_OPS       20000
#define RANDOM_SEED      0x5eed1e55
#define RANDOM_MAX_DELAY 64       /* small: many events share a deadline */
#define RANDOM_MAX_STEP  32

/* The reference: pending events as a list sorted by deadline, ties in scheduling order. */
typedef struct RefEvent {
    uint64_t deadline;
    unsigned id;
    EmuEvent *ev;
} RefEvent;

static GArray *ran;

static void record_id(void *arg)
{
    unsigned id = GPOINTER_TO_UINT(arg);

    g_array_append_val(ran, id);
}

START_TEST(random_schedules_and_cancels_run_in_sorted_order)
{
    GRand *rnd = g_rand_new_with_seed(RANDOM_SEED);
    GArray *ref = g_array_new(FALSE, FALSE, sizeof(RefEvent));
    unsigned next_id = 0;

    ran = g_array_new(FALSE, FALSE, sizeof(unsigned));
    for (unsigned op = 0; op < RANDOM_OPS; op++) {
        int what = g_rand_int_range(rnd, 0, 10);

        if (what < 5) {
            uint64_t delay = g_rand_int_range(rnd, 0, RANDOM_MAX_DELAY);
            RefEvent e = { h->now_ns + delay, next_id, NULL };
            guint at = ref->len;

            e.ev = emu_event_schedule(&q, delay, record_id, GUINT_TO_POINTER(next_id));
            next_id++;
            while (at > 0 && g_array_index(ref, RefEvent, at - 1).deadline > e.deadline) {
                at--;
            }
            g_array_insert_val(ref, at, e);
        } else if (what < 8) {
            if (ref->len) {
                guint at = g_rand_int_range(rnd, 0, ref->len);

                emu_event_cancel(&q, g_array_index(ref, RefEvent, at).ev);
                g_array_remove_index(ref, at);
            }
        } else {
            uint64_t t = h->now_ns + g_rand_int_range(rnd, 0, RANDOM_MAX_STEP);
            guint due = 0;

            while (due < ref->len && g_array_index(ref, RefEvent, due).deadline <= t) {
                due++;
            }
            g_array_set_size(ran, 0);
            advance(t);
            ck_assert_uint_eq(ran->len, due);
            for (guint i = 0; i < due; i++) {
                ck_assert_uint_eq(g_array_index(ran, unsigned, i),
                                  g_array_index(ref, RefEvent, i).id);
            }
            g_array_remove_range(ref, 0, due);
        }
        ck_assert_uint_eq(emu_event_queue_length(&q), ref->len);
        ck_assert_int_eq(h->timer_armed, ref->len != 0);
        if (ref->len) {
            ck_assert_uint_eq(h->timer_deadline, g_array_index(ref, RefEvent, 0).deadline);
        }
    }
    g_array_free(ran, TRUE);
    g_array_free(ref, TRUE);
    g_rand_free(rnd);
}
END_TEST

Suite *event_suite(void)
{
    Suite *s = suite_create("event");
    TCase *tc = tcase_create("queue");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, events_run_in_deadline_order_ties_in_fifo_order);
    tcase_add_test(tc, nothing_runs_before_its_deadline);
    tcase_add_test(tc, cancel_removes_event_and_rearms);
    tcase_add_test(tc, cancel_all_disarms);
    tcase_add_test(tc, a_self_rescheduling_storm_is_budgeted);
    tcase_add_test(tc, timer_is_not_rearmed_for_a_later_event);
    tcase_add_test(tc, huge_delay_saturates);
    tcase_add_test(tc, a_ticket_keeps_its_place_among_equal_deadlines);
    tcase_add_test(tc, random_schedules_and_cancels_run_in_sorted_order);
    suite_add_tcase(s, tc);
    return s;
}
