// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-mode API (include/nttrace/wdm.h) through the sample driver,
 * nttrace_sample.ko (samples/driver/sample_driver.c): loaded with a session's
 * handle, it traces from process context, softirq and hardirq with
 * WmiTraceMessage and ZwTraceEvent. Its events are checked in the ETL file
 * the session writes; then the kernel-mode rules: a paged-memory session
 * and logger 0 refuse every call, and nothing is written or lost. Then
 * its EtwRegister provider: enabled before the driver registers (its
 * callback sees the enable inside EtwRegister), its EtwWrite events in
 * the file; enabled at a level below its events', none. Then its
 * TraceLogging provider (<nttrace/traceloggingprovider.h> in kernel mode):
 * its events from the three contexts, with the PROV_TRAITS and
 * EVENT_SCHEMA_TL items and data of bytes written out here.
 * Needs root (insmod) and the module; skipped without them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include <nttrace/evntrace.h>
#include <nttrace/session.h>

#include "params.h"
#include "props.h"
#include "state.h"

#define BITS		((int)sizeof(void *) * 8)
#define SAMPLE_KO	"/nttrace_sample.ko"
#define EVENTS		3

/* samples/driver/sample_driver.c's GUID, its contexts and its classic event. */
static const uint8_t sample_guid[16] = {
	0x2d, 0x7e, 0x1a, 0x5c, 0x4f, 0x0b, 0x61, 0x4e,
	0x9a, 0x3c, 0x6d, 0x2f, 0x8b, 0x7e, 0x1a, 0x90,
};
static const uint8_t sample_etw_guid[16] = {
	0x2d, 0x7e, 0x1a, 0x5c, 0x4f, 0x0b, 0x61, 0x4e,
	0x9a, 0x3c, 0x6d, 0x2f, 0x8b, 0x7e, 0x1a, 0x91,
};
static const uint8_t sample_tl_guid[16] = {
	0x2d, 0x7e, 0x1a, 0x5c, 0x4f, 0x0b, 0x61, 0x4e,
	0x9a, 0x3c, 0x6d, 0x2f, 0x8b, 0x7e, 0x1a, 0x92,
};
static const char *const contexts[] = { NULL, "process", "softirq", "hardirq" };
#define SAMPLE_EVENT_SIZE	(0x30 + 4 + 12)

static unsigned long sample_param(const char *name)
{
	return module_param_value("nttrace_sample", name);
}

static unsigned long etw_enables, etw_level;

/* Load the sample with @logger, read its outcome, unload it. */
static int run_sample(unsigned long logger, unsigned long *failures,
		      unsigned long *last_status)
{
	char cmd[128];
	int ok;

	snprintf(cmd, sizeof(cmd), "insmod " SAMPLE_KO " logger=%lu events=%d", logger, EVENTS);
	ok = system(cmd) == 0;
	*failures = sample_param("failures");
	*last_status = sample_param("last_status");
	etw_enables = sample_param("etw_enables");
	etw_level = sample_param("etw_level");
	if (system("rmmod nttrace_sample") != 0)
		ok = 0;
	return ok;
}

struct seen {
	unsigned int messages[4], classic[4];
	unsigned int bad;
};

static void check_message(const struct nttrace_etl_event *ev, struct seen *s)
{
	const char *name;
	uint32_t index;

	if (ev->number < 1 || ev->number > 3 || !ev->guid || ev->guid_len != 16 ||
	    memcmp(ev->guid, sample_guid, 16) || ev->data_len < 4) {
		s->bad++;
		return;
	}
	name = contexts[ev->number];
	memcpy(&index, ev->data, 4);
	if (ev->data_len != 4 + strlen(name) + 1 || memcmp(ev->data + 4, name, strlen(name) + 1) ||
	    index != s->messages[ev->number] || !ev->has_timestamp ||
	    !(ev->flags & TRACE_MESSAGE_POINTER64)) {
		printf("# message %u: index %u, %u data bytes\n", ev->number, index, ev->data_len);
		s->bad++;
		return;
	}
	s->messages[ev->number]++;
}

static void check_classic(const struct nttrace_etl_event *ev, struct seen *s)
{
	const uint8_t *r = ev->rec;
	uint16_t size;
	uint32_t index;
	uint8_t type;

	memcpy(&size, r, 2);
	type = r[4];
	if (ev->size < SAMPLE_EVENT_SIZE || size != SAMPLE_EVENT_SIZE || r[2] != 0x14 ||
	    r[3] != 0xC0 || type < 1 || type > 3 || r[5] != 4 || memcmp(r + 0x18, sample_guid, 16)) {
		printf("# classic record: size %u, type 0x%02x%02x, class %u\n", size, r[3], r[2], type);
		s->bad++;
		return;
	}
	memcpy(&index, r + 0x30, 4);
	if (index != s->classic[type] || strcmp((const char *)r + 0x34, contexts[type])) {
		s->bad++;
		return;
	}
	s->classic[type]++;
}

static void problem(void *ctx, uint64_t offset, const char *what)
{
	printf("# etl problem at %llu: %s\n", (unsigned long long)offset, what);
	(*(unsigned int *)ctx)++;
}

static void test_file(void)
{
	char path[64], name[32];
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	unsigned long failures, status;
	unsigned int problems = 0, i;
	struct seen s = {};
	struct props pr;
	TRACEHANDLE h;

	snprintf(path, sizeof(path), "/tmp/kapi-%d.etl", BITS);
	snprintf(name, sizeof(name), "kapi-file-%d", BITS);
	props_init(&pr, path, EVENT_TRACE_FILE_MODE_SEQUENTIAL);
	if (!tap_eq(StartTraceA(&h, name, &pr.p), ERROR_SUCCESS, "%d-bit: start a session with a file", BITS))
		return;
	tap_ok(run_sample(h, &failures, &status), "%d-bit: the sample driver loads and unloads", BITS);
	tap_eq(failures, 0, "%d-bit: every kernel-mode call succeeded (last status 0x%lx)", BITS, status);
	tap_eq(StopTraceA(h, NULL, &pr.p), ERROR_SUCCESS, "%d-bit: stop; the file is complete", BITS);

	if (!tap_eq(nttrace_etl_open(&r, path, problem, &problems), 0, "%d-bit: read the file", BITS))
		return;
	while (nttrace_etl_next(r, &ev) == 1) {
		if (ev.message)
			check_message(&ev, &s);
		else if (ev.size >= 4 && ev.rec[3] == 0xC0 && ev.rec[2] == 0x14)
			check_classic(&ev, &s);
	}
	nttrace_etl_close(r);
	tap_eq(problems, 0, "%d-bit: the file reads without a problem", BITS);
	tap_eq(s.bad, 0, "%d-bit: every sample event is as the driver wrote it", BITS);
	for (i = 1; i <= 3; i++) {
		tap_eq(s.messages[i], EVENTS, "%d-bit: WmiTraceMessage from %s: %d events, in order",
		       BITS, contexts[i], EVENTS);
		tap_eq(s.classic[i], EVENTS,
		       "%d-bit: ZwTraceEvent(TRACE_HEADER) from %s: %d events, in order",
		       BITS, contexts[i], EVENTS);
	}
	unlink(path);
}

/* A session the kernel-mode calls must not reach: nothing written or lost. */
static void test_refused(const char *what, ULONG mode, int logger_zero, uint32_t want)
{
	struct nttrace_logger_info info = { .size = sizeof(info) };
	unsigned long failures, status;
	char name[32];

	snprintf(name, sizeof(name), "kapi-%s-%d", what, BITS);
	info.log_file_mode = mode;
	nttrace_set_name(&info, name);
	if (!tap_eq(nttrace_start(&info), 0, "%d-bit: start a %s session", BITS, what))
		return;
	tap_ok(run_sample(logger_zero ? 0 : info.logger_id, &failures, &status),
	       "%d-bit: %s: the sample driver loads and unloads", BITS, what);
	tap_eq(failures, 2 * 3 * EVENTS, "%d-bit: %s: every kernel-mode call refused", BITS, what);
	tap_eq(status, want, "%d-bit: %s: with status 0x%x", BITS, what, want);
	nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY);
	tap_eq(info.events_written + info.events_lost, 0,
	       "%d-bit: %s: nothing written, nothing counted lost", BITS, what);
	nttrace_control(&info, EVENT_TRACE_CONTROL_STOP);
}

/* An EtwWrite record of the sample: EVENT_HEADER, then index and name. */
static int check_etw(const uint8_t *r, uint32_t len, unsigned int *count)
{
	uint16_t size, flags, id;
	uint32_t index;
	const char *name;

	memcpy(&size, r, 2);
	memcpy(&flags, r + 4, 2);
	memcpy(&id, r + 0x28, 2);
	if (len < 0x50 || r[2] != 0x13 || r[3] != 0xC0 || memcmp(r + 0x18, sample_etw_guid, 16))
		return 0;	/* not the sample's */
	if (id < 1 || id > 3)
		return -1;
	name = contexts[id];
	memcpy(&index, r + 0x50, 4);
	if (size != 0x50 + 4 + strlen(name) + 1 ||
	    flags != (NTTRACE_EVENT_HEADER_FLAG_64_BIT_HEADER |
		      NTTRACE_EVENT_HEADER_FLAG_NO_CPUTIME) ||
	    r[0x2A] != 1 || r[0x2C] != 4 || index != count[id] ||
	    strcmp((const char *)r + 0x54, name))
		return -1;
	count[id]++;
	return 1;
}

/* Enable the sample's EtwRegister provider at @level, load it, read the file. */
static void test_etw(UCHAR level, unsigned int want)
{
	char path[64], name[32];
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	unsigned long failures, status;
	unsigned int count[4] = { 0 }, bad = 0, i;
	GUID g;
	struct props pr;
	TRACEHANDLE h;

	memcpy(&g, sample_etw_guid, sizeof(g));
	snprintf(path, sizeof(path), "/tmp/kapi-etw-%d.etl", BITS);
	snprintf(name, sizeof(name), "kapi-etw-%d", BITS);
	props_init(&pr, path, EVENT_TRACE_FILE_MODE_SEQUENTIAL);
	if (!tap_eq(StartTraceA(&h, name, &pr.p), ERROR_SUCCESS, "%d-bit: etw level %u: start", BITS,
		    level))
		return;
	tap_eq(EnableTraceEx2(h, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, level, 0x10, 0, 0, NULL),
	       ERROR_SUCCESS, "%d-bit: etw level %u: enable before the driver registers", BITS, level);
	tap_ok(run_sample(0, &failures, &status), "%d-bit: etw level %u: load and unload", BITS, level);
	tap_eq(etw_enables, 1, "%d-bit: etw level %u: the callback saw the enable in EtwRegister",
	       BITS, level);
	tap_eq(etw_level, level, "%d-bit: etw level %u: ... with its level", BITS, level);
	tap_eq(StopTraceA(h, NULL, &pr.p), ERROR_SUCCESS, "%d-bit: etw level %u: stop", BITS, level);
	if (!tap_eq(nttrace_etl_open(&r, path, NULL, NULL), 0, "%d-bit: etw: read the file", BITS))
		return;
	while (nttrace_etl_next(r, &ev) == 1)
		if (!ev.message && check_etw(ev.rec, ev.size, count) < 0)
			bad++;
	nttrace_etl_close(r);
	tap_eq(bad, 0, "%d-bit: etw level %u: every EtwWrite record as written", BITS, level);
	for (i = 1; i <= 3; i++)
		tap_eq(count[i], want, "%d-bit: etw level %u: EtwWrite from %s: %u events", BITS,
		       level, contexts[i], want);
	unlink(path);
}

/*
 * The sample's TraceLogging event: its provider metadata (size, name),
 * its event metadata (size, no tags, name, "index" UINT32, "context"
 * ANSISTRING), each in an item of 8 bytes' header padded to 8.
 */
static const uint8_t tl_items[] = {
	/* PROV_TRAITS: size 8 + 17 -> 32, type 12, linkage 1, 17 bytes */
	32, 0, 12, 0, 1, 0, 17, 0,
	17, 0, 'N', 't', 't', 'r', 'a', 'c', 'e', '.', 'S', 'a', 'm', 'p', 'l', 'e', 0,
	0, 0, 0, 0, 0, 0, 0,
	/* EVENT_SCHEMA_TL: size 8 + 31 -> 40, type 11, linkage 0, 31 bytes */
	40, 0, 11, 0, 0, 0, 31, 0,
	31, 0, 0, 'S', 'a', 'm', 'p', 'l', 'e', 'E', 'v', 'e', 'n', 't', 0,
	'i', 'n', 'd', 'e', 'x', 0, 8,
	'c', 'o', 'n', 't', 'e', 'x', 't', 0, 2,
	0,
};

/* A TraceLogging record of the sample: 1 counted, 0 another's, -1 wrong. */
static int check_tl(const uint8_t *r, uint32_t len, unsigned int *count)
{
	const uint32_t data = 0x50 + sizeof(tl_items);
	uint16_t size, flags;
	uint32_t index;
	unsigned int i;

	if (len < 0x50 || r[2] != 0x13 || r[3] != 0xC0 || memcmp(r + 0x18, sample_tl_guid, 16))
		return 0;
	memcpy(&size, r, 2);
	memcpy(&flags, r + 4, 2);
	/* Channel 11, level 4, keyword 0x10; the items; then index and context. */
	if (size < data + 4 || len < size || !(flags & NTTRACE_EVENT_HEADER_FLAG_EXTENDED_INFO) ||
	    r[0x2B] != 11 || r[0x2C] != 4 || r[0x30] != 0x10 ||
	    memcmp(r + 0x50, tl_items, sizeof(tl_items)))
		return -1;
	memcpy(&index, r + data, 4);
	for (i = 1; i <= 3; i++)
		if (size == data + 4 + strlen(contexts[i]) + 1 &&
		    !strcmp((const char *)r + data + 4, contexts[i]))
			break;
	if (i > 3 || index != count[i])
		return -1;
	count[i]++;
	return 1;
}

/* Enable the sample's TraceLogging provider, load it, read the file. */
static void test_tl(void)
{
	char path[64], name[32];
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	unsigned long failures, status;
	unsigned int count[4] = { 0 }, bad = 0, i;
	GUID g;
	struct props pr;
	TRACEHANDLE h;

	memcpy(&g, sample_tl_guid, sizeof(g));
	snprintf(path, sizeof(path), "/tmp/kapi-tl-%d.etl", BITS);
	snprintf(name, sizeof(name), "kapi-tl-%d", BITS);
	props_init(&pr, path, EVENT_TRACE_FILE_MODE_SEQUENTIAL);
	if (!tap_eq(StartTraceA(&h, name, &pr.p), ERROR_SUCCESS, "%d-bit: tl: start", BITS))
		return;
	tap_eq(EnableTraceEx2(h, &g, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0x10, 0, 0, NULL),
	       ERROR_SUCCESS, "%d-bit: tl: enable before the driver registers", BITS);
	tap_ok(run_sample(0, &failures, &status), "%d-bit: tl: load and unload", BITS);
	tap_eq(StopTraceA(h, NULL, &pr.p), ERROR_SUCCESS, "%d-bit: tl: stop", BITS);
	if (!tap_eq(nttrace_etl_open(&r, path, NULL, NULL), 0, "%d-bit: tl: read the file", BITS))
		return;
	while (nttrace_etl_next(r, &ev) == 1)
		if (!ev.message && check_tl(ev.rec, ev.size, count) < 0)
			bad++;
	nttrace_etl_close(r);
	tap_eq(bad, 0, "%d-bit: tl: every TraceLogging record as written", BITS);
	for (i = 1; i <= 3; i++)
		tap_eq(count[i], EVENTS, "%d-bit: tl: TraceLoggingWrite from %s: %d events", BITS,
		       contexts[i], EVENTS);
	unlink(path);
}

/*
 * A case loads and unloads the sample driver: whatever became of it, the
 * driver is unloaded after it, and the sessions it left running stopped.
 */
FIXTURE(sample) {
	struct running sessions;
};

FIXTURE_SETUP(sample)
{
	running_note(&self->sessions);
}

FIXTURE_TEARDOWN(sample)
{
	if (!access("/sys/module/nttrace_sample", F_OK)) {
		printf("# nttrace_sample left loaded: unloaded\n");
		if (system("rmmod nttrace_sample"))
			printf("# rmmod nttrace_sample failed\n");
	}
	running_stop_new(&self->sessions);
}

TEST_F(sample, file)
{
	test_file();
}

TEST_F(sample, refused_paged)
{
	test_refused("paged", EVENT_TRACE_USE_PAGED_MEMORY, 0, STATUS_NOT_SUPPORTED);
}

TEST_F(sample, refused_logger_0)
{
	test_refused("logger-0", 0, 1, STATUS_INVALID_HANDLE);
}

TEST_F(sample, etw_level5)
{
	test_etw(5, EVENTS);
}

TEST_F(sample, etw_level3)
{
	test_etw(3, 0);
}

TEST_F(sample, tracelogging)
{
	test_tl();
}

int main(int argc, char **argv)
{
	if (access("/dev/nttrace", F_OK) || access(SAMPLE_KO, F_OK) || geteuid()) {
		printf("1..0 # SKIP needs the module, " SAMPLE_KO " and root\n");
		return 0;
	}
	return harness_run(argc, argv);
}
