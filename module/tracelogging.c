// SPDX-License-Identifier: GPL-2.0
/*
 * TraceLogging's run time for kernel modules (include/nttrace/
 * tracelogging_kernel.h): a TRACELOGGING_DEFINE_PROVIDER provider
 * registers through EtwRegister and writes through EtwWriteTransfer, with
 * its metadata in the first two data descriptors, as the user library's
 * userlib/provider/tracelogging.c does with EventRegister. Only the
 * exported kernel-mode API is called (module/kapi.c), so that a driver's
 * provider is one more EtwRegister registration.
 *
 * The provider's state (level_plus1, keyword_any, keyword_all), which
 * TraceLoggingWrite tests inline, is kept by nt_tl_enable. It widens with
 * each session's ENABLE (the highest level, the keywords' union for Any
 * and intersection for All) and clears when no session is left: never
 * narrower than what some session wants (a narrower state would lose its
 * events), sometimes wider after a session went (the write then finds no
 * session for it and writes nothing, as EtwWriteTransfer filters each
 * session by its own level and keywords). Unlike a process's callback, a
 * kernel registration's is told of each session's DISABLE with that
 * session's values, not of what the others still want: it asks
 * EtwProviderEnabled, which reflects the change already, whether any
 * session is left.
 */
#include <linux/minmax.h>
#include <linux/module.h>
#include <nttrace/wdm.h>
#include <nttrace/traceloggingprovider.h>

/* The storage is a static, writable struct; the handle says const. */
static struct nttrace_tl_provider *nt_tl_mine(const struct nttrace_tl_provider *h)
{
	return (struct nttrace_tl_provider *)h;
}

static void nt_tl_clear(struct nttrace_tl_provider *p)
{
	WRITE_ONCE(p->level_plus1, 0);
	WRITE_ONCE(p->keyword_any, 0);
	WRITE_ONCE(p->keyword_all, 0);
}

/*
 * EtwRegister's callback: process context, one at a time and in order for
 * the registration (wdm.h), so the state's stores race only with the
 * writers' loads. Before EtwRegister returns, reg_handle is still 0.
 */
static void nt_tl_enable(const guid_t *source_id, u32 control, u8 level, u64 any, u64 all,
			 void *filter_data, void *context)
{
	struct nttrace_tl_provider *p = context;
	u32 plus1 = level ? (u32)level + 1 : 256;
	u32 was = p->level_plus1;
	u64 reg;

	if (control == NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER) {
		u64 new_any = any, new_all = all;

		if (was) {
			new_any |= p->keyword_any;
			new_all &= p->keyword_all;
			plus1 = max(plus1, was);
		}
		/* The keywords before the level that lets the test read them. */
		WRITE_ONCE(p->keyword_any, new_any);
		WRITE_ONCE(p->keyword_all, new_all);
		WRITE_ONCE(p->level_plus1, plus1);
	} else if (control == NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER) {
		/*
		 * No handle yet (a DISABLE while EtwRegister runs): keep the
		 * state, wider at worst; the last DISABLE comes after it.
		 */
		reg = READ_ONCE(p->reg_handle);
		if (reg && !nttrace_etw_provider_enabled(reg, 0, 0))
			nt_tl_clear(p);
	}
	/* Last: the callback may unregister the provider. */
	if (p->callback)
		p->callback(source_id, control, level, any, all, filter_data,
			    p->callback_context);
}

u32 nttrace_tl_register_ex(const struct nttrace_tl_provider *provider,
			   etw_enable_callback_t callback, void *callback_context)
{
	struct nttrace_tl_provider *p = nt_tl_mine(provider);
	u16 size;
	u64 reg;
	u32 status;

	if (!p || READ_ONCE(p->reg_handle))
		return NTTRACE_STATUS_INVALID_PARAMETER;
	p->callback = callback;
	p->callback_context = callback_context;
	nt_tl_clear(p);
	/* Enables made before run nt_tl_enable here, before the handle is set. */
	status = nttrace_etw_register(&p->provider_id, nt_tl_enable, p, &reg);
	if (status != NTTRACE_STATUS_SUCCESS)
		return status;
	WRITE_ONCE(p->reg_handle, reg);
	/*
	 * The traits turn the descriptors' Type on: without them the
	 * metadata would be written as data. The metadata is the macros'
	 * own and valid; a failure would leave the registration standing,
	 * as a Windows without EtwSetInformation does.
	 */
	memcpy(&size, p->metadata, sizeof(size));
	nttrace_etw_set_information(reg, NTTRACE_EVENT_PROVIDER_SET_TRAITS,
				    (void *)p->metadata, size);
	return NTTRACE_STATUS_SUCCESS;
}
EXPORT_SYMBOL_NS_GPL(nttrace_tl_register_ex, NTTRACE_NS);

void nttrace_tl_unregister(const struct nttrace_tl_provider *provider)
{
	struct nttrace_tl_provider *p = nt_tl_mine(provider);
	u64 reg;

	if (!p)
		return;
	/*
	 * Not against another register or unregister of @p (the SDK's rule
	 * too), so a load and a store; a write that read the handle before
	 * gets NTTRACE_STATUS_INVALID_HANDLE from EtwWriteTransfer, safely.
	 */
	reg = p->reg_handle;
	if (!reg)
		return;
	WRITE_ONCE(p->reg_handle, 0);
	/* No callback runs once EtwUnregister returns: then clear. */
	nttrace_etw_unregister(reg);
	nt_tl_clear(p);
}
EXPORT_SYMBOL_NS_GPL(nttrace_tl_unregister, NTTRACE_NS);

u32 nttrace_tl_set_information(const struct nttrace_tl_provider *provider,
			       u32 information_class, void *information,
			       u32 information_length)
{
	u64 reg = provider ? READ_ONCE(provider->reg_handle) : 0;

	return nttrace_etw_set_information(reg, information_class, information,
					   information_length);
}
EXPORT_SYMBOL_NS_GPL(nttrace_tl_set_information, NTTRACE_NS);

u32 nttrace_tl_write(const struct nttrace_tl_provider *provider,
		     const struct nttrace_event_descriptor *descriptor,
		     const guid_t *activity_id, const guid_t *related_activity_id,
		     u32 user_data_count, struct nttrace_event_data_descriptor *user_data)
{
	u64 reg = READ_ONCE(provider->reg_handle);
	u16 size;

	/* Enabled from inside EtwRegister: not registered yet. */
	if (!reg)
		return NTTRACE_STATUS_INVALID_HANDLE;
	memcpy(&size, provider->metadata, sizeof(size));
	nttrace_tl_desc_typed(&user_data[0], provider->metadata, size,
			      NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA);
	return nttrace_etw_write_transfer(reg, descriptor, activity_id, related_activity_id,
					  user_data_count, user_data);
}
EXPORT_SYMBOL_NS_GPL(nttrace_tl_write, NTTRACE_NS);
