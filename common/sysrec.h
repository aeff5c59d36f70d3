/* SPDX-License-Identifier: GPL-2.0 OR LGPL-2.1 */
/*
 * The NT Kernel Logger's records, as Windows' kernel writes them: the
 * kernel's event headers (SYSTEM_TRACE_HEADER, its compact form,
 * PERFINFO_TRACE_HEADER) and the payloads of the MOF classes nttrace
 * writes. Pure functions over memory the caller gives, in one copy built
 * into nttrace.ko and libnttrace, like common/record.c.
 *
 * Every payload encoder comes in two: ntr_sr_X_size() computes the
 * payload's size (0: it cannot be written, the strings too long for one
 * record), so that the writer reserves exactly header + size bytes, and
 * ntr_sr_X_write() writes it at @buf, @room bytes, and returns the same
 * size (0, writing nothing, if @room is short). Each writes every byte it
 * counts: padding is zero. @ptr32: the trace is a 32-bit kernel's
 * (pointers, SIZE_T and the TOKEN_USER 4 bytes); else 8.
 *
 * One event, from the glue:
 *
 *	e = ntr_sr_event(NTR_SR_CSWITCH);	(header kind, version, flag)
 *	n = ntr_sr_cswitch_size(&cs, ptr32);
 *	size = ntr_sr_record_size(e->kind, n);	(0: too big, not written)
 *	rec = the writer's reservation of size bytes;
 *	ntr_sr_header_write(rec, size, &h);	(h: e's HookId, kind, version)
 *	ntr_sr_cswitch_write(rec + ntr_sr_header_size(e->kind), n, &cs, ptr32);
 *
 * Where the layouts come from: userlib/etl/kernel_classes.c, the reader's
 * table of the same classes ([MS page], [PerfView], [files]), and the
 * comments at each struct below. The versions are those Windows 10 and
 * later write, as the Windows-written files at hand carry them.
 */
#ifndef NTTRACE_COMMON_SYSREC_H
#define NTTRACE_COMMON_SYSREC_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <linux/types.h>
#endif
#include <nttrace/uapi.h>

/* ---- the headers ---- */

/*
 * The three headers of the kernel's events (as phnt's ntwmi.h has them):
 * - FULL, SYSTEM_TRACE_HEADER, 0x20 bytes: Marker {USHORT Version; UCHAR
 *   HeaderType; UCHAR Flags}, Size, HookId, ThreadId, ProcessId, the time
 *   stamp, KernelTime and UserTime;
 * - COMPACT, its first 0x18 bytes (Windows 8 and later; no event of the
 *   Windows-written files at hand has it, and no event here uses it);
 * - PERFINFO, PERFINFO_TRACE_HEADER, 0x10 bytes: Marker, Size, HookId and
 *   the time stamp; consumers show the thread and process IDs as -1.
 * Flags is 0xC0 (TRACE_HEADER_FLAG | TRACE_HEADER_EVENT_TRACE) in every
 * kernel event of those files.
 */
enum ntr_sr_kind {
	NTR_SR_FULL,
	NTR_SR_COMPACT,
	NTR_SR_PERFINFO,
};

/* A record is at most 0xFFFF bytes (its 16-bit Size). */
#define NTR_SR_RECORD_MAX	0xFFFFU

struct ntr_sr_header {
	__u16 hook_id;		/* group << 8 | type */
	/*
	 * The class's version: the marker's low byte. Its high byte stays 0:
	 * there bits 8-10 count PMC counters and bit 15 flags a PEBS index
	 * before the payload, which nttrace never writes.
	 */
	__u8 version;
	__u8 kind;		/* enum ntr_sr_kind */
	bool ptr32;
	__u32 thread_id;	/* FULL, COMPACT */
	__u32 process_id;	/* FULL, COMPACT */
	__u64 time_stamp;
	__u32 kernel_time;	/* FULL: the thread's CPU time, in clock ticks */
	__u32 user_time;	/* FULL */
};

/**
 * ntr_sr_header_size() - the bytes of a kernel event header
 * @kind: the header's kind (enum ntr_sr_kind)
 *
 * Return: 0x20, 0x18 or 0x10 by @kind; 0 for another value.
 */
__u32 ntr_sr_header_size(__u8 kind);

/**
 * ntr_sr_header_type() - the HeaderType of a kernel event header
 * @kind: the header's kind (enum ntr_sr_kind)
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: NTTRACE_TRACE_HEADER_TYPE_SYSTEM32/64, COMPACT32/64 or
 * PERFINFO32/64.
 */
__u8 ntr_sr_header_type(__u8 kind, bool ptr32);

/**
 * ntr_sr_record_size() - a kernel event record's bytes
 * @kind: its header's kind (enum ntr_sr_kind)
 * @payload: its payload's bytes
 *
 * Return: the record's bytes, or 0 if they are over NTR_SR_RECORD_MAX (or
 * @kind is unknown).
 */
__u32 ntr_sr_record_size(__u8 kind, __u32 payload);

/**
 * ntr_sr_header_write() - writes a kernel event record's header
 * @rec: where the record begins
 * @size: the record's bytes in all (from ntr_sr_record_size())
 * @h: the header's values
 *
 * Writes ntr_sr_header_size(@h->kind) bytes.
 */
void ntr_sr_header_write(void *rec, __u16 size, const struct ntr_sr_header *h);

/* ---- strings and SIDs ---- */

/*
 * A string the kernel has (UTF-8, @len bytes, ending early at a NUL).
 * Written as the class says: UTF-16LE (ntr_utf8_to_utf16(), invalid UTF-8
 * as U+FFFD) or ANSI (below), then a NUL, cut to the field's maximum.
 */
struct ntr_sr_str {
	const char *s;		/* NULL: empty */
	__u32 len;
};

/*
 * The most 16-bit units (or ANSI bytes) a string field holds, its NUL
 * aside: file names as long as Linux's PATH_MAX, command lines 8192
 * (Windows' own go to 32767, but every string of a record must fit in its
 * 0xFFFF bytes), the ANSI image name 255.
 */
#define NTR_SR_PATH_MAX		4096U
#define NTR_SR_CMDLINE_MAX	8192U
#define NTR_SR_ANSI_MAX		255U
#define NTR_SR_NAME_MAX		256U	/* a thread's name, a NIC's */

/* A SID: revision 1, at most 15 sub-authorities (SID_MAX_SUB_AUTHORITIES). */
#define NTR_SR_SID_MAX		(8 + 4 * 15)

/**
 * ntr_sr_sid_unix_user() - writes the SID of a Linux user
 * @out: where, NTR_SR_SID_MAX bytes of room
 * @uid: the user
 *
 * The SID is S-1-22-1-@uid, the "Unix User" identity of Samba (its
 * global_sid_Unix_Users, S-1-22-1, "Unmapped Unix users", with the UID as
 * the last sub-authority: libcli/security/util_sid.c and
 * source3/passdb/util_unixsids.c), which Windows' NFS and Samba servers
 * show for a UID they cannot map.
 *
 * Return: 16, the bytes written.
 */
__u32 ntr_sr_sid_unix_user(__u8 *out, __u32 uid);

/**
 * ntr_sr_sid_local_system() - writes the SID of LocalSystem
 * @out: where, NTR_SR_SID_MAX bytes of room
 *
 * LocalSystem, S-1-5-18 (Microsoft's "Well-known SIDs"), stands for the
 * kernel's own threads, as Windows gives it its System and Idle processes.
 *
 * Return: 12, the bytes written.
 */
__u32 ntr_sr_sid_local_system(__u8 *out);

/**
 * ntr_sr_sid_write() - writes a SID
 * @out: where, NTR_SR_SID_MAX bytes of room
 * @authority: the identifier authority
 * @sub: the sub-authorities
 * @n: their number, at most 15
 *
 * The bytes are revision 1, the sub-authority count, the 6-byte
 * big-endian identifier authority, the little-endian sub-authorities.
 *
 * Return: 8 + 4 * @n, the bytes written.
 */
__u32 ntr_sr_sid_write(__u8 *out, __u64 authority, const __u32 *sub, __u8 n);

/* ---- Process (group 0x03): Start 1, End 2, DCStart 3, DCEnd 4, PerfCtr 32, 33 ---- */

/*
 * Process_V4_TypeGroup1, version 4: what Windows 8 to 11 write for these
 * four events (the files' Process events are all version 4; version 5 is
 * only their Defunct event). The class is the reader's process_v4
 * (kernel_classes.c: the WDK's wmicore.mof, PerfView, the files):
 * UniqueProcessKey (pointer), ProcessId, ParentId, SessionId, ExitStatus,
 * DirectoryTableBase (pointer), Flags, UserSID, ImageFileName (ANSI),
 * CommandLine, PackageFullName, ApplicationId (UTF-16; the last two a
 * packaged application's, left empty on Linux).
 *
 * UserSID (Extension("Sid"), "Event Tracing MOF Qualifiers"): a
 * TOKEN_USER, then the SID. The TOKEN_USER is two pointers long: the Sid
 * pointer, then Attributes (a ULONG: 0 in the files but for a few
 * deny-only users' 0x10) and, at 8-byte pointers, 4 bytes of padding,
 * written 0 (Windows leaves stale bytes there). Readers take a zero first ULONG as "no SID": then the field is
 * that ULONG alone.
 */
struct ntr_sr_process {
	__u64 unique_process_key;
	__u32 process_id;
	__u32 parent_id;
	__u32 session_id;
	__s32 exit_status;
	__u64 directory_table_base;
	__u32 flags;
	/*
	 * The TOKEN_USER's Sid pointer, as written: Windows writes the
	 * kernel address of its copy; nttrace writes what is given, but a
	 * value whose low 32 bits are 0 (which readers would take for "no
	 * SID"), 0 included, gives the SID's offset from the TOKEN_USER: 16,
	 * or 8 at 4-byte pointers (never a kernel address).
	 */
	__u64 sid_pointer;
	/* TOKEN_USER's Attributes (SE_GROUP_*): 0 for a Linux user */
	__u32 sid_attributes;
	const __u8 *sid;	/* NULL: no SID (4 zero bytes) */
	__u32 sid_size;		/* 8 + 4 * its count, at most NTR_SR_SID_MAX */
	/* ANSI: each character past ASCII becomes '?' (below) */
	struct ntr_sr_str image_file_name;
	struct ntr_sr_str command_line;
	struct ntr_sr_str package_full_name;	/* { NULL }: empty */
	struct ntr_sr_str application_id;
};

/**
 * ntr_sr_process_size() - the payload's bytes of a Process event
 * @p: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if it cannot be written (its strings too long
 * for one record).
 */
__u32 ntr_sr_process_size(const struct ntr_sr_process *p, bool ptr32);
/**
 * ntr_sr_process_write() - writes the payload of a Process event
 * @buf: where
 * @room: @buf's bytes
 * @p: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, ntr_sr_process_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_process_write(void *buf, __u32 room, const struct ntr_sr_process *p, bool ptr32);

/*
 * Process_V2_TypeGroup2, version 2, PerfCtr (32) and PerfCtrRundown (33),
 * as the Windows-written files have it: ProcessId, PageFaultCount,
 * HandleCount, Reserved (32 bits each), then eleven SIZE_T byte counts.
 * Under a PERFINFO header, as the files have PerfCtrRundown. 16 + 11
 * pointers.
 */
struct ntr_sr_perfctr {
	__u32 process_id;
	__u32 page_fault_count;
	__u32 handle_count;
	__u32 reserved;
	__u64 peak_virtual_size;
	__u64 peak_working_set_size;
	__u64 peak_pagefile_usage;
	__u64 quota_peak_paged_pool_usage;
	__u64 quota_peak_non_paged_pool_usage;
	__u64 virtual_size;
	__u64 working_set_size;
	__u64 pagefile_usage;
	__u64 quota_paged_pool_usage;
	__u64 quota_non_paged_pool_usage;
	__u64 private_page_count;
};

/**
 * ntr_sr_perfctr_size() - the payload's bytes of a PerfCtr or PerfCtrRundown event
 * @c: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes: 16 and eleven pointers.
 */
__u32 ntr_sr_perfctr_size(const struct ntr_sr_perfctr *c, bool ptr32);
/**
 * ntr_sr_perfctr_write() - writes the payload of a PerfCtr or PerfCtrRundown event
 * @buf: where
 * @room: @buf's bytes
 * @c: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written; 0, writing nothing, if @room is short.
 */
__u32 ntr_sr_perfctr_write(void *buf, __u32 room, const struct ntr_sr_perfctr *c, bool ptr32);

/* ---- FileIo (group 0x04): Create 64 ... FSControl 75, OpEnd 76 ---- */

/*
 * The FileIo events of version 2 (Microsoft's FileIo_Create,
 * FileIo_SimpleOp, FileIo_ReadWrite, FileIo_Info and FileIo_OpEnd class
 * pages), by @type:
 * - Create (64): IrpPtr, TTID, FileObject (pointers), CreateOptions,
 *   FileAttributes, ShareAccess (32 bits), OpenPath (UTF-16);
 * - Cleanup (65), Close (66), Flush (73): IrpPtr, TTID, FileObject,
 *   FileKey (pointers);
 * - Read (67), Write (68): Offset (64 bits), IrpPtr, TTID, FileObject,
 *   FileKey (pointers), IoSize, IoFlags (32 bits);
 * - SetInfo (69), Delete (70), Rename (71), QueryInfo (74), FSControl
 *   (75): IrpPtr, TTID, FileObject, FileKey, ExtraInfo (pointers),
 *   InfoClass (32 bits);
 * - OpEnd (76): IrpPtr, ExtraInfo (pointers), NtStatus (32 bits).
 * TTID, the thread, is pointer-sized (the Pointer qualifier). Under a
 * PERFINFO header, as Windows writes the FileIo events in the files.
 */
struct ntr_sr_fileio {
	__u8 type;
	__u64 offset;
	__u64 irp;
	__u64 ttid;
	__u64 file_object;
	__u64 file_key;
	__u32 io_size;
	__u32 io_flags;
	__u32 create_options;
	__u32 file_attributes;
	__u32 share_access;
	struct ntr_sr_str open_path;	/* UTF-8, at most NTR_SR_PATH_MAX bytes */
	__u64 extra_info;
	__u32 nt_status;
	__u32 info_class;
};

/**
 * ntr_sr_fileio_size() - the payload's bytes of a FileIo event
 * @f: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 for a type not written here.
 */
__u32 ntr_sr_fileio_size(const struct ntr_sr_fileio *f, bool ptr32);
/**
 * ntr_sr_fileio_write() - writes the payload of a FileIo event
 * @buf: where
 * @room: @buf's bytes
 * @f: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written; 0, writing nothing, if @room is short or
 * the type is not written here.
 */
__u32 ntr_sr_fileio_write(void *buf, __u32 room, const struct ntr_sr_fileio *f, bool ptr32);

/*
 * FileIo_Name, version 2, as the Windows-written files have it: FileCreate
 * (32), FileDelete (35) and FileRundown (36): FileObject (a pointer), then
 * FileName (UTF-16). Under a PERFINFO header, as in the files.
 */
struct ntr_sr_filename {
	__u64 file_object;
	struct ntr_sr_str file_name;	/* UTF-8, at most NTR_SR_PATH_MAX bytes */
};

/**
 * ntr_sr_filename_size() - the payload's bytes of a FileIo name event
 * @f: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes.
 */
__u32 ntr_sr_filename_size(const struct ntr_sr_filename *f, bool ptr32);
/**
 * ntr_sr_filename_write() - writes the payload of a FileIo name event
 * @buf: where
 * @room: @buf's bytes
 * @f: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written; 0, writing nothing, if @room is short.
 */
__u32 ntr_sr_filename_write(void *buf, __u32 room, const struct ntr_sr_filename *f,
			    bool ptr32);

/* ---- Thread (group 0x05): Start 1, End 2, DCStart 3, DCEnd 4 ---- */

/*
 * Thread_TypeGroup1, version 3 ([MS thread-typegroup1]; the files' Thread
 * events are all version 3): ProcessId, TThreadId, StackBase, StackLimit,
 * UserStackBase, UserStackLimit, Affinity, Win32StartAddr, TebBase
 * (pointers), SubProcessTag, BasePriority, PagePriority, IoPriority,
 * ThreadFlags; then, from Windows 10, ThreadName (UTF-16, PerfView's
 * ThreadName; the Windows 10 file's events end with it, the Windows 8
 * files' do not).
 */
struct ntr_sr_thread {
	__u32 process_id;
	__u32 thread_id;
	__u64 stack_base;
	__u64 stack_limit;
	__u64 user_stack_base;
	__u64 user_stack_limit;
	__u64 affinity;
	__u64 win32_start_addr;
	__u64 teb_base;
	__u32 sub_process_tag;
	__u8 base_priority;
	__u8 page_priority;
	__u8 io_priority;
	__u8 thread_flags;
	bool no_name;		/* Windows 8's form: no ThreadName field */
	struct ntr_sr_str name;
};

/**
 * ntr_sr_thread_size() - the payload's bytes of a Thread event
 * @t: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if it cannot be written (its strings too long
 * for one record).
 */
__u32 ntr_sr_thread_size(const struct ntr_sr_thread *t, bool ptr32);
/**
 * ntr_sr_thread_write() - writes the payload of a Thread event
 * @buf: where
 * @room: @buf's bytes
 * @t: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, ntr_sr_thread_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_thread_write(void *buf, __u32 room, const struct ntr_sr_thread *t, bool ptr32);

/* ---- ImageLoad (group 0x14): Unload 2, DCStart 3, DCEnd 4, Load 10 ---- */

/*
 * Image_Load ([MS image-load]), written as version 3, what the Windows 10
 * file carries (version 2 in the Windows 8 files; PerfView reads 3 with
 * 2's offsets, and the sizes add up so): ImageBase (pointer), ImageSize
 * (SIZE_T), ProcessId, ImageCheckSum, TimeDateStamp, Reserved0,
 * DefaultBase (pointer), Reserved1 to Reserved4, FileName (UTF-16).
 */
struct ntr_sr_image {
	__u64 image_base;
	__u64 image_size;
	__u32 process_id;
	__u32 checksum;
	__u32 time_date_stamp;
	__u32 reserved0;
	__u64 default_base;
	__u32 reserved[4];
	struct ntr_sr_str file_name;
};

/**
 * ntr_sr_image_size() - the payload's bytes of an ImageLoad event
 * @i: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if it cannot be written (its strings too long
 * for one record).
 */
__u32 ntr_sr_image_size(const struct ntr_sr_image *i, bool ptr32);
/**
 * ntr_sr_image_write() - writes the payload of an ImageLoad event
 * @buf: where
 * @room: @buf's bytes
 * @i: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, ntr_sr_image_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_image_write(void *buf, __u32 room, const struct ntr_sr_image *i, bool ptr32);

/* ---- Thread (group 0x05): CSwitch 36, ReadyThread 50 ---- */

/*
 * CSwitch ([MS cswitch], version 2, 24 bytes at both pointer sizes;
 * PerfView checks that version 2 is 24 bytes).
 */
struct ntr_sr_cswitch {
	__u32 new_thread_id;
	__u32 old_thread_id;
	__s8 new_thread_priority;
	__s8 old_thread_priority;
	__u8 previous_cstate;
	__s8 spare_byte;
	__s8 old_thread_wait_reason;
	__s8 old_thread_wait_mode;
	__s8 old_thread_state;
	__s8 old_thread_wait_ideal_processor;
	__u32 new_thread_wait_time;
	__u32 reserved;
};

/**
 * ntr_sr_cswitch_size() - the payload's bytes of a CSwitch event
 * @c: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if it cannot be written (its strings too long
 * for one record).
 */
__u32 ntr_sr_cswitch_size(const struct ntr_sr_cswitch *c, bool ptr32);
/**
 * ntr_sr_cswitch_write() - writes the payload of a CSwitch event
 * @buf: where
 * @room: @buf's bytes
 * @c: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, ntr_sr_cswitch_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_cswitch_write(void *buf, __u32 room, const struct ntr_sr_cswitch *c, bool ptr32);

/* ReadyThread ([MS readythread], version 2, 8 bytes). */
struct ntr_sr_ready {
	__u32 thread_id;
	__s8 adjust_reason;
	__s8 adjust_increment;
	__s8 flag;
	__s8 reserved;
};

/**
 * ntr_sr_ready_size() - the payload's bytes of a ReadyThread event
 * @r: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if it cannot be written (its strings too long
 * for one record).
 */
__u32 ntr_sr_ready_size(const struct ntr_sr_ready *r, bool ptr32);
/**
 * ntr_sr_ready_write() - writes the payload of a ReadyThread event
 * @buf: where
 * @room: @buf's bytes
 * @r: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, ntr_sr_ready_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_ready_write(void *buf, __u32 room, const struct ntr_sr_ready *r, bool ptr32);

/* ---- DiskIo (group 0x01), version 3 ---- */

/*
 * Version 3, what the files carry (the pages' layouts with
 * IssuingThreadId at the end, kernel_classes.c). Read 10 and Write 11
 * ([MS diskio-typegroup1]): DiskNumber, IrpFlags, TransferSize, Reserved,
 * ByteOffset, FileObject, Irp (pointers), HighResResponseTime,
 * IssuingThreadId. ReadInit 12, WriteInit 13, FlushInit 15
 * ([MS diskio-typegroup2]): Irp, IssuingThreadId. FlushBuffers 14
 * ([MS diskio-typegroup3]): DiskNumber, IrpFlags, HighResResponseTime,
 * Irp, IssuingThreadId. Which one by @type.
 */
struct ntr_sr_disk {
	__u8 type;		/* the event's type: 10 to 15 */
	__u32 disk_number;
	__u32 irp_flags;
	__u32 transfer_size;
	__u32 reserved;
	__s64 byte_offset;
	__u64 file_object;
	__u64 irp;
	__u64 response_time;	/* HighResResponseTime, in clock ticks */
	__u32 issuing_thread_id;
};

/**
 * ntr_sr_disk_size() - the payload's bytes of a DiskIo event
 * @d: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if it cannot be written (its strings too long
 * for one record).
 */
__u32 ntr_sr_disk_size(const struct ntr_sr_disk *d, bool ptr32);
/**
 * ntr_sr_disk_write() - writes the payload of a DiskIo event
 * @buf: where
 * @room: @buf's bytes
 * @d: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, ntr_sr_disk_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_disk_write(void *buf, __u32 room, const struct ntr_sr_disk *d, bool ptr32);

/* ---- TcpIp (group 0x06), version 2 ---- */

/*
 * The TcpIp classes, version 2 (the pages', the files'): by @type,
 * SendIPV4 10 and SendIPV6 26 ([MS tcpip-sendipv4/6]: PID, size, daddr,
 * saddr, dport, sport, startime, endtime, seqnum, connid); ConnectIPV4 12,
 * AcceptIPV4 15, ConnectIPV6 28, AcceptIPV6 31 ([MS tcpip-typegroup2/4]:
 * PID, size, the addresses and ports, mss, sackopt, tsopt, wsopt, rcvwin,
 * rcvwinscale, sndwinscale, seqnum, connid); the others (Recv 11/27,
 * Disconnect 13/29, Retransmit 14/30, Reconnect 16/32, TCPCopy 18/34:
 * [MS tcpip-typegroup1/3]) PID, size, the addresses and ports, seqnum,
 * connid. IPv6 for types 26 and up. Addresses are bytes in network order
 * (IPv4: the first 4), ports in host order, written in network order.
 */
struct ntr_sr_tcp {
	__u8 type;
	__u32 pid;
	__u32 size;
	__u8 daddr[16];
	__u8 saddr[16];
	__u16 dport;
	__u16 sport;
	__u32 startime;		/* Send */
	__u32 endtime;		/* Send */
	__u16 mss;		/* Connect, Accept: from here to sndwinscale */
	__u16 sackopt;
	__u16 tsopt;
	__u16 wsopt;
	__u32 rcvwin;
	__s16 rcvwinscale;
	__s16 sndwinscale;
	__u32 seqnum;
	__u64 connid;		/* a pointer */
};

/**
 * ntr_sr_tcp_size() - the payload's bytes of a TcpIp event
 * @t: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if it cannot be written (its strings too long
 * for one record).
 */
__u32 ntr_sr_tcp_size(const struct ntr_sr_tcp *t, bool ptr32);
/**
 * ntr_sr_tcp_write() - writes the payload of a TcpIp event
 * @buf: where
 * @room: @buf's bytes
 * @t: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, ntr_sr_tcp_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_tcp_write(void *buf, __u32 room, const struct ntr_sr_tcp *t, bool ptr32);

/* ---- PerfInfo (group 0x0F): the mark, 34 ---- */

/*
 * EtwSetMark's record (as Geoff Chappell describes it): the mark's bytes
 * as given (ETW_SET_MARK_INFORMATION's Mark, UTF-16), then two zero
 * bytes; at most NTR_SR_RECORD_MAX - 0x22 bytes of mark.
 */

/**
 * ntr_sr_mark_size() - the payload's bytes of a mark
 * @mark_bytes: the mark's bytes
 *
 * Return: the bytes, or 0 if the mark is too long for one record.
 */
__u32 ntr_sr_mark_size(__u32 mark_bytes);
/**
 * ntr_sr_mark_write() - writes the payload of a mark
 * @buf: where
 * @room: @buf's bytes
 * @mark: the mark
 * @mark_bytes: its bytes
 *
 * Return: the bytes written, ntr_sr_mark_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_mark_write(void *buf, __u32 room, const void *mark, __u32 mark_bytes);

/* ---- PerfInfo (group 0x0F): CPU samples, 46, and their intervals, 72-74 ---- */

/*
 * SampledProfile, version 2 (Microsoft's "SampledProfile class" page gives
 * InstructionPointer, ThreadId and a 32-bit Count; the Windows-written
 * files split that Count: a 16-bit count of samples, then a byte of flags
 * that PerfView reads as bit 0 a DPC, bit 1 an ISR and bits 3-7 the
 * thread's priority, then a zero byte). Pointer + 8 bytes.
 */
struct ntr_sr_sample {
	__u64 instruction_pointer;
	__u32 thread_id;
	__u16 count;
	__u8 flags;		/* NTR_SR_SAMPLE_* | priority << 3 */
};
#define NTR_SR_SAMPLE_DPC		0x01	/* taken in a DPC (a softirq) */
#define NTR_SR_SAMPLE_ISR		0x02	/* taken in an ISR (a hard irq) */
#define NTR_SR_SAMPLE_PRIORITY_SHIFT	3

/**
 * ntr_sr_sample_size() - the payload's bytes of a SampledProfile event
 * @s: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes: 12 or 16.
 */
__u32 ntr_sr_sample_size(const struct ntr_sr_sample *s, bool ptr32);
/**
 * ntr_sr_sample_write() - writes the payload of a SampledProfile event
 * @buf: where
 * @room: @buf's bytes
 * @s: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written, ntr_sr_sample_size()'s; 0, writing nothing, if
 * @room is short.
 */
__u32 ntr_sr_sample_write(void *buf, __u32 room, const struct ntr_sr_sample *s, bool ptr32);

/*
 * SampledProfileInterval, version 3, of SetInterval (72), CollectionStart
 * (73) and CollectionEnd (74): Source, NewInterval and OldInterval (in
 * 100 ns units) as Microsoft's MOF has them, then the source's name,
 * UTF-16 and NUL-terminated (the Windows-written files: "Timer" for
 * source 0).
 */
struct ntr_sr_profile_interval {
	__u32 source;
	__u32 new_interval;
	__u32 old_interval;
	struct ntr_sr_str source_name;
};

/**
 * ntr_sr_profile_interval_size() - the payload's bytes of an interval event
 * @p: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if it cannot be written.
 */
__u32 ntr_sr_profile_interval_size(const struct ntr_sr_profile_interval *p, bool ptr32);
/**
 * ntr_sr_profile_interval_write() - writes the payload of an interval event
 * @buf: where
 * @room: @buf's bytes
 * @p: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written; 0, writing nothing, if @room is short.
 */
__u32 ntr_sr_profile_interval_write(void *buf, __u32 room,
				    const struct ntr_sr_profile_interval *p, bool ptr32);

/*
 * SysCallEnter and SysCallExit, version 2 (Microsoft's "SysCallEnter" and
 * "SysCallExit" class pages): SysCallAddress, a pointer; SysCallNtStatus,
 * 32 bits.
 */
struct ntr_sr_syscall {
	__u64 value;		/* SysCallAddress, or SysCallNtStatus (its low 32 bits) */
	bool exit;
};

/**
 * ntr_sr_syscall_size() - the payload's bytes of a SysClEnter or SysClExit event
 * @s: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes: a pointer's (enter) or 4 (exit).
 */
__u32 ntr_sr_syscall_size(const struct ntr_sr_syscall *s, bool ptr32);
/**
 * ntr_sr_syscall_write() - writes the payload of a SysClEnter or SysClExit event
 * @buf: where
 * @room: @buf's bytes
 * @s: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written; 0, writing nothing, if @room is short.
 */
__u32 ntr_sr_syscall_write(void *buf, __u32 room, const struct ntr_sr_syscall *s, bool ptr32);

/* ---- PageFault (group 0x02): faults 10-15, HardFault 32, VirtualAlloc 98, VirtualFree 99 ---- */

/*
 * PageFault_VirtualAlloc, version 2 (Microsoft's "PageFault_VirtualAlloc"
 * class page): BaseAddress and RegionSize, pointers; ProcessId; Flags,
 * the MEM_* of the call (MEM_COMMIT 0x1000 | MEM_RESERVE 0x2000 for an
 * allocation, MEM_RELEASE 0x8000 for a free). Under a PERFINFO header, as
 * Windows writes it (readers take the process from ProcessId).
 */
struct ntr_sr_valloc {
	__u64 base;
	__u64 size;
	__u32 process_id;
	__u32 flags;
};
#define NTR_SR_MEM_COMMIT	0x00001000U
#define NTR_SR_MEM_RESERVE	0x00002000U
#define NTR_SR_MEM_RELEASE	0x00008000U

/**
 * ntr_sr_valloc_size() - the payload's bytes of a VirtualAlloc or VirtualFree event
 * @v: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes: 16 or 24.
 */
__u32 ntr_sr_valloc_size(const struct ntr_sr_valloc *v, bool ptr32);
/**
 * ntr_sr_valloc_write() - writes the payload of a VirtualAlloc or VirtualFree event
 * @buf: where
 * @room: @buf's bytes
 * @v: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written; 0, writing nothing, if @room is short.
 */
__u32 ntr_sr_valloc_write(void *buf, __u32 room, const struct ntr_sr_valloc *v, bool ptr32);

/*
 * PageFault_TypeGroup1, version 2 (Microsoft's "PageFault_TypeGroup1"
 * class page), the faults of EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS:
 * VirtualAddress, the address that faulted, and ProgramCounter, the
 * instruction that touched it; both pointers. Under a PERFINFO header, as
 * Windows' other PageFault events (HardFault, VirtualAlloc) are written
 * in the files: the thread is the CPU's running one.
 */
struct ntr_sr_fault {
	__u64 virtual_address;
	__u64 program_counter;
};

/**
 * ntr_sr_fault_size() - the payload's bytes of a PageFault_TypeGroup1 event
 * @f: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes: two pointers.
 */
__u32 ntr_sr_fault_size(const struct ntr_sr_fault *f, bool ptr32);
/**
 * ntr_sr_fault_write() - writes the payload of a PageFault_TypeGroup1 event
 * @buf: where
 * @room: @buf's bytes
 * @f: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written; 0, writing nothing, if @room is short.
 */
__u32 ntr_sr_fault_write(void *buf, __u32 room, const struct ntr_sr_fault *f, bool ptr32);

/*
 * PageFault_HardFault, version 2, as the Windows-written files have it
 * (Microsoft's "PageFault_HardFault" class page): InitialTime, when the
 * fault began, in the session's clock (the record's time stamp is its
 * end); ReadOffset, the offset in the file read, 64 bits; VirtualAddress
 * and FileObject, pointers; TThreadId, the faulting thread (the PERFINFO
 * header has none); ByteCount, the bytes read. 32 + 2 pointers.
 */
struct ntr_sr_hardfault {
	__u64 initial_time;
	__u64 read_offset;
	__u64 virtual_address;
	__u64 file_object;
	__u32 thread_id;
	__u32 byte_count;
};

/**
 * ntr_sr_hardfault_size() - the payload's bytes of a HardFault event
 * @h: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes: 24 and two pointers.
 */
__u32 ntr_sr_hardfault_size(const struct ntr_sr_hardfault *h, bool ptr32);
/**
 * ntr_sr_hardfault_write() - writes the payload of a HardFault event
 * @buf: where
 * @room: @buf's bytes
 * @h: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written; 0, writing nothing, if @room is short.
 */
__u32 ntr_sr_hardfault_write(void *buf, __u32 room, const struct ntr_sr_hardfault *h,
			     bool ptr32);

/* The offset of InitialTime in a HardFault payload (emit.c converts it). */
#define NTR_SR_HARDFAULT_INITIAL_TIME	0

/* ---- StackWalk (group 0x18): the stack of the event before, 32 ---- */

/*
 * StackWalk_Event, version 2 as the Windows-written files have it
 * (Microsoft's "StackWalk_Event class" page): EventTimeStamp, the time
 * stamp of the event whose stack it is (its header's, in the session's
 * clock), StackProcess, StackThread, then Stack1 to StackN, pointers,
 * innermost first. 16 bytes + a pointer per frame.
 */
struct ntr_sr_stack {
	__u64 event_time_stamp;
	__u32 stack_process;
	__u32 stack_thread;
	const unsigned long *frames;
	__u32 nr;
};

/**
 * ntr_sr_stack_size() - the payload's bytes of a StackWalk event
 * @s: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes, or 0 if they are over what a record holds.
 */
__u32 ntr_sr_stack_size(const struct ntr_sr_stack *s, bool ptr32);
/**
 * ntr_sr_stack_write() - writes the payload of a StackWalk event
 * @buf: where
 * @room: @buf's bytes
 * @s: the event
 * @ptr32: the trace is a 32-bit kernel's
 *
 * Return: the bytes written; 0, writing nothing, if @room is short.
 */
__u32 ntr_sr_stack_write(void *buf, __u32 room, const struct ntr_sr_stack *s, bool ptr32);

/* ---- the events, for the glue ---- */

#define NTR_SR_HOOK(group, type)	((__u16)((group) << 8 | (type)))

enum {
	NTR_SR_DISKIO_READ = NTR_SR_HOOK(0x01, 10),
	NTR_SR_DISKIO_WRITE = NTR_SR_HOOK(0x01, 11),
	NTR_SR_DISKIO_READ_INIT = NTR_SR_HOOK(0x01, 12),
	NTR_SR_DISKIO_WRITE_INIT = NTR_SR_HOOK(0x01, 13),
	NTR_SR_DISKIO_FLUSH = NTR_SR_HOOK(0x01, 14),
	NTR_SR_DISKIO_FLUSH_INIT = NTR_SR_HOOK(0x01, 15),
	NTR_SR_TRANSITION_FAULT = NTR_SR_HOOK(0x02, 10),
	NTR_SR_DEMAND_ZERO_FAULT = NTR_SR_HOOK(0x02, 11),
	NTR_SR_COPY_ON_WRITE = NTR_SR_HOOK(0x02, 12),
	NTR_SR_GUARD_PAGE_FAULT = NTR_SR_HOOK(0x02, 13),
	NTR_SR_HARD_PAGE_FAULT = NTR_SR_HOOK(0x02, 14),
	NTR_SR_ACCESS_VIOLATION = NTR_SR_HOOK(0x02, 15),
	NTR_SR_HARD_FAULT = NTR_SR_HOOK(0x02, 32),
	NTR_SR_VIRTUAL_ALLOC = NTR_SR_HOOK(0x02, 98),
	NTR_SR_VIRTUAL_FREE = NTR_SR_HOOK(0x02, 99),
	NTR_SR_PROCESS_START = NTR_SR_HOOK(0x03, 1),
	NTR_SR_PROCESS_END = NTR_SR_HOOK(0x03, 2),
	NTR_SR_PROCESS_DCSTART = NTR_SR_HOOK(0x03, 3),
	NTR_SR_PROCESS_DCEND = NTR_SR_HOOK(0x03, 4),
	NTR_SR_PROCESS_PERFCTR = NTR_SR_HOOK(0x03, 32),
	NTR_SR_PROCESS_PERFCTR_RUNDOWN = NTR_SR_HOOK(0x03, 33),
	NTR_SR_FILEIO_FILE_CREATE = NTR_SR_HOOK(0x04, 32),
	NTR_SR_FILEIO_FILE_DELETE = NTR_SR_HOOK(0x04, 35),
	NTR_SR_FILEIO_FILE_RUNDOWN = NTR_SR_HOOK(0x04, 36),
	NTR_SR_FILEIO_CREATE = NTR_SR_HOOK(0x04, 64),
	NTR_SR_FILEIO_CLEANUP = NTR_SR_HOOK(0x04, 65),
	NTR_SR_FILEIO_CLOSE = NTR_SR_HOOK(0x04, 66),
	NTR_SR_FILEIO_READ = NTR_SR_HOOK(0x04, 67),
	NTR_SR_FILEIO_WRITE = NTR_SR_HOOK(0x04, 68),
	NTR_SR_FILEIO_DELETE = NTR_SR_HOOK(0x04, 70),
	NTR_SR_FILEIO_RENAME = NTR_SR_HOOK(0x04, 71),
	NTR_SR_FILEIO_FLUSH = NTR_SR_HOOK(0x04, 73),
	NTR_SR_FILEIO_OPEND = NTR_SR_HOOK(0x04, 76),
	NTR_SR_THREAD_START = NTR_SR_HOOK(0x05, 1),
	NTR_SR_THREAD_END = NTR_SR_HOOK(0x05, 2),
	NTR_SR_THREAD_DCSTART = NTR_SR_HOOK(0x05, 3),
	NTR_SR_THREAD_DCEND = NTR_SR_HOOK(0x05, 4),
	NTR_SR_CSWITCH = NTR_SR_HOOK(0x05, 36),
	NTR_SR_READY_THREAD = NTR_SR_HOOK(0x05, 50),
	NTR_SR_TCP_SEND4 = NTR_SR_HOOK(0x06, 10),
	NTR_SR_TCP_RECV4 = NTR_SR_HOOK(0x06, 11),
	NTR_SR_TCP_CONNECT4 = NTR_SR_HOOK(0x06, 12),
	NTR_SR_TCP_DISCONNECT4 = NTR_SR_HOOK(0x06, 13),
	NTR_SR_TCP_RETRANSMIT4 = NTR_SR_HOOK(0x06, 14),
	NTR_SR_TCP_ACCEPT4 = NTR_SR_HOOK(0x06, 15),
	NTR_SR_TCP_RECONNECT4 = NTR_SR_HOOK(0x06, 16),
	NTR_SR_TCP_COPY4 = NTR_SR_HOOK(0x06, 18),
	NTR_SR_TCP_SEND6 = NTR_SR_HOOK(0x06, 26),
	NTR_SR_TCP_RECV6 = NTR_SR_HOOK(0x06, 27),
	NTR_SR_TCP_CONNECT6 = NTR_SR_HOOK(0x06, 28),
	NTR_SR_TCP_DISCONNECT6 = NTR_SR_HOOK(0x06, 29),
	NTR_SR_TCP_RETRANSMIT6 = NTR_SR_HOOK(0x06, 30),
	NTR_SR_TCP_ACCEPT6 = NTR_SR_HOOK(0x06, 31),
	NTR_SR_TCP_RECONNECT6 = NTR_SR_HOOK(0x06, 32),
	NTR_SR_TCP_COPY6 = NTR_SR_HOOK(0x06, 34),
	NTR_SR_PERFINFO_MARK = NTR_SR_HOOK(0x0F, 34),
	NTR_SR_SAMPLED_PROFILE = NTR_SR_HOOK(0x0F, 46),
	NTR_SR_SYSCALL_ENTER = NTR_SR_HOOK(0x0F, 51),
	NTR_SR_SYSCALL_EXIT = NTR_SR_HOOK(0x0F, 52),
	NTR_SR_PROFILE_SET_INTERVAL = NTR_SR_HOOK(0x0F, 72),
	NTR_SR_PROFILE_COLLECTION_START = NTR_SR_HOOK(0x0F, 73),
	NTR_SR_PROFILE_COLLECTION_END = NTR_SR_HOOK(0x0F, 74),
	NTR_SR_IMAGE_UNLOAD = NTR_SR_HOOK(0x14, 2),
	NTR_SR_IMAGE_DCSTART = NTR_SR_HOOK(0x14, 3),
	NTR_SR_IMAGE_DCEND = NTR_SR_HOOK(0x14, 4),
	NTR_SR_IMAGE_LOAD = NTR_SR_HOOK(0x14, 10),
	NTR_SR_STACKWALK = NTR_SR_HOOK(0x18, 32),
};

/*
 * What the glue needs of an event: its header kind and class version, as
 * Windows writes them, and the EVENT_TRACE_FLAG_* bit of
 * EVENT_TRACE_PROPERTIES.EnableFlags that turns it on (0: none, written
 * whenever the session is a system logger: the mark).
 */
struct ntr_sr_event {
	__u16 hook_id;
	__u8 kind;		/* enum ntr_sr_kind */
	__u8 version;
	__u32 enable_flag;
};

/**
 * ntr_sr_event() - an event the kernel's writers write
 * @hook_id: its HookId
 *
 * Return: its header kind, version and enable flag, or NULL for an event
 * not written here.
 */
const struct ntr_sr_event *ntr_sr_event(__u16 hook_id);

#endif /* NTTRACE_COMMON_SYSREC_H */
