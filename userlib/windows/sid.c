// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's security identifiers: a SID's size and validity
 * (winnt.h), the well-known ones (CreateWellKnownSid) and its text, "S-1-5-21-...", in a buffer for LocalFree
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

/*
 * The well-known SIDs of a fixed form, by WELL_KNOWN_SID_TYPE (Windows'
 * values, the index here): the identifier authority, then the
 * sub-authorities ("Well-known SIDs" in Microsoft's documentation). A
 * count of -1: the type needs a domain or logon SID, not made here.
 */
static const struct {
	signed char count;
	BYTE authority;
	ULONG sub[2];
} well_known[] = {
	{ 1, 0, { 0 } },		/* WinNullSid: S-1-0-0 */
	{ 1, 1, { 0 } },		/* WinWorldSid: S-1-1-0 */
	{ 1, 2, { 0 } },		/* WinLocalSid: S-1-2-0 */
	{ 1, 3, { 0 } },		/* WinCreatorOwnerSid: S-1-3-0 */
	{ 1, 3, { 1 } },		/* WinCreatorGroupSid */
	{ 1, 3, { 2 } },		/* WinCreatorOwnerServerSid */
	{ 1, 3, { 3 } },		/* WinCreatorGroupServerSid */
	{ 0, 5, { 0 } },		/* WinNtAuthoritySid: S-1-5 */
	{ 1, 5, { 1 } },		/* WinDialupSid */
	{ 1, 5, { 2 } },		/* WinNetworkSid */
	{ 1, 5, { 3 } },		/* WinBatchSid */
	{ 1, 5, { 4 } },		/* WinInteractiveSid */
	{ 1, 5, { 6 } },		/* WinServiceSid */
	{ 1, 5, { 7 } },		/* WinAnonymousSid */
	{ 1, 5, { 8 } },		/* WinProxySid */
	{ 1, 5, { 9 } },		/* WinEnterpriseControllersSid */
	{ 1, 5, { 10 } },		/* WinSelfSid */
	{ 1, 5, { 11 } },		/* WinAuthenticatedUserSid */
	{ 1, 5, { 12 } },		/* WinRestrictedCodeSid */
	{ 1, 5, { 13 } },		/* WinTerminalServerSid */
	{ 1, 5, { 14 } },		/* WinRemoteLogonIdSid */
	{ -1, 5, { 5 } },		/* WinLogonIdsSid: S-1-5-5-X-Y, a logon's */
	{ 1, 5, { 18 } },		/* WinLocalSystemSid */
	{ 1, 5, { 19 } },		/* WinLocalServiceSid */
	{ 1, 5, { 20 } },		/* WinNetworkServiceSid */
	{ 1, 5, { 32 } },		/* WinBuiltinDomainSid */
	{ 2, 5, { 32, 544 } },		/* WinBuiltinAdministratorsSid */
	{ 2, 5, { 32, 545 } },		/* WinBuiltinUsersSid */
	{ 2, 5, { 32, 546 } },		/* WinBuiltinGuestsSid */
	{ 2, 5, { 32, 547 } },		/* WinBuiltinPowerUsersSid */
	{ 2, 5, { 32, 548 } },		/* WinBuiltinAccountOperatorsSid */
	{ 2, 5, { 32, 549 } },		/* WinBuiltinSystemOperatorsSid */
	{ 2, 5, { 32, 550 } },		/* WinBuiltinPrintOperatorsSid */
	{ 2, 5, { 32, 551 } },		/* WinBuiltinBackupOperatorsSid */
	{ 2, 5, { 32, 552 } },		/* WinBuiltinReplicatorSid */
};

BOOL nttrace_win_CreateWellKnownSid(int type, PSID domain, PSID sid, DWORD *size)
{
	SID *s = sid;
	DWORD need;
	int i;

	(void)domain;	/* none of these is relative to a domain */
	if (type < 0 || type >= (int)(sizeof(well_known) / sizeof(well_known[0])) ||
	    well_known[type].count < 0 || !size) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	need = 8 + 4 * (DWORD)well_known[type].count;
	if (!sid || *size < need) {
		*size = need;
		SetLastError(ERROR_INSUFFICIENT_BUFFER);
		return FALSE;
	}
	memset(s, 0, need);
	s->Revision = SID_REVISION;
	s->SubAuthorityCount = (BYTE)well_known[type].count;
	s->IdentifierAuthority.Value[5] = well_known[type].authority;
	for (i = 0; i < well_known[type].count; i++)
		s->SubAuthority[i] = well_known[type].sub[i];
	*size = need;
	return TRUE;
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
