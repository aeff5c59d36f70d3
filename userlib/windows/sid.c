// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's security identifiers: a SID's size and validity
 * (winnt.h) and its text, "S-1-5-21-...", in a buffer for LocalFree
 * (sddl.h's ConvertSidToStringSid). The identifier authority is decimal
 * when it fits in 32 bits and "0x" and 12 hex digits otherwise, as
 * Microsoft documents the string form ("SID Components").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "win.h"

#define SID_MAX_SUB_AUTHORITIES	15

BOOL nttrace_win_IsValidSid(PSID sid)
{
	const SID *s = sid;

	return s && s->Revision == SID_REVISION &&
	       s->SubAuthorityCount <= SID_MAX_SUB_AUTHORITIES;
}

DWORD nttrace_win_GetLengthSid(PSID sid)
{
	const SID *s = sid;

	return 8 + 4 * (DWORD)s->SubAuthorityCount;
}

/* The SID as ASCII text, malloc'd; NULL with the last error set. */
static char *sid_text(PSID sid)
{
	const SID *s = sid;
	unsigned long long authority = 0;
	/* "S-1-" + 0x + 12 digits + 15 x ("-" + 10 digits) + NUL */
	char *text, *at;
	int i;

	if (!nttrace_win_IsValidSid(sid)) {
		SetLastError(ERROR_INVALID_SID);
		return NULL;
	}
	text = malloc(4 + 14 + SID_MAX_SUB_AUTHORITIES * 11 + 1);
	if (!text) {
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return NULL;
	}
	for (i = 0; i < 6; i++)
		authority = authority << 8 | s->IdentifierAuthority.Value[i];
	at = text + sprintf(text, authority >> 32 ? "S-%u-0x%012llX" : "S-%u-%llu",
			    s->Revision, authority);
	for (i = 0; i < s->SubAuthorityCount; i++) {
		ULONG sub;

		memcpy(&sub, (const BYTE *)s + 8 + 4 * i, sizeof(sub));
		at += sprintf(at, "-%u", sub);
	}
	return text;
}

BOOL nttrace_win_ConvertSidToStringSidA(PSID sid, char **text)
{
	if (!text) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	*text = sid_text(sid);
	return *text != NULL;
}

BOOL nttrace_win_ConvertSidToStringSidW(PSID sid, WCHAR **text)
{
	char *ascii;
	size_t n, i;

	if (!nttrace_win_ConvertSidToStringSidA(sid, &ascii))
		return FALSE;
	n = strlen(ascii);
	*text = malloc((n + 1) * sizeof(WCHAR));
	if (!*text) {
		free(ascii);
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
		return FALSE;
	}
	for (i = 0; i <= n; i++)
		(*text)[i] = (unsigned char)ascii[i];
	free(ascii);
	return TRUE;
}
