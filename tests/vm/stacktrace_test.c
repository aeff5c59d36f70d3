// SPDX-License-Identifier: GPL-2.0
/*
 * EnableTraceEx2's EVENT_ENABLE_PROPERTY_STACK_TRACE, 64-bit and 32-bit:
 * the writer's call stack in a STACK_TRACE64 (32-bit: STACK_TRACE32) item
 * of each EventWrite and TraceLogging record a session so enabled gets.
 *
 * - Two sessions enable one provider, one with the property: an event
 *   written from emit() called by caller_b() called by caller_a() (this
 *   program has frame pointers) reaches the first with the item, first
 *   of the items, its MatchId 0 and its return addresses through
 *   caller_b, caller_a and main, no kernel address among them; the
 *   second without any item; both with the same data.
 * - A TraceLogging event: the stack item, then PROV_TRAITS and
 *   EVENT_SCHEMA_TL, Linkage 1 on all but the last, the data intact.
 * - NTTRACE_IOC_LIST_PROVIDERS marks the enable (NTTRACE_PROVIDER_ROW_STACK_TRACE),
 *   EnumerateTraceGuidsEx gives it as EnableProperty.
 * - The ioctl's rules: another property bit, pad, a property with
 *   DISABLE: -EINVAL; the user-mode logger: ERROR_NOT_SUPPORTED.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <nttrace/evntcons.h>
#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/session.h>
#include <nttrace/traceloggingprovider.h>

#include "emit.h"
#include "expect.h"
#include "props.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define WORD ((unsigned int)sizeof(void *))
#define EXT_STACK (BITS == 64 ? EVENT_HEADER_EXT_TYPE_STACK_TRACE64 : \
			       EVENT_HEADER_EXT_TYPE_STACK_TRACE32)
/* Above every user address of either ABI: x86-64's kernel half. */
#define KERNEL_START 0xffff800000000000ULL

static const GUID prov = { 0x6e7b0f11, 0x2222, 0x4333, { 0x84, 1, 2, 3, 4, 5, 6, 0x42 } };

/* {6e747472-0042-4c54-8000-000000000042} */
TRACELOGGING_DEFINE_PROVIDER(tl_provider, "nttrace.stk",
			     (0x6e747472, 0x0042, 0x4c54, 0x80, 0, 0, 0, 0, 0, 0, 0x42));
static const GUID tl_guid = { 0x6e747472, 0x0042, 0x4c54,
			      { 0x80, 0, 0, 0, 0, 0, 0, 0x42 } };

extern const char __start_nt_caller_a[], __stop_nt_caller_a[];
extern const char __start_nt_caller_b[], __stop_nt_caller_b[];
extern const char __start_nt_main[], __stop_nt_main[];
#define IN(sec, a) ((a) >= (uintptr_t)__start_##sec && (a) < (uintptr_t)__stop_##sec)

static volatile int after;	/* work after each call: no tail calls */
static const char payload[] = "stacked";

__attribute__((noinline)) static void emit_event(REGHANDLE h)
{
	EVENT_DESCRIPTOR d = { .Id = 7, .Level = 4, .Keyword = 1 };
	EVENT_DATA_DESCRIPTOR dd;

	EventDataDescCreate(&dd, payload, sizeof(payload));
	EventWrite(h, &d, 1, &dd);
	after++;
}

__attribute__((noinline, section("nt_caller_b"))) static void caller_b(REGHANDLE h)
{
	emit_event(h);
	after++;
}

__attribute__((noinline, section("nt_caller_a"))) static void caller_a(REGHANDLE h)
{
	caller_b(h);
	after++;
}

/* What one session's consumer found of prov's and tl_guid's records. */
struct seen {
	unsigned int events, with_stack, callers, kernel, data_ok, items_bad;
	unsigned int tl_events, tl_order_ok;
	uint64_t match_id;
	unsigned int frames;
};

/* The items of an EventWrite record, as ExtType list; the data's offset. */
static unsigned int items(const uint8_t *rec, uint32_t size, uint16_t types[8],
			  uint32_t at[8], uint32_t *data_off, int *linkage_ok)
{
	uint32_t off = 0x50;
	unsigned int n = 0;

	*linkage_ok = 1;
	if (!(get_le(rec + 4, 2) & EVENT_HEADER_FLAG_EXTENDED_INFO)) {
		*data_off = off;
		return 0;
	}
	for (;;) {
		uint32_t isize = get_le(rec + off, 2);
		int more = (int)get_le(rec + off + 4, 2);

		if (n == 8 || isize < 8 || off + isize > size)
			return 0xFF;
		types[n] = (uint16_t)get_le(rec + off + 2, 2);
		at[n++] = off;
		off += isize;
		if (!more)
			break;
		if (more != 1)
			*linkage_ok = 0;
	}
	*data_off = off;
	return n;
}

static void on_record(void *ctx, const uint8_t *rec, uint32_t size)
{
	struct seen *s = ctx;
	uint16_t types[8];
	uint32_t at[8], data_off;
	unsigned int n, i;
	int linkage_ok;

	if (rec[3] != 0xC0 || (rec[2] != 0x12 && rec[2] != 0x13) || size < 0x50)
		return;
	n = items(rec, size, types, at, &data_off, &linkage_ok);
	if (!memcmp(rec + 0x18, &tl_guid, 16)) {
		s->tl_events++;
		s->tl_order_ok += n == 3 && types[0] == EXT_STACK &&
				  types[1] == EVENT_HEADER_EXT_TYPE_PROV_TRAITS &&
				  types[2] == EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL && linkage_ok &&
				  size - data_off >= 4 && get_le(rec + data_off, 4) == 42;
		return;
	}
	if (memcmp(rec + 0x18, &prov, 16))
		return;
	s->events++;
	if (n == 0xFF) {
		s->items_bad++;
		return;
	}
	/* The data, 8-aligned after the items: "stacked" and its NUL. */
	if (size - data_off >= sizeof(payload) &&
	    !memcmp(rec + data_off, payload, sizeof(payload)))
		s->data_ok++;
	if (!n)
		return;
	if (n != 1 || types[0] != EXT_STACK || !linkage_ok) {
		s->items_bad++;
		return;
	}
	{
		const uint8_t *it = rec + at[0];
		uint32_t dsize = get_le(it + 6, 2), a = 0, b = 0, m = 0, k = 0;

		if (dsize < 8 || (dsize - 8) % WORD || get_le(it, 2) != ((8 + dsize + 7) & ~7U)) {
			s->items_bad++;
			return;
		}
		s->with_stack++;
		s->match_id |= get_le(it + 8, 8);
		s->frames = (dsize - 8) / WORD;
		for (i = 0; i < s->frames; i++) {
			uint64_t ip = get_le(it + 16 + i * WORD, WORD);

			a |= IN(nt_caller_a, ip);
			b |= IN(nt_caller_b, ip);
			m |= IN(nt_main, ip);
			k |= ip >= KERNEL_START;
		}
		s->callers += a && b && m;
		s->kernel += k;
		if (!(a && b && m)) {
			printf("# a stack without caller_a, caller_b or main:");
			for (i = 0; i < s->frames && i < 12; i++)
				printf(" %#llx", (unsigned long long)get_le(it + 16 + i * WORD,
									    WORD));
			printf("\n");
		}
	}
}

static int on_buffer(void *ctx, const void *buf, uint32_t size, unsigned int cpu)
{
	expect_walk(buf, on_record, ctx);
	return 0;
}

static uint32_t start(const char *name)
{
	struct nttrace_logger_info info;

	if (start_session(name, 64, 4, 0, &info)) {
		printf("# could not start %s\n", name);
		return 0;
	}
	return info.logger_id;
}

static ENABLE_TRACE_PARAMETERS stack_params(void)
{
	ENABLE_TRACE_PARAMETERS p;

	memset(&p, 0, sizeof(p));
	p.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
	p.EnableProperty = EVENT_ENABLE_PROPERTY_STACK_TRACE;
	return p;
}

/* The enable rows' flags of session @id for @g, or ~0 when none. */
static uint32_t row_flags(const GUID *g, uint32_t id)
{
	struct nttrace_provider_row rows[64];
	struct nttrace_provider_list l = { .size = sizeof(l), .count = 64,
					   .rows = (uintptr_t)rows };
	uint32_t i;

	if (ioctl(nttrace_device_fd(), NTTRACE_IOC_LIST_PROVIDERS, &l))
		return ~0U;
	for (i = 0; i < l.count && i < 64; i++)
		if (!memcmp(rows[i].guid, g, 16) && rows[i].logger_id == id)
			return rows[i].flags;
	return ~0U;
}

/* EnumerateTraceGuidsEx's EnableProperty of session @id's enable of @g. */
static ULONG enum_property(const GUID *g, uint32_t id)
{
	static char buf[8192];
	const TRACE_GUID_INFO *gi = (const void *)buf;
	const TRACE_PROVIDER_INSTANCE_INFO *inst;
	const TRACE_ENABLE_INFO *en;
	ULONG len = 0, i;

	if (EnumerateTraceGuidsEx(TraceGuidQueryInfo, (PVOID)g, sizeof(*g), buf, sizeof(buf),
				  &len) || !gi->InstanceCount)
		return ~0U;
	inst = (const void *)(gi + 1);
	en = (const void *)(inst + 1);
	for (i = 0; i < inst->EnableCount; i++)
		if (en[i].LoggerId == id)
			return en[i].EnableProperty;
	return ~0U;
}

TEST_F(nttrace, stacks)
{
	uint32_t s1 = start("stk-1"), s2 = start("stk-2");
	struct nttrace_consumer *c1 = NULL, *c2 = NULL;
	ENABLE_TRACE_PARAMETERS p = stack_params();
	struct seen a = { 0 }, b = { 0 };
	REGHANDLE h = 0;
	int i;

	if (!tap_ok(s1 && s2 && !nttrace_consumer_open(&c1, s1) &&
		    !nttrace_consumer_open(&c2, s2), "%d-bit: two sessions and consumers", BITS))
		return;
	tap_eq(EventRegister(&prov, NULL, NULL, &h), ERROR_SUCCESS, "%d-bit: EventRegister",
	       BITS);
	tap_eq(TraceLoggingRegister(tl_provider), 0, "%d-bit: TraceLoggingRegister", BITS);
	tap_eq(EnableTraceEx2(s1, &prov, 1, 4, 1, 0, 0, &p), ERROR_SUCCESS,
	       "%d-bit: session 1: EnableTraceEx2 with EVENT_ENABLE_PROPERTY_STACK_TRACE", BITS);
	tap_eq(EnableTraceEx2(s2, &prov, 1, 4, 1, 0, 0, NULL), ERROR_SUCCESS,
	       "%d-bit: session 2: without", BITS);
	tap_eq(EnableTraceEx2(s1, &tl_guid, 1, 4, 1, 0, 0, &p), ERROR_SUCCESS,
	       "%d-bit: session 1: the TraceLogging provider with stacks", BITS);
	tap_eq(row_flags(&prov, s1) & NTTRACE_PROVIDER_ROW_STACK_TRACE,
	       NTTRACE_PROVIDER_ROW_STACK_TRACE,
	       "%d-bit: LIST_PROVIDERS: session 1's enable has ROW_STACK_TRACE", BITS);
	tap_eq(row_flags(&prov, s2) & NTTRACE_PROVIDER_ROW_STACK_TRACE, 0,
	       "%d-bit: ... session 2's not", BITS);
	tap_eq(enum_property(&prov, s1), EVENT_ENABLE_PROPERTY_STACK_TRACE,
	       "%d-bit: EnumerateTraceGuidsEx: EnableProperty STACK_TRACE for session 1", BITS);
	tap_eq(enum_property(&prov, s2), 0, "%d-bit: ... 0 for session 2", BITS);
	/* The enables reach the providers on their notification thread. */
	while (!EventProviderEnabled(h, 4, 1) || !TraceLoggingProviderEnabled(tl_provider, 4, 1))
		usleep(10000);	/* a pace for the poll, not a limit */

	for (i = 0; i < 10; i++)
		caller_a(h);
	TraceLoggingWrite(tl_provider, "T", TraceLoggingLevel(4), TraceLoggingKeyword(1),
			  TraceLoggingInt32(42, "n"));
	flush_drain(c1, s1, on_buffer, &a);
	flush_drain(c2, s2, on_buffer, &b);

	tap_eq(a.events, 10, "%d-bit: session 1 got the 10 events", BITS);
	tap_eq(a.items_bad, 0, "%d-bit: ... each item well formed, the stack alone", BITS);
	tap_eq(a.with_stack, 10, "%d-bit: ... each with a STACK_TRACE%d item", BITS, BITS);
	tap_eq(a.data_ok, 10, "%d-bit: ... and its data after it", BITS);
	tap_eq(a.match_id, 0, "%d-bit: ... MatchId 0", BITS);
	tap_eq(a.callers, 10, "%d-bit: ... the frames through caller_b, caller_a and main "
	       "(the last has %u)", BITS, a.frames);
	tap_eq(a.kernel, 0, "%d-bit: ... no kernel frame for a user-mode writer", BITS);
	tap_eq(a.tl_events, 1, "%d-bit: session 1 got the TraceLogging event", BITS);
	tap_eq(a.tl_order_ok, 1, "%d-bit: ... items STACK, PROV_TRAITS, EVENT_SCHEMA_TL, data "
	       "intact", BITS);
	tap_eq(b.events, 10, "%d-bit: session 2 got the 10 events", BITS);
	tap_eq(b.with_stack + b.items_bad, 0, "%d-bit: ... without any item", BITS);
	tap_eq(b.data_ok, 10, "%d-bit: ... the same data", BITS);
	tap_eq(b.tl_events, 0, "%d-bit: ... and no TraceLogging event (not enabled)", BITS);

	/* Enabled again without: no more stacks. */
	tap_eq(EnableTraceEx2(s1, &prov, 1, 4, 1, 0, 0, NULL), ERROR_SUCCESS,
	       "%d-bit: session 1 enabled again without the property", BITS);
	memset(&a, 0, sizeof(a));
	caller_a(h);
	flush_drain(c1, s1, on_buffer, &a);
	tap_ok(a.events == 1 && !a.with_stack && a.data_ok == 1,
	       "%d-bit: ... its next event has no stack (%u events, %u with)", BITS, a.events,
	       a.with_stack);
	tap_eq(row_flags(&prov, s1) & NTTRACE_PROVIDER_ROW_STACK_TRACE, 0,
	       "%d-bit: ... nor its row the flag", BITS);

	TraceLoggingUnregister(tl_provider);
	EventUnregister(h);
	nttrace_consumer_close(c1);
	nttrace_consumer_close(c2);
	stop_session(s1);
	stop_session(s2);
}

TEST_F(nttrace, ioctl_rules)
{
	uint32_t s = start("stk-3");
	struct nttrace_enable e;
	int fd = nttrace_device_fd();

	if (!tap_ok(s != 0, "%d-bit: a session", BITS))
		return;
	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.logger_id = s;
	memcpy(e.guid, &prov, 16);
	e.control = NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER;
	e.level = 4;
	e.enable_property = NTTRACE_ENABLE_PROPERTY_STACK_TRACE | 0x1;
	tap_ok(ioctl(fd, NTTRACE_IOC_ENABLE, &e) == -1 && errno == EINVAL,
	       "%d-bit: ENABLE with another property bit (SID) -> EINVAL", BITS);
	e.enable_property = NTTRACE_ENABLE_PROPERTY_STACK_TRACE;
	tap_eq(ioctl(fd, NTTRACE_IOC_ENABLE, &e), 0, "%d-bit: ENABLE with STACK_TRACE", BITS);
	e.control = NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER;
	tap_ok(ioctl(fd, NTTRACE_IOC_ENABLE, &e) == -1 && errno == EINVAL,
	       "%d-bit: DISABLE with a property -> EINVAL", BITS);
	e.control = NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER;
	e.size = NTTRACE_ENABLE_SIZE_VER1;
	tap_eq(ioctl(fd, NTTRACE_IOC_ENABLE, &e), 0,
	       "%d-bit: ENABLE of the size before the property (72): the property not read",
	       BITS);
	tap_eq(row_flags(&prov, s) & NTTRACE_PROVIDER_ROW_STACK_TRACE, 0,
	       "%d-bit: ... and the enable has none", BITS);
	stop_session(s);
}

TEST(private_refused)
{
	ENABLE_TRACE_PARAMETERS p = stack_params();
	TRACEHANDLE um = 0;
	struct props pr;
	char path[64];

	snprintf(path, sizeof(path), "/tmp/stk-um-%d-%d.etl", BITS, (int)getpid());
	props_init(&pr, path, EVENT_TRACE_PRIVATE_LOGGER_MODE);
	if (!tap_eq(StartTraceA(&um, "stk-um", &pr.p), ERROR_SUCCESS,
		    "%d-bit: user-mode logger started", BITS))
		return;
	tap_eq(EnableTraceEx2(um, &prov, 1, 4, 1, 0, 0, &p), ERROR_NOT_SUPPORTED,
	       "%d-bit: the user-mode logger: STACK_TRACE -> ERROR_NOT_SUPPORTED", BITS);
	ControlTraceA(um, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP);
	unlink(path);
}

/* In a section of its own: the stacks' outermost frame of ours. */
__attribute__((section("nt_main"))) int main(int argc, char **argv)
{
	if (nttrace_device_fd() < 0) {
		printf("1..0 # SKIP no %s\n", NTTRACE_DEVICE);
		return 0;
	}
	return harness_run(argc, argv);
}
