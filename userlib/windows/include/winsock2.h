/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <winsock2.h> for Windows sources (nttrace-windows.pc): what a consumer
 * needs to print the addresses and ports that TcpIp and UdpIp events
 * carry, in network order: the address types (<ws2def.h>, <inaddr.h>),
 * the byte-order functions (the C library's, which have Windows'
 * 16- and 32-bit types) and inet_addr/inet_ntoa (the C library's too:
 * an in_addr has Windows' layout on both, and inet_ntoa's text is in a
 * buffer of the calling thread's, as Windows'). WSAGetLastError is the
 * thread's last error, as on Windows. No sockets: the layer has no
 * Winsock, so socket(), WSAStartup and the like are undeclared.
 *
 * u_char, u_short, u_int and u_long are the C library's (<sys/types.h>):
 * u_long is unsigned long, 64 bits in a 64-bit program where Windows'
 * has 32 (<windows.h> says why long is the compiler's); the structs and
 * functions here take ULONG where Windows has u_long.
 */
#ifndef NTTRACE_WINDOWS_WINSOCK2_H
#define NTTRACE_WINDOWS_WINSOCK2_H

#include <sys/types.h>

#include "windows.h"
#include "ws2def.h"
#include "inaddr.h"

/* Defined by <sys/types.h> when _DEFAULT_SOURCE is (gcc's default). */
#ifndef __u_char_defined
typedef unsigned char u_char;
typedef unsigned short u_short;
typedef unsigned int u_int;
typedef unsigned long u_long;
#endif

#define WSAAPI

/* Winsock's errors: GetLastError()'s, as WSAGetLastError()'s. */
#define WSAEFAULT		10014L
#define WSAEINVAL		10022L
#define WSAEAFNOSUPPORT		10047L

NTTRACE_WIN_BEGIN
/* The C library's: the same types (uint32_t, uint16_t) and byte order. */
extern ULONG htonl(ULONG hostlong) __THROW __attribute__((__const__));
extern USHORT htons(USHORT hostshort) __THROW __attribute__((__const__));
extern ULONG ntohl(ULONG netlong) __THROW __attribute__((__const__));
extern USHORT ntohs(USHORT netshort) __THROW __attribute__((__const__));

/*
 * inet_addr: "a.b.c.d" (or the shorter and octal or hex forms Windows'
 * takes too) as an S_addr in network order; INADDR_NONE if it is none.
 * inet_ntoa: @in as "a.b.c.d", in a buffer of the calling thread's that
 * the next call overwrites.
 */
extern ULONG inet_addr(const char *cp) __THROW;
extern char *inet_ntoa(IN_ADDR in) __THROW;

static __inline__ int WSAGetLastError(void)
{
	return (int)GetLastError();
}

static __inline__ void WSASetLastError(int error)
{
	SetLastError((DWORD)error);
}
NTTRACE_WIN_END

#endif /* NTTRACE_WINDOWS_WINSOCK2_H */
