// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's printf family and wide stdio (userlib/windows/crt.h).
 * One engine formats with MSVC's semantics into UTF-8: %s and %c follow
 * the function's width (WCHAR in the wide functions), %S and %C the other
 * one, h and l (or w) force narrow and wide; I, I32 and I64 size integers;
 * %n and positional arguments are refused (-1, EINVAL), as MSVC refuses
 * %n. Each number goes to the C library's snprintf as a standard
 * conversion. Wide destinations get the UTF-8 as UTF-16; streams get the
 * UTF-8 bytes. Narrow text is taken as UTF-8.
 *
 * The conversions are the library's own (common/utf16.h, userlib/nt/nt_internal.h),
 * not iconv: a static program finds no gconv modules at run time.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../nt/nt_internal.h"
#include "crt.h"
#include "utf16.h"

/* WCHAR strings are UTF-16 in the machine's order, utf16.h's UTF-16LE. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "UTF-16LE is WCHAR's order");

/* The engine's output: UTF-8, always NUL-terminated, on the stack first. */
struct obuf {
	char *p;
	size_t n, cap;
	int err;		/* an errno value: the output is abandoned */
	char small[256];
};

static void ob_init(struct obuf *b)
{
	b->p = b->small;
	b->n = 0;
	b->cap = sizeof(b->small);
	b->err = 0;
	b->small[0] = 0;
}

static void ob_free(struct obuf *b)
{
	if (b->p != b->small)
		free(b->p);
}

/* Where @n more bytes go (and a NUL after them); NULL on failure. */
static char *ob_room(struct obuf *b, size_t n)
{
	size_t cap = b->cap;
	char *p;

	if (b->err)
		return NULL;
	while (cap - b->n <= n) {
		if (cap > SIZE_MAX / 2 || cap > INT_MAX) {
			b->err = EOVERFLOW;	/* no int counts it */
			return NULL;
		}
		cap *= 2;
	}
	if (cap != b->cap) {
		p = b->p == b->small ? malloc(cap) : realloc(b->p, cap);
		if (!p) {
			b->err = ENOMEM;
			return NULL;
		}
		if (b->p == b->small)
			memcpy(p, b->small, b->n + 1);
		b->p = p;
		b->cap = cap;
	}
	return b->p + b->n;
}

static void ob_put(struct obuf *b, const char *s, size_t n)
{
	char *at = ob_room(b, n);

	if (!at)
		return;
	memcpy(at, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

static void ob_pad(struct obuf *b, size_t n)
{
	char *at = ob_room(b, n);

	if (!at)
		return;
	memset(at, ' ', n);
	b->n += n;
	b->p[b->n] = 0;
}

/* snprintf() of one standard conversion, appended. */
static void ob_printf(struct obuf *b, const char *spec, ...)
{
	va_list ap, again;
	char *at;
	int n;

	va_start(ap, spec);
	va_copy(again, ap);
	n = vsnprintf(NULL, 0, spec, ap);
	if (n < 0)
		b->err = errno;
	at = n < 0 ? NULL : ob_room(b, n);
	if (at) {
		vsnprintf(at, n + 1, spec, again);
		b->n += n;
	}
	va_end(again);
	va_end(ap);
}

/*
 * @n units of text at @s, UTF-16 if @wide else UTF-8 (copied as it is),
 * appended to @b as UTF-8 (@b NULL: nothing written); returns its
 * characters, which a width counts.
 */
static size_t put_text(struct obuf *b, const void *s, size_t n, int wide)
{
	const uint8_t *c = s;
	size_t i = 0, chars = 0, len;
	char u[4];
	uint32_t cp;

	for (; i < n; i += len, chars++) {
		if (wide) {
			len = nttrace_win_utf16_next((const WCHAR *)s + i, n - i, &cp);
			if (b)
				ob_put(b, u, nttrace_utf8_put(u, cp));
		} else {
			len = ntr_utf8_next(c + i, n - i < 4 ? n - i : 4, &cp);
			if (b)
				ob_put(b, (const char *)c + i, len);
		}
	}
	return chars;
}

/* A conversion specification, parsed. */
enum len { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_BIG_L, LEN_J, LEN_Z, LEN_T, LEN_W };

struct conv {
	char flags[8];
	int width, prec;	/* -1: none */
	enum len len;
	char c;
};

/* A width or precision's digits at *@f; -1 when they number an argument. */
static int digits(const char **f, int *v)
{
	char *end;
	long n = strtol(*f, &end, 10);

	if (*end == '$' || n > INT_MAX)
		return -1;
	*v = n;
	*f = end;
	return 0;
}

/* A '*' width or precision: from the arguments, but not positional (*1$). */
static int star(const char **f, int *v, va_list *ap)
{
	if ((*f)[1] >= '0' && (*f)[1] <= '9')
		return -1;
	*v = va_arg(*ap, int);
	(*f)++;
	return 0;
}

static enum len length(const char **f)
{
	const char *p = *f;
	enum len l;

	switch (*p++) {
	case 'h':
		l = *p == 'h' ? LEN_HH : LEN_H;
		break;
	case 'l':
		l = *p == 'l' ? LEN_LL : LEN_L;
		break;
	case 'L':
		l = LEN_BIG_L;
		break;
	case 'j':
		l = LEN_J;
		break;
	case 'z':
		l = LEN_Z;
		break;
	case 't':
		l = LEN_T;
		break;
	case 'w':
		l = LEN_W;
		break;
	case 'I':			/* MSVC's: I64, I32, I pointer-sized */
		l = p[0] == '6' && p[1] == '4' ? LEN_LL :
		    p[0] == '3' && p[1] == '2' ? LEN_NONE : LEN_Z;
		if (l != LEN_Z)
			p += 2;
		*f = p;
		return l;
	default:
		return LEN_NONE;
	}
	*f = p + (l == LEN_HH || l == LEN_LL);
	return l;
}

/* The specification after a '%' at *@f; -1 for one MSVC refuses. */
static int parse(const char **f, struct conv *cv, va_list *ap)
{
	size_t nf = 0;

	cv->width = -1;
	cv->prec = -1;
	while (**f && strchr("-+ #0", **f) && nf < sizeof(cv->flags) - 2)
		cv->flags[nf++] = *(*f)++;
	if (**f == '*') {
		if (star(f, &cv->width, ap))
			return -1;
		if (cv->width < 0) {		/* C's: a negative width is '-' */
			cv->flags[nf++] = '-';
			cv->width = cv->width == INT_MIN ? INT_MAX : -cv->width;
		}
	} else if (**f >= '0' && **f <= '9' && digits(f, &cv->width)) {
		return -1;
	}
	cv->flags[nf] = 0;
	if (**f == '.') {
		(*f)++;
		cv->prec = 0;
		if (**f == '*' ? star(f, &cv->prec, ap) :
		    **f >= '0' && **f <= '9' && digits(f, &cv->prec))
			return -1;
		if (cv->prec < 0)
			cv->prec = -1;
	}
	cv->len = length(f);
	cv->c = **f;
	if (!cv->c || !strchr("diouxXeEfFgGaAcCsSp%", cv->c))
		return -1;			/* %n among them: MSVC's too */
	(*f)++;
	return 0;
}

/* @cv as a standard specification with the C library's length @mod. */
static void spec(char *out, size_t size, const struct conv *cv, const char *mod)
{
	char w[16] = "", p[16] = "";

	if (cv->width >= 0)
		snprintf(w, sizeof(w), "%d", cv->width);
	if (cv->prec >= 0)
		snprintf(p, sizeof(p), ".%d", cv->prec);
	snprintf(out, size, "%%%s%s%s%s%c", cv->flags, w, p, mod, cv->c);
}

/*
 * An integer, of its length's type; l is 32 bits as on Windows (LONG,
 * ULONG and DWORD are 32-bit here), and a 64-bit long still takes one
 * argument, its low half printed.
 */
static void put_int(struct obuf *b, const struct conv *cv, va_list *ap)
{
	static const char *const mod[] = {
		[LEN_HH] = "hh", [LEN_H] = "h", [LEN_LL] = "ll", [LEN_BIG_L] = "ll",
		[LEN_J] = "j", [LEN_Z] = "z", [LEN_T] = "t",
	};
	char s[48];

	spec(s, sizeof(s), cv, mod[cv->len] ? mod[cv->len] : "");
	switch (cv->len) {
	case LEN_LL:
	case LEN_BIG_L:
		ob_printf(b, s, va_arg(*ap, long long));
		break;
	case LEN_J:
		ob_printf(b, s, va_arg(*ap, intmax_t));
		break;
	case LEN_Z:
		ob_printf(b, s, va_arg(*ap, size_t));
		break;
	case LEN_T:
		ob_printf(b, s, va_arg(*ap, ptrdiff_t));
		break;
	default:
		ob_printf(b, s, va_arg(*ap, int));
		break;
	}
}

static void put_float(struct obuf *b, const struct conv *cv, va_list *ap)
{
	char s[48];

	spec(s, sizeof(s), cv, cv->len == LEN_BIG_L ? "L" : "");
	if (cv->len == LEN_BIG_L)
		ob_printf(b, s, va_arg(*ap, long double));
	else
		ob_printf(b, s, va_arg(*ap, double));
}

/* @n units of text, within @cv's width (in characters). */
static void put_padded(struct obuf *b, const struct conv *cv, const void *s,
		       size_t n, int wide)
{
	size_t chars = put_text(NULL, s, n, wide);
	size_t pad = cv->width > 0 && (size_t)cv->width > chars ? cv->width - chars : 0;
	int left = strchr(cv->flags, '-') != NULL;

	if (!left)
		ob_pad(b, pad);
	put_text(b, s, n, wide);
	if (left)
		ob_pad(b, pad);
}

/* A precision cut UTF-8 at @n bytes: back to the start of a split character. */
static size_t utf8_clip(const char *s, size_t n)
{
	const uint8_t *u = (const uint8_t *)s;
	size_t i = n, need;

	while (i && n - i < 3 && (u[i - 1] & 0xC0) == 0x80)
		i--;
	if (!i || u[i - 1] < 0xC0)
		return n;
	need = u[i - 1] >= 0xF0 ? 4 : u[i - 1] >= 0xE0 ? 3 : 2;
	return i - 1 + need > n ? i - 1 : n;
}

/* The units of a string that a precision (in units) keeps. */
static size_t text_len(const void *s, int wide, int prec)
{
	const WCHAR *w = s;
	size_t n;

	if (!wide) {
		n = prec < 0 ? strlen(s) : strnlen(s, prec);
		return prec >= 0 && n == (size_t)prec ? utf8_clip(s, n) : n;
	}
	n = prec < 0 ? nttrace_win_wcslen(w) : nttrace_win_wcsnlen(w, prec);
	if (prec >= 0 && n == (size_t)prec && n && w[n - 1] >= 0xD800 && w[n - 1] <= 0xDBFF)
		n--;				/* the pair's second half cut */
	return n;
}

/* %s %S %c %C: which width of text (@fn_wide: the function's). */
static void put_str(struct obuf *b, const struct conv *cv, int fn_wide, va_list *ap)
{
	int wide = cv->c == 's' || cv->c == 'c' ? fn_wide : !fn_wide;
	const void *s;
	uint8_t nc;
	WCHAR wc;

	if (cv->len == LEN_H)
		wide = 0;
	else if (cv->len == LEN_L || cv->len == LEN_W)
		wide = 1;
	if (cv->c == 'c' || cv->c == 'C') {
		wc = va_arg(*ap, int);
		nc = wc;
		put_padded(b, cv, wide ? (void *)&wc : &nc, 1, wide);
		return;
	}
	s = va_arg(*ap, const void *);
	if (!s) {
		s = "(null)";
		wide = 0;
	}
	put_padded(b, cv, s, text_len(s, wide, cv->prec), wide);
}

/* MSVC's %p: the pointer's width of uppercase hex digits, no 0x. */
static void put_ptr(struct obuf *b, const struct conv *cv, va_list *ap)
{
	char s[2 * sizeof(void *) + 1];

	snprintf(s, sizeof(s), "%0*" PRIXPTR, (int)(2 * sizeof(void *)),
		 (uintptr_t)va_arg(*ap, void *));
	put_padded(b, cv, s, strlen(s), 0);
}

/* The UTF-8 format @f's output (wide or narrow function) in @b; 0 or -1. */
static int engine(struct obuf *b, int fn_wide, const char *f, va_list ap0)
{
	struct conv cv;
	const char *pct;
	va_list ap;

	va_copy(ap, ap0);
	while (*f && !b->err) {
		pct = strchr(f, '%');
		if (!pct)
			pct = f + strlen(f);
		ob_put(b, f, pct - f);
		if (!*pct)
			break;
		f = pct + 1;
		if (parse(&f, &cv, &ap)) {
			b->err = EINVAL;
			break;
		}
		if (cv.c == '%')
			ob_put(b, "%", 1);
		else if (cv.c == 'p')
			put_ptr(b, &cv, &ap);
		else if (strchr("cCsS", cv.c))
			put_str(b, &cv, fn_wide, &ap);
		else if (strchr("eEfFgGaA", cv.c))
			put_float(b, &cv, &ap);
		else
			put_int(b, &cv, &ap);
	}
	va_end(ap);
	if (b->err)
		errno = b->err;
	return b->err ? -1 : 0;
}

/* @fmt (WCHAR if @wide) formatted in @b, which the caller frees; 0 or -1. */
static int format(struct obuf *b, int wide, const void *fmt, va_list ap)
{
	struct obuf f;
	int ret;

	ob_init(b);
	if (!fmt) {
		errno = EINVAL;
		return -1;
	}
	if (!wide)
		return engine(b, 0, fmt, ap);
	ob_init(&f);
	put_text(&f, fmt, nttrace_win_wcslen(fmt), 1);
	if (f.err)
		errno = f.err;
	ret = f.err ? -1 : engine(b, 1, f.p, ap);
	ob_free(&f);
	return ret;
}

/* @b's length in the function's units: UTF-16 units if @wide, else bytes. */
static size_t units(const struct obuf *b, int wide)
{
	return wide ? nttrace_win_utf8_to_16(NULL, SIZE_MAX, b->p, b->n) : b->n;
}

/* @b's text written to @f; its length in units, or -1. */
static int write_out(FILE *f, const struct obuf *b, int wide)
{
	size_t n = units(b, wide);

	if (b->err || !f) {
		errno = b->err ? b->err : EINVAL;
		return -1;
	}
	if (fwrite(b->p, 1, b->n, f) != b->n)
		return -1;
	return n;
}

static int to_stream(FILE *f, int wide, const void *fmt, va_list ap)
{
	struct obuf b;
	int ret = format(&b, wide, fmt, ap);

	if (!ret)
		ret = write_out(f, &b, wide);
	ob_free(&b);
	return ret;
}

/*
 * What a buffer that is too small gets: C99's snprintf (the cut text, the
 * length it wanted), ISO's swprintf (the cut text, -1), MSVC's _snprintf
 * (@count units unterminated, -1; exactly full: unterminated, the length),
 * the _s functions (empty, -1, ERANGE); or no buffer (_scprintf).
 */
enum fit { FIT_C99, FIT_ISO, FIT_MSVC, FIT_SECURE, FIT_COUNT };

static int to_mem(void *buf, size_t count, int wide, const void *fmt, va_list ap,
		  enum fit fit)
{
	size_t total, keep;
	struct obuf b;
	int ret;

	if (fit == FIT_SECURE ? !buf || !count : !buf && count) {
		errno = EINVAL;
		return -1;
	}
	if (fit == FIT_SECURE)		/* emptied whatever the failure */
		memset(buf, 0, wide ? sizeof(WCHAR) : 1);
	ret = format(&b, wide, fmt, ap);
	total = units(&b, wide);
	if (!ret && total > INT_MAX) {
		errno = EOVERFLOW;
		ret = -1;
	}
	if (ret || fit == FIT_COUNT || (!buf && fit != FIT_ISO))
		goto out;
	if (fit == FIT_SECURE && total >= count) {
		errno = ERANGE;
		ret = -1;
		goto out;
	}
	keep = total < count ? total : fit == FIT_MSVC ? count : count ? count - 1 : 0;
	if (wide)
		keep = nttrace_win_utf8_to_16(buf, keep, b.p, b.n);
	else
		memcpy(buf, b.p, keep);
	if (keep < count)
		memset((char *)buf + keep * (wide ? sizeof(WCHAR) : 1), 0,
		       wide ? sizeof(WCHAR) : 1);
	if (total > count || (total == count && fit != FIT_MSVC))
		ret = fit == FIT_C99 ? 0 : -1;
out:
	ob_free(&b);
	return ret ? ret : (int)total;
}

/* Each variadic function: its va_list form's result. */
#define VARIADIC(call)			\
	({				\
		va_list ap;		\
		int ret;		\
					\
		va_start(ap, fmt);	\
		ret = (call);		\
		va_end(ap);		\
		ret;			\
	})

int nttrace_win_vwprintf(const WCHAR *fmt, va_list ap)
{
	return to_stream(stdout, 1, fmt, ap);
}

int nttrace_win_wprintf(const WCHAR *fmt, ...)
{
	return VARIADIC(nttrace_win_vwprintf(fmt, ap));
}

int nttrace_win_vfwprintf(FILE *f, const WCHAR *fmt, va_list ap)
{
	return to_stream(f, 1, fmt, ap);
}

int nttrace_win_fwprintf(FILE *f, const WCHAR *fmt, ...)
{
	return VARIADIC(nttrace_win_vfwprintf(f, fmt, ap));
}

int nttrace_win_vswprintf(WCHAR *buf, size_t count, const WCHAR *fmt, va_list ap)
{
	return to_mem(buf, count, 1, fmt, ap, FIT_ISO);
}

int nttrace_win_swprintf(WCHAR *buf, size_t count, const WCHAR *fmt, ...)
{
	return VARIADIC(nttrace_win_vswprintf(buf, count, fmt, ap));
}

int nttrace_win__vsnwprintf(WCHAR *buf, size_t count, const WCHAR *fmt, va_list ap)
{
	return to_mem(buf, count, 1, fmt, ap, FIT_MSVC);
}

int nttrace_win__snwprintf(WCHAR *buf, size_t count, const WCHAR *fmt, ...)
{
	return VARIADIC(nttrace_win__vsnwprintf(buf, count, fmt, ap));
}

int nttrace_win_vswprintf_s(WCHAR *buf, size_t count, const WCHAR *fmt, va_list ap)
{
	return to_mem(buf, count, 1, fmt, ap, FIT_SECURE);
}

int nttrace_win_swprintf_s(WCHAR *buf, size_t count, const WCHAR *fmt, ...)
{
	return VARIADIC(nttrace_win_vswprintf_s(buf, count, fmt, ap));
}

int nttrace_win__vscwprintf(const WCHAR *fmt, va_list ap)
{
	return to_mem(NULL, 0, 1, fmt, ap, FIT_COUNT);
}

int nttrace_win__scwprintf(const WCHAR *fmt, ...)
{
	return VARIADIC(nttrace_win__vscwprintf(fmt, ap));
}

int nttrace_win_vprintf(const char *fmt, va_list ap)
{
	return to_stream(stdout, 0, fmt, ap);
}

int nttrace_win_printf(const char *fmt, ...)
{
	return VARIADIC(nttrace_win_vprintf(fmt, ap));
}

int nttrace_win_vfprintf(FILE *f, const char *fmt, va_list ap)
{
	return to_stream(f, 0, fmt, ap);
}

int nttrace_win_fprintf(FILE *f, const char *fmt, ...)
{
	return VARIADIC(nttrace_win_vfprintf(f, fmt, ap));
}

int nttrace_win_vsprintf(char *buf, const char *fmt, va_list ap)
{
	return to_mem(buf, SIZE_MAX, 0, fmt, ap, FIT_C99);
}

int nttrace_win_sprintf(char *buf, const char *fmt, ...)
{
	return VARIADIC(nttrace_win_vsprintf(buf, fmt, ap));
}

int nttrace_win_vsnprintf(char *buf, size_t count, const char *fmt, va_list ap)
{
	return to_mem(buf, count, 0, fmt, ap, FIT_C99);
}

int nttrace_win_snprintf(char *buf, size_t count, const char *fmt, ...)
{
	return VARIADIC(nttrace_win_vsnprintf(buf, count, fmt, ap));
}

int nttrace_win__vsnprintf(char *buf, size_t count, const char *fmt, va_list ap)
{
	return to_mem(buf, count, 0, fmt, ap, FIT_MSVC);
}

int nttrace_win__snprintf(char *buf, size_t count, const char *fmt, ...)
{
	return VARIADIC(nttrace_win__vsnprintf(buf, count, fmt, ap));
}

int nttrace_win_vsprintf_s(char *buf, size_t count, const char *fmt, va_list ap)
{
	return to_mem(buf, count, 0, fmt, ap, FIT_SECURE);
}

int nttrace_win_sprintf_s(char *buf, size_t count, const char *fmt, ...)
{
	return VARIADIC(nttrace_win_vsprintf_s(buf, count, fmt, ap));
}

int nttrace_win__vscprintf(const char *fmt, va_list ap)
{
	return to_mem(NULL, 0, 0, fmt, ap, FIT_COUNT);
}

int nttrace_win__scprintf(const char *fmt, ...)
{
	return VARIADIC(nttrace_win__vscprintf(fmt, ap));
}

/* @n units of @s (and a newline) to @f as UTF-8; the units, or -1. */
static int put_wide(FILE *f, const WCHAR *s, size_t n, int newline)
{
	struct obuf b;
	int ret;

	ob_init(&b);
	put_text(&b, s, n, 1);
	if (newline)
		ob_put(&b, "\n", 1);
	ret = write_out(f, &b, 1);
	ob_free(&b);
	return ret;
}

int nttrace_win_fputws(const WCHAR *s, FILE *f)
{
	if (!s) {
		errno = EINVAL;
		return -1;
	}
	return put_wide(f, s, nttrace_win_wcslen(s), 0) < 0 ? -1 : 0;
}

/* One unit alone: half a surrogate pair is written as U+FFFD. */
unsigned int nttrace_win_fputwc(WCHAR c, FILE *f)
{
	return put_wide(f, &c, 1, 0) < 0 ? NTTRACE_WIN_WEOF : c;
}

unsigned int nttrace_win_putwchar(WCHAR c)
{
	return nttrace_win_fputwc(c, stdout);
}

int nttrace_win__putws(const WCHAR *s)
{
	if (!s) {
		errno = EINVAL;
		return -1;
	}
	return put_wide(stdout, s, nttrace_win_wcslen(s), 1) < 0 ? -1 : 0;
}

/*
 * The next character of @f, UTF-8, as UTF-16 at @out if it fits in @room
 * units (else left in @f); a bad sequence is one U+FFFD. Returns the
 * units, 0 at the end of the file or of the room.
 */
static size_t get_char(FILE *f, WCHAR *out, size_t room)
{
	int c = getc(f);
	size_t need, n = 1;
	uint8_t s[4];
	uint32_t cp;

	if (c == EOF)
		return 0;
	need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
	if ((need == 4 ? 2 : 1) > room) {
		ungetc(c, f);
		return 0;
	}
	s[0] = c;
	while (n < need && (c = getc(f)) != EOF) {
		if ((c & 0xC0) != 0x80) {
			ungetc(c, f);
			break;
		}
		s[n++] = c;
	}
	if (ntr_utf8_next(s, n, &cp) != n)
		cp = 0xFFFD;
	if (cp < 0x10000) {
		out[0] = cp;
		return 1;
	}
	cp -= 0x10000;
	out[0] = 0xD800 | cp >> 10;
	out[1] = 0xDC00 | (cp & 0x3FF);
	return 2;
}

/* A line of UTF-8 from @f: at most @n - 1 units, the newline kept. */
WCHAR *nttrace_win_fgetws(WCHAR *buf, int n, FILE *f)
{
	size_t got = 0, k;

	if (!buf || n <= 0 || !f) {
		errno = EINVAL;
		return NULL;
	}
	while ((k = get_char(f, buf + got, n - 1 - got))) {
		got += k;
		if (buf[got - 1] == '\n')
			break;
	}
	buf[got] = 0;
	return got || (!feof(f) && !ferror(f)) ? buf : NULL;
}

/* A wide name as UTF-8 in @b (which the caller frees); NULL and errno if not. */
static const char *utf8_of(struct obuf *b, const WCHAR *s)
{
	ob_init(b);
	if (!s)
		b->err = EINVAL;
	else
		put_text(b, s, nttrace_win_wcslen(s), 1);
	if (b->err)
		errno = b->err;
	return b->err ? NULL : b->p;
}

/* MSVC's own mode letters (ccs=, the caching hints) are refused. */
FILE *nttrace_win__wfopen(const WCHAR *path, const WCHAR *mode)
{
	struct obuf p, m;
	const char *ps = utf8_of(&p, path), *ms = utf8_of(&m, mode);
	FILE *f = NULL;

	if (ps && ms && (!*ms || !strchr("rwa", *ms) || ms[strspn(ms, "rwa+btx")]))
		errno = EINVAL;
	else if (ps && ms)
		f = fopen(ps, ms);
	ob_free(&p);
	ob_free(&m);
	return f;
}

int nttrace_win__wfopen_s(FILE **f, const WCHAR *path, const WCHAR *mode)
{
	if (!f) {
		errno = EINVAL;
		return errno;
	}
	*f = nttrace_win__wfopen(path, mode);
	return *f ? 0 : errno;
}

int nttrace_win__wremove(const WCHAR *path)
{
	struct obuf b;
	const char *s = utf8_of(&b, path);
	int ret = s ? remove(s) : -1;

	ob_free(&b);
	return ret;
}
