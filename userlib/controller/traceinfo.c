// SPDX-License-Identifier: LGPL-2.1
/*
 * TraceQueryInformation and TraceSetInformation: a session's settings by
 * class (TRACE_INFO_CLASS). From Microsoft's documentation: a length below
 * the class's minimum is ERROR_BAD_LENGTH, a request the system does not
 * support ERROR_NOT_SUPPORTED, a bad parameter ERROR_INVALID_PARAMETER;
 * TraceStackTracingInfo's data is an array of CLASSIC_EVENT_ID, set with a
 * length of 0 to turn stack tracing off.
 *
 * What each class is here, by what the TRACE_QUERY_INFO_CLASS
 * documentation says it does:
 *   TraceGuidQueryList, TraceGuidQueryInfo, TraceGuidQueryProcess,
 *   TraceGroupQueryList, TraceGroupQueryInfo: EnumerateTraceGuidsEx's
 *     (controller/guids.c), not a session's: not supported here.
 *   TraceStackTracingInfo: the kernel events a system logger writes a
 *     StackWalk event after (the module's NTTRACE_IOC_STACKS), as
 *     CLASSIC_EVENT_IDs: the event group's GUID (<nttrace/etl.h>'s
 *     table) and the type. Set: a whole number of them, 0 bytes for none;
 *     a GUID of no kernel group, or an event the module never writes, is
 *     not supported; at most 256. Query: the list, in HookId order.
 *   TraceSystemTraceEnableFlagsInfo: a system logger's group mask
 *     (PERFINFO_GROUPMASK's eight ULONGs, the first EnableFlags). Set: 4
 *     to 32 bytes, a whole number of ULONGs (the words not given become
 *     0), else ERROR_BAD_LENGTH; query: the 32 bytes. A session that is
 *     no system logger: ERROR_INVALID_PARAMETER (the kernel refuses a
 *     group mask for it).
 *   TraceSampledProfileIntervalInfo: the sampling interval
 *     (TRACE_PROFILE_INTERVAL, 100 ns units) of EVENT_TRACE_FLAG_PROFILE,
 *     the machine's one setting (the module's NTTRACE_IOC_PROFILE): the
 *     handle is not looked at, as TraceMaxLoggersQuery's. Query: 8 bytes
 *     or more, the Source given by the caller; set: exactly 8.
 *   TraceProfileSourceListInfo: the sources there are, PROFILE_SOURCE_INFO
 *     entries chained by NextEntryOffset (each 8-byte aligned, the last's
 *     0): the timer alone (Source 0, "Timer", the module's limits). The
 *     hardware counters are no source here: their overflows come in NMI,
 *     where the module does not write.
 *   TraceProfileSourceConfigInfo: the sources to sample, a ULONG array
 *     (4 to 16 bytes, Windows' four at most): the timer's alone is taken
 *     (what always is); any other source is not supported.
 *   TracePmcEventListInfo, TracePmcCounterListInfo, TraceMaxPmcCounterQuery,
 *   TracePmcCounterOwners, TracePmcSessionInformation,
 *   TraceLbrConfigurationInfo, TraceLbrEventListInfo,
 *   TraceContextRegisterInfo: performance counters, last branch records,
 *     registers: nttrace collects none: not supported.
 *   TraceSetDisallowList, TraceDisallowListQuery: provider groups' enables
 *     are not supported (EnableTraceEx2), so neither is their disallow list.
 *   TraceVersionInfo: "the trace processing API's version"; Microsoft
 *     documents no value, and any made up might gate a caller wrongly: not
 *     supported.
 *   TraceInfoReserved15: reserved.
 *   TracePeriodicCaptureStateListInfo, TracePeriodicCaptureStateInfo:
 *     periodic CAPTURE_STATE requests: not done here: not supported.
 *   TraceProviderBinaryTracking: events naming each provider's binary:
 *     not written here: not supported.
 *   TraceMaxLoggersQuery: the most sessions at once, MAXIMUM_LOGGERS (the
 *     module's NTTRACE_MAX_LOGGERS). Documented for EnumerateTraceGuidsEx;
 *     answered here too, the handle not looked at.
 *   TraceStreamCount: a session's streams of buffers: a kernel session's
 *     rings, one per possible CPU; the user-mode logger's writer slots.
 *   TraceStackCachingInfo, TraceUnifiedStackCachingInfo: stack caching:
 *     no stacks: not supported.
 *
 * NtQuerySystemInformation and NtSetSystemInformation's
 * SystemPerformanceTraceInformation (<nttrace/ntwmi.h>) reach the same
 * settings by EVENT_TRACE_INFORMATION_CLASS, each through the class
 * above that has it, and say it with an NTSTATUS.
 *
 * Choices where Microsoft is silent: a handle that is no running session
 * (nor this process's running user-mode logger) is ERROR_INVALID_HANDLE, as
 * EnableTraceEx2's; the class is checked before the handle, so that an
 * unsupported class is ERROR_NOT_SUPPORTED whatever the handle; with
 * ERROR_BAD_LENGTH, *ReturnLength (when given) is the length needed.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>

#include <nttrace/etl.h>
#include <nttrace/ntwmi.h>
#include <nttrace/session.h>

#include "controller_internal.h"

/*
 * A running kernel session's properties, by handle (its 16-bit logger
 * ID; 0xFFFF the NT Kernel Logger's), or a Win32 error.
 */
static ULONG session_query(TRACEHANDLE h, struct nttrace_logger_info *info)
{
	int ret;

	if (!h || h > 0xFFFF || (h & TRACE_USER_MODE_LOGGER_BIT))
		return ERROR_INVALID_HANDLE;
	memset(info, 0, sizeof(*info));
	info->logger_id = (uint32_t)h;
	ret = nttrace_control(info, EVENT_TRACE_CONTROL_QUERY);
	if (ret == -ENOENT)
		return ERROR_INVALID_HANDLE;
	return ret ? nttrace_errno_to_win32(ret) : ERROR_SUCCESS;
}

/* The streams of the running session @h, or a Win32 error. */
static ULONG session_streams(TRACEHANDLE h, ULONG *streams)
{
	struct nttrace_logger_info info;
	ULONG err;

	if (h & TRACE_USER_MODE_LOGGER_BIT) {
		EVENT_TRACE_PROPERTIES props;
		char name[NTTRACE_NAME_MAX];
		int mine = 0;

		memset(&props, 0, sizeof(props));
		props.Wnode.BufferSize = sizeof(props);
		err = nttrace_um_control(h, NULL, &props, EVENT_TRACE_CONTROL_QUERY, &mine, name);
		if (!mine || err == ERROR_INVALID_HANDLE)
			return ERROR_INVALID_HANDLE;
		*streams = NTTRACE_UM_SLOTS;
		return err;
	}
	err = session_query(h, &info);
	if (!err)
		*streams = info.nr_cpus;
	return err;
}

static ULONG query_groups(TRACEHANDLE h, void *buf)
{
	struct nttrace_logger_info info;
	ULONG err = session_query(h, &info);

	if (err)
		return err;
	if (!(info.log_file_mode & EVENT_TRACE_SYSTEM_LOGGER_MODE))
		return ERROR_INVALID_PARAMETER;
	memcpy(buf, info.group_mask, sizeof(info.group_mask));
	return ERROR_SUCCESS;
}

static ULONG set_groups(TRACEHANDLE h, const void *buf, ULONG len)
{
	struct nttrace_logger_info info;
	ULONG err;
	int ret;

	if (!len || len % sizeof(ULONG) || len > sizeof(info.group_mask))
		return ERROR_BAD_LENGTH;
	err = session_query(h, &info);
	if (err)
		return err;
	if (!(info.log_file_mode & EVENT_TRACE_SYSTEM_LOGGER_MODE))
		return ERROR_INVALID_PARAMETER;
	/* UPDATE takes the session as it is, with the new groups. */
	memset(info.group_mask, 0, sizeof(info.group_mask));
	memcpy(info.group_mask, buf, len);
	ret = nttrace_control(&info, EVENT_TRACE_CONTROL_UPDATE);
	if (ret == -ENOENT)
		return ERROR_INVALID_HANDLE;
	return ret ? nttrace_errno_to_win32(ret) : ERROR_SUCCESS;
}

/* NTTRACE_IOC_PROFILE: read (interval 0 in *@p) or set the interval. */
static ULONG profile_ioctl(struct nttrace_profile *p)
{
	int fd = nttrace_device_fd();

	if (fd < 0)
		return nttrace_errno_to_win32(fd);
	p->size = sizeof(*p);
	if (ioctl(fd, NTTRACE_IOC_PROFILE, p) < 0)
		return errno == EINVAL ? ERROR_INVALID_PARAMETER : nttrace_errno_to_win32(-errno);
	return ERROR_SUCCESS;
}

static ULONG query_interval(void *buf)
{
	TRACE_PROFILE_INTERVAL *t = buf;
	struct nttrace_profile p = { .source = t->Source };
	ULONG err = profile_ioctl(&p);

	if (!err)
		t->Interval = p.interval;
	return err;
}

static ULONG set_interval(const void *buf, ULONG len)
{
	const TRACE_PROFILE_INTERVAL *t = buf;
	struct nttrace_profile p;

	if (len != sizeof(*t))
		return ERROR_BAD_LENGTH;
	memset(&p, 0, sizeof(p));
	p.flags = NTTRACE_PROFILE_SET;
	p.source = t->Source;
	p.interval = t->Interval;
	return profile_ioctl(&p);
}

/* The timer's PROFILE_SOURCE_INFO: the header, "Timer" and its NUL, to 8 bytes. */
#define TIMER_NAME_UNITS	6
#define TIMER_INFO_SIZE \
	((offsetof(PROFILE_SOURCE_INFO, Description) + TIMER_NAME_UNITS * sizeof(WCHAR) + 7) & ~7UL)

static ULONG query_sources(void *buf)
{
	static const char name[TIMER_NAME_UNITS] = "Timer";
	struct nttrace_profile p = { .source = NTTRACE_PROFILE_SOURCE_TIMER };
	PROFILE_SOURCE_INFO *info = buf;
	ULONG err = profile_ioctl(&p);
	unsigned int i;

	if (err)
		return err;
	memset(buf, 0, TIMER_INFO_SIZE);
	info->NextEntryOffset = 0;
	info->Source = NTTRACE_PROFILE_SOURCE_TIMER;
	info->MinInterval = p.min_interval;
	info->MaxInterval = p.max_interval;
	for (i = 0; i < TIMER_NAME_UNITS; i++)
		info->Description[i] = (WCHAR)name[i];
	return ERROR_SUCCESS;
}

static ULONG set_sources(const void *buf, ULONG len)
{
	const ULONG *src = buf;
	struct nttrace_profile p = { .source = NTTRACE_PROFILE_SOURCE_TIMER };
	ULONG i;

	if (!len || len % sizeof(ULONG) || len > 4 * sizeof(ULONG))
		return ERROR_BAD_LENGTH;
	for (i = 0; i < len / sizeof(ULONG); i++)
		if (src[i] != NTTRACE_PROFILE_SOURCE_TIMER)
			return ERROR_NOT_SUPPORTED;
	/* Nothing to change: the module there, the timer is what it samples. */
	return profile_ioctl(&p);
}

/* NTTRACE_IOC_STACKS of session @h: @st's flags, count and hooks given. */
static ULONG stacks_ioctl(TRACEHANDLE h, struct nttrace_stacks *st)
{
	int fd = nttrace_device_fd();

	if (!h || h > 0xFFFF || (h & TRACE_USER_MODE_LOGGER_BIT))
		return ERROR_INVALID_HANDLE;
	if (fd < 0)
		return nttrace_errno_to_win32(fd);
	st->size = sizeof(*st);
	st->logger_id = (uint32_t)h;
	if (ioctl(fd, NTTRACE_IOC_STACKS, st) < 0)
		return errno == ENOENT ? ERROR_INVALID_HANDLE : nttrace_errno_to_win32(-errno);
	return ERROR_SUCCESS;
}

/* The HookId of a kernel event's CLASSIC_EVENT_ID, or -1 for no group's GUID. */
static int classic_hook(const CLASSIC_EVENT_ID *id)
{
	const struct nttrace_kernel_group *g;
	unsigned int group;

	for (group = 0; group < 0x100; group++) {
		g = nttrace_kernel_group((uint16_t)(group << 8));
		if (!g)
			break;
		if (g->name && !memcmp(&g->guid, &id->EventGuid, sizeof(GUID)))
			return (int)(group << 8 | id->Type);
	}
	return -1;
}

static ULONG set_stacks(TRACEHANDLE h, const void *buf, ULONG len)
{
	uint16_t hooks[NTTRACE_STACKS_MAX];
	struct nttrace_stacks st;
	CLASSIC_EVENT_ID id;
	ULONG i, n = len / sizeof(id);
	int hook;

	if (len % sizeof(id))
		return ERROR_BAD_LENGTH;
	if (n > NTTRACE_STACKS_MAX)
		return ERROR_INVALID_PARAMETER;
	for (i = 0; i < n; i++) {
		memcpy(&id, (const char *)buf + i * sizeof(id), sizeof(id));
		hook = classic_hook(&id);
		if (hook < 0)
			return ERROR_NOT_SUPPORTED;
		hooks[i] = (uint16_t)hook;
	}
	memset(&st, 0, sizeof(st));
	st.flags = NTTRACE_STACKS_SET;
	st.count = n;
	st.hooks = (uintptr_t)hooks;
	return stacks_ioctl(h, &st);
}

/* The list as CLASSIC_EVENT_IDs into @buf (@len bytes); *@size: the bytes it takes. */
static ULONG query_stacks(TRACEHANDLE h, void *buf, ULONG len, ULONG *size)
{
	uint16_t hooks[NTTRACE_STACKS_MAX];
	struct nttrace_stacks st;
	CLASSIC_EVENT_ID id;
	ULONG err, i;

	memset(&st, 0, sizeof(st));
	st.count = NTTRACE_STACKS_MAX;
	st.hooks = (uintptr_t)hooks;
	err = stacks_ioctl(h, &st);
	if (err)
		return err;
	*size = st.count * sizeof(id);
	if (len < *size)
		return ERROR_BAD_LENGTH;
	for (i = 0; i < st.count; i++) {
		const struct nttrace_kernel_group *g = nttrace_kernel_group(hooks[i]);

		memset(&id, 0, sizeof(id));
		if (g)
			memcpy(&id.EventGuid, &g->guid, sizeof(GUID));
		id.Type = (UCHAR)hooks[i];
		memcpy((char *)buf + i * sizeof(id), &id, sizeof(id));
	}
	return ERROR_SUCCESS;
}

static ULONG query_info(TRACEHANDLE h, TRACE_INFO_CLASS cls, void *buf, ULONG len,
			PULONG ret_len)
{
	ULONG value = 0, size, err;

	if ((unsigned int)cls >= MaxTraceSetInfoClass || (!buf && len))
		return ERROR_INVALID_PARAMETER;
	switch (cls) {
	case TraceStreamCount:
	case TraceMaxLoggersQuery:
		size = sizeof(ULONG);
		break;
	case TraceStackTracingInfo:
		err = query_stacks(h, buf, len, &size);
		if (ret_len && (!err || err == ERROR_BAD_LENGTH))
			*ret_len = size;
		return err;
	case TraceSystemTraceEnableFlagsInfo:
		size = NTTRACE_GROUP_MASKS * sizeof(ULONG);
		break;
	case TraceSampledProfileIntervalInfo:
		size = sizeof(TRACE_PROFILE_INTERVAL);
		break;
	case TraceProfileSourceListInfo:
		size = TIMER_INFO_SIZE;
		break;
	default:
		return ERROR_NOT_SUPPORTED;
	}
	if (len < size) {
		if (ret_len)
			*ret_len = size;
		return ERROR_BAD_LENGTH;
	}
	if (cls == TraceSystemTraceEnableFlagsInfo || cls == TraceSampledProfileIntervalInfo ||
	    cls == TraceProfileSourceListInfo) {
		if (cls == TraceSystemTraceEnableFlagsInfo)
			err = query_groups(h, buf);
		else if (cls == TraceSampledProfileIntervalInfo)
			err = query_interval(buf);
		else
			err = query_sources(buf);
		if (err)
			return err;
		if (ret_len)
			*ret_len = size;
		return ERROR_SUCCESS;
	}
	if (cls == TraceMaxLoggersQuery) {
		value = NTTRACE_MAX_LOGGERS;
	} else {
		err = session_streams(h, &value);
		if (err)
			return err;
	}
	if (size)
		memcpy(buf, &value, size);
	if (ret_len)
		*ret_len = size;
	return ERROR_SUCCESS;
}

static ULONG set_info(TRACEHANDLE h, TRACE_INFO_CLASS cls, const void *buf, ULONG len)
{
	if ((unsigned int)cls >= MaxTraceSetInfoClass || (!buf && len))
		return ERROR_INVALID_PARAMETER;
	if (cls == TraceSystemTraceEnableFlagsInfo)
		return set_groups(h, buf, len);
	if (cls == TraceSampledProfileIntervalInfo)
		return set_interval(buf, len);
	if (cls == TraceProfileSourceConfigInfo)
		return set_sources(buf, len);
	if (cls == TraceStackTracingInfo)
		return set_stacks(h, buf, len);
	return ERROR_NOT_SUPPORTED;
}

ULONG WMIAPI TraceQueryInformation(TRACEHANDLE SessionHandle, TRACE_INFO_CLASS InformationClass,
				   PVOID TraceInformation, ULONG InformationLength,
				   PULONG ReturnLength)
{
	ULONG err = query_info(SessionHandle, InformationClass, TraceInformation,
			       InformationLength, ReturnLength);

	SetLastError(err);
	return err;
}

ULONG WMIAPI TraceSetInformation(TRACEHANDLE SessionHandle, TRACE_INFO_CLASS InformationClass,
				 PVOID TraceInformation, ULONG InformationLength)
{
	ULONG err = set_info(SessionHandle, InformationClass, TraceInformation,
			     InformationLength);

	SetLastError(err);
	return err;
}

/* ---- NtQuerySystemInformation, NtSetSystemInformation ---- */

/* A Win32 error of the functions above as the NTSTATUS saying it. */
static NTSTATUS win32_status(ULONG err)
{
	switch (err) {
	case ERROR_SUCCESS: return STATUS_SUCCESS;
	case ERROR_INVALID_HANDLE: return STATUS_INVALID_HANDLE;
	case ERROR_INVALID_PARAMETER: return STATUS_INVALID_PARAMETER;
	case ERROR_BAD_LENGTH: return STATUS_INFO_LENGTH_MISMATCH;
	/* The module not loaded too: NtTraceEvent's status for it. */
	case ERROR_SERVICE_NOT_ACTIVE:
	case ERROR_NOT_SUPPORTED: return STATUS_NOT_SUPPORTED;
	case ERROR_ACCESS_DENIED: return STATUS_ACCESS_DENIED;
	case ERROR_NOT_ENOUGH_MEMORY: return STATUS_NO_MEMORY;
	default: return STATUS_UNSUCCESSFUL;
	}
}

/* EVENT_TRACE_SYSTEM_EVENT_INFORMATION's bytes before its HookIds. */
#define HOOKS_OFFSET	offsetof(EVENT_TRACE_SYSTEM_EVENT_INFORMATION, HookId)
/* EVENT_TRACE_PROFILE_LIST_INFORMATION's bytes before its entries. */
#define SOURCES_OFFSET	offsetof(EVENT_TRACE_PROFILE_LIST_INFORMATION, Profile)
/* EVENT_TRACE_PROFILE_CONFIG_INFORMATION's bytes before its sources. */
#define CONFIG_OFFSET	offsetof(EVENT_TRACE_PROFILE_CONFIG_INFORMATION, ProfileSource)

static NTSTATUS query_hooks(EVENT_TRACE_SYSTEM_EVENT_INFORMATION *info, ULONG len,
			    ULONG *size)
{
	uint16_t hooks[NTTRACE_STACKS_MAX];
	struct nttrace_stacks st;
	ULONG err, i, id;

	memset(&st, 0, sizeof(st));
	st.count = NTTRACE_STACKS_MAX;
	st.hooks = (uintptr_t)hooks;
	err = stacks_ioctl(info->TraceHandle, &st);
	if (err)
		return win32_status(err);
	*size = HOOKS_OFFSET + st.count * sizeof(ULONG);
	if (len < *size)
		return STATUS_BUFFER_TOO_SMALL;
	for (i = 0; i < st.count; i++) {
		id = hooks[i];
		memcpy((char *)info + HOOKS_OFFSET + i * sizeof(id), &id, sizeof(id));
	}
	return STATUS_SUCCESS;
}

static NTSTATUS set_hooks(const EVENT_TRACE_SYSTEM_EVENT_INFORMATION *info, ULONG len)
{
	uint16_t hooks[NTTRACE_STACKS_MAX];
	struct nttrace_stacks st;
	ULONG i, id, n = (len - HOOKS_OFFSET) / sizeof(ULONG);

	if ((len - HOOKS_OFFSET) % sizeof(ULONG))
		return STATUS_INFO_LENGTH_MISMATCH;
	if (n > NTTRACE_STACKS_MAX)
		return STATUS_INVALID_PARAMETER;
	for (i = 0; i < n; i++) {
		memcpy(&id, (const char *)info + HOOKS_OFFSET + i * sizeof(id), sizeof(id));
		if (id > 0xFFFF)
			return STATUS_INVALID_PARAMETER;
		hooks[i] = (uint16_t)id;
	}
	memset(&st, 0, sizeof(st));
	st.flags = NTTRACE_STACKS_SET;
	st.count = n;
	st.hooks = (uintptr_t)hooks;
	return win32_status(stacks_ioctl(info->TraceHandle, &st));
}

/* The class's structure, for its fixed-size classes; 0 for the others. */
static ULONG fixed_size(EVENT_TRACE_INFORMATION_CLASS cls)
{
	if (cls == EventTraceGroupMaskInformation)
		return sizeof(EVENT_TRACE_GROUPMASK_INFORMATION);
	if (cls == EventTraceTimeProfileInformation)
		return sizeof(EVENT_TRACE_TIME_PROFILE_INFORMATION);
	return 0;
}

/*
 * The EVENT_TRACE_INFORMATION_CLASS at @buf (@len bytes), checked:
 * STATUS_SUCCESS, or the status that ends the call.
 */
static NTSTATUS trace_class(SYSTEM_INFORMATION_CLASS sys, const void *buf, ULONG len,
			    EVENT_TRACE_INFORMATION_CLASS *cls, ULONG *ret_len)
{
	ULONG value, size;

	if (sys != SystemPerformanceTraceInformation)
		return STATUS_INVALID_INFO_CLASS;
	if (!buf || len < sizeof(value))
		return STATUS_INFO_LENGTH_MISMATCH;
	memcpy(&value, buf, sizeof(value));
	if (value >= MaxEventTraceInfoClass)
		return STATUS_INVALID_INFO_CLASS;
	*cls = (EVENT_TRACE_INFORMATION_CLASS)value;
	size = fixed_size(*cls);
	if (size && len != size) {
		if (ret_len)
			*ret_len = size;
		return STATUS_INFO_LENGTH_MISMATCH;
	}
	return STATUS_SUCCESS;
}

NTSTATUS NTAPI NtQuerySystemInformation(SYSTEM_INFORMATION_CLASS SystemInformationClass,
					PVOID SystemInformation, ULONG SystemInformationLength,
					PULONG ReturnLength)
{
	ULONG len = SystemInformationLength, size = 0;
	EVENT_TRACE_INFORMATION_CLASS cls;
	char *buf = SystemInformation;
	NTSTATUS status;

	status = trace_class(SystemInformationClass, buf, len, &cls, ReturnLength);
	if (status)
		return status;
	switch (cls) {
	case EventTraceGroupMaskInformation: {
		EVENT_TRACE_GROUPMASK_INFORMATION *g = (void *)buf;

		size = sizeof(*g);
		status = win32_status(query_info(g->TraceHandle, TraceSystemTraceEnableFlagsInfo,
						 g->EventTraceGroupMasks,
						 sizeof(g->EventTraceGroupMasks), NULL));
		break;
	}
	case EventTraceTimeProfileInformation: {
		EVENT_TRACE_TIME_PROFILE_INFORMATION *t = (void *)buf;
		TRACE_PROFILE_INTERVAL interval = { .Source = NTTRACE_PROFILE_SOURCE_TIMER };

		size = sizeof(*t);
		status = win32_status(query_info(0, TraceSampledProfileIntervalInfo, &interval,
						 sizeof(interval), NULL));
		if (!status)
			t->ProfileInterval = interval.Interval;
		break;
	}
	case EventTraceStackTracingInformation:
		if (len < HOOKS_OFFSET)
			return STATUS_INFO_LENGTH_MISMATCH;
		status = query_hooks((void *)buf, len, &size);
		break;
	case EventTraceProfileSourceListInformation:
		size = SOURCES_OFFSET + TIMER_INFO_SIZE;
		if (len < size) {
			status = STATUS_BUFFER_TOO_SMALL;
			break;
		}
		status = win32_status(query_sources(buf + SOURCES_OFFSET));
		if (!status)
			memset(buf + sizeof(ULONG), 0, SOURCES_OFFSET - sizeof(ULONG));
		break;
	default:
		return STATUS_NOT_SUPPORTED;
	}
	if (ReturnLength && (!status || status == (NTSTATUS)STATUS_BUFFER_TOO_SMALL))
		*ReturnLength = size;
	return status;
}

NTSTATUS NTAPI NtSetSystemInformation(SYSTEM_INFORMATION_CLASS SystemInformationClass,
				      PVOID SystemInformation, ULONG SystemInformationLength)
{
	ULONG len = SystemInformationLength;
	EVENT_TRACE_INFORMATION_CLASS cls;
	const char *buf = SystemInformation;
	NTSTATUS status;

	status = trace_class(SystemInformationClass, buf, len, &cls, NULL);
	if (status)
		return status;
	switch (cls) {
	case EventTraceGroupMaskInformation: {
		const EVENT_TRACE_GROUPMASK_INFORMATION *g = (const void *)buf;

		return win32_status(set_groups(g->TraceHandle, g->EventTraceGroupMasks,
					       sizeof(g->EventTraceGroupMasks)));
	}
	case EventTraceTimeProfileInformation: {
		const EVENT_TRACE_TIME_PROFILE_INFORMATION *t = (const void *)buf;
		TRACE_PROFILE_INTERVAL interval = {
			.Source = NTTRACE_PROFILE_SOURCE_TIMER,
			.Interval = t->ProfileInterval,
		};

		return win32_status(set_interval(&interval, sizeof(interval)));
	}
	case EventTraceStackTracingInformation:
		if (len < HOOKS_OFFSET)
			return STATUS_INFO_LENGTH_MISMATCH;
		return set_hooks((const void *)buf, len);
	case EventTraceProfileConfigInformation:
		if (len < CONFIG_OFFSET)
			return STATUS_INFO_LENGTH_MISMATCH;
		return win32_status(set_sources(buf + CONFIG_OFFSET, len - CONFIG_OFFSET));
	default:
		return STATUS_NOT_SUPPORTED;
	}
}
