/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * TDH's DecodingSourceWPP: what its files share. A message event
 * (EVENT_HEADER_FLAG_TRACE_MESSAGE: TraceMessage, DoTraceMessage) is
 * decoded with the message formats <nttrace/tmf.h> loads ("TMF" in
 * Windows' words): from a decoding handle (tdh_wpp_handle.c) or from the
 * TDH_CONTEXTs given to TdhGetEventInformation and TdhGetProperty
 * (tdh_wpp_load.c keeps what they loaded). tdh_wpp_event.c makes an
 * event's properties from its format; tdh_wpp.c has TdhGetWppProperty and
 * TdhGetWppMessage.
 *
 * One mutex covers the handles, the formats they hold and the formats
 * loaded for contexts: a handle may be closed by one thread while another
 * decodes with it, and decoding one event takes microseconds.
 */
#ifndef NTTRACE_TDH_WPP_H
#define NTTRACE_TDH_WPP_H

#include <stdint.h>

#include <nttrace/tmf.h>

#include "tdh_internal.h"

/* A search path's length in UTF-16 units: room for many directories. */
#define NTTRACE_TDH_WPP_SEARCH_MAX	65536

/* Formats loaded from a TMF file or a search path, and the paths they came from. */
struct nttrace_tdh_wpp_formats {
	struct nttrace_tmf tmf;
	char **paths;		/* the formats' source strings point here */
	size_t npaths;
};

/* How an event is decoded besides its formats. */
struct nttrace_tdh_wpp_opts {
	uint32_t psz;		/* TDH_CONTEXT_POINTERSIZE: 4, 8, or 0 (none given) */
	int gmt;		/* TDH_CONTEXT_WPP_GMT: SystemTime in UTC, not local */
};

void nttrace_tdh_wpp_lock(void);
void nttrace_tdh_wpp_unlock(void);

/* ---- tdh_wpp_load.c ---- */

/*
 * The formats of @file (UTF-8, or NULL) and @search (';'-separated
 * directories, or NULL), newly allocated. @file with no '/' is looked for
 * in @search's directories, then TRACE_FORMAT_SEARCH_PATH's, then the
 * current one; without @file every file of @search's directories that
 * loads is loaded. ERROR_INVALID_PARAMETER when @file is not found or
 * does not load, ERROR_NOT_ENOUGH_MEMORY.
 */
ULONG nttrace_tdh_wpp_load(const char *file, const char *search,
			   struct nttrace_tdh_wpp_formats **out);
void nttrace_tdh_wpp_free(struct nttrace_tdh_wpp_formats *f);

/*
 * The formats the contexts @ctx (@n of them, checked already) name, and
 * their options; loaded the first time, kept for the next call with the
 * same paths. The caller holds the lock while it uses them.
 * ERROR_NOT_FOUND when no context names a TMF (file or search path).
 */
ULONG nttrace_tdh_wpp_contexts(ULONG n, const TDH_CONTEXT *ctx,
			       struct nttrace_tdh_wpp_formats **f,
			       struct nttrace_tdh_wpp_opts *o);

/* ---- tdh_wpp_event.c ---- */

/*
 * The TRACE_EVENT_INFO of message event @er by @f, newly allocated.
 * ERROR_NOT_FOUND when @er is no message or has no format in @f.
 */
ULONG nttrace_tdh_wpp_info(const struct nttrace_tdh_wpp_formats *f,
			   const struct nttrace_tdh_wpp_opts *o, const EVENT_RECORD *er,
			   TRACE_EVENT_INFO **tei, ULONG *size);
/*
 * The value of @er's WPP property @name (as TdhGetProperty hands it out:
 * UTF-16 strings with their NUL), newly allocated. ERROR_NOT_FOUND for no
 * format or no such property.
 */
ULONG nttrace_tdh_wpp_value(const struct nttrace_tdh_wpp_formats *f,
			    const struct nttrace_tdh_wpp_opts *o, const EVENT_RECORD *er,
			    const WCHAR *name, uint8_t **value, uint32_t *size);


/* ---- tdh_wpp_handle.c ---- */

/*
 * The formats and options of decoding handle @h (the caller holds the
 * lock); ERROR_INVALID_PARAMETER for a handle that is not open.
 */
ULONG nttrace_tdh_wpp_handle(TDH_HANDLE h, struct nttrace_tdh_wpp_formats **f,
			     struct nttrace_tdh_wpp_opts *o);

#endif /* NTTRACE_TDH_WPP_H */
