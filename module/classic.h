/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The classic event types of NtTraceEvent: NTTRACE_ETW_NT_FLAGS_TRACE_HEADER
 * (module/header.c) and NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE
 * (module/instance.c), and what they share (module/classic.c).
 */
#ifndef NTTRACE_CLASSIC_H
#define NTTRACE_CLASSIC_H

#include "ntevent.h"

/* How a classic type differs from the other. */
struct nt_classic_kind {
	/*
	 * NTTRACE_EVENT_TRACE_HEADER_SIZE or NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE: which
	 * one also says the HeaderType (ntr_classic_header_type()).
	 */
	u32 header_size;
	/*
	 * A secure session refuses it from everyone (TRACE_INSTANCE), rather
	 * than from all but its owner and privileged callers (TRACE_HEADER).
	 */
	bool secure_refused;
};

/*
 * One classic event: @fixed is the header the front door captured
 * (kind->header_size bytes). Returns an NTSTATUS.
 */
u32 nt_classic_event(const struct nt_classic_kind *kind,
		     const struct nttrace_call *call,
		     const struct nttrace_flags *flags, const void *fixed);

u32 nt_trace_header(const struct nttrace_type *type,
		    const struct nttrace_call *call,
		    const struct nttrace_flags *flags, const void *fixed);
u32 nt_trace_instance(const struct nttrace_type *type,
		      const struct nttrace_call *call,
		      const struct nttrace_flags *flags, const void *fixed);

#endif /* NTTRACE_CLASSIC_H */
