/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the two manifest harnesses share (tdh_manifest_fuzz.c for XML,
 * tdh_wevt_fuzz.c for compiled manifests): with a manifest loaded, an
 * event of a provider decoded from the input's bytes as a consumer would
 * (decode()), and the provider's fields and events listed (lists()),
 * aborting on a TRACE_EVENT_INFO whose offsets, counts or indices leave it
 * and on sizes that disagree. Static functions, included once by each.
 */
#ifndef NTTRACE_FUZZ_TDH_MAN_FUZZ_H
#define NTTRACE_FUZZ_TDH_MAN_FUZZ_H

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

/* A string at @o inside @size bytes of @b, NUL included. */
static void check_string(const uint8_t *b, ULONG size, ULONG fixed, ULONG o)
{
	if (!o)
		return;
	if (o < fixed || o >= size || (o & 1))
		abort();
	while (o + 1 < size && (b[o] || b[o + 1]))
		o += 2;
	if (o + 1 >= size)
		abort();
}

static void check_info(const TRACE_EVENT_INFO *tei, ULONG size)
{
	const ULONG offs[] = {
		tei->ProviderNameOffset, tei->LevelNameOffset, tei->ChannelNameOffset,
		tei->KeywordsNameOffset, tei->TaskNameOffset, tei->OpcodeNameOffset,
		tei->EventMessageOffset, tei->ProviderMessageOffset, tei->EventNameOffset,
	};
	size_t fixed = offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) +
		       (size_t)tei->PropertyCount * sizeof(EVENT_PROPERTY_INFO);
	const uint8_t *b = (const uint8_t *)tei;
	ULONG i;

	if (fixed > size || tei->TopLevelPropertyCount > tei->PropertyCount ||
	    tei->DecodingSource != DecodingSourceXMLFile)
		abort();
	for (i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		check_string(b, size, fixed, offs[i]);
	for (i = 0; i < tei->PropertyCount; i++) {
		const EVENT_PROPERTY_INFO *p = &tei->EventPropertyInfoArray[i];

		check_string(b, size, fixed, p->NameOffset);
		if (p->Flags & PropertyStruct) {
			if (p->structType.StructStartIndex + p->structType.NumOfStructMembers >
			    tei->PropertyCount)
				abort();
		} else {
			check_string(b, size, fixed, p->nonStructType.MapNameOffset);
		}
		if (((p->Flags & PropertyParamCount) && p->countPropertyIndex >= i) ||
		    ((p->Flags & PropertyParamLength) && p->lengthPropertyIndex >= i))
			abort();	/* a count or length comes first */
	}
}

static void property(PEVENT_RECORD er, PROPERTY_DATA_DESCRIPTOR *pd)
{
	ULONG size = 0, err = TdhGetPropertySize(er, 0, NULL, 1, pd, &size);
	uint8_t *buf;

	if (err)
		return;
	if (size > er->UserDataLength)
		abort();
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	if (TdhGetProperty(er, 0, NULL, 1, pd, size, buf))
		abort();
	if (size)
		sink = buf[size - 1];
	free(buf);
}

static EVENT_MAP_INFO *map_of(TRACE_EVENT_INFO *tei, EVENT_PROPERTY_INFO *p, PEVENT_RECORD er)
{
	EVENT_MAP_INFO *mi;
	ULONG size = 0, size2;

	if (!p->nonStructType.MapNameOffset)
		return NULL;
	if (TdhGetEventMapInformation(er, TEI_MAP_NAME(tei, p), NULL, &size) !=
	    ERROR_INSUFFICIENT_BUFFER)
		abort();	/* the TRACE_EVENT_INFO named it: it is there */
	mi = malloc(size);
	if (!mi)
		abort();
	size2 = size;
	if (TdhGetEventMapInformation(er, TEI_MAP_NAME(tei, p), mi, &size2) || size2 != size)
		abort();
	return mi;
}

static void format_all(TRACE_EVENT_INFO *tei, PEVENT_RECORD er, ULONG psz)
{
	const uint8_t *d = er->UserData;
	USHORT left = er->UserDataLength, used;
	ULONG i;

	for (i = 0; i < tei->TopLevelPropertyCount; i++) {
		EVENT_PROPERTY_INFO *p = &tei->EventPropertyInfoArray[i];
		EVENT_MAP_INFO *mi;
		ULONG size = 0, need, err;
		WCHAR *w;

		if (p->Flags & (PropertyStruct | PropertyParamLength | PropertyParamCount))
			return;
		mi = map_of(tei, p, er);
		err = TdhFormatProperty(tei, mi, psz, p->nonStructType.InType,
					p->nonStructType.OutType, p->length, left, (PBYTE)d,
					&size, NULL, &used);
		if (err != ERROR_INSUFFICIENT_BUFFER) {
			free(mi);
			return;
		}
		need = size;
		w = malloc(need);
		if (!w)
			abort();
		err = TdhFormatProperty(tei, mi, psz, p->nonStructType.InType,
					p->nonStructType.OutType, p->length, left, (PBYTE)d,
					&size, w, &used);
		if (err || size != need || used > left || w[need / 2 - 1])
			abort();
		free(w);
		free(mi);
		d += used;
		left -= used;
	}
}

static void lists(GUID *g)
{
	ULONG size, t;
	void *b;

	for (t = 0; t < EventInformationMax; t++) {
		size = 0;
		if (TdhEnumerateProviderFieldInformation(g, t, NULL, &size) !=
		    ERROR_INSUFFICIENT_BUFFER)
			continue;
		b = malloc(size);
		if (!b || TdhEnumerateProviderFieldInformation(g, t, b, &size))
			abort();
		free(b);
	}
	size = 0;
	if (TdhEnumerateManifestProviderEvents(g, NULL, &size) != ERROR_INSUFFICIENT_BUFFER)
		abort();
	b = malloc(size);
	if (!b || TdhEnumerateManifestProviderEvents(g, b, &size))
		abort();
	free(b);
}

static void decode(GUID *g, const uint8_t *p, const uint8_t *end, int is32)
{
	EVENT_RECORD er = { 0 };
	TRACE_EVENT_INFO *tei;
	ULONG tei_size = 0, size2, i;
	size_t n;
	void *ud;

	er.EventHeader.ProviderId = *g;
	er.EventHeader.EventDescriptor.Id = end - p >= 2 ? p[0] | p[1] << 8 : 0;
	er.EventHeader.EventDescriptor.Version = end - p >= 3 ? p[2] : 0;
	p = end - p >= 3 ? p + 3 : end;
	n = end - p > 0xFFFF ? 0xFFFF : end - p;
	ud = copy(p, n);
	er.UserData = ud;
	er.UserDataLength = n;
	er.EventHeader.Flags = is32 ? EVENT_HEADER_FLAG_32_BIT_HEADER :
			       EVENT_HEADER_FLAG_64_BIT_HEADER;
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
		PROPERTY_DATA_DESCRIPTOR pd = {
			(uintptr_t)((uint8_t *)tei + e->NameOffset), 0xFFFFFFFF, 0
		};

		property(&er, &pd);
		pd.ArrayIndex = 0;
		property(&er, &pd);
	}
	format_all(tei, &er, is32 ? 4 : 8);
	free(tei);
out:
	free(ud);
}


/*
 * The first provider of the manifests loaded: its fields and events
 * listed, and an event of it decoded from [@p, @end) (@is32: a 32-bit
 * header).
 */
static void first_provider(const uint8_t *p, const uint8_t *end, int is32)
{
	PROVIDER_ENUMERATION_INFO *pe;
	ULONG pe_size = 0;

	if (TdhEnumerateProviders(NULL, &pe_size) != ERROR_INSUFFICIENT_BUFFER)
		abort();
	pe = malloc(pe_size);
	if (!pe || TdhEnumerateProviders(pe, &pe_size))
		abort();
	if (pe->NumberOfProviders) {
		lists(&pe->TraceProviderInfoArray[0].ProviderGuid);
		decode(&pe->TraceProviderInfoArray[0].ProviderGuid, p, end, is32);
	}
	free(pe);
}

#endif /* NTTRACE_FUZZ_TDH_MAN_FUZZ_H */
