/* SPDX-License-Identifier: GPL-2.0 */
/* The NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE handler. */
#ifndef NTTRACE_MESSAGE_H
#define NTTRACE_MESSAGE_H

#include "ntevent.h"

/**
 * nt_trace_message() - the handler of NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE
 * @type: the type's entry in the front door's table (module/ntevent.c)
 * @call: the NtTraceEvent call
 * @flags: its Flags, decoded
 * @fixed: the MESSAGE_TRACE_USER the front door captured
 *
 * Return: an NTSTATUS.
 */
u32 nt_trace_message(const struct nttrace_type *type,
		     const struct nttrace_call *call,
		     const struct nttrace_flags *flags, const void *fixed);

#endif /* NTTRACE_MESSAGE_H */
