/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * nttrace: the user-space ABI of /dev/nttrace, a Linux home for the Windows
 * NtTraceEvent system service. This one header is shared by the kernel
 * module and by user space (userlib/, tests/).
 *
 * ABI rules
 * - One ioctl magic, NTTRACE_IOC_MAGIC; every command is _IOWR and takes a
 *   pointer to a struct whose first member is its __u32 size, filled in by the
 *   caller with the sizeof() it was built with.
 * - The kernel matches a command by magic, direction and number, never by the
 *   size encoded in it: when a struct grows, the new members go at its end,
 *   its command keeps its number, and the kernel reads the struct with
 *   copy_struct_from_user(): an older caller's shorter struct reads as zeros
 *   for the new members, and a newer caller's longer struct is accepted only
 *   if everything past what the kernel knows is zero (else -E2BIG).
 * - Only __u32 and __u64 (and __u16 where an NT layout demands it), naturally
 *   aligned, so that 32-bit and 64-bit callers share one layout (the driver
 *   uses compat_ptr_ioctl). Pointers travel as __u64. Members named pad* are
 *   explicit padding and must be zero (else -EINVAL).
 * - Unknown commands fail with -ENOTTY. A size below the first version's, or
 *   above 4096, fails with -EINVAL; an unreadable or unwritable struct with
 *   -EFAULT. Otherwise the command was carried out, and what Windows would
 *   return (an NTSTATUS) is in the struct, not in errno.
 * - NTTRACE_IOC_VERSION reports NTTRACE_ABI_VERSION, which changes only for
 *   an incompatible change (none is planned), and feature bits, which grow.
 */
#ifndef _UAPI_NTTRACE_H
#define _UAPI_NTTRACE_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define NTTRACE_DEVICE		"/dev/nttrace"
#define NTTRACE_ABI_VERSION	1
#define NTTRACE_IOC_MAGIC	0xE7

/*
 * NTSTATUS values, as Windows names them (ntstatus.h). An NTSTATUS is a
 * 32-bit value whose top two bits give its severity: 0xC... errors, 0x8...
 * warnings; STATUS_SUCCESS is 0.
 */
#define STATUS_SUCCESS			0x00000000U
#define STATUS_DATATYPE_MISALIGNMENT	0x80000002U
#define STATUS_BUFFER_OVERFLOW		0x80000005U
#define STATUS_NOT_IMPLEMENTED		0xC0000002U
#define STATUS_ACCESS_VIOLATION		0xC0000005U
#define STATUS_INVALID_HANDLE		0xC0000008U
#define STATUS_INVALID_PARAMETER	0xC000000DU
#define STATUS_NO_MEMORY		0xC0000017U
#define STATUS_ACCESS_DENIED		0xC0000022U
#define STATUS_BUFFER_TOO_SMALL		0xC0000023U
#define STATUS_ARRAY_BOUNDS_EXCEEDED	0xC000008CU
#define STATUS_INTEGER_OVERFLOW		0xC0000095U
#define STATUS_NOT_SUPPORTED		0xC00000BBU
#define STATUS_INVALID_BUFFER_SIZE	0xC0000206U

/*
 * NtTraceEvent Flags, as decoded by Windows 6.1 and higher: the event type is
 * Flags & ETW_NT_TRACE_TYPE_MASK; the other fields modify how it is handled.
 */
#define ETW_SYSTEM_EVENT_VERSION_MASK	0x000000FFU
#define ETW_NT_TRACE_TYPE_MASK		0x0000FF00U
#define ETW_USER_FRAMES_TO_SKIP_MASK	0x000F0000U
#define ETW_USER_FRAMES_TO_SKIP_SHIFT	16
#define ETW_NT_FLAGS_USE_NATIVE_HEADER	0x40000000U
#define ETW_NT_FLAGS_WOW64_CALL		0x80000000U

/* The event types; any other value of Flags & 0xFF00 is invalid. */
#define ETW_NT_FLAGS_TRACE_HEADER	0x00000100U
#define ETW_NT_FLAGS_TRACE_MESSAGE	0x00000200U
#define ETW_NT_FLAGS_TRACE_EVENT	0x00000300U
#define ETW_NT_FLAGS_TRACE_SYSTEM	0x00000400U
#define ETW_NT_FLAGS_TRACE_SECURITY	0x00000500U
#define ETW_NT_FLAGS_TRACE_MARK		0x00000600U
#define ETW_NT_FLAGS_TRACE_EVENT_NOREG	0x00000700U
#define ETW_NT_FLAGS_TRACE_INSTANCE	0x00000800U
#define ETW_NT_FLAGS_TRACE_RAW		0x00000900U

/* Bit n of nttrace_version.types: type n << 8 has a handler in this kernel. */
#define NTTRACE_TYPE_BIT(type)		(1ULL << ((type) >> 8))

/**
 * struct nttrace_version - NTTRACE_IOC_VERSION: what this module speaks.
 * @size:        in: sizeof(struct nttrace_version)
 * @abi_version: out: NTTRACE_ABI_VERSION
 * @features:    out: NTTRACE_FEAT_* bits (none yet)
 * @types:       out: NTTRACE_TYPE_BIT() of each NtTraceEvent type whose
 *               handler is built; a valid type without one answers
 *               STATUS_NOT_IMPLEMENTED
 */
struct nttrace_version {
	__u32 size;
	__u32 abi_version;
	__u64 features;
	__u64 types;
};
#define NTTRACE_VERSION_SIZE_VER0	24

/**
 * struct nttrace_trace_event - NTTRACE_IOC_TRACE_EVENT: one NtTraceEvent call.
 * @size:         in: sizeof(struct nttrace_trace_event)
 * @flags:        in: NtTraceEvent's Flags
 * @trace_handle: in: NtTraceEvent's TraceHandle
 * @fields:       in: NtTraceEvent's Fields, a user address
 * @field_size:   in: NtTraceEvent's FieldSize
 * @status:       out: the NTSTATUS NtTraceEvent returns (its value on input
 *                is ignored)
 *
 * A 32-bit caller is told apart by the kernel (compat syscall) or by
 * ETW_NT_FLAGS_WOW64_CALL in @flags; @fields is always a plain address.
 */
struct nttrace_trace_event {
	__u32 size;
	__u32 flags;
	__u64 trace_handle;
	__u64 fields;
	__u32 field_size;
	__u32 status;
};
#define NTTRACE_TRACE_EVENT_SIZE_VER0	32

#define NTTRACE_IOC_VERSION \
	_IOWR(NTTRACE_IOC_MAGIC, 0x00, struct nttrace_version)
#define NTTRACE_IOC_TRACE_EVENT \
	_IOWR(NTTRACE_IOC_MAGIC, 0x01, struct nttrace_trace_event)

#endif /* _UAPI_NTTRACE_H */
