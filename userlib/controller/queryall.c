// SPDX-License-Identifier: LGPL-2.1
/*
 * QueryAllTracesA and QueryAllTracesW: ControlTrace's QUERY (trace.c) of
 * each session NTTRACE_IOC_LIST_TRACES lists. Both ioctls are open to
 * anyone who can open /dev/nttrace (module/policy.c), so every caller sees
 * every kernel session, as an administrator does on Windows.
 *
 * From Microsoft's QueryAllTraces documentation: PropertyArrayCount 0 or
 * above the sessions ETW supports (64 here, MAXIMUM_LOGGERS) and a NULL
 * PropertyArray are ERROR_INVALID_PARAMETER; more sessions than
 * PropertyArrayCount, ERROR_MORE_DATA with the array filled; private
 * (user-mode) sessions are not returned.
 *
 * Choices where it is silent:
 * - Every element of the array is checked (ControlTrace's checks and
 *   errors) before any is written, so that a bad one leaves all as they
 *   were; a NULL LoggerCount is ERROR_INVALID_PARAMETER.
 * - *LoggerCount with ERROR_MORE_DATA counts every session, so that the
 *   caller knows how many elements to give next time (the documentation's
 *   "SessionCount is greater than PropertyArrayCount").
 * - A session that stops between the list and its query is left out.
 * - A name that does not fit at its LoggerNameOffset: ERROR_MORE_DATA, as
 *   ControlTrace gives, after the other sessions are written.
 */
#include <nttrace/session.h>

#include "controller_internal.h"

_Static_assert(MAXIMUM_LOGGERS == NTTRACE_MAX_LOGGERS, "evntrace.h's MAXIMUM_LOGGERS");

static ULONG query_all(PEVENT_TRACE_PROPERTIES *array, ULONG room, PULONG logger_count,
		       int wide)
{
	uint32_t ids[NTTRACE_MAX_LOGGERS], n = 0, i, written = 0;
	ULONG err = ERROR_SUCCESS, e;
	int ret;

	if (!array || !logger_count || !room || room > NTTRACE_MAX_LOGGERS)
		return ERROR_INVALID_PARAMETER;
	for (i = 0; i < room; i++) {
		e = nttrace_check_props(array[i]);
		if (e)
			return e;
	}
	ret = nttrace_list(ids, NTTRACE_MAX_LOGGERS, &n);
	if (ret)
		return nttrace_errno_to_win32(ret);
	if (n > NTTRACE_MAX_LOGGERS)	/* started since: the list has what fitted */
		n = NTTRACE_MAX_LOGGERS;
	for (i = 0; i < n && written < room; i++) {
		e = nttrace_query_kernel(ids[i], array[written], wide);
		if (e == ERROR_WMI_INSTANCE_NOT_FOUND)
			continue;
		if (e && e != ERROR_MORE_DATA)
			return e;
		if (e)
			err = e;
		written++;
	}
	/* Those not queried are counted as they were listed. */
	*logger_count = written + (n - i);
	return i < n ? ERROR_MORE_DATA : err;
}

static ULONG done(ULONG err)
{
	SetLastError(err);
	return err;
}

ULONG WMIAPI QueryAllTracesA(PEVENT_TRACE_PROPERTIES *PropertyArray, ULONG PropertyArrayCount,
			     PULONG LoggerCount)
{
	return done(query_all(PropertyArray, PropertyArrayCount, LoggerCount, 0));
}

ULONG WMIAPI QueryAllTracesW(PEVENT_TRACE_PROPERTIES *PropertyArray, ULONG PropertyArrayCount,
			     PULONG LoggerCount)
{
	return done(query_all(PropertyArray, PropertyArrayCount, LoggerCount, 1));
}
