/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A TraceLogging event made of a fuzzer's input, as tdh_fuzz.c and
 * render_fuzz.c read it:
 *   1 byte   bit 0: the event's header says 32-bit (else 64-bit);
 *            bit 1: a provider-traits item follows the schema
 *   2 bytes  the schema item's size, little-endian (cut to what is left)
 *   the schema item (TraceLogging event metadata)
 *   [1 byte, the traits item's size, and the item]
 *   the rest: the event's data (at most 0xFFFF bytes)
 * Each part is copied by the harness's @copy into an allocation of its own.
 */
#ifndef NTTRACE_FUZZ_TL_EVENT_H
#define NTTRACE_FUZZ_TL_EVENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/evntcons.h>

struct tl_event {
	EVENT_RECORD er;
	EVENT_HEADER_EXTENDED_DATA_ITEM x[2];
	void *meta, *traits, *ud;
};

/**
 * tl_event_build() - the event of @size bytes of input at @data
 * @t: the event, its record's extended items and data pointing into @t
 * @data: the input, at least 3 bytes
 * @size: its size
 * @copy: the harness's allocation of a part: @n bytes of @p
 *
 * Sets the record's ExtendedData, ExtendedDataCount, UserData,
 * UserDataLength and its header's 32- or 64-bit flag; the rest of the
 * record is zero.
 */
static inline void tl_event_build(struct tl_event *t, const uint8_t *data, size_t size,
				  void *(*copy)(const uint8_t *p, size_t n))
{
	const uint8_t *p = data + 3, *end = data + size;
	size_t n;

	memset(t, 0, sizeof(*t));
	n = data[1] | data[2] << 8;
	if (n > (size_t)(end - p))
		n = end - p;
	t->meta = copy(p, n);
	t->x[0].ExtType = EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL;
	t->x[0].DataSize = n;
	t->x[0].DataPtr = (uintptr_t)t->meta;
	t->er.ExtendedDataCount = 1;
	p += n;
	if ((data[0] & 2) && p < end) {
		n = *p++;
		if (n > (size_t)(end - p))
			n = end - p;
		t->traits = copy(p, n);
		t->x[1].ExtType = EVENT_HEADER_EXT_TYPE_PROV_TRAITS;
		t->x[1].DataSize = n;
		t->x[1].DataPtr = (uintptr_t)t->traits;
		t->er.ExtendedDataCount = 2;
		p += n;
	}
	n = end - p > 0xFFFF ? 0xFFFF : end - p;
	t->ud = copy(p, n);
	t->er.ExtendedData = t->x;
	t->er.UserData = t->ud;
	t->er.UserDataLength = n;
	t->er.EventHeader.Flags = data[0] & 1 ? EVENT_HEADER_FLAG_32_BIT_HEADER :
				  EVENT_HEADER_FLAG_64_BIT_HEADER;
}

/**
 * tl_event_free() - frees what tl_event_build() allocated
 * @t: the event
 */
static inline void tl_event_free(struct tl_event *t)
{
	free(t->meta);
	free(t->traits);
	free(t->ud);
}

#endif /* NTTRACE_FUZZ_TL_EVENT_H */
