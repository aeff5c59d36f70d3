// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel-mode API (include/nttrace/wdm.h): ZwTraceEvent, WmiTraceMessage
 * and WmiTraceMessageVa for other modules. Each builds a kernel-mode
 * NtTraceEvent call and goes through the same front door as user space,
 * so that every type has one implementation; what differs for kernel-mode
 * callers (kernel addresses read without faulting, no alignment probe,
 * GFP_ATOMIC, paged-memory sessions refused) is decided by
 * call->kernel_mode where it matters. EtwRegister and friends are a
 * kernel-side registration in module/provider.c's table (the same GUIDs,
 * enables and sessions as a process's EventRegister) and EtwWrite the
 * kernel-mode entry of module/eventwrite.c.
 */
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <nttrace/wdm.h>

#include "eventwrite.h"
#include "ntevent.h"
#include "provider.h"

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

/*
 * ---- EtwRegister, EtwWrite: manifest-based providers for drivers ----
 *
 * A REGHANDLE is the address of a struct nt_etw_reg. As on Windows, the
 * driver keeps it valid: no write or enabled-check may run concurrently
 * with, or after, its EtwUnregister.
 */
#define NT_ETW_MAGIC	0x52777445U	/* "EtwR" */

struct nt_etw_reg {
	u32 magic;
	struct nt_reg *reg;		/* NULL until EtwRegister has it */
	etw_enable_callback_t callback;
	void *context;
};

static struct nt_etw_reg *nt_etw_get(u64 reg_handle)
{
	struct nt_etw_reg *e = (struct nt_etw_reg *)(uintptr_t)reg_handle;

	if (!e || READ_ONCE(e->magic) != NT_ETW_MAGIC)
		return NULL;
	return e;
}

/* A session's enable changed: the driver's callback, in process context. */
static void nt_etw_notify(void *ctx, u32 control, u8 level, u64 any, u64 all,
			  u32 logger_id)
{
	struct nt_etw_reg *e = ctx;

	/* nttrace has no session GUIDs: SourceId is NULL, as is FilterData. */
	if (e->callback)
		e->callback(NULL, control, level, any, all, NULL, e->context);
}

u32 EtwRegister(const guid_t *provider_id, etw_enable_callback_t enable_callback,
		void *callback_context, u64 *reg_handle)
{
	struct nt_etw_reg *e;
	struct nt_reg *reg;

	if (!provider_id || !reg_handle)
		return STATUS_INVALID_PARAMETER;
	*reg_handle = 0;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return STATUS_NO_MEMORY;
	e->magic = NT_ETW_MAGIC;
	e->callback = enable_callback;
	e->context = callback_context;
	/*
	 * The callbacks for enables made before run inside this call, before
	 * e->reg is set: an EtwWrite from them writes nothing (STATUS_SUCCESS).
	 */
	reg = nt_provider_register_kernel(provider_id->b, nt_etw_notify, e);
	if (IS_ERR(reg)) {
		kfree(e);
		return STATUS_NO_MEMORY;
	}
	WRITE_ONCE(e->reg, reg);
	*reg_handle = (uintptr_t)e;
	return STATUS_SUCCESS;
}
EXPORT_SYMBOL_GPL(EtwRegister);

u32 EtwUnregister(u64 reg_handle)
{
	struct nt_etw_reg *e = nt_etw_get(reg_handle);

	if (!e)
		return STATUS_INVALID_HANDLE;
	WRITE_ONCE(e->magic, 0);
	nt_provider_unregister_kernel(e->reg);
	kfree(e);
	return STATUS_SUCCESS;
}
EXPORT_SYMBOL_GPL(EtwUnregister);

bool EtwProviderEnabled(u64 reg_handle, u8 level, u64 keyword)
{
	struct nt_etw_reg *e = nt_etw_get(reg_handle);
	struct nt_reg *reg = e ? READ_ONCE(e->reg) : NULL;

	return reg && nt_provider_kernel_enabled(reg, level, keyword);
}
EXPORT_SYMBOL_GPL(EtwProviderEnabled);

bool EtwEventEnabled(u64 reg_handle, const struct event_descriptor *descriptor)
{
	return descriptor && EtwProviderEnabled(reg_handle, descriptor->level,
						descriptor->keyword);
}
EXPORT_SYMBOL_GPL(EtwEventEnabled);

u32 EtwWriteTransfer(u64 reg_handle, const struct event_descriptor *descriptor,
		     const guid_t *activity_id, const guid_t *related_activity_id,
		     u32 user_data_count, const struct event_data_descriptor *user_data)
{
	struct nt_etw_reg *e = nt_etw_get(reg_handle);
	struct event_write_user fields = {};
	struct nt_reg *reg;

	if (!e)
		return STATUS_INVALID_HANDLE;
	if (!descriptor || (user_data_count && !user_data))
		return STATUS_INVALID_PARAMETER;
	reg = READ_ONCE(e->reg);
	if (!reg)
		return STATUS_SUCCESS;
	fields.descriptor = *descriptor;
	if (activity_id)
		memcpy(fields.activity_id, activity_id, sizeof(fields.activity_id));
	if (related_activity_id) {
		memcpy(fields.related_activity_id, related_activity_id,
		       sizeof(fields.related_activity_id));
		fields.flags |= EVENT_WRITE_FLAG_RELATED_ACTIVITY;
	}
	fields.data_count = user_data_count;
	fields.data = (uintptr_t)user_data;
	return nt_event_write_kernel(reg, &fields);
}
EXPORT_SYMBOL_GPL(EtwWriteTransfer);

u32 EtwWrite(u64 reg_handle, const struct event_descriptor *descriptor,
	     const guid_t *activity_id, u32 user_data_count,
	     const struct event_data_descriptor *user_data)
{
	return EtwWriteTransfer(reg_handle, descriptor, activity_id, NULL,
				user_data_count, user_data);
}
EXPORT_SYMBOL_GPL(EtwWrite);
