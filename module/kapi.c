// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-mode API (include/nttrace/wdm.h): ZwTraceEvent, WmiTraceMessage
 * and WmiTraceMessageVa for other modules. Each builds a kernel-mode
 * NtTraceEvent call and goes through the same front door as user space,
 * so that every type has one implementation; what differs for kernel-mode
 * callers (kernel addresses read without faulting, no alignment probe,
 * GFP_ATOMIC, paged-memory sessions refused) is decided by
 * call->kernel_mode where it matters.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <nttrace/wdm.h>

#include "ntevent.h"

/* Argument pairs kept on the stack; more take memory (GFP_ATOMIC). */
#define NT_KAPI_STACK_PAIRS	8

u32 ZwTraceEvent(u64 trace_handle, u32 flags, u32 field_size, const void *fields)
{
	struct nttrace_call call = {
		.trace_handle = trace_handle,
		.flags = flags,
		.field_size = field_size,
		.fields = (uintptr_t)fields,
		.kernel_mode = true,
	};

	return nttrace_trace_event(&call);
}
EXPORT_SYMBOL_GPL(ZwTraceEvent);

/*
 * Count the (data, size) pairs before the NULL that ends them; more than
 * NTTRACE_MESSAGE_MAX_ARGS gives -E2BIG (the list is not read further).
 */
static int nt_count_pairs(va_list args)
{
	unsigned int n = 0;
	va_list ap;

	va_copy(ap, args);
	while (va_arg(ap, const void *)) {
		(void)va_arg(ap, size_t);
		if (++n > NTTRACE_MESSAGE_MAX_ARGS)
			break;
	}
	va_end(ap);
	return n > NTTRACE_MESSAGE_MAX_ARGS ? -E2BIG : n;
}

u32 WmiTraceMessageVa(u64 logger_handle, u32 message_flags,
		      const guid_t *message_guid, u16 message_number,
		      va_list message_args)
{
	u64 stack_list[2 * NT_KAPI_STACK_PAIRS + 1], *list = stack_list;
	struct message_trace_user m = {
		.message_number = message_number,
		.message_flags = message_flags,
	};
	int n = nt_count_pairs(message_args), i;
	u32 status;

	if (n < 0)
		return STATUS_INVALID_PARAMETER;
	if (message_flags & (TRACE_MESSAGE_GUID | TRACE_MESSAGE_COMPONENTID)) {
		if (!message_guid)
			return STATUS_INVALID_PARAMETER;
		/* A component ID is a ULONG: read no more than that. */
		memcpy(m.message_guid, message_guid,
		       message_flags & TRACE_MESSAGE_COMPONENTID ? 4 : 16);
	}
	if (n > NT_KAPI_STACK_PAIRS) {
		list = kmalloc_array(2 * n + 1, sizeof(*list),
				     GFP_ATOMIC | __GFP_NOWARN);
		if (!list)
			return STATUS_NO_MEMORY;
	}
	/* The list as a 64-bit caller's: pointer-sized words, NULL-ended. */
	for (i = 0; i < n; i++) {
		list[2 * i] = (uintptr_t)va_arg(message_args, const void *);
		list[2 * i + 1] = va_arg(message_args, size_t);
	}
	list[2 * n] = 0;
	m.data = (uintptr_t)list;
	m.data_size = (2 * n + 1) * sizeof(*list);

	status = ZwTraceEvent(logger_handle, ETW_NT_FLAGS_TRACE_MESSAGE,
			      MESSAGE_TRACE_USER_SIZE, &m);
	if (list != stack_list)
		kfree(list);
	return status;
}
EXPORT_SYMBOL_GPL(WmiTraceMessageVa);

u32 WmiTraceMessage(u64 logger_handle, u32 message_flags,
		    const guid_t *message_guid, u16 message_number, ...)
{
	va_list args;
	u32 status;

	va_start(args, message_number);
	status = WmiTraceMessageVa(logger_handle, message_flags, message_guid,
				   message_number, args);
	va_end(args);
	return status;
}
EXPORT_SYMBOL_GPL(WmiTraceMessage);
