// SPDX-License-Identifier: LGPL-2.1
/*
 * A FILETIME (100 ns units since 1601-01-01 UTC) as a SYSTEMTIME, in UTC
 * or local time: NTDLL's RtlTimeToTimeFields, with the local offset. TDH
 * shows WPP events' SystemTime and DATETIME properties with it (in local
 * time unless TDH_CONTEXT_WPP_GMT asks for UTC: Microsoft's
 * TDH_CONTEXT_TYPE page, "by default, the time stamp is in local time"),
 * and the Windows layer's FileTimeToSystemTime and local-time calls too.
 * Both call it here, below them.
 *
 * The calendar is done here, from 1601 (the first year of a 400-year
 * Gregorian cycle), not with gmtime(): a 32-bit time_t ends in 2038 and
 * starts in 1901, a FILETIME does neither. Only the local time's offset
 * from UTC comes from the C library (localtime_r's tm_gmtoff, for the
 * nearest instant a time_t holds).
 */
#include <stdint.h>
#include <time.h>

#include "nt_internal.h"

#define TICKS		10000000ULL		/* a second in FILETIME units */
#define UNIX_EPOCH	11644473600ULL		/* 1601 to 1970, in seconds */
#define DAYS_400	146097U			/* days in 400 Gregorian years */
#define DAYS_100	36524U
#define DAYS_4		1461U

static int leap(unsigned int y)
{
	return (y % 4 == 0 && y % 100) || y % 400 == 0;
}

/* Local time's offset from UTC in seconds at @secs since 1601. */
static long offset_at(uint64_t secs)
{
	int64_t unix_secs = (int64_t)secs - (int64_t)UNIX_EPOCH;
	struct tm tm;
	time_t t;

	/* The nearest time a time_t can hold (32-bit: 1901 to 2038). */
	if (sizeof(time_t) < 8 && unix_secs > INT32_MAX)
		unix_secs = INT32_MAX;
	if (sizeof(time_t) < 8 && unix_secs < INT32_MIN)
		unix_secs = INT32_MIN;
	t = (time_t)unix_secs;
	if (!localtime_r(&t, &tm))
		return 0;
	return tm.tm_gmtoff;
}

/**
 * nttrace_systemtime() - a FILETIME as a SYSTEMTIME
 * @ft: 100 ns units since 1601-01-01 UTC
 * @utc: nonzero for UTC, else local time
 * @st: the result
 */
void nttrace_systemtime(uint64_t ft, int utc, SYSTEMTIME *st)
{
	static const unsigned char mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	uint64_t secs = ft / TICKS, days;
	unsigned int y, n, d, m;
	long off = utc ? 0 : offset_at(secs);

	if (off < 0 && (uint64_t)-off > secs)
		secs = 0;
	else
		secs += off;
	days = secs / 86400;
	st->wMilliseconds = (USHORT)(ft % TICKS / 10000);
	st->wSecond = (USHORT)(secs % 60);
	st->wMinute = (USHORT)(secs / 60 % 60);
	st->wHour = (USHORT)(secs / 3600 % 24);
	st->wDayOfWeek = (USHORT)((days + 1) % 7);	/* 1601-01-01 was a Monday */
	y = 1601 + 400 * (unsigned int)(days / DAYS_400);
	d = (unsigned int)(days % DAYS_400);
	n = d / DAYS_100;
	if (n == 4)		/* the last day of a 400-year cycle */
		n = 3;
	y += 100 * n;
	d -= n * DAYS_100;
	y += 4 * (d / DAYS_4);
	d %= DAYS_4;
	n = d / 365;
	if (n == 4)		/* the last day of a leap year */
		n = 3;
	y += n;
	d -= n * 365;
	for (m = 0; m < 11; m++) {
		unsigned int len = mdays[m] + (m == 1 && leap(y));

		if (d < len)
			break;
		d -= len;
	}
	st->wYear = (USHORT)y;
	st->wMonth = (USHORT)(m + 1);
	st->wDay = (USHORT)(d + 1);
}
