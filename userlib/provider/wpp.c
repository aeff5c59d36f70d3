// SPDX-License-Identifier: LGPL-2.1
/*
 * WPP-style tracing (<nttrace/wpp.h>): the message GUID of a source file,
 * shared by DoTraceMessage and the decoder (tmf.c), which recompute it
 * from the file name recorded in each section entry.
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

const GUID *nttrace_wpp_guid_(const struct nttrace_wpp_entry *e, GUID *cache,
			      int *state, GUID *tmp)
{
	int expected = 0;

	/* Pairs with the release store below: a 2 means *cache is whole. */
	if (__atomic_load_n(state, __ATOMIC_ACQUIRE) == 2)
		return cache;
	if (!__atomic_compare_exchange_n(state, &expected, 1, 0, __ATOMIC_RELAXED,
					 __ATOMIC_RELAXED)) {
		nttrace_wpp_entry_guid(e, tmp);
		return tmp;
	}
	nttrace_wpp_entry_guid(e, cache);
	__atomic_store_n(state, 2, __ATOMIC_RELEASE);
	return cache;
}
