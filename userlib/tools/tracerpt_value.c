// SPDX-License-Identifier: GPL-2.0
/*
 * How Windows keeps an event's values when it renders a trace (tracerpt's
 * event XML and .evtx, read back): the rules tracerpt.c's XML and evtx.c's
 * .evtx share (tracerpt.h). Windows keeps each value as its input type,
 * not its output type: integers are decimal even where the manifest asks
 * for win:HexInt32 or win:HexInt64 (a request ID, an NTSTATUS), a pointer
 * is 0x and lowercase hex without leading zeros, binary data (a socket
 * address too) is uppercase hex pairs; the other types are TDH's text.
 * And the text every output writes: XML's escaping, GUIDs and times as
 * tracerpt writes them.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <nttrace/uapi.h>

#include "tracerpt.h"

enum tracerpt_kind tracerpt_kind(const struct render_field *v)
{
	if (v->single && v->in_type == TDH_INTYPE_POINTER && (v->size == 4 || v->size == 8))
		return TRACERPT_POINTER;
	if (v->single && v->in_type == TDH_INTYPE_BINARY)
		return TRACERPT_BINARY;
	/* win:Int8 to win:UInt64: signed ones are the odd input types. */
	if (v->single && v->in_type >= TDH_INTYPE_INT8 && v->in_type <= TDH_INTYPE_UINT64 &&
	    v->size == 1U << (v->in_type - TDH_INTYPE_INT8) / 2)
		return TRACERPT_INTEGER;
	return TRACERPT_TEXT;
}

/* TDH reads such a string anyway; Windows does not. */
const struct render_field *tracerpt_unterminated(const EVENT_RECORD *er,
						  const struct render_fields *v)
{
	const uint8_t *d = er->UserData;
	unsigned int i;

	for (i = 0; i < v->n; i++) {
		const struct render_field *r = &v->v[i];
		uint32_t end = r->off + r->size;

		if (!r->single || end != er->UserDataLength || !r->size)
			continue;
		if (r->in_type == TDH_INTYPE_UNICODESTRING &&
		    (r->size < 2 || d[end - 1] || d[end - 2]))
			return r;
		if (r->in_type == TDH_INTYPE_ANSISTRING && d[end - 1])
			return r;
	}
	return NULL;
}

/* @s as XML character data or attribute text; C0 controls as U+FFFD. */
void tracerpt_xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
				fputs("\xef\xbf\xbd", f);
			else
				fputc(c, f);
		}
	}
}

/* "{lowercase GUID}", as tracerpt writes them. */
void tracerpt_guid_text(char *out, size_t room, const GUID *g)
{
	char s[NTTRACE_GUID_STRING];

	nttrace_guid_string((const uint8_t *)g, s);
	snprintf(out, room, "{%s}", s);
}

/* A FILETIME as "2014-01-24T12:00:20.612995800Z" (100 ns, then "00"). */
void tracerpt_time_text(char *out, size_t room, uint64_t ft)
{
	const uint64_t epoch = 116444736000000000ULL;	/* 1601 to 1970, in 100 ns */
	time_t secs = (time_t)((ft - epoch) / 10000000);
	struct tm tm;

	if (ft < epoch || !gmtime_r(&secs, &tm)) {
		snprintf(out, room, "%" PRIu64, ft);
		return;
	}
	snprintf(out, room, "%04d-%02d-%02dT%02d:%02d:%02d.%07" PRIu64 "00Z",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
		 tm.tm_sec, (ft - epoch) % 10000000);
}
