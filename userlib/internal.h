/* SPDX-License-Identifier: LGPL-2.1 */
/* Shared by the library's own files; not installed. */
#ifndef NTTRACE_INTERNAL_H
#define NTTRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <nttrace/evntrace.h>
#include <nttrace/etl.h>

/* memcpy that returns -EFAULT for an unreadable @src (safecopy.c). */
int nttrace_safe_copy(void *dst, const void *src, size_t len);

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

/*
 * EnableTrace with the user-mode logger's handle (controller/enable.c):
 * enable or disable every registration of @guid in this process, with no
 * system call; their callbacks get @handle (provider/register.c). Returns
 * how many there were.
 */
unsigned int nttrace_private_enable(const GUID *guid, int enable,
				    TRACEHANDLE handle);

#endif /* NTTRACE_INTERNAL_H */
