// SPDX-License-Identifier: LGPL-2.1
/*
 * EnableTrace, EnableTraceEx, EnableTraceEx2: a controller enables or
 * disables (EnableTraceEx2: or asks the state of) a provider GUID for a
 * session (NTTRACE_IOC_ENABLE), or, with the process's user-mode logger
 * handle, this process's own registrations of it (no system call;
 * NTDLL's private registrations, provider/register.c).
 *
 * Choices where Microsoft's documentation is silent or no longer applies:
 * - EnableFlag is also the enable's MatchAnyKeyword (as Windows passes it
 *   to EventRegister providers), MatchAllKeyword 0.
 * - Enabling a provider that has not registered succeeds (the enable
 *   waits for it), as on Windows since XP SP2 / 2003; the old
 *   ERROR_WMI_GUID_NOT_FOUND for it is not returned.
 * - Disabling a provider the session does not enable: ERROR_WMI_GUID_NOT_FOUND.
 * - The enable belongs to the session, not to the calling process: it
 *   outlives the controller, as logman's does on Windows, and ends with a
 *   disable or when the session stops.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include <nttrace/evntprov.h>

#include <nttrace/evntrace.h>
#include <nttrace/nt.h>
#include <nttrace/session.h>

#include "controller_internal.h"

static ULONG set_error(ULONG error)
{
	SetLastError(error);
	return error;
}

/* Whether @id is a running kernel session (after ENABLE said -ENOENT). */
static int session_running(uint32_t id)
{
	struct nttrace_logger_info info;

	memset(&info, 0, sizeof(info));
	info.logger_id = id;
	return nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY) == 0;
}

/*
 * The user-mode logger's enable (no system call), for EnableTrace and
 * EnableTraceEx2: its handle must be the running logger's.
 */
static ULONG enable_private_ex(TRACEHANDLE SessionHandle, LPCGUID guid, ULONG control,
			       UCHAR level, ULONGLONG any, ULONGLONG all, const GUID *source,
			       const struct nttrace_filters *filters)
{
	EVENT_TRACE_PROPERTIES props;
	char name[NTTRACE_NAME_MAX];
	ULONG err;
	int mine = 0;

	memset(&props, 0, sizeof(props));
	props.Wnode.BufferSize = sizeof(props);
	err = nttrace_um_control(SessionHandle, NULL, &props, EVENT_TRACE_CONTROL_QUERY,
				 &mine, name);
	if (!mine || err == ERROR_INVALID_HANDLE)
		return set_error(ERROR_INVALID_HANDLE);
	if (err)
		return set_error(err);
	/*
	 * The callbacks' handle: the logger's handle (its bit 24 is
	 * NTTRACE_TRACE_ENABLE_INTERNAL_PRIVATE in TRACE_ENABLE_CONTEXT terms) with
	 * the level and flags in their TRACE_ENABLE_CONTEXT places.
	 */
	SessionHandle = NTTRACE_HANDLE(SessionHandle & 0xFFFF, level,
				       NTTRACE_TRACE_ENABLE_INTERNAL_PRIVATE, (uint32_t)any);
	if (!nttrace_private_enable_ex(guid, control, SessionHandle, level, any, all, source,
				       filters) &&
	    control != EVENT_CONTROL_CODE_ENABLE_PROVIDER)
		return set_error(ERROR_WMI_GUID_NOT_FOUND);
	return set_error(ERROR_SUCCESS);
}

/*
 * One NTTRACE_IOC_ENABLE (EnableTrace and EnableTraceEx2 share it), with
 * its errors as Win32 errors: no such session, ERROR_INVALID_HANDLE; a
 * DISABLE or CAPTURE_STATE of a provider the session does not enable,
 * ERROR_WMI_GUID_NOT_FOUND; the session's enables full,
 * ERROR_NO_SYSTEM_RESOURCES.
 */
static ULONG enable_kernel(TRACEHANDLE SessionHandle, LPCGUID guid, uint32_t control,
			   uint32_t level, uint32_t flags, uint64_t any, uint64_t all,
			   uint32_t property, const struct nttrace_filters *filters,
			   uint32_t timeout)
{
	struct nttrace_enable e;
	int fd, err;

	/* A kernel session's handle is its 16-bit logger ID, nothing more. */
	if (SessionHandle > 0xFFFF || SessionHandle == 0xFFFF)
		return set_error(ERROR_INVALID_HANDLE);
	fd = nttrace_device_fd();
	if (fd < 0)
		return set_error(nttrace_errno_to_win32(fd));
	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.logger_id = (uint32_t)SessionHandle;
	memcpy(e.guid, guid, 16);
	e.control = control;
	e.level = level;
	e.enable_flags = flags;
	e.match_any_keyword = any;
	e.match_all_keyword = all;
	/* The one property the kernel keeps; a disable has none. */
	if (control == EVENT_CONTROL_CODE_ENABLE_PROVIDER)
		e.enable_property = property & EVENT_ENABLE_PROPERTY_STACK_TRACE;
	/* The kernel applies the event-ID filter of an ENABLE (the others were refused). */
	if (filters && filters->has_ids && control == EVENT_CONTROL_CODE_ENABLE_PROVIDER) {
		e.filter_flags = NTTRACE_ENABLE_FILTER_EVENT_ID |
				 (filters->ids_in ? NTTRACE_ENABLE_FILTER_EVENT_ID_IN : 0);
		e.event_id_count = filters->nids;
		e.event_ids = (uintptr_t)filters->ids;
	}
	/* A module from before the wait returns at once, as this library did. */
	if (timeout && (nttrace_module_features() & NTTRACE_FEAT_ENABLE_TIMEOUT))
		e.timeout_ms = timeout;
	if (ioctl(fd, NTTRACE_IOC_ENABLE, &e) == 0)
		return set_error(ERROR_SUCCESS);
	err = -errno;
	switch (err) {
	case -E2BIG:
		/* A module older than the filter or property members. */
		return set_error(e.filter_flags || e.enable_property ? ERROR_NOT_SUPPORTED :
				 nttrace_errno_to_win32(err));
	case -ENOENT:
		/* No such session, or (disabling) no such enable in it. */
		if (control != EVENT_CONTROL_CODE_ENABLE_PROVIDER &&
		    session_running(e.logger_id))
			return set_error(ERROR_WMI_GUID_NOT_FOUND);
		return set_error(ERROR_INVALID_HANDLE);
	case -ENOSPC:
		return set_error(ERROR_NO_SYSTEM_RESOURCES);
	case -ETIMEDOUT:
		/* Done, but a callback had not returned by then. */
		return set_error(ERROR_TIMEOUT);
	default:
		return set_error(nttrace_errno_to_win32(err));
	}
}

ULONG WMIAPI EnableTrace(ULONG Enable, ULONG EnableFlag, ULONG EnableLevel,
			 LPCGUID ControlGuid, TRACEHANDLE SessionHandle)
{
	if (!ControlGuid || !SessionHandle || EnableLevel > 0xFF)
		return set_error(ERROR_INVALID_PARAMETER);
	if (SessionHandle & TRACE_USER_MODE_LOGGER_BIT)
		return enable_private_ex(SessionHandle, ControlGuid,
					 Enable ? EVENT_CONTROL_CODE_ENABLE_PROVIDER :
						  EVENT_CONTROL_CODE_DISABLE_PROVIDER,
					 EnableLevel, EnableFlag, 0, NULL, NULL);
	return enable_kernel(SessionHandle, ControlGuid,
			     Enable ? EVENT_CONTROL_CODE_ENABLE_PROVIDER :
				      EVENT_CONTROL_CODE_DISABLE_PROVIDER,
			     EnableLevel, EnableFlag, EnableFlag, 0, 0, NULL, 0);
}

/*
 * EnableTraceEx2 and EnableTraceEx. Choices where Microsoft is silent:
 * - The enable flags a classic provider sees are MatchAnyKeyword's low 32
 *   bits (as Windows passes them to classic providers).
 * - Timeout: 0 returns once the providers are notified; else the call
 *   waits up to Timeout milliseconds (INFINITE: as long as it takes) for
 *   their callbacks, which run on each provider process's notification
 *   thread, to return (NTTRACE_IOC_ENABLE's @timeout_ms), and
 *   ERROR_TIMEOUT says one had not, the change made all the same. The
 *   in-process logger's callbacks have run when it returns.
 * - ENABLE_TRACE_PARAMETERS: Version 1 or 2 (else ERROR_INVALID_PARAMETER);
 *   ControlFlags is reserved (non-zero: ERROR_INVALID_PARAMETER);
 *   EnableProperty may hold ENABLE_KEYWORD_0 (keyword-0 events are
 *   always delivered here) and, for a kernel session, STACK_TRACE (the
 *   kernel adds the writer's stack to each EventWrite record the session
 *   gets: NTTRACE_ENABLE_PROPERTY_STACK_TRACE); the user-mode logger
 *   takes no stacks, and every other property (SID, TS_ID,
 *   IGNORE_KEYWORD_0, PROVIDER_GROUP, ...) asks for an extended item or
 *   filtering the kernel does not do: ERROR_NOT_SUPPORTED.
 * - Filters (EnableFilterDesc, FilterDescCount; checked and applied as
 *   filter/evfilter.c says): EVENT_FILTER_TYPE_EVENT_ID for every
 *   session (a kernel session's by the kernel, NTTRACE_IOC_ENABLE; the
 *   user-mode logger's by the library); EVENT_FILTER_TYPE_EVENT_NAME and
 *   EVENT_FILTER_TYPE_PAYLOAD for the user-mode logger only: a kernel
 *   session's would need the kernel to parse TraceLogging metadata, and
 *   for payloads to decode fields, from the caller's memory on every
 *   write (it copies the metadata as given and reads no schema), so they
 *   are ERROR_NOT_SUPPORTED there, once checked (a malformed one is
 *   ERROR_INVALID_PARAMETER first); any other filter type,
 *   ERROR_NOT_SUPPORTED. A filter's memory unreadable: ERROR_NOACCESS.
 *   SourceId reaches
 *   the callbacks of the user-mode logger's enables; a kernel enable does
 *   not carry it (the uapi has no room), so those callbacks get GUID_NULL.
 * - DISABLE_PROVIDER and CAPTURE_STATE of a provider the session does not
 *   enable: ERROR_WMI_GUID_NOT_FOUND, as EnableTrace.
 */
static ULONG check_params(const ENABLE_TRACE_PARAMETERS *p)
{
	if (!p)
		return ERROR_SUCCESS;
	if (p->Version != ENABLE_TRACE_PARAMETERS_VERSION &&
	    p->Version != ENABLE_TRACE_PARAMETERS_VERSION_2)
		return ERROR_INVALID_PARAMETER;
	if (p->ControlFlags)
		return ERROR_INVALID_PARAMETER;
	if (p->EnableProperty & ~(ULONG)(EVENT_ENABLE_PROPERTY_ENABLE_KEYWORD_0 |
					 EVENT_ENABLE_PROPERTY_STACK_TRACE))
		return ERROR_NOT_SUPPORTED;
	return ERROR_SUCCESS;
}

ULONG WMIAPI EnableTraceEx2(TRACEHANDLE TraceHandle, LPCGUID ProviderId, ULONG ControlCode,
			    UCHAR Level, ULONGLONG MatchAnyKeyword,
			    ULONGLONG MatchAllKeyword, ULONG Timeout,
			    PENABLE_TRACE_PARAMETERS EnableParameters)
{
	struct nttrace_filters *filters;
	int private;
	ULONG err;

	if (!ProviderId || !TraceHandle || ControlCode > EVENT_CONTROL_CODE_CAPTURE_STATE)
		return set_error(ERROR_INVALID_PARAMETER);
	err = check_params(EnableParameters);
	if (err)
		return set_error(err);
	private = !!(TraceHandle & TRACE_USER_MODE_LOGGER_BIT);
	if (private && EnableParameters &&
	    (EnableParameters->EnableProperty & EVENT_ENABLE_PROPERTY_STACK_TRACE))
		return set_error(ERROR_NOT_SUPPORTED);
	err = nttrace_filters_parse(EnableParameters, ProviderId, !private, &filters);
	if (err)
		return set_error(err);
	if (private)
		err = enable_private_ex(TraceHandle, ProviderId, ControlCode, Level,
					MatchAnyKeyword, MatchAllKeyword,
					EnableParameters ? &EnableParameters->SourceId : NULL,
					ControlCode == EVENT_CONTROL_CODE_ENABLE_PROVIDER ?
					filters : NULL);
	else
		err = enable_kernel(TraceHandle, ProviderId, ControlCode, Level,
				    (uint32_t)MatchAnyKeyword, MatchAnyKeyword, MatchAllKeyword,
				    EnableParameters ? EnableParameters->EnableProperty : 0, filters,
				    Timeout);
	nttrace_filters_free(filters);
	return err;
}

ULONG WMIAPI EnableTraceEx(LPCGUID ProviderId, LPCGUID SourceId, TRACEHANDLE TraceHandle,
			   ULONG IsEnabled, UCHAR Level, ULONGLONG MatchAnyKeyword,
			   ULONGLONG MatchAllKeyword, ULONG EnableProperty,
			   PEVENT_FILTER_DESCRIPTOR EnableFilterDesc)
{
	ENABLE_TRACE_PARAMETERS p;

	memset(&p, 0, sizeof(p));
	p.Version = ENABLE_TRACE_PARAMETERS_VERSION_2;
	p.EnableProperty = EnableProperty;
	if (SourceId)
		p.SourceId = *SourceId;
	p.EnableFilterDesc = EnableFilterDesc;
	p.FilterDescCount = EnableFilterDesc ? 1 : 0;
	return EnableTraceEx2(TraceHandle, ProviderId, IsEnabled, Level, MatchAnyKeyword,
			      MatchAllKeyword, 0, &p);
}
