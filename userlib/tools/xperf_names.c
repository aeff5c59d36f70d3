// SPDX-License-Identifier: GPL-2.0
/*
 * xperf's kernel flag and group names (`xperf -providers KF`, `KG`, as
 * the Windows Performance Toolkit documents them), and the NT Kernel
 * Logger's EVENT_TRACE_FLAG_* bits nttrace records for each. A flag
 * xperf takes from the kernel's group mask, with no EVENT_TRACE_FLAG_*
 * bit (MEMINFO, POWER, POOL, ...), has none here: `nttrace xperf` lists
 * it as not recorded. CPU_CONFIG is the system configuration rundown,
 * which xperf writes unless told otherwise: nttrace's too.
 */
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "xperf.h"

#define F(x) NTTRACE_EVENT_TRACE_FLAG_##x

static const struct xperf_flag flags[] = {
	{ "PROC_THREAD", F(PROCESS) | F(THREAD), "Process and Thread create/delete" },
	{ "LOADER", F(IMAGE_LOAD), "Kernel and user mode Image Load/Unload events" },
	{ "PROFILE", F(PROFILE), "CPU Sample profile" },
	{ "CSWITCH", F(CSWITCH), "Context Switch" },
	{ "COMPACT_CSWITCH", 0, "Compact Context Switch" },
	{ "DISPATCHER", F(DISPATCHER), "CPU Scheduler" },
	{ "DPC", F(DPC), "DPC Events" },
	{ "INTERRUPT", F(INTERRUPT), "Interrupt events" },
	{ "SYSCALL", F(SYSTEMCALL), "System calls" },
	{ "PRIORITY", 0, "Priority change events" },
	{ "SPINLOCK", 0, "Spinlock Collisions" },
	{ "KQUEUE", 0, "Kernel Queue Enqueue/Dequeue" },
	{ "ALPC", F(ALPC), "Advanced Local Procedure Call" },
	{ "PERF_COUNTER", F(PROCESS_COUNTERS), "Process Perf Counters" },
	{ "DISK_IO", F(DISK_IO) | F(DISK_FILE_IO), "Disk I/O" },
	{ "DISK_IO_INIT", F(DISK_IO_INIT), "Disk I/O Initiation" },
	{ "FILE_IO", F(FILE_IO), "File system operation end times and results" },
	{ "FILE_IO_INIT", F(FILE_IO_INIT), "File system operation (create/open/close/read/write)" },
	{ "HARD_FAULTS", F(MEMORY_HARD_FAULTS), "Hard Page Faults" },
	{ "FILENAME", F(DISK_FILE_IO), "FileName (e.g., FileName create/delete/rundown)" },
	{ "SPLIT_IO", F(SPLIT_IO), "Split I/O" },
	{ "REGISTRY", F(REGISTRY), "Registry tracing" },
	{ "REG_HIVE", 0, "Registry hive tracing" },
	{ "DRIVERS", 0, "Driver events" },
	{ "POWER", 0, "Power management events" },
	{ "CC", 0, "Cache manager events" },
	{ "NETWORKTRACE", F(NETWORK_TCPIP), "Network events (e.g., tcp/udp send/receive)" },
	{ "VIRT_ALLOC", F(VIRTUAL_ALLOC), "Virtual allocation reserve and release" },
	{ "MEMINFO", 0, "Memory List Info" },
	{ "ALL_FAULTS", F(MEMORY_PAGE_FAULTS), "All page faults including hard, Copy on write, demand zero faults, etc." },
	{ "MEMINFO_WS", 0, "Working set Info" },
	{ "VAMAP", F(VAMAP), "MapFile info" },
	{ "FOOTPRINT", 0, "Support footprint analysis" },
	{ "MEMORY", 0, "Memory tracing" },
	{ "REFSET", 0, "Support footprint analysis" },
	{ "POOL", 0, "Pool tracing" },
	{ "CPU_CONFIG", 0, "NUMA topology, Processor Group and Processor Index to Number mapping" },
	{ "SESSION", 0, "Session rundown/create/delete events" },
	{ "IDLE_STATES", 0, "CPU Idle States" },
	{ "TIMER", 0, "Timer settings and its expiration" },
	{ "CLOCKINT", 0, "Clock Interrupt Events" },
	{ "IPI", 0, "Inter-processor Interrupt Events" },
	{ "OB_HANDLE", 0, "Object handle events" },
	{ "OB_OBJECT", 0, "Object events" },
	{ "PMC_PROFILE", 0, "PMC sampling events" },
	{ "DPC_QUEUE", 0, "DPC queue events" },
	{ "DEBUG_EVENTS", 0, "Debugger scheduling events" },
};
#define N_FLAGS (sizeof(flags) / sizeof(flags[0]))

static const struct {
	const char *name, *members;
} groups[] = {
	{ "Base", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+PROFILE+MEMINFO+MEMINFO_WS" },
	{ "Diag", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+DPC+INTERRUPT+CSWITCH+PERF_COUNTER+COMPACT_CSWITCH" },
	{ "DiagEasy", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+DPC+INTERRUPT+CSWITCH+PERF_COUNTER" },
	{ "Latency", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+DPC+INTERRUPT+CSWITCH+PROFILE" },
	{ "FileIO", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+FILE_IO+FILE_IO_INIT" },
	{ "IOTrace", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+CSWITCH" },
	{ "ResumeTrace", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+PROFILE+POWER" },
	{ "SysProf", "PROC_THREAD+LOADER+PROFILE" },
	{ "ResidentSet", "PROC_THREAD+LOADER+DISK_IO+HARD_FAULTS+MEMORY+MEMINFO+VAMAP+SESSION+VIRT_ALLOC" },
	{ "ReferenceSet", "PROC_THREAD+LOADER+HARD_FAULTS+MEMORY+FOOTPRINT+VIRT_ALLOC+MEMINFO+VAMAP+SESSION+REFSET+MEMINFO_WS" },
	{ "Network", "PROC_THREAD+LOADER+NETWORKTRACE" },
};
#define N_GROUPS (sizeof(groups) / sizeof(groups[0]))

static const struct xperf_flag *flag(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < N_FLAGS; i++)
		if (strlen(flags[i].name) == len && !strncasecmp(flags[i].name, name, len))
			return &flags[i];
	return NULL;
}

/* One name: a flag, or a group's flags; 0, or -1 when it is neither. */
static int one(const char *name, size_t len, uint32_t *bits, char *skipped, size_t room)
{
	const struct xperf_flag *f = flag(name, len);
	unsigned int i;

	if (f) {
		*bits |= f->bits;
		if (!f->bits && strcmp(f->name, "CPU_CONFIG") && !strstr(skipped, f->name)) {
			size_t n = strlen(skipped);

			snprintf(skipped + n, room - n, "%s%s", n ? ", " : "", f->name);
		}
		return 0;
	}
	for (i = 0; i < N_GROUPS; i++)
		if (strlen(groups[i].name) == len && !strncasecmp(groups[i].name, name, len)) {
			const char *m = groups[i].members;

			while (*m) {
				size_t k = strcspn(m, "+");

				one(m, k, bits, skipped, room);
				m += k + !!m[k];
			}
			return 0;
		}
	return -1;
}

int xperf_kernel_flags(const char *arg, uint32_t *bits, char *skipped, size_t room,
		       const char **bad, size_t *bad_len)
{
	const char *p = arg;

	*bits = 0;
	skipped[0] = 0;
	for (;;) {
		size_t len = strcspn(p, "+");

		if (!len || one(p, len, bits, skipped, room)) {
			*bad = p;
			*bad_len = len;
			return -1;
		}
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

void xperf_list_flags(FILE *f, int kernel_flags, int kernel_groups)
{
	unsigned int i;

	if (kernel_flags) {
		fprintf(f, "Kernel Flags:\n");
		for (i = 0; i < N_FLAGS; i++)
			fprintf(f, "       %-16s: %s%s\n", flags[i].name, flags[i].what,
				flags[i].bits || !strcmp(flags[i].name, "CPU_CONFIG") ?
				"" : " (not recorded on Linux)");
	}
	if (kernel_groups) {
		fprintf(f, "Kernel Groups:\n");
		for (i = 0; i < N_GROUPS; i++)
			fprintf(f, "       %-16s: %s\n", groups[i].name, groups[i].members);
	}
}
