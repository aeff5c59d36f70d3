// SPDX-License-Identifier: GPL-2.0
/*
 * The Windows layer's C runtime (userlib/windows/crt.h), called by its
 * nttrace_win_* names with u"..." literals: what the layer's headers bind
 * a -fshort-wchar program's wcslen, wprintf & co to. MSVC's semantics:
 * %s against %S in wide and narrow functions, the I64 and I lengths, %p's
 * digits, %n and positional arguments refused, each function's answer to
 * a buffer too small, the _s functions' error codes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../userlib/windows/crt.h"
#include "../vm/tap.h"

#define W(s)	((const WCHAR *)u##s)

static int weq(const WCHAR *got, const WCHAR *want)
{
	return !nttrace_win_wcscmp(got, want);
}

static void test_strings(void)
{
	WCHAR b[32], *end, *dup;

	tap_eq(nttrace_win_wcslen(W("h\u00e9llo")), 5, "wcslen counts units");
	tap_eq(nttrace_win_wcslen(W("\U0001F600")), 2, "wcslen: a pair is two units");
	tap_eq(nttrace_win_wcsnlen(W("hello"), 3), 3, "wcsnlen stops at its bound");
	nttrace_win_wcscpy(b, W("abc"));
	nttrace_win_wcscat(b, W("def"));
	tap_ok(weq(b, W("abcdef")), "wcscpy and wcscat");
	nttrace_win_wcsncat(b, W("ghij"), 2);
	tap_ok(weq(b, W("abcdefgh")), "wcsncat appends n units and a NUL");
	nttrace_win_wmemset(b, 'x', 8);
	nttrace_win_wcsncpy(b, W("ab"), 4);
	tap_ok(b[0] == 'a' && b[1] == 'b' && !b[2] && !b[3] && b[4] == 'x',
	       "wcsncpy pads with NULs to n");
	tap_ok(nttrace_win_wcscmp(W("abc"), W("abd")) < 0 &&
	       nttrace_win_wcscmp(W("abc"), W("abc")) == 0 &&
	       nttrace_win_wcscmp(W("\u00e9"), W("z")) > 0, "wcscmp orders by unit");
	tap_ok(!nttrace_win_wcsncmp(W("abcX"), W("abcY"), 3), "wcsncmp stops at n");
	tap_ok(nttrace_win__wcsicmp(W("Hello"), W("hELLO")) == 0 &&
	       nttrace_win__wcsicmp(W("apple"), W("Banana")) < 0 &&
	       nttrace_win__wcsicmp(W("Zebra"), W("apple")) > 0 &&
	       nttrace_win__wcsicmp(W("ab"), W("AbC")) < 0,
	       "_wcsicmp folds case and orders");
	tap_ok(!nttrace_win__wcsnicmp(W("ABCx"), W("abcy"), 3) &&
	       nttrace_win__wcsnicmp(W("ABCx"), W("abcy"), 4) < 0, "_wcsnicmp");
	nttrace_win_wcscpy(b, W("MiXeD"));
	tap_ok(weq(nttrace_win__wcslwr(b), W("mixed")), "_wcslwr");
	tap_ok(weq(nttrace_win__wcsupr(b), W("MIXED")), "_wcsupr");

	nttrace_win_wcscpy(b, W("a/b/c"));
	tap_eq(nttrace_win_wcschr(b, '/') - b, 1, "wcschr finds the first");
	tap_eq(nttrace_win_wcsrchr(b, '/') - b, 3, "wcsrchr finds the last");
	tap_eq(nttrace_win_wcschr(b, 0) - b, 5, "wcschr finds the terminator");
	tap_ok(!nttrace_win_wcschr(b, 'z'), "wcschr: not found");
	tap_eq(nttrace_win_wcsstr(b, W("b/c")) - b, 2, "wcsstr");
	tap_ok(nttrace_win_wcsstr(b, W("")) == b && !nttrace_win_wcsstr(b, W("cc")),
	       "wcsstr: empty and missing");
	tap_eq(nttrace_win_wcspbrk(b, W("/c")) - b, 1, "wcspbrk");
	tap_eq(nttrace_win_wcsspn(W("aabbc"), W("ab")), 4, "wcsspn");
	tap_eq(nttrace_win_wcscspn(W("aabbc"), W("c")), 4, "wcscspn");
	dup = nttrace_win__wcsdup(W("dup\u00e9"));
	tap_ok(dup && weq(dup, W("dup\u00e9")), "_wcsdup");
	free(dup);

	nttrace_win_wmemcpy(b, W("0123456789"), 11);
	nttrace_win_wmemmove(b + 2, b, 5);
	tap_ok(weq(b, W("0101234789")), "wmemmove overlapping");
	tap_ok(nttrace_win_wmemcmp(W("abc"), W("abd"), 2) == 0 &&
	       nttrace_win_wmemcmp(W("abc"), W("abd"), 3) < 0, "wmemcmp");
	tap_eq(nttrace_win_wmemchr(b, '9', 10) - b, 9, "wmemchr");
	tap_ok(!nttrace_win_wmemchr(b, '9', 9), "wmemchr stops at n");

	tap_eq(nttrace_win_wcstoul(W("  0x1fZ"), &end, 16), 0x1f, "wcstoul base 16");
	tap_ok(*end == 'Z', "wcstoul: endptr at the first unit after");
	tap_eq(nttrace_win_wcstoul(W("42\u00e9"), &end, 10), 42, "wcstoul before non-ASCII");
	tap_ok(*end == 0xe9, "wcstoul: non-ASCII ends the number");
	nttrace_win_wcstol(W("\u00e9"), &end, 10);
	tap_ok(*end == 0xe9, "wcstol: no number, endptr at the start");
	tap_ok(nttrace_win_wcstol(W("-17"), NULL, 10) == -17, "wcstol");
	tap_ok(nttrace_win_wcstoll(W("-9000000000"), NULL, 10) == -9000000000LL, "wcstoll");
	tap_ok(nttrace_win_wcstoull(W("18446744073709551615"), NULL, 10) == UINT64_MAX,
	       "wcstoull");
	tap_ok(nttrace_win__wcstoi64(W("-0x10"), NULL, 0) == -16, "_wcstoi64 base 0");
	tap_ok(nttrace_win__wcstoui64(W("777"), NULL, 8) == 511, "_wcstoui64 base 8");
	tap_ok(nttrace_win_wcstod(W("2.5e2x"), &end) == 250.0 && *end == 'x', "wcstod");
	tap_ok(nttrace_win__wtoi(W(" 123abc")) == 123, "_wtoi");
	tap_ok(nttrace_win__wtoi(W("99999999999")) == 2147483647, "_wtoi clamps");
	tap_ok(nttrace_win__wtol(W("-5")) == -5, "_wtol");
	tap_ok(nttrace_win__wtoi64(W("123456789012")) == 123456789012LL, "_wtoi64");
	tap_ok(nttrace_win__wtof(W("0.25")) == 0.25, "_wtof");
}

static void test_secure(void)
{
	WCHAR b[8];

	tap_eq(nttrace_win_wcscpy_s(b, 8, W("abc")), 0, "wcscpy_s fits");
	tap_ok(weq(b, W("abc")), "wcscpy_s copied");
	tap_eq(nttrace_win_wcscpy_s(b, 8, W("abcdefgh")), ERANGE, "wcscpy_s too long: ERANGE");
	tap_ok(b[0] == 0, "wcscpy_s too long: dest emptied");
	tap_eq(nttrace_win_wcscpy_s(NULL, 8, W("a")), EINVAL, "wcscpy_s NULL dest: EINVAL");
	b[0] = 'q';
	tap_eq(nttrace_win_wcscpy_s(b, 8, NULL), EINVAL, "wcscpy_s NULL src: EINVAL");
	tap_ok(b[0] == 0, "wcscpy_s NULL src: dest emptied");
	tap_eq(nttrace_win_wcscpy_s(b, 0, W("a")), EINVAL, "wcscpy_s size 0: EINVAL");

	nttrace_win_wcscpy_s(b, 8, W("abc"));
	tap_eq(nttrace_win_wcscat_s(b, 8, W("defg")), 0, "wcscat_s fits exactly");
	tap_ok(weq(b, W("abcdefg")), "wcscat_s appended");
	tap_eq(nttrace_win_wcscat_s(b, 8, W("h")), ERANGE, "wcscat_s too long: ERANGE");
	tap_ok(b[0] == 0, "wcscat_s too long: dest emptied");
	nttrace_win_wmemset(b, 'x', 8);
	tap_eq(nttrace_win_wcscat_s(b, 8, W("h")), EINVAL, "wcscat_s unterminated dest: EINVAL");

	tap_eq(nttrace_win_wcsncpy_s(b, 8, W("abcdef"), 3), 0, "wcsncpy_s count 3");
	tap_ok(weq(b, W("abc")), "wcsncpy_s copied 3");
	tap_eq(nttrace_win_wcsncpy_s(b, 4, W("abcdef"), 5), ERANGE, "wcsncpy_s too long: ERANGE");
	tap_eq(nttrace_win_wcsncpy_s(b, 4, W("abcdef"), NTTRACE_WIN_TRUNCATE),
	       NTTRACE_WIN_STRUNCATE, "wcsncpy_s _TRUNCATE: STRUNCATE");
	tap_ok(weq(b, W("abc")), "wcsncpy_s _TRUNCATE keeps what fits");
	tap_eq(nttrace_win_wcsncpy_s(b, 4, W("abc"), NTTRACE_WIN_TRUNCATE), 0,
	       "wcsncpy_s _TRUNCATE that fits: 0");
	tap_eq(nttrace_win_wcsncpy_s(NULL, 0, NULL, 0), 0, "wcsncpy_s all empty: 0");
}

/* Wide output through swprintf into @b, compared with @want. */
#define WFMT(want, ...)							\
	({								\
		WCHAR _b[128];						\
		int _n = nttrace_win_swprintf(_b, 128, __VA_ARGS__);	\
		_n >= 0 && weq(_b, W(want)) &&				\
			(size_t)_n == nttrace_win_wcslen(W(want));	\
	})

/* Narrow output through snprintf. */
#define NFMT(want, ...)							\
	({								\
		char _b[128];						\
		int _n = nttrace_win_snprintf(_b, 128, __VA_ARGS__);	\
		_n >= 0 && !strcmp(_b, want) && (size_t)_n == strlen(want);	\
	})

static void test_formats(void)
{
	char p[32], np[64];
	WCHAR wp[64];
	void *ptr = (void *)(uintptr_t)0xABCDEF12u;

	tap_ok(WFMT("w=wide n=narrow", W("w=%s n=%S"), W("wide"), "narrow"),
	       "wide function: %%s wide, %%S narrow");
	tap_ok(NFMT("n=narrow w=wide", "n=%s w=%S", "narrow", W("wide")),
	       "narrow function: %%s narrow, %%S wide");
	tap_ok(WFMT("a b c d", W("%hs %ls %ws %S"), "a", W("b"), W("c"), "d"),
	       "wide function: %%hs, %%ls, %%ws");
	tap_ok(NFMT("a b c", "%hs %ls %ws", "a", W("b"), W("c")),
	       "narrow function: %%hs, %%ls, %%ws");
	tap_ok(WFMT("xyz!", W("%c%C%lc%hc"), 'x', 'y', 'z', '!'), "wide function: %%c %%C %%lc %%hc");
	tap_ok(NFMT("x\xc3\xa9", "%c%C", 'x', 0xe9), "narrow function: %%c narrow, %%C wide");
	tap_ok(WFMT("(null) (null)", W("%s %S"), NULL, NULL), "NULL strings: (null)");

	tap_ok(NFMT("-9000000000 18446744073709551615", "%I64d %I64u",
		    -9000000000LL, 18446744073709551615ULL), "%%I64d %%I64u");
	tap_ok(NFMT("123 ff", "%Iu %I32x", (size_t)123, 255), "%%Iu %%I32x");
	tap_ok(NFMT("-1 4294967295", "%ld %lu", (int32_t)-1, (uint32_t)-1),
	       "%%ld %%lu are 32-bit, as LONG and ULONG");
	tap_ok(NFMT("7 8 9 10 11 -1 255", "%lld %jd %zd %td %hd %hhd %hhu",
		    7LL, (intmax_t)8, (size_t)9, (ptrdiff_t)10, 11, 255, 255),
	       "C99 lengths");
	tap_ok(NFMT("[  +42] [0042 ] [0x1f] [017] [1F]", "[%+5d] [%-5.4d] [%#x] [%#o] [%X]",
		    42, 42, 31, 15, 31), "flags, width, precision");
	tap_ok(NFMT("[   42] [42   ]", "[%*d] [%*d]", 5, 42, -5, 42), "* width, negative is '-'");
	tap_ok(NFMT("[00042]", "[%.*d]", 5, 42), "* precision");
	tap_ok(NFMT("3.14 1.500000e+00 2.5 0x1p+0 1.25", "%.2f %e %g %a %Lg",
		    3.14159, 1.5, 2.5, 1.0, (long double)1.25), "floats");
	tap_ok(NFMT("100% done", "%d%% done", 100), "%%%%");

	snprintf(p, sizeof(p), "%0*" PRIXPTR, (int)(2 * sizeof(void *)), (uintptr_t)ptr);
	tap_ok(NFMT(p, "%p", ptr) && strlen(p) == 2 * sizeof(void *),
	       "%%p: uppercase, the pointer's width, no 0x (%s)", p);
	nttrace_win_swprintf(wp, 64, W("%p"), ptr);
	nttrace_win_snprintf(np, sizeof(np), "%S", wp);
	tap_ok(!strcmp(np, p), "%%p in a wide function");

	tap_ok(WFMT("[   h\u00e9llo]", W("[%8s]"), W("h\u00e9llo")),
	       "width counts characters (wide)");
	tap_ok(WFMT("[h\u00e9l  ]", W("[%-5.3s]"), W("h\u00e9llo")), "precision and '-' (wide)");
	tap_ok(NFMT("[   h\xc3\xa9llo]", "[%8S]", W("h\u00e9llo")),
	       "width counts characters (wide into UTF-8)");
	tap_ok(NFMT("[h\xc3\xa9]", "[%.2S]", W("h\u00e9llo")), "precision in wide units");
	tap_ok(NFMT("[h]", "[%.2s]", "h\xc3\xa9llo"), "narrow precision does not split UTF-8");
	tap_ok(NFMT("[  h\xc3\xa9]", "[%4.3s]", "h\xc3\xa9llo"), "narrow width in characters");
	tap_ok(WFMT("[\U0001F600]", W("[%.2s]"), W("\U0001F600x")), "precision keeps a whole pair");
	tap_ok(WFMT("[]", W("[%.1s]"), W("\U0001F600")), "precision never splits a pair");
	tap_ok(WFMT("[  \U0001F600]", W("[%3s]"), W("\U0001F600")), "a pair is one character");
	tap_ok(NFMT("\xf0\x9f\x98\x80", "%S", W("\U0001F600")), "a pair as UTF-8");
	tap_ok(NFMT("\xef\xbf\xbd.", "%S.", W("\xD800")), "an unpaired surrogate is U+FFFD");
	tap_ok(WFMT("\u00e9\U0001F600", W("%S"), "\xc3\xa9\xf0\x9f\x98\x80"),
	       "narrow UTF-8 into a wide function");
	tap_ok(WFMT("\u00e9t\u00e9 5", W("\u00e9t\u00e9 %d"), 5), "non-ASCII in a wide format");

	errno = 0;
	tap_ok(nttrace_win_snprintf(np, sizeof(np), "%d%n", 1, &(int){0}) == -1 && errno == EINVAL,
	       "%%n is refused: -1, EINVAL");
	errno = 0;
	tap_ok(nttrace_win_swprintf(wp, 64, W("%1$d"), 1) == -1 && errno == EINVAL,
	       "positional arguments are refused");
	errno = 0;
	tap_ok(nttrace_win_snprintf(np, sizeof(np), "%*1$d", 1) == -1 && errno == EINVAL,
	       "positional widths are refused");
	errno = 0;
	tap_ok(nttrace_win_snprintf(np, sizeof(np), "%y") == -1 && errno == EINVAL,
	       "an unknown conversion is refused");
}

static void test_buffers(void)
{
	WCHAR w[8];
	char n[8];

	nttrace_win_wmemset(w, 'x', 8);
	tap_eq(nttrace_win_swprintf(w, 4, W("%s"), W("abcdef")), -1, "swprintf overflow: -1");
	tap_ok(weq(w, W("abc")), "swprintf overflow: cut and terminated");
	tap_eq(nttrace_win_swprintf(w, 4, W("%s"), W("abc")), 3, "swprintf that fits");

	nttrace_win_wmemset(w, 'x', 8);
	tap_eq(nttrace_win__snwprintf(w, 4, W("abcdef")), -1, "_snwprintf overflow: -1");
	tap_ok(!nttrace_win_wmemcmp(w, W("abcdx"), 5), "_snwprintf overflow: count units, no NUL");
	nttrace_win_wmemset(w, 'x', 8);
	tap_eq(nttrace_win__snwprintf(w, 4, W("abcd")), 4, "_snwprintf exactly full: the length");
	tap_ok(w[3] == 'd' && w[4] == 'x', "_snwprintf exactly full: no NUL");
	tap_eq(nttrace_win__snwprintf(w, 8, W("ab")), 2, "_snwprintf that fits");
	tap_ok(weq(w, W("ab")), "_snwprintf that fits: terminated");
	tap_eq(nttrace_win__snwprintf(w, 8, W("\U0001F600")), 2, "_snwprintf counts UTF-16 units");

	errno = 0;
	nttrace_win_wcscpy(w, W("old"));
	tap_eq(nttrace_win_swprintf_s(w, 4, W("%s"), W("abcd")), -1, "swprintf_s overflow: -1");
	tap_ok(w[0] == 0 && errno == ERANGE, "swprintf_s overflow: emptied, ERANGE");
	tap_eq(nttrace_win_swprintf_s(w, 4, W("%d"), 123), 3, "swprintf_s that fits");
	errno = 0;
	tap_ok(nttrace_win_swprintf_s(w, 4, W("%n"), &(int){0}) == -1 && errno == EINVAL &&
	       w[0] == 0, "swprintf_s bad format: emptied, EINVAL");
	errno = 0;
	tap_ok(nttrace_win_swprintf_s(NULL, 4, W("x")) == -1 && errno == EINVAL,
	       "swprintf_s NULL buffer: EINVAL");
	tap_eq(nttrace_win__scwprintf(W("%s-%S"), W("\U0001F600"), "ab"), 5,
	       "_scwprintf counts UTF-16 units");

	tap_eq(nttrace_win_snprintf(n, 4, "%s", "abcdef"), 6, "snprintf: the would-be length");
	tap_ok(!strcmp(n, "abc"), "snprintf: cut and terminated");
	tap_eq(nttrace_win_snprintf(NULL, 0, "%d", 12345), 5, "snprintf NULL, 0: the length");
	memset(n, 'x', sizeof(n));
	tap_eq(nttrace_win__snprintf(n, 4, "abcdef"), -1, "_snprintf overflow: -1");
	tap_ok(!memcmp(n, "abcdx", 5), "_snprintf overflow: no NUL");
	tap_eq(nttrace_win_sprintf(n, "%s%d", "ab", 7), 3, "sprintf");
	tap_ok(!strcmp(n, "ab7"), "sprintf wrote");
	errno = 0;
	tap_eq(nttrace_win_sprintf_s(n, 3, "%s", "abc"), -1, "sprintf_s overflow: -1");
	tap_ok(n[0] == 0 && errno == ERANGE, "sprintf_s overflow: emptied, ERANGE");
	tap_eq(nttrace_win_sprintf_s(n, 8, "%S", W("\u00e9")), 2, "sprintf_s counts bytes");
	tap_eq(nttrace_win__scprintf("%S", W("\u00e9\U0001F600")), 6, "_scprintf counts bytes");
}

static void test_stdio(void)
{
	FILE *f = tmpfile();
	char raw[64];
	WCHAR line[16], tiny[3];
	size_t n;

	if (!tap_ok(f != NULL, "tmpfile"))
		return;
	tap_eq(nttrace_win_fwprintf(f, W("%s=%d\n"), W("h\u00e9\U0001F600"), 1), 7,
	       "fwprintf counts UTF-16 units");
	tap_ok(nttrace_win_fputws(W("caf\u00e9\n"), f) >= 0, "fputws");
	tap_eq(nttrace_win_fputwc(0xe9, f), 0xe9, "fputwc");
	tap_eq(nttrace_win_fprintf(f, "%S|", W("\u00e9")), 3, "fprintf counts bytes");
	rewind(f);
	n = fread(raw, 1, sizeof(raw) - 1, f);
	raw[n] = 0;
	tap_ok(!strcmp(raw, "h\xc3\xa9\xf0\x9f\x98\x80=1\ncaf\xc3\xa9\n\xc3\xa9\xc3\xa9|"),
	       "the stream holds UTF-8");

	rewind(f);
	tap_ok(nttrace_win_fgetws(line, 16, f) == line && weq(line, W("h\u00e9\U0001F600=1\n")),
	       "fgetws reads a line, newline kept");
	tap_ok(nttrace_win_fgetws(tiny, 3, f) == tiny && weq(tiny, W("ca")),
	       "fgetws stops at n - 1 units");
	tap_ok(nttrace_win_fgetws(line, 16, f) == line && weq(line, W("f\u00e9\n")),
	       "fgetws goes on where it stopped");
	tap_ok(nttrace_win_fgetws(line, 16, f) == line && weq(line, W("\u00e9\u00e9|")),
	       "fgetws: the last line, no newline");
	tap_ok(nttrace_win_fgetws(line, 16, f) == NULL, "fgetws at the end: NULL");
	fclose(f);

	f = tmpfile();
	fputs("\xf0\x9f\x98\x80", f);
	rewind(f);
	tap_ok(nttrace_win_fgetws(tiny, 2, f) == tiny && tiny[0] == 0,
	       "fgetws leaves a pair that does not fit");
	tap_ok(nttrace_win_fgetws(tiny, 3, f) == tiny && weq(tiny, W("\U0001F600")),
	       "fgetws reads it with room");
	fclose(f);
}

static void test_files(void)
{
	char path[64];
	WCHAR wpath[64];
	FILE *f = NULL;

	snprintf(path, sizeof(path), "/tmp/wincrt_test.%d.\xc3\xa9", (int)getpid());
	nttrace_win_swprintf(wpath, 64, W("%S"), path);
	f = nttrace_win__wfopen(wpath, W("w"));
	tap_ok(f != NULL, "_wfopen a UTF-16 name");
	if (f)
		fclose(f);
	f = fopen(path, "r");
	tap_ok(f != NULL, "the file has the UTF-8 name");
	if (f)
		fclose(f);
	errno = 0;
	tap_ok(!nttrace_win__wfopen(wpath, W("r, ccs=UTF-8")) && errno == EINVAL,
	       "_wfopen refuses ccs=");
	tap_eq(nttrace_win__wfopen_s(&f, wpath, W("rb")), 0, "_wfopen_s");
	if (f)
		fclose(f);
	tap_eq(nttrace_win__wfopen_s(NULL, wpath, W("r")), EINVAL, "_wfopen_s NULL: EINVAL");
	tap_eq(nttrace_win__wremove(wpath), 0, "_wremove");
	tap_ok(nttrace_win__wfopen_s(&f, wpath, W("r")) == ENOENT && !f,
	       "_wfopen_s: the error, removed");
}

int main(void)
{
	test_strings();
	test_secure();
	test_formats();
	test_buffers();
	test_stdio();
	test_files();
	/* The stdout functions last, their lines as TAP comments. */
	tap_ok(nttrace_win_wprintf(W("# wprintf %s\n"), W("\u00e9")) == 12, "wprintf");
	tap_ok(nttrace_win_printf("# printf %S\n", W("\u00e9")) == 12, "printf");
	tap_ok(nttrace_win__putws(W("# _putws")) == 0, "_putws");
	tap_ok(nttrace_win_putwchar('#') == '#' && nttrace_win_putwchar('\n') == '\n', "putwchar");
	fflush(stdout);
	return tap_done();
}
