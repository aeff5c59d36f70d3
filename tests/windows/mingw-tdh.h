// SPDX-License-Identifier: MIT
/*
 * TdhFormatProperty as the Windows SDK's tdh.h declares it: mingw-w64 10's
 * tdh.h lacks it, so scripts/check gives it to mingw-w64 (-include) when
 * it compiles consumer.c for Windows. nttrace's <tdh.h> has it.
 */
#include <windows.h>
#include <tdh.h>

#ifdef __cplusplus
extern "C" {
#endif
ULONG WINAPI TdhFormatProperty(PTRACE_EVENT_INFO EventInfo, PEVENT_MAP_INFO MapInfo,
			       ULONG PointerSize, USHORT PropertyInType,
			       USHORT PropertyOutType, USHORT PropertyLength,
			       USHORT UserDataLength, PBYTE UserData, PULONG BufferSize,
			       PWCHAR Buffer, PUSHORT UserDataConsumed);
#ifdef __cplusplus
}
#endif
