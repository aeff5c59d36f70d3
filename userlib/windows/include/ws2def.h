/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <ws2def.h> for Windows sources (nttrace-windows.pc): the address
 * families with Windows' values (AF_INET6 is 23 there, 10 on Linux: an
 * ETW event's family is Windows'), the protocol numbers, and the socket
 * address structures with Windows' layouts, for the programs that print
 * the addresses TcpIp and UdpIp events carry. No socket calls: the layer
 * has no Winsock.
 */
#ifndef NTTRACE_WINDOWS_WS2DEF_H
#define NTTRACE_WINDOWS_WS2DEF_H

#include <nttrace/winnt.h>
#include "inaddr.h"

typedef USHORT ADDRESS_FAMILY;

#define AF_UNSPEC	0
#define AF_UNIX		1
#define AF_INET		2
#define AF_INET6	23
#define PF_UNSPEC	AF_UNSPEC
#define PF_INET		AF_INET
#define PF_INET6	AF_INET6

#define IPPROTO_IP	0
#define IPPROTO_ICMP	1
#define IPPROTO_TCP	6
#define IPPROTO_UDP	17
#define IPPROTO_IPV6	41
#define IPPROTO_ICMPV6	58

/* Host order, as Windows gives them: htonl() for an S_addr. */
#define INADDR_ANY		0x00000000UL
#define INADDR_LOOPBACK		0x7f000001UL
#define INADDR_BROADCAST	0xffffffffUL
#define INADDR_NONE		0xffffffffUL

typedef struct sockaddr {
	ADDRESS_FAMILY sa_family;
	CHAR sa_data[14];
} SOCKADDR, *PSOCKADDR, *LPSOCKADDR;

typedef struct sockaddr_in {
	ADDRESS_FAMILY sin_family;
	USHORT sin_port;		/* network order */
	IN_ADDR sin_addr;
	CHAR sin_zero[8];
} SOCKADDR_IN, *PSOCKADDR_IN, *LPSOCKADDR_IN;

/* Room for any family's address: 128 bytes, 8-byte aligned. */
typedef struct sockaddr_storage {
	ADDRESS_FAMILY ss_family;
	CHAR __ss_pad1[6];
	INT64 __ss_align __attribute__((__aligned__(8)));
	CHAR __ss_pad2[112];
} SOCKADDR_STORAGE, *PSOCKADDR_STORAGE, *LPSOCKADDR_STORAGE;

/* An IPv6 scope: a zone (interface or site index) and its level. */
typedef struct _SCOPE_ID {
	union {
		struct {
			ULONG Zone : 28;
			ULONG Level : 4;
		};
		ULONG Value;
	};
} SCOPE_ID, *PSCOPE_ID;

#endif /* NTTRACE_WINDOWS_WS2DEF_H */
