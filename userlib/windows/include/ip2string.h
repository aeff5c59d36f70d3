/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <ip2string.h> for Windows sources (nttrace-windows.pc): NTDLL's address
 * to text functions (userlib/windows/inet.c), the text as inet_ntop's
 * (<ws2tcpip.h> says which).
 *
 *   RtlIpv4AddressToString(A/W), RtlIpv6AddressToString(A/W)  @Addr's
 *       text into @S, which has room for it (16 characters for IPv4, 46
 *       for IPv6, as Windows asks); returns the address of its NUL
 *   RtlIpv4AddressToStringEx(A/W), RtlIpv6AddressToStringEx(A/W)  the
 *       same, with ":port" when @Port (network order) is not 0, and for
 *       IPv6 "%scope" when @ScopeId is not 0 and brackets around the
 *       address when there is a port; *@AddressStringLength in: the
 *       buffer's characters, out: the text's with its NUL. Returns
 *       STATUS_SUCCESS, or STATUS_INVALID_PARAMETER (a NULL pointer, or
 *       a buffer too small, *@AddressStringLength then the length needed)
 */
#ifndef NTTRACE_WINDOWS_IP2STRING_H
#define NTTRACE_WINDOWS_IP2STRING_H

#include "windows.h"
#include "inaddr.h"
#include "in6addr.h"

NTTRACE_WIN_BEGIN
PSTR NTAPI RtlIpv4AddressToStringA(const IN_ADDR *Addr, PSTR S)
	NTTRACE_WIN(RtlIpv4AddressToStringA);
PWSTR NTAPI RtlIpv4AddressToStringW(const IN_ADDR *Addr, PWSTR S)
	NTTRACE_WIN(RtlIpv4AddressToStringW);
PSTR NTAPI RtlIpv6AddressToStringA(const IN6_ADDR *Addr, PSTR S)
	NTTRACE_WIN(RtlIpv6AddressToStringA);
PWSTR NTAPI RtlIpv6AddressToStringW(const IN6_ADDR *Addr, PWSTR S)
	NTTRACE_WIN(RtlIpv6AddressToStringW);
NTSTATUS NTAPI RtlIpv4AddressToStringExA(const IN_ADDR *Address, USHORT Port,
					 PSTR AddressString, PULONG AddressStringLength)
	NTTRACE_WIN(RtlIpv4AddressToStringExA);
NTSTATUS NTAPI RtlIpv4AddressToStringExW(const IN_ADDR *Address, USHORT Port,
					 PWSTR AddressString, PULONG AddressStringLength)
	NTTRACE_WIN(RtlIpv4AddressToStringExW);
NTSTATUS NTAPI RtlIpv6AddressToStringExA(const IN6_ADDR *Address, ULONG ScopeId, USHORT Port,
					 PSTR AddressString, PULONG AddressStringLength)
	NTTRACE_WIN(RtlIpv6AddressToStringExA);
NTSTATUS NTAPI RtlIpv6AddressToStringExW(const IN6_ADDR *Address, ULONG ScopeId, USHORT Port,
					 PWSTR AddressString, PULONG AddressStringLength)
	NTTRACE_WIN(RtlIpv6AddressToStringExW);
NTTRACE_WIN_END

#ifdef UNICODE
#define RtlIpv4AddressToString		RtlIpv4AddressToStringW
#define RtlIpv6AddressToString		RtlIpv6AddressToStringW
#define RtlIpv4AddressToStringEx	RtlIpv4AddressToStringExW
#define RtlIpv6AddressToStringEx	RtlIpv6AddressToStringExW
#else
#define RtlIpv4AddressToString		RtlIpv4AddressToStringA
#define RtlIpv6AddressToString		RtlIpv6AddressToStringA
#define RtlIpv4AddressToStringEx	RtlIpv4AddressToStringExA
#define RtlIpv6AddressToStringEx	RtlIpv6AddressToStringExA
#endif

#endif /* NTTRACE_WINDOWS_IP2STRING_H */
