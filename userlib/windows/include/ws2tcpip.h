/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <ws2tcpip.h> for Windows sources (nttrace-windows.pc): <winsock2.h>,
 * the IPv6 types (<ws2ipdef.h>), and the address functions, with
 * Windows' family values (AF_INET 2, AF_INET6 23), over the C library's
 * inet_ntop and inet_pton (userlib/windows/inet.c). IPv6 text is the C
 * library's (RFC 5952's: lower case, the longest run of zero words as
 * "::", an IPv4-mapped address as ::ffff:a.b.c.d), which is Windows' for
 * the addresses events carry; Windows may write an ISATAP address's last
 * 32 bits dotted, where they stay hex here.
 *
 *   inet_ntop, InetNtopA, InetNtopW  @pAddr (an IN_ADDR or IN6_ADDR) as
 *       text into @pStringBuf of @StringBufSize characters; returns it,
 *       or NULL with the last error (WSAGetLastError) WSAEAFNOSUPPORT
 *       (another family) or ERROR_INVALID_PARAMETER (a NULL pointer, or
 *       a buffer too small)
 *   inet_pton, InetPtonA, InetPtonW  the text's address into @pAddr:
 *       1; 0 for text that is no address of @Family; -1 with the last
 *       error WSAEAFNOSUPPORT or WSAEFAULT (a NULL pointer)
 */
#ifndef NTTRACE_WINDOWS_WS2TCPIP_H
#define NTTRACE_WINDOWS_WS2TCPIP_H

#include "winsock2.h"
#include "ws2ipdef.h"

NTTRACE_WIN_BEGIN
PCSTR inet_ntop(INT Family, const void *pAddr, PSTR pStringBuf, size_t StringBufSize)
	NTTRACE_WIN(inet_ntop);
INT inet_pton(INT Family, PCSTR pszAddrString, PVOID pAddrBuf) NTTRACE_WIN(inet_pton);
PCSTR InetNtopA(INT Family, const void *pAddr, PSTR pStringBuf, size_t StringBufSize)
	NTTRACE_WIN(inet_ntop);
PCWSTR InetNtopW(INT Family, const void *pAddr, PWSTR pStringBuf, size_t StringBufSize)
	NTTRACE_WIN(InetNtopW);
INT InetPtonA(INT Family, PCSTR pszAddrString, PVOID pAddrBuf) NTTRACE_WIN(inet_pton);
INT InetPtonW(INT Family, PCWSTR pszAddrString, PVOID pAddrBuf) NTTRACE_WIN(InetPtonW);
NTTRACE_WIN_END

#ifdef UNICODE
#define InetNtop	InetNtopW
#define InetPton	InetPtonW
#else
#define InetNtop	InetNtopA
#define InetPton	InetPtonA
#endif

#endif /* NTTRACE_WINDOWS_WS2TCPIP_H */
