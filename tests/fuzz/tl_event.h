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
	void *ud;
};

/**
 * tl_event_item() - extended item @i of an event: the next bytes of input
 * @t: the event
 * @i: the item's index
 * @type: its ExtType
 * @p: the input's next byte
 * @end: the input's end
 * @n: the item's bytes, cut to what is left
 * @copy: the harness's allocation of a part
 *
 * Return: the input's byte after the item.
 */
static inline const uint8_t *tl_event_item(struct tl_event *t, unsigned int i, USHORT type,
					   const uint8_t *p, const uint8_t *end, size_t n,
					   void *(*copy)(const uint8_t *p, size_t n))
{
	if (n > (size_t)(end - p))
		n = end - p;
	t->x[i].ExtType = type;
	t->x[i].DataSize = n;
	t->x[i].DataPtr = (uintptr_t)copy(p, n);
	t->er.ExtendedDataCount = i + 1;
	return p + n;
}

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
	p = tl_event_item(t, 0, EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL, p, end,
			  data[1] | data[2] << 8, copy);
	if ((data[0] & 2) && p < end)
		p = tl_event_item(t, 1, EVENT_HEADER_EXT_TYPE_PROV_TRAITS, p + 1, end, *p, copy);
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
	free((void *)(uintptr_t)t->x[0].DataPtr);
	free((void *)(uintptr_t)t->x[1].DataPtr);
	free(t->ud);
}

#endif /* NTTRACE_FUZZ_TL_EVENT_H */
