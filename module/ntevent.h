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
#include <nttrace.h>

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

/*
 * Copy @len bytes of the caller's memory at @src: user memory, or kernel
 * memory for a kernel-mode call (read without faulting, so that a bad
 * kernel pointer gives -EFAULT rather than an oops). 0 or -EFAULT.
 */
static inline int nt_copy_in(const struct nttrace_call *call, void *dst,
			     u64 src, size_t len)
{
	if (call->kernel_mode)
		return copy_from_kernel_nofault(dst, (const void *)(uintptr_t)src,
						len) ? -EFAULT : 0;
	return copy_from_user(dst, u64_to_user_ptr(src), len) ? -EFAULT : 0;
}

/*
 * Memory for a call: a kernel-mode call may come from any context
 * (softirq, hardirq), a user-mode one only from its system call.
 */
static inline gfp_t nt_gfp(const struct nttrace_call *call)
{
	return call->kernel_mode ? GFP_ATOMIC | __GFP_NOWARN : GFP_KERNEL;
}

/*
 * The same in atomic context (preemption or interrupts off): never sleeps,
 * never takes a page fault.
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

void nttrace_decode_flags(u32 flags, struct nttrace_flags *out);
const struct nttrace_type *nttrace_find_type(u32 type);
u64 nttrace_types_implemented(void);
u32 nttrace_dispatch(const struct nttrace_type *type,
		     const struct nttrace_call *call,
		     const struct nttrace_flags *flags);
u32 nttrace_trace_event(const struct nttrace_call *call);

#endif /* NTTRACE_NTEVENT_H */
