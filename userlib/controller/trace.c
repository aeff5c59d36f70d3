// SPDX-License-Identifier: LGPL-2.1
/*
 * StartTrace and ControlTrace (and Stop/Query/Flush/UpdateTrace), A and W,
 * over EVENT_TRACE_PROPERTIES as Windows lays it out (<nttrace/evntrace.h>).
 *
 * Properties checks, for every function: NULL Properties or (StartTrace)
 * NULL SessionHandle or SessionName: ERROR_INVALID_PARAMETER;
 * Wnode.BufferSize below sizeof(EVENT_TRACE_PROPERTIES): ERROR_BAD_LENGTH;
 * a name offset inside the fixed part or past BufferSize, or a log file
 * name with no NUL before BufferSize: ERROR_INVALID_PARAMETER. Names are
 * char (A) or UTF-16 (W) at their offsets; a W name must be ASCII.
 *
 * Choices where Windows' behaviour is not ours to copy:
 * - The kernel does not keep a session's log file name: QUERY of a kernel
 *   session leaves LogFileNameOffset's string as it is.
 * - LoggerThreadId is the logger process's ID for a session whose file the
 *   library writes (StartTrace), else the user-mode logger's writer thread.
 * - The session ioctls' errors become: -EEXIST ERROR_ALREADY_EXISTS,
 *   -EMFILE and -E2BIG ERROR_NO_SYSTEM_RESOURCES, -ENOENT
 *   ERROR_WMI_INSTANCE_NOT_FOUND, -EPERM ERROR_ACCESS_DENIED, -EINVAL
 *   ERROR_INVALID_PARAMETER; the module not loaded (no /dev/nttrace):
 *   ERROR_SERVICE_NOT_ACTIVE, the tracing service (the module) not
 *   started, so that it is not taken for "no such session". A private
 *   (user-mode) logger needs no module.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/session.h>
#include "controller_internal.h"

#define PATH_CHARS	4096

/* A char or UTF-16 name into @out; -1 if too long or not ASCII (W). */
static int get_name(const void *in, int wide, char *out, size_t room)
{
	size_t i;

	for (i = 0; i < room; i++) {
		uint32_t c = wide ? ((const WCHAR *)in)[i] : ((const uint8_t *)in)[i];

		if (wide && c > 0x7F)
			return -1;
		out[i] = (char)c;
		if (!c)
			return 0;
	}
	return -1;
}

const GUID SystemTraceControlGuid = SYSTEM_TRACE_CONTROL_GUID_INIT;

ULONG nttrace_check_props(PEVENT_TRACE_PROPERTIES p)
{
	ULONG size;

	if (!p)
		return ERROR_INVALID_PARAMETER;
	size = p->Wnode.BufferSize;
	if (size < sizeof(*p))
		return ERROR_BAD_LENGTH;
	if ((p->LoggerNameOffset && (p->LoggerNameOffset < sizeof(*p) ||
				     p->LoggerNameOffset >= size)) ||
	    (p->LogFileNameOffset && (p->LogFileNameOffset < sizeof(*p) ||
				      p->LogFileNameOffset >= size)))
		return ERROR_INVALID_PARAMETER;
	return ERROR_SUCCESS;
}

/* The log file name at LogFileNameOffset, "" when there is none. */
static ULONG get_log_file(PEVENT_TRACE_PROPERTIES p, int wide, char *out)
{
	size_t room = p->Wnode.BufferSize - p->LogFileNameOffset;

	out[0] = 0;
	if (!p->LogFileNameOffset)
		return ERROR_SUCCESS;
	room = wide ? room / sizeof(WCHAR) : room;
	if (room > PATH_CHARS)
		room = PATH_CHARS;
	if (get_name((const char *)p + p->LogFileNameOffset, wide, out, room))
		return ERROR_INVALID_PARAMETER;
	return ERROR_SUCCESS;
}

/* Copy @name to LoggerNameOffset if set; ERROR_MORE_DATA if no room. */
static ULONG put_logger_name(PEVENT_TRACE_PROPERTIES p, const char *name, int wide)
{
	size_t len = strlen(name) + 1, room, i;
	char *at = (char *)p + p->LoggerNameOffset;

	if (!p->LoggerNameOffset)
		return ERROR_SUCCESS;
	room = p->Wnode.BufferSize - p->LoggerNameOffset;
	if (len * (wide ? sizeof(WCHAR) : 1) > room)
		return ERROR_MORE_DATA;
	for (i = 0; i < len; i++) {
		if (wide) {
			WCHAR c = (uint8_t)name[i];

			memcpy(at + i * sizeof(WCHAR), &c, sizeof(c));
		} else {
			at[i] = name[i];
		}
	}
	return ERROR_SUCCESS;
}

static void props_from_info(PEVENT_TRACE_PROPERTIES p,
			    const struct nttrace_logger_info *in)
{
	p->Wnode.HistoricalContext = in->logger_id;
	p->Wnode.ClientContext = in->clock_type;
	p->BufferSize = in->buffer_size_kb;
	p->MinimumBuffers = in->min_buffers;
	p->MaximumBuffers = in->max_buffers;
	p->LogFileMode = in->log_file_mode;
	p->FlushTimer = in->flush_timer;
	/* A system logger's groups; other sessions' EnableFlags mean nothing. */
	if (in->log_file_mode & EVENT_TRACE_SYSTEM_LOGGER_MODE)
		p->EnableFlags = in->group_mask[0];
	p->NumberOfBuffers = in->number_of_buffers;
	p->FreeBuffers = in->free_buffers;
	/* ULONG counters, as Windows has them: they saturate. */
	p->EventsLost = in->events_lost > UINT32_MAX ? UINT32_MAX : in->events_lost;
	p->BuffersWritten = in->buffers_written;
	p->LogBuffersLost = in->log_buffers_lost;
	p->RealTimeBuffersLost = in->real_time_buffers_lost;
}

static void info_from_props(struct nttrace_logger_info *in,
			    const EVENT_TRACE_PROPERTIES *p)
{
	in->buffer_size_kb = p->BufferSize;
	in->min_buffers = p->MinimumBuffers;
	in->max_buffers = p->MaximumBuffers;
	in->log_file_mode = p->LogFileMode;
	in->flush_timer = p->FlushTimer;
	in->clock_type = p->Wnode.ClientContext;
}

/*
 * EnableFlags for a system logger: its first group-mask word. The
 * extension format (EVENT_TRACE_FLAG_EXTENSION, with which xperf passes
 * more groups) is not read: ERROR_NOT_SUPPORTED rather than a wrong mask.
 */
static ULONG enable_flags(uint32_t *mask0, const EVENT_TRACE_PROPERTIES *p)
{
	if (p->EnableFlags & EVENT_TRACE_FLAG_EXTENSION)
		return ERROR_NOT_SUPPORTED;
	*mask0 = p->EnableFlags;
	return ERROR_SUCCESS;
}

/* The NT Kernel Logger is named so; other system loggers say so by mode. */
static int is_system_logger(const char *name, ULONG mode)
{
	return (mode & EVENT_TRACE_SYSTEM_LOGGER_MODE) ||
	       !strcasecmp(name, KERNEL_LOGGER_NAMEA);
}

/*
 * UPDATE's input: the properties, and for a system logger its groups:
 * EnableFlags replaces the first word, the others are kept as they are
 * (asked for first; a session that went meanwhile is not found by the
 * update either).
 */
static ULONG update_info(struct nttrace_logger_info *info, const EVENT_TRACE_PROPERTIES *p)
{
	struct nttrace_logger_info now = *info;
	int ret;

	ret = nttrace_control(&now, EVENT_TRACE_CONTROL_QUERY);
	if (ret)
		return nttrace_errno_to_win32(ret);
	info_from_props(info, p);
	if (now.log_file_mode & EVENT_TRACE_SYSTEM_LOGGER_MODE) {
		memcpy(info->group_mask, now.group_mask, sizeof(info->group_mask));
		return enable_flags(&info->group_mask[0], p);
	}
	return ERROR_SUCCESS;
}

static ULONG start_kernel(PTRACEHANDLE handle, const char *name,
			  PEVENT_TRACE_PROPERTIES p, const char *log_file)
{
	struct nttrace_logger_info info;
	pid_t logger_pid = 0;
	int ret;

	memset(&info, 0, sizeof(info));
	if (nttrace_set_name(&info, name))
		return ERROR_INVALID_PARAMETER;
	info_from_props(&info, p);
	if (is_system_logger(name, p->LogFileMode)) {
		ULONG err = enable_flags(&info.group_mask[0], p);

		if (err)
			return err;
	}
	ret = nttrace_start(&info);
	if (ret)
		return nttrace_errno_to_win32(ret);
	if (*log_file) {
		/* The file is created before it returns: its errors are ours. */
		ret = nttrace_start_file_logger(info.logger_id, log_file, p->MaximumFileSize,
						&logger_pid);
		if (ret) {
			nttrace_control(&info, EVENT_TRACE_CONTROL_STOP);
			return nttrace_errno_to_win32(ret);
		}
	}
	*handle = info.logger_id;
	props_from_info(p, &info);
	p->LoggerThreadId = (HANDLE)(uintptr_t)logger_pid;
	return ERROR_SUCCESS;
}

static ULONG start_trace(PTRACEHANDLE handle, const char *name,
			 PEVENT_TRACE_PROPERTIES p, int wide)
{
	char log_file[PATH_CHARS];
	ULONG err;

	if (!handle || !name)
		return ERROR_INVALID_PARAMETER;
	err = nttrace_check_props(p);
	if (!err)
		err = get_log_file(p, wide, log_file);
	if (err)
		return err;
	if (!*name || strlen(name) >= NTTRACE_NAME_MAX)
		return ERROR_INVALID_PARAMETER;
	if (p->LogFileMode & (EVENT_TRACE_PRIVATE_LOGGER_MODE |
			      EVENT_TRACE_PRIVATE_IN_PROC))
		err = nttrace_um_start(handle, name, p, log_file);
	else
		err = start_kernel(handle, name, p, log_file);
	if (!err)
		err = put_logger_name(p, name, wide);
	return err;
}

ULONG nttrace_query_kernel(uint32_t id, PEVENT_TRACE_PROPERTIES p, int wide)
{
	struct nttrace_logger_info info;
	int ret;

	memset(&info, 0, sizeof(info));
	info.logger_id = id;
	ret = nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY);
	if (ret)
		return nttrace_errno_to_win32(ret);
	props_from_info(p, &info);
	return put_logger_name(p, (const char *)info.name, wide);
}

static ULONG control_trace(TRACEHANDLE handle, const char *name,
			   PEVENT_TRACE_PROPERTIES p, ULONG code, int wide)
{
	struct nttrace_logger_info info;
	char um_name[NTTRACE_NAME_MAX] = "";
	int ret, mine;
	ULONG err;

	err = nttrace_check_props(p);
	if (err)
		return err;
	if (code > EVENT_TRACE_CONTROL_FLUSH)
		return ERROR_INVALID_PARAMETER;
	if (!handle && (!name || !*name))
		return ERROR_INVALID_PARAMETER;
	err = nttrace_um_control(handle, name, p, code, &mine, um_name);
	/*
	 * The user-mode logger's private enables end with it: their
	 * callbacks run here, with no lock of the logger held, so that they
	 * may trace.
	 */
	if (mine && code == EVENT_TRACE_CONTROL_STOP && err == ERROR_SUCCESS)
		nttrace_private_stop();
	if (mine) {
		if (!err)
			err = put_logger_name(p, um_name, wide);
		return err;
	}

	memset(&info, 0, sizeof(info));
	if (handle) {
		/* 0xFFFF is the NT Kernel Logger's (KERNEL_LOGGER_ID). */
		if ((handle & 0xFFFF) == 0 || handle > 0xFFFF)
			return ERROR_INVALID_HANDLE;
		info.logger_id = handle;
	} else if (nttrace_set_name(&info, name)) {
		return ERROR_WMI_INSTANCE_NOT_FOUND;
	}
	if (code == EVENT_TRACE_CONTROL_UPDATE) {
		err = update_info(&info, p);
		if (err)
			return err;
	}
	if (code == EVENT_TRACE_CONTROL_STOP)
		info.control_flags = NTTRACE_CONTROL_WAIT_CONSUMER;
	ret = nttrace_control(&info, code);
	if (ret)
		return nttrace_errno_to_win32(ret);
	props_from_info(p, &info);
	return put_logger_name(p, (const char *)info.name, wide);
}

/* UTF-16 SessionName to char; NULL stays NULL, non-ASCII becomes "". */
static const char *narrow(LPCWSTR in, char *out)
{
	if (!in)
		return NULL;
	if (get_name(in, 1, out, NTTRACE_NAME_MAX))
		out[0] = 0;
	return out;
}

static ULONG done(ULONG err)
{
	SetLastError(err);
	return err;
}

ULONG StartTraceA(PTRACEHANDLE SessionHandle, LPCSTR SessionName,
		  PEVENT_TRACE_PROPERTIES Properties)
{
	return done(start_trace(SessionHandle, SessionName, Properties, 0));
}

ULONG StartTraceW(PTRACEHANDLE SessionHandle, LPCWSTR SessionName,
		  PEVENT_TRACE_PROPERTIES Properties)
{
	char name[NTTRACE_NAME_MAX];

	return done(start_trace(SessionHandle, narrow(SessionName, name),
				Properties, 1));
}

ULONG ControlTraceA(TRACEHANDLE SessionHandle, LPCSTR SessionName,
		    PEVENT_TRACE_PROPERTIES Properties, ULONG ControlCode)
{
	return done(control_trace(SessionHandle, SessionName, Properties,
				  ControlCode, 0));
}

ULONG ControlTraceW(TRACEHANDLE SessionHandle, LPCWSTR SessionName,
		    PEVENT_TRACE_PROPERTIES Properties, ULONG ControlCode)
{
	char name[NTTRACE_NAME_MAX];

	return done(control_trace(SessionHandle, narrow(SessionName, name),
				  Properties, ControlCode, 1));
}

#define CONTROL_PAIR(fn, code)						\
ULONG fn##A(TRACEHANDLE SessionHandle, LPCSTR SessionName,		\
	    PEVENT_TRACE_PROPERTIES Properties)				\
{									\
	return ControlTraceA(SessionHandle, SessionName, Properties, code); \
}									\
ULONG fn##W(TRACEHANDLE SessionHandle, LPCWSTR SessionName,		\
	    PEVENT_TRACE_PROPERTIES Properties)				\
{									\
	return ControlTraceW(SessionHandle, SessionName, Properties, code); \
}

CONTROL_PAIR(StopTrace, EVENT_TRACE_CONTROL_STOP)
CONTROL_PAIR(QueryTrace, EVENT_TRACE_CONTROL_QUERY)
CONTROL_PAIR(FlushTrace, EVENT_TRACE_CONTROL_FLUSH)
CONTROL_PAIR(UpdateTrace, EVENT_TRACE_CONTROL_UPDATE)
