/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * nttrace: the user-space ABI of /dev/nttrace, a Linux home for the Windows
 * NtTraceEvent system service. This one header is shared by the kernel
 * module and by user space (userlib/, tests/); it installs as
 * <nttrace/uapi.h>.
 *
 * Every name it defines begins with NTTRACE_ or nttrace_, those Windows
 * gave the values too (NTTRACE_STATUS_SUCCESS, NTTRACE_TRACE_MESSAGE_GUID,
 * struct nttrace_event_header): a program that includes it gets no name of
 * Windows'. The library's headers named after the Windows SDK's
 * (<nttrace/nt.h>, <nttrace/evntrace.h>, ...) give those names, defined as
 * these.
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
 *   an incompatible change, and feature bits, which grow. 2: the Fields of
 *   NTTRACE_ETW_NT_FLAGS_TRACE_EVENT became Windows' 0x78-byte block (issue
 *   29; the 0x48 bytes of version 1 are refused, not misread).
 */
#ifndef _UAPI_NTTRACE_H
#define _UAPI_NTTRACE_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define NTTRACE_DEVICE		"/dev/nttrace"
#define NTTRACE_ABI_VERSION	2
#define NTTRACE_IOC_MAGIC	0xE7

/*
 * NTSTATUS values, as Windows names them (ntstatus.h). An NTSTATUS is a
 * 32-bit value whose top two bits give its severity: 0xC... errors, 0x8...
 * warnings; NTTRACE_STATUS_SUCCESS is 0.
 */
#define NTTRACE_STATUS_SUCCESS			0x00000000U
#define NTTRACE_STATUS_DATATYPE_MISALIGNMENT	0x80000002U
#define NTTRACE_STATUS_BUFFER_OVERFLOW		0x80000005U
#define NTTRACE_STATUS_NOT_IMPLEMENTED		0xC0000002U
#define NTTRACE_STATUS_ACCESS_VIOLATION		0xC0000005U
#define NTTRACE_STATUS_INVALID_HANDLE		0xC0000008U
#define NTTRACE_STATUS_INVALID_PARAMETER	0xC000000DU
#define NTTRACE_STATUS_NO_MEMORY		0xC0000017U
#define NTTRACE_STATUS_ACCESS_DENIED		0xC0000022U
#define NTTRACE_STATUS_BUFFER_TOO_SMALL		0xC0000023U
#define NTTRACE_STATUS_ARRAY_BOUNDS_EXCEEDED	0xC000008CU
#define NTTRACE_STATUS_INTEGER_OVERFLOW		0xC0000095U
#define NTTRACE_STATUS_NOT_SUPPORTED		0xC00000BBU
#define NTTRACE_STATUS_INVALID_BUFFER_SIZE	0xC0000206U

/*
 * NtTraceEvent Flags, as decoded by Windows 6.1 and higher: the event type is
 * Flags & NTTRACE_ETW_NT_TRACE_TYPE_MASK; the other fields modify how it is handled.
 */
#define NTTRACE_ETW_SYSTEM_EVENT_VERSION_MASK	0x000000FFU
#define NTTRACE_ETW_NT_TRACE_TYPE_MASK		0x0000FF00U
#define NTTRACE_ETW_USER_FRAMES_TO_SKIP_MASK	0x000F0000U
#define NTTRACE_ETW_USER_FRAMES_TO_SKIP_SHIFT	16
#define NTTRACE_ETW_NT_FLAGS_USE_NATIVE_HEADER	0x40000000U
#define NTTRACE_ETW_NT_FLAGS_WOW64_CALL		0x80000000U

/* The event types; any other value of Flags & 0xFF00 is invalid. */
#define NTTRACE_ETW_NT_FLAGS_TRACE_HEADER	0x00000100U
#define NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE	0x00000200U
#define NTTRACE_ETW_NT_FLAGS_TRACE_EVENT	0x00000300U
#define NTTRACE_ETW_NT_FLAGS_TRACE_SYSTEM	0x00000400U
#define NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY	0x00000500U
#define NTTRACE_ETW_NT_FLAGS_TRACE_MARK		0x00000600U
#define NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG	0x00000700U
#define NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE	0x00000800U
#define NTTRACE_ETW_NT_FLAGS_TRACE_RAW		0x00000900U

/* Bit n of nttrace_version.types: type n << 8 has a handler in this kernel. */
#define NTTRACE_TYPE_BIT(type)		(1ULL << ((type) >> 8))

/**
 * struct nttrace_version - NTTRACE_IOC_VERSION: what this module speaks.
 * @size:        in: sizeof(struct nttrace_version)
 * @abi_version: out: NTTRACE_ABI_VERSION
 * @features:    out: NTTRACE_FEAT_* bits
 * @types:       out: NTTRACE_TYPE_BIT() of each NtTraceEvent type whose
 *               handler is built; a valid type without one answers
 *               NTTRACE_STATUS_NOT_IMPLEMENTED
 * @system_flags: out: the NTTRACE_EVENT_TRACE_FLAG_* bits (a system
 *               logger's group_mask[0], EnableFlags) this module writes
 *               events for; a system logger asking for others is
 *               refused (-EOPNOTSUPP). Set
 *               when @features has NTTRACE_FEAT_SYSTEM_FLAGS (a module
 *               before it leaves the member as the caller had it)
 * @pad0:        in: zero
 */
struct nttrace_version {
	__u32 size;
	__u32 abi_version;
	__u64 features;
	__u64 types;
	__u32 system_flags;
	__u32 pad0;
};
#define NTTRACE_VERSION_SIZE_VER0	24
#define NTTRACE_VERSION_SIZE_VER1	32	/* + system_flags */

/* nttrace_version.features: @system_flags is filled in. */
#define NTTRACE_FEAT_SYSTEM_FLAGS	(1ULL << 0)
/* struct nttrace_enable's @timeout_ms waits for the providers' callbacks. */
#define NTTRACE_FEAT_ENABLE_TIMEOUT	(1ULL << 1)

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
 * NTTRACE_ETW_NT_FLAGS_WOW64_CALL in @flags; @fields is always a plain address.
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

/*
 * ---- Messages ----
 * MESSAGE_TRACE_USER, the 0x28-byte Fields of NTTRACE_ETW_NT_FLAGS_TRACE_MESSAGE
 * (Windows 6.2 and higher; one layout for 32- and 64-bit callers).
 */
struct nttrace_message_trace_user {
	__u32 marker;		/* MessageHeader.Marker: ignored */
	__u16 message_number;	/* MessageHeader.MessageNumber */
	__u16 option_flags;	/* MessageHeader.OptionFlags: ignored */
	__u8 message_guid[16];	/* a GUID, or a component ID in the first 4 */
	__u32 message_flags;	/* TRACE_MESSAGE_* */
	__u32 data_size;	/* bytes of the argument list, NULL included */
	__u64 data;		/* user address of the argument list */
};
#define NTTRACE_MESSAGE_TRACE_USER_SIZE		0x28
/* More arguments in one list: NTTRACE_STATUS_INVALID_PARAMETER. */
#define NTTRACE_MESSAGE_MAX_ARGS	256

/*
 * MESSAGE_TRACE_HEADER, the 8 bytes before a message event's items. The
 * Marker's high byte is NTTRACE_TRACE_HEADER_FLAG | NTTRACE_TRACE_MESSAGE (0x90).
 */
struct nttrace_message_trace_header {
	__u16 size;		/* header and items, before 8-byte padding */
	__u8 reserved;
	__u8 version;		/* the Marker's high byte */
	__u16 message_number;
	__u16 option_flags;	/* TRACE_MESSAGE_* */
};
#define NTTRACE_TRACE_HEADER_FLAG		0x80000000U
#define NTTRACE_TRACE_HEADER_EVENT_TRACE	0x40000000U
#define NTTRACE_TRACE_MESSAGE			0x10000000U
#define NTTRACE_MESSAGE_TRACE_MARKER_BYTE \
	((NTTRACE_TRACE_HEADER_FLAG | NTTRACE_TRACE_MESSAGE) >> 24)

/* MessageFlags / OptionFlags. */
#define NTTRACE_TRACE_MESSAGE_SEQUENCE			0x0001
#define NTTRACE_TRACE_MESSAGE_GUID			0x0002
#define NTTRACE_TRACE_MESSAGE_COMPONENTID		0x0004
#define NTTRACE_TRACE_MESSAGE_TIMESTAMP			0x0008
#define NTTRACE_TRACE_MESSAGE_PERFORMANCE_TIMESTAMP	0x0010
#define NTTRACE_TRACE_MESSAGE_SYSTEMINFO		0x0020
#define NTTRACE_TRACE_MESSAGE_POINTER32			0x0040
#define NTTRACE_TRACE_MESSAGE_POINTER64			0x0080
#define NTTRACE_TRACE_MESSAGE_FLAG_MASK			0x003F	/* what callers set */

/*
 * ---- Logger sessions ----
 *
 * A session (an ETW logger) has a unique name (compared without regard to
 * ASCII case, as Windows does) and a 16-bit logger ID from 1 to
 * NTTRACE_MAX_LOGGERS; 0 and 0xFFFF are never handed out. Its events go into
 * per-CPU rings of fixed-size buffers, each buffer a WMI_BUFFER_HEADER
 * followed by 8-byte-aligned records, so that a full buffer is already a
 * valid ETL buffer.
 */
#define NTTRACE_MAX_LOGGERS		64
#define NTTRACE_NAME_MAX		64	/* bytes, NUL included */

/* EVENT_TRACE_PROPERTIES.LogFileMode bits, with their Windows values. */
#define NTTRACE_EVENT_TRACE_FILE_MODE_NONE		0x00000000U
#define NTTRACE_EVENT_TRACE_FILE_MODE_SEQUENTIAL	0x00000001U
#define NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR		0x00000002U
#define NTTRACE_EVENT_TRACE_FILE_MODE_APPEND		0x00000004U
#define NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE		0x00000008U
#define NTTRACE_EVENT_TRACE_FILE_MODE_PREALLOCATE	0x00000020U
#define NTTRACE_EVENT_TRACE_NONSTOPPABLE_MODE		0x00000040U
#define NTTRACE_EVENT_TRACE_SECURE_MODE			0x00000080U
#define NTTRACE_EVENT_TRACE_REAL_TIME_MODE		0x00000100U
#define NTTRACE_EVENT_TRACE_DELAY_OPEN_FILE_MODE	0x00000200U
#define NTTRACE_EVENT_TRACE_BUFFERING_MODE		0x00000400U
#define NTTRACE_EVENT_TRACE_PRIVATE_LOGGER_MODE		0x00000800U
#define NTTRACE_EVENT_TRACE_ADD_HEADER_MODE		0x00001000U
#define NTTRACE_EVENT_TRACE_USE_KBYTES_FOR_SIZE		0x00002000U
#define NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE		0x00004000U
#define NTTRACE_EVENT_TRACE_USE_LOCAL_SEQUENCE		0x00008000U
#define NTTRACE_EVENT_TRACE_RELOG_MODE			0x00010000U
#define NTTRACE_EVENT_TRACE_PRIVATE_IN_PROC		0x00020000U
#define NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY		0x01000000U
#define NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE		0x02000000U
#define NTTRACE_EVENT_TRACE_COMPRESSED_MODE		0x04000000U
#define NTTRACE_EVENT_TRACE_INDEPENDENT_SESSION_MODE	0x08000000U
#define NTTRACE_EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING	0x10000000U

/*
 * The modes a kernel session accepts, each doing what it does on Windows;
 * any other bit fails with -EINVAL (until it does), as do SEQUENTIAL with
 * CIRCULAR, NEWFILE with either, APPEND with CIRCULAR, NEWFILE or
 * REAL_TIME (as Windows refuses them), GLOBAL with LOCAL sequence, and
 * COMPRESSED with CIRCULAR, NEWFILE, APPEND or PREALLOCATE.
 * - SEQUENTIAL, CIRCULAR: how the user-space logger writes the file;
 *   CIRCULAR and BUFFERING also make the rings overwrite their oldest
 *   unread buffer when full; otherwise a full ring drops new events and
 *   counts them.
 * - APPEND, NEWFILE, PREALLOCATE: how the user-space logger writes the
 *   file too (after an existing file's buffers; a new file each maximum
 *   size; that size reserved on disk from the start): the kernel keeps
 *   the bits for QUERY, the logger does them.
 * - SECURE: only the session's owner (the effective UID that started it)
 *   or a privileged caller may write to it; others get
 *   NTTRACE_STATUS_ACCESS_DENIED.
 * - REAL_TIME: the events are for a live consumer; every session delivers
 *   them through the consumer's mapping (see "The consumer side").
 * - GLOBAL_SEQUENCE: NTTRACE_TRACE_MESSAGE_SEQUENCE numbers come from one counter
 *   shared by all such sessions; LOCAL_SEQUENCE (and neither): from the
 *   session's own counter, starting at 1.
 * - USE_PAGED_MEMORY: on Windows, buffers from paged pool, which only
 *   user-mode providers may write to. The buffers are the same here (ring
 *   memory is never paged out), but the rule is kept: kernel-mode writers
 *   (the kernel-mode API, module/kapi.c) get NTTRACE_STATUS_NOT_SUPPORTED.
 * - SYSTEM_LOGGER_MODE: a system logger (see "System loggers" below).
 * - COMPRESSED_MODE: how the user-space logger writes the file too (each
 *   buffer's records compressed, as Windows compresses them); one
 *   sequential file, so not with CIRCULAR, NEWFILE, APPEND or PREALLOCATE.
 * - INDEPENDENT_SESSION_MODE: on Windows, the session gets an event even
 *   when another session the provider writes to could not take it. Every
 *   session here is so: an event goes to each session that wants it,
 *   whatever another did with it (full, refused, too large); the writer's
 *   status names the first refusal. The bit is kept for QUERY.
 * - NO_PER_PROCESSOR_BUFFERING: one ring that every CPU writes, in place
 *   of a ring per CPU (nr_cpus is then 1), so that the events of all CPUs
 *   lie in one stream in the order of their time stamps, as Windows puts
 *   them in common buffers. Writers take the ring one at a time, each
 *   with interrupts off while it copies its event: slower on a busy
 *   machine, as Windows warns. MaximumBuffers is the ring's; the buffers'
 *   processor number is 0.
 * PRIVATE_LOGGER_MODE and PRIVATE_IN_PROC belong to the in-process logger
 * of the user library, never to the kernel.
 */
#define NTTRACE_KERNEL_LOG_MODES (NTTRACE_EVENT_TRACE_FILE_MODE_SEQUENTIAL | \
	NTTRACE_EVENT_TRACE_FILE_MODE_CIRCULAR | NTTRACE_EVENT_TRACE_FILE_MODE_APPEND | \
	NTTRACE_EVENT_TRACE_FILE_MODE_NEWFILE | \
	NTTRACE_EVENT_TRACE_FILE_MODE_PREALLOCATE | NTTRACE_EVENT_TRACE_SECURE_MODE | \
	NTTRACE_EVENT_TRACE_REAL_TIME_MODE | NTTRACE_EVENT_TRACE_BUFFERING_MODE | \
	NTTRACE_EVENT_TRACE_USE_GLOBAL_SEQUENCE | NTTRACE_EVENT_TRACE_USE_LOCAL_SEQUENCE | \
	NTTRACE_EVENT_TRACE_USE_PAGED_MEMORY | NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE | \
	NTTRACE_EVENT_TRACE_INDEPENDENT_SESSION_MODE | NTTRACE_EVENT_TRACE_COMPRESSED_MODE | \
	NTTRACE_EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING)

/*
 * ---- System loggers ----
 *
 * A system logger receives the kernel's own events (processes, threads,
 * images, context switches, disk and network I/O: the "NT Kernel Logger"
 * events, written from Linux's tracepoints by the module) for the groups
 * its group mask selects, besides any provider enabled into it. Two kinds,
 * as on Windows 8 and later:
 * - the NT Kernel Logger: the session named NTTRACE_KERNEL_LOGGER_NAME
 *   (compared without regard to case). Its logger ID, as every call
 *   reports and takes it, is NTTRACE_KERNEL_LOGGER_ID (0xFFFF), whatever
 *   slot it has inside. Providers cannot be enabled into it (-EINVAL), as
 *   on Windows, where it takes only the kernel's events.
 * - any other session started with NTTRACE_EVENT_TRACE_SYSTEM_LOGGER_MODE.
 * At most NTTRACE_MAX_SYSTEM_LOGGERS run at once, the NT Kernel Logger
 * among them (Windows 8: eight; whether its kernel logger counts is not
 * documented: here it does); one more: -EMFILE.
 *
 * Who may start one (module/policy.c): a privileged caller, as for any
 * session, and in the initial user and PID namespaces (else -EPERM): a
 * system logger sees every process of the machine, with the IDs of the
 * initial PID namespace.
 *
 * The group mask: struct nttrace_logger_info's @group_mask, Windows'
 * PERFINFO_GROUPMASK (eight ULONGs), of which the first is
 * EVENT_TRACE_PROPERTIES.EnableFlags (EVENT_TRACE_FLAG_*, below). START
 * sets it (a session that is not a system logger must leave it zero, else
 * -EINVAL); CONTROL's UPDATE of a system logger replaces it (as
 * ControlTrace(UPDATE) and TraceSetInformation(TraceSystemTraceEnableFlagsInfo)
 * do on Windows) when it is not all zeros, and keeps it when it is (an
 * UPDATE of other properties; a mask of no group that produces events,
 * NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG alone, turns them all off); the
 * groups it adds get their DCStart rundown, as at a start. Of any other
 * session it must leave it zero. A START or UPDATE of a system logger
 * whose mask asks for a group this module writes no events for (a bit of
 * group_mask[0] that is neither in NTTRACE_IOC_VERSION's @system_flags
 * nor NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG, or any bit of the other
 * words) is refused with -EOPNOTSUPP (Windows' ERROR_NOT_SUPPORTED),
 * changing nothing: a group taken and never written would look like a
 * machine where nothing happened (README: "The NT Kernel Logger").
 *
 * NTTRACE_EVENT_TRACE_FLAG_PROFILE samples every CPU at the profile
 * interval (NTTRACE_IOC_PROFILE), from a perf event of the kernel's
 * cpu-clock: PerfInfo SampledProfile events. Where a sample interrupted
 * the kernel, its InstructionPointer is a kernel address (and a stack's
 * kernel frames are kernel addresses), written only into a system logger
 * started with PROFILE by a caller who may see kernel addresses
 * (CAP_SYSLOG in the initial user namespace); the others get 0 there,
 * and the user frames alone. A consumer may attach to a session of the
 * former kind only with CAP_SYSLOG as well (else -EPERM); the others
 * stay readable by every CAP_PERFMON reader.
 */
#define NTTRACE_KERNEL_LOGGER_NAME	"NT Kernel Logger"
#define NTTRACE_KERNEL_LOGGER_ID	0xFFFFU
#define NTTRACE_MAX_SYSTEM_LOGGERS	8
#define NTTRACE_GROUP_MASKS		8	/* PERFINFO_GROUPMASK's ULONGs */

/* EVENT_TRACE_PROPERTIES.EnableFlags (evntrace.h): group_mask[0]'s bits. */
#define NTTRACE_EVENT_TRACE_FLAG_PROCESS		0x00000001U
#define NTTRACE_EVENT_TRACE_FLAG_THREAD			0x00000002U
#define NTTRACE_EVENT_TRACE_FLAG_IMAGE_LOAD		0x00000004U
#define NTTRACE_EVENT_TRACE_FLAG_PROCESS_COUNTERS	0x00000008U
#define NTTRACE_EVENT_TRACE_FLAG_CSWITCH		0x00000010U
#define NTTRACE_EVENT_TRACE_FLAG_DPC			0x00000020U
#define NTTRACE_EVENT_TRACE_FLAG_INTERRUPT		0x00000040U
#define NTTRACE_EVENT_TRACE_FLAG_SYSTEMCALL		0x00000080U
#define NTTRACE_EVENT_TRACE_FLAG_DISK_IO		0x00000100U
#define NTTRACE_EVENT_TRACE_FLAG_DISK_FILE_IO		0x00000200U
#define NTTRACE_EVENT_TRACE_FLAG_DISK_IO_INIT		0x00000400U
#define NTTRACE_EVENT_TRACE_FLAG_DISPATCHER		0x00000800U
#define NTTRACE_EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS	0x00001000U
#define NTTRACE_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS	0x00002000U
#define NTTRACE_EVENT_TRACE_FLAG_VIRTUAL_ALLOC		0x00004000U
#define NTTRACE_EVENT_TRACE_FLAG_VAMAP			0x00008000U
#define NTTRACE_EVENT_TRACE_FLAG_NETWORK_TCPIP		0x00010000U
#define NTTRACE_EVENT_TRACE_FLAG_REGISTRY		0x00020000U
#define NTTRACE_EVENT_TRACE_FLAG_DBGPRINT		0x00040000U
#define NTTRACE_EVENT_TRACE_FLAG_JOB			0x00080000U
#define NTTRACE_EVENT_TRACE_FLAG_ALPC			0x00100000U
#define NTTRACE_EVENT_TRACE_FLAG_SPLIT_IO		0x00200000U
#define NTTRACE_EVENT_TRACE_FLAG_DEBUG_EVENTS		0x00400000U
#define NTTRACE_EVENT_TRACE_FLAG_PROFILE		0x01000000U
#define NTTRACE_EVENT_TRACE_FLAG_FILE_IO		0x02000000U
#define NTTRACE_EVENT_TRACE_FLAG_FILE_IO_INIT		0x04000000U
#define NTTRACE_EVENT_TRACE_FLAG_NO_SYSCONFIG		0x10000000U

/* Clock types (Wnode.ClientContext): what time stamps count. */
#define NTTRACE_EVENT_TRACE_CLOCK_PERFCOUNTER	1	/* monotonic ns; frequency 1e9 */
#define NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME	2	/* FILETIME: 100 ns since 1601 */
#define NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE	3	/* the CPU's time-stamp counter */

/* ControlTrace's codes. */
#define NTTRACE_EVENT_TRACE_CONTROL_QUERY	0
#define NTTRACE_EVENT_TRACE_CONTROL_STOP	1
#define NTTRACE_EVENT_TRACE_CONTROL_UPDATE	2
#define NTTRACE_EVENT_TRACE_CONTROL_FLUSH	3

/* Limits, with the errors for going past them. */
#define NTTRACE_MIN_BUFFER_KB		4	/* buffer_size_kb below: -EINVAL */
#define NTTRACE_MAX_BUFFER_KB		1024	/* above: -EINVAL */
#define NTTRACE_MIN_BUFFERS		2	/* per CPU; fewer: -EINVAL */
#define NTTRACE_MAX_BUFFERS		1024	/* per CPU; more: -EINVAL */
#define NTTRACE_DEFAULT_BUFFER_KB	64
#define NTTRACE_DEFAULT_BUFFERS		16
/*
 * Who may do what (module/policy.c): START, CONTROL's STOP, UPDATE and
 * FLUSH, and ATTACH need CAP_PERFMON, CAP_SYS_ADMIN or membership of the
 * module's control_gid group (else -EPERM); QUERY, LIST and writing events
 * to a session that is not secure are open to anyone who can open the
 * device.
 *
 * Errors of START, in the order checked (nothing is allocated before all
 * pass): not privileged: -EPERM; a bad member: -EINVAL; a session whose
 * rings and heads would exceed the module's max_session_mb (default 64):
 * -E2BIG; a name already in use: -EEXIST; all NTTRACE_MAX_LOGGERS IDs
 * taken: -EMFILE; the caller's effective UID already has
 * max_user_sessions (default 8) running: -EDQUOT; all sessions' memory would pass
 * max_total_mb (default 256): -ENOBUFS; the memory cannot be had (it is
 * charged to the caller's memory cgroup): -ENOMEM. CONTROL: no session
 * with that ID or name: -ENOENT.
 */

/**
 * struct nttrace_logger_info - a session's properties and counters, as
 * EVENT_TRACE_PROPERTIES carries them for StartTrace and ControlTrace.
 *
 * For NTTRACE_IOC_START_TRACE the "in" members describe the session (0
 * picks the default); for NTTRACE_IOC_CONTROL_TRACE, @control, and
 * @logger_id or (when it is 0) @name select the session and, for UPDATE,
 * @flush_timer is the new value (other "in" members must be 0 or unchanged,
 * else -EINVAL). Both fill in every "out" member; the values of "out"
 * members on input are ignored.
 *
 * @size:            in: sizeof(struct nttrace_logger_info)
 * @logger_id:       START: out; CONTROL: in (0: by @name), out
 * @control:         CONTROL: in, an EVENT_TRACE_CONTROL_* code; START: 0
 * @buffer_size_kb:  in (START), out: KB per buffer, rounded up to whole pages
 * @min_buffers:     in (START), out: per ring; 0 means NTTRACE_MIN_BUFFERS
 * @max_buffers:     in (START), out: per ring; 0 means NTTRACE_DEFAULT_BUFFERS,
 *                   or fewer (not below @min_buffers) where that would not
 *                   fit max_session_mb: many possible CPUs.
 *                   Rings are mapped into the consumer, so they do not grow:
 *                   each CPU has @max_buffers from the start.
 * @log_file_mode:   in (START), out: EVENT_TRACE_* mode bits
 * @flush_timer:     in (START, UPDATE), out: seconds between flushes, 0: none
 *                   (START of a REAL_TIME session: 0 means 1)
 * @clock_type:      in (START), out: EVENT_TRACE_CLOCK_*; 0 means PERFCOUNTER
 * @nr_cpus:         out: rings, one per possible CPU (one in all with
 *                   NO_PER_PROCESSOR_BUFFERING)
 * @number_of_buffers: out: buffers allocated, all CPUs
 * @free_buffers:    out: buffers holding nothing unread, all CPUs
 * @buffers_written: out: buffers completed (filled or flushed)
 * @log_buffers_lost: out: buffers overwritten before being read
 * @real_time_buffers_lost: out: buffers real-time consumers lost because
 *                   they did not read them before the logger's pace reused
 *                   them (see "The consumer side")
 * @owner_uid:       out: the user who started the session, as the caller's
 *                   user namespace sees it
 * @owner_pid:       out: the process that started it, as the caller's PID
 *                   namespace sees it (0: not visible there)
 * @control_flags:   CONTROL: in, NTTRACE_CONTROL_* bits; START: 0 (unknown
 *                   bits: -EINVAL)
 * @events_lost:     out: events refused because a ring was full
 * @events_written:  out: events in the buffers (read or not)
 * @events_overwritten: out: events in buffers overwritten before being read
 * @clock_frequency: out: time-stamp ticks per second
 * @start_time:      out: the session clock when it started
 * @name:            START: in; CONTROL: in when @logger_id is 0; out. NUL-
 *                   terminated, 1 to NTTRACE_NAME_MAX - 1 printable ASCII
 *                   characters, zeros after the NUL.
 * @group_mask:      a system logger's groups (see "System loggers"): in
 *                   (START, UPDATE), out; zero for other sessions. Callers
 *                   of size NTTRACE_LOGGER_INFO_SIZE_VER0 pass zeros.
 */
struct nttrace_logger_info {
	__u32 size;
	__u32 logger_id;
	__u32 control;
	__u32 buffer_size_kb;
	__u32 min_buffers;
	__u32 max_buffers;
	__u32 log_file_mode;
	__u32 flush_timer;
	__u32 clock_type;
	__u32 nr_cpus;
	__u32 number_of_buffers;
	__u32 free_buffers;
	__u32 buffers_written;
	__u32 log_buffers_lost;
	__u32 real_time_buffers_lost;
	__u32 owner_uid;
	__u32 owner_pid;
	__u32 control_flags;
	__u64 events_lost;
	__u64 events_written;
	__u64 events_overwritten;
	__u64 clock_frequency;
	__u64 start_time;
	__u8 name[NTTRACE_NAME_MAX];
	__u32 group_mask[NTTRACE_GROUP_MASKS];
};
#define NTTRACE_LOGGER_INFO_SIZE_VER0	176
#define NTTRACE_LOGGER_INFO_SIZE_VER1	208

/*
 * NTTRACE_CONTROL_WAIT_CONSUMER: with STOP, return only once the session's
 * logger (if one is attached; see "The consumer side") has let go of it,
 * so that the file has the last buffer. Real-time consumers are not
 * waited for. The wait ends early only on SIGKILL.
 * A consumer that stops its own session with this flag waits for itself:
 * stop from another thread or process.
 */
#define NTTRACE_CONTROL_WAIT_CONSUMER	0x00000001U
#define NTTRACE_CONTROL_FLAGS		NTTRACE_CONTROL_WAIT_CONSUMER

/**
 * struct nttrace_logger_list - NTTRACE_IOC_LIST_TRACES: the running sessions.
 * @size:  in: sizeof(struct nttrace_logger_list)
 * @count: in: room in @ids; out: number of sessions (may exceed the room:
 *         then only the first @count on input were written)
 * @ids:   in: user address of a __u32 array; out: logger IDs, ascending
 */
struct nttrace_logger_list {
	__u32 size;
	__u32 count;
	__u64 ids;
};
#define NTTRACE_LOGGER_LIST_SIZE_VER0	16

/*
 * ---- The consumer side ----
 *
 * NTTRACE_IOC_ATTACH binds the open file to a session as one of its
 * consumers (the same rights as CONTROL's STOP: -EPERM). A session has up
 * to NTTRACE_MAX_CONSUMERS at a time (-EBUSY past that):
 *   - its logger (flags 0; at most one, else -EBUSY): the reader that
 *     writes the session's file. The session keeps every buffer until the
 *     logger has read it: a full ring drops new events (counted in
 *     events_lost) rather than overwrite what the logger has not read,
 *     unless the session overwrites (CIRCULAR, BUFFERING).
 *   - real-time consumers (NTTRACE_ATTACH_REAL_TIME): live readers, as
 *     NTTRACE_EVENT_TRACE_REAL_TIME_MODE's consumers on Windows. While no logger
 *     is attached they hold buffers as a logger does (the slowest one
 *     sets the pace). While one is, they never hold back the file: a
 *     buffer the logger has read is reused even if a real-time consumer
 *     has not, and is then counted lost for that consumer (its ack's
 *     buffers_lost and events_lost, the ring's real_time_buffers_lost).
 * With no consumer attached, a session keeps what it holds until one
 * comes; a consumer that attaches starts at the oldest buffer that is not
 * yet released (read by the consumers before it).
 * The consumer must be in the PID namespace of the session's starter,
 * whose IDs the events carry (else -EXDEV). The file then maps three
 * regions, each with mmap(offset, length) from struct nttrace_attach:
 *
 *   heads  read-only: struct nttrace_session_head, then one struct
 *          nttrace_ring_head per CPU every head_stride bytes
 *   acks   read-write, MAP_SHARED: this consumer's own struct
 *          nttrace_ring_ack per CPU every ack_stride bytes; the only memory
 *          the consumer writes (each consumer has its own)
 *   data   read-only: CPU c's ring at c * ring_stride, buffer with logical
 *          index i at (i % buffers_per_cpu) * buffer_size within it
 *
 * Read-only regions refuse PROT_WRITE, and every region PROT_EXEC (-EPERM).
 *
 * Buffers have logical indexes 0, 1, 2, ... per CPU; the producer
 * publishes them in order. A consumer keeps its position in
 * ack->consumed, which the kernel sets at attach.
 *
 * The logger's protocol, per CPU:
 *   1. p = load-acquire(head->produced). Buffers [consumed, p) are complete.
 *      (The kernel's store-release of produced, after writing the buffer,
 *      pairs with this load.)
 *   2. Read each buffer i in [max(consumed, head->oldest), p) in place. In
 *      a session that overwrites, copy it out instead, then read-barrier
 *      (acquire fence), then reread head->oldest: if it is now above i,
 *      the buffer was overwritten while being copied: drop the copy. (The
 *      kernel advances oldest, then issues a write barrier, before it
 *      writes into a buffer it reuses: that barrier pairs with this
 *      read-barrier.)
 *   3. store-release(ack->consumed, p): the buffers are free again. (The
 *      kernel's load-acquire of consumed, before it reuses a buffer, pairs
 *      with this store, so the consumer's reads finish before the reuse.)
 * A real-time consumer's protocol, per CPU, from i = ack->consumed:
 *   1. p = load-acquire(head->produced), as above.
 *   2. For each i below p: copy buffer i out, then compare-and-swap
 *      ack->consumed from i to i + 1 (release ordering at least). If the
 *      swap succeeds the copy is whole; if it fails, the kernel took the
 *      buffer (and maybe more: the ack holds where to go on) and counted
 *      them lost: drop the copy and go on from the value found. (The
 *      kernel takes a buffer with a compare-and-swap of the same word,
 *      fully ordered, before it writes into it; it writes nothing into a
 *      buffer whose swap it saw done.)
 * The kernel reads ack->consumed but never trusts it: a value below the
 * position it last accepted, or above produced, is ignored.
 * When session->state becomes NTTRACE_SESSION_STOPPED (store-release after
 * the final flush), every buffer is published: drain and finish.
 * poll() reports EPOLLIN when a buffer is waiting for this consumer and
 * EPOLLHUP once the session has stopped.
 */
#define NTTRACE_MAX_CONSUMERS		8
#define NTTRACE_ATTACH_REAL_TIME	0x00000001U
#define NTTRACE_ATTACH_FLAGS		NTTRACE_ATTACH_REAL_TIME

#define NTTRACE_SESSION_RUNNING		1
#define NTTRACE_SESSION_STOPPED		2

struct nttrace_session_head {
	__u32 state;
	__u32 logger_id;
	__u64 pad[7];
};

struct nttrace_ring_head {
	__u64 produced;		/* buffers published, ever */
	__u64 oldest;		/* logical index of the oldest intact buffer */
	__u64 events_written;	/* events committed into this ring */
	__u64 events_lost;	/* events refused: ring full */
	__u64 events_overwritten; /* events in buffers overwritten unread */
	__u64 buffers_overwritten; /* buffers overwritten unread */
	/* buffers real-time consumers lost, all of them together */
	__u64 real_time_buffers_lost;
	__u64 pad;
};

struct nttrace_ring_ack {
	__u64 consumed;		/* the consumer's position (see above) */
	__u64 buffers_lost;	/* written by the kernel: buffers taken */
	__u64 events_lost;	/* written by the kernel: the events in them */
	__u64 pad[5];
};

/**
 * struct nttrace_attach - NTTRACE_IOC_ATTACH: become a session's consumer.
 * @size:      in: sizeof(struct nttrace_attach)
 * @logger_id: in: the session
 * @flags:     in: 0 (the logger) or NTTRACE_ATTACH_REAL_TIME; others: -EINVAL
 * @reserved:  in: 0, else -EINVAL
 * The rest is out, and says how to map and walk the rings (see above).
 */
struct nttrace_attach {
	__u32 size;
	__u32 logger_id;
	__u32 nr_cpus;
	__u32 buffers_per_cpu;
	__u32 buffer_size;
	__u32 log_file_mode;
	__u32 head_stride;
	__u32 ack_stride;
	__u64 heads_offset;
	__u64 heads_size;
	__u64 acks_offset;
	__u64 acks_size;
	__u64 data_offset;
	__u64 data_size;
	__u64 ring_stride;
	__u32 flags;
	__u32 reserved;
};
#define NTTRACE_ATTACH_SIZE_VER0	88	/* no @flags: the logger */
#define NTTRACE_ATTACH_SIZE_VER1	96

/*
 * ---- Buffers ----
 * WMI_BUFFER_HEADER, the 0x48 bytes at the start of every buffer, as ETL
 * files have it. __u8 and __u16 members are
 * where the NT layout has them.
 */
struct nttrace_wmi_buffer_header {
	__u32 buffer_size;	/* bytes in the buffer, header included */
	__u32 saved_offset;	/* end of the last record */
	__u32 current_offset;	/* the same */
	__u32 reference_count;	/* 0 */
	__u64 time_stamp;	/* when the buffer was completed, session clock */
	__u64 sequence_number;	/* session-wide, increasing */
	__u64 clock_type_frequency; /* ClockType:3 (low bits), Frequency:61 */
	union {
		struct {
			/* the CPU whose events fill the buffer (low 8 bits) */
			__u8 processor_number;
			__u8 alignment;
		};
		/* with NTTRACE_WMI_BUFFER_FLAG_PROC_INDEX: the whole CPU number */
		__u16 processor_index;
	};
	__u16 logger_id;
	__u32 state;
	__u32 offset;		/* the same as saved_offset */
	__u16 buffer_flag;	/* WMI_BUFFER_FLAG_* */
	__u16 buffer_type;	/* WMI_BUFFER_TYPE_* */
	__u64 start_time;	/* ReferenceTime: session start, session clock */
	__u64 start_perf_clock;
};
#define NTTRACE_WMI_BUFFER_HEADER_SIZE		0x48
#define NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER	0x0001
/* Events were lost on this CPU just before this buffer's first event. */
#define NTTRACE_WMI_BUFFER_FLAG_EVENTS_LOST	0x0002
/* A buffer of this CPU before this one was overwritten before being read. */
#define NTTRACE_WMI_BUFFER_FLAG_BUFFER_LOST	0x0004
#define NTTRACE_WMI_BUFFER_FLAG_PROC_INDEX	0x0020
/*
 * The records of the buffer are compressed (EVENT_TRACE_COMPRESSED_MODE
 * files): @buffer_size is then the
 * buffer's size on disk and @offset its records' end once decompressed.
 */
#define NTTRACE_WMI_BUFFER_FLAG_COMPRESSED	0x0040
#define NTTRACE_WMI_BUFFER_TYPE_GENERIC		0
#define NTTRACE_WMI_BUFFER_TYPE_HEADER		4
/* The unused tail of a buffer is filled with this byte. */
#define NTTRACE_WMI_BUFFER_FILL			0xFF

/*
 * ---- Classic events ----
 * EVENT_TRACE_HEADER, the 0x30-byte Fields of NTTRACE_ETW_NT_FLAGS_TRACE_HEADER, and
 * EVENT_INSTANCE_GUID_HEADER, the 0x48-byte Fields of
 * NTTRACE_ETW_NT_FLAGS_TRACE_INSTANCE: one layout for 32- and 64-bit callers. On
 * input, @size is the header and its data (or its MOF_FIELD array);
 * @header_type and @marker_flags are ignored; @flags holds WNODE_FLAG_*
 * bits. As written into a buffer the record begins with the same header:
 * @size is the record's size before padding, @header_type
 * TRACE_HEADER_TYPE_*, @marker_flags NTTRACE_TRACE_HEADER_MARKER_BYTE, @thread_id,
 * @process_id and @time_stamp filled in by the logger, and @flags's place
 * zero (Windows keeps KernelTime and UserTime there: nttrace counts no
 * per-thread CPU time, so both are zero).
 */
struct nttrace_event_trace_header {
	__u16 size;
	__u8 header_type;
	__u8 marker_flags;
	__u8 class_type;	/* Class.Type: EVENT_TRACE_TYPE_* */
	__u8 class_level;	/* Class.Level */
	__u16 class_version;	/* Class.Version */
	__u32 thread_id;
	__u32 process_id;
	__u64 time_stamp;	/* in: kept with NTTRACE_WNODE_FLAG_USE_TIMESTAMP */
	union {
		__u8 guid[16];	/* the event's (class) GUID */
		__u64 guid_ptr;	/* in: with NTTRACE_WNODE_FLAG_USE_GUID_PTR */
	};
	union {
		struct {
			__u32 client_context;	/* in: ignored */
			__u32 flags;		/* in: WNODE_FLAG_* */
		};
		struct {
			__u32 kernel_time;	/* out: 0 */
			__u32 user_time;	/* out: 0 */
		};
	};
};
#define NTTRACE_EVENT_TRACE_HEADER_SIZE		0x30

struct nttrace_event_instance_guid_header {
	struct nttrace_event_trace_header h;
	__u32 instance_id;
	__u32 parent_instance_id;
	__u8 parent_guid[16];
};
#define NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE	0x48

/* MOF_FIELD: one item of data, gathered with NTTRACE_WNODE_FLAG_USE_MOF_PTR. */
struct nttrace_mof_field {
	__u64 data_ptr;		/* a user address (kernel-mode callers: kernel) */
	__u32 length;
	__u32 data_type;	/* ignored */
};
#define NTTRACE_MOF_FIELD_SIZE			16
#define NTTRACE_MAX_MOF_FIELDS			16	/* Windows' MAX_MOF_FIELDS: 0x100 bytes */

/* EVENT_TRACE_HEADER.Flags (wmistr.h). */
#define NTTRACE_WNODE_FLAG_USE_TIMESTAMP	0x00000200U
#define NTTRACE_WNODE_FLAG_TRACED_GUID		0x00020000U
#define NTTRACE_WNODE_FLAG_LOG_WNODE		0x00040000U
#define NTTRACE_WNODE_FLAG_USE_GUID_PTR		0x00080000U
#define NTTRACE_WNODE_FLAG_USE_MOF_PTR		0x00100000U
#define NTTRACE_WNODE_FLAG_NO_HEADER		0x00200000U

/* The first ULONG of a classic record: 0xC0, the header type, the size. */
#define NTTRACE_TRACE_HEADER_MARKER_BYTE	((NTTRACE_TRACE_HEADER_FLAG | \
					  NTTRACE_TRACE_HEADER_EVENT_TRACE) >> 24)
#define NTTRACE_TRACE_HEADER_TYPE_SYSTEM32	0x01
#define NTTRACE_TRACE_HEADER_TYPE_SYSTEM64	0x02
#define NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER32	0x0A
#define NTTRACE_TRACE_HEADER_TYPE_INSTANCE32	0x0B
#define NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER64	0x14
#define NTTRACE_TRACE_HEADER_TYPE_INSTANCE64	0x15
#define NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER32 0x12
#define NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER64 0x13
/*
 * The kernel's own headers (ntwmi.h):
 * SYSTEM_TRACE_HEADER (0x20 bytes) as above, its compact form (its first
 * 0x18 bytes, Windows 8 and later) and PERFINFO_TRACE_HEADER (0x10 bytes).
 */
#define NTTRACE_TRACE_HEADER_TYPE_COMPACT32	0x03
#define NTTRACE_TRACE_HEADER_TYPE_COMPACT64	0x04
#define NTTRACE_TRACE_HEADER_TYPE_PERFINFO32	0x10
#define NTTRACE_TRACE_HEADER_TYPE_PERFINFO64	0x11

/*
 * A logger handle as a provider's control callback receives it
 * (WNODE_HEADER.HistoricalContext), packed as Windows' TRACE_ENABLE_CONTEXT
 * (ntwmi.h): bits 0-15 the logger ID, 16-23 the enable level, 24-31
 * internal flags (NTTRACE_TRACE_ENABLE_INTERNAL_PRIVATE: the process's user-mode
 * logger), 32-63 the enable flags. GetTraceEnableFlags and
 * GetTraceEnableLevel read it without a system call; NtTraceEvent takes
 * the low 16 bits as the logger ID.
 */
#define NTTRACE_HANDLE(id, level, internal, flags) \
	((__u64)(__u16)(id) | (__u64)(__u8)(level) << 16 | \
	 (__u64)(__u8)(internal) << 24 | (__u64)(__u32)(flags) << 32)
#define NTTRACE_HANDLE_LOGGER_ID(h)	((__u32)((h) & 0xFFFF))
#define NTTRACE_HANDLE_LEVEL(h)		((__u32)(((h) >> 16) & 0xFF))
#define NTTRACE_HANDLE_INTERNAL(h)	((__u32)(((h) >> 24) & 0xFF))
#define NTTRACE_HANDLE_FLAGS(h)		((__u32)((h) >> 32))
#define NTTRACE_TRACE_ENABLE_INTERNAL_PRIVATE	0x01

/*
 * ---- Providers ----
 *
 * A process registers a provider GUID (RegisterTraceGuids, EventRegister)
 * with NTTRACE_IOC_REGISTER on an open /dev/nttrace; the registration
 * belongs to that open file and ends with NTTRACE_IOC_UNREGISTER or when
 * the file is closed. Anyone may register (as any Windows process may);
 * each effective UID may hold at most the module's max_user_registrations
 * (default 1024; past it: -EDQUOT), each file at most
 * NTTRACE_MAX_REGISTRATIONS (-EMFILE). No page of the caller stays pinned:
 * the kernel pins the page of the struct nttrace_enable_info for the
 * moment of each write, as user_events writes its enable bit.
 *
 * Enabling is independent of registering: a controller (privileged, see
 * "Who may do what") enables a GUID for a session with NTTRACE_IOC_ENABLE
 * whether or not any provider has registered it; a provider registering
 * later finds the enables made before. Each session keeps its own enable
 * (level, flags, keywords) per GUID; a session that stops disables every
 * GUID it enabled.
 *
 * The kernel keeps each registration's struct nttrace_enable_info, in the
 * registering process's memory, up to date (as user_events writes its
 * enable bit): the library answers "is this provider enabled, for which
 * logger, with which flags and level" from it, with no system call. It is
 * written under a sequence count:
 *   kernel: sequence++ (now odd); smp_wmb(); the members; smp_wmb();
 *           sequence++ (even again).
 *   reader: s = load-acquire(sequence); if odd, retry; read the members;
 *           read-barrier (acquire fence); if sequence != s, retry.
 * (The kernel's first smp_wmb pairs with the reader's final read barrier,
 * its second with the reader's load-acquire.)
 * And every change queues a notification on the registering file: poll()
 * reports EPOLLPRI while one is waiting, and NTTRACE_IOC_NOTIFICATION takes
 * them one at a time, so that the library runs the provider's callback.
 */
#define NTTRACE_MAX_REGISTRATIONS	1024	/* per open file */

/* Registration types (ETW_NOTIFICATION_TYPE's first values). */
#define NTTRACE_REG_CLASSIC	1	/* RegisterTraceGuids: one logger at a time */
#define NTTRACE_REG_EVENT	2	/* EventRegister: every enabling session */

struct nttrace_enable_info {
	__u32 sequence;		/* odd while the kernel updates */
	__u32 sessions;		/* how many sessions enable the GUID; 0: none */
	/* NTTRACE_HANDLE() of the latest enable (a classic provider acts on it); 0: none */
	__u64 logger_handle;
	/* the highest level any session enables, an enable at 0 (every level) counting as 255 */
	__u8 level;
	__u8 pad[7];
	__u64 match_any_keyword; /* the union over the sessions */
	__u64 match_all_keyword; /* the intersection over the sessions */
	__u64 loggers;		/* bit (id - 1) for each enabling session */
};
#define NTTRACE_ENABLE_INFO_SIZE	48

/**
 * struct nttrace_register - NTTRACE_IOC_REGISTER: register a provider GUID.
 * @size:        in: sizeof(struct nttrace_register)
 * @type:        in: NTTRACE_REG_* (else -EINVAL)
 * @guid:        in: the provider's (control) GUID
 * @enable_info: in: the user address of the struct nttrace_enable_info the
 *               kernel keeps up to date; 8-byte aligned and not across a
 *               page boundary (else -EINVAL), writable memory of the
 *               caller (else -EFAULT). Written before the call returns,
 *               with the enables already made, and at every change before
 *               ENABLE returns (a page not present is faulted in first),
 *               but while the process holds its own mmap_lock (a thread
 *               of it in mmap(), say): then once the lock is free, its
 *               notifications held back until it is written.
 *               The address is the registering process's: after munmap
 *               nothing is written there (until it is mapped again), after
 *               exit or exec nothing at all, and after fork the parent's
 *               memory only (the child's copy is not updated; the child
 *               registers again to have its own: the library does).
 * @context:     in: returned in this registration's notifications; opaque
 * @handle:      out: the registration, for UNREGISTER; never 0
 */
struct nttrace_register {
	__u32 size;
	__u32 type;
	__u8 guid[16];
	__u64 enable_info;
	__u64 context;
	__u64 handle;
};
#define NTTRACE_REGISTER_SIZE_VER0	48

/**
 * struct nttrace_unregister - NTTRACE_IOC_UNREGISTER.
 * @size:   in: sizeof(struct nttrace_unregister)
 * @pad:    0
 * @handle: in: from REGISTER on this file (else -ENOENT)
 * No notification for the registration is delivered after it returns.
 */
struct nttrace_unregister {
	__u32 size;
	__u32 pad;
	__u64 handle;
};
#define NTTRACE_UNREGISTER_SIZE_VER0	16

/* EnableTraceEx2's ControlCode values; EnableTrace uses the first two. */
#define NTTRACE_EVENT_CONTROL_CODE_DISABLE_PROVIDER	0
#define NTTRACE_EVENT_CONTROL_CODE_ENABLE_PROVIDER	1
#define NTTRACE_EVENT_CONTROL_CODE_CAPTURE_STATE	2

/**
 * struct nttrace_enable - NTTRACE_IOC_ENABLE: a controller (privileged,
 * else -EPERM) enables or disables a GUID for a session.
 * @size:        in: sizeof(struct nttrace_enable)
 * @logger_id:   in: a running session (else -ENOENT)
 * @guid:        in: the provider GUID; need not be registered
 * @control:     in: EVENT_CONTROL_CODE_* (else -EINVAL). DISABLE of a GUID
 *               the session does not enable: -ENOENT. CAPTURE_STATE of a
 *               GUID the session does not enable: -ENOENT.
 * @level:       in: the enable level (ENABLE), at most 255 (else -EINVAL)
 * @enable_flags: in: EnableFlag of EnableTrace (ENABLE)
 * @match_any_keyword, @match_all_keyword: in: keywords (ENABLE). With
 *               CAPTURE_STATE, @level and these are what the providers'
 *               callbacks are told (the state wanted); all three 0: the
 *               session's enable
 * @registrations: out: how many registrations were notified
 * @filter_flags: in: NTTRACE_ENABLE_FILTER_* (ENABLE only; other bits, or
 *               any with DISABLE or CAPTURE_STATE: -EINVAL)
 * @event_id_count: in: with NTTRACE_ENABLE_FILTER_EVENT_ID, the IDs at
 *               @event_ids, 1 to NTTRACE_MAX_FILTER_EVENT_IDS; else 0
 *               (else -EINVAL)
 * @event_ids:   in: with NTTRACE_ENABLE_FILTER_EVENT_ID, the user address
 *               of @event_id_count __u16 event IDs (unreadable: -EFAULT),
 *               read once; else 0 (else -EINVAL)
 * Enabling a GUID a session already enables replaces its level, flags,
 * keywords and filter (an ENABLE without one leaves the session none). A
 * session may enable at most NTTRACE_MAX_ENABLES GUIDs (-ENOSPC).
 *
 * The event-ID filter (EnableTraceEx2's EVENT_FILTER_TYPE_EVENT_ID): with
 * NTTRACE_ENABLE_FILTER_EVENT_ID_IN only events whose descriptor's id is
 * among the IDs reach the session, without it only events whose id is
 * not. It applies to EventWrite events (NTTRACE_ETW_NT_FLAGS_TRACE_EVENT)
 * after level and keywords; an event it keeps from a session is not
 * wanted by that session (not lost: no loss is counted). The enable info
 * and the registrations' notifications do not carry it. A caller built
 * before these members (size NTTRACE_ENABLE_SIZE_VER0) enables with no
 * filter; a module older than them refuses a filter with -E2BIG.
 */
struct nttrace_enable {
	__u32 size;
	__u32 logger_id;
	__u8 guid[16];
	__u32 control;
	__u32 level;
	__u32 enable_flags;
	__u32 registrations;
	__u64 match_any_keyword;
	__u64 match_all_keyword;
	/* NTTRACE_ENABLE_SIZE_VER1: */
	__u32 filter_flags;
	__u32 event_id_count;
	__u64 event_ids;
	/* NTTRACE_ENABLE_SIZE_VER2: */
	__u32 enable_property;
	__u32 timeout_ms;
};
#define NTTRACE_ENABLE_SIZE_VER0	56
#define NTTRACE_ENABLE_SIZE_VER1	72
#define NTTRACE_ENABLE_SIZE_VER2	80
/*
 * @enable_property: EnableTraceEx2's EVENT_ENABLE_PROPERTY_STACK_TRACE, the
 * one property the kernel keeps (ENABLE only, else -EINVAL; any other bit:
 * -EINVAL). Each EventWrite record the session gets then
 * carries an EVENT_HEADER_EXT_TYPE_STACK_TRACE64 item (STACK_TRACE32 from
 * a 32-bit process), its data a __u64 MatchId, always 0 here (every stack
 * is whole when written), then the return addresses, innermost first, at
 * most 192: the writing thread's user frames, found by their frame
 * pointers; a kernel-mode writer's kernel frames before them only for a
 * session whose readers may see kernel addresses (a system logger started
 * with PROFILE by a CAP_SYSLOG holder), else none. Frames that would take
 * the record past 0xFFFF bytes are left out.
 *
 * @timeout_ms: EnableTraceEx2's Timeout (any control code; a module
 * without NTTRACE_FEAT_ENABLE_TIMEOUT takes only 0, else -EINVAL). 0: the
 * call returns once the registrations are notified. Else it also waits,
 * up to that many milliseconds, until each notification it queued is done
 * with: taken, and followed by its file's next NTTRACE_IOC_NOTIFICATION
 * call (the library takes the next one only when the callback of the one
 * before has returned, and calls until none is left), or dropped (an
 * overflowing queue, UNREGISTER, the file closed). Past the time:
 * -ETIMEDOUT, the change made all the same (Windows' ERROR_TIMEOUT). A
 * fatal signal ends the wait too. A kernel registration's callbacks have
 * run when the call returns, unless another thread was running them.
 */
#define NTTRACE_ENABLE_PROPERTY_STACK_TRACE	0x00000004U
#define NTTRACE_MAX_ENABLES		256	/* GUIDs per session */
/* An event-ID filter is given (@event_id_count, @event_ids). */
#define NTTRACE_ENABLE_FILTER_EVENT_ID		0x00000001U
/* With it: only the IDs pass (EVENT_FILTER_EVENT_ID's FilterIn TRUE). */
#define NTTRACE_ENABLE_FILTER_EVENT_ID_IN	0x00000002U
/* evntprov.h's MAX_EVENT_FILTER_EVENT_ID_COUNT */
#define NTTRACE_MAX_FILTER_EVENT_IDS		64

/**
 * struct nttrace_notification - NTTRACE_IOC_NOTIFICATION: the oldest
 * notification waiting on this file, or -EAGAIN when there is none.
 * @size:          in: sizeof(struct nttrace_notification)
 * @control:       out: EVENT_CONTROL_CODE_*: ENABLE (an enable, also one
 *                 made before the registration), DISABLE (disabled by its
 *                 controller, or its session stopped), CAPTURE_STATE.
 *                 A NTTRACE_REG_EVENT registration hears of every
 *                 session's changes; a NTTRACE_REG_CLASSIC one acts on one
 *                 session (enable_info.logger_handle: the latest enable
 *                 still standing) and hears only of that: ENABLE when it
 *                 changes or is enabled again, DISABLE when no session
 *                 enables the GUID any more, never CAPTURE_STATE.
 * @handle:        out: the registration it is for
 * @context:       out: that registration's context
 * @logger_handle: out: NTTRACE_HANDLE() of the session concerned
 * @level, @enable_flags, @match_any_keyword, @match_all_keyword: out: that
 *                 session's enable (DISABLE: the values it had)
 * @logger_id:     out: the session concerned
 * A notification waits until taken; if more than NTTRACE_MAX_NOTIFICATIONS
 * wait on one file, the oldest are dropped (the enable info in memory is
 * always current) and @dropped counts them.
 */
struct nttrace_notification {
	__u32 size;
	__u32 control;
	__u64 handle;
	__u64 context;
	__u64 logger_handle;
	__u32 level;
	__u32 enable_flags;
	__u64 match_any_keyword;
	__u64 match_all_keyword;
	__u32 logger_id;
	__u32 dropped;
};
#define NTTRACE_NOTIFICATION_SIZE_VER0	64
#define NTTRACE_MAX_NOTIFICATIONS	256

/**
 * struct nttrace_provider_row - one row of NTTRACE_IOC_LIST_PROVIDERS:
 * either a registration (@logger_id 0) or a session's enable (@pid 0).
 * @guid:       the provider GUID
 * @pid:        the registering process, as the caller's PID namespace sees
 *              it (0 for enable rows, or when not visible there)
 * @type:       NTTRACE_REG_* (registration rows)
 * @logger_id:  the enabling session (enable rows)
 * @level, @enable_flags, @match_any_keyword, @match_all_keyword: its enable
 * @flags:      NTTRACE_PROVIDER_ROW_* (0 in registration rows). Was @pad,
 *              always 0, before: a caller built then reads no flag.
 */
struct nttrace_provider_row {
	__u8 guid[16];
	__u32 pid;
	__u32 type;
	__u32 logger_id;
	__u32 level;
	__u32 enable_flags;
	__u32 flags;
	__u64 match_any_keyword;
	__u64 match_all_keyword;
};
#define NTTRACE_PROVIDER_ROW_SIZE	56
/*
 * The enable row of the session a classic registration of the GUID acts
 * on: the latest enable still standing (enable_info.logger_handle's), so
 * that a controller can tell which session EnumerateTraceGuids names.
 */
#define NTTRACE_PROVIDER_ROW_LATEST	0x00000001U
/* The enable has NTTRACE_ENABLE_PROPERTY_STACK_TRACE. */
#define NTTRACE_PROVIDER_ROW_STACK_TRACE	0x00000002U

/**
 * struct nttrace_provider_list - NTTRACE_IOC_LIST_PROVIDERS: what
 * `logman query providers` shows. Open to anyone.
 * @size:  in: sizeof(struct nttrace_provider_list)
 * @count: in: room in @rows; out: rows there are (may exceed the room:
 *         then only the first @count on input were written)
 * @rows:  in: user address of a struct nttrace_provider_row array, sorted
 *         by GUID, registrations before enables
 */
struct nttrace_provider_list {
	__u32 size;
	__u32 count;
	__u64 rows;
};
#define NTTRACE_PROVIDER_LIST_SIZE_VER0	16

/*
 * ---- EventWrite: NTTRACE_ETW_NT_FLAGS_TRACE_EVENT ----
 *
 * EVENT_DESCRIPTOR and EVENT_DATA_DESCRIPTOR as evntprov.h has them (one
 * layout for 32- and 64-bit callers: Ptr is a ULONGLONG there too).
 */
struct nttrace_event_descriptor {
	__u16 id;
	__u8 version;
	__u8 channel;
	__u8 level;
	__u8 opcode;
	__u16 task;
	__u64 keyword;
};
#define NTTRACE_EVENT_DESCRIPTOR_SIZE		16

struct nttrace_event_data_descriptor {
	__u64 ptr;		/* a user address (kernel-mode callers: kernel) */
	__u32 size;
	/*
	 * Windows' Reserved: its low byte is the Type with
	 * NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES, else ignored
	 */
	__u32 reserved;
};
#define NTTRACE_EVENT_DATA_DESCRIPTOR_SIZE	16
/* The Types (evntprov.h's EVENT_DATA_DESCRIPTOR_TYPE_*) the kernel takes. */
#define NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_NONE			0
#define NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA	1
#define NTTRACE_EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA	2
#define NTTRACE_MAX_EVENT_DATA_DESCRIPTORS	128	/* evntprov.h */

/*
 * EVENT_HEADER (evntcons.h), as an EventWrite record begins in a buffer:
 * @size the record's size before padding, @header_type
 * NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER32 or 64 (by the caller's pointer size) with
 * NTTRACE_TRACE_HEADER_MARKER_BYTE above it (so the 16 bits read 0xC012 / 0xC013),
 * @flags EVENT_HEADER_FLAG_*, @processor_time 0 (nttrace counts no
 * per-thread CPU time: NTTRACE_EVENT_HEADER_FLAG_NO_CPUTIME is set). With
 * NTTRACE_EVENT_HEADER_FLAG_EXTENDED_INFO, extended items follow the header, each
 * a struct nttrace_event_extended_item_header and its data padded to 8 bytes;
 * then the user data (the data descriptors' bytes, one after the other).
 */
struct nttrace_event_header {
	__u16 size;
	__u8 header_type;
	__u8 marker_flags;
	__u16 flags;
	__u16 event_property;
	__u32 thread_id;
	__u32 process_id;
	__u64 time_stamp;
	__u8 provider_id[16];
	struct nttrace_event_descriptor descriptor;
	__u64 processor_time;
	__u8 activity_id[16];
};
#define NTTRACE_EVENT_HEADER_SIZE		0x50

#define NTTRACE_EVENT_HEADER_FLAG_EXTENDED_INFO		0x0001
#define NTTRACE_EVENT_HEADER_FLAG_PRIVATE_SESSION	0x0002
#define NTTRACE_EVENT_HEADER_FLAG_STRING_ONLY		0x0004
#define NTTRACE_EVENT_HEADER_FLAG_TRACE_MESSAGE		0x0008
#define NTTRACE_EVENT_HEADER_FLAG_NO_CPUTIME		0x0010
#define NTTRACE_EVENT_HEADER_FLAG_32_BIT_HEADER		0x0020
#define NTTRACE_EVENT_HEADER_FLAG_64_BIT_HEADER		0x0040
#define NTTRACE_EVENT_HEADER_FLAG_CLASSIC_HEADER	0x0100
#define NTTRACE_EVENT_HEADER_FLAG_PROCESSOR_INDEX	0x0200

/*
 * One extended data item in a buffer. No SDK header gives this layout
 * (EVENT_HEADER_EXTENDED_DATA_ITEM is the consumer's, with a pointer); as
 * public ETL readers take it: @size the whole item, this header and its
 * data padded to 8 bytes (nttrace's reading of Windows' Reserved1),
 * @ext_type EVENT_HEADER_EXT_TYPE_*, @linkage 1 when another item follows
 * (else 0), @data_size the data's bytes.
 */
struct nttrace_event_extended_item_header {
	__u16 size;
	__u16 ext_type;
	__u16 linkage;
	__u16 data_size;
};
#define NTTRACE_EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID	0x0001
#define NTTRACE_EVENT_HEADER_EXT_TYPE_STACK_TRACE32		0x0005
#define NTTRACE_EVENT_HEADER_EXT_TYPE_STACK_TRACE64		0x0006
#define NTTRACE_EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL		0x000B
#define NTTRACE_EVENT_HEADER_EXT_TYPE_PROV_TRAITS		0x000C

/*
 * struct nttrace_event_write_user - the Fields of NTTRACE_ETW_NT_FLAGS_TRACE_EVENT,
 * NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY and NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG:
 * Windows' own 0x78-byte block (as phnt's ntwmi.h and Geoff Chappell
 * describe it; the member names are ours), one
 * layout for 32- and 64-bit callers (the 64-bit Windows kernel reads
 * +0x58 as 64 bits for WOW64 callers too, so they *probably* pass this
 * same block). FieldSize must be NTTRACE_EVENT_WRITE_USER_SIZE (Windows
 * reads 0x78 bytes whatever FieldSize says; nttrace refuses another size
 * with NTTRACE_STATUS_INVALID_PARAMETER, so that a caller of a wrong
 * layout is told). TraceHandle: TRACE_EVENT the registration's handle
 * (struct nttrace_register's @handle, an NTTRACE_REG_EVENT registration of
 * the calling process); TRACE_SECURITY none (ignored); TRACE_EVENT_NOREG
 * the address of the 16-byte provider GUID.
 * @header:       an EVENT_HEADER the caller fills: @descriptor, @activity_id,
 *                @event_property and, of @flags, EVENT_HEADER_FLAG_STRING_ONLY
 *                (EventWriteString) are written into the record as given;
 *                the other flag bits are the kernel's (ignored), as are
 *                size, type, IDs, time stamp and provider ID. @processor_time
 *                is nttrace's 64-bit @filter with NTTRACE_EVENT_WRITE_FLAG_FILTER64
 *                (the record's ProcessorTime is always 0 here).
 * @related_activity: non-zero: @related_activity_id is written as an
 *                NTTRACE_EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID item
 * @spare0, @spare1: 0 from nttrace's library; not looked at (Windows does
 *                not), so not pad members in the ioctl structs' sense
 * @filter:       EventWriteEx's Filter, the sessions left out: bit (id - 1)
 *                for logger IDs 1 to 16 (*inferred* by the note; nttrace has
 *                NTTRACE_MAX_LOGGERS, so the 64-bit mask rides in
 *                @header.processor_time, see above; both are applied)
 * @data_count:   EVENT_DATA_DESCRIPTORs at @data, at most
 *                NTTRACE_MAX_EVENT_DATA_DESCRIPTORS; @data_count and @data
 *                both 0 or both not (else NTTRACE_STATUS_INVALID_PARAMETER)
 * @data:         the address of the EVENT_DATA_DESCRIPTOR array; a
 *                descriptor's size over 0xFFFF: NTTRACE_STATUS_BUFFER_OVERFLOW
 * @related_activity_id: see @related_activity
 * @flags:        EventWriteEx's Flags (*inferred*): NTTRACE_EVENT_WRITE_FLAG_*
 *                (others: NTTRACE_STATUS_INVALID_PARAMETER). Its low 16 bits
 *                are Windows' EVENT_WRITE_FLAG_*, the high 16 nttrace's own.
 */
struct nttrace_event_write_user {
	struct nttrace_event_header header;
	__u8 related_activity;
	__u8 spare0;
	__u16 filter;
	__u32 data_count;
	__u64 data;
	__u8 related_activity_id[16];
	__u32 flags;
	__u32 spare1;
};
#define NTTRACE_EVENT_WRITE_USER_SIZE		0x78
/* evntprov.h's: accepted, no effect (nttrace never faults in a write). */
#define NTTRACE_EVENT_WRITE_FLAG_NO_FAULTING	0x00000001U
#define NTTRACE_EVENT_WRITE_FLAG_INPRIVATE	0x00000002U
/*
 * nttrace's: the provider asked for descriptor Types (EventSetInformation's
 * EventProviderSetTraits or EventProviderUseDescriptorType; Windows keeps
 * this per registration, nttrace's caller says it per event): a descriptor
 * of Type PROVIDER_METADATA is written as the record's
 * NTTRACE_EVENT_HEADER_EXT_TYPE_PROV_TRAITS item, one of EVENT_METADATA as
 * its NTTRACE_EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL item (TraceLogging's
 * metadata, copied as given); any other Type, or either twice,
 * NTTRACE_STATUS_INVALID_PARAMETER.
 */
#define NTTRACE_EVENT_WRITE_FLAG_DESCRIPTOR_TYPES	0x00010000U
/* nttrace's: @header.processor_time is a 64-bit @filter (bit id - 1). */
#define NTTRACE_EVENT_WRITE_FLAG_FILTER64		0x00020000U

/*
 * ---- Events without a registration, and the security log ----
 *
 * NTTRACE_ETW_NT_FLAGS_TRACE_EVENT_NOREG (EtwEventWriteNoRegistration):
 * Fields the block above, TraceHandle the address of the 16-byte provider
 * GUID (0: NTTRACE_STATUS_INVALID_PARAMETER; unreadable:
 * NTTRACE_STATUS_ACCESS_VIOLATION). No session enables the GUID:
 * NTTRACE_STATUS_WMI_ALREADY_DISABLED; else each session whose enable of
 * the GUID takes the event gets an EVENT_HEADER record with that GUID as
 * ProviderId, as for EventWrite (enables made with no registration count:
 * they are kept per GUID). Enabled but no session takes the event's level
 * and keywords: NTTRACE_STATUS_SUCCESS.
 *
 * NTTRACE_ETW_NT_FLAGS_TRACE_SECURITY (EtwWriteUMSecurityEvent): Fields the
 * block above, TraceHandle ignored (Windows passes NULL). Only the process
 * that holds the security-provider registration may write (others, and
 * kernel-mode callers: NTTRACE_STATUS_ACCESS_DENIED, checked first); the
 * events go through NTTRACE_SECURITY_PROVIDER_GUID into the sessions that
 * enable it (none: NTTRACE_STATUS_SUCCESS, nothing written).
 *
 * NTTRACE_IOC_REGISTER_SECURITY (Windows: EtwRegisterSecurityProvider,
 * NtTraceControl code 24) makes the calling process the security provider:
 * it needs CAP_AUDIT_WRITE (Linux's right to write the audit log, as
 * Windows' SeAuditPrivilege is LSASS's) or CAP_SYS_ADMIN (else -EPERM).
 * One process at a time, as Windows keeps one: while it is held, -EBUSY.
 * It belongs to the open file it was made on and to the calling process
 * (its thread group): it ends when that open file is released (closed by
 * every holder, the process's exit included) or when the process has
 * exited (a child that inherits the descriptor and keeps it open does not
 * become the provider, nor keep others out). Enabling
 * NTTRACE_SECURITY_PROVIDER_GUID (NTTRACE_IOC_ENABLE, any control code)
 * needs CAP_AUDIT_READ or CAP_SYS_ADMIN besides the controller's right
 * (else -EPERM): a security log must not reach a session its reader could
 * not read the audit log from.
 */
#define NTTRACE_STATUS_WMI_ALREADY_DISABLED	0xC0000302U
/* {54849625-5478-4994-A5BA-3E3B0328C30D}, as its 16 bytes in memory */
#define NTTRACE_SECURITY_PROVIDER_GUID_BYTES \
	{ 0x25, 0x96, 0x84, 0x54, 0x78, 0x54, 0x94, 0x49, \
	  0xA5, 0xBA, 0x3E, 0x3B, 0x03, 0x28, 0xC3, 0x0D }

/**
 * struct nttrace_security_register - NTTRACE_IOC_REGISTER_SECURITY.
 * @size:  in: sizeof(struct nttrace_security_register)
 * @flags: in: 0 (else -EINVAL)
 */
struct nttrace_security_register {
	__u32 size;
	__u32 flags;
};
#define NTTRACE_SECURITY_REGISTER_SIZE_VER0	8

/*
 * Whether a session enabled with @level, @any and @all wants an event of
 * @event_level and @keyword: the rule of the SDK's generated
 * McGenLevelKeywordEnabled (level 0 on either side: every level; keyword 0:
 * every session; else some of @any and all of @all). The kernel applies
 * it per session; struct nttrace_enable_info's aggregate (level: the
 * highest, 0 counting as 255; any: the union; all: the intersection) gives
 * EventEnabled a yes for every event some session wants.
 */
#define NTTRACE_LEVEL_KEYWORD_ENABLED(level, any, all, event_level, keyword) \
	(((event_level) <= (level) || (level) == 0) && \
	 ((keyword) == 0 || (((keyword) & (any)) && \
			     (((keyword) & (all)) == (all)))))

/*
 * ---- The sampling profile ----
 *
 * NTTRACE_IOC_PROFILE reads or sets the interval at which
 * NTTRACE_EVENT_TRACE_FLAG_PROFILE samples (Windows:
 * TraceQueryInformation and TraceSetInformation with
 * TraceSampledProfileIntervalInfo, TRACE_PROFILE_INTERVAL). One setting
 * for the machine, as on Windows, kept while the module is loaded; it
 * applies at once to sampling that runs, and every system logger wanting
 * PROFILE gets a PerfInfo SetInterval event saying so. Reading: anyone
 * who may open the device. Setting: the system logger's rule (CAP_PERFMON
 * in the initial user and PID namespaces, else -EPERM).
 *
 * Sources (KPROFILE_SOURCE): NTTRACE_PROFILE_SOURCE_TIMER (Windows'
 * ProfileTime, "Timer"), the kernel's cpu-clock, alone; another: -EINVAL.
 * Intervals in 100 ns units, xperf's limits: NTTRACE_PROFILE_INTERVAL_MIN
 * (122.1 us) to NTTRACE_PROFILE_INTERVAL_MAX (1 s); the default
 * NTTRACE_PROFILE_INTERVAL_DEFAULT (1 ms). Out of range: -EINVAL.
 */
#define NTTRACE_PROFILE_SOURCE_TIMER		0
#define NTTRACE_PROFILE_INTERVAL_MIN		1221U
#define NTTRACE_PROFILE_INTERVAL_MAX		10000000U
#define NTTRACE_PROFILE_INTERVAL_DEFAULT	10000U

/* struct nttrace_profile's @flags: set @interval (else read it). */
#define NTTRACE_PROFILE_SET			0x1U

/**
 * struct nttrace_profile - NTTRACE_IOC_PROFILE: the profile interval.
 * @size:     in: sizeof(struct nttrace_profile)
 * @flags:    in: NTTRACE_PROFILE_SET or 0; other bits: -EINVAL
 * @source:   in: the profile source
 * @interval: in (with NTTRACE_PROFILE_SET): the new interval; out: the
 *            interval now
 * @min_interval: out: the source's least interval
 * @max_interval: out: its greatest
 */
struct nttrace_profile {
	__u32 size;
	__u32 flags;
	__u32 source;
	__u32 interval;
	__u32 min_interval;
	__u32 max_interval;
};
#define NTTRACE_PROFILE_SIZE_VER0	24

/*
 * ---- Stacks of kernel events ----
 *
 * NTTRACE_IOC_STACKS reads or sets the kernel events a system logger
 * writes a call stack for (Windows: TraceSetInformation and
 * TraceQueryInformation with TraceStackTracingInfo, CLASSIC_EVENT_IDs; here
 * their HookIds, group << 8 | type). Each such event is followed, in the
 * same ring, by a StackWalk event (HookId 0x1820, PERFINFO header, version
 * 2): EventTimeStamp (the event's time stamp), StackProcess, StackThread,
 * then up to NTTRACE_STACK_FRAMES_MAX return addresses, innermost first:
 * the kernel's (only for a session whose records may hold kernel
 * addresses, started with PROFILE: see "System loggers"), then the user
 * program's, by its frame
 * pointers (a program built without them gives its instruction pointer
 * and what its frame pointer register happens to lead to).
 *
 * Setting replaces the list (count 0: no stacks); at most
 * NTTRACE_STACKS_MAX HookIds, each of an event the module writes (else
 * -EOPNOTSUPP: a stack asked for and never written would look like an
 * event that has none), of a running system logger (-ENOENT for no such
 * session; another session's list stays empty: -EINVAL for a nonempty
 * one), by a caller who may control it (-EPERM). Reading, as QUERY, by
 * anyone: @count is the room at @hooks, and comes back as the list's
 * length (the HookIds, as many as fit, in ascending order).
 */
#define NTTRACE_STACKS_MAX		256
#define NTTRACE_STACK_FRAMES_MAX	192

/* struct nttrace_stacks's @flags: set the list (else read it). */
#define NTTRACE_STACKS_SET		0x1U

/**
 * struct nttrace_stacks - NTTRACE_IOC_STACKS: a system logger's events with stacks.
 * @size:      in: sizeof(struct nttrace_stacks)
 * @logger_id: in: the system logger
 * @flags:     in: NTTRACE_STACKS_SET or 0; other bits: -EINVAL
 * @count:     in: the HookIds at @hooks (set) or the room there (read);
 *             out: the list's length
 * @hooks:     in: a user pointer to __u16 HookIds
 */
struct nttrace_stacks {
	__u32 size;
	__u32 logger_id;
	__u32 flags;
	__u32 count;
	__u64 hooks;
};
#define NTTRACE_STACKS_SIZE_VER0	24

#define NTTRACE_IOC_VERSION \
	_IOWR(NTTRACE_IOC_MAGIC, 0x00, struct nttrace_version)
#define NTTRACE_IOC_TRACE_EVENT \
	_IOWR(NTTRACE_IOC_MAGIC, 0x01, struct nttrace_trace_event)
#define NTTRACE_IOC_START_TRACE \
	_IOWR(NTTRACE_IOC_MAGIC, 0x10, struct nttrace_logger_info)
#define NTTRACE_IOC_CONTROL_TRACE \
	_IOWR(NTTRACE_IOC_MAGIC, 0x11, struct nttrace_logger_info)
#define NTTRACE_IOC_LIST_TRACES \
	_IOWR(NTTRACE_IOC_MAGIC, 0x12, struct nttrace_logger_list)
#define NTTRACE_IOC_ATTACH \
	_IOWR(NTTRACE_IOC_MAGIC, 0x13, struct nttrace_attach)
#define NTTRACE_IOC_PROFILE \
	_IOWR(NTTRACE_IOC_MAGIC, 0x14, struct nttrace_profile)
#define NTTRACE_IOC_STACKS \
	_IOWR(NTTRACE_IOC_MAGIC, 0x15, struct nttrace_stacks)
#define NTTRACE_IOC_REGISTER \
	_IOWR(NTTRACE_IOC_MAGIC, 0x20, struct nttrace_register)
#define NTTRACE_IOC_UNREGISTER \
	_IOWR(NTTRACE_IOC_MAGIC, 0x21, struct nttrace_unregister)
#define NTTRACE_IOC_ENABLE \
	_IOWR(NTTRACE_IOC_MAGIC, 0x22, struct nttrace_enable)
#define NTTRACE_IOC_NOTIFICATION \
	_IOWR(NTTRACE_IOC_MAGIC, 0x23, struct nttrace_notification)
#define NTTRACE_IOC_LIST_PROVIDERS \
	_IOWR(NTTRACE_IOC_MAGIC, 0x24, struct nttrace_provider_list)
#define NTTRACE_IOC_REGISTER_SECURITY \
	_IOWR(NTTRACE_IOC_MAGIC, 0x25, struct nttrace_security_register)

#endif /* _UAPI_NTTRACE_H */
