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

/* One TraceMessage call, its va_list read into a NULL-ended pair list. */
struct nttrace_msg {
	uint32_t flags;		/* MessageFlags & TRACE_MESSAGE_FLAG_MASK */
	uint16_t number;
	uint8_t guid[16];	/* GUID, or component ID in the first 4 */
	uint32_t nargs;
	uint32_t data_size;	/* the arguments' bytes */
	uintptr_t list[2 * NTTRACE_MESSAGE_MAX_ARGS + 1];
};

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
 * The logger process that writes a kernel session's buffers to a file
 * (filelogger.c): it takes over @lf, open and with its header written
 * (the caller closes its copy of the descriptor); 0 or -errno, and its
 * process ID in *@pid.
 */
int nttrace_start_file_logger(uint32_t logger_id, struct nttrace_logfile *lf,
			      pid_t *pid);

/*
 * What a TRACE_GUID_REGISTRATION's RegHandle points to: one class GUID of a
 * RegisterTraceGuids registration (provider/register.c makes them and
 * keeps them until UnregisterTraceGuids; provider/event.c reads them for
 * TraceEventInstance and CreateTraceInstanceId).
 */
#define NTTRACE_GUID_REG_MAGIC	0x47726567U	/* "gerG": registered */
struct nttrace_guid_reg {
	uint32_t magic;		/* NTTRACE_GUID_REG_MAGIC while registered */
	uint32_t next_instance;	/* CreateTraceInstanceId's counter (atomic) */
	GUID guid;		/* the class GUID */
	void *owner;		/* the registration (provider/register.c) */
};

/*
 * One TraceEvent or TraceEventInstance call, checked by provider/event.c,
 * for the user-mode logger (umlogger.c): @hdr is the header as NtTraceEvent
 * would take it (its first @hdr_size bytes: EVENT_TRACE_HEADER_SIZE, or
 * EVENT_INSTANCE_GUID_HEADER_SIZE with the instance fields filled in), its
 * guid already read from GuidPtr, its flags saying whether to keep its
 * time stamp (WNODE_FLAG_USE_TIMESTAMP); the data are the @nmof items of
 * @mof (inline data as one item), read while they are written. Returns a
 * Win32 error, the same as the kernel's NTSTATUS would map to.
 */
ULONG nttrace_um_trace_event(TRACEHANDLE handle,
			     const struct event_instance_guid_header *hdr,
			     uint32_t hdr_size, const struct mof_field *mof,
			     uint32_t nmof);

/* ---- EventRegister's registrations (provider/register.c, eventprov.c) ---- */

#include <nttrace/evntprov.h>

/*
 * A struct nttrace_enable_info read under its sequence count (uapi: the
 * writer's first write barrier pairs with our final acquire fence, its
 * second with our load-acquire of the sequence). The same protocol serves
 * the library's own copy of a private enable (register.c writes it).
 */
static inline void nttrace_read_enable_info(const struct nttrace_enable_info *src,
					    struct nttrace_enable_info *out)
{
	uint32_t s;

	for (;;) {
		s = __atomic_load_n(&src->sequence, __ATOMIC_ACQUIRE);
		if (s & 1)
			continue;
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
 * What EventRegister's REGHANDLE stands for: the first part of
 * register.c's registration entry (seed 004's ETW_REGISTRATION_ENTRY),
 * in a 64-byte aligned block so that @info never crosses a page.
 * @info is written by the kernel; @priv by register.c (under its lock,
 * with @priv.sequence as the uapi's sequence count): the process's
 * user-mode logger's enable (@sessions 1, @logger_handle the handle its
 * records go to, level and keywords; @loggers 0).
 * The REGHANDLE is the entry's address with @gen in bits 48-63: entries
 * of EventRegister are never freed, only reused, and @gen changes at
 * each EventUnregister, so that a stale handle reads a disabled provider
 * or is refused, never freed memory.
 */
#define NTTRACE_EVENT_REG_MAGIC		0x76457645U	/* "EvEv" */
#define NTTRACE_REGHANDLE_GEN_SHIFT	48
#define NTTRACE_REGHANDLE_PTR_MASK	((1ULL << NTTRACE_REGHANDLE_GEN_SHIFT) - 1)

struct nttrace_event_reg {
	struct nttrace_enable_info info;
	struct nttrace_enable_info priv;
	uint32_t magic;		/* NTTRACE_EVENT_REG_MAGIC while registered */
	uint32_t gen;		/* the REGHANDLE's bits 48-63 */
	uint64_t kernel_handle;	/* NtTraceEvent's TraceHandle; 0: no module */
	GUID guid;		/* the provider's */
};

static inline struct nttrace_event_reg *nttrace_event_reg_of(uint64_t reghandle)
{
	return (struct nttrace_event_reg *)(uintptr_t)(reghandle &
						      NTTRACE_REGHANDLE_PTR_MASK);
}

/* Whether @reghandle is @r's current handle (and @r registered). */
static inline int nttrace_event_reg_live(const struct nttrace_event_reg *r,
					 uint64_t reghandle)
{
	return __atomic_load_n(&r->magic, __ATOMIC_RELAXED) == NTTRACE_EVENT_REG_MAGIC &&
	       (__atomic_load_n(&r->gen, __ATOMIC_RELAXED) & 0xFFFF) ==
	       (reghandle >> NTTRACE_REGHANDLE_GEN_SHIFT);
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
 * TRACE_ENABLE_INTERNAL_PRIVATE. Returns how many registrations it
 * concerned (DISABLE, CAPTURE_STATE: those the logger enabled).
 */
unsigned int nttrace_private_enable_ex(const GUID *guid, uint32_t control,
				       TRACEHANDLE handle, uint8_t level, uint64_t any,
				       uint64_t all, const GUID *source);

/*
 * The user-mode logger stopped (umlogger.c, after its stop, no lock
 * held): every private enable ends, and the callbacks hear of it.
 */
void nttrace_private_stop(void);

/*
 * An EventWrite record into the user-mode logger (umlogger.c): the
 * EVENT_HEADER record the kernel writes for ETW_NT_FLAGS_TRACE_EVENT,
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
			     const struct event_descriptor *desc,
			     const uint8_t activity[16], const uint8_t *related,
			     uint16_t extra_flags, const struct event_data_descriptor *data,
			     uint32_t count);

#endif /* NTTRACE_INTERNAL_H */
