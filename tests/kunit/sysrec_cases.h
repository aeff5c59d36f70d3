/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NT Kernel Logger's record encoders (common/sysrec.c), checked byte
 * by byte against records built here field by field from Microsoft's MOF
 * class pages (learn.microsoft.com/windows/win32/etw/: process-typegroup1
 * and the V4 class of the WDK's MOF, thread-typegroup1, image-load,
 * cswitch, readythread, diskio-typegroup1/2/3, tcpip-sendipv4,
 * tcpip-typegroup1 to 4, systemconfig-cpu, -phydisk, -logdisk, -nic) and
 * the headers of ntwmi.h, never by calling
 * the code under test. One set of cases, run in the kernel by
 * tests/kunit/sysrec_test.c and in user space, 64- and 32-bit, by
 * tests/host/sysrec_test.c (which also decodes the records with the
 * reader's table).
 *
 * The including file defines struct rc_ctx, rc_eq(ctx, got, want, what)
 * and rc_mem(ctx, got, want, len, what).
 */
#ifndef NTTRACE_SYSREC_CASES_H
#define NTTRACE_SYSREC_CASES_H

#include "sysconfig.h"
#include "sysrec.h"
#include "utf16.h"

#define RS_UNTOUCHED	0xEE
/* The buffers of the cases are static: KUnit runs them on a kernel stack. */
#define RS_BUF		1024

/* Buffers are static: a KUnit case runs on a kernel stack. */

/* The expected bytes, appended field by field. */
struct rs_exp {
	__u8 b[RS_BUF];
	unsigned int at;
	bool ptr32;
};

static void rs_init(struct rs_exp *e, bool ptr32)
{
	unsigned int i;

	for (i = 0; i < RS_BUF; i++)
		e->b[i] = 0;
	e->at = 0;
	e->ptr32 = ptr32;
}

static void rs_u(struct rs_exp *e, __u64 v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		e->b[e->at++] = (__u8)(v >> (8 * i));
}

/* A pointer-sized field: the MOF Pointer qualifier, SizeT extension. */
static void rs_p(struct rs_exp *e, __u64 v)
{
	rs_u(e, v, e->ptr32 ? 4 : 8);
}

/* UTF-16LE units, then the NUL. */
static void rs_w(struct rs_exp *e, const __u16 *units, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rs_u(e, units[i], 2);
	rs_u(e, 0, 2);
}

/* An ASCII string as UTF-16LE, then the NUL. */
static void rs_wa(struct rs_exp *e, const char *s)
{
	while (*s)
		rs_u(e, (__u8)*s++, 2);
	rs_u(e, 0, 2);
}

static void rs_fill(__u8 *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = RS_UNTOUCHED;
}

#define RS_STR(lit)	{ .s = (lit), .len = sizeof(lit) - 1 }

/* ---- headers (ntwmi.h's SYSTEM_TRACE_HEADER, PERFINFO_TRACE_HEADER) ---- */

static void rs_headers(struct rc_ctx *ctx)
{
	struct ntr_sr_header h = {
		.hook_id = 0x0501, .version = 3, .kind = NTR_SR_FULL,
		.thread_id = 0x1984, .process_id = 0x1f8,
		.time_stamp = 0x1122334455667788ULL,
		.kernel_time = 0xAABBCCDD, .user_time = 0x01020304,
	};
	static __u8 got[0x28];
	static struct rs_exp e;
	int ptr32;

	rc_eq(ctx, ntr_sr_header_size(NTR_SR_FULL), 0x20, "header: full size");
	rc_eq(ctx, ntr_sr_header_size(NTR_SR_COMPACT), 0x18, "header: compact size");
	rc_eq(ctx, ntr_sr_header_size(NTR_SR_PERFINFO), 0x10, "header: perfinfo size");
	rc_eq(ctx, ntr_sr_header_size(7), 0, "header: unknown kind");
	rc_eq(ctx, ntr_sr_record_size(NTR_SR_FULL, 0xFFDF), 0xFFFF, "header: full, largest");
	rc_eq(ctx, ntr_sr_record_size(NTR_SR_FULL, 0xFFE0), 0, "header: full, one over");
	rc_eq(ctx, ntr_sr_record_size(NTR_SR_PERFINFO, 0xFFEF), 0xFFFF,
	      "header: perfinfo, largest");
	rc_eq(ctx, ntr_sr_record_size(NTR_SR_PERFINFO, 0xFFFFFFFFU), 0,
	      "header: no wrap-around");
	for (ptr32 = 0; ptr32 < 2; ptr32++) {
		h.ptr32 = ptr32;
		/* Full: Marker {Version, HeaderType 2 (1), Flags 0xC0}, ... */
		h.kind = NTR_SR_FULL;
		rs_init(&e, ptr32);
		rs_u(&e, 3, 2);
		rs_u(&e, ptr32 ? 0x01 : 0x02, 1);
		rs_u(&e, 0xC0, 1);
		rs_u(&e, 0x6a, 2);
		rs_u(&e, 0x0501, 2);
		rs_u(&e, 0x1984, 4);
		rs_u(&e, 0x1f8, 4);
		rs_u(&e, 0x1122334455667788ULL, 8);
		rs_u(&e, 0xAABBCCDD, 4);
		rs_u(&e, 0x01020304, 4);
		rs_fill(got, sizeof(got));
		ntr_sr_header_write(got, 0x6a, &h);
		rc_mem(ctx, got, e.b, 0x20, "header: full");
		rc_eq(ctx, got[0x20], RS_UNTOUCHED, "header: full, not past 0x20");
		/* Compact: the first 0x18 bytes, HeaderType 4 (3). */
		h.kind = NTR_SR_COMPACT;
		e.b[2] = ptr32 ? 0x03 : 0x04;
		rs_fill(got, sizeof(got));
		ntr_sr_header_write(got, 0x6a, &h);
		rc_mem(ctx, got, e.b, 0x18, "header: compact");
		rc_eq(ctx, got[0x18], RS_UNTOUCHED, "header: compact, not past 0x18");
		/* PERFINFO: Marker (0x11, 0x10), Size, HookId, the time stamp. */
		h.kind = NTR_SR_PERFINFO;
		rs_init(&e, ptr32);
		rs_u(&e, 3, 2);
		rs_u(&e, ptr32 ? 0x10 : 0x11, 1);
		rs_u(&e, 0xC0, 1);
		rs_u(&e, 0x6a, 2);
		rs_u(&e, 0x0501, 2);
		rs_u(&e, 0x1122334455667788ULL, 8);
		rs_fill(got, sizeof(got));
		ntr_sr_header_write(got, 0x6a, &h);
		rc_mem(ctx, got, e.b, 0x10, "header: perfinfo");
		rc_eq(ctx, got[0x10], RS_UNTOUCHED, "header: perfinfo, not past 0x10");
	}
}

/* ---- SIDs and strings ---- */

static void rs_sids(struct rc_ctx *ctx)
{
	/* S-1-22-1-1000: revision, count 2, authority 22 big-endian, 1, 1000. */
	static const __u8 unix_user[16] = {
		1, 2, 0, 0, 0, 0, 0, 22, 1, 0, 0, 0, 0xe8, 0x03, 0, 0,
	};
	/* S-1-5-18 */
	static const __u8 system[12] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };
	/* S-1-5-21-1-2-3-500: authority 5, five sub-authorities. */
	static const __u8 domain[28] = {
		1, 5, 0, 0, 0, 0, 0, 5, 21, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0,
		3, 0, 0, 0, 0xf4, 0x01, 0, 0,
	};
	static const __u32 sub[5] = { 21, 1, 2, 3, 500 };
	__u8 got[NTR_SR_SID_MAX];

	rs_fill(got, sizeof(got));
	rc_eq(ctx, ntr_sr_sid_unix_user(got, 1000), 16, "sid: unix user size");
	rc_mem(ctx, got, unix_user, 16, "sid: S-1-22-1-1000");
	rc_eq(ctx, got[16], RS_UNTOUCHED, "sid: unix user, no more");
	rs_fill(got, sizeof(got));
	rc_eq(ctx, ntr_sr_sid_local_system(got), 12, "sid: system size");
	rc_mem(ctx, got, system, 12, "sid: S-1-5-18");
	rc_eq(ctx, ntr_sr_sid_write(got, 5, sub, 5), 28, "sid: five sub-authorities");
	rc_mem(ctx, got, domain, 28, "sid: S-1-5-21-1-2-3-500");
	rc_eq(ctx, ntr_sr_sid_unix_user(got, 0xFFFFFFFFU), 16, "sid: UID -1");
	rc_eq(ctx, got[12] & got[13] & got[14] & got[15], 0xFF, "sid: UID -1 little-endian");
}

static void rs_utf16(struct rc_ctx *ctx)
{
	/* "a" U+00E9 U+20AC U+1F600 (a pair), a bad byte, "z". */
	static const char in[] = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xffz";
	static const __u16 want[] = { 'a', 0xE9, 0x20AC, 0xD83D, 0xDE00, 0xFFFD, 'z' };
	/* An overlong '/', a surrogate, a cut sequence: one U+FFFD a byte. */
	static const char bad[] = "\xc0\xaf\xed\xa0\x80\xe2\x82";
	static __u8 got[32];
	static struct rs_exp e;
	unsigned int i;

	rc_eq(ctx, ntr_utf8_to_utf16(NULL, 100, in, sizeof(in) - 1), 7, "utf16: count");
	rs_fill(got, sizeof(got));
	rc_eq(ctx, ntr_utf8_to_utf16(got, 100, in, sizeof(in) - 1), 7, "utf16: write");
	rs_init(&e, false);
	for (i = 0; i < 7; i++)
		rs_u(&e, want[i], 2);
	rc_mem(ctx, got, e.b, 14, "utf16: units");
	rc_eq(ctx, got[14], RS_UNTOUCHED, "utf16: no terminator");
	/* A pair is not cut: 4 units room stops before it. */
	rc_eq(ctx, ntr_utf8_to_utf16(NULL, 4, in, sizeof(in) - 1), 3, "utf16: pair not cut");
	rc_eq(ctx, ntr_utf8_to_utf16(NULL, 5, in, sizeof(in) - 1), 5, "utf16: pair whole");
	/* A NUL byte ends the text; so does the length. */
	rc_eq(ctx, ntr_utf8_to_utf16(NULL, 100, "ab\0cd", 5), 2, "utf16: ends at NUL");
	rc_eq(ctx, ntr_utf8_to_utf16(NULL, 100, "abcd", 3), 3, "utf16: ends at length");
	rs_fill(got, sizeof(got));
	rc_eq(ctx, ntr_utf8_to_utf16(got, 100, bad, sizeof(bad) - 1), 7,
	      "utf16: bad bytes, one U+FFFD each");
	for (i = 0; i < 7; i++)
		rc_eq(ctx, got[2 * i] | got[2 * i + 1] << 8, 0xFFFD, "utf16: U+FFFD");
}

/* ---- Process_V4_TypeGroup1 ---- */

static void rs_process_exp(struct rs_exp *e, bool ptr32, const __u8 *sid, unsigned int sid_len,
			   __u64 sid_ptr)
{
	static const __u16 cmd[] = { '/', 'b', 'i', 'n', '/', 'c', 'a', 'f', 0xE9, ' ', '-', 'x' };

	rs_init(e, ptr32);
	rs_p(e, 0xffff8880deadbeefULL);	/* UniqueProcessKey */
	rs_u(e, 4242, 4);		/* ProcessId */
	rs_u(e, 1, 4);			/* ParentId */
	rs_u(e, 0, 4);			/* SessionId */
	rs_u(e, 0x103, 4);		/* ExitStatus */
	rs_p(e, 0x187000);		/* DirectoryTableBase */
	rs_u(e, 0, 4);			/* Flags */
	if (sid) {
		/* TOKEN_USER {PSID Sid; ULONG Attributes;}, two pointers long. */
		rs_p(e, sid_ptr);
		rs_u(e, 0, 4);
		if (!ptr32)
			rs_u(e, 0, 4);
		while (sid_len--)
			rs_u(e, *sid++, 1);
	} else {
		rs_u(e, 0, 4);
	}
	/* ImageFileName, ANSI: "caf?" for "café". */
	rs_u(e, 'c', 1);
	rs_u(e, 'a', 1);
	rs_u(e, 'f', 1);
	rs_u(e, '?', 1);
	rs_u(e, 0, 1);
	rs_w(e, cmd, 12);		/* CommandLine */
	rs_w(e, NULL, 0);		/* PackageFullName */
	rs_w(e, NULL, 0);		/* ApplicationId */
}

static void rs_process(struct rc_ctx *ctx)
{
	static __u8 sid[NTR_SR_SID_MAX], got[RS_BUF];
	struct ntr_sr_process p = {
		.unique_process_key = 0xffff8880deadbeefULL, .process_id = 4242, .parent_id = 1,
		.exit_status = 0x103, .directory_table_base = 0x187000,
		.image_file_name = RS_STR("caf\xc3\xa9"),
		.command_line = RS_STR("/bin/caf\xc3\xa9 -x"),
	};
	static struct rs_exp e;
	__u32 n;
	int ptr32;

	p.sid = sid;
	p.sid_size = ntr_sr_sid_unix_user(sid, 1000);
	for (ptr32 = 0; ptr32 < 2; ptr32++) {
		/* sid_pointer 0: the SID's offset, 16 (8) */
		p.sid_pointer = 0;
		rs_process_exp(&e, ptr32, sid, 16, ptr32 ? 8 : 16);
		n = ntr_sr_process_size(&p, ptr32);
		rc_eq(ctx, n, e.at, "process: size");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_process_write(got, n, &p, ptr32), n, "process: written");
		rc_mem(ctx, got, e.b, e.at, "process: bytes");
		rc_eq(ctx, got[n], RS_UNTOUCHED, "process: not past its size");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_process_write(got, n - 1, &p, ptr32), 0,
		      "process: one byte short");
		rc_eq(ctx, got[0], RS_UNTOUCHED, "process: nothing written when short");

		/* A given pointer is written as is (its low 32 bits at 32-bit). */
		p.sid_pointer = 0xfffff8a001ed2b50ULL;
		rs_process_exp(&e, ptr32, sid, 16, p.sid_pointer);
		rc_eq(ctx, ntr_sr_process_write(got, sizeof(got), &p, ptr32), e.at,
		      "process: given pointer, size");
		rc_mem(ctx, got, e.b, e.at, "process: given pointer");

		/* No SID: the 4-byte zero. */
		p.sid = NULL;
		rs_process_exp(&e, ptr32, NULL, 0, 0);
		rc_eq(ctx, ntr_sr_process_write(got, sizeof(got), &p, ptr32), e.at,
		      "process: no SID, size");
		rc_mem(ctx, got, e.b, e.at, "process: no SID");
		p.sid = sid;

		/*
		 * A deny-only user's Attributes (0x10), a packaged
		 * application's names: after Flags, the TOKEN_USER's pointer,
		 * then Attributes; the names after the command line.
		 */
		p.sid_pointer = 0;
		p.sid_attributes = 0x10;
		p.package_full_name.s = "Pkg_1.0_x64";
		p.package_full_name.len = 11;
		p.application_id.s = "App";
		p.application_id.len = 3;
		rs_process_exp(&e, ptr32, sid, 16, ptr32 ? 8 : 16);
		e.b[(ptr32 ? 4 : 8) + 16 + (ptr32 ? 4 : 8) + 4 + (ptr32 ? 4 : 8)] = 0x10;
		e.at -= 4;
		rs_wa(&e, "Pkg_1.0_x64");
		rs_wa(&e, "App");
		rc_eq(ctx, ntr_sr_process_write(got, sizeof(got), &p, ptr32), e.at,
		      "process: attributes, package, size");
		rc_mem(ctx, got, e.b, e.at, "process: attributes, package");
		p.sid_attributes = 0;
		p.package_full_name.s = NULL;
		p.application_id.s = NULL;

		/* A SID whose size is not its count's: refused. */
		p.sid_size = 12;
		rc_eq(ctx, ntr_sr_process_size(&p, ptr32), 0, "process: SID size not its count's");
		p.sid_size = 16;
	}
}

/* Strings past their fields' maxima are cut there. */
static __u8 rs_big[2 * NTR_SR_CMDLINE_MAX + 512];
static char rs_text[NTR_SR_CMDLINE_MAX + 100];

static void rs_process_long(struct rc_ctx *ctx)
{
	struct ntr_sr_process p = { .process_id = 1 };
	unsigned int i, fixed;
	__u32 n;

	for (i = 0; i < sizeof(rs_text); i++)
		rs_text[i] = 'x';
	p.command_line.s = rs_text;
	p.command_line.len = sizeof(rs_text);
	p.image_file_name.s = rs_text;
	p.image_file_name.len = sizeof(rs_text);
	/* 8 + 4 * 4 + 8 + 4, no SID (4), then the strings. */
	fixed = 8 + 16 + 8 + 4 + 4;
	n = ntr_sr_process_size(&p, false);
	rc_eq(ctx, n, fixed + NTR_SR_ANSI_MAX + 1 + 2 * NTR_SR_CMDLINE_MAX + 2 + 4,
	      "process: long strings cut at their maxima");
	rs_fill(rs_big, sizeof(rs_big));
	rc_eq(ctx, ntr_sr_process_write(rs_big, sizeof(rs_big), &p, false), n,
	      "process: long strings written");
	rc_eq(ctx, rs_big[fixed + NTR_SR_ANSI_MAX], 0, "process: ANSI NUL at its maximum");
	rc_eq(ctx, rs_big[n - 6] | rs_big[n - 5], 0, "process: command line's NUL");
	rc_eq(ctx, rs_big[n - 8], 'x', "process: command line's last unit");
	rc_eq(ctx, rs_big[n], RS_UNTOUCHED, "process: long, not past its size");
}

/* ---- Thread_TypeGroup1, version 3 ---- */

static void rs_thread(struct rc_ctx *ctx)
{
	struct ntr_sr_thread t = {
		.process_id = 0x1f8, .thread_id = 0x13c4,
		.stack_base = 0xfffff580f6ceb000ULL, .stack_limit = 0xfffff580f6ce4000ULL,
		.user_stack_base = 0xf144780000ULL, .user_stack_limit = 0xf144772000ULL,
		.affinity = 3, .win32_start_addr = 0x7ff993bb3d60ULL,
		.teb_base = 0xf14448b000ULL, .sub_process_tag = 7,
		.base_priority = 13, .page_priority = 5, .io_priority = 2, .thread_flags = 0x10,
		.name = RS_STR("kworker/0:1"),
	};
	static __u8 got[RS_BUF];
	static struct rs_exp e;
	int ptr32;
	__u32 n;

	for (ptr32 = 0; ptr32 < 2; ptr32++) {
		rs_init(&e, ptr32);
		rs_u(&e, 0x1f8, 4);			/* ProcessId */
		rs_u(&e, 0x13c4, 4);			/* TThreadId */
		rs_p(&e, 0xfffff580f6ceb000ULL);	/* StackBase */
		rs_p(&e, 0xfffff580f6ce4000ULL);	/* StackLimit */
		rs_p(&e, 0xf144780000ULL);		/* UserStackBase */
		rs_p(&e, 0xf144772000ULL);		/* UserStackLimit */
		rs_p(&e, 3);				/* Affinity */
		rs_p(&e, 0x7ff993bb3d60ULL);		/* Win32StartAddr */
		rs_p(&e, 0xf14448b000ULL);		/* TebBase */
		rs_u(&e, 7, 4);				/* SubProcessTag */
		rs_u(&e, 13, 1);			/* BasePriority */
		rs_u(&e, 5, 1);				/* PagePriority */
		rs_u(&e, 2, 1);				/* IoPriority */
		rs_u(&e, 0x10, 1);			/* ThreadFlags */
		rc_eq(ctx, e.at, ptr32 ? 44 : 72, "thread: the page's fixed part");
		t.no_name = true;
		n = ntr_sr_thread_size(&t, ptr32);
		rc_eq(ctx, n, e.at, "thread: without a name, size");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_thread_write(got, n, &t, ptr32), n, "thread: without a name");
		rc_mem(ctx, got, e.b, n, "thread: without a name, bytes");
		rc_eq(ctx, got[n], RS_UNTOUCHED, "thread: not past its size");
		rs_wa(&e, "kworker/0:1");		/* ThreadName */
		t.no_name = false;
		n = ntr_sr_thread_size(&t, ptr32);
		rc_eq(ctx, n, e.at, "thread: with its name, size");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_thread_write(got, sizeof(got), &t, ptr32), n, "thread: named");
		rc_mem(ctx, got, e.b, n, "thread: with its name, bytes");
	}
}

/* ---- Image_Load ---- */

static void rs_image(struct rc_ctx *ctx)
{
	struct ntr_sr_image im = {
		.image_base = 0x7f0012340000ULL, .image_size = 0x1c0000, .process_id = 4242,
		.checksum = 0x16b7c8, .time_date_stamp = 0x5010acd3, .reserved0 = 0x0c01,
		.default_base = 0x7f0012340000ULL, .reserved = { 1, 2, 3, 4 },
		.file_name = RS_STR("/usr/lib/libc.so.6"),
	};
	static __u8 got[RS_BUF];
	static struct rs_exp e;
	int ptr32;
	__u32 n;

	for (ptr32 = 0; ptr32 < 2; ptr32++) {
		rs_init(&e, ptr32);
		rs_p(&e, 0x7f0012340000ULL);	/* ImageBase */
		rs_p(&e, 0x1c0000);		/* ImageSize */
		rs_u(&e, 4242, 4);		/* ProcessId */
		rs_u(&e, 0x16b7c8, 4);		/* ImageCheckSum */
		rs_u(&e, 0x5010acd3, 4);	/* TimeDateStamp */
		rs_u(&e, 0x0c01, 4);		/* Reserved0 */
		rs_p(&e, 0x7f0012340000ULL);	/* DefaultBase */
		rs_u(&e, 1, 4);			/* Reserved1 */
		rs_u(&e, 2, 4);
		rs_u(&e, 3, 4);
		rs_u(&e, 4, 4);			/* Reserved4 */
		rs_wa(&e, "/usr/lib/libc.so.6");	/* FileName */
		n = ntr_sr_image_size(&im, ptr32);
		rc_eq(ctx, n, e.at, "image: size");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_image_write(got, n, &im, ptr32), n, "image: written");
		rc_mem(ctx, got, e.b, n, "image: bytes");
		rc_eq(ctx, got[n], RS_UNTOUCHED, "image: not past its size");
	}
}

/* ---- CSwitch, ReadyThread ---- */

static void rs_cswitch(struct rc_ctx *ctx)
{
	struct ntr_sr_cswitch c = {
		.new_thread_id = 100, .old_thread_id = 200, .new_thread_priority = 8,
		.old_thread_priority = -1, .previous_cstate = 1, .spare_byte = 0,
		.old_thread_wait_reason = 6, .old_thread_wait_mode = 1, .old_thread_state = 5,
		.old_thread_wait_ideal_processor = 3, .new_thread_wait_time = 77,
		.reserved = 0,
	};
	struct ntr_sr_ready r = {
		.thread_id = 300, .adjust_reason = 2, .adjust_increment = -3, .flag = 1,
	};
	static __u8 got[32];
	static struct rs_exp e;
	int ptr32;

	for (ptr32 = 0; ptr32 < 2; ptr32++) {
		rs_init(&e, ptr32);
		rs_u(&e, 100, 4);	/* NewThreadId */
		rs_u(&e, 200, 4);	/* OldThreadId */
		rs_u(&e, 8, 1);		/* NewThreadPriority */
		rs_u(&e, 0xFF, 1);	/* OldThreadPriority */
		rs_u(&e, 1, 1);		/* PreviousCState */
		rs_u(&e, 0, 1);		/* SpareByte */
		rs_u(&e, 6, 1);		/* OldThreadWaitReason */
		rs_u(&e, 1, 1);		/* OldThreadWaitMode */
		rs_u(&e, 5, 1);		/* OldThreadState */
		rs_u(&e, 3, 1);		/* OldThreadWaitIdealProcessor */
		rs_u(&e, 77, 4);	/* NewThreadWaitTime */
		rs_u(&e, 0, 4);		/* Reserved */
		rc_eq(ctx, ntr_sr_cswitch_size(&c, ptr32), 24, "cswitch: 24 bytes");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_cswitch_write(got, 24, &c, ptr32), 24, "cswitch: written");
		rc_mem(ctx, got, e.b, 24, "cswitch: bytes");
		rc_eq(ctx, got[24], RS_UNTOUCHED, "cswitch: not past 24");
		rc_eq(ctx, ntr_sr_cswitch_write(got, 23, &c, ptr32), 0, "cswitch: short room");

		rs_init(&e, ptr32);
		rs_u(&e, 300, 4);	/* TThreadId */
		rs_u(&e, 2, 1);		/* AdjustReason */
		rs_u(&e, 0xFD, 1);	/* AdjustIncrement */
		rs_u(&e, 1, 1);		/* Flag */
		rs_u(&e, 0, 1);		/* Reserved */
		rc_eq(ctx, ntr_sr_ready_size(&r, ptr32), 8, "ready: 8 bytes");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_ready_write(got, 8, &r, ptr32), 8, "ready: written");
		rc_mem(ctx, got, e.b, 8, "ready: bytes");
		rc_eq(ctx, got[8], RS_UNTOUCHED, "ready: not past 8");
	}
}

/* ---- DiskIo, version 3 ---- */

static void rs_disk(struct rc_ctx *ctx)
{
	struct ntr_sr_disk d = {
		.disk_number = 1, .irp_flags = 0x60043, .transfer_size = 4096,
		.reserved = 0, .byte_offset = 0x12345000, .file_object = 0xffff9000aa00ULL,
		.irp = 0xffff9000bb00ULL, .response_time = 1234567, .issuing_thread_id = 88,
	};
	static const __u8 types[] = { 10, 11, 12, 13, 14, 15 };
	static __u8 got[64];
	static struct rs_exp e;
	unsigned int i;
	int ptr32;
	__u32 n;

	for (ptr32 = 0; ptr32 < 2; ptr32++) {
		for (i = 0; i < sizeof(types); i++) {
			d.type = types[i];
			rs_init(&e, ptr32);
			if (d.type == 10 || d.type == 11) {
				rs_u(&e, 1, 4);			/* DiskNumber */
				rs_u(&e, 0x60043, 4);		/* IrpFlags */
				rs_u(&e, 4096, 4);		/* TransferSize */
				rs_u(&e, 0, 4);			/* Reserved */
				rs_u(&e, 0x12345000, 8);	/* ByteOffset */
				rs_p(&e, 0xffff9000aa00ULL);	/* FileObject */
				rs_p(&e, 0xffff9000bb00ULL);	/* Irp */
				rs_u(&e, 1234567, 8);		/* HighResResponseTime */
			} else if (d.type == 14) {
				rs_u(&e, 1, 4);			/* DiskNumber */
				rs_u(&e, 0x60043, 4);		/* IrpFlags */
				rs_u(&e, 1234567, 8);		/* HighResResponseTime */
				rs_p(&e, 0xffff9000bb00ULL);	/* Irp */
			} else {
				rs_p(&e, 0xffff9000bb00ULL);	/* Irp */
			}
			rs_u(&e, 88, 4);			/* IssuingThreadId */
			n = ntr_sr_disk_size(&d, ptr32);
			rc_eq(ctx, n, e.at, "disk: size");
			rs_fill(got, sizeof(got));
			rc_eq(ctx, ntr_sr_disk_write(got, n, &d, ptr32), n, "disk: written");
			rc_mem(ctx, got, e.b, n, "disk: bytes");
			rc_eq(ctx, got[n], RS_UNTOUCHED, "disk: not past its size");
		}
		d.type = 16;
		rc_eq(ctx, ntr_sr_disk_size(&d, ptr32), 0, "disk: unknown type");
	}
}

/* ---- TcpIp, version 2 ---- */

static void rs_tcp(struct rc_ctx *ctx)
{
	static const __u8 types[] = { 10, 11, 12, 13, 14, 15, 16, 18,
				      26, 27, 28, 29, 30, 31, 32, 34 };
	static const __u8 bad[] = { 9, 17, 19, 25, 33, 35 };
	struct ntr_sr_tcp t = {
		.pid = 4242, .size = 1460,
		.daddr = { 192, 168, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
		.saddr = { 10, 0, 0, 1, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c,
			   0x2d, 0x2e, 0x2f, 0x30 },
		.dport = 443, .sport = 0xC001, .startime = 11, .endtime = 12,
		.mss = 1460, .sackopt = 1, .tsopt = 0, .wsopt = 1, .rcvwin = 65535,
		.rcvwinscale = 7, .sndwinscale = -1, .seqnum = 99, .connid = 0xffff9000cc00ULL,
	};
	static __u8 got[128];
	static struct rs_exp e;
	unsigned int i, alen, j;
	int ptr32;
	__u32 n;

	for (ptr32 = 0; ptr32 < 2; ptr32++) {
		for (i = 0; i < sizeof(types); i++) {
			t.type = types[i];
			alen = t.type >= 26 ? 16 : 4;
			rs_init(&e, ptr32);
			rs_u(&e, 4242, 4);		/* PID */
			rs_u(&e, 1460, 4);		/* size */
			for (j = 0; j < alen; j++)	/* daddr */
				rs_u(&e, t.daddr[j], 1);
			for (j = 0; j < alen; j++)	/* saddr */
				rs_u(&e, t.saddr[j], 1);
			rs_u(&e, 0x01, 1);		/* dport 443, network order */
			rs_u(&e, 0xBB, 1);
			rs_u(&e, 0xC0, 1);		/* sport */
			rs_u(&e, 0x01, 1);
			if (t.type == 10 || t.type == 26) {
				rs_u(&e, 11, 4);	/* startime */
				rs_u(&e, 12, 4);	/* endtime */
			} else if (t.type == 12 || t.type == 15 || t.type == 28 || t.type == 31) {
				rs_u(&e, 1460, 2);	/* mss */
				rs_u(&e, 1, 2);		/* sackopt */
				rs_u(&e, 0, 2);		/* tsopt */
				rs_u(&e, 1, 2);		/* wsopt */
				rs_u(&e, 65535, 4);	/* rcvwin */
				rs_u(&e, 7, 2);		/* rcvwinscale */
				rs_u(&e, 0xFFFF, 2);	/* sndwinscale */
			}
			rs_u(&e, 99, 4);		/* seqnum */
			rs_p(&e, 0xffff9000cc00ULL);	/* connid */
			n = ntr_sr_tcp_size(&t, ptr32);
			rc_eq(ctx, n, e.at, "tcp: size");
			rs_fill(got, sizeof(got));
			rc_eq(ctx, ntr_sr_tcp_write(got, n, &t, ptr32), n, "tcp: written");
			rc_mem(ctx, got, e.b, n, "tcp: bytes");
			rc_eq(ctx, got[n], RS_UNTOUCHED, "tcp: not past its size");
		}
		for (i = 0; i < sizeof(bad); i++) {
			t.type = bad[i];
			rc_eq(ctx, ntr_sr_tcp_size(&t, ptr32), 0, "tcp: not a type written here");
		}
	}
}

/* ---- PerfInfo: SampledProfile v2, SampledProfileInterval v3; StackWalk v2 ---- */

static void rs_profile(struct rc_ctx *ctx)
{
	struct ntr_sr_sample s = {
		.instruction_pointer = 0xfffff8002152f552ULL, .thread_id = 584, .count = 1,
		.flags = 14 << NTR_SR_SAMPLE_PRIORITY_SHIFT | NTR_SR_SAMPLE_ISR,
	};
	struct ntr_sr_profile_interval p = {
		.source = 0, .new_interval = 5000, .old_interval = 10000,
		.source_name = { "Timer", 5 },
	};
	static const unsigned long frames[] = { 0x7f0012345678UL & ~0UL, 0x401000, 0x402abc };
	struct ntr_sr_stack st = {
		.event_time_stamp = 1942903333ULL, .stack_process = 4, .stack_thread = 584,
		.frames = frames, .nr = 3,
	};
	struct ntr_sr_syscall enter = { .value = 110 };
	struct ntr_sr_syscall exit = { .value = (__u32)-2, .exit = true };
	struct ntr_sr_valloc va = {
		.base = 0x7f0012340000ULL, .size = 0x4000, .process_id = 4242,
		.flags = NTR_SR_MEM_COMMIT | NTR_SR_MEM_RESERVE,
	};
	/*
	 * Payloads a 64-bit Windows wrote (PerfView's test trace
	 * net.4.5.2.x64.etl), and the values PerfView decodes from them: a
	 * SampledProfile v2 at byte 359052 (InstructionPointer
	 * 0xfffff8002152f552, ThreadId 0, Count 1, Reserved 0x80: priority 16
	 * in the flags byte), a StackWalk v2 at byte 851627 (EventTimeStamp
	 * 1983117013, StackProcess 3676, StackThread 3680, one frame).
	 */
	static const __u8 win_sample[16] = {
		0x52, 0xf5, 0x52, 0x21, 0x00, 0xf8, 0xff, 0xff,
		0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x80, 0x00,
	};
	static const __u8 win_stack[24] = {
		0xd5, 0xf6, 0x33, 0x76, 0x00, 0x00, 0x00, 0x00,
		0x5c, 0x0e, 0x00, 0x00, 0x60, 0x0e, 0x00, 0x00,
		0x08, 0x8f, 0xb8, 0x5e, 0xf9, 0x07, 0x00, 0x00,
	};
	static const unsigned long win_frame[] = { 0x7f95eb88f08UL & ~0UL };
	struct ntr_sr_sample ws = {
		.instruction_pointer = 0xfffff8002152f552ULL, .count = 1,
		.flags = 16 << NTR_SR_SAMPLE_PRIORITY_SHIFT,
	};
	struct ntr_sr_stack wst = {
		.event_time_stamp = 1983117013, .stack_process = 3676, .stack_thread = 3680,
		.frames = win_frame, .nr = 1,
	};
	static __u8 got[64];
	static struct rs_exp e;
	int ptr32;
	__u32 n;

	rs_fill(got, sizeof(got));
	rc_eq(ctx, ntr_sr_sample_write(got, 16, &ws, false), 16, "sample: Windows' 16 bytes");
	rc_mem(ctx, got, win_sample, 16, "sample: Windows' bytes");
	if (sizeof(unsigned long) == 8) {
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_stack_write(got, 24, &wst, false), 24,
		      "stack: Windows' 24 bytes");
		rc_mem(ctx, got, win_stack, 24, "stack: Windows' bytes");
	}

	for (ptr32 = 0; ptr32 < 2; ptr32++) {
		rs_init(&e, ptr32);
		rs_p(&e, 0xfffff8002152f552ULL);	/* InstructionPointer */
		rs_u(&e, 584, 4);			/* ThreadId */
		rs_u(&e, 1, 2);				/* Count */
		rs_u(&e, 0x72, 1);			/* priority 14, ISR */
		rs_u(&e, 0, 1);				/* Reserved */
		n = ntr_sr_sample_size(&s, ptr32);
		rc_eq(ctx, n, ptr32 ? 12 : 16, "sample: pointer + 8 bytes");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_sample_write(got, n, &s, ptr32), n, "sample: written");
		rc_mem(ctx, got, e.b, n, "sample: bytes");
		rc_eq(ctx, got[n], RS_UNTOUCHED, "sample: not past its end");
		rc_eq(ctx, ntr_sr_sample_write(got, n - 1, &s, ptr32), 0, "sample: short room");

		rs_init(&e, ptr32);
		rs_u(&e, 0, 4);			/* Source */
		rs_u(&e, 5000, 4);		/* NewInterval */
		rs_u(&e, 10000, 4);		/* OldInterval */
		rs_wa(&e, "Timer");		/* SourceName */
		n = ntr_sr_profile_interval_size(&p, ptr32);
		rc_eq(ctx, n, 12 + 12, "interval: 12 bytes and \"Timer\" with its NUL");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_profile_interval_write(got, n, &p, ptr32), n, "interval: written");
		rc_mem(ctx, got, e.b, n, "interval: bytes");
		rc_eq(ctx, got[n], RS_UNTOUCHED, "interval: not past its end");

		rs_init(&e, ptr32);
		rs_u(&e, 1942903333ULL, 8);		/* EventTimeStamp */
		rs_u(&e, 4, 4);				/* StackProcess */
		rs_u(&e, 584, 4);			/* StackThread */
		rs_p(&e, frames[0]);			/* Stack1 */
		rs_p(&e, frames[1]);			/* Stack2 */
		rs_p(&e, frames[2]);			/* Stack3 */
		n = ntr_sr_stack_size(&st, ptr32);
		rc_eq(ctx, n, 16 + 3 * (ptr32 ? 4 : 8), "stack: 16 bytes and a pointer a frame");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_stack_write(got, n, &st, ptr32), n, "stack: written");
		rc_mem(ctx, got, e.b, n, "stack: bytes");
		rc_eq(ctx, got[n], RS_UNTOUCHED, "stack: not past its end");
		rc_eq(ctx, ntr_sr_stack_write(got, n - 1, &st, ptr32), 0, "stack: short room");

		rs_init(&e, ptr32);
		rs_p(&e, 110);				/* SysCallAddress */
		rc_eq(ctx, ntr_sr_syscall_size(&enter, ptr32), ptr32 ? 4 : 8, "sysclenter: a pointer");
		rs_fill(got, sizeof(got));
		n = ntr_sr_syscall_write(got, sizeof(got), &enter, ptr32);
		rc_eq(ctx, n, ptr32 ? 4 : 8, "sysclenter: written");
		rc_mem(ctx, got, e.b, n, "sysclenter: bytes");
		rs_init(&e, ptr32);
		rs_u(&e, 0xFFFFFFFE, 4);		/* SysCallNtStatus */
		rc_eq(ctx, ntr_sr_syscall_write(got, sizeof(got), &exit, ptr32), 4,
		      "sysclexit: 4 bytes");
		rc_mem(ctx, got, e.b, 4, "sysclexit: bytes");

		rs_init(&e, ptr32);
		rs_p(&e, 0x7f0012340000ULL);		/* BaseAddress */
		rs_p(&e, 0x4000);			/* RegionSize */
		rs_u(&e, 4242, 4);			/* ProcessId */
		rs_u(&e, 0x3000, 4);			/* Flags */
		n = ntr_sr_valloc_size(&va, ptr32);
		rc_eq(ctx, n, ptr32 ? 16 : 24, "virtualalloc: two pointers and 8 bytes");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_valloc_write(got, n, &va, ptr32), n, "virtualalloc: written");
		rc_mem(ctx, got, e.b, n, "virtualalloc: bytes");
		rc_eq(ctx, got[n], RS_UNTOUCHED, "virtualalloc: not past its end");
		rc_eq(ctx, ntr_sr_valloc_write(got, n - 1, &va, ptr32), 0,
		      "virtualalloc: short room");
	}
}

/* ---- PageFault: TypeGroup1 v2, HardFault v2 ---- */

static void rs_pagefault(struct rc_ctx *ctx)
{
	struct ntr_sr_fault f = {
		.virtual_address = 0x7f0012345010ULL, .program_counter = 0x401f90,
	};
	/*
	 * The payload of a HardFault v2 record a 64-bit Windows wrote
	 * (PerfView's test trace net.4.5.2.x64.etl, at byte 406959), and the
	 * values PerfView decodes from it.
	 */
	static const __u8 windows[40] = {
		0xd5, 0xe3, 0xac, 0x74, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x54, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00,
		0xf0, 0x91, 0xa8, 0xc7, 0xf9, 0x07, 0x00, 0x00,
		0x50, 0x0c, 0x30, 0x01, 0xa0, 0xf8, 0xff, 0xff,
		0xb4, 0x06, 0x00, 0x00, 0x00, 0x22, 0x00, 0x00,
	};
	struct ntr_sr_hardfault h = {
		.initial_time = 1957487573, .read_offset = 0x45400,
		.virtual_address = 0x7f9c7a891f0ULL, .file_object = 0xfffff8a001300c50ULL,
		.thread_id = 1716, .byte_count = 8704,
	};
	static __u8 got[64];
	static struct rs_exp e;
	int ptr32;
	__u32 n;

	rc_eq(ctx, ntr_sr_hardfault_size(&h, false), 40, "hardfault: Windows' 40 bytes");
	rs_fill(got, sizeof(got));
	rc_eq(ctx, ntr_sr_hardfault_write(got, 40, &h, false), 40, "hardfault: written");
	rc_mem(ctx, got, windows, 40, "hardfault: Windows' bytes");
	rc_eq(ctx, got[40], RS_UNTOUCHED, "hardfault: not past its end");
	rc_eq(ctx, ntr_sr_hardfault_write(got, 39, &h, false), 0, "hardfault: short room");
	for (ptr32 = 0; ptr32 < 2; ptr32++) {
		rs_init(&e, ptr32);
		rs_p(&e, 0x7f0012345010ULL);	/* VirtualAddress */
		rs_p(&e, 0x401f90);		/* ProgramCounter */
		n = ntr_sr_fault_size(&f, ptr32);
		rc_eq(ctx, n, ptr32 ? 8 : 16, "fault: two pointers");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_fault_write(got, n, &f, ptr32), n, "fault: written");
		rc_mem(ctx, got, e.b, n, "fault: bytes");
		rc_eq(ctx, got[n], RS_UNTOUCHED, "fault: not past its end");
		rc_eq(ctx, ntr_sr_fault_write(got, n - 1, &f, ptr32), 0, "fault: short room");

		rs_init(&e, ptr32);
		rs_u(&e, 1957487573, 8);	/* InitialTime */
		rs_u(&e, 0x45400, 8);		/* ReadOffset */
		rs_p(&e, 0x7f9c7a891f0ULL);	/* VirtualAddress */
		rs_p(&e, 0xfffff8a001300c50ULL);	/* FileObject */
		rs_u(&e, 1716, 4);		/* TThreadId */
		rs_u(&e, 8704, 4);		/* ByteCount */
		n = ntr_sr_hardfault_size(&h, ptr32);
		rc_eq(ctx, n, ptr32 ? 32 : 40, "hardfault: 24 bytes and two pointers");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_hardfault_write(got, n, &h, ptr32), n, "hardfault: written");
		rc_mem(ctx, got, e.b, n, "hardfault: bytes");
	}
	rc_eq(ctx, ntr_sr_event(NTR_SR_HARD_FAULT)->kind, NTR_SR_PERFINFO,
	      "hardfault: PERFINFO, as Windows writes it");
	rc_eq(ctx, ntr_sr_event(NTR_SR_DEMAND_ZERO_FAULT)->enable_flag,
	      NTTRACE_EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS, "demand zero: PAGE_FAULTS");
	rc_eq(ctx, ntr_sr_event(NTR_SR_HARD_FAULT)->enable_flag,
	      NTTRACE_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS, "hardfault: HARD_FAULTS");
	rc_eq(ctx, ntr_sr_event(NTR_SR_GUARD_PAGE_FAULT) == NULL, 1, "guard page fault: not written");
}

/* ---- Process: PerfCtr and PerfCtrRundown v2 ---- */

static void rs_perfctr(struct rc_ctx *ctx)
{
	/*
	 * The payload of a PerfCtrRundown v2 record a 64-bit Windows wrote
	 * (PerfView's test trace net.4.5.2.x64.etl: the System process's),
	 * and the values PerfView decodes from it.
	 */
	static const __u8 windows[104] = {
		0x04, 0x00, 0x00, 0x00, 0x4e, 0x45, 0x00, 0x00,
		0x98, 0x02, 0x00, 0x00, 0x66, 0x0c, 0xff, 0xff,
		0x00, 0xf0, 0xa8, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x60, 0x4c, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x60, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x90, 0x3e, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x80, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0xe0, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0xe0, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	struct ntr_sr_perfctr c = {
		.process_id = 4, .page_fault_count = 17742, .handle_count = 664,
		.reserved = 4294904934U, .peak_virtual_size = 11071488,
		.peak_working_set_size = 5005312, .peak_pagefile_usage = 286720,
		.virtual_size = 4100096, .working_set_size = 688128,
		.pagefile_usage = 122880, .private_page_count = 122880,
	};
	static __u8 got[128];
	static struct rs_exp e;

	rc_eq(ctx, ntr_sr_perfctr_size(&c, false), 104, "perfctr: Windows' 104 bytes");
	rs_fill(got, sizeof(got));
	rc_eq(ctx, ntr_sr_perfctr_write(got, 104, &c, false), 104, "perfctr: written");
	rc_mem(ctx, got, windows, 104, "perfctr: Windows' bytes");
	rc_eq(ctx, got[104], RS_UNTOUCHED, "perfctr: not past its end");
	rc_eq(ctx, ntr_sr_perfctr_write(got, 103, &c, false), 0, "perfctr: short room");
	rs_init(&e, true);
	rs_u(&e, 4, 4);
	rs_u(&e, 17742, 4);
	rs_u(&e, 664, 4);
	rs_u(&e, 4294904934U, 4);
	rs_p(&e, 11071488);
	rs_p(&e, 5005312);
	rs_p(&e, 286720);
	rs_p(&e, 0);
	rs_p(&e, 0);
	rs_p(&e, 4100096);
	rs_p(&e, 688128);
	rs_p(&e, 122880);
	rs_p(&e, 0);
	rs_p(&e, 0);
	rs_p(&e, 122880);
	rc_eq(ctx, ntr_sr_perfctr_size(&c, true), 60, "perfctr: 16 and eleven 4-byte pointers");
	rs_fill(got, sizeof(got));
	rc_eq(ctx, ntr_sr_perfctr_write(got, 60, &c, true), 60, "perfctr: written, 32-bit");
	rc_mem(ctx, got, e.b, 60, "perfctr: bytes, 32-bit");
	rc_eq(ctx, ntr_sr_event(NTR_SR_PROCESS_PERFCTR_RUNDOWN)->kind, NTR_SR_PERFINFO,
	      "perfctr rundown: PERFINFO, as Windows writes it");
	rc_eq(ctx, ntr_sr_event(NTR_SR_PROCESS_PERFCTR)->enable_flag,
	      NTTRACE_EVENT_TRACE_FLAG_PROCESS_COUNTERS, "perfctr: PROCESS_COUNTERS");
}

/* ---- FileIo v2: Create, SimpleOp, ReadWrite, OpEnd ---- */

static void rs_fileio(struct rc_ctx *ctx)
{
	static const __u16 path16[] = { '/', 't', 'm', 'p', '/', 'f' };
	struct ntr_sr_fileio f = {
		.offset = 4096, .irp = 0x1111222233334444ULL, .ttid = 584,
		.file_object = 0x5555666677778888ULL, .file_key = 0x9999aaaabbbbccccULL,
		.io_size = 500, .io_flags = 4, .create_options = 2u << 24,
		.file_attributes = 0x80, .share_access = 7,
		.open_path = { "/tmp/f", 6 }, .extra_info = 500, .nt_status = 0xC0000011,
		.info_class = 13,
	};
	static const __u8 types[] = { 64, 65, 66, 73, 67, 68, 70, 71, 76 };
	static __u8 got[128];
	static struct rs_exp e;
	unsigned int k;
	int ptr32;
	__u32 n;

	for (ptr32 = 0; ptr32 < 2; ptr32++) {
		for (k = 0; k < sizeof(types); k++) {
			f.type = types[k];
			rs_init(&e, ptr32);
			switch (f.type) {
			case 64:
				rs_p(&e, f.irp);
				rs_p(&e, 584);
				rs_p(&e, f.file_object);
				rs_u(&e, 2u << 24, 4);
				rs_u(&e, 0x80, 4);
				rs_u(&e, 7, 4);
				rs_w(&e, path16, 6);
				break;
			case 65: case 66: case 73:
				rs_p(&e, f.irp);
				rs_p(&e, 584);
				rs_p(&e, f.file_object);
				rs_p(&e, f.file_key);
				break;
			case 70: case 71:
				rs_p(&e, f.irp);
				rs_p(&e, 584);
				rs_p(&e, f.file_object);
				rs_p(&e, f.file_key);
				rs_p(&e, 500);
				rs_u(&e, 13, 4);
				break;
			case 67: case 68:
				rs_u(&e, 4096, 8);
				rs_p(&e, f.irp);
				rs_p(&e, 584);
				rs_p(&e, f.file_object);
				rs_p(&e, f.file_key);
				rs_u(&e, 500, 4);
				rs_u(&e, 4, 4);
				break;
			default:
				rs_p(&e, f.irp);
				rs_p(&e, 500);
				rs_u(&e, 0xC0000011, 4);
				break;
			}
			n = ntr_sr_fileio_size(&f, ptr32);
			rc_eq(ctx, n, e.at, "fileio: size");
			rs_fill(got, sizeof(got));
			rc_eq(ctx, ntr_sr_fileio_write(got, n, &f, ptr32), n, "fileio: written");
			rc_mem(ctx, got, e.b, n, "fileio: bytes");
			rc_eq(ctx, got[n], RS_UNTOUCHED, "fileio: not past its end");
			rc_eq(ctx, ntr_sr_fileio_write(got, n - 1, &f, ptr32), 0,
			      "fileio: short room");
		}
	}
	f.type = 72;
	rc_eq(ctx, ntr_sr_fileio_size(&f, false), 0, "fileio: DirEnum is not written here");
	f.type = 77;
	rc_eq(ctx, ntr_sr_fileio_size(&f, false), 0, "fileio: DirNotify is not written here");
	rc_eq(ctx, ntr_sr_event(NTR_SR_FILEIO_OPEND)->enable_flag,
	      NTTRACE_EVENT_TRACE_FLAG_FILE_IO, "fileio: OpEnd is FILE_IO's");
	rc_eq(ctx, ntr_sr_event(NTR_SR_FILEIO_READ)->enable_flag,
	      NTTRACE_EVENT_TRACE_FLAG_FILE_IO_INIT, "fileio: Read is FILE_IO_INIT's");
}

/* ---- FileIo_Name v2: FileCreate, FileDelete, FileRundown ---- */

static void rs_filename(struct rc_ctx *ctx)
{
	/*
	 * The payload of a FileCreate v2 record a 64-bit Windows wrote
	 * (PerfView's test trace net.4.5.2.x64.etl, at byte 311000), and the
	 * values PerfView decodes from it.
	 */
	static const __u8 windows[176] = {
		0x70, 0x7a, 0xd9, 0x02, 0xa0, 0xf8, 0xff, 0xff,
		0x5c, 0x00, 0x44, 0x00, 0x65, 0x00, 0x76, 0x00,
		0x69, 0x00, 0x63, 0x00, 0x65, 0x00, 0x5c, 0x00,
		0x4d, 0x00, 0x75, 0x00, 0x70, 0x00, 0x5c, 0x00,
		0x63, 0x00, 0x6c, 0x00, 0x72, 0x00, 0x6d, 0x00,
		0x61, 0x00, 0x69, 0x00, 0x6e, 0x00, 0x5c, 0x00,
		0x70, 0x00, 0x75, 0x00, 0x62, 0x00, 0x6c, 0x00,
		0x69, 0x00, 0x63, 0x00, 0x5c, 0x00, 0x50, 0x00,
		0x65, 0x00, 0x72, 0x00, 0x66, 0x00, 0x49, 0x00,
		0x6e, 0x00, 0x76, 0x00, 0x65, 0x00, 0x73, 0x00,
		0x74, 0x00, 0x69, 0x00, 0x67, 0x00, 0x61, 0x00,
		0x74, 0x00, 0x69, 0x00, 0x6f, 0x00, 0x6e, 0x00,
		0x73, 0x00, 0x5c, 0x00, 0x32, 0x00, 0x30, 0x00,
		0x2d, 0x00, 0x30, 0x00, 0x37, 0x00, 0x2d, 0x00,
		0x32, 0x00, 0x38, 0x00, 0x2e, 0x00, 0x54, 0x00,
		0x65, 0x00, 0x73, 0x00, 0x74, 0x00, 0x54, 0x00,
		0x72, 0x00, 0x61, 0x00, 0x63, 0x00, 0x65, 0x00,
		0x73, 0x00, 0x5c, 0x00, 0x6e, 0x00, 0x65, 0x00,
		0x74, 0x00, 0x2e, 0x00, 0x34, 0x00, 0x2e, 0x00,
		0x35, 0x00, 0x2e, 0x00, 0x32, 0x00, 0x2e, 0x00,
		0x78, 0x00, 0x36, 0x00, 0x34, 0x00, 0x2e, 0x00,
		0x65, 0x00, 0x74, 0x00, 0x6c, 0x00, 0x00, 0x00,
	};
	static const char name[] =
		"\\Device\\Mup\\clrmain\\public\\PerfInvestigations\\20-07-28.TestTraces\\net.4.5.2.x64.etl";
	struct ntr_sr_filename f = {
		.file_object = 0xfffff8a002d97a70ULL,
		.file_name = { name, sizeof(name) - 1 },
	};
	static __u8 got[200];

	rc_eq(ctx, ntr_sr_filename_size(&f, false), 176, "filename: Windows' 176 bytes");
	rs_fill(got, sizeof(got));
	rc_eq(ctx, ntr_sr_filename_write(got, 176, &f, false), 176, "filename: written");
	rc_mem(ctx, got, windows, 176, "filename: Windows' bytes");
	rc_eq(ctx, got[176], RS_UNTOUCHED, "filename: not past its end");
	rc_eq(ctx, ntr_sr_filename_write(got, 175, &f, false), 0, "filename: short room");
	rc_eq(ctx, ntr_sr_filename_size(&f, true), 172, "filename: a 4-byte FileObject");
	rc_eq(ctx, ntr_sr_event(NTR_SR_FILEIO_FILE_RUNDOWN)->enable_flag,
	      NTTRACE_EVENT_TRACE_FLAG_DISK_FILE_IO, "filename: DISK_FILE_IO's");
}

/* ---- the mark ---- */

static void rs_mark(struct rc_ctx *ctx)
{
	static const __u8 mark[6] = { 'h', 0, 'i', 0, '!', 0 };
	static const __u8 want[8] = { 'h', 0, 'i', 0, '!', 0, 0, 0 };
	static __u8 got[16];

	rc_eq(ctx, ntr_sr_mark_size(6), 8, "mark: size");
	rs_fill(got, sizeof(got));
	rc_eq(ctx, ntr_sr_mark_write(got, sizeof(got), mark, 6), 8, "mark: written");
	rc_mem(ctx, got, want, 8, "mark: the bytes and two zeros");
	rc_eq(ctx, got[8], RS_UNTOUCHED, "mark: not past its size");
	rc_eq(ctx, ntr_sr_mark_write(got, 7, mark, 6), 0, "mark: short room");
	rc_eq(ctx, ntr_sr_mark_size(0xFFDD), 0xFFDF, "mark: largest");
	rc_eq(ctx, ntr_sr_mark_size(0xFFDE), 0, "mark: one over");
	rc_eq(ctx, ntr_sr_mark_size(0xFFFFFFFFU), 0, "mark: no wrap-around");
}

/* ---- SysConfig, EventTrace's extension ---- */

/* A char16 array of @count units: the ASCII @s, then zeros. */
static void rs_wfix(struct rs_exp *e, const char *s, unsigned int count)
{
	unsigned int i = 0;

	for (; *s; s++, i++)
		rs_u(e, (__u8)*s, 2);
	for (; i < count; i++)
		rs_u(e, 0, 2);
}

static void rs_sysconfig(struct rc_ctx *ctx)
{
	struct ntr_sr_cpu cpu = {
		.mhz = 2400, .nr_processors = 4, .mem_size = 8192, .page_size = 4096,
		.allocation_granularity = 65536, .computer_name = RS_STR("build-vm"),
		.domain_name = RS_STR("example.org"), .hyper_threading_flag = 0x0F,
	};
	struct ntr_sr_phydisk pd = {
		.disk_number = 0, .bytes_per_sector = 512, .sectors_per_track = 63,
		.tracks_per_cylinder = 255, .cylinders = 0x123456789ULL, .scsi_port = 1,
		.scsi_path = 2, .scsi_target = 3, .scsi_lun = 4,
		.manufacturer = RS_STR("QEMU HARDDISK"), .partition_count = 2,
		.write_cache_enabled = 1, .boot_drive_letter = RS_STR("C:"),
	};
	struct ntr_sr_logdisk ld = {
		.start_offset = 1048576, .partition_size = 0x1000000000ULL, .disk_number = 0,
		.size = 0x1000, .drive_type = 3, .drive_letter = RS_STR("C:"),
		.partition_number = 1, .sectors_per_cluster = 8, .bytes_per_sector = 512,
		.free_clusters = 1000, .total_clusters = 5000, .file_system = RS_STR("ext4"),
		.volume_ext = 7,
	};
	struct ntr_sr_nic nic = {
		.physical_addr = 0x563412005452ULL, .physical_addr_len = 6, .ipv4_index = 2,
		.ipv6_index = 2, .description = RS_STR("eth0"),
		.ip_addresses = RS_STR("10.0.2.15"), .dns_server_addresses = RS_STR("10.0.2.3"),
	};
	struct ntr_sr_extension ext = {
		.group_mask = { 0x10003, 0, 0, 0, 0, 0, 0, 0x80 }, .kernel_event_version = 62,
	};
	static __u8 got[RS_BUF];
	static struct rs_exp e;
	unsigned int i;
	int ptr32;
	__u32 n;

	for (ptr32 = 0; ptr32 < 2; ptr32++) {
		rs_init(&e, ptr32);
		rs_u(&e, 2400, 4);			/* MHz */
		rs_u(&e, 4, 4);				/* NumberOfProcessors */
		rs_u(&e, 8192, 4);			/* MemSize */
		rs_u(&e, 4096, 4);			/* PageSize */
		rs_u(&e, 65536, 4);			/* AllocationGranularity */
		rs_wfix(&e, "build-vm", 256);		/* ComputerName */
		rs_wfix(&e, "example.org", 134);	/* DomainName */
		rs_p(&e, 0x0F);				/* HyperThreadingFlag */
		rc_eq(ctx, e.at, ptr32 ? 804 : 808, "cpu: the files' size");
		n = ntr_sr_cpu_size(&cpu, ptr32);
		rc_eq(ctx, n, e.at, "cpu: size");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_cpu_write(got, n, &cpu, ptr32), n, "cpu: written");
		rc_mem(ctx, got, e.b, e.at, "cpu: bytes");
		rc_eq(ctx, got[n], RS_UNTOUCHED, "cpu: not past its size");

		rs_init(&e, ptr32);
		rs_u(&e, 0, 4);				/* DiskNumber */
		rs_u(&e, 512, 4);			/* BytesPerSector */
		rs_u(&e, 63, 4);			/* SectorsPerTrack */
		rs_u(&e, 255, 4);			/* TracksPerCylinder */
		rs_u(&e, 0x123456789ULL, 8);		/* Cylinders */
		rs_u(&e, 1, 4);				/* SCSIPort */
		rs_u(&e, 2, 4);				/* SCSIPath */
		rs_u(&e, 3, 4);				/* SCSITarget */
		rs_u(&e, 4, 4);				/* SCSILun */
		rs_wfix(&e, "QEMU HARDDISK", 256);	/* Manufacturer */
		rs_u(&e, 2, 4);				/* PartitionCount */
		rs_u(&e, 1, 1);				/* WriteCacheEnabled */
		rs_u(&e, 0, 1);				/* Pad */
		rs_wfix(&e, "C:", 3);			/* BootDriveLetter */
		rs_wfix(&e, "", 2);			/* Spare */
		rc_eq(ctx, e.at, 568, "phydisk: the files' size");
		n = ntr_sr_phydisk_size(&pd, ptr32);
		rc_eq(ctx, n, e.at, "phydisk: size");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_phydisk_write(got, n, &pd, ptr32), n, "phydisk: written");
		rc_mem(ctx, got, e.b, e.at, "phydisk: bytes");
		rc_eq(ctx, got[n], RS_UNTOUCHED, "phydisk: not past its size");

		rs_init(&e, ptr32);
		rs_u(&e, 1048576, 8);			/* StartOffset */
		rs_u(&e, 0x1000000000ULL, 8);		/* PartitionSize */
		rs_u(&e, 0, 4);				/* DiskNumber */
		rs_u(&e, 0x1000, 4);			/* Size */
		rs_u(&e, 3, 4);				/* DriveType */
		rs_wfix(&e, "C:", 4);			/* DriveLetterString */
		rs_u(&e, 0, 4);				/* Pad1 */
		rs_u(&e, 1, 4);				/* PartitionNumber */
		rs_u(&e, 8, 4);				/* SectorsPerCluster */
		rs_u(&e, 512, 4);			/* BytesPerSector */
		rs_u(&e, 0, 4);				/* Pad2 */
		rs_u(&e, 1000, 8);			/* NumberOfFreeClusters */
		rs_u(&e, 5000, 8);			/* TotalNumberOfClusters */
		rs_wfix(&e, "ext4", 16);		/* FileSystem */
		rs_u(&e, 7, 4);				/* VolumeExt */
		rs_u(&e, 0, 4);				/* Pad3 */
		rc_eq(ctx, e.at, 112, "logdisk: the files' size");
		n = ntr_sr_logdisk_size(&ld, ptr32);
		rc_eq(ctx, n, e.at, "logdisk: size");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_logdisk_write(got, n, &ld, ptr32), n, "logdisk: written");
		rc_mem(ctx, got, e.b, e.at, "logdisk: bytes");
		rc_eq(ctx, got[n], RS_UNTOUCHED, "logdisk: not past its size");

		rs_init(&e, ptr32);
		rs_u(&e, 0x563412005452ULL, 8);		/* PhysicalAddr */
		rs_u(&e, 6, 4);				/* PhysicalAddrLen */
		rs_u(&e, 2, 4);				/* Ipv4Index */
		rs_u(&e, 2, 4);				/* Ipv6Index */
		rs_wa(&e, "eth0");			/* NICDescription */
		rs_wa(&e, "10.0.2.15");			/* IpAddresses */
		rs_wa(&e, "10.0.2.3");			/* DnsServerAddresses */
		n = ntr_sr_nic_size(&nic, ptr32);
		rc_eq(ctx, n, e.at, "nic: size");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_nic_write(got, n, &nic, ptr32), n, "nic: written");
		rc_mem(ctx, got, e.b, e.at, "nic: bytes");
		rc_eq(ctx, got[n], RS_UNTOUCHED, "nic: not past its size");

		rs_init(&e, ptr32);
		for (i = 0; i < 8; i++)			/* GroupMask1 to 8 */
			rs_u(&e, ext.group_mask[i], 4);
		rs_u(&e, 62, 4);			/* KernelEventVersion */
		rc_eq(ctx, ntr_sr_extension_size(&ext, ptr32), 36, "extension: 36 bytes");
		rs_fill(got, sizeof(got));
		rc_eq(ctx, ntr_sr_extension_write(got, 36, &ext, ptr32), 36, "extension: written");
		rc_mem(ctx, got, e.b, 36, "extension: bytes");
		rc_eq(ctx, got[36], RS_UNTOUCHED, "extension: not past 36");
	}
	/* A name longer than its array: cut to leave its NUL. */
	for (i = 0; i < 300; i++)
		rs_text[i] = 'n';
	cpu.computer_name.s = rs_text;
	cpu.computer_name.len = 300;
	rs_fill(got, sizeof(got));
	rc_eq(ctx, ntr_sr_cpu_write(got, sizeof(got), &cpu, false), 808, "cpu: long name, size");
	rc_eq(ctx, got[20 + 2 * 254], 'n', "cpu: long name's last unit");
	rc_eq(ctx, got[20 + 2 * 255] | got[21 + 2 * 255], 0, "cpu: long name's NUL");
	rc_eq(ctx, got[20 + 2 * 256], 'e', "cpu: DomainName after 256 units");
}

/* ---- the table: evntrace.h's flags, the files' header kinds ---- */

static void rs_table(struct rc_ctx *ctx)
{
	static const struct {
		__u16 hook;
		__u8 kind, version;
		__u32 flag;
	} want[] = {
		{ 0x0005, NTR_SR_FULL, 2, 0 }, { 0x0008, NTR_SR_PERFINFO, 2, 0 },
		{ 0x0020, NTR_SR_PERFINFO, 2, 0 },
		{ 0x0B0A, NTR_SR_FULL, 2, 0 }, { 0x0B0B, NTR_SR_FULL, 2, 0 },
		{ 0x0B0C, NTR_SR_FULL, 2, 0 }, { 0x0B0D, NTR_SR_FULL, 2, 0 },
		{ 0x010A, NTR_SR_PERFINFO, 3, 0x100 }, { 0x010B, NTR_SR_PERFINFO, 3, 0x100 },
		{ 0x010C, NTR_SR_FULL, 3, 0x400 }, { 0x010D, NTR_SR_FULL, 3, 0x400 },
		{ 0x010E, NTR_SR_PERFINFO, 3, 0x100 }, { 0x010F, NTR_SR_FULL, 3, 0x400 },
		{ 0x0301, NTR_SR_FULL, 4, 0x1 }, { 0x0302, NTR_SR_FULL, 4, 0x1 },
		{ 0x0303, NTR_SR_PERFINFO, 4, 0x1 }, { 0x0304, NTR_SR_PERFINFO, 4, 0x1 },
		{ 0x0501, NTR_SR_FULL, 3, 0x2 }, { 0x0502, NTR_SR_FULL, 3, 0x2 },
		{ 0x0503, NTR_SR_FULL, 3, 0x2 }, { 0x0504, NTR_SR_FULL, 3, 0x2 },
		{ 0x0524, NTR_SR_PERFINFO, 2, 0x10 }, { 0x0532, NTR_SR_PERFINFO, 2, 0x800 },
		{ 0x060A, NTR_SR_PERFINFO, 2, 0x10000 }, { 0x060B, NTR_SR_PERFINFO, 2, 0x10000 },
		{ 0x060C, NTR_SR_PERFINFO, 2, 0x10000 }, { 0x060D, NTR_SR_PERFINFO, 2, 0x10000 },
		{ 0x060E, NTR_SR_PERFINFO, 2, 0x10000 }, { 0x060F, NTR_SR_PERFINFO, 2, 0x10000 },
		{ 0x0610, NTR_SR_PERFINFO, 2, 0x10000 }, { 0x0612, NTR_SR_PERFINFO, 2, 0x10000 },
		{ 0x061A, NTR_SR_PERFINFO, 2, 0x10000 }, { 0x061B, NTR_SR_PERFINFO, 2, 0x10000 },
		{ 0x061C, NTR_SR_PERFINFO, 2, 0x10000 }, { 0x061D, NTR_SR_PERFINFO, 2, 0x10000 },
		{ 0x061E, NTR_SR_PERFINFO, 2, 0x10000 }, { 0x061F, NTR_SR_PERFINFO, 2, 0x10000 },
		{ 0x0620, NTR_SR_PERFINFO, 2, 0x10000 }, { 0x0622, NTR_SR_PERFINFO, 2, 0x10000 },
		{ 0x0F22, NTR_SR_FULL, 0, 0 },
		{ 0x0F2E, NTR_SR_PERFINFO, 2, 0x01000000 }, { 0x0F48, NTR_SR_FULL, 3, 0x01000000 },
		{ 0x0F33, NTR_SR_PERFINFO, 2, 0x80 }, { 0x0F34, NTR_SR_PERFINFO, 2, 0x80 },
		{ 0x0F49, NTR_SR_FULL, 3, 0x01000000 }, { 0x0F4A, NTR_SR_FULL, 3, 0x01000000 },
		{ 0x1402, NTR_SR_FULL, 3, 0x4 }, { 0x1403, NTR_SR_PERFINFO, 3, 0x4 },
		{ 0x1404, NTR_SR_PERFINFO, 3, 0x4 }, { 0x140A, NTR_SR_FULL, 3, 0x4 },
	};
	const struct ntr_sr_event *ev;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		ev = ntr_sr_event(want[i].hook);
		rc_eq(ctx, !!ev, 1, "table: the event is there");
		if (!ev)
			continue;
		rc_eq(ctx, ev->hook_id, want[i].hook, "table: its HookId");
		rc_eq(ctx, ev->kind, want[i].kind, "table: its header");
		rc_eq(ctx, ev->version, want[i].version, "table: its version");
		rc_eq(ctx, ev->enable_flag, want[i].flag, "table: its EVENT_TRACE_FLAG");
	}
	rc_eq(ctx, !!ntr_sr_event(0x0327), 0, "table: Process/Defunct not written");
	rc_eq(ctx, !!ntr_sr_event(0x0000), 0, "table: EventTrace/Header not here");
}

#endif /* NTTRACE_SYSREC_CASES_H */
