// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's wide string functions (userlib/windows/crt.h): the
 * C runtime's wcs* and wmem* over 16-bit WCHAR units, for programs built
 * with -fshort-wchar, whose 16-bit wide characters glibc's own functions
 * do not take. Lengths and positions are in units; a surrogate pair is
 * two. Numbers go through the C library's strtol & co on the text's
 * leading ASCII.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "crt.h"

size_t nttrace_win_wcslen(const WCHAR *s)
{
	const WCHAR *p = s;

	while (*p)
		p++;
	return p - s;
}

size_t nttrace_win_wcsnlen(const WCHAR *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

WCHAR *nttrace_win_wcscpy(WCHAR *dst, const WCHAR *src)
{
	return nttrace_win_wmemcpy(dst, src, nttrace_win_wcslen(src) + 1);
}

/* As C's: NUL units pad a short @src to @n; a long one is not terminated. */
WCHAR *nttrace_win_wcsncpy(WCHAR *dst, const WCHAR *src, size_t n)
{
	size_t len = nttrace_win_wcsnlen(src, n);

	nttrace_win_wmemcpy(dst, src, len);
	nttrace_win_wmemset(dst + len, 0, n - len);
	return dst;
}

WCHAR *nttrace_win_wcscat(WCHAR *dst, const WCHAR *src)
{
	nttrace_win_wcscpy(dst + nttrace_win_wcslen(dst), src);
	return dst;
}

/* At most @n units of @src, then always a NUL. */
WCHAR *nttrace_win_wcsncat(WCHAR *dst, const WCHAR *src, size_t n)
{
	WCHAR *end = dst + nttrace_win_wcslen(dst);
	size_t len = nttrace_win_wcsnlen(src, n);

	nttrace_win_wmemcpy(end, src, len);
	end[len] = 0;
	return dst;
}

int nttrace_win_wcscmp(const WCHAR *a, const WCHAR *b)
{
	return nttrace_win_wcsncmp(a, b, SIZE_MAX);
}

int nttrace_win_wcsncmp(const WCHAR *a, const WCHAR *b, size_t n)
{
	for (; n; a++, b++, n--)
		if (*a != *b || !*a)
			return (int)*a - (int)*b;
	return 0;
}

/* As C's, the terminator is part of the string: @c 0 finds it. */
WCHAR *nttrace_win_wcschr(const WCHAR *s, WCHAR c)
{
	for (;; s++) {
		if (*s == c)
			return (WCHAR *)s;
		if (!*s)
			return NULL;
	}
}

WCHAR *nttrace_win_wcsrchr(const WCHAR *s, WCHAR c)
{
	const WCHAR *last = NULL;

	for (;; s++) {
		if (*s == c)
			last = s;
		if (!*s)
			return (WCHAR *)last;
	}
}

WCHAR *nttrace_win_wcsstr(const WCHAR *s, const WCHAR *sub)
{
	size_t n = nttrace_win_wcslen(sub);

	for (; *s || !n; s++)
		if (!nttrace_win_wcsncmp(s, sub, n))
			return (WCHAR *)s;
	return NULL;
}

WCHAR *nttrace_win_wcspbrk(const WCHAR *s, const WCHAR *set)
{
	s += nttrace_win_wcscspn(s, set);
	return *s ? (WCHAR *)s : NULL;
}

size_t nttrace_win_wcsspn(const WCHAR *s, const WCHAR *set)
{
	size_t n = 0;

	while (s[n] && nttrace_win_wcschr(set, s[n]))
		n++;
	return n;
}

size_t nttrace_win_wcscspn(const WCHAR *s, const WCHAR *set)
{
	size_t n = 0;

	while (s[n] && !nttrace_win_wcschr(set, s[n]))
		n++;
	return n;
}

WCHAR *nttrace_win__wcsdup(const WCHAR *s)
{
	size_t n = nttrace_win_wcslen(s) + 1;
	WCHAR *d = malloc(n * sizeof(*d));

	return d ? nttrace_win_wmemcpy(d, s, n) : NULL;
}

/* towlower() on one unit: a surrogate is no letter and stays as it is. */
static unsigned int fold(WCHAR c)
{
	return (WCHAR)towlower(c);
}

int nttrace_win__wcsicmp(const WCHAR *a, const WCHAR *b)
{
	return nttrace_win__wcsnicmp(a, b, SIZE_MAX);
}

int nttrace_win__wcsnicmp(const WCHAR *a, const WCHAR *b, size_t n)
{
	for (; n; a++, b++, n--)
		if (fold(*a) != fold(*b) || !*a)
			return (int)fold(*a) - (int)fold(*b);
	return 0;
}

WCHAR *nttrace_win__wcslwr(WCHAR *s)
{
	WCHAR *p;

	for (p = s; *p; p++)
		*p = fold(*p);
	return s;
}

WCHAR *nttrace_win__wcsupr(WCHAR *s)
{
	WCHAR *p;

	for (p = s; *p; p++)
		*p = (WCHAR)towupper(*p);
	return s;
}

WCHAR *nttrace_win_wmemcpy(WCHAR *dst, const WCHAR *src, size_t n)
{
	return memcpy(dst, src, n * sizeof(*dst));
}

WCHAR *nttrace_win_wmemmove(WCHAR *dst, const WCHAR *src, size_t n)
{
	return memmove(dst, src, n * sizeof(*dst));
}

WCHAR *nttrace_win_wmemset(WCHAR *dst, WCHAR c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = c;
	return dst;
}

int nttrace_win_wmemcmp(const WCHAR *a, const WCHAR *b, size_t n)
{
	for (; n; a++, b++, n--)
		if (*a != *b)
			return (int)*a - (int)*b;
	return 0;
}

WCHAR *nttrace_win_wmemchr(const WCHAR *s, WCHAR c, size_t n)
{
	for (; n; s++, n--)
		if (*s == c)
			return (WCHAR *)s;
	return NULL;
}

/*
 * The text a number parser reads: @w's leading ASCII as a char string (a
 * unit past ASCII ends any number there), so that each parser is the C
 * library's, and its end maps back to the same count of units.
 */
struct num {
	char *s, *end;
	char small[128];
};

static char *num_open(struct num *t, const WCHAR *w)
{
	size_t n = 0, i;

	while (w[n] && w[n] < 0x80)
		n++;
	t->s = n < sizeof(t->small) ? t->small : malloc(n + 1);
	if (!t->s) {			/* no memory: no number either */
		t->s = t->small;
		n = 0;
	}
	for (i = 0; i < n; i++)
		t->s[i] = (char)w[i];
	t->s[n] = 0;
	return t->s;
}

static void num_close(struct num *t, const WCHAR *w, WCHAR **endp)
{
	if (endp)
		*endp = (WCHAR *)w + (t->end - t->s);
	if (t->s != t->small)
		free(t->s);
}

long nttrace_win_wcstol(const WCHAR *s, WCHAR **endp, int base)
{
	struct num t;
	long v = strtol(num_open(&t, s), &t.end, base);

	num_close(&t, s, endp);
	return v;
}

unsigned long nttrace_win_wcstoul(const WCHAR *s, WCHAR **endp, int base)
{
	struct num t;
	unsigned long v = strtoul(num_open(&t, s), &t.end, base);

	num_close(&t, s, endp);
	return v;
}

long long nttrace_win_wcstoll(const WCHAR *s, WCHAR **endp, int base)
{
	struct num t;
	long long v = strtoll(num_open(&t, s), &t.end, base);

	num_close(&t, s, endp);
	return v;
}

unsigned long long nttrace_win_wcstoull(const WCHAR *s, WCHAR **endp, int base)
{
	struct num t;
	unsigned long long v = strtoull(num_open(&t, s), &t.end, base);

	num_close(&t, s, endp);
	return v;
}

long long nttrace_win__wcstoi64(const WCHAR *s, WCHAR **endp, int base)
{
	return nttrace_win_wcstoll(s, endp, base);
}

unsigned long long nttrace_win__wcstoui64(const WCHAR *s, WCHAR **endp, int base)
{
	return nttrace_win_wcstoull(s, endp, base);
}

double nttrace_win_wcstod(const WCHAR *s, WCHAR **endp)
{
	struct num t;
	double v = strtod(num_open(&t, s), &t.end);

	num_close(&t, s, endp);
	return v;
}

/* MSVC's _wtoi: an int, INT_MAX or INT_MIN past its range (ERANGE). */
int nttrace_win__wtoi(const WCHAR *s)
{
	long long v = nttrace_win_wcstoll(s, NULL, 10);

	if (v > INT_MAX || v < INT_MIN) {
		errno = ERANGE;
		return v > 0 ? INT_MAX : INT_MIN;
	}
	return (int)v;
}

long nttrace_win__wtol(const WCHAR *s)
{
	return nttrace_win_wcstol(s, NULL, 10);
}

long long nttrace_win__wtoi64(const WCHAR *s)
{
	return nttrace_win_wcstoll(s, NULL, 10);
}

double nttrace_win__wtof(const WCHAR *s)
{
	return nttrace_win_wcstod(s, NULL);
}

/* A _s function's failure: errno too, as MSVC sets it. */
static int fail(WCHAR *dst, int err)
{
	if (dst)
		dst[0] = 0;
	errno = err;
	return err;
}

int nttrace_win_wcscpy_s(WCHAR *dst, size_t size, const WCHAR *src)
{
	return nttrace_win_wcsncpy_s(dst, size, src, SIZE_MAX - 1);
}

/*
 * MSVC's: @count units of @src at most, then a NUL, all within @size
 * units; _TRUNCATE (NTTRACE_WIN_TRUNCATE) keeps what fits and says
 * STRUNCATE. NULL @dst, @size 0 and @count 0 is no error.
 */
int nttrace_win_wcsncpy_s(WCHAR *dst, size_t size, const WCHAR *src, size_t count)
{
	int trunc = count == NTTRACE_WIN_TRUNCATE, cut = 0;
	size_t len;

	if (!dst && !size && !count)
		return 0;
	if (!dst || !size)
		return fail(NULL, EINVAL);
	if (!src && count)
		return fail(dst, EINVAL);
	len = count ? nttrace_win_wcsnlen(src, trunc ? size : count) : 0;
	if (len >= size && !trunc)
		return fail(dst, ERANGE);
	if (len >= size) {
		len = size - 1;
		cut = 1;
	}
	nttrace_win_wmemcpy(dst, src, len);
	dst[len] = 0;
	return cut ? NTTRACE_WIN_STRUNCATE : 0;
}

/*
 * MSVC's: EINVAL when @dst is not terminated within @size, ERANGE when
 * @src does not fit after it.
 */
int nttrace_win_wcscat_s(WCHAR *dst, size_t size, const WCHAR *src)
{
	size_t used;

	if (!dst || !size)
		return fail(NULL, EINVAL);
	if (!src)
		return fail(dst, EINVAL);
	used = nttrace_win_wcsnlen(dst, size);
	if (used == size)
		return fail(dst, EINVAL);
	if (nttrace_win_wcsncpy_s(dst + used, size - used, src, SIZE_MAX - 1))
		return fail(dst, ERANGE);
	return 0;
}
