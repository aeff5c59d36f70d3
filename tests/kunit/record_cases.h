/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record encoders of common/record.c, checked byte by byte against the
 * layouts of the seeds (offsets written out here, not taken from the
 * structs the encoders use). One set of cases, run twice: in the kernel by
 * the KUnit suite tests/kunit/record_test.c, and in user space, 64- and
 * 32-bit, by tests/host/record_test.c: the two builds of one source.
 *
 * The including file defines struct rc_ctx, rc_eq(ctx, got, want, what)
 * (unsigned values) and rc_mem(ctx, got, want, len, what) (bytes).
 */
#ifndef NTTRACE_RECORD_CASES_H
#define NTTRACE_RECORD_CASES_H

#include "record.h"

/* Memory never written by the code under test reads as this. */
#define RC_UNTOUCHED	0xEE

static void rc_put(__u8 *p, unsigned int off, __u64 v, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		p[off + i] = (__u8)(v >> (8 * i));
}

static void rc_fill(__u8 *p, unsigned int len, __u8 byte)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		p[i] = byte;
}

static const __u8 rc_guid[16] = {
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};

static const __u8 rc_guid2[16] = {
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,
	0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f,
};

static const __u8 rc_guid3[16] = {
	0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37,
	0x38, 0x39, 0x3a, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f,
};

/* TraceMessage's items' sizes, and COMPONENTID over GUID when both are set. */
static void rc_message_sizes(struct rc_ctx *ctx)
{
	rc_eq(ctx, ntr_message_items_size(0), 8, "message: header alone");
	rc_eq(ctx, ntr_message_items_size(NTTRACE_TRACE_MESSAGE_POINTER64), 8,
	      "message: the pointer-size flag adds nothing");
	rc_eq(ctx, ntr_message_items_size(NTTRACE_TRACE_MESSAGE_SEQUENCE), 12, "message: sequence");
	rc_eq(ctx, ntr_message_items_size(NTTRACE_TRACE_MESSAGE_GUID), 24, "message: GUID");
	rc_eq(ctx, ntr_message_items_size(NTTRACE_TRACE_MESSAGE_COMPONENTID), 12,
	      "message: component ID");
	rc_eq(ctx,
	      ntr_message_items_size(NTTRACE_TRACE_MESSAGE_COMPONENTID |
				     NTTRACE_TRACE_MESSAGE_GUID),
	      12, "message: component ID wins over GUID");
	rc_eq(ctx, ntr_message_items_size(NTTRACE_TRACE_MESSAGE_TIMESTAMP), 16,
	      "message: time stamp");
	rc_eq(ctx, ntr_message_items_size(NTTRACE_TRACE_MESSAGE_PERFORMANCE_TIMESTAMP), 16,
	      "message: performance time stamp's room");
	rc_eq(ctx, ntr_message_items_size(NTTRACE_TRACE_MESSAGE_TIMESTAMP |
					  NTTRACE_TRACE_MESSAGE_PERFORMANCE_TIMESTAMP), 16,
	      "message: one room for both time stamps");
	rc_eq(ctx, ntr_message_items_size(NTTRACE_TRACE_MESSAGE_SYSTEMINFO), 16, "message: IDs");
	rc_eq(ctx, ntr_message_items_size(NTTRACE_TRACE_MESSAGE_FLAG_MASK), 32,
	      "message: every flag (the component ID, not the GUID)");
}

static void rc_message_all_items(struct rc_ctx *ctx)
{
	__u16 f = NTTRACE_TRACE_MESSAGE_SEQUENCE | NTTRACE_TRACE_MESSAGE_GUID |
		  NTTRACE_TRACE_MESSAGE_TIMESTAMP | NTTRACE_TRACE_MESSAGE_SYSTEMINFO |
		  NTTRACE_TRACE_MESSAGE_POINTER64;
	struct ntr_message m = {
		.number = 0x1234,
		.option_flags = f,
		.sequence = 0x11223344,
		.guid = rc_guid,
		.time_stamp = 0x0102030405060708ULL,
		.thread_id = 0x55667788,
		.process_id = 0x99aabbcc,
	};
	__u8 got[64], want[64];

	rc_fill(got, sizeof(got), RC_UNTOUCHED);
	rc_fill(want, sizeof(want), RC_UNTOUCHED);
	rc_put(want, 0x00, 0x40, 2);		/* Size */
	rc_put(want, 0x02, 0x00, 1);		/* reserved */
	rc_put(want, 0x03, 0x90, 1);		/* the marker's high byte */
	rc_put(want, 0x04, 0x1234, 2);		/* MessageNumber */
	rc_put(want, 0x06, f, 2);		/* OptionFlags */
	rc_put(want, 0x08, 0x11223344, 4);	/* sequence */
	memcpy(want + 0x0c, rc_guid, 16);	/* GUID */
	rc_put(want, 0x1c, 0x0102030405060708ULL, 8);
	rc_put(want, 0x24, 0x55667788, 4);	/* ThreadId */
	rc_put(want, 0x28, 0x99aabbcc, 4);	/* ProcessId */
	ntr_message_encode(got, 0x40, &m);
	rc_mem(ctx, got, want, sizeof(got), "message: every item in order, data untouched");
}

static void rc_message_some_items(struct rc_ctx *ctx)
{
	__u16 f = NTTRACE_TRACE_MESSAGE_COMPONENTID | NTTRACE_TRACE_MESSAGE_GUID |
		  NTTRACE_TRACE_MESSAGE_PERFORMANCE_TIMESTAMP | NTTRACE_TRACE_MESSAGE_POINTER32;
	struct ntr_message m = {
		.number = 3,
		.option_flags = f,
		.sequence = 0xdeadbeef,		/* not asked for: not written */
		.guid = rc_guid,
		.time_stamp = 0x0102030405060708ULL,	/* room only: 0 */
		.thread_id = 1,
		.process_id = 2,
	};
	__u8 got[32], want[32];

	rc_fill(got, sizeof(got), RC_UNTOUCHED);
	rc_fill(want, sizeof(want), RC_UNTOUCHED);
	rc_put(want, 0x00, 0x18, 2);
	rc_put(want, 0x02, 0x00, 1);
	rc_put(want, 0x03, 0x90, 1);
	rc_put(want, 0x04, 3, 2);
	rc_put(want, 0x06, f, 2);
	memcpy(want + 0x08, rc_guid, 4);	/* the component ID */
	rc_put(want, 0x0c, 0, 8);		/* the performance time stamp's room */
	ntr_message_encode(got, 0x18, &m);
	rc_mem(ctx, got, want, sizeof(got), "message: component ID and a zero time stamp");
}

static void rc_classic_types(struct rc_ctx *ctx)
{
	rc_eq(ctx, ntr_classic_header_type(false, false), 0x14, "classic: FULL_HEADER64");
	rc_eq(ctx, ntr_classic_header_type(false, true), 0x0a, "classic: FULL_HEADER32");
	rc_eq(ctx, ntr_classic_header_type(true, false), 0x15, "classic: INSTANCE64");
	rc_eq(ctx, ntr_classic_header_type(true, true), 0x0b, "classic: INSTANCE32");
}

/* A caller's EVENT_INSTANCE_GUID_HEADER, with what the logger overwrites. */
static void rc_classic_input(__u8 *in)
{
	rc_fill(in, 0x48, 0xA5);
	rc_put(in, 0x04, 0x02, 1);		/* Class.Type */
	rc_put(in, 0x05, 0x04, 1);		/* Class.Level */
	rc_put(in, 0x06, 0x0301, 2);		/* Class.Version */
	rc_put(in, 0x10, 0x1111222233334444ULL, 8);	/* the caller's time */
	memcpy(in + 0x18, rc_guid, 16);
	rc_put(in, 0x28, 0x77, 4);		/* ClientContext */
	rc_put(in, 0x2c, 0x00020000, 4);	/* Flags */
	rc_put(in, 0x30, 0x0a0b0c0d, 4);	/* InstanceId */
	rc_put(in, 0x34, 0x01020304, 4);	/* ParentInstanceId */
	memcpy(in + 0x38, rc_guid2, 16);	/* ParentGuid */
}

static void rc_classic(struct rc_ctx *ctx)
{
	__u8 in[0x48], got[0x58], want[0x58];
	int keep;

	rc_classic_input(in);
	for (keep = 0; keep < 2; keep++) {
		rc_fill(got, sizeof(got), RC_UNTOUCHED);
		rc_fill(want, sizeof(want), RC_UNTOUCHED);
		rc_put(want, 0x00, 0x30 + 5, 2);	/* Size */
		rc_put(want, 0x02, 0x14, 1);		/* HeaderType */
		rc_put(want, 0x03, 0xc0, 1);		/* MarkerFlags */
		memcpy(want + 0x04, in + 0x04, 4);	/* Class */
		rc_put(want, 0x08, 0x1001, 4);		/* ThreadId */
		rc_put(want, 0x0c, 0x2002, 4);		/* ProcessId */
		rc_put(want, 0x10, keep ? 0x1111222233334444ULL : 0x5555666677778888ULL, 8);
		memcpy(want + 0x18, rc_guid, 16);
		rc_put(want, 0x28, 0, 8);		/* KernelTime, UserTime */
		ntr_classic_encode(got, in, 0x30, 0x30 + 5, 0x14, keep,
				   0x5555666677778888ULL, 0x1001, 0x2002);
		rc_mem(ctx, got, want, sizeof(got), keep ?
		       "classic: the caller's time stamp kept, data untouched" :
		       "classic: the logger's fields over the caller's, data untouched");
	}

	rc_fill(got, sizeof(got), RC_UNTOUCHED);
	rc_fill(want, sizeof(want), RC_UNTOUCHED);
	rc_put(want, 0x00, 0x48, 2);
	rc_put(want, 0x02, 0x0b, 1);
	rc_put(want, 0x03, 0xc0, 1);
	memcpy(want + 0x04, in + 0x04, 4);
	rc_put(want, 0x08, 7, 4);
	rc_put(want, 0x0c, 8, 4);
	rc_put(want, 0x10, 9, 8);
	memcpy(want + 0x18, rc_guid, 16);
	rc_put(want, 0x28, 0, 8);
	memcpy(want + 0x30, in + 0x30, 0x18);	/* IDs and ParentGuid as they came */
	ntr_classic_encode(got, in, 0x48, 0x48, 0x0b, false, 9, 7, 8);
	rc_mem(ctx, got, want, sizeof(got), "classic: an instance header's tail as it came");
}

static void rc_event(struct rc_ctx *ctx)
{
	const struct nttrace_event_descriptor d = {
		.id = 0x0102, .version = 3, .channel = 4, .level = 5, .opcode = 6,
		.task = 0x0708, .keyword = 0x8000000000000001ULL,
	};
	struct ntr_event e = {
		.size = 0x50 + 3,
		.ptr32 = false,
		.extra_flags = 0,
		.descriptor = &d,
		.provider_id = rc_guid,
		.activity_id = rc_guid2,
		.related_activity_id = NULL,
		.time_stamp = 0x0102030405060708ULL,
		.thread_id = 0x11,
		.process_id = 0x22,
	};
	struct ntr_event_layout l;
	__u8 got[0x78], want[0x78];

	ntr_event_layout(&e, &l);
	rc_eq(ctx, l.data, 0x50, "event: data after the header");
	rc_eq(ctx, l.traits + l.schema, 0, "event: no metadata items");
	e.related_activity_id = rc_guid3;
	ntr_event_layout(&e, &l);
	rc_eq(ctx, l.data, 0x68, "event: data after the item");
	e.related_activity_id = NULL;

	rc_fill(got, sizeof(got), RC_UNTOUCHED);
	rc_fill(want, sizeof(want), RC_UNTOUCHED);
	rc_put(want, 0x00, 0x53, 2);		/* Size */
	rc_put(want, 0x02, 0x13, 1);		/* HeaderType: EVENT_HEADER64 */
	rc_put(want, 0x03, 0xc0, 1);
	rc_put(want, 0x04, 0x0050, 2);		/* NO_CPUTIME | 64_BIT_HEADER */
	rc_put(want, 0x06, 0, 2);		/* EventProperty */
	rc_put(want, 0x08, 0x11, 4);
	rc_put(want, 0x0c, 0x22, 4);
	rc_put(want, 0x10, 0x0102030405060708ULL, 8);
	memcpy(want + 0x18, rc_guid, 16);	/* ProviderId */
	rc_put(want, 0x28, 0x0102, 2);		/* EventDescriptor */
	rc_put(want, 0x2a, 3, 1);
	rc_put(want, 0x2b, 4, 1);
	rc_put(want, 0x2c, 5, 1);
	rc_put(want, 0x2d, 6, 1);
	rc_put(want, 0x2e, 0x0708, 2);
	rc_put(want, 0x30, 0x8000000000000001ULL, 8);
	rc_put(want, 0x38, 0, 8);		/* ProcessorTime */
	memcpy(want + 0x40, rc_guid2, 16);	/* ActivityId */
	ntr_event_encode(got, &e);
	rc_mem(ctx, got, want, sizeof(got), "event: 64-bit header, data untouched");

	e.size = 0x68 + 1;
	e.ptr32 = true;
	e.extra_flags = NTTRACE_EVENT_HEADER_FLAG_STRING_ONLY;
	e.related_activity_id = rc_guid3;
	rc_fill(got, sizeof(got), RC_UNTOUCHED);
	rc_put(want, 0x00, 0x69, 2);
	rc_put(want, 0x02, 0x12, 1);		/* EVENT_HEADER32 */
	/* NO_CPUTIME | 32_BIT_HEADER | EXTENDED_INFO | STRING_ONLY */
	rc_put(want, 0x04, 0x0035, 2);
	rc_put(want, 0x50, 0x18, 2);		/* the item: its size */
	rc_put(want, 0x52, 1, 2);		/* RELATED_ACTIVITYID */
	rc_put(want, 0x54, 0, 2);		/* Linkage: no other item */
	rc_put(want, 0x56, 16, 2);		/* DataSize */
	memcpy(want + 0x58, rc_guid3, 16);
	ntr_event_encode(got, &e);
	rc_mem(ctx, got, want, sizeof(got), "event: 32-bit header, related activity item");
}

/*
 * TraceLogging's two items, as a Windows-written ETL file lays them out (a
 * 15-byte PROV_TRAITS and a 182-byte EVENT_SCHEMA_TL item: headers at 0x50
 * and 0x68, data at 0x58 and 0x70, user data at 0x128), and with the
 * related activity item before them. The metadata bytes are the writer's:
 * the encoder writes only the item headers and the zeros after the data.
 */
static void rc_event_items(struct rc_ctx *ctx)
{
	const struct nttrace_event_descriptor d = { .channel = 11, .level = 5 };
	struct ntr_event e = {
		.size = 0x128,
		.descriptor = &d,
		.provider_id = rc_guid,
		.activity_id = rc_guid2,
		.traits_size = 15,
		.schema_size = 182,
	};
	/* Off the stack: a kernel stack frame is small. */
	static __u8 got[0x130], want[0x130];
	struct ntr_event_layout l;

	ntr_event_layout(&e, &l);
	rc_eq(ctx, l.traits, 0x58, "items: traits data after its header");
	rc_eq(ctx, l.schema, 0x70, "items: schema after the traits, 8-aligned");
	rc_eq(ctx, l.data, 0x128, "items: data after the schema, 8-aligned");

	rc_fill(got, sizeof(got), RC_UNTOUCHED);
	ntr_event_encode(got, &e);
	rc_eq(ctx, got[4], 0x50 | 0x01, "items: EXTENDED_INFO set");
	memcpy(want, got, sizeof(want));
	rc_put(want, 0x50, 0x18, 2);		/* 8 + 15, to 8 */
	rc_put(want, 0x52, 0x0c, 2);		/* PROV_TRAITS */
	rc_put(want, 0x54, 1, 2);		/* another item follows */
	rc_put(want, 0x56, 15, 2);
	rc_fill(want + 0x58, 15, RC_UNTOUCHED);	/* the writer's bytes */
	rc_put(want, 0x67, 0, 1);		/* padding */
	rc_put(want, 0x68, 0xc0, 2);		/* 8 + 182, to 8 */
	rc_put(want, 0x6a, 0x0b, 2);		/* EVENT_SCHEMA_TL */
	rc_put(want, 0x6c, 0, 2);		/* the last item */
	rc_put(want, 0x6e, 182, 2);
	rc_fill(want + 0x70, 182, RC_UNTOUCHED);
	rc_put(want, 0x126, 0, 2);
	rc_fill(want + 0x128, 8, RC_UNTOUCHED);	/* the data: not the encoder's */
	rc_mem(ctx, got + 0x50, want + 0x50, sizeof(got) - 0x50,
	       "items: traits and schema headers, padding zeroed, bytes untouched");

	e.related_activity_id = rc_guid3;
	e.traits_size = 0;
	e.schema_size = 1;
	ntr_event_layout(&e, &l);
	rc_eq(ctx, l.traits, 0, "items: no traits");
	rc_eq(ctx, l.schema, 0x70, "items: schema after the related activity item");
	rc_eq(ctx, l.data, 0x78, "items: one byte of schema takes 16");
	rc_fill(got, sizeof(got), RC_UNTOUCHED);
	ntr_event_encode(got, &e);
	rc_eq(ctx, got[0x54], 1, "items: the related activity item is not the last");
	rc_eq(ctx, got[0x6a], 0x0b, "items: the schema item follows it");
	rc_eq(ctx, got[0x6c], 0, "items: the schema item is the last");
	rc_eq(ctx, got[0x71] | got[0x77], 0, "items: the schema's padding is zero");
}

/*
 * A stack item (EnableTraceEx2's STACK_TRACE property): first of the
 * items, its header, MatchId 0 and the addresses, 64-bit (3 frames: 8 +
 * 8 + 24 = 0x28 bytes) or 32-bit (3 frames: 8 + 8 + 12, to 8: 0x20),
 * moving the related activity item and the data by its size; with no
 * frame, the MatchId alone.
 */
static void rc_event_stack(struct rc_ctx *ctx)
{
	static const unsigned long frames[3] = { 0x1111, 0x2222, 0x3333 };
	const struct nttrace_event_descriptor d = { .level = 4 };
	struct ntr_event e = {
		.size = 0x90,
		.descriptor = &d,
		.provider_id = rc_guid,
		.activity_id = rc_guid2,
		.stack = frames,
		.stack_frames = 3,
	};
	static __u8 got[0xa0], want[0xa0];
	struct ntr_event_layout l;

	rc_eq(ctx, ntr_event_stack_size(3, false), 0x28, "stack: 64-bit item of 3 frames");
	rc_eq(ctx, ntr_event_stack_size(3, true), 0x20, "stack: 32-bit item of 3, padded");
	rc_eq(ctx, ntr_event_stack_size(0, true), 0x10, "stack: no frame: header and MatchId");
	ntr_event_layout(&e, &l);
	rc_eq(ctx, l.data, 0x78, "stack: data after the 64-bit item");
	rc_fill(got, sizeof(got), RC_UNTOUCHED);
	ntr_event_encode(got, &e);
	rc_eq(ctx, got[4], 0x50 | 0x01, "stack: EXTENDED_INFO set");
	memcpy(want, got, sizeof(want));
	rc_put(want, 0x50, 0x28, 2);
	rc_put(want, 0x52, 0x06, 2);		/* STACK_TRACE64 */
	rc_put(want, 0x54, 0, 2);		/* the last item */
	rc_put(want, 0x56, 0x20, 2);
	rc_put(want, 0x58, 0, 8);		/* MatchId */
	rc_put(want, 0x60, 0x1111, 8);
	rc_put(want, 0x68, 0x2222, 8);
	rc_put(want, 0x70, 0x3333, 8);
	rc_fill(want + 0x78, sizeof(want) - 0x78, RC_UNTOUCHED);
	rc_mem(ctx, got + 0x50, want + 0x50, sizeof(got) - 0x50,
	       "stack: the 64-bit item, the data untouched");

	e.stack32 = true;
	e.related_activity_id = rc_guid3;
	ntr_event_layout(&e, &l);
	rc_eq(ctx, l.data, 0x88, "stack: data after the 32-bit item and the related one");
	rc_fill(got, sizeof(got), RC_UNTOUCHED);
	ntr_event_encode(got, &e);
	memcpy(want, got, sizeof(want));
	rc_put(want, 0x50, 0x20, 2);
	rc_put(want, 0x52, 0x05, 2);		/* STACK_TRACE32 */
	rc_put(want, 0x54, 1, 2);		/* the related activity item follows */
	rc_put(want, 0x56, 0x14, 2);
	rc_put(want, 0x58, 0, 8);
	rc_put(want, 0x60, 0x1111, 4);
	rc_put(want, 0x64, 0x2222, 4);
	rc_put(want, 0x68, 0x3333, 4);
	rc_put(want, 0x6c, 0, 4);		/* padding */
	rc_put(want, 0x70, 0x18, 2);
	rc_put(want, 0x72, 0x01, 2);		/* RELATED_ACTIVITYID */
	rc_put(want, 0x74, 0, 2);
	rc_put(want, 0x76, 16, 2);
	memcpy(want + 0x78, rc_guid3, 16);
	rc_fill(want + 0x88, sizeof(want) - 0x88, RC_UNTOUCHED);
	rc_mem(ctx, got + 0x50, want + 0x50, sizeof(got) - 0x50,
	       "stack: the 32-bit item, then the related activity item");
}

/* Which descriptors are metadata (the low byte of reserved is the Type). */
static void rc_event_metadata(struct rc_ctx *ctx)
{
	struct nttrace_event_data_descriptor d[4] = {
		{ .size = 1, .reserved = 0x00000002 },	/* provider metadata */
		{ .size = 1, .reserved = 0xffff0001 },	/* event; Reserved1/2 ignored */
		{ .size = 1, .reserved = 0 },
		{ .size = 1, .reserved = 0 },
	};
	__s32 traits, schema;

	rc_eq(ctx, ntr_event_metadata(d, 4, &traits, &schema), 0, "metadata: accepted");
	rc_eq(ctx, traits, 0, "metadata: the traits descriptor");
	rc_eq(ctx, schema, 1, "metadata: the schema descriptor");
	rc_eq(ctx, ntr_event_metadata(d + 2, 2, &traits, &schema), 0, "metadata: plain data");
	rc_eq(ctx, (__u32)(traits & schema), (__u32)-1, "metadata: none found");
	d[3].reserved = 1;
	rc_eq(ctx, (__u32)ntr_event_metadata(d, 4, &traits, &schema), (__u32)-1,
	      "metadata: event metadata twice refused");
	d[3].reserved = 3;
	rc_eq(ctx, (__u32)ntr_event_metadata(d, 4, &traits, &schema), (__u32)-1,
	      "metadata: TIMESTAMP_OVERRIDE refused");
	d[3].reserved = 0x100;
	rc_eq(ctx, ntr_event_metadata(d, 4, &traits, &schema), 0,
	      "metadata: only the low byte is the Type");
}

static void rc_buffer(struct rc_ctx *ctx)
{
	const struct ntr_buffer_conf c = {
		.buffer_size = 0x100,
		.clock_type = 1,
		.frequency = 10000000,
		.logger_id = 0x0203,
		.start_time = 0x1111111111111111ULL,
		.start_perf_clock = 0x2222222222222222ULL,
	};
	__u8 got[0x100], want[0x100];

	rc_fill(got, sizeof(got), RC_UNTOUCHED);
	rc_fill(want, sizeof(want), RC_UNTOUCHED);
	rc_fill(want, 0x48, 0);
	rc_put(want, 0x00, 0x100, 4);		/* BufferSize */
	rc_put(want, 0x20, (10000000ULL << 3) | 1, 8);	/* ClockType:3, Frequency */
	rc_put(want, 0x28, 0x0104, 2);		/* ProcessorIndex */
	rc_put(want, 0x2a, 0x0203, 2);		/* LoggerId */
	rc_put(want, 0x34, 0, 2);		/* BufferFlag */
	rc_put(want, 0x36, 0, 2);		/* BufferType: generic */
	rc_put(want, 0x38, 0x1111111111111111ULL, 8);
	rc_put(want, 0x40, 0x2222222222222222ULL, 8);
	ntr_buffer_open(got, &c, 0x0104);
	rc_mem(ctx, got, want, sizeof(got), "buffer: a fresh header, the rest untouched");

	ntr_buffer_seal(got, 0x50, 0x3333333333333333ULL, 42,
			NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST);
	rc_put(want, 0x04, 0x50, 4);		/* SavedOffset */
	rc_put(want, 0x08, 0x50, 4);		/* CurrentOffset */
	rc_put(want, 0x10, 0x3333333333333333ULL, 8);
	rc_put(want, 0x18, 42, 8);		/* SequenceNumber */
	rc_put(want, 0x30, 0x50, 4);		/* Offset */
	rc_put(want, 0x34, 0x0001 | 0x0020 | 0x0002, 2);
	rc_fill(want + 0x50, 0x100 - 0x50, 0xff);
	rc_mem(ctx, got, want, sizeof(got),
	       "buffer: sealed, records kept, the tail filled with 0xFF");
}

#endif /* NTTRACE_RECORD_CASES_H */
