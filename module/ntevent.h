/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NtTraceEvent's front door: Flags decoding, the table of event types, the
 * user-mode defences and the dispatch to each type's handler.
 */
#ifndef NTTRACE_NTEVENT_H
#define NTTRACE_NTEVENT_H

#include <linux/gfp.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <nttrace/uapi.h>

/* One NtTraceEvent call as the front door receives it. */
struct nttrace_call {
	u64 trace_handle;
	u32 flags;
	u32 field_size;
	/*
	 * Fields' address: a user address, or for a kernel-mode call a
	 * kernel one (as is every address Fields holds).
	 */
	u64 fields;
	/* The caller is a 32-bit process (compat syscall). */
	bool compat;
	/*
	 * ZwTraceEvent from another module (module/kapi.c): no user-mode
	 * defences, kernel addresses, the kernel-mode rules of ZwTraceEvent.
	 */
	bool kernel_mode;
};

/**
 * nt_copy_in() - copy in the caller's memory
 * @call: the call, which says whose memory @src is
 * @dst: where to
 * @src: a user address, or a kernel one for a kernel-mode call
 * @len: how many bytes
 *
 * Kernel memory is read without faulting, so that a bad kernel pointer
 * gives -EFAULT rather than an oops. User memory may fault in (may sleep).
 *
 * Return: 0 or -EFAULT.
 */
static inline int nt_copy_in(const struct nttrace_call *call, void *dst,
			     u64 src, size_t len)
{
	if (call->kernel_mode)
		return copy_from_kernel_nofault(dst, (const void *)(uintptr_t)src,
						len) ? -EFAULT : 0;
	return copy_from_user(dst, u64_to_user_ptr(src), len) ? -EFAULT : 0;
}

/**
 * nt_gfp() - the allocation flags for memory a call takes
 * @call: the call
 *
 * A kernel-mode call may come from any context (softirq, hardirq), a
 * user-mode one only from its system call.
 *
 * Return: GFP_ATOMIC | __GFP_NOWARN, or GFP_KERNEL.
 */
static inline gfp_t nt_gfp(const struct nttrace_call *call)
{
	return call->kernel_mode ? GFP_ATOMIC | __GFP_NOWARN : GFP_KERNEL;
}

/**
 * nt_copy_in_nofault() - nt_copy_in() in atomic context
 * @call: the call, which says whose memory @src is
 * @dst: where to
 * @src: a user address, or a kernel one for a kernel-mode call
 * @len: how many bytes
 *
 * For preemption or interrupts off: never sleeps, never takes a page
 * fault (a user page that is not resident gives -EFAULT).
 *
 * Return: 0 or -EFAULT.
 */
static inline int nt_copy_in_nofault(const struct nttrace_call *call,
				     void *dst, u64 src, size_t len)
{
	if (call->kernel_mode)
		return copy_from_kernel_nofault(dst, (const void *)(uintptr_t)src,
						len) ? -EFAULT : 0;
	return copy_from_user_nofault(dst, u64_to_user_ptr(src), len) ?
	       -EFAULT : 0;
}

/* Flags taken apart as Windows 6.1 and higher does. */
struct nttrace_flags {
	u32 type;		/* Flags & NTTRACE_ETW_NT_TRACE_TYPE_MASK */
	u8 version;		/* Flags & NTTRACE_ETW_SYSTEM_EVENT_VERSION_MASK */
	u8 frames_to_skip;	/* (Flags & NTTRACE_ETW_USER_FRAMES_TO_SKIP_MASK) >> 16 */
	bool native_header;	/* NTTRACE_ETW_NT_FLAGS_USE_NATIVE_HEADER */
	bool wow64;		/* NTTRACE_ETW_NT_FLAGS_WOW64_CALL */
};

/*
 * The largest fixed part any type captures: the 0x78-byte block of
 * TRACE_EVENT, TRACE_SECURITY and TRACE_EVENT_NOREG.
 */
#define NTTRACE_MAX_FIXED_SIZE	NTTRACE_EVENT_WRITE_USER_SIZE

struct nttrace_type;

/*
 * A type's handler. @fixed holds the first type->fixed_size bytes of Fields,
 * already copied in once: the handler must not read them again from
 * call->fields.
 */
typedef u32 (*nttrace_handler_t)(const struct nttrace_type *type,
				 const struct nttrace_call *call,
				 const struct nttrace_flags *flags,
				 const void *fixed);

struct nttrace_type {
	u32 type;		/* an ETW_NT_FLAGS_TRACE_* value */
	const char *name;
	u32 align;		/* Fields must be aligned to this */
	u32 fixed_size;		/* bytes of Fields captured before the handler */
	nttrace_handler_t handler;	/* NULL: NTTRACE_STATUS_NOT_IMPLEMENTED */
};

/**
 * nttrace_decode_flags() - take NtTraceEvent's Flags apart
 * @flags: the Flags as the caller gave them
 * @out: their fields
 */
void nttrace_decode_flags(u32 flags, struct nttrace_flags *out);

/**
 * nttrace_find_type() - the front door's entry for a type
 * @type: a Flags & NTTRACE_ETW_NT_TRACE_TYPE_MASK value
 *
 * Return: the entry, or NULL for no valid type.
 */
const struct nttrace_type *nttrace_find_type(u32 type);

/**
 * nttrace_types_implemented() - the types that have a handler
 *
 * Return: NTTRACE_TYPE_BIT() of each, for NTTRACE_IOC_VERSION.
 */
u64 nttrace_types_implemented(void);

/**
 * nttrace_dispatch() - the user-mode defences, then the type's handler
 * @type: the type's entry
 * @call: the NtTraceEvent call
 * @flags: its Flags, decoded
 *
 * Checks Fields' alignment (not for a kernel-mode caller, trusted to
 * align it), copies in its fixed part once, and calls the handler with
 * that copy.
 *
 * Return: an NTSTATUS.
 */
u32 nttrace_dispatch(const struct nttrace_type *type,
		     const struct nttrace_call *call,
		     const struct nttrace_flags *flags);

/**
 * nttrace_trace_event() - NtTraceEvent: one call, from the ioctl or ZwTraceEvent
 * @call: the call
 *
 * Return: an NTSTATUS: NTTRACE_STATUS_INVALID_PARAMETER for no valid type,
 * else nttrace_dispatch()'s.
 */
u32 nttrace_trace_event(const struct nttrace_call *call);

#endif /* NTTRACE_NTEVENT_H */
