// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite nttrace_kapi: the kernel-mode API (module/kapi.c,
 * include/nttrace/wdm.h) into a real session: WmiTraceMessage's argument
 * pairs on the stack and, past a few, in memory; the GUID rules; kernel
 * memory that cannot be read (nothing committed); Fields not aligned (no
 * user-mode defence); a paged-memory session refusing kernel-mode events.
 * EtwRegister's handles: one unregistered, or one never given,
 * is NTTRACE_STATUS_INVALID_HANDLE, read through no pointer; the enable callback
 * may register, write and unregister (its own registration too).
 * EtwSetInformation's errors, and the descriptors' Types it turns on.
 * The sample driver tests the three contexts in the VM (tests/vm/kapi_test.c).
 */
#include <kunit/test.h>
#include <linux/lockdep.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <nttrace/wdm.h>

#include "kunit_util.h"
#include "provider.h"

static const guid_t kapi_guid = GUID_INIT(0x01234567, 0x89ab, 0xcdef, 0x01, 0x23,
					  0x45, 0x67, 0x89, 0xab, 0xcd, 0xef);

static struct ntk_session *kapi_start(struct kunit *test, u32 mode)
{
	struct nttrace_logger_info info;

	ntk_info(&info, "kunit-kapi");
	info.buffer_size_kb = 16;
	info.log_file_mode = mode;
	return ntk_start(test, &info);
}

/* The only record since the last collect, which must be a message. */
static const u8 *kapi_one(struct kunit *test, struct ntk_session *k, u32 *size)
{
	struct ntk_record *recs;

	KUNIT_ASSERT_EQ(test, ntk_collect(test, k, &recs), 1);
	KUNIT_EXPECT_EQ(test, recs[0].data[3], NTTRACE_MESSAGE_TRACE_MARKER_BYTE);
	*size = recs[0].size;
	return recs[0].data;
}

static void pairs_test(struct kunit *test)
{
	struct ntk_session *k = kapi_start(test, 0);
	u8 a[12], b[12], want[24];
	const u8 *rec;
	u32 size, i;

	for (i = 0; i < sizeof(a); i++) {
		a[i] = i;
		b[i] = 0x80 + i;
	}
	/* No argument at all. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, 0, NULL, 7, NULL), NTTRACE_STATUS_SUCCESS);
	rec = kapi_one(test, k, &size);
	KUNIT_EXPECT_EQ(test, size, 8);
	KUNIT_EXPECT_EQ(test, *(u16 *)(rec + 4), 7);
	KUNIT_EXPECT_EQ(test, *(u16 *)(rec + 6), NTTRACE_TRACE_MESSAGE_POINTER64);

	/* Two pairs: on the stack. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, NTTRACE_TRACE_MESSAGE_GUID, &kapi_guid, 8,
					      a, sizeof(a), b, (size_t)5, NULL),
			NTTRACE_STATUS_SUCCESS);
	rec = kapi_one(test, k, &size);
	KUNIT_EXPECT_EQ(test, size, 8 + 16 + 12 + 5);
	KUNIT_EXPECT_MEMEQ(test, rec + 8, &kapi_guid, 16);
	memcpy(want, a, 12);
	memcpy(want + 12, b, 5);
	KUNIT_EXPECT_MEMEQ(test, rec + 24, want, 17);

	/* Twelve pairs: past the stack's eight, so in memory. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, 0, NULL, 9,
					      a + 0, (size_t)2, a + 2, (size_t)2,
					      a + 4, (size_t)2, a + 6, (size_t)2,
					      a + 8, (size_t)2, a + 10, (size_t)2,
					      b + 0, (size_t)2, b + 2, (size_t)2,
					      b + 4, (size_t)2, b + 6, (size_t)2,
					      b + 8, (size_t)2, b + 10, (size_t)2, NULL),
			NTTRACE_STATUS_SUCCESS);
	rec = kapi_one(test, k, &size);
	KUNIT_EXPECT_EQ(test, size, 8 + 24);
	memcpy(want, a, 12);
	memcpy(want + 12, b, 12);
	KUNIT_EXPECT_MEMEQ(test, rec + 8, want, 24);
}

static void guid_test(struct kunit *test)
{
	struct ntk_session *k = kapi_start(test, 0);
	struct ntk_record *recs;
	u32 component = 0x11223344;
	const u8 *rec;
	u32 size;

	/* The flags need a GUID and there is none. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, NTTRACE_TRACE_MESSAGE_GUID, NULL, 1, NULL),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test,
			WmiTraceMessage(k->id, NTTRACE_TRACE_MESSAGE_COMPONENTID, NULL, 1, NULL),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 0);

	/* A component ID: only its 4 bytes are read. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, NTTRACE_TRACE_MESSAGE_COMPONENTID,
					      (const guid_t *)&component, 2, NULL),
			NTTRACE_STATUS_SUCCESS);
	rec = kapi_one(test, k, &size);
	KUNIT_EXPECT_EQ(test, size, 12);
	KUNIT_EXPECT_EQ(test, *(u32 *)(rec + 8), component);
}

static void bad_memory_test(struct kunit *test)
{
	struct ntk_session *k = kapi_start(test, 0);
	struct nttrace_logger_info out;
	struct ntk_record *recs;
	u8 ok[4] = { 1, 2, 3, 4 };

	/* A pointer no kernel memory is at: nothing committed, nothing lost. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, 0, NULL, 3, ok, sizeof(ok),
					      (const void *)16, (size_t)4, NULL),
			NTTRACE_STATUS_ACCESS_VIOLATION);
	KUNIT_EXPECT_EQ(test, ZwTraceEvent(k->id, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE,
					   NTTRACE_MESSAGE_TRACE_USER_SIZE, (const void *)16),
			NTTRACE_STATUS_ACCESS_VIOLATION);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 0);
	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, k->id, &out), 0);
	KUNIT_EXPECT_EQ(test, out.events_lost, 0);
}

static void misaligned_test(struct kunit *test)
{
	struct ntk_session *k = kapi_start(test, 0);
	struct nttrace_message_trace_user m = { .message_number = 4 };
	u8 *buf = kunit_kzalloc(test, sizeof(m) + 1, GFP_KERNEL);
	struct ntk_record *recs;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* User-mode callers get NTTRACE_STATUS_DATATYPE_MISALIGNMENT; the kernel is trusted. */
	memcpy(buf + 1, &m, sizeof(m));
	KUNIT_EXPECT_EQ(test, ZwTraceEvent(k->id, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE,
					   NTTRACE_MESSAGE_TRACE_USER_SIZE, buf + 1),
			NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 1);
	/* An invalid type is refused first, as for user mode. */
	KUNIT_EXPECT_EQ(test, ZwTraceEvent(k->id, 0x0A00, 0, buf),
			NTTRACE_STATUS_INVALID_PARAMETER);
}

static void paged_test(struct kunit *test)
{
	struct ntk_session *k = kapi_start(test, NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY);
	struct nttrace_logger_info out;
	struct ntk_record *recs;

	KUNIT_EXPECT_EQ(test, WmiTraceMessage(k->id, 0, NULL, 5, NULL),
			NTTRACE_STATUS_NOT_SUPPORTED);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 0);
	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, k->id, &out), 0);
	KUNIT_EXPECT_EQ(test, out.events_lost, 0);
	/* The handle's other bits (level, flags) are not the logger ID. */
	KUNIT_EXPECT_EQ(test, WmiTraceMessage(NTTRACE_HANDLE(0, 4, 0, 1), 0, NULL, 5, NULL),
			NTTRACE_STATUS_INVALID_HANDLE);
}

/* ---- EtwRegister's handles and enable callback ---- */

static const guid_t etw_a = GUID_INIT(0x6b61706b, 0x0001, 0x4000, 0x80, 0, 0, 0, 0, 0, 0, 1);
static const guid_t etw_b = GUID_INIT(0x6b61706b, 0x0002, 0x4000, 0x80, 0, 0, 0, 0, 0, 0, 2);
static const struct nttrace_event_descriptor etw_desc = { .id = 7, .version = 1, .level = 4 };

/* Every call with @h refuses it, reading nothing through it. */
static void expect_invalid(struct kunit *test, u64 h)
{
	u32 v = 0x5a5a;
	struct nttrace_event_data_descriptor d = { .ptr = (uintptr_t)&v, .size = sizeof(v) };

	KUNIT_EXPECT_EQ_MSG(test, EtwWrite(h, &etw_desc, NULL, 1, &d),
			    NTTRACE_STATUS_INVALID_HANDLE, "handle %#llx", h);
	KUNIT_EXPECT_FALSE_MSG(test, EtwProviderEnabled(h, 0, 0), "handle %#llx", h);
	KUNIT_EXPECT_FALSE_MSG(test, EtwEventEnabled(h, &etw_desc), "handle %#llx", h);
	KUNIT_EXPECT_EQ_MSG(test, EtwUnregister(h), NTTRACE_STATUS_INVALID_HANDLE, "handle %#llx",
			    h);
}

static void stale_handle_test(struct kunit *test)
{
	u64 h, h2;

	KUNIT_ASSERT_EQ(test, EtwRegister(&etw_a, NULL, NULL, &h), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_NE(test, h, 0ULL);
	KUNIT_ASSERT_EQ(test, EtwUnregister(h), NTTRACE_STATUS_SUCCESS);
	/* Its memory is freed: KASAN would see it read. */
	expect_invalid(test, h);
	/* A new registration does not revive the old handle. */
	KUNIT_ASSERT_EQ(test, EtwRegister(&etw_a, NULL, NULL, &h2), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_NE(test, h2, h);
	expect_invalid(test, h);
	KUNIT_EXPECT_EQ(test, EtwUnregister(h2), NTTRACE_STATUS_SUCCESS);
	expect_invalid(test, h2);
}

static void forged_handle_test(struct kunit *test)
{
	/* Looks like the old handle (an address with the magic at it). */
	u32 fake[8] = { 0x52777445 };
	u64 h;
	int i, bit;

	KUNIT_ASSERT_EQ(test, EtwRegister(&etw_a, NULL, NULL, &h), NTTRACE_STATUS_SUCCESS);
	expect_invalid(test, 0);
	expect_invalid(test, (uintptr_t)fake);
	/* A live handle with any one bit changed. */
	for (bit = 0; bit < 64; bit++)
		expect_invalid(test, h ^ (1ULL << bit));
	for (i = 0; i < 64; i++) {
		u64 r = get_random_u64();

		if (r != h)
			expect_invalid(test, r);
	}
	expect_invalid(test, ~0ULL);
	/* The live one still works. */
	KUNIT_EXPECT_EQ(test, EtwUnregister(h), NTTRACE_STATUS_SUCCESS);
}

/* What the enable callback of etw_a saw and did. */
struct etw_ctx {
	struct kunit *test;
	int depth;		/* locks held where the test made the change */
	u64 h;			/* etw_a's handle, once EtwRegister returned */
	unsigned int calls, inner_calls, locked;
	u32 write_status, inner_status, unregister_status;
	u32 last_control;
	bool unregister_self;	/* at CAPTURE_STATE */
};

static void etw_inner_cb(const guid_t *source_id, u32 control, u8 level, u64 any, u64 all,
			 void *filter_data, void *p)
{
	struct etw_ctx *c = p;

	c->inner_calls++;
}

/*
 * Registers etw_b (its callback runs inside EtwRegister when a session
 * enables it), writes with etw_a, unregisters etw_b; at CAPTURE_STATE
 * perhaps unregisters etw_a. Not with a lock held (lockdep sees it): that
 * would deadlock.
 */
static void etw_outer_cb(const guid_t *source_id, u32 control, u8 level, u64 any, u64 all,
			 void *filter_data, void *p)
{
	struct etw_ctx *c = p;
	u32 v = c->calls;
	struct nttrace_event_data_descriptor d = { .ptr = (uintptr_t)&v, .size = sizeof(v) };
	u64 inner;

	c->calls++;
	c->last_control = control;
	if (lockdep_depth(current) != c->depth) {
		c->locked++;
		return;
	}
	c->inner_status = EtwRegister(&etw_b, etw_inner_cb, c, &inner);
	if (c->inner_status == NTTRACE_STATUS_SUCCESS)
		c->inner_status = EtwUnregister(inner);
	c->write_status = EtwWrite(c->h, &etw_desc, NULL, 1, &d);
	if (control == NTTRACE_EVENT_CONTROL_CODE_CAPTURE_STATE && c->unregister_self)
		c->unregister_status = EtwUnregister(c->h);
}

static int etw_enable(u32 id, const guid_t *guid, u32 control, u32 level)
{
	struct nttrace_enable e = {
		.size = sizeof(e), .logger_id = id, .control = control, .level = level,
	};

	memcpy(e.guid, guid, 16);
	return nt_provider_enable(&e);
}

static void etw_unregister(void *p)
{
	struct etw_ctx *c = p;

	EtwUnregister(c->h);
}

static void callback_test(struct kunit *test)
{
	struct etw_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct ntk_session *k = kapi_start(test, 0);
	struct ntk_record *recs;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->depth = lockdep_depth(current);
	c->unregister_self = true;
	KUNIT_ASSERT_EQ(test, EtwRegister(&etw_a, etw_outer_cb, c, &c->h), NTTRACE_STATUS_SUCCESS);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, etw_unregister, c), 0);
	KUNIT_ASSERT_EQ(
		test, etw_enable(k->id, &etw_b, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, 0), 0);
	KUNIT_ASSERT_EQ(
		test, etw_enable(k->id, &etw_a, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5), 0);
	KUNIT_EXPECT_EQ(test, c->calls, 1U);
	KUNIT_EXPECT_EQ(test, c->locked, 0U);
	KUNIT_EXPECT_EQ(test, c->inner_status, NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, c->inner_calls, 1U);
	/* The callback's event is in the session: it was enabled already. */
	KUNIT_EXPECT_EQ(test, c->write_status, NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 1U);

	/* CAPTURE_STATE: the callback unregisters its own registration. */
	KUNIT_ASSERT_EQ(test,
			etw_enable(k->id, &etw_a, NTTRACE_EVENT_CONTROL_CODE_CAPTURE_STATE, 0), 0);
	KUNIT_EXPECT_EQ(test, c->calls, 2U);
	KUNIT_EXPECT_EQ(test, c->locked, 0U);
	KUNIT_EXPECT_EQ(test, c->unregister_status, NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 1U);
	/* Gone: no more callbacks, the handle refused. */
	KUNIT_EXPECT_EQ(test, ntk_stop(k), 0);
	KUNIT_EXPECT_EQ(test, c->calls, 2U);
	expect_invalid(test, c->h);
}

/*
 * EtwSetInformation: its errors, and SetTraits turning the descriptors'
 * Type on, so that a kernel-mode TraceLogging event gets its PROV_TRAITS
 * and EVENT_SCHEMA_TL items (the layout is the record suite's; here only
 * that the items are there and the data follows them).
 */
static void set_information_test(struct kunit *test)
{
	/* A name, and a trait of 3 bytes (type 0, no data). */
	static const u8 traits[7] = { 7, 0, 'k', 0, 3, 0, 0 };
	static const u8 schema[4] = { 4, 0, 0, 0 };
	static const u8 bad[4] = { 5, 0, 'k', 0 };
	u8 on = 1, off = 0, payload = 0x5a;
	struct ntk_session *k = kapi_start(test, 0);
	struct nttrace_event_data_descriptor d[3] = {
		{ .ptr = (uintptr_t)schema, .size = sizeof(schema), .reserved = 1 },
		{ .ptr = (uintptr_t)traits, .size = sizeof(traits), .reserved = 2 },
		{ .ptr = (uintptr_t)&payload, .size = 1 },
	};
	struct ntk_record *recs;
	u64 h;

	KUNIT_EXPECT_EQ(test, EtwSetInformation(0, EventProviderSetTraits, (void *)traits, 7),
			NTTRACE_STATUS_INVALID_HANDLE);
	KUNIT_ASSERT_EQ(test, EtwRegister(&etw_a, NULL, NULL, &h), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, EtwSetInformation(h, EventProviderSetTraits, (void *)bad, 4),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, EtwSetInformation(h, EventProviderUseDescriptorType, &on, 4),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, EtwSetInformation(h, 1, NULL, 0), NTTRACE_STATUS_NOT_SUPPORTED);
	KUNIT_EXPECT_EQ(test, EtwSetInformation(h, EventProviderBinaryTrackInfo, NULL, 0),
			NTTRACE_STATUS_SUCCESS);
	KUNIT_ASSERT_EQ(
		test, etw_enable(k->id, &etw_a, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5), 0);

	/* Not asked for: the metadata is data. */
	KUNIT_EXPECT_EQ(test, EtwWrite(h, &etw_desc, NULL, 3, d), NTTRACE_STATUS_SUCCESS);
	KUNIT_ASSERT_EQ(test, ntk_collect(test, k, &recs), 1U);
	KUNIT_EXPECT_EQ(test, recs[0].size, 0x50U + 4 + 7 + 1);
	KUNIT_EXPECT_EQ(test, recs[0].data[4] & 0x01, 0);

	KUNIT_EXPECT_EQ(test, EtwSetInformation(h, EventProviderSetTraits, (void *)traits, 7),
			NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, EtwWrite(h, &etw_desc, NULL, 3, d), NTTRACE_STATUS_SUCCESS);
	KUNIT_ASSERT_EQ(test, ntk_collect(test, k, &recs), 1U);
	/* 0x50, traits item 8 + 7 -> 16, schema item 8 + 4 -> 16, the byte. */
	KUNIT_EXPECT_EQ(test, recs[0].size, 0x50U + 16 + 16 + 1);
	KUNIT_EXPECT_EQ(test, recs[0].data[4] & 0x01, 0x01);
	KUNIT_EXPECT_EQ(test, ntk_get_le(recs[0].data + 0x52, 2), 12ULL);
	KUNIT_EXPECT_EQ(test, ntk_get_le(recs[0].data + 0x62, 2), 11ULL);
	KUNIT_EXPECT_EQ(test, memcmp(recs[0].data + 0x58, traits, 7), 0);
	KUNIT_EXPECT_EQ(test, memcmp(recs[0].data + 0x68, schema, 4), 0);
	KUNIT_EXPECT_EQ(test, recs[0].data[0x70], payload);

	KUNIT_EXPECT_EQ(test, EtwSetInformation(h, EventProviderUseDescriptorType, &off, 1),
			NTTRACE_STATUS_SUCCESS);
	d[0].reserved = 3;	/* ignored again */
	KUNIT_EXPECT_EQ(test, EtwWrite(h, &etw_desc, NULL, 3, d), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, EtwSetInformation(h, EventProviderUseDescriptorType, &on, 1),
			NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, EtwWrite(h, &etw_desc, NULL, 3, d),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 1U);
	KUNIT_EXPECT_EQ(test, EtwUnregister(h), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, EtwSetInformation(h, EventProviderSetTraits, (void *)traits, 7),
			NTTRACE_STATUS_INVALID_HANDLE);
}

/* The session's stop tells the callback with no lock held. */
static void stop_callback_test(struct kunit *test)
{
	struct etw_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct ntk_session *k = kapi_start(test, 0);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->depth = lockdep_depth(current);
	KUNIT_ASSERT_EQ(test, EtwRegister(&etw_a, etw_outer_cb, c, &c->h), NTTRACE_STATUS_SUCCESS);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, etw_unregister, c), 0);
	KUNIT_ASSERT_EQ(
		test, etw_enable(k->id, &etw_a, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5), 0);
	KUNIT_EXPECT_EQ(test, c->calls, 1U);
	KUNIT_EXPECT_EQ(test, ntk_stop(k), 0);
	KUNIT_EXPECT_EQ(test, c->calls, 2U);
	KUNIT_EXPECT_EQ(test, c->last_control, (u32)NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER);
	KUNIT_EXPECT_EQ(test, c->locked, 0U);
	KUNIT_EXPECT_EQ(test, c->inner_status, NTTRACE_STATUS_SUCCESS);
	/* No session wants it any more: nothing written, no error. */
	KUNIT_EXPECT_EQ(test, c->write_status, NTTRACE_STATUS_SUCCESS);
}

static struct kunit_case nttrace_kapi_cases[] = {
	KUNIT_CASE(pairs_test),
	KUNIT_CASE(guid_test),
	KUNIT_CASE(bad_memory_test),
	KUNIT_CASE(misaligned_test),
	KUNIT_CASE(paged_test),
	KUNIT_CASE(callback_test),
	KUNIT_CASE(stop_callback_test),
	KUNIT_CASE(set_information_test),
	KUNIT_CASE(stale_handle_test),
	KUNIT_CASE(forged_handle_test),
	{}
};

static struct kunit_suite nttrace_kapi_suite = {
	.name = "nttrace_kapi",
	.test_cases = nttrace_kapi_cases,
};

kunit_test_suite(nttrace_kapi_suite);
