// SPDX-License-Identifier: GPL-2.0
/*
 * Where time goes, as the NT Kernel Logger says it: system calls
 * (EVENT_TRACE_FLAG_SYSTEMCALL, module/kernel_logger/kl_syscall.c), each
 * SysClEnter with the call's number followed on its CPU by its
 * SysClExit with its return value; and
 * CPU samples (EVENT_TRACE_FLAG_PROFILE, module/kernel_logger/kl_profile.c):
 * a child spinning in a function of its own (in a section of its own, so
 * that the linker's __start_ and __stop_ symbols bound it) while the NT
 * Kernel Logger samples: its samples are found in the logger's rings and
 * their instruction pointers must fall in the function; samples of the
 * kernel (a child spinning in getppid()) carry kernel addresses only into
 * a session whose starter may see them (CAP_SYSLOG); the interval is read
 * and set by NTTRACE_IOC_PROFILE and TraceSet/QueryInformation, within
 * its limits, by a privileged caller alone; CollectionStart opens the
 * logger's samples; with stacks asked for SampledProfile
 * (TraceStackTracingInfo), each sample is followed by its StackWalk
 * event, whose frames name spin()'s callers and main (this program is
 * built with frame pointers), and the kernel's frames only for a
 * CAP_SYSLOG starter of a sampling session; stacks asked for CSwitch are
 * the switched-out
 * thread's, the kernel's frames then the program's, none of them the
 * module's own. Each wait is on a count of samples, not on time.
 * 64- and 32-bit (the records are the 64-bit kernel's either way); root.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <grp.h>
#include <unistd.h>

#include <nttrace/evntrace.h>
#include <nttrace/nt.h>
#include <nttrace/session.h>
#include "emit.h"
#include "expect.h"
#include "klog.h"
#include "state.h"

#define BITS ((int)sizeof(void *) * 8)
#define HOOK_SAMPLE 0x0F2E
#define HOOK_STACK 0x1820
#define HOOK_SET_INTERVAL 0x0F48
#define HOOK_COLLECTION_START 0x0F49
/* Where x86-64's kernel addresses begin (the upper half). */
#define KERNEL_START 0xffff800000000000ULL
/* Samples of the child to wait for. */
#define WANT 200

/* What the drains found. */
struct seen {
	uint32_t tid;			/* the child whose samples are counted */
	unsigned int samples;		/* of @tid */
	unsigned int in_spin;		/* of those, in spin() */
	unsigned int kernel;		/* of @tid, at kernel addresses */
	unsigned int zero;		/* of @tid, InstructionPointer 0 */
	unsigned int idle;		/* of thread 0 */
	unsigned int bad;		/* of a wrong size or version */
	unsigned int starts;		/* CollectionStart events */
	uint32_t start_interval;	/* the last one's NewInterval */
	char start_name[8];		/* and SourceName */
	unsigned int set_events;	/* SetInterval events */
	uint32_t set_old, set_new;
	uint64_t last_ts;		/* of @tid's last sample */
	uint64_t last_ip;
	unsigned int stacks;		/* StackWalk events of @tid */
	unsigned int stacks_matched;	/* ... of its last sample: time stamp, first frame */
	/*
	 * ... of a sample in spin() (its first frame there): the user-mode
	 * samples of the spinning child. A sample in the kernel (the child's
	 * page faults, its fork's return) has what of the program's stack
	 * could be read as the kernel left it: a frame a fault is copying
	 * reads as unreadable, so such stacks are not counted here.
	 */
	unsigned int stacks_in_spin;
	unsigned int stacks_callers;	/* ... of those, through caller_b, caller_a and main */
	unsigned int stacks_kernel;	/* ... with a kernel frame */
	unsigned int said;
};

extern const char __start_nt_spin[], __stop_nt_spin[];
extern const char __start_nt_caller_a[], __stop_nt_caller_a[];
extern const char __start_nt_caller_b[], __stop_nt_caller_b[];
extern const char __start_nt_main[], __stop_nt_main[];

static volatile unsigned long spins;
/* Never set: the compiler may not take spin() for a function that does not return. */
static volatile int stop_spinning;

/* A call, so that spin() is no leaf: GCC 12 gives a leaf no frame pointer. */
__attribute__((noinline)) static void tick(void)
{
	__asm__ volatile("");
}

/* The function the samples must find: alone in section nt_spin. */
__attribute__((noinline, section("nt_spin"))) static void spin(void)
{
	tick();
	while (!stop_spinning)
		spins++;
}

/*
 * Its callers, each alone in a section, for the stacks to name; each
 * does something after its call, so that the call is no jump (a tail
 * call leaves no frame).
 */
__attribute__((noinline, section("nt_caller_b"))) static void caller_b(void)
{
	spin();
	spins++;
}

__attribute__((noinline, section("nt_caller_a"))) static void caller_a(void)
{
	caller_b();
	spins++;
}

#define IN(sec, a) ((a) >= (uintptr_t)__start_##sec && (a) < (uintptr_t)__stop_##sec)

static void syscalls(void)
{
	for (;;)
		syscall(SYS_getppid);
}

static void on_record(void *ctx, const uint8_t *p, uint32_t size, unsigned int cpu)
{
	struct seen *s = ctx;
	uint16_t hook = get_le(p + 6, 2);
	const uint8_t *d;
	uint64_t ip;
	uint32_t tid;
	unsigned int i;

	if (hook == HOOK_STACK) {
		/* PERFINFO64, version 2: time stamp, process, thread, frames. */
		unsigned int n = (size - 0x10 - 16) / 8, a = 0, b = 0, m = 0, k = 0;

		if (p[2] != 0x11 || p[0] != 2 || size < 0x10 + 16 + 8 || (size - 0x10) % 8) {
			s->bad++;
			return;
		}
		d = p + 0x10;
		if (get_le(d + 12, 4) != s->tid)
			return;
		s->stacks++;
		if (get_le(d, 8) == s->last_ts && get_le(d + 16, 8) == s->last_ip)
			s->stacks_matched++;
		for (i = 0; i < n; i++) {
			ip = get_le(d + 16 + 8 * i, 8);
			a |= IN(nt_caller_a, ip);
			b |= IN(nt_caller_b, ip);
			m |= IN(nt_main, ip);
			k |= ip >= KERNEL_START;
		}
		if (IN(nt_spin, get_le(d + 16, 8))) {
			s->stacks_in_spin++;
			s->stacks_callers += a && b && m;
		}
		s->stacks_kernel += k;
		/* The first stacks in spin() that miss a caller, for the log. */
		if (!(a && b && m) && IN(nt_spin, get_le(d + 16, 8)) && s->said++ < 3) {
			printf("# a stack without caller_a, caller_b or main (%p-%p, %p-%p, %p-%p), %u frames:",
			       (void *)__start_nt_caller_a, (void *)__stop_nt_caller_a,
			       (void *)__start_nt_caller_b, (void *)__stop_nt_caller_b,
			       (void *)__start_nt_main, (void *)__stop_nt_main, n);
			for (i = 0; i < n && i < 24; i++)
				printf(" %#llx", (unsigned long long)get_le(d + 16 + 8 * i, 8));
			printf("\n");
		}
		return;
	}
	if (hook == HOOK_SAMPLE) {
		/* PERFINFO64 header (0x10), version 2, then 16 bytes. */
		if (p[2] != 0x11 || p[0] != 2 || size != 0x10 + 16) {
			s->bad++;
			return;
		}
		d = p + 0x10;
		ip = get_le(d, 8);
		tid = get_le(d + 8, 4);
		if (!tid)
			s->idle++;
		if (tid != s->tid)
			return;
		s->last_ts = get_le(p + 8, 8);
		s->last_ip = ip;
		s->samples++;
		if (get_le(d + 12, 2) != 1)
			s->bad++;
		if (ip >= (uintptr_t)__start_nt_spin && ip < (uintptr_t)__stop_nt_spin)
			s->in_spin++;
		if (ip >= KERNEL_START)
			s->kernel++;
		if (!ip)
			s->zero++;
	} else if (hook == HOOK_COLLECTION_START || hook == HOOK_SET_INTERVAL) {
		/* SYSTEM64 header (0x20), version 3: Source, New, Old, name. */
		if (p[2] != 0x02 || p[0] != 3 || size < 0x20 + 12 + 2) {
			s->bad++;
			return;
		}
		d = p + 0x20;
		if (hook == HOOK_SET_INTERVAL) {
			s->set_events++;
			s->set_new = get_le(d + 4, 4);
			s->set_old = get_le(d + 8, 4);
			return;
		}
		s->starts++;
		s->start_interval = get_le(d + 4, 4);
		for (i = 0; i < sizeof(s->start_name) - 1 && 0x20 + 12 + 2 * i + 1 < size; i++)
			s->start_name[i] = (char)get_le(d + 12 + 2 * i, 2);
		s->start_name[i] = 0;
	}
}

/*
 * Run @fn in a child until the logger holds WANT of its samples (the
 * drains wait on that count, however slow the machine); the counts in @s.
 */
static void sample_child(struct nttrace_consumer *kc, void (*fn)(void), struct seen *s)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		fn();
		_exit(0);
	}
	s->tid = (uint32_t)pid;
	while (pid > 0 && s->samples < WANT) {
		usleep(20000);
		klog_drain(kc, on_record, s);
	}
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
}

static int profile_ioctl(uint32_t flags, uint32_t source, uint32_t *interval)
{
	struct nttrace_profile p = { .size = sizeof(p), .flags = flags, .source = source };

	if (interval)
		p.interval = *interval;
	if (ioctl(nttrace_device_fd(), NTTRACE_IOC_PROFILE, &p) < 0)
		return -errno;
	if (interval)
		*interval = p.interval;
	return p.min_interval == 1221 && p.max_interval == 10000000 ? 0 : -ERANGE;
}

/* Stacks for SampledProfile (@on) or none, of the NT Kernel Logger. */
static ULONG set_stacks(int on)
{
	static const GUID perfinfo = { 0xce1dbfb4, 0x137e, 0x4da6,
				       { 0x87, 0xb0, 0x3f, 0x59, 0xaa, 0x10, 0x2c, 0xbc } };
	CLASSIC_EVENT_ID id[2];
	ULONG err, len = 0;

	memset(id, 0, sizeof(id));
	id[0].EventGuid = perfinfo;
	id[0].Type = 46;
	err = TraceSetInformation(KL, TraceStackTracingInfo, id, on ? sizeof(id[0]) : 0);
	if (err)
		return err;
	memset(id, 0, sizeof(id));
	err = TraceQueryInformation(KL, TraceStackTracingInfo, id, sizeof(id), &len);
	if (err)
		return err;
	if (on ? len != sizeof(id[0]) || memcmp(&id[0].EventGuid, &perfinfo, sizeof(GUID)) ||
		 id[0].Type != 46 : len != 0)
		return ERROR_INVALID_DATA;
	return ERROR_SUCCESS;
}

/* Take CAP_SYSLOG out of this process's effective set: 0 or -errno. */
static int drop_syslog(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -errno;
	d[CAP_TO_INDEX(CAP_SYSLOG)].effective &= ~CAP_TO_MASK(CAP_SYSLOG);
	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

/* In a child without CAP_SYSLOG: attach to the running logger. */
static int attach_without_syslog(void)
{
	struct nttrace_consumer *c;
	int err;

	if (drop_syslog())
		return 100;
	err = nttrace_consumer_open(&c, KL);
	if (!err)
		nttrace_consumer_close(c);
	return err == -EPERM ? 0 : 1;
}

static int in_child(int (*fn)(void))
{
	pid_t pid = fork();
	int status;

	if (pid == 0)
		_exit(fn());
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int set_as_nobody(void)
{
	uint32_t v = 5000;

	if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
		return 100;
	return profile_ioctl(NTTRACE_PROFILE_SET, 0, &v) == -EPERM ? 0 : 1;
}

TEST_F(nttrace, interval)
{
	TRACE_PROFILE_INTERVAL t = { 0, 0 };
	unsigned char list[64];
	PROFILE_SOURCE_INFO *src = (PROFILE_SOURCE_INFO *)list;
	ULONG len = 0, sources[2] = { 0, 1 };
	uint32_t v = 0;

	tap_eq(profile_ioctl(0, 0, &v), 0, "%d-bit: NTTRACE_IOC_PROFILE reads the timer's", BITS);
	tap_eq(v, 10000, "%d-bit: ... 10000 (1 ms), the default", BITS);
	v = 5000;
	tap_eq(profile_ioctl(NTTRACE_PROFILE_SET, 0, &v), 0, "%d-bit: set 5000", BITS);
	v = 0;
	profile_ioctl(0, 0, &v);
	tap_eq(v, 5000, "%d-bit: ... read back", BITS);
	v = 1220;
	tap_eq(profile_ioctl(NTTRACE_PROFILE_SET, 0, &v), -EINVAL, "%d-bit: 1220 -> EINVAL", BITS);
	v = 10000001;
	tap_eq(profile_ioctl(NTTRACE_PROFILE_SET, 0, &v), -EINVAL, "%d-bit: 10000001 -> EINVAL",
	       BITS);
	v = 5000;
	tap_eq(profile_ioctl(NTTRACE_PROFILE_SET, 1, &v), -EINVAL, "%d-bit: source 1 -> EINVAL",
	       BITS);
	tap_eq(profile_ioctl(2, 0, &v), -EINVAL, "%d-bit: an unknown flag -> EINVAL", BITS);
	tap_eq(in_child(set_as_nobody), 0, "%d-bit: uid 65534 may not set it (EPERM)", BITS);

	tap_eq(TraceQueryInformation(0, TraceSampledProfileIntervalInfo, &t, sizeof(t), &len),
	       ERROR_SUCCESS, "%d-bit: TraceQueryInformation(TraceSampledProfileIntervalInfo)",
	       BITS);
	tap_ok(t.Interval == 5000 && len == sizeof(t), "%d-bit: ... 5000, %lu bytes", BITS,
	       (unsigned long)len);
	t.Interval = 10000;
	tap_eq(TraceSetInformation(0, TraceSampledProfileIntervalInfo, &t, sizeof(t)),
	       ERROR_SUCCESS, "%d-bit: TraceSetInformation(TraceSampledProfileIntervalInfo) 10000",
	       BITS);
	t.Interval = 100;
	tap_eq(TraceSetInformation(0, TraceSampledProfileIntervalInfo, &t, sizeof(t)),
	       ERROR_INVALID_PARAMETER, "%d-bit: ... 100 -> ERROR_INVALID_PARAMETER", BITS);
	tap_eq(TraceSetInformation(0, TraceSampledProfileIntervalInfo, &t, 4),
	       ERROR_BAD_LENGTH, "%d-bit: ... 4 bytes -> ERROR_BAD_LENGTH", BITS);
	memset(list, 0xAA, sizeof(list));
	tap_eq(TraceQueryInformation(0, TraceProfileSourceListInfo, list, sizeof(list), &len),
	       ERROR_SUCCESS, "%d-bit: TraceQueryInformation(TraceProfileSourceListInfo)", BITS);
	tap_ok(src->NextEntryOffset == 0 && src->Source == 0 && src->MinInterval == 1221 &&
	       src->MaxInterval == 10000000 && src->Description[0] == 'T' &&
	       src->Description[4] == 'r' && src->Description[5] == 0 && len % 8 == 0,
	       "%d-bit: ... the timer alone, \"Timer\", 1221 to 10000000", BITS);
	tap_eq(TraceSetInformation(0, TraceProfileSourceConfigInfo, sources, 4), ERROR_SUCCESS,
	       "%d-bit: TraceSetInformation(TraceProfileSourceConfigInfo) { 0 }", BITS);
	tap_eq(TraceSetInformation(0, TraceProfileSourceConfigInfo, sources, 8),
	       ERROR_NOT_SUPPORTED, "%d-bit: ... { 0, 1 } -> ERROR_NOT_SUPPORTED", BITS);
}

TEST_F(nttrace, samples)
{
	struct nttrace_consumer *kc;
	struct seen s, k;
	uint32_t v = 10000;

	profile_ioctl(NTTRACE_PROFILE_SET, 0, &v);
	if (!tap_eq(klog_start(NTTRACE_EVENT_TRACE_FLAG_PROFILE), 0,
		    "%d-bit: the NT Kernel Logger, PROFILE", BITS))
		return;
	if (!tap_eq(nttrace_consumer_open(&kc, KL), 0, "%d-bit: its logger attached", BITS)) {
		stop_session(KL);
		return;
	}
	memset(&s, 0, sizeof(s));
	sample_child(kc, caller_a, &s);
	tap_ok(s.samples >= WANT, "%d-bit: %u samples of a child spinning in spin()", BITS,
	       s.samples);
	tap_ok(s.in_spin * 10 >= s.samples * 8,
	       "%d-bit: ... at least 80%% of them in spin() (%u of %u)", BITS, s.in_spin,
	       s.samples);
	tap_eq(s.bad, 0, "%d-bit: ... every sample PERFINFO64, v2, 16 bytes, Count 1", BITS);
	tap_ok(s.idle > 0, "%d-bit: ... and samples of the idle threads (ThreadId 0): %u", BITS,
	       s.idle);
	tap_ok(s.starts == 1 && s.start_interval == 10000 && !strcmp(s.start_name, "Timer"),
	       "%d-bit: CollectionStart: source 0, 10000, \"Timer\" (%u, %u, \"%s\")", BITS,
	       s.starts, s.start_interval, s.start_name);
	tap_eq(s.stacks, 0, "%d-bit: no stacks unless asked for", BITS);

	/* Stacks for SampledProfile, as xperf -stackwalk Profile asks. */
	tap_eq(set_stacks(1), ERROR_SUCCESS,
	       "%d-bit: TraceSetInformation(TraceStackTracingInfo, PerfInfo 46)", BITS);
	memset(&s, 0, sizeof(s));
	sample_child(kc, caller_a, &s);
	tap_ok(s.stacks >= s.samples && s.samples >= WANT,
	       "%d-bit: a StackWalk event for each sample (%u for %u)", BITS, s.stacks, s.samples);
	tap_ok(s.stacks_matched * 10 >= s.stacks * 9,
	       "%d-bit: ... after its sample: its time stamp, its instruction pointer first (%u of %u)",
	       BITS, s.stacks_matched, s.stacks);
	tap_ok(s.stacks_in_spin >= WANT / 2,
	       "%d-bit: ... at least %d of them in spin() (%u of %u)", BITS, WANT / 2,
	       s.stacks_in_spin, s.stacks);
	tap_ok(s.stacks_callers * 100 >= s.stacks_in_spin * 98,
	       "%d-bit: ... and of those at least 98%% through caller_b, caller_a and main (%u of %u)",
	       BITS, s.stacks_callers, s.stacks_in_spin);

	v = 5000;
	profile_ioctl(NTTRACE_PROFILE_SET, 0, &v);
	memset(&k, 0, sizeof(k));
	sample_child(kc, syscalls, &k);
	tap_ok(k.set_events == 1 && k.set_old == 10000 && k.set_new == 5000,
	       "%d-bit: setting the interval writes SetInterval, 10000 -> 5000", BITS);
	tap_ok(k.kernel > 0 && !k.zero,
	       "%d-bit: a child in getppid(): samples at kernel addresses (%u of %u), CAP_SYSLOG's starter",
	       BITS, k.kernel, k.samples);
	tap_ok(k.stacks_kernel > 0, "%d-bit: ... and stacks with kernel frames (%u of %u)", BITS,
	       k.stacks_kernel, k.stacks);
	tap_eq(set_stacks(0), ERROR_SUCCESS, "%d-bit: stacks off again", BITS);
	tap_eq(in_child(attach_without_syslog), 0,
	       "%d-bit: ... a consumer without CAP_SYSLOG may not attach (EPERM)", BITS);
	v = 10000;
	profile_ioctl(NTTRACE_PROFILE_SET, 0, &v);
	nttrace_consumer_close(kc);
	stop_session(KL);
}

/* The logger started without CAP_SYSLOG: kernel samples say 0. */
static int kernel_hidden(void)
{
	struct nttrace_consumer *kc;
	struct seen k;

	if (drop_syslog())
		return 100;
	if (klog_start(NTTRACE_EVENT_TRACE_FLAG_PROFILE))
		return 101;
	if (nttrace_consumer_open(&kc, KL) || set_stacks(1)) {
		stop_session(KL);
		return 102;
	}
	memset(&k, 0, sizeof(k));
	sample_child(kc, syscalls, &k);
	nttrace_consumer_close(kc);
	stop_session(KL);
	printf("# %u samples, %u at 0, %u at kernel addresses; %u stacks, %u with kernel frames\n",
	       k.samples, k.zero, k.kernel, k.stacks, k.stacks_kernel);
	return k.samples >= WANT && k.zero > 0 && !k.kernel && k.stacks && !k.stacks_kernel ?
	       0 : 1;
}

TEST_F(nttrace, kernel_addresses_hidden)
{
	tap_eq(in_child(kernel_hidden), 0,
	       "%d-bit: started without CAP_SYSLOG: samples in the kernel have InstructionPointer 0, stacks no kernel frame",
	       BITS);
}

/* What the drain of SYSTEMCALL events found: getppid()'s and open()'s pairs. */
struct calls {
	uint64_t nr_getppid, nr_open;	/* SysCallAddress of each, this ABI's */
	uint32_t ppid;
	uint64_t last_enter[64];	/* per CPU: the last SysClEnter's number, +1 */
	unsigned int getppid_pairs, open_enoent_pairs, bad;
};

static void on_syscall(void *ctx, const uint8_t *p, uint32_t size, unsigned int cpu)
{
	struct calls *c = ctx;
	uint16_t hook = get_le(p + 6, 2);
	uint32_t status;

	cpu &= 63;
	if (p[2] != 0x11)
		return;
	if (hook == 0x0F33) {
		if (p[0] != 2 || size != 0x10 + 8)
			c->bad++;
		c->last_enter[cpu] = get_le(p + 0x10, 8) + 1;
	} else if (hook == 0x0F34) {
		status = get_le(p + 0x10, 4);
		if (p[0] != 2 || size != 0x10 + 4)
			c->bad++;
		if (c->last_enter[cpu] == c->nr_getppid + 1 && status == c->ppid)
			c->getppid_pairs++;
		if (c->last_enter[cpu] == c->nr_open + 1 && status == (uint32_t)-ENOENT)
			c->open_enoent_pairs++;
		c->last_enter[cpu] = 0;
	}
}

TEST_F(nttrace, system_calls)
{
	struct nttrace_consumer *kc;
	struct calls c;
	unsigned int i;

	memset(&c, 0, sizeof(c));
	/* This ABI's numbers; a 32-bit caller's carry 0x80000000. */
	c.nr_getppid = SYS_getppid | (BITS == 32 ? 0x80000000U : 0);
	c.nr_open = SYS_openat | (BITS == 32 ? 0x80000000U : 0);
	c.ppid = (uint32_t)getppid();
	if (!tap_eq(klog_start(NTTRACE_EVENT_TRACE_FLAG_SYSTEMCALL), 0,
		    "%d-bit: the NT Kernel Logger, SYSTEMCALL", BITS))
		return;
	if (!tap_eq(nttrace_consumer_open(&kc, KL), 0, "%d-bit: its logger attached", BITS)) {
		stop_session(KL);
		return;
	}
	for (i = 0; i < 100; i++)
		syscall(SYS_getppid);
	syscall(SYS_openat, AT_FDCWD, "/nonexistent/profile_test", O_RDONLY);
	klog_drain(kc, on_syscall, &c);
	nttrace_consumer_close(kc);
	stop_session(KL);
	tap_ok(c.getppid_pairs >= 100,
	       "%d-bit: 100 getppid(): SysClEnter with its number, then SysClExit with the parent's PID (%u)",
	       BITS, c.getppid_pairs);
	tap_ok(c.open_enoent_pairs >= 1,
	       "%d-bit: a failing openat(): SysClExit says -ENOENT (%u)", BITS, c.open_enoent_pairs);
	tap_eq(c.bad, 0, "%d-bit: ... every one PERFINFO64, version 2, of its size", BITS);
}

/* nttrace.ko's text: its base and size, from /proc/modules (root reads them). */
static int module_range(uint64_t *base, uint64_t *size)
{
	char line[256], name[64];
	unsigned long long b;
	unsigned long s;
	FILE *f = fopen("/proc/modules", "r");
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lu %*s %*s %*s %llx", name, &s, &b) == 3 &&
		    !strcmp(name, "nttrace")) {
			*base = b;
			*size = s;
			found = 1;
		}
	if (f)
		fclose(f);
	return found;
}

/* Task @pid's voluntary context switches so far (/proc), or -1. */
static long voluntary_switches(pid_t pid)
{
	char path[64], line[128];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

/* CSwitch stacks: the switched-out thread's, from the tracepoint's caller. */
struct cs_stacks {
	uint32_t tid;
	uint64_t mod_base, mod_size;
	unsigned int stacks, kernel_and_user, in_module;
};

static void on_cs_stack(void *ctx, const uint8_t *p, uint32_t size, unsigned int cpu)
{
	struct cs_stacks *c = ctx;
	unsigned int k = 0, u = 0;
	uint32_t i, n;

	(void)cpu;
	if (p[2] != 0x11 || get_le(p + 6, 2) != HOOK_STACK || size < 0x10 + 16 ||
	    get_le(p + 0x10 + 12, 4) != c->tid)
		return;
	c->stacks++;
	n = (size - 0x10 - 16) / 8;
	for (i = 0; i < n; i++) {
		uint64_t a = get_le(p + 0x20 + 8 * i, 8);

		if (a >= KERNEL_START)
			k++;
		else
			u++;
		if (a - c->mod_base < c->mod_size)
			c->in_module++;
	}
	c->kernel_and_user += k && u;
}

TEST_F(nttrace, cswitch_stacks)
{
	static const GUID thread = { 0x3d6fa8d1, 0xfe05, 0x11d0,
				     { 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };
	struct nttrace_consumer *kc;
	struct cs_stacks c;
	CLASSIC_EVENT_ID id;
	int status, i, fds[2];
	long switches;
	pid_t pid;

	memset(&c, 0, sizeof(c));
	if (!tap_ok(module_range(&c.mod_base, &c.mod_size), "%d-bit: nttrace's text in /proc/modules",
		    BITS))
		return;
	/* PROFILE too: a session started with it holds kernel addresses. */
	if (!tap_eq(klog_start(NTTRACE_EVENT_TRACE_FLAG_CSWITCH |
					NTTRACE_EVENT_TRACE_FLAG_PROFILE), 0,
		    "%d-bit: the NT Kernel Logger, CSWITCH and PROFILE", BITS))
		return;
	memset(&id, 0, sizeof(id));
	id.EventGuid = thread;
	id.Type = 36;
	tap_eq(TraceSetInformation(KL, TraceStackTracingInfo, &id, sizeof(id)), ERROR_SUCCESS,
	       "%d-bit: TraceStackTracingInfo: Thread 36 (CSwitch)", BITS);
	if (!tap_eq(nttrace_consumer_open(&kc, KL), 0, "%d-bit: its logger attached", BITS)) {
		stop_session(KL);
		return;
	}
	/*
	 * A child that reads a pipe 50 times, a byte at a time: each byte
	 * is written only once the child has switched away to wait for it
	 * (its count of voluntary switches grew), so each read is a switch.
	 */
	if (pipe(fds))
		return;
	pid = fork();
	if (pid == 0) {
		char byte;

		close(fds[1]);
		for (i = 0; i < 50; i++)
			if (read(fds[0], &byte, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(fds[0]);
	/* A new task has switched away 0 times; each wait is one more. */
	switches = 0;
	for (i = 0; i < 50 && pid > 0; i++) {
		long now;

		while ((now = voluntary_switches(pid)) <= switches && now >= 0 &&
		       waitpid(pid, &status, WNOHANG) == 0)
			usleep(1000);
		if (now <= switches)
			break;	/* the child is gone: the count below says so */
		switches = now;
		if (write(fds[1], "x", 1) != 1)
			break;
	}
	close(fds[1]);
	if (i == 50)
		waitpid(pid, &status, 0);
	c.tid = (uint32_t)pid;
	klog_drain(kc, on_cs_stack, &c);
	nttrace_consumer_close(kc);
	stop_session(KL);
	tap_ok(c.stacks >= 50,
	       "%d-bit: a StackWalk after each switch away from a child waiting 50 times (%u)",
	       BITS, c.stacks);
	tap_ok(c.kernel_and_user * 10 >= c.stacks * 9,
	       "%d-bit: ... the kernel's frames, then the program's (%u of %u)", BITS,
	       c.kernel_and_user, c.stacks);
	tap_eq(c.in_module, 0, "%d-bit: ... none of them nttrace's own (its probe's)", BITS);
}

/* In a section of its own: the stacks' outermost frame of ours. */
__attribute__((section("nt_main"))) int main(int argc, char **argv)
{
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return 0;
	}
	return harness_run(argc, argv);
}
