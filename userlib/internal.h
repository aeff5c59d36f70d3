/* SPDX-License-Identifier: LGPL-2.1 */
/* Shared by the library's own files; not installed. */
#ifndef NTTRACE_INTERNAL_H
#define NTTRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <string.h>

#include <nttrace/evntrace.h>
#include <nttrace/etl.h>

/*
 * The little-endian unsigned integer of @bytes bytes (1 to 8) at @p, which
 * need not be aligned: what files and records hold. One load on a
 * little-endian machine (the ETL reader reads a few for every event).
 */
static inline uint64_t nttrace_get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&v, p, bytes);
#else
	while (bytes--)
		v = v << 8 | p[bytes];
#endif
	return v;
}

/*
 * Code point @c (at most U+10FFFF, no surrogate) as UTF-8 at @out: 1 to 4
 * bytes; their count.
 */
static inline unsigned int nttrace_utf8_put(char *out, uint32_t c)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xC0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xE0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3F));
		out[2] = (char)(0x80 | (c & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | c >> 18);
	out[1] = (char)(0x80 | (c >> 12 & 0x3F));
	out[2] = (char)(0x80 | (c >> 6 & 0x3F));
	out[3] = (char)(0x80 | (c & 0x3F));
	return 4;
}

/*
 * nttrace_logfile_buffer() for a writer that knows how many events @buf
 * holds (the user-mode logger): it saves walking every record (etl.c).
 */
int nttrace_logfile_counted(struct nttrace_logfile *lf, const void *buf, uint32_t size,
			    uint32_t events);
/*
 * @n buffers of the file's buffer size, @events[i] events in @bufs[i],
 * in that order: as many calls of nttrace_logfile_counted(), but one
 * system call writes up to NTTRACE_LOGFILE_BATCH of them where they land
 * side by side in the file. A failure is counted buffer by buffer as
 * there.
 */
#define NTTRACE_LOGFILE_BATCH	16
int nttrace_logfile_counted_n(struct nttrace_logfile *lf, uint8_t *const *bufs,
			      const uint32_t *events, unsigned int n);

/*
 * memcpy that returns -EFAULT for an unreadable @src, the caller's memory
 * (@dst is the library's own); no signal handler (safecopy.c).
 */
int nttrace_safe_copy(void *dst, const void *src, size_t len);
/* The same into the caller's @dst: -EFAULT if it is not writable. */
int nttrace_safe_store(void *dst, const void *src, size_t len);
/* What the copies did so far, for the tests. */
struct nttrace_safe_copy_stats {
	unsigned long rereads;		/* /proc/self/maps read again */
	unsigned long kernel_copies;	/* copies the kernel made (a bad address among them) */
	uint64_t reread_wait_ns;	/* until a miss may read the map again; 0: now */
	int guard_scan;			/* re-reads find MADV_GUARD_INSTALL regions */
};
void nttrace_safe_copy_stats(struct nttrace_safe_copy_stats *st);

/* One TraceMessage call, its va_list read into a NULL-ended pair list. */
struct nttrace_msg {
	uint32_t flags;		/* MessageFlags & TRACE_MESSAGE_FLAG_MASK */
	uint16_t number;
	uint8_t guid[16];	/* GUID, or component ID in the first 4 */
	uint32_t nargs;
	uint32_t data_size;	/* the arguments' bytes */
	uintptr_t list[2 * NTTRACE_MESSAGE_MAX_ARGS + 1];
};

/*
 * The user-mode logger's writer slots: its buffers' streams, as a kernel
 * session's CPUs (TraceQueryInformation's TraceStreamCount).
 */
#define NTTRACE_UM_SLOTS	64

/* The user-mode logger (umlogger.c); Win32 errors. */
ULONG nttrace_um_trace(TRACEHANDLE handle, const struct nttrace_msg *m);
ULONG nttrace_um_start(PTRACEHANDLE handle, const char *name,
		       PEVENT_TRACE_PROPERTIES props, const char *log_file);
/*
 * QUERY/STOP/UPDATE/FLUSH. Sets *mine when the handle or name is the
 * user-mode logger's (or a user-mode handle at all), and then its name in
 * @name_out (NTTRACE_NAME_MAX bytes).
 */
ULONG nttrace_um_control(TRACEHANDLE handle, const char *name,
			 PEVENT_TRACE_PROPERTIES props, ULONG code, int *mine,
			 char *name_out);

/*
 * ControlTrace's checks of an EVENT_TRACE_PROPERTIES (trace.c): NULL or a
 * name offset out of place, ERROR_INVALID_PARAMETER; Wnode.BufferSize too
 * small, ERROR_BAD_LENGTH.
 */
ULONG nttrace_check_props(PEVENT_TRACE_PROPERTIES p);
/*
 * ControlTrace's QUERY of kernel session @id into checked @p (its name as
 * char or, @wide, UTF-16): a Win32 error; a session not running,
 * ERROR_WMI_INSTANCE_NOT_FOUND. QueryAllTraces shares it.
 */
ULONG nttrace_query_kernel(uint32_t id, PEVENT_TRACE_PROPERTIES p, int wide);

/*
 * The logger process that writes a kernel session's buffers to the file
 * @path (filelogger.c: the nttrace tool), at most @max_mb MB (0: no
 * limit): 0 once it has attached and created the file, its process ID in
 * *@pid; or -errno (-ENOTDIR: the file's directory is missing).
 */
int nttrace_start_file_logger(uint32_t logger_id, const char *path, uint32_t max_mb,
			      pid_t *pid);

/*
 * Handles are looked up, never dereferenced (issue 27, finding 5): a
 * handle the library gives out is a table index with a generation in its
 * low 32 bits (so that it fits a 32-bit HANDLE too), and it stands for a
 * slot whose key must equal it, all 32 bits. A slot's key is cleared when
 * the handle is closed and its generation moves on when the slot is
 * reused, so that a stale handle, or any value the library never gave,
 * is refused (ERROR_INVALID_HANDLE) without reading memory through it; and
 * what a slot points to is never freed, only reused, so that a lookup
 * racing with the close reads a closed registration, not freed memory.
 * No pointer bits are borrowed: the generation is no longer kept in bits
 * 48-63 of an address, which 5-level paging and tagged pointers (arm64
 * TBI, MTE) use.
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
 * One TraceEvent or TraceEventInstance call, checked by provider/event.c,
 * for the user-mode logger (umlogger.c): @hdr is the header as NtTraceEvent
 * would take it (its first @hdr_size bytes: NTTRACE_EVENT_TRACE_HEADER_SIZE, or
 * NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE with the instance fields filled in), its
 * guid already read from GuidPtr, its flags saying whether to keep its
 * time stamp (WNODE_FLAG_USE_TIMESTAMP); the data are the @nmof items of
 * @mof (inline data as one item), read while they are written. Returns a
 * Win32 error, the same as the kernel's NTSTATUS would map to.
 */
ULONG nttrace_um_trace_event(TRACEHANDLE handle,
			     const struct nttrace_event_instance_guid_header *hdr,
			     uint32_t hdr_size, const struct nttrace_mof_field *mof,
			     uint32_t nmof);

/*
 * The write flags the library passes along with an event (eventprov.c to
 * umlogger.c and the filters): the block's NTTRACE_EVENT_WRITE_FLAG_*, and
 * this one of the library's own, EventWriteString's, which the kernel
 * hears of as the header's NTTRACE_EVENT_HEADER_FLAG_STRING_ONLY (where
 * Windows' caller puts it) and never as a flag of the block.
 */
#define NTTRACE_WFLAG_STRING_ONLY	0x80000000U

/* ---- EnableTraceEx2's filters (provider/evfilter.c) ---- */

#include <pthread.h>

/* One enable's filters, checked; its copies of the caller's data. */
struct nttrace_filters {
	/* EVENT_FILTER_TYPE_EVENT_ID: the IDs sorted, no repeats */
	uint8_t has_ids, ids_in;
	uint16_t nids;
	uint16_t ids[64];		/* MAX_EVENT_FILTER_EVENT_ID_COUNT */
	/* EVENT_FILTER_TYPE_EVENT_NAME: its EVENT_FILTER_EVENT_NAME, copied */
	uint8_t has_names, names_in, names_level;
	uint16_t nnames;
	uint32_t names_end;		/* the end of its last name */
	uint64_t names_any, names_all;
	char *names;
	/* EVENT_FILTER_TYPE_PAYLOAD: TdhAggregatePayloadFilters' blob, copied */
	void *payload;
	uint32_t payload_size;
};

/*
 * EnableTraceEx2's filters of @p (NULL: none) for @provider: checked and
 * copied into *@out (NULL when there are none), or a Win32 error (see
 * evfilter.c). @kernel: for a kernel session, which applies the event-ID
 * filter only (the others: ERROR_NOT_SUPPORTED, once checked).
 */
ULONG nttrace_filters_parse(const ENABLE_TRACE_PARAMETERS *p, const GUID *provider,
			    int kernel, struct nttrace_filters **out);
/* A copy of @f (NULL: NULL, as on failure). */
struct nttrace_filters *nttrace_filters_dup(const struct nttrace_filters *f);
void nttrace_filters_free(struct nttrace_filters *f);
/* Whether @f lets an event of @provider through (the user-mode logger's). */
int nttrace_filters_pass(const struct nttrace_filters *f, const GUID *provider,
			 const struct nttrace_event_descriptor *d,
			 const struct nttrace_event_data_descriptor *data, uint32_t count,
			 uint32_t wflags);
/* Guards struct nttrace_event_reg.priv_filters (see there). */
extern pthread_rwlock_t nttrace_filters_lock;

/*
 * Payload filters (consumer/tdh_filter.c). nttrace_payload_check():
 * whether @blob, @size bytes, is an aggregate TdhAggregatePayloadFilters
 * made for @provider (ERROR_SUCCESS), else ERROR_INVALID_PARAMETER.
 * nttrace_payload_pass(): whether a checked @blob lets the event through:
 * events it names no filter for pass; a TraceLogging event's fields are
 * found with TDH from its metadata (@wflags, @data as EventWrite got
 * them); an event TDH cannot decode, or with a named field it lacks,
 * fails the predicate.
 */
ULONG nttrace_payload_check(const void *blob, uint32_t size, const GUID *provider);
int nttrace_payload_pass(const void *blob, const GUID *provider,
			 const struct nttrace_event_descriptor *d,
			 const struct nttrace_event_data_descriptor *data, uint32_t count,
			 uint32_t wflags);

/* ---- EventRegister's registrations (provider/register.c, eventprov.c) ---- */

#include <sched.h>

#include <nttrace/evntprov.h>

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
			 * not refreshed; issue 27, finding 3): after
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
 * registration entry (seed 004's ETW_REGISTRATION_ENTRY), in a 64-byte
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

struct nttrace_reg_slot {
	uint32_t key;			/* its live handle; 0: free */
	struct nttrace_event_reg *reg;	/* made at the slot's first use, kept */
};
extern struct nttrace_reg_slot nttrace_reg_slots[NTTRACE_MAX_REGISTRATIONS];

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
 * Windows' 0x78-byte block of an event for NtTraceEvent (eventprov.c),
 * which EventWrite* and NTDLL's writes (ntwmi.c) pass the kernel.
 */
void nttrace_event_block(struct nttrace_event_write_user *f, const EVENT_DESCRIPTOR *d,
			 const GUID *activity, const GUID *related, uint32_t wflags,
			 uint64_t filter, uint16_t property, ULONG count,
			 const EVENT_DATA_DESCRIPTOR *data);

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
 * The user-mode logger stopped (umlogger.c, after its stop, no lock
 * held): every private enable ends, and the callbacks hear of it.
 */
void nttrace_private_stop(void);

/*
 * An EventWrite record into the user-mode logger (umlogger.c): the
 * EVENT_HEADER record the kernel writes for NTTRACE_ETW_NT_FLAGS_TRACE_EVENT,
 * with EVENT_HEADER_FLAG_PRIVATE_SESSION and @extra_flags
 * (EVENT_HEADER_FLAG_STRING_ONLY), @related (16 bytes or NULL) as an
 * EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID item, the @count descriptors'
 * bytes as its data. @handle: the private enable's logger handle.
 * Errors: ERROR_INVALID_HANDLE (the logger is not running),
 * ERROR_ARITHMETIC_OVERFLOW (over 0xFFFF bytes), ERROR_MORE_DATA (more
 * than a buffer holds), ERROR_NOT_ENOUGH_MEMORY (no free buffer: counted
 * lost), ERROR_NOACCESS (a descriptor's bytes unreadable), ERROR_BUSY.
 */
ULONG nttrace_um_event_write(TRACEHANDLE handle, const GUID *provider,
			     const struct nttrace_event_descriptor *desc,
			     const uint8_t activity[16], const uint8_t *related,
			     uint32_t write_flags, const struct nttrace_event_data_descriptor *data,
			     uint32_t count);

#endif /* NTTRACE_INTERNAL_H */
