/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: message formats (Windows calls them TMF, trace
 * message formats), to render message events as text.
 *
 * Formats come from binaries built with <nttrace/wpp.h> (their
 * "nttrace_wpp" ELF section, 64- or 32-bit ELF) or from a format file,
 * plain text, one format a line, for binaries built elsewhere:
 *
 *   # comments and blank lines are ignored
 *   GUID NUMBER POINTER_SIZE TYPES FILE:LINE "FORMAT"
 *   6a1b7c2d-3e4f-4a5b-8c9d-0e1f2a3b4c5d 12 8 sip sample.c:40 "%s %d at %p"
 *
 * TYPES are the argument types of <nttrace/wpp.h> ('-' for none); FORMAT
 * is a C string literal (\\ \" \n \t \r \xHH escapes). FILE is written as
 * it is, unless it has a blank or a control character or starts with a
 * quote: then as a C string literal, "my dir/a.c":40. A line can be of any
 * length, and a FILE without quotes ends at its last colon (C:\x.c:40).
 * `nttrace formats BINARY` prints a binary's formats in this form.
 *
 * Rendering follows printf: each conversion takes the next argument from
 * the event's data, read in the argument's own type and size, then shown
 * as the conversion (with its length modifier) would show a value of that
 * size in C. Widths and precisions are capped at 999 (a larger one is
 * 999); a negative '*' width is '-' and its value, a negative '*'
 * precision is as if there were none, as C says. A %c of 0 shows as \0.
 * What does not fit (a missing argument, a string for %d) is shown in
 * angle brackets and the event is reported as a mismatch.
 */
#ifndef NTTRACE_TMF_H
#define NTTRACE_TMF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nttrace_tmf_format {
	uint8_t guid[16];	/* as a GUID is stored */
	uint16_t number;
	uint8_t ptr_size;	/* of the binary: for 'p' when the event says not */
	uint32_t line;
	char *types, *file, *format;
	const char *source;	/* the path given to load: it must outlive @t */
	size_t order;		/* load order: the first of a kind is kept */
};

struct nttrace_tmf {
	struct nttrace_tmf_format *v;
	size_t n, cap;
	int sorted;
};

/* Told of each problem met while loading, with where it is. */
typedef void (*nttrace_tmf_problem_fn)(void *ctx, const char *path, uint64_t offset,
				       const char *what);

/*
 * Add the formats of @path (an ELF binary or a format file) to @t. Returns
 * the number added (an ELF binary without the section adds 0), or -errno:
 * -ENOENT and such from opening, -EINVAL for a file that is neither. A
 * damaged entry or line is reported and skipped. The same format twice is
 * kept once; two different ones under one GUID and number are reported and
 * the first is kept (formats of one message from a 32-bit and a 64-bit
 * build differ, and are both kept: they are told apart by pointer size).
 */
int nttrace_tmf_load(struct nttrace_tmf *t, const char *path,
		     nttrace_tmf_problem_fn problem, void *ctx);
/*
 * The format for @guid (16 bytes) and @number from a binary of @ptr_size
 * (the event's, by its POINTER32/POINTER64 flag), else of any pointer
 * size; or NULL.
 */
const struct nttrace_tmf_format *nttrace_tmf_find(struct nttrace_tmf *t,
						  const uint8_t *guid, uint16_t number,
						  unsigned int ptr_size);
void nttrace_tmf_free(struct nttrace_tmf *t);

/* A GUID as stored (16 bytes) in its usual text form, lower case. */
#define NTTRACE_GUID_STRING	37	/* 36 characters and the NUL */
void nttrace_guid_string(const uint8_t *guid, char out[NTTRACE_GUID_STRING]);

/*
 * @f as one format file line (no newline) into @out, always NUL-terminated
 * when @size > 0. Returns the whole line's length, as snprintf does: when
 * it is @size or more, the line was cut and will not load back.
 */
size_t nttrace_tmf_line(const struct nttrace_tmf_format *f, char *out, size_t size);

/*
 * Render @f with the @len bytes of @data into @out (always NUL-terminated
 * when @size > 0). Nothing is cut but at the end of @out: text that does
 * not fit is cut there, and then its last three characters are "..."
 * (when @size > 4). @ptr_size is the event's (4 or 8 from its
 * POINTER32/POINTER64 flag), 0 (or any other value) to take the format's.
 * Returns 0, or -1 when the data did not match the format (rendered
 * anyway).
 */
int nttrace_tmf_render(const struct nttrace_tmf_format *f, const uint8_t *data,
		       uint32_t len, unsigned int ptr_size, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_TMF_H */
