// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite nttrace_eventwrite: NTTRACE_ETW_NT_FLAGS_TRACE_EVENT (module/
 * eventwrite.c) through the front door (nttrace_trace_event) for 64-bit,
 * compat and WOW64 callers, and nt_event_write_kernel() for kernel-mode
 * providers, into real sessions whose records are read back from the
 * rings and compared byte for byte with this file's own encoder, written
 * from the offsets of EVENT_HEADER (evntcons.h) and of the record around
 * it, not from the uapi structs: the level/keyword rule per
 * session, two sessions with different levels and keywords, the filter,
 * every status code, the secure and paged-memory rules, the staged copy a
 * not-present page takes, and kernel registrations (callbacks, the enabled
 * check, any context).
 */
#include <kunit/test.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "eventwrite.h"
#include "kunit_util.h"
#include "provider.h"

#define BUF_KB		16
#define AREA_SIZE	(8 * PAGE_SIZE)
#define DESC_OFF	0x100		/* the descriptor array, in the area */
#define DATA_OFF	(4 * PAGE_SIZE)	/* what descriptors point at */
#define LOW_BASE	0x38000000UL	/* user memory a 32-bit pointer reaches */

/* EVENT_HEADER as evntcons.h lays it out, and the related-activity item's size. */
#define EH_SIZE		0x50
#define ITEM_SIZE	24
#define HF_EXT		0x0001
#define HF_STRING	0x0004
#define HF_NO_CPU	0x0010
#define HF_32		0x0020
#define HF_64		0x0040
/*
 * The test's own bits of struct ew.wflags, never sent as such: the
 * related activity's byte (+0x50) and the header's STRING_ONLY flag. The
 * rest of wflags is sent as the block's flags (+0x70).
 */
#define WF_RELATED	0x40000000
#define WF_STRING	0x20000000
#define WF_FILTER64	0x00020000	/* the block's: the 64-bit filter */
#define EV_PROPERTY	0x0005		/* EventProperty, written as given */
#define NO_DATA		(~0ULL)		/* struct ew.data: a NULL array */

enum caller { NATIVE, COMPAT, WOW64, KERNEL, NCALLERS };
static const char *const caller_names[] = { "64-bit", "compat", "wow64", "kernel" };

static const u8 prov_guid[16] = {
	0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8,
	0xe9, 0xea, 0xeb, 0xec, 0xed, 0xee, 0xef, 0xf0,
};
static const u8 other_guid[16] = { 0xe1, 0xe2, 0x77 };
static const u8 act[16] = {
	0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
	0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf, 0xb0,
};
static const u8 rel[16] = {
	0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8,
	0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xd0,
};

struct ew_ctx {
	struct nttrace_enable_info *info;	/* before the sessions: outlives them */
	struct nt_prov_file *pf;
	u64 handle;		/* an EVENT registration of prov_guid */
	u64 classic;		/* a CLASSIC registration of prov_guid */
	struct nt_reg *kreg;	/* a kernel registration of prov_guid */
	unsigned long base[2];	/* AREA_SIZE bytes: anywhere; below 4 GiB */
	unsigned long none;	/* a PROT_NONE page */
	u8 *kmem;		/* AREA_SIZE bytes: the kernel-mode caller's */
	/* The kernel registration's callbacks. */
	unsigned int calls;
	u32 last_control, last_id;
	u8 last_level;
	u64 last_any, last_all;
};

static u8 pattern(size_t i)
{
	return (u8)(i * 29 + i / 251 + 3);
}

static u64 area(struct ew_ctx *ctx, enum caller who)
{
	if (who == KERNEL)
		return (uintptr_t)ctx->kmem;
	return ctx->base[who != NATIVE];
}

static void poke(struct kunit *test, enum caller who, u64 at, const void *src, size_t len)
{
	if (who == KERNEL)
		memcpy((void *)(uintptr_t)at, src, len);
	else
		KUNIT_ASSERT_EQ(test, copy_to_user(u64_to_user_ptr(at), src, len), 0);
}

static void pf_release(void *pf)
{
	nt_prov_file_release(pf);
	kfree(pf);
}

static void kreg_release(void *r)
{
	nt_provider_unregister_kernel(r);
}

static void kcb(void *p, u32 control, u8 level, u64 any, u64 all, u32 logger_id)
{
	struct ew_ctx *ctx = p;

	might_sleep();		/* process context, as promised */
	ctx->calls++;
	ctx->last_control = control;
	ctx->last_level = level;
	ctx->last_any = any;
	ctx->last_all = all;
	ctx->last_id = logger_id;
}

static int reg(struct nt_prov_file *pf, const u8 *guid, u32 type,
	       struct nttrace_enable_info *info, u64 *handle)
{
	struct nttrace_register r = { .size = sizeof(r), .type = type };
	int ret;

	memcpy(r.guid, guid, 16);
	ret = nt_provider_register_kinfo(pf, &r, info);
	*handle = r.handle;
	return ret;
}

static int ew_init(struct kunit *test)
{
	struct ew_ctx *ctx;
	unsigned int b;
	size_t i;
	u8 *buf;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	test->priv = ctx;
	ctx->info = kunit_kzalloc(test, 2 * sizeof(*ctx->info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->info);
	ctx->pf = kzalloc(sizeof(*ctx->pf), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->pf);
	nt_prov_file_init(ctx->pf);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, pf_release, ctx->pf), 0);
	KUNIT_ASSERT_EQ(test, reg(ctx->pf, prov_guid, NTTRACE_REG_EVENT, &ctx->info[0],
				  &ctx->handle), 0);
	KUNIT_ASSERT_EQ(test, reg(ctx->pf, prov_guid, NTTRACE_REG_CLASSIC, &ctx->info[1],
				  &ctx->classic), 0);
	ctx->kreg = nt_provider_register_kernel(prov_guid, kcb, ctx);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ctx->kreg));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kreg_release, ctx->kreg), 0);

	buf = kunit_kzalloc(test, AREA_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < AREA_SIZE - DATA_OFF; i++)
		buf[DATA_OFF + i] = pattern(i);
	ctx->base[0] = ntk_user(test, 0, AREA_SIZE, PROT_READ | PROT_WRITE);
	ctx->base[1] = ntk_user(test, LOW_BASE, AREA_SIZE, PROT_READ | PROT_WRITE);
	for (b = 0; b < 2; b++)
		KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)ctx->base[b], buf,
						   AREA_SIZE), 0);
	ctx->kmem = buf;
	ctx->none = ntk_user(test, 0, PAGE_SIZE, PROT_NONE);
	return 0;
}

static struct ntk_session *start(struct kunit *test, const char *name, u32 mode,
				 u32 buf_kb, u32 nbuf)
{
	struct nttrace_logger_info info;

	ntk_info(&info, name);
	info.buffer_size_kb = buf_kb;
	info.max_buffers = nbuf;
	info.log_file_mode = mode;
	return ntk_start(test, &info);
}

static int enable(u32 id, const u8 *guid, u32 control, u32 level, u64 any, u64 all)
{
	struct nttrace_enable e = {
		.size = sizeof(e), .logger_id = id, .control = control,
		.level = level, .match_any_keyword = any, .match_all_keyword = all,
	};

	memcpy(e.guid, guid, 16);
	return nt_provider_enable(&e);
}

/* One data descriptor: where (from the data area, or an address) and how much. */
struct item {
	u64 ptr;		/* 0: the data area + @off */
	u32 off, size;
};

/* One call as a test describes it. */
struct ew {
	enum caller who;
	u8 level;
	u64 keyword;
	u32 wflags;
	u64 filter;
	bool wide;		/* the filter only in ProcessorTime (FILTER64) */
	unsigned int n;		/* items */
	const struct item *items;
	u32 count;		/* DataCount; 0: @n */
	u64 data;		/* the array's address; 0: the area's */
	u64 handle;		/* 0: ctx->handle */
	u32 field_size;		/* 0: 0x78 */
};

static u64 item_ptr(struct ew_ctx *ctx, const struct ew *e, const struct item *it)
{
	return it->ptr ? it->ptr : area(ctx, e->who) + DATA_OFF + it->off;
}

/*
 * The Fields, byte by byte, as Windows' 0x78-byte block is laid out: an
 * EVENT_HEADER whose members the kernel owns hold junk it must not copy
 * (the ProcessorTime too, unless the 64-bit filter is asked for), then the
 * block's own members.
 */
static void encode_fields(struct ew_ctx *ctx, const struct ew *e, u8 *p)
{
	u32 count = e->count ? e->count : e->n;
	u64 data = e->data ? e->data : count ? area(ctx, e->who) + DESC_OFF : 0;
	u32 flags = e->wflags & ~(WF_RELATED | WF_STRING);

	memset(p, 0xEE, EH_SIZE);		/* the kernel's members: junk */
	memset(p + EH_SIZE, 0, NTTRACE_EVENT_WRITE_USER_SIZE - EH_SIZE);
	/* Flags: the kernel's own bits are ignored, STRING_ONLY is kept. */
	ntk_put_le(p + 4, 0x0301 | ((e->wflags & WF_STRING) ? HF_STRING : 0), 2);
	ntk_put_le(p + 6, EV_PROPERTY, 2);
	ntk_put_le(p + 0x28, 0x1234, 2);	/* Id */
	p[0x2a] = 3;				/* Version */
	p[0x2b] = 0x10;				/* Channel */
	p[0x2c] = e->level;
	p[0x2d] = 0x0b;				/* Opcode */
	ntk_put_le(p + 0x2e, 0x4321, 2);	/* Task */
	ntk_put_le(p + 0x30, e->keyword, 8);
	memcpy(p + 0x40, act, 16);
	p[0x50] = (e->wflags & WF_RELATED) ? 1 : 0;
	p[0x51] = 0xEE;				/* padding: not looked at */
	ntk_put_le(p + 0x52, e->wide ? 0 : (u16)e->filter, 2);
	if (e->wide || e->filter >> 16) {
		flags |= WF_FILTER64;
		ntk_put_le(p + 0x38, e->filter, 8);
	}
	ntk_put_le(p + 0x54, count, 4);
	ntk_put_le(p + 0x58, data == NO_DATA ? 0 : data, 8);
	memcpy(p + 0x60, rel, 16);
	ntk_put_le(p + 0x70, flags, 4);
	ntk_put_le(p + 0x74, 0xEEEEEEEE, 4);	/* padding: not looked at */
}

static u32 send(struct kunit *test, const struct ew *e)
{
	struct ew_ctx *ctx = test->priv;
	u8 fields[NTTRACE_EVENT_WRITE_USER_SIZE], desc[16];
	u64 at = area(ctx, e->who);
	struct nttrace_call call = {
		.trace_handle = e->handle ? e->handle : ctx->handle,
		.flags = NTTRACE_ETW_NT_FLAGS_TRACE_EVENT |
			 (e->who == WOW64 ? NTTRACE_ETW_NT_FLAGS_WOW64_CALL : 0),
		.field_size = e->field_size ? e->field_size : NTTRACE_EVENT_WRITE_USER_SIZE,
		.fields = at,
		.compat = e->who == COMPAT,
	};
	unsigned int i;

	encode_fields(ctx, e, fields);
	poke(test, e->who, at, fields, sizeof(fields));
	for (i = 0; i < e->n; i++) {
		ntk_put_le(desc, item_ptr(ctx, e, &e->items[i]), 8);
		ntk_put_le(desc + 8, e->items[i].size, 4);
		ntk_put_le(desc + 12, 0xD7D7D7D7, 4);	/* Reserved: ignored */
		poke(test, e->who, at + DESC_OFF + 16 * i, desc, 16);
	}
	if (e->who == KERNEL)
		return nt_event_write_kernel(ctx->kreg, (void *)ctx->kmem);
	return nttrace_trace_event(&call);
}

static u64 now(void)
{
	return nt_clock_now(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
}

/* The data @e's items point at, gathered: @out, returns its length. */
static u32 gather(struct kunit *test, const struct ew *e, u8 *out, u32 room)
{
	u32 len = 0, i, j;

	for (i = 0; i < e->n; i++) {
		KUNIT_ASSERT_FALSE(test, e->items[i].ptr);
		KUNIT_ASSERT_LE(test, len + e->items[i].size, room);
		for (j = 0; j < e->items[i].size; j++)
			out[len++] = pattern(e->items[i].off + j);
	}
	return len;
}

/* The record @e must give in session @k, the data as gather() has it. */
static void check_record(struct kunit *test, const struct ntk_record *r,
			 struct ntk_session *k, const struct ew *e,
			 u64 before, u64 after)
{
	bool ptr32 = e->who == COMPAT || e->who == WOW64;
	bool related = e->wflags & WF_RELATED;
	u32 total, i, off, len, flags;
	u8 *want, *data;
	u64 ts;

	data = kunit_kzalloc(test, 0x10000, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	len = gather(test, e, data, 0x10000);
	total = EH_SIZE + (related ? ITEM_SIZE : 0) + len;
	KUNIT_ASSERT_EQ(test, r->size, total);
	want = kunit_kzalloc(test, ALIGN(total, 8), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	ntk_put_le(want, total, 2);
	want[2] = ptr32 ? 0x12 : 0x13;
	want[3] = 0xC0;
	flags = HF_NO_CPU | (ptr32 ? HF_32 : HF_64);
	if (related)
		flags |= HF_EXT;
	if (e->wflags & WF_STRING)
		flags |= HF_STRING;
	ntk_put_le(want + 4, flags, 2);
	ntk_put_le(want + 6, EV_PROPERTY, 2);
	ntk_put_le(want + 8, task_pid_nr_ns(current, k->s->pid_ns), 4);
	ntk_put_le(want + 12, task_tgid_nr_ns(current, k->s->pid_ns), 4);
	ts = ntk_get_le(r->data + 0x10, 8);
	KUNIT_EXPECT_GE(test, ts, before);
	KUNIT_EXPECT_LE(test, ts, after);
	ntk_put_le(want + 0x10, ts, 8);
	memcpy(want + 0x18, prov_guid, 16);
	ntk_put_le(want + 0x28, 0x1234, 2);
	want[0x2a] = 3;
	want[0x2b] = 0x10;
	want[0x2c] = e->level;
	want[0x2d] = 0x0b;
	ntk_put_le(want + 0x2e, 0x4321, 2);
	ntk_put_le(want + 0x30, e->keyword, 8);
	/* ProcessorTime 0. */
	memcpy(want + 0x40, act, 16);
	off = EH_SIZE;
	if (related) {
		ntk_put_le(want + off, ITEM_SIZE, 2);
		ntk_put_le(want + off + 2, 1, 2);	/* RELATED_ACTIVITYID */
		ntk_put_le(want + off + 4, 0, 2);	/* Linkage: the last item */
		ntk_put_le(want + off + 6, 16, 2);
		memcpy(want + off + 8, rel, 16);
		off += ITEM_SIZE;
	}
	memcpy(want + off, data, len);
	for (i = 0; i < ALIGN(total, 8); i++)
		if (r->data[i] != want[i]) {
			KUNIT_FAIL(test, "%s: byte %#x is %#x, want %#x",
				   caller_names[e->who], i, r->data[i], want[i]);
			break;
		}
}

/*
 * Send @e; each session of @ks (@n of them) must then hold exactly one
 * record when its bit is in @wanted, else none. Returns the status.
 */
static u32 send_check(struct kunit *test, const struct ew *e,
		      struct ntk_session **ks, unsigned int n, unsigned int wanted)
{
	struct ntk_record *recs;
	u64 before = now(), after;
	unsigned int got, i;
	u32 status;

	status = send(test, e);
	after = now();
	for (i = 0; i < n; i++) {
		unsigned int want = (wanted >> i) & 1;

		got = ntk_collect(test, ks[i], &recs);
		KUNIT_EXPECT_EQ_MSG(test, got, want, "%s: session %u, status %#x",
				    caller_names[e->who], i, status);
		if (got == 1 && want)
			check_record(test, recs, ks[i], e, before, after);
	}
	return status;
}

static const struct item three[] = {
	{ .off = 5, .size = 7 }, { .off = 100, .size = 0 }, { .off = 300, .size = 21 },
};

/* ---- Records ---- */

static void record_test(struct kunit *test)
{
	struct ntk_session *k = start(test, "kew-record", 0, BUF_KB, 8);
	static const struct item big[] = { { .off = 0, .size = 3000 }, { .off = 7, .size = 1 } };
	enum caller who;

	KUNIT_ASSERT_EQ(test, enable(k->id, prov_guid, 1, 0, ~0ULL, 0), 0);
	for (who = NATIVE; who < NCALLERS; who++) {
		struct ew e = { .who = who, .level = 4, .keyword = 0x8000000000000001ULL,
				.n = ARRAY_SIZE(three), .items = three };

		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 1), NTTRACE_STATUS_SUCCESS);
		e.wflags = WF_RELATED;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 1), NTTRACE_STATUS_SUCCESS);
		e.wflags = WF_STRING;
		e.n = 1;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 1), NTTRACE_STATUS_SUCCESS);
		e.wflags = WF_STRING | WF_RELATED;
		e.n = 0;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 1), NTTRACE_STATUS_SUCCESS);
		e.wflags = 0;
		e.items = big;
		e.n = 2;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 1), NTTRACE_STATUS_SUCCESS);
	}
}

/* ---- The level/keyword rule, per session ---- */

static struct nt_reg *ctx_kreg(struct kunit *test)
{
	return ((struct ew_ctx *)test->priv)->kreg;
}

struct rule_case {
	u32 level;
	u64 any, all;
	u8 ev_level;
	u64 keyword;
	bool want;
};

/* Written from the rule's text, not from the macro. */
static const struct rule_case rules[] = {
	{ 0, 0, 0, 0, 0, true },		/* level 0: every level */
	{ 0, 0, 0, 255, 0, true },
	{ 3, 0, 0, 3, 0, true },		/* at the level */
	{ 3, 0, 0, 4, 0, false },		/* above it */
	{ 3, 0, 0, 0, 0, true },		/* event level 0: always */
	{ 3, 0, 0, 0, 0x10, true },		/* any 0: every keyword, as Windows */
	{ 3, 0, 0x03, 0, 0x10, true },		/* ... all then unused */
	{ 5, 0x0F, 0, 2, 0, true },		/* keyword 0: every session */
	{ 5, 0x0F, 0, 2, 0x04, true },		/* some of any */
	{ 5, 0x0F, 0, 2, 0x30, false },		/* none of any */
	{ 5, 0x0F, 0x03, 2, 0x07, true },	/* all of all */
	{ 5, 0x0F, 0x03, 2, 0x05, false },	/* not all of all */
	{ 5, 0x0F, 0x03, 6, 0x07, false },	/* keywords fine, level not */
	{ 0, ~0ULL, 0, 200, 0x8000000000000000ULL, true },
	{ 255, 0x1, 0x1, 255, 0x1, true },
};

static void rule_test(struct kunit *test)
{
	struct ntk_session *k = start(test, "kew-rule", 0, BUF_KB, 8);
	unsigned int i;
	enum caller who;

	for (i = 0; i < ARRAY_SIZE(rules); i++) {
		const struct rule_case *c = &rules[i];

		KUNIT_ASSERT_EQ(test, enable(k->id, prov_guid, 1, c->level, c->any, c->all), 0);
		for (who = NATIVE; who < NCALLERS; who += 3) {
			struct ew e = { .who = who, .level = c->ev_level, .keyword = c->keyword,
					.n = 1, .items = three };

			KUNIT_EXPECT_EQ_MSG(test, send_check(test, &e, &k, 1, c->want),
					    NTTRACE_STATUS_SUCCESS, "case %u", i);
			KUNIT_EXPECT_EQ_MSG(test, nt_provider_kernel_enabled(ctx_kreg(test),
									     c->ev_level,
									     c->keyword),
					    c->want, "case %u", i);
		}
	}
	/* Disabled: nothing, and SUCCESS. */
	KUNIT_ASSERT_EQ(test, enable(k->id, prov_guid, 0, 0, 0, 0), 0);
	{
		struct ew e = { .level = 1, .n = 1, .items = three };

		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0), NTTRACE_STATUS_SUCCESS);
		KUNIT_EXPECT_FALSE(test, nt_provider_kernel_enabled(ctx_kreg(test), 0, 0));
	}
}

/* ---- Two sessions, each with its own level and keywords ---- */

static void two_sessions_test(struct kunit *test)
{
	struct ntk_session *ks[2];
	static const struct {
		u8 level;
		u64 keyword;
		unsigned int want;	/* bit 0: A, bit 1: B */
	} evs[] = {
		{ 1, 0, 3 }, { 2, 0x1, 1 }, { 2, 0x2, 2 }, { 3, 0x1, 0 },
		{ 3, 0x6, 2 }, { 5, 0x6, 2 }, { 6, 0x6, 0 }, { 2, 0x4, 0 },
		{ 1, 0x3, 3 }, { 0, 0, 3 },
	};
	unsigned int i;
	enum caller who;
	u32 id;

	ks[0] = start(test, "kew-two-a", 0, BUF_KB, 8);
	ks[1] = start(test, "kew-two-b", 0, BUF_KB, 8);
	/* A: level 2, any 0x1; B: level 5, any 0x6, all 0x2. */
	KUNIT_ASSERT_EQ(test, enable(ks[0]->id, prov_guid, 1, 2, 0x1, 0), 0);
	KUNIT_ASSERT_EQ(test, enable(ks[1]->id, prov_guid, 1, 5, 0x6, 0x2), 0);
	/* Another GUID enabled elsewhere changes nothing. */
	KUNIT_ASSERT_EQ(test, enable(ks[0]->id, other_guid, 1, 0, 0, 0), 0);
	for (who = NATIVE; who < NCALLERS; who++)
		for (i = 0; i < ARRAY_SIZE(evs); i++) {
			struct ew e = { .who = who, .level = evs[i].level,
					.keyword = evs[i].keyword,
					.n = ARRAY_SIZE(three), .items = three };

			KUNIT_EXPECT_EQ_MSG(test, send_check(test, &e, ks, 2, evs[i].want),
					    NTTRACE_STATUS_SUCCESS, "event %u", i);
			/* The filter leaves a session out. */
			e.filter = 1ULL << (ks[0]->id - 1);
			KUNIT_EXPECT_EQ(test, send_check(test, &e, ks, 2, evs[i].want & 2),
					NTTRACE_STATUS_SUCCESS);
			/* The same, as 64 bits in ProcessorTime only. */
			e.wide = true;
			KUNIT_EXPECT_EQ(test, send_check(test, &e, ks, 2, evs[i].want & 2),
					NTTRACE_STATUS_SUCCESS);
			e.wide = false;
			e.filter = ~0ULL;
			KUNIT_EXPECT_EQ(test, send_check(test, &e, ks, 2, 0),
					NTTRACE_STATUS_SUCCESS);
		}
	/* B stops: A alone. */
	id = ks[1]->id;
	KUNIT_EXPECT_EQ(test, ntk_stop(ks[1]), 0);
	{
		struct ew e = { .level = 1, .n = 1, .items = three };

		KUNIT_EXPECT_EQ(test, send_check(test, &e, ks, 1, 1), NTTRACE_STATUS_SUCCESS);
	}
	KUNIT_EXPECT_NE(test, id, 0U);
}

/* ---- Status codes ---- */

/* @n items of @size bytes each, one after the other. */
static struct item *many_items(struct kunit *test, unsigned int n, u32 size)
{
	struct item *items = kunit_kcalloc(test, n, sizeof(*items), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, items);
	for (i = 0; i < n; i++)
		items[i] = (struct item){ .off = size * i, .size = size };
	return items;
}

static void status_test(struct kunit *test)
{
	struct ew_ctx *ctx = test->priv;
	struct ntk_session *k = start(test, "kew-status", 0, BUF_KB, 8);
	static const u8 kbytes[4] = { 1, 2, 3, 4 };
	struct item *items = many_items(test, NTTRACE_MAX_EVENT_DATA_DESCRIPTORS + 1, 1);
	struct nttrace_logger_info info;
	struct ntk_record *recs;
	unsigned long gone;
	enum caller who;

	gone = ntk_user(test, 0, PAGE_SIZE, PROT_READ | PROT_WRITE);
	KUNIT_ASSERT_EQ(test, vm_munmap(gone, PAGE_SIZE), 0);

	/* Nobody wants it: SUCCESS, nothing read (a bad array is not seen). */
	{
		struct ew e = { .level = 1, .n = 1, .items = three, .data = gone };

		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0), NTTRACE_STATUS_SUCCESS);
	}
	KUNIT_ASSERT_EQ(test, enable(k->id, prov_guid, 1, 0, 0, 0), 0);
	for (who = NATIVE; who < NCALLERS; who++) {
		struct ew e = { .who = who, .level = 1, .n = 3, .items = three };
		u64 d = area(ctx, who) + DATA_OFF;
		struct item bad[3] = { { .off = 0, .size = 4 }, { .size = 4 },
				       { .off = 9, .size = 4 } };

		if (who != KERNEL) {
			/* FieldSize: only 0x78 (not the old 0x48). */
			e.field_size = 0x48;
			KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
					NTTRACE_STATUS_INVALID_PARAMETER);
			e.field_size = 0x80;
			KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
					NTTRACE_STATUS_INVALID_PARAMETER);
			e.field_size = 0;
			/* Handles: unknown, 0, huge, a classic registration's. */
			e.handle = 0xFFFFFF;
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_HANDLE);
			e.handle = 1ULL << 40 | ctx->handle;
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_HANDLE);
			e.handle = ctx->classic;
			KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
					NTTRACE_STATUS_INVALID_HANDLE);
			e.handle = 0;
		}
		/* Unknown flags. */
		e.wflags = 0x4;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_INVALID_PARAMETER);
		e.wflags = 0x80000000 | WF_RELATED;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_INVALID_PARAMETER);
		/* Windows' EVENT_WRITE_FLAG_NO_FAULTING and _INPRIVATE: taken. */
		e.wflags = NTTRACE_EVENT_WRITE_FLAG_NO_FAULTING | NTTRACE_EVENT_WRITE_FLAG_INPRIVATE;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 1), NTTRACE_STATUS_SUCCESS);
		e.wflags = 0;
		/* Count and array: both 0 or both not. */
		e.count = 0;
		e.n = 0;
		e.data = area(ctx, who) + DESC_OFF;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_INVALID_PARAMETER);
		e.n = 1;
		e.data = NO_DATA;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_INVALID_PARAMETER);
		e.data = 0;
		e.n = 3;
		/* Descriptors: 128 fine, 129 not. */
		e.items = items;
		e.n = NTTRACE_MAX_EVENT_DATA_DESCRIPTORS;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 1), NTTRACE_STATUS_SUCCESS);
		e.n = NTTRACE_MAX_EVENT_DATA_DESCRIPTORS + 1;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_INVALID_PARAMETER);
		e.n = 1;
		e.count = 0xFFFFFFFF;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_INVALID_PARAMETER);
		e.count = 0;
		/* The array unreadable. */
		e.data = who == KERNEL ? 0x40 : gone;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_ACCESS_VIOLATION);
		e.data = who == KERNEL ? ctx->base[0] : ctx->none;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_ACCESS_VIOLATION);
		e.data = 0;
		/* A middle item unreadable: nothing written. */
		e.items = bad;
		e.n = 3;
		bad[1].ptr = who == KERNEL ? 0x10 : ctx->none;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_ACCESS_VIOLATION);
		bad[1].ptr = who == KERNEL ? ctx->base[0] : gone + 8;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_ACCESS_VIOLATION);
		if (who != KERNEL) {
			bad[1].ptr = (uintptr_t)kbytes;	/* a kernel address */
			KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
					NTTRACE_STATUS_ACCESS_VIOLATION);
		}
		/* Sizes: past 16 bits, past 32 bits, not a buffer. */
		bad[1].ptr = d;
		bad[1].size = 0x10000 - EH_SIZE - 8;	/* 0x10000 in all */
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_INTEGER_OVERFLOW);
		/* One descriptor over 0xFFFF: the event dropped, 0x80000005. */
		bad[0].size = 0xFFFFFFFF;
		bad[1].size = 0xFFFFFFFF;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_BUFFER_OVERFLOW);
		bad[0].size = 4;
		bad[1].size = 0x10000;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_BUFFER_OVERFLOW);
		/* Three of 0x8000: each fits 16 bits, the sum does not. */
		bad[0].size = 0x8000;
		bad[1].size = 0x8000;
		bad[2].size = 0x8000;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_INTEGER_OVERFLOW);
		bad[2].size = 4;
		bad[0].size = 4;
		bad[1].size = 0xFFFF - EH_SIZE - 8;	/* 0xFFFF: no buffer holds it */
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_BUFFER_OVERFLOW);
		bad[1].size = BUF_KB * 1024;
		e.wflags = WF_RELATED;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_BUFFER_OVERFLOW);
	}
	/* A kernel-mode NtTraceEvent of this type has no process handle. */
	{
		u8 fields[NTTRACE_EVENT_WRITE_USER_SIZE];
		struct ew e = { .who = KERNEL, .level = 1 };
		struct nttrace_call call = {
			.trace_handle = ctx->handle, .flags = NTTRACE_ETW_NT_FLAGS_TRACE_EVENT,
			.field_size = NTTRACE_EVENT_WRITE_USER_SIZE, .fields = (uintptr_t)fields,
			.kernel_mode = true,
		};

		encode_fields(ctx, &e, fields);
		KUNIT_EXPECT_EQ(test, nttrace_trace_event(&call), NTTRACE_STATUS_INVALID_HANDLE);
	}
	/* Unregistered: the handle is gone. */
	{
		struct ew e = { .level = 1 };

		KUNIT_EXPECT_EQ(test, nt_provider_unregister(ctx->pf, ctx->handle), 0);
		KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 0),
				NTTRACE_STATUS_INVALID_HANDLE);
	}
	KUNIT_EXPECT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, k->id, &info), 0);
	KUNIT_EXPECT_EQ(test, info.events_lost, 0U);
	ntk_collect(test, k, &recs);
}

/* The ring full: NTTRACE_STATUS_NO_MEMORY, the event counted lost. */
static void full_test(struct kunit *test)
{
	struct ntk_session *k = start(test, "kew-full", 0, 4, 2);
	static const struct item one[] = { { .off = 0, .size = 3000 } };
	struct ew e = { .level = 1, .n = 1, .items = one };
	struct nttrace_logger_info info;
	struct ntk_record *recs;
	unsigned int i, ok = 0;
	u32 status = 0;

	KUNIT_ASSERT_EQ(test, enable(k->id, prov_guid, 1, 0, 0, 0), 0);
	/* Stay on one CPU: one ring fills. */
	migrate_disable();
	for (i = 0; i < 64; i++) {
		status = send(test, &e);
		if (status != NTTRACE_STATUS_SUCCESS)
			break;
		ok++;
	}
	migrate_enable();
	KUNIT_EXPECT_EQ(test, status, NTTRACE_STATUS_NO_MEMORY);
	KUNIT_EXPECT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, k->id, &info), 0);
	KUNIT_EXPECT_EQ(test, info.events_lost, 1U);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), ok);
}

/* ---- Secure and paged-memory sessions ---- */

static const struct cred *become_stranger(struct kunit *test, bool perfmon)
{
	struct cred *c = prepare_creds();

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->uid = c->euid = c->suid = c->fsuid = KUIDT_INIT(65534);
	c->gid = c->egid = c->sgid = c->fsgid = KGIDT_INIT(65534);
	cap_clear(c->cap_effective);
	cap_clear(c->cap_permitted);
	if (perfmon)
		cap_raise(c->cap_effective, CAP_PERFMON);
	return override_creds(c);
}

static void become_self(const struct cred *old)
{
	const struct cred *c = current_cred();

	revert_creds(old);
	put_cred(c);
}

static void secure_paged_test(struct kunit *test)
{
	struct ntk_session *ks[3];
	const struct cred *old;
	enum caller who;

	ks[0] = start(test, "kew-plain", 0, BUF_KB, 8);
	ks[1] = start(test, "kew-secure", NTTRACE_EVENT_TRACE_SECURE_MODE, BUF_KB, 8);
	ks[2] = start(test, "kew-paged", NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY, BUF_KB, 8);
	KUNIT_ASSERT_EQ(test, enable(ks[0]->id, prov_guid, 1, 0, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, enable(ks[1]->id, prov_guid, 1, 0, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, enable(ks[2]->id, prov_guid, 1, 0, 0, 0), 0);
	for (who = NATIVE; who < NCALLERS; who++) {
		struct ew e = { .who = who, .level = 1, .n = 3, .items = three };
		/* The owner: all three; kernel-mode: not the paged one. */
		u32 want = who == KERNEL ? NTTRACE_STATUS_NOT_SUPPORTED : NTTRACE_STATUS_SUCCESS;

		KUNIT_EXPECT_EQ_MSG(test, send_check(test, &e, ks, 3, who == KERNEL ? 3 : 7),
				    want, "%s owner", caller_names[who]);
	}
	/* A stranger: the secure session refuses it, the others take it. */
	old = become_stranger(test, false);
	KUNIT_EXPECT_FALSE(test, perfmon_capable());
	for (who = NATIVE; who < NCALLERS; who++) {
		struct ew e = { .who = who, .level = 1, .n = 3, .items = three };
		/* The lowest refusing logger ID's status. */
		u32 want = who == KERNEL ? NTTRACE_STATUS_NOT_SUPPORTED :
					   NTTRACE_STATUS_ACCESS_DENIED;

		KUNIT_EXPECT_EQ_MSG(test, send_check(test, &e, ks, 3, who == KERNEL ? 3 : 5),
				    want, "%s stranger", caller_names[who]);
	}
	become_self(old);
	/* A privileged stranger: all three. */
	old = become_stranger(test, true);
	{
		struct ew e = { .level = 1, .n = 3, .items = three };

		KUNIT_EXPECT_EQ(test, send_check(test, &e, ks, 3, 7), NTTRACE_STATUS_SUCCESS);
	}
	become_self(old);
}

/* ---- The staged copy ---- */

static bool present(unsigned long addr)
{
	u8 b;

	return !copy_from_user_nofault(&b, (const void __user *)addr, 1);
}

/*
 * Data in pages not yet present cannot be copied with interrupts off: the
 * reservation is given back and the bytes are read again with faults
 * allowed. Both sessions get the record the direct copy gives.
 */
static void staged_test(struct kunit *test)
{
	struct ew_ctx *ctx = test->priv;
	struct ntk_session *ks[2];
	struct ntk_record *recs;
	unsigned int who, i;
	u8 got[40];

	ks[0] = start(test, "kew-staged-a", 0, BUF_KB, 8);
	ks[1] = start(test, "kew-staged-b", 0, BUF_KB, 8);
	KUNIT_ASSERT_EQ(test, enable(ks[0]->id, prov_guid, 1, 0, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, enable(ks[1]->id, prov_guid, 1, 0, 0, 0), 0);
	for (who = NATIVE; who <= COMPAT; who++) {
		unsigned long anon = ntk_user(test, who == COMPAT ? LOW_BASE + AREA_SIZE : 0,
					      PAGE_SIZE, PROT_READ | PROT_WRITE);
		struct item items[3] = { { .off = 1, .size = 3 },
					 { .ptr = anon + 9, .size = 30 },
					 { .off = 40, .size = 2 } };
		struct ew e = { .who = who, .level = 1, .wflags = WF_RELATED,
				.n = 3, .items = items };
		u64 before = now(), after;

		KUNIT_ASSERT_FALSE(test, present(anon));
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_SUCCESS);
		after = now();
		KUNIT_EXPECT_TRUE_MSG(test, present(anon), "the staged copy did not run");
		for (i = 0; i < 2; i++) {
			KUNIT_ASSERT_EQ(test, ntk_collect(test, ks[i], &recs), 1U);
			/* The record: the untouched page reads as zeros. */
			KUNIT_ASSERT_EQ(test, recs[0].size, EH_SIZE + ITEM_SIZE + 35U);
			memcpy(got, recs[0].data + EH_SIZE + ITEM_SIZE, 35);
			KUNIT_EXPECT_EQ(test, got[0], pattern(1));
			KUNIT_EXPECT_EQ(test, got[2], pattern(3));
			KUNIT_EXPECT_EQ(test, got[3], 0);
			KUNIT_EXPECT_EQ(test, got[32], 0);
			KUNIT_EXPECT_EQ(test, got[33], pattern(40));
			KUNIT_EXPECT_EQ(test, got[34], pattern(41));
			KUNIT_EXPECT_GE(test, ntk_get_le(recs[0].data + 0x10, 8), before);
			KUNIT_EXPECT_LE(test, ntk_get_le(recs[0].data + 0x10, 8), after);
		}
		/* Again, present: the direct copy, the same bytes. */
		items[1].ptr = 0;
		items[1].off = 9;
		KUNIT_EXPECT_EQ(test, send_check(test, &e, ks, 2, 3), NTTRACE_STATUS_SUCCESS);
	}
	KUNIT_EXPECT_NE(test, ctx->handle, 0ULL);
}

/* ---- Kernel registrations ---- */

static void kernel_test(struct kunit *test)
{
	struct ew_ctx *ctx = test->priv;
	struct ntk_session *k = start(test, "kew-kernel", 0, BUF_KB, 8);
	struct ew e = { .who = KERNEL, .level = 2, .keyword = 0x10, .n = 3, .items = three };
	struct ntk_record *recs;
	unsigned long irq;
	struct nt_reg *late;
	u32 status;

	/* The callback: every change, in process context. */
	ctx->calls = 0;
	KUNIT_ASSERT_EQ(test, enable(k->id, prov_guid, 1, 3, 0x30, 0x10), 0);
	KUNIT_EXPECT_EQ(test, ctx->calls, 1U);
	KUNIT_EXPECT_EQ(test, ctx->last_control, (u32)NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER);
	KUNIT_EXPECT_EQ(test, ctx->last_level, 3);
	KUNIT_EXPECT_EQ(test, ctx->last_any, 0x30ULL);
	KUNIT_EXPECT_EQ(test, ctx->last_all, 0x10ULL);
	KUNIT_EXPECT_EQ(test, ctx->last_id, k->id);
	KUNIT_ASSERT_EQ(test, enable(k->id, prov_guid, 2, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, ctx->calls, 2U);
	KUNIT_EXPECT_EQ(test, ctx->last_control, (u32)NTTRACE_EVENT_CONTROL_CODE_CAPTURE_STATE);
	KUNIT_EXPECT_TRUE(test, nt_provider_kernel_enabled(ctx->kreg, 2, 0x10));
	KUNIT_EXPECT_FALSE(test, nt_provider_kernel_enabled(ctx->kreg, 4, 0x10));
	KUNIT_EXPECT_FALSE(test, nt_provider_kernel_enabled(ctx->kreg, 2, 0x20));

	/* With interrupts off (as from hardirq): the same record. */
	KUNIT_EXPECT_EQ(test, send_check(test, &e, &k, 1, 1), NTTRACE_STATUS_SUCCESS);
	local_irq_save(irq);
	status = send(test, &e);
	local_irq_restore(irq);
	KUNIT_EXPECT_EQ(test, status, NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 1U);
	/* More descriptors than the stack holds, interrupts off: GFP_ATOMIC. */
	{
		struct ew many = e;

		many.items = many_items(test, NTTRACE_MAX_EVENT_DATA_DESCRIPTORS, 3);
		many.n = NTTRACE_MAX_EVENT_DATA_DESCRIPTORS;
		local_irq_save(irq);
		status = send(test, &many);
		local_irq_restore(irq);
		KUNIT_EXPECT_EQ(test, status, NTTRACE_STATUS_SUCCESS);
		KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &recs), 1U);
		KUNIT_EXPECT_EQ(test, send_check(test, &many, &k, 1, 1), NTTRACE_STATUS_SUCCESS);
	}
	/* A NULL registration. */
	KUNIT_EXPECT_EQ(test, nt_event_write_kernel(NULL, (void *)ctx->kmem),
			NTTRACE_STATUS_INVALID_HANDLE);

	/* Registered after the enable: told at once; disabled: told. */
	ctx->calls = 0;
	late = nt_provider_register_kernel(prov_guid, kcb, ctx);
	KUNIT_ASSERT_FALSE(test, IS_ERR(late));
	KUNIT_EXPECT_EQ(test, ctx->calls, 1U);
	KUNIT_EXPECT_EQ(test, ctx->last_control, (u32)NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER);
	KUNIT_EXPECT_TRUE(test, nt_provider_kernel_enabled(late, 1, 0x30));
	KUNIT_ASSERT_EQ(test, enable(k->id, prov_guid, 0, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, ctx->calls, 3U);	/* both registrations */
	KUNIT_EXPECT_EQ(test, ctx->last_control, (u32)NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER);
	KUNIT_EXPECT_FALSE(test, nt_provider_kernel_enabled(late, 0, 0));
	nt_provider_unregister_kernel(late);
	/* The session stops: DISABLE. */
	KUNIT_ASSERT_EQ(test, enable(k->id, prov_guid, 1, 0, 0, 0), 0);
	ctx->calls = 0;
	KUNIT_EXPECT_EQ(test, ntk_stop(k), 0);
	KUNIT_EXPECT_EQ(test, ctx->calls, 1U);
	KUNIT_EXPECT_EQ(test, ctx->last_control, (u32)NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER);
	KUNIT_EXPECT_EQ(test, nt_event_write_kernel(ctx->kreg, (void *)ctx->kmem),
			NTTRACE_STATUS_SUCCESS);
}

/*
 * EVENT_ENABLE_PROPERTY_STACK_TRACE: the record grows by a stack item,
 * first of the items, its data after it unchanged. This thread is a
 * kernel thread (no user frames of its own) and the session an ordinary
 * one (no kernel addresses for its readers): the item holds the MatchId
 * alone, STACK_TRACE64, and STACK_TRACE32 for a compat caller.
 */
static void stack_test(struct kunit *test)
{
	struct ntk_session *k = start(test, "kew-stack", 0, BUF_KB, 8);
	struct nttrace_enable en = {
		.size = sizeof(en), .logger_id = k->id, .level = 5, .match_any_keyword = 0x10,
		.control = NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER,
		.enable_property = NTTRACE_ENABLE_PROPERTY_STACK_TRACE,
	};
	static const enum caller who[] = { KERNEL, NATIVE, COMPAT };
	struct ntk_record *recs;
	unsigned int i;

	memcpy(en.guid, prov_guid, 16);
	KUNIT_ASSERT_EQ(test, nt_provider_enable(&en), 0);
	for (i = 0; i < ARRAY_SIZE(who); i++) {
		struct ew e = { .who = who[i], .level = 2, .keyword = 0x10, .n = 3,
				.items = three };
		const u8 *r;

		KUNIT_ASSERT_EQ(test, send(test, &e), NTTRACE_STATUS_SUCCESS);
		KUNIT_ASSERT_EQ(test, ntk_collect(test, k, &recs), 1U);
		r = recs[0].data;
		KUNIT_EXPECT_TRUE(test, ntk_get_le(r + 4, 2) & HF_EXT);
		/* The item: 16 bytes, type 6 (5 for compat), the last, 8 bytes of data. */
		KUNIT_EXPECT_EQ(test, ntk_get_le(r + EH_SIZE, 2), 16ULL);
		KUNIT_EXPECT_EQ(test, ntk_get_le(r + EH_SIZE + 2, 2),
				who[i] == COMPAT ? 5ULL : 6ULL);
		KUNIT_EXPECT_EQ(test, ntk_get_le(r + EH_SIZE + 4, 2), 0ULL);
		KUNIT_EXPECT_EQ(test, ntk_get_le(r + EH_SIZE + 6, 2), 8ULL);
		KUNIT_EXPECT_EQ(test, ntk_get_le(r + EH_SIZE + 8, 8), 0ULL);
		/* The data follows it: the first descriptor's pattern. */
		KUNIT_EXPECT_EQ(test, r[EH_SIZE + 16], pattern(three[0].off));
		KUNIT_EXPECT_EQ(test, recs[0].size, (u32)(EH_SIZE + 16 + 7 + 21));
	}
}

/* The aggregate level: an enable at level 0 counts as 255. */
static void aggregate_level_test(struct kunit *test)
{
	struct ew_ctx *ctx = test->priv;
	struct ntk_session *ks[2];

	ks[0] = start(test, "kew-agg-a", 0, BUF_KB, 8);
	ks[1] = start(test, "kew-agg-b", 0, BUF_KB, 8);
	KUNIT_ASSERT_EQ(test, enable(ks[0]->id, prov_guid, 1, 4, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, ctx->info[0].level, 4);
	KUNIT_ASSERT_EQ(test, enable(ks[1]->id, prov_guid, 1, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, ctx->info[0].level, 255);
	KUNIT_ASSERT_EQ(test, enable(ks[1]->id, prov_guid, 0, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, ctx->info[0].level, 4);
}

static struct kunit_case nttrace_eventwrite_cases[] = {
	KUNIT_CASE(record_test),
	KUNIT_CASE(rule_test),
	KUNIT_CASE(two_sessions_test),
	KUNIT_CASE(status_test),
	KUNIT_CASE(full_test),
	KUNIT_CASE(secure_paged_test),
	KUNIT_CASE(staged_test),
	KUNIT_CASE(kernel_test),
	KUNIT_CASE(aggregate_level_test),
	KUNIT_CASE(stack_test),
	{}
};

static struct kunit_suite nttrace_eventwrite_suite = {
	.name = "nttrace_eventwrite",
	.init = ew_init,
	.test_cases = nttrace_eventwrite_cases,
};

kunit_test_suite(nttrace_eventwrite_suite);
