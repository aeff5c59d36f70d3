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

/**
 * nt_classic_event() - write one classic event (TRACE_HEADER, TRACE_INSTANCE)
 * @kind: how its type differs from the other
 * @call: the NtTraceEvent call
 * @flags: its Flags, decoded
 * @fixed: the header the front door captured (@kind->header_size bytes)
 *
 * The checks and their order are in module/classic.c.
 *
 * Return: an NTSTATUS.
 */
u32 nt_classic_event(const struct nt_classic_kind *kind,
		     const struct nttrace_call *call,
		     const struct nttrace_flags *flags, const void *fixed);

/**
 * nt_trace_header() - the handler of NTTRACE_ETW_NT_FLAGS_TRACE_HEADER
 * @type: the type's entry in the front door's table (module/ntevent.c)
 * @call: the NtTraceEvent call
 * @flags: its Flags, decoded
 * @fixed: the EVENT_TRACE_HEADER the front door captured
 *
 * Return: an NTSTATUS.
 */
u32 nt_trace_header(const struct nttrace_type *type,
		    const struct nttrace_call *call,
		    const struct nttrace_flags *flags, const void *fixed);

/**
 * nt_trace_instance() - the handler of NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE
 * @type: the type's entry in the front door's table (module/ntevent.c)
 * @call: the NtTraceEvent call
 * @flags: its Flags, decoded
 * @fixed: the EVENT_INSTANCE_GUID_HEADER the front door captured
 *
 * Return: an NTSTATUS.
 */
u32 nt_trace_instance(const struct nttrace_type *type,
		      const struct nttrace_call *call,
		      const struct nttrace_flags *flags, const void *fixed);

#endif /* NTTRACE_CLASSIC_H */
