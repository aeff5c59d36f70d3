// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace_sample.ko: a sample driver for the kernel-mode API
 * (include/nttrace/wdm.h). Loaded with logger=HANDLE it traces, in each of
 * the three contexts a driver runs in (process context: its init; softirq:
 * a timer; hardirq: an irq_work, which x86 runs from a self-IPI), @events
 * message events with WmiTraceMessage and @events classic events with
 * ZwTraceEvent(NTTRACE_ETW_NT_FLAGS_TRACE_HEADER), and, when a session enables its
 * manifest-style provider (EtwRegister; GUID below, events of level 4,
 * keyword 0x10), @events EtwWrite events, and when a session enables its
 * TraceLogging provider (GUID below, the same level and keyword), @events
 * TraceLoggingWrite events (index, context); then stays loaded until
 * removed. Each event says which context it was really written from (as
 * the kernel saw it), so that a test can check the contexts were what
 * they should be.
 *
 * A real driver learns its logger handle from its control callback; this
 * one takes it as a parameter so that it needs nothing but the API.
 *
 * Read-only parameters report the outcome: failures (calls that did not
 * return NTTRACE_STATUS_SUCCESS), last_status (the last such status), and what
 * the EtwRegister callback saw: etw_enables (ENABLE callbacks) and
 * etw_level (the last level enabled).
 */
#include <linux/completion.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/timer.h>
#include <nttrace/wdm.h>
#include <nttrace/traceloggingprovider.h>

static ulong logger;
module_param(logger, ulong, 0444);
MODULE_PARM_DESC(logger, "the logger handle to trace to (its low 16 bits: the logger ID)");

static uint events = 3;
module_param(events, uint, 0444);
MODULE_PARM_DESC(events, "events of each kind per context");

static uint failures;
module_param(failures, uint, 0444);
MODULE_PARM_DESC(failures, "calls that did not return STATUS_SUCCESS");

static uint last_status;
module_param(last_status, uint, 0444);
MODULE_PARM_DESC(last_status, "the status of the last failed call");

static uint etw_enables;
module_param(etw_enables, uint, 0444);
MODULE_PARM_DESC(etw_enables, "ENABLE callbacks of the EtwRegister provider");

static uint etw_level;
module_param(etw_level, uint, 0444);
MODULE_PARM_DESC(etw_level, "the level of the last ENABLE callback");

/* {5c1a7e2d-0b4f-4e61-9a3c-6d2f8b7e1a90}: the sample's provider GUID. */
static const guid_t sample_guid = GUID_INIT(0x5c1a7e2d, 0x0b4f, 0x4e61, 0x9a, 0x3c,
					    0x6d, 0x2f, 0x8b, 0x7e, 0x1a, 0x90);

/* {5c1a7e2d-0b4f-4e61-9a3c-6d2f8b7e1a91}: its EtwRegister provider. */
static const guid_t sample_etw_guid = GUID_INIT(0x5c1a7e2d, 0x0b4f, 0x4e61, 0x9a, 0x3c,
						0x6d, 0x2f, 0x8b, 0x7e, 0x1a, 0x91);
static u64 sample_etw;

/* {5c1a7e2d-0b4f-4e61-9a3c-6d2f8b7e1a92}: its TraceLogging provider. */
TRACELOGGING_DEFINE_PROVIDER(sample_tl, "Nttrace.Sample",
	(0x5c1a7e2d, 0x0b4f, 0x4e61, 0x9a, 0x3c, 0x6d, 0x2f, 0x8b, 0x7e, 0x1a, 0x92));

/* Message numbers, classic event types, event IDs: the context written from. */
enum sample_context { SAMPLE_PROCESS = 1, SAMPLE_SOFTIRQ, SAMPLE_HARDIRQ, SAMPLE_OTHER };

static const char *const context_names[] = {
	[SAMPLE_PROCESS] = "process", [SAMPLE_SOFTIRQ] = "softirq",
	[SAMPLE_HARDIRQ] = "hardirq", [SAMPLE_OTHER] = "other",
};

/* A classic event: the header, then the index and the context's name. */
struct sample_event {
	struct nttrace_event_trace_header h;
	u32 index;
	char context[12];
};

static enum sample_context current_context(void)
{
	if (in_nmi())
		return SAMPLE_OTHER;
	if (in_hardirq())
		return SAMPLE_HARDIRQ;
	if (in_serving_softirq())
		return SAMPLE_SOFTIRQ;
	if (in_task())
		return SAMPLE_PROCESS;
	return SAMPLE_OTHER;
}

static void check(u32 status)
{
	/* Several contexts may count at once; the counts are for a test. */
	if (status != NTTRACE_STATUS_SUCCESS) {
		WRITE_ONCE(failures, READ_ONCE(failures) + 1);
		WRITE_ONCE(last_status, status);
	}
}

/* An EtwWrite event: the index and the context's name. */
static void trace_etw(enum sample_context ctx, u32 i)
{
	const char *name = context_names[ctx];
	struct nttrace_event_descriptor desc = {
		.id = ctx, .version = 1, .level = 4, .keyword = 0x10,
	};
	struct nttrace_event_data_descriptor data[2] = {
		{ .ptr = (uintptr_t)&i, .size = sizeof(i) },
		{ .ptr = (uintptr_t)name, .size = strlen(name) + 1 },
	};

	if (EtwEventEnabled(sample_etw, &desc))
		check(EtwWrite(sample_etw, &desc, NULL, ARRAY_SIZE(data), data));
}

static void sample_etw_callback(const guid_t *source_id, u32 control_code, u8 level,
				u64 match_any_keyword, u64 match_all_keyword,
				void *filter_data, void *callback_context)
{
	if (control_code == NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER) {
		WRITE_ONCE(etw_enables, READ_ONCE(etw_enables) + 1);
		WRITE_ONCE(etw_level, level);
	}
}

static void trace_here(void)
{
	enum sample_context ctx = current_context();
	const char *name = context_names[ctx];
	struct sample_event ev = {};
	u32 i;

	for (i = 0; i < events; i++) {
		check(WmiTraceMessage(
			logger,
			NTTRACE_TRACE_MESSAGE_SEQUENCE | NTTRACE_TRACE_MESSAGE_GUID |
				NTTRACE_TRACE_MESSAGE_TIMESTAMP | NTTRACE_TRACE_MESSAGE_SYSTEMINFO,
			&sample_guid, ctx, &i, sizeof(i), name, strlen(name) + 1, NULL));

		memset(&ev, 0, sizeof(ev));
		ev.h.size = sizeof(ev);
		ev.h.class_type = ctx;
		ev.h.class_level = 4;
		ev.h.flags = NTTRACE_WNODE_FLAG_TRACED_GUID;
		memcpy(ev.h.guid, &sample_guid, sizeof(ev.h.guid));
		ev.index = i;
		strscpy(ev.context, name, sizeof(ev.context));
		check(ZwTraceEvent(logger, NTTRACE_ETW_NT_FLAGS_TRACE_HEADER, sizeof(ev), &ev));
		trace_etw(ctx, i);
		TraceLoggingWrite(sample_tl, "SampleEvent", TraceLoggingLevel(4),
				  TraceLoggingKeyword(0x10), TraceLoggingUInt32(i, "index"),
				  TraceLoggingString(name, "context"));
	}
}

static DECLARE_COMPLETION(softirq_done);
static struct timer_list sample_timer;

static void sample_timer_fn(struct timer_list *t)
{
	trace_here();
	complete(&softirq_done);
}

static void sample_irq_work_fn(struct irq_work *work)
{
	trace_here();
}

static struct irq_work sample_irq_work = IRQ_WORK_INIT_HARD(sample_irq_work_fn);

static int __init sample_init(void)
{
	/* Enables made before run the callback inside EtwRegister. */
	check(EtwRegister(&sample_etw_guid, sample_etw_callback, NULL, &sample_etw));
	check(TraceLoggingRegister(sample_tl));
	trace_here();

	timer_setup(&sample_timer, sample_timer_fn, 0);
	mod_timer(&sample_timer, jiffies + 1);
	wait_for_completion(&softirq_done);
	timer_shutdown_sync(&sample_timer);

	irq_work_queue(&sample_irq_work);
	irq_work_sync(&sample_irq_work);
	return 0;
}

static void __exit sample_exit(void)
{
	TraceLoggingUnregister(sample_tl);
	EtwUnregister(sample_etw);
}

module_init(sample_init);
module_exit(sample_exit);

MODULE_DESCRIPTION("nttrace sample driver: the kernel-mode API from three contexts");
MODULE_AUTHOR("nttrace developers");
MODULE_LICENSE("GPL");
NTTRACE_IMPORT_NS();
