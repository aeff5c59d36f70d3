// SPDX-License-Identifier: GPL-2.0
/*
 * A manifest-based provider built as Windows developers build one: its
 * header made by `nttrace mc` of tests/vm/mc_test.man (at build time, as
 * mc_test_events.h), its events written with the generated EventWriteX
 * macros into a kernel session's file and into the user-mode logger's,
 * each file read back with ProcessTrace and each event decoded by TDH
 * through the manifest it finds on NTTRACE_MANIFEST_PATH, as an installed
 * manifest is found on Windows. The descriptors the header declares, the
 * enable bits its callback keeps (an event of a level or keyword the
 * session did not ask for is neither enabled nor written), and every
 * field's name and value as TDH gives them are checked.
 *
 * Then the same manifest in a kernel module: nttrace_mc_km.ko
 * (tests/vm/mc_km), whose header `nttrace mc -km` made, loaded while a
 * kernel session enables its provider (root only; skipped without the
 * module). Its enable bits, set by the header's callback inside
 * EventRegister, and its events, written from two files of the module,
 * are checked as the user-mode ones are.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nttrace/evntcons.h>
#include <nttrace/evntrace.h>
#include <nttrace/tdh.h>
#include "mc_test_events.h"
#include "params.h"
#include "props.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)

static const WCHAR host[] = { 'h', 'o', 's', 't', 0 };
static const GUID conn_id = { 0x01020304, 0x0506, 0x0708, { 9, 10, 11, 12, 13, 14, 15, 16 } };

struct got {
	unsigned int connect, transfer, plain, retry, foreign;
	unsigned int connect_good, transfer_good, named;
};

/* The value of top-level property @name of @er, as TDH reads it: its size, 0 on failure. */
static ULONG prop(PEVENT_RECORD er, const char *name, void *buf, ULONG room)
{
	WCHAR w[32];
	PROPERTY_DATA_DESCRIPTOR d;
	ULONG size = 0;
	size_t i;

	for (i = 0; name[i] && i < 31; i++)
		w[i] = (WCHAR)name[i];
	w[i] = 0;
	memset(&d, 0, sizeof(d));
	d.PropertyName = (ULONGLONG)(uintptr_t)w;
	d.ArrayIndex = 0xFFFFFFFF;	/* not an element of an array */
	if (TdhGetPropertySize(er, 0, NULL, 1, &d, &size) != ERROR_SUCCESS || size > room)
		return 0;
	if (TdhGetProperty(er, 0, NULL, 1, &d, size, buf) != ERROR_SUCCESS)
		return 0;
	return size;
}

/* Whether the UTF-16 string at @base + @off is @s. */
static int wstr_is(const void *base, ULONG off, const char *s)
{
	const uint8_t *p = (const uint8_t *)base + off;
	size_t i;

	if (!off)
		return 0;
	for (i = 0; s[i]; i++)
		if (p[2 * i] != (uint8_t)s[i] || p[2 * i + 1])
			return 0;
	return !p[2 * i] && !p[2 * i + 1];
}

/* TDH's names of the event: its task, opcode and the provider's. */
static int names_are(PEVENT_RECORD er, const char *task, const char *opcode)
{
	uint8_t buf[8192];
	TRACE_EVENT_INFO *tei = (TRACE_EVENT_INFO *)buf;
	ULONG size = sizeof(buf);

	if (TdhGetEventInformation(er, 0, NULL, tei, &size) != ERROR_SUCCESS)
		return 0;
	return tei->DecodingSource == DecodingSourceXMLFile &&
	       wstr_is(tei, tei->ProviderNameOffset, "Nttrace-Mc-Test") &&
	       wstr_is(tei, tei->TaskNameOffset, task) &&
	       wstr_is(tei, tei->OpcodeNameOffset, opcode);
}

static void check_connect(struct got *g, PEVENT_RECORD er)
{
	uint8_t v[64];
	uint16_t port = 0;
	uint32_t u = 0;
	GUID id;

	g->connect++;
	if (prop(er, "Host", v, sizeof(v)) == sizeof(host) && !memcmp(v, host, sizeof(host)) &&
	    prop(er, "Port", &port, sizeof(port)) == 2 && port == 443 &&
	    prop(er, "State", &u, sizeof(u)) == 4 && u == 1 &&
	    prop(er, "Flags", &u, sizeof(u)) == 4 && u == 3 &&
	    prop(er, "Id", &id, sizeof(id)) == sizeof(id) && !memcmp(&id, &conn_id, sizeof(id)))
		g->connect_good++;
	g->named += names_are(er, "Connect", "Start");
}

static void check_transfer(struct got *g, PEVENT_RECORD er)
{
	uint8_t v[64];
	uint32_t count = 0, ok = 0;
	uint16_t len = 0;

	g->transfer++;
	if (prop(er, "Count", &count, sizeof(count)) == 4 && count == 3 &&
	    prop(er, "Tag", v, sizeof(v)) == 4 && !memcmp(v, "tag", 4) &&
	    prop(er, "Len", &len, sizeof(len)) == 2 && len == 2 &&
	    prop(er, "Blob", v, sizeof(v)) == 2 && v[0] == 9 && v[1] == 8 &&
	    prop(er, "Ok", &ok, sizeof(ok)) == 4 && ok == 1)
		g->transfer_good++;
	g->named += names_are(er, "Transfer", "Flush");
}

static void WINAPI on_record(PEVENT_RECORD er)
{
	struct got *g = er->UserContext;
	const EVENT_DESCRIPTOR *d = &er->EventHeader.EventDescriptor;

	if (memcmp(&er->EventHeader.ProviderId, &NTTRACE_MC_TEST, sizeof(GUID))) {
		g->foreign++;
		return;
	}
	if (!memcmp(d, &MctConnect, sizeof(*d)))
		check_connect(g, er);
	else if (!memcmp(d, &MctTransfer, sizeof(*d)))
		check_transfer(g, er);
	else if (!memcmp(d, &MctPlain, sizeof(*d)))
		g->plain++;
	else if (d->Id == MctRetry_value)
		g->retry++;
	else
		printf("# an event of Id %u, not one the header declares so\n", d->Id);
}

static void read_back(const char *path, struct got *g)
{
	EVENT_TRACE_LOGFILEA lf;
	TRACEHANDLE h;

	memset(g, 0, sizeof(*g));
	memset(&lf, 0, sizeof(lf));
	lf.LogFileName = (LPSTR)path;
	lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	lf.EventRecordCallback = on_record;
	lf.Context = g;
	h = OpenTraceA(&lf);
	if (!tap_ok(h != INVALID_PROCESSTRACE_HANDLE, "%d-bit: OpenTrace %s", BITS, path))
		return;
	tap_eq(ProcessTrace(&h, 1, NULL, NULL), ERROR_SUCCESS, "%d-bit: ProcessTrace", BITS);
	CloseTrace(h);
}

static void write_events(void)
{
	ULONGLONG sizes[3] = { 1, 2, 3 };
	UCHAR fixed[4] = { 1, 2, 3, 4 }, blob[2] = { 9, 8 };
	/* As the template lays the structure out: its fields back to back. */
	struct __attribute__((packed)) { INT32 a; double b; } pair = { -1, 0.5 };

	EventWriteMctConnect(host, 443, 1, 3, &conn_id);
	/* Level 16 (Chatty): above the session's 5, neither enabled nor written. */
	EventWriteMctRetry(host, 1, 0, 0, &conn_id);
	EventWriteMctTransfer(3, sizes, "tag", fixed, 2, blob, sizeof(pair), &pair, TRUE);
	EventWriteMctPlain();
}

#define MC_KM_KO	"/nttrace_mc_km.ko"

static unsigned long mc_km_param(const char *name)
{
	return module_param_value("nttrace_mc_km", name);
}

/*
 * The kernel module's events: it registers, finds the enable already
 * made (its callback runs inside EtwRegister), and writes as it loads.
 */
static void write_module_events(const char *what)
{
	if (!tap_ok(system("insmod " MC_KM_KO) == 0, "%d-bit: %s: insmod nttrace_mc_km", BITS,
		    what))
		return;
	tap_eq(mc_km_param("register_status"), 0, "%d-bit: %s: the module's EventRegister", BITS,
	       what);
	tap_eq(mc_km_param("enabled"), 7,
	       "%d-bit: %s: its enable bits at level 5: Connect, Transfer, Plain, not Retry", BITS,
	       what);
	tap_eq(mc_km_param("failures"), 0, "%d-bit: %s: its writes succeeded (last status 0x%lx)",
	       BITS, what, mc_km_param("last_status"));
	tap_ok(system("rmmod nttrace_mc_km") == 0, "%d-bit: %s: rmmod (EventUnregister)", BITS,
	       what);
}

/*
 * One session (@mode 0: a kernel session; else the user-mode logger),
 * its events written by this program, or with @module by the kernel
 * module.
 */
static void test_session(ULONG mode, const char *what, int module)
{
	TRACEHANDLE h = 0;
	struct props pr;
	char path[96];
	struct got g;

	snprintf(path, sizeof(path), "/tmp/mc-%s-%d-%d.etl", what, BITS, (int)getpid());
	props_init(&pr, path, mode);
	if (!tap_eq(StartTraceA(&h, what, &pr.p), ERROR_SUCCESS, "%d-bit: %s: StartTrace", BITS,
		    what))
		return;
	/*
	 * Every keyword asked for by name: the header's check, as mc.exe's,
	 * takes an event with keywords only if MatchAnyKeyword has one of them.
	 */
	tap_eq(EnableTraceEx2(h, &NTTRACE_MC_TEST, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, ~0ULL,
			      0, 0, NULL), ERROR_SUCCESS,
	       "%d-bit: %s: enable level 5, every keyword", BITS, what);
	/*
	 * A kernel session's enable reaches the header's callback on the
	 * library's notification thread, after EnableTraceEx2 returns: wait
	 * for it, however long it takes (vm-run's timeout reports one that
	 * never comes).
	 */
	if (module) {
		write_module_events(what);
	} else {
		while (!EventEnabledMctConnect())
			usleep(10000);	/* a pace for the poll, not a limit */
		tap_ok(EventEnabledMctConnect() && EventEnabledMctTransfer() &&
		       EventEnabledMctPlain() && !EventEnabledMctRetry(),
		       "%d-bit: %s: the callback set the enable bits of level 5", BITS, what);
		write_events();
	}
	tap_eq(ControlTraceA(h, NULL, &pr.p, EVENT_TRACE_CONTROL_STOP), ERROR_SUCCESS,
	       "%d-bit: %s: stop", BITS, what);
	read_back(path, &g);
	tap_eq(g.connect, 1, "%d-bit: %s: MctConnect arrived", BITS, what);
	tap_eq(g.connect_good, 1, "%d-bit: %s: MctConnect's fields as TDH decodes them", BITS,
	       what);
	tap_eq(g.transfer, 1, "%d-bit: %s: MctTransfer arrived", BITS, what);
	tap_eq(g.transfer_good, 1,
	       "%d-bit: %s: MctTransfer's count, string, length, binary, boolean by TDH", BITS,
	       what);
	tap_eq(g.plain, 1, "%d-bit: %s: MctPlain (no template) arrived", BITS, what);
	tap_eq(g.retry, 0, "%d-bit: %s: MctRetry (level 16) was not written", BITS, what);
	tap_eq(g.named, 2, "%d-bit: %s: TDH names the provider, tasks and opcodes", BITS, what);
	unlink(path);
}

TEST_F(nttrace, generated_header)
{
	int kernel = access("/dev/nttrace", F_OK) == 0;

	/* The manifest, found by TDH as an installed one is. */
	setenv("NTTRACE_MANIFEST_PATH", "tests/vm/mc_test.man", 1);
	tap_ok(MctConnect.Id == 1 && MctConnect.Level == 4 && MctConnect.Task == MCT_TASK_CONNECT &&
	       MctTransfer.Version == 1, "%d-bit: the header's descriptors", BITS);
	if (!tap_eq(EventRegisterNttrace_Mc_Test(), ERROR_SUCCESS, "%d-bit: EventRegister", BITS))
		return;
	tap_ok(!EventEnabledMctConnect(), "%d-bit: not enabled before a session", BITS);
	if (kernel)
		test_session(0, "mc-kernel", 0);
	test_session(EVENT_TRACE_PRIVATE_LOGGER_MODE, "mc-um", 0);
	tap_eq(EventUnregisterNttrace_Mc_Test(), ERROR_SUCCESS, "%d-bit: EventUnregister", BITS);
}

TEST_F(nttrace, kernel_module_header)
{
	struct stat st;

	if (access("/dev/nttrace", F_OK) || geteuid() || stat(MC_KM_KO, &st)) {
		tap_ok(1, "# SKIP %d-bit: nttrace mc -km's module: needs root, the module and %s",
		       BITS, MC_KM_KO);
		return;
	}
	setenv("NTTRACE_MANIFEST_PATH", "tests/vm/mc_test.man", 1);
	test_session(0, "mc-km", 1);
}

int main(int argc, char **argv)
{
	return harness_run(argc, argv);
}
