/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EventWrite: NtTraceEvent's NTTRACE_ETW_NT_FLAGS_TRACE_EVENT (module/eventwrite.c),
 * and its entry point for kernel-mode providers (EtwWrite).
 */
#ifndef NTTRACE_EVENTWRITE_H
#define NTTRACE_EVENTWRITE_H

#include "ntevent.h"

struct nt_reg;

/**
 * nt_event_write() - the handler of NTTRACE_ETW_NT_FLAGS_TRACE_EVENT
 * @type: the type's entry in the front door's table (module/ntevent.c)
 * @call: the NtTraceEvent call
 * @flags: its Flags, decoded
 * @fixed: the 0x78-byte Fields the front door captured
 *
 * Return: an NTSTATUS.
 */
u32 nt_event_write(const struct nttrace_type *type,
		   const struct nttrace_call *call,
		   const struct nttrace_flags *flags, const void *fixed);

/**
 * nt_event_fields_check() - the first checks of the 0x78-byte block
 * @call: the NtTraceEvent call
 * @f: the front door's copy of the block
 *
 * Every type that passes the block makes them first: FieldSize, flags,
 * the descriptor count and address.
 *
 * Return: an NTSTATUS, NTTRACE_STATUS_SUCCESS (0) when it passes.
 */
u32 nt_event_fields_check(const struct nttrace_call *call,
			  const struct nttrace_event_write_user *f);

/**
 * nt_event_write_reg() - write the block's event for a registration
 * @call: the NtTraceEvent call
 * @flags: its Flags, decoded
 * @fields: the front door's copy of the block
 * @reg: a registration, or a GUID held by nt_provider_hold()
 *	(TRACE_EVENT_NOREG, TRACE_SECURITY)
 *
 * module/eventwrite.c's table of checks from check 2 on, then the write
 * into every session that wants the event.
 *
 * Return: an NTSTATUS.
 */
u32 nt_event_write_reg(const struct nttrace_call *call, const struct nttrace_flags *flags,
		       const struct nttrace_event_write_user *fields, struct nt_reg *reg);

/**
 * nt_event_write_kernel() - EtwWrite's core
 * @reg: a kernel registration (nt_provider_register_kernel())
 * @fields: the block, in the caller's kernel memory
 *
 * Write one event of @reg into every session that wants it, as
 * nt_event_write() does for a process, with the kernel-mode rules.
 * @fields is read as is (not copied); its
 * @data is the kernel address of @data_count EVENT_DATA_DESCRIPTORs
 * whose @ptr are kernel addresses. Those are read without faulting: a bad
 * one gives NTTRACE_STATUS_ACCESS_VIOLATION, not an oops, and nothing is written.
 * Any context but NMI (process, softirq, hardirq, interrupts off); never
 * sleeps; allocates only with GFP_ATOMIC (more than
 * NT_EW_STACK_DESCRIPTORS descriptors). The record is a 64-bit one
 * (NTTRACE_EVENT_HEADER_FLAG_64_BIT_HEADER, header type 0x13); its thread and
 * process IDs are the current task's (in interrupt context, the
 * interrupted one's). @reg must stay registered for the call: do not call
 * nt_provider_unregister_kernel() on it concurrently.
 *
 * Return: an NTSTATUS, the same as for a process (see the table in
 * module/eventwrite.c): NTTRACE_STATUS_SUCCESS when no session wants the
 * event; a paged-memory session refuses it (NTTRACE_STATUS_NOT_SUPPORTED);
 * a secure one takes it.
 */
u32 nt_event_write_kernel(struct nt_reg *reg, const struct nttrace_event_write_user *fields);

/* Descriptors read onto the stack; more take memory. */
#define NT_EW_STACK_DESCRIPTORS	8

#endif /* NTTRACE_EVENTWRITE_H */
