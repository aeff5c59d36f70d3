// SPDX-License-Identifier: LGPL-2.1
/*
 * TdhGetEventInformation, TdhGetPropertySize and TdhGetProperty: what the
 * event says about itself, checked and handed out as Microsoft documents
 * these functions (learn.microsoft.com, tdh.h): the Win32 errors, the
 * buffer sizes in bytes, "a size of 0 asks for the size". The decoding
 * information is a TraceLogging event's own (tdh_tlg.c), else a manifest
 * loaded with TdhLoadManifest (tdh_man_event.c), else the kernel's MOF
 * classes (tdh_mof.c); any other event gets ERROR_NOT_FOUND, which
 * Windows returns for an event whose schema it has not.
 * (TdhGetEventMapInformation: tdh_man_map.c.)
 *
 * Where Microsoft lists no error for a case, the choice is: a damaged
 * TraceLogging schema is ERROR_INVALID_DATA; data shorter than the schema
 * says (TdhGetProperty) is ERROR_EVT_INVALID_EVENT_DATA, as
 * TdhFormatProperty documents it for data that does not match.
 */
#include <stdlib.h>
#include <string.h>

#include "tdh_man.h"

static TDHSTATUS done(TDHSTATUS err)
{
	SetLastError(err);
	return err;
}

/*
 * The contexts must not repeat a type (Microsoft's words) and must be of
 * known types; TDH_CONTEXT_POINTERSIZE gives the pointer size of events
 * whose header has none (4 or 8). The others are WPP's and change nothing
 * here.
 */
static ULONG check_contexts(ULONG n, const TDH_CONTEXT *ctx, uint32_t *psz)
{
	unsigned int seen = 0;
	ULONG i;

	if (n && !ctx)
		return ERROR_INVALID_PARAMETER;
	for (i = 0; i < n; i++) {
		unsigned int type = ctx[i].ParameterType;

		if (type >= TDH_CONTEXT_MAXIMUM || (seen & 1U << type))
			return ERROR_INVALID_PARAMETER;
		seen |= 1U << type;
		if (type == TDH_CONTEXT_POINTERSIZE) {
			if (ctx[i].ParameterValue != 4 && ctx[i].ParameterValue != 8)
				return ERROR_INVALID_PARAMETER;
			*psz = (uint32_t)ctx[i].ParameterValue;
		}
	}
	return ERROR_SUCCESS;
}

/*
 * The event's pointer size: its header's, else the context's, else this
 * process's (the order the SDK's tdh.h gives for TDH_CONTEXT_POINTERSIZE).
 */
static ULONG pointer_size(const EVENT_RECORD *er, ULONG n, const TDH_CONTEXT *ctx, uint32_t *psz)
{
	ULONG err;

	*psz = sizeof(void *);
	err = check_contexts(n, ctx, psz);
	if (er->EventHeader.Flags & EVENT_HEADER_FLAG_32_BIT_HEADER)
		*psz = 4;
	else if (er->EventHeader.Flags & EVENT_HEADER_FLAG_64_BIT_HEADER)
		*psz = 8;
	return err;
}

/*
 * The event's TRACE_EVENT_INFO, allocated: its own TraceLogging schema,
 * else a manifest loaded (tdh_man_event.c), else the kernel's MOF classes;
 * ERROR_NOT_FOUND if it has none.
 */
static ULONG event_info(const EVENT_RECORD *er, uint32_t psz, TRACE_EVENT_INFO **tei,
			ULONG *size)
{
	ULONG err = nttrace_tdh_tlg_info(er, psz, tei, size);

	if (err == ERROR_NOT_FOUND)
		err = nttrace_tdh_man_info(er, psz, tei, size);
	if (err == ERROR_NOT_FOUND)
		err = nttrace_tdh_mof_info(er, psz, tei, size);
	return err;
}

TDHSTATUS WINAPI TdhGetEventInformation(PEVENT_RECORD Event, ULONG TdhContextCount,
					PTDH_CONTEXT TdhContext, PTRACE_EVENT_INFO Buffer,
					PULONG BufferSize)
{
	TRACE_EVENT_INFO *tei;
	uint32_t psz;
	ULONG err, size;

	if (!Event || !BufferSize)
		return done(ERROR_INVALID_PARAMETER);
	err = pointer_size(Event, TdhContextCount, TdhContext, &psz);
	if (!err)
		err = event_info(Event, psz, &tei, &size);
	if (err)
		return done(err);
	/* No buffer counts as one of no bytes: the size is all it asks. */
	if (!Buffer || *BufferSize < size)
		err = ERROR_INSUFFICIENT_BUFFER;
	else
		memcpy(Buffer, tei, size);
	*BufferSize = size;
	free(tei);
	return done(err);
}

/* Where the property @path names is in the event's data. */
static ULONG find(const EVENT_RECORD *er, ULONG nctx, const TDH_CONTEXT *ctx, ULONG n,
		  const PROPERTY_DATA_DESCRIPTOR *path, uint32_t *off, uint32_t *size)
{
	TRACE_EVENT_INFO *tei;
	uint32_t psz;
	ULONG err, tei_size;

	if (!er || !n || !path || (er->UserDataLength && !er->UserData))
		return ERROR_INVALID_PARAMETER;
	err = pointer_size(er, nctx, ctx, &psz);
	if (!err)
		err = event_info(er, psz, &tei, &tei_size);
	if (err)
		return err;
	err = nttrace_tdh_locate(tei, er->UserData ? er->UserData : (const void *)"",
				 er->UserDataLength, psz, path, n, off, size);
	free(tei);
	return err;
}

TDHSTATUS WINAPI TdhGetPropertySize(PEVENT_RECORD pEvent, ULONG TdhContextCount,
				    PTDH_CONTEXT pTdhContext, ULONG PropertyDataCount,
				    PPROPERTY_DATA_DESCRIPTOR pPropertyData, ULONG *pPropertySize)
{
	uint32_t off, size;
	ULONG err;

	if (!pPropertySize)
		return done(ERROR_INVALID_PARAMETER);
	err = find(pEvent, TdhContextCount, pTdhContext, PropertyDataCount, pPropertyData,
		   &off, &size);
	if (!err)
		*pPropertySize = size;
	return done(err);
}

TDHSTATUS WINAPI TdhGetProperty(PEVENT_RECORD pEvent, ULONG TdhContextCount,
				PTDH_CONTEXT pTdhContext, ULONG PropertyDataCount,
				PPROPERTY_DATA_DESCRIPTOR pPropertyData, ULONG BufferSize,
				PBYTE pBuffer)
{
	uint32_t off, size;
	ULONG err;

	if (BufferSize && !pBuffer)
		return done(ERROR_INVALID_PARAMETER);
	err = find(pEvent, TdhContextCount, pTdhContext, PropertyDataCount, pPropertyData,
		   &off, &size);
	if (!err && BufferSize < size)
		err = ERROR_INSUFFICIENT_BUFFER;
	if (!err && size)
		memcpy(pBuffer, (const uint8_t *)pEvent->UserData + off, size);
	return done(err);
}
