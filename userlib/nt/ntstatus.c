// SPDX-License-Identifier: LGPL-2.1
/* Names of the NTSTATUS values (uapi/nttrace.h's and <nttrace/nt.h>'s) and event types. */
#include <stddef.h>

#include <nttrace/nt.h>

#define NAME(x) { x, #x }

static const struct {
	uint32_t value;
	const char *name;
} status_names[] = {
	NAME(STATUS_SUCCESS),
	NAME(STATUS_DATATYPE_MISALIGNMENT),
	NAME(STATUS_BUFFER_OVERFLOW),
	NAME(STATUS_NOT_IMPLEMENTED),
	NAME(STATUS_ACCESS_VIOLATION),
	NAME(STATUS_INVALID_HANDLE),
	NAME(STATUS_INVALID_PARAMETER),
	NAME(STATUS_NO_MEMORY),
	NAME(STATUS_ACCESS_DENIED),
	NAME(STATUS_BUFFER_TOO_SMALL),
	NAME(STATUS_ARRAY_BOUNDS_EXCEEDED),
	NAME(STATUS_INTEGER_OVERFLOW),
	NAME(STATUS_NOT_SUPPORTED),
	NAME(STATUS_INVALID_BUFFER_SIZE),
	NAME(STATUS_WMI_ALREADY_DISABLED),
	NAME(STATUS_UNSUCCESSFUL),
	NAME(STATUS_INVALID_INFO_CLASS),
	NAME(STATUS_INFO_LENGTH_MISMATCH),
};

static const char *const type_names[] = {
	[NTTRACE_ETW_NT_FLAGS_TRACE_HEADER >> 8] = "TRACE_HEADER",
	[NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE >> 8] = "TRACE_MESSAGE",
	[NTTRACE_ETW_NT_FLAGS_TRACE_EVENT >> 8] = "TRACE_EVENT",
	[NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM >> 8] = "TRACE_SYSTEM",
	[NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY >> 8] = "TRACE_SECURITY",
	[NTTRACE_ETW_NT_FLAGS_TRACE_MARK >> 8] = "TRACE_MARK",
	[NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG >> 8] = "TRACE_EVENT_NOREG",
	[NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE >> 8] = "TRACE_INSTANCE",
	[NTTRACE_ETW_NT_FLAGS_TRACE_RAW >> 8] = "TRACE_RAW",
};

const char *nttrace_status_name(NTSTATUS status)
{
	size_t i;

	for (i = 0; i < sizeof(status_names) / sizeof(status_names[0]); i++)
		if (status_names[i].value == (uint32_t)status)
			return status_names[i].name;
	return NULL;
}

int nttrace_status_at(unsigned int i, NTSTATUS *status, const char **name)
{
	if (i >= sizeof(status_names) / sizeof(status_names[0]))
		return 0;
	*status = (NTSTATUS)status_names[i].value;
	*name = status_names[i].name;
	return 1;
}

const char *nttrace_type_name(ULONG type)
{
	ULONG idx = type >> 8;

	if (type & ~NTTRACE_ETW_NT_TRACE_TYPE_MASK ||
	    idx >= sizeof(type_names) / sizeof(type_names[0]))
		return NULL;
	return type_names[idx];
}
