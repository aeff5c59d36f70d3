// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace dump: an ETL file's header, then every event in time order across
 * the CPUs (etlread.c merges the per-CPU buffers), as text or, with --json,
 * one JSON object a line. Output streams: nothing is held but one buffer per
 * CPU. Problems in the file are printed where they are met, with their byte
 * offsets, and the exit status is then 1.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <nttrace/tmf.h>
#include "cli.h"

static int json, problems;
static struct nttrace_tmf formats;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace dump [--json] [--formats PATH[,PATH...]]... FILE\n\n"
		"Print the header of FILE (an ETL file) and then every event in time order\n"
		"across the CPUs: time (UTC and since the start), CPU, message number,\n"
		"sequence, GUID or component ID, thread and process, and the data (as text\n"
		"when it is text); for TraceEvent and TraceEventInstance events, the class\n"
		"GUID, type, level and version, the instance and parent IDs and the parent's\n"
		"GUID, thread and process, and the data as hex; for EventWrite events, the\n"
		"provider GUID, id, version, channel, level, opcode, task and keyword,\n"
		"thread and process, the activity and related activity IDs, the other\n"
		"extended items, and the data (EventWriteString's as text). --json prints\n"
		"one JSON object per line instead. A\n"
		"damaged part of the file is reported with its byte offset and skipped.\n\n"
		"--formats takes binaries built with <nttrace/wpp.h> (their message formats)\n"
		"or format files (`nttrace formats` writes them): a message whose GUID and\n"
		"number have a format is shown as its text, with its source file and line.\n");
}

/*
 * The length of the UTF-8 sequence at @s (2 to 4) and its code point in
 * *@cp, or 0 if @s does not start one: a stray continuation byte, an
 * overlong form, a surrogate, past U+10FFFF, or cut short (by the NUL, too).
 */
static int utf8_seq(const unsigned char *s, uint32_t *cp)
{
	unsigned int n, i;
	uint32_t c, min;

	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		n = 2, c = s[0] & 0x1F, min = 0x80;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		n = 3, c = s[0] & 0x0F, min = 0x800;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		n = 4, c = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

/*
 * Code points that are not text to show as they are: C0 and C1 controls
 * and DEL (a terminal obeys them), the line and paragraph separators
 * (they break a line where there is none), and the bidirectional
 * embeddings, overrides and isolates (they reorder what follows).
 */
static int unprintable(uint32_t c)
{
	return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 ||
	       (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

/*
 * Text that came from the file (a traced string, a message rendered with
 * it, names) printed so that it shows what it holds and cannot act on the
 * terminal or break the one-event-a-line output. Printable ASCII and valid
 * UTF-8 go out unchanged; the rest is escaped.
 *
 * As text: \n \t \r and \xNN for a control character or a byte that is not
 * UTF-8 (as format files write them), \uXXXX for another code point from
 * unprintable(). A backslash stays one: text is for reading and kept as it
 * is (--json is exact).
 *
 * As a JSON string (@json): quotes and backslashes escaped too, and every
 * escape is \uXXXX. A byte that is not UTF-8 has no JSON form: it becomes
 * \u00NN, its value as a code point (the event's "data" has the bytes).
 */
static void put_text(const char *str, int json)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t c;
	int n;

	if (json)
		putchar('"');
	while (*s) {
		if (*s >= 0x20 && *s < 0x7F) {
			if (json && (*s == '"' || *s == '\\'))
				putchar('\\');
			putchar(*s++);
			continue;
		}
		n = *s < 0x80 ? 1 : utf8_seq(s, &c);
		if (n > 1 && !unprintable(c)) {
			fwrite(s, 1, n, stdout);
			s += n;
			continue;
		}
		if (n <= 1)
			c = *s, n = 1;
		if (json)
			printf("\\u%04x", c);
		else if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '\t')
			fputs("\\t", stdout);
		else if (c == '\r')
			fputs("\\r", stdout);
		else if (n == 1)
			printf("\\x%02x", c);
		else
			printf("\\u%04x", c);
		s += n;
	}
	if (json)
		putchar('"');
}

/* A JSON string (see put_text()). */
static void json_str(const char *s)
{
	put_text(s, 1);
}

static void on_problem(void *ctx, uint64_t offset, const char *what)
{
	problems++;
	if (json) {
		printf("{\"problem\":");
		json_str(what);
		printf(",\"offset\":%" PRIu64 "}\n", offset);
	} else
		printf("# offset %" PRIu64 ": %s\n", offset, what);
}

/* FILETIME as "YYYY-MM-DD HH:MM:SS.fffffff" (T and Z for JSON). */
static void print_time(uint64_t ft)
{
	time_t secs = (time_t)((ft - FILETIME_UNIX_EPOCH) / 10000000);
	struct tm tm;
	char s[32];

	if (ft < FILETIME_UNIX_EPOCH || !gmtime_r(&secs, &tm)) {
		printf(json ? "null" : "-");
		return;
	}
	strftime(s, sizeof(s), json ? "%Y-%m-%dT%H:%M:%S" : "%Y-%m-%d %H:%M:%S", &tm);
	printf(json ? "\"%s.%07" PRIu64 "Z\"" : "%s.%07" PRIu64, s,
	       (uint64_t)((ft - FILETIME_UNIX_EPOCH) % 10000000));
}

static void print_guid(const uint8_t *g)
{
	char s[NTTRACE_GUID_STRING];

	nttrace_guid_string(g, s);
	fputs(s, stdout);
}

static int is_text(const uint8_t *d, uint32_t len)
{
	uint32_t i;

	if (!len || d[len - 1])
		return 0;
	for (i = 0; i < len; i++)
		if (d[i] && (d[i] < 0x20 || d[i] > 0x7E))
			return 0;
	return 1;
}

/* Bytes as hex: all of them in JSON, the first 32 as text. */
static void print_hex(const uint8_t *d, uint32_t len)
{
	uint32_t i;

	if (json) {
		printf(",\"data\":\"");
		for (i = 0; i < len; i++)
			printf("%02x", d[i]);
		printf("\"");
		return;
	}
	printf(" [%" PRIu32 " bytes]", len);
	for (i = 0; i < len && i < 32; i++)
		printf(" %02x", d[i]);
	if (len > 32)
		printf(" ...");
}

/* A message's data: as hex, and as text too when it is text. */
static void print_data(const uint8_t *d, uint32_t len)
{
	uint32_t i;

	if (json) {
		print_hex(d, len);
		if (is_text(d, len)) {
			printf(",\"text\":\"");
			for (i = 0; i + 1 < len; i++) {
				if (!d[i])
					printf("\\u0000");
				else if (d[i] == '"' || d[i] == '\\')
					printf("\\%c", d[i]);
				else
					putchar(d[i]);
			}
			printf("\"");
		}
		return;
	}
	if (is_text(d, len)) {
		printf(" \"");
		for (i = 0; i + 1 < len; i++) {
			if (d[i])
				putchar(d[i]);
			else
				fputs("\\0", stdout);
		}
		printf("\"");
		return;
	}
	print_hex(d, len);
}

/* The event as text through its format: 1 if it has one. */
static int print_formatted(const struct nttrace_etl_event *ev)
{
	const struct nttrace_tmf_format *f = NULL;
	unsigned int ptr_size = ev->flags & TRACE_MESSAGE_POINTER32 ? 4 :
				ev->flags & TRACE_MESSAGE_POINTER64 ? 8 : 0;
	const char *base;
	char text[4096];
	int bad;

	if (ev->guid_len == 16)
		f = nttrace_tmf_find(&formats, ev->guid, ev->number, ptr_size);
	if (!f)
		return 0;
	bad = nttrace_tmf_render(f, ev->data, ev->data_len, ptr_size, text, sizeof(text));
	if (json) {
		printf(",\"file\":");
		json_str(f->file);
		printf(",\"line\":%u,\"message\":", f->line);
		json_str(text);
		if (bad)
			printf(",\"mismatch\":true");
		return 1;
	}
	base = strrchr(f->file, '/');
	printf(" [");
	put_text(base ? base + 1 : f->file, 0);
	printf(":%u] ", f->line);
	put_text(text, 0);
	if (bad)
		printf(" (data does not match the format)");
	return 1;
}

static const char *clock_name(uint32_t clock)
{
	return clock == ETL_CLOCK_SYSTEM ? "system time" :
	       clock == ETL_CLOCK_CYCLE ? "CPU cycles" : "QPC";
}

static void print_header(const struct nttrace_etl_info *in, const char *path)
{
	if (json) {
		printf("{\"header\":{\"file\":");
		json_str(path);
		printf(",\"logger\":");
		json_str(in->logger_name);
		printf(",\"has_header\":%s,"
		       "\"buffer_size\":%u,\"buffers\":%" PRIu64 ",\"processors\":%u,"
		       "\"pointer_size\":%u,\"log_file_mode\":%u,\"clock\":%u,"
		       "\"perf_freq\":%" PRIu64 ",\"start\":",
		       in->has_header ? "true" : "false", in->buffer_size,
		       in->file_buffers, in->nr_cpus, in->pointer_size, in->log_file_mode,
		       in->clock, in->perf_freq);
		print_time(in->start_time);
		printf(",\"end\":");
		print_time(in->end_time);
		printf(",\"boot\":");
		print_time(in->boot_time);
		printf(",\"buffers_written\":%u,\"events_lost\":%u,\"buffers_lost\":%u}}\n",
		       in->buffers_written, in->events_lost, in->buffers_lost);
		return;
	}
	printf("# ");
	put_text(path, 0);
	printf(": %" PRIu64 " buffers of %u bytes\n", in->file_buffers, in->buffer_size);
	if (!in->has_header) {
		printf("# no header buffer: times are relative only\n");
		return;
	}
	printf("# session \"");
	put_text(in->logger_name, 0);
	printf("\", %u processors, pointer size %u, mode 0x%x, clock %s "
	       "(%" PRIu64 " Hz)\n", in->nr_cpus, in->pointer_size,
	       in->log_file_mode, clock_name(in->clock), in->perf_freq);
	printf("# started ");
	print_time(in->start_time);
	printf(" UTC, ended ");
	print_time(in->end_time);
	printf(" UTC; %u buffers written, %u events lost, %u buffers lost\n",
	       in->buffers_written, in->events_lost, in->buffers_lost);
}


/*
 * A TraceEvent (full-header) or TraceEventInstance (instance) record: its
 * kind and pointer size from the header type, the class GUID, Class.Type,
 * Level and Version, thread and process, for an instance its instance ID
 * and its parent's ID and GUID, and the data as hex (MOF data is
 * structured: it is not guessed to be text).
 */
static void print_classic(const struct nttrace_etl_event *ev)
{
	const uint8_t *p = ev->rec;
	int instance = ev->classic == EVENT_INSTANCE_GUID_HEADER_SIZE;
	int ptr32 = p[2] == TRACE_HEADER_TYPE_FULL_HEADER32 ||
		    p[2] == TRACE_HEADER_TYPE_INSTANCE32;
	unsigned int version = p[6] | p[7] << 8;
	uint32_t id = 0, parent = 0;

	/* Only an instance header (0x48 bytes) has them. */
	if (instance) {
		id = p[0x30] | p[0x31] << 8 | p[0x32] << 16 | (uint32_t)p[0x33] << 24;
		parent = p[0x34] | p[0x35] << 8 | p[0x36] << 16 | (uint32_t)p[0x37] << 24;
	}

	if (json) {
		printf(",\"record\":\"%s\",\"size\":%u,\"pointer_size\":%d,\"guid\":\"",
		       instance ? "instance" : "event", ev->size, ptr32 ? 4 : 8);
		print_guid(ev->guid);
		printf("\",\"type\":%u,\"level\":%u,\"version\":%u,\"tid\":%u,\"pid\":%u",
		       p[4], p[5], version, ev->tid, ev->pid);
		if (instance) {
			printf(",\"instance_id\":%u,\"parent_instance_id\":%u,"
			       "\"parent_guid\":\"", id, parent);
			print_guid(p + 0x38);
			printf("\"");
		}
		print_hex(ev->data, ev->data_len);
		printf("}\n");
		return;
	}
	printf(" %s {", instance ? "instance" : "event");
	print_guid(ev->guid);
	printf("} type %u level %u version %u", p[4], p[5], version);
	if (instance) {
		printf(" id %u parent %u {", id, parent);
		print_guid(p + 0x38);
		printf("}");
	}
	printf(" tid %u pid %u %s", ev->tid, ev->pid, ptr32 ? "ptr32" : "ptr64");
	print_hex(ev->data, ev->data_len);
	putchar('\n');
}

/*
 * EventWriteString's data (EVENT_HEADER_FLAG_STRING_ONLY): UTF-16LE (WCHAR
 * is 16 bits, <nttrace/winnt.h>) up to its NUL, as UTF-8 in a string the
 * caller frees; NULL if it is not text (an odd length, no NUL). An
 * unpaired surrogate becomes U+FFFD (our choice: the "data" keeps the
 * bytes). put_text() then escapes what must not reach the terminal.
 */
static char *utf16_text(const uint8_t *d, uint32_t len)
{
	uint32_t i, n = 0, end;
	char *out;

	for (end = 0; end + 1 < len && (d[end] | d[end + 1]); end += 2)
		;
	if (len % 2 || end + 2 > len)
		return NULL;
	out = malloc(end / 2 * 3 + 1);	/* at most 3 bytes per unit */
	if (!out)
		return NULL;
	for (i = 0; i < end; i += 2) {
		uint32_t c = d[i] | d[i + 1] << 8;

		if (c >= 0xD800 && c <= 0xDBFF && i + 2 < end) {
			uint32_t lo = d[i + 2] | d[i + 3] << 8;

			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
				i += 2;
			}
		}
		if (c >= 0xD800 && c <= 0xDFFF)
			c = 0xFFFD;
		if (c < 0x80) {
			out[n++] = (char)c;
		} else if (c < 0x800) {
			out[n++] = (char)(0xC0 | c >> 6);
			out[n++] = (char)(0x80 | (c & 0x3F));
		} else if (c < 0x10000) {
			out[n++] = (char)(0xE0 | c >> 12);
			out[n++] = (char)(0x80 | (c >> 6 & 0x3F));
			out[n++] = (char)(0x80 | (c & 0x3F));
		} else {
			/* From two units: 4 bytes for 4 bytes of input. */
			out[n++] = (char)(0xF0 | c >> 18);
			out[n++] = (char)(0x80 | (c >> 12 & 0x3F));
			out[n++] = (char)(0x80 | (c >> 6 & 0x3F));
			out[n++] = (char)(0x80 | (c & 0x3F));
		}
	}
	out[n] = 0;
	return out;
}

/* Bytes as hex, all of them, in a JSON string's quotes. */
static void json_hex(const char *key, const uint8_t *d, uint32_t len)
{
	uint32_t i;

	printf(",\"%s\":\"", key);
	for (i = 0; i < len; i++)
		printf("%02x", d[i]);
	printf("\"");
}

/*
 * An EventWrite (EVENT_HEADER) record: the provider GUID, the descriptor
 * (id, version, channel, level, opcode, task, keyword), thread and
 * process, the pointer size (the header's 32_BIT_HEADER/64_BIT_HEADER
 * flag, else its header type), the activity ID and the related activity
 * ID (from its extended item), the other extended items (type, size, hex),
 * and the data: EventWriteString's as text (and hex in JSON), else as hex
 * (its layout is the manifest's, not known here). A malformed item chain
 * (already reported as a problem) shows where it broke and its undecoded
 * bytes instead of data.
 */
static void print_event_header(const struct nttrace_etl_event *ev)
{
	const struct event_descriptor *d = &ev->descriptor;
	int ptr32 = ev->header_flags & EVENT_HEADER_FLAG_32_BIT_HEADER ? 1 :
		    ev->header_flags & EVENT_HEADER_FLAG_64_BIT_HEADER ? 0 :
		    ev->rec[2] == TRACE_HEADER_TYPE_EVENT_HEADER32;
	static const uint8_t zero[16];
	char *text = ev->header_flags & EVENT_HEADER_FLAG_STRING_ONLY && !ev->ext_bad ?
		     utf16_text(ev->data, ev->data_len) : NULL;
	struct nttrace_etl_ext it;
	uint32_t at = 0, i;
	int first = 1;

	if (json) {
		printf(",\"record\":\"event_header\",\"size\":%u,\"pointer_size\":%d,"
		       "\"header_flags\":%u,\"event_property\":%u,\"provider\":\"",
		       ev->size, ptr32 ? 4 : 8, ev->header_flags, ev->event_property);
		print_guid(ev->guid);
		printf("\",\"id\":%u,\"version\":%u,\"channel\":%u,\"level\":%u,"
		       "\"opcode\":%u,\"task\":%u,\"keyword\":\"0x%016" PRIx64 "\","
		       "\"tid\":%u,\"pid\":%u,\"activity_id\":\"", d->id, d->version,
		       d->channel, d->level, d->opcode, d->task, (uint64_t)d->keyword,
		       ev->tid, ev->pid);
		print_guid(ev->activity_id);
		printf("\"");
		if (ev->related_activity_id) {
			printf(",\"related_activity_id\":\"");
			print_guid(ev->related_activity_id);
			printf("\"");
		}
		/* Every item, the related activity ID's too: JSON is exact. */
		printf(",\"extended\":[");
		while (nttrace_etl_ext_next(ev, &at, &it)) {
			printf("%s{\"type\":%u,\"size\":%u", first ? "" : ",", it.type,
			       it.data_size);
			json_hex("data", it.data, it.data_size);
			printf("}");
			first = 0;
		}
		printf("]");
		if (ev->ext_bad) {
			printf(",\"extended_malformed_at\":%u", ev->ext_bad);
			json_hex("undecoded", ev->rec + ev->ext_bad, ev->size - ev->ext_bad);
		} else {
			print_hex(ev->data, ev->data_len);
		}
		if (text) {
			printf(",\"text\":");
			json_str(text);
		}
		printf("}\n");
		free(text);
		return;
	}
	printf(" event_header {");
	print_guid(ev->guid);
	printf("} id %u version %u channel %u level %u opcode %u task %u keyword 0x%" PRIx64
	       " tid %u pid %u %s", d->id, d->version, d->channel, d->level, d->opcode,
	       d->task, (uint64_t)d->keyword, ev->tid, ev->pid, ptr32 ? "ptr32" : "ptr64");
	/* Most events have none: a zero activity ID is not shown. */
	if (memcmp(ev->activity_id, zero, 16)) {
		printf(" activity {");
		print_guid(ev->activity_id);
		printf("}");
	}
	if (ev->related_activity_id) {
		printf(" related {");
		print_guid(ev->related_activity_id);
		printf("}");
	}
	while (nttrace_etl_ext_next(ev, &at, &it)) {
		if (it.data == ev->related_activity_id)
			continue;
		printf(" ext %u [%u bytes]", it.type, it.data_size);
		for (i = 0; i < it.data_size && i < 32; i++)
			printf(" %02x", it.data[i]);
		if (it.data_size > 32)
			printf(" ...");
	}
	if (ev->ext_bad) {
		printf(" extended items malformed at +%u, undecoded", ev->ext_bad);
		print_hex(ev->rec + ev->ext_bad, ev->size - ev->ext_bad);
	} else if (text) {
		printf(" \"");
		put_text(text, 0);
		printf("\"");
	} else {
		print_hex(ev->data, ev->data_len);
	}
	putchar('\n');
	free(text);
}

static void print_event(const struct nttrace_etl_event *ev)
{
	int ptr32 = ev->flags & TRACE_MESSAGE_POINTER32;

	if (json) {
		printf("{\"offset\":%" PRIu64 ",\"cpu\":%u,\"time\":", ev->offset, ev->cpu);
		print_time(ev->filetime);
		printf(",\"relative\":%.7f,\"timestamp\":%" PRIu64, ev->relative, ev->timestamp);
		if (ev->lost)
			printf(",\"lost_before\":true");
		if (ev->classic) {
			print_classic(ev);
			return;
		}
		if (ev->event_header) {
			print_event_header(ev);
			return;
		}
		if (!ev->message) {
			printf(",\"record\":\"other\",\"size\":%u}\n", ev->size);
			return;
		}
		printf(",\"number\":%u,\"flags\":%u", ev->number, ev->flags);
		if (ev->flags & TRACE_MESSAGE_SEQUENCE)
			printf(",\"sequence\":%u", ev->sequence);
		if (ev->guid_len == 16) {
			printf(",\"guid\":\"");
			print_guid(ev->guid);
			printf("\"");
		} else if (ev->guid_len == 4) {
			printf(",\"component\":%u", ev->guid[0] | ev->guid[1] << 8 |
			       ev->guid[2] << 16 | (unsigned int)ev->guid[3] << 24);
		}
		if (ev->flags & TRACE_MESSAGE_SYSTEMINFO)
			printf(",\"tid\":%u,\"pid\":%u", ev->tid, ev->pid);
		printf(",\"pointer_size\":%d", ptr32 ? 4 : 8);
		print_formatted(ev);
		print_data(ev->data, ev->data_len);
		printf("}\n");
		return;
	}
	if (ev->lost)
		printf("# cpu %u: %s before this event\n", ev->cpu,
		       ev->lost & WMI_BUFFER_FLAG_BUFFER_LOST ? "buffers lost" : "events lost");
	print_time(ev->filetime);
	printf(" +%.6fs cpu %u", ev->relative, ev->cpu);
	if (ev->classic) {
		print_classic(ev);
		return;
	}
	if (ev->event_header) {
		print_event_header(ev);
		return;
	}
	if (!ev->message) {
		printf(" (not a message event: %u bytes)\n", ev->size);
		return;
	}
	printf(" #%u", ev->number);
	if (ev->flags & TRACE_MESSAGE_SEQUENCE)
		printf(" seq %u", ev->sequence);
	if (ev->guid_len == 16) {
		printf(" {");
		print_guid(ev->guid);
		printf("}");
	} else if (ev->guid_len == 4) {
		printf(" component %u", ev->guid[0] | ev->guid[1] << 8 | ev->guid[2] << 16 |
		       (unsigned int)ev->guid[3] << 24);
	}
	if (ev->flags & TRACE_MESSAGE_SYSTEMINFO)
		printf(" tid %u pid %u", ev->tid, ev->pid);
	printf(" %s", ptr32 ? "ptr32" : "ptr64");
	if (!print_formatted(ev))
		print_data(ev->data, ev->data_len);
	putchar('\n');
}

static void on_format_problem(void *ctx, const char *path, uint64_t offset,
			      const char *what)
{
	fprintf(stderr, "nttrace: %s: offset %" PRIu64 ": %s\n", path, offset, what);
}

/*
 * 0, or says that @path is a directory and returns -1: reading one would
 * fail with EISDIR (or find it empty) and say something less clear. Other
 * problems (no such file) are left to the open that follows.
 */
static int not_a_directory(const char *path)
{
	struct stat st;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	fprintf(stderr, "nttrace: %s is a directory\n", path);
	return -1;
}

/* Load each of a comma-separated list of binaries and format files. */
static int load_formats(char *list)
{
	char *path, *save = NULL;

	for (path = strtok_r(list, ",", &save); path; path = strtok_r(NULL, ",", &save)) {
		int n;

		if (not_a_directory(path))
			return -1;
		n = nttrace_tmf_load(&formats, path, on_format_problem, NULL);

		if (n < 0) {
			fprintf(stderr, "nttrace: %s: %s\n", path, n == -EINVAL ?
				"neither an ELF binary nor a format file" : strerror(-n));
			return -1;
		}
		if (n == 0)
			fprintf(stderr, "nttrace: %s: no message formats in it\n", path);
	}
	return 0;
}

static void formats_usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace formats PATH...\n\n"
		"Print the message formats of binaries built with <nttrace/wpp.h> (and of\n"
		"format files) as a format file: one line a message, GUID, number, pointer\n"
		"size, argument types, file:line and the format. `nttrace dump --formats`\n"
		"takes such a file for binaries that are not at hand.\n");
}

int cmd_formats(int argc, char **argv)
{
	char line[8192];
	size_t i;
	int k;

	if (argc < 2 || cli_wants_help(argc, argv)) {
		formats_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_USAGE : 0;
	}
	for (k = 1; k < argc; k++)
		if (load_formats(argv[k]))
			return 1;
	printf("# nttrace message formats: GUID NUMBER POINTER_SIZE TYPES FILE:LINE \"FORMAT\"\n");
	for (i = 0; i < formats.n; i++) {
		/* A line longer than the buffer (a long path or format) whole. */
		size_t need = nttrace_tmf_line(&formats.v[i], line, sizeof(line));
		char *big = need >= sizeof(line) ? malloc(need + 1) : NULL;

		if (big)
			nttrace_tmf_line(&formats.v[i], big, need + 1);
		printf("%s\n", big ? big : line);
		free(big);
	}
	nttrace_tmf_free(&formats);
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "formats", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct nttrace_etl_reader *r;
	struct nttrace_etl_event ev;
	uint64_t events = 0;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "jf:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'j': json = 1; break;
		case 'f':
			if (load_formats(optarg))
				return 1;
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return CLI_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (not_a_directory(argv[optind]))
		return 1;
	ret = nttrace_etl_open(&r, argv[optind], on_problem, NULL);
	if (ret) {
		fprintf(stderr, "nttrace dump: %s: %s\n", argv[optind],
			ret == -EINVAL ? "not an ETL file" : strerror(-ret));
		return 1;
	}
	print_header(nttrace_etl_info(r), argv[optind]);
	while (nttrace_etl_next(r, &ev)) {
		print_event(&ev);
		events++;
	}
	nttrace_etl_close(r);
	nttrace_tmf_free(&formats);
	if (!json)
		printf("# %" PRIu64 " events%s\n", events,
		       problems ? ", with problems (above)" : "");
	return problems ? 1 : 0;
}
