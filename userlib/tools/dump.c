// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace dump: print the message events of a log file written by
 * `nttrace record`, StartTrace's logger or the user-mode logger: whole
 * buffers (WMI_BUFFER_HEADER, records), read one at a time, so a file of
 * any size streams. Events come in file order, buffer by buffer (each
 * CPU's buffers are in time order; merging CPUs by time is left to the ETL
 * reader). A buffer that does not parse is reported with its byte offset
 * and skipped when its size is sane; otherwise the dump ends there.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define DUMP_MAX_BUFFER (1024 * 1024)

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace dump FILE\n\n"
		"Print every message event in FILE (whole buffers as `nttrace record`\n"
		"and the library's loggers write them): buffer, CPU, message number,\n"
		"sequence, GUID or component ID, time since the session started,\n"
		"thread and process, and the data (as text when it is text).\n");
}

static uint64_t get(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = v << 8 | p[bytes];
	return v;
}

static void print_data(const uint8_t *d, uint32_t len)
{
	uint32_t i, text = len > 0;

	/* Text: printable bytes, each NUL ending a string. */
	for (i = 0; i < len; i++)
		if (d[i] && (d[i] < 0x20 || d[i] > 0x7E))
			text = 0;
	if (text && d[len - 1] == 0) {
		printf(" \"");
		for (i = 0; i < len; i++) {
			if (d[i])
				putchar(d[i]);
			else if (i + 1 < len)
				fputs("\\0", stdout);
		}
		printf("\"");
		return;
	}
	printf(" [%" PRIu32 " bytes]", len);
	for (i = 0; i < len && i < 32; i++)
		printf(" %02x", d[i]);
	if (len > 32)
		printf(" ...");
}

struct dump_state {
	uint64_t buffers, events, bad;
};

/* One record at @off of @buf; its size, or 0 if it does not parse. */
static uint32_t dump_record(const uint8_t *buf, uint32_t off, uint32_t end,
			    uint64_t start, uint64_t freq, unsigned int cpu)
{
	const uint8_t *r = buf + off;
	uint32_t size = get(r, 2), flags, at = 8;

	if (end - off < 8 || size < 8 || size > end - off || r[3] != MESSAGE_TRACE_MARKER_BYTE)
		return 0;
	flags = get(r + 6, 2);
	printf("cpu %u #%u", cpu, (unsigned int)get(r + 4, 2));
	if (flags & TRACE_MESSAGE_SEQUENCE) {
		if (at + 4 > size)
			return 0;
		printf(" seq %u", (unsigned int)get(r + at, 4));
		at += 4;
	}
	if (flags & TRACE_MESSAGE_COMPONENTID) {
		if (at + 4 > size)
			return 0;
		printf(" component %u", (unsigned int)get(r + at, 4));
		at += 4;
	} else if (flags & TRACE_MESSAGE_GUID) {
		const uint8_t *g = r + at;

		if (at + 16 > size)
			return 0;
		printf(" {%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}",
		       (unsigned int)get(g, 4), (unsigned int)get(g + 4, 2),
		       (unsigned int)get(g + 6, 2), g[8], g[9], g[10], g[11], g[12],
		       g[13], g[14], g[15]);
		at += 16;
	}
	if (flags & (TRACE_MESSAGE_TIMESTAMP | TRACE_MESSAGE_PERFORMANCE_TIMESTAMP)) {
		uint64_t ts;

		if (at + 8 > size)
			return 0;
		ts = get(r + at, 8);
		if ((flags & TRACE_MESSAGE_TIMESTAMP) && freq && ts >= start)
			printf(" +%.6fs", (double)(ts - start) / freq);
		else if (flags & TRACE_MESSAGE_TIMESTAMP)
			printf(" time %" PRIu64, ts);
		at += 8;
	}
	if (flags & TRACE_MESSAGE_SYSTEMINFO) {
		if (at + 8 > size)
			return 0;
		printf(" tid %u pid %u", (unsigned int)get(r + at, 4),
		       (unsigned int)get(r + at + 4, 4));
		at += 8;
	}
	printf(" %s", flags & TRACE_MESSAGE_POINTER32 ? "ptr32" : "ptr64");
	print_data(r + at, size - at);
	putchar('\n');
	return (size + 7) & ~7u;
}

static void dump_buffer(struct dump_state *st, const uint8_t *buf, uint32_t size,
			uint64_t file_off)
{
	uint32_t end = get(buf + 4, 4), off = WMI_BUFFER_HEADER_SIZE;
	uint64_t ctf = get(buf + 0x20, 8), start = get(buf + 0x38, 8);
	unsigned int cpu = buf[0x28];

	if (end < WMI_BUFFER_HEADER_SIZE || end > size) {
		printf("# offset %" PRIu64 ": buffer's SavedOffset %u is outside it; skipped\n",
		       file_off, (unsigned int)end);
		st->bad++;
		return;
	}
	while (off < end) {
		uint32_t n = dump_record(buf, off, end, start, ctf >> 3, cpu);

		if (!n) {
			printf("# offset %" PRIu64 ": no valid record here; rest of the buffer "
			       "skipped\n", file_off + off);
			st->bad++;
			return;
		}
		st->events++;
		off += n;
	}
}

int cmd_dump(int argc, char **argv)
{
	struct dump_state st = { 0 };
	uint64_t file_off = 0;
	uint8_t *buf;
	FILE *f;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return 0;
	}
	if (argc != 2) {
		usage(stderr);
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		fprintf(stderr, "nttrace dump: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	buf = malloc(DUMP_MAX_BUFFER);
	for (;;) {
		size_t n = fread(buf, 1, WMI_BUFFER_HEADER_SIZE, f);
		uint32_t size;

		if (n == 0)
			break;
		size = get(buf, 4);
		if (n < WMI_BUFFER_HEADER_SIZE || size < WMI_BUFFER_HEADER_SIZE ||
		    size > DUMP_MAX_BUFFER ||
		    fread(buf + n, 1, size - n, f) != size - n) {
			printf("# offset %" PRIu64 ": not a whole buffer; the dump ends here\n",
			       file_off);
			st.bad++;
			break;
		}
		st.buffers++;
		dump_buffer(&st, buf, size, file_off);
		file_off += size;
	}
	free(buf);
	fclose(f);
	printf("# %" PRIu64 " buffers, %" PRIu64 " events%s\n", st.buffers, st.events,
	       st.bad ? ", with errors (above)" : "");
	return st.bad ? 1 : 0;
}
