/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NtTraceEvent's NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG
 * (EtwEventWriteNoRegistration): an event for a provider GUID that no one
 * registered (module/noreg.c).
 */
#ifndef NTTRACE_NOREG_H
#define NTTRACE_NOREG_H

#include "ntevent.h"

/**
 * nt_trace_noreg() - the handler of NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG
 * @type: the type's entry in the front door's table (module/ntevent.c)
 * @call: the NtTraceEvent call
 * @flags: its Flags, decoded
 * @fixed: the 0x78-byte Fields the front door captured
 *
 * TraceHandle is the GUID's address. A kernel-mode caller
 * (nttrace_etw_write_no_registration(), ZwTraceEvent) must be in process
 * context: finding the GUID's enables takes a mutex (elsewhere:
 * NTTRACE_STATUS_NOT_SUPPORTED).
 *
 * Return: an NTSTATUS.
 */
u32 nt_trace_noreg(const struct nttrace_type *type,
		   const struct nttrace_call *call,
		   const struct nttrace_flags *flags, const void *fixed);

#endif /* NTTRACE_NOREG_H */
