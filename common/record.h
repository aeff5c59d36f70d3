/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * The records and buffer headers nttrace writes, in one copy built into
 * both nttrace.ko and libnttrace's user-mode logger: pure functions over
 * memory the writer has reserved. The writer supplies the values that
 * depend on where it runs (time stamps, thread and process IDs, sequence
 * numbers); the layout, and which field goes where, is decided only here.
 *
 * The layouts are uapi/nttrace.h's (the classic and EventWrite records'
 * as Windows writes them in ETL files). Every function writes every byte of the part it owns: a record
 * holds no stale byte of an earlier use of its buffer.
 */
#ifndef NTTRACE_COMMON_RECORD_H
#define NTTRACE_COMMON_RECORD_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <linux/types.h>
#endif
#include <nttrace/uapi.h>

/* ---- TraceMessage (NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE) ---- */

/*
 * One message's header and items. The items present are those of
 * @option_flags (TRACE_MESSAGE_*, the pointer-size flag included, as
 * written): a value for an item the flags leave out is not read.
 */
struct ntr_message {
	__u16 number;		/* MessageNumber */
	__u16 option_flags;
	__u32 sequence;		/* NTTRACE_TRACE_MESSAGE_SEQUENCE */
	/* NTTRACE_TRACE_MESSAGE_GUID: 16 bytes; NTTRACE_TRACE_MESSAGE_COMPONENTID: the first 4 */
	const void *guid;
	/*
	 * NTTRACE_TRACE_MESSAGE_TIMESTAMP; with only ..._PERFORMANCE_TIMESTAMP the
	 * room is written as 0.
	 */
	__u64 time_stamp;
	__u32 thread_id;	/* NTTRACE_TRACE_MESSAGE_SYSTEMINFO */
	__u32 process_id;
};

/**
 * ntr_message_items_size() - a message record's bytes before its arguments
 * @option_flags: the message's NTTRACE_TRACE_MESSAGE_* flags
 *
 * Return: the bytes of header and items before the arguments.
 */
__u32 ntr_message_items_size(__u16 option_flags);

/**
 * ntr_message_encode() - writes a message record's header and items
 * @rec: where the record begins
 * @size: the record's bytes in all (header, items and arguments, before
 *	padding)
 * @m: the message
 */
void ntr_message_encode(void *rec, __u16 size, const struct ntr_message *m);

/* ---- TraceEvent, TraceEventInstance (TRACE_HEADER, TRACE_INSTANCE) ---- */

/**
 * ntr_classic_header_type() - the HeaderType of a classic record
 * @instance: a TraceEventInstance record (else a TraceEvent one)
 * @ptr32: the writer's pointers are 32-bit
 *
 * Return: the NTTRACE_TRACE_HEADER_TYPE_* value.
 */
__u8 ntr_classic_header_type(bool instance, bool ptr32);

/**
 * ntr_classic_encode() - writes the header of a classic record
 * @rec: where the record begins
 * @in: the caller's EVENT_TRACE_HEADER or EVENT_INSTANCE_GUID_HEADER, its
 *	Guid already the one to write
 * @header_size: @in's bytes
 * @size: the record's Size
 * @header_type: its HeaderType
 * @keep_time_stamp: NTTRACE_WNODE_FLAG_USE_TIMESTAMP: the caller's stays
 * @time_stamp: the time stamp, unless @keep_time_stamp
 * @thread_id: the writer's thread
 * @process_id: the writer's process
 *
 * @in is written with the logger's fields: the Size, the HeaderType, the
 * marker, the IDs, KernelTime and UserTime 0 (no per-thread CPU time is
 * kept) and the time stamp.
 */
void ntr_classic_encode(void *rec, const void *in, __u32 header_size, __u16 size,
			__u8 header_type, bool keep_time_stamp, __u64 time_stamp,
			__u32 thread_id, __u32 process_id);

/* ---- EventWrite (NTTRACE_ETW_NT_FLAGS_TRACE_EVENT) ---- */

struct ntr_event {
	__u16 size;		/* header, items and data, before padding */
	bool ptr32;		/* the writer's pointers are 32-bit */
	/* EVENT_HEADER_FLAG_* beyond those the encoder sets itself */
	__u16 extra_flags;
	__u16 event_property;	/* EVENT_HEADER_PROPERTY_*, the writer's */
	const struct nttrace_event_descriptor *descriptor;
	const void *provider_id;	/* 16 bytes */
	const void *activity_id;	/* 16 bytes */
	const void *related_activity_id;	/* 16 bytes, or NULL: no item */
	/* TraceLogging's metadata (descriptor Types 2 and 1); 0: no item */
	__u32 traits_size;
	__u32 schema_size;
	/*
	 * A call stack's return addresses, innermost first, for a
	 * STACK_TRACE32 (@stack32: each written in 32 bits) or STACK_TRACE64
	 * item; NULL: no item. @stack_frames may be 0 (the item is there,
	 * with its MatchId alone).
	 */
	const unsigned long *stack;
	__u32 stack_frames;
	bool stack32;
	__u64 time_stamp;
	__u32 thread_id;
	__u32 process_id;
};

/*
 * Where the parts of an EventWrite record begin, from its start: the
 * PROV_TRAITS item's data and the EVENT_SCHEMA_TL item's (0 when the
 * event has none), and the user data. Each item is its 8-byte header,
 * its data and zeros to 8 bytes (so Windows' files lay them out); the
 * sizes are the caller's to check (their sum is at most 0x50 + 3 * 8 +
 * 16 + 2 * 7 bytes above theirs, plus the stack item's
 * ntr_event_stack_size()). The stack item, when there is one, comes
 * first, so that it moves every other part by its own size alone.
 */
struct ntr_event_layout {
	__u32 traits;
	__u32 schema;
	__u32 data;
};

/**
 * ntr_event_layout() - where the parts of an EventWrite record begin
 * @e: the event
 * @l: the offsets, filled in
 */
void ntr_event_layout(const struct ntr_event *e, struct ntr_event_layout *l);

/**
 * ntr_event_stack_size() - the bytes of an EventWrite record's stack item
 * @frames: its return addresses
 * @stack32: each in 32 bits (STACK_TRACE32), else 64
 *
 * Return: the item's header, its MatchId, the addresses and the padding.
 */
__u32 ntr_event_stack_size(__u32 frames, bool stack32);

/**
 * ntr_event_metadata() - the metadata among an EventWrite's data descriptors
 * @d: the descriptors, of a provider that asked for descriptor Types
 *	(EventSetInformation)
 * @n: their number
 * @traits: the index of the PROVIDER_METADATA descriptor, or -1
 * @schema: the index of the EVENT_METADATA descriptor, or -1
 *
 * The low byte of reserved is the Type; Reserved1 and Reserved2 are not
 * looked at.
 *
 * Return: 0, or -1 for a Type other than NONE and these two
 * (TIMESTAMP_OVERRIDE included), or for one of them twice.
 */
int ntr_event_metadata(const struct nttrace_event_data_descriptor *d, __u32 n,
		       __s32 *traits, __s32 *schema);

/**
 * ntr_traits_valid() - checks provider traits
 * @t: the traits, as EventSetInformation(EventProviderSetTraits) takes them
 *	(TraceLogging's provider metadata; the layout Microsoft's
 *	TraceLoggingDynamic.h documents)
 * @len: their bytes
 *
 * Return: whether they are a 16-bit size that is @len, a NUL-ended name,
 * then traits, each a 16-bit size (itself included, at least 3) and a type
 * byte, filling the rest exactly.
 */
bool ntr_traits_valid(const __u8 *t, __u32 len);

/**
 * ntr_event_encode() - writes an EventWrite record's header and items
 * @rec: where the record begins, the metadata's bytes already at their
 *	places (ntr_event_layout())
 * @e: the event
 *
 * Writes the EVENT_HEADER and its extended items. The flags are NO_CPUTIME
 * (ProcessorTime is 0), 32_BIT_HEADER or 64_BIT_HEADER by @e->ptr32,
 * EXTENDED_INFO with an item, and @e->extra_flags; EventProperty is
 * @e->event_property.
 */
void ntr_event_encode(void *rec, const struct ntr_event *e);

/* ---- any record ---- */

/**
 * ntr_record_size() - the Size field of a record
 * @rec: the record, at least 8 bytes
 *
 * Return: the field at +4, after the marker, for the kernel's headers
 * (SYSTEM32/64, COMPACT32/64, PERFINFO32/64 with
 * NTTRACE_TRACE_HEADER_MARKER_BYTE), else the record's first 16 bits
 * (messages, classic and EventWrite records).
 */
__u32 ntr_record_size(const __u8 *rec);

/* ---- TRACE_RAW's check (NTTRACE_ETW_NT_FLAGS_TRACE_RAW) ---- */

/**
 * ntr_record_check() - does a raw record describe itself?
 * @rec: the record
 * @len: its bytes
 *
 * A record describes itself, so that every consumer steps over it as over
 * the records the logger writes, when its marker is a message's (0x90) or
 * a header's (0xC0) with a header type the reader knows
 * (NTTRACE_TRACE_HEADER_TYPE_*); its Size field (at +0, or at +4 after a
 * kernel header's marker) is @len; @len holds its fixed header, the
 * message items its flags name, the PMC and PEBS items a kernel header's
 * marker announces, and an EventWrite record's extended items, each well
 * formed (8-byte header, Size its data padded to 8) and within @len.
 *
 * Return: 0 if it does, else -1.
 */
int ntr_record_check(const __u8 *rec, __u32 len);

/* ---- buffers ---- */

/* What every buffer of one logger's processor says of its logger. */
struct ntr_buffer_conf {
	__u32 buffer_size;
	__u32 clock_type;	/* EVENT_TRACE_CLOCK_* */
	__u64 frequency;	/* the clock's, in Hz */
	__u16 logger_id;
	__u64 start_time;
	__u64 start_perf_clock;
};

/**
 * ntr_buffer_open() - writes a fresh buffer's header
 * @buf: the buffer
 * @c: its logger's settings
 * @processor: the processor (or user-mode slot) it is for
 */
void ntr_buffer_open(void *buf, const struct ntr_buffer_conf *c, __u16 processor);

/**
 * ntr_buffer_seal() - seals a buffer
 * @buf: the buffer
 * @end: where its records end
 * @time_stamp: its time stamp
 * @sequence: its sequence number
 * @lost_flags: flags saying events were lost, set beside FLUSH_MARKER and
 *	PROC_INDEX
 *
 * The tail is filled with NTTRACE_WMI_BUFFER_FILL, and the offsets, the
 * time stamp, the sequence number and the flags written.
 */
void ntr_buffer_seal(void *buf, __u32 end, __u64 time_stamp, __u64 sequence,
		     __u16 lost_flags);

#endif /* NTTRACE_COMMON_RECORD_H */
