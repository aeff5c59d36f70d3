// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace_mc_km.ko: a kernel module whose provider is declared by a
 * manifest, as a Windows driver's is: its header made by `nttrace mc -km`
 * of tests/vm/mc_test.man (scripts/build-module makes it, as
 * mc_test_km.h). Loaded, it registers the provider (EventRegister, whose
 * callback hears of a session's enable made before it), notes which of
 * its events the enable bits say are enabled, and writes each of them
 * with the generated EventWrite macros, in this file and in plain.c: the
 * header's objects (the provider's context and enable bits) must be one
 * per module for plain.c's event to be written. Removed, it unregisters.
 * tests/vm/mc_test.c loads it into a session and reads its events back.
 *
 * Read-only parameters report the outcome: register_status (what
 * EventRegister returned), enabled (bit 0: MctConnect, 1: MctTransfer,
 * 2: MctPlain, 3: MctRetry, as EventEnabledX() said before the writes),
 * failures (writes that did not return STATUS_SUCCESS) and last_status.
 */
#include <linux/module.h>

#include "mc_km.h"

static uint register_status = ~0u;
module_param(register_status, uint, 0444);
MODULE_PARM_DESC(register_status, "what EventRegister returned");

static uint enabled;
module_param(enabled, uint, 0444);
MODULE_PARM_DESC(enabled, "the events enabled at load (bits: Connect, Transfer, Plain, Retry)");

static uint failures;
module_param(failures, uint, 0444);
MODULE_PARM_DESC(failures, "writes that did not return STATUS_SUCCESS");

static uint last_status;
module_param(last_status, uint, 0444);
MODULE_PARM_DESC(last_status, "the status of the last failed write");

void mc_km_count(ULONG status)
{
	if (status == NTTRACE_STATUS_SUCCESS)
		return;
	failures++;
	last_status = status;
}

/* tests/vm/mc_test.c's values, field by field. */
static const GUID conn_id = { 0x01020304, 0x0506, 0x0708, { 9, 10, 11, 12, 13, 14, 15, 16 } };

static int __init mc_km_init(void)
{
	static const ULONGLONG sizes[3] = { 1, 2, 3 };
	static const UCHAR fixed[4] = { 1, 2, 3, 4 }, blob[2] = { 9, 8 };
	/* The template's structure: an Int32, then a Double's bytes (0.5). */
	static const struct __packed { s32 a; u64 b; } pair = { -1, 0x3FE0000000000000ULL };

	register_status = EventRegisterNttrace_Mc_Test();
	if (register_status)
		return 0;	/* loaded, to be read; nothing written */
	enabled = EventEnabledMctConnect() | EventEnabledMctTransfer() << 1 |
		  EventEnabledMctPlain() << 2 | EventEnabledMctRetry() << 3;
	mc_km_count(EventWriteMctConnect(u"host", 443, 1, 3, &conn_id));
	/* Level 16 (Chatty): above the session's 5, neither enabled nor written. */
	mc_km_count(EventWriteMctRetry(u"host", 1, 0, 0, &conn_id));
	mc_km_count(EventWriteMctTransfer(3, sizes, "tag", fixed, 2, blob, sizeof(pair), &pair,
					  TRUE));
	mc_km_write_plain();
	return 0;
}

static void __exit mc_km_exit(void)
{
	EventUnregisterNttrace_Mc_Test();
}

module_init(mc_km_init);
module_exit(mc_km_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("nttrace: a manifest-based provider in a kernel module (nttrace mc -km)");
NTTRACE_IMPORT_NS();
