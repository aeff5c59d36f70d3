// SPDX-License-Identifier: LGPL-2.1
/*
 * TdhGetEventInformation, TdhGetPropertySize and TdhGetProperty: what the
 * event says about itself, checked and handed out as Microsoft documents
 * these functions (learn.microsoft.com, tdh.h): the Win32 errors, the
 * buffer sizes in bytes, "a size of 0 asks for the size". The decoding
 * information is a TraceLogging event's own (tdh_tlg.c), else a manifest
 * loaded with TdhLoadManifest (tdh_man_event.c), else the kernel's MOF
 * classes (tdh_mof.c); any other event gets ERROR_NOT_FOUND, which
 * Windows returns for an event whose schema it has not. A message event
 * (EVENT_HEADER_FLAG_TRACE_MESSAGE) given with a TDH_CONTEXT_WPP_TMFFILE
 * or _TMFSEARCHPATH context is decoded by its format instead
 * (DecodingSourceWPP, tdh_wpp_event.c): its properties are made from the
 * format and the header, so TdhGetProperty copies them from there, not
 * from UserData. (TdhGetEventMapInformation: tdh_man_map.c.)
 *
 * Where Microsoft lists no error for a case, the choice is: a damaged
 * TraceLogging schema is ERROR_INVALID_DATA; data shorter than the schema
 * says (TdhGetProperty) is ERROR_EVT_INVALID_EVENT_DATA, as
 * TdhFormatProperty documents it for data that does not match.
 */
#include <stdlib.h>
#include <string.h>

#include "tdh_man.h"
#include "tdh_wpp.h"

static TDHSTATUS done(TDHSTATUS err)
{
	SetLastError(err);
	return err;
}

/*
 * The contexts must not repeat a type (Microsoft's words) and must be of
 * known types; TDH_CONTEXT_POINTERSIZE gives the pointer size of events
 * whose header has none (4 or 8). The others are WPP's: for message
 * events (wpp_wanted()), ignored for the others as Microsoft says
 * (TDH_CONTEXT_TYPE's remarks).
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

/* A message event, with contexts naming formats: DecodingSourceWPP. */
static int wpp_wanted(const EVENT_RECORD *er, ULONG n, const TDH_CONTEXT *ctx)
{
	ULONG i;

	if (!(er->EventHeader.Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE))
		return 0;
	for (i = 0; i < n; i++)
		if (ctx[i].ParameterType == TDH_CONTEXT_WPP_TMFFILE ||
		    ctx[i].ParameterType == TDH_CONTEXT_WPP_TMFSEARCHPATH)
			return 1;
	return 0;
}

static ULONG wpp_info(const EVENT_RECORD *er, ULONG n, const TDH_CONTEXT *ctx,
		      TRACE_EVENT_INFO **tei, ULONG *size)
{
	struct nttrace_tdh_wpp_formats *f;
	struct nttrace_tdh_wpp_opts o;
	ULONG err;

	nttrace_tdh_wpp_lock();
	err = nttrace_tdh_wpp_contexts(n, ctx, &f, &o);
	if (!err)
		err = nttrace_tdh_wpp_info(f, &o, er, tei, size);
	nttrace_tdh_wpp_unlock();
	return err;
}

/* The value of WPP property @path (one step: WPP has no structures), allocated. */
static ULONG wpp_value(const EVENT_RECORD *er, ULONG nctx, const TDH_CONTEXT *ctx, ULONG n,
		       const PROPERTY_DATA_DESCRIPTOR *path, uint8_t **value, uint32_t *size)
{
	const WCHAR *name = (const WCHAR *)(uintptr_t)path->PropertyName;
	struct nttrace_tdh_wpp_formats *f;
	struct nttrace_tdh_wpp_opts o;
	ULONG err;

	if (n != 1 || !name || (path->ArrayIndex && path->ArrayIndex != NTTRACE_TDH_ALL))
		return ERROR_INVALID_PARAMETER;
	nttrace_tdh_wpp_lock();
	err = nttrace_tdh_wpp_contexts(nctx, ctx, &f, &o);
	if (!err)
		err = nttrace_tdh_wpp_value(f, &o, er, name, value, size);
	nttrace_tdh_wpp_unlock();
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
	if (!err && wpp_wanted(Event, TdhContextCount, TdhContext))
		err = wpp_info(Event, TdhContextCount, TdhContext, &tei, &size);
	else if (!err)
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

/*
 * The bytes of the property @path names: in the event's data, or made
 * for a WPP event (then allocated in *@owned, which the caller frees).
 */
static ULONG find(const EVENT_RECORD *er, ULONG nctx, const TDH_CONTEXT *ctx, ULONG n,
		  const PROPERTY_DATA_DESCRIPTOR *path, const uint8_t **p, uint32_t *size,
		  uint8_t **owned)
{
	const uint8_t *d = er && er->UserData ? er->UserData : (const void *)"";
	TRACE_EVENT_INFO *tei;
	uint32_t psz, off;
	ULONG err, tei_size;

	*owned = NULL;
	if (!er || !n || !path || (er->UserDataLength && !er->UserData))
		return ERROR_INVALID_PARAMETER;
	err = pointer_size(er, nctx, ctx, &psz);
	if (!err && wpp_wanted(er, nctx, ctx)) {
		err = wpp_value(er, nctx, ctx, n, path, owned, size);
		*p = *owned;
		return err;
	}
	if (!err)
		err = event_info(er, psz, &tei, &tei_size);
	if (err)
		return err;
	err = nttrace_tdh_locate(tei, d, er->UserDataLength, psz, path, n, &off, size);
	if (!err)
		*p = d + off;
	free(tei);
	return err;
}

TDHSTATUS WINAPI TdhGetPropertySize(PEVENT_RECORD pEvent, ULONG TdhContextCount,
				    PTDH_CONTEXT pTdhContext, ULONG PropertyDataCount,
				    PPROPERTY_DATA_DESCRIPTOR pPropertyData, ULONG *pPropertySize)
{
	const uint8_t *p;
	uint8_t *owned;
	uint32_t size;
	ULONG err;

	if (!pPropertySize)
		return done(ERROR_INVALID_PARAMETER);
	err = find(pEvent, TdhContextCount, pTdhContext, PropertyDataCount, pPropertyData,
		   &p, &size, &owned);
	if (!err)
		*pPropertySize = size;
	free(owned);
	return done(err);
}

TDHSTATUS WINAPI TdhGetProperty(PEVENT_RECORD pEvent, ULONG TdhContextCount,
				PTDH_CONTEXT pTdhContext, ULONG PropertyDataCount,
				PPROPERTY_DATA_DESCRIPTOR pPropertyData, ULONG BufferSize,
				PBYTE pBuffer)
{
	const uint8_t *p;
	uint8_t *owned;
	uint32_t size;
	ULONG err;

	if (BufferSize && !pBuffer)
		return done(ERROR_INVALID_PARAMETER);
	err = find(pEvent, TdhContextCount, pTdhContext, PropertyDataCount, pPropertyData,
		   &p, &size, &owned);
	if (!err && BufferSize < size)
		err = ERROR_INSUFFICIENT_BUFFER;
	if (!err && size)
		memcpy(pBuffer, p, size);
	free(owned);
	return done(err);
}
