// SPDX-License-Identifier: LGPL-2.1
/*
 * A message event decoded by its format (DecodingSourceWPP): the
 * properties Microsoft lists for WPP events under PROPERTY_DATA_DESCRIPTOR
 * (learn.microsoft.com, tdh.h), in that order and with the TDH types
 * given there. They are not fields of the event's data but made from the
 * format and the header, so TdhGetProperty hands out these values, not
 * bytes of UserData:
 *   FormattedString   the message, rendered as `nttrace dump --formats`
 *                     renders it (nttrace_tmf_render; a mismatch shown
 *                     in angle brackets in the text)
 *   SequenceNum       0: opentrace.c does not pass TraceMessage's
 *                     sequence number on (EVENT_RECORD has no field for it)
 *   FunctionName, ComponentName, SubComponentName, FlagsName, LevelName
 *                     empty: nttrace's formats do not record them (Microsoft:
 *                     a component name appears only when the tracing
 *                     code gives one; <nttrace/wpp.h> has none of these)
 *   TraceGuid         the message GUID (EventHeader.ProviderId)
 *   GuidTypeName      "FILE:LINE", FILE without its directories, as
 *                     `nttrace dump` shows it
 *   SystemTime        EventHeader.TimeStamp as a SYSTEMTIME, local time or
 *                     UTC (TDH_CONTEXT_WPP_GMT); a FILETIME, as ProcessTrace
 *                     gives it without PROCESS_TRACE_MODE_RAW_TIMESTAMP
 * Strings are UTF-16 with their NUL (bytes that are not UTF-8 read as
 * Latin-1). The TRACE_EVENT_INFO: ProviderGuid and EventGuid the message
 * GUID (nttrace's WPP gives each source file its own), ProviderName the
 * format's FILE without directories, EventName the GuidTypeName.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tdh_man.h"
#include "tdh_wpp.h"

/* The rendered message's largest size: past it the text is cut. */
#define MAX_TEXT	(16U << 20)

enum { FORMATTED, SEQUENCE, TRACE_GUID = 5, GUID_TYPE, SYSTEM_TIME };

static const struct {
	const char *name;
	USHORT in;
} props[] = {
	{ "FormattedString", TDH_INTYPE_UNICODESTRING },
	{ "SequenceNum", TDH_INTYPE_UINT32 },
	{ "FunctionName", TDH_INTYPE_UNICODESTRING },
	{ "ComponentName", TDH_INTYPE_UNICODESTRING },
	{ "SubComponentName", TDH_INTYPE_UNICODESTRING },
	{ "TraceGuid", TDH_INTYPE_GUID },
	{ "GuidTypeName", TDH_INTYPE_UNICODESTRING },
	{ "SystemTime", TDH_INTYPE_SYSTEMTIME },
	{ "FlagsName", TDH_INTYPE_UNICODESTRING },
	{ "LevelName", TDH_INTYPE_UNICODESTRING },
};
#define NPROPS (sizeof(props) / sizeof(props[0]))

/* The event's pointer size: its header's, else the context's; 0: the format's. */
static unsigned int event_psz(const EVENT_RECORD *er, const struct nttrace_tdh_wpp_opts *o)
{
	if (er->EventHeader.Flags & EVENT_HEADER_FLAG_32_BIT_HEADER)
		return 4;
	if (er->EventHeader.Flags & EVENT_HEADER_FLAG_64_BIT_HEADER)
		return 8;
	return o->psz;
}

static const struct nttrace_tmf_format *format_of(const struct nttrace_tdh_wpp_formats *f,
						  const struct nttrace_tdh_wpp_opts *o,
						  const EVENT_RECORD *er)
{
	const EVENT_HEADER *eh = &er->EventHeader;

	if (!f || !(eh->Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE))
		return NULL;
	/* Under the lock: a look-up may sort a table that loaded no file. */
	return nttrace_tmf_find((struct nttrace_tmf *)&f->tmf, (const uint8_t *)&eh->ProviderId,
				eh->EventDescriptor.Id, event_psz(er, o));
}

static const char *base_name(const char *file)
{
	const char *slash = strrchr(file, '/');

	return slash ? slash + 1 : file;
}

/* "FILE:LINE", newly allocated. */
static char *guid_type_name(const struct nttrace_tmf_format *fmt)
{
	const char *base = base_name(fmt->file);
	size_t n = strlen(base) + 12;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s:%u", base, fmt->line);
	return s;
}

/*
 * The message, newly allocated: rendered again into a buffer twice as
 * large while it fills the last one (the renderer cuts what does not fit).
 */
static char *message(const struct nttrace_tmf_format *fmt, const EVENT_RECORD *er,
		     unsigned int psz)
{
	const uint8_t *data = er->UserData ? er->UserData : (const void *)"";
	size_t size = 4096;
	char *s = NULL;

	for (;;) {
		char *t = realloc(s, size);

		if (!t) {
			free(s);
			return NULL;
		}
		s = t;
		nttrace_tmf_render(fmt, data, er->UserData ? er->UserDataLength : 0, psz, s, size);
		if (strlen(s) + 1 < size || size >= MAX_TEXT)
			return s;
		size *= 2;
	}
}

/* @s (UTF-8, else Latin-1) as UTF-16 with its NUL, newly allocated. */
static ULONG wide(const char *s, uint8_t **value, uint32_t *size)
{
	struct nttrace_tdh_text t = { NULL, 0, 0 };
	size_t n = strlen(s);

	nttrace_tdh_put_utf8(&t, (const uint8_t *)s, n, 1);
	t.cap = t.n + 1;
	if (t.cap > 0x7FFFFFFF / 2)
		return ERROR_NOT_ENOUGH_MEMORY;
	t.buf = malloc(2 * t.cap);
	if (!t.buf)
		return ERROR_NOT_ENOUGH_MEMORY;
	t.n = 0;
	nttrace_tdh_put_utf8(&t, (const uint8_t *)s, n, 1);
	nttrace_tdh_put(&t, 0);
	*value = (uint8_t *)t.buf;
	*size = (uint32_t)(2 * t.n);
	return ERROR_SUCCESS;
}

static ULONG bytes(const void *p, uint32_t n, uint8_t **value, uint32_t *size)
{
	*value = malloc(n);
	if (!*value)
		return ERROR_NOT_ENOUGH_MEMORY;
	memcpy(*value, p, n);
	*size = n;
	return ERROR_SUCCESS;
}

static ULONG value_of(unsigned int i, const struct nttrace_tmf_format *fmt,
		      const struct nttrace_tdh_wpp_opts *o, const EVENT_RECORD *er,
		      uint8_t **value, uint32_t *size)
{
	const EVENT_HEADER *eh = &er->EventHeader;
	uint32_t zero = 0;
	SYSTEMTIME st;
	char *s;
	ULONG err;

	switch (i) {
	case FORMATTED:
		s = message(fmt, er, event_psz(er, o));
		break;
	case GUID_TYPE:
		s = guid_type_name(fmt);
		break;
	case SEQUENCE:
		return bytes(&zero, sizeof(zero), value, size);
	case TRACE_GUID:
		return bytes(&eh->ProviderId, sizeof(eh->ProviderId), value, size);
	case SYSTEM_TIME:
		nttrace_systemtime((uint64_t)eh->TimeStamp.QuadPart, o->gmt, &st);
		return bytes(&st, sizeof(st), value, size);
	default:
		return wide("", value, size);
	}
	if (!s)
		return ERROR_NOT_ENOUGH_MEMORY;
	err = wide(s, value, size);
	free(s);
	return err;
}

/* @w (UTF-16) is the ASCII @name, case and all (Microsoft: case-sensitive). */
static int is_name(const WCHAR *w, const char *name)
{
	size_t i;

	for (i = 0; name[i]; i++)
		if (w[i] != (unsigned char)name[i])
			return 0;
	return !w[i];
}

ULONG nttrace_tdh_wpp_value(const struct nttrace_tdh_wpp_formats *f,
			    const struct nttrace_tdh_wpp_opts *o, const EVENT_RECORD *er,
			    const WCHAR *name, uint8_t **value, uint32_t *size)
{
	const struct nttrace_tmf_format *fmt = format_of(f, o, er);
	unsigned int i;

	if (!fmt)
		return ERROR_NOT_FOUND;
	for (i = 0; i < NPROPS; i++)
		if (is_name(name, props[i].name))
			return value_of(i, fmt, o, er, value, size);
	return ERROR_NOT_FOUND;
}

ULONG nttrace_tdh_wpp_info(const struct nttrace_tdh_wpp_formats *f,
			   const struct nttrace_tdh_wpp_opts *o, const EVENT_RECORD *er,
			   TRACE_EVENT_INFO **out, ULONG *out_size)
{
	const struct nttrace_tmf_format *fmt = format_of(f, o, er);
	const EVENT_HEADER *eh = &er->EventHeader;
	TRACE_EVENT_INFO *tei;
	size_t size, at, i;
	char *event_name;

	if (!fmt)
		return ERROR_NOT_FOUND;
	event_name = guid_type_name(fmt);
	if (!event_name)
		return ERROR_NOT_ENOUGH_MEMORY;
	at = offsetof(TRACE_EVENT_INFO, EventPropertyInfoArray) +
	     NPROPS * sizeof(EVENT_PROPERTY_INFO);
	size = at + nttrace_man_wsize(base_name(fmt->file)) + nttrace_man_wsize(event_name);
	for (i = 0; i < NPROPS; i++)
		size += nttrace_man_wsize(props[i].name);
	tei = size > 0xFFFFFFFF ? NULL : calloc(1, size);
	if (!tei) {
		free(event_name);
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	tei->ProviderGuid = eh->ProviderId;
	tei->EventGuid = eh->ProviderId;
	tei->EventDescriptor = eh->EventDescriptor;
	tei->DecodingSource = DecodingSourceWPP;
	tei->PropertyCount = NPROPS;
	tei->TopLevelPropertyCount = NPROPS;
	tei->ProviderNameOffset = nttrace_man_wput((uint8_t *)tei, &at, base_name(fmt->file));
	tei->EventNameOffset = nttrace_man_wput((uint8_t *)tei, &at, event_name);
	for (i = 0; i < NPROPS; i++) {
		EVENT_PROPERTY_INFO *e = &tei->EventPropertyInfoArray[i];

		e->NameOffset = nttrace_man_wput((uint8_t *)tei, &at, props[i].name);
		e->nonStructType.InType = props[i].in;
		e->count = 1;
		/* Strings end at their NUL: no length, as TdhGetProperty gives them. */
		if (props[i].in == TDH_INTYPE_UINT32)
			e->length = 4;
		else if (props[i].in != TDH_INTYPE_UNICODESTRING)
			e->length = 16;		/* GUID, SYSTEMTIME */
	}
	free(event_name);
	*out = tei;
	*out_size = (ULONG)size;
	return ERROR_SUCCESS;
}
