/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * The records and buffer headers nttrace writes, in one copy built into
 * both nttrace.ko and libnttrace's user-mode logger: pure functions over
 * memory the writer has reserved. The writer supplies the values that
 * depend on where it runs (time stamps, thread and process IDs, sequence
 * numbers); the layout, and which field goes where, is decided only here.
 *
 * The layouts are uapi/nttrace.h's (seeds 000-003, and
 * ../shared/notes/record-formats.md for the classic and EventWrite
 * records). Every function writes every byte of the part it owns: a record
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
	 * room is written as 0 (seed 001).
	 */
	__u64 time_stamp;
	__u32 thread_id;	/* NTTRACE_TRACE_MESSAGE_SYSTEMINFO */
	__u32 process_id;
};

/* Bytes of header and items before the arguments, for @option_flags. */
__u32 ntr_message_items_size(__u16 option_flags);

/*
 * The header and items at @rec, for a record of @size bytes in all
 * (header, items and arguments, before padding).
 */
void ntr_message_encode(void *rec, __u16 size, const struct ntr_message *m);

/* ---- TraceEvent, TraceEventInstance (TRACE_HEADER, TRACE_INSTANCE) ---- */

/* The HeaderType of a classic record, by its kind and the writer's pointers. */
__u8 ntr_classic_header_type(bool instance, bool ptr32);

/*
 * The header of a classic record at @rec: @in is the caller's
 * EVENT_TRACE_HEADER or EVENT_INSTANCE_GUID_HEADER (@header_size bytes,
 * its Guid already the one to write), written with the logger's fields:
 * Size @size, HeaderType @header_type, the marker, the IDs, KernelTime and
 * UserTime 0 (no per-thread CPU time is kept), and @time_stamp unless
 * @keep_time_stamp (NTTRACE_WNODE_FLAG_USE_TIMESTAMP: the caller's stays).
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
 * 16 + 2 * 7 bytes above theirs).
 */
struct ntr_event_layout {
	__u32 traits;
	__u32 schema;
	__u32 data;
};

void ntr_event_layout(const struct ntr_event *e, struct ntr_event_layout *l);

/*
 * The metadata among an EventWrite's @n data descriptors, for a provider
 * that asked for descriptor Types (EventSetInformation): *@traits and
 * *@schema are the index of the PROVIDER_METADATA and EVENT_METADATA
 * descriptor, or -1. The low byte of reserved is the Type; Reserved1 and
 * Reserved2 are not looked at. -1 for a Type other than NONE and these
 * two (TIMESTAMP_OVERRIDE included), or for one of them twice.
 */
int ntr_event_metadata(const struct nttrace_event_data_descriptor *d, __u32 n,
		       __s32 *traits, __s32 *schema);

/*
 * Provider traits as EventSetInformation(EventProviderSetTraits) takes them
 * (TraceLogging's provider metadata; the layout Microsoft's
 * TraceLoggingDynamic.h documents): a 16-bit size that is @len, a
 * NUL-ended name, then traits, each a 16-bit size (itself included, at
 * least 3) and a type byte, filling the rest exactly.
 */
bool ntr_traits_valid(const __u8 *t, __u32 len);

/*
 * The EVENT_HEADER and its extended items at @rec, the metadata's bytes
 * already at their places (ntr_event_layout()). The flags are NO_CPUTIME
 * (ProcessorTime is 0), 32_BIT_HEADER or 64_BIT_HEADER by @ptr32,
 * EXTENDED_INFO with an item, and @extra_flags; EventProperty is @event_property.
 */
void ntr_event_encode(void *rec, const struct ntr_event *e);

/* ---- any record ---- */

/*
 * The Size field of the record at @rec (at least 8 bytes): at +4, after
 * the marker, for the kernel's headers (SYSTEM32/64, COMPACT32/64,
 * PERFINFO32/64 with NTTRACE_TRACE_HEADER_MARKER_BYTE), else its first 16
 * bits (messages, classic and EventWrite records).
 */
__u32 ntr_record_size(const __u8 *rec);

/* ---- TRACE_RAW's check (NTTRACE_ETW_NT_FLAGS_TRACE_RAW) ---- */

/*
 * Does the record of @len bytes at @rec describe itself, so that every
 * consumer steps over it as over the records the logger writes? Its
 * marker is a message's (0x90) or a header's (0xC0) with a header type
 * the reader knows (uapi/nttrace.h, NTTRACE_TRACE_HEADER_TYPE_*); its
 * Size field (at +0, or at +4 after a kernel header's marker) is @len;
 * @len holds its fixed header, the message items its flags name, the
 * PMC and PEBS items a kernel header's marker announces, and an
 * EventWrite record's extended items, each well formed (8-byte header,
 * Size its data padded to 8) and within @len. 0, or -1.
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

/* A fresh buffer's header, for processor (or user-mode slot) @processor. */
void ntr_buffer_open(void *buf, const struct ntr_buffer_conf *c, __u16 processor);

/*
 * Seal a buffer whose records end at @end: the tail is filled with
 * NTTRACE_WMI_BUFFER_FILL, the offsets, time stamp and sequence number written,
 * and the flags (FLUSH_MARKER | PROC_INDEX and @lost_flags) set.
 */
void ntr_buffer_seal(void *buf, __u32 end, __u64 time_stamp, __u64 sequence,
		     __u16 lost_flags);

#endif /* NTTRACE_COMMON_RECORD_H */
