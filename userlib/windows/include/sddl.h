/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <sddl.h> for Windows sources (nttrace-windows.pc): a SID as text,
 * "S-1-5-21-...", in a buffer the caller frees with LocalFree, as the
 * ETW samples print a user's SID. A SID that is not valid (revision 1,
 * at most 15 sub-authorities): FALSE, ERROR_INVALID_SID. (The other way,
 * and security descriptors, are not here.) Also winnt.h's SID helpers.
 */
#ifndef NTTRACE_WINDOWS_SDDL_H
#define NTTRACE_WINDOWS_SDDL_H

#include "windows.h"

#define SID_MAX_SUB_AUTHORITIES	15

NTTRACE_WIN_BEGIN
BOOL ConvertSidToStringSidW(PSID sid, LPWSTR *text) NTTRACE_WIN(ConvertSidToStringSidW);
BOOL ConvertSidToStringSidA(PSID sid, LPSTR *text) NTTRACE_WIN(ConvertSidToStringSidA);
BOOL IsValidSid(PSID sid) NTTRACE_WIN(IsValidSid);
DWORD GetLengthSid(PSID sid) NTTRACE_WIN(GetLengthSid);
NTTRACE_WIN_END

#ifdef UNICODE
#define ConvertSidToStringSid	ConvertSidToStringSidW
#else
#define ConvertSidToStringSid	ConvertSidToStringSidA
#endif

#endif /* NTTRACE_WINDOWS_SDDL_H */
