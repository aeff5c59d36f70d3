/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <inaddr.h> for Windows sources (nttrace-windows.pc): an IPv4 address as
 * Windows lays it out, 4 bytes in network order, readable as bytes, two
 * 16-bit words or one 32-bit S_addr (ULONG: Windows' u_long is 32 bits,
 * the C library's is not; see <windows.h> on long). Its struct tag is
 * Windows' in_addr, Linux's <netinet/in.h>'s too: a Windows program
 * includes one of the two.
 */
#ifndef NTTRACE_WINDOWS_INADDR_H
#define NTTRACE_WINDOWS_INADDR_H

#include <nttrace/winnt.h>

typedef struct in_addr {
	union {
		struct {
			UCHAR s_b1, s_b2, s_b3, s_b4;
		} S_un_b;
		struct {
			USHORT s_w1, s_w2;
		} S_un_w;
		ULONG S_addr;
	} S_un;
} IN_ADDR, *PIN_ADDR, *LPIN_ADDR;

#define s_addr		S_un.S_addr
#define s_host		S_un.S_un_b.s_b2
#define s_net		S_un.S_un_b.s_b1
#define s_imp		S_un.S_un_w.s_w2
#define s_impno		S_un.S_un_b.s_b4
#define s_lh		S_un.S_un_b.s_b3

#endif /* NTTRACE_WINDOWS_INADDR_H */
