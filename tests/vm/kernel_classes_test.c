// SPDX-License-Identifier: GPL-2.0
/*
 * The payloads of the kernel's events (etl/kernel_classes.c, <nttrace/etl.h>):
 * payloads built here byte by byte at 8- and 4-byte pointers, from the
 * layouts of Microsoft's MOF class pages for the NT Kernel Logger (written
 * out here field by field, not taken from the library's table), decoded
 * and compared field by field: integers of each width and sign, pointers
 * and sizes of the event's pointer size, the SID after its TOKEN_USER and
 * the 4-byte zero that stands for none, 8-bit and UTF-16 strings up to
 * their NUL, fixed arrays of characters, IPv4 and IPv6 addresses, ports in
 * network byte order, a GUID, a stack of pointers. The version look-up:
 * the exact version, else the newest below (the fields of a later version
 * left after the last), a version that stops the fall-back, none below
 * the oldest, and classic events found by their group's GUID. A payload
 * cut short at every length: the decoder stops at the field that does
 * not fit and says so, and reads nothing past the payload (each payload is
 * put against an unmapped page, so one byte too far faults). Runs on the
 * host (64-bit) and in the VM (64- and 32-bit).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include "harness.h"

#define BITS ((int)(8 * sizeof(void *)))

/* ---- payloads, byte by byte ---- */

struct payload {
	uint8_t b[4096];
	uint32_t len;
	unsigned int psz;
};

/* @v, little-endian, in @n bytes (up to 8). */
static void put(struct payload *p, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		p->b[p->len++] = (uint8_t)(v >> (8 * i));
}

/* @n bytes of @c. */
static void fill(struct payload *p, uint8_t c, uint32_t n)
{
	memset(p->b + p->len, c, n);
	p->len += n;
}

static void put_ptr(struct payload *p, uint64_t v)
{
	put(p, v, p->psz);
}

static void put_bytes(struct payload *p, const void *d, uint32_t n)
{
	memcpy(p->b + p->len, d, n);
	p->len += n;
}

/* An 8-bit string and its NUL. */
static void put_astr(struct payload *p, const char *s)
{
	put_bytes(p, s, strlen(s) + 1);
}

/* ASCII @s as UTF-16LE: @units units, the characters then NULs (0: and a NUL). */
static void put_wstr_n(struct payload *p, const char *s, uint32_t units)
{
	uint32_t i, n = strlen(s);

	if (!units)
		units = n + 1;
	for (i = 0; i < units; i++)
		put(p, i < n ? (uint8_t)s[i] : 0, 2);
}

static void put_wstr(struct payload *p, const char *s)
{
	put_wstr_n(p, s, 0);
}

/*
 * A SID field: a TOKEN_USER (the SID's address, its attributes, two
 * pointers long with the padding) then the SID: revision 1, @n
 * subauthorities, authority @auth (big-endian, 6 bytes), @sub[]
 * little-endian.
 */
static void put_sid(struct payload *p, uint64_t auth, const uint32_t *sub, unsigned int n)
{
	unsigned int i;

	put_ptr(p, 0xfffff80012345000ULL & (p->psz == 8 ? ~0ULL : 0xffffffffULL));
	put(p, 0, p->psz);		/* Attributes and the padding */
	put(p, 1, 1);
	put(p, n, 1);
	for (i = 0; i < 6; i++)
		put(p, auth >> (8 * (5 - i)), 1);
	for (i = 0; i < n; i++)
		put(p, sub[i], 4);
}

/* ---- the payload against an unmapped page ---- */

static uint8_t *guard;
static long page;

static const uint8_t *at_edge(const struct payload *p, uint32_t len)
{
	uint8_t *d = guard + page - len;

	memcpy(d, p->b, len);
	return d;
}

static int guard_init(void)
{
	page = sysconf(_SC_PAGESIZE);
	guard = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	if (guard == MAP_FAILED)
		return -1;
	return mprotect(guard + page, page, PROT_NONE);
}

/* ---- expectations ---- */

/* A field as the page gives it: name, size, value or text (ASCII). */
struct want {
	const char *name;
	uint32_t size;
	uint64_t u;
	const char *text;	/* strings; a SID's length ("28"), NULL: none */
	const void *raw;	/* IPv6, GUID: the bytes */
};

#define W(n, s, u)	{ n, s, u, NULL, NULL }
#define WT(n, s, t)	{ n, s, 0, t, NULL }
#define WR(n, s, r)	{ n, s, 0, NULL, r }

/* The text of @v (8-bit, or UTF-16 with every unit ASCII) is @s. */
static int text_is(const struct nttrace_kernel_value *v, const char *s)
{
	uint32_t i, n = strlen(s);
	int wide = v->field->type == NTTRACE_KT_WSTRING || v->field->type == NTTRACE_KT_WCHARS;

	if (!v->text)
		return 0;
	if (!wide)
		return v->text_size == n && !memcmp(v->text, s, n);
	if (v->text_size != 2 * n)
		return 0;
	for (i = 0; i < n; i++)
		if (v->text[2 * i] != (uint8_t)s[i] || v->text[2 * i + 1])
			return 0;
	return 1;
}

/*
 * Decode @p by the class of @hook at @version and compare each field with
 * @w (@n of them); @extra bytes are expected after the last. One assertion
 * per field, one for the end.
 */
static void check(const char *what, uint16_t hook, uint8_t version, const struct payload *p,
		  const struct want *w, unsigned int n, uint32_t extra)
{
	const struct nttrace_kernel_class *c = nttrace_kernel_class(hook, version);
	struct nttrace_kernel_decoder d;
	struct nttrace_kernel_value v;
	uint32_t off = 0;
	unsigned int i;

	if (!tap_ok(c && c->fields, "%d-bit ptr%u %s: a class with fields", BITS, p->psz * 8,
		    what))
		return;
	memset(&v, 0, sizeof(v));
	nttrace_kernel_decode_init(&d, c, at_edge(p, p->len), p->len, p->psz);
	for (i = 0; i < n; i++) {
		int got = nttrace_kernel_decode_next(&d, &v), ok;

		ok = got && !strcmp(v.field->name, w[i].name) && v.offset == off &&
		     v.size == w[i].size;
		if (ok && w[i].raw)
			ok = !memcmp(v.data, w[i].raw, w[i].size);
		else if (ok && v.field->type == NTTRACE_KT_SID)
			ok = w[i].text ? v.text == v.data + 2 * p->psz &&
					 v.text_size == strtoul(w[i].text, NULL, 0) :
					 !v.text;
		else if (ok && w[i].text)
			ok = text_is(&v, w[i].text);
		else if (ok)
			ok = v.u == w[i].u;
		if (!tap_ok(ok, "%d-bit ptr%u %s: %s at %u, %u bytes", BITS, p->psz * 8, what,
			    w[i].name, off, w[i].size))
			printf("# got %s at %u, %u bytes, 0x%llx\n",
			       got ? v.field->name : "no field", v.offset, v.size,
			       (unsigned long long)v.u);
		off += w[i].size;
	}
	tap_ok(!nttrace_kernel_decode_next(&d, &v) && !d.cut && d.at == off &&
	       d.len - d.at == extra, "%d-bit ptr%u %s: ends after %s, %u bytes left", BITS,
	       p->psz * 8, what, n ? w[n - 1].name : "nothing", extra);
}

/* A pointer of @psz bytes: @v cut to 32 bits for 4. */
static uint64_t P(unsigned int psz, uint64_t v)
{
	return psz == 8 ? v : v & 0xffffffffULL;
}

#define N(w) (sizeof(w) / sizeof((w)[0]))

/* ---- Process ---- */

static const uint32_t user_sid[] = { 21, 1, 2, 3, 1000 };	/* S-1-5-21-1-2-3-1000 */

/* Process_V4_TypeGroup1: version 3 with Flags and two strings more. */
static void process_v4(struct payload *p, struct want *w, unsigned int *n)
{
	unsigned int psz = p->psz;
	struct want v4[] = {
		W("UniqueProcessKey", psz, P(psz, 0xffffca8688581300ULL)),
		W("ProcessId", 4, 1234),
		W("ParentId", 4, 567),
		W("SessionId", 4, 1),
		W("ExitStatus", 4, 0xffffffffc0000005ULL),	/* sint32, negative */
		W("DirectoryTableBase", psz, 0x1ad000),
		W("Flags", 4, 4),
		WT("UserSID", 2 * psz + 28, "28"),
		WT("ImageFileName", 8, "cmd.exe"),
		WT("CommandLine", 22, "cmd /c dir"),
		WT("PackageFullName", 2, ""),
		WT("ApplicationId", 2, ""),
	};

	p->len = 0;
	put_ptr(p, 0xffffca8688581300ULL);
	put(p, 1234, 4);
	put(p, 567, 4);
	put(p, 1, 4);
	put(p, 0xc0000005, 4);
	put_ptr(p, 0x1ad000);
	put(p, 4, 4);
	put_sid(p, 5, user_sid, 5);
	put_astr(p, "cmd.exe");
	put_wstr(p, "cmd /c dir");
	put_wstr(p, "");
	put_wstr(p, "");
	memcpy(w, v4, sizeof(v4));
	*n = N(v4);
}

static void test_process(unsigned int psz)
{
	struct payload p = { .psz = psz };
	struct want w[16];
	unsigned int n;
	struct want v3[] = {
		W("UniqueProcessKey", psz, P(psz, 0xfffff80242a399c0ULL)),
		W("ProcessId", 4, 0),
		W("ParentId", 4, 0),
		W("SessionId", 4, 0xffffffff),
		W("ExitStatus", 4, 0),
		W("DirectoryTableBase", psz, 0x1ad000),
		WT("UserSID", 4, NULL),	/* no SID: its 4-byte zero */
		WT("ImageFileName", 5, "Idle"),
		WT("CommandLine", 2, ""),
	};

	process_v4(&p, w, &n);
	check("Process/DCStart v4", 0x0303, 4, &p, w, n, 0);
	/* Version 5: version 4 and 8 bytes more (a time, in the files). */
	put(&p, 0x01d5ee5aba25fc67ULL, 8);
	check("Process/Defunct v5 as v4", 0x0327, 5, &p, w, n, 8);

	p.len = 0;
	put_ptr(&p, 0xfffff80242a399c0ULL);
	put(&p, 0, 4);
	put(&p, 0, 4);
	put(&p, 0xffffffff, 4);
	put(&p, 0, 4);
	put_ptr(&p, 0x1ad000);
	put(&p, 0, 4);
	put_astr(&p, "Idle");
	put_wstr(&p, "");
	check("Process/Start v3, no SID", 0x0301, 3, &p, v3, N(v3), 0);
}

/* ---- Thread ---- */

static void test_thread(unsigned int psz)
{
	struct payload p = { .psz = psz };
	struct want w[] = {
		W("ProcessId", 4, 504),
		W("TThreadId", 4, 5060),
		W("StackBase", psz, P(psz, 0xfffff580f6ceb000ULL)),
		W("StackLimit", psz, P(psz, 0xfffff580f6ce4000ULL)),
		W("UserStackBase", psz, 0x44780000),
		W("UserStackLimit", psz, 0x44772000),
		W("Affinity", psz, 3),
		W("Win32StartAddr", psz, 0x7bb3d60),
		W("TebBase", psz, 0x4448b000),
		W("SubProcessTag", 4, 0),
		W("BasePriority", 1, 13),
		W("PagePriority", 1, 5),
		W("IoPriority", 1, 2),
		W("ThreadFlags", 1, 0),
		WT("ThreadName", 2 * 6 + 2, "worker"),
	};
	struct want cs[] = {
		W("NewThreadId", 4, 100),
		W("OldThreadId", 4, 200),
		W("NewThreadPriority", 1, 8),
		W("OldThreadPriority", 1, (uint64_t)-2),	/* sint8 */
		W("PreviousCState", 1, 1),
		W("SpareByte", 1, 0),
		W("OldThreadWaitReason", 1, 32),
		W("OldThreadWaitMode", 1, 1),
		W("OldThreadState", 1, 5),
		W("OldThreadWaitIdealProcessor", 1, 3),
		W("NewThreadWaitTime", 4, 16),
		W("Reserved", 4, 0),
	};

	put(&p, 504, 4);
	put(&p, 5060, 4);
	put_ptr(&p, 0xfffff580f6ceb000ULL);
	put_ptr(&p, 0xfffff580f6ce4000ULL);
	put_ptr(&p, 0x44780000);
	put_ptr(&p, 0x44772000);
	put_ptr(&p, 3);
	put_ptr(&p, 0x7bb3d60);
	put_ptr(&p, 0x4448b000);
	put(&p, 0, 4);
	put(&p, 13, 1);
	put(&p, 5, 1);
	put(&p, 2, 1);
	put(&p, 0, 1);
	/* Windows 8's version 3 ends there: no ThreadName, nothing cut. */
	check("Thread/Start v3, Windows 8", 0x0501, 3, &p, w, N(w) - 1, 0);
	/* Windows 10's has the thread's name after (PerfView's ThreadName). */
	put_wstr(&p, "worker");
	check("Thread/Start v3", 0x0501, 3, &p, w, N(w), 0);
	/* One byte of a name is not a name: cut there. */
	p.len -= 2 * 6 + 1;
	{
		const struct nttrace_kernel_class *c = nttrace_kernel_class(0x0501, 3);
		struct nttrace_kernel_decoder d;
		struct nttrace_kernel_value v;
		unsigned int n = 0;

		nttrace_kernel_decode_init(&d, c, at_edge(&p, p.len), p.len, p.psz);
		while (nttrace_kernel_decode_next(&d, &v))
			n++;
		tap_ok(n == 14 && d.cut && !strcmp(c->fields[d.next].name, "ThreadName"),
		       "%d-bit ptr%u Thread/Start v3 with one byte of ThreadName: cut there",
		       BITS, psz * 8);
	}

	p.len = 0;
	put(&p, 100, 4);
	put(&p, 200, 4);
	put(&p, 8, 1);
	put(&p, 0xfe, 1);
	put(&p, 1, 1);
	put(&p, 0, 1);
	put(&p, 32, 1);
	put(&p, 1, 1);
	put(&p, 5, 1);
	put(&p, 3, 1);
	put(&p, 16, 4);
	put(&p, 0, 4);
	/* The files' context switches are version 4: CSwitch, a Thread_V2 class. */
	check("Thread/CSwitch v4 as v2", 0x0524, 4, &p, cs, N(cs), 0);
}

/* ---- Image ---- */

static const char ntdll[] = "\\Device\\HarddiskVolume3\\Windows\\System32\\ntdll.dll";

static void test_image(unsigned int psz)
{
	struct payload p = { .psz = psz };
	struct want w[] = {
		W("ImageBase", psz, P(psz, 0x7ff993b30000ULL)),
		W("ImageSize", psz, 0x1f0000),
		W("ProcessId", 4, 7064),
		W("ImageCheckSum", 4, 0x1f63e1),
		W("TimeDateStamp", 4, 0x6c20697e),
		W("Reserved0", 4, 0x20c),
		W("DefaultBase", psz, P(psz, 0x7ff993b30000ULL)),
		W("Reserved1", 4, 0),
		W("Reserved2", 4, 0),
		W("Reserved3", 4, 0),
		W("Reserved4", 4, 0),
		WT("FileName", 2 * sizeof(ntdll), ntdll),
	};

	put_ptr(&p, 0x7ff993b30000ULL);
	put_ptr(&p, 0x1f0000);
	put(&p, 7064, 4);
	put(&p, 0x1f63e1, 4);
	put(&p, 0x6c20697e, 4);
	put(&p, 0x20c, 4);
	put_ptr(&p, 0x7ff993b30000ULL);
	fill(&p, 0, 16);
	put_wstr(&p, ntdll);
	check("Image/Load v2", 0x140A, 2, &p, w, N(w), 0);
	check("Image/DCStart v3 as v2", 0x1403, 3, &p, w, N(w), 0);
	/* The same payload under the Process group's HookId. */
	check("Process/LoadImage v3 as v2", 0x030A, 3, &p, w, N(w), 0);
}

/* ---- TcpIp, UdpIp ---- */

static const uint8_t v6_d[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const uint8_t v6_s[16] = { 0xfe, 0x80, [14] = 0x12, [15] = 0x34 };

static void test_net(unsigned int psz)
{
	struct payload p = { .psz = psz };
	struct want send4[] = {
		W("PID", 4, 4),
		W("size", 4, 1460),
		W("daddr", 4, 0x0302010a),	/* 10.1.2.3: p1 in the low byte */
		W("saddr", 4, 0x0100a8c0),	/* 192.168.0.1 */
		W("dport", 2, 443),		/* network byte order */
		W("sport", 2, 64025),
		W("startime", 4, 100),
		W("endtime", 4, 101),
		W("seqnum", 4, 7),
		W("connid", psz, P(psz, 0xffffa0000000beefULL)),
	};
	struct want recv6[] = {
		W("PID", 4, 2108),
		W("size", 4, 146),
		WR("daddr", 16, v6_d),
		WR("saddr", 16, v6_s),
		W("dport", 2, 1900),
		W("sport", 2, 53190),
		W("seqnum", 4, 0),
		W("connid", psz, 0),
	};
	struct want fail[] = {
		W("Proto", 2, 23),
		W("FailureCode", 2, 6),
	};

	put(&p, 4, 4);
	put(&p, 1460, 4);
	put_bytes(&p, "\x0a\x01\x02\x03", 4);
	put_bytes(&p, "\xc0\xa8\x00\x01", 4);
	put_bytes(&p, "\x01\xbb", 2);
	put_bytes(&p, "\xfa\x19", 2);
	put(&p, 100, 4);
	put(&p, 101, 4);
	put(&p, 7, 4);
	put_ptr(&p, 0xffffa0000000beefULL);
	check("TcpIp/SendIPV4", 0x060A, 2, &p, send4, N(send4), 0);

	p.len = 0;
	put(&p, 2108, 4);
	put(&p, 146, 4);
	put_bytes(&p, v6_d, 16);
	put_bytes(&p, v6_s, 16);
	put_bytes(&p, "\x07\x6c", 2);
	put_bytes(&p, "\xcf\xc6", 2);
	put(&p, 0, 4);
	put_ptr(&p, 0);
	check("TcpIp/RecvIPV6", 0x061B, 2, &p, recv6, N(recv6), 0);
	check("UdpIp/SendIPV6", 0x081A, 2, &p, recv6, N(recv6), 0);

	p.len = 0;
	put(&p, 23, 2);
	put(&p, 6, 2);
	check("UdpIp/Fail", 0x0811, 2, &p, fail, N(fail), 0);
}

/* ---- FileIo: version 3 moved TTID ---- */

static void test_fileio(unsigned int psz)
{
	struct payload p = { .psz = psz };
	struct want v2[] = {
		W("Offset", 8, 0x12345),
		W("IrpPtr", psz, P(psz, 0xffffa0000001000ULL)),
		W("TTID", psz, 3992),
		W("FileObject", psz, P(psz, 0xffffa0000002000ULL)),
		W("FileKey", psz, P(psz, 0xffffa0000003000ULL)),
		W("IoSize", 4, 4096),
		W("IoFlags", 4, 0x60900),
	};
	struct want v3[] = {
		W("Offset", 8, 0x12345),
		W("IrpPtr", psz, P(psz, 0xffffa0000001000ULL)),
		W("FileObject", psz, P(psz, 0xffffa0000002000ULL)),
		W("FileKey", psz, P(psz, 0xffffa0000003000ULL)),
		W("TTID", 4, 3992),
		W("IoSize", 4, 4096),
		W("IoFlags", 4, 0x60900),
	};
	struct want name[] = {
		W("FileObject", psz, P(psz, 0xffffa0000002000ULL)),
		WT("FileName", 2 * sizeof(ntdll), ntdll),
	};

	put(&p, 0x12345, 8);
	put_ptr(&p, 0xffffa0000001000ULL);
	put_ptr(&p, 3992);
	put_ptr(&p, 0xffffa0000002000ULL);
	put_ptr(&p, 0xffffa0000003000ULL);
	put(&p, 4096, 4);
	put(&p, 0x60900, 4);
	check("FileIo/Read v2", 0x0443, 2, &p, v2, N(v2), 0);

	p.len = 0;
	put(&p, 0x12345, 8);
	put_ptr(&p, 0xffffa0000001000ULL);
	put_ptr(&p, 0xffffa0000002000ULL);
	put_ptr(&p, 0xffffa0000003000ULL);
	put(&p, 3992, 4);
	put(&p, 4096, 4);
	put(&p, 0x60900, 4);
	check("FileIo/Read v3", 0x0443, 3, &p, v3, N(v3), 0);
	check("FileIo/Write v4 as v3", 0x0444, 4, &p, v3, N(v3), 0);

	p.len = 0;
	put_ptr(&p, 0xffffa0000002000ULL);
	put_wstr(&p, ntdll);
	check("FileIo/FileRundown v3 as v2", 0x0424, 3, &p, name, N(name), 0);
}

/* ---- SystemConfig: arrays of characters, a GUID ---- */

static const uint8_t display_class[16] = {
	0x7d, 0xe9, 0x36, 0x4d, 0x25, 0xe3, 0xce, 0x11,
	0xbf, 0xc1, 0x08, 0x00, 0x2b, 0xe1, 0x03, 0x18,
};

static void test_config(unsigned int psz)
{
	struct payload p = { .psz = psz };
	char domain[135];
	struct want cpu[] = {
		W("MHz", 4, 3592),
		W("NumberOfProcessors", 4, 8),
		W("MemSize", 4, 4096),
		W("PageSize", 4, 4096),
		W("AllocationGranularity", 4, 65536),
		WT("ComputerName", 512, "HOST-1"),
		WT("DomainName", 268, domain),	/* all 134, no NUL */
		W("HyperThreadingFlag", psz, 3),	/* at 800 */
	};
	struct want pnp[] = {
		WR("ClassGuid", 16, display_class),
		W("UpperFilterCount", 4, 0),
		W("LowerFilterCount", 4, 1),
		WT("DeviceID", 8, "PCI"),
		WT("DeviceDescription", 8, "VGA"),
		WT("FriendlyName", 2, ""),
		WT("PdoName", 10, "PDO0"),
		WT("ServiceName", 8, "vga"),
	};

	memset(domain, 'D', 134);
	domain[134] = 0;
	put(&p, 3592, 4);
	put(&p, 8, 4);
	put(&p, 4096, 4);
	put(&p, 4096, 4);
	put(&p, 65536, 4);
	put_wstr_n(&p, "HOST-1", 256);
	put_wstr_n(&p, domain, 134);
	put_ptr(&p, 3);
	tap_eq(p.len, 800 + psz, "%d-bit ptr%u SystemConfig/CPU: 800 bytes and the pointer",
	       BITS, psz * 8);
	check("SystemConfig/CPU v2", 0x0B0A, 2, &p, cpu, N(cpu), 0);
	fill(&p, 0, 20);
	check("SystemConfig/CPU v3 as v2", 0x0B0A, 3, &p, cpu, N(cpu), 20);

	p.len = 0;
	put_bytes(&p, display_class, 16);
	put(&p, 0, 4);
	put(&p, 1, 4);
	put_wstr(&p, "PCI");
	put_wstr(&p, "VGA");
	put_wstr(&p, "");
	put_wstr(&p, "PDO0");
	put_wstr(&p, "vga");
	put_wstr(&p, "filter");	/* the lower filter's name: left undecoded */
	check("SystemConfig/PnP v4", 0x0B16, 4, &p, pnp, N(pnp), 14);
}

/* ---- StackWalk: pointers to the end ---- */

static void test_stack(unsigned int psz)
{
	struct payload p = { .psz = psz };
	struct want w[] = {
		W("EventTimeStamp", 8, 1942903333),
		W("StackProcess", 4, 4),
		W("StackThread", 4, 584),
		W("Stack", 3 * psz, 3),
	};

	put(&p, 1942903333, 8);
	put(&p, 4, 4);
	put(&p, 584, 4);
	put_ptr(&p, 0xffffffffffd03003ULL);
	put_ptr(&p, 0xfffff88000dce191ULL);
	put_ptr(&p, 0x7ff993b3d60ULL);
	fill(&p, 0xab, 3);	/* not a whole pointer: left after */
	check("StackWalk/Stack", 0x1820, 2, &p, w, N(w), 3);
}

/* ---- cut short: every length of a payload ---- */

/*
 * @p's first @len bytes: the fields that fit in them come out as in @w,
 * and the decoder stops at the first that does not, with @cut, @next and
 * @at saying which and where. 1 if so at every length.
 */
static int sweep(const char *what, uint16_t hook, uint8_t version, const struct payload *p,
		 const struct want *w, unsigned int n)
{
	const struct nttrace_kernel_class *c = nttrace_kernel_class(hook, version);
	struct nttrace_kernel_decoder d;
	struct nttrace_kernel_value v;
	uint32_t len, end;
	unsigned int i, first;

	for (len = 0; len < p->len; len++) {
		nttrace_kernel_decode_init(&d, c, at_edge(p, len), len, p->psz);
		for (i = 0; nttrace_kernel_decode_next(&d, &v); i++)
			if (v.offset + v.size > len || (v.text && v.text + v.text_size >
							  at_edge(p, len) + len))
				break;
		for (first = 0, end = 0; first < n && end + w[first].size <= len; first++)
			end += w[first].size;
		if (i != first || !d.cut || d.next != first || d.at != end) {
			printf("# %s at %u bytes: %u fields, cut %d at %u (field %u)\n", what,
			       len, i, d.cut, d.at, d.next);
			return 0;
		}
	}
	return 1;
}

static void test_cut(unsigned int psz)
{
	const struct nttrace_kernel_class *c = nttrace_kernel_class(0x0303, 4);
	struct nttrace_kernel_decoder d;
	struct nttrace_kernel_value v;
	struct payload p = { .psz = psz };
	struct want w[16];
	unsigned int n;

	process_v4(&p, w, &n);
	tap_ok(sweep("Process/DCStart v4", 0x0303, 4, &p, w, n),
	       "%d-bit ptr%u Process/DCStart v4 cut at each of %u lengths: stops at the field "
	       "that does not fit", BITS, psz * 8, p.len);

	/* A SID whose count says more subauthorities than the payload holds. */
	p.len = 0;
	process_v4(&p, w, &n);
	p.b[4 * 4 + 2 * psz + 4 + 2 * psz + 1] = 200;
	nttrace_kernel_decode_init(&d, c, at_edge(&p, p.len), p.len, psz);
	for (n = 0; nttrace_kernel_decode_next(&d, &v); n++)
		;
	tap_ok(n == 7 && d.cut && d.next == 7 && !strcmp(c->fields[d.next].name, "UserSID"),
	       "%d-bit ptr%u a SID of 200 subauthorities: cut short at UserSID", BITS, psz * 8);

	/* An 8-bit string with no NUL before the end. */
	process_v4(&p, w, &n);
	p.len = 4 * 4 + 2 * psz + 4 + 2 * psz + 28 + 7;
	nttrace_kernel_decode_init(&d, c, at_edge(&p, p.len), p.len, psz);
	for (n = 0; nttrace_kernel_decode_next(&d, &v); n++)
		;
	tap_ok(n == 8 && d.cut && !strcmp(c->fields[d.next].name, "ImageFileName"),
	       "%d-bit ptr%u ImageFileName without its NUL: cut short there", BITS, psz * 8);
}

static void test_cut_others(unsigned int psz)
{
	struct payload p = { .psz = psz };
	struct want w[] = {
		W("PID", 4, 0), W("size", 4, 0), W("daddr", 16, 0), W("saddr", 16, 0),
		W("dport", 2, 0), W("sport", 2, 0), W("startime", 4, 0), W("endtime", 4, 0),
		W("seqnum", 4, 0), W("connid", psz, 0),
	};
	struct want cpu[] = {
		W("MHz", 4, 0), W("NumberOfProcessors", 4, 0), W("MemSize", 4, 0),
		W("PageSize", 4, 0), W("AllocationGranularity", 4, 0),
		W("ComputerName", 512, 0), W("DomainName", 268, 0),
		W("HyperThreadingFlag", psz, 0),
	};

	fill(&p, 0, 64);
	p.len = 56 + psz;
	tap_ok(sweep("TcpIp/SendIPV6", 0x061A, 2, &p, w, N(w)),
	       "%d-bit ptr%u TcpIp/SendIPV6 cut at each of %u lengths", BITS, psz * 8, p.len);
	p.len = 0;
	fill(&p, 0x41, 800 + psz);
	tap_ok(sweep("SystemConfig/CPU", 0x0B0A, 2, &p, cpu, N(cpu)),
	       "%d-bit ptr%u SystemConfig/CPU cut at each of %u lengths", BITS, psz * 8, p.len);
}

/* ---- the look-up ---- */

static const uint8_t process_guid[16] = {
	0xd0, 0xa8, 0x6f, 0x3d, 0x05, 0xfe, 0xd0, 0x11,
	0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c,
};
static const uint8_t thread_guid[16] = {
	0xd1, 0xa8, 0x6f, 0x3d, 0x05, 0xfe, 0xd0, 0x11,
	0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c,
};

static int named(const struct nttrace_kernel_class *c, const char *event, const char *cls,
		 uint8_t version)
{
	return c && !strcmp(c->event_name, event) && !strcmp(c->class_name, cls) &&
	       c->version == version;
}

static void test_lookup(void)
{
	static const uint8_t other[16] = { 1, 2, 3 };
	const struct nttrace_kernel_class *c;
	struct nttrace_kernel_decoder d;
	struct nttrace_kernel_value v;
	unsigned int g, op, ver, bad = 0, found = 0;

	tap_ok(named(nttrace_kernel_class(0x0303, 2), "Process/DCStart", "Process_V2_TypeGroup1",
		     2), "Process/DCStart v2: Process_V2_TypeGroup1");
	tap_ok(named(nttrace_kernel_class(0x0303, 3), "Process/DCStart", "Process_TypeGroup1", 3),
	       "Process/DCStart v3: Process_TypeGroup1 (the page's EventVersion(3))");
	tap_ok(named(nttrace_kernel_class(0x0327, 9), "Process/Defunct", "Process_V4_TypeGroup1",
		     4), "Process/Defunct v9: the newest below, version 4");
	tap_ok(!nttrace_kernel_class(0x0303, 1), "Process/DCStart v1: none at or below");
	tap_ok(!nttrace_kernel_class(0x030B, 2), "Process type 11: not in the table");
	tap_ok(!nttrace_kernel_class(0x2003, 2), "a group past the known ones: none");
	c = nttrace_kernel_class(0x0B15, 4);
	tap_ok(c && c->version == 3 && !c->fields && !c->nr_fields &&
	       !strcmp(c->event_name, "SystemConfig/IRQ"),
	       "SystemConfig/IRQ v4: version 3's entry, without fields, stops the fall-back");
	nttrace_kernel_decode_init(&d, c, "\1\2\3\4", 4, 8);
	tap_ok(!nttrace_kernel_decode_next(&d, &v) && !d.cut && d.at == 0,
	       "a class without fields decodes nothing, and is not cut");
	c = nttrace_kernel_class(0x0008, 2);
	nttrace_kernel_decode_init(&d, c, NULL, 0, 8);
	tap_ok(named(c, "EventTrace/RDComplete", "RDComplete", 2) && c->fields &&
	       !nttrace_kernel_decode_next(&d, &v) && !d.cut,
	       "EventTrace/RDComplete: a class of no fields, an empty payload");
	nttrace_kernel_decode_init(&d, nttrace_kernel_class(0x0303, 4), NULL, 100, 8);
	tap_ok(!nttrace_kernel_decode_next(&d, &v) && d.cut && d.len == 0 && d.next == 0,
	       "no data (NULL, whatever the length): cut short at the first field");
	nttrace_kernel_decode_init(&d, nttrace_kernel_class(0x0303, 4), "", 0, 0);
	tap_eq(d.pointer_size, 8, "a pointer size other than 4 or 8 is taken as 8");
	tap_ok(named(nttrace_kernel_class_by_guid(process_guid, 3, 4), "Process/DCStart",
		     "Process_V4_TypeGroup1", 4),
	       "a classic event with the Process group's GUID, type 3, version 4");
	tap_ok(named(nttrace_kernel_class_by_guid(thread_guid, 36, 5), "Thread/CSwitch",
		     "CSwitch", 2), "the Thread group's GUID, type 36, version 5: CSwitch");
	tap_ok(!nttrace_kernel_class_by_guid(other, 3, 4), "another GUID: no class");

	/* Every entry: its HookId and version, a name, fields well formed. */
	for (g = 0; g < 0x20; g++) {
		for (op = 0; op < 256; op++) {
			for (ver = 0; ver < 8; ver++) {
				unsigned int i;

				c = nttrace_kernel_class(g << 8 | op, ver);
				if (!c)
					continue;
				found++;
				bad += c->hook_id != (g << 8 | op) || c->version > ver ||
				       !strchr(c->event_name, '/') || !c->class_name[0] ||
				       (!c->fields && c->nr_fields);
				for (i = 0; i < c->nr_fields; i++)
					bad += !c->fields[i].name[0] ||
					       c->fields[i].type < NTTRACE_KT_U8 ||
					       c->fields[i].type > NTTRACE_KT_POINTERS ||
					       ((c->fields[i].type == NTTRACE_KT_WCHARS ||
						 c->fields[i].type == NTTRACE_KT_BYTES) &&
						!c->fields[i].count);
			}
		}
	}
	tap_ok(!bad && found > 500, "the table: %u look-ups found a class, each well formed",
	       found);
}

/* Every class's records as a 64-bit (8) and a 32-bit (4) kernel writes them. */
static void classes(unsigned int size)
{
	test_process(size);
	test_thread(size);
	test_image(size);
	test_net(size);
	test_fileio(size);
	test_config(size);
	test_stack(size);
	test_cut(size);
	test_cut_others(size);
}

TEST(pointer8)
{
	classes(8);
}

TEST(pointer4)
{
	classes(4);
}

TEST(lookup)
{
	test_lookup();
}

int main(int argc, char **argv)
{
	if (!tap_ok(!guard_init(), "a page with an unmapped one after it"))
		return tap_done();
	return harness_run(argc, argv);
}
