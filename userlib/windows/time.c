// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's clocks and calendar: FILETIME (100 ns since
 * 1601-01-01 UTC) to and from SYSTEMTIME, local time, tick counts and the
 * performance counter.
 *
 * FILETIME to SYSTEMTIME is nt/systemtime.c's (nttrace_systemtime(), whose
 * calendar, not gmtime_r's, covers what a 32-bit time_t does not); the
 * other way is computed here from a day count. Local time is the C
 * library's view of the process's time zone (TZ, /etc/localtime):
 * FileTimeToLocalFileTime applies the offset in force now, as Windows
 * documents it does, and SystemTimeToTzSpecificLocalTime the one in force
 * at the time given (for the nearest instant a time_t holds).
 * The performance counter is CLOCK_MONOTONIC in nanoseconds.
 */
#include <errno.h>
#include <time.h>

#include <nttrace/etl.h>

#include "../nt/nt_internal.h"
#include "win.h"

#define TICKS_PER_SECOND	10000000ULL
#define TICKS_PER_DAY		(86400ULL * TICKS_PER_SECOND)
/* SYSTEMTIME's years: 30827 is the last whole year FILETIME holds. */
#define YEAR_FIRST		1601
#define YEAR_LAST		30827

static uint64_t ft_get(const FILETIME *ft)
{
	return (uint64_t)ft->dwHighDateTime << 32 | ft->dwLowDateTime;
}

static void ft_set(FILETIME *ft, uint64_t t)
{
	ft->dwLowDateTime = (ULONG)t;
	ft->dwHighDateTime = (ULONG)(t >> 32);
}

static int leap(unsigned int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static unsigned int month_days(unsigned int y, unsigned int m)
{
	static const unsigned char days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};

	return days[m - 1] + (m == 2 && leap(y));
}

/* Days from 1601-01-01 to the start of year @y (1601 begins a 400-year cycle). */
static uint64_t year_days(unsigned int y)
{
	uint64_t n = y - YEAR_FIRST;

	return n * 365 + n / 4 - n / 100 + n / 400;
}

BOOL nttrace_win_FileTimeToSystemTime(const FILETIME *file_time, SYSTEMTIME *st)
{
	if (!file_time || !st || (file_time->dwHighDateTime & 0x80000000)) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	nttrace_systemtime(ft_get(file_time), 1, st);
	return TRUE;
}

BOOL nttrace_win_SystemTimeToFileTime(const SYSTEMTIME *st, FILETIME *file_time)
{
	uint64_t days;
	unsigned int m;

	if (!st || !file_time || st->wYear < YEAR_FIRST || st->wYear > YEAR_LAST ||
	    st->wMonth < 1 || st->wMonth > 12 || st->wDay < 1 ||
	    st->wDay > month_days(st->wYear, st->wMonth) || st->wHour > 23 ||
	    st->wMinute > 59 || st->wSecond > 59 || st->wMilliseconds > 999) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	days = year_days(st->wYear);
	for (m = 1; m < st->wMonth; m++)
		days += month_days(st->wYear, m);
	days += st->wDay - 1;
	ft_set(file_time, days * TICKS_PER_DAY +
	       ((st->wHour * 60 + st->wMinute) * 60 + st->wSecond) * TICKS_PER_SECOND +
	       st->wMilliseconds * 10000ULL);
	return TRUE;
}

/* The local zone's offset from UTC, in seconds, at Unix time @t. */
static long utc_offset(time_t t)
{
	struct tm tm;

	return localtime_r(&t, &tm) ? tm.tm_gmtoff : 0;
}

static void add_seconds(FILETIME *ft, uint64_t t, long seconds)
{
	ft_set(ft, t + (uint64_t)((int64_t)seconds * (int64_t)TICKS_PER_SECOND));
}

BOOL nttrace_win_FileTimeToLocalFileTime(const FILETIME *file_time, FILETIME *local)
{
	if (!file_time || !local) {
		SetLastError(ERROR_INVALID_PARAMETER);
		return FALSE;
	}
	add_seconds(local, ft_get(file_time), utc_offset(time(NULL)));
	return TRUE;
}

BOOL nttrace_win_SystemTimeToTzSpecificLocalTime(const TIME_ZONE_INFORMATION *zone,
						 const SYSTEMTIME *universal,
						 SYSTEMTIME *local)
{
	FILETIME ft;

	if (zone) {
		SetLastError(ERROR_NOT_SUPPORTED);
		return FALSE;
	}
	if (!nttrace_win_SystemTimeToFileTime(universal, &ft))
		return FALSE;
	nttrace_systemtime(ft_get(&ft), 0, local);
	return TRUE;
}

static struct timespec clock_now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts;
}

void nttrace_win_GetSystemTimeAsFileTime(FILETIME *time)
{
	struct timespec ts = clock_now(CLOCK_REALTIME);

	ft_set(time, NTTRACE_FILETIME_UNIX_EPOCH + (uint64_t)ts.tv_sec * TICKS_PER_SECOND +
	       (uint64_t)ts.tv_nsec / 100);
}

void nttrace_win_GetSystemTime(SYSTEMTIME *st)
{
	FILETIME ft;

	nttrace_win_GetSystemTimeAsFileTime(&ft);
	nttrace_win_FileTimeToSystemTime(&ft, st);
}

void nttrace_win_GetLocalTime(SYSTEMTIME *st)
{
	FILETIME ft, local;

	nttrace_win_GetSystemTimeAsFileTime(&ft);
	nttrace_win_FileTimeToLocalFileTime(&ft, &local);
	nttrace_win_FileTimeToSystemTime(&local, st);
}

ULONGLONG nttrace_win_GetTickCount64(void)
{
	struct timespec ts = clock_now(CLOCK_MONOTONIC);

	return (ULONGLONG)ts.tv_sec * 1000 + (ULONGLONG)ts.tv_nsec / 1000000;
}

DWORD nttrace_win_GetTickCount(void)
{
	return (DWORD)nttrace_win_GetTickCount64();
}

BOOL nttrace_win_QueryPerformanceCounter(LARGE_INTEGER *count)
{
	struct timespec ts = clock_now(CLOCK_MONOTONIC);

	count->QuadPart = (LONGLONG)ts.tv_sec * 1000000000 + ts.tv_nsec;
	return TRUE;
}

BOOL nttrace_win_QueryPerformanceFrequency(LARGE_INTEGER *frequency)
{
	frequency->QuadPart = 1000000000;
	return TRUE;
}

void nttrace_win_Sleep(DWORD milliseconds)
{
	struct timespec ts = {
		.tv_sec = milliseconds / 1000,
		.tv_nsec = (long)(milliseconds % 1000) * 1000000,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}
