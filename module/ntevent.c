// SPDX-License-Identifier: GPL-2.0
/*
 * NtTraceEvent's front door: decode Flags, reject invalid types, apply
 * the user-mode defences, then hand the call to the type's handler.
 *
 * Choices where Windows' documented interface is silent, following what
 * Windows does as far as it is known:
 * - The order of checks is: type (NTTRACE_STATUS_INVALID_PARAMETER), alignment of
 *   Fields (NTTRACE_STATUS_DATATYPE_MISALIGNMENT), readability of Fields
 *   (NTTRACE_STATUS_ACCESS_VIOLATION), then the handler.
 * - Only the type field of Flags is validated. The modifier fields (frames
 *   to skip, USE_NATIVE_HEADER, WOW64_CALL), the system-event version byte
 *   and the bits no version defines are accepted and change nothing here.
 * - Fields must be 4-byte (ULONG) aligned for every type: Windows asks a
 *   dword-aligned Fields of TRACE_INSTANCE, and a 32-bit Linux caller's
 *   structs align 64-bit members only to 4 bytes, so asking for 8 would
 *   refuse well-formed 32-bit callers.
 * - "Readable" means the type's fixed part (its header as Windows lays it
 *   out) can be copied in: the front door copies it once, and the handler
 *   works from that copy. A type whose handler defines no fixed part
 *   checks a single ULONG.
 */
#include <kunit/visibility.h>
#include <linux/kernel.h>
#include <linux/nospec.h>
#include <linux/uaccess.h>

#include "classic.h"
#include "eventwrite.h"
#include "message.h"
#include "noreg.h"
#include "ntevent.h"
#include "security.h"
#include "system.h"

void nttrace_decode_flags(u32 flags, struct nttrace_flags *out)
{
	out->type = flags & NTTRACE_ETW_NT_TRACE_TYPE_MASK;
	out->version = flags & NTTRACE_ETW_SYSTEM_EVENT_VERSION_MASK;
	out->frames_to_skip = (flags & NTTRACE_ETW_USER_FRAMES_TO_SKIP_MASK) >>
			      NTTRACE_ETW_USER_FRAMES_TO_SKIP_SHIFT;
	out->native_header = !!(flags & NTTRACE_ETW_NT_FLAGS_USE_NATIVE_HEADER);
	out->wow64 = !!(flags & NTTRACE_ETW_NT_FLAGS_WOW64_CALL);
}
EXPORT_SYMBOL_IF_KUNIT(nttrace_decode_flags);

#define ULONG_SIZE	4

/* Indexed by type >> 8; entry 0 (type 0) is not a valid type. */
static const struct nttrace_type nttrace_types[] = {
	[NTTRACE_ETW_NT_FLAGS_TRACE_HEADER >> 8] = {
		.type = NTTRACE_ETW_NT_FLAGS_TRACE_HEADER, .name = "TRACE_HEADER",
		.align = ULONG_SIZE, .fixed_size = 0x30, /* EVENT_TRACE_HEADER */
		.handler = nt_trace_header,
	},
	[NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE >> 8] = {
		.type = NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE, .name = "TRACE_MESSAGE",
		.align = ULONG_SIZE, .fixed_size = NTTRACE_MESSAGE_TRACE_USER_SIZE,
		.handler = nt_trace_message,
	},
	[NTTRACE_ETW_NT_FLAGS_TRACE_EVENT >> 8] = {
		.type = NTTRACE_ETW_NT_FLAGS_TRACE_EVENT, .name = "TRACE_EVENT",
		.align = ULONG_SIZE, .fixed_size = NTTRACE_EVENT_WRITE_USER_SIZE,
		.handler = nt_event_write,
	},
	[NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM >> 8] = {
		.type = NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM, .name = "TRACE_SYSTEM",
		.align = ULONG_SIZE, .fixed_size = NT_SYSTEM_FIXED_SIZE,
		.handler = nt_trace_system,
	},
	[NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY >> 8] = {
		.type = NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY, .name = "TRACE_SECURITY",
		.align = ULONG_SIZE, .fixed_size = NTTRACE_EVENT_WRITE_USER_SIZE,
		.handler = nt_trace_security,
	},
	[NTTRACE_ETW_NT_FLAGS_TRACE_MARK >> 8] = {
		.type = NTTRACE_ETW_NT_FLAGS_TRACE_MARK, .name = "TRACE_MARK",
		.align = ULONG_SIZE, .fixed_size = NT_MARK_FIXED_SIZE,
		.handler = nt_trace_mark,
	},
	[NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG >> 8] = {
		.type = NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG, .name = "TRACE_EVENT_NOREG",
		.align = ULONG_SIZE, .fixed_size = NTTRACE_EVENT_WRITE_USER_SIZE,
		.handler = nt_trace_noreg,
	},
	[NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE >> 8] = {
		.type = NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE, .name = "TRACE_INSTANCE",
		/* EVENT_INSTANCE_GUID_HEADER */
		.align = ULONG_SIZE, .fixed_size = NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE,
		.handler = nt_trace_instance,
	},
	[NTTRACE_ETW_NT_FLAGS_TRACE_RAW >> 8] = {
		.type = NTTRACE_ETW_NT_FLAGS_TRACE_RAW, .name = "TRACE_RAW",
		.align = ULONG_SIZE, .fixed_size = NT_RAW_FIXED_SIZE,
		.handler = nt_trace_raw,
	},
};

/* The entry for @type (a Flags & NTTRACE_ETW_NT_TRACE_TYPE_MASK value), or NULL. */
const struct nttrace_type *nttrace_find_type(u32 type)
{
	u32 idx = type >> 8;

	if (type & ~NTTRACE_ETW_NT_TRACE_TYPE_MASK || idx >= ARRAY_SIZE(nttrace_types))
		return NULL;
	idx = array_index_nospec(idx, ARRAY_SIZE(nttrace_types));
	if (!nttrace_types[idx].type)
		return NULL;
	return &nttrace_types[idx];
}
EXPORT_SYMBOL_IF_KUNIT(nttrace_find_type);

u64 nttrace_types_implemented(void)
{
	u64 bits = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(nttrace_types); i++)
		if (nttrace_types[i].handler)
			bits |= NTTRACE_TYPE_BIT(nttrace_types[i].type);
	return bits;
}
EXPORT_SYMBOL_IF_KUNIT(nttrace_types_implemented);

/*
 * The user-mode defences (a kernel-mode caller is trusted to align Fields;
 * an unreadable one still gives NTTRACE_STATUS_ACCESS_VIOLATION), then the handler.
 */
u32 nttrace_dispatch(const struct nttrace_type *type,
		     const struct nttrace_call *call,
		     const struct nttrace_flags *flags)
{
	/* Copied in before the handler reads it (see nt_trace_message()). */
	u64 fixed[NTTRACE_MAX_FIXED_SIZE / sizeof(u64)] __uninitialized;

	if (WARN_ON_ONCE(type->fixed_size > sizeof(fixed)))
		return NTTRACE_STATUS_INVALID_PARAMETER;
	if (!call->kernel_mode && (call->fields & (type->align - 1)))
		return NTTRACE_STATUS_DATATYPE_MISALIGNMENT;
	if (nt_copy_in(call, fixed, call->fields, type->fixed_size))
		return NTTRACE_STATUS_ACCESS_VIOLATION;
	if (!type->handler)
		return NTTRACE_STATUS_NOT_IMPLEMENTED;
	return type->handler(type, call, flags, fixed);
}
EXPORT_SYMBOL_IF_KUNIT(nttrace_dispatch);

u32 nttrace_trace_event(const struct nttrace_call *call)
{
	const struct nttrace_type *type;
	struct nttrace_flags flags;

	nttrace_decode_flags(call->flags, &flags);
	type = nttrace_find_type(flags.type);
	if (!type)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	return nttrace_dispatch(type, call, &flags);
}
EXPORT_SYMBOL_IF_KUNIT(nttrace_trace_event);
