// SPDX-License-Identifier: LGPL-2.1
/*
 * TdhGetWppProperty and TdhGetWppMessage: a message event's WPP
 * properties (tdh_wpp_event.c) by the formats of a decoding handle
 * (tdh_wpp_handle.c).
 *
 * Errors as Microsoft documents the functions (learn.microsoft.com,
 * tdh.h): ERROR_INVALID_PARAMETER for a NULL Handle, EventRecord,
 * PropertyName or Buffer, ERROR_NOT_FOUND for a property not found,
 * ERROR_INSUFFICIENT_BUFFER when *BufferSize is too small. Chosen here:
 *  - *BufferSize gets the size needed whenever the value does not fit, and
 *    the size written on success; a NULL Buffer with a size of 0 asks for
 *    the size (TdhGetWppProperty's page says to call it "with a null
 *    buffer" for the size), with a size above 0 it is
 *    ERROR_INVALID_PARAMETER; a NULL BufferSize is ERROR_INVALID_PARAMETER;
 *  - an event that is no message, or whose message has no format in the
 *    handle's, is ERROR_NOT_FOUND, as is any property name of a handle
 *    without formats; a handle not open is ERROR_INVALID_PARAMETER;
 *  - TdhGetWppMessage's message is the FormattedString property: the
 *    message alone, UTF-16 with its NUL (no prefix of time or IDs).
 */
#include <stdlib.h>
#include <string.h>

#include "tdh_wpp.h"

static const WCHAR formatted[] = { 'F', 'o', 'r', 'm', 'a', 't', 't', 'e', 'd',
				   'S', 't', 'r', 'i', 'n', 'g', 0 };

static TDHSTATUS done(TDHSTATUS err)
{
	SetLastError(err);
	return err;
}

static ULONG get(TDH_HANDLE h, const EVENT_RECORD *er, const WCHAR *name, ULONG *size,
		 BYTE *buf)
{
	struct nttrace_tdh_wpp_formats *f;
	struct nttrace_tdh_wpp_opts o;
	uint8_t *value = NULL;
	uint32_t n = 0;
	ULONG err;

	if (!h || !er || !name || !size || (!buf && *size))
		return ERROR_INVALID_PARAMETER;
	nttrace_tdh_wpp_lock();
	err = nttrace_tdh_wpp_handle(h, &f, &o);
	if (!err)
		err = nttrace_tdh_wpp_value(f, &o, er, name, &value, &n);
	nttrace_tdh_wpp_unlock();
	if (err)
		return err;
	if (*size < n)
		err = ERROR_INSUFFICIENT_BUFFER;
	else
		memcpy(buf, value, n);
	*size = n;
	free(value);
	return err;
}

TDHSTATUS WINAPI TdhGetWppProperty(TDH_HANDLE Handle, PEVENT_RECORD EventRecord,
				   PWSTR PropertyName, PULONG BufferSize, PBYTE Buffer)
{
	return done(get(Handle, EventRecord, PropertyName, BufferSize, Buffer));
}

TDHSTATUS WINAPI TdhGetWppMessage(TDH_HANDLE Handle, PEVENT_RECORD EventRecord,
				  PULONG BufferSize, PBYTE Buffer)
{
	return done(get(Handle, EventRecord, formatted, BufferSize, Buffer));
}
