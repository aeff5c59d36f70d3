// SPDX-License-Identifier: LGPL-2.1
/*
 * The message GUID of a WPP source file (<nttrace/wpp.h>), which the
 * provider's DoTraceMessage (provider/wpp.c) and the decoder (tmf.c)
 * both compute: the decoder recomputes it from the file name recorded in
 * each section entry.
 */
#include <string.h>

#include <nttrace/wpp.h>

static uint64_t fnv1a64(const char *s, uint64_t h)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

void nttrace_wpp_file_guid(const char *file, GUID *guid)
{
	uint64_t a = fnv1a64(file, 0xcbf29ce484222325ULL);
	uint64_t b = fnv1a64(file, 0x2523228474e9f2cbULL);
	int i;

	guid->Data1 = (uint32_t)(a >> 32);
	guid->Data2 = (uint16_t)(a >> 16);
	/* Version 8 in the top nibble of Data3, variant 10 in Data4[0]. */
	guid->Data3 = (uint16_t)((a & 0x0FFF) | 0x8000);
	for (i = 0; i < 8; i++)
		guid->Data4[i] = (uint8_t)(b >> (56 - 8 * i));
	guid->Data4[0] = (guid->Data4[0] & 0x3F) | 0x80;
}

void nttrace_wpp_entry_guid(const struct nttrace_wpp_entry *e, GUID *guid)
{
	const char *file = (const char *)e + NTTRACE_WPP_ENTRY_SIZE + e->nargs + 1;

	if (e->flags & NTTRACE_WPP_GUID_GIVEN) {
		/* GUID's layout in memory is the 16 bytes of the entry. */
		memcpy(guid, e->guid, sizeof(*guid));
		return;
	}
	nttrace_wpp_file_guid(file, guid);
}
