// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite nttrace_noreg: NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG
 * (module/noreg.c) and NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY
 * (module/security.c) through the front door, for 64-bit, compat, WOW64
 * and kernel-mode callers: the records (byte offsets of EVENT_HEADER
 * written here, not taken from the uapi structs), every status the two
 * types return, the GUID held with no registration (nt_provider_hold()), an
 * enable made before any registration, and the security registration's
 * rules (one at a time, its end, other processes and kernel-mode callers
 * refused).
 */
#include <kunit/test.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <nttrace/wdm.h>

#include "kunit_util.h"
#include "noreg.h"
#include "policy.h"
#include "provider.h"
#include "security.h"

#define AREA_SIZE	(2 * PAGE_SIZE)
#define GUID_OFF	0x100		/* the provider GUID, in the area */
#define DESC_OFF	0x200		/* one data descriptor */
#define DATA_OFF	0x300		/* its bytes */
#define DATA_LEN	13
#define LOW_BASE	0x39000000UL	/* user memory a 32-bit pointer reaches */
#define EH_SIZE		0x50

enum caller { NATIVE, COMPAT, WOW64, KERNEL, NCALLERS };

static const u8 nr_guid[16] = {
	0x4e, 0x4f, 0x52, 0x45, 0x47, 0x01, 0x02, 0x03,
	0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
};

struct nr_ctx {
	unsigned long base[2];	/* user memory: anywhere; below 4 GiB */
	u8 *kmem;		/* the kernel-mode caller's */
	unsigned long none;	/* a PROT_NONE page */
};

static int nr_init(struct kunit *test)
{
	struct nr_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->base[0] = ntk_user(test, 0, AREA_SIZE, PROT_READ | PROT_WRITE);
	ctx->base[1] = ntk_user(test, LOW_BASE, AREA_SIZE, PROT_READ | PROT_WRITE);
	ctx->kmem = kunit_kzalloc(test, AREA_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->kmem);
	ctx->none = ntk_user(test, 0, PAGE_SIZE, PROT_NONE);
	test->priv = ctx;
	return 0;
}

static u64 area(struct nr_ctx *ctx, enum caller who)
{
	return who == KERNEL ? (uintptr_t)ctx->kmem : ctx->base[who != NATIVE];
}

static void poke(struct kunit *test, enum caller who, u64 at, const void *src, size_t len)
{
	if (who == KERNEL)
		memcpy((void *)(uintptr_t)at, src, len);
	else
		KUNIT_ASSERT_EQ(test, copy_to_user(u64_to_user_ptr(at), src, len), 0);
}

/* One call. */
struct nr {
	enum caller who;
	u32 type;		/* NOREG or SECURITY */
	u8 level;
	u64 handle;		/* ~0: the area's GUID; else as given */
	u32 field_size;		/* 0: 0x78 */
	u32 count;		/* descriptors */
	u64 data;		/* ~0: the area's descriptor; else as given */
	u32 desc_size;		/* the descriptor's Size; 0: DATA_LEN */
	u32 flags;		/* the block's +0x70 */
};

static u32 send(struct kunit *test, const struct nr *e)
{
	struct nr_ctx *ctx = test->priv;
	u64 at = area(ctx, e->who);
	u8 f[0x78] = {}, d[16] = {}, bytes[DATA_LEN];
	struct nttrace_call call = {
		.trace_handle = e->handle == ~0ULL ? at + GUID_OFF : e->handle,
		.flags = e->type | (e->who == WOW64 ? NTTRACE_ETW_NT_FLAGS_WOW64_CALL : 0),
		.field_size = e->field_size ? e->field_size : 0x78,
		.fields = at,
		.compat = e->who == COMPAT,
		.kernel_mode = e->who == KERNEL,
	};
	unsigned int i;

	for (i = 0; i < DATA_LEN; i++)
		bytes[i] = (u8)(0x30 + i);
	ntk_put_le(f + 6, 0x0001, 2);		/* EventProperty */
	ntk_put_le(f + 0x28, 0x0707, 2);	/* Id */
	f[0x2c] = e->level;
	ntk_put_le(f + 0x30, 0, 8);		/* Keyword: every session's */
	f[0x40] = 0xAC;				/* ActivityId */
	ntk_put_le(f + 0x54, e->count, 4);
	ntk_put_le(f + 0x58, e->data == ~0ULL ? at + DESC_OFF : e->data, 8);
	ntk_put_le(f + 0x70, e->flags, 4);
	ntk_put_le(d, at + DATA_OFF, 8);
	ntk_put_le(d + 8, e->desc_size ? e->desc_size : DATA_LEN, 4);
	poke(test, e->who, at, f, sizeof(f));
	poke(test, e->who, at + GUID_OFF, nr_guid, 16);
	poke(test, e->who, at + DESC_OFF, d, 16);
	poke(test, e->who, at + DATA_OFF, bytes, DATA_LEN);
	return nttrace_trace_event(&call);
}

static struct ntk_session *start(struct kunit *test, const char *name)
{
	struct nttrace_logger_info info;

	ntk_info(&info, name);
	info.buffer_size_kb = 16;
	info.max_buffers = 8;
	return ntk_start(test, &info);
}

static int enable(u32 id, const u8 *guid, u32 control, u32 level)
{
	struct nttrace_enable e = {
		.size = sizeof(e), .logger_id = id, .control = control, .level = level,
	};

	memcpy(e.guid, guid, 16);
	return nt_provider_enable(&e);
}

/* The one record @k must hold: the header as Windows writes it, our data. */
static void check_one(struct kunit *test, struct ntk_session *k, enum caller who,
		      const u8 *guid)
{
	bool ptr32 = who == COMPAT || who == WOW64;
	struct ntk_record *r;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, ntk_collect(test, k, &r), 1);
	KUNIT_EXPECT_EQ(test, r->size, EH_SIZE + DATA_LEN);
	KUNIT_EXPECT_EQ(test, r->data[2], ptr32 ? 0x12 : 0x13);
	KUNIT_EXPECT_EQ(test, r->data[3], 0xC0);
	KUNIT_EXPECT_EQ(test, ntk_get_le(r->data + 4, 2), 0x10 | (ptr32 ? 0x20 : 0x40));
	KUNIT_EXPECT_EQ(test, ntk_get_le(r->data + 6, 2), 1);	/* EventProperty */
	KUNIT_EXPECT_EQ(test, memcmp(r->data + 0x18, guid, 16), 0);
	KUNIT_EXPECT_EQ(test, ntk_get_le(r->data + 0x28, 2), 0x0707);
	KUNIT_EXPECT_EQ(test, r->data[0x40], 0xAC);
	for (i = 0; i < DATA_LEN; i++)
		KUNIT_EXPECT_EQ(test, r->data[EH_SIZE + i], 0x30 + i);
}

static void none(struct kunit *test, struct ntk_session *k)
{
	struct ntk_record *r;

	KUNIT_EXPECT_EQ(test, ntk_collect(test, k, &r), 0);
}

/* ---- TRACE_EVENT_NOREG ---- */

static void noreg_test(struct kunit *test)
{
	struct ntk_session *k = start(test, "knr-noreg");
	struct nr_ctx *ctx = test->priv;
	enum caller who;

	for (who = NATIVE; who < NCALLERS; who++) {
		struct nr e = { .who = who, .type = NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG,
				.level = 4, .handle = ~0ULL, .count = 1, .data = ~0ULL };

		/* Not enabled by anyone: WMI_ALREADY_DISABLED. */
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_WMI_ALREADY_DISABLED);
		/* Enabled with no registration: one record, ProviderId the GUID. */
		KUNIT_ASSERT_EQ(test, enable(k->id, nr_guid, 1, 4), 0);
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_SUCCESS);
		check_one(test, k, who, nr_guid);
		/* Enabled, but not for this level: SUCCESS, nothing. */
		e.level = 5;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_SUCCESS);
		none(test, k);
		e.level = 4;
		/* TraceHandle NULL, unreadable. */
		e.handle = 0;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
		e.handle = who == KERNEL ? 0x40 : ctx->none;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_VIOLATION);
		e.handle = ~0ULL;
		/* The block's checks. */
		e.field_size = 0x48;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
		e.field_size = 0;
		e.count = NTTRACE_MAX_EVENT_DATA_DESCRIPTORS + 1;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
		e.count = 0;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
		e.count = 1;
		e.data = 0;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
		e.data = ~0ULL;
		e.flags = 0x8;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
		e.flags = 0;
		e.desc_size = 0x10000;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_BUFFER_OVERFLOW);
		e.desc_size = 0;
		none(test, k);
		/* Disabled again: the GUID is forgotten. */
		KUNIT_ASSERT_EQ(test, enable(k->id, nr_guid, 0, 0), 0);
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_WMI_ALREADY_DISABLED);
	}
}

/* EtwWriteNoRegistration, the kernel-mode API's (module/kapi.c). */
static void kapi_test(struct kunit *test)
{
	struct ntk_session *k = start(test, "knr-kapi");
	struct nttrace_event_descriptor d = { .id = 0x0707, .version = 0, .level = 4 };
	struct nttrace_event_data_descriptor data = { .size = DATA_LEN };
	u8 bytes[DATA_LEN];
	struct ntk_record *r;
	unsigned int i;

	for (i = 0; i < DATA_LEN; i++)
		bytes[i] = (u8)(0x30 + i);
	data.ptr = (uintptr_t)bytes;
	KUNIT_EXPECT_EQ(test, EtwWriteNoRegistration((const guid_t *)nr_guid, &d, 1, &data),
			NTTRACE_STATUS_WMI_ALREADY_DISABLED);
	KUNIT_ASSERT_EQ(test, enable(k->id, nr_guid, 1, 4), 0);
	KUNIT_EXPECT_EQ(test, EtwWriteNoRegistration(NULL, &d, 1, &data),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, EtwWriteNoRegistration((const guid_t *)nr_guid, NULL, 1, &data),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, EtwWriteNoRegistration((const guid_t *)nr_guid, &d, 1, NULL),
			NTTRACE_STATUS_INVALID_PARAMETER);
	KUNIT_EXPECT_EQ(test, EtwWriteNoRegistration((const guid_t *)0x40, &d, 1, &data),
			NTTRACE_STATUS_ACCESS_VIOLATION);
	none(test, k);
	KUNIT_EXPECT_EQ(test, EtwWriteNoRegistration((const guid_t *)nr_guid, &d, 1, &data),
			NTTRACE_STATUS_SUCCESS);
	KUNIT_ASSERT_EQ(test, ntk_collect(test, k, &r), 1);
	KUNIT_EXPECT_EQ(test, r->size, EH_SIZE + DATA_LEN);
	KUNIT_EXPECT_EQ(test, r->data[2], 0x13);
	KUNIT_EXPECT_EQ(test, memcmp(r->data + 0x18, nr_guid, 16), 0);
	KUNIT_EXPECT_EQ(test, ntk_get_le(r->data + 0x28, 2), 0x0707);
	KUNIT_EXPECT_EQ(test, memcmp(r->data + EH_SIZE, bytes, DATA_LEN), 0);
}

/* The hold: NULL for a GUID nobody enables, the node kept while held. */
static void hold_test(struct kunit *test)
{
	struct ntk_session *k = start(test, "knr-hold");
	struct nt_reg *r;

	KUNIT_EXPECT_NULL(test, nt_provider_hold(nr_guid));
	KUNIT_ASSERT_EQ(test, enable(k->id, nr_guid, 1, 0), 0);
	r = nt_provider_hold(nr_guid);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	KUNIT_EXPECT_EQ(test, memcmp(nt_reg_guid(r), nr_guid, 16), 0);
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, nt_reg_wanted_rcu(r, 1, 1, 0, NULL), BIT_ULL(k->id - 1));
	rcu_read_unlock();
	/* Disabled while held: the node stays (KASAN would see it freed). */
	KUNIT_ASSERT_EQ(test, enable(k->id, nr_guid, 0, 0), 0);
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, nt_reg_wanted_rcu(r, 1, 1, 0, NULL), 0ULL);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, memcmp(nt_reg_guid(r), nr_guid, 16), 0);
	nt_provider_unhold(r);
	KUNIT_EXPECT_NULL(test, nt_provider_hold(nr_guid));
}

/* ---- TRACE_SECURITY ---- */

static void security_test(struct kunit *test)
{
	static const u8 sec_guid[16] = NTTRACE_SECURITY_PROVIDER_GUID_BYTES;
	struct ntk_session *k = start(test, "knr-security");
	/* Only the pointers' identity matters to the registration. */
	struct file *f1 = (struct file *)test, *f2 = (struct file *)k;
	enum caller who;

	/* {54849625-5478-4994-A5BA-3E3B0328C30D} as its bytes. */
	KUNIT_EXPECT_EQ(test, sec_guid[0], 0x25);
	KUNIT_EXPECT_EQ(test, sec_guid[3], 0x54);
	KUNIT_EXPECT_EQ(test, sec_guid[15], 0x0D);
	KUNIT_EXPECT_EQ(test, memcmp(nt_security_guid, sec_guid, 16), 0);

	for (who = NATIVE; who < NCALLERS; who++) {
		struct nr e = { .who = who, .type = NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY,
				.level = 4, .count = 1, .data = ~0ULL };

		/* No registration: ACCESS_DENIED, before the block is looked at. */
		KUNIT_EXPECT_FALSE(test, nt_security_caller());
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_DENIED);
		e.field_size = 0x48;
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_DENIED);
		e.field_size = 0;

		KUNIT_ASSERT_EQ(test, nt_security_register(f1), 0);
		KUNIT_EXPECT_EQ(test, nt_security_register(f2), -EBUSY);
		KUNIT_EXPECT_EQ(test, nt_security_register(f1), -EBUSY);
		KUNIT_EXPECT_TRUE(test, nt_security_caller());
		/* Another file's end does not end it. */
		nt_security_release(f2);
		KUNIT_EXPECT_TRUE(test, nt_security_caller());

		if (who == KERNEL) {
			/* Kernel-mode callers are never the security provider. */
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_DENIED);
		} else {
			/* Nobody enables the provider: SUCCESS, nothing written. */
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_SUCCESS);
			none(test, k);
			KUNIT_ASSERT_EQ(test, enable(k->id, sec_guid, 1, 0), 0);
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_SUCCESS);
			check_one(test, k, who, sec_guid);
			/* The block's checks, after the registration's. */
			e.field_size = 0x48;
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
			e.field_size = 0;
			e.count = 0;
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
			e.count = NTTRACE_MAX_EVENT_DATA_DESCRIPTORS + 1;
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_INVALID_PARAMETER);
			e.count = 1;
			e.desc_size = 0x10000;
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_BUFFER_OVERFLOW);
			e.desc_size = 0;
			e.data = ((struct nr_ctx *)test->priv)->none;
			KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_VIOLATION);
			e.data = ~0ULL;
			none(test, k);
			KUNIT_ASSERT_EQ(test, enable(k->id, sec_guid, 0, 0), 0);
		}
		/* The registering file's end ends it. */
		nt_security_release(f1);
		KUNIT_EXPECT_FALSE(test, nt_security_caller());
		KUNIT_EXPECT_EQ(test, send(test, &e), NTTRACE_STATUS_ACCESS_DENIED);
	}
}

static struct kunit_case nttrace_noreg_cases[] = {
	KUNIT_CASE(noreg_test),
	KUNIT_CASE(hold_test),
	KUNIT_CASE(kapi_test),
	KUNIT_CASE(security_test),
	{}
};

static struct kunit_suite nttrace_noreg_suite = {
	.name = "nttrace_noreg",
	.init = nr_init,
	.test_cases = nttrace_noreg_cases,
};

kunit_test_suite(nttrace_noreg_suite);
