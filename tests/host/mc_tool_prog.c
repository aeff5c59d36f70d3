// SPDX-License-Identifier: GPL-2.0
/*
 * A provider written against the header `nttrace mc` made of
 * tests/vm/mc_test.man (mc_tool_test.sh builds it with -I of the
 * header's directory, against libnttrace's own headers and against the
 * Windows layer). With no session enabling it, every EventEnabled is
 * false and a million EventWrite calls go nowhere (their cost is printed;
 * make bench's mc_disabled path is where it is held to a target).
 * TAP on stdout.
 */
#include "mct.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static int n, failed;

static void ok(int cond, const char *what)
{
	printf("%s %d - %s\n", cond ? "ok" : "not ok", ++n, what);
	failed |= !cond;
}

int main(void)
{
	static const WCHAR host[] = { 'h', 'o', 's', 't', 0 };
	ULONGLONG sizes[3] = { 1, 2, 3 };
	UCHAR fixed[4] = { 1, 2, 3, 4 }, blob[2] = { 9, 8 };
	struct { int a; double b; } pair = { 1, 2.0 };
	struct timespec t0, t1;
	GUID id;
	ULONG e;
	long i;
	double ns;

	memset(&id, 0, sizeof(id));
	ok(NTTRACE_MC_TEST.Data1 == 0x3c1f2a8e, "the provider GUID");
	ok(MctConnect.Id == 1 && MctConnect.Level == 4 && MctConnect.Task == MCT_TASK_CONNECT &&
	   MctConnect.Opcode == 1 && MctConnect.Channel == MCT_CHANNEL_OP &&
	   MctConnect.Keyword == (0x4000000000000000ULL | MCT_KW_NET), "MctConnect's descriptor");
	ok(MctRetry.Opcode == MCT_OPCODE_RETRY && MctRetry.Level == MCT_LEVEL_CHATTY &&
	   MctRetry.Keyword == (MCT_KW_NET | MCT_KW_DISK), "MctRetry's descriptor");
	ok(MctTransfer.Version == 1 && MctTransfer.Opcode == MCT_OPCODE_FLUSH &&
	   MctTransfer.Channel == 8 && MctTransfer_value == 3, "MctTransfer's descriptor");
	ok(MCT_TASK_CONNECTId.Data1 == 0x0d3e7a51, "the task's eventGUID");
	ok(MCT_STATEIdle == 0 && MCT_STATEBusy == 1 && sizeof(MCT_STATE) == sizeof(int),
	   "a value map's symbols: an enum of the map's and the entries' names");
	/* A System-channel event's ID is its value; a second version's is its own. */
	ok(MSG_event_transfer == 0x3 && MSG_event_transfer2 == 0xB0020003,
	   "two versions of a System-channel event: two message IDs");
	e = EventRegisterNttrace_Mc_Test();
	ok(e == ERROR_SUCCESS && Nttrace_Mc_TestHandle != 0, "EventRegister");
	ok(!EventEnabledMctConnect() && !EventEnabledMctRetry() && !EventEnabledMctTransfer() &&
	   !EventEnabledMctPlain(), "nothing is enabled with no session");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 1000000; i++) {
		EventWriteMctConnect(host, 80, 1, 3, &id);
		EventWriteMctTransfer(3, sizes, "tag", fixed, 2, blob, sizeof(pair), &pair, TRUE);
		EventWriteMctPlain();
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 3e6;
	/* Said, not judged: make bench's mc_disabled holds the cost to its target. */
	printf("# a disabled EventWrite: %.2f ns\n", ns);
	/* Written with no session: EventWriteTransfer finds none, succeeds. */
	ok(EventWriteMctConnect_AssumeEnabled(NULL, 80, 1, 3, &id) == ERROR_SUCCESS,
	   "EventWrite with no session (and a NULL string) succeeds");
	ok(EventWriteMctTransfer_AssumeEnabled(3, sizes, NULL, fixed, 2, blob, sizeof(pair),
					       &pair, FALSE) == ERROR_SUCCESS,
	   "arrays, a binary of a length, a structure");
	ok(EventWriteMctPlain_AssumeEnabled() == ERROR_SUCCESS, "an event with no template");
	/*
	 * The control callback keeps the bits: enabled for Disk at level 5,
	 * MctRetry (level 16) stays off, MctPlain (keyword 0) is on.
	 */
	McGenControlCallbackV2(NULL, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, MCT_KW_DISK, 0, NULL,
			       &NTTRACE_MC_TEST_Context);
	ok(!EventEnabledMctConnect() && !EventEnabledMctRetry() && EventEnabledMctTransfer() &&
	   EventEnabledMctPlain(), "the callback sets the bits of the level and keywords");
	McGenControlCallbackV2(NULL, EVENT_CONTROL_CODE_DISABLE_PROVIDER, 0, 0, 0, NULL,
			       &NTTRACE_MC_TEST_Context);
	ok(!EventEnabledMctTransfer() && !EventEnabledMctPlain(), "and clears them");
	ok(EventUnregisterNttrace_Mc_Test() == ERROR_SUCCESS && Nttrace_Mc_TestHandle == 0,
	   "EventUnregister");
	printf("1..%d\n", n);
	return failed;
}
