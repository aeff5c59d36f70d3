// SPDX-License-Identifier: GPL-2.0
/*
 * uapi/nttrace.h has one layout for 32- and 64-bit callers: built with -m32
 * and with -m64, this prints each struct's size and member offsets, and
 * scripts/check compares the two outputs. The static asserts pin the v1
 * sizes that the _SIZE_VER0 constants promise.
 */
#include <stddef.h>
#include <stdio.h>

#include <nttrace.h>

_Static_assert(sizeof(struct nttrace_version) == NTTRACE_VERSION_SIZE_VER0, "version size");
_Static_assert(sizeof(struct nttrace_trace_event) == NTTRACE_TRACE_EVENT_SIZE_VER0,
	       "trace_event size");
_Static_assert(_IOC_SIZE(NTTRACE_IOC_TRACE_EVENT) == NTTRACE_TRACE_EVENT_SIZE_VER0,
	       "command encodes v1 size");

#define MEMBER(s, m) printf("%s.%s %zu %zu\n", #s, #m, offsetof(struct s, m), \
			    sizeof(((struct s *)0)->m))

int main(void)
{
	printf("nttrace_version %zu\n", sizeof(struct nttrace_version));
	MEMBER(nttrace_version, size);
	MEMBER(nttrace_version, abi_version);
	MEMBER(nttrace_version, features);
	MEMBER(nttrace_version, types);
	printf("nttrace_trace_event %zu\n", sizeof(struct nttrace_trace_event));
	MEMBER(nttrace_trace_event, size);
	MEMBER(nttrace_trace_event, flags);
	MEMBER(nttrace_trace_event, trace_handle);
	MEMBER(nttrace_trace_event, fields);
	MEMBER(nttrace_trace_event, field_size);
	MEMBER(nttrace_trace_event, status);
	printf("ioctl VERSION 0x%08lx TRACE_EVENT 0x%08lx\n",
	       (unsigned long)NTTRACE_IOC_VERSION, (unsigned long)NTTRACE_IOC_TRACE_EVENT);
	return 0;
}
