/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <comutil.h>: COM and WMI are not part of nttrace's Windows layer (README,
 * "The Windows around ETW"), which gives a program ETW and what ETW
 * programs use around it.
 */
#error "<comutil.h>: COM and WMI are outside nttrace's Windows layer (nttrace-windows.pc)"
