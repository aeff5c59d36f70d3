/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The provider's registrations (register.c), shared by its calls
 * (event.c, eventprov.c, message.c, ntwmi.c) and by the controller's
 * private enables (controller/enable.c). Not installed.
 */
#ifndef NTTRACE_PROVIDER_INTERNAL_H
#define NTTRACE_PROVIDER_INTERNAL_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <nttrace/evntprov.h>
#include <nttrace/evntrace.h>

#include "../filter/filter_internal.h"
#include "../logger/logger_internal.h"

/*
 * Handles are looked up, never dereferenced: a
 * handle the library gives out is a table index with a generation in its
 * low 32 bits (so that it fits a 32-bit HANDLE too), and it stands for a
 * slot whose key must equal it, all 32 bits. A slot's key is cleared when
 * the handle is closed and its generation moves on when the slot is
 * reused, so that a stale handle, or any value the library never gave,
 * is refused (ERROR_INVALID_HANDLE) without reading memory through it; and
 * what a slot points to is never freed, only reused, so that a lookup
 * racing with the close reads a closed registration, not freed memory.
 * No pointer bits are borrowed: bits 48-63 of an address belong to
 * 5-level paging and tagged pointers (arm64 TBI, MTE).
 */

/*
 * A class of a RegisterTraceGuids registration (TRACE_GUID_REGISTRATION's
 * RegHandle; provider/register.c keeps them until UnregisterTraceGuids;
 * provider/event.c reads them for TraceEventInstance and
 * CreateTraceInstanceId). The handle: index (16 bits) | generation << 16.
 */
struct nttrace_guid_reg {
	uint32_t key;		/* its live handle; 0: not registered */
	uint32_t next_instance;	/* CreateTraceInstanceId's counter (atomic) */
	GUID guid;		/* the class GUID */
	uint32_t gen;		/* the generation its next handle gets */
	uint32_t next_free;	/* the free list (index + 1; 0: end) */
};

/*
 * A new class of @guid: ERROR_SUCCESS and its handle in *@handle, or
 * ERROR_NOT_ENOUGH_MEMORY, or ERROR_NO_SYSTEM_RESOURCES (65535 live).
 */
ULONG nttrace_class_add(const GUID *guid, HANDLE *handle);
/* The class no longer registered: its handle is refused from now on. */
void nttrace_class_remove(HANDLE handle);
/* The live class of @handle, or NULL. Never freed (only reused). */
struct nttrace_guid_reg *nttrace_class_of(HANDLE handle);

/*
 * Windows' 0x78-byte block of an event for NtTraceEvent (eventprov.c),
 * which EventWrite* and NTDLL's writes (ntwmi.c) pass the kernel.
 */
void nttrace_event_block(struct nttrace_event_write_user *f, const EVENT_DESCRIPTOR *d,
			 const GUID *activity, const GUID *related, uint32_t wflags,
			 uint64_t filter, uint16_t property, ULONG count,
			 const EVENT_DATA_DESCRIPTOR *data);

/* ---- EventRegister's registrations (provider/register.c, eventprov.c) ---- */


/* Reads of an odd sequence count before nttrace_read_enable_info gives up. */
#define NTTRACE_ENABLE_READ_TRIES	10000

/*
 * A struct nttrace_enable_info read under its sequence count (uapi: the
 * writer's first write barrier pairs with our final acquire fence, its
 * second with our load-acquire of the sequence). The same protocol serves
 * the library's own copy of a private enable (register.c writes it).
 */
static inline void nttrace_read_enable_info(const struct nttrace_enable_info *src,
					    struct nttrace_enable_info *out)
{
	unsigned int tries = 0;
	uint32_t s;

	for (;;) {
		s = __atomic_load_n(&src->sequence, __ATOMIC_ACQUIRE);
		if (s & 1) {
			/*
			 * An update takes the kernel a few stores, but its
			 * thread may be preempted in the middle: yield to it
			 * after a short spin. A count that stays odd is no
			 * update (memory copied mid-update, e.g. by fork, and
			 * not refreshed): after
			 * NTTRACE_ENABLE_READ_TRIES the reader gives up and
			 * reads "no session", losing events rather than
			 * hanging the caller.
			 */
			if (++tries >= NTTRACE_ENABLE_READ_TRIES) {
				memset(out, 0, sizeof(*out));
				out->sequence = s;
				return;
			}
			if (tries > 64)
				sched_yield();
			continue;
		}
		out->sessions = __atomic_load_n(&src->sessions, __ATOMIC_RELAXED);
		out->logger_handle = __atomic_load_n(&src->logger_handle, __ATOMIC_RELAXED);
		out->level = __atomic_load_n(&src->level, __ATOMIC_RELAXED);
		out->match_any_keyword = __atomic_load_n(&src->match_any_keyword,
							 __ATOMIC_RELAXED);
		out->match_all_keyword = __atomic_load_n(&src->match_all_keyword,
							 __ATOMIC_RELAXED);
		out->loggers = __atomic_load_n(&src->loggers, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&src->sequence, __ATOMIC_RELAXED) == s)
			break;
	}
	out->sequence = s;
	memset(out->pad, 0, sizeof(out->pad));
}

/*
 * What a registration's handle stands for (EventRegister's REGHANDLE,
 * RegisterTraceGuids' RegistrationHandle): the first part of register.c's
 * registration entry (Windows' ETW_REGISTRATION_ENTRY), in a 64-byte
 * aligned block so that @info never crosses a page. @info is written by
 * the kernel; @priv by register.c (under its lock, with @priv.sequence as
 * the uapi's sequence count): the process's user-mode logger's enable
 * (@sessions 1, @logger_handle the handle its records go to, level and
 * keywords; @loggers 0).
 */
struct nttrace_event_reg {
	struct nttrace_enable_info info;
	struct nttrace_enable_info priv;
	uint32_t gen;		/* the generation of its current handle */
	uint32_t index;		/* its slot */
	uint64_t kernel_handle;	/* NtTraceEvent's TraceHandle; 0: no module */
	GUID guid;		/* the provider's */
	/*
	 * NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES once EventSetInformation
	 * asked for descriptor Types (atomic: set while others write)
	 */
	uint32_t write_flags;
	/*
	 * The private enable's filters (EnableTraceEx2's, evfilter.c); NULL:
	 * none. Changed by register.c under reg_lock and, write-locked,
	 * nttrace_filters_lock; read (eventprov.c) under it read-locked.
	 */
	struct nttrace_filters *priv_filters;
};

/*
 * The registrations' table (register.c): a handle is index | kind |
 * generation << NTTRACE_REG_GEN_SHIFT, the kind bit set for EventRegister.
 * NTTRACE_MAX_REGISTRATIONS is also what one file may register with the
 * kernel, so the table holds every registration a process can make.
 */
#define NTTRACE_REG_INDEX_MASK	(NTTRACE_MAX_REGISTRATIONS - 1)
#define NTTRACE_REG_EVENT_BIT	((uint32_t)NTTRACE_MAX_REGISTRATIONS)
#define NTTRACE_REG_GEN_SHIFT	(__builtin_ctz(NTTRACE_MAX_REGISTRATIONS) + 1)

/*
 * struct nttrace_reg_slot and the table are <nttrace/evntprov.h>'s, whose
 * inline tests read them; a registration begins as it says.
 */
_Static_assert(offsetof(struct nttrace_event_reg, info) ==
	       offsetof(struct nttrace_event_reg_head, info) &&
	       offsetof(struct nttrace_event_reg, priv) ==
	       offsetof(struct nttrace_event_reg_head, priv),
	       "a registration begins with the head the inline tests read");
_Static_assert(NTTRACE_REG_EVENT_BIT == NTTRACE_INLINE_REG_EVENT_BIT &&
	       NTTRACE_REG_INDEX_MASK == NTTRACE_INLINE_REG_INDEX_MASK,
	       "the inline tests decode handles as the table does");

/*
 * The live registration of @handle, or NULL: a load of the slot, a
 * compare, no lock. @event: an EventRegister handle (else a classic one).
 */
static inline struct nttrace_event_reg *nttrace_reg_of(uint64_t handle, int event)
{
	const struct nttrace_reg_slot *s = &nttrace_reg_slots[handle & NTTRACE_REG_INDEX_MASK];

	/* A free slot's key is 0, which no handle is. */
	if (!handle || !(handle & NTTRACE_REG_EVENT_BIT) != !event ||
	    __atomic_load_n(&s->key, __ATOMIC_ACQUIRE) != handle)
		return NULL;
	return s->reg;
}

static inline struct nttrace_event_reg *nttrace_event_reg_of(uint64_t reghandle)
{
	return nttrace_reg_of(reghandle, 1);
}

/* Whether @reghandle is still @r's handle (checked again past the fast path). */
static inline int nttrace_event_reg_live(const struct nttrace_event_reg *r,
					 uint64_t reghandle)
{
	return nttrace_event_reg_of(reghandle) == r;
}

/*
 * EventRegister and EventUnregister's work (register.c, the machinery
 * RegisterTraceGuids uses): Win32 errors, the last error not set.
 */
ULONG nttrace_event_register(LPCGUID guid, PENABLECALLBACK cb, void *ctx,
			     uint64_t *reghandle);
ULONG nttrace_event_unregister(uint64_t reghandle);

/*
 * EnableTrace and EnableTraceEx2 with the user-mode logger's handle: @control
 * (EVENT_CONTROL_CODE_*) for every registration of @guid in this process,
 * with no system call; classic ones get @handle in their callbacks (not
 * CAPTURE_STATE), EventRegister ones @level, @any, @all and @source.
 * @handle: NTTRACE_HANDLE() of the logger with the level and flags, and
 * NTTRACE_TRACE_ENABLE_INTERNAL_PRIVATE. Returns how many registrations it
 * concerned (DISABLE, CAPTURE_STATE: those the logger enabled).
 */
unsigned int nttrace_private_enable_ex(const GUID *guid, uint32_t control,
				       TRACEHANDLE handle, uint8_t level, uint64_t any,
				       uint64_t all, const GUID *source,
				       const struct nttrace_filters *filters);

/*
 * The user-mode logger stopped (ControlTrace's STOP, controller/trace.c,
 * after nttrace_um_control(), no lock of the logger held): every private
 * enable ends, and the callbacks hear of it.
 */
void nttrace_private_stop(void);

#endif /* NTTRACE_PROVIDER_INTERNAL_H */
