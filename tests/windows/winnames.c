// SPDX-License-Identifier: MIT
/*
 * The Windows an ETW program uses around ETW, in the idiom of Microsoft's
 * samples and of mc.exe's headers, built unchanged for Windows (mingw-w64)
 * and for Linux with nttrace-windows.pc, as C and as C++, with a second
 * translation unit (winnames_guid.c):
 *   - a provider's GUID, descriptor and handle defined in both units as
 *     mc.exe writes them (EXTERN_C __declspec(selectany)): one of each;
 *   - LPCBYTE, and ULONG_MAX and MAXDWORD against a 32-bit ULONG, as TDH
 *     code compares them;
 *   - a TcpIp event's addresses and ports printed as a consumer prints
 *     them (<winsock2.h>, <ws2tcpip.h>, <mstcpip.h>: InetNtopW,
 *     RtlIpv4/RtlIpv6AddressToStringW(Ex), inet_ntoa, ntohs), the text
 *     checked;
 *   - well-known SIDs (CreateWellKnownSid) printed as text;
 *   - EVENT_TRACE_FLAG_DRIVER, EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING and
 *     the EVENT_TRACE_INFORMATION_CLASS values, and what nttrace answers
 *     through NtQuerySystemInformation / NtSetSystemInformation
 *     (SystemPerformanceTraceInformation) where it has nothing to give.
 *
 *   winnames          those checks: they need no module
 *   winnames module   and, against nttrace's module, as root: the profile
 *                     interval and sources, a system logger's group mask
 *                     and events with stacks, through the same calls, and
 *                     StartTrace refusing the flag and the mode
 * Exits 0 when every check holds.
 */
#include <winsock2.h>
#include <ws2tcpip.h>
#include <mstcpip.h>
#include <windows.h>
#include <limits.h>
#include <stdio.h>
#include <wmistr.h>
#include <evntrace.h>
#include <ntwmi.h>
#include <sddl.h>

#include "winnames.h"

#ifdef __cplusplus
#define STATIC_CHECK(e, what)	static_assert(e, what)
#define REF(guid)		(guid)
#else
#define STATIC_CHECK(e, what)	_Static_assert(e, what)
#define REF(guid)		(&(guid))
#endif

/* Windows' values, as the SDK's headers (mingw-w64's) and nttrace's have them. */
STATIC_CHECK(AF_INET == 2 && AF_INET6 == 23, "Windows' address families");
STATIC_CHECK(INET_ADDRSTRLEN == 22 && INET6_ADDRSTRLEN == 65, "Windows' text lengths");
STATIC_CHECK(sizeof(IN_ADDR) == 4 && sizeof(IN6_ADDR) == 16 && sizeof(SOCKADDR_IN) == 16 &&
	     sizeof(SOCKADDR_IN6) == 28, "Windows' address layouts");
STATIC_CHECK(sizeof(ULONG) == 4 && ULONG_MAX == 0xFFFFFFFF && LONG_MAX == 0x7FFFFFFF &&
	     MAXDWORD == ULONG_MAX, "LLP64's long limits");
STATIC_CHECK(EVENT_TRACE_FLAG_DRIVER == 0x00800000 &&
	     EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING == 0x10000000, "evntrace.h's values");
STATIC_CHECK(EventTraceKernelVersionInformation == 0 && EventTraceGroupMaskInformation == 1 &&
	     EventTracePerformanceInformation == 2 && EventTraceTimeProfileInformation == 3 &&
	     EventTraceSessionSecurityInformation == 4 && EventTraceSpinlockInformation == 5 &&
	     EventTraceStackTracingInformation == 6 &&
	     EventTraceExecutiveResourceInformation == 7 &&
	     EventTraceHeapTracingInformation == 8 &&
	     EventTraceHeapSummaryTracingInformation == 9 &&
	     EventTracePoolTagFilterInformation == 10 && EventTracePebsTracingInformation == 11 &&
	     EventTraceProfileConfigInformation == 12 &&
	     EventTraceProfileSourceListInformation == 13 &&
	     EventTraceProfileEventListInformation == 14 &&
	     EventTraceProfileCounterListInformation == 15 &&
	     EventTraceStackCachingInformation == 16 &&
	     EventTraceObjectTypeFilterInformation == 17, "EVENT_TRACE_INFORMATION_CLASS");
STATIC_CHECK(sizeof(EVENT_TRACE_GROUPMASK_INFORMATION) == 48 &&
	     sizeof(EVENT_TRACE_TIME_PROFILE_INFORMATION) == 8 &&
	     FIELD_OFFSET(EVENT_TRACE_STACK_TRACING_INFORMATION, HookId) == 16 &&
	     FIELD_OFFSET(EVENT_TRACE_PROFILE_LIST_INFORMATION, Profile) == 8,
	     "the classes' structures");

static int g_Failed;

static void Check(BOOL ok, _In_z_ const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	if (!ok)
		g_Failed++;
}

/* mc.exe's definitions in both units: one object each. */
static void CheckSelectAny(void)
{
	LPCBYTE bytes = (LPCBYTE)&WinNamesProvider;

	Check(WinNamesProviderThere() == &WinNamesProvider &&
	      IsEqualGUID(REF(*WinNamesProviderThere()), REF(WinNamesProvider)),
	      "selectany: one GUID for both units");
	Check(WinNamesEventThere() == &WinNamesEvent && WinNamesEvent.Level == 4,
	      "selectany: one EVENT_DESCRIPTOR for both units");
	*WinNamesHandleThere() = (REGHANDLE)42;
	Check(WinNamesHandle == (REGHANDLE)42, "selectany: one REGHANDLE for both units");
	Check(bytes[0] == 0x52 && bytes[3] == 0x5f && bytes[15] == 0x05,
	      "LPCBYTE reads the GUID's bytes");
}

/* A 32-bit ULONG against ULONG_MAX, as TDH code compares them. */
static void CheckLimits(void)
{
	ULONG index = (ULONG)-1;
	DWORD none = 0;
	LONG most = 0x7FFFFFFF;

	none--;
	Check(index == ULONG_MAX && none == MAXDWORD && none == ULONG_MAX,
	      "ULONG_MAX and MAXDWORD: a ULONG's and a DWORD's largest value");
	Check(most == LONG_MAX && (LONG)(most + 1U) == LONG_MIN, "LONG_MAX and LONG_MIN: a LONG's");
}

/* The start of a TcpIp event's payload (TcpIp_TypeGroup1: IPv4 send, receive, ...). */
typedef struct _TCPIP_V4_PAYLOAD {
	ULONG PID;
	ULONG size;
	ULONG daddr;		/* network order */
	ULONG saddr;
	USHORT dport;		/* network order */
	USHORT sport;
} TCPIP_V4_PAYLOAD;

/* The addresses and ports of an event, printed as a consumer prints them. */
static void CheckAddresses(void)
{
	static const BYTE v4[4] = { 192, 0, 2, 1 };
	static const BYTE v6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
				     0, 0, 0xff, 0x00, 0x00, 0x42, 0x83, 0x29 };
	TCPIP_V4_PAYLOAD event;
	IN_ADDR daddr;
	IN6_ADDR addr6;
	SOCKADDR_IN6 sin6;
	WCHAR text[INET6_ADDRSTRLEN];
	PWSTR end;
	ULONG length;
	LONG status;

	ZeroMemory(&event, sizeof(event));
	CopyMemory(&event.daddr, v4, sizeof(v4));
	event.dport = htons(443);
	daddr.S_un.S_addr = event.daddr;
	Check(InetNtopW(AF_INET, &daddr, text, ARRAYSIZE(text)) == text &&
	      wcscmp(text, L"192.0.2.1") == 0, "InetNtopW(AF_INET): 192.0.2.1");
	Check(daddr.S_un.S_un_b.s_b1 == 192 && ntohl(daddr.S_un.S_addr) == 0xC0000201 &&
	      ntohs(event.dport) == 443, "IN_ADDR's bytes, ntohl, ntohs");
	Check(strcmp(inet_ntoa(daddr), "192.0.2.1") == 0, "inet_ntoa: 192.0.2.1");
	end = RtlIpv4AddressToStringW(&daddr, text);
	Check(wcscmp(text, L"192.0.2.1") == 0 && end == text + 9,
	      "RtlIpv4AddressToStringW: 192.0.2.1, the end at its NUL");
	length = ARRAYSIZE(text);
	status = RtlIpv4AddressToStringExW(&daddr, event.dport, text, &length);
	Check(status == 0 && wcscmp(text, L"192.0.2.1:443") == 0 && length == 14,
	      "RtlIpv4AddressToStringExW: 192.0.2.1:443");
	length = 4;
	status = RtlIpv4AddressToStringExW(&daddr, event.dport, text, &length);
	Check(status == (NTSTATUS)STATUS_INVALID_PARAMETER && length == 14,
	      "RtlIpv4AddressToStringExW into 4 characters: STATUS_INVALID_PARAMETER, 14 needed");
	Check(InetPtonW(AF_INET, L"192.0.2.256", &daddr) == 0 &&
	      InetPtonW(AF_INET, L"192.0.2.1", &daddr) == 1 && daddr.S_un.S_addr == event.daddr,
	      "InetPtonW(AF_INET): none of 192.0.2.256, 192.0.2.1 as it was");

	CopyMemory(&addr6, v6, sizeof(v6));
	end = RtlIpv6AddressToStringW(&addr6, text);
	Check(wcscmp(text, L"2001:db8::ff00:42:8329") == 0 && *end == 0,
	      "RtlIpv6AddressToStringW: 2001:db8::ff00:42:8329");
	Check(InetNtopW(AF_INET6, &addr6, text, ARRAYSIZE(text)) != NULL &&
	      wcscmp(text, L"2001:db8::ff00:42:8329") == 0, "InetNtopW(AF_INET6)");
	length = ARRAYSIZE(text);
	status = RtlIpv6AddressToStringExW(&addr6, 0, htons(80), text, &length);
	Check(status == 0 && wcscmp(text, L"[2001:db8::ff00:42:8329]:80") == 0,
	      "RtlIpv6AddressToStringExW: [2001:db8::ff00:42:8329]:80");

	ZeroMemory(&sin6, sizeof(sin6));
	sin6.sin6_family = AF_INET6;
	Check(InetPtonW(AF_INET6, L"fe80::1", &sin6.sin6_addr) == 1 &&
	      sin6.sin6_addr.u.Byte[0] == 0xfe && sin6.sin6_addr.u.Byte[15] == 1 &&
	      InetNtopW(sin6.sin6_family, &sin6.sin6_addr, text, ARRAYSIZE(text)) != NULL &&
	      wcscmp(text, L"fe80::1") == 0, "InetPtonW and back: fe80::1");
	Check(InetNtopW(AF_UNSPEC, &addr6, text, ARRAYSIZE(text)) == NULL &&
	      WSAGetLastError() == WSAEAFNOSUPPORT, "InetNtopW(AF_UNSPEC): WSAEAFNOSUPPORT");
	Check(InetNtopW(AF_INET6, &addr6, text, 8) == NULL &&
	      WSAGetLastError() == ERROR_INVALID_PARAMETER,
	      "InetNtopW into too small a buffer: ERROR_INVALID_PARAMETER");
}

/* What nttrace has nothing for fails, saying so; what is malformed, too. */
static void CheckClassesRefused(void)
{
	EVENT_TRACE_VERSION_INFORMATION version;
	EVENT_TRACE_SPINLOCK_INFORMATION spinlock;
	EVENT_TRACE_GROUPMASK_INFORMATION groups;
	ULONG any[16], length = 0;

	ZeroMemory(&version, sizeof(version));
	version.EventTraceInformationClass = EventTraceKernelVersionInformation;
	Check(NtQuerySystemInformation(SystemPerformanceTraceInformation, &version,
				       sizeof(version), &length) ==
	      (NTSTATUS)STATUS_NOT_SUPPORTED && version.EventTraceKernelVersion == 0,
	      "EventTraceKernelVersionInformation: STATUS_NOT_SUPPORTED");
	ZeroMemory(&spinlock, sizeof(spinlock));
	spinlock.EventTraceInformationClass = EventTraceSpinlockInformation;
	Check(NtSetSystemInformation(SystemPerformanceTraceInformation, &spinlock,
				     sizeof(spinlock)) == (NTSTATUS)STATUS_NOT_SUPPORTED,
	      "EventTraceSpinlockInformation set: STATUS_NOT_SUPPORTED");
	ZeroMemory(any, sizeof(any));
	any[0] = MaxEventTraceInfoClass;
	Check(NtQuerySystemInformation(SystemPerformanceTraceInformation, any, sizeof(any),
				       &length) == (NTSTATUS)STATUS_INVALID_INFO_CLASS,
	      "MaxEventTraceInfoClass: STATUS_INVALID_INFO_CLASS");
	Check(NtQuerySystemInformation((SYSTEM_INFORMATION_CLASS)0, any, sizeof(any), &length) ==
	      (NTSTATUS)STATUS_INVALID_INFO_CLASS,
	      "another system class: STATUS_INVALID_INFO_CLASS");
	ZeroMemory(&groups, sizeof(groups));
	groups.EventTraceInformationClass = EventTraceGroupMaskInformation;
	Check(NtQuerySystemInformation(SystemPerformanceTraceInformation, &groups,
				       sizeof(groups) - 8, &length) ==
	      (NTSTATUS)STATUS_INFO_LENGTH_MISMATCH && length == sizeof(groups),
	      "EventTraceGroupMaskInformation, 40 bytes: STATUS_INFO_LENGTH_MISMATCH");
	Check(NtQuerySystemInformation(SystemPerformanceTraceInformation, &groups,
				       sizeof(groups), &length) == (NTSTATUS)STATUS_INVALID_HANDLE,
	      "EventTraceGroupMaskInformation of no session: STATUS_INVALID_HANDLE");
}

#define PROPERTIES_SIZE	(sizeof(EVENT_TRACE_PROPERTIES) + 64 * sizeof(WCHAR))

/* StartTrace of a session @name with @mode and @flags: its status; *@handle. */
static ULONG Start(_In_z_ LPCWSTR name, ULONG mode, ULONG flags, _Out_ TRACEHANDLE *handle)
{
	PEVENT_TRACE_PROPERTIES props = (PEVENT_TRACE_PROPERTIES)calloc(1, PROPERTIES_SIZE);
	ULONG status;

	*handle = 0;
	if (props == NULL)
		return ERROR_NOT_ENOUGH_MEMORY;
	props->Wnode.BufferSize = (ULONG)PROPERTIES_SIZE;
	props->Wnode.Flags = WNODE_FLAG_TRACED_GUID;
	props->Wnode.ClientContext = 1;
	props->LogFileMode = mode;
	props->EnableFlags = flags;
	props->LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
	status = StartTraceW(handle, name, props);
	free(props);
	return status;
}

static void Stop(_In_z_ LPCWSTR name)
{
	PEVENT_TRACE_PROPERTIES props = (PEVENT_TRACE_PROPERTIES)calloc(1, PROPERTIES_SIZE);

	if (props == NULL)
		return;
	props->Wnode.BufferSize = (ULONG)PROPERTIES_SIZE;
	props->LoggerNameOffset = sizeof(EVENT_TRACE_PROPERTIES);
	ControlTraceW(0, name, props, EVENT_TRACE_CONTROL_STOP);
	free(props);
}

/* The profile interval and sources, the machine's, through NTDLL's calls. */
static void CheckProfile(void)
{
	EVENT_TRACE_TIME_PROFILE_INFORMATION interval;
	union {
		EVENT_TRACE_PROFILE_LIST_INFORMATION list;
		BYTE room[256];
	} sources;
	PPROFILE_SOURCE_INFO timer = (PPROFILE_SOURCE_INFO)(sources.room +
		FIELD_OFFSET(EVENT_TRACE_PROFILE_LIST_INFORMATION, Profile));
	ULONG config[5], length = 0;
	NTSTATUS status;

	ZeroMemory(&interval, sizeof(interval));
	interval.EventTraceInformationClass = EventTraceTimeProfileInformation;
	status = NtQuerySystemInformation(SystemPerformanceTraceInformation, &interval,
					  sizeof(interval), &length);
	Check(status == 0 && length == sizeof(interval) && interval.ProfileInterval >= 1221 &&
	      interval.ProfileInterval <= 10000000,
	      "EventTraceTimeProfileInformation: the interval, 1221 to 10000000");
	/* Set as it is: the machine's setting stays. */
	Check(NtSetSystemInformation(SystemPerformanceTraceInformation, &interval,
				     sizeof(interval)) == 0,
	      "EventTraceTimeProfileInformation set");

	ZeroMemory(&sources, sizeof(sources));
	sources.list.EventTraceInformationClass = EventTraceProfileSourceListInformation;
	status = NtQuerySystemInformation(SystemPerformanceTraceInformation, &sources, 8, &length);
	Check(status == (NTSTATUS)STATUS_BUFFER_TOO_SMALL &&
	      length > (ULONG)FIELD_OFFSET(EVENT_TRACE_PROFILE_LIST_INFORMATION, Profile),
	      "EventTraceProfileSourceListInformation into 8 bytes: STATUS_BUFFER_TOO_SMALL");
	status = NtQuerySystemInformation(SystemPerformanceTraceInformation, &sources,
					  sizeof(sources), &length);
	Check(status == 0 && timer->NextEntryOffset == 0 && timer->Source == 0 &&
	      wcscmp(timer->Description, L"Timer") == 0,
	      "EventTraceProfileSourceListInformation: the timer");

	ZeroMemory(config, sizeof(config));
	config[0] = EventTraceProfileConfigInformation;
	Check(NtSetSystemInformation(SystemPerformanceTraceInformation, config,
				     sizeof(config)) == 0,
	      "EventTraceProfileConfigInformation: the timer");
	config[4] = 1;
	Check(NtSetSystemInformation(SystemPerformanceTraceInformation, config,
				     sizeof(config)) == (NTSTATUS)STATUS_NOT_SUPPORTED,
	      "EventTraceProfileConfigInformation: another source, STATUS_NOT_SUPPORTED");
}

/* A system logger's group mask and events with stacks, through NTDLL's calls. */
static void CheckSystemLogger(void)
{
	/* The header and one HookId: 20 bytes. */
	const ULONG one = (ULONG)FIELD_OFFSET(EVENT_TRACE_STACK_TRACING_INFORMATION, HookId) +
			  sizeof(ULONG);
	EVENT_TRACE_GROUPMASK_INFORMATION groups;
	EVENT_TRACE_STACK_TRACING_INFORMATION hooks;
	TRACEHANDLE session;
	ULONG status, length = 0;

	status = Start(L"WinNamesNoPerCpu", EVENT_TRACE_REAL_TIME_MODE |
		       EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING, 0, &session);
	if (status == ERROR_SUCCESS)
		Stop(L"WinNamesNoPerCpu");
	Check(status == ERROR_SUCCESS,
	      "StartTrace, EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING: one buffer for all CPUs");
	status = Start(L"WinNamesDriver", EVENT_TRACE_REAL_TIME_MODE | EVENT_TRACE_SYSTEM_LOGGER_MODE,
		       EVENT_TRACE_FLAG_DRIVER, &session);
	if (status == ERROR_SUCCESS)
		Stop(L"WinNamesDriver");
	Check(status == ERROR_NOT_SUPPORTED,
	      "StartTrace, a system logger of EVENT_TRACE_FLAG_DRIVER: ERROR_NOT_SUPPORTED");

	status = Start(L"WinNamesSystem", EVENT_TRACE_REAL_TIME_MODE | EVENT_TRACE_SYSTEM_LOGGER_MODE,
		       EVENT_TRACE_FLAG_PROCESS, &session);
	Check(status == ERROR_SUCCESS, "StartTrace, a system logger of EVENT_TRACE_FLAG_PROCESS");
	if (status != ERROR_SUCCESS)
		return;
	ZeroMemory(&groups, sizeof(groups));
	groups.EventTraceInformationClass = EventTraceGroupMaskInformation;
	groups.TraceHandle = session;
	Check(NtQuerySystemInformation(SystemPerformanceTraceInformation, &groups,
				       sizeof(groups), &length) == 0 &&
	      groups.EventTraceGroupMasks[0] == EVENT_TRACE_FLAG_PROCESS,
	      "EventTraceGroupMaskInformation: the logger's EnableFlags");
	groups.EventTraceGroupMasks[0] |= EVENT_TRACE_FLAG_THREAD;
	Check(NtSetSystemInformation(SystemPerformanceTraceInformation, &groups,
				     sizeof(groups)) == 0,
	      "EventTraceGroupMaskInformation set: PROCESS and THREAD");
	groups.EventTraceGroupMasks[0] = 0;
	Check(NtQuerySystemInformation(SystemPerformanceTraceInformation, &groups,
				       sizeof(groups), &length) == 0 &&
	      groups.EventTraceGroupMasks[0] == (EVENT_TRACE_FLAG_PROCESS | EVENT_TRACE_FLAG_THREAD),
	      "EventTraceGroupMaskInformation: as set");

	ZeroMemory(&hooks, sizeof(hooks));
	hooks.EventTraceInformationClass = EventTraceStackTracingInformation;
	hooks.TraceHandle = session;
	hooks.HookId[0] = 0x0524;	/* Thread's CSwitch */
	Check(NtSetSystemInformation(SystemPerformanceTraceInformation, &hooks, one) == 0,
	      "EventTraceStackTracingInformation set: CSwitch (0x0524)");
	hooks.HookId[0] = 0;
	Check(NtQuerySystemInformation(SystemPerformanceTraceInformation, &hooks, 16, &length) ==
	      (NTSTATUS)STATUS_BUFFER_TOO_SMALL && length == one,
	      "EventTraceStackTracingInformation into 16 bytes: STATUS_BUFFER_TOO_SMALL, 20 needed");
	Check(NtQuerySystemInformation(SystemPerformanceTraceInformation, &hooks, one,
				       &length) == 0 && length == one && hooks.HookId[0] == 0x0524,
	      "EventTraceStackTracingInformation: CSwitch");
	Check(NtSetSystemInformation(SystemPerformanceTraceInformation, &hooks, 16) == 0 &&
	      NtQuerySystemInformation(SystemPerformanceTraceInformation, &hooks, one,
				       &length) == 0 && length == 16,
	      "EventTraceStackTracingInformation: none set, none read");
	Stop(L"WinNamesSystem");
}

/* Well-known SIDs made and printed as Microsoft's Advanced provider sample makes one. */
static void CheckWellKnownSids(void)
{
	BYTE sid[SECURITY_MAX_SID_SIZE];
	DWORD size = sizeof(sid), small = 4;
	LPSTR text = NULL;

	Check(CreateWellKnownSid(WinWorldSid, NULL, sid, &size) && size == 12 &&
	      ConvertSidToStringSidA(sid, &text) && strcmp(text, "S-1-1-0") == 0,
	      "CreateWellKnownSid(WinWorldSid): S-1-1-0");
	LocalFree(text);
	text = NULL;
	size = sizeof(sid);
	Check(CreateWellKnownSid(WinBuiltinAdministratorsSid, NULL, sid, &size) && size == 16 &&
	      ConvertSidToStringSidA(sid, &text) && strcmp(text, "S-1-5-32-544") == 0,
	      "CreateWellKnownSid(WinBuiltinAdministratorsSid): S-1-5-32-544");
	LocalFree(text);
	Check(!CreateWellKnownSid(WinWorldSid, NULL, sid, &small) &&
	      GetLastError() == ERROR_INSUFFICIENT_BUFFER && small == 12,
	      "CreateWellKnownSid: too small a buffer, and the size it needs");
}

int wmain(int argc, wchar_t **argv)
{
	CheckSelectAny();
	CheckWellKnownSids();
	CheckLimits();
	CheckAddresses();
	CheckClassesRefused();
	if (argc == 2 && wcscmp(argv[1], L"module") == 0) {
		CheckProfile();
		CheckSystemLogger();
	} else if (argc != 1) {
		fwprintf(stderr, L"usage: %s [module]\n", argv[0]);
		return 2;
	}
	printf("%d failed\n", g_Failed);
	return g_Failed != 0;
}
