// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite nttrace_message: NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE (module/message.c)
 * through nt_trace_message(), as the front door calls it, into a real
 * session whose records are read back from its rings: the argument list's
 * rules, the items each TRACE_MESSAGE_* flag adds, 32-bit
 * callers (compat and WOW64), and the staged copy an argument takes when
 * its page is not present. The arguments live in user memory of the
 * test's own mm (kunit_vm_mmap).
 */
#include <kunit/test.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "kunit_util.h"
#include "record.h"

#define BUF_KB		16
#define LIST_PAGES	2	/* NTTRACE_MESSAGE_MAX_ARGS + 1 pairs and the NULL */
#define DATA_PAGES	4	/* the largest event a BUF_KB buffer takes */
#define USER_SIZE	((LIST_PAGES + DATA_PAGES) * PAGE_SIZE)
#define LOW_BASE	0x10000000UL	/* user memory a 32-bit pointer reaches */

enum caller { NATIVE, COMPAT, WOW64 };

struct msg_ctx {
	struct ntk_session *k;
	unsigned long base[2];	/* USER_SIZE bytes: anywhere; below 4 GiB */
	unsigned long none;	/* a PROT_NONE page */
	u16 number;		/* the next message number */
	u8 guid[16];
};

struct arg {
	u64 ptr;
	u64 size;
};

/* The bytes of the data pages, so that every argument's bytes differ. */
static u8 pattern(size_t i)
{
	return (u8)(i * 7 + i / 251 + 3);
}

static unsigned int psz(enum caller who)
{
	return who == NATIVE ? 8 : 4;
}

static unsigned long list_at(struct msg_ctx *ctx, enum caller who)
{
	return ctx->base[who != NATIVE];
}

static unsigned long data_at(struct msg_ctx *ctx, enum caller who)
{
	return ctx->base[who != NATIVE] + LIST_PAGES * PAGE_SIZE;
}

static int msg_init(struct kunit *test)
{
	struct nttrace_logger_info info;
	struct msg_ctx *ctx;
	unsigned int b, i;
	u8 *buf;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	for (i = 0; i < sizeof(ctx->guid); i++)
		ctx->guid[i] = 0x11 * (i + 1);
	ctx->number = 100;

	ntk_info(&info, "nttrace-kunit-message");
	info.buffer_size_kb = BUF_KB;
	info.max_buffers = 8;
	ctx->k = ntk_start(test, &info);

	/* Both areas written, so that every page is present. */
	buf = kunit_kmalloc(test, USER_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, 0, LIST_PAGES * PAGE_SIZE);
	for (i = 0; i < DATA_PAGES * PAGE_SIZE; i++)
		buf[LIST_PAGES * PAGE_SIZE + i] = pattern(i);
	ctx->base[0] = ntk_user(test, 0, USER_SIZE, PROT_READ | PROT_WRITE);
	ctx->base[1] = ntk_user(test, LOW_BASE, USER_SIZE, PROT_READ | PROT_WRITE);
	for (b = 0; b < 2; b++)
		KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)ctx->base[b], buf,
						   USER_SIZE), 0);
	ctx->none = ntk_user(test, 0, PAGE_SIZE, PROT_NONE);
	test->priv = ctx;
	return 0;
}

static void put_word(u8 *p, u64 v, unsigned int size)
{
	u32 v32 = v;

	if (size == 4)
		memcpy(p, &v32, 4);
	else
		memcpy(p, &v, 8);
}

/*
 * Lay @n pairs out at @at as a caller with @ps-byte pointers does, then the
 * NULL that ends them if @terminate. Returns the list's size in bytes.
 */
static u32 put_list(struct kunit *test, unsigned long at, const struct arg *args,
		    unsigned int n, bool terminate, unsigned int ps)
{
	size_t len = (2 * n + terminate) * ps, i;
	u8 *buf = kunit_kzalloc(test, len + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < n; i++) {
		put_word(buf + 2 * i * ps, args[i].ptr, ps);
		put_word(buf + (2 * i + 1) * ps, args[i].size, ps);
	}
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)at, buf, len), 0);
	return len;
}

/* What the data of a message with @args must be: their bytes, in order. */
static u8 *concat(struct kunit *test, const struct arg *args, unsigned int n,
		  u32 *len)
{
	u32 total = 0, i;
	u8 *buf;

	for (i = 0; i < n; i++)
		total += args[i].size;
	buf = kunit_kzalloc(test, total + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	*len = total;
	for (i = 0, total = 0; i < n; total += args[i].size, i++)
		KUNIT_ASSERT_EQ(test, copy_from_user(buf + total,
						     u64_to_user_ptr(args[i].ptr),
						     args[i].size), 0);
	return buf;
}

static u32 send_handle(struct msg_ctx *ctx, enum caller who, u64 handle,
		       u16 number, u32 mflags, unsigned long list, u32 list_size)
{
	struct nttrace_message_trace_user m = {
		.marker = 0xDEADBEEF,		/* ignored */
		.message_number = number,
		.option_flags = 0xFFFF,		/* ignored */
		.message_flags = mflags,
		.data_size = list_size,
		.data = list,
	};
	struct nttrace_call call = {
		.trace_handle = handle,
		.flags = NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE |
			 (who == WOW64 ? NTTRACE_ETW_NT_FLAGS_WOW64_CALL : 0),
		.field_size = NTTRACE_MESSAGE_TRACE_USER_SIZE,
		.compat = who == COMPAT,
	};

	memcpy(m.message_guid, ctx->guid, sizeof(ctx->guid));
	return ntk_message(&call, &m);
}

static u32 send(struct msg_ctx *ctx, enum caller who, u16 number, u32 mflags,
		unsigned long list, u32 list_size)
{
	return send_handle(ctx, who, ctx->k->id, number, mflags, list, list_size);
}

/*
 * A TraceMessage record: the header, then the items in this order, then the
 * data; the sizes are the encoder's (common/record.c), which
 * tests/kunit/record_test.c checks byte by byte.
 */
static u32 items_size(u16 f)
{
	return ntr_message_items_size(f);
}

static u16 ptr_flag(enum caller who)
{
	return who == NATIVE ? NTTRACE_TRACE_MESSAGE_POINTER64 : NTTRACE_TRACE_MESSAGE_POINTER32;
}

/* The one record numbered @number among @recs. */
static const struct ntk_record *find(struct kunit *test, const struct ntk_record *recs,
				     unsigned int n, u16 number)
{
	const struct ntk_record *found = NULL;
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct nttrace_message_trace_header *h = (const void *)recs[i].data;

		if (h->message_number != number)
			continue;
		KUNIT_EXPECT_NULL_MSG(test, found, "message %u twice", number);
		found = &recs[i];
	}
	KUNIT_EXPECT_NOT_NULL_MSG(test, found, "message %u missing", number);
	return found;
}

/* The header, the data after @oflags' items, and zeros to the 8-byte end. */
static void check_message(struct kunit *test, const struct ntk_record *rec,
			  u16 number, u16 oflags, const u8 *data, u32 len)
{
	const struct nttrace_message_trace_header *h;
	u32 items = items_size(oflags), i;

	if (!rec)
		return;
	h = (const void *)rec->data;
	KUNIT_EXPECT_EQ(test, h->size, items + len);
	KUNIT_EXPECT_EQ(test, h->reserved, 0);
	KUNIT_EXPECT_EQ(test, h->version, NTTRACE_MESSAGE_TRACE_MARKER_BYTE);
	KUNIT_EXPECT_EQ(test, h->message_number, number);
	KUNIT_EXPECT_EQ(test, h->option_flags, oflags);
	if (h->size != items + len)
		return;
	if (len)
		KUNIT_EXPECT_MEMEQ(test, rec->data + items, data, len);
	for (i = items + len; i < ALIGN(items + len, 8); i++)
		KUNIT_EXPECT_EQ_MSG(test, rec->data[i], 0, "padding byte %u", i);
}

/*
 * Send @args as @who with @mflags; on success the one record there must
 * be the message with their bytes. Returns the status.
 */
static u32 send_args(struct kunit *test, enum caller who, u32 mflags,
		     const struct arg *args, unsigned int n)
{
	struct msg_ctx *ctx = test->priv;
	u16 number = ctx->number++;
	struct ntk_record *recs;
	u32 size, status, len;
	unsigned int got;
	u8 *data;

	size = put_list(test, list_at(ctx, who), args, n, true, psz(who));
	status = send(ctx, who, number, mflags, list_at(ctx, who), size);
	got = ntk_collect(test, ctx->k, &recs);
	if (status != NTTRACE_STATUS_SUCCESS) {
		KUNIT_EXPECT_EQ_MSG(test, got, 0, "status %#x, yet a record", status);
		return status;
	}
	KUNIT_EXPECT_EQ(test, got, 1);
	data = concat(test, args, n, &len);
	check_message(test, find(test, recs, got, number), number,
		      (mflags & NTTRACE_TRACE_MESSAGE_FLAG_MASK) | ptr_flag(who), data, len);
	return status;
}

static u64 events_written(struct msg_ctx *ctx)
{
	struct nttrace_logger_info info;

	if (ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, ctx->k->id, &info))
		return ~0ULL;
	return info.events_written;
}

/* ---- The argument list ---- */

static void no_args_test(struct kunit *test)
{
	struct msg_ctx *ctx = test->priv;
	struct ntk_record *recs;
	u16 n0 = ctx->number;

	/* DataSize 0: no arguments, whatever Data says. */
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0, 0, 0, 0), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0 + 1, 0, ctx->none, 0), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0 + 2, 0, ctx->none + 1, 0),
			NTTRACE_STATUS_SUCCESS);
	/* A list that is only its NULL. */
	put_list(test, list_at(ctx, NATIVE), NULL, 0, true, 8);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0 + 3, 0, list_at(ctx, NATIVE), 8),
			NTTRACE_STATUS_SUCCESS);
	/* ... that cannot be read. */
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0 + 4, 0, ctx->none, 8),
			NTTRACE_STATUS_ACCESS_VIOLATION);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, ctx->k, &recs), 4);
	check_message(test, find(test, recs, 4, n0), n0, NTTRACE_TRACE_MESSAGE_POINTER64, NULL, 0);
	check_message(test, find(test, recs, 4, n0 + 1), n0 + 1, NTTRACE_TRACE_MESSAGE_POINTER64,
		      NULL, 0);
	check_message(test, find(test, recs, 4, n0 + 3), n0 + 3, NTTRACE_TRACE_MESSAGE_POINTER64,
		      NULL, 0);
	KUNIT_EXPECT_EQ(test, events_written(ctx), 4);
}

static void one_arg_test(struct kunit *test)
{
	struct msg_ctx *ctx = test->priv;
	unsigned long d = data_at(ctx, NATIVE);
	struct arg a = { d + 10, 4 };

	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, &a, 1), NTTRACE_STATUS_SUCCESS);
	/* An argument of no bytes adds none. */
	a.size = 0;
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, &a, 1), NTTRACE_STATUS_SUCCESS);
	/* A size is a whole pointer-sized word: high bits count. */
	a.size = 0x100000004ULL;
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, &a, 1), NTTRACE_STATUS_INTEGER_OVERFLOW);
	KUNIT_EXPECT_EQ(test, events_written(ctx), 2);
}

/* Around the arguments kept on the stack (16) and up to the limit. */
static void many_args_test(struct kunit *test)
{
	static const unsigned int counts[] = {
		2, 15, 16, 17, 100, NTTRACE_MESSAGE_MAX_ARGS,
	};
	struct msg_ctx *ctx = test->priv;
	unsigned long d = data_at(ctx, NATIVE);
	struct arg *args;
	unsigned int c, i;

	args = kunit_kcalloc(test, NTTRACE_MESSAGE_MAX_ARGS + 1, sizeof(*args), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, args);
	for (i = 0; i <= NTTRACE_MESSAGE_MAX_ARGS; i++) {
		args[i].ptr = d + i * 13;
		args[i].size = i % 5 + 1;
	}
	for (c = 0; c < ARRAY_SIZE(counts); c++)
		KUNIT_EXPECT_EQ_MSG(test, send_args(test, NATIVE, 0, args, counts[c]),
				    NTTRACE_STATUS_SUCCESS, "%u arguments", counts[c]);
	/* One more than the limit: refused, nothing written. */
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, args, NTTRACE_MESSAGE_MAX_ARGS + 1),
			NTTRACE_STATUS_INVALID_PARAMETER);
	/* The same for 32-bit callers. */
	d = data_at(ctx, COMPAT);
	for (i = 0; i <= NTTRACE_MESSAGE_MAX_ARGS; i++)
		args[i].ptr = d + i * 13;
	KUNIT_EXPECT_EQ(test, send_args(test, COMPAT, 0, args, NTTRACE_MESSAGE_MAX_ARGS),
			NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, send_args(test, COMPAT, 0, args, NTTRACE_MESSAGE_MAX_ARGS + 1),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, events_written(ctx), ARRAY_SIZE(counts) + 1);
}

/*
 * The list is aligned to the caller's pointer size and a whole number of
 * its words; the size is checked first.
 */
static void list_alignment_test(struct kunit *test)
{
	struct msg_ctx *ctx = test->priv;
	struct ntk_record *recs;
	struct arg a = { data_at(ctx, NATIVE), 3 };
	unsigned long l = list_at(ctx, NATIVE);
	u16 n0 = ctx->number;

	put_list(test, l + 4, &a, 1, true, 8);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0, 0, l + 4, 24),
			NTTRACE_STATUS_DATATYPE_MISALIGNMENT);
	put_list(test, l + 1, &a, 1, true, 8);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0, 0, l + 1, 24),
			NTTRACE_STATUS_DATATYPE_MISALIGNMENT);
	put_list(test, l, &a, 1, true, 8);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0, 0, l, 20), NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0, 0, l, 12), NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0, 0, l + 4, 20),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0, 0, l, 24), NTTRACE_STATUS_SUCCESS);

	/* 32-bit callers: 4-byte words, 4-byte alignment. */
	a.ptr = data_at(ctx, COMPAT);
	l = list_at(ctx, COMPAT);
	put_list(test, l + 4, &a, 1, true, 4);
	KUNIT_EXPECT_EQ(test, send(ctx, COMPAT, n0 + 1, 0, l + 4, 12), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, send(ctx, WOW64, n0 + 2, 0, l + 4, 12), NTTRACE_STATUS_SUCCESS);
	put_list(test, l + 2, &a, 1, true, 4);
	KUNIT_EXPECT_EQ(test, send(ctx, COMPAT, n0 + 3, 0, l + 2, 12),
			NTTRACE_STATUS_DATATYPE_MISALIGNMENT);
	KUNIT_EXPECT_EQ(test, send(ctx, COMPAT, n0 + 3, 0, l + 4, 10),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, ctx->k, &recs), 3);
	KUNIT_EXPECT_EQ(test, events_written(ctx), 3);
}

/* Sizes that are not multiples of anything: the data is packed, no gaps. */
static void odd_sizes_test(struct kunit *test)
{
	struct msg_ctx *ctx = test->priv;
	enum caller who;

	for (who = NATIVE; who <= WOW64; who++) {
		unsigned long d = data_at(ctx, who);
		struct arg args[] = {
			{ d + 1, 1 }, { d + 100, 3 }, { d + 7, 5 }, { d + 3000, 7 },
			{ d + 5, 2 }, { d + 9, 0 }, { d + PAGE_SIZE - 4, 9 },
		};

		KUNIT_EXPECT_EQ(test, send_args(test, who, 0, args, ARRAY_SIZE(args)),
				NTTRACE_STATUS_SUCCESS);
		KUNIT_EXPECT_EQ(test, send_args(test, who, NTTRACE_TRACE_MESSAGE_SEQUENCE, args, 1),
				NTTRACE_STATUS_SUCCESS);
	}
}

/* DataSize must reach the NULL that ends the list. */
static void unterminated_test(struct kunit *test)
{
	struct msg_ctx *ctx = test->priv;
	unsigned long d = data_at(ctx, NATIVE), l = list_at(ctx, NATIVE), end;
	struct ntk_record *recs;
	struct arg args[9];
	u16 n0 = ctx->number;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(args); i++) {
		args[i].ptr = d + i;
		args[i].size = 2;
	}
	put_list(test, l, args, 1, false, 8);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0, 0, l, 16), NTTRACE_STATUS_INVALID_PARAMETER);
	/* A pointer with no size. */
	put_list(test, l, args, 2, false, 8);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0, 0, l, 24), NTTRACE_STATUS_INVALID_PARAMETER);
	/* Eight pairs fill 128 bytes: with no NULL after them, refused. */
	put_list(test, l, args, 8, false, 8);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0, 0, l, 128), NTTRACE_STATUS_INVALID_PARAMETER);
	put_list(test, l, args, 8, true, 8);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0, 0, l, 136), NTTRACE_STATUS_SUCCESS);
	/* A NULL before DataSize ends the list; the rest is not looked at. */
	put_list(test, l, args, 1, true, 8);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0 + 1, 0, l, 64), NTTRACE_STATUS_SUCCESS);
	/* A list whose NULL would be in memory that cannot be read. */
	end = ntk_user(test, 0, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE) + PAGE_SIZE;
	KUNIT_ASSERT_EQ(test, vm_munmap(end, PAGE_SIZE), 0);
	put_list(test, end - 16, args, 1, false, 8);
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, n0 + 2, 0, end - 16, 24),
			NTTRACE_STATUS_ACCESS_VIOLATION);
	/* 32-bit callers the same: no NULL; a pointer with no size. */
	args[0].ptr = data_at(ctx, COMPAT);
	args[1].ptr = data_at(ctx, COMPAT) + 1;
	put_list(test, list_at(ctx, COMPAT), args, 2, false, 4);
	KUNIT_EXPECT_EQ(test, send(ctx, COMPAT, n0 + 3, 0, list_at(ctx, COMPAT), 8),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, send(ctx, WOW64, n0 + 3, 0, list_at(ctx, COMPAT), 12),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, ntk_collect(test, ctx->k, &recs), 2);
	KUNIT_EXPECT_EQ(test, events_written(ctx), 2);
}

/*
 * Sizes past 16 bits, alone or summed with the header and items, overflow
 * the event's Size; an event that fits 16 bits but not a buffer does not
 * fit the session. Neither writes anything, nor counts a loss.
 */
static void size_overflow_test(struct kunit *test)
{
	struct msg_ctx *ctx = test->priv;
	unsigned long d = data_at(ctx, NATIVE);
	u32 max = BUF_KB * 1024 - NTTRACE_WMI_BUFFER_HEADER_SIZE;
	u32 all = NTTRACE_TRACE_MESSAGE_SEQUENCE | NTTRACE_TRACE_MESSAGE_GUID |
		  NTTRACE_TRACE_MESSAGE_TIMESTAMP | NTTRACE_TRACE_MESSAGE_SYSTEMINFO;
	struct nttrace_logger_info info;
	struct arg a[2] = { { d, 0x10000 }, { d, 0 } };

	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, a, 1), NTTRACE_STATUS_INTEGER_OVERFLOW);
	a[0].size = U16_MAX - 8;	/* Size 0xFFFF: fits 16 bits, not the buffer */
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, a, 1), NTTRACE_STATUS_BUFFER_OVERFLOW);
	a[0].size = U16_MAX - 7;
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, a, 1), NTTRACE_STATUS_INTEGER_OVERFLOW);
	a[0].size = U16_MAX - items_size(all | NTTRACE_TRACE_MESSAGE_POINTER64) + 1;
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, all, a, 1), NTTRACE_STATUS_INTEGER_OVERFLOW);
	a[0].size = 0x8000;
	a[1].size = 0x8000;
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, a, 2), NTTRACE_STATUS_INTEGER_OVERFLOW);
	a[0].size = 0xFFFFFFFF00000004ULL;
	a[1].size = 4;
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, a, 2), NTTRACE_STATUS_INTEGER_OVERFLOW);

	/* The largest event a buffer takes, and one byte more. */
	a[0].size = max - 8;
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, a, 1), NTTRACE_STATUS_SUCCESS);
	a[0].size = max - 7;
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, a, 1), NTTRACE_STATUS_BUFFER_OVERFLOW);
	a[0].size = max - items_size(all | NTTRACE_TRACE_MESSAGE_POINTER64);
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, all, a, 1), NTTRACE_STATUS_SUCCESS);

	/* 32-bit callers: the size word is 32 bits. */
	a[0].ptr = data_at(ctx, COMPAT);
	a[0].size = 0xFFFFFFFF;
	KUNIT_EXPECT_EQ(test, send_args(test, COMPAT, 0, a, 1), NTTRACE_STATUS_INTEGER_OVERFLOW);
	a[0].size = 0x10000;
	KUNIT_EXPECT_EQ(test, send_args(test, WOW64, 0, a, 1), NTTRACE_STATUS_INTEGER_OVERFLOW);

	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, ctx->k->id, &info), 0);
	KUNIT_EXPECT_EQ(test, info.events_written, 2);
	KUNIT_EXPECT_EQ(test, info.events_lost, 0);
}

/* ---- The items ---- */

/* Every combination of the six caller flags, for each kind of caller. */
static void items_test(struct kunit *test)
{
	struct msg_ctx *ctx = test->priv;
	struct ntk_record *recs;
	u64 *before = kunit_kcalloc(test, 2 * 64, sizeof(u64), GFP_KERNEL);
	u64 *after = before + 64;
	u32 seq = 0, got;
	enum caller who;
	u16 n0, f;

	KUNIT_ASSERT_NOT_NULL(test, before);

	for (who = NATIVE; who <= WOW64; who++) {
		struct arg a = { data_at(ctx, who) + 20, 3 };
		u32 size = put_list(test, list_at(ctx, who), &a, 1, true, psz(who));
		const u8 *data = concat(test, &a, 1, &got);

		n0 = ctx->number;
		ctx->number += 64;
		for (f = 0; f < 64; f++) {
			/* Bits other than the six are the kernel's: ignored. */
			u32 mflags = f | ((f & 1) ? 0xFFC0 : NTTRACE_TRACE_MESSAGE_POINTER32);

			before[f] = nt_clock_now(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
			KUNIT_EXPECT_EQ(test, send(ctx, who, n0 + f, mflags, list_at(ctx, who),
						   size), NTTRACE_STATUS_SUCCESS);
			after[f] = nt_clock_now(NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER);
		}
		KUNIT_ASSERT_EQ(test, ntk_collect(test, ctx->k, &recs), 64);
		for (f = 0; f < 64; f++) {
			const struct ntk_record *r = find(test, recs, 64, n0 + f);
			u16 oflags = f | ptr_flag(who);
			const u8 *p;
			u32 v[2];
			u64 ts;

			check_message(test, r, n0 + f, oflags, data, got);
			if (!r)
				continue;
			p = r->data + sizeof(struct nttrace_message_trace_header);
			if (f & NTTRACE_TRACE_MESSAGE_SEQUENCE) {
				/* The session's own counter, from 1, one per such event. */
				memcpy(v, p, 4);
				KUNIT_EXPECT_EQ_MSG(test, v[0], ++seq, "flags %#x", f);
				p += 4;
			}
			if (f & NTTRACE_TRACE_MESSAGE_COMPONENTID) {
				/* COMPONENTID wins over GUID: the first 4 bytes. */
				KUNIT_EXPECT_MEMEQ(test, p, ctx->guid, 4);
				p += 4;
			} else if (f & NTTRACE_TRACE_MESSAGE_GUID) {
				KUNIT_EXPECT_MEMEQ(test, p, ctx->guid, 16);
				p += 16;
			}
			if (f & (NTTRACE_TRACE_MESSAGE_TIMESTAMP |
				 NTTRACE_TRACE_MESSAGE_PERFORMANCE_TIMESTAMP)) {
				memcpy(&ts, p, 8);
				if (f & NTTRACE_TRACE_MESSAGE_TIMESTAMP) {
					KUNIT_EXPECT_GE_MSG(test, ts, before[f], "flags %#x", f);
					KUNIT_EXPECT_LE_MSG(test, ts, after[f], "flags %#x", f);
				} else {
					/* Room for a stamp, but none written. */
					KUNIT_EXPECT_EQ_MSG(test, ts, 0, "flags %#x", f);
				}
				p += 8;
			}
			if (f & NTTRACE_TRACE_MESSAGE_SYSTEMINFO) {
				memcpy(v, p, 8);
				KUNIT_EXPECT_EQ(test, v[0], current->pid);
				KUNIT_EXPECT_EQ(test, v[1], current->tgid);
				p += 8;
			}
			KUNIT_EXPECT_PTR_EQ(test, p, r->data + items_size(oflags));
		}
	}
}

/* The logger ID is the low 16 bits of TraceHandle; 0 and 0xFFFF are none. */
static void handle_test(struct kunit *test)
{
	struct msg_ctx *ctx = test->priv;
	struct ntk_record *recs;
	u32 ids[NTTRACE_MAX_LOGGERS], count, unused = 0, i;
	struct nttrace_message_trace_user m = { .message_number = ctx->number };
	struct nttrace_call call = {
		.trace_handle = ctx->k->id,
		.flags = NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE,
		.field_size = NTTRACE_MESSAGE_TRACE_USER_SIZE,
	};
	u16 n0 = ctx->number;
	unsigned long u;

	KUNIT_EXPECT_EQ(test, send_handle(ctx, NATIVE, 0, n0, 0, 0, 0),
			NTTRACE_STATUS_INVALID_HANDLE);
	KUNIT_EXPECT_EQ(test, send_handle(ctx, NATIVE, 0xFFFF, n0, 0, 0, 0),
			NTTRACE_STATUS_INVALID_HANDLE);
	KUNIT_EXPECT_EQ(test, send_handle(ctx, NATIVE, 0x12340000ULL, n0, 0, 0, 0),
			NTTRACE_STATUS_INVALID_HANDLE);
	nt_session_list(ids, ARRAY_SIZE(ids), &count);
	for (unused = 1; unused <= NTTRACE_MAX_LOGGERS; unused++) {
		for (i = 0; i < count && ids[i] != unused; i++)
			;
		if (i == count)
			break;
	}
	KUNIT_EXPECT_EQ(test, send_handle(ctx, NATIVE, unused, n0, 0, 0, 0),
			NTTRACE_STATUS_INVALID_HANDLE);
	KUNIT_EXPECT_EQ(test, send_handle(ctx, NATIVE, NTTRACE_MAX_LOGGERS + 1, n0, 0, 0, 0),
			NTTRACE_STATUS_INVALID_HANDLE);
	KUNIT_EXPECT_EQ(test, send_handle(ctx, COMPAT, 0xFFFF0000ULL | ctx->k->id, n0, 0, 0, 0),
			NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, send_handle(ctx, NATIVE, 0xABCDEF0000000000ULL | ctx->k->id,
					  n0 + 1, 0, 0, 0), NTTRACE_STATUS_SUCCESS);

	/* FieldSize other than MESSAGE_TRACE_USER's: refused first. */
	call.field_size = 0x30;
	KUNIT_EXPECT_EQ(test, ntk_message(&call, &m), NTTRACE_STATUS_INVALID_PARAMETER);
	call.field_size = 0x20;
	call.trace_handle = 0;
	KUNIT_EXPECT_EQ(test, ntk_message(&call, &m), NTTRACE_STATUS_INVALID_PARAMETER);

	/* The whole way in through the front door, Fields in user memory. */
	m.message_number = n0 + 2;
	m.message_flags = NTTRACE_TRACE_MESSAGE_SEQUENCE;
	u = list_at(ctx, NATIVE) + PAGE_SIZE;
	KUNIT_ASSERT_EQ(test, copy_to_user((void __user *)u, &m, sizeof(m)), 0);
	call.trace_handle = ctx->k->id;
	call.field_size = NTTRACE_MESSAGE_TRACE_USER_SIZE;
	call.fields = (uintptr_t)u;
	KUNIT_EXPECT_EQ(test, nttrace_trace_event(&call), NTTRACE_STATUS_SUCCESS);
	ctx->number += 3;

	KUNIT_ASSERT_EQ(test, ntk_collect(test, ctx->k, &recs), 3);
	check_message(test, find(test, recs, 3, n0), n0, NTTRACE_TRACE_MESSAGE_POINTER32, NULL, 0);
	check_message(test, find(test, recs, 3, n0 + 1), n0 + 1, NTTRACE_TRACE_MESSAGE_POINTER64,
		      NULL, 0);
	check_message(test, find(test, recs, 3, n0 + 2), n0 + 2,
		      NTTRACE_TRACE_MESSAGE_SEQUENCE | NTTRACE_TRACE_MESSAGE_POINTER64, NULL, 0);
}

/* ---- The staged copy ---- */

/* Is the page of @addr present in the test's page tables? Faults nothing in. */
static bool present(unsigned long addr)
{
	u8 b;

	return !copy_from_user_nofault(&b, (const void __user *)addr, 1);
}

/* One page of a shmem file holding the data pattern, mapped but not touched. */
static unsigned long fresh_file_page(struct kunit *test)
{
	struct file *f = shmem_file_setup("nttrace-kunit", PAGE_SIZE, 0);
	unsigned long u;
	loff_t pos = 0;
	u8 *buf;
	size_t i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	buf = kunit_kmalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < PAGE_SIZE; i++)
		buf[i] = pattern(i) ^ 0x5A;
	KUNIT_EXPECT_EQ(test, kernel_write(f, buf, PAGE_SIZE, &pos), (ssize_t)PAGE_SIZE);
	u = kunit_vm_mmap(test, f, 0, PAGE_SIZE, PROT_READ, MAP_SHARED, 0);
	fput(f);		/* the mapping holds its own reference */
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(u) || !u);
	return u;
}

/*
 * An argument in pages not yet faulted in cannot be copied with interrupts
 * off: the reservation is given back and the bytes are read with faults
 * allowed into a staging buffer. The record is the one the direct copy
 * gives. That the staged path ran shows in the pages: only its copy can
 * fault them in.
 */
static void staged_test(struct kunit *test)
{
	struct msg_ctx *ctx = test->priv;
	unsigned long d = data_at(ctx, NATIVE), file, anon;
	u32 f = NTTRACE_TRACE_MESSAGE_GUID | NTTRACE_TRACE_MESSAGE_SYSTEMINFO;
	struct ntk_record *first, *again;
	u16 number = ctx->number;
	u8 want[5 + 20 + 6 + 3];
	struct arg args[4];
	u32 size, i;

	file = fresh_file_page(test);
	anon = ntk_user(test, 0, PAGE_SIZE, PROT_READ | PROT_WRITE);
	args[0] = (struct arg){ d + 1, 5 };
	args[1] = (struct arg){ file + 10, 20 };
	args[2] = (struct arg){ anon + 7, 6 };
	args[3] = (struct arg){ d + 9, 3 };
	for (i = 0; i < 5; i++)
		want[i] = pattern(1 + i);
	for (i = 0; i < 20; i++)
		want[5 + i] = pattern(10 + i) ^ 0x5A;
	memset(want + 25, 0, 6);		/* a fresh anonymous page reads as zeros */
	for (i = 0; i < 3; i++)
		want[31 + i] = pattern(9 + i);
	size = put_list(test, list_at(ctx, NATIVE), args, ARRAY_SIZE(args), true, 8);

	KUNIT_ASSERT_FALSE(test, present(file));
	KUNIT_ASSERT_FALSE(test, present(anon));
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, number, f, list_at(ctx, NATIVE), size),
			NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_TRUE_MSG(test, present(file), "the staged copy did not run");
	KUNIT_EXPECT_TRUE_MSG(test, present(anon), "the staged copy did not run");
	KUNIT_ASSERT_EQ(test, ntk_collect(test, ctx->k, &first), 1);
	check_message(test, first, number, f | NTTRACE_TRACE_MESSAGE_POINTER64, want, sizeof(want));

	/* Again, the pages present: the direct copy, the same record. */
	KUNIT_EXPECT_EQ(test, send(ctx, NATIVE, number, f, list_at(ctx, NATIVE), size),
			NTTRACE_STATUS_SUCCESS);
	KUNIT_ASSERT_EQ(test, ntk_collect(test, ctx->k, &again), 1);
	KUNIT_ASSERT_EQ(test, again->size, first->size);
	KUNIT_EXPECT_MEMEQ(test, again->data, first->data, ALIGN(first->size, 8));
	KUNIT_EXPECT_EQ(test, events_written(ctx), 2);

	/* 32-bit callers take the same path. */
	anon = ntk_user(test, LOW_BASE + USER_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE);
	args[0] = (struct arg){ anon + 100, 8 };
	size = put_list(test, list_at(ctx, COMPAT), args, 1, true, 4);
	KUNIT_ASSERT_FALSE(test, present(anon));
	KUNIT_EXPECT_EQ(test, send(ctx, COMPAT, number + 1, 0, list_at(ctx, COMPAT), size),
			NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_TRUE_MSG(test, present(anon), "the staged copy did not run");
	KUNIT_ASSERT_EQ(test, ntk_collect(test, ctx->k, &first), 1);
	memset(want, 0, 8);
	check_message(test, first, number + 1, NTTRACE_TRACE_MESSAGE_POINTER32, want, 8);
}

/*
 * An argument that cannot be read at all: NTTRACE_STATUS_ACCESS_VIOLATION, from
 * the staged path, and nothing committed.
 */
static void fault_test(struct kunit *test)
{
	struct msg_ctx *ctx = test->priv;
	unsigned long d = data_at(ctx, NATIVE), gone, fresh, low_none;
	static const u8 kernel_bytes[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct nttrace_logger_info info;
	struct arg args[3];

	/* Mapped, then unmapped: nothing can be mapped there in between. */
	gone = ntk_user(test, 0, PAGE_SIZE, PROT_READ | PROT_WRITE);
	fresh = ntk_user(test, 0, 2 * PAGE_SIZE, PROT_READ);
	low_none = ntk_user(test, LOW_BASE + USER_SIZE, PAGE_SIZE, PROT_NONE);
	KUNIT_ASSERT_EQ(test, vm_munmap(gone, PAGE_SIZE), 0);
	KUNIT_ASSERT_EQ(test, vm_munmap(fresh + PAGE_SIZE, PAGE_SIZE), 0);
	args[0] = (struct arg){ d, 5 };
	args[2] = (struct arg){ d + 5, 5 };

	args[1] = (struct arg){ ctx->none, 4 };			/* PROT_NONE */
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, args, 3), NTTRACE_STATUS_ACCESS_VIOLATION);
	args[1] = (struct arg){ gone + 8, 4 };			/* unmapped */
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, args, 3), NTTRACE_STATUS_ACCESS_VIOLATION);
	args[1] = (struct arg){ (unsigned long)kernel_bytes, 8 };	/* not user memory */
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, args, 3), NTTRACE_STATUS_ACCESS_VIOLATION);
	/* The first bytes readable (once faulted in), the last not. */
	args[1] = (struct arg){ fresh + PAGE_SIZE - 2, 4 };
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, args, 3), NTTRACE_STATUS_ACCESS_VIOLATION);
	/* A readable argument after an unreadable one changes nothing. */
	args[0] = (struct arg){ ctx->none + 16, 1 };
	args[1] = (struct arg){ fresh, 4 };
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, args, 3), NTTRACE_STATUS_ACCESS_VIOLATION);
	args[0] = (struct arg){ data_at(ctx, COMPAT), 3 };
	args[1] = (struct arg){ low_none + 16, 1 };
	KUNIT_EXPECT_EQ(test, send_args(test, COMPAT, 0, args, 2), NTTRACE_STATUS_ACCESS_VIOLATION);
	KUNIT_EXPECT_EQ(test, send_args(test, WOW64, 0, args, 2), NTTRACE_STATUS_ACCESS_VIOLATION);

	KUNIT_ASSERT_EQ(test, ntk_control(NTTRACE_EVENT_TRACE_CONTROL_QUERY, ctx->k->id, &info), 0);
	KUNIT_EXPECT_EQ(test, info.events_written, 0);
	KUNIT_EXPECT_EQ(test, info.events_lost, 0);
	KUNIT_EXPECT_EQ(test, info.buffers_written, 0);

	/* The session goes on as before. */
	args[0] = (struct arg){ d, 5 };
	KUNIT_EXPECT_EQ(test, send_args(test, NATIVE, 0, args, 1), NTTRACE_STATUS_SUCCESS);
	KUNIT_EXPECT_EQ(test, events_written(ctx), 1);
}

static struct kunit_case nttrace_message_cases[] = {
	KUNIT_CASE(no_args_test),
	KUNIT_CASE(one_arg_test),
	KUNIT_CASE(many_args_test),
	KUNIT_CASE(list_alignment_test),
	KUNIT_CASE(odd_sizes_test),
	KUNIT_CASE(unterminated_test),
	KUNIT_CASE(size_overflow_test),
	KUNIT_CASE(items_test),
	KUNIT_CASE(handle_test),
	KUNIT_CASE(staged_test),
	KUNIT_CASE(fault_test),
	{}
};

static struct kunit_suite nttrace_message_suite = {
	.name = "nttrace_message",
	.init = msg_init,
	.test_cases = nttrace_message_cases,
};

kunit_test_suite(nttrace_message_suite);
