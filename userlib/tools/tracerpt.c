// SPDX-License-Identifier: LGPL-2.1
/*
 * `nttrace tracerpt`: Windows' tracerpt.exe over log files, its dump and
 * summary:
 *
 *   nttrace tracerpt [-l] FILE... [-o OUT] [-of XML|CSV|EVTX] [-summary [FILE]]
 *                    [-report [FILE]] [-f XML|HTML] [-export [FILE]]
 *                    [-import MANIFEST...] [-lr] [-y]
 *
 * The events come through OpenTrace and ProcessTrace (several files
 * merged in time order, as ProcessTrace merges them) and are decoded by
 * TDH: manifests given with -import, installed or on
 * NTTRACE_MANIFEST_PATH, TraceLogging's own, the kernel's MOF classes.
 *
 * The XML dump (the default, dumpfile.xml) is a list of Windows' event
 * XML (the schema http://schemas.microsoft.com/win/2004/08/events/event)
 * under <Events>, one <Event> each, tab-indented as tracerpt writes it:
 * System (Provider with its name and GUID, EventID, Version, Level, Task,
 * Opcode, Keywords in hex, TimeCreated to the 100 ns, Correlation with the
 * ActivityID and a RelatedActivityID when there is one, Execution with
 * the process, thread, processor and the CPU times, Channel left empty and
 * Computer this machine's name, as Windows' rendering of a trace has
 * them), then EventData with each top-level field as <Data Name="...">
 * TEXT</Data> (the value as Windows writes it: xml_value()), or
 * ProcessingErrorData for an event whose string runs past its data, as
 * Windows reports it, or BinaryEventData (hex) for an event TDH cannot
 * decode, then
 * RenderingInfo (Culture en-US) with the manifest's messages: the event's
 * message with its %1... inserts filled, the level, opcode, task,
 * channel, provider and keywords.
 *
 * The CSV dump (-of CSV, dumpfile.csv) has one header line, tracerpt's
 * columns, and a line an event; every cell that is not a plain number is
 * quoted (RFC 4180: '"' doubled), and text starting with '=', '+', '-' or
 * '@' gets a leading "'" so that a spreadsheet takes it as text, never a
 * formula. The EVTX dump (-of EVTX, dumpfile.evtx) is Windows' event log
 * file (evtx.c): System and EventData as the XML has them, no
 * RenderingInfo. The summary (-summary, summary.txt) lists the files, the
 * buffers, events and events lost, the time span, and each provider's
 * events by ID, opcode and count.
 *
 * -export (schema.man) writes the instrumentation manifest of the
 * providers whose events the files hold (tracerpt_export.c says what);
 * -report (report.xml, or report.html with -f HTML) a report of the
 * files, their events and, of a kernel trace, where each process's time
 * went (tracerpt_report.c says what).
 *
 * Outputs are written to a temporary file beside each, created by
 * nttrace_trace_file_create() (0600, no symbolic link followed), and
 * renamed into place at the end, so that a failure leaves no half-written
 * file; an existing file is replaced only with -y (tracerpt asks; this
 * tool does not prompt). -lr (tracerpt's "less restrictive": best effort
 * for events that do not match their schema) is what this tool always
 * does.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/etl.h>
#include <nttrace/evntcons.h>
#include <nttrace/evntrace.h>
#include <nttrace/tdh.h>
#include <nttrace/tmf.h>

#include "cli.h"
#include "evtx.h"
#include "tracerpt.h"

#define MAX_FILES	64	/* ProcessTrace's handles */

static struct {
	FILE *out;		/* the dump, as text */
	struct evtx *evtx;	/* or as an .evtx */
	int csv;
	uint64_t events;
	struct tracerpt_count *counts;
	size_t ncounts, capcounts;
	uint32_t *slot;		/* the counts' hash: index + 1 */
	size_t capslot;
	uint64_t seed;
	int oom;
	char computer[256];	/* this machine's name, for <Computer> */
	int export;		/* -export: each event's description kept */
	int report;		/* -report: the processes' times counted */
} T;

/* ---- text for other interpreters ---- */

/* Whether @s is a plain decimal or 0x number (a CSV cell needing no quotes). */
static int plain_number(const char *s)
{
	if (!s || !*s)
		return 0;
	if (s[0] == '0' && s[1] == 'x' && s[2])
		s += 2;
	else if (*s == '-' && s[1])
		s++;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
		      (*s >= 'A' && *s <= 'F')))
			return 0;
	return 1;
}

/* One CSV cell, a ", " before it unless it is the line's first. */
static void csv_cell(FILE *f, const char *s, int first)
{
	if (!first)
		fputs(", ", f);
	if (plain_number(s)) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (s && (*s == '=' || *s == '+' || *s == '-' || *s == '@'))
		fputc('\'', f);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, uint64_t v)
{
	fprintf(f, ", %" PRIu64, v);
}

/* "{UPPERCASE GUID}": how Windows' event XML writes an ActivityID. */
static void guid_upper(char *out, size_t room, const GUID *g)
{
	char *c;

	tracerpt_guid_text(out, room, g);
	for (c = out; *c; c++)
		if (*c >= 'a' && *c <= 'f')
			*c = (char)(*c - 'a' + 'A');
}

static int guid_zero(const GUID *g)
{
	static const GUID zero;

	return !memcmp(g, &zero, sizeof(zero));
}

/* ---- what TDH says of an event ---- */

struct names {
	char *level, *opcode, *task, *channel, *provider, *message, *keywords[64];
	unsigned int nkeywords;
};

/* A TRACE_EVENT_INFO string (UTF-16) as UTF-8, as TDH gives it; NULL if none. */
static char *info_string(const TRACE_EVENT_INFO *t, ULONG offset)
{
	return offset ? render_utf16((const WCHAR *)((const char *)t + offset)) : NULL;
}

static void names_of(const EVENT_RECORD *er, struct names *n)
{
	TRACE_EVENT_INFO *t = NULL;
	ULONG size = 0;
	const WCHAR *k;

	memset(n, 0, sizeof(*n));
	if (TdhGetEventInformation((PEVENT_RECORD)er, 0, NULL, NULL, &size) !=
	    ERROR_INSUFFICIENT_BUFFER) {
		if (T.export && tracerpt_export_record(er, NULL))
			T.oom = 1;
		return;
	}
	t = malloc(size);
	if (!t || TdhGetEventInformation((PEVENT_RECORD)er, 0, NULL, t, &size)) {
		free(t);
		if (T.export && tracerpt_export_record(er, NULL))
			T.oom = 1;
		return;
	}
	if (T.export && tracerpt_export_record(er, t))
		T.oom = 1;
	n->level = info_string(t, t->LevelNameOffset);
	n->opcode = info_string(t, t->OpcodeNameOffset);
	n->task = info_string(t, t->TaskNameOffset);
	n->channel = info_string(t, t->ChannelNameOffset);
	n->provider = info_string(t, t->ProviderNameOffset);
	n->message = info_string(t, t->EventMessageOffset);
	/* KeywordsName: one name after another, each ended by a NUL, then a NUL. */
	for (k = t->KeywordsNameOffset ? (const WCHAR *)((const char *)t + t->KeywordsNameOffset) :
	     NULL; k && *k && n->nkeywords < 64; n->nkeywords++) {
		n->keywords[n->nkeywords] = render_utf16(k);
		while (*k)
			k++;
		k++;
	}
	free(t);
}

static void names_free(struct names *n)
{
	unsigned int i;

	free(n->level);
	free(n->opcode);
	free(n->task);
	free(n->channel);
	free(n->provider);
	free(n->message);
	for (i = 0; i < n->nkeywords; i++)
		free(n->keywords[i]);
}

/*
 * @msg with its inserts filled as FormatMessage fills them: %1 ... %99
 * the top-level fields' text (a "!fmt!" after one is skipped: the text is
 * TDH's already), %n a line end, %t a tab, %r a carriage return, %0 the
 * end, %% %. %! and "% " the character itself.
 */
static void message_text(FILE *f, const char *msg, const struct render_fields *v)
{
	unsigned int k;

	for (; *msg; msg++) {
		if (*msg != '%' || !msg[1]) {
			tracerpt_xml_text(f, (char[]){ *msg, 0 });
			continue;
		}
		msg++;
		if (*msg >= '1' && *msg <= '9') {
			k = (unsigned int)(*msg - '0');
			if (msg[1] >= '0' && msg[1] <= '9')
				k = k * 10 + (unsigned int)(*++msg - '0');
			if (msg[1] == '!') {
				const char *end = strchr(msg + 2, '!');

				if (end)
					msg = end;
			}
			if (v && k <= v->n && v->v[k - 1].text)
				tracerpt_xml_text(f, v->v[k - 1].text);
			continue;
		}
		switch (*msg) {
		case '0': return;
		case 'n': fputc('\n', f); break;
		case 't': fputc('\t', f); break;
		case 'r': fputc('\r', f); break;
		default: tracerpt_xml_text(f, (char[]){ *msg, 0 }); break;
		}
	}
}

/* ---- the summary's counts ---- */

/* FNV-1a over @n bytes at @p, from @h. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t count_hash(const GUID *g, USHORT id, UCHAR opcode, UCHAR version,
			   const char *event)
{
	uint64_t h = fnv(0xcbf29ce484222325ULL ^ T.seed, g, sizeof(*g));

	h = fnv(h, &id, sizeof(id));
	h = fnv(h, &opcode, 1);
	h = fnv(h, &version, 1);
	return fnv(h, event ? event : "", event ? strlen(event) : 0);
}

/* Index the counts anew in a table of twice the room: 0, or -1. */
static int count_rehash(void)
{
	size_t cap = T.capslot ? 2 * T.capslot : 128, i, at;
	uint32_t *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (i = 0; i < T.ncounts; i++) {
		const struct tracerpt_count *c = &T.counts[i];

		for (at = count_hash(&c->guid, c->id, c->opcode, c->version, c->event) & (cap - 1);
		     slot[at]; at = (at + 1) & (cap - 1))
			;
		slot[at] = (uint32_t)i + 1;
	}
	free(T.slot);
	T.slot = slot;
	T.capslot = cap;
	return 0;
}

/*
 * Count @er under its provider, ID, opcode, version and (TraceLogging's
 * events share ID 0) name: a hash lookup, seeded per run as the keys come
 * from the file, so that a log of many distinct events costs linear time.
 */
static void count_event(const EVENT_RECORD *er, const char *provider, const char *event)
{
	const EVENT_HEADER *h = &er->EventHeader;
	const EVENT_DESCRIPTOR *d = &h->EventDescriptor;
	uint64_t hv;
	struct tracerpt_count *c, *grown;
	size_t at;

	if (!T.seed)
		T.seed = cli_seed();
	hv = count_hash(&h->ProviderId, d->Id, d->Opcode, d->Version, event);
	for (at = T.capslot ? hv & (T.capslot - 1) : 0; T.capslot && T.slot[at];
	     at = (at + 1) & (T.capslot - 1)) {
		c = &T.counts[T.slot[at] - 1];
		if (!memcmp(&c->guid, &h->ProviderId, sizeof(GUID)) && c->id == d->Id &&
		    c->opcode == d->Opcode && c->version == d->Version &&
		    !strcmp(c->event ? c->event : "", event ? event : "")) {
			c->n++;
			return;
		}
	}
	if (T.ncounts == T.capcounts) {
		grown = realloc(T.counts, (T.capcounts ? 2 * T.capcounts : 64) * sizeof(*grown));
		if (!grown) {
			T.oom = 1;
			return;
		}
		T.counts = grown;
		T.capcounts = T.capcounts ? 2 * T.capcounts : 64;
	}
	c = &T.counts[T.ncounts++];
	c->guid = h->ProviderId;
	c->id = d->Id;
	c->opcode = d->Opcode;
	c->version = d->Version;
	c->provider = provider ? strdup(provider) : NULL;
	c->event = event ? strdup(event) : NULL;
	c->n = 1;
	if (2 * T.ncounts > T.capslot) {
		if (count_rehash())
			T.oom = 1;
		return;
	}
	for (at = hv & (T.capslot - 1); T.slot[at]; at = (at + 1) & (T.capslot - 1))
		;
	T.slot[at] = (uint32_t)T.ncounts;
}

/* ---- one event ---- */

/* A field's value as Windows writes it in an event's XML (tracerpt_value.c). */
static void xml_value(FILE *f, const EVENT_RECORD *er, const struct render_field *v)
{
	const uint8_t *p = (const uint8_t *)er->UserData + v->off;
	enum tracerpt_kind kind = tracerpt_kind(v);
	uint64_t x = 0;
	uint32_t i;

	if (kind == TRACERPT_BINARY) {
		for (i = 0; i < v->size; i++)
			fprintf(f, "%02X", p[i]);
		return;
	}
	if (kind == TRACERPT_TEXT) {
		tracerpt_xml_text(f, v->text);
		return;
	}
	for (i = 0; i < v->size; i++)
		x |= (uint64_t)p[i] << (8 * i);
	if (kind == TRACERPT_POINTER) {
		fprintf(f, "0x%" PRIx64, x);
	} else if (v->in_type % 2) {
		if (v->size < 8 && x >> (8 * v->size - 1))
			x |= ~0ULL << (8 * v->size);
		fprintf(f, "%" PRId64, (int64_t)x);
	} else {
		fprintf(f, "%" PRIu64, x);
	}
}

static void xml_event(FILE *f, const EVENT_RECORD *er, const struct render_fields *v,
		      int decoded, const struct names *n)
{
	const EVENT_HEADER *h = &er->EventHeader;
	const EVENT_HEADER_EXTENDED_DATA_ITEM *rel;
	const struct render_field *bad;
	char g[40], when[48];
	unsigned int i;

	fputs("<Event xmlns=\"http://schemas.microsoft.com/win/2004/08/events/event\">\n"
	      "\t<System>\n\t\t<Provider ", f);
	if (n->provider) {
		fputs("Name=\"", f);
		tracerpt_xml_text(f, n->provider);
		fputs("\" ", f);
	}
	tracerpt_guid_text(g, sizeof(g), &h->ProviderId);
	fprintf(f, "Guid=\"%s\" />\n", g);
	fprintf(f, "\t\t<EventID>%u</EventID>\n\t\t<Version>%u</Version>\n"
		"\t\t<Level>%u</Level>\n\t\t<Task>%u</Task>\n\t\t<Opcode>%u</Opcode>\n"
		"\t\t<Keywords>0x%" PRIX64 "</Keywords>\n",
		h->EventDescriptor.Id, h->EventDescriptor.Version, h->EventDescriptor.Level,
		h->EventDescriptor.Task, h->EventDescriptor.Opcode,
		(uint64_t)h->EventDescriptor.Keyword);
	tracerpt_time_text(when, sizeof(when), h->TimeStamp.QuadPart);
	fprintf(f, "\t\t<TimeCreated SystemTime=\"%s\" />\n", when);
	/* As Windows writes it: uppercase, and no attribute for a null GUID. */
	fputs("\t\t<Correlation", f);
	if (!guid_zero(&h->ActivityId)) {
		guid_upper(g, sizeof(g), &h->ActivityId);
		fprintf(f, " ActivityID=\"%s\"", g);
	}
	rel = render_ext_item(er, EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID, sizeof(GUID));
	if (rel) {
		GUID r;

		memcpy(&r, (const void *)(uintptr_t)rel->DataPtr, sizeof(r));
		guid_upper(g, sizeof(g), &r);
		fprintf(f, " RelatedActivityID=\"%s\"", g);
	}
	fprintf(f, " />\n\t\t<Execution ProcessID=\"%u\" ThreadID=\"%u\" ProcessorID=\"%u\"",
		(unsigned int)h->ProcessId, (unsigned int)h->ThreadId,
		(unsigned int)er->BufferContext.ProcessorIndex);
	if (h->Flags & (EVENT_HEADER_FLAG_PRIVATE_SESSION | EVENT_HEADER_FLAG_NO_CPUTIME))
		fprintf(f, " ProcessorTime=\"%" PRIu64 "\"", (uint64_t)h->ProcessorTime);
	else
		fprintf(f, " KernelTime=\"%u\" UserTime=\"%u\"", (unsigned int)h->KernelTime,
			(unsigned int)h->UserTime);
	fputs(" />\n", f);
	/*
	 * Windows' rendering of a trace leaves the channel empty here (its
	 * name is in RenderingInfo) and names the computer it runs on.
	 */
	fputs("\t\t<Channel />\n\t\t<Computer>", f);
	tracerpt_xml_text(f, T.computer);
	fputs("</Computer>\n\t</System>\n", f);
	bad = decoded ? tracerpt_unterminated(er, v) : NULL;
	if (bad) {
		const uint8_t *d = er->UserData;

		fprintf(f, "\t<ProcessingErrorData>\n\t\t<ErrorCode>%u</ErrorCode>\n"
			"\t\t<DataItemName>", ERROR_EVT_INVALID_EVENT_DATA);
		tracerpt_xml_text(f, bad->name);
		fputs("</DataItemName>\n\t\t<EventPayload>", f);
		for (i = 0; i < er->UserDataLength; i++)
			fprintf(f, "%02X", d[i]);
		fputs("</EventPayload>\n\t</ProcessingErrorData>\n", f);
	} else if (decoded) {
		fputs("\t<EventData>\n", f);
		for (i = 0; i < v->n; i++) {
			fputs("\t\t<Data Name=\"", f);
			tracerpt_xml_text(f, v->v[i].name);
			fputs("\">", f);
			xml_value(f, er, &v->v[i]);
			fputs("</Data>\n", f);
		}
		fputs("\t</EventData>\n", f);
	} else if (er->UserDataLength) {
		const uint8_t *d = er->UserData;

		fputs("\t<BinaryEventData>", f);
		for (i = 0; i < er->UserDataLength; i++)
			fprintf(f, "%02X", d[i]);
		fputs("</BinaryEventData>\n", f);
	}
	if (n->message || n->level || n->opcode || n->task || n->provider) {
		fputs("\t<RenderingInfo Culture=\"en-US\">\n", f);
		if (n->message) {
			fputs("\t\t<Message>", f);
			message_text(f, n->message, decoded ? v : NULL);
			fputs("</Message>\n", f);
		}
		if (n->level) {
			fputs("\t\t<Level>", f);
			tracerpt_xml_text(f, n->level);
			fputs("</Level>\n", f);
		}
		if (n->opcode) {
			fputs("\t\t<Opcode>", f);
			tracerpt_xml_text(f, n->opcode);
			fputs("</Opcode>\n", f);
		}
		if (n->task) {
			fputs("\t\t<Task>", f);
			tracerpt_xml_text(f, n->task);
			fputs("</Task>\n", f);
		}
		if (n->channel) {
			fputs("\t\t<Channel>", f);
			tracerpt_xml_text(f, n->channel);
			fputs("</Channel>\n", f);
		}
		if (n->provider) {
			fputs("\t\t<Provider>", f);
			tracerpt_xml_text(f, n->provider);
			fputs("</Provider>\n", f);
		}
		fputs("\t\t<Keywords>\n", f);
		for (i = 0; i < n->nkeywords; i++) {
			fputs("\t\t\t<Keyword>", f);
			tracerpt_xml_text(f, n->keywords[i]);
			fputs("</Keyword>\n", f);
		}
		fputs("\t\t</Keywords>\n\t</RenderingInfo>\n", f);
	}
	fputs("</Event>\n", f);
}

static void csv_event(FILE *f, const EVENT_RECORD *er, const struct render_fields *v,
		      int decoded, const struct names *n)
{
	const EVENT_HEADER *h = &er->EventHeader;
	const EVENT_HEADER_EXTENDED_DATA_ITEM *it;
	EVENT_EXTENDED_ITEM_INSTANCE in = { 0 };
	char g[40], num[32];
	unsigned int i;
	GUID rel = { 0 };

	tracerpt_guid_text(g, sizeof(g), &h->ProviderId);
	csv_cell(f, n->provider ? n->provider : g, 1);
	csv_cell(f, n->opcode ? n->opcode : "", 0);
	csv_num(f, h->EventDescriptor.Id);
	csv_num(f, h->EventDescriptor.Version);
	csv_num(f, h->EventDescriptor.Channel);
	csv_num(f, h->EventDescriptor.Level);
	csv_num(f, h->EventDescriptor.Opcode);
	csv_num(f, h->EventDescriptor.Task);
	snprintf(num, sizeof(num), "0x%016" PRIX64, (uint64_t)h->EventDescriptor.Keyword);
	csv_cell(f, num, 0);
	csv_num(f, h->ProcessId);
	csv_num(f, h->ThreadId);
	csv_num(f, er->BufferContext.ProcessorIndex);
	it = render_ext_item(er, EVENT_HEADER_EXT_TYPE_INSTANCE_INFO, sizeof(in));
	if (it)
		memcpy(&in, (const void *)(uintptr_t)it->DataPtr, sizeof(in));
	csv_num(f, in.InstanceId);
	csv_num(f, in.ParentInstanceId);
	tracerpt_guid_text(g, sizeof(g), &h->ActivityId);
	csv_cell(f, g, 0);
	it = render_ext_item(er, EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID, sizeof(rel));
	if (it)
		memcpy(&rel, (const void *)(uintptr_t)it->DataPtr, sizeof(rel));
	tracerpt_guid_text(g, sizeof(g), &rel);
	csv_cell(f, g, 0);
	csv_num(f, (uint64_t)h->TimeStamp.QuadPart);
	if (h->Flags & (EVENT_HEADER_FLAG_PRIVATE_SESSION | EVENT_HEADER_FLAG_NO_CPUTIME)) {
		csv_num(f, 0);
		csv_num(f, 0);
	} else {
		csv_num(f, h->KernelTime);
		csv_num(f, h->UserTime);
	}
	if (decoded) {
		for (i = 0; i < v->n; i++)
			csv_cell(f, v->v[i].text, 0);
	} else {
		char *hex = malloc(2 * (size_t)er->UserDataLength + 3);

		if (hex) {
			const uint8_t *d = er->UserData;

			strcpy(hex, "0x");
			for (i = 0; i < er->UserDataLength; i++)
				sprintf(hex + 2 + 2 * i, "%02X", d[i]);
			csv_cell(f, er->UserDataLength ? hex : "", 0);
			free(hex);
		}
	}
	fputc('\n', f);
}

static VOID WINAPI on_event(PEVENT_RECORD er)
{
	struct render_fields v;
	struct names n;
	int decoded;

	decoded = render_tdh_fields(er, render_pointer_size(er), &v);
	names_of(er, &n);
	if (T.out) {
		if (T.csv)
			csv_event(T.out, er, &v, decoded, &n);
		else
			xml_event(T.out, er, &v, decoded, &n);
	}
	if (T.evtx)
		evtx_event(T.evtx, er, &v, decoded, n.provider);
	if (T.report)
		tracerpt_report_event(er, &v, decoded);
	count_event(er, decoded ? v.provider : n.provider, decoded ? v.event : NULL);
	T.events++;
	if (decoded)
		render_fields_free(&v);
	names_free(&n);
}

/* ---- the files ---- */

struct output {
	const char *path;
	char tmp[4096];
	FILE *f;
};

/*
 * Open @o's temporary file beside it, PATH.PID.tmp, through the tool's one
 * creator of files (nttrace_trace_file_create(): 0600, no symbolic link
 * followed, no other user's file written); an existing @o is replaced
 * (renamed over at the end) only with @replace.
 */
static int output_open(struct output *o, int replace)
{
	int fd;

	if (!replace && !access(o->path, F_OK)) {
		fprintf(stderr, "nttrace: tracerpt: %s exists (-y replaces it)\n", o->path);
		return -1;
	}
	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s.%ld.tmp", o->path, (long)getpid()) >=
	    sizeof(o->tmp)) {
		fprintf(stderr, "nttrace: tracerpt: %s: name too long\n", o->path);
		return -1;
	}
	fd = nttrace_trace_file_create(o->tmp);
	if (fd < 0) {
		fprintf(stderr, "nttrace: tracerpt: %s: %s\n", o->tmp, cli_create_error(fd));
		return -1;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		fprintf(stderr, "nttrace: tracerpt: %s: %s\n", o->path, strerror(errno));
		close(fd);
		unlink(o->tmp);
		return -1;
	}
	return 0;
}

/* Close @o and put it in place (@ok), or remove it: 0, or -1 having said why. */
static int output_close(struct output *o, int ok)
{
	int bad;

	if (!o->f)
		return 0;
	bad = ferror(o->f);
	bad |= fclose(o->f);
	o->f = NULL;
	if (ok && !bad && !rename(o->tmp, o->path))
		return 0;
	if (ok)
		fprintf(stderr, "nttrace: tracerpt: %s: %s\n", o->path,
			strerror(errno ? errno : EIO));
	unlink(o->tmp);
	return -1;
}

static int by_provider(const void *a, const void *b)
{
	const struct tracerpt_count *x = a, *y = b;
	int c = memcmp(&x->guid, &y->guid, sizeof(GUID));

	if (c)
		return c;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->opcode != y->opcode)
		return x->opcode < y->opcode ? -1 : 1;
	if (x->version != y->version)
		return (int)x->version - (int)y->version;
	return strcmp(x->event ? x->event : "", y->event ? y->event : "");
}

static void write_summary(FILE *f, char **files, int nfiles, const EVENT_TRACE_LOGFILEA *lf)
{
	uint64_t buffers = 0, lost = 0, start = UINT64_MAX, end = 0;
	char when[48], g[40];
	size_t i;
	int k;

	fputs("Files Processed:\n", f);
	for (k = 0; k < nfiles; k++) {
		fputc('\t', f);
		fputs(files[k], f);
		fputc('\n', f);
		buffers += lf[k].LogfileHeader.BuffersWritten;
		lost += lf[k].LogfileHeader.EventsLost;
		if ((uint64_t)lf[k].LogfileHeader.StartTime.QuadPart < start)
			start = lf[k].LogfileHeader.StartTime.QuadPart;
		if ((uint64_t)lf[k].LogfileHeader.EndTime.QuadPart > end)
			end = lf[k].LogfileHeader.EndTime.QuadPart;
	}
	fprintf(f, "Total Buffers Processed %" PRIu64 "\n", buffers);
	fprintf(f, "Total Events  Processed %" PRIu64 "\n", T.events);
	fprintf(f, "Total Events  Lost      %" PRIu64 "\n", lost);
	tracerpt_time_text(when, sizeof(when), start);
	fprintf(f, "Start Time              %s\n", when);
	tracerpt_time_text(when, sizeof(when), end);
	fprintf(f, "End Time                %s\n", when);
	fprintf(f, "Elapsed Time            %" PRIu64 " sec\n\n",
		end > start ? (end - start) / 10000000 : 0);
	fprintf(f, "%-12s %-32s %-24s %-8s %-6s %-7s %s\n", "Event Count", "Provider", "Event",
		"Event ID", "Opcode", "Version", "Guid");
	for (i = 0; i < T.ncounts; i++) {
		const struct tracerpt_count *c = &T.counts[i];

		tracerpt_guid_text(g, sizeof(g), &c->guid);
		fprintf(f, "%-12" PRIu64 " %-32s %-24s %-8u %-6u %-7u %s\n", c->n,
			c->provider ? c->provider : "", c->event ? c->event : "", c->id, c->opcode,
			c->version, g);
	}
}

/* @path's last part without its extension, for a manifest's file names (static). */
static const char *base_name(const char *path)
{
	static char b[256];
	const char *slash = strrchr(path, '/');
	char *dot;

	snprintf(b, sizeof(b), "%s", slash ? slash + 1 : path);
	dot = strrchr(b, '.');
	if (dot && dot != b)
		*dot = 0;
	return b;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace tracerpt [-l] FILE... [-o OUT] [-of XML|CSV|EVTX] [-summary [FILE]]\n"
		"                        [-report [FILE]] [-f XML|HTML] [-export [FILE]]\n"
		"                        [-import MANIFEST...] [-lr] [-y]\n\n"
		"Windows' tracerpt over log files (several are merged in time order): the\n"
		"events as Windows' event XML (the default; -o names the file, default\n"
		"dumpfile.xml), as CSV (-of CSV, default dumpfile.csv) or as Windows' event\n"
		"log file (-of EVTX, default dumpfile.evtx), each event's fields decoded by\n"
		"TDH (manifests given with -import, installed with `nttrace manifest\n"
		"install` or on NTTRACE_MANIFEST_PATH, TraceLogging's, the kernel's\n"
		"classes); -summary writes the counts by provider and event (default\n"
		"summary.txt); -report writes a report of the files, the events by\n"
		"provider and, for a kernel trace, each process's CPU samples, CPU time,\n"
		"context switches, disk, file and network I/O (default report.xml; -f\n"
		"HTML: report.html); -export writes the providers of the events as an\n"
		"instrumentation manifest (default schema.man): manifest-based and\n"
		"TraceLogging ones, as TDH describes them; classic (MOF) and WPP events\n"
		"cannot be, and their providers are named on stderr. An existing output is\n"
		"replaced only with -y; files are written whole or not at all, 0600. -lr\n"
		"(best effort for events that do not match their schema) is always so\n"
		"here.\n");
}

int cmd_tracerpt(int argc, char **argv)
{
	static EVENT_TRACE_LOGFILEA lf[MAX_FILES];
	TRACEHANDLE h[MAX_FILES];
	static struct tracerpt_file rfiles[MAX_FILES];
	struct output dump = { 0 }, summary = { 0 }, schema = { 0 }, report = { 0 };
	char *files[MAX_FILES], *imports[MAX_FILES];
	int nfiles = 0, nimports = 0, replace = 0, want_summary = 0, i, k, ok = 1;
	const char *format = "XML", *report_format = "XML";
	ULONG err;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return 0;
	}
	if (gethostname(T.computer, sizeof(T.computer) - 1))
		T.computer[0] = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-o") && i + 1 < argc) {
			dump.path = argv[++i];
		} else if (!strcasecmp(a, "-of") && i + 1 < argc) {
			format = argv[++i];
		} else if (!strcasecmp(a, "-summary")) {
			want_summary = 1;
			if (i + 1 < argc && argv[i + 1][0] != '-')
				summary.path = argv[++i];
		} else if (!strcasecmp(a, "-report")) {
			T.report = 1;
			if (i + 1 < argc && argv[i + 1][0] != '-')
				report.path = argv[++i];
		} else if (!strcasecmp(a, "-f") && i + 1 < argc) {
			report_format = argv[++i];
		} else if (!strcasecmp(a, "-export")) {
			T.export = 1;
			if (i + 1 < argc && argv[i + 1][0] != '-')
				schema.path = argv[++i];
		} else if (!strcasecmp(a, "-import")) {
			while (i + 1 < argc && argv[i + 1][0] != '-' && nimports < MAX_FILES)
				imports[nimports++] = argv[++i];
		} else if (!strcasecmp(a, "-y")) {
			replace = 1;
		} else if (!strcasecmp(a, "-lr") || !strcasecmp(a, "-l")) {
			continue;
		} else if (!strcasecmp(a, "-rt") || !strcasecmp(a, "-f") ||
			   !strcasecmp(a, "-int") || !strcasecmp(a, "-df") ||
			   !strcasecmp(a, "-en") || !strcasecmp(a, "-rts") ||
			   !strcasecmp(a, "-config") || !strcasecmp(a, "-gmt")) {
			fprintf(stderr, "nttrace: tracerpt: %s is not supported\n", a);
			return CLI_USAGE;
		} else if (a[0] == '-') {
			usage(stderr);
			return CLI_USAGE;
		} else if (nfiles < MAX_FILES) {
			files[nfiles++] = argv[i];
		} else {
			fprintf(stderr, "nttrace: tracerpt: at most %d files\n", MAX_FILES);
			return CLI_USAGE;
		}
	}
	if (!nfiles || (strcasecmp(format, "XML") && strcasecmp(format, "CSV") &&
			strcasecmp(format, "EVTX"))) {
		if (nfiles)
			fprintf(stderr, "nttrace: tracerpt: -of %s: XML, CSV or EVTX\n", format);
		else
			usage(stderr);
		return CLI_USAGE;
	}
	if (strcasecmp(report_format, "XML") && strcasecmp(report_format, "HTML")) {
		fprintf(stderr, "nttrace: tracerpt: -f %s: XML or HTML\n", report_format);
		return CLI_USAGE;
	}
	T.csv = !strcasecmp(format, "CSV");
	if (T.report && !report.path)
		report.path = strcasecmp(report_format, "HTML") ? "report.xml" : "report.html";
	if (!dump.path)
		dump.path = T.csv ? "dumpfile.csv" :
			    !strcasecmp(format, "EVTX") ? "dumpfile.evtx" : "dumpfile.xml";
	if (want_summary && !summary.path)
		summary.path = "summary.txt";
	if (T.export && !schema.path)
		schema.path = "schema.man";
	for (k = 0; k < nimports; k++)
		if (render_load_manifests(imports[k]))
			return 1;

	for (k = 0; k < nfiles; k++) {
		memset(&lf[k], 0, sizeof(lf[k]));
		lf[k].LogFileName = files[k];
		lf[k].ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
		lf[k].EventRecordCallback = on_event;
		h[k] = OpenTraceA(&lf[k]);
		if (h[k] == INVALID_PROCESSTRACE_HANDLE) {
			const char *bad = files[k];

			err = GetLastError();
			while (k--)
				CloseTrace(h[k]);
			return render_fail(err, bad, "OpenTrace");
		}
	}
	if (output_open(&dump, replace) || (summary.path && output_open(&summary, replace)) ||
	    (schema.path && output_open(&schema, replace)) ||
	    (report.path && output_open(&report, replace))) {
		output_close(&dump, 0);
		output_close(&summary, 0);
		output_close(&schema, 0);
		for (k = 0; k < nfiles; k++)
			CloseTrace(h[k]);
		return 1;
	}
	T.out = dump.f;
	if (!strcasecmp(format, "EVTX")) {
		T.out = NULL;
		T.evtx = evtx_open(dump.f, T.computer);
		if (!T.evtx)
			T.oom = 1;
	} else if (T.csv)
		fputs("Event Name, Type, Event ID, Version, Channel, Level, Opcode, Task, Keyword, "
		      "PID, TID, Processor Number, Instance ID, Parent Instance ID, Activity ID, "
		      "Related Activity ID, Clock-Time, Kernel(ms), User(ms), User Data\n", T.out);
	else if (T.out)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Events>\n", T.out);
	err = ProcessTrace(h, (ULONG)nfiles, NULL, NULL);
	for (k = 0; k < nfiles; k++) {
		/* The header's names are the handle's: kept before it closes. */
		rfiles[k].path = files[k];
		rfiles[k].header = lf[k].LogfileHeader;
		rfiles[k].session = lf[k].LogfileHeader.LoggerName ?
				    render_utf16(lf[k].LogfileHeader.LoggerName) : NULL;
		rfiles[k].header.LoggerName = NULL;
		rfiles[k].header.LogFileName = NULL;
		CloseTrace(h[k]);
	}
	if (err != ERROR_SUCCESS) {
		render_fail(err, files[0], "ProcessTrace");
		ok = 0;
	}
	if (T.oom) {
		fprintf(stderr, "nttrace: tracerpt: out of memory\n");
		ok = 0;
	}
	if (T.out && !T.csv)
		fputs("</Events>\n", T.out);
	if (T.evtx) {
		uint64_t dropped;

		if (evtx_close(T.evtx, &dropped)) {
			fprintf(stderr, "nttrace: tracerpt: %s: %s\n", dump.path, strerror(errno));
			ok = 0;
		}
		T.evtx = NULL;
		if (dropped)
			fprintf(stderr, "nttrace: tracerpt: %s: %" PRIu64 " events left out\n",
				dump.path, dropped);
	}
	/*
	 * The summary and the report both list the counts by provider. The
	 * counts' hash is stale once sorted: nothing counts after ProcessTrace.
	 */
	if (T.ncounts)
		qsort(T.counts, T.ncounts, sizeof(*T.counts), by_provider);
	if (summary.f)
		write_summary(summary.f, files, nfiles, lf);
	if (report.f) {
		if (tracerpt_report_write(report.f, !strcasecmp(report_format, "HTML"), rfiles,
					  (unsigned int)nfiles, T.events, T.counts, T.ncounts)) {
			fprintf(stderr, "nttrace: tracerpt: out of memory\n");
			ok = 0;
		}
	}
	tracerpt_report_free();
	for (k = 0; k < nfiles; k++) {
		free(rfiles[k].session);
		rfiles[k].session = NULL;
	}
	if (schema.f && ok && tracerpt_export_write(schema.f, base_name(schema.path))) {
		fprintf(stderr, "nttrace: tracerpt: out of memory\n");
		ok = 0;
	}
	tracerpt_export_free();
	if (output_close(&dump, ok))
		ok = 0;
	if (output_close(&summary, ok))
		ok = 0;
	if (output_close(&schema, ok))
		ok = 0;
	if (output_close(&report, ok))
		ok = 0;
	if (ok) {
		printf("Output      %s\n", dump.path);
		if (summary.path)
			printf("Summary     %s\n", summary.path);
		if (schema.path)
			printf("Schema      %s\n", schema.path);
		if (report.path)
			printf("Report      %s\n", report.path);
	}
	return ok ? 0 : 1;
}
