// SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1
/*
 * The record encoders of common/record.h. Built twice: into nttrace.ko
 * (Kbuild) and into libnttrace (Makefile); so only memcpy and memset, and
 * no allocation, lock or clock.
 *
 * Records are written with memcpy at their offsets rather than through
 * struct pointers: a record is only 8-byte aligned, and a message's items
 * follow one another at 4-byte steps.
 */
#ifdef __KERNEL__
#include <kunit/visibility.h>
#include <linux/string.h>
#else
#include <string.h>
/*
 * The library has no KUnit: a check of nothing, which takes the semicolon
 * (the module's EXPORT_SYMBOL_IF_KUNIT exports to the suite of
 * tests/kunit/record_test.c).
 */
#define EXPORT_SYMBOL_IF_KUNIT(sym) _Static_assert(1, #sym)
#endif

#include "record.h"

__u32 ntr_message_items_size(__u16 f)
{
	__u32 n = sizeof(struct nttrace_message_trace_header);

	if (f & NTTRACE_TRACE_MESSAGE_SEQUENCE)
		n += 4;
	if (f & NTTRACE_TRACE_MESSAGE_COMPONENTID)
		n += 4;
	else if (f & NTTRACE_TRACE_MESSAGE_GUID)
		n += 16;
	if (f & (NTTRACE_TRACE_MESSAGE_TIMESTAMP | NTTRACE_TRACE_MESSAGE_PERFORMANCE_TIMESTAMP))
		n += 8;
	if (f & NTTRACE_TRACE_MESSAGE_SYSTEMINFO)
		n += 8;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_message_items_size);

void ntr_message_encode(void *rec, __u16 size, const struct ntr_message *m)
{
	struct nttrace_message_trace_header h = {
		.size = size,
		.reserved = 0,
		.version = NTTRACE_MESSAGE_TRACE_MARKER_BYTE,
		.message_number = m->number,
		.option_flags = m->option_flags,
	};
	__u16 f = m->option_flags;
	__u8 *p = (__u8 *)rec + sizeof(h);

	memcpy(rec, &h, sizeof(h));
	if (f & NTTRACE_TRACE_MESSAGE_SEQUENCE) {
		memcpy(p, &m->sequence, 4);
		p += 4;
	}
	/* The component ID, when both are set, as Windows reads them. */
	if (f & NTTRACE_TRACE_MESSAGE_COMPONENTID) {
		memcpy(p, m->guid, 4);
		p += 4;
	} else if (f & NTTRACE_TRACE_MESSAGE_GUID) {
		memcpy(p, m->guid, 16);
		p += 16;
	}
	if (f & (NTTRACE_TRACE_MESSAGE_TIMESTAMP | NTTRACE_TRACE_MESSAGE_PERFORMANCE_TIMESTAMP)) {
		/* Room for either flag; a stamp only for TIMESTAMP. */
		__u64 ts = (f & NTTRACE_TRACE_MESSAGE_TIMESTAMP) ? m->time_stamp : 0;

		memcpy(p, &ts, 8);
		p += 8;
	}
	/*
	 * Two 4-byte copies, not one of 8 from a pair: the writer has just
	 * stored each on its own, and an 8-byte load of two 4-byte stores
	 * cannot be forwarded from the store buffer (perf put a fifth of the
	 * user-mode logger's TraceMessage on such a load).
	 */
	if (f & NTTRACE_TRACE_MESSAGE_SYSTEMINFO) {
		memcpy(p, &m->thread_id, 4);
		memcpy(p + 4, &m->process_id, 4);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ntr_message_encode);

__u8 ntr_classic_header_type(bool instance, bool ptr32)
{
	if (instance)
		return ptr32 ? NTTRACE_TRACE_HEADER_TYPE_INSTANCE32 :
			       NTTRACE_TRACE_HEADER_TYPE_INSTANCE64;
	return ptr32 ? NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER32 :
		       NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER64;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_classic_header_type);

void ntr_classic_encode(void *rec, const void *in, __u32 header_size, __u16 size,
			__u8 header_type, bool keep_time_stamp, __u64 time_stamp,
			__u32 thread_id, __u32 process_id)
{
	struct nttrace_event_trace_header h;

	memcpy(&h, in, sizeof(h));
	h.size = size;
	h.header_type = header_type;
	h.marker_flags = NTTRACE_TRACE_HEADER_MARKER_BYTE;
	h.thread_id = thread_id;
	h.process_id = process_id;
	if (!keep_time_stamp)
		h.time_stamp = time_stamp;
	/* Over ClientContext and Flags, which do not reach the buffer. */
	h.kernel_time = 0;
	h.user_time = 0;
	memcpy(rec, &h, sizeof(h));
	/* The instance header's tail (IDs, ParentGuid) as it came. */
	memcpy((__u8 *)rec + sizeof(h), (const __u8 *)in + sizeof(h),
	       header_size - sizeof(h));
}
EXPORT_SYMBOL_IF_KUNIT(ntr_classic_encode);

/* An extended item's bytes: its header, its data, zeros to 8. */
static __u32 ntr_item_size(__u32 data_size)
{
	return (sizeof(struct nttrace_event_extended_item_header) + data_size + 7) & ~7U;
}

/* A stack item's data: its MatchId, then the addresses. */
static __u32 ntr_stack_data_size(__u32 frames, bool stack32)
{
	return 8 + frames * (stack32 ? 4 : 8);
}

__u32 ntr_event_stack_size(__u32 frames, bool stack32)
{
	return ntr_item_size(ntr_stack_data_size(frames, stack32));
}
EXPORT_SYMBOL_IF_KUNIT(ntr_event_stack_size);

void ntr_event_layout(const struct ntr_event *e, struct ntr_event_layout *l)
{
	__u32 off = NTTRACE_EVENT_HEADER_SIZE;
	__u32 item = sizeof(struct nttrace_event_extended_item_header);

	if (e->stack)
		off += ntr_event_stack_size(e->stack_frames, e->stack32);
	if (e->related_activity_id)
		off += ntr_item_size(16);
	l->traits = e->traits_size ? off + item : 0;
	if (e->traits_size)
		off += ntr_item_size(e->traits_size);
	l->schema = e->schema_size ? off + item : 0;
	if (e->schema_size)
		off += ntr_item_size(e->schema_size);
	l->data = off;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_event_layout);

int ntr_event_metadata(const struct nttrace_event_data_descriptor *d, __u32 n,
		       __s32 *traits, __s32 *schema)
{
	__u32 i;

	*traits = -1;
	*schema = -1;
	for (i = 0; i < n; i++) {
		__s32 *slot;

		switch (d[i].reserved & 0xFF) {
		case NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_NONE:
			continue;
		case NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA:
			slot = schema;
			break;
		case NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA:
			slot = traits;
			break;
		default:
			return -1;
		}
		if (*slot >= 0)
			return -1;
		*slot = i;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_event_metadata);

bool ntr_traits_valid(const __u8 *t, __u32 len)
{
	__u32 at = 2, size;

	if (len < 3 || (__u32)(t[0] | t[1] << 8) != len)
		return false;
	while (at < len && t[at])
		at++;
	if (at++ == len)
		return false;
	while (at < len) {
		if (len - at < 3)
			return false;
		size = t[at] | t[at + 1] << 8;
		if (size < 3 || size > len - at)
			return false;
		at += size;
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_traits_valid);

/* The header of one extended item at @p, and the zeros after its data. */
static void ntr_item_encode(__u8 *p, __u16 ext_type, __u32 data_size, bool more)
{
	struct nttrace_event_extended_item_header item = {
		.size = ntr_item_size(data_size),
		.ext_type = ext_type,
		.linkage = more,
		.data_size = data_size,
	};
	__u32 end = sizeof(item) + data_size;

	memcpy(p, &item, sizeof(item));
	memset(p + end, 0, item.size - end);
}

void ntr_event_encode(void *rec, const struct ntr_event *e)
{
	struct nttrace_event_header h = {
		.size = e->size,
		.header_type = e->ptr32 ? NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER32 :
					  NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER64,
		.marker_flags = NTTRACE_TRACE_HEADER_MARKER_BYTE,
		.flags = NTTRACE_EVENT_HEADER_FLAG_NO_CPUTIME | e->extra_flags |
			 (e->ptr32 ? NTTRACE_EVENT_HEADER_FLAG_32_BIT_HEADER :
				     NTTRACE_EVENT_HEADER_FLAG_64_BIT_HEADER),
		.event_property = e->event_property,
		.thread_id = e->thread_id,
		.process_id = e->process_id,
		.time_stamp = e->time_stamp,
		.descriptor = *e->descriptor,
		.processor_time = 0,
	};
	const __u32 item = sizeof(struct nttrace_event_extended_item_header);
	struct ntr_event_layout l;
	__u32 at = NTTRACE_EVENT_HEADER_SIZE;
	__u8 *p = rec;

	memcpy(h.provider_id, e->provider_id, 16);
	memcpy(h.activity_id, e->activity_id, 16);
	ntr_event_layout(e, &l);
	if (l.data > NTTRACE_EVENT_HEADER_SIZE)
		h.flags |= NTTRACE_EVENT_HEADER_FLAG_EXTENDED_INFO;
	/*
	 * The items in the order Windows' files show them: the related
	 * activity ID, then PROV_TRAITS, then EVENT_SCHEMA_TL (as in
	 * TraceLogging events of Windows-written ETL files); Linkage 1 on
	 * all but the last. The metadata bytes are the writer's, already in
	 * place; only the item headers and the padding are written here.
	 * Where Windows puts a stack item among them no file we have shows:
	 * first, here (see struct ntr_event_layout).
	 */
	if (e->stack) {
		__u64 match_id = 0;
		__u32 i;

		ntr_item_encode(p + at, e->stack32 ? NTTRACE_EVENT_HEADER_EXT_TYPE_STACK_TRACE32 :
						     NTTRACE_EVENT_HEADER_EXT_TYPE_STACK_TRACE64,
				ntr_stack_data_size(e->stack_frames, e->stack32),
				e->related_activity_id || e->traits_size || e->schema_size);
		at += item;
		memcpy(p + at, &match_id, 8);
		at += 8;
		for (i = 0; i < e->stack_frames; i++) {
			if (e->stack32) {
				__u32 a = (__u32)e->stack[i];

				memcpy(p + at, &a, 4);
				at += 4;
			} else {
				__u64 a = e->stack[i];

				memcpy(p + at, &a, 8);
				at += 8;
			}
		}
		at = (at + 7) & ~7U;
	}
	if (e->related_activity_id) {
		ntr_item_encode(p + at, NTTRACE_EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID, 16,
				e->traits_size || e->schema_size);
		memcpy(p + at + item, e->related_activity_id, 16);
	}
	if (e->traits_size)
		ntr_item_encode(p + l.traits - item, NTTRACE_EVENT_HEADER_EXT_TYPE_PROV_TRAITS,
				e->traits_size, e->schema_size);
	if (e->schema_size)
		ntr_item_encode(p + l.schema - item, NTTRACE_EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL,
				e->schema_size, false);
	memcpy(rec, &h, sizeof(h));
}
EXPORT_SYMBOL_IF_KUNIT(ntr_event_encode);

static __u32 ntr_get16(const __u8 *p)
{
	return p[0] | (__u32)p[1] << 8;
}

static bool ntr_kernel_header(__u8 header_type)
{
	switch (header_type) {
	case NTTRACE_TRACE_HEADER_TYPE_SYSTEM32:
	case NTTRACE_TRACE_HEADER_TYPE_SYSTEM64:
	case NTTRACE_TRACE_HEADER_TYPE_COMPACT32:
	case NTTRACE_TRACE_HEADER_TYPE_COMPACT64:
	case NTTRACE_TRACE_HEADER_TYPE_PERFINFO32:
	case NTTRACE_TRACE_HEADER_TYPE_PERFINFO64:
		return true;
	}
	return false;
}

__u32 ntr_record_size(const __u8 *rec)
{
	if (rec[3] == NTTRACE_TRACE_HEADER_MARKER_BYTE && ntr_kernel_header(rec[2]))
		return ntr_get16(rec + 4);
	return ntr_get16(rec);
}
EXPORT_SYMBOL_IF_KUNIT(ntr_record_size);

/* An EventWrite record's extended items: a chain within @len. */
static int ntr_items_check(const __u8 *rec, __u32 len)
{
	__u32 at = sizeof(struct nttrace_event_header);
	__u32 item = sizeof(struct nttrace_event_extended_item_header);

	for (;;) {
		__u32 size, data;

		if (len - at < item)
			return -1;
		size = ntr_get16(rec + at);
		data = ntr_get16(rec + at + 6);
		/* The reader's rule (userlib/etl/etlread.c, ext_item()). */
		if (size != ntr_item_size(data) || size > len - at)
			return -1;
		if (!(ntr_get16(rec + at + 4) & 1))
			return 0;
		at += size;
	}
}

int ntr_record_check(const __u8 *rec, __u32 len)
{
	__u32 fixed, marker;

	if (len < 8 || len > 0xFFFF)
		return -1;
	if (rec[3] == NTTRACE_MESSAGE_TRACE_MARKER_BYTE)
		return ntr_get16(rec) == len &&
		       ntr_message_items_size(ntr_get16(rec + 6)) <= len ? 0 : -1;
	if (rec[3] != NTTRACE_TRACE_HEADER_MARKER_BYTE)
		return -1;
	if (ntr_record_size(rec) != len)
		return -1;
	switch (rec[2]) {
	case NTTRACE_TRACE_HEADER_TYPE_SYSTEM32:
	case NTTRACE_TRACE_HEADER_TYPE_SYSTEM64:
	case NTTRACE_TRACE_HEADER_TYPE_COMPACT32:
	case NTTRACE_TRACE_HEADER_TYPE_COMPACT64:
	case NTTRACE_TRACE_HEADER_TYPE_PERFINFO32:
	case NTTRACE_TRACE_HEADER_TYPE_PERFINFO64:
		fixed = rec[2] <= NTTRACE_TRACE_HEADER_TYPE_SYSTEM64 ? 0x20 :
			rec[2] <= NTTRACE_TRACE_HEADER_TYPE_COMPACT64 ? 0x18 : 0x10;
		/* PMC counters (bits 8-10) and a PEBS index (bit 15). */
		marker = ntr_get16(rec);
		fixed += 8 * ((marker >> 8 & 7) + !!(marker & 0x8000));
		return fixed <= len ? 0 : -1;
	case NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER32:
	case NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER64:
		fixed = NTTRACE_EVENT_TRACE_HEADER_SIZE;
		break;
	case NTTRACE_TRACE_HEADER_TYPE_INSTANCE32:
	case NTTRACE_TRACE_HEADER_TYPE_INSTANCE64:
		fixed = NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE;
		break;
	case NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER32:
	case NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER64:
		if (len < sizeof(struct nttrace_event_header))
			return -1;
		if (ntr_get16(rec + 4) & NTTRACE_EVENT_HEADER_FLAG_EXTENDED_INFO)
			return ntr_items_check(rec, len);
		return 0;
	default:
		return -1;
	}
	return fixed <= len ? 0 : -1;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_record_check);

void ntr_buffer_open(void *buf, const struct ntr_buffer_conf *c, __u16 processor)
{
	struct nttrace_wmi_buffer_header h;

	memset(&h, 0, sizeof(h));
	h.buffer_size = c->buffer_size;
	h.clock_type_frequency = (c->frequency << 3) | (c->clock_type & 7);
	/* 16 bits, with NTTRACE_WMI_BUFFER_FLAG_PROC_INDEX: processors past 255 too. */
	h.processor_index = processor;
	h.logger_id = c->logger_id;
	h.buffer_type = NTTRACE_WMI_BUFFER_TYPE_GENERIC;
	h.start_time = c->start_time;
	h.start_perf_clock = c->start_perf_clock;
	memcpy(buf, &h, sizeof(h));
}
EXPORT_SYMBOL_IF_KUNIT(ntr_buffer_open);

void ntr_buffer_seal(void *buf, __u32 end, __u64 time_stamp, __u64 sequence,
		     __u16 lost_flags)
{
	struct nttrace_wmi_buffer_header *h = buf;

	memset((__u8 *)buf + end, NTTRACE_WMI_BUFFER_FILL, h->buffer_size - end);
	h->saved_offset = end;
	h->current_offset = end;
	h->offset = end;
	h->time_stamp = time_stamp;
	h->sequence_number = sequence;
	/*
	 * A loss is marked on the buffer that follows it in its processor's
	 * stream (the writers' choice: see module/ring.c).
	 */
	h->buffer_flag = NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER | NTTRACE_WMI_BUFFER_FLAG_PROC_INDEX |
			 lost_flags;
}
EXPORT_SYMBOL_IF_KUNIT(ntr_buffer_seal);

