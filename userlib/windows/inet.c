// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's addresses as text (ws2tcpip.h's inet_ntop,
 * inet_pton, InetNtop(A/W), InetPton(A/W); ip2string.h's
 * RtlIpv4/RtlIpv6AddressToString(Ex)(A/W)), over the C library's
 * inet_ntop and inet_pton: Windows' family values become Linux's (AF_INET6
 * is 23 there, 10 here), and the text is the C library's. The errors are
 * those Microsoft documents: the thread's last error WSAEAFNOSUPPORT for
 * another family, ERROR_INVALID_PARAMETER for a NULL pointer or a buffer
 * too small (InetNtop), WSAEFAULT for a NULL pointer (InetPton);
 * STATUS_INVALID_PARAMETER from the Ex functions, with the length needed.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "win.h"

#define WSAEFAULT		10014
#define WSAEAFNOSUPPORT		10047

/* The longest text: an IPv6 address with a scope and a port, and its NUL. */
#define TEXT_MAX		65

/* Linux's family for Windows' @family; -1 for one neither has here. */
static int linux_family(INT family)
{
	if (family == NTTRACE_WIN_AF_INET)
		return AF_INET;
	if (family == NTTRACE_WIN_AF_INET6)
		return AF_INET6;
	return -1;
}

const char *nttrace_win_inet_ntop(INT family, const void *addr, char *buf, size_t size)
{
	int af = linux_family(family);

	if (af < 0) {
		SetLastError(WSAEAFNOSUPPORT);
		return NULL;
	}
	if (!addr || !buf) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	/* The C library takes a socklen_t, and says ENOSPC: too small. */
	if (!inet_ntop(af, addr, buf, (socklen_t)(size > TEXT_MAX ? TEXT_MAX : size))) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	return buf;
}

const WCHAR *nttrace_win_InetNtopW(INT family, const void *addr, WCHAR *buf, size_t size)
{
	char text[TEXT_MAX];
	size_t i, n;

	if (!buf) {
		SetLastError(linux_family(family) < 0 ? WSAEAFNOSUPPORT : ERROR_INVALID_PARAMETER);
		return NULL;
	}
	if (!nttrace_win_inet_ntop(family, addr, text, sizeof(text)))
		return NULL;
	n = strlen(text);
	if (size <= n) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	for (i = 0; i <= n; i++)
		buf[i] = (unsigned char)text[i];
	return buf;
}

INT nttrace_win_inet_pton(INT family, const char *text, void *addr)
{
	int af = linux_family(family);

	if (af < 0) {
		SetLastError(WSAEAFNOSUPPORT);
		return -1;
	}
	if (!text || !addr) {
		SetLastError(WSAEFAULT);
		return -1;
	}
	return inet_pton(af, text, addr) == 1;
}

INT nttrace_win_InetPtonW(INT family, const WCHAR *text, void *addr)
{
	char narrow[TEXT_MAX];
	size_t i;

	if (linux_family(family) < 0) {
		SetLastError(WSAEAFNOSUPPORT);
		return -1;
	}
	if (!text || !addr) {
		SetLastError(WSAEFAULT);
		return -1;
	}
	/* An address is ASCII: any other unit, or too long, is none. */
	for (i = 0; text[i]; i++) {
		if (text[i] > 0x7F || i + 1 >= sizeof(narrow))
			return 0;
		narrow[i] = (char)text[i];
	}
	narrow[i] = 0;
	return nttrace_win_inet_pton(family, narrow, addr);
}

/* @text's units into @s with its NUL; the address of the NUL. */
static WCHAR *widen(WCHAR *s, const char *text)
{
	while ((*s = (unsigned char)*text)) {
		s++;
		text++;
	}
	return s;
}

char *nttrace_win_RtlIpv4AddressToStringA(const void *addr, char *s)
{
	/* Windows asks for 16 characters: the longest text, with its NUL. */
	inet_ntop(AF_INET, addr, s, INET_ADDRSTRLEN);
	return s + strlen(s);
}

WCHAR *nttrace_win_RtlIpv4AddressToStringW(const void *addr, WCHAR *s)
{
	char text[INET_ADDRSTRLEN];

	nttrace_win_RtlIpv4AddressToStringA(addr, text);
	return widen(s, text);
}

char *nttrace_win_RtlIpv6AddressToStringA(const void *addr, char *s)
{
	/* 46 characters, as Windows asks. */
	inet_ntop(AF_INET6, addr, s, INET6_ADDRSTRLEN);
	return s + strlen(s);
}

WCHAR *nttrace_win_RtlIpv6AddressToStringW(const void *addr, WCHAR *s)
{
	char text[INET6_ADDRSTRLEN];

	nttrace_win_RtlIpv6AddressToStringA(addr, text);
	return widen(s, text);
}

/*
 * The Ex functions' text into @text (TEXT_MAX bytes): "a.b.c.d" or, with
 * a port, "a.b.c.d:port"; IPv6 "addr", "addr%scope", "[addr]:port" or
 * "[addr%scope]:port". Its length.
 */
static size_t ex_text(char *text, const void *addr, int v6, ULONG scope, USHORT port)
{
	char a[INET6_ADDRSTRLEN], sc[16] = "", pt[8] = "";

	inet_ntop(v6 ? AF_INET6 : AF_INET, addr, a, sizeof(a));
	if (v6 && scope)
		snprintf(sc, sizeof(sc), "%%%u", (unsigned int)scope);
	if (port)
		snprintf(pt, sizeof(pt), ":%u", (unsigned int)ntohs(port));
	return (size_t)snprintf(text, TEXT_MAX, "%s%s%s%s%s", v6 && port ? "[" : "", a, sc,
				v6 && port ? "]" : "", pt);
}

/* The Ex functions' checks and length: STATUS_SUCCESS when @text fits *@len. */
static NTSTATUS ex_fits(const void *addr, const void *s, ULONG *len, size_t n)
{
	if (!addr || !len)
		return STATUS_INVALID_PARAMETER;
	if (!s || *len < n + 1) {
		*len = (ULONG)(n + 1);
		return STATUS_INVALID_PARAMETER;
	}
	*len = (ULONG)(n + 1);
	return STATUS_SUCCESS;
}

static NTSTATUS ex_a(const void *addr, int v6, ULONG scope, USHORT port, char *s, ULONG *len)
{
	char text[TEXT_MAX];
	size_t n = addr ? ex_text(text, addr, v6, scope, port) : 0;
	NTSTATUS status = ex_fits(addr, s, len, n);

	if (!status)
		memcpy(s, text, n + 1);
	return status;
}

static NTSTATUS ex_w(const void *addr, int v6, ULONG scope, USHORT port, WCHAR *s, ULONG *len)
{
	char text[TEXT_MAX];
	size_t n = addr ? ex_text(text, addr, v6, scope, port) : 0;
	NTSTATUS status = ex_fits(addr, s, len, n);

	if (!status)
		widen(s, text);
	return status;
}

NTSTATUS nttrace_win_RtlIpv4AddressToStringExA(const void *addr, USHORT port, char *s,
					       ULONG *len)
{
	return ex_a(addr, 0, 0, port, s, len);
}

NTSTATUS nttrace_win_RtlIpv4AddressToStringExW(const void *addr, USHORT port, WCHAR *s,
					       ULONG *len)
{
	return ex_w(addr, 0, 0, port, s, len);
}

NTSTATUS nttrace_win_RtlIpv6AddressToStringExA(const void *addr, ULONG scope, USHORT port,
					       char *s, ULONG *len)
{
	return ex_a(addr, 1, scope, port, s, len);
}

NTSTATUS nttrace_win_RtlIpv6AddressToStringExW(const void *addr, ULONG scope, USHORT port,
					       WCHAR *s, ULONG *len)
{
	return ex_w(addr, 1, scope, port, s, len);
}
