/* SPDX-License-Identifier: GPL-2.0 */
/*
 * EventWrite: NtTraceEvent's NTTRACE_ETW_NT_FLAGS_TRACE_EVENT (module/eventwrite.c),
 * and its entry point for kernel-mode providers (EtwWrite).
 */
#ifndef NTTRACE_EVENTWRITE_H
#define NTTRACE_EVENTWRITE_H

#include "ntevent.h"

struct nt_reg;

/* The handler of NTTRACE_ETW_NT_FLAGS_TRACE_EVENT; @fixed is the 0x78-byte Fields. */
u32 nt_event_write(const struct nttrace_type *type,
		   const struct nttrace_call *call,
		   const struct nttrace_flags *flags, const void *fixed);

/*
 * The checks of the 0x78-byte block every type that passes it makes
 * first (FieldSize, flags, the descriptor count and address): an NTSTATUS,
 * NTTRACE_STATUS_SUCCESS (0) when it passes.
 */
u32 nt_event_fields_check(const struct nttrace_call *call,
			  const struct nttrace_event_write_user *f);

/*
 * The write path of the block (module/eventwrite.c's table from check 2
 * on) for @reg, a registration or a GUID held by nt_provider_hold()
 * (TRACE_EVENT_NOREG, TRACE_SECURITY): @fields is the front door's copy.
 * Returns an NTSTATUS.
 */
u32 nt_event_write_reg(const struct nttrace_call *call, const struct nttrace_flags *flags,
		       const struct nttrace_event_write_user *fields, struct nt_reg *reg);

/*
 * EtwWrite's core: write one event of kernel registration @reg
 * (nt_provider_register_kernel()) into every session that wants it, as
 * nt_event_write() does for a process, with the kernel-mode rules.
 * @fields is the caller's kernel memory, read as is (not copied); its
 * @data is the kernel address of @data_count EVENT_DATA_DESCRIPTORs
 * whose @ptr are kernel addresses. Those are read without faulting: a bad
 * one gives NTTRACE_STATUS_ACCESS_VIOLATION, not an oops, and nothing is written.
 * Any context but NMI (process, softirq, hardirq, interrupts off); never
 * sleeps; allocates only with GFP_ATOMIC (more than
 * NT_EW_STACK_DESCRIPTORS descriptors). The record is a 64-bit one
 * (NTTRACE_EVENT_HEADER_FLAG_64_BIT_HEADER, header type 0x13); its thread and
 * process IDs are the current task's (in interrupt context, the
 * interrupted one's). @reg must stay registered for the call: do not call
 * nt_provider_unregister_kernel() on it concurrently. Returns an NTSTATUS,
 * the same as for a process (see the table in module/eventwrite.c):
 * NTTRACE_STATUS_SUCCESS when no session wants the event; a paged-memory session
 * refuses it (NTTRACE_STATUS_NOT_SUPPORTED); a secure one takes it.
 */
u32 nt_event_write_kernel(struct nt_reg *reg, const struct nttrace_event_write_user *fields);

/* Descriptors read onto the stack; more take memory. */
#define NT_EW_STACK_DESCRIPTORS	8

#endif /* NTTRACE_EVENTWRITE_H */
