// SPDX-License-Identifier: LGPL-2.1
/*
 * Value maps and bit maps of manifest fields: TdhGetEventMapInformation
 * hands one out as EVENT_MAP_INFO, and TdhFormatProperty shows a value
 * through one.
 *
 * As Microsoft documents TdhGetEventMapInformation (learn.microsoft.com):
 * the map is found by the name the field's MapNameOffset gives, among the
 * maps of the event's provider; ERROR_NOT_FOUND when there is no such
 * provider or map; each entry's text ends in a space ("Monday" is handed
 * out as "Monday "); the entries are ULONG values
 * (EVENTMAP_ENTRY_VALUETYPE_ULONG), in the manifest's order.
 *
 * How TdhFormatProperty shows a mapped value is nttrace's choice (Microsoft
 * does not say): a value map's entry text without its trailing space, the
 * number as without a map when no entry has it; a bit map's texts of the
 * entries all of whose bits are set, in the map's order, joined by '|',
 * then the bits no entry covers as one hexadecimal number (0x...), and an
 * entry of value 0 only for the value 0 ("0" when there is none).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tdh_man.h"

static TDHSTATUS done(TDHSTATUS err)
{
	SetLastError(err);
	return err;
}

static int same_wname(const char *utf8, const WCHAR *w)
{
	struct nttrace_tdh_text t = { NULL, 0, 0 };
	WCHAR buf[256];
	size_t i;

	t.buf = buf;
	t.cap = sizeof(buf) / sizeof(buf[0]);
	nttrace_tdh_put_utf8(&t, (const uint8_t *)utf8, strlen(utf8), 0);
	if (t.n >= t.cap)
		return 0;	/* no map name is that long */
	for (i = 0; i < t.n; i++)
		if (buf[i] != w[i])
			return 0;
	return w[t.n] == 0;
}

/* The map @mp as EVENT_MAP_INFO, newly allocated. */
static ULONG build(const struct nttrace_man_map *mp, EVENT_MAP_INFO **out, ULONG *out_size)
{
	size_t size = offsetof(EVENT_MAP_INFO, MapEntryArray) +
		      (size_t)mp->n * sizeof(EVENT_MAP_ENTRY), at;
	EVENT_MAP_INFO *mi;
	uint32_t i;

	if (size < sizeof(EVENT_MAP_INFO))
		size = sizeof(EVENT_MAP_INFO);
	at = size;
	size += nttrace_man_wsize(mp->name);
	for (i = 0; i < mp->n; i++)
		if (mp->v[i].message)
			size += nttrace_man_wsize(mp->v[i].message) + 2;	/* the space */
	if (size > 0xFFFFFFFF)
		return ERROR_INVALID_DATA;
	mi = calloc(1, size);
	if (!mi)
		return ERROR_NOT_ENOUGH_MEMORY;
	mi->NameOffset = nttrace_man_wput((uint8_t *)mi, &at, mp->name);
	mi->Flag = mp->bitmap ? EVENTMAP_INFO_FLAG_MANIFEST_BITMAP :
		   EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP;
	mi->EntryCount = mp->n;
	mi->MapEntryValueType = EVENTMAP_ENTRY_VALUETYPE_ULONG;
	for (i = 0; i < mp->n; i++) {
		EVENT_MAP_ENTRY *e = &mi->MapEntryArray[i];
		WCHAR space = ' ';

		e->Value = mp->v[i].value;
		if (!mp->v[i].message)
			continue;
		e->OutputOffset = nttrace_man_wput((uint8_t *)mi, &at, mp->v[i].message);
		/* Over the NUL, then a new NUL (calloc's). */
		memcpy((uint8_t *)mi + at - 2, &space, 2);
		at += 2;
	}
	*out = mi;
	*out_size = size;
	return ERROR_SUCCESS;
}

TDHSTATUS WINAPI TdhGetEventMapInformation(PEVENT_RECORD pEvent, PWSTR pMapName,
					   PEVENT_MAP_INFO pBuffer, ULONG *pBufferSize)
{
	const struct nttrace_man_provider *p;
	EVENT_MAP_INFO *mi = NULL;
	ULONG err = ERROR_NOT_FOUND, size = 0;
	uint32_t i, k;

	if (!pEvent || !pMapName || !pBufferSize)
		return done(ERROR_INVALID_PARAMETER);
	nttrace_man_lock();
	for (i = 0; err == ERROR_NOT_FOUND && (p = nttrace_man_provider_at(i)); i++) {
		if (memcmp(&p->guid, &pEvent->EventHeader.ProviderId, sizeof(GUID)))
			continue;
		for (k = 0; k < p->nmaps; k++) {
			if (same_wname(p->maps[k].name, pMapName)) {
				err = build(&p->maps[k], &mi, &size);
				break;
			}
		}
	}
	nttrace_man_unlock();
	if (err)
		return done(err);
	if (!pBuffer || *pBufferSize < size)
		err = ERROR_INSUFFICIENT_BUFFER;
	else
		memcpy(pBuffer, mi, size);
	*pBufferSize = size;
	free(mi);
	return done(err);
}

/* An entry's text, without the trailing spaces the map hands out. */
static void put_entry(struct nttrace_tdh_text *t, const EVENT_MAP_INFO *mi,
		      const EVENT_MAP_ENTRY *e)
{
	const uint8_t *s = (const uint8_t *)mi + e->OutputOffset;
	size_t n = 0, i;
	WCHAR c;

	if (!e->OutputOffset)
		return;
	for (;; n++) {
		memcpy(&c, s + 2 * n, 2);	/* the caller's buffer: any alignment */
		if (!c)
			break;
	}
	while (n) {
		memcpy(&c, s + 2 * (n - 1), 2);
		if (c != ' ')
			break;
		n--;
	}
	for (i = 0; i < n; i++) {
		memcpy(&c, s + 2 * i, 2);
		nttrace_tdh_put(t, c);
	}
}

static void put_hex(struct nttrace_tdh_text *t, uint64_t v)
{
	char s[24];

	snprintf(s, sizeof(s), "0x%llX", (unsigned long long)v);
	nttrace_tdh_puts(t, s);
}

int nttrace_tdh_put_map(struct nttrace_tdh_text *t, const EVENT_MAP_INFO *mi, uint64_t v)
{
	uint64_t left = v;
	ULONG i;
	int any = 0;

	if (mi->Flag & EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP) {
		for (i = 0; i < mi->EntryCount; i++) {
			if (mi->MapEntryArray[i].Value == v) {
				put_entry(t, mi, &mi->MapEntryArray[i]);
				return 1;
			}
		}
		return 0;
	}
	if (!(mi->Flag & EVENTMAP_INFO_FLAG_MANIFEST_BITMAP))
		return 0;
	for (i = 0; i < mi->EntryCount; i++) {
		uint32_t bits = mi->MapEntryArray[i].Value;

		if (bits ? (v & bits) != bits : v != 0)
			continue;
		if (any++)
			nttrace_tdh_put(t, '|');
		put_entry(t, mi, &mi->MapEntryArray[i]);
		left &= ~(uint64_t)bits;
	}
	if (left || !any) {
		if (any)
			nttrace_tdh_put(t, '|');
		if (left)
			put_hex(t, left);
		else
			nttrace_tdh_put(t, '0');
	}
	return 1;
}
