/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <mstcpip.h> for Windows sources (nttrace-windows.pc): of what Windows'
 * declares, the address to text functions, which <ip2string.h> has (the
 * SDK declares them in both). Its socket options and ioctls are not here.
 */
#ifndef NTTRACE_WINDOWS_MSTCPIP_H
#define NTTRACE_WINDOWS_MSTCPIP_H

#include "ip2string.h"

#endif /* NTTRACE_WINDOWS_MSTCPIP_H */
