/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <in6addr.h> for Windows sources (nttrace-windows.pc): an IPv6 address as
 * Windows lays it out (16 bytes, or 8 16-bit words in network order), as
 * ETW events carry them. Its struct tag is Windows' in6_addr, Linux's
 * <netinet/in.h>'s too: a Windows program includes one of the two.
 */
#ifndef NTTRACE_WINDOWS_IN6ADDR_H
#define NTTRACE_WINDOWS_IN6ADDR_H

#include <nttrace/winnt.h>

typedef struct in6_addr {
	union {
		UCHAR Byte[16];
		USHORT Word[8];
	} u;
} IN6_ADDR, *PIN6_ADDR, *LPIN6_ADDR;

#endif /* NTTRACE_WINDOWS_IN6ADDR_H */
