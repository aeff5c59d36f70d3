// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's process, thread and memory functions: the IDs are
 * Linux's (the thread ID is the kernel's, as ETW events carry it), and
 * the local and process heaps are the C library's malloc, so that
 * LocalFree frees what ConvertSidToStringSid allocated.
 */
#include <stdlib.h>
#include <unistd.h>

#include "win.h"

#define LMEM_FIXED		0x0000
#define LMEM_ZEROINIT		0x0040
#define HEAP_ZERO_MEMORY	0x00000008
/* GetProcessHeap's handle: any value but NULL; nothing reads it. */
#define PROCESS_HEAP		((HANDLE)(uintptr_t)0x1000)

DWORD nttrace_win_GetCurrentProcessId(void)
{
	return (DWORD)getpid();
}

DWORD nttrace_win_GetCurrentThreadId(void)
{
	return (DWORD)gettid();
}

static void *alloc(SIZE_T bytes, int zero)
{
	void *mem = zero ? calloc(1, bytes ? bytes : 1) : malloc(bytes ? bytes : 1);

	if (!mem)
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	return mem;
}

/* Fixed memory only: a moveable block's handle is not a pointer. */
void *nttrace_win_LocalAlloc(UINT flags, SIZE_T bytes)
{
	if (flags & ~(UINT)LMEM_ZEROINIT) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return NULL;
	}
	return alloc(bytes, flags & LMEM_ZEROINIT);
}

void *nttrace_win_LocalFree(void *mem)
{
	free(mem);
	return NULL;
}

HANDLE nttrace_win_GetProcessHeap(void)
{
	return PROCESS_HEAP;
}

void *nttrace_win_HeapAlloc(HANDLE heap, DWORD flags, SIZE_T bytes)
{
	return alloc(bytes, flags & HEAP_ZERO_MEMORY);
}

/* HEAP_ZERO_MEMORY is refused: the block's old size, past which to zero, is unknown. */
void *nttrace_win_HeapReAlloc(HANDLE heap, DWORD flags, void *mem, SIZE_T bytes)
{
	void *grown;

	if (flags & HEAP_ZERO_MEMORY) {
		SetLastError(ERROR_NOT_SUPPORTED);
		return NULL;
	}
	grown = realloc(mem, bytes ? bytes : 1);
	if (!grown)
		SetLastError(ERROR_NOT_ENOUGH_MEMORY);
	return grown;
}

BOOL nttrace_win_HeapFree(HANDLE heap, DWORD flags, void *mem)
{
	free(mem);
	return TRUE;
}

/* winbase.h's global heap: the local heap's (fixed memory only). */
void *nttrace_win_GlobalAlloc(UINT flags, SIZE_T bytes)
{
	return nttrace_win_LocalAlloc(flags, bytes);
}

void *nttrace_win_GlobalFree(void *mem)
{
	return nttrace_win_LocalFree(mem);
}

/*
 * HeapSetInformation: HeapEnableTerminationOnCorruption (1), which the
 * C library's malloc does already (it aborts on the corruption it finds),
 * is taken; the other classes are refused.
 */
BOOL nttrace_win_HeapSetInformation(HANDLE heap, int info_class, void *info, SIZE_T size)
{
	if (info_class != 1) {
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}
	return TRUE;
}
