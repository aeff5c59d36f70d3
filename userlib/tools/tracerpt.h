/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `nttrace tracerpt`'s files share: how Windows keeps an event's
 * values (tracerpt_value.c), so that the event XML and the .evtx (evtx.c) hold
 * the same, and the instrumentation manifest of the providers whose
 * events a log holds (-export, tracerpt_export.c), and the report of where
 * the time went (-report, tracerpt_report.c).
 */
#ifndef NTTRACE_TOOLS_TRACERPT_H
#define NTTRACE_TOOLS_TRACERPT_H

#include <stdio.h>

#include <nttrace/evntcons.h>
#include <nttrace/tdh.h>

#include "cli.h"

/* How Windows keeps a top-level field's value. */
enum tracerpt_kind {
	TRACERPT_TEXT,		/* as TDH's text */
	TRACERPT_POINTER,	/* 4 or 8 bytes, written as 0x and hex */
	TRACERPT_BINARY,	/* bytes, written as uppercase hex pairs */
	TRACERPT_INTEGER,	/* win:Int8 to win:UInt64 (in_type) as its size says */
};

/**
 * tracerpt_kind() - how Windows keeps @v's value
 * @v: a top-level field of an event, as render_tdh_fields() gives it
 *
 * Return: the kind; its bytes are at @v->off in the event's UserData,
 * @v->size of them.
 */
enum tracerpt_kind tracerpt_kind(const struct render_field *v);

/**
 * tracerpt_unterminated() - the string field that runs out of the data
 * @er: the event
 * @v: its top-level fields
 *
 * A string field that runs to the end of the event's data without its
 * terminating NUL: Windows renders no EventData for such an event, but
 * ProcessingErrorData with ERROR_EVT_INVALID_EVENT_DATA, this field's name
 * and the whole payload.
 *
 * Return: the field, or NULL when every string is whole.
 */
const struct render_field *tracerpt_unterminated(const EVENT_RECORD *er,
						  const struct render_fields *v);

/*
 * -export: one event of the log, in ProcessTrace's order, with TDH's
 * description of it (@t, NULL when TDH has none). Kept once per distinct
 * event; 0, or -1 when out of memory.
 */
int tracerpt_export_record(const EVENT_RECORD *er, const TRACE_EVENT_INFO *t);
/*
 * The manifest of what was kept, to @f; @base names the provider's
 * resource and message files. The providers that could not be written are
 * named on stderr, one line each, and counted. 0, or -1 when out of memory.
 */
int tracerpt_export_write(FILE *f, const char *base);
void tracerpt_export_free(void);

/* Events of one kind in the logs: provider, ID, opcode, version. */
struct tracerpt_count {
	GUID guid;
	USHORT id;
	UCHAR opcode, version;
	char *provider, *event;
	uint64_t n;
};

/* A log as -report describes it: its header, as OpenTrace read it. */
struct tracerpt_file {
	const char *path;
	char *session;		/* LoggerName, UTF-8; NULL if none */
	TRACE_LOGFILE_HEADER header;
};

/* @s as XML character data or attribute text (HTML's too); C0 controls as U+FFFD. */
void tracerpt_xml_text(FILE *f, const char *s);
/* "{guid}", lowercase, into @out. */
void tracerpt_guid_text(char *out, size_t room, const GUID *g);
/* A FILETIME as ISO 8601 UTC to the 100 ns ("...T12:00:00.123456700Z"), into @out. */
void tracerpt_time_text(char *out, size_t room, uint64_t ft);

/*
 * -report (tracerpt_report.c): each event, decoded by TDH (@v, when
 * @decoded), in ProcessTrace's order.
 */
void tracerpt_report_event(const EVENT_RECORD *er, const struct render_fields *v, int decoded);
/*
 * The report, as XML (or @html), of @nfiles logs, @events events and the
 * counts by kind (@counts, sorted by provider GUID); 0, or -1 when the
 * events could not all be counted (out of memory).
 */
int tracerpt_report_write(FILE *f, int html, const struct tracerpt_file *files,
			  unsigned int nfiles, uint64_t events, const struct tracerpt_count *counts,
			  size_t ncounts);
void tracerpt_report_free(void);

#endif /* NTTRACE_TOOLS_TRACERPT_H */
