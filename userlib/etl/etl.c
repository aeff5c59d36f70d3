// SPDX-License-Identifier: LGPL-2.1
/*
 * Writing ETL files (<nttrace/etl.h>): the header buffer, the session's
 * buffers in sequential or circular file mode, and the header rewritten
 * with the final counts when the file is closed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <nttrace/etl.h>
#include "etl_internal.h"
#include "xpress.h"
#include "record.h"

static void put(uint8_t *p, uint64_t v, int bytes)
{
	while (bytes--) {
		*p++ = (uint8_t)v;
		v >>= 8;
	}
}

static uint64_t filetime_of(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 10000000 + ts.tv_nsec / 100;
}

uint64_t nttrace_clock_now(uint32_t clock_type)
{
	struct timespec ts;

	switch (clock_type) {
	case NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME:
		return filetime_of(CLOCK_REALTIME) + NTTRACE_FILETIME_UNIX_EPOCH;
#if defined(__x86_64__) || defined(__i386__)
	case NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE:
		return __rdtsc();
#endif
	default:
		/* The kernel's ktime_get_mono_fast_ns(): CLOCK_MONOTONIC. */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	}
}

void nttrace_etl_times(struct nttrace_etl_session *s)
{
	uint64_t now = 0, clock = 0, narrowest = UINT64_MAX, ago = 0;
	int i;

	/*
	 * The real time and the session's clock at one instant, as near as
	 * two reads allow: the clock just before and just after the real
	 * time, the midpoint of the narrowest of three tries. Every FILETIME
	 * of the file comes from this pair, and ProcessTrace merges files by
	 * them. Read one after the other (as they were), a pair was off by a
	 * clock read or a preemption: on a kernel whose clocks are system
	 * calls (Debian's 6.1 under TCG, HPET), enough to misorder events two
	 * processes logged in turn (opentrace_test's merge, once in a while).
	 */
	for (i = 0; i < 3; i++) {
		uint64_t c0 = nttrace_clock_now(s->clock_type);
		uint64_t rt = filetime_of(CLOCK_REALTIME) + NTTRACE_FILETIME_UNIX_EPOCH;
		uint64_t c1 = nttrace_clock_now(s->clock_type);

		if (c1 >= c0 && c1 - c0 < narrowest) {
			narrowest = c1 - c0;
			now = rt;
			clock = c0 + (c1 - c0) / 2;
		}
	}
	if (narrowest == UINT64_MAX) {	/* a clock that went back: take the last */
		now = filetime_of(CLOCK_REALTIME) + NTTRACE_FILETIME_UNIX_EPOCH;
		clock = nttrace_clock_now(s->clock_type);
	}

	/* How long ago the session started, in 100 ns units. */
	if (s->frequency && clock > s->start_clock)
		ago = (uint64_t)((double)(clock - s->start_clock) * 1e7 / s->frequency);
	s->start_time = now - ago;
	s->boot_time = now - filetime_of(CLOCK_BOOTTIME);
}

void nttrace_etl_from_info(struct nttrace_etl_session *s,
			   const struct nttrace_logger_info *info)
{
	memset(s, 0, sizeof(*s));
	s->buffer_size = info->buffer_size_kb * 1024;
	s->nr_cpus = info->nr_cpus;
	s->pointer_size = 8;	/* the kernel's */
	s->log_file_mode = info->log_file_mode;
	s->clock_type = info->clock_type;
	s->frequency = info->clock_frequency;
	s->start_clock = info->start_time;
	s->logger_pid = getpid();
	s->logger_tid = syscall(SYS_gettid);
	memcpy(s->name, info->name, sizeof(s->name));
	s->name[sizeof(s->name) - 1] = 0;
	nttrace_etl_times(s);
}

/* The kernel's tick in 100 ns units: the coarse clock's resolution. */
static uint32_t timer_resolution(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res))
		return 156250;
	return res.tv_sec * 10000000 + res.tv_nsec / 100;
}

/*
 * CpuSpeedInMHz: the rate of a CPU-cycle clock, which is what Windows'
 * consumers convert its time stamps with (so any reader dates our events
 * as we do; rounded to the MHz, as the field is); else the CPU's speed.
 */
static uint32_t cpu_mhz(const struct nttrace_etl_session *s)
{
	FILE *f;
	char line[256];
	double mhz = 0;

	if (s->clock_type == NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE && s->frequency)
		return (uint32_t)((s->frequency + 500000) / 1000000);
	f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu MHz : %lf", &mhz) == 1)
			break;
	if (f)
		fclose(f);
	return (uint32_t)mhz;
}

/* Write @name as UTF-16LE with its NUL at @p; returns the bytes written. */
static uint32_t put_utf16(uint8_t *p, const char *name, uint32_t room)
{
	uint32_t n = 0;

	while (*name && n + 4 <= room) {
		put(p + n, (uint8_t)*name++, 2);
		n += 2;
	}
	put(p + n, 0, 2);
	return n + 2;
}

void nttrace_etl_header(uint8_t *buf, const struct nttrace_etl_session *s,
			const char *path, uint64_t end_time, uint32_t buffers_written,
			uint32_t events_lost, uint32_t buffers_lost)
{
	uint32_t psz = s->pointer_size == 4 ? 4 : 8, size = s->buffer_size;
	uint8_t *rec = buf + NTTRACE_WMI_BUFFER_HEADER_SIZE;
	uint8_t *lf = rec + NTTRACE_ETL_SYSTEM_HEADER_SIZE;
	uint32_t names_room = size - NTTRACE_WMI_BUFFER_HEADER_SIZE -
			      NTTRACE_ETL_SYSTEM_HEADER_SIZE - NTTRACE_ETL_LF_SIZE(psz);
	uint32_t len = NTTRACE_ETL_SYSTEM_HEADER_SIZE + NTTRACE_ETL_LF_SIZE(psz), end;
	uint32_t clock =
		s->clock_type == NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME ? NTTRACE_ETL_CLOCK_SYSTEM :
		s->clock_type == NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE   ? NTTRACE_ETL_CLOCK_CYCLE :
									NTTRACE_ETL_CLOCK_QPC;

	memset(buf, 0, size);
	/* The names: the session's, then the file's (cut to fit). */
	len += put_utf16(lf + NTTRACE_ETL_LF_SIZE(psz), s->name, names_room / 2);
	len += put_utf16(buf + NTTRACE_WMI_BUFFER_HEADER_SIZE + len, path ? path : "",
			 size - NTTRACE_WMI_BUFFER_HEADER_SIZE - len);
	end = NTTRACE_WMI_BUFFER_HEADER_SIZE + ((len + 7) & ~7u);

	/* WMI_BUFFER_HEADER: a header buffer, CPU 0, sequence 0. */
	put(buf + 0x00, size, 4);
	put(buf + 0x04, end, 4);
	put(buf + 0x08, end, 4);
	put(buf + 0x10, s->start_clock, 8);
	put(buf + 0x20, (s->frequency << 3) | (s->clock_type & 7), 8);
	put(buf + 0x30, end, 4);
	put(buf + 0x34, NTTRACE_WMI_BUFFER_FLAG_FLUSH_MARKER, 2);
	put(buf + 0x36, NTTRACE_WMI_BUFFER_TYPE_HEADER, 2);
	put(buf + 0x38, s->start_clock, 8);
	put(buf + 0x40, s->start_clock, 8);

	/* SYSTEM_TRACE_HEADER: the logfile header event (hook 0). */
	put(rec + 0x00, NTTRACE_ETL_SYSTEM_HEADER_MARKER, 4);
	put(rec + 0x04, len, 2);
	put(rec + 0x06, 0, 2);
	put(rec + 0x08, s->logger_tid, 4);
	put(rec + 0x0C, s->logger_pid, 4);
	put(rec + 0x10, s->start_clock, 8);

	/* TRACE_LOGFILE_HEADER. */
	put(lf + NTTRACE_ETL_LF_BUFFER_SIZE, size, 4);
	put(lf + NTTRACE_ETL_LF_VERSION, NTTRACE_ETL_VERSION, 4);
	put(lf + NTTRACE_ETL_LF_PROVIDER_VERSION, NTTRACE_ETL_PROVIDER_VERSION, 4);
	put(lf + NTTRACE_ETL_LF_NUMBER_OF_PROCESSORS, s->nr_cpus, 4);
	put(lf + NTTRACE_ETL_LF_END_TIME, end_time, 8);
	put(lf + NTTRACE_ETL_LF_TIMER_RESOLUTION, timer_resolution(), 4);
	put(lf + NTTRACE_ETL_LF_MAXIMUM_FILE_SIZE, s->max_file_mb, 4);
	put(lf + NTTRACE_ETL_LF_LOG_FILE_MODE, s->log_file_mode, 4);
	put(lf + NTTRACE_ETL_LF_BUFFERS_WRITTEN, buffers_written, 4);
	put(lf + NTTRACE_ETL_LF_START_BUFFERS, 1, 4);
	put(lf + NTTRACE_ETL_LF_POINTER_SIZE, psz, 4);
	put(lf + NTTRACE_ETL_LF_EVENTS_LOST, events_lost, 4);
	put(lf + NTTRACE_ETL_LF_CPU_SPEED, cpu_mhz(s), 4);
	/* LoggerName and LogFileName are pointers: zero on disk. */
	put(lf + NTTRACE_ETL_LF_BOOT_TIME(psz), s->boot_time, 8);
	put(lf + NTTRACE_ETL_LF_PERF_FREQ(psz), s->frequency, 8);
	put(lf + NTTRACE_ETL_LF_START_TIME(psz), s->start_time, 8);
	put(lf + NTTRACE_ETL_LF_RESERVED_FLAGS(psz), clock, 4);
	put(lf + NTTRACE_ETL_LF_BUFFERS_LOST(psz), buffers_lost, 4);

	memset(buf + end, NTTRACE_WMI_BUFFER_FILL, size - end);
}

/*
 * Write all of @iov at @at, or at the file position when @at is negative
 * (a pipe has no other): 0 or -errno, and in *@done the bytes written
 * (the whole on success, what got out before the failure otherwise).
 * Consumes @iov.
 */
static int writev_all(int fd, struct iovec *iov, int cnt, off_t at, size_t *done)
{
	*done = 0;
	while (cnt) {
		ssize_t n = at < 0 ? writev(fd, iov, cnt) : pwritev(fd, iov, cnt, at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		*done += n;
		if (at >= 0)
			at += n;
		while (cnt && (size_t)n >= iov->iov_len) {
			n -= iov->iov_len;
			iov++;
			cnt--;
		}
		if (cnt) {
			iov->iov_base = (char *)iov->iov_base + n;
			iov->iov_len -= n;
		}
	}
	return 0;
}

static int write_all(int fd, const void *buf, size_t len, off_t at, size_t *done)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return writev_all(fd, &iov, 1, at, done);
}

/* The low @bytes bytes at @p, little-endian. */
static uint64_t get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = v << 8 | p[bytes];
	return v;
}

/*
 * EVENT_TRACE_COMPRESSED_MODE: each buffer's records compressed with
 * Plain LZ77 ([MS-XCA], xpress.c) as Windows writes them: the buffer's
 * header, flagged WMI_BUFFER_FLAG_COMPRESSED, with BufferSize its size on
 * disk (header and compressed records) and Offset its records' end once
 * decompressed; the buffers follow each other with no gap (a "packed"
 * file, whose header buffer is as short as its records too). A buffer
 * that does not shrink is written as it is, whole. Sequential files only:
 * the other modes place buffers by a fixed size.
 */
static int is_compressed(const struct nttrace_logfile *lf)
{
	return !!(lf->s.log_file_mode & NTTRACE_EVENT_TRACE_COMPRESSED_MODE);
}

/*
 * EVENT_TRACE_FILE_MODE_NEWFILE: a new file each time the current one
 * holds max_file_mb (as Windows' logger does), named by @lf->path, which
 * holds one %d (and no other %): file k (from 1) has k in its place, as
 * the counter Windows substitutes. The struct keeps no more than it did
 * (callers allocate it): the current file's data buffers are its length
 * (a sequential file is written at its end), and its number follows from
 * the buffers written before it, each earlier file holding @lf->slots.
 */
static int is_newfile(const struct nttrace_logfile *lf)
{
	return (lf->s.log_file_mode & EVENT_TRACE_FILE_MODE_NEWFILE) && lf->slots;
}

/* @tmpl with its one %d as @k into @out: 0, or -EINVAL (not one %d) or -ENAMETOOLONG. */
static int newfile_name(const char *tmpl, uint64_t k, char *out, size_t room)
{
	const char *d = strstr(tmpl, "%d");
	int n;

	if (!d || strchr(tmpl, '%') != d || strchr(d + 2, '%'))
		return -EINVAL;
	n = snprintf(out, room, "%.*s%llu%s", (int)(d - tmpl), tmpl, (unsigned long long)k, d + 2);
	return n < 0 || (size_t)n >= room ? -ENAMETOOLONG : 0;
}

/* The data buffers in the file being written (a regular file), or -1. */
static int64_t file_buffers(const struct nttrace_logfile *lf)
{
	off_t end = lseek(lf->fd, 0, SEEK_CUR);

	return end < (off_t)lf->s.buffer_size ? -1 : end / lf->s.buffer_size - 1;
}

/* The first header is written in place (a pipe takes it too), the last at 0. */
static int write_header(struct nttrace_logfile *lf, int first, uint64_t end_time,
			uint64_t events_lost, uint64_t buffers_lost)
{
	uint8_t *hdr = malloc(lf->s.buffer_size);
	uint64_t written = lf->buffers;
	char name[sizeof(lf->path)];
	size_t done;
	int ret;

	if (!hdr)
		return -ENOMEM;
	snprintf(name, sizeof(name), "%s", lf->path);
	if (is_newfile(lf)) {
		/* This file's own buffers, and its own name. */
		int64_t here = first ? 0 : file_buffers(lf);

		written = here < 0 ? 0 : (uint64_t)here;
		if (newfile_name(lf->path, (lf->buffers - written) / lf->slots + 1, name,
				 sizeof(name)))
			name[0] = 0;
	}
	/* ULONG counters, as Windows has them: they saturate. */
	nttrace_etl_header(hdr, &lf->s, name, end_time, written + 1 > UINT32_MAX ?
			   UINT32_MAX : written + 1,
			   events_lost > UINT32_MAX ? UINT32_MAX : events_lost,
			   buffers_lost > UINT32_MAX ? UINT32_MAX : buffers_lost);
	if (is_compressed(lf)) {
		/*
		 * A packed file's header buffer is as long as its records (the
		 * same at the start and the end: the names do not change), and
		 * says so in its BufferSize; TRACE_LOGFILE_HEADER keeps the
		 * session's. A reader knows the file so (etlread.c).
		 */
		uint32_t end = (uint32_t)get_le(hdr + 0x04, 4);

		put(hdr + 0x00, end, 4);
		ret = write_all(lf->fd, hdr, end, first ? -1 : 0, &done);
	} else {
		ret = write_all(lf->fd, hdr, lf->s.buffer_size, first ? -1 : 0, &done);
	}
	free(hdr);
	return ret;
}

/*
 * EVENT_TRACE_FILE_MODE_PREALLOCATE: the file takes max_file_mb on disk
 * from the start (a full disk is found at once, not in the middle of a
 * trace), and is cut back to what it holds when it is closed, as Windows
 * does. Only for a regular file.
 */
static int preallocate(struct nttrace_logfile *lf)
{
	int err;

	if (!(lf->s.log_file_mode & EVENT_TRACE_FILE_MODE_PREALLOCATE))
		return 0;
	err = posix_fallocate(lf->fd, 0, (off_t)lf->s.max_file_mb << 20);
	return -err;
}

/* The preallocated file cut back to its header and @data buffers. */
static int cut_to(struct nttrace_logfile *lf, uint64_t data)
{
	if (!(lf->s.log_file_mode & EVENT_TRACE_FILE_MODE_PREALLOCATE))
		return 0;
	return ftruncate(lf->fd, (off_t)(data + 1) * lf->s.buffer_size) ? -errno : 0;
}

/*
 * EVENT_TRACE_FILE_MODE_APPEND: the session's buffers go after those of
 * an existing ETL file, whose header stays (its start, clock and names:
 * with a clock other than system time the new events' times are then
 * wrong, as Windows warns of this mode), its BuffersWritten, EndTime and
 * losses brought up to date at the end. The file must be one nttrace or
 * Windows could have written for this session: whole buffers of its
 * size, a logfile header saying the same buffer size, processors,
 * pointer size and clock (else -EINVAL, and it is left as it was). An
 * empty or new file is begun as any other.
 *
 * append_header() reads the header buffer at 0 into @hdr (buffer_size
 * bytes) and checks it.
 */
static int append_header(struct nttrace_logfile *lf, uint8_t *hdr)
{
	const uint8_t *rec = hdr + NTTRACE_WMI_BUFFER_HEADER_SIZE;
	const uint8_t *h = rec + NTTRACE_ETL_SYSTEM_HEADER_SIZE;
	uint32_t psz = lf->s.pointer_size == 4 ? 4 : 8;
	uint32_t clock = lf->s.clock_type == NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME ?
			 NTTRACE_ETL_CLOCK_SYSTEM :
			 lf->s.clock_type == NTTRACE_EVENT_TRACE_CLOCK_CPUCYCLE ?
			 NTTRACE_ETL_CLOCK_CYCLE : NTTRACE_ETL_CLOCK_QPC;
	ssize_t n = pread(lf->fd, hdr, lf->s.buffer_size, 0);

	if (n < 0)
		return -errno;
	if ((size_t)n != lf->s.buffer_size ||
	    get_le(hdr + 0x36, 2) != NTTRACE_WMI_BUFFER_TYPE_HEADER ||
	    (get_le(rec, 4) != NTTRACE_ETL_SYSTEM_HEADER_MARKER &&
	     get_le(rec, 4) != NTTRACE_ETL_SYSTEM_HEADER_MARKER32) ||
	    get_le(h + NTTRACE_ETL_LF_BUFFER_SIZE, 4) != lf->s.buffer_size ||
	    get_le(h + NTTRACE_ETL_LF_NUMBER_OF_PROCESSORS, 4) != lf->s.nr_cpus ||
	    get_le(h + NTTRACE_ETL_LF_POINTER_SIZE, 4) != psz ||
	    get_le(h + NTTRACE_ETL_LF_RESERVED_FLAGS(psz), 4) != clock)
		return -EINVAL;
	return 0;
}

/* ULONG counters, as Windows has them: they saturate. */
static uint32_t sat32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : v;
}

/* The appended file's header brought up to date, at 0. */
static int append_finish(struct nttrace_logfile *lf, uint64_t end_time, uint64_t events_lost,
			 uint64_t buffers_lost)
{
	uint32_t psz = lf->s.pointer_size == 4 ? 4 : 8;
	uint8_t *hdr = malloc(lf->s.buffer_size), *h;
	off_t end = lseek(lf->fd, 0, SEEK_END);
	size_t done;
	int ret;

	if (!hdr)
		return -ENOMEM;
	ret = end < 0 ? -errno : append_header(lf, hdr);
	if (!ret) {
		h = hdr + NTTRACE_WMI_BUFFER_HEADER_SIZE + NTTRACE_ETL_SYSTEM_HEADER_SIZE;
		put(h + NTTRACE_ETL_LF_END_TIME, end_time, 8);
		put(h + NTTRACE_ETL_LF_BUFFERS_WRITTEN, sat32(end / lf->s.buffer_size), 4);
		put(h + NTTRACE_ETL_LF_EVENTS_LOST,
		    sat32(get_le(h + NTTRACE_ETL_LF_EVENTS_LOST, 4) + events_lost), 4);
		put(h + NTTRACE_ETL_LF_BUFFERS_LOST(psz),
		    sat32(get_le(h + NTTRACE_ETL_LF_BUFFERS_LOST(psz), 4) + buffers_lost), 4);
		ret = write_all(lf->fd, hdr, lf->s.buffer_size, 0, &done);
	}
	free(hdr);
	return ret;
}

/* The end of a file: its final header, its size, its data on disk. */
static int finish_file(struct nttrace_logfile *lf, uint64_t end_time, uint64_t events_lost,
		       uint64_t buffers_lost)
{
	int circular = lf->s.log_file_mode & EVENT_TRACE_FILE_MODE_CIRCULAR;
	int64_t here = is_newfile(lf) ? file_buffers(lf) : -1;
	uint64_t data = is_newfile(lf) ? (here < 0 ? 0 : (uint64_t)here) :
			circular && lf->buffers > lf->slots ? lf->slots : lf->buffers;
	int ret, cut;

	if (lf->s.log_file_mode & EVENT_TRACE_FILE_MODE_APPEND)
		ret = append_finish(lf, end_time, events_lost, buffers_lost);
	else
		ret = write_header(lf, 0, end_time, events_lost, buffers_lost);
	if (ret == -ESPIPE)
		ret = 0;	/* a pipe keeps its first header */
	cut = cut_to(lf, data);
	if (!ret)
		ret = cut;
	if (fsync(lf->fd) && errno != EINVAL && errno != EROFS && !ret)
		ret = -errno;
	if (close(lf->fd) && !ret)
		ret = -errno;
	lf->fd = -1;
	return ret;
}

/*
 * NEWFILE: when the current file is full, it is finished (its header
 * says what it holds; the losses so far go into it) and the next one
 * created and begun. 0, or -errno (the buffer is then counted failed).
 */
static int next_file(struct nttrace_logfile *lf)
{
	char name[sizeof(lf->path)];
	int64_t here;
	int fd, ret;

	if (!is_newfile(lf) || lf->buffers % lf->slots)
		return 0;
	here = file_buffers(lf);
	if (here < (int64_t)lf->slots)
		return 0;	/* not full: the one just begun */
	ret = newfile_name(lf->path, lf->buffers / lf->slots + 1, name, sizeof(name));
	if (ret)
		return ret;
	ret = finish_file(lf, nttrace_clock_now(NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME),
			  lf->dropped_events + lf->failed_events, lf->dropped + lf->failed);
	if (ret && !lf->error)
		lf->error = -ret;	/* said at the end; the trace goes on */
	fd = nttrace_trace_file_create(name);
	if (fd < 0)
		return fd;
	lf->fd = fd;
	ret = write_header(lf, 1, 0, 0, 0);
	if (!ret)
		ret = preallocate(lf);
	return ret;
}

int nttrace_logfile_init(struct nttrace_logfile *lf, int fd, const char *path,
			 const struct nttrace_etl_session *s)
{
	uint64_t max = (uint64_t)s->max_file_mb << 20;
	uint32_t files = s->log_file_mode & (EVENT_TRACE_FILE_MODE_NEWFILE |
					     EVENT_TRACE_FILE_MODE_PREALLOCATE |
					     EVENT_TRACE_FILE_MODE_APPEND);
	struct stat st;
	int ret;

	memset(lf, 0, sizeof(*lf));
	lf->fd = fd;
	lf->s = *s;
	snprintf(lf->path, sizeof(lf->path), "%s", path ? path : "");
	if (s->buffer_size < NTTRACE_WMI_BUFFER_HEADER_SIZE + 0x200 || s->buffer_size % 8)
		return -EINVAL;
	if (max && max / s->buffer_size < 2)
		return -EINVAL;		/* room for the header buffer and one more */
	/* Circular, a new file each size, room reserved: a size is needed, as on Windows. */
	if ((s->log_file_mode & (EVENT_TRACE_FILE_MODE_CIRCULAR | EVENT_TRACE_FILE_MODE_NEWFILE |
				 EVENT_TRACE_FILE_MODE_PREALLOCATE)) && !max)
		return -EINVAL;
	/* Compressed buffers have sizes of their own: one sequential file. */
	if ((s->log_file_mode & NTTRACE_EVENT_TRACE_COMPRESSED_MODE) &&
	    (s->log_file_mode & (EVENT_TRACE_FILE_MODE_CIRCULAR | EVENT_TRACE_FILE_MODE_NEWFILE |
				 EVENT_TRACE_FILE_MODE_PREALLOCATE | EVENT_TRACE_FILE_MODE_APPEND)))
		return -EINVAL;
	/* Appending is to one sequential file. */
	if ((s->log_file_mode & EVENT_TRACE_FILE_MODE_APPEND) &&
	    (s->log_file_mode & (EVENT_TRACE_FILE_MODE_CIRCULAR | EVENT_TRACE_FILE_MODE_NEWFILE |
				 EVENT_TRACE_FILE_MODE_PREALLOCATE)))
		return -EINVAL;
	/* A new file each time cannot be circular; and it needs a name with %d. */
	if ((s->log_file_mode & EVENT_TRACE_FILE_MODE_NEWFILE) &&
	    ((s->log_file_mode & EVENT_TRACE_FILE_MODE_CIRCULAR) || !path ||
	     strlen(path) >= sizeof(lf->path) || newfile_name(path, 1, lf->path, sizeof(lf->path))))
		return -EINVAL;
	snprintf(lf->path, sizeof(lf->path), "%s", path ? path : "");
	/* These three are about a file on disk: not a pipe or a device. */
	if (files && (fstat(fd, &st) || !S_ISREG(st.st_mode)))
		return -EINVAL;
	if (max)
		lf->slots = max / s->buffer_size - 1;
	if ((s->log_file_mode & EVENT_TRACE_FILE_MODE_APPEND) && st.st_size) {
		uint8_t *hdr = malloc(s->buffer_size);

		if (!hdr)
			return -ENOMEM;
		ret = st.st_size % s->buffer_size ? -EINVAL : append_header(lf, hdr);
		free(hdr);
		if (ret)
			return ret;
		/* The maximum size holds what the file has already. */
		if (max && (uint64_t)st.st_size / s->buffer_size > lf->slots)
			return -EFBIG;
		if (lf->slots)
			lf->slots -= st.st_size / s->buffer_size - 1;
		return lseek(fd, 0, SEEK_END) < 0 ? -errno : 0;
	}
	ret = write_header(lf, 1, 0, 0, 0);
	if (!ret)
		ret = preallocate(lf);
	return ret;
}

/* nttrace_trace_file_create(), the file emptied unless @keep. */
static int trace_file_open(const char *path, int keep)
{
	/* No O_TRUNC: a file that is refused keeps its contents. */
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	struct stat st;
	int err;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
	} else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		/* A device (/dev/null): only a privileged user makes one. */
		err = fcntl(fd, F_SETFL, 0) ? -errno : 0;
	} else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		err = -EINVAL;
	} else if (st.st_uid != geteuid()) {
		err = -EPERM;
	} else if (S_ISREG(st.st_mode) &&
		   (((st.st_mode & 07777) != 0600 && fchmod(fd, 0600)) ||
		    (!keep && ftruncate(fd, 0)))) {
		err = -errno;
	} else {
		/* A FIFO (its reader the caller's choice) is written as it is. */
		err = fcntl(fd, F_SETFL, 0) ? -errno : 0;
	}
	if (!err)
		return fd;
	close(fd);
	return err;
}

int nttrace_trace_file_create(const char *path)
{
	return trace_file_open(path, 0);
}

int nttrace_logfile_open(struct nttrace_logfile *lf, const char *path,
			 const struct nttrace_etl_session *s)
{
	char first[sizeof(lf->path)];
	int fd, ret;

	/* NEWFILE: the first file is number 1; a name without one %d creates nothing. */
	if (s->log_file_mode & EVENT_TRACE_FILE_MODE_NEWFILE) {
		ret = newfile_name(path, 1, first, sizeof(first));
		if (ret)
			return ret;
		fd = nttrace_trace_file_create(first);
	} else {
		fd = trace_file_open(path, s->log_file_mode & EVENT_TRACE_FILE_MODE_APPEND);
	}

	if (fd < 0)
		return fd;
	ret = nttrace_logfile_init(lf, fd, path, s);
	if (ret) {
		close(fd);
		lf->fd = -1;
	}
	return ret;
}

int nttrace_logfile_buffer(void *ctx, const void *buf, uint32_t size,
			   unsigned int cpu)
{
	struct nttrace_logfile *lf = ctx;

	/* A buffer of another size is refused unread. */
	return nttrace_logfile_counted(lf, buf, size, size == lf->s.buffer_size ?
				       nttrace_buffer_events(buf) : 0);
}

/* A buffer written whole, @disk bytes of the file. */
static void logfile_written(struct nttrace_logfile *lf, uint32_t events, uint32_t disk)
{
	lf->buffers++;
	lf->events += events;
	lf->bytes += disk;
}

/* A buffer that could not be written: counted, its error kept. */
static void logfile_failed(struct nttrace_logfile *lf, int err, uint32_t events)
{
	if (!lf->error)
		lf->error = -err;
	lf->failed++;
	lf->failed_events += events;
}

/* A buffer past a sequential file's maximum size: counted, not written. */
static void logfile_dropped(struct nttrace_logfile *lf, uint32_t events)
{
	lf->dropped++;
	lf->dropped_events += events;
	if (!lf->error)
		lf->error = EFBIG;
}

/*
 * Sequential: a write that failed after @partial bytes of a buffer cut
 * the file back to whole buffers. The position is asked only now, so
 * that a buffer written costs one system call.
 */
static void logfile_cut(struct nttrace_logfile *lf, size_t partial)
{
	off_t end = lseek(lf->fd, 0, SEEK_CUR);

	if (end >= 0 && partial && ftruncate(lf->fd, end - partial) == 0)
		lseek(lf->fd, end - partial, SEEK_SET);
}

/*
 * A buffer of a compressed file (is_compressed()): its records compressed
 * and written after the last buffer, or it whole when they do not shrink.
 * With a maximum size, a buffer that would pass it is dropped and
 * counted, as a sequential file's are.
 */
static int write_compressed(struct nttrace_logfile *lf, const uint8_t *buf, uint32_t events)
{
	uint32_t size = lf->s.buffer_size, end = (uint32_t)get_le(buf + 0x30, 4), disk = size;
	uint8_t *z = malloc(size);
	const uint8_t *out = buf;
	size_t zlen, done;
	int ret;

	if (!z) {
		logfile_failed(lf, -ENOMEM, events);
		return 0;
	}
	if (end < NTTRACE_WMI_BUFFER_HEADER_SIZE || end > size)
		end = (uint32_t)get_le(buf + 0x04, 4);
	if (end >= NTTRACE_WMI_BUFFER_HEADER_SIZE && end <= size &&
	    !nttrace_xpress_compress(buf + NTTRACE_WMI_BUFFER_HEADER_SIZE,
				     end - NTTRACE_WMI_BUFFER_HEADER_SIZE,
				     z + NTTRACE_WMI_BUFFER_HEADER_SIZE,
				     size - NTTRACE_WMI_BUFFER_HEADER_SIZE - 1, &zlen)) {
		disk = NTTRACE_WMI_BUFFER_HEADER_SIZE + (uint32_t)zlen;
		memcpy(z, buf, NTTRACE_WMI_BUFFER_HEADER_SIZE);
		put(z + 0x00, disk, 4);
		put(z + 0x04, end, 4);
		put(z + 0x30, end, 4);
		put(z + 0x34, get_le(z + 0x34, 2) | NTTRACE_WMI_BUFFER_FLAG_COMPRESSED, 2);
		out = z;
	}
	if (lf->slots && lf->bytes + disk > lf->slots * (uint64_t)size) {
		logfile_dropped(lf, events);
		free(z);
		return 0;
	}
	ret = write_all(lf->fd, out, disk, -1, &done);
	free(z);
	if (ret) {
		logfile_cut(lf, done);
		logfile_failed(lf, ret, events);
		return 0;
	}
	logfile_written(lf, events, disk);
	return 0;
}

int nttrace_logfile_counted(struct nttrace_logfile *lf, const void *buf, uint32_t size,
			    uint32_t events)
{
	int circular = lf->s.log_file_mode & EVENT_TRACE_FILE_MODE_CIRCULAR;
	off_t at = -1;
	size_t done;
	int ret;

	if (size != lf->s.buffer_size) {
		logfile_failed(lf, -EINVAL, 0);
		return 0;
	}
	if (is_compressed(lf))
		return write_compressed(lf, buf, events);
	if (is_newfile(lf) && (ret = next_file(lf))) {
		logfile_failed(lf, ret, events);
		return 0;
	}
	if (lf->slots && !circular && !is_newfile(lf) && lf->buffers >= lf->slots) {
		logfile_dropped(lf, events);
		return 0;
	}
	if (circular)
		at = (off_t)(1 + lf->buffers % lf->slots) * size;
	ret = write_all(lf->fd, buf, size, at, &done);
	if (ret) {
		if (!circular)
			logfile_cut(lf, done);
		logfile_failed(lf, ret, events);
		return 0;
	}
	logfile_written(lf, events, size);
	return 0;
}

int nttrace_logfile_counted_n(struct nttrace_logfile *lf, uint8_t *const *bufs,
			      const uint32_t *events, unsigned int n)
{
	int circular = lf->s.log_file_mode & EVENT_TRACE_FILE_MODE_CIRCULAR;
	uint32_t size = lf->s.buffer_size;
	struct iovec iov[NTTRACE_LOGFILE_BATCH];

	/* Compressed buffers, each its own size: one by one. */
	for (; n && is_compressed(lf); n--, bufs++, events++)
		nttrace_logfile_counted(lf, bufs[0], size, events[0]);
	while (n) {
		unsigned int k = n < NTTRACE_LOGFILE_BATCH ? n : NTTRACE_LOGFILE_BATCH;
		unsigned int i, whole;
		off_t at = -1;
		size_t done;
		int ret;

		/*
		 * One call covers buffers that land side by side in the file:
		 * up to the maximum size (those past it are dropped one by
		 * one), or up to the circular file's wrap.
		 */
		if (is_newfile(lf)) {
			/* Up to the end of the current file; the next is begun one by one. */
			uint64_t left = lf->slots - lf->buffers % lf->slots;

			k = lf->buffers % lf->slots == 0 ? 1 : left < k ? left : k;
		} else if (lf->slots && !circular) {
			k = lf->buffers >= lf->slots ? 1 :
			    lf->slots - lf->buffers < k ? lf->slots - lf->buffers : k;
		}
		if (circular) {
			uint64_t slot = lf->buffers % lf->slots;

			if (lf->slots - slot < k)
				k = lf->slots - slot;
			at = (off_t)(1 + slot) * size;
		}
		if (k == 1) {
			nttrace_logfile_counted(lf, bufs[0], size, events[0]);
			bufs++;
			events++;
			n--;
			continue;
		}
		for (i = 0; i < k; i++) {
			iov[i].iov_base = bufs[i];
			iov[i].iov_len = size;
		}
		ret = writev_all(lf->fd, iov, k, at, &done);
		whole = ret ? done / size : k;
		for (i = 0; i < whole; i++)
			logfile_written(lf, events[i], size);
		if (ret && !circular)
			logfile_cut(lf, done % size);
		/*
		 * The rest one by one, as if no batch had been tried: each
		 * is written whole or counted failed with its own error.
		 */
		for (i = whole; i < k; i++)
			nttrace_logfile_counted(lf, bufs[i], size, events[i]);
		bufs += k;
		events += k;
		n -= k;
	}
	return 0;
}

int nttrace_logfile_close(struct nttrace_logfile *lf, uint64_t events_lost,
			  uint64_t buffers_lost)
{
	int ret;

	if (lf->fd < 0)
		return 0;
	ret = finish_file(lf, nttrace_clock_now(NTTRACE_EVENT_TRACE_CLOCK_SYSTEMTIME),
			  events_lost + lf->dropped_events + lf->failed_events,
			  buffers_lost + lf->dropped + lf->failed);
	if (lf->error)
		ret = -lf->error;
	return ret;
}

uint32_t nttrace_buffer_events(const void *buf)
{
	const uint8_t *b = buf;
	uint32_t off = NTTRACE_WMI_BUFFER_HEADER_SIZE, n = 0, end, size;

	memcpy(&end, b + 0x04, 4);
	memcpy(&size, b, 4);
	if (end > size)
		end = size;
	while (off + 8 <= end) {
		uint32_t len = ntr_record_size(b + off);

		if (!len)
			break;
		off += (len + 7u) & ~7u;
		n++;
	}
	return n;
}
