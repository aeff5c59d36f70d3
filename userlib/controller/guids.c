// SPDX-License-Identifier: LGPL-2.1
/*
 * EnumerateTraceGuids and EnumerateTraceGuidsEx: the providers the module
 * knows, from NTTRACE_IOC_LIST_PROVIDERS (what `nttrace providers` shows;
 * open to anyone, as the session queries are): one row per registration,
 * then one per session enabling the GUID, sorted by GUID.
 *
 * From Microsoft's documentation of the two functions and their
 * structures: EnumerateTraceGuids lists the providers that registered
 * (RegisterTraceGuids, EventRegister), LoggerId being the session that
 * enabled one most recently; PropertyArrayCount 0 or a NULL array is
 * ERROR_INVALID_PARAMETER, too small an array ERROR_MORE_DATA with it
 * filled. EnumerateTraceGuidsEx's TraceGuidQueryInfo answers a
 * TRACE_GUID_INFO, then per provider of the GUID a
 * TRACE_PROVIDER_INSTANCE_INFO and per session enabling it a
 * TRACE_ENABLE_INFO; TRACE_PROVIDER_FLAG_PRE_ENABLE marks a GUID enabled
 * but not registered (Microsoft's sample finds such GUIDs in
 * TraceGuidQueryList's answer: they are listed); too small an OutBuffer is
 * ERROR_INSUFFICIENT_BUFFER with the size needed in *ReturnLength, an
 * OutBufferSize of 0 the way to ask it.
 *
 * Choices where it is silent:
 * - TraceGuidQueryInfo of a GUID neither registered nor enabled:
 *   ERROR_WMI_GUID_NOT_FOUND, as the library's other "no such provider".
 * - Every registration of a GUID is listed with every session enabling
 *   the GUID: nttrace's enables belong to the GUID, not to a registration.
 * - EnableProperty is STACK_TRACE or 0: the one property the kernel
 *   keeps (EnableTraceEx2 refuses the others but ENABLE_KEYWORD_0,
 *   which changes nothing here).
 * - Provider groups are not supported (no group enable is ever made), so
 *   TraceGroupQueryList is an empty list and TraceGroupQueryInfo
 *   ERROR_WMI_GUID_NOT_FOUND; a class that is a session's setting, or an
 *   enumeration of what nttrace has not (profile sources, PMC counters),
 *   is ERROR_NOT_SUPPORTED.
 * - The user-mode logger's enables are not listed: only its process
 *   knows them (QueryAllTraces leaves private sessions out likewise).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <nttrace/session.h>

#include "controller_internal.h"

/* The module's rows into *@rows (malloc'd; NULL when none), grown until they fit. */
static ULONG get_rows(struct nttrace_provider_row **rows, uint32_t *n)
{
	struct nttrace_provider_list l = { .size = sizeof(l) };
	struct nttrace_provider_row *r = NULL;
	uint32_t room = 0;
	int fd = nttrace_device_fd();

	if (fd < 0)
		return nttrace_errno_to_win32(fd);
	/* Rows may come and go between the calls. */
	for (;;) {
		l.count = room;
		l.rows = (uintptr_t)r;
		if (ioctl(fd, NTTRACE_IOC_LIST_PROVIDERS, &l) < 0) {
			int err = -errno;

			free(r);
			return nttrace_errno_to_win32(err);
		}
		if (l.count <= room)
			break;
		room = l.count + 16;
		free(r);
		r = calloc(room, sizeof(*r));
		if (!r)
			return ERROR_NOT_ENOUGH_MEMORY;
	}
	*rows = r;
	*n = l.count;
	return ERROR_SUCCESS;
}

/* One GUID's rows: @regs registrations from @r, then @enables enables. */
struct guid_rows {
	const struct nttrace_provider_row *r;
	uint32_t regs, enables;
};

/* The GUID whose rows begin at *@at, which moves past them; 0 at the end. */
static int next_guid(const struct nttrace_provider_row *rows, uint32_t n, uint32_t *at,
		     struct guid_rows *g)
{
	uint32_t i = *at;

	if (i >= n)
		return 0;
	g->r = &rows[i];
	g->regs = g->enables = 0;
	for (; i < n && !memcmp(rows[i].guid, g->r->guid, 16); i++) {
		if (rows[i].logger_id)
			g->enables++;
		else
			g->regs++;
	}
	*at = i;
	return 1;
}

/* The enable a classic provider acts on (a module without the flag: the first). */
static const struct nttrace_provider_row *latest(const struct guid_rows *g)
{
	uint32_t i;

	for (i = 0; i < g->enables; i++)
		if (g->r[g->regs + i].flags & NTTRACE_PROVIDER_ROW_LATEST)
			return &g->r[g->regs + i];
	return &g->r[g->regs];
}

static ULONG enumerate(PTRACE_GUID_PROPERTIES *array, ULONG room, PULONG count)
{
	struct nttrace_provider_row *rows = NULL;
	uint32_t n = 0, at = 0, total = 0, i;
	struct guid_rows g;
	ULONG err;

	if (!array || !count || !room)
		return ERROR_INVALID_PARAMETER;
	for (i = 0; i < room; i++)
		if (!array[i])
			return ERROR_INVALID_PARAMETER;
	err = get_rows(&rows, &n);
	if (err)
		return err;
	while (next_guid(rows, n, &at, &g)) {
		PTRACE_GUID_PROPERTIES p;

		if (!g.regs)
			continue;
		if (total++ >= room)
			continue;
		p = array[total - 1];
		memset(p, 0, sizeof(*p));
		memcpy(&p->Guid, g.r->guid, sizeof(p->Guid));
		if (g.enables) {
			const struct nttrace_provider_row *e = latest(&g);

			p->IsEnable = TRUE;
			p->LoggerId = e->logger_id;
			p->EnableLevel = e->level;
			p->EnableFlags = e->enable_flags;
		}
	}
	free(rows);
	*count = total;
	return total > room ? ERROR_MORE_DATA : ERROR_SUCCESS;
}

ULONG WMIAPI EnumerateTraceGuids(PTRACE_GUID_PROPERTIES *GuidPropertiesArray,
				 ULONG PropertyArrayCount, PULONG GuidCount)
{
	ULONG err = enumerate(GuidPropertiesArray, PropertyArrayCount, GuidCount);

	SetLastError(err);
	return err;
}

/*
 * The GUIDs of @rows, each once: all of them, or (@pid non-zero) those
 * @pid registered. Into @out (room for every GUID); returns the bytes.
 */
static size_t guid_list(const struct nttrace_provider_row *rows, uint32_t n, uint32_t pid,
			GUID *out)
{
	struct guid_rows g;
	uint32_t at = 0, i;
	size_t k = 0;

	while (next_guid(rows, n, &at, &g)) {
		for (i = 0; pid && i < g.regs && g.r[i].pid != pid; i++)
			;
		if (!pid || i < g.regs)
			memcpy(&out[k++], g.r->guid, sizeof(GUID));
	}
	return k * sizeof(GUID);
}

/*
 * TraceGuidQueryInfo's answer for @guid into @out (NULL: only the size);
 * returns the bytes, or 0 when the module does not know the GUID.
 */
static size_t guid_info(const struct nttrace_provider_row *rows, uint32_t n, const GUID *guid,
			uint8_t *out)
{
	uint32_t at = 0, instances, i, j;
	size_t block, size;
	struct guid_rows g;

	do {
		if (!next_guid(rows, n, &at, &g))
			return 0;
	} while (memcmp(g.r->guid, guid, sizeof(*guid)));
	instances = g.regs ? g.regs : 1;
	block = sizeof(TRACE_PROVIDER_INSTANCE_INFO) + g.enables * sizeof(TRACE_ENABLE_INFO);
	size = sizeof(TRACE_GUID_INFO) + instances * block;
	if (!out)
		return size;
	memset(out, 0, size);
	((PTRACE_GUID_INFO)out)->InstanceCount = instances;
	for (i = 0; i < instances; i++) {
		uint8_t *at_block = out + sizeof(TRACE_GUID_INFO) + i * block;
		PTRACE_PROVIDER_INSTANCE_INFO inst = (PTRACE_PROVIDER_INSTANCE_INFO)at_block;
		PTRACE_ENABLE_INFO en = (PTRACE_ENABLE_INFO)(inst + 1);

		inst->NextOffset = i + 1 < instances ? block : 0;
		inst->EnableCount = g.enables;
		if (!g.regs)
			inst->Flags = TRACE_PROVIDER_FLAG_PRE_ENABLE;
		else if (g.r[i].type == NTTRACE_REG_CLASSIC)
			inst->Flags = TRACE_PROVIDER_FLAG_LEGACY;
		inst->Pid = g.regs ? g.r[i].pid : 0;
		for (j = 0; j < g.enables; j++) {
			const struct nttrace_provider_row *e = &g.r[g.regs + j];

			en[j].IsEnabled = 1;
			en[j].Level = e->level;
			en[j].LoggerId = e->logger_id;
			en[j].MatchAnyKeyword = e->match_any_keyword;
			en[j].MatchAllKeyword = e->match_all_keyword;
			if (e->flags & NTTRACE_PROVIDER_ROW_STACK_TRACE)
				en[j].EnableProperty = EVENT_ENABLE_PROPERTY_STACK_TRACE;
		}
	}
	return size;
}

/* The answer of a class that reads the module's rows, in a malloc'd *@ans. */
static ULONG from_rows(TRACE_QUERY_INFO_CLASS cls, const GUID *guid, void **ans, size_t *size)
{
	struct nttrace_provider_row *rows = NULL;
	uint32_t n = 0;
	ULONG err = get_rows(&rows, &n);

	if (err)
		return err;
	/* Room for every GUID, or for the one GUID's answer. */
	*size = cls == TraceGuidQueryInfo ? guid_info(rows, n, guid, NULL) : n * sizeof(GUID);
	*ans = malloc(*size ? *size : 1);
	if (!*ans)
		err = ERROR_NOT_ENOUGH_MEMORY;
	else if (cls == TraceGuidQueryInfo && !*size)
		err = ERROR_WMI_GUID_NOT_FOUND;
	else if (cls == TraceGuidQueryInfo)
		guid_info(rows, n, guid, *ans);
	else
		*size = guid_list(rows, n, cls == TraceGuidQueryProcess ? (uint32_t)getpid() : 0,
				  *ans);
	free(rows);
	return err;
}

static ULONG enumerate_ex(TRACE_QUERY_INFO_CLASS cls, const void *in, ULONG in_size, void *out,
			  ULONG out_size, PULONG ret_len)
{
	ULONG max_loggers = NTTRACE_MAX_LOGGERS, err = ERROR_SUCCESS;
	const void *ans = NULL;
	void *mem = NULL;
	size_t size = 0;

	if ((unsigned int)cls >= MaxTraceSetInfoClass || !ret_len || (!out && out_size))
		return ERROR_INVALID_PARAMETER;
	if ((cls == TraceGuidQueryInfo || cls == TraceGroupQueryInfo) &&
	    (!in || in_size != sizeof(GUID)))
		return ERROR_INVALID_PARAMETER;
	switch (cls) {
	case TraceGuidQueryList:
	case TraceGuidQueryInfo:
	case TraceGuidQueryProcess:
		err = from_rows(cls, in, &mem, &size);
		ans = mem;
		break;
	case TraceMaxLoggersQuery:
		ans = &max_loggers;
		size = sizeof(max_loggers);
		break;
	case TraceGroupQueryList:
		break;
	case TraceGroupQueryInfo:
		err = ERROR_WMI_GUID_NOT_FOUND;
		break;
	default:
		err = ERROR_NOT_SUPPORTED;
	}
	if (!err && size > out_size)
		err = ERROR_INSUFFICIENT_BUFFER;
	else if (!err && size)
		memcpy(out, ans, size);
	if (!err || err == ERROR_INSUFFICIENT_BUFFER)
		*ret_len = size;
	free(mem);
	return err;
}

ULONG WMIAPI EnumerateTraceGuidsEx(TRACE_QUERY_INFO_CLASS TraceQueryInfoClass, PVOID InBuffer,
				   ULONG InBufferSize, PVOID OutBuffer, ULONG OutBufferSize,
				   PULONG ReturnLength)
{
	ULONG err = enumerate_ex(TraceQueryInfoClass, InBuffer, InBufferSize, OutBuffer,
				 OutBufferSize, ReturnLength);

	SetLastError(err);
	return err;
}
