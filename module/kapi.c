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
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <nttrace/wdm.h>

#include "eventwrite.h"
#include "record.h"
#include "ntevent.h"
#include "provider.h"

/* Argument pairs kept on the stack; more take memory (GFP_ATOMIC). */
#define NT_KAPI_STACK_PAIRS	8

u32 nttrace_zw_trace_event(u64 trace_handle, u32 flags, u32 field_size, const void *fields)
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
EXPORT_SYMBOL_NS_GPL(nttrace_zw_trace_event, NTTRACE_NS);

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

u32 nttrace_wmi_trace_message_va(u64 logger_handle, u32 message_flags, const guid_t *message_guid,
				 u16 message_number, va_list message_args)
{
	u64 stack_list[2 * NT_KAPI_STACK_PAIRS + 1], *list = stack_list;
	struct nttrace_message_trace_user m = {
		.message_number = message_number,
		.message_flags = message_flags,
	};
	int n = nt_count_pairs(message_args), i;
	u32 status;

	if (n < 0)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	if (message_flags & (NTTRACE_TRACE_MESSAGE_GUID | NTTRACE_TRACE_MESSAGE_COMPONENTID)) {
		if (!message_guid)
			return NTTRACE_STATUS_INVALID_PARAMETER;
		/* A component ID is a ULONG: read no more than that. */
		memcpy(m.message_guid, message_guid,
		       message_flags & NTTRACE_TRACE_MESSAGE_COMPONENTID ? 4 : 16);
	}
	if (n > NT_KAPI_STACK_PAIRS) {
		list = kmalloc_array(2 * n + 1, sizeof(*list),
				     GFP_ATOMIC | __GFP_NOWARN);
		if (!list)
			return NTTRACE_STATUS_NO_MEMORY;
	}
	/* The list as a 64-bit caller's: pointer-sized words, NULL-ended. */
	for (i = 0; i < n; i++) {
		list[2 * i] = (uintptr_t)va_arg(message_args, const void *);
		list[2 * i + 1] = va_arg(message_args, size_t);
	}
	list[2 * n] = 0;
	m.data = (uintptr_t)list;
	m.data_size = (2 * n + 1) * sizeof(*list);

	status = nttrace_zw_trace_event(logger_handle, NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE,
					NTTRACE_MESSAGE_TRACE_USER_SIZE, &m);
	if (list != stack_list)
		kfree(list);
	return status;
}
EXPORT_SYMBOL_NS_GPL(nttrace_wmi_trace_message_va, NTTRACE_NS);

u32 nttrace_wmi_trace_message(u64 logger_handle, u32 message_flags, const guid_t *message_guid,
			      u16 message_number, ...)
{
	va_list args;
	u32 status;

	va_start(args, message_number);
	status = nttrace_wmi_trace_message_va(logger_handle, message_flags, message_guid,
					      message_number, args);
	va_end(args);
	return status;
}
EXPORT_SYMBOL_NS_GPL(nttrace_wmi_trace_message, NTTRACE_NS);

/*
 * ---- EtwRegister, EtwWrite: manifest-based providers for drivers ----
 *
 * A REGHANDLE names a struct nt_etw_reg by value, never by address: its
 * low 32 bits are an index in nt_etw_handles (from 1, given out
 * cyclically), its high 32 bits the generation the entry was given. A
 * lookup is an xarray load and a compare under rcu_read_lock(), from any
 * context but NMI; a handle unregistered, or never given, finds no entry
 * or one of another generation, and is refused with NTTRACE_STATUS_INVALID_HANDLE
 * having read no memory through it. An index comes back only after the
 * 32-bit space wraps, and then with another generation.
 *
 * An entry and its registration are freed after an RCU grace period, so
 * that a write that found the entry before EtwUnregister took it out of
 * the array finishes with both (kfree_rcu() here, and in
 * module/provider.c).
 */
struct nt_etw_reg {
	struct nt_reg *reg;
	etw_enable_callback_t callback;
	void *context;
	u32 gen;
	/* NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES, once asked for */
	u32 write_flags;
	struct rcu_head rcu;
};

static DEFINE_XARRAY_ALLOC1(nt_etw_handles);
static u32 nt_etw_next;			/* under the xarray's lock */
static atomic_t nt_etw_gen = ATOMIC_INIT(0);

/* Under rcu_read_lock() (or the xarray's lock): @reg_handle's entry, or NULL. */
static struct nt_etw_reg *nt_etw_lookup(u64 reg_handle)
{
	struct nt_etw_reg *e = xa_load(&nt_etw_handles, lower_32_bits(reg_handle));

	if (!e || e->gen != upper_32_bits(reg_handle))
		return NULL;
	return e;
}

/* A session's enable changed: the driver's callback, in process context. */
static void nt_etw_notify(void *ctx, u32 control, u8 level, u64 any, u64 all,
			  u32 logger_id)
{
	struct nt_etw_reg *e = ctx;

	/*
	 * nttrace has no session GUIDs: SourceId is NULL, as is FilterData.
	 * The callback may unregister @e: nothing of it is read after.
	 */
	if (e->callback)
		e->callback(NULL, control, level, any, all, NULL, e->context);
}

u32 nttrace_etw_register(const guid_t *provider_id, etw_enable_callback_t enable_callback,
			 void *callback_context, u64 *reg_handle)
{
	struct nt_etw_reg *e;
	struct nt_reg *reg;
	u32 id;
	int ret;

	if (!provider_id || !reg_handle)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	*reg_handle = 0;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return NTTRACE_STATUS_NO_MEMORY;
	e->callback = enable_callback;
	e->context = callback_context;
	e->gen = atomic_inc_return(&nt_etw_gen);
	/*
	 * The callbacks for enables made before run inside this call, before
	 * the handle exists: a driver cannot write with it from them yet.
	 */
	reg = nt_provider_register_kernel(provider_id->b, nt_etw_notify, e);
	if (IS_ERR(reg)) {
		kfree(e);
		return NTTRACE_STATUS_NO_MEMORY;
	}
	e->reg = reg;
	/* Stored with release semantics: a lookup sees @e whole. */
	ret = xa_alloc_cyclic(&nt_etw_handles, &id, e, xa_limit_32b, &nt_etw_next,
			      GFP_KERNEL);
	if (ret < 0) {
		nt_provider_unregister_kernel(reg);
		kfree(e);
		return NTTRACE_STATUS_NO_MEMORY;
	}
	*reg_handle = (u64)e->gen << 32 | id;
	return NTTRACE_STATUS_SUCCESS;
}
EXPORT_SYMBOL_NS_GPL(nttrace_etw_register, NTTRACE_NS);

u32 nttrace_etw_unregister(u64 reg_handle)
{
	struct nt_etw_reg *e;

	/* Looked up and erased at once: of two racing calls, one succeeds. */
	xa_lock(&nt_etw_handles);
	e = nt_etw_lookup(reg_handle);
	if (e)
		__xa_erase(&nt_etw_handles, lower_32_bits(reg_handle));
	xa_unlock(&nt_etw_handles);
	if (!e)
		return NTTRACE_STATUS_INVALID_HANDLE;
	/* Waits for a callback on another thread; none runs after it. */
	nt_provider_unregister_kernel(e->reg);
	kfree_rcu(e, rcu);
	return NTTRACE_STATUS_SUCCESS;
}
EXPORT_SYMBOL_NS_GPL(nttrace_etw_unregister, NTTRACE_NS);

bool nttrace_etw_provider_enabled(u64 reg_handle, u8 level, u64 keyword)
{
	struct nt_etw_reg *e;
	bool on = false;

	rcu_read_lock();
	e = nt_etw_lookup(reg_handle);
	if (e)
		on = nt_provider_kernel_enabled(e->reg, level, keyword);
	rcu_read_unlock();
	return on;
}
EXPORT_SYMBOL_NS_GPL(nttrace_etw_provider_enabled, NTTRACE_NS);

bool nttrace_etw_event_enabled(u64 reg_handle, const struct nttrace_event_descriptor *descriptor)
{
	return descriptor &&
	       nttrace_etw_provider_enabled(reg_handle, descriptor->level, descriptor->keyword);
}
EXPORT_SYMBOL_NS_GPL(nttrace_etw_event_enabled, NTTRACE_NS);

u32 nttrace_etw_write_transfer(u64 reg_handle, const struct nttrace_event_descriptor *descriptor,
			       const guid_t *activity_id, const guid_t *related_activity_id,
			       u32 user_data_count,
			       const struct nttrace_event_data_descriptor *user_data)
{
	struct nttrace_event_write_user fields = {};
	struct nt_etw_reg *e;
	u32 status;

	/* The entry and its registration outlive the read-side section. */
	rcu_read_lock();
	e = nt_etw_lookup(reg_handle);
	if (!e) {
		status = NTTRACE_STATUS_INVALID_HANDLE;
		goto out;
	}
	if (!descriptor || (user_data_count && !user_data)) {
		status = NTTRACE_STATUS_INVALID_PARAMETER;
		goto out;
	}
	fields.header.descriptor = *descriptor;
	if (activity_id)
		memcpy(fields.header.activity_id, activity_id, sizeof(fields.header.activity_id));
	if (related_activity_id) {
		memcpy(fields.related_activity_id, related_activity_id,
		       sizeof(fields.related_activity_id));
		fields.related_activity = 1;
	}
	/* Pairs with the WRITE_ONCE() in nttrace_etw_set_information(). */
	fields.flags |= READ_ONCE(e->write_flags);
	fields.data_count = user_data_count;
	fields.data = (uintptr_t)user_data;
	status = nt_event_write_kernel(e->reg, &fields);
out:
	rcu_read_unlock();
	return status;
}
EXPORT_SYMBOL_NS_GPL(nttrace_etw_write_transfer, NTTRACE_NS);

u32 nttrace_etw_write(u64 reg_handle, const struct nttrace_event_descriptor *descriptor,
		      const guid_t *activity_id, u32 user_data_count,
		      const struct nttrace_event_data_descriptor *user_data)
{
	return nttrace_etw_write_transfer(reg_handle, descriptor, activity_id, NULL,
					  user_data_count, user_data);
}
EXPORT_SYMBOL_NS_GPL(nttrace_etw_write, NTTRACE_NS);

/*
 * EtwWriteNoRegistration: Windows' kernel exports no such routine that
 * Microsoft documents; this is ntdll's EtwEventWriteNoRegistration for
 * modules, through the front door's TRACE_EVENT_NOREG (module/noreg.c)
 * with kernel addresses.
 */
u32 nttrace_etw_write_no_registration(const guid_t *provider_id,
				      const struct nttrace_event_descriptor *descriptor,
				      u32 user_data_count,
				      const struct nttrace_event_data_descriptor *user_data)
{
	struct nttrace_event_write_user fields = {};

	if (!descriptor)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	fields.header.descriptor = *descriptor;
	fields.data_count = user_data_count;
	fields.data = (uintptr_t)user_data;
	return nttrace_zw_trace_event((uintptr_t)provider_id,
				      NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG,
				      sizeof(fields), &fields);
}
EXPORT_SYMBOL_NS_GPL(nttrace_etw_write_no_registration, NTTRACE_NS);

/*
 * EtwSetInformation, as the user-mode EventSetInformation
 * (userlib/provider/eventprov.c): SetTraits checks the traits and turns
 * the descriptors' Type on, UseDescriptorType takes a BOOLEAN,
 * BinaryTrackInfo does nothing. A plain store: a write racing the change
 * sees the Type honoured or not, both whole.
 */
u32 nttrace_etw_set_information(u64 reg_handle, u32 information_class, void *information,
				u32 information_length)
{
	const u32 types = NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES;
	struct nt_etw_reg *e;
	u32 status = NTTRACE_STATUS_SUCCESS;

	if (!information && information_length)
		return NTTRACE_STATUS_INVALID_PARAMETER;
	rcu_read_lock();
	e = nt_etw_lookup(reg_handle);
	if (!e) {
		status = NTTRACE_STATUS_INVALID_HANDLE;
		goto out;
	}
	switch (information_class) {
	case NTTRACE_EVENT_PROVIDER_BINARY_TRACK_INFO:
		break;
	case NTTRACE_EVENT_PROVIDER_SET_TRAITS:
		if (!ntr_traits_valid(information, information_length))
			status = NTTRACE_STATUS_INVALID_PARAMETER;
		else
			WRITE_ONCE(e->write_flags, types);
		break;
	case NTTRACE_EVENT_PROVIDER_USE_DESCRIPTOR_TYPE:
		if (information_length != 1)
			status = NTTRACE_STATUS_INVALID_PARAMETER;
		else
			WRITE_ONCE(e->write_flags, *(const u8 *)information ? types : 0);
		break;
	default:
		status = NTTRACE_STATUS_NOT_SUPPORTED;
	}
out:
	rcu_read_unlock();
	return status;
}
EXPORT_SYMBOL_NS_GPL(nttrace_etw_set_information, NTTRACE_NS);
