// SPDX-License-Identifier: LGPL-2.1
/*
 * Message formats (<nttrace/tmf.h>): loading them from the "nttrace_wpp"
 * section of ELF binaries and from format files, finding them by GUID and
 * message number, and rendering an event's data through one.
 *
 * Everything read from a file is untrusted: every offset and size is
 * checked against what was read before it is used, and a bad entry is
 * reported and skipped.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/tmf.h>
#include <nttrace/wpp.h>

#define TYPE_CHARS "bBhHiIqQfdps"
/* A section larger than this is not one we wrote. */
#define MAX_SECTION (64u << 20)

struct loader {
	struct nttrace_tmf *t;
	const char *path;
	nttrace_tmf_problem_fn problem;
	void *ctx;
	unsigned int added;
};

static void problem(struct loader *l, uint64_t offset, const char *what)
{
	if (l->problem)
		l->problem(l->ctx, l->path, offset, what);
}

static int valid_types(const char *types)
{
	return strspn(types, TYPE_CHARS) == strlen(types);
}

static int add(struct loader *l, const uint8_t *guid, uint16_t number,
	       uint8_t ptr_size, uint32_t line, const char *types,
	       const char *file, const char *format)
{
	struct nttrace_tmf *t = l->t;
	struct nttrace_tmf_format *f;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		void *v = realloc(t->v, cap * sizeof(*t->v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	f = &t->v[t->n];
	memset(f, 0, sizeof(*f));
	memcpy(f->guid, guid, 16);
	f->number = number;
	f->ptr_size = ptr_size;
	f->line = line;
	f->types = strdup(types);
	f->file = strdup(file);
	f->format = strdup(format);
	f->source = l->path;
	f->order = t->n;
	if (!f->types || !f->file || !f->format) {
		free(f->types);
		free(f->file);
		free(f->format);
		return -ENOMEM;
	}
	t->n++;
	t->sorted = 0;
	l->added++;
	return 0;
}

/* ---- ELF binaries ---- */

static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	return n == (ssize_t)len ? 0 : -EINVAL;
}

/* The section entries, @len bytes read from file offset @base. */
static int parse_section(struct loader *l, const uint8_t *s, uint64_t len,
			 uint64_t base)
{
	uint64_t o = 0;
	int searching = 0;	/* for the next entry after a bad one */

	while (o + NTTRACE_WPP_ENTRY_SIZE <= len) {
		struct nttrace_wpp_entry e;
		const char *types, *file, *format, *end;
		GUID guid;
		int ret;

		memcpy(&e, s + o, NTTRACE_WPP_ENTRY_SIZE);
		if (e.magic == 0) {	/* padding between objects */
			o += 8;
			continue;
		}
		if (e.magic != NTTRACE_WPP_MAGIC || e.size > len - o ||
		    e.size < NTTRACE_WPP_ENTRY_SIZE + e.nargs + 3u) {
			if (!searching)
				problem(l, base + o, "not a format entry; looking for the next");
			searching = 1;
			o += 8;
			continue;
		}
		searching = 0;
		types = (const char *)s + o + NTTRACE_WPP_ENTRY_SIZE;
		end = (const char *)s + o + e.size;
		file = types + e.nargs + 1;
		format = memchr(file, 0, end - file);
		if (types[e.nargs] || strlen(types) != e.nargs || !valid_types(types) ||
		    !format || !memchr(format + 1, 0, end - format - 1) ||
		    (e.ptr_size != 4 && e.ptr_size != 8)) {
			problem(l, base + o, "damaged format entry skipped");
			o += (e.size + 7) & ~7u;
			continue;
		}
		format++;
		/* The GUID is derived from the entry as DoTraceMessage does. */
		nttrace_wpp_entry_guid((const struct nttrace_wpp_entry *)(s + o), &guid);
		ret = add(l, (const uint8_t *)&guid, e.number, e.ptr_size, e.line,
			  types, file, format);
		if (ret)
			return ret;
		o += (e.size + 7) & ~7u;
	}
	return 0;
}

struct shdr {
	uint64_t name, offset, size;
	uint32_t type;
};

/* The ELF header fields we need, from either class. */
struct ehdr {
	uint64_t shoff;
	unsigned int shentsize, shnum, shstrndx;
};

static int read_ehdr(int fd, int is64, struct ehdr *e)
{
	if (is64) {
		Elf64_Ehdr h;

		if (read_at(fd, &h, sizeof(h), 0))
			return -EINVAL;
		*e = (struct ehdr){ h.e_shoff, h.e_shentsize, h.e_shnum, h.e_shstrndx };
	} else {
		Elf32_Ehdr h;

		if (read_at(fd, &h, sizeof(h), 0))
			return -EINVAL;
		*e = (struct ehdr){ h.e_shoff, h.e_shentsize, h.e_shnum, h.e_shstrndx };
	}
	return 0;
}

static int read_shdr(int fd, int is64, uint64_t at, struct shdr *sh)
{
	if (is64) {
		Elf64_Shdr h;

		if (read_at(fd, &h, sizeof(h), at))
			return -EINVAL;
		*sh = (struct shdr){ h.sh_name, h.sh_offset, h.sh_size, h.sh_type };
	} else {
		Elf32_Shdr h;

		if (read_at(fd, &h, sizeof(h), at))
			return -EINVAL;
		*sh = (struct shdr){ h.sh_name, h.sh_offset, h.sh_size, h.sh_type };
	}
	return 0;
}

/* Find the section in a 32- or 64-bit little-endian ELF file. */
static int load_elf(struct loader *l, int fd)
{
	unsigned char id[EI_NIDENT];
	unsigned int i;
	struct shdr sh, strsh;
	struct ehdr eh;
	char *strtab = NULL;
	uint8_t *sec = NULL;
	int is64, ret;

	if (read_at(fd, id, sizeof(id), 0) || id[EI_DATA] != ELFDATA2LSB ||
	    (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64))
		return -EINVAL;
	is64 = id[EI_CLASS] == ELFCLASS64;
	if (read_ehdr(fd, is64, &eh))
		return -EINVAL;
	if (eh.shentsize != (is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)) ||
	    eh.shstrndx >= eh.shnum ||
	    read_shdr(fd, is64, eh.shoff + eh.shstrndx * eh.shentsize, &strsh) ||
	    !strsh.size || strsh.size > MAX_SECTION) {
		problem(l, 0, "ELF section headers not understood");
		return -EINVAL;
	}
	ret = -ENOMEM;
	strtab = malloc(strsh.size + 1);
	if (!strtab)
		goto out;
	ret = -EINVAL;
	if (read_at(fd, strtab, strsh.size, strsh.offset))
		goto bad;
	strtab[strsh.size] = 0;
	for (i = 0; i < eh.shnum; i++) {
		if (read_shdr(fd, is64, eh.shoff + (uint64_t)i * eh.shentsize, &sh))
			goto bad;
		if (sh.type == SHT_PROGBITS && sh.name < strsh.size &&
		    !strcmp(strtab + sh.name, NTTRACE_WPP_SECTION))
			break;
	}
	ret = 0;
	if (i == eh.shnum || !sh.size)
		goto out;		/* no formats in this binary */
	ret = -EINVAL;
	if (sh.size > MAX_SECTION)
		goto bad;
	ret = -ENOMEM;
	sec = malloc(sh.size);
	if (!sec)
		goto out;
	ret = -EINVAL;
	if (read_at(fd, sec, sh.size, sh.offset))
		goto bad;
	ret = parse_section(l, sec, sh.size, sh.offset);
	goto out;
bad:
	problem(l, 0, "ELF section headers or " NTTRACE_WPP_SECTION " cut short");
out:
	free(sec);
	free(strtab);
	return ret;
}

/* ---- format files ---- */

static int parse_guid(const char *s, uint8_t *out)
{
	unsigned int d1, d2, d3, b[8], i;
	int n = 0;
	GUID g;

	if (sscanf(s, "%8x-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x%n", &d1, &d2, &d3,
		   &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7], &n) != 11 ||
	    n != 36)
		return -1;
	g.Data1 = d1;
	g.Data2 = d2;
	g.Data3 = d3;
	for (i = 0; i < 8; i++)
		g.Data4[i] = b[i];
	memcpy(out, &g, 16);
	return 0;
}

/* A C string literal at *@p into @out (as long as the line); 0 or -1. */
static int parse_quoted(const char **p, char *out)
{
	const char *s = *p;

	if (*s++ != '"')
		return -1;
	while (*s && *s != '"') {
		if (*s != '\\') {
			*out++ = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case '\\': case '"': *out++ = *s++; break;
		case 'n': *out++ = '\n'; s++; break;
		case 't': *out++ = '\t'; s++; break;
		case 'r': *out++ = '\r'; s++; break;
		case 'x': {
			unsigned int v = 0, n = 0;

			for (s++; n < 2 && isxdigit((unsigned char)*s); n++, s++)
				v = v * 16 + (isdigit((unsigned char)*s) ? *s - '0' :
					      (tolower((unsigned char)*s) - 'a' + 10));
			if (!n || !v)
				return -1;
			*out++ = (char)v;
			break;
		}
		default:
			return -1;
		}
	}
	if (*s != '"')
		return -1;
	*out = 0;
	*p = s + 1;
	return 0;
}

/* The next blank-separated field of *@p; its length (0 at the end). */
static size_t field(const char **p)
{
	*p += strspn(*p, " \t\r\n");
	return strcspn(*p, " \t\r\n");
}

/* Decimal digits, all @len of them, at most @max; 0 or -1. */
static int parse_uint(const char *s, size_t len, uint32_t max, unsigned int *v)
{
	uint64_t n = 0;
	size_t i;

	if (!len || len > 10)
		return -1;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		n = n * 10 + (s[i] - '0');
	}
	if (n > max)
		return -1;
	*v = n;
	return 0;
}

/*
 * FILE:LINE at *@p into @file (room for the line) and @lineno. FILE is a C
 * string literal when nttrace_tmf_line() had to quote it (blanks, control
 * characters, a leading quote); else the field up to its last colon, as
 * files written before quoting have it (and a Windows path "C:\x.c" keeps
 * its colon).
 */
static int parse_where(const char **p, char *file, unsigned int *lineno)
{
	const char *s = *p, *colon;
	size_t len;

	if (*s == '"' && !parse_quoted(&s, file) && *s == ':') {
		len = strcspn(s + 1, " \t\r\n");
		if (!parse_uint(s + 1, len, UINT32_MAX, lineno)) {
			*p = s + 1 + len;
			return 0;
		}
	}
	s = *p;
	len = field(&s);
	for (colon = s + len; colon > s && colon[-1] != ':'; colon--)
		;
	if (colon == s || parse_uint(colon, s + len - colon, UINT32_MAX, lineno))
		return -1;
	memcpy(file, s, colon - 1 - s);
	file[colon - 1 - s] = 0;
	*p = s + len;
	return 0;
}

/* GUID NUMBER POINTER_SIZE TYPES FILE:LINE "FORMAT": fields of any length. */
static int parse_line(struct loader *l, const char *line)
{
	/* Types as long as a section entry's (its count is a byte). */
	char guid_s[NTTRACE_GUID_STRING], types[256];
	char *file = NULL, *format = NULL;
	unsigned int number, ptr_size, lineno;
	const char *p = line;
	uint8_t guid[16];
	size_t len;
	int ret = -1;

	len = field(&p);
	if (len != 36)
		return -1;
	memcpy(guid_s, p, 36);
	guid_s[36] = 0;
	p += len;
	len = field(&p);
	if (parse_guid(guid_s, guid) || parse_uint(p, len, 0xFFFF, &number))
		return -1;
	p += len;
	len = field(&p);
	if (parse_uint(p, len, 8, &ptr_size) || (ptr_size != 4 && ptr_size != 8))
		return -1;
	p += len;
	len = field(&p);
	if (!len || len >= sizeof(types))
		return -1;
	memcpy(types, p, len);
	types[len] = 0;
	p += len;
	if (!strcmp(types, "-"))
		types[0] = 0;
	if (!valid_types(types))
		return -1;
	/* Neither can be longer than the line. */
	file = malloc(strlen(line) + 1);
	format = malloc(strlen(line) + 1);
	if (!file || !format) {
		ret = -ENOMEM;
		goto out;
	}
	field(&p);
	if (parse_where(&p, file, &lineno))
		goto out;
	field(&p);
	if (parse_quoted(&p, format) || p[strspn(p, " \t\r\n")])
		goto out;
	ret = add(l, guid, number, ptr_size, lineno, types, file, format);
out:
	free(file);
	free(format);
	return ret;
}

static int load_text(struct loader *l, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	uint64_t offset = 0;
	unsigned int bad = 0, good = 0;
	ssize_t n;
	int ret = 0;

	while ((n = getline(&line, &cap, f)) > 0) {
		const char *s = line + strspn(line, " \t");

		if (memchr(line, 0, n)) {
			ret = -EINVAL;	/* binary, not a format file */
			break;
		}
		if (*s && *s != '#' && *s != '\n' && *s != '\r') {
			ret = parse_line(l, line);
			if (ret == -ENOMEM)
				break;
			if (ret) {
				problem(l, offset, "not a format line; skipped");
				bad++;
			} else {
				good++;
			}
			ret = 0;
		}
		offset += n;
	}
	free(line);
	if (!ret && bad && !good)
		ret = -EINVAL;
	return ret;
}

/* ---- the table ---- */

/* Formats are keyed by GUID, number and pointer size: a file built 32-
 * and 64-bit has two formats a message (a long is 4 or 8 bytes). */
static int cmp_key(const struct nttrace_tmf_format *a, const struct nttrace_tmf_format *b)
{
	int c = memcmp(a->guid, b->guid, 16);

	if (c)
		return c;
	if (a->number != b->number)
		return (int)a->number - (int)b->number;
	return (int)a->ptr_size - (int)b->ptr_size;
}

static int cmp_sort(const void *x, const void *y)
{
	const struct nttrace_tmf_format *a = x, *b = y;
	int c = cmp_key(a, b);

	if (c)
		return c;
	return a->order < b->order ? -1 : a->order > b->order;
}

static void free_format(struct nttrace_tmf_format *f)
{
	free(f->types);
	free(f->file);
	free(f->format);
}

/* Sort by key, keep the first of each key, report the ones that differ. */
static void sort_unique(struct nttrace_tmf *t, struct loader *l)
{
	size_t i, j = 0;

	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), cmp_sort);
	for (i = 0; i < t->n; i++) {
		struct nttrace_tmf_format *f = &t->v[i];

		if (j && !cmp_key(&t->v[j - 1], f)) {
			struct nttrace_tmf_format *k = &t->v[j - 1];

			if (l && (strcmp(k->format, f->format) || strcmp(k->types, f->types))) {
				char what[160];

				snprintf(what, sizeof(what),
					 "message %u of %s:%u (%u-bit) differs from the one "
					 "in %s; the first is kept", f->number, f->file,
					 f->line, 8 * f->ptr_size, k->source);
				problem(l, 0, what);
			}
			free_format(f);
			continue;
		}
		t->v[j++] = *f;
	}
	t->n = j;
	for (i = 0; i < t->n; i++)
		t->v[i].order = i;
	t->sorted = 1;
}

int nttrace_tmf_load(struct nttrace_tmf *t, const char *path,
		     nttrace_tmf_problem_fn problem_fn, void *ctx)
{
	struct loader l = { t, path, problem_fn, ctx, 0 };
	unsigned char magic[4] = { 0 };
	FILE *f = fopen(path, "re");
	int ret;

	if (!f)
		return -errno;
	if (fread(magic, 1, 4, f) == 4 && !memcmp(magic, ELFMAG, SELFMAG)) {
		ret = load_elf(&l, fileno(f));
	} else {
		rewind(f);
		ret = load_text(&l, f);
	}
	fclose(f);
	sort_unique(t, &l);
	return ret ? ret : (int)l.added;
}

/* The first format at or after @key in sort order (index), or t->n. */
static size_t lower_bound(const struct nttrace_tmf *t, const struct nttrace_tmf_format *key)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_key(&t->v[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct nttrace_tmf_format *nttrace_tmf_find(struct nttrace_tmf *t,
						  const uint8_t *guid, uint16_t number,
						  unsigned int ptr_size)
{
	struct nttrace_tmf_format key;
	size_t i;

	if (!t->n)
		return NULL;	/* none loaded: asked for every message */
	if (!t->sorted)
		sort_unique(t, NULL);
	memcpy(key.guid, guid, 16);
	key.number = number;
	key.ptr_size = ptr_size;
	i = lower_bound(t, &key);
	if (i < t->n && !cmp_key(&t->v[i], &key))
		return &t->v[i];
	/* No format for this pointer size: any for the GUID and number. */
	key.ptr_size = 0;
	i = lower_bound(t, &key);
	if (i < t->n && !memcmp(t->v[i].guid, guid, 16) && t->v[i].number == number)
		return &t->v[i];
	return NULL;
}

void nttrace_tmf_free(struct nttrace_tmf *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free_format(&t->v[i]);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/*
 * By hand rather than with snprintf: the tools write a GUID for every
 * event, and sixteen conversions cost more than the rest of an event.
 */
void nttrace_guid_string(const uint8_t *g, char out[NTTRACE_GUID_STRING])
{
	/* The bytes in the order they are written: Data1 to Data3 little-endian. */
	static const uint8_t order[16] = { 3, 2, 1, 0, 5, 4, 7, 6,
					   8, 9, 10, 11, 12, 13, 14, 15 };
	static const char hex[] = "0123456789abcdef";
	char *p = out;
	unsigned int i;

	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*p++ = '-';
		*p++ = hex[g[order[i]] >> 4];
		*p++ = hex[g[order[i]] & 15];
	}
	*p = 0;
}

/* A line being written: as snprintf, @n counts what did not fit too. */
struct line {
	char *out;
	size_t size, n;
};

static void line_add(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	if (l->n < l->size)
		k = vsnprintf(l->out + l->n, l->size - l->n, fmt, ap);
	else
		k = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		l->n += k;
}

/* @s as a C string literal, quotes included, as parse_quoted() reads it. */
static void line_quoted(struct line *l, const char *s)
{
	line_add(l, "\"");
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			line_add(l, "\\%c", c);
		else if (c == '\n')
			line_add(l, "\\n");
		else if (c == '\t')
			line_add(l, "\\t");
		else if (c < 0x20 || c == 0x7F)
			line_add(l, "\\x%02x", c);
		else
			line_add(l, "%c", c);
	}
	line_add(l, "\"");
}

size_t nttrace_tmf_line(const struct nttrace_tmf_format *f, char *out, size_t size)
{
	struct line l = { out, size, 0 };
	char guid[NTTRACE_GUID_STRING];
	const char *s;

	if (size)
		*out = 0;
	nttrace_guid_string(f->guid, guid);
	line_add(&l, "%s %u %u %s ", guid, f->number, f->ptr_size,
		 *f->types ? f->types : "-");
	/*
	 * FILE as it is, as it always was, unless that would not read back:
	 * a blank or a control character in it, or a leading quote.
	 */
	for (s = f->file; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7F)
			break;
	if (*s || *f->file == '"')
		line_quoted(&l, f->file);
	else
		line_add(&l, "%s", f->file);
	line_add(&l, ":%u ", f->line);
	line_quoted(&l, f->format);
	return l.n;
}

/* ---- rendering ---- */

struct out {
	char *p;
	size_t left;		/* room, the NUL included */
	int cut;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (n >= o->left) {
		n = o->left - 1;
		o->cut = 1;
	}
	memcpy(o->p, s, n);
	o->p += n;
	o->left -= n;
	*o->p = 0;
}

/* The next argument's value, by its type; 0 when there is none. */
struct arg {
	char type;
	uint64_t u;		/* integers, sign-extended; pointers */
	double d;
	const char *s;
	size_t s_len;
};

struct args {
	const uint8_t *d;
	uint32_t len, pos;
	const char *types;
	unsigned int ptr_size;
	int bad;
};

/* The size of an argument of @type (not 's'); 0 for no such type. */
static unsigned int type_size(char type, unsigned int ptr_size)
{
	switch (type) {
	case 'b': case 'B': return 1;
	case 'h': case 'H': return 2;
	case 'i': case 'I': case 'f': return 4;
	case 'q': case 'Q': case 'd': return 8;
	case 'p': return ptr_size;
	default: return 0;
	}
}

static int next_arg(struct args *a, struct arg *v)
{
	unsigned int n;
	uint8_t raw[8] = { 0 };

	if (!*a->types) {
		a->bad = 1;
		return 0;
	}
	v->type = *a->types++;
	if (v->type == 's') {
		const uint8_t *nul = a->pos < a->len ?
				     memchr(a->d + a->pos, 0, a->len - a->pos) : NULL;

		if (!nul) {
			a->bad = 1;
			a->pos = a->len;
			return 0;
		}
		v->s = (const char *)a->d + a->pos;
		v->s_len = nul - (a->d + a->pos);
		a->pos += v->s_len + 1;
		return 1;
	}
	/* Types are checked when loaded; a format made by hand may not be. */
	n = type_size(v->type, a->ptr_size);
	if (!n || a->len - a->pos < n) {
		a->bad = 1;
		a->pos = a->len;
		return 0;
	}
	memcpy(raw, a->d + a->pos, n);
	a->pos += n;
	v->u = 0;
	memcpy(&v->u, raw, n);	/* little-endian: the low bytes */
	if (n < 8 && strchr("bhiq", v->type) && (v->u >> (8 * n - 1)) & 1)
		v->u |= ~0ULL << (8 * n);
	if (v->type == 'f') {
		float f;

		memcpy(&f, raw, 4);
		v->d = f;
	} else if (v->type == 'd') {
		memcpy(&v->d, raw, 8);
	}
	return 1;
}

static int is_int(char type)
{
	return type && strchr("bBhHiIqQp", type);
}

/* Bits of an integer conversion's length modifier. */
static unsigned int length_bits(const char *len, unsigned int ptr_size)
{
	if (!strcmp(len, "hh"))
		return 8;
	if (!strcmp(len, "h"))
		return 16;
	if (!strcmp(len, "l") || !strcmp(len, "z") || !strcmp(len, "Z") ||
	    !strcmp(len, "t") || !strcmp(len, "I"))
		return 8 * ptr_size;
	if (!strcmp(len, "ll") || !strcmp(len, "q") || !strcmp(len, "j") ||
	    !strcmp(len, "L") || !strcmp(len, "I64"))
		return 64;
	return 32;	/* none, I32 */
}

static void mismatch(struct out *o, struct args *a, const char *what)
{
	put(o, "<", 1);
	put(o, what, strlen(what));
	put(o, ">", 1);
	a->bad = 1;
}

/*
 * printf straight into the output, so that no conversion is cut short by
 * a buffer of its own: what does not fit is cut where the output ends,
 * and marked there.
 */
static int put_fmt(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int put_fmt(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->p, o->left, fmt, ap);
	va_end(ap);
	if (n < 0) {
		*o->p = 0;
		return -1;
	}
	if ((size_t)n >= o->left) {
		n = o->left - 1;
		o->cut = 1;
	}
	o->p += n;
	o->left -= n;
	return 0;
}

/* @spec without its precision: it means nothing for %c and %p. */
static void no_precision(const char *spec, char *out)
{
	size_t n = strcspn(spec, ".");

	memcpy(out, spec, n);
	out[n] = 0;
}

/* One conversion, @spec its "%flags width.precision" part. */
static void convert(struct out *o, struct args *a, char *spec, const char *len,
		    char conv)
{
	char fmt[64], bare[40];
	struct arg v;
	int n;

	if (!next_arg(a, &v)) {
		mismatch(o, a, "missing");
		return;
	}
	if (conv == 'n')
		return;		/* writes nothing, shows nothing */
	if (strchr("diouxXc", conv)) {
		unsigned int bits = length_bits(len, a->ptr_size);
		uint64_t u = v.u;

		if (!is_int(v.type)) {
			mismatch(o, a, v.type == 's' ? "string" : "float");
			return;
		}
		if (bits < 64) {
			u &= (1ULL << bits) - 1;
			if (strchr("di", conv) && (u >> (bits - 1)) & 1)
				u |= ~0ULL << bits;
		}
		if (conv == 'c') {
			no_precision(spec, bare);
			/*
			 * A NUL character would end the text there, unseen:
			 * it is shown as \\0, as `nttrace dump` shows NULs in data.
			 */
			if (!(unsigned char)u) {
				snprintf(fmt, sizeof(fmt), "%ss", bare);
				n = put_fmt(o, fmt, "\\0");
			} else {
				snprintf(fmt, sizeof(fmt), "%sc", bare);
				n = put_fmt(o, fmt, (int)(unsigned char)u);
			}
		} else {
			snprintf(fmt, sizeof(fmt), "%sll%c", spec, conv);
			n = put_fmt(o, fmt, (unsigned long long)u);
		}
	} else if (strchr("eEfFgGaA", conv)) {
		if (v.type != 'f' && v.type != 'd') {
			mismatch(o, a, v.type == 's' ? "string" : "integer");
			return;
		}
		snprintf(fmt, sizeof(fmt), "%s%c", spec, conv);
		n = put_fmt(o, fmt, v.d);
	} else if (conv == 's') {
		if (v.type != 's') {
			mismatch(o, a, "not a string");
			return;
		}
		/* The precision: the format's, or the whole string. */
		if (strchr(spec, '.')) {
			snprintf(fmt, sizeof(fmt), "%ss", spec);
			n = put_fmt(o, fmt, v.s);
		} else {
			snprintf(fmt, sizeof(fmt), "%s.*s", spec);
			n = put_fmt(o, fmt, (int)v.s_len, v.s);
		}
	} else if (conv == 'p') {
		char hex[24];

		if (!is_int(v.type)) {
			mismatch(o, a, "not a pointer");
			return;
		}
		if (a->ptr_size == 4)
			v.u &= 0xFFFFFFFFu;
		/* As glibc shows pointers; the width and '-' still apply. */
		if (v.u)
			snprintf(hex, sizeof(hex), "0x%" PRIx64, v.u);
		else
			snprintf(hex, sizeof(hex), "(nil)");
		no_precision(spec, bare);
		snprintf(fmt, sizeof(fmt), "%ss", bare);
		n = put_fmt(o, fmt, hex);
	} else {
		mismatch(o, a, "unknown conversion");
		return;
	}
	if (n < 0)
		mismatch(o, a, "format");
}

int nttrace_tmf_render(const struct nttrace_tmf_format *f, const uint8_t *data,
		       uint32_t len, unsigned int ptr_size, char *outbuf, size_t size)
{
	/* A pointer is 4 or 8 bytes: the event's, else the format's, else 8. */
	unsigned int psz = ptr_size == 4 || ptr_size == 8 ? ptr_size :
			   f->ptr_size == 4 ? 4 : 8;
	struct args a = { data, len, 0, f->types, psz, 0 };
	struct out o = { outbuf, size, 0 };
	const char *p = f->format;

	if (!size)
		return -1;
	*outbuf = 0;
	while (*p) {
		char spec[40], lenmod[4] = "";
		size_t n = strcspn(p, "%");
		unsigned int sn = 1, v, digits;

		put(&o, p, n);
		p += n;
		if (!*p)
			break;
		if (p[1] == '%') {
			put(&o, "%", 1);
			p += 2;
			continue;
		}
		/* %[flags][width][.precision][length]conversion */
		spec[0] = '%';
		for (p++; *p && strchr("-+ #0", *p) && sn < 8; p++)
			spec[sn++] = *p;
		for (int part = 0; part < 2; part++) {
			if (part == 1) {
				if (*p != '.')
					break;
				spec[sn++] = *p++;
			}
			if (*p == '*') {
				struct arg w;
				int iv;

				p++;
				if (!next_arg(&a, &w) || !is_int(w.type)) {
					mismatch(&o, &a, "missing width");
					return -1;
				}
				/* As C takes it: an int; capped, as is the rest. */
				iv = (int)(uint32_t)w.u;
				iv = iv < -999 ? -999 : iv > 999 ? 999 : iv;
				/*
				 * A negative width is '-' and the width; a
				 * negative precision is as if there were none
				 * (C11 7.21.6.1p5): not "%.-3d".
				 */
				if (part == 1 && iv < 0)
					spec[--sn] = 0;
				else
					sn += snprintf(spec + sn, sizeof(spec) - sn, "%d", iv);
				continue;
			}
			/* Digits: their value, capped at 999 (not the first three). */
			for (v = 0, digits = 0; isdigit((unsigned char)*p); p++, digits++)
				v = v >= 100 ? 999 : v * 10 + (*p - '0');
			if (digits)
				sn += snprintf(spec + sn, sizeof(spec) - sn, "%u", v);
		}
		spec[sn] = 0;
		if (!strncmp(p, "I64", 3) || !strncmp(p, "I32", 3)) {
			memcpy(lenmod, p, 3);
			p += 3;
		} else if ((p[0] == 'h' || p[0] == 'l') && p[1] == p[0]) {
			memcpy(lenmod, p, 2);
			p += 2;
		} else if (*p && strchr("hlLqjzZtI", *p)) {
			lenmod[0] = *p++;
		}
		if (!*p) {
			mismatch(&o, &a, "format ends in a conversion");
			break;
		}
		convert(&o, &a, spec, lenmod, *p++);
	}
	if (a.pos != a.len || *a.types)
		a.bad = 1;	/* data or arguments left over */
	/* Cut: the output is full, and its last three characters say so. */
	if (o.cut && size > 4)
		memcpy(outbuf + size - 4, "...", 4);
	return a.bad ? -1 : 0;
}
