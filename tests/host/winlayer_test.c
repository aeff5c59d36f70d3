// SPDX-License-Identifier: GPL-2.0
/*
 * The Windows layer's functions called as a Windows program calls them:
 * through its headers (userlib/windows/include) with nttrace-windows.pc's
 * flags, so that each name's binding to libnttrace is tested with it.
 * Built as C and as C++, 64- and 32-bit. The values are Windows' own
 * (FILETIME of known dates, a SID's text, StringFromGUID2's form).
 */
#include <windows.h>
#include <tchar.h>
#include <strsafe.h>
#include <sddl.h>
#include <intsafe.h>
#include <shellapi.h>
#include <initguid.h>
#include <unistd.h>

#include "../vm/tap.h"

/* {6a1f0c3e-2b7d-4e59-9c84-0d3f5a7b9e10} */
DEFINE_GUID(TestGuid, 0x6a1f0c3e, 0x2b7d, 0x4e59, 0x9c, 0x84, 0x0d, 0x3f, 0x5a, 0x7b, 0x9e, 0x10);

#ifdef __cplusplus
#define REF(guid)	(guid)
#else
#define REF(guid)	(&(guid))
#endif

static void test_types(void)
{
	tap_eq(sizeof(WCHAR), 2, "WCHAR is 16 bits");
	tap_eq(sizeof(L"ab"), 6, "L\"ab\" is three 16-bit units");
	tap_eq(sizeof(TCHAR), 2, "TCHAR is WCHAR under UNICODE");
	tap_eq(sizeof(_TCHAR), 2, "_TCHAR is wchar_t under _UNICODE");
	tap_eq(sizeof(ULONG), 4, "ULONG is 32 bits");
	tap_eq(sizeof(LONG64) + sizeof(DWORD64), 16, "LONG64 and DWORD64 are 64 bits");
	tap_eq(sizeof(INT_PTR), sizeof(void *), "INT_PTR is pointer-sized");
	tap_ok(SUCCEEDED(S_OK) && FAILED(E_FAIL) && HRESULT_FROM_WIN32(5) == E_ACCESSDENIED,
	       "HRESULT macros");
	tap_eq(MAKEWORD(1, 2), 0x0201, "MAKEWORD");
	tap_eq(HIWORD(0x12345678), 0x1234, "HIWORD");
	tap_eq(_byteswap_ushort(0x1234), 0x3412, "_byteswap_ushort");
}

static void test_strings(void)
{
	WCHAR buf[8];
	size_t len = 0;

	tap_eq(wcslen(L"h\u00e9llo"), 5, "wcslen through the layer's binding");
	tap_ok(_wcsicmp(L"ABC", L"abc") == 0, "_wcsicmp");
	tap_eq(StringCchCopyW(buf, ARRAYSIZE(buf), L"1234567"), S_OK, "StringCchCopy fits");
	tap_eq(StringCchCopyW(buf, ARRAYSIZE(buf), L"12345678"), STRSAFE_E_INSUFFICIENT_BUFFER,
	       "StringCchCopy cut");
	tap_ok(wcscmp(buf, L"1234567") == 0, "... terminated after what fitted");
	tap_eq(StringCchCopyW(buf, 0, L"x"), STRSAFE_E_INVALID_PARAMETER, "StringCchCopy, 0 chars");
	StringCchCopyW(buf, ARRAYSIZE(buf), L"ab");
	tap_eq(StringCchCatW(buf, ARRAYSIZE(buf), L"cd"), S_OK, "StringCchCat");
	tap_ok(wcscmp(buf, L"abcd") == 0, "... appended");
	tap_eq(StringCchLengthW(buf, ARRAYSIZE(buf), &len), S_OK, "StringCchLength");
	tap_eq(len, 4, "... 4");
	tap_eq(StringCbLengthW(buf, sizeof(buf), &len), S_OK, "StringCbLength");
	tap_eq(len, 8, "... 8 bytes");
	tap_eq(StringCchPrintfW(buf, ARRAYSIZE(buf), L"%s=%d", L"n", 42), S_OK, "StringCchPrintf");
	tap_ok(wcscmp(buf, L"n=42") == 0, "... \"n=42\"");
	tap_eq(StringCchPrintfW(buf, ARRAYSIZE(buf), L"%s", L"too long here"),
	       STRSAFE_E_INSUFFICIENT_BUFFER, "StringCchPrintf cut");
	tap_ok(wcscmp(buf, L"too lon") == 0, "... terminated");
	tap_eq(_tcslen(_T("abc")), 3, "_tcslen is wcslen");
}

static void test_text(void)
{
	WCHAR w[8];
	char s[8];
	int n;

	n = MultiByteToWideChar(CP_UTF8, 0, "h\xc3\xa9", -1, NULL, 0);
	tap_eq(n, 3, "MultiByteToWideChar counts with the NUL");
	n = MultiByteToWideChar(CP_UTF8, 0, "h\xc3\xa9", -1, w, ARRAYSIZE(w));
	tap_ok(n == 3 && w[1] == 0xE9 && w[2] == 0, "MultiByteToWideChar converts");
	SetLastError(0);
	tap_eq(MultiByteToWideChar(CP_UTF8, 0, "abc", 3, w, 2), 0, "a short buffer: 0");
	tap_eq(GetLastError(), ERROR_INSUFFICIENT_BUFFER, "... ERROR_INSUFFICIENT_BUFFER");
	tap_eq(MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, "a\xff", 2, w, 8), 0,
	       "invalid UTF-8 with MB_ERR_INVALID_CHARS: 0");
	tap_eq(GetLastError(), ERROR_NO_UNICODE_TRANSLATION, "... ERROR_NO_UNICODE_TRANSLATION");
	tap_eq(MultiByteToWideChar(1252, 0, "a", 1, w, 8), 0, "code page 1252: refused");
	n = WideCharToMultiByte(CP_UTF8, 0, L"h\u00e9", -1, s, sizeof(s), NULL, NULL);
	tap_ok(n == 4 && !strcmp(s, "h\xc3\xa9"), "WideCharToMultiByte");
}

static void test_guid(void)
{
	WCHAR text[39];
	LPOLESTR clsid = NULL;

	tap_eq(StringFromGUID2(REF(TestGuid), text, ARRAYSIZE(text)), 39, "StringFromGUID2: 39");
	tap_ok(wcscmp(text, L"{6A1F0C3E-2B7D-4E59-9C84-0D3F5A7B9E10}") == 0, "... Windows' form");
	tap_eq(StringFromGUID2(REF(TestGuid), text, 38), 0, "... 0 in 38 characters");
	tap_eq(StringFromCLSID(REF(TestGuid), &clsid), S_OK, "StringFromCLSID");
	tap_ok(clsid && wcscmp(clsid, L"{6A1F0C3E-2B7D-4E59-9C84-0D3F5A7B9E10}") == 0, "... same");
	CoTaskMemFree(clsid);
	tap_ok(IsEqualGUID(REF(TestGuid), REF(TestGuid)), "IsEqualGUID");
}

static void test_sid(void)
{
	/* S-1-5-21-1-2-3-1001: a domain user's SID. */
	static const BYTE sid[] = {
		1, 5, 0, 0, 0, 0, 0, 5, 21, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0,
		0xe9, 3, 0, 0
	};
	LPWSTR text = NULL;
	LPSTR ansi = NULL;
	BYTE bad[8] = { 2, 0 };

	tap_ok(IsValidSid((PSID)sid), "IsValidSid");
	tap_eq(GetLengthSid((PSID)sid), sizeof(sid), "GetLengthSid");
	tap_ok(ConvertSidToStringSidW((PSID)sid, &text), "ConvertSidToStringSidW");
	tap_ok(text && wcscmp(text, L"S-1-5-21-1-2-3-1001") == 0, "... S-1-5-21-1-2-3-1001");
	LocalFree(text);
	tap_ok(ConvertSidToStringSidA((PSID)sid, &ansi) && !strcmp(ansi, "S-1-5-21-1-2-3-1001"),
	       "ConvertSidToStringSidA");
	LocalFree(ansi);
	tap_ok(!ConvertSidToStringSidW((PSID)bad, &text), "revision 2: refused");
	tap_eq(GetLastError(), ERROR_INVALID_SID, "... ERROR_INVALID_SID");
}

static void test_time(void)
{
	/* 2024-02-29 12:34:56.789 UTC, a Thursday, and Windows' first day. */
	ULONGLONG leap = 133536836967890000ULL;
	FILETIME ft = { (DWORD)leap, (DWORD)(leap >> 32) }, back;
	FILETIME first = { 0, 0 };
	SYSTEMTIME st;

	tap_ok(FileTimeToSystemTime(&ft, &st), "FileTimeToSystemTime");
	tap_ok(st.wYear == 2024 && st.wMonth == 2 && st.wDay == 29 && st.wDayOfWeek == 4 &&
	       st.wHour == 12 && st.wMinute == 34 && st.wSecond == 56 && st.wMilliseconds == 789,
	       "... 2024-02-29 (Thursday) 12:34:56.789");
	tap_ok(SystemTimeToFileTime(&st, &back) &&
	       back.dwLowDateTime == (DWORD)(leap / 10000 * 10000) &&
	       back.dwHighDateTime == ft.dwHighDateTime, "SystemTimeToFileTime back (to the ms)");
	tap_ok(FileTimeToSystemTime(&first, &st) && st.wYear == 1601 && st.wMonth == 1 &&
	       st.wDay == 1 && st.wDayOfWeek == 1, "FILETIME 0: 1601-01-01, a Monday");
	/* 2100-03-01: 2100 is no leap year (the 32-bit time_t ends in 2038). */
	st.wYear = 2100;
	st.wMonth = 2;
	st.wDay = 29;
	tap_ok(!SystemTimeToFileTime(&st, &back), "2100-02-29 refused");
	st.wMonth = 3;
	st.wDay = 1;
	tap_ok(SystemTimeToFileTime(&st, &back) && FileTimeToSystemTime(&back, &st) &&
	       st.wYear == 2100 && st.wMonth == 3 && st.wDay == 1, "2100-03-01 both ways");
	first.dwHighDateTime = 0x80000000;
	tap_ok(!FileTimeToSystemTime(&first, &st), "a FILETIME past 0x7FFF...: refused");
	tap_ok(GetTickCount64() > 0 && GetCurrentProcessId() == (DWORD)getpid(),
	       "GetTickCount64, GetCurrentProcessId");
}

/* Microsoft's examples of the rules ("Parsing C command-line arguments"). */
static void test_command_line(void)
{
	static const struct {
		const wchar_t *line;
		int count;
		const wchar_t *args[4];
	} cases[] = {
		{ L"p \"abc\" d e", 4, { L"p", L"abc", L"d", L"e" } },
		{ L"p a\\b d\"e f\"g h", 4, { L"p", L"a\\b", L"de fg", L"h" } },
		{ L"p a\\\\\\\"b c d", 4, { L"p", L"a\\\"b", L"c", L"d" } },
		{ L"p a\\\\\\\\\"b c\" d e", 4, { L"p", L"a\\\\b c", L"d", L"e" } },
		{ L"p a\"b\"\" c d", 2, { L"p", L"ab\" c d" } },
		{ L"\"C:\\a b\\p.exe\" x", 2, { L"C:\\a b\\p.exe", L"x" } },
	};
	LPWSTR *argv;
	WCHAR full[64];
	int i, j, n, same;

	for (i = 0; i < (int)ARRAYSIZE(cases); i++) {
		argv = CommandLineToArgvW(cases[i].line, &n);
		same = argv && n == cases[i].count;
		for (j = 0; same && j < n; j++)
			same = wcscmp(argv[j], cases[i].args[j]) == 0;
		tap_ok(same, "CommandLineToArgvW, case %d", i);
		LocalFree(argv);
	}
	argv = CommandLineToArgvW(GetCommandLineW(), &n);
	tap_ok(argv && n == 1 && wcsstr(argv[0], L"winlayer"), "GetCommandLineW: the program's own");
	LocalFree(argv);
	tap_ok(_wfullpath(full, L"/a/./b/../c", ARRAYSIZE(full)) && !wcscmp(full, L"/a/c"),
	       "_wfullpath takes . and .. out");
	tap_ok(!_wfullpath(full, L"/a/long/path/indeed", 8), "_wfullpath: too small, NULL");
	tap_ok(HeapSetInformation(NULL, HeapEnableTerminationOnCorruption, NULL, 0),
	       "HeapSetInformation(HeapEnableTerminationOnCorruption)");
	GlobalFree(GlobalAlloc(GPTR, 16));
}

static void test_intsafe(void)
{
	ULONG r;

	tap_ok(ULongAdd(1, 2, &r) == S_OK && r == 3, "ULongAdd");
	tap_ok(ULongMult(0x10000, 0x10000, &r) == INTSAFE_E_ARITHMETIC_OVERFLOW && r == 0,
	       "ULongMult overflow");
}

int main(void)
{
	test_types();
	test_strings();
	test_text();
	test_guid();
	test_sid();
	test_time();
	test_intsafe();
	test_command_line();
	return tap_done();
}
