// SPDX-License-Identifier: GPL-2.0
/*
 * The controllers' queries (controller/queryall.c, guids.c, traceinfo.c):
 * QueryAllTraces finds the running sessions with their names and counts,
 * and says ERROR_MORE_DATA when the array is short; EnumerateTraceGuids and
 * EnumerateTraceGuidsEx list the registered providers with their enables;
 * TraceQueryInformation and TraceSetInformation answer each class as
 * traceinfo.c's table says. And an unprivileged caller (uid 65534, no
 * capability, not in control_gid) sees what root sees: the module lets
 * anyone query sessions and list providers. Runs in the VM as root,
 * 64-bit and 32-bit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>
#include <nttrace/session.h>

#include "props.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)

static const GUID guid_a = { 0x9a1e0001, 0x1, 0x2, { 3, 4, 5, 6, 7, 8, 9, 10 } };
static const GUID guid_b = { 0x9a1e0002, 0x1, 0x2, { 3, 4, 5, 6, 7, 8, 9, 10 } };
static const GUID guid_c = { 0x9a1e0003, 0x1, 0x2, { 3, 4, 5, 6, 7, 8, 9, 10 } };
static const GUID guid_d = { 0x9a1e0004, 0x1, 0x2, { 3, 4, 5, 6, 7, 8, 9, 10 } };
static const GUID guid_e = { 0x9a1e0005, 0x1, 0x2, { 3, 4, 5, 6, 7, 8, 9, 10 } };
static const GUID guid_none = { 0x9a1e00ff, 0x1, 0x2, { 3, 4, 5, 6, 7, 8, 9, 10 } };

static struct props pr[MAXIMUM_LOGGERS];
static PEVENT_TRACE_PROPERTIES array[MAXIMUM_LOGGERS];

static void reset_array(void)
{
	unsigned int i;

	for (i = 0; i < MAXIMUM_LOGGERS; i++) {
		props_init(&pr[i], NULL, 0);
		array[i] = &pr[i].p;
	}
}

static TRACEHANDLE start(const char *name)
{
	struct props p;
	TRACEHANDLE h = 0;

	props_init(&p, NULL, 0);
	p.p.BufferSize = 4;
	p.p.MinimumBuffers = 2;
	p.p.MaximumBuffers = 2;
	if (StartTraceA(&h, name, &p.p))
		printf("# StartTrace %s failed\n", name);
	return h;
}

static void stop(TRACEHANDLE h)
{
	struct props p;

	props_init(&p, NULL, 0);
	StopTraceA(h, NULL, &p.p);
}

/* The element QueryAllTraces filled for the session of handle @h, or -1. */
static int find_session(ULONG n, TRACEHANDLE h)
{
	ULONG i;

	for (i = 0; i < n; i++)
		if (array[i]->Wnode.HistoricalContext == h)
			return (int)i;
	return -1;
}

/* Whether the UTF-16 name at @p's LoggerNameOffset is @want. */
static int wide_name_is(const EVENT_TRACE_PROPERTIES *p, const char *want)
{
	const WCHAR *w = (const WCHAR *)((const char *)p + p->LoggerNameOffset);
	size_t i;

	for (i = 0; want[i]; i++)
		if (w[i] != (uint8_t)want[i])
			return 0;
	return w[i] == 0;
}

static const char *name_of(const struct props *p)
{
	return p->logger_name;
}

static void test_query_all(TRACEHANDLE one, TRACEHANDLE two)
{
	ULONG n = 0, total, err;
	TRACEHANDLE priv = 0;
	struct props pp;
	int a, b;

	reset_array();
	tap_eq(QueryAllTracesA(NULL, 1, &n), ERROR_INVALID_PARAMETER,
	       "%d-bit: QueryAllTraces(NULL array) -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(QueryAllTracesA(array, 0, &n), ERROR_INVALID_PARAMETER,
	       "%d-bit: QueryAllTraces(count 0) -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(QueryAllTracesA(array, MAXIMUM_LOGGERS + 1, &n), ERROR_INVALID_PARAMETER,
	       "%d-bit: QueryAllTraces(count 65) -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(QueryAllTracesA(array, 1, NULL), ERROR_INVALID_PARAMETER,
	       "%d-bit: QueryAllTraces(NULL LoggerCount) -> ERROR_INVALID_PARAMETER", BITS);
	array[1] = NULL;
	tap_eq(QueryAllTracesA(array, 2, &n), ERROR_INVALID_PARAMETER,
	       "%d-bit: QueryAllTraces(a NULL element) -> ERROR_INVALID_PARAMETER", BITS);
	reset_array();
	pr[1].p.Wnode.BufferSize = sizeof(EVENT_TRACE_PROPERTIES) - 1;
	tap_eq(QueryAllTracesA(array, 2, &n), ERROR_BAD_LENGTH,
	       "%d-bit: QueryAllTraces(an element too small) -> ERROR_BAD_LENGTH", BITS);
	reset_array();
	pr[1].p.LoggerNameOffset = 8;
	n = 77;
	tap_eq(QueryAllTracesA(array, 2, &n), ERROR_INVALID_PARAMETER,
	       "%d-bit: QueryAllTraces(a name offset in the fixed part) -> "
	       "ERROR_INVALID_PARAMETER", BITS);
	tap_ok(n == 77 && pr[0].p.Wnode.HistoricalContext == 0,
	       "%d-bit: ... nothing written", BITS);

	reset_array();
	err = QueryAllTracesA(array, MAXIMUM_LOGGERS, &n);
	tap_eq(err, ERROR_SUCCESS, "%d-bit: QueryAllTracesA", BITS);
	a = find_session(n, one);
	b = find_session(n, two);
	tap_ok(n >= 2 && a >= 0 && b >= 0, "%d-bit: ... lists both sessions (%u in all)",
	       BITS, (unsigned int)n);
	tap_ok(a >= 0 && !strcmp(name_of(&pr[a]), "qa-one") && b >= 0 &&
	       !strcmp(name_of(&pr[b]), "qa-two"), "%d-bit: ... with their names", BITS);
	tap_ok(a >= 0 && pr[a].p.BufferSize == 4 && pr[a].p.MaximumBuffers == 2 &&
	       pr[a].p.NumberOfBuffers >= 2 && pr[a].p.LogFileNameOffset == 0,
	       "%d-bit: ... and their properties, as ControlTrace QUERY gives", BITS);
	tap_ok(a < b, "%d-bit: ... in logger-ID order", BITS);
	total = n;
	tap_eq(GetLastError(), ERROR_SUCCESS, "%d-bit: ... last error ERROR_SUCCESS", BITS);

	reset_array();
	tap_eq(QueryAllTracesW(array, MAXIMUM_LOGGERS, &n), ERROR_SUCCESS,
	       "%d-bit: QueryAllTracesW", BITS);
	a = find_session(n, one);
	tap_ok(n == total && a >= 0 && wide_name_is(array[a], "qa-one"),
	       "%d-bit: ... the same sessions, names in UTF-16", BITS);

	reset_array();
	n = 0;
	tap_eq(QueryAllTracesA(array, 1, &n), ERROR_MORE_DATA,
	       "%d-bit: QueryAllTraces with room for one of %u -> ERROR_MORE_DATA", BITS,
	       (unsigned int)total);
	tap_eq(n, total, "%d-bit: ... LoggerCount says how many there are", BITS);
	tap_ok(pr[0].p.Wnode.HistoricalContext != 0 && pr[0].logger_name[0],
	       "%d-bit: ... and the one element is filled", BITS);

	/* Names with no room: the sessions are still written. */
	reset_array();
	pr[0].p.Wnode.BufferSize = sizeof(EVENT_TRACE_PROPERTIES) + 2;
	tap_eq(QueryAllTracesA(array, MAXIMUM_LOGGERS, &n), ERROR_MORE_DATA,
	       "%d-bit: QueryAllTraces, a name that does not fit -> ERROR_MORE_DATA", BITS);
	tap_ok(n == total && pr[0].p.Wnode.HistoricalContext != 0 && !pr[0].logger_name[0] &&
	       pr[1].logger_name[0], "%d-bit: ... every session written, that name not", BITS);

	/* The user-mode logger is private: not listed. */
	props_init(&pp, "/tmp/qa-private.etl", EVENT_TRACE_PRIVATE_LOGGER_MODE);
	pp.p.BufferSize = 4;
	if (tap_eq(StartTraceA(&priv, "qa-private", &pp.p), ERROR_SUCCESS,
		   "%d-bit: a private logger starts", BITS)) {
		reset_array();
		QueryAllTracesA(array, MAXIMUM_LOGGERS, &n);
		tap_ok(n == total && find_session(n, priv) < 0,
		       "%d-bit: ... and QueryAllTraces leaves it out", BITS);
		stop(priv);
	}
	unlink("/tmp/qa-private.etl");
}

static ULONG WINAPI classic_cb(WMIDPREQUESTCODE code, PVOID ctx, ULONG *size, PVOID buf)
{
	return ERROR_SUCCESS;
}

static PTRACE_GUID_PROPERTIES guid_props[256];
static TRACE_GUID_PROPERTIES guid_store[256];

/* EnumerateTraceGuids into the 256 slots; the one for @g, or NULL. */
static PTRACE_GUID_PROPERTIES enum_find(const GUID *g, ULONG *n, ULONG *err)
{
	ULONG i;

	for (i = 0; i < 256; i++)
		guid_props[i] = &guid_store[i];
	*err = EnumerateTraceGuids(guid_props, 256, n);
	for (i = 0; !*err && i < *n; i++)
		if (IsEqualGUID(&guid_store[i].Guid, g))
			return &guid_store[i];
	return NULL;
}

static int list_has(const GUID *list, ULONG bytes, const GUID *g)
{
	ULONG i;

	for (i = 0; i < bytes / sizeof(GUID); i++)
		if (IsEqualGUID(&list[i], g))
			return 1;
	return 0;
}

/* EnumerateTraceGuidsEx of @cls into a malloc'd buffer, sized by asking first. */
static void *enum_ex(TRACE_QUERY_INFO_CLASS cls, const GUID *in, ULONG *len, ULONG *err)
{
	void *buf;

	*len = 0;
	*err = EnumerateTraceGuidsEx(cls, (PVOID)in, in ? sizeof(*in) : 0, NULL, 0, len);
	if (*err != ERROR_INSUFFICIENT_BUFFER)
		return NULL;
	buf = calloc(1, *len);
	*err = EnumerateTraceGuidsEx(cls, (PVOID)in, in ? sizeof(*in) : 0, buf, *len, len);
	if (*err) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void test_enumerate(TRACEHANDLE one, TRACEHANDLE two)
{
	PTRACE_GUID_PROPERTIES p;
	TRACEHANDLE reg_a = 0;
	REGHANDLE reg_b = 0, reg_b2 = 0, reg_d = 0;
	ULONG n = 0, total, err;

	tap_eq(RegisterTraceGuidsA(classic_cb, NULL, &guid_a, 0, NULL, NULL, NULL, &reg_a),
	       ERROR_SUCCESS, "%d-bit: RegisterTraceGuids A", BITS);
	tap_eq(EventRegister(&guid_b, NULL, NULL, &reg_b), ERROR_SUCCESS,
	       "%d-bit: EventRegister B", BITS);
	tap_eq(EventRegister(&guid_d, NULL, NULL, &reg_d), ERROR_SUCCESS,
	       "%d-bit: EventRegister D", BITS);
	tap_eq(EnableTrace(TRUE, 0x55, 3, &guid_a, one), ERROR_SUCCESS,
	       "%d-bit: EnableTrace A for qa-one", BITS);
	tap_eq(EnableTrace(TRUE, 0x66, 4, &guid_a, two), ERROR_SUCCESS,
	       "%d-bit: EnableTrace A for qa-two", BITS);
	tap_eq(EnableTraceEx2(one, &guid_b, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0xF0, 0x10, 0,
			      NULL), ERROR_SUCCESS, "%d-bit: EnableTraceEx2 B for qa-one", BITS);
	tap_eq(EnableTrace(TRUE, 0x77, 2, &guid_c, one), ERROR_SUCCESS,
	       "%d-bit: EnableTrace C (not registered) for qa-one", BITS);

	p = enum_find(&guid_a, &n, &err);
	tap_eq(err, ERROR_SUCCESS, "%d-bit: EnumerateTraceGuids", BITS);
	tap_ok(p && p->IsEnable && p->LoggerId == two && p->EnableLevel == 4 &&
	       p->EnableFlags == 0x66 && p->GuidType == 0,
	       "%d-bit: ... A enabled, by qa-two, the latest enable", BITS);
	p = enum_find(&guid_b, &n, &err);
	tap_ok(p && p->IsEnable && p->LoggerId == one && p->EnableLevel == 5 &&
	       p->EnableFlags == 0xF0, "%d-bit: ... B enabled by qa-one, its flags the "
	       "keyword's low 32 bits", BITS);
	p = enum_find(&guid_d, &n, &err);
	tap_ok(p && !p->IsEnable && !p->LoggerId && !p->EnableLevel && !p->EnableFlags,
	       "%d-bit: ... D registered, not enabled: the rest 0", BITS);
	tap_ok(!enum_find(&guid_c, &n, &err), "%d-bit: ... C, enabled but not registered, "
	       "is not listed", BITS);
	total = n;

	tap_eq(EnableTrace(FALSE, 0, 0, &guid_a, two), ERROR_SUCCESS,
	       "%d-bit: qa-two disables A", BITS);
	p = enum_find(&guid_a, &n, &err);
	tap_ok(p && p->IsEnable && p->LoggerId == one && p->EnableLevel == 3 &&
	       p->EnableFlags == 0x55, "%d-bit: ... A now names qa-one's enable", BITS);
	tap_eq(EnableTrace(TRUE, 0x66, 4, &guid_a, two), ERROR_SUCCESS,
	       "%d-bit: qa-two enables A again", BITS);

	guid_props[0] = &guid_store[0];
	n = 0;
	tap_eq(EnumerateTraceGuids(guid_props, 1, &n), ERROR_MORE_DATA,
	       "%d-bit: EnumerateTraceGuids with room for one -> ERROR_MORE_DATA", BITS);
	tap_eq(n, total, "%d-bit: ... GuidCount says how many there are", BITS);
	tap_eq(EnumerateTraceGuids(NULL, 1, &n), ERROR_INVALID_PARAMETER,
	       "%d-bit: EnumerateTraceGuids(NULL) -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EnumerateTraceGuids(guid_props, 0, &n), ERROR_INVALID_PARAMETER,
	       "%d-bit: EnumerateTraceGuids(count 0) -> ERROR_INVALID_PARAMETER", BITS);
	guid_props[1] = NULL;
	tap_eq(EnumerateTraceGuids(guid_props, 2, &n), ERROR_INVALID_PARAMETER,
	       "%d-bit: EnumerateTraceGuids(a NULL element) -> ERROR_INVALID_PARAMETER", BITS);

	/* A second registration of B: two instances in its info. */
	tap_eq(EventRegister(&guid_b, NULL, NULL, &reg_b2), ERROR_SUCCESS,
	       "%d-bit: EventRegister B again", BITS);
}

static void test_enumerate_ex(TRACEHANDLE one, TRACEHANDLE two)
{
	PTRACE_PROVIDER_INSTANCE_INFO inst;
	PTRACE_ENABLE_INFO en;
	PTRACE_GUID_INFO info;
	ULONG len = 0, err, value = 0, cls;
	GUID *list;
	char buf[4096];

	list = enum_ex(TraceGuidQueryList, NULL, &len, &err);
	tap_eq(err, ERROR_SUCCESS, "%d-bit: EnumerateTraceGuidsEx(TraceGuidQueryList), size "
	       "asked first", BITS);
	tap_ok(list && len % sizeof(GUID) == 0 && list_has(list, len, &guid_a) &&
	       list_has(list, len, &guid_b) && list_has(list, len, &guid_c) &&
	       list_has(list, len, &guid_d) && !list_has(list, len, &guid_none),
	       "%d-bit: ... A, B, D registered and C enabled are listed", BITS);
	free(list);

	info = enum_ex(TraceGuidQueryInfo, &guid_a, &len, &err);
	tap_eq(err, ERROR_SUCCESS, "%d-bit: TraceGuidQueryInfo of A", BITS);
	inst = info ? (PTRACE_PROVIDER_INSTANCE_INFO)(info + 1) : NULL;
	en = inst ? (PTRACE_ENABLE_INFO)(inst + 1) : NULL;
	tap_ok(info && info->InstanceCount == 1 && inst->NextOffset == 0 &&
	       inst->Pid == (ULONG)getpid() && inst->Flags == TRACE_PROVIDER_FLAG_LEGACY &&
	       inst->EnableCount == 2 && len == sizeof(*info) + sizeof(*inst) + 2 * sizeof(*en),
	       "%d-bit: ... one classic registration of this process, two enables", BITS);
	tap_ok(en && en[0].IsEnabled && en[0].LoggerId == one && en[0].Level == 3 &&
	       en[0].MatchAnyKeyword == 0x55 && en[1].LoggerId == two && en[1].Level == 4 &&
	       en[1].EnableProperty == 0, "%d-bit: ... each session's enable", BITS);
	free(info);

	info = enum_ex(TraceGuidQueryInfo, &guid_b, &len, &err);
	inst = info ? (PTRACE_PROVIDER_INSTANCE_INFO)(info + 1) : NULL;
	tap_ok(info && info->InstanceCount == 2 && inst->Flags == 0 && inst->EnableCount == 1 &&
	       inst->NextOffset == sizeof(*inst) + sizeof(*en),
	       "%d-bit: TraceGuidQueryInfo of B: two EventRegister instances", BITS);
	if (info) {
		en = (PTRACE_ENABLE_INFO)(inst + 1);
		tap_ok(en->LoggerId == one && en->Level == 5 && en->MatchAnyKeyword == 0xF0 &&
		       en->MatchAllKeyword == 0x10, "%d-bit: ... the first with qa-one's enable",
		       BITS);
		inst = (PTRACE_PROVIDER_INSTANCE_INFO)((char *)inst + inst->NextOffset);
		en = (PTRACE_ENABLE_INFO)(inst + 1);
		tap_ok(inst->NextOffset == 0 && inst->EnableCount == 1 && en->LoggerId == one,
		       "%d-bit: ... the second, the last, with it too", BITS);
	}
	free(info);

	info = enum_ex(TraceGuidQueryInfo, &guid_c, &len, &err);
	inst = info ? (PTRACE_PROVIDER_INSTANCE_INFO)(info + 1) : NULL;
	tap_ok(info && info->InstanceCount == 1 && inst->Pid == 0 &&
	       inst->Flags == TRACE_PROVIDER_FLAG_PRE_ENABLE && inst->EnableCount == 1,
	       "%d-bit: TraceGuidQueryInfo of C: PRE_ENABLE, no process", BITS);
	free(info);
	tap_eq(EnumerateTraceGuidsEx(TraceGuidQueryInfo, (PVOID)&guid_none, sizeof(GUID), buf,
				     sizeof(buf), &len), ERROR_WMI_GUID_NOT_FOUND,
	       "%d-bit: TraceGuidQueryInfo of an unknown GUID -> ERROR_WMI_GUID_NOT_FOUND", BITS);
	tap_eq(EnumerateTraceGuidsEx(TraceGuidQueryInfo, (PVOID)&guid_a, 8, buf, sizeof(buf),
				     &len), ERROR_INVALID_PARAMETER,
	       "%d-bit: TraceGuidQueryInfo with InBufferSize 8 -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EnumerateTraceGuidsEx(TraceGuidQueryInfo, (PVOID)&guid_a, sizeof(GUID), buf, 8,
				     &len), ERROR_INSUFFICIENT_BUFFER,
	       "%d-bit: ... into 8 bytes -> ERROR_INSUFFICIENT_BUFFER", BITS);
	tap_eq(len, sizeof(TRACE_GUID_INFO) + sizeof(*inst) + 2 * sizeof(*en),
	       "%d-bit: ... ReturnLength the size needed", BITS);

	list = enum_ex(TraceGuidQueryProcess, NULL, &len, &err);
	tap_ok(!err && list_has(list, len, &guid_a) && list_has(list, len, &guid_b) &&
	       list_has(list, len, &guid_d) && !list_has(list, len, &guid_c) &&
	       len == 3 * sizeof(GUID), "%d-bit: TraceGuidQueryProcess: A, B (once), D", BITS);
	free(list);

	tap_eq(EnumerateTraceGuidsEx(TraceMaxLoggersQuery, NULL, 0, &value, sizeof(value), &len),
	       ERROR_SUCCESS, "%d-bit: TraceMaxLoggersQuery", BITS);
	tap_ok(value == MAXIMUM_LOGGERS && len == sizeof(ULONG), "%d-bit: ... 64", BITS);
	tap_eq(EnumerateTraceGuidsEx(TraceMaxLoggersQuery, NULL, 0, &value, 2, &len),
	       ERROR_INSUFFICIENT_BUFFER, "%d-bit: ... into 2 bytes -> "
	       "ERROR_INSUFFICIENT_BUFFER", BITS);
	tap_eq(EnumerateTraceGuidsEx(TraceGuidQueryList, NULL, 0, NULL, 0, NULL),
	       ERROR_INVALID_PARAMETER, "%d-bit: NULL ReturnLength -> ERROR_INVALID_PARAMETER",
	       BITS);
	tap_eq(EnumerateTraceGuidsEx(TraceGuidQueryList, NULL, 0, NULL, 16, &len),
	       ERROR_INVALID_PARAMETER, "%d-bit: NULL OutBuffer with a size -> "
	       "ERROR_INVALID_PARAMETER", BITS);
	tap_eq(EnumerateTraceGuidsEx(MaxTraceSetInfoClass, NULL, 0, buf, sizeof(buf), &len),
	       ERROR_INVALID_PARAMETER, "%d-bit: MaxTraceSetInfoClass -> "
	       "ERROR_INVALID_PARAMETER", BITS);

	/* Each class: what guids.c's table says. */
	for (cls = 0; cls < MaxTraceSetInfoClass; cls++) {
		ULONG want = ERROR_NOT_SUPPORTED;

		if (cls == TraceGuidQueryList || cls == TraceGuidQueryInfo ||
		    cls == TraceGuidQueryProcess || cls == TraceGroupQueryList ||
		    cls == TraceMaxLoggersQuery)
			want = ERROR_SUCCESS;
		else if (cls == TraceGroupQueryInfo)
			want = ERROR_WMI_GUID_NOT_FOUND;
		tap_eq(EnumerateTraceGuidsEx(cls, (PVOID)&guid_a, sizeof(GUID), buf, sizeof(buf),
					     &len), want, "%d-bit: EnumerateTraceGuidsEx class %u",
		       BITS, (unsigned int)cls);
		if (cls == TraceGroupQueryList)
			tap_eq(len, 0, "%d-bit: ... no provider group", BITS);
	}

	/*
	 * Another process's registrations are not this one's. A child of
	 * fork keeps its parent's providers, registered again as its own
	 * (provider/register.c): A is the child's too.
	 */
	{
		int *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				   -1, 0);
		pid_t pid;
		int st;

		shared[0] = -1;
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			REGHANDLE h = 0;

			EventRegister(&guid_e, NULL, NULL, &h);
			list = enum_ex(TraceGuidQueryProcess, NULL, &len, &err);
			shared[0] = !err && list_has(list, len, &guid_e) &&
				    list_has(list, len, &guid_a);
			_exit(0);
		}
		waitpid(pid, &st, 0);
		tap_eq(shared[0], 1, "%d-bit: a child's TraceGuidQueryProcess: the GUID it "
		       "registered, and those it kept from its parent", BITS);
		list = enum_ex(TraceGuidQueryProcess, NULL, &len, &err);
		tap_ok(!err && !list_has(list, len, &guid_e) && list_has(list, len, &guid_a),
		       "%d-bit: ... the parent's has not the child's", BITS);
		free(list);
		munmap(shared, 4096);
	}
}

static void test_trace_information(TRACEHANDLE one)
{
	struct nttrace_logger_info info;
	ULONG value = 0, len = 0, cls, buf[64];
	TRACEHANDLE gone;

	memset(&info, 0, sizeof(info));
	info.logger_id = (uint32_t)one;
	nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY);
	tap_eq(TraceQueryInformation(one, TraceStreamCount, &value, sizeof(value), &len),
	       ERROR_SUCCESS, "%d-bit: TraceQueryInformation(TraceStreamCount)", BITS);
	tap_ok(value == info.nr_cpus && value > 0 && len == sizeof(ULONG),
	       "%d-bit: ... the session's rings, one per possible CPU (%u)", BITS,
	       (unsigned int)value);
	tap_eq(TraceQueryInformation(one, TraceStreamCount, &value, 2, &len), ERROR_BAD_LENGTH,
	       "%d-bit: ... into 2 bytes -> ERROR_BAD_LENGTH", BITS);
	tap_eq(len, sizeof(ULONG), "%d-bit: ... ReturnLength the size needed", BITS);
	tap_eq(TraceQueryInformation(one, TraceStreamCount, NULL, 4, &len),
	       ERROR_INVALID_PARAMETER, "%d-bit: ... NULL buffer -> ERROR_INVALID_PARAMETER",
	       BITS);
	tap_eq(TraceQueryInformation(one, TraceStackTracingInfo, buf, sizeof(buf), &len),
	       ERROR_SUCCESS, "%d-bit: TraceQueryInformation(TraceStackTracingInfo)", BITS);
	tap_eq(len, 0, "%d-bit: ... no event carries a stack", BITS);
	tap_eq(TraceQueryInformation(one, MaxTraceSetInfoClass, buf, sizeof(buf), &len),
	       ERROR_INVALID_PARAMETER, "%d-bit: MaxTraceSetInfoClass -> "
	       "ERROR_INVALID_PARAMETER", BITS);
	tap_eq(TraceSetInformation(one, MaxTraceSetInfoClass, buf, sizeof(buf)),
	       ERROR_INVALID_PARAMETER, "%d-bit: TraceSetInformation(MaxTraceSetInfoClass) -> "
	       "ERROR_INVALID_PARAMETER", BITS);
	tap_eq(TraceSetInformation(one, TraceStackTracingInfo, NULL, 0), ERROR_SUCCESS,
	       "%d-bit: TraceSetInformation(TraceStackTracingInfo, none): stacks stay off",
	       BITS);

	/* Each class: what traceinfo.c's table says. */
	for (cls = 0; cls < MaxTraceSetInfoClass; cls++) {
		ULONG want = cls == TraceStreamCount || cls == TraceStackTracingInfo ||
			     cls == TraceMaxLoggersQuery || cls == TraceSampledProfileIntervalInfo ||
			     cls == TraceProfileSourceListInfo ? ERROR_SUCCESS : ERROR_NOT_SUPPORTED;
		/*
		 * A system logger's groups: this session is none (syslogger_test);
		 * the profile's interval and sources (profile_test) take other lengths.
		 */
		ULONG want_set = cls == TraceSystemTraceEnableFlagsInfo ? ERROR_INVALID_PARAMETER :
				 cls == TraceSampledProfileIntervalInfo ||
				 cls == TraceProfileSourceConfigInfo ? ERROR_BAD_LENGTH :
				 ERROR_NOT_SUPPORTED;

		if (cls == TraceSystemTraceEnableFlagsInfo)
			want = ERROR_INVALID_PARAMETER;
		memset(buf, 0, sizeof(buf));
		tap_eq(TraceQueryInformation(one, cls, buf, sizeof(buf), &len), want,
		       "%d-bit: TraceQueryInformation class %u", BITS, (unsigned int)cls);
		tap_eq(TraceSetInformation(one, cls, buf, sizeof(CLASSIC_EVENT_ID)),
		       want_set, "%d-bit: TraceSetInformation class %u",
		       BITS, (unsigned int)cls);
	}

	gone = start("qa-gone");
	stop(gone);
	tap_eq(TraceQueryInformation(gone, TraceStreamCount, &value, sizeof(value), &len),
	       ERROR_INVALID_HANDLE, "%d-bit: a stopped session -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(TraceQueryInformation(0, TraceStreamCount, &value, sizeof(value), &len),
	       ERROR_INVALID_HANDLE, "%d-bit: handle 0 -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(TraceSetInformation(gone, TraceStackTracingInfo, NULL, 0), ERROR_INVALID_HANDLE,
	       "%d-bit: TraceSetInformation of a stopped session -> ERROR_INVALID_HANDLE", BITS);
	tap_eq(TraceQueryInformation(TRACE_USER_MODE_LOGGER_BIT | 1, TraceStreamCount, &value,
				     sizeof(value), &len), ERROR_INVALID_HANDLE,
	       "%d-bit: a user-mode handle with no logger -> ERROR_INVALID_HANDLE", BITS);
}

/* What an unprivileged caller got, from its child. */
struct unpriv {
	int became;
	ULONG qa_err, qa_n;
	int saw_one, saw_two;
	ULONG eg_err;
	int saw_a;
	ULONG ex_err;
	int ex_saw_c;
	ULONG tq_err, streams;
	ULONG ts_err, enable_err;
};

static void test_unprivileged(TRACEHANDLE one, TRACEHANDLE two)
{
	struct unpriv *u = mmap(NULL, sizeof(*u), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ULONG root_streams = 0, len;
	pid_t pid;
	int st;

	memset(u, 0, sizeof(*u));
	TraceQueryInformation(one, TraceStreamCount, &root_streams, sizeof(ULONG), &len);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		ULONG n = 0;
		GUID *list;

		/* uid 65534: no capability, not in control_gid. */
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(1);
		u->became = 1;
		reset_array();
		u->qa_err = QueryAllTracesA(array, MAXIMUM_LOGGERS, &n);
		u->qa_n = n;
		u->saw_one = find_session(n, one) >= 0 &&
			     !strcmp(name_of(&pr[find_session(n, one)]), "qa-one");
		u->saw_two = find_session(n, two) >= 0;
		u->saw_a = enum_find(&guid_a, &n, &u->eg_err) != NULL;
		list = enum_ex(TraceGuidQueryList, NULL, &len, &u->ex_err);
		u->ex_saw_c = list && list_has(list, len, &guid_c);
		u->tq_err = TraceQueryInformation(one, TraceStreamCount, &u->streams,
						  sizeof(ULONG), &len);
		u->ts_err = TraceSetInformation(one, TraceStackTracingInfo, NULL, 0);
		u->enable_err = EnableTrace(TRUE, 1, 1, &guid_d, one);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	if (!tap_ok(u->became, "%d-bit: a child becomes uid 65534", BITS))
		return;
	tap_eq(u->qa_err, ERROR_SUCCESS, "%d-bit: unprivileged QueryAllTraces", BITS);
	tap_ok(u->saw_one && u->saw_two, "%d-bit: ... sees root's sessions, as QUERY lets it "
	       "(%u listed)", BITS, (unsigned int)u->qa_n);
	tap_ok(!u->eg_err && u->saw_a, "%d-bit: unprivileged EnumerateTraceGuids sees the "
	       "providers", BITS);
	tap_ok(!u->ex_err && u->ex_saw_c, "%d-bit: unprivileged TraceGuidQueryList too", BITS);
	tap_ok(!u->tq_err && u->streams == root_streams,
	       "%d-bit: unprivileged TraceQueryInformation(TraceStreamCount)", BITS);
	tap_eq(u->ts_err, ERROR_ACCESS_DENIED, "%d-bit: unprivileged "
	       "TraceSetInformation(TraceStackTracingInfo) -> ERROR_ACCESS_DENIED", BITS);
	tap_eq(u->enable_err, ERROR_ACCESS_DENIED, "%d-bit: ... but EnableTrace is still "
	       "refused: ERROR_ACCESS_DENIED", BITS);
	munmap(u, sizeof(*u));
}

/* Two sessions and the providers registered, shared by every test. */
TEST_F(nttrace, two_sessions)
{
	TRACEHANDLE one = start("qa-one"), two = start("qa-two");

	if (!tap_ok(one && two, "%d-bit: two sessions start", BITS))
		return;
	test_query_all(one, two);
	test_enumerate(one, two);
	test_enumerate_ex(one, two);
	test_trace_information(one);
	test_unprivileged(one, two);
	stop(two);
	stop(one);
}

int main(int argc, char **argv)
{
	return harness_run(argc, argv);
}
