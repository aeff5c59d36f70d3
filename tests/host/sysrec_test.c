// SPDX-License-Identifier: GPL-2.0
/*
 * The NT Kernel Logger's record encoders (common/sysrec.c) as the library
 * builds them, 64- and 32-bit: the byte-exact cases of
 * tests/kunit/sysrec_cases.h (KUnit runs them on nttrace.ko's build), then
 * each payload decoded by nttrace's own reader table
 * (userlib/etl/kernel_classes.c, <nttrace/etl.h>): every field's name and
 * value, and nothing left over but what the table does not describe; and
 * whole records in a buffer read back by the ETL reader. TAP.
 */
#include <stdio.h>
#include <string.h>

#include <nttrace/etl.h>

#include "record.h"

#include "../vm/tap.h"

struct rc_ctx {
	int unused;
};

#define rc_eq(ctx, got, want, what) tap_eq(got, want, "%s", what)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void rc_mem(struct rc_ctx *ctx, const void *got, const void *want,
		   unsigned int len, const char *what)
{
	const unsigned char *g = got, *w = want;
	unsigned int i;

	for (i = 0; i < len && g[i] == w[i]; i++)
		;
	if (i < len)
		printf("# byte 0x%x: got 0x%02x, want 0x%02x\n", i, g[i], w[i]);
	tap_ok(i == len, "%s", what);
}

#include "../kunit/sysrec_cases.h"

/* ---- through the reader's table ---- */

struct want {
	const char *name;
	__u64 u;
	const void *text;	/* strings, SIDs: the bytes before the NUL */
	unsigned int text_size;
};

#define U(n, v)		{ n, v, NULL, 0 }
#define T(n, t, s)	{ n, 0, t, s }

/*
 * @payload decoded by the table's class for @hook at @version: its fields
 * are @w's, in order, with @w's values, and @rest bytes are left after
 * them (a later version's fields the table does not describe).
 */
static void decode(const char *what, __u16 hook, __u8 version, const __u8 *payload, __u32 len,
		   bool ptr32, const char *event, const struct want *w, unsigned int n,
		   unsigned int rest)
{
	const struct nttrace_kernel_class *c = nttrace_kernel_class(hook, version);
	struct nttrace_kernel_decoder d;
	struct nttrace_kernel_value v;
	unsigned int i = 0;

	if (!tap_ok(c && !strcmp(c->event_name, event), "%s: the table's %s", what, event))
		return;
	nttrace_kernel_decode_init(&d, c, payload, len, ptr32 ? 4 : 8);
	while (nttrace_kernel_decode_next(&d, &v)) {
		if (i >= n) {
			tap_ok(0, "%s: a field too many, %s", what, v.field->name);
			return;
		}
		tap_ok(!strcmp(v.field->name, w[i].name), "%s: field %u is %s (%s)", what, i,
		       w[i].name, v.field->name);
		if (w[i].text) {
			tap_eq(v.text_size, w[i].text_size, "%s: %s's size", what, w[i].name);
			tap_ok(v.text && v.text_size == w[i].text_size &&
			       !memcmp(v.text, w[i].text, w[i].text_size), "%s: %s's bytes",
			       what, w[i].name);
		} else {
			tap_eq(v.u, w[i].u, "%s: %s", what, w[i].name);
		}
		i++;
	}
	tap_eq(i, n, "%s: every field", what);
	tap_eq(d.cut, 0, "%s: none cut", what);
	tap_eq(len - d.at, rest, "%s: bytes after the table's fields", what);
}

static __u64 ptrv(__u64 v, bool ptr32)
{
	return ptr32 ? (__u32)v : v;
}

static void decode_process(bool ptr32)
{
	static const __u8 cmd16[] = { 's', 0, 'h', 0, ' ', 0, '-', 0, 'c', 0, ' ', 0,
				      0xAC, 0x20 };	/* "sh -c €" */
	__u8 sid[NTR_SR_SID_MAX], buf[512];
	struct ntr_sr_process p = {
		.unique_process_key = 0xffff8880aabbccddULL, .process_id = 77, .parent_id = 1,
		.session_id = 0xFFFFFFFF, .exit_status = -1,
		.directory_table_base = 0x1234000, .flags = 0,
		.image_file_name = RS_STR("sh"), .command_line = RS_STR("sh -c \xe2\x82\xac"),
	};
	static const __u16 hooks[] = { 0x0301, 0x0302, 0x0303, 0x0304 };
	static const char * const names[] = { "Process/Start", "Process/End",
					      "Process/DCStart", "Process/DCEnd" };
	unsigned int k;
	__u32 n;

	p.sid = sid;
	p.sid_size = ntr_sr_sid_unix_user(sid, 1000);
	n = ntr_sr_process_write(buf, sizeof(buf), &p, ptr32);
	for (k = 0; k < 4; k++) {
		const struct want w[] = {
			U("UniqueProcessKey", ptrv(0xffff8880aabbccddULL, ptr32)),
			U("ProcessId", 77), U("ParentId", 1), U("SessionId", 0xFFFFFFFF),
			U("ExitStatus", (__u64)-1), U("DirectoryTableBase", 0x1234000),
			U("Flags", 0), T("UserSID", sid, 16), T("ImageFileName", "sh", 2),
			T("CommandLine", cmd16, sizeof(cmd16)), T("PackageFullName", "", 0),
			T("ApplicationId", "", 0),
		};

		decode("process", hooks[k], 4, buf, n, ptr32, names[k], w,
		       sizeof(w) / sizeof(w[0]), 0);
	}
}

static void decode_thread(bool ptr32)
{
	static const __u8 name16[] = { 'w', 0, 'o', 0, 'r', 0, 'k', 0, 'e', 0, 'r', 0 };
	struct ntr_sr_thread t = {
		.process_id = 5, .thread_id = 6, .stack_base = 0xffffc90000004000ULL,
		.stack_limit = 0xffffc90000000000ULL, .user_stack_base = 0x7ffd00000000ULL,
		.user_stack_limit = 0x7ffc00000000ULL, .affinity = 0xF,
		.win32_start_addr = 0x401000, .teb_base = 0x7f0000001000ULL,
		.sub_process_tag = 0, .base_priority = 8, .page_priority = 5,
		.io_priority = 2, .thread_flags = 0, .name = RS_STR("worker"),
	};
	const struct want w[] = {
		U("ProcessId", 5), U("TThreadId", 6),
		U("StackBase", ptrv(0xffffc90000004000ULL, ptr32)),
		U("StackLimit", ptrv(0xffffc90000000000ULL, ptr32)),
		U("UserStackBase", ptrv(0x7ffd00000000ULL, ptr32)),
		U("UserStackLimit", ptrv(0x7ffc00000000ULL, ptr32)), U("Affinity", 0xF),
		U("Win32StartAddr", 0x401000), U("TebBase", ptrv(0x7f0000001000ULL, ptr32)),
		U("SubProcessTag", 0), U("BasePriority", 8), U("PagePriority", 5),
		U("IoPriority", 2), U("ThreadFlags", 0), T("ThreadName", name16, sizeof(name16)),
	};
	__u8 buf[256];
	__u32 n = ntr_sr_thread_write(buf, sizeof(buf), &t, ptr32);

	/* ThreadName: Windows 10's, the last field, decoded whole. */
	decode("thread", 0x0501, 3, buf, n, ptr32, "Thread/Start", w, sizeof(w) / sizeof(w[0]),
	       0);
	decode("thread", 0x0504, 3, buf, n, ptr32, "Thread/DCEnd", w, sizeof(w) / sizeof(w[0]),
	       0);
	/* Windows 8's form of version 3 ends before it: nothing cut. */
	t.no_name = true;
	n = ntr_sr_thread_write(buf, sizeof(buf), &t, ptr32);
	decode("thread without a name", 0x0503, 3, buf, n, ptr32, "Thread/DCStart", w,
	       sizeof(w) / sizeof(w[0]) - 1, 0);
	/* A name cut short (no NUL) is cut, not taken as absent. */
	t.no_name = false;
	n = ntr_sr_thread_write(buf, sizeof(buf), &t, ptr32);
	{
		const struct nttrace_kernel_class *c = nttrace_kernel_class(0x0501, 3);
		struct nttrace_kernel_decoder d;
		struct nttrace_kernel_value v;

		nttrace_kernel_decode_init(&d, c, buf, n - 2, ptr32 ? 4 : 8);
		while (nttrace_kernel_decode_next(&d, &v))
			;
		tap_ok(d.cut && !strcmp(c->fields[d.next].name, "ThreadName"),
		       "thread: a ThreadName without its NUL is cut short");
	}
}

static void decode_mark(bool ptr32)
{
	static const __u8 mark[] = { 'r', 0, 'u', 0, 'n', 0, ' ', 0, '1', 0 };
	const struct want w[] = { T("Mark", mark, sizeof(mark)) };
	__u8 buf[64];
	__u32 n = ntr_sr_mark_write(buf, sizeof(buf), mark, sizeof(mark));

	decode("mark", 0x0F22, 0, buf, n, ptr32, "PerfInfo/Mark", w, 1, 0);
}

static void decode_fault(bool ptr32)
{
	static const __u16 hooks[] = { 0x020A, 0x020B, 0x020C, 0x020E, 0x020F };
	static const char *const names[] = {
		"PageFault/TransitionFault", "PageFault/DemandZeroFault", "PageFault/CopyOnWrite",
		"PageFault/HardPageFault", "PageFault/AccessViolation",
	};
	const struct ntr_sr_fault f = { .virtual_address = 0x7f0012345010ULL,
					.program_counter = 0x401f90 };
	const struct ntr_sr_hardfault h = {
		.initial_time = 1957487573, .read_offset = 0x45400,
		.virtual_address = 0x7f9c7a891f0ULL, .file_object = 0xfffff8a001300c50ULL,
		.thread_id = 1716, .byte_count = 8704,
	};
	const struct want wf[] = {
		U("VirtualAddress", ptrv(f.virtual_address, ptr32)),
		U("ProgramCounter", f.program_counter),
	};
	const struct want wh[] = {
		U("InitialTime", h.initial_time), U("ReadOffset", h.read_offset),
		U("VirtualAddress", ptrv(h.virtual_address, ptr32)),
		U("FileObject", ptrv(h.file_object, ptr32)), U("TThreadId", h.thread_id),
		U("ByteCount", h.byte_count),
	};
	__u8 buf[64];
	__u32 n;
	unsigned int k;

	for (k = 0; k < sizeof(hooks) / sizeof(hooks[0]); k++) {
		n = ntr_sr_fault_write(buf, sizeof(buf), &f, ptr32);
		decode("fault", hooks[k], 2, buf, n, ptr32, names[k], wf, 2, 0);
	}
	n = ntr_sr_hardfault_write(buf, sizeof(buf), &h, ptr32);
	decode("hardfault", 0x0220, 2, buf, n, ptr32, "PageFault/HardFault", wh, 6, 0);
}

static void decode_perfctr(bool ptr32)
{
	const struct ntr_sr_perfctr c = {
		.process_id = 4242, .page_fault_count = 79, .handle_count = 11,
		.peak_virtual_size = 1855488, .peak_working_set_size = 831488,
		.peak_pagefile_usage = 339968, .virtual_size = 1855488,
		.working_set_size = 831488, .pagefile_usage = 339968,
		.private_page_count = 339968,
	};
	const struct want w[] = {
		U("ProcessId", 4242), U("PageFaultCount", 79), U("HandleCount", 11),
		U("Reserved", 0), U("PeakVirtualSize", 1855488),
		U("PeakWorkingSetSize", 831488), U("PeakPagefileUsage", 339968),
		U("QuotaPeakPagedPoolUsage", 0), U("QuotaPeakNonPagedPoolUsage", 0),
		U("VirtualSize", 1855488), U("WorkingSetSize", 831488),
		U("PagefileUsage", 339968), U("QuotaPagedPoolUsage", 0),
		U("QuotaNonPagedPoolUsage", 0), U("PrivatePageCount", 339968),
	};
	__u8 buf[128];
	__u32 n = ntr_sr_perfctr_write(buf, sizeof(buf), &c, ptr32);

	decode("perfctr", 0x0320, 2, buf, n, ptr32, "Process/PerfCtr", w, 15, 0);
	decode("perfctr rundown", 0x0321, 2, buf, n, ptr32, "Process/PerfCtrRundown", w, 15, 0);
}

static void decode_fileio(bool ptr32)
{
	static const __u8 path16[] = { '/', 0, 'f', 0 };
	struct ntr_sr_fileio f = {
		.offset = 4096, .irp = 0x11112222, .ttid = 584, .file_object = 0x55556666,
		.file_key = 0x77778888, .io_size = 500, .io_flags = 4,
		.create_options = 2u << 24, .file_attributes = 0x80, .share_access = 7,
		.open_path = { "/f", 2 }, .extra_info = 500, .nt_status = 0xC0000011,
		.info_class = 10,
	};
	const struct want create[] = {
		U("IrpPtr", 0x11112222), U("TTID", 584), U("FileObject", 0x55556666),
		U("CreateOptions", 2u << 24), U("FileAttributes", 0x80), U("ShareAccess", 7),
		T("OpenPath", path16, sizeof(path16)),
	};
	const struct want simple[] = {
		U("IrpPtr", 0x11112222), U("TTID", 584), U("FileObject", 0x55556666),
		U("FileKey", 0x77778888),
	};
	const struct want rw[] = {
		U("Offset", 4096), U("IrpPtr", 0x11112222), U("TTID", 584),
		U("FileObject", 0x55556666), U("FileKey", 0x77778888), U("IoSize", 500),
		U("IoFlags", 4),
	};
	const struct want opend[] = {
		U("IrpPtr", 0x11112222), U("ExtraInfo", 500), U("NtStatus", 0xC0000011),
	};
	const struct want info[] = {
		U("IrpPtr", 0x11112222), U("TTID", 584), U("FileObject", 0x55556666),
		U("FileKey", 0x77778888), U("ExtraInfo", 500), U("InfoClass", 10),
	};
	__u8 buf[128];
	__u32 n;

	f.type = 64;
	n = ntr_sr_fileio_write(buf, sizeof(buf), &f, ptr32);
	decode("fileio create", 0x0440, 2, buf, n, ptr32, "FileIo/Create", create, 7, 0);
	f.type = 65;
	n = ntr_sr_fileio_write(buf, sizeof(buf), &f, ptr32);
	decode("fileio cleanup", 0x0441, 2, buf, n, ptr32, "FileIo/Cleanup", simple, 4, 0);
	f.type = 66;
	n = ntr_sr_fileio_write(buf, sizeof(buf), &f, ptr32);
	decode("fileio close", 0x0442, 2, buf, n, ptr32, "FileIo/Close", simple, 4, 0);
	f.type = 70;
	n = ntr_sr_fileio_write(buf, sizeof(buf), &f, ptr32);
	decode("fileio delete", 0x0446, 2, buf, n, ptr32, "FileIo/Delete", info, 6, 0);
	f.type = 71;
	n = ntr_sr_fileio_write(buf, sizeof(buf), &f, ptr32);
	decode("fileio rename", 0x0447, 2, buf, n, ptr32, "FileIo/Rename", info, 6, 0);
	f.type = 73;
	n = ntr_sr_fileio_write(buf, sizeof(buf), &f, ptr32);
	decode("fileio flush", 0x0449, 2, buf, n, ptr32, "FileIo/Flush", simple, 4, 0);
	f.type = 67;
	n = ntr_sr_fileio_write(buf, sizeof(buf), &f, ptr32);
	decode("fileio read", 0x0443, 2, buf, n, ptr32, "FileIo/Read", rw, 7, 0);
	f.type = 68;
	n = ntr_sr_fileio_write(buf, sizeof(buf), &f, ptr32);
	decode("fileio write", 0x0444, 2, buf, n, ptr32, "FileIo/Write", rw, 7, 0);
	f.type = 76;
	n = ntr_sr_fileio_write(buf, sizeof(buf), &f, ptr32);
	decode("fileio opend", 0x044C, 2, buf, n, ptr32, "FileIo/OperationEnd", opend, 3, 0);
}

static void decode_image(bool ptr32)
{
	static const __u8 name16[] = { '/', 0, 'b', 0, 'i', 0, 'n', 0, '/', 0, 's', 0,
				       'h', 0 };
	struct ntr_sr_image im = {
		.image_base = 0x555500000000ULL, .image_size = 0x20000, .process_id = 9,
		.checksum = 0xabc, .time_date_stamp = 0, .reserved0 = 0,
		.default_base = 0x555500000000ULL, .file_name = RS_STR("/bin/sh"),
	};
	const struct want w[] = {
		U("ImageBase", ptrv(0x555500000000ULL, ptr32)), U("ImageSize", 0x20000),
		U("ProcessId", 9), U("ImageCheckSum", 0xabc), U("TimeDateStamp", 0),
		U("Reserved0", 0), U("DefaultBase", ptrv(0x555500000000ULL, ptr32)),
		U("Reserved1", 0), U("Reserved2", 0), U("Reserved3", 0), U("Reserved4", 0),
		T("FileName", name16, sizeof(name16)),
	};
	__u8 buf[256];
	__u32 n = ntr_sr_image_write(buf, sizeof(buf), &im, ptr32);

	decode("image", 0x140A, 3, buf, n, ptr32, "Image/Load", w, sizeof(w) / sizeof(w[0]), 0);
	decode("image", 0x1403, 3, buf, n, ptr32, "Image/DCStart", w, sizeof(w) / sizeof(w[0]),
	       0);
}

static void decode_sched(bool ptr32)
{
	struct ntr_sr_cswitch c = {
		.new_thread_id = 10, .old_thread_id = 11, .new_thread_priority = 9,
		.old_thread_priority = -2, .previous_cstate = 1, .old_thread_wait_reason = 6,
		.old_thread_wait_mode = 1, .old_thread_state = 5,
		.old_thread_wait_ideal_processor = 2, .new_thread_wait_time = 40,
	};
	const struct want wc[] = {
		U("NewThreadId", 10), U("OldThreadId", 11), U("NewThreadPriority", 9),
		U("OldThreadPriority", (__u64)-2), U("PreviousCState", 1), U("SpareByte", 0),
		U("OldThreadWaitReason", 6), U("OldThreadWaitMode", 1), U("OldThreadState", 5),
		U("OldThreadWaitIdealProcessor", 2), U("NewThreadWaitTime", 40),
		U("Reserved", 0),
	};
	struct ntr_sr_ready r = { .thread_id = 12, .adjust_reason = 1, .adjust_increment = -1 };
	const struct want wr[] = {
		U("TThreadId", 12), U("AdjustReason", 1), U("AdjustIncrement", (__u64)-1),
		U("Flag", 0), U("Reserved", 0),
	};
	__u8 buf[64];
	__u32 n;

	n = ntr_sr_cswitch_write(buf, sizeof(buf), &c, ptr32);
	decode("cswitch", 0x0524, 2, buf, n, ptr32, "Thread/CSwitch", wc,
	       sizeof(wc) / sizeof(wc[0]), 0);
	n = ntr_sr_ready_write(buf, sizeof(buf), &r, ptr32);
	decode("ready", 0x0532, 2, buf, n, ptr32, "Thread/ReadyThread", wr,
	       sizeof(wr) / sizeof(wr[0]), 0);
}

static void decode_disk(bool ptr32)
{
	struct ntr_sr_disk d = {
		.type = 10, .disk_number = 2, .irp_flags = 0x43, .transfer_size = 512,
		.byte_offset = 1 << 20, .file_object = 0xffff888000001000ULL,
		.irp = 0xffff888000002000ULL, .response_time = 5000, .issuing_thread_id = 31,
	};
	const struct want w[] = {
		U("DiskNumber", 2), U("IrpFlags", 0x43), U("TransferSize", 512), U("Reserved", 0),
		U("ByteOffset", 1 << 20), U("FileObject", ptrv(0xffff888000001000ULL, ptr32)),
		U("Irp", ptrv(0xffff888000002000ULL, ptr32)), U("HighResResponseTime", 5000),
		U("IssuingThreadId", 31),
	};
	const struct want wi[] = {
		U("Irp", ptrv(0xffff888000002000ULL, ptr32)), U("IssuingThreadId", 31),
	};
	const struct want wf[] = {
		U("DiskNumber", 2), U("IrpFlags", 0x43), U("HighResResponseTime", 5000),
		U("Irp", ptrv(0xffff888000002000ULL, ptr32)), U("IssuingThreadId", 31),
	};
	__u8 buf[64];
	__u32 n;

	n = ntr_sr_disk_write(buf, sizeof(buf), &d, ptr32);
	decode("disk", 0x010A, 3, buf, n, ptr32, "DiskIo/Read", w, sizeof(w) / sizeof(w[0]), 0);
	d.type = 11;
	n = ntr_sr_disk_write(buf, sizeof(buf), &d, ptr32);
	decode("disk", 0x010B, 3, buf, n, ptr32, "DiskIo/Write", w, sizeof(w) / sizeof(w[0]), 0);
	d.type = 12;
	n = ntr_sr_disk_write(buf, sizeof(buf), &d, ptr32);
	decode("disk", 0x010C, 3, buf, n, ptr32, "DiskIo/ReadInit", wi, 2, 0);
	d.type = 15;
	n = ntr_sr_disk_write(buf, sizeof(buf), &d, ptr32);
	decode("disk", 0x010F, 3, buf, n, ptr32, "DiskIo/FlushInit", wi, 2, 0);
	d.type = 14;
	n = ntr_sr_disk_write(buf, sizeof(buf), &d, ptr32);
	decode("disk", 0x010E, 3, buf, n, ptr32, "DiskIo/FlushBuffers", wf, 5, 0);
}

static void decode_tcp(bool ptr32)
{
	struct ntr_sr_tcp t = {
		.pid = 3, .size = 100, .daddr = { 127, 0, 0, 1 }, .saddr = { 10, 1, 2, 3 },
		.dport = 8080, .sport = 40000, .startime = 1, .endtime = 2, .mss = 1400,
		.sackopt = 1, .wsopt = 1, .rcvwin = 1000, .rcvwinscale = 7,
		.sndwinscale = 6, .seqnum = 5, .connid = 0xffff888000003000ULL,
	};
	__u64 d4 = 127 | 1U << 24, s4 = 10 | 1 << 8 | 2 << 16 | 3U << 24;
	__u64 conn = ptrv(0xffff888000003000ULL, ptr32);
	const struct want ws[] = {
		U("PID", 3), U("size", 100), U("daddr", d4), U("saddr", s4), U("dport", 8080),
		U("sport", 40000), U("startime", 1), U("endtime", 2), U("seqnum", 5),
		U("connid", conn),
	};
	const struct want wc[] = {
		U("PID", 3), U("size", 100), U("daddr", d4), U("saddr", s4), U("dport", 8080),
		U("sport", 40000), U("mss", 1400), U("sackopt", 1), U("tsopt", 0),
		U("wsopt", 1), U("rcvwin", 1000), U("rcvwinscale", 7), U("sndwinscale", 6),
		U("seqnum", 5), U("connid", conn),
	};
	const struct want wg[] = {
		U("PID", 3), U("size", 100), U("daddr", d4), U("saddr", s4), U("dport", 8080),
		U("sport", 40000), U("seqnum", 5), U("connid", conn),
	};
	const struct want w6[] = {
		U("PID", 3), U("size", 100), T("daddr", t.daddr, 0), T("saddr", t.saddr, 0),
		U("dport", 8080), U("sport", 40000), U("seqnum", 5), U("connid", conn),
	};
	__u8 buf[128];
	__u32 n;

	t.type = 10;
	n = ntr_sr_tcp_write(buf, sizeof(buf), &t, ptr32);
	decode("tcp", 0x060A, 2, buf, n, ptr32, "TcpIp/SendIPV4", ws, 10, 0);
	t.type = 12;
	n = ntr_sr_tcp_write(buf, sizeof(buf), &t, ptr32);
	decode("tcp", 0x060C, 2, buf, n, ptr32, "TcpIp/ConnectIPV4", wc, 15, 0);
	t.type = 15;
	n = ntr_sr_tcp_write(buf, sizeof(buf), &t, ptr32);
	decode("tcp", 0x060F, 2, buf, n, ptr32, "TcpIp/AcceptIPV4", wc, 15, 0);
	t.type = 11;
	n = ntr_sr_tcp_write(buf, sizeof(buf), &t, ptr32);
	decode("tcp", 0x060B, 2, buf, n, ptr32, "TcpIp/RecvIPV4", wg, 8, 0);
	t.type = 13;
	n = ntr_sr_tcp_write(buf, sizeof(buf), &t, ptr32);
	decode("tcp", 0x060D, 2, buf, n, ptr32, "TcpIp/DisconnectIPV4", wg, 8, 0);
	t.type = 14;
	n = ntr_sr_tcp_write(buf, sizeof(buf), &t, ptr32);
	decode("tcp", 0x060E, 2, buf, n, ptr32, "TcpIp/RetransmitIPV4", wg, 8, 0);
	/* IPv6: the address fields' bytes are checked by the byte cases. */
	t.type = 27;
	n = ntr_sr_tcp_write(buf, sizeof(buf), &t, ptr32);
	{
		const struct nttrace_kernel_class *c = nttrace_kernel_class(0x061B, 2);
		struct nttrace_kernel_decoder d;
		struct nttrace_kernel_value v;
		unsigned int i = 0;

		nttrace_kernel_decode_init(&d, c, buf, n, ptr32 ? 4 : 8);
		while (nttrace_kernel_decode_next(&d, &v)) {
			if (v.field->type == NTTRACE_KT_IPV6)
				tap_ok(!memcmp(v.data, i == 2 ? t.daddr : t.saddr, 16),
				       "tcp6: %s", v.field->name);
			else if (i < 8)
				tap_eq(v.u, w6[i].u, "tcp6: %s", w6[i].name);
			i++;
		}
		tap_eq(i, 8, "tcp6: every field");
		tap_eq(d.at, n, "tcp6: to the end");
	}
}

/* UTF-16LE of an ASCII string, for the expected texts. */
static unsigned int w16(__u8 *out, const char *s)
{
	unsigned int n = 0;

	for (; *s; s++) {
		out[n++] = (__u8)*s;
		out[n++] = 0;
	}
	return n;
}

static void decode_sysconfig(bool ptr32)
{
	struct ntr_sr_cpu cpu = {
		.mhz = 3000, .nr_processors = 2, .mem_size = 2048, .page_size = 4096,
		.allocation_granularity = 4096, .computer_name = RS_STR("host"),
		.domain_name = RS_STR("lan"), .hyper_threading_flag = 3,
	};
	struct ntr_sr_phydisk pd = {
		.disk_number = 1, .bytes_per_sector = 4096, .sectors_per_track = 1,
		.tracks_per_cylinder = 1, .cylinders = 99, .manufacturer = RS_STR("ATA"),
		.partition_count = 3, .write_cache_enabled = 1, .boot_drive_letter = RS_STR("/"),
	};
	struct ntr_sr_logdisk ld = {
		.start_offset = 512, .partition_size = 1 << 30, .disk_number = 1, .size = 7,
		.drive_type = 3, .drive_letter = RS_STR("/"), .partition_number = 2,
		.sectors_per_cluster = 8, .bytes_per_sector = 512, .free_clusters = -1,
		.total_clusters = 10, .file_system = RS_STR("xfs"), .volume_ext = 0,
	};
	struct ntr_sr_nic nic = {
		.physical_addr = 0xaabbccddeeffULL, .physical_addr_len = 6, .ipv4_index = 3,
		.ipv6_index = 4, .description = RS_STR("enp0s3"), .ip_addresses = RS_STR("1.2.3.4"),
		.dns_server_addresses = RS_STR(""),
	};
	struct ntr_sr_extension ext = { .group_mask = { 1, 2, 3, 4, 5, 6, 7, 8 },
					.kernel_event_version = 62 };
	__u8 host[8], lan[6], ata[6], slash[2], xfs[6], enp[12], ip[14];
	unsigned int lhost = w16(host, "host"), llan = w16(lan, "lan"), lata = w16(ata, "ATA");
	unsigned int lslash = w16(slash, "/"), lxfs = w16(xfs, "xfs"), lenp = w16(enp, "enp0s3");
	unsigned int lip = w16(ip, "1.2.3.4");
	const struct want wc[] = {
		U("MHz", 3000), U("NumberOfProcessors", 2), U("MemSize", 2048),
		U("PageSize", 4096), U("AllocationGranularity", 4096),
		T("ComputerName", host, lhost), T("DomainName", lan, llan),
		U("HyperThreadingFlag", 3),
	};
	const struct want wp[] = {
		U("DiskNumber", 1), U("BytesPerSector", 4096), U("SectorsPerTrack", 1),
		U("TracksPerCylinder", 1), U("Cylinders", 99), U("SCSIPort", 0), U("SCSIPath", 0),
		U("SCSITarget", 0), U("SCSILun", 0), T("Manufacturer", ata, lata),
		U("PartitionCount", 3), U("WriteCacheEnabled", 1), U("Pad", 0),
		T("BootDriveLetter", slash, lslash), T("Spare", "", 0),
	};
	const struct want wl[] = {
		U("StartOffset", 512), U("PartitionSize", 1 << 30), U("DiskNumber", 1),
		U("Size", 7), U("DriveType", 3), T("DriveLetterString", slash, lslash),
		U("Pad1", 0), U("PartitionNumber", 2), U("SectorsPerCluster", 8),
		U("BytesPerSector", 512), U("Pad2", 0), U("NumberOfFreeClusters", (__u64)-1),
		U("TotalNumberOfClusters", 10), T("FileSystem", xfs, lxfs), U("VolumeExt", 0),
		U("Pad3", 0),
	};
	const struct want wn[] = {
		U("PhysicalAddr", 0xaabbccddeeffULL), U("PhysicalAddrLen", 6), U("Ipv4Index", 3),
		U("Ipv6Index", 4), T("NICDescription", enp, lenp), T("IpAddresses", ip, lip),
		T("DnsServerAddresses", "", 0),
	};
	const struct want we[] = {
		U("GroupMask1", 1), U("GroupMask2", 2), U("GroupMask3", 3), U("GroupMask4", 4),
		U("GroupMask5", 5), U("GroupMask6", 6), U("GroupMask7", 7), U("GroupMask8", 8),
		U("KernelEventVersion", 62),
	};
	static __u8 buf[1024];
	__u32 n;

	n = ntr_sr_cpu_write(buf, sizeof(buf), &cpu, ptr32);
	decode("cpu", 0x0B0A, 2, buf, n, ptr32, "SystemConfig/CPU", wc, ARRAY_SIZE(wc), 0);
	n = ntr_sr_phydisk_write(buf, sizeof(buf), &pd, ptr32);
	decode("phydisk", 0x0B0B, 2, buf, n, ptr32, "SystemConfig/PhyDisk", wp, ARRAY_SIZE(wp),
	       0);
	n = ntr_sr_logdisk_write(buf, sizeof(buf), &ld, ptr32);
	decode("logdisk", 0x0B0C, 2, buf, n, ptr32, "SystemConfig/LogDisk", wl, ARRAY_SIZE(wl),
	       0);
	n = ntr_sr_nic_write(buf, sizeof(buf), &nic, ptr32);
	decode("nic", 0x0B0D, 2, buf, n, ptr32, "SystemConfig/NIC", wn, ARRAY_SIZE(wn), 0);
	n = ntr_sr_extension_write(buf, sizeof(buf), &ext, ptr32);
	decode("extension", 0x0005, 2, buf, n, ptr32, "EventTrace/Extension", we, ARRAY_SIZE(we),
	       0);
	decode("extension", 0x0020, 2, buf, n, ptr32, "EventTrace/EndExtension", we,
	       ARRAY_SIZE(we), 0);
}

/* ---- whole records through the ETL reader ---- */

static __u8 rt_buf[8192];
static int rt_given;

static int rt_load(void *ctx, unsigned int cpu, uint8_t *buf)
{
	(void)ctx;
	(void)cpu;
	if (rt_given)
		return 0;
	rt_given = 1;
	memcpy(buf, rt_buf, sizeof(rt_buf));
	return 1;
}

struct rt_rec {
	struct ntr_sr_header h;
	__u32 at, size;
};

/* A header and a payload at @at in rt_buf, 8-byte aligned; the next @at. */
static __u32 rt_put(struct rt_rec *r, __u32 at, const void *payload, __u32 n)
{
	r->size = ntr_sr_record_size(r->h.kind, n);
	r->at = at;
	ntr_sr_header_write(rt_buf + at, r->size, &r->h);
	memcpy(rt_buf + at + ntr_sr_header_size(r->h.kind), payload, n);
	return at + ((r->size + 7) & ~7U);
}

/*
 * Records of each header kind, sealed in a buffer (common/record.c), read
 * back by the reader that reads Windows' files (etlread.c): each is a
 * kernel record with its header's size, HookId, version, time stamp and
 * (but under a PERFINFO header) thread and process IDs, and its payload.
 */
static void roundtrip(void)
{
	struct ntr_buffer_conf conf = {
		.buffer_size = sizeof(rt_buf), .clock_type = 1, .frequency = 1000000000,
		.logger_id = 0xFFFF, .start_time = 0, .start_perf_clock = 0,
	};
	struct nttrace_etl_info info = {
		.buffer_size = sizeof(rt_buf), .nr_cpus = 1, .pointer_size = 8, .clock = 1,
		.perf_freq = 1000000000,
	};
	struct ntr_sr_process p = {
		.process_id = 100, .parent_id = 1, .image_file_name = RS_STR("init"),
		.command_line = RS_STR("/sbin/init splash"),
	};
	struct ntr_sr_cswitch c = { .new_thread_id = 100, .old_thread_id = 0 };
	struct ntr_sr_thread t = { .process_id = 100, .thread_id = 101, .name = RS_STR("t") };
	static const __u8 mark[4] = { 'm', 0, 'k', 0 };
	__u8 sid[NTR_SR_SID_MAX], payload[512];
	struct rt_rec r[5] = {
		{ .h = { .hook_id = NTR_SR_PROCESS_START, .version = 4, .kind = NTR_SR_FULL,
			 .thread_id = 1, .process_id = 1, .time_stamp = 1000,
			 .kernel_time = 5, .user_time = 6 } },
		{ .h = { .hook_id = NTR_SR_PROCESS_DCSTART, .version = 4,
			 .kind = NTR_SR_PERFINFO, .time_stamp = 2000 } },
		{ .h = { .hook_id = NTR_SR_CSWITCH, .version = 2, .kind = NTR_SR_PERFINFO,
			 .time_stamp = 3000 } },
		{ .h = { .hook_id = NTR_SR_THREAD_START, .version = 3, .kind = NTR_SR_COMPACT,
			 .thread_id = 100, .process_id = 100, .time_stamp = 4000 } },
		{ .h = { .hook_id = NTR_SR_PERFINFO_MARK, .version = 0, .kind = NTR_SR_FULL,
			 .thread_id = 7, .process_id = 8, .time_stamp = 5000 } },
	};
	struct nttrace_etl_reader *rd;
	struct nttrace_etl_event ev;
	__u32 at = NTTRACE_WMI_BUFFER_HEADER_SIZE, n;
	unsigned int i = 0;

	p.sid = sid;
	p.sid_size = ntr_sr_sid_local_system(sid);
	memset(rt_buf, 0, sizeof(rt_buf));
	ntr_buffer_open(rt_buf, &conf, 0);
	n = ntr_sr_process_write(payload, sizeof(payload), &p, false);
	at = rt_put(&r[0], at, payload, n);
	at = rt_put(&r[1], at, payload, n);
	n = ntr_sr_cswitch_write(payload, sizeof(payload), &c, false);
	at = rt_put(&r[2], at, payload, n);
	n = ntr_sr_thread_write(payload, sizeof(payload), &t, false);
	at = rt_put(&r[3], at, payload, n);
	n = ntr_sr_mark_write(payload, sizeof(payload), mark, sizeof(mark));
	at = rt_put(&r[4], at, payload, n);
	ntr_buffer_seal(rt_buf, at, 6000, 1, 0);

	rt_given = 0;
	if (!tap_ok(!nttrace_etl_open_live(&rd, &info, rt_load, NULL), "reader: opened"))
		return;
	while (nttrace_etl_next(rd, &ev) == 1 && i < 5) {
		const struct ntr_sr_header *h = &r[i].h;
		__u32 hs = ntr_sr_header_size(h->kind);

		tap_eq(ev.size, r[i].size, "reader %u: size", i);
		tap_eq(ev.system, hs, "reader %u: a kernel record, its header's size", i);
		tap_eq(ev.hook_id, h->hook_id, "reader %u: HookId", i);
		tap_eq(ev.version, h->version, "reader %u: version", i);
		tap_eq(ev.timestamp, h->time_stamp, "reader %u: time stamp", i);
		tap_eq(ev.pmc_count, 0, "reader %u: no PMC counters", i);
		tap_ok(!ev.pebs, "reader %u: no PEBS index", i);
		if (h->kind != NTR_SR_PERFINFO) {
			tap_eq(ev.tid, h->thread_id, "reader %u: thread", i);
			tap_eq(ev.pid, h->process_id, "reader %u: process", i);
		}
		tap_ok(ev.data == ev.rec + hs && ev.data_len == r[i].size - hs &&
		       !memcmp(ev.data, rt_buf + r[i].at + hs, ev.data_len),
		       "reader %u: the payload", i);
		i++;
	}
	tap_eq(i, 5, "reader: every record");
	nttrace_etl_close(rd);
}

int main(void)
{
	struct rc_ctx ctx = { 0 };
	int ptr32;

	rs_headers(&ctx);
	rs_sids(&ctx);
	rs_utf16(&ctx);
	rs_process(&ctx);
	rs_process_long(&ctx);
	rs_thread(&ctx);
	rs_image(&ctx);
	rs_cswitch(&ctx);
	rs_disk(&ctx);
	rs_tcp(&ctx);
	rs_profile(&ctx);
	rs_pagefault(&ctx);
	rs_perfctr(&ctx);
	rs_fileio(&ctx);
	rs_filename(&ctx);
	rs_mark(&ctx);
	rs_sysconfig(&ctx);
	rs_table(&ctx);
	roundtrip();
	for (ptr32 = 0; ptr32 < 2; ptr32++) {
		decode_process(ptr32);
		decode_thread(ptr32);
		decode_mark(ptr32);
		decode_image(ptr32);
		decode_fault(ptr32);
		decode_perfctr(ptr32);
		decode_fileio(ptr32);
		decode_sched(ptr32);
		decode_disk(ptr32);
		decode_tcp(ptr32);
		decode_sysconfig(ptr32);
	}
	return tap_done();
}
