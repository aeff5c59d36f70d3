// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suites for NtTraceEvent's front door (module/ntevent.c): Flags
 * decoding, the type table, and dispatch with its user-mode defences,
 * exercised on real user memory from kunit_vm_mmap().
 */
#include <kunit/test.h>
#include <linux/mman.h>
#include <linux/uaccess.h>

#include "ntevent.h"

/* NtTraceEvent's nine valid types, for Windows 6.1 and higher. */
static const u32 valid_types[] = {
	NTTRACE_ETW_NT_FLAGS_TRACE_HEADER, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE,
	NTTRACE_ETW_NT_FLAGS_TRACE_EVENT, NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM,
	NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY, NTTRACE_ETW_NT_FLAGS_TRACE_MARK,
	NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG, NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE,
	NTTRACE_ETW_NT_FLAGS_TRACE_RAW,
};

static bool is_valid_type(u32 type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(valid_types); i++)
		if (valid_types[i] == type)
			return true;
	return false;
}

/* ---- Flags decoding ---- */

struct decode_case {
	u32 flags;
	struct nttrace_flags want;
};

static const struct decode_case decode_cases[] = {
	{ 0x00000000, { 0, 0, 0, false, false } },
	{ 0x00000200, { 0x200, 0, 0, false, false } },
	{ 0x000002FF, { 0x200, 0xFF, 0, false, false } },
	{ 0x00050800, { 0x800, 0, 5, false, false } },
	{ 0x000F0000, { 0, 0, 15, false, false } },
	{ 0x40000100, { 0x100, 0, 0, true, false } },
	{ 0x80000200, { 0x200, 0, 0, false, true } },
	{ 0xC00F0203, { 0x200, 3, 15, true, true } },
	/* Bits no version defines are ignored by decoding. */
	{ 0x3FF00200, { 0x200, 0, 0, false, false } },
	{ 0xFFFFFFFF, { 0xFF00, 0xFF, 15, true, true } },
};

static void decode_flags_test(struct kunit *test)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(decode_cases); i++) {
		const struct decode_case *c = &decode_cases[i];
		struct nttrace_flags got;

		memset(&got, 0xAA, sizeof(got));
		nttrace_decode_flags(c->flags, &got);
		KUNIT_EXPECT_EQ_MSG(test, got.type, c->want.type, "flags %#x", c->flags);
		KUNIT_EXPECT_EQ_MSG(test, got.version, c->want.version, "flags %#x", c->flags);
		KUNIT_EXPECT_EQ_MSG(test, got.frames_to_skip, c->want.frames_to_skip,
				    "flags %#x", c->flags);
		KUNIT_EXPECT_EQ_MSG(test, got.native_header, c->want.native_header,
				    "flags %#x", c->flags);
		KUNIT_EXPECT_EQ_MSG(test, got.wow64, c->want.wow64, "flags %#x", c->flags);
	}
}

/* ---- The type table ---- */

static void find_type_test(struct kunit *test)
{
	unsigned int n = 0;
	u32 type;

	for (type = 0; type <= NTTRACE_ETW_NT_TRACE_TYPE_MASK; type += 0x100) {
		const struct nttrace_type *t = nttrace_find_type(type);

		if (!is_valid_type(type)) {
			KUNIT_EXPECT_NULL_MSG(test, t, "type %#x", type);
			continue;
		}
		n++;
		KUNIT_ASSERT_NOT_NULL_MSG(test, t, "type %#x", type);
		KUNIT_EXPECT_EQ(test, t->type, type);
		KUNIT_EXPECT_NOT_NULL(test, t->name);
		KUNIT_EXPECT_EQ(test, t->align, 4);
		/* TRACE_RAW's handler reads Fields itself (module/raw.c). */
		if (t->type != NTTRACE_ETW_NT_FLAGS_TRACE_RAW)
			KUNIT_EXPECT_GE(test, t->fixed_size, 4);
		KUNIT_EXPECT_LE(test, t->fixed_size, NTTRACE_MAX_FIXED_SIZE);
	}
	KUNIT_EXPECT_EQ(test, n, ARRAY_SIZE(valid_types));

	/* Only the type field is a type: other bits make no entry. */
	KUNIT_EXPECT_NULL(test, nttrace_find_type(0x201));
	KUNIT_EXPECT_NULL(test, nttrace_find_type(0x10200));
}

/* The fixed sizes Windows gives the types whose inputs the seeds describe. */
static void fixed_sizes_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, nttrace_find_type(NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE)->fixed_size,
			0x28);
	KUNIT_EXPECT_EQ(test, nttrace_find_type(NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE)->fixed_size,
			0x48);
	KUNIT_EXPECT_EQ(test, nttrace_find_type(NTTRACE_ETW_NT_FLAGS_TRACE_HEADER)->fixed_size,
			0x30);
	/* SYSTEM_TRACE_HEADER; ETW_SET_MARK_INFORMATION.Flag; nothing. */
	KUNIT_EXPECT_EQ(test, nttrace_find_type(NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM)->fixed_size,
			0x20);
	KUNIT_EXPECT_EQ(test, nttrace_find_type(NTTRACE_ETW_NT_FLAGS_TRACE_MARK)->fixed_size, 4);
	KUNIT_EXPECT_EQ(test, nttrace_find_type(NTTRACE_ETW_NT_FLAGS_TRACE_RAW)->fixed_size, 0);
}

static void types_implemented_test(struct kunit *test)
{
	u64 bits = nttrace_types_implemented();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(valid_types); i++) {
		const struct nttrace_type *t = nttrace_find_type(valid_types[i]);

		KUNIT_EXPECT_EQ(test, !!(bits & NTTRACE_TYPE_BIT(t->type)), !!t->handler);
	}
	/* No bit for an invalid type, nor for type 0. */
	for (i = 0; i < 64; i++)
		if (bits & (1ULL << i))
			KUNIT_EXPECT_TRUE(test, is_valid_type(i << 8));
}

static struct kunit_case nttrace_flags_cases[] = {
	KUNIT_CASE(decode_flags_test),
	KUNIT_CASE(find_type_test),
	KUNIT_CASE(fixed_sizes_test),
	KUNIT_CASE(types_implemented_test),
	{}
};

static struct kunit_suite nttrace_flags_suite = {
	.name = "nttrace_flags",
	.test_cases = nttrace_flags_cases,
};

/* ---- Dispatch and the user-mode defences ---- */

struct dispatch_ctx {
	unsigned long page;	/* two readable pages of user memory */
	unsigned long none;	/* one PROT_NONE page */
};

static int dispatch_init(struct kunit *test)
{
	struct dispatch_ctx *ctx;
	unsigned int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->page = kunit_vm_mmap(test, NULL, 0, 2 * PAGE_SIZE,
				  PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, 0);
	ctx->none = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_NONE,
				  MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(ctx->page) || !ctx->page ||
	    IS_ERR_VALUE(ctx->none) || !ctx->none)
		return -ENOMEM;
	/* A recognisable pattern for the capture test. */
	for (i = 0; i < NTTRACE_MAX_FIXED_SIZE; i++)
		if (put_user((u8)(i + 1), (u8 __user *)ctx->page + i))
			return -EFAULT;
	test->priv = ctx;
	return 0;
}

static u32 call_type(u32 flags, unsigned long fields)
{
	struct nttrace_call call = {
		.trace_handle = 1,
		.flags = flags,
		.field_size = 0x28,
		.fields = (uintptr_t)fields,
	};

	return nttrace_trace_event(&call);
}

static void invalid_type_test(struct kunit *test)
{
	struct dispatch_ctx *ctx = test->priv;
	u32 type;

	for (type = 0; type <= NTTRACE_ETW_NT_TRACE_TYPE_MASK; type += 0x100) {
		if (is_valid_type(type))
			continue;
		/* The type is judged first: even bad Fields give INVALID_PARAMETER. */
		KUNIT_EXPECT_EQ_MSG(test, call_type(type, ctx->page),
				    NTTRACE_STATUS_INVALID_PARAMETER, "type %#x", type);
		KUNIT_EXPECT_EQ_MSG(test, call_type(type, ctx->page + 1),
				    NTTRACE_STATUS_INVALID_PARAMETER, "type %#x", type);
		KUNIT_EXPECT_EQ_MSG(test, call_type(type, 0),
				    NTTRACE_STATUS_INVALID_PARAMETER, "type %#x", type);
	}
}

static void valid_type_test(struct kunit *test)
{
	struct dispatch_ctx *ctx = test->priv;
	static const u32 modifiers[] = {
		0, NTTRACE_ETW_NT_FLAGS_WOW64_CALL, NTTRACE_ETW_NT_FLAGS_USE_NATIVE_HEADER,
		NTTRACE_ETW_NT_FLAGS_WOW64_CALL | NTTRACE_ETW_NT_FLAGS_USE_NATIVE_HEADER,
		0x000F0000, 0x00030000 | 0x7F, 0xC00F00FF,
	};
	size_t i, m;

	for (i = 0; i < ARRAY_SIZE(valid_types); i++) {
		const struct nttrace_type *t = nttrace_find_type(valid_types[i]);
		/* Until a handler exists the answer is NOT_IMPLEMENTED. */
		u32 ok = t->handler ? 0 : NTTRACE_STATUS_NOT_IMPLEMENTED;

		if (t->handler)
			continue;	/* handlers have their own suites */
		for (m = 0; m < ARRAY_SIZE(modifiers); m++) {
			u32 flags = t->type | modifiers[m];

			KUNIT_EXPECT_EQ_MSG(test, call_type(flags, ctx->page), ok,
					    "flags %#x", flags);
			KUNIT_EXPECT_EQ_MSG(test, call_type(flags, ctx->page + 2),
					    NTTRACE_STATUS_DATATYPE_MISALIGNMENT, "flags %#x",
					    flags);
			KUNIT_EXPECT_EQ_MSG(test, call_type(flags, 0),
					    NTTRACE_STATUS_ACCESS_VIOLATION, "flags %#x", flags);
			KUNIT_EXPECT_EQ_MSG(test, call_type(flags, ctx->none),
					    NTTRACE_STATUS_ACCESS_VIOLATION, "flags %#x", flags);
		}
	}
}

/* A fixed part that runs off the end of readable memory is unreadable. */
static void straddle_test(struct kunit *test)
{
	struct dispatch_ctx *ctx = test->priv;
	unsigned long end = ctx->page + 2 * PAGE_SIZE;
	size_t i;

	vm_munmap(end - PAGE_SIZE, PAGE_SIZE);
	end -= PAGE_SIZE;
	for (i = 0; i < ARRAY_SIZE(valid_types); i++) {
		const struct nttrace_type *t = nttrace_find_type(valid_types[i]);

		if (t->handler)
			continue;
		/* Wholly inside: readable. Four bytes over: not. */
		KUNIT_EXPECT_EQ(test, call_type(t->type, end - t->fixed_size),
				NTTRACE_STATUS_NOT_IMPLEMENTED);
		KUNIT_EXPECT_EQ(test, call_type(t->type, end - t->fixed_size + 4),
				NTTRACE_STATUS_ACCESS_VIOLATION);
	}
}

/* A handler sees exactly the captured fixed part and the call. */
static const struct nttrace_call *seen_call;
static u8 seen_fixed[NTTRACE_MAX_FIXED_SIZE];
static u8 seen_frames;

static u32 recording_handler(const struct nttrace_type *type,
			     const struct nttrace_call *call,
			     const struct nttrace_flags *flags, const void *fixed)
{
	seen_call = call;
	seen_frames = flags->frames_to_skip;
	memcpy(seen_fixed, fixed, type->fixed_size);
	return 0x12345678;
}

static void handler_test(struct kunit *test)
{
	struct dispatch_ctx *ctx = test->priv;
	const struct nttrace_type fake = {
		.type = NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, .name = "fake", .align = 4,
		.fixed_size = 0x28, .handler = recording_handler,
	};
	struct nttrace_call call = {
		.trace_handle = 7, .flags = 0x00030200, .field_size = 0x28,
		.fields = (uintptr_t)ctx->page,
	};
	struct nttrace_flags flags;
	unsigned int i;

	nttrace_decode_flags(call.flags, &flags);
	memset(seen_fixed, 0, sizeof(seen_fixed));
	seen_call = NULL;
	KUNIT_EXPECT_EQ(test, nttrace_dispatch(&fake, &call, &flags), 0x12345678);
	KUNIT_EXPECT_PTR_EQ(test, seen_call, &call);
	KUNIT_EXPECT_EQ(test, seen_frames, 3);
	for (i = 0; i < 0x28; i++)
		KUNIT_EXPECT_EQ(test, seen_fixed[i], i + 1);
	KUNIT_EXPECT_EQ(test, seen_fixed[0x28], 0);

	/* Defences come before the handler: it is not called. */
	seen_call = NULL;
	call.fields = (uintptr_t)(ctx->page + 1);
	KUNIT_EXPECT_EQ(test, nttrace_dispatch(&fake, &call, &flags),
			NTTRACE_STATUS_DATATYPE_MISALIGNMENT);
	call.fields = (uintptr_t)ctx->none;
	KUNIT_EXPECT_EQ(test, nttrace_dispatch(&fake, &call, &flags),
			NTTRACE_STATUS_ACCESS_VIOLATION);
	KUNIT_EXPECT_NULL(test, seen_call);
}

static struct kunit_case nttrace_dispatch_cases[] = {
	KUNIT_CASE(invalid_type_test),
	KUNIT_CASE(valid_type_test),
	KUNIT_CASE(straddle_test),
	KUNIT_CASE(handler_test),
	{}
};

static struct kunit_suite nttrace_dispatch_suite = {
	.name = "nttrace_dispatch",
	.init = dispatch_init,
	.test_cases = nttrace_dispatch_cases,
};

kunit_test_suites(&nttrace_flags_suite, &nttrace_dispatch_suite);
