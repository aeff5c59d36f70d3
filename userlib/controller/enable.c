// SPDX-License-Identifier: LGPL-2.1
/*
 * EnableTrace: a controller enables or disables a provider GUID for a
 * session (NTTRACE_IOC_ENABLE), or, with the process's user-mode logger
 * handle, this process's own registrations of it (no system call; seed
 * 004's private registrations, provider/register.c).
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

#include <nttrace/evntrace.h>
#include <nttrace/nt.h>
#include <nttrace/session.h>

#include "../internal.h"

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

/* The user-mode logger of this process: its handle must be the running one. */
static ULONG enable_private(ULONG Enable, ULONG EnableFlag, ULONG EnableLevel,
			    LPCGUID ControlGuid, TRACEHANDLE SessionHandle)
{
	EVENT_TRACE_PROPERTIES props;
	char name[NTTRACE_NAME_MAX];
	ULONG err;
	int mine = 0;

	memset(&props, 0, sizeof(props));
	props.Wnode.BufferSize = sizeof(props);
	err = nttrace_um_control(SessionHandle, NULL, &props,
				 EVENT_TRACE_CONTROL_QUERY, &mine, name);
	if (!mine || err == ERROR_INVALID_HANDLE)
		return set_error(ERROR_INVALID_HANDLE);
	if (err)
		return set_error(err);
	/*
	 * The callbacks' handle: the logger's handle (its bit 24 is
	 * TRACE_ENABLE_INTERNAL_PRIVATE in TRACE_ENABLE_CONTEXT terms) with
	 * the level and flags in their TRACE_ENABLE_CONTEXT places.
	 */
	SessionHandle = NTTRACE_HANDLE(SessionHandle & 0xFFFF, EnableLevel,
				       TRACE_ENABLE_INTERNAL_PRIVATE, EnableFlag);
	if (!nttrace_private_enable(ControlGuid, Enable != 0, SessionHandle) &&
	    !Enable)
		return set_error(ERROR_WMI_GUID_NOT_FOUND);
	return set_error(ERROR_SUCCESS);
}

ULONG WMIAPI EnableTrace(ULONG Enable, ULONG EnableFlag, ULONG EnableLevel,
			 LPCGUID ControlGuid, TRACEHANDLE SessionHandle)
{
	struct nttrace_enable e;
	int fd, err;

	if (!ControlGuid || !SessionHandle || EnableLevel > 0xFF)
		return set_error(ERROR_INVALID_PARAMETER);
	if (SessionHandle & TRACE_USER_MODE_LOGGER_BIT)
		return enable_private(Enable, EnableFlag, EnableLevel, ControlGuid,
				      SessionHandle);
	/* A kernel session's handle is its 16-bit logger ID, nothing more. */
	if (SessionHandle > 0xFFFF || SessionHandle == 0xFFFF)
		return set_error(ERROR_INVALID_HANDLE);

	fd = nttrace_device_fd();
	if (fd < 0)
		return set_error(nttrace_errno_to_win32(fd));
	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.logger_id = (uint32_t)SessionHandle;
	memcpy(e.guid, ControlGuid, 16);
	e.control = Enable ? EVENT_CONTROL_CODE_ENABLE_PROVIDER :
			     EVENT_CONTROL_CODE_DISABLE_PROVIDER;
	e.level = EnableLevel;
	e.enable_flags = EnableFlag;
	e.match_any_keyword = EnableFlag;
	if (ioctl(fd, NTTRACE_IOC_ENABLE, &e) == 0)
		return set_error(ERROR_SUCCESS);
	err = -errno;
	switch (err) {
	case -ENOENT:
		/* No such session, or (disabling) no such enable in it. */
		if (!Enable && session_running(e.logger_id))
			return set_error(ERROR_WMI_GUID_NOT_FOUND);
		return set_error(ERROR_INVALID_HANDLE);
	case -ENOSPC:
		return set_error(ERROR_NO_SYSTEM_RESOURCES);
	default:
		return set_error(nttrace_errno_to_win32(err));
	}
}
