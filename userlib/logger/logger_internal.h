/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The library's loggers: the user-mode logger (umlogger.c), which the
 * provider writes to and the controller starts and controls, and the
 * logger process of a kernel session with a log file (filelogger.c).
 * Not installed.
 */
#ifndef NTTRACE_LOGGER_INTERNAL_H
#define NTTRACE_LOGGER_INTERNAL_H

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

#include <nttrace/evntrace.h>

#include "../etl/etl_internal.h"

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
 * @name_out (NTTRACE_NAME_MAX bytes). After a STOP the caller ends the
 * provider's private enables (nttrace_private_stop()).
 */
ULONG nttrace_um_control(TRACEHANDLE handle, const char *name,
			 PEVENT_TRACE_PROPERTIES props, ULONG code, int *mine,
			 char *name_out);

/*
 * The logger process that writes a kernel session's buffers to the file
 * @path (filelogger.c: the nttrace tool), at most @max_mb MB (0: no
 * limit): 0 once it has attached and created the file, its process ID in
 * *@pid; or -errno (-ENOTDIR: the file's directory is missing).
 */
int nttrace_start_file_logger(uint32_t logger_id, const char *path, uint32_t max_mb,
			      pid_t *pid);

/*
 * The logger process's half, which the nttrace tool runs (`nttrace record
 * --report-fd FD`, tools/record.c): a program of its own, the tool calls
 * it here rather than the library calling the tool's code.
 *
 * nttrace_file_logger_detach() detaches the logger from the process that
 * started it (the child it spawned exits, the logger goes on in the
 * session posix_spawn made), holding nothing of it but standard
 * descriptors on /dev/null and @fd, which gets the result of attaching
 * and creating the file (<nttrace/session.h>): 0 in the logger, or -errno.
 */
static inline int nttrace_file_logger_detach(int fd)
{
	pid_t pid;
	int i;

	if (close_range((unsigned int)fd + 1, ~0U, 0))
		for (i = fd + 1; i < 65536; i++)
			close(i);
	for (i = 3; i < fd; i++)
		close(i);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0)
		_exit(0);
	/* A log file that is a pipe with no reader: EPIPE, counted lost. */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

/*
 * The report nttrace_start_file_logger() reads on @fd (none if @fd < 0):
 * @err (0 or -errno), the logger's process ID, and @step, which step
 * failed (NTTRACE_LOGGER_FAILED_*; 0 with no error). Closes @fd.
 */
static inline void nttrace_file_logger_report(int fd, int err, int step)
{
	int32_t msg[3] = { err, getpid(), err ? step : 0 };

	if (fd < 0)
		return;
	if (write(fd, msg, sizeof(msg)) != sizeof(msg)) {
		/* The library gave up on us: record all the same. */
	}
	close(fd);
}

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

#endif /* NTTRACE_LOGGER_INTERNAL_H */
