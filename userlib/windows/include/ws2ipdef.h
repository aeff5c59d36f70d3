/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <ws2ipdef.h> for Windows sources (nttrace-windows.pc): the IPv6 socket
 * address with Windows' layout (28 bytes) and the text lengths of
 * Windows' address functions (with the NUL, and room for a scope and a
 * port: larger than Linux's INET_ADDRSTRLEN and INET6_ADDRSTRLEN).
 */
#ifndef NTTRACE_WINDOWS_WS2IPDEF_H
#define NTTRACE_WINDOWS_WS2IPDEF_H

#include "ws2def.h"
#include "in6addr.h"

#define INET_ADDRSTRLEN		22
#define INET6_ADDRSTRLEN	65

typedef struct sockaddr_in6 {
	ADDRESS_FAMILY sin6_family;
	USHORT sin6_port;		/* network order */
	ULONG sin6_flowinfo;
	IN6_ADDR sin6_addr;
	union {
		ULONG sin6_scope_id;
		SCOPE_ID sin6_scope_struct;
	};
} SOCKADDR_IN6, *PSOCKADDR_IN6, *LPSOCKADDR_IN6;

#endif /* NTTRACE_WINDOWS_WS2IPDEF_H */
