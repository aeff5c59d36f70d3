/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TraceLogging for kernel modules: the kernel mode's shim of
 * <nttrace/traceloggingprovider.h>, which includes it when __KERNEL__ is
 * defined; not for direct use. A driver writes, as on Windows,
 *
 *   #include <nttrace/wdm.h>
 *   #include <nttrace/traceloggingprovider.h>
 *
 *   TRACELOGGING_DEFINE_PROVIDER(g_hProvider, "MyDriver",
 *	(0xb3864c38, 0x4273, 0x58c5, 0x54, 0x5b, 0x8b, 0x36, 0x08, 0x34, 0x34, 0x71));
 *   TraceLoggingRegister(g_hProvider);		(module init)
 *   TraceLoggingWrite(g_hProvider, "MyEvent", TraceLoggingUInt32(irq),
 *		       TraceLoggingString(dev_name(dev), "device"));
 *   TraceLoggingUnregister(g_hProvider);	(module exit: before unload)
 *
 * and says NTTRACE_IMPORT_NS(); beside its MODULE_LICENSE (GPL-compatible).
 * include/nttrace/traceloggingprovider.h and its machinery are one text
 * for both modes, shared with the user library; this file is what differs.
 *
 * The run time is nttrace.ko's (module/tracelogging.c): a registration
 * is an EtwRegister whose enable callback keeps the provider's level and
 * keywords for TraceLoggingWrite's inline test, then an EtwSetInformation
 * (EventProviderSetTraits) with the provider's metadata, so that the
 * writes honour the data descriptors' Type; a write is an
 * EtwWriteTransfer with descriptor 0 the provider's metadata and 1 the
 * event's (both static data of the driver, kernel addresses), the
 * records' PROV_TRAITS and EVENT_SCHEMA_TL items.
 *
 * Contexts (wdm.h's rules): TraceLoggingRegister, TraceLoggingRegisterEx
 * and TraceLoggingUnregister may sleep (process context, like
 * EtwRegister); TraceLoggingWrite, TraceLoggingWriteActivity,
 * TraceLoggingProviderEnabled and TraceLoggingSetInformation may be
 * called from any context but NMI, with locks held. The registration
 * calls are not safe against each other on the same provider (as the SDK
 * documents). A driver must unregister before its module is unloaded:
 * the registration holds its enable callback and its metadata's address.
 * TraceLoggingRegisterEx's callback runs as wdm.h says EtwRegister's does
 * (process context, no nttrace lock held), after the provider's state is
 * updated.
 *
 * Statuses are NTSTATUS values (u32, NTTRACE_STATUS_*), as on Windows in
 * kernel mode. Left out of kernel mode: TraceLoggingFloat32/Float64 and
 * their arrays (kernel code keeps off the FPU), TraceLoggingFileTime*,
 * TraceLoggingSystemTime* and their arrays (no such kernel types), and
 * C++'s TraceLoggingValue. Wide strings are u16 arrays (UTF-16), GUIDs
 * guid_t.
 */
#ifndef _NTTRACE_TRACELOGGING_KERNEL_H
#define _NTTRACE_TRACELOGGING_KERNEL_H

#include <linux/compiler.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/uuid.h>
#include <nttrace/wdm.h>

/*
 * A provider: what its sessions enable (level_plus1 0: none; 256: every
 * level), kept by nttrace.ko's enable callback for the inline test, its
 * registration (0: none), its static metadata, its GUID and the caller's
 * callback. TRACELOGGING_DEFINE_PROVIDER makes one, by position: the
 * members' order is the shim's contract (traceloggingprovider.h).
 */
struct nttrace_tl_provider {
	u32 level_plus1;
	u64 keyword_any;
	u64 keyword_all;
	u64 reg_handle;
	const void *metadata;		/* u16 size, name, traits */
	guid_t provider_id;
	etw_enable_callback_t callback;	/* TraceLoggingRegisterEx's */
	void *callback_context;
};

/*
 * Macros rather than typedefs: the shared macros write the handle's const
 * after the type, which makes it the pointer's either way.
 */
#define TraceLoggingHProvider	const struct nttrace_tl_provider *
#define TLG_STATUS		u32
#define TLG_PENABLECALLBACK	etw_enable_callback_t

#define NTTRACE_TL_ED		struct nttrace_event_descriptor
#define NTTRACE_TL_DD		struct nttrace_event_data_descriptor
#define NTTRACE_TL_GUID_T	guid_t
#define NTTRACE_TL_WCHAR	u16
/* long: pointer-sized, and intptr_t is not in every kernel's <linux/types.h>. */
#define NTTRACE_TL_INTPTR	long
/* GUID_INIT's bytes, as an initialiser (GUID_INIT makes a compound literal). */
#define NTTRACE_TL_GUID(g1, g2, g3, g4, g5, g6, g7, g8, g9, g10, g11)		\
	{ { (g1) & 0xff, ((g1) >> 8) & 0xff, ((g1) >> 16) & 0xff, ((g1) >> 24) & 0xff, \
	    (g2) & 0xff, ((g2) >> 8) & 0xff, (g3) & 0xff, ((g3) >> 8) & 0xff,	\
	    g4, g5, g6, g7, g8, g9, g10, g11 } }

/*
 * nttrace.ko's run time (module/tracelogging.c). Register: the provider
 * registered and its traits set; NTTRACE_STATUS_SUCCESS, EtwRegister's
 * errors, NTTRACE_STATUS_INVALID_PARAMETER for one already registered
 * (which stays as it is). A provider that failed to register writes
 * nothing and unregisters as a no-op. Unregister: EtwUnregister (no
 * callback runs after it returns), the state cleared; it may register
 * again. Set information: EtwSetInformation for the registration
 * (NTTRACE_STATUS_INVALID_HANDLE when there is none). Write: descriptor
 * 0 set to the provider's metadata, then EtwWriteTransfer;
 * NTTRACE_STATUS_INVALID_HANDLE when not registered.
 */
u32 nttrace_tl_register_ex(const struct nttrace_tl_provider *provider,
			   etw_enable_callback_t callback, void *callback_context);
void nttrace_tl_unregister(const struct nttrace_tl_provider *provider);
u32 nttrace_tl_set_information(const struct nttrace_tl_provider *provider,
			       u32 information_class, void *information,
			       u32 information_length);
u32 nttrace_tl_write(const struct nttrace_tl_provider *provider,
		     const struct nttrace_event_descriptor *descriptor,
		     const guid_t *activity_id, const guid_t *related_activity_id,
		     u32 user_data_count, struct nttrace_event_data_descriptor *user_data);

/*
 * Does a session want events of @level and @keyword? The user mode's rule
 * (traceloggingprovider.h): level below level_plus1, keyword 0 or one of
 * keyword_any's bits and all of keyword_all's. Loads only, no call; the
 * loads may race with an enable callback's stores (the write then filters
 * each session by its own level and keywords).
 */
static inline bool nttrace_tl_enabled(const struct nttrace_tl_provider *p, u8 level,
				      u64 keyword)
{
	u64 all;

	if (level >= READ_ONCE(p->level_plus1))
		return false;
	if (!keyword)
		return true;
	all = READ_ONCE(p->keyword_all);
	return (keyword & READ_ONCE(p->keyword_any)) && (keyword & all) == all;
}

static inline guid_t nttrace_tl_provider_id(const struct nttrace_tl_provider *p)
{
	return p->provider_id;
}

static inline void nttrace_tl_desc(struct nttrace_event_data_descriptor *d, const void *p,
				   u32 size)
{
	d->ptr = (uintptr_t)p;
	d->size = size;
	d->reserved = 0;
}

/* With a Type (the low byte of reserved): the metadata's descriptors. */
static inline void nttrace_tl_desc_typed(struct nttrace_event_data_descriptor *d,
					 const void *p, u32 size, u8 type)
{
	d->ptr = (uintptr_t)p;
	d->size = size;
	d->reserved = type;
}

/* The SDK's names. */
#define TraceLoggingRegister(h)			nttrace_tl_register_ex(h, NULL, NULL)
#define TraceLoggingRegisterEx			nttrace_tl_register_ex
#define TraceLoggingUnregister			nttrace_tl_unregister
#define TraceLoggingSetInformation		nttrace_tl_set_information
#define TraceLoggingProviderEnabled		nttrace_tl_enabled
#define TraceLoggingProviderId			nttrace_tl_provider_id

#endif /* _NTTRACE_TRACELOGGING_KERNEL_H */
