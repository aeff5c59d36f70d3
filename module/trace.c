// SPDX-License-Identifier: GPL-2.0
/*
 * The one place nttrace's tracepoints (module/trace.h) are defined; the
 * write path, the sessions and the rings call them.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
