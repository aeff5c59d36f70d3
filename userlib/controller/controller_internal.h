/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What StartTrace, ControlTrace and QueryAllTraces share (trace.c,
 * queryall.c). Not installed.
 */
#ifndef NTTRACE_CONTROLLER_INTERNAL_H
#define NTTRACE_CONTROLLER_INTERNAL_H

#include <stdint.h>

#include <nttrace/evntrace.h>

#include "../provider/provider_internal.h"

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

#endif /* NTTRACE_CONTROLLER_INTERNAL_H */
