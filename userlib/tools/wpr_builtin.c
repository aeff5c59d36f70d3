// SPDX-License-Identifier: GPL-2.0
/*
 * `nttrace wpr`'s built-in profiles, written as a .wprp file and read by
 * the same code as the user's (wprp.c), so that a file's profile may name
 * them as its Base, as files written for WPR do (for example
 * Base="GeneralProfile.Verbose.Memory", with WPR's collector Ids
 * SystemCollector_WPRSystemCollectorInFile and
 * EventCollector_WPREventCollectorInFile).
 *
 * They are the built-in profiles of WPR that Linux can record, by WPR's
 * names and descriptions, each as Light and Verbose, File and Memory:
 * the kernel keywords of each, over a base of CpuConfig, Loader and
 * ProcessThread, and in Verbose the stacks. Keywords nttrace has no
 * events for are kept (so `wpr -start` lists them as not recorded, as it
 * would for a file asking for them). WPR's built-in profiles also enable
 * Windows' own event providers (DWM, RPC, the TCP/IP stack's), which a
 * Linux machine does not have: none is named here. So Network, whose
 * TCP/IP events come from the Microsoft-Windows-TCPIP provider on
 * Windows, takes them here from the kernel's NetworkTrace keyword. Heap,
 * Pool, Registry, Handle and the graphics and power profiles are left
 * out: Linux has nothing they record.
 *
 * Buffers: 20 of 1024 KB in file mode; in memory mode 5% of the
 * machine's memory, as WPR's own (the module's limits then fit it:
 * wpr.c).
 */
#include <string.h>

#include "wprp.h"

/* The system providers, Light without stacks, Verbose with them. */
#define SYSTEM_PROVIDER(ID, KEYWORDS, STACKS) \
	"<SystemProvider Id=\"SystemProvider_" ID "_Light\" Base=\"SystemProvider_Base\">" \
	"<Keywords Operation=\"Add\">" KEYWORDS "</Keywords></SystemProvider>\n" \
	"<SystemProvider Id=\"SystemProvider_" ID "\" Base=\"SystemProvider_" ID "_Light\">" \
	"<Stacks>" STACKS "</Stacks></SystemProvider>\n"

#define K(NAME) "<Keyword Value=\"" NAME "\"/>"
#define S(NAME) "<Stack Value=\"" NAME "\"/>"

/* A profile's File variant, and its Memory one over it with 5% of memory. */
#define VARIANT(NAME, DESC, DETAIL, PROVIDER, ATTRS) \
	"<Profile Id=\"" NAME "." DETAIL ".File\" Name=\"" NAME "\" Description=\"" DESC "\"" \
	" DetailLevel=\"" DETAIL "\" LoggingMode=\"File\"" ATTRS ">" \
	"<Collectors><SystemCollectorId Value=\"SystemCollector_WPRSystemCollectorInFile\">" \
	"<SystemProviderId Value=\"SystemProvider_" PROVIDER "\"/></SystemCollectorId>" \
	"</Collectors></Profile>\n" \
	"<Profile Id=\"" NAME "." DETAIL ".Memory\" Base=\"" NAME "." DETAIL ".File\"" \
	" Name=\"" NAME "\" Description=\"" DESC "\" DetailLevel=\"" DETAIL "\"" \
	" LoggingMode=\"Memory\"" ATTRS "><Collectors Operation=\"Add\">" \
	"<SystemCollectorId Value=\"SystemCollector_WPRSystemCollectorInFile\">" \
	"<Buffers Value=\"5\" PercentageOfTotalMemory=\"true\"/></SystemCollectorId>" \
	"</Collectors></Profile>\n"

#define PROFILE(NAME, DESC, PROVIDER, ATTRS) \
	VARIANT(NAME, DESC, "Verbose", PROVIDER, ATTRS) \
	VARIANT(NAME, DESC, "Light", PROVIDER "_Light", ATTRS)

#define GENERAL_KEYWORDS \
	K("CSwitch") K("DiskIO") K("DPC") K("HardFaults") K("Interrupt") K("MemoryInfo") \
	K("MemoryInfoWS") K("Power") K("ProcessCounter") K("ReadyThread") K("SampledProfile") \
	K("ThreadPriority") K("IdealProcessor")
#define GENERAL_STACKS \
	S("CSwitch") S("DiskFlushInit") S("DiskReadInit") S("DiskWriteInit") \
	S("SampledProfile") S("ReadyThread") S("ThreadDCEnd")

static const char builtin[] =
	"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
	"<WindowsPerformanceRecorder Version=\"1.0\" Tag=\"BuiltIn\"><Profiles>\n"
	"<SystemCollector Id=\"SystemCollector_WPRSystemCollectorInFile\""
	" Name=\"WPR System Collector\"><BufferSize Value=\"1024\"/><Buffers Value=\"20\"/>"
	"</SystemCollector>\n"
	"<EventCollector Id=\"EventCollector_WPREventCollectorInFile\""
	" Name=\"WPR Event Collector\"><BufferSize Value=\"1024\"/><Buffers Value=\"20\"/>"
	"</EventCollector>\n"
	"<SystemProvider Id=\"SystemProvider_Base\"><Keywords>"
	K("CpuConfig") K("Loader") K("ProcessThread") "</Keywords></SystemProvider>\n"
	SYSTEM_PROVIDER("General", GENERAL_KEYWORDS, S("ProcessCreate") GENERAL_STACKS)
	SYSTEM_PROVIDER("CPU",
			K("CSwitch") K("MemoryInfo") K("Power") K("ReadyThread")
			K("SampledProfile") K("ThreadPriority") K("IdealProcessor"),
			S("CSwitch") S("ReadyThread") S("SampledProfile"))
	SYSTEM_PROVIDER("DiskIO",
			K("DiskIO") K("DiskIOInit") K("HardFaults") K("ProcessCounter")
			K("SplitIO") K("ThreadPriority") K("IdealProcessor"),
			S("DiskFlushInit") S("DiskReadInit") S("DiskWriteInit"))
	SYSTEM_PROVIDER("FileIO",
			K("DiskIO") K("FileIO") K("FileIOInit") K("Filename") K("HardFaults")
			K("ProcessCounter") K("ThreadPriority") K("IdealProcessor"),
			S("FileCleanup") S("FileClose") S("FileCreate") S("FileDelete")
			S("FileDirEnum") S("FileDirNotify") S("FileFlush") S("FileFSCTL")
			S("FileOpEnd") S("FileQueryInformation") S("FileRead") S("FileRename")
			S("FileSetInformation") S("FileWrite") S("ThreadDCEnd"))
	SYSTEM_PROVIDER("Network", GENERAL_KEYWORDS K("NetworkTrace"), GENERAL_STACKS)
	SYSTEM_PROVIDER("VirtualAllocation",
			K("MemoryInfo") K("MemoryInfoWS") K("ThreadPriority") K("IdealProcessor")
			K("VirtualAllocation"),
			S("CSwitch") S("ProcessCreate") S("ThreadCreate") S("ThreadDCEnd")
			S("VirtualAllocation"))
	PROFILE("GeneralProfile", "First level triage", "General", " Default=\"true\"")
	PROFILE("CPU", "CPU usage", "CPU", "")
	PROFILE("DiskIO", "Disk I/O activity", "DiskIO", "")
	PROFILE("FileIO", "File I/O activity", "FileIO", "")
	PROFILE("Network", "Networking I/O activity", "Network", "")
	PROFILE("VirtualAllocation", "VirtualAlloc usage", "VirtualAllocation", "")
	"</Profiles></WindowsPerformanceRecorder>\n";

int wprp_load_builtin(struct wprp_doc *doc)
{
	if (wprp_xml_parse(builtin, sizeof(builtin) - 1, doc))
		return -1;
	doc->path = NULL;
	if (wprp_index(doc)) {
		wprp_doc_free(doc);
		return -1;
	}
	return 0;
}
