// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite nttrace_classic: NTTRACE_ETW_NT_FLAGS_TRACE_HEADER and
 * NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE (module/classic.c, header.c, instance.c)
 * through the front door (nttrace_trace_event), into real sessions whose
 * records are read back from the rings and compared byte for byte with
 * this file's own encoder, written from Windows' record layouts (offsets,
 * not the uapi structs): full-header and instance records
 * for 64-bit, compat, WOW64 and kernel-mode callers, inline data and
 * MOF_FIELD gathering, GuidPtr, the caller's time stamp, every status code
 * the two types return, the secure and paged-memory rules, and the staged
 * copy a not-present page takes. Callers' memory is user memory of the
 * test's own mm (kunit_vm_mmap), or kernel memory for kernel-mode calls.
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

#include "kunit_util.h"

#define BUF_KB		16
#define FIELDS_PAGES	5	/* a header and more than a buffer's data */
#define DATA_PAGES	4	/* what MOF items point at */
#define AREA_SIZE	((FIELDS_PAGES + DATA_PAGES) * PAGE_SIZE)
#define LOW_BASE	0x30000000UL	/* user memory a 32-bit pointer reaches */
#define GUID3_OFF	(DATA_PAGES * PAGE_SIZE - 64)	/* in the data area */

/* Windows' header sizes and WNODE flag bits: the numbers this file encodes from. */
#define HDR_SIZE	0x30
#define INST_SIZE	0x48
#define F_TIMESTAMP	0x00000200U
#define F_TRACED_GUID	0x00020000U
#define F_GUID_PTR	0x00080000U
#define F_MOF_PTR	0x00100000U

enum caller { NATIVE, COMPAT, WOW64, KERNEL, NCALLERS };
static const char *const caller_names[] = { "64-bit", "compat", "wow64", "kernel" };

struct cls_ctx {
	struct ntk_session *k;
	unsigned long base[2];	/* AREA_SIZE bytes: anywhere; below 4 GiB */
	unsigned long none;	/* a PROT_NONE page */
	u8 *kmem;		/* AREA_SIZE bytes: the kernel-mode caller's */
};

static const u8 guid1[16] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
};
static const u8 guid2[16] = {	/* ParentGuid */
	0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
};
static const u8 guid3[16] = {	/* at GuidPtr */
	0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a,
	0x3b, 0x3c, 0x3d, 0x3e, 0x3f, 0x40, 0x41, 0x42,
};

static u8 pattern(size_t i)
{
	return (u8)(i * 13 + i / 241 + 5);
}

static u32 hdr_len(u32 type)
{
	return type == NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE ? INST_SIZE : HDR_SIZE;
}

static u64 area(struct cls_ctx *ctx, enum caller who)
{
	if (who == KERNEL)
		return (uintptr_t)ctx->kmem;
	return ctx->base[who != NATIVE];
}

static u64 data_at(struct cls_ctx *ctx, enum caller who)
{
	return area(ctx, who) + FIELDS_PAGES * PAGE_SIZE;
}

/* Write @len bytes at the caller's address @at. */
static void poke(struct kunit *test, enum caller who, u64 at, const void *src, size_t len)
{
	if (who == KERNEL)
		memcpy((void *)(uintptr_t)at, src, len);
	else
		KUNIT_ASSERT_EQ(test, copy_to_user(u64_to_user_ptr(at), src, len), 0);
}

/* Read @len bytes at the caller's address @at. */
static void peek(struct kunit *test, enum caller who, u64 at, void *dst, size_t len)
{
	if (who == KERNEL)
		memcpy(dst, (void *)(uintptr_t)at, len);
	else
		KUNIT_ASSERT_EQ(test, copy_from_user(dst, u64_to_user_ptr(at), len), 0);
}

static int cls_start(struct kunit *test, u32 mode)
{
	struct nttrace_logger_info info;
	struct cls_ctx *ctx = test->priv;

	ntk_info(&info, "nttrace-kunit-classic");
	info.buffer_size_kb = BUF_KB;
	info.max_buffers = 8;
	info.log_file_mode = mode;
	ctx->k = ntk_start(test, &info);
	return 0;
}

static int cls_init(struct kunit *test)
{
	struct cls_ctx *ctx;
	unsigned int b;
	size_t i;
	u8 *buf;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	test->priv = ctx;
	buf = kunit_kzalloc(test, AREA_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < DATA_PAGES * PAGE_SIZE; i++)
		buf[FIELDS_PAGES * PAGE_SIZE + i] = pattern(i);
	memcpy(buf + FIELDS_PAGES * PAGE_SIZE + GUID3_OFF, guid3, 16);
	ctx->base[0] = ntk_user(test, 0, AREA_SIZE, PROT_READ | PROT_WRITE);
	ctx->base[1] = ntk_user(test, LOW_BASE, AREA_SIZE, PROT_READ | PROT_WRITE);
	for (b = 0; b < 2; b++)
		KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)ctx->base[b], buf,
						   AREA_SIZE), 0);
	ctx->kmem = buf;
	ctx->none = ntk_user(test, 0, PAGE_SIZE, PROT_NONE);
	return cls_start(test, 0);
}

/* One call as a test describes it. */
struct cev {
	u32 type;		/* NTTRACE_ETW_NT_FLAGS_TRACE_HEADER or _INSTANCE */
	enum caller who;
	u32 wflags;		/* the header's Flags */
	u32 size;		/* the header's Size; 0: header + extra_len */
	const u8 *extra;	/* after the header: inline data or MOF_FIELDs */
	u32 extra_len;
	u64 guid_ptr;		/* with F_GUID_PTR; 0: where guid3 is */
	u64 ts;			/* the caller's TimeStamp */
	u64 handle;		/* 0: the session's */
	u32 field_size;
	u64 fields;		/* 0: the caller's area; the header is written there */
};

/* The caller's header, byte by byte; the ignored bytes hold junk. */
static void encode_input(struct cls_ctx *ctx, const struct cev *e, u8 *p)
{
	u32 len = hdr_len(e->type);

	memset(p, 0xEE, len);
	ntk_put_le(p, e->size ? e->size : len + e->extra_len, 2);
	p[2] = 0x77;				/* FieldTypeFlags: ignored */
	p[3] = 0x66;				/* MarkerFlags: ignored */
	p[4] = 0x21;				/* Class.Type */
	p[5] = 0x05;				/* Class.Level */
	ntk_put_le(p + 6, 0x0302, 2);		/* Class.Version */
	ntk_put_le(p + 0x10, e->ts, 8);
	if (e->wflags & F_GUID_PTR)
		ntk_put_le(p + 0x18, e->guid_ptr ? e->guid_ptr :
		       data_at(ctx, e->who) + GUID3_OFF, 8);
	else
		memcpy(p + 0x18, guid1, 16);
	ntk_put_le(p + 0x28, 0xC1C2C3C4, 4);	/* ClientContext: ignored */
	ntk_put_le(p + 0x2C, e->wflags, 4);
	if (e->type == NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE) {
		ntk_put_le(p + 0x30, 0x11223344, 4);
		ntk_put_le(p + 0x34, 0x55667788, 4);
		memcpy(p + 0x38, guid2, 16);
	}
}

/* Through the front door, as NtTraceEvent; returns the NTSTATUS. */
static u32 send(struct kunit *test, const struct cev *e)
{
	struct cls_ctx *ctx = test->priv;
	u64 at = e->fields ? e->fields : area(ctx, e->who);
	u32 len = hdr_len(e->type);
	struct nttrace_call call = {
		.trace_handle = e->handle ? e->handle : ctx->k->id,
		.flags = e->type | (e->who == WOW64 ? NTTRACE_ETW_NT_FLAGS_WOW64_CALL : 0),
		.field_size = e->field_size,
		.fields = at,
		.compat = e->who == COMPAT,
		.kernel_mode = e->who == KERNEL,
	};
	u8 hdr[INST_SIZE];

	encode_input(ctx, e, hdr);
	poke(test, e->who, at, hdr, len);
	if (e->extra_len)
		poke(test, e->who, at + len, e->extra, e->extra_len);
	return nttrace_trace_event(&call);
}

/*
 * The record @e must give: @data (@len bytes) after the header. The time
 * stamp must be the caller's with F_TIMESTAMP, else within
 * [@before, @after].
 */
static void check_record(struct kunit *test, const struct ntk_record *r,
			 const struct cev *e, const u8 *data, u32 len,
			 u64 before, u64 after)
{
	struct cls_ctx *ctx = test->priv;
	u32 hl = hdr_len(e->type), total = hl + len, i;
	bool ptr32 = e->who == COMPAT || e->who == WOW64;
	u8 *want;
	u64 ts;

	if (!r)
		return;
	KUNIT_ASSERT_EQ(test, r->size, total);
	want = kunit_kzalloc(test, ALIGN(total, 8), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	ntk_put_le(want, total, 2);
	if (e->type == NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE)
		want[2] = ptr32 ? 0x0B : 0x15;
	else
		want[2] = ptr32 ? 0x0A : 0x14;
	want[3] = 0xC0;
	want[4] = 0x21;
	want[5] = 0x05;
	ntk_put_le(want + 6, 0x0302, 2);
	ntk_put_le(want + 8, task_pid_nr_ns(current, ctx->k->s->pid_ns), 4);
	ntk_put_le(want + 12, task_tgid_nr_ns(current, ctx->k->s->pid_ns), 4);
	ts = ntk_get_le(r->data + 0x10, 8);
	if (e->wflags & F_TIMESTAMP) {
		KUNIT_EXPECT_EQ(test, ts, e->ts);
	} else {
		KUNIT_EXPECT_GE(test, ts, before);
		KUNIT_EXPECT_LE(test, ts, after);
	}
	ntk_put_le(want + 0x10, ts, 8);
	memcpy(want + 0x18, (e->wflags & F_GUID_PTR) ? guid3 : guid1, 16);
	/* KernelTime and UserTime: 0 (want is zeroed). */
	if (e->type == NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE) {
		ntk_put_le(want + 0x30, 0x11223344, 4);
		ntk_put_le(want + 0x34, 0x55667788, 4);
		memcpy(want + 0x38, guid2, 16);
	}
	if (len)
		memcpy(want + hl, data, len);
	for (i = 0; i < ALIGN(total, 8); i++)
		if (r->data[i] != want[i]) {
			KUNIT_FAIL(test, "%s %s: byte %#x is %#x, want %#x", caller_names[e->who],
				   e->type == NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE ? "instance" :
										    "header",
				   i, r->data[i], want[i]);
			break;
		}
}

static u64 now(void)
{
	return nt_clock_now(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
}

/*
 * Send @e; on success exactly one record must come back, with @data. A
 * failure must leave no record. Returns the status.
 */
static u32 send_check(struct kunit *test, const struct cev *e, const u8 *data, u32 len)
{
	struct cls_ctx *ctx = test->priv;
	struct ntk_record *recs;
	u64 before = now(), after;
	unsigned int got;
	u32 status;

	status = send(test, e);
	after = now();
	got = ntk_collect(test, ctx->k, &recs);
	if (status != NTTRACE_STATUS_SUCCESS) {
		KUNIT_EXPECT_EQ_MSG(test, got, 0, "status %#x, yet a record", status);
		return status;
	}
	KUNIT_EXPECT_EQ(test, got, 1);
	if (got == 1)
		check_record(test, recs, e, data, len, before, after);
	return status;
}

static void counts(struct cls_ctx *ctx, u64 *written, u64 *lost)
{
	struct nttrace_logger_info info;

	*written = *lost = ~0ULL;
	if (ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, ctx->k->id, &info))
		return;
	*written = info.events_written;
	*lost = info.events_lost;
}

/* A MOF_FIELD, byte by byte: DataPtr, Length, DataType. */
static void put_mof(u8 *p, u64 ptr, u32 len)
{
	ntk_put_le(p, ptr, 8);
	ntk_put_le(p + 8, len, 4);
	ntk_put_le(p + 12, 0xD7D7D7D7, 4);		/* DataType: ignored */
}

static const u32 both[] = { NTTRACE_ETW_NT_FLAGS_TRACE_HEADER,
			    NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE };

/* ---- Records ---- */

/* Inline data of odd sizes, every kind of caller, both types. */
static void inline_test(struct kunit *test)
{
	static const u32 sizes[] = { 0, 1, 7, 8, 9, 100, 1001 };
	u8 *data = kunit_kmalloc(test, 1001, GFP_KERNEL);
	unsigned int t, s;
	enum caller who;
	u64 w, l;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, data);
	for (i = 0; i < 1001; i++)
		data[i] = pattern(i + 77);
	for (t = 0; t < ARRAY_SIZE(both); t++)
		for (who = NATIVE; who < NCALLERS; who++)
			for (s = 0; s < ARRAY_SIZE(sizes); s++) {
				struct cev e = {
					.type = both[t], .who = who,
					.wflags = F_TRACED_GUID,
					.extra = data, .extra_len = sizes[s],
					/* FieldSize is ignored in favour of Size. */
					.field_size = s * 0x1000 + 3,
				};

				KUNIT_EXPECT_EQ_MSG(test, send_check(test, &e, data, sizes[s]),
						    NTTRACE_STATUS_SUCCESS, "%s %u bytes",
						    caller_names[who], sizes[s]);
			}
	counts(test->priv, &w, &l);
	KUNIT_EXPECT_EQ(test, w, 2 * NCALLERS * ARRAY_SIZE(sizes));
	KUNIT_EXPECT_EQ(test, l, 0);
}

/* GuidPtr, and the caller's time stamp kept. */
static void guid_ptr_timestamp_test(struct kunit *test)
{
	u8 data[5] = { 1, 2, 3, 4, 5 };
	unsigned int t;
	enum caller who;

	for (t = 0; t < ARRAY_SIZE(both); t++)
		for (who = NATIVE; who < NCALLERS; who++) {
			struct cev e = {
				.type = both[t], .who = who,
				.wflags = F_TRACED_GUID | F_GUID_PTR,
				.extra = data, .extra_len = sizeof(data),
				.ts = 0x0123456789ABCDEFULL,
			};

			KUNIT_EXPECT_EQ(test, send_check(test, &e, data, 5),
					NTTRACE_STATUS_SUCCESS);
			e.wflags |= F_TIMESTAMP;
			KUNIT_EXPECT_EQ(test, send_check(test, &e, data, 5),
					NTTRACE_STATUS_SUCCESS);
			e.wflags = F_TRACED_GUID | F_TIMESTAMP;
			e.ts = 0;
			KUNIT_EXPECT_EQ(test, send_check(test, &e, data, 5),
					NTTRACE_STATUS_SUCCESS);
		}
}

/* MOF_FIELDs: the items' bytes, in order, packed after the header. */
static void mof_test(struct kunit *test)
{
	static const u32 sizes[] = { 3, 0, 17, 1, 8, 250, 2, 0, 5, 9, 11, 13, 1, 1, 1, 64 };
	struct cls_ctx *ctx = test->priv;
	u8 mof[NTTRACE_MAX_MOF_FIELDS * 16], *data;
	unsigned int t, n;
	enum caller who;

	data = kunit_kmalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	for (t = 0; t < ARRAY_SIZE(both); t++) {
		for (who = NATIVE; who < NCALLERS; who++) {
			static const unsigned int counts_[] = { 0, 1, 2, 7, 16 };
			unsigned int c;

			for (c = 0; c < ARRAY_SIZE(counts_); c++) {
				u32 len = 0, off = 1, i;
				struct cev e = {
					.type = both[t], .who = who,
					.wflags = F_TRACED_GUID | F_MOF_PTR,
					.extra = mof,
				};

				n = counts_[c];
				/* Items apart from each other, at odd places. */
				for (i = 0; i < n; i++) {
					u64 p = data_at(ctx, who) + off;

					put_mof(mof + 16 * i, p, sizes[i]);
					peek(test, who, p, data + len, sizes[i]);
					len += sizes[i];
					off += sizes[i] * 3 + 1;
				}
				e.extra_len = 16 * n;
				KUNIT_EXPECT_EQ_MSG(test, send_check(test, &e, data, len),
						    NTTRACE_STATUS_SUCCESS, "%s, %u items",
						    caller_names[who], n);
				/*
				 * A trailing part of a MOF_FIELD is not an
				 * item: ignored, even one that points nowhere.
				 */
				if (n == NTTRACE_MAX_MOF_FIELDS)
					continue;
				put_mof(mof + 16 * n, ctx->none, 4);
				e.extra_len = 16 * n + 15;
				KUNIT_EXPECT_EQ_MSG(test, send_check(test, &e, data, len),
						    NTTRACE_STATUS_SUCCESS, "%s, %u items + 15",
						    caller_names[who], n);
			}
		}
	}
}

/* The MOF_FIELD array's limits and the size sums. */
static void mof_limits_test(struct kunit *test)
{
	struct cls_ctx *ctx = test->priv;
	u32 max = BUF_KB * 1024 - NTTRACE_WMI_BUFFER_HEADER_SIZE;
	u8 mof[NTTRACE_MAX_MOF_FIELDS * 16 + 32];
	unsigned int t, i;
	u64 d = data_at(ctx, NATIVE), w, l;

	for (t = 0; t < ARRAY_SIZE(both); t++) {
		u32 hl = hdr_len(both[t]);
		struct cev e = {
			.type = both[t], .who = NATIVE,
			.wflags = F_TRACED_GUID | F_MOF_PTR, .extra = mof,
		};

		for (i = 0; i < NTTRACE_MAX_MOF_FIELDS + 2; i++)
			put_mof(mof + 16 * i, d + i, 1);
		/* 0x100 bytes is the limit; more allowed by Size is refused. */
		e.extra_len = 0x100;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_SUCCESS);
		e.extra_len = 0x101;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ARRAY_BOUNDS_EXCEEDED);
		e.extra_len = 0x110;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ARRAY_BOUNDS_EXCEEDED);
		e.extra_len = 0x120;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ARRAY_BOUNDS_EXCEEDED);
		/* Even when the array cannot be read: the size comes first. */
		e.extra_len = 0;
		e.size = hl + 0x200;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ARRAY_BOUNDS_EXCEEDED);
		e.size = 0;

		/* Header and items past 32 bits. */
		put_mof(mof, d, 0xFFFFFFFF);
		put_mof(mof + 16, d, 0xFFFFFFFF);
		e.extra_len = 32;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_BUFFER_OVERFLOW);
		put_mof(mof, d, 0x80000000);
		put_mof(mof + 16, d, 0x80000000 - hl - 1);	/* 0xFFFFFFFF in all */
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INTEGER_OVERFLOW);
		put_mof(mof + 16, d, 0x80000000 - hl);		/* 2^32 */
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_BUFFER_OVERFLOW);
		put_mof(mof, d, 0xFFFFFFFF - hl);
		e.extra_len = 16;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INTEGER_OVERFLOW);
		put_mof(mof, d, 0xFFFFFFFF - hl + 1);
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_BUFFER_OVERFLOW);

		/* Past 16 bits (the record's Size): NTTRACE_STATUS_INTEGER_OVERFLOW. */
		put_mof(mof, d, 0x10000 - hl);
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INTEGER_OVERFLOW);
		put_mof(mof, d, 0x8000);
		put_mof(mof + 16, d, 0x8000 - hl);
		e.extra_len = 32;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INTEGER_OVERFLOW);
		/* 16 bits, but not a buffer: NTTRACE_STATUS_BUFFER_OVERFLOW. */
		put_mof(mof, d, 0xFFFF - hl);
		e.extra_len = 16;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_BUFFER_OVERFLOW);
		/* The largest record a buffer takes, and one byte more. */
		put_mof(mof, d, max - hl);
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_SUCCESS);
		put_mof(mof, d, max - hl + 1);
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_BUFFER_OVERFLOW);
		/* Inline data too: Size 0xFFFF fits 16 bits, not the buffer. */
		e.wflags = F_TRACED_GUID;
		e.size = 0xFFFF;
		e.extra_len = 0;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_BUFFER_OVERFLOW);
		e.size = max;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_SUCCESS);
		e.size = max + 1;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_BUFFER_OVERFLOW);
	}
	counts(ctx, &w, &l);
	KUNIT_EXPECT_EQ(test, w, 2 * 3);
	KUNIT_EXPECT_EQ(test, l, 0);
}

/* ---- Status codes ---- */

/* The logger ID is the low 16 bits of TraceHandle; 0 and 0xFFFF are none. */
static void handle_test(struct kunit *test)
{
	struct cls_ctx *ctx = test->priv;
	u32 ids[NTTRACE_MAX_LOGGERS], count, unused, i;
	u8 data[3] = { 9, 8, 7 };
	unsigned int t;
	u64 w, l;

	nt_session_list(ids, ARRAY_SIZE(ids), &count);
	for (unused = 1; unused <= NTTRACE_MAX_LOGGERS; unused++) {
		for (i = 0; i < count && ids[i] != unused; i++)
			;
		if (i == count)
			break;
	}
	for (t = 0; t < ARRAY_SIZE(both); t++) {
		struct cev e = {
			.type = both[t], .wflags = F_TRACED_GUID,
			.extra = data, .extra_len = 3,
		};
		static const u64 bad[] = { 0x10000, 0xFFFF, 0xABCDFFFF, 0x1234560000ULL };
		unsigned int b;

		for (b = 0; b < ARRAY_SIZE(bad); b++) {
			e.handle = bad[b];
			KUNIT_EXPECT_EQ_MSG(test, send(test, &e), NTTRACE_STATUS_INVALID_HANDLE,
					    "handle %#llx", bad[b]);
		}
		e.handle = unused;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_HANDLE);
		e.handle = NTTRACE_MAX_LOGGERS + 1;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_HANDLE);
		/* Not running beats a bad Size and missing flags. */
		e.handle = unused;
		e.size = 4;
		e.wflags = 0;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_HANDLE);
		e.size = 0;
		e.wflags = F_TRACED_GUID;
		e.who = KERNEL;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_HANDLE);
		e.handle = 0xFFFF;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_HANDLE);
		/* The high bits (a TRACE_ENABLE_CONTEXT's level, flags) are not looked at. */
		e.who = NATIVE;
		e.handle = NTTRACE_HANDLE(ctx->k->id, 5, 0, 0xFFFFFFFF);
		KUNIT_EXPECT_EQ(test, send_check(test, &e, data, 3), NTTRACE_STATUS_SUCCESS);
	}
	counts(ctx, &w, &l);
	KUNIT_EXPECT_EQ(test, w, 2);
}

/* Size smaller than the header; NTTRACE_WNODE_FLAG_TRACED_GUID missing. */
static void header_rules_test(struct kunit *test)
{
	struct cls_ctx *ctx = test->priv;
	unsigned int t;
	enum caller who;
	u64 w, l;

	for (t = 0; t < ARRAY_SIZE(both); t++)
		for (who = NATIVE; who < NCALLERS; who++) {
			u32 hl = hdr_len(both[t]);
			struct cev e = { .type = both[t], .who = who, .wflags = F_TRACED_GUID };

			e.size = hl - 1;
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
			e.size = 1;
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
			e.size = 0x10000;	/* the 16-bit Size reads 0 */
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
			if (both[t] == NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE) {
				e.size = HDR_SIZE;	/* a TRACE_HEADER's size is too small */
				KUNIT_EXPECT_EQ(test, send(test, &e),
						NTTRACE_STATUS_INVALID_PARAMETER);
			}
			e.size = 0;
			e.wflags = F_GUID_PTR | F_MOF_PTR | F_TIMESTAMP | 0x40000;
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
			e.wflags = 0;
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
			e.wflags = ~F_TRACED_GUID;
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
			/* Unknown flag bits beside it are ignored. */
			e.wflags = F_TRACED_GUID | 0x40000 | 0x200000 | 0x1;
			KUNIT_EXPECT_EQ(test, send_check(test, &e, NULL, 0),
					NTTRACE_STATUS_SUCCESS);
		}
	counts(ctx, &w, &l);
	KUNIT_EXPECT_EQ(test, w, 2 * NCALLERS);
	KUNIT_EXPECT_EQ(test, l, 0);
}

/* Memory that cannot be read: NTTRACE_STATUS_ACCESS_VIOLATION, nothing written. */
static void fault_test(struct kunit *test)
{
	struct cls_ctx *ctx = test->priv;
	static const u8 kbytes[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	unsigned long gone, edge;
	struct ntk_record *recs;
	u8 mof[3 * 16];
	unsigned int t;
	u64 w, l;

	gone = ntk_user(test, 0, PAGE_SIZE, PROT_READ | PROT_WRITE);
	KUNIT_ASSERT_EQ(test, vm_munmap(gone, PAGE_SIZE), 0);
	edge = ntk_user(test, 0, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	KUNIT_ASSERT_EQ(test, vm_munmap(edge + PAGE_SIZE, PAGE_SIZE), 0);
	edge += PAGE_SIZE;	/* the end of mapped memory */

	for (t = 0; t < ARRAY_SIZE(both); t++) {
		u32 hl = hdr_len(both[t]);
		u64 d = data_at(ctx, NATIVE);
		struct cev e = { .type = both[t], .wflags = F_TRACED_GUID | F_MOF_PTR,
				 .extra = mof, .extra_len = sizeof(mof) };

		put_mof(mof, d, 5);
		put_mof(mof + 32, d + 5, 5);
		/* A middle item: PROT_NONE, unmapped, kernel, running off the end. */
		put_mof(mof + 16, ctx->none, 4);
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_VIOLATION);
		put_mof(mof + 16, gone + 8, 4);
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_VIOLATION);
		put_mof(mof + 16, (uintptr_t)kbytes, 8);
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_VIOLATION);
		put_mof(mof + 16, edge - 2, 4);
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_VIOLATION);
		/* GuidPtr unreadable. */
		put_mof(mof + 16, d + 20, 4);
		e.wflags |= F_GUID_PTR;
		e.guid_ptr = ctx->none;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_VIOLATION);
		e.guid_ptr = edge - 8;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_VIOLATION);
		e.guid_ptr = 0;
		/*
		 * The MOF_FIELD array running into the unmapped page: two of
		 * its three MOF_FIELDs are readable.
		 */
		KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)(edge - 32), mof, 32), 0);
		e.fields = edge - hl - 32;
		e.extra_len = 0;
		e.size = hl + 48;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_VIOLATION);
		e.size = hl + 32;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_SUCCESS);
		ntk_collect(test, ctx->k, &recs);
		/* Inline data running into the unmapped page. */
		e.wflags = F_TRACED_GUID;
		e.size = hl + 40;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_VIOLATION);
		e.size = hl + 32;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_SUCCESS);
		ntk_collect(test, ctx->k, &recs);
		e.size = 0;
		e.fields = 0;
		e.extra_len = sizeof(mof);
		/* Kernel-mode callers: a bad kernel pointer. */
		e.who = KERNEL;
		e.wflags = F_TRACED_GUID | F_MOF_PTR;
		d = data_at(ctx, KERNEL);
		put_mof(mof, d, 5);
		put_mof(mof + 16, 0x10, 4);		/* NULL page */
		put_mof(mof + 32, d + 5, 5);
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_VIOLATION);
		put_mof(mof + 16, ctx->base[0], 4);	/* a user address */
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_VIOLATION);
		put_mof(mof + 16, d, 4);
		e.wflags |= F_GUID_PTR;
		e.guid_ptr = 0x20;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_VIOLATION);
		KUNIT_EXPECT_EQ(test, ntk_collect(test, ctx->k, &recs), 0);
	}
	counts(ctx, &w, &l);
	KUNIT_EXPECT_EQ(test, w, 2 * 2);
	KUNIT_EXPECT_EQ(test, l, 0);
}

/* A full ring: NTTRACE_STATUS_NO_MEMORY, counted lost. */
static void full_test(struct kunit *test)
{
	struct cls_ctx *ctx = test->priv;
	struct nttrace_logger_info info;
	unsigned int i, t;
	u32 status = 0;

	for (t = 0; t < ARRAY_SIZE(both); t++) {
		struct cev e = { .type = both[t], .wflags = F_TRACED_GUID, .size = 4000 };

		ntk_put(ctx->k);
		ntk_info(&info, "nttrace-kunit-classic-full");
		info.buffer_size_kb = 4;
		info.max_buffers = 2;
		ctx->k = ntk_start(test, &info);
		/* No consumer acknowledges: the rings fill (on whichever CPUs). */
		for (i = 0; i < 1000; i++) {
			status = send(test, &e);
			if (status != NTTRACE_STATUS_SUCCESS)
				break;
		}
		KUNIT_EXPECT_EQ(test, status, NTTRACE_STATUS_NO_MEMORY);
		KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, ctx->k->id,
						  &info), 0);
		KUNIT_EXPECT_EQ(test, info.events_lost, 1);
		KUNIT_EXPECT_EQ(test, info.events_written, i);
	}
}

/* ---- Secure and paged-memory sessions ---- */

/* Run as uid 65534 with no capability: neither owner nor privileged. */
static const struct cred *become_stranger(struct kunit *test)
{
	struct cred *c = prepare_creds();

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->uid = c->euid = c->suid = c->fsuid = KUIDT_INIT(65534);
	c->gid = c->egid = c->sgid = c->fsgid = KGIDT_INIT(65534);
	cap_clear(c->cap_effective);
	cap_clear(c->cap_permitted);
	return override_creds(c);
}

static void become_self(const struct cred *old)
{
	const struct cred *c = current_cred();

	revert_creds(old);
	put_cred(c);
}

static void secure_test(struct kunit *test)
{
	struct cls_ctx *ctx = test->priv;
	const struct cred *old;
	u8 data[4] = { 4, 3, 2, 1 };
	enum caller who;
	u64 w, l;

	ntk_put(ctx->k);
	cls_start(test, NTTRACE_EVENT_TRACE_SECURE_MODE);
	for (who = NATIVE; who < NCALLERS; who++) {
		struct cev e = { .type = NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE, .who = who,
				 .wflags = F_TRACED_GUID, .extra = data, .extra_len = 4 };

		/* TRACE_INSTANCE: refused from everyone, the owner included. */
		KUNIT_EXPECT_EQ_MSG(test, send_check(test, &e, data, 4),
				    NTTRACE_STATUS_ACCESS_DENIED, "%s owner", caller_names[who]);
		/* ... before the Size is looked at. */
		e.size = 1;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_DENIED);
		e.size = 0;
		/* TRACE_HEADER: the owner (this thread, which started it) may. */
		e.type = NTTRACE_ETW_NT_FLAGS_TRACE_HEADER;
		KUNIT_EXPECT_EQ_MSG(test, send_check(test, &e, data, 4), NTTRACE_STATUS_SUCCESS,
				    "%s owner", caller_names[who]);
	}
	/* A stranger: TRACE_HEADER refused unless kernel-mode; TRACE_INSTANCE too. */
	old = become_stranger(test);
	KUNIT_EXPECT_FALSE(test, perfmon_capable());
	for (who = NATIVE; who < NCALLERS; who++) {
		struct cev e = { .type = NTTRACE_ETW_NT_FLAGS_TRACE_HEADER, .who = who,
				 .wflags = F_TRACED_GUID, .extra = data, .extra_len = 4 };
		u32 want = who == KERNEL ? NTTRACE_STATUS_SUCCESS : NTTRACE_STATUS_ACCESS_DENIED;

		KUNIT_EXPECT_EQ_MSG(test, send_check(test, &e, data, 4), want,
				    "%s stranger", caller_names[who]);
		e.type = NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE;
		KUNIT_EXPECT_EQ_MSG(test, send_check(test, &e, data, 4),
				    NTTRACE_STATUS_ACCESS_DENIED, "%s stranger", caller_names[who]);
	}
	become_self(old);
	counts(ctx, &w, &l);
	KUNIT_EXPECT_EQ(test, w, NCALLERS + 1);
	KUNIT_EXPECT_EQ(test, l, 0);
}

/* A privileged caller who is not the owner may write TRACE_HEADER. */
static void secure_privileged_test(struct kunit *test)
{
	struct cls_ctx *ctx = test->priv;
	struct cred *c;
	const struct cred *old;
	u8 data[2] = { 7, 7 };
	struct cev e = { .type = NTTRACE_ETW_NT_FLAGS_TRACE_HEADER, .wflags = F_TRACED_GUID,
			 .extra = data, .extra_len = 2 };

	ntk_put(ctx->k);
	cls_start(test, NTTRACE_EVENT_TRACE_SECURE_MODE);
	c = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->euid = c->fsuid = KUIDT_INIT(65534);
	cap_clear(c->cap_effective);
	cap_raise(c->cap_effective, CAP_PERFMON);
	old = override_creds(c);
	KUNIT_EXPECT_EQ(test, send_check(test, &e, data, 2), NTTRACE_STATUS_SUCCESS);
	e.type = NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE;
	KUNIT_EXPECT_EQ(test, send_check(test, &e, data, 2), NTTRACE_STATUS_ACCESS_DENIED);
	become_self(old);
}

static void paged_test(struct kunit *test)
{
	struct cls_ctx *ctx = test->priv;
	u8 data[6] = { 1, 1, 2, 3, 5, 8 };
	unsigned int t;
	enum caller who;
	u64 w, l;

	ntk_put(ctx->k);
	cls_start(test, NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY);
	for (t = 0; t < ARRAY_SIZE(both); t++)
		for (who = NATIVE; who < NCALLERS; who++) {
			struct cev e = { .type = both[t], .who = who, .wflags = F_TRACED_GUID,
					 .extra = data, .extra_len = 6 };
			u32 want = who == KERNEL ? NTTRACE_STATUS_NOT_SUPPORTED :
						   NTTRACE_STATUS_SUCCESS;

			KUNIT_EXPECT_EQ_MSG(test, send_check(test, &e, data, 6), want,
					    "%s", caller_names[who]);
			/* Checked before the Size. */
			e.size = 2;
			if (who == KERNEL)
				KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_NOT_SUPPORTED);
		}
	/* Secure and paged: secure is checked first. */
	ntk_put(ctx->k);
	cls_start(test, NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY | NTTRACE_EVENT_TRACE_SECURE_MODE);
	{
		struct cev e = { .type = NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE, .who = KERNEL,
				 .wflags = F_TRACED_GUID };

		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_DENIED);
		e.type = NTTRACE_ETW_NT_FLAGS_TRACE_HEADER;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_NOT_SUPPORTED);
	}
	counts(ctx, &w, &l);
	KUNIT_EXPECT_EQ(test, w, 0);
	KUNIT_EXPECT_EQ(test, l, 0);
}

/* ---- The staged copy ---- */

static bool present(unsigned long addr)
{
	u8 b;

	return !copy_from_user_nofault(&b, (const void __user *)addr, 1);
}

/* One page of a shmem file holding a pattern, mapped but not touched. */
static unsigned long fresh_file_page(struct kunit *test, u8 *bytes)
{
	struct file *f = shmem_file_setup("nttrace-kunit-classic", PAGE_SIZE, 0);
	unsigned long u;
	loff_t pos = 0;
	size_t i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	for (i = 0; i < PAGE_SIZE; i++)
		bytes[i] = pattern(i) ^ 0xA5;
	KUNIT_EXPECT_EQ(test, kernel_write(f, bytes, PAGE_SIZE, &pos), (ssize_t)PAGE_SIZE);
	u = kunit_vm_mmap(test, f, 0, PAGE_SIZE, PROT_READ, MAP_SHARED, 0);
	fput(f);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(u) || !u);
	return u;
}

/*
 * A MOF item, GUID or inline data in pages not yet present cannot be
 * copied with interrupts off: the reservation is given back and the bytes
 * are read again with faults allowed. The record is the one the direct
 * copy gives; only the staged copy can fault the pages in.
 */
static void staged_test(struct kunit *test)
{
	struct cls_ctx *ctx = test->priv;
	u8 *bytes = kunit_kmalloc(test, PAGE_SIZE, GFP_KERNEL), want[3 + 20 + 6 + 2];
	unsigned int t;
	u8 mof[4 * 16];

	KUNIT_ASSERT_NOT_NULL(test, bytes);
	for (t = 0; t < ARRAY_SIZE(both); t++) {
		u64 d = data_at(ctx, NATIVE);
		unsigned long file = fresh_file_page(test, bytes);
		unsigned long anon = ntk_user(test, 0, PAGE_SIZE, PROT_READ | PROT_WRITE);
		struct cev e = { .type = both[t], .wflags = F_TRACED_GUID | F_MOF_PTR,
				 .extra = mof, .extra_len = sizeof(mof) };

		put_mof(mof, d + 1, 3);
		put_mof(mof + 16, file + 30, 20);
		put_mof(mof + 32, anon + 9, 6);
		put_mof(mof + 48, d + 40, 2);
		peek(test, NATIVE, d + 1, want, 3);
		memcpy(want + 3, bytes + 30, 20);
		memset(want + 23, 0, 6);
		peek(test, NATIVE, d + 40, want + 29, 2);
		KUNIT_ASSERT_FALSE(test, present(file));
		KUNIT_ASSERT_FALSE(test, present(anon));
		KUNIT_EXPECT_EQ(test, send_check(test, &e, want, sizeof(want)),
				NTTRACE_STATUS_SUCCESS);
		KUNIT_EXPECT_TRUE_MSG(test, present(file), "the staged copy did not run");
		KUNIT_EXPECT_TRUE_MSG(test, present(anon), "the staged copy did not run");
		/* Again, present: the direct copy, the same bytes. */
		KUNIT_EXPECT_EQ(test, send_check(test, &e, want, sizeof(want)),
				NTTRACE_STATUS_SUCCESS);

		/*
		 * Inline data in a page not present (a 32-bit caller): the
		 * header at the end of the page before it, which is present.
		 */
		anon = ntk_user(test, LOW_BASE + AREA_SIZE + t * PAGE_SIZE, PAGE_SIZE,
				PROT_READ | PROT_WRITE);
		KUNIT_ASSERT_FALSE(test, present(anon));
		e = (struct cev){ .type = both[t], .who = COMPAT, .wflags = F_TRACED_GUID,
				  .size = hdr_len(both[t]) + 10,
				  .fields = anon - hdr_len(both[t]) };
		memset(want, 0, 10);
		KUNIT_EXPECT_EQ(test, send_check(test, &e, want, 10), NTTRACE_STATUS_SUCCESS);
		KUNIT_EXPECT_TRUE_MSG(test, present(anon), "the staged copy did not run");
	}
}

static struct kunit_case nttrace_classic_cases[] = {
	KUNIT_CASE(inline_test),
	KUNIT_CASE(guid_ptr_timestamp_test),
	KUNIT_CASE(mof_test),
	KUNIT_CASE(mof_limits_test),
	KUNIT_CASE(handle_test),
	KUNIT_CASE(header_rules_test),
	KUNIT_CASE(fault_test),
	KUNIT_CASE(full_test),
	KUNIT_CASE(secure_test),
	KUNIT_CASE(secure_privileged_test),
	KUNIT_CASE(paged_test),
	KUNIT_CASE(staged_test),
	{}
};

static struct kunit_suite nttrace_classic_suite = {
	.name = "nttrace_classic",
	.init = cls_init,
	.test_cases = nttrace_classic_cases,
};

kunit_test_suite(nttrace_classic_suite);
