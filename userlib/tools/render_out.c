// SPDX-License-Identifier: GPL-2.0
/*
 * The renderer's output (render.c, render_tdh.c): its settings, text
 * from a file escaped for the terminal or JSON, bytes as hex, UTF-16 as
 * UTF-8, Win32 errors in words. Both halves of the renderer print
 * through these.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <nttrace/consumer.h>
#include <nttrace/etl.h>
#include <nttrace/evntcons.h>
#include "cli.h"
#include "utf16.h"

int render_json;
int render_live;
uint64_t render_start;
struct nttrace_tmf render_formats;
unsigned int render_problems;

/*
 * The length of the UTF-8 sequence at @s (2 to 4) and its code point in
 * *@cp, or 0 if @s does not start one (common/utf16.c: RFC 3629; a NUL
 * cuts a sequence short, so 4 bytes are never read past it).
 */
static int utf8_seq(const unsigned char *s, uint32_t *cp)
{
	unsigned int n = ntr_utf8_next(s, 4, cp);

	/* Called past ASCII: one byte is one that starts no sequence. */
	return n > 1 ? (int)n : 0;
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
void render_text_to(FILE *f, const char *str, int json)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t c;
	int n;

	if (json)
		fputc('"', f);
	while (*s) {
		if (*s >= 0x20 && *s < 0x7F) {
			if (json && (*s == '"' || *s == '\\'))
				fputc('\\', f);
			fputc(*s++, f);
			continue;
		}
		n = *s < 0x80 ? 1 : utf8_seq(s, &c);
		if (n > 1 && !unprintable(c)) {
			fwrite(s, 1, n, f);
			s += n;
			continue;
		}
		if (n <= 1)
			c = *s, n = 1;
		if (json)
			fprintf(f, "\\u%04x", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (n == 1)
			fprintf(f, "\\x%02x", c);
		else
			fprintf(f, "\\u%04x", c);
		s += n;
	}
	if (json)
		fputc('"', f);
}

void render_text(const char *str, int json)
{
	render_text_to(stdout, str, json);
}

/* Bytes as hex: all of them in JSON (as "@key"), the first 32 as text. */
void render_hex(const char *key, const uint8_t *d, uint32_t len)
{
	uint32_t i;

	if (render_json) {
		printf(",\"%s\":\"", key);
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

/*
 * UTF-16LE (WCHAR is 16 bits, <nttrace/winnt.h>) up to its NUL, as UTF-8
 * in a string the caller frees; NULL if it is not text (an odd length, no
 * NUL). An unpaired surrogate becomes U+FFFD (our choice: JSON's "data"
 * keeps the bytes). render_text() then escapes what must not reach the
 * terminal.
 */
char *render_utf16_data(const uint8_t *d, uint32_t len)
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

char *render_utf16(const WCHAR *w)
{
	uint32_t n = 0;

	if (!w)
		return NULL;
	while (w[n])
		n++;
	/* WCHAR in memory is UTF-16LE on our targets. */
	return render_utf16_data((const uint8_t *)w, 2 * n + 2);
}

/* ---- Win32 errors ---- */

static const struct {
	ULONG code;
	const char *name, *words;
} win32_errors[] = {
	{ ERROR_FILE_NOT_FOUND, "ERROR_FILE_NOT_FOUND", "No such file or directory" },
	{ ERROR_PATH_NOT_FOUND, "ERROR_PATH_NOT_FOUND", "a directory of the path is missing" },
	{ ERROR_ACCESS_DENIED, "ERROR_ACCESS_DENIED", "access denied" },
	{ ERROR_INVALID_HANDLE, "ERROR_INVALID_HANDLE", "invalid handle" },
	{ ERROR_NOT_ENOUGH_MEMORY, "ERROR_NOT_ENOUGH_MEMORY", "out of memory" },
	{ ERROR_BAD_LENGTH, "ERROR_BAD_LENGTH", "bad length" },
	{ ERROR_NOT_SUPPORTED, "ERROR_NOT_SUPPORTED", "not supported" },
	{ ERROR_INVALID_PARAMETER, "ERROR_INVALID_PARAMETER", "invalid parameter" },
	{ ERROR_BAD_PATHNAME, "ERROR_BAD_PATHNAME", "bad path or name" },
	{ ERROR_BUSY, "ERROR_BUSY", "busy" },
	{ ERROR_MORE_DATA, "ERROR_MORE_DATA", "more data" },
	{ ERROR_CANCELLED, "ERROR_CANCELLED", "cancelled" },
	{ ERROR_FILE_CORRUPT, "ERROR_FILE_CORRUPT", "not an ETL file, or damaged" },
	{ ERROR_INVALID_TIME, "ERROR_INVALID_TIME", "invalid time" },
	{ ERROR_WMI_INSTANCE_NOT_FOUND, "ERROR_WMI_INSTANCE_NOT_FOUND", "no such session" },
	{ ERROR_CTX_CLOSE_PENDING, "ERROR_CTX_CLOSE_PENDING", "close pending" },
	{ ERROR_NO_SYSTEM_RESOURCES, "ERROR_NO_SYSTEM_RESOURCES", "no system resources" },
	{ ERROR_TOO_MANY_OPEN_FILES, "ERROR_TOO_MANY_OPEN_FILES", "too many open files" },
	{ ERROR_XML_PARSE_ERROR, "ERROR_XML_PARSE_ERROR", "not a manifest that parses" },
	{ ERROR_RESOURCE_NOT_FOUND, "ERROR_RESOURCE_NOT_FOUND", "no manifest in it" },
	/* The library's word for the module not loaded (nt/win32.c). */
	{ ERROR_SERVICE_NOT_ACTIVE, "ERROR_SERVICE_NOT_ACTIVE", CLI_NOT_LOADED },
};

int render_fail(ULONG err, const char *what, const char *call)
{
	const char *name = NULL, *words = NULL;
	size_t i;

	for (i = 0; i < sizeof(win32_errors) / sizeof(win32_errors[0]); i++) {
		if (win32_errors[i].code == err) {
			name = win32_errors[i].name;
			words = win32_errors[i].words;
		}
	}
	if (name)
		fprintf(stderr, "nttrace: %s: %s: %s (%s)\n", what, call, words, name);
	else
		fprintf(stderr, "nttrace: %s: %s: Win32 error %lu\n", what, call,
			(unsigned long)err);
	return 1;
}
