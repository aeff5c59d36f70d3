// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite nttrace_tracelogging: TraceLogging for kernel modules
 * (<nttrace/traceloggingprovider.h> in kernel mode, module/tracelogging.c)
 * into a real session. A provider defined here is registered, enabled
 * for a session, and writes events of many field types; the records'
 * PROV_TRAITS and EVENT_SCHEMA_TL items and their data are checked byte
 * for byte against bytes written out here from the format
 * (TraceLoggingDynamic.h's description: provider metadata = UINT16 size,
 * name, traits; event metadata = UINT16 size, tags, name, then per field
 * its name, InType (0x80: OutType follows), OutType (0x80: tags follow),
 * tags, UINT16 constant count), not from the macros. Also: no record and
 * no argument evaluated when no session wants the event (level, keyword,
 * not registered, unregistered), the state the enable callback keeps
 * across two sessions, a related activity ID's item before the metadata,
 * and a write with interrupts off.
 */
#include <kunit/test.h>
#include <linux/irqflags.h>
#include <linux/stddef.h>
#include <nttrace/wdm.h>
#include <nttrace/traceloggingprovider.h>

#include "kunit_util.h"
#include "provider.h"

TRACELOGGING_DEFINE_PROVIDER(ktl_provider, "Nttrace.KUnit.TL",
	(0x6b746c01, 0x0001, 0x4000, 0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07),
	TraceLoggingOptionGroup(0x6b746c02, 0x0002, 0x4000, 0x80, 0x11, 0x12, 0x13, 0x14,
				0x15, 0x16, 0x17));

/* The same GUIDs, the kernel's way, to check the macros' against. */
static const guid_t ktl_guid = GUID_INIT(0x6b746c01, 0x0001, 0x4000, 0x80, 0x01, 0x02, 0x03,
					 0x04, 0x05, 0x06, 0x07);
static const guid_t ktl_group = GUID_INIT(0x6b746c02, 0x0002, 0x4000, 0x80, 0x11, 0x12, 0x13,
					  0x14, 0x15, 0x16, 0x17);

/* ---- bytes written out from the format ---- */

struct ktl_enc {
	u8 b[512];
	u32 n;
};

/* A test's encoders: in memory, the stack being too small for them. */
struct ktl_bufs {
	struct ktl_enc meta, data, prov, id, rest;
};

static struct ktl_bufs *ktl_bufs(struct kunit *test)
{
	struct ktl_bufs *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	return b;
}

static void put(struct ktl_enc *e, const void *p, u32 len)
{
	memcpy(e->b + e->n, p, len);
	e->n += len;
}

static void put8(struct ktl_enc *e, u8 v)
{
	e->b[e->n++] = v;
}

static void put_le(struct ktl_enc *e, u64 v, int bytes)
{
	ntk_put_le(e->b + e->n, v, bytes);
	e->n += bytes;
}

/* A name, its nul included. */
static void put_sz(struct ktl_enc *e, const char *s)
{
	put(e, s, strlen(s) + 1);
}

/* Metadata: the UINT16 size at 0 counts the whole, itself included. */
static void meta_begin(struct ktl_enc *e)
{
	e->n = 2;
}

static void meta_end(struct ktl_enc *e)
{
	ntk_put_le(e->b, e->n, 2);
}

/* The provider's metadata: its name, then the group trait (19 bytes: size, type 1, GUID). */
static void provider_meta(struct ktl_enc *e)
{
	meta_begin(e);
	put_sz(e, "Nttrace.KUnit.TL");
	put_le(e, 19, 2);
	put8(e, 1);
	put(e, &ktl_group, 16);
	meta_end(e);
}

/*
 * An EVENT_HEADER record's items: each an 8-byte header (size padded to
 * 8, ExtType, Linkage 1 when another follows, data size), its data, zeros
 * to 8.
 */
static void put_item(struct ktl_enc *e, u16 ext_type, bool more, const struct ktl_enc *d)
{
	u32 size = (8 + d->n + 7) & ~7U;

	put_le(e, size, 2);
	put_le(e, ext_type, 2);
	put_le(e, more, 2);
	put_le(e, d->n, 2);
	put(e, d->b, d->n);
	while (e->n % 8)
		put8(e, 0);
}

/* Everything after the EVENT_HEADER into b->rest: the metadata items, then b->data. */
static void after_header(struct ktl_bufs *b)
{
	provider_meta(&b->prov);
	b->rest.n = 0;
	put_item(&b->rest, NTTRACE_EVENT_HEADER_EXT_TYPE_PROV_TRAITS, true, &b->prov);
	put_item(&b->rest, NTTRACE_EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL, false, &b->meta);
	put(&b->rest, b->data.b, b->data.n);
}

/* ---- sessions ---- */

/* A session of its own name (names are unique among running sessions). */
static struct ntk_session *ktl_start(struct kunit *test, const char *name)
{
	struct nttrace_logger_info info;

	ntk_info(&info, name);
	info.buffer_size_kb = 16;
	return ntk_start(test, &info);
}

static int ktl_enable(u32 id, u32 control, u32 level, u64 any, u64 all)
{
	struct nttrace_enable e = {
		.size = sizeof(e), .logger_id = id, .control = control, .level = level,
		.match_any_keyword = any, .match_all_keyword = all,
	};

	memcpy(e.guid, &ktl_guid, 16);
	return nt_provider_enable(&e);
}

/* The one record since the last collect: its header checked, the rest's bytes compared. */
static void expect_record(struct kunit *test, struct ntk_session *k, u8 level, u8 opcode,
			  u64 keyword, const struct ktl_enc *rest)
{
	const size_t desc = offsetof(struct nttrace_event_header, descriptor);
	struct nttrace_event_descriptor d;
	struct ntk_record *recs;
	const u8 *r;

	KUNIT_ASSERT_EQ(test, ntk_collect(test, k, &recs), 1U);
	r = recs[0].data;
	KUNIT_ASSERT_EQ(test, recs[0].size, NTTRACE_EVENT_HEADER_SIZE + rest->n);
	KUNIT_EXPECT_EQ(test, r[2], NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER64);
	KUNIT_EXPECT_TRUE(test, ntk_get_le(r + 4, 2) & NTTRACE_EVENT_HEADER_FLAG_EXTENDED_INFO);
	KUNIT_EXPECT_MEMEQ(test, r + offsetof(struct nttrace_event_header, provider_id),
			   &ktl_guid, 16);
	memcpy(&d, r + desc, sizeof(d));
	/* TraceLogging's defaults: Id, Version and Task 0, Channel 11. */
	KUNIT_EXPECT_EQ(test, d.id, 0);
	KUNIT_EXPECT_EQ(test, d.version, 0);
	KUNIT_EXPECT_EQ(test, d.channel, 11);
	KUNIT_EXPECT_EQ(test, d.level, level);
	KUNIT_EXPECT_EQ(test, d.opcode, opcode);
	KUNIT_EXPECT_EQ(test, d.task, 0);
	KUNIT_EXPECT_EQ(test, d.keyword, keyword);
	KUNIT_EXPECT_MEMEQ(test, r + NTTRACE_EVENT_HEADER_SIZE, rest->b, rest->n);
}

static unsigned int evaluated;

static u32 side_effect(void)
{
	evaluated++;
	return 7;
}

/* What TraceLoggingRegisterEx's callback saw. */
struct ktl_calls {
	unsigned int enables, disables;
	u8 level;
	u64 any;
};

static void ktl_callback(const guid_t *source_id, u32 control, u8 level, u64 any, u64 all,
			 void *filter_data, void *context)
{
	struct ktl_calls *c = context;

	if (control == NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER)
		c->enables++;
	else if (control == NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER)
		c->disables++;
	c->level = level;
	c->any = any;
}

static void ktl_unregister(void *unused)
{
	TraceLoggingUnregister(ktl_provider);
}

static void ktl_register(struct kunit *test, struct ktl_calls *c)
{
	KUNIT_ASSERT_EQ(test, TraceLoggingRegisterEx(ktl_provider, c ? ktl_callback : NULL, c),
			NTTRACE_STATUS_SUCCESS);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ktl_unregister, NULL), 0);
}

/* ---- the cases ---- */

static void provider_test(struct kunit *test)
{
	struct ktl_enc *e = &ktl_bufs(test)->prov;
	guid_t id = TraceLoggingProviderId(ktl_provider);

	provider_meta(e);
	KUNIT_EXPECT_EQ(test, ntk_get_le(ktl_provider->metadata, 2), (u64)e->n);
	KUNIT_EXPECT_MEMEQ(test, ktl_provider->metadata, e->b, e->n);
	KUNIT_EXPECT_TRUE(test, guid_equal(&id, &ktl_guid));
	/* Registered twice: refused, the first registration standing. */
	ktl_register(test, NULL);
	KUNIT_EXPECT_EQ(test, TraceLoggingRegister(ktl_provider),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_NE(test, ktl_provider->reg_handle, 0ULL);
}

static void fields_test(struct kunit *test)
{
	static const u8 bin[3] = { 0xb0, 0xb1, 0xb2 };
	static const u16 arr[2] = { 0x1234, 0xfedc };
	static const u32 farr[2] = { 0x01020304, 0xa0b0c0d0 };
	static const u16 wstr[3] = { 'h', 'i', 0 };
	struct ktl_calls *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct ntk_session *k = ktl_start(test, "kunit-tl");
	u64 hex64 = 0x1122334455667788ULL;
	const void *ptr = &hex64;
	struct ktl_bufs *b = ktl_bufs(test);
	struct ktl_enc *meta = &b->meta, *data = &b->data;
	s32 i32 = -5;
	u8 u8v = 0xa5;

	KUNIT_ASSERT_NOT_NULL(test, c);
	ktl_register(test, c);
	KUNIT_ASSERT_EQ(test, ktl_enable(k->id, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER,
					 4, 0x10, 0), 0);
	KUNIT_EXPECT_EQ(test, c->enables, 1U);
	KUNIT_EXPECT_EQ(test, c->level, 4);
	KUNIT_EXPECT_EQ(test, c->any, 0x10ULL);
	KUNIT_EXPECT_TRUE(test, TraceLoggingProviderEnabled(ktl_provider, 4, 0x10));

	TraceLoggingWrite(ktl_provider, "Fields",
			  TraceLoggingLevel(4),
			  TraceLoggingKeyword(0x10),
			  TraceLoggingOpcode(2),
			  TraceLoggingEventTag(0x200000),
			  TraceLoggingUInt8(u8v, "u8"),
			  TraceLoggingInt32(i32, "i32"),
			  TraceLoggingHexUInt64(hex64, "hex64"),
			  TraceLoggingString("abc", "str"),
			  TraceLoggingGuid(ktl_guid, "guid"),
			  TraceLoggingBinary(bin, 3, "bin"),
			  TraceLoggingUInt16Array(arr, 2, "arr"),
			  TraceLoggingUInt32FixedArray(farr, 2, "farr"),
			  TraceLoggingWideString(wstr, "wstr"),
			  TraceLoggingHexUInt32(0xdeadbeef, "tagged", "described", 0x1234),
			  TraceLoggingBoolean(true, "flag"),
			  TraceLoggingCountedString("xyz", 2, "cnt"),
			  TraceLoggingStruct(2, "pair"),
			  TraceLoggingUInt8(1, "a"),
			  TraceLoggingUInt8(2, "b"),
			  TraceLoggingPid(4321, "pid"),
			  TraceLoggingPointer(ptr, "ptr"));

	meta_begin(meta);
	put8(meta, 0x01);		/* event tag 0x200000: bits 27-21 are 1 */
	put_sz(meta, "Fields");
	put_sz(meta, "u8");
	put8(meta, 4);			/* UINT8 */
	put_sz(meta, "i32");
	put8(meta, 7);			/* INT32 */
	put_sz(meta, "hex64");
	put8(meta, 21);		/* HEXINT64 */
	put_sz(meta, "str");
	put8(meta, 2);			/* ANSISTRING */
	put_sz(meta, "guid");
	put8(meta, 15);		/* GUID */
	put_sz(meta, "bin");
	put8(meta, 14);		/* BINARY */
	put_sz(meta, "arr");
	put8(meta, 6 | 0x40);		/* UINT16, variable count */
	put_sz(meta, "farr");
	put8(meta, 8 | 0x20);		/* UINT32, constant count ... */
	put_le(meta, 2, 2);		/* ... of 2 */
	put_sz(meta, "wstr");
	put8(meta, 1);			/* UNICODESTRING */
	put_sz(meta, "tagged");
	put8(meta, 20 | 0x80);		/* HEXINT32, OutType follows */
	put8(meta, 0 | 0x80);		/* no OutType, tags follow */
	/* 0x1234 in 28 bits, 7 at a time from the top: 0, 0, 0x24, 0x34. */
	put8(meta, 0x80);
	put8(meta, 0x80);
	put8(meta, 0xa4);
	put8(meta, 0x34);
	put_sz(meta, "flag");
	put8(meta, 4 | 0x80);		/* UINT8 */
	put8(meta, 3);			/* BOOLEAN */
	put_sz(meta, "cnt");
	put8(meta, 23);		/* COUNTEDANSISTRING */
	put_sz(meta, "pair");
	put8(meta, 24 | 0x80);		/* a struct ... */
	put8(meta, 2);			/* ... of the next 2 fields */
	put_sz(meta, "a");
	put8(meta, 4);
	put_sz(meta, "b");
	put8(meta, 4);
	put_sz(meta, "pid");
	put8(meta, 8 | 0x80);		/* UINT32 */
	put8(meta, 5);			/* PID */
	put_sz(meta, "ptr");
	put8(meta, sizeof(void *) == 8 ? 21 : 20);	/* HEXINT64 or HEXINT32 */
	meta_end(meta);

	data->n = 0;
	put8(data, 0xa5);
	put_le(data, (u32)-5, 4);
	put_le(data, 0x1122334455667788ULL, 8);
	put(data, "abc", 4);
	put(data, &ktl_guid, 16);
	put_le(data, 3, 2);
	put(data, bin, 3);
	put_le(data, 2, 2);		/* elements */
	put_le(data, 0x1234, 2);
	put_le(data, 0xfedc, 2);
	put_le(data, 0x01020304, 4);
	put_le(data, 0xa0b0c0d0, 4);
	put_le(data, 'h', 2);
	put_le(data, 'i', 2);
	put_le(data, 0, 2);
	put_le(data, 0xdeadbeef, 4);
	put8(data, 1);
	put_le(data, 2, 2);		/* bytes */
	put(data, "xy", 2);
	put8(data, 1);
	put8(data, 2);
	put_le(data, 4321, 4);
	put_le(data, (uintptr_t)ptr, sizeof(void *));

	after_header(b);
	expect_record(test, k, 4, 2, 0x10, &b->rest);

	/* The defaults: level 5 (too verbose for the session), so level 4 given. */
	TraceLoggingWrite(ktl_provider, "Plain", TraceLoggingLevel(4));
	meta_begin(meta);
	put8(meta, 0);			/* no tags */
	put_sz(meta, "Plain");
	meta_end(meta);
	data->n = 0;
	after_header(b);
	expect_record(test, k, 4, 0, 0, &b->rest);
}

/* Nothing written, no argument evaluated, when no session wants the event. */
static void disabled_test(struct kunit *test)
{
	struct ntk_session *k = ktl_start(test, "kunit-tl");
	struct ntk_record *recs;

	evaluated = 0;
	/* Not registered. */
	TraceLoggingWrite(ktl_provider, "Off", TraceLoggingUInt32(side_effect(), "v"));
	ktl_register(test, NULL);
	/* Registered, not enabled. */
	TraceLoggingWrite(ktl_provider, "Off", TraceLoggingUInt32(side_effect(), "v"));
	KUNIT_EXPECT_FALSE(test, TraceLoggingProviderEnabled(ktl_provider, 0, 0));
	KUNIT_ASSERT_EQ(test, ktl_enable(k->id, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER,
					 3, 0x0f, 0x03), 0);
	/* Too verbose; a keyword of none of Any's bits; one without all of All's. */
	TraceLoggingWrite(ktl_provider, "Off", TraceLoggingLevel(4),
			  TraceLoggingUInt32(side_effect(), "v"));
	TraceLoggingWrite(ktl_provider, "Off", TraceLoggingLevel(3), TraceLoggingKeyword(0x30),
			  TraceLoggingUInt32(side_effect(), "v"));
	TraceLoggingWrite(ktl_provider, "Off", TraceLoggingLevel(3), TraceLoggingKeyword(0x05),
			  TraceLoggingUInt32(side_effect(), "v"));
	KUNIT_EXPECT_EQ(test, evaluated, 0U);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 0U);

	/* Wanted: evaluated once, written once. */
	TraceLoggingWrite(ktl_provider, "On", TraceLoggingLevel(3), TraceLoggingKeyword(0x07),
			  TraceLoggingUInt32(side_effect(), "v"));
	KUNIT_EXPECT_EQ(test, evaluated, 1U);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 1U);

	/* Unregistered: the state cleared, nothing written, again a no-op. */
	TraceLoggingUnregister(ktl_provider);
	KUNIT_EXPECT_EQ(test, ktl_provider->reg_handle, 0ULL);
	KUNIT_EXPECT_FALSE(test, TraceLoggingProviderEnabled(ktl_provider, 0, 0));
	TraceLoggingWrite(ktl_provider, "Off", TraceLoggingLevel(3), TraceLoggingKeyword(0x07),
			  TraceLoggingUInt32(side_effect(), "v"));
	KUNIT_EXPECT_EQ(test, evaluated, 1U);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 0U);
	TraceLoggingUnregister(ktl_provider);
	KUNIT_EXPECT_EQ(test, TraceLoggingSetInformation(ktl_provider,
							 EventProviderBinaryTrackInfo, NULL, 0),
			NTTRACE_STATUS_INVALID_HANDLE);

	/* Registered again: the session's enable comes back through the callback. */
	ktl_register(test, NULL);
	KUNIT_EXPECT_TRUE(test, TraceLoggingProviderEnabled(ktl_provider, 3, 0x07));
	TraceLoggingWrite(ktl_provider, "On", TraceLoggingLevel(3), TraceLoggingKeyword(0x07),
			  TraceLoggingUInt32(side_effect(), "v"));
	KUNIT_EXPECT_EQ(test, evaluated, 2U);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 1U);
}

/*
 * Two sessions: the state is their union, and one session's DISABLE
 * leaves it (the other still wants events); the last one's clears it.
 */
static void two_sessions_test(struct kunit *test)
{
	struct ktl_calls *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct ntk_session *a = ktl_start(test, "kunit-tl-a");
	struct ntk_session *b = ktl_start(test, "kunit-tl-b");
	struct ntk_record *recs;

	KUNIT_ASSERT_NOT_NULL(test, c);
	ktl_register(test, c);
	KUNIT_ASSERT_EQ(test, ktl_enable(a->id, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER,
					 2, 0x01, 0), 0);
	KUNIT_ASSERT_EQ(test, ktl_enable(b->id, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER,
					 5, 0x02, 0), 0);
	KUNIT_EXPECT_EQ(test, c->enables, 2U);
	KUNIT_EXPECT_TRUE(test, TraceLoggingProviderEnabled(ktl_provider, 5, 0x02));
	KUNIT_EXPECT_TRUE(test, TraceLoggingProviderEnabled(ktl_provider, 2, 0x01));

	KUNIT_ASSERT_EQ(test, ktl_enable(b->id, NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER,
					 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, c->disables, 1U);
	KUNIT_EXPECT_TRUE(test, TraceLoggingProviderEnabled(ktl_provider, 2, 0x01));
	TraceLoggingWrite(ktl_provider, "ForA", TraceLoggingLevel(2), TraceLoggingKeyword(0x01));
	KUNIT_EXPECT_EQ(test, ntk_collect(test, a, &recs), 1U);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, b, &recs), 0U);
	/* Wider than a: tested true, written to no session. */
	TraceLoggingWrite(ktl_provider, "ForNone", TraceLoggingLevel(5),
			  TraceLoggingKeyword(0x02));
	KUNIT_EXPECT_EQ(test, ntk_collect(test, a, &recs), 0U);

	KUNIT_EXPECT_EQ(test, ntk_stop(a), 0);
	KUNIT_EXPECT_EQ(test, c->disables, 2U);
	KUNIT_EXPECT_FALSE(test, TraceLoggingProviderEnabled(ktl_provider, 0, 0));
}

/* The related activity ID's item comes first; both IDs are the header's and the item's. */
static void activity_test(struct kunit *test)
{
	static const guid_t act = GUID_INIT(0xac000001, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
	static const guid_t rel = GUID_INIT(0xac000002, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
	struct ntk_session *k = ktl_start(test, "kunit-tl");
	struct ktl_bufs *b = ktl_bufs(test);
	struct ntk_record *recs;

	ktl_register(test, NULL);
	KUNIT_ASSERT_EQ(test, ktl_enable(k->id, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER,
					 0, 0, 0), 0);
	TraceLoggingWriteActivity(ktl_provider, "Act", &act, &rel, TraceLoggingLevel(1));
	KUNIT_ASSERT_EQ(test, ntk_collect(test, k, &recs), 1U);
	KUNIT_EXPECT_MEMEQ(test, recs[0].data + offsetof(struct nttrace_event_header,
							 activity_id), &act, 16);
	meta_begin(&b->meta);
	put8(&b->meta, 0);
	put_sz(&b->meta, "Act");
	meta_end(&b->meta);
	provider_meta(&b->prov);
	put(&b->id, &rel, 16);
	put_item(&b->rest, NTTRACE_EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID, true, &b->id);
	put_item(&b->rest, NTTRACE_EVENT_HEADER_EXT_TYPE_PROV_TRAITS, true, &b->prov);
	put_item(&b->rest, NTTRACE_EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL, false, &b->meta);
	KUNIT_ASSERT_EQ(test, recs[0].size, NTTRACE_EVENT_HEADER_SIZE + b->rest.n);
	KUNIT_EXPECT_MEMEQ(test, recs[0].data + NTTRACE_EVENT_HEADER_SIZE, b->rest.b,
			   b->rest.n);
}

/* From atomic context (interrupts off): the test and the write do not sleep. */
static void atomic_test(struct kunit *test)
{
	struct ntk_session *k = ktl_start(test, "kunit-tl");
	struct ktl_bufs *b = ktl_bufs(test);
	unsigned long flags;
	u32 v = 0x600d;

	ktl_register(test, NULL);
	KUNIT_ASSERT_EQ(test, ktl_enable(k->id, NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER,
					 5, 0, 0), 0);
	local_irq_save(flags);
	TraceLoggingWrite(ktl_provider, "Irq", TraceLoggingUInt32(v, "v"));
	local_irq_restore(flags);
	meta_begin(&b->meta);
	put8(&b->meta, 0);
	put_sz(&b->meta, "Irq");
	put_sz(&b->meta, "v");
	put8(&b->meta, 8);
	meta_end(&b->meta);
	put_le(&b->data, 0x600d, 4);
	after_header(b);
	/* The defaults: level 5, opcode 0, keyword 0. */
	expect_record(test, k, 5, 0, 0, &b->rest);
}

static struct kunit_case nttrace_tracelogging_cases[] = {
	KUNIT_CASE(provider_test),
	KUNIT_CASE(fields_test),
	KUNIT_CASE(disabled_test),
	KUNIT_CASE(two_sessions_test),
	KUNIT_CASE(activity_test),
	KUNIT_CASE(atomic_test),
	{}
};

static struct kunit_suite nttrace_tracelogging_suite = {
	.name = "nttrace_tracelogging",
	.test_cases = nttrace_tracelogging_cases,
};

kunit_test_suite(nttrace_tracelogging_suite);
