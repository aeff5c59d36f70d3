/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NtTraceEvent's NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG
 * (EtwEventWriteNoRegistration): an event for a provider GUID that no one
 * registered (module/noreg.c).
 */
#ifndef NTTRACE_NOREG_H
#define NTTRACE_NOREG_H

#include "ntevent.h"

/*
 * The handler; @fixed is the 0x78-byte Fields, TraceHandle the GUID's
 * address. A kernel-mode caller (nttrace_etw_write_no_registration(),
 * ZwTraceEvent) must be in process context: finding the GUID's enables
 * takes a mutex (elsewhere: NTTRACE_STATUS_NOT_SUPPORTED).
 */
u32 nt_trace_noreg(const struct nttrace_type *type,
		   const struct nttrace_call *call,
		   const struct nttrace_flags *flags, const void *fixed);

#endif /* NTTRACE_NOREG_H */
