// SPDX-License-Identifier: GPL-2.0
/*
 * WPR's names of the kernel's keywords and stacks (the SystemKeyword and
 * SystemStack enumerations of Microsoft's WPRControlProfiles schema, in
 * its order and case), and what nttrace records for each.
 *
 * No public source maps WPR's keyword names to the NT Kernel Logger's
 * EVENT_TRACE_FLAG_* bits; the table below pairs them by what each
 * records, as the Windows kernel's own group mask names them (ProcessThread
 * is PROC_THREAD, the PROCESS and THREAD flags; DiskIO is DISK_IO with
 * its file names, ...). A keyword with no flag here is one the Windows
 * kernel records from a group-mask bit that has no EVENT_TRACE_FLAG_* (
 * MemoryInfo, Power, Pool, ...), or one Linux has nothing like: `nttrace
 * wpr` lists those it skips.
 *
 * A stack is taken after one kernel event, by its HookId; WPR's stack
 * names are xperf's -stackwalk names (cli_stack_hook()) but for four.
 */
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "wprp.h"

static const struct {
	const char *name;
	uint32_t flags;
} keywords[] = {
	{ "AllFaults", NTTRACE_EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS },
	{ "Alpc", NTTRACE_EVENT_TRACE_FLAG_ALPC },
	{ "AntiStarvation", 0 }, { "CacheFlush", 0 }, { "CC", 0 }, { "ClockInterrupt", 0 },
	{ "ClusterOff", 0 }, { "CompactCSwitch", 0 }, { "ContiguousMemorygeneration", 0 },
	/* The system configuration rundown: NO_SYSCONFIG when it is left out (wpr.c). */
	{ "CpuConfig", 0 },
	{ "CSwitch", NTTRACE_EVENT_TRACE_FLAG_CSWITCH },
	{ "DiskIO", NTTRACE_EVENT_TRACE_FLAG_DISK_IO | NTTRACE_EVENT_TRACE_FLAG_DISK_FILE_IO },
	{ "DiskIOInit", NTTRACE_EVENT_TRACE_FLAG_DISK_IO_INIT },
	{ "DPC", NTTRACE_EVENT_TRACE_FLAG_DPC }, { "DPCQueue", 0 }, { "Drivers", 0 },
	{ "FileIO", NTTRACE_EVENT_TRACE_FLAG_FILE_IO },
	{ "FileIOInit", NTTRACE_EVENT_TRACE_FLAG_FILE_IO_INIT },
	{ "Filename", NTTRACE_EVENT_TRACE_FLAG_DISK_FILE_IO },
	{ "FilterIO", 0 }, { "FilterIOFailure", 0 }, { "FilterIOFastIO", 0 }, { "FilterIOInit", 0 },
	{ "FootPrint", 0 }, { "KeClock", 0 }, { "Handle", 0 },
	{ "HardFaults", NTTRACE_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS },
	{ "HvHypercalls", 0 }, { "IdealProcessor", 0 }, { "IdleStates", 0 },
	{ "InterProcessorInterrupt", 0 },
	{ "Interrupt", NTTRACE_EVENT_TRACE_FLAG_INTERRUPT },
	{ "KernelQueue", 0 },
	{ "Loader", NTTRACE_EVENT_TRACE_FLAG_IMAGE_LOAD },
	{ "Memory", 0 }, { "NonTradeableMemory", 0 }, { "MemoryInfo", 0 }, { "MemoryInfoWS", 0 },
	{ "NetworkTrace", NTTRACE_EVENT_TRACE_FLAG_NETWORK_TCPIP },
	{ "Object", 0 }, { "OpticalIO", 0 }, { "OpticalIOInit", 0 }, { "Pool", 0 }, { "Power", 0 },
	{ "PmcProfile", 0 },
	{ "ProcessCounter", NTTRACE_EVENT_TRACE_FLAG_PROCESS_COUNTERS },
	{ "ProcessFreeze", 0 },
	{ "ProcessThread", NTTRACE_EVENT_TRACE_FLAG_PROCESS | NTTRACE_EVENT_TRACE_FLAG_THREAD },
	{ "ReadyThread", NTTRACE_EVENT_TRACE_FLAG_DISPATCHER },
	{ "ReferenceSet", 0 },
	{ "Registry", NTTRACE_EVENT_TRACE_FLAG_REGISTRY },
	{ "RegistryHive", 0 },
	{ "SampledProfile", NTTRACE_EVENT_TRACE_FLAG_PROFILE },
	{ "Session", 0 }, { "SpinLock", 0 },
	{ "SplitIO", NTTRACE_EVENT_TRACE_FLAG_SPLIT_IO },
	{ "SynchronizationObjects", 0 },
	{ "SystemCall", NTTRACE_EVENT_TRACE_FLAG_SYSTEMCALL },
	{ "ThreadPriority", 0 }, { "Timer", 0 },
	{ "VAMap", NTTRACE_EVENT_TRACE_FLAG_VAMAP },
	{ "VirtualAllocation", NTTRACE_EVENT_TRACE_FLAG_VIRTUAL_ALLOC },
	{ "WakeCounter", 0 }, { "WakeDrop", 0 }, { "WakeEvent", 0 }, { "WDFDPC", 0 },
	{ "WDFInterrupt", 0 }, { "HiberRundown", 0 },
};
#define N_KEYWORDS (sizeof(keywords) / sizeof(keywords[0]))
_Static_assert(N_KEYWORDS <= WPRP_KEYWORD_WORDS * 64, "keyword bit set too small");

static const char *const stacks[] = {
	"AlpcClosePort", "AlpcConnectFail", "AlpcConnectRequest", "AlpcConnectSuccess",
	"AlpcReceiveMessage", "AlpcSendMessage", "AlpcUnwait", "AlpcWaitForNewMessage",
	"AlpcWaitForReply", "CcCanIWriteFail", "CcFlushCache", "CcFlushSection",
	"CcLazyWriteScan", "CcReadAhead", "CcWorkitemComplete", "CcWorkitemDequeue",
	"CcWorkitemEnqueue", "CcWriteBehind", "ContiguousMemoryGeneration", "CacheFlush",
	"CSwitch", "DiskFlushInit", "DiskReadInit", "DiskWriteInit", "DpcEnqueue", "DpcExecute",
	"ExecutiveResource", "FileCleanup", "FileClose", "FileCreate", "FileDelete",
	"FileDirEnum", "FileDirNotify", "FileFlush", "FileFSCTL", "FileOpEnd",
	"FileQueryInformation", "FileRead", "FileRename", "FileSetInformation", "FileWrite",
	"HandleCreate", "HandleClose", "HandleDuplicate", "HardFault", "HeapAllocation",
	"HeapCreate", "HeapDestroy", "HeapFree", "HeapRangeCreate", "HeapRangeDestroy",
	"HeapRangeRelease", "HeapRangeReserve", "HeapReallocation", "ImageLoad", "ImageUnload",
	"InterProcessorInterrupt", "KernelHypercalls", "KernelQueueEnqueue",
	"KernelQueueDequeue", "MapFile", "Mark", "MiniFilterPreOpInit", "MiniFilterPostOpInit",
	"ObjectCreate", "ObjectDelete", "ObjectReference", "ObjectDeReference", "PageAccess",
	"PageAccessEx", "PagefaultAV", "PagefaultCopyOnWrite", "PagefaultDemandZero",
	"PagefaultGuard", "PagefaultHard", "PagefaultTransition", "PagefileBackedImageMapping",
	"PagefileMappedSectionCreate", "PagefileMappedSectionDelete", "PageRangeAccess",
	"PageRangeRelease", "PageRelease", "PageRemovedfromWorkingSet", "PmcInterrupt",
	"PoolAllocation", "PoolAllocationSession", "PoolFree", "PoolFreeSession",
	"PowerDeviceNotify", "PowerDeviceNotifyComplete", "PowerIdleStateChange",
	"PowerPerfStateChange", "PowerPostSleep", "PowerPreSleep", "PowerSessionCallout",
	"PowerSessionCalloutReturn", "PowerSetDevicesState", "PowerSetDevicesStateReturn",
	"PowerSetPowerAction", "PowerSetPowerActionReturn", "PowerThermalConstraint",
	"PopSetUserPresent", "ProcessCreate", "ProcessDelete", "ProcessFreeze", "ProcessResume",
	"SampledProfile", "SampledProfileSetInterval", "ReadyThread", "RegistryCloseKey",
	"RegistryCreateKey", "RegistryDeleteKey", "RegistryDeleteValue", "RegistryEnumerateKey",
	"RegistryEnumerateValueKey", "RegistryFlush", "RegistryKcbCreate", "RegistryKcbDelete",
	"RegistryOpenKey", "RegistryQueryKey", "RegistryQueryMultipleValue",
	"RegistryQuerySecurity", "RegistryQueryValue", "RegistrySetInformation",
	"RegistrySetSecurity", "RegistrySetValue", "RegistryVirtualize", "RegHiveInit",
	"RegHiveDestroy", "RegHiveLink", "RegHiveDirty", "SplitIO", "SystemCallEnter",
	"SystemCallExit", "ThreadCreate", "ThreadDCEnd", "ThreadDCStart", "ThreadDelete",
	"ThreadPoolCallbackCancel", "ThreadPoolCallbackDequeue", "ThreadPoolCallbackEnqueue",
	"ThreadPoolCallbackStart", "ThreadPoolCallbackStop", "ThreadPoolCancelNtTimer",
	"ThreadPoolClose", "ThreadPoolCreate", "ThreadPoolSetMaxThreads",
	"ThreadPoolSetMinThreads", "ThreadPoolSetNtTimer", "ThreadPoolTimerSet",
	"ThreadPoolTimerCancelled", "ThreadPoolTimerExpirationBegin",
	"ThreadPoolTimerExpirationEnd", "ThreadPoolTimerExpiration", "ThreadSetBasePriority",
	"ThreadSetIdealProcessor", "ThreadSetPriority", "ThreadSetUserIdealProcessor",
	"TimerPeriodic", "TimerOneShot", "UnMapFile", "VirtualAllocation", "VirtualFree",
	"WakeChargeUser", "WakeChargeExecution", "WakeChargeKernel", "WakeChargeInstrumentation",
	"WakeReleaseUser", "WakeReleaseExecution", "WakeReleaseKernel",
	"WakeReleaseInstrumentation", "WakeDropUser", "WakeDropExecution", "WakeDropKernel",
	"WakeDropInstrumentation", "WakeEventUser", "WakeEventExecution", "WakeEventKernel",
	"WakeEventInstrumentation",
};
#define N_STACKS (sizeof(stacks) / sizeof(stacks[0]))
_Static_assert(N_STACKS <= WPRP_STACK_WORDS * 64, "stack bit set too small");

/* WPR's stack names that are not xperf's for the same event. */
static const struct {
	const char *wpr, *xperf;
} stack_aliases[] = {
	{ "SampledProfile", "Profile" },
	{ "SystemCallEnter", "SyscallEnter" },
	{ "SystemCallExit", "SyscallExit" },
	{ "VirtualAllocation", "VirtualAlloc" },
};

/*
 * The schema's enumerations are case-sensitive; profiles written by hand
 * are not always, and a name in another case means nothing else, so case
 * is not held against them.
 */
int wpr_keyword_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < N_KEYWORDS; i++)
		if (!strcasecmp(name, keywords[i].name))
			return (int)i;
	return -1;
}

int wpr_stack_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < N_STACKS; i++)
		if (!strcasecmp(name, stacks[i]))
			return (int)i;
	return -1;
}

const char *wpr_keyword_name(unsigned int i)
{
	return i < N_KEYWORDS ? keywords[i].name : NULL;
}

const char *wpr_stack_name(unsigned int i)
{
	return i < N_STACKS ? stacks[i] : NULL;
}

uint32_t wpr_keyword_flags(unsigned int i)
{
	return i < N_KEYWORDS ? keywords[i].flags : 0;
}

uint16_t wpr_stack_hook(unsigned int i)
{
	const char *name;
	uint16_t hook;
	unsigned int k;

	if (i >= N_STACKS)
		return 0;
	name = stacks[i];
	for (k = 0; k < sizeof(stack_aliases) / sizeof(stack_aliases[0]); k++)
		if (!strcmp(name, stack_aliases[k].wpr))
			name = stack_aliases[k].xperf;
	return cli_stack_hook(name, &hook) ? 0 : hook;
}
