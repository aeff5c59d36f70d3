// SPDX-License-Identifier: LGPL-2.1
/*
 * The payloads of the kernel's own events (SYSTEM_TRACE_HEADER, compact and
 * PERFINFO_TRACE_HEADER records: the NT Kernel Logger's), by HookId and
 * version: one table (event name, MOF class, fields) and a decoder that
 * walks a payload by it (<nttrace/etl.h>), for `nttrace dump` and for a
 * TDH to come.
 *
 * Where each layout comes from, in the comments of the table:
 *
 * [MS page]  Microsoft's ETW reference, the "MOF class" page of that name
 *            (learn.microsoft.com/windows/win32/etw/<page>; its source is
 *            the MicrosoftDocs/win32 repository, desktop-src/ETW/): the
 *            properties in WmiDataId order, their types, and the Pointer,
 *            Extension("SizeT"/"Sid"/"IPAddrV4"/"IPAddrV6"/"Port"/
 *            "WmiTime"), Format and Max qualifiers, with the EventType and
 *            EventTypeName lists and the parent class's EventVersion.
 *            What the qualifiers mean: "Event Tracing MOF Qualifiers".
 * [MOF]      The kernel's MOF for classes the pages leave out, as PerfView
 *            keeps a copy of it (microsoft/perfview,
 *            src/TraceEvent/Parsers/kerneltraceeventparser.mof).
 * [PerfView] The offsets PerfView's readers use (microsoft/perfview,
 *            src/TraceEvent/Parsers/KernelTraceEventParser.cs), for
 *            versions no page describes.
 * [ntwmi]    phnt's ntwmi.h (winsiderss/systeminformer), HookId names.
 * [files]    Checked against files Windows wrote: the payload sizes of
 *            every event of the class, and the values beside PerfView's
 *            decoding of the same files.
 *
 * A later version of a class adds fields at its end (Process 5 adds 8
 * bytes to version 4, Thread 3 on Windows 10 a name, SystemConfig CPU 3
 * 20 bytes: [files]), so nttrace_kernel_class() falls back to the newest
 * version below the event's and the fields it does not know are left
 * after the last one. Where a version changed the layout before its end,
 * the table has that version, or an entry without fields that stops the
 * fall-back.
 *
 * Format("x") is followed for flags and masks; identifiers (process,
 * thread) stay decimal, as the event header's are shown.
 */
#include <stddef.h>
#include <string.h>

#include <nttrace/etl.h>

#define U8(n)		{ n, NTTRACE_KT_U8, 0, 0 }
#define I8(n)		{ n, NTTRACE_KT_I8, 0, 0 }
#define X8(n)		{ n, NTTRACE_KT_X8, 0, 0 }
#define U16(n)		{ n, NTTRACE_KT_U16, 0, 0 }
#define I16(n)		{ n, NTTRACE_KT_I16, 0, 0 }
#define X16(n)		{ n, NTTRACE_KT_X16, 0, 0 }
#define U32(n)		{ n, NTTRACE_KT_U32, 0, 0 }
#define I32(n)		{ n, NTTRACE_KT_I32, 0, 0 }
#define X32(n)		{ n, NTTRACE_KT_X32, 0, 0 }
#define U64(n)		{ n, NTTRACE_KT_U64, 0, 0 }
#define I64(n)		{ n, NTTRACE_KT_I64, 0, 0 }
#define X64(n)		{ n, NTTRACE_KT_X64, 0, 0 }
#define PTR(n)		{ n, NTTRACE_KT_POINTER, 0, 0 }
#define SIZET(n)	{ n, NTTRACE_KT_SIZET, 0, 0 }
#define SID(n)		{ n, NTTRACE_KT_SID, 0, 0 }
#define STR(n)		{ n, NTTRACE_KT_STRING, 0, 0 }
#define WSTR(n)		{ n, NTTRACE_KT_WSTRING, 0, 0 }
#define WCHARS(n, c)	{ n, NTTRACE_KT_WCHARS, 0, c }
#define BYTES(n, c)	{ n, NTTRACE_KT_BYTES, 0, c }
#define GUIDF(n)	{ n, NTTRACE_KT_GUID, 0, 0 }
#define IPV4(n)		{ n, NTTRACE_KT_IPV4, 0, 0 }
#define IPV6(n)		{ n, NTTRACE_KT_IPV6, 0, 0 }
#define PORT(n)		{ n, NTTRACE_KT_PORT, 0, 0 }
#define WMITIME(n)	{ n, NTTRACE_KT_WMITIME, 0, 0 }
#define PTRS(n)		{ n, NTTRACE_KT_POINTERS, 0, 0 }
/* A last field an earlier release of the same version leaves out. */
#define WSTR_OPT(n)	{ n, NTTRACE_KT_WSTRING, NTTRACE_KF_OPTIONAL, 0 }

/* ---- EventTrace (group 0x00) ---- */

/* [MS eventtrace-header], EventType 0; the names that follow it are not
 * properties. TimeZoneInformation is Max(176): 172 bytes and the 4 that
 * align BootTime (the offsets <nttrace/etl.h> gives for both pointer sizes).
 */
static const struct nttrace_kernel_field eventtrace_header[] = {
	U32("BufferSize"), U32("Version"), U32("ProviderVersion"),
	U32("NumberOfProcessors"), U64("EndTime"), U32("TimerResolution"),
	U32("MaxFileSize"), X32("LogFileMode"), U32("BuffersWritten"),
	U32("StartBuffers"), U32("PointerSize"), U32("EventsLost"), U32("CPUSpeed"),
	PTR("LoggerName"), PTR("LogFileName"), BYTES("TimeZoneInformation", 176),
	U64("BootTime"), U64("PerfFreq"), U64("StartTime"), U32("ReservedFlags"),
	U32("BuffersLost"),
};

/* [MOF] Header_Extension_TypeGroup, EventType{5, 32}: 36 bytes [files]. */
static const struct nttrace_kernel_field header_extension[] = {
	X32("GroupMask1"), X32("GroupMask2"), X32("GroupMask3"), X32("GroupMask4"),
	X32("GroupMask5"), X32("GroupMask6"), X32("GroupMask7"), X32("GroupMask8"),
	U32("KernelEventVersion"),
};

/* [MOF] RDComplete, EventType 8: no properties (0 bytes [files]). */
static const struct nttrace_kernel_field no_fields[1];

/* ---- DiskIo (group 0x01) ---- */

/*
 * [MS diskio-typegroup1]: the page's syntax has IssuingThreadId, which
 * its remarks say Windows 7 and earlier lack; the files carry version 3
 * with it (52 bytes at 8-byte pointers [files]). Version 2 is the page's
 * layout for Windows Vista (Reserved named ResponseTime there); that it
 * is version 2 is ours, the page gives releases, not versions.
 */
static const struct nttrace_kernel_field diskio_v2[] = {
	U32("DiskNumber"), X32("IrpFlags"), U32("TransferSize"), U32("Reserved"),
	I64("ByteOffset"), PTR("FileObject"), PTR("Irp"), U64("HighResResponseTime"),
};

static const struct nttrace_kernel_field diskio_v3[] = {
	U32("DiskNumber"), X32("IrpFlags"), U32("TransferSize"), U32("Reserved"),
	I64("ByteOffset"), PTR("FileObject"), PTR("Irp"), U64("HighResResponseTime"),
	U32("IssuingThreadId"),
};

/* [MS diskio-typegroup2], ReadInit, WriteInit, FlushInit. */
static const struct nttrace_kernel_field diskio_init_v2[] = {
	PTR("Irp"),
};

static const struct nttrace_kernel_field diskio_init_v3[] = {
	PTR("Irp"), U32("IssuingThreadId"),
};

/* [MS diskio-typegroup3], FlushBuffers. */
static const struct nttrace_kernel_field diskio_flush_v2[] = {
	U32("DiskNumber"), X32("IrpFlags"), U64("HighResResponseTime"), PTR("Irp"),
};

static const struct nttrace_kernel_field diskio_flush_v3[] = {
	U32("DiskNumber"), X32("IrpFlags"), U64("HighResResponseTime"), PTR("Irp"),
	U32("IssuingThreadId"),
};

/* ---- PageFault (group 0x02), PageFault_V2: EventVersion(2) ---- */

/* [MS pagefault-typegroup1] */
static const struct nttrace_kernel_field pagefault[] = {
	PTR("VirtualAddress"), PTR("ProgramCounter"),
};

/* [MS pagefault-hardfault] */
static const struct nttrace_kernel_field hardfault[] = {
	WMITIME("InitialTime"), X64("ReadOffset"), PTR("VirtualAddress"), PTR("FileObject"),
	U32("TThreadId"), U32("ByteCount"),
};

/* [MS pagefault-imageloadbacked] */
static const struct nttrace_kernel_field imageloadbacked[] = {
	PTR("FileObject"), X32("DeviceChar"), X16("FileChar"), X16("LoadFlags"),
};

/* [MS pagefault-virtualalloc] */
static const struct nttrace_kernel_field virtualalloc[] = {
	PTR("BaseAddress"), SIZET("RegionSize"), U32("ProcessId"), X32("Flags"),
};

/* ---- Process (group 0x03) ---- */

/* [MS process-v2-typegroup1], Process_V2: EventVersion(2). */
static const struct nttrace_kernel_field process_v2[] = {
	PTR("UniqueProcessKey"), U32("ProcessId"), U32("ParentId"), U32("SessionId"),
	I32("ExitStatus"), SID("UserSID"), STR("ImageFileName"), WSTR("CommandLine"),
};

/* [MS process-typegroup1], Process: EventVersion(3). */
static const struct nttrace_kernel_field process_v3[] = {
	PTR("UniqueProcessKey"), U32("ProcessId"), U32("ParentId"), U32("SessionId"),
	I32("ExitStatus"), PTR("DirectoryTableBase"), SID("UserSID"), STR("ImageFileName"),
	WSTR("CommandLine"),
};

/*
 * Process_V4_TypeGroup1, which no page shows: version 3 with Flags after
 * DirectoryTableBase and two strings at the end, as the WDK's wmicore.mof
 * has the class (PerfView reads Flags there, and the SID after it) and
 * as the files' sizes add up [files].
 */
static const struct nttrace_kernel_field process_v4[] = {
	PTR("UniqueProcessKey"), U32("ProcessId"), U32("ParentId"), U32("SessionId"),
	I32("ExitStatus"), PTR("DirectoryTableBase"), X32("Flags"), SID("UserSID"),
	STR("ImageFileName"), WSTR("CommandLine"), WSTR("PackageFullName"),
	WSTR("ApplicationId"),
};

/* [MS process-v2-typegroup2], PerfCtr and PerfCtrRundown. */
static const struct nttrace_kernel_field process_perfctr[] = {
	U32("ProcessId"), U32("PageFaultCount"), U32("HandleCount"), U32("Reserved"),
	SIZET("PeakVirtualSize"), SIZET("PeakWorkingSetSize"), SIZET("PeakPagefileUsage"),
	SIZET("QuotaPeakPagedPoolUsage"), SIZET("QuotaPeakNonPagedPoolUsage"),
	SIZET("VirtualSize"), SIZET("WorkingSetSize"), SIZET("PagefileUsage"),
	SIZET("QuotaPagedPoolUsage"), SIZET("QuotaNonPagedPoolUsage"),
	SIZET("PrivatePageCount"),
};

/* ---- FileIo (group 0x04), FileIo: EventVersion(2) ---- */

/* [MS fileio-name], Name, FileCreate, FileDelete, FileRundown. */
static const struct nttrace_kernel_field fileio_name[] = {
	PTR("FileObject"), WSTR("FileName"),
};

/* [MS fileio-create] (TTID has the Pointer qualifier: pointer-sized). */
static const struct nttrace_kernel_field fileio_create[] = {
	PTR("IrpPtr"), PTR("TTID"), PTR("FileObject"), X32("CreateOptions"),
	X32("FileAttributes"), X32("ShareAccess"), WSTR("OpenPath"),
};

/* [MS fileio-simpleop], Cleanup, Close, Flush. */
static const struct nttrace_kernel_field fileio_simpleop[] = {
	PTR("IrpPtr"), PTR("TTID"), PTR("FileObject"), PTR("FileKey"),
};

/* [MS fileio-readwrite] */
static const struct nttrace_kernel_field fileio_readwrite[] = {
	U64("Offset"), PTR("IrpPtr"), PTR("TTID"), PTR("FileObject"), PTR("FileKey"),
	U32("IoSize"), X32("IoFlags"),
};

/* [MS fileio-info], SetInfo, Delete, Rename, QueryInfo, FSControl. */
static const struct nttrace_kernel_field fileio_info[] = {
	PTR("IrpPtr"), PTR("TTID"), PTR("FileObject"), PTR("FileKey"), PTR("ExtraInfo"),
	U32("InfoClass"),
};

/*
 * [MS fileio-direnum], DirEnum, DirNotify. The page gives InfoClass the
 * Pointer qualifier too, but PerfView reads it as 4 bytes, with Length
 * and FileIndex beside it, and the name after them: taken as 4.
 */
static const struct nttrace_kernel_field fileio_direnum[] = {
	PTR("IrpPtr"), PTR("TTID"), PTR("FileObject"), PTR("FileKey"), U32("Length"),
	U32("InfoClass"), U32("FileIndex"), WSTR("FileName"),
};

/* [MS fileio-opend] */
static const struct nttrace_kernel_field fileio_opend[] = {
	PTR("IrpPtr"), PTR("ExtraInfo"), X32("NtStatus"),
};

/*
 * Version 3, which no page shows, moved TTID: a 32-bit thread ID after the
 * pointers, FileObject right after IrpPtr ([PerfView]: the offsets its
 * FileIO readers use from version 3 on; no file of ours has them).
 * Name and OperationEnd kept version 2's layout.
 */
static const struct nttrace_kernel_field fileio_create_v3[] = {
	PTR("IrpPtr"), PTR("FileObject"), U32("TTID"), X32("CreateOptions"),
	X32("FileAttributes"), X32("ShareAccess"), WSTR("OpenPath"),
};

static const struct nttrace_kernel_field fileio_simpleop_v3[] = {
	PTR("IrpPtr"), PTR("FileObject"), PTR("FileKey"), U32("TTID"),
};

static const struct nttrace_kernel_field fileio_readwrite_v3[] = {
	U64("Offset"), PTR("IrpPtr"), PTR("FileObject"), PTR("FileKey"), U32("TTID"),
	U32("IoSize"), X32("IoFlags"),
};

static const struct nttrace_kernel_field fileio_info_v3[] = {
	PTR("IrpPtr"), PTR("FileObject"), PTR("FileKey"), PTR("ExtraInfo"), U32("TTID"),
	U32("InfoClass"),
};

static const struct nttrace_kernel_field fileio_direnum_v3[] = {
	PTR("IrpPtr"), PTR("FileObject"), PTR("FileKey"), U32("TTID"), U32("Length"),
	U32("InfoClass"), U32("FileIndex"), WSTR("FileName"),
};

/* ---- Thread (group 0x05) ---- */

/* [MS thread-v2-typegroup1], Thread_V2: EventVersion(2). */
static const struct nttrace_kernel_field thread_v2[] = {
	U32("ProcessId"), U32("TThreadId"), PTR("StackBase"), PTR("StackLimit"),
	PTR("UserStackBase"), PTR("UserStackLimit"), PTR("StartAddr"), PTR("Win32StartAddr"),
	PTR("TebBase"), U32("SubProcessTag"),
};

/*
 * [MS thread-typegroup1], Thread: EventVersion(3). ThreadName, which the
 * page does not show, ends the Windows 10 file's events and not the
 * Windows 8 files' [files]: PerfView reads it as a UTF-16 string after
 * ThreadFlags when the payload is long enough for one [PerfView]; so
 * does nttrace's own writer (common/sysrec.h). Optional: both forms are
 * version 3.
 */
static const struct nttrace_kernel_field thread_v3[] = {
	U32("ProcessId"), U32("TThreadId"), PTR("StackBase"), PTR("StackLimit"),
	PTR("UserStackBase"), PTR("UserStackLimit"), PTR("Affinity"), PTR("Win32StartAddr"),
	PTR("TebBase"), U32("SubProcessTag"), U8("BasePriority"), U8("PagePriority"),
	U8("IoPriority"), U8("ThreadFlags"), WSTR_OPT("ThreadName"),
};

/* [MS cswitch], a Thread_V2 class: 24 bytes, and later versions no fewer [PerfView]. */
static const struct nttrace_kernel_field cswitch[] = {
	U32("NewThreadId"), U32("OldThreadId"), I8("NewThreadPriority"),
	I8("OldThreadPriority"), U8("PreviousCState"), I8("SpareByte"),
	I8("OldThreadWaitReason"), I8("OldThreadWaitMode"), I8("OldThreadState"),
	I8("OldThreadWaitIdealProcessor"), U32("NewThreadWaitTime"), U32("Reserved"),
};

/* [MS readythread], a Thread_V2 class. */
static const struct nttrace_kernel_field readythread[] = {
	U32("TThreadId"), I8("AdjustReason"), I8("AdjustIncrement"), I8("Flag"),
	I8("Reserved"),
};

/* ---- TcpIp (group 0x06) and UdpIp (0x08): EventVersion(2) ---- */

/* [MS tcpip-sendipv4] */
static const struct nttrace_kernel_field tcp_send4[] = {
	U32("PID"), U32("size"), IPV4("daddr"), IPV4("saddr"), PORT("dport"), PORT("sport"),
	U32("startime"), U32("endtime"), U32("seqnum"), PTR("connid"),
};

/* [MS tcpip-typegroup1]; UdpIp_TypeGroup1 [MS udpip-typegroup1] is the same. */
static const struct nttrace_kernel_field tcp_group1[] = {
	U32("PID"), U32("size"), IPV4("daddr"), IPV4("saddr"), PORT("dport"), PORT("sport"),
	U32("seqnum"), PTR("connid"),
};

/* [MS tcpip-typegroup2], ConnectIPV4, AcceptIPV4. */
static const struct nttrace_kernel_field tcp_group2[] = {
	U32("PID"), U32("size"), IPV4("daddr"), IPV4("saddr"), PORT("dport"), PORT("sport"),
	U16("mss"), U16("sackopt"), U16("tsopt"), U16("wsopt"), U32("rcvwin"),
	I16("rcvwinscale"), I16("sndwinscale"), U32("seqnum"), PTR("connid"),
};

/* [MS tcpip-fail]; UdpIp_Fail [MS udpip-fail] is the same. */
static const struct nttrace_kernel_field ip_fail[] = {
	U16("Proto"), U16("FailureCode"),
};

/* [MS tcpip-sendipv6] */
static const struct nttrace_kernel_field tcp_send6[] = {
	U32("PID"), U32("size"), IPV6("daddr"), IPV6("saddr"), PORT("dport"), PORT("sport"),
	U32("startime"), U32("endtime"), U32("seqnum"), PTR("connid"),
};

/* [MS tcpip-typegroup3]; UdpIp_TypeGroup2 [MS udpip-typegroup2] is the same. */
static const struct nttrace_kernel_field tcp_group3[] = {
	U32("PID"), U32("size"), IPV6("daddr"), IPV6("saddr"), PORT("dport"), PORT("sport"),
	U32("seqnum"), PTR("connid"),
};

/* [MS tcpip-typegroup4], ConnectIPV6, AcceptIPV6. */
static const struct nttrace_kernel_field tcp_group4[] = {
	U32("PID"), U32("size"), IPV6("daddr"), IPV6("saddr"), PORT("dport"), PORT("sport"),
	U16("mss"), U16("sackopt"), U16("tsopt"), U16("wsopt"), U32("rcvwin"),
	I16("rcvwinscale"), I16("sndwinscale"), U32("seqnum"), PTR("connid"),
};

/* ---- SystemConfig (group 0x0B), SystemConfig: EventVersion(2) ---- */

/*
 * [MS systemconfig-cpu]. The page gives DomainName Max(132); PerfView
 * reads 134 characters from version 2 on and HyperThreadingFlag at 800,
 * as the alignment of a 64-bit pointer also puts it: taken as 134.
 */
static const struct nttrace_kernel_field config_cpu[] = {
	U32("MHz"), U32("NumberOfProcessors"), U32("MemSize"), U32("PageSize"),
	U32("AllocationGranularity"), WCHARS("ComputerName", 256), WCHARS("DomainName", 134),
	PTR("HyperThreadingFlag"),
};

/* [MS systemconfig-phydisk]: 568 bytes [files]. */
static const struct nttrace_kernel_field config_phydisk[] = {
	U32("DiskNumber"), U32("BytesPerSector"), U32("SectorsPerTrack"),
	U32("TracksPerCylinder"), U64("Cylinders"), U32("SCSIPort"), U32("SCSIPath"),
	U32("SCSITarget"), U32("SCSILun"), WCHARS("Manufacturer", 256), U32("PartitionCount"),
	U8("WriteCacheEnabled"), U8("Pad"), WCHARS("BootDriveLetter", 3), WCHARS("Spare", 2),
};

/* [MS systemconfig-logdisk]: 112 bytes [files]. */
static const struct nttrace_kernel_field config_logdisk[] = {
	U64("StartOffset"), U64("PartitionSize"), U32("DiskNumber"), U32("Size"),
	U32("DriveType"), WCHARS("DriveLetterString", 4), U32("Pad1"), U32("PartitionNumber"),
	U32("SectorsPerCluster"), U32("BytesPerSector"), U32("Pad2"),
	I64("NumberOfFreeClusters"), I64("TotalNumberOfClusters"), WCHARS("FileSystem", 16),
	U32("VolumeExt"), U32("Pad3"),
};

/* [MS systemconfig-nic] */
static const struct nttrace_kernel_field config_nic[] = {
	X64("PhysicalAddr"), U32("PhysicalAddrLen"), U32("Ipv4Index"), U32("Ipv6Index"),
	WSTR("NICDescription"), WSTR("IpAddresses"), WSTR("DnsServerAddresses"),
};

/* [MS systemconfig-video] */
static const struct nttrace_kernel_field config_video[] = {
	U32("MemorySize"), U32("XResolution"), U32("YResolution"), U32("BitsPerPixel"),
	U32("VRefresh"), WCHARS("ChipType", 256), WCHARS("DACType", 256),
	WCHARS("AdapterString", 256), WCHARS("BiosString", 256), WCHARS("DeviceId", 256),
	X32("StateFlags"),
};

/* [MS systemconfig-services] */
static const struct nttrace_kernel_field config_services[] = {
	U32("ProcessId"), X32("ServiceState"), U32("SubProcessTag"), WSTR("ServiceName"),
	WSTR("DisplayName"), WSTR("ProcessName"),
};

/* [MS systemconfig-power] */
static const struct nttrace_kernel_field config_power[] = {
	U8("s1"), U8("s2"), U8("s3"), U8("s4"), U8("s5"), U8("Pad1"), U8("Pad2"), U8("Pad3"),
};

/* [MS systemconfig-network] */
static const struct nttrace_kernel_field config_network[] = {
	U32("TcbTablePartitions"), U32("MaxHashTableSize"), U32("MaxUserPort"),
	U32("TcpTimedWaitDelay"),
};

/*
 * [MS systemconfig-irq]. From version 3 on PerfView reads the length and
 * the description 4 bytes further on: something was put before them that
 * no source names, so version 3 has no layout here.
 */
static const struct nttrace_kernel_field config_irq[] = {
	X64("IRQAffinity"), U32("IRQNum"), U32("DeviceDescriptionLen"),
	WSTR("DeviceDescription"),
};

/* [MS systemconfig-pnp]; PerfView reads versions up to 3 so too. */
static const struct nttrace_kernel_field config_pnp[] = {
	U32("IDLength"), U32("DescriptionLength"), U32("FriendlyNameLength"),
	WSTR("DeviceID"), WSTR("DeviceDescription"), WSTR("FriendlyName"),
};

/*
 * Versions 4 and 5 begin with the device class GUID and counts of filter
 * names, then the strings, two more of them, then the filter names (left
 * undecoded: their counts are not lengths here) [PerfView, after ntwmi.h's
 * WMI_PNP_RECORD_V4 and _V5; version 4 checked against the files].
 */
static const struct nttrace_kernel_field config_pnp_v4[] = {
	GUIDF("ClassGuid"), U32("UpperFilterCount"), U32("LowerFilterCount"),
	WSTR("DeviceID"), WSTR("DeviceDescription"), WSTR("FriendlyName"), WSTR("PdoName"),
	WSTR("ServiceName"),
};

static const struct nttrace_kernel_field config_pnp_v5[] = {
	GUIDF("ClassGuid"), U32("UpperFilterCount"), U32("LowerFilterCount"),
	U32("DevStatus"), U32("DevProblem"), WSTR("DeviceID"), WSTR("DeviceDescription"),
	WSTR("FriendlyName"), WSTR("PdoName"), WSTR("ServiceName"),
};

/* [MS systemconfig-idechannel] */
static const struct nttrace_kernel_field config_idechannel[] = {
	U32("TargetId"), X32("DeviceType"), X32("DeviceTimingMode"),
	U32("LocationInformationLen"), WSTR("LocationInformation"),
};

/* ---- PerfInfo (group 0x0F), PerfInfo: EventVersion(2) ---- */

/*
 * [MS sampledprofile], whose 32-bit Count the Windows-written files split
 * in two: a 16-bit count of samples, then 16 bits whose low byte PerfView
 * reads as flags (bit 0 a DPC, bit 1 an ISR, bits 3-7 the priority).
 */
static const struct nttrace_kernel_field sampledprofile[] = {
	PTR("InstructionPointer"), U32("ThreadId"), U16("Count"), X16("Reserved"),
};

/* [MOF] SampledProfileInterval, SetInterval, CollectionStart, CollectionEnd. */
static const struct nttrace_kernel_field profile_interval[] = {
	U32("Source"), U32("NewInterval"), U32("OldInterval"),
};

/*
 * Version 3, as the Windows-written files have CollectionStart and
 * CollectionEnd: the same, then the source's name ("Timer").
 */
static const struct nttrace_kernel_field profile_interval_v3[] = {
	U32("Source"), U32("NewInterval"), U32("OldInterval"), WSTR("SourceName"),
};

/*
 * The mark (HookId 0x0F22, type 34, version 0): the UTF-16 text
 * EtwSetMark was given, NUL-terminated (common/sysrec.h,
 * ntr_sr_mark_write()). No MOF class describes it; PerfView decodes it as a string event of the
 * PerfInfo task named Mark [PerfView: PerfInfoMark, opcode 34]. The class
 * name here is ours.
 */
static const struct nttrace_kernel_field perfinfo_mark[] = {
	WSTR("Mark"),
};

/* [MS syscallenter] */
static const struct nttrace_kernel_field syscallenter[] = {
	PTR("SysCallAddress"),
};

/* [MS syscallexit] */
static const struct nttrace_kernel_field syscallexit[] = {
	X32("SysCallNtStatus"),
};

/* [MS dpc], ThreadDPC, DPC, TimerDPC. */
static const struct nttrace_kernel_field dpc[] = {
	WMITIME("InitialTime"), PTR("Routine"),
};

/* [MS isr]; Reserved is a uint16 (the page's Pointer qualifier on it aside). */
static const struct nttrace_kernel_field isr[] = {
	WMITIME("InitialTime"), PTR("Routine"), U8("ReturnValue"), U8("Vector"),
	U16("Reserved"),
};

/* ---- ImageLoad (group 0x14), Image: EventVersion(2) ---- */

/* [MS image-load]; ImageSize is a size_t, says the page. */
static const struct nttrace_kernel_field image_load[] = {
	PTR("ImageBase"), SIZET("ImageSize"), U32("ProcessId"), U32("ImageCheckSum"),
	U32("TimeDateStamp"), U32("Reserved0"), PTR("DefaultBase"), U32("Reserved1"),
	U32("Reserved2"), U32("Reserved3"), U32("Reserved4"), WSTR("FileName"),
};

/* ---- StackWalk (group 0x18) ---- */

/*
 * [MS stackwalk-event]: Stack1 to Stack192, as many as the event's size
 * holds.
 */
static const struct nttrace_kernel_field stackwalk[] = {
	U64("EventTimeStamp"), U32("StackProcess"), U32("StackThread"), PTRS("Stack"),
};

/* ---- the table ---- */

enum {
	G_EVENTTRACE = 0x00,
	G_DISKIO = 0x01,
	G_PAGEFAULT = 0x02,
	G_PROCESS = 0x03,
	G_FILEIO = 0x04,
	G_THREAD = 0x05,
	G_TCPIP = 0x06,
	G_UDPIP = 0x08,
	G_CONFIG = 0x0B,
	G_PERFINFO = 0x0F,
	G_IMAGE = 0x14,
	G_STACKWALK = 0x18,
};

#define K(g, op, ver, event, cls, f) \
	{ (g) << 8 | (op), ver, event, cls, f, sizeof(f) / sizeof((f)[0]) }
/* Known, but not this version's layout: stops the fall-back to an older one. */
#define UNKNOWN(g, op, ver, event, cls) { (g) << 8 | (op), ver, event, cls, NULL, 0 }

static const struct nttrace_kernel_class classes[] = {
	K(G_EVENTTRACE, 0, 2, "EventTrace/Header", "EventTrace_Header", eventtrace_header),
	K(G_EVENTTRACE, 5, 2, "EventTrace/Extension", "Header_Extension_TypeGroup",
	  header_extension),
	{ G_EVENTTRACE << 8 | 8, 2, "EventTrace/RDComplete", "RDComplete", no_fields, 0 },
	K(G_EVENTTRACE, 32, 2, "EventTrace/EndExtension", "Header_Extension_TypeGroup",
	  header_extension),

	K(G_DISKIO, 10, 2, "DiskIo/Read", "DiskIo_TypeGroup1", diskio_v2),
	K(G_DISKIO, 11, 2, "DiskIo/Write", "DiskIo_TypeGroup1", diskio_v2),
	K(G_DISKIO, 12, 2, "DiskIo/ReadInit", "DiskIo_TypeGroup2", diskio_init_v2),
	K(G_DISKIO, 13, 2, "DiskIo/WriteInit", "DiskIo_TypeGroup2", diskio_init_v2),
	K(G_DISKIO, 14, 2, "DiskIo/FlushBuffers", "DiskIo_TypeGroup3", diskio_flush_v2),
	K(G_DISKIO, 15, 2, "DiskIo/FlushInit", "DiskIo_TypeGroup2", diskio_init_v2),
	K(G_DISKIO, 10, 3, "DiskIo/Read", "DiskIo_TypeGroup1", diskio_v3),
	K(G_DISKIO, 11, 3, "DiskIo/Write", "DiskIo_TypeGroup1", diskio_v3),
	K(G_DISKIO, 12, 3, "DiskIo/ReadInit", "DiskIo_TypeGroup2", diskio_init_v3),
	K(G_DISKIO, 13, 3, "DiskIo/WriteInit", "DiskIo_TypeGroup2", diskio_init_v3),
	K(G_DISKIO, 14, 3, "DiskIo/FlushBuffers", "DiskIo_TypeGroup3", diskio_flush_v3),
	K(G_DISKIO, 15, 3, "DiskIo/FlushInit", "DiskIo_TypeGroup2", diskio_init_v3),

	K(G_PAGEFAULT, 10, 2, "PageFault/TransitionFault", "PageFault_TypeGroup1", pagefault),
	K(G_PAGEFAULT, 11, 2, "PageFault/DemandZeroFault", "PageFault_TypeGroup1", pagefault),
	K(G_PAGEFAULT, 12, 2, "PageFault/CopyOnWrite", "PageFault_TypeGroup1", pagefault),
	K(G_PAGEFAULT, 13, 2, "PageFault/GuardPageFault", "PageFault_TypeGroup1", pagefault),
	K(G_PAGEFAULT, 14, 2, "PageFault/HardPageFault", "PageFault_TypeGroup1", pagefault),
	K(G_PAGEFAULT, 15, 2, "PageFault/AccessViolation", "PageFault_TypeGroup1", pagefault),
	K(G_PAGEFAULT, 32, 2, "PageFault/HardFault", "PageFault_HardFault", hardfault),
	K(G_PAGEFAULT, 98, 2, "PageFault/VirtualAlloc", "PageFault_VirtualAlloc",
	  virtualalloc),
	K(G_PAGEFAULT, 99, 2, "PageFault/VirtualFree", "PageFault_VirtualAlloc", virtualalloc),
	K(G_PAGEFAULT, 105, 2, "PageFault/ImageLoadBacked", "PageFault_ImageLoadBacked",
	  imageloadbacked),

	K(G_PROCESS, 1, 2, "Process/Start", "Process_V2_TypeGroup1", process_v2),
	K(G_PROCESS, 2, 2, "Process/End", "Process_V2_TypeGroup1", process_v2),
	K(G_PROCESS, 3, 2, "Process/DCStart", "Process_V2_TypeGroup1", process_v2),
	K(G_PROCESS, 4, 2, "Process/DCEnd", "Process_V2_TypeGroup1", process_v2),
	K(G_PROCESS, 39, 2, "Process/Defunct", "Process_V2_TypeGroup1", process_v2),
	K(G_PROCESS, 1, 3, "Process/Start", "Process_TypeGroup1", process_v3),
	K(G_PROCESS, 2, 3, "Process/End", "Process_TypeGroup1", process_v3),
	K(G_PROCESS, 3, 3, "Process/DCStart", "Process_TypeGroup1", process_v3),
	K(G_PROCESS, 4, 3, "Process/DCEnd", "Process_TypeGroup1", process_v3),
	K(G_PROCESS, 39, 3, "Process/Defunct", "Process_TypeGroup1", process_v3),
	K(G_PROCESS, 1, 4, "Process/Start", "Process_V4_TypeGroup1", process_v4),
	K(G_PROCESS, 2, 4, "Process/End", "Process_V4_TypeGroup1", process_v4),
	K(G_PROCESS, 3, 4, "Process/DCStart", "Process_V4_TypeGroup1", process_v4),
	K(G_PROCESS, 4, 4, "Process/DCEnd", "Process_V4_TypeGroup1", process_v4),
	K(G_PROCESS, 39, 4, "Process/Defunct", "Process_V4_TypeGroup1", process_v4),
	/*
	 * An image load under the Process group's HookId (0x030A: [ntwmi]
	 * WMI_LOG_TYPE_PROCESS_LOAD_IMAGE, a WMI_IMAGELOAD_INFORMATION), laid
	 * out as Image_Load [files: versions 2 and 3].
	 */
	K(G_PROCESS, 10, 2, "Process/LoadImage", "Image_Load", image_load),
	K(G_PROCESS, 32, 2, "Process/PerfCtr", "Process_V2_TypeGroup2", process_perfctr),
	K(G_PROCESS, 33, 2, "Process/PerfCtrRundown", "Process_V2_TypeGroup2",
	  process_perfctr),

	K(G_FILEIO, 0, 2, "FileIo/Name", "FileIo_Name", fileio_name),
	K(G_FILEIO, 32, 2, "FileIo/FileCreate", "FileIo_Name", fileio_name),
	K(G_FILEIO, 35, 2, "FileIo/FileDelete", "FileIo_Name", fileio_name),
	K(G_FILEIO, 36, 2, "FileIo/FileRundown", "FileIo_Name", fileio_name),
	K(G_FILEIO, 64, 2, "FileIo/Create", "FileIo_Create", fileio_create),
	K(G_FILEIO, 65, 2, "FileIo/Cleanup", "FileIo_SimpleOp", fileio_simpleop),
	K(G_FILEIO, 66, 2, "FileIo/Close", "FileIo_SimpleOp", fileio_simpleop),
	K(G_FILEIO, 67, 2, "FileIo/Read", "FileIo_ReadWrite", fileio_readwrite),
	K(G_FILEIO, 68, 2, "FileIo/Write", "FileIo_ReadWrite", fileio_readwrite),
	K(G_FILEIO, 69, 2, "FileIo/SetInfo", "FileIo_Info", fileio_info),
	K(G_FILEIO, 70, 2, "FileIo/Delete", "FileIo_Info", fileio_info),
	K(G_FILEIO, 71, 2, "FileIo/Rename", "FileIo_Info", fileio_info),
	K(G_FILEIO, 72, 2, "FileIo/DirEnum", "FileIo_DirEnum", fileio_direnum),
	K(G_FILEIO, 73, 2, "FileIo/Flush", "FileIo_SimpleOp", fileio_simpleop),
	K(G_FILEIO, 74, 2, "FileIo/QueryInfo", "FileIo_Info", fileio_info),
	K(G_FILEIO, 75, 2, "FileIo/FSControl", "FileIo_Info", fileio_info),
	K(G_FILEIO, 76, 2, "FileIo/OperationEnd", "FileIo_OpEnd", fileio_opend),
	K(G_FILEIO, 77, 2, "FileIo/DirNotify", "FileIo_DirEnum", fileio_direnum),
	K(G_FILEIO, 64, 3, "FileIo/Create", "FileIo_Create", fileio_create_v3),
	K(G_FILEIO, 65, 3, "FileIo/Cleanup", "FileIo_SimpleOp", fileio_simpleop_v3),
	K(G_FILEIO, 66, 3, "FileIo/Close", "FileIo_SimpleOp", fileio_simpleop_v3),
	K(G_FILEIO, 67, 3, "FileIo/Read", "FileIo_ReadWrite", fileio_readwrite_v3),
	K(G_FILEIO, 68, 3, "FileIo/Write", "FileIo_ReadWrite", fileio_readwrite_v3),
	K(G_FILEIO, 69, 3, "FileIo/SetInfo", "FileIo_Info", fileio_info_v3),
	K(G_FILEIO, 70, 3, "FileIo/Delete", "FileIo_Info", fileio_info_v3),
	K(G_FILEIO, 71, 3, "FileIo/Rename", "FileIo_Info", fileio_info_v3),
	K(G_FILEIO, 72, 3, "FileIo/DirEnum", "FileIo_DirEnum", fileio_direnum_v3),
	K(G_FILEIO, 73, 3, "FileIo/Flush", "FileIo_SimpleOp", fileio_simpleop_v3),
	K(G_FILEIO, 74, 3, "FileIo/QueryInfo", "FileIo_Info", fileio_info_v3),
	K(G_FILEIO, 75, 3, "FileIo/FSControl", "FileIo_Info", fileio_info_v3),
	K(G_FILEIO, 77, 3, "FileIo/DirNotify", "FileIo_DirEnum", fileio_direnum_v3),

	K(G_THREAD, 1, 2, "Thread/Start", "Thread_V2_TypeGroup1", thread_v2),
	K(G_THREAD, 2, 2, "Thread/End", "Thread_V2_TypeGroup1", thread_v2),
	K(G_THREAD, 3, 2, "Thread/DCStart", "Thread_V2_TypeGroup1", thread_v2),
	K(G_THREAD, 4, 2, "Thread/DCEnd", "Thread_V2_TypeGroup1", thread_v2),
	K(G_THREAD, 36, 2, "Thread/CSwitch", "CSwitch", cswitch),
	K(G_THREAD, 50, 2, "Thread/ReadyThread", "ReadyThread", readythread),
	K(G_THREAD, 1, 3, "Thread/Start", "Thread_TypeGroup1", thread_v3),
	K(G_THREAD, 2, 3, "Thread/End", "Thread_TypeGroup1", thread_v3),
	K(G_THREAD, 3, 3, "Thread/DCStart", "Thread_TypeGroup1", thread_v3),
	K(G_THREAD, 4, 3, "Thread/DCEnd", "Thread_TypeGroup1", thread_v3),

	K(G_TCPIP, 10, 2, "TcpIp/SendIPV4", "TcpIp_SendIPV4", tcp_send4),
	K(G_TCPIP, 11, 2, "TcpIp/RecvIPV4", "TcpIp_TypeGroup1", tcp_group1),
	K(G_TCPIP, 12, 2, "TcpIp/ConnectIPV4", "TcpIp_TypeGroup2", tcp_group2),
	K(G_TCPIP, 13, 2, "TcpIp/DisconnectIPV4", "TcpIp_TypeGroup1", tcp_group1),
	K(G_TCPIP, 14, 2, "TcpIp/RetransmitIPV4", "TcpIp_TypeGroup1", tcp_group1),
	K(G_TCPIP, 15, 2, "TcpIp/AcceptIPV4", "TcpIp_TypeGroup2", tcp_group2),
	K(G_TCPIP, 16, 2, "TcpIp/ReconnectIPV4", "TcpIp_TypeGroup1", tcp_group1),
	K(G_TCPIP, 17, 2, "TcpIp/Fail", "TcpIp_Fail", ip_fail),
	K(G_TCPIP, 18, 2, "TcpIp/TCPCopyIPV4", "TcpIp_TypeGroup1", tcp_group1),
	K(G_TCPIP, 26, 2, "TcpIp/SendIPV6", "TcpIp_SendIPV6", tcp_send6),
	K(G_TCPIP, 27, 2, "TcpIp/RecvIPV6", "TcpIp_TypeGroup3", tcp_group3),
	K(G_TCPIP, 28, 2, "TcpIp/ConnectIPV6", "TcpIp_TypeGroup4", tcp_group4),
	K(G_TCPIP, 29, 2, "TcpIp/DisconnectIPV6", "TcpIp_TypeGroup3", tcp_group3),
	K(G_TCPIP, 30, 2, "TcpIp/RetransmitIPV6", "TcpIp_TypeGroup3", tcp_group3),
	K(G_TCPIP, 31, 2, "TcpIp/AcceptIPV6", "TcpIp_TypeGroup4", tcp_group4),
	K(G_TCPIP, 32, 2, "TcpIp/ReconnectIPV6", "TcpIp_TypeGroup3", tcp_group3),
	K(G_TCPIP, 34, 2, "TcpIp/TCPCopyIPV6", "TcpIp_TypeGroup3", tcp_group3),

	K(G_UDPIP, 10, 2, "UdpIp/SendIPV4", "UdpIp_TypeGroup1", tcp_group1),
	K(G_UDPIP, 11, 2, "UdpIp/RecvIPV4", "UdpIp_TypeGroup1", tcp_group1),
	K(G_UDPIP, 17, 2, "UdpIp/Fail", "UdpIp_Fail", ip_fail),
	K(G_UDPIP, 26, 2, "UdpIp/SendIPV6", "UdpIp_TypeGroup2", tcp_group3),
	K(G_UDPIP, 27, 2, "UdpIp/RecvIPV6", "UdpIp_TypeGroup2", tcp_group3),

	K(G_CONFIG, 10, 2, "SystemConfig/CPU", "SystemConfig_CPU", config_cpu),
	K(G_CONFIG, 11, 2, "SystemConfig/PhyDisk", "SystemConfig_PhyDisk", config_phydisk),
	K(G_CONFIG, 12, 2, "SystemConfig/LogDisk", "SystemConfig_LogDisk", config_logdisk),
	K(G_CONFIG, 13, 2, "SystemConfig/NIC", "SystemConfig_NIC", config_nic),
	K(G_CONFIG, 14, 2, "SystemConfig/Video", "SystemConfig_Video", config_video),
	K(G_CONFIG, 15, 2, "SystemConfig/Services", "SystemConfig_Services", config_services),
	K(G_CONFIG, 16, 2, "SystemConfig/Power", "SystemConfig_Power", config_power),
	K(G_CONFIG, 17, 2, "SystemConfig/Network", "SystemConfig_Network", config_network),
	K(G_CONFIG, 21, 2, "SystemConfig/IRQ", "SystemConfig_IRQ", config_irq),
	UNKNOWN(G_CONFIG, 21, 3, "SystemConfig/IRQ", "SystemConfig_IRQ"),
	K(G_CONFIG, 22, 2, "SystemConfig/PnP", "SystemConfig_PnP", config_pnp),
	K(G_CONFIG, 22, 4, "SystemConfig/PnP", "SystemConfig_PnP", config_pnp_v4),
	K(G_CONFIG, 22, 5, "SystemConfig/PnP", "SystemConfig_PnP", config_pnp_v5),
	K(G_CONFIG, 23, 2, "SystemConfig/IDEChannel", "SystemConfig_IDEChannel",
	  config_idechannel),

	K(G_PERFINFO, 46, 2, "PerfInfo/SampleProfile", "SampledProfile", sampledprofile),
	K(G_PERFINFO, 34, 0, "PerfInfo/Mark", "PerfInfo_Mark", perfinfo_mark),
	K(G_PERFINFO, 51, 2, "PerfInfo/SysClEnter", "SysCallEnter", syscallenter),
	K(G_PERFINFO, 52, 2, "PerfInfo/SysClExit", "SysCallExit", syscallexit),
	K(G_PERFINFO, 66, 2, "PerfInfo/ThreadDPC", "DPC", dpc),
	K(G_PERFINFO, 67, 2, "PerfInfo/ISR", "ISR", isr),
	K(G_PERFINFO, 68, 2, "PerfInfo/DPC", "DPC", dpc),
	K(G_PERFINFO, 69, 2, "PerfInfo/TimerDPC", "DPC", dpc),
	K(G_PERFINFO, 72, 2, "PerfInfo/SetInterval", "SampledProfileInterval",
	  profile_interval),
	K(G_PERFINFO, 73, 2, "PerfInfo/CollectionStart", "SampledProfileInterval",
	  profile_interval),
	K(G_PERFINFO, 74, 2, "PerfInfo/CollectionEnd", "SampledProfileInterval",
	  profile_interval),
	K(G_PERFINFO, 72, 3, "PerfInfo/SetInterval", "SampledProfileInterval",
	  profile_interval_v3),
	K(G_PERFINFO, 73, 3, "PerfInfo/CollectionStart", "SampledProfileInterval",
	  profile_interval_v3),
	K(G_PERFINFO, 74, 3, "PerfInfo/CollectionEnd", "SampledProfileInterval",
	  profile_interval_v3),

	K(G_IMAGE, 2, 2, "Image/Unload", "Image_Load", image_load),
	K(G_IMAGE, 3, 2, "Image/DCStart", "Image_Load", image_load),
	K(G_IMAGE, 4, 2, "Image/DCEnd", "Image_Load", image_load),
	K(G_IMAGE, 10, 2, "Image/Load", "Image_Load", image_load),

	/* The files' stacks are version 2; the page gives no version. */
	K(G_STACKWALK, 32, 2, "StackWalk/Stack", "StackWalk_Event", stackwalk),
};

const struct nttrace_kernel_class *nttrace_kernel_class(uint16_t hook_id, uint8_t version)
{
	const struct nttrace_kernel_class *best = NULL;
	size_t i;

	/*
	 * The exact version, else the newest below it (a linear scan: about
	 * 150 entries, and a dump prints each event it looks up anyway).
	 */
	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		const struct nttrace_kernel_class *c = &classes[i];

		if (c->hook_id != hook_id || c->version > version)
			continue;
		if (c->version == version)
			return c;
		if (!best || c->version > best->version)
			best = c;
	}
	return best;
}

const struct nttrace_kernel_class *nttrace_kernel_class_by_guid(const void *guid,
								uint8_t opcode,
								uint8_t version)
{
	const struct nttrace_kernel_group *g;
	unsigned int group;

	/* The groups are numbered from 0 with no gap (kernel_events.c). */
	for (group = 0; group < 256 && (g = nttrace_kernel_group(group << 8)); group++)
		if (!memcmp(&g->guid, guid, 16))
			return nttrace_kernel_class(group << 8 | opcode, version);
	return NULL;
}

/* ---- the decoder ---- */

static uint64_t get_le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* The size of a field of fixed size; 0 for the others. */
static uint32_t fixed_size(const struct nttrace_kernel_field *f, unsigned int psz)
{
	switch (f->type) {
	case NTTRACE_KT_U8:
	case NTTRACE_KT_I8:
	case NTTRACE_KT_X8:
		return 1;
	case NTTRACE_KT_U16:
	case NTTRACE_KT_I16:
	case NTTRACE_KT_X16:
	case NTTRACE_KT_PORT:
		return 2;
	case NTTRACE_KT_U32:
	case NTTRACE_KT_I32:
	case NTTRACE_KT_X32:
	case NTTRACE_KT_IPV4:
		return 4;
	case NTTRACE_KT_U64:
	case NTTRACE_KT_I64:
	case NTTRACE_KT_X64:
	case NTTRACE_KT_WMITIME:
		return 8;
	case NTTRACE_KT_POINTER:
	case NTTRACE_KT_SIZET:
		return psz;
	case NTTRACE_KT_GUID:
	case NTTRACE_KT_IPV6:
		return 16;
	case NTTRACE_KT_WCHARS:
		return 2 * (uint32_t)f->count;
	case NTTRACE_KT_BYTES:
		return f->count;
	}
	return 0;
}

void nttrace_kernel_decode_init(struct nttrace_kernel_decoder *d,
				const struct nttrace_kernel_class *cls,
				const void *data, uint32_t len, unsigned int pointer_size)
{
	static const uint8_t none[1];

	d->cls = cls;
	/* Never arithmetic on a null pointer, even adding 0. */
	d->data = data ? data : none;
	d->len = data ? len : 0;
	d->at = 0;
	d->pointer_size = pointer_size == 4 ? 4 : 8;
	d->next = 0;
	d->cut = 0;
}

/*
 * The size of the variable-sized field @f at @p, @rest bytes left, with
 * its text in @v; 0 if it does not fit (no terminator before the end, a
 * SID longer than what is left).
 */
static uint32_t variable_size(const struct nttrace_kernel_decoder *d,
			      const struct nttrace_kernel_field *f, const uint8_t *p,
			      uint32_t rest, struct nttrace_kernel_value *v)
{
	const uint8_t *nul;
	uint32_t i, token, sid;

	switch (f->type) {
	case NTTRACE_KT_STRING:
		nul = memchr(p, 0, rest);
		if (!nul)
			return 0;
		v->text = p;
		v->text_size = nul - p;
		return v->text_size + 1;
	case NTTRACE_KT_WSTRING:
		for (i = 0; i + 1 < rest; i += 2) {
			if (!p[i] && !p[i + 1]) {
				v->text = p;
				v->text_size = i;
				return i + 2;
			}
		}
		return 0;
	case NTTRACE_KT_SID:
		if (rest < 4)
			return 0;
		/*
		 * A zero ULONG: no SID, and the field is that ULONG alone
		 * (the page does not say its size then; PerfView takes 4
		 * bytes, and so do we).
		 */
		if (!get_le(p, 4))
			return 4;
		token = 2 * d->pointer_size;
		if (rest < token + 8)
			return 0;
		sid = 8 + 4 * (uint32_t)p[token + 1];	/* SubAuthorityCount */
		if (rest - token < sid)
			return 0;
		v->text = p + token;
		v->text_size = sid;
		return token + sid;
	case NTTRACE_KT_POINTERS:
		v->u = rest / d->pointer_size;
		/* None is an empty array, not a field cut short. */
		return rest - rest % d->pointer_size;
	}
	return 0;
}

int nttrace_kernel_decode_next(struct nttrace_kernel_decoder *d, struct nttrace_kernel_value *v)
{
	const struct nttrace_kernel_field *f;
	const uint8_t *p;
	uint32_t rest, size, i;

	if (d->cut || !d->cls || !d->cls->fields || d->next >= d->cls->nr_fields)
		return 0;
	f = &d->cls->fields[d->next];
	p = d->data + d->at;
	rest = d->len - d->at;
	/* An optional last field left out: the payload ends before it. */
	if (!rest && f->flags & NTTRACE_KF_OPTIONAL)
		return 0;
	memset(v, 0, sizeof(*v));
	v->field = f;
	v->offset = d->at;
	v->data = p;
	size = fixed_size(f, d->pointer_size);
	if (size) {
		if (size > rest) {
			d->cut = 1;
			return 0;
		}
	} else {
		size = variable_size(d, f, p, rest, v);
		if (!size && f->type != NTTRACE_KT_POINTERS) {
			d->cut = 1;
			return 0;
		}
	}
	v->size = size;
	switch (f->type) {
	case NTTRACE_KT_I8:
		v->u = (uint64_t)(int64_t)(int8_t)p[0];
		break;
	case NTTRACE_KT_I16:
		v->u = (uint64_t)(int64_t)(int16_t)get_le(p, 2);
		break;
	case NTTRACE_KT_I32:
		v->u = (uint64_t)(int64_t)(int32_t)get_le(p, 4);
		break;
	case NTTRACE_KT_PORT:
		/* Network byte order: [files], beside PerfView's byte swap. */
		v->u = (uint64_t)p[0] << 8 | p[1];
		break;
	case NTTRACE_KT_WCHARS:
		/* The characters up to the first NUL, or all of them. */
		for (i = 0; i < size && (p[i] || p[i + 1]); i += 2)
			;
		v->text = p;
		v->text_size = i;
		break;
	case NTTRACE_KT_BYTES:
	case NTTRACE_KT_GUID:
	case NTTRACE_KT_IPV6:
	case NTTRACE_KT_SID:
	case NTTRACE_KT_STRING:
	case NTTRACE_KT_WSTRING:
	case NTTRACE_KT_POINTERS:
		break;
	default:
		/* The integers, pointers, sizes, IPv4 and times: 1 to 8 bytes. */
		v->u = get_le(p, size);
		break;
	}
	d->at += size;
	d->next++;
	return 1;
}
