// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: TDH over a TraceLogging event made of the input
 * (userlib/consumer/tdh*.c): TdhGetEventInformation on its schema, then,
 * for every property, TdhGetPropertySize and TdhGetProperty (the
 * top-level ones, and each member of a top-level structure), and
 * TdhFormatProperty as a consumer runs it through the data, with a buffer
 * too small first.
 *
 * Input, in order:
 *   1 byte   bit 0: the event's header says 32-bit (else 64-bit);
 *            bit 1: a provider-traits item follows the schema
 *   2 bytes  the schema item's size, little-endian (cut to what is left)
 *   the schema item (TraceLogging event metadata)
 *   [1 byte, the traits item's size, and the item]
 *   the rest: the event's data
 * Each part is copied into an allocation of its own size, so that a read
 * past one is AddressSanitizer's to see. Besides crashes, the harness
 * aborts on a TRACE_EVENT_INFO whose offsets, counts or strings leave its
 * size, and on sizes that disagree between calls.
 *
 * Build and run: scripts/fuzz-lib (build/fuzz/tdh_fuzz); seeds in
 * tests/fuzz/corpus/tdh_fuzz/ (events of tests/host/tdh_test.c's encoder:
 * tdh_test --corpus DIR), crashes kept in tests/fuzz/regressions/tdh_fuzz/.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/tdh.h>

static volatile uint8_t sink;

static void *copy(const uint8_t *p, size_t n)
{
	void *d = malloc(n ? n : 1);

	if (!d)
		abort();
	memcpy(d, p, n);
	return d;
}

/* Every offset and string of @tei inside its @size bytes. */
static void check_info(const TRACE_EVENT_INFO *tei, ULONG size)
{
	const ULONG offs[] = { tei->ProviderNameOffset, tei->EventNameOffset,
			       tei->TaskNameOffset };
	size_t fixed = offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) +
		       (size_t)tei->PropertyCount * sizeof(EVENT_PROPERTY_INFO);
	const uint8_t *b = (const uint8_t *)tei;
	ULONG i, o;

	if (fixed > size || tei->TopLevelPropertyCount > tei->PropertyCount ||
	    tei->DecodingSource != DecodingSourceTlg)
		abort();
	for (i = 0; i < tei->PropertyCount + 3; i++) {
		const EVENT_PROPERTY_INFO *p = &tei->EventPropertyInfoArray[i < 3 ? 0 : i - 3];

		o = i < 3 ? offs[i] : p->NameOffset;
		if (i >= 3 && (p->Flags & PropertyStruct) &&
		    p->structType.StructStartIndex + p->structType.NumOfStructMembers >
		    tei->PropertyCount)
			abort();
		if (!o)
			continue;
		if (o < fixed || o >= size || (o & 1))
			abort();
		while (o + 1 < size && (b[o] || b[o + 1]))
			o += 2;
		if (o + 1 >= size)
			abort();	/* no NUL inside */
	}
}

static void property(PEVENT_RECORD er, PROPERTY_DATA_DESCRIPTOR *pd, ULONG n)
{
	ULONG size = 0, err = TdhGetPropertySize(er, 0, NULL, n, pd, &size);
	uint8_t *buf;

	if (err)
		return;
	if (size > er->UserDataLength)
		abort();
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	if (size && TdhGetProperty(er, 0, NULL, n, pd, size - 1, buf) != ERROR_INSUFFICIENT_BUFFER)
		abort();
	if (TdhGetProperty(er, 0, NULL, n, pd, size, buf))
		abort();
	if (size)
		sink = buf[size - 1];
	free(buf);
}

/* The top-level scalars in turn, as a consumer formats them. */
static void format_all(TRACE_EVENT_INFO *tei, PEVENT_RECORD er, ULONG psz)
{
	const uint8_t *d = er->UserData;
	USHORT left = er->UserDataLength, used;
	ULONG i;

	for (i = 0; i < tei->TopLevelPropertyCount; i++) {
		EVENT_PROPERTY_INFO *p = &tei->EventPropertyInfoArray[i];
		ULONG size = 2, need, err;
		WCHAR *w;

		if (p->Flags & PropertyStruct)
			return;
		err = TdhFormatProperty(tei, NULL, psz, p->nonStructType.InType,
					p->nonStructType.OutType, p->length, left, (PBYTE)d,
					&size, NULL, &used);
		if (err == ERROR_SUCCESS)
			abort();	/* no buffer: never enough */
		if (err != ERROR_INSUFFICIENT_BUFFER)
			return;
		need = size;
		w = malloc(need);
		if (!w)
			abort();
		err = TdhFormatProperty(tei, NULL, psz, p->nonStructType.InType,
					p->nonStructType.OutType, p->length, left, (PBYTE)d,
					&size, w, &used);
		if (err || size != need || used > left || w[need / 2 - 1])
			abort();
		free(w);
		d += used;
		left -= used;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	EVENT_HEADER_EXTENDED_DATA_ITEM x[2] = { { 0 } };
	EVENT_RECORD er = { 0 };
	const uint8_t *p = data + 3, *end = data + size;
	TRACE_EVENT_INFO *tei;
	size_t n;
	void *meta, *traits = NULL, *ud;
	ULONG tei_size = 0, size2, i, psz;

	if (size < 3)
		return 0;
	n = data[1] | data[2] << 8;
	if (n > (size_t)(end - p))
		n = end - p;
	meta = copy(p, n);
	x[0].ExtType = EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL;
	x[0].DataSize = n;
	x[0].DataPtr = (uintptr_t)meta;
	er.ExtendedDataCount = 1;
	p += n;
	if ((data[0] & 2) && p < end) {
		n = *p++;
		if (n > (size_t)(end - p))
			n = end - p;
		traits = copy(p, n);
		x[1].ExtType = EVENT_HEADER_EXT_TYPE_PROV_TRAITS;
		x[1].DataSize = n;
		x[1].DataPtr = (uintptr_t)traits;
		er.ExtendedDataCount = 2;
		p += n;
	}
	n = end - p > 0xFFFF ? 0xFFFF : end - p;
	ud = copy(p, n);
	er.ExtendedData = x;
	er.UserData = ud;
	er.UserDataLength = n;
	er.EventHeader.Flags = data[0] & 1 ? EVENT_HEADER_FLAG_32_BIT_HEADER :
			       EVENT_HEADER_FLAG_64_BIT_HEADER;
	psz = data[0] & 1 ? 4 : 8;

	if (TdhGetEventInformation(&er, 0, NULL, NULL, &tei_size) != ERROR_INSUFFICIENT_BUFFER)
		goto out;
	tei = malloc(tei_size);
	if (!tei)
		abort();
	size2 = tei_size;
	if (TdhGetEventInformation(&er, 0, NULL, tei, &size2) || size2 != tei_size)
		abort();
	check_info(tei, tei_size);
	for (i = 0; i < tei->TopLevelPropertyCount; i++) {
		EVENT_PROPERTY_INFO *e = &tei->EventPropertyInfoArray[i];
		PROPERTY_DATA_DESCRIPTOR pd[2] = {
			{ (uintptr_t)((uint8_t *)tei + e->NameOffset), 0xFFFFFFFF, 0 },
		};
		ULONG m;

		property(&er, pd, 1);
		pd[0].ArrayIndex = 0;
		property(&er, pd, 1);
		if (!(e->Flags & PropertyStruct))
			continue;
		for (m = 0; m < e->structType.NumOfStructMembers; m++) {
			EVENT_PROPERTY_INFO *f =
				&tei->EventPropertyInfoArray[e->structType.StructStartIndex + m];

			pd[1].PropertyName = (uintptr_t)((uint8_t *)tei + f->NameOffset);
			pd[1].ArrayIndex = 0xFFFFFFFF;
			property(&er, pd, 2);
		}
	}
	format_all(tei, &er, psz);
	free(tei);
out:
	free(meta);
	free(traits);
	free(ud);
	return 0;
}
