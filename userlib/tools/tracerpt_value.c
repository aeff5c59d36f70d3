// SPDX-License-Identifier: GPL-2.0
/*
 * How Windows keeps an event's values when it renders a trace (tracerpt's
 * event XML and .evtx, read back): the rules tracerpt.c's XML and evtx.c's
 * .evtx share (tracerpt.h). Windows keeps each value as its input type,
 * not its output type: integers are decimal even where the manifest asks
 * for win:HexInt32 or win:HexInt64 (a request ID, an NTSTATUS), a pointer
 * is 0x and lowercase hex without leading zeros, binary data (a socket
 * address too) is uppercase hex pairs; the other types are TDH's text.
 */
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
