// SPDX-License-Identifier: GPL-2.0
/*
 * NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE: TraceEventInstance's
 * EVENT_INSTANCE_GUID_HEADER (0x48 bytes, dword-aligned, captured by the
 * front door) and its data become one instance record, INSTANCE64 (0x15)
 * or INSTANCE32 (0x0B) by the caller's pointer size, whose header keeps
 * InstanceId, ParentInstanceId and ParentGuid as they came. TraceHandle's
 * low 16 bits are the logger ID (0xFFFF, the NT Kernel Logger, is not
 * valid); the header's Size wins over FieldSize. A secure session refuses
 * these events from everyone, its owner and kernel-mode callers included;
 * a kernel-mode caller into a paged-memory session gets
 * NTTRACE_STATUS_NOT_SUPPORTED. The rules and the order of checks are in
 * module/classic.c.
 */
#include <kunit/visibility.h>

#include "classic.h"

static const struct nt_classic_kind nt_instance_kind = {
	.header_size = NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE,
	.secure_refused = true,
};

u32 nt_trace_instance(const struct nttrace_type *type,
		      const struct nttrace_call *call,
		      const struct nttrace_flags *flags, const void *fixed)
{
	return nt_classic_event(&nt_instance_kind, call, flags, fixed);
}
EXPORT_SYMBOL_IF_KUNIT(nt_trace_instance);
