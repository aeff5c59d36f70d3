// SPDX-License-Identifier: GPL-2.0
/*
 * NTTRACE_ETW_NT_FLAGS_TRACE_HEADER: TraceEvent's EVENT_TRACE_HEADER
 * (0x30 bytes, captured by the front door) and its data become one
 * full-header record, FULL_HEADER64 (0x14) or FULL_HEADER32 (0x0A) by the
 * caller's pointer size. TraceHandle is required (Windows 6.1 and later):
 * its low 16 bits are the logger ID. FieldSize is ignored in favour of the
 * header's Size. Where Windows documents nothing for this type (the
 * MOF_FIELD array's limit, the 32-bit overflow, the codes for no room) the
 * TRACE_INSTANCE rules apply; a secure session takes
 * these events as it takes messages (from its owner and privileged
 * callers). The rules and the order of checks are in module/classic.c.
 */
#include <kunit/visibility.h>

#include "classic.h"

static const struct nt_classic_kind nt_header_kind = {
	.header_size = NTTRACE_EVENT_TRACE_HEADER_SIZE,
	.secure_refused = false,
};

u32 nt_trace_header(const struct nttrace_type *type,
		    const struct nttrace_call *call,
		    const struct nttrace_flags *flags, const void *fixed)
{
	return nt_classic_event(&nt_header_kind, call, flags, fixed);
}
EXPORT_SYMBOL_IF_KUNIT(nt_trace_header);
