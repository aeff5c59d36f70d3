/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * nttrace user library: ETL files.
 *
 * A file is whole buffers of one size. Buffer 0 is the header buffer: one
 * SYSTEM_TRACE_HEADER record whose payload is the TRACE_LOGFILE_HEADER and
 * then the session and file names in UTF-16LE. The session's buffers follow
 * as the kernel (or the user-mode logger) wrote them. Fields are written
 * and read at their byte offsets, little-endian, not through C structs, so
 * that the 64-bit and 32-bit layouts of TRACE_LOGFILE_HEADER (PointerSize
 * 8 or 4) come out exact whatever the compiler.
 */
#ifndef NTTRACE_ETL_H
#define NTTRACE_ETL_H

#include <stdint.h>
#include <nttrace/uapi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* SYSTEM_TRACE_HEADER of the logfile header event. */
#define NTTRACE_ETL_SYSTEM_HEADER_SIZE		0x20
#define NTTRACE_ETL_SYSTEM_HEADER_MARKER	0xC0020002U	/* 64-bit system header, v2 */
/* A 32-bit Windows' (PointerSize 4): the 32-bit system header, v2. */
#define NTTRACE_ETL_SYSTEM_HEADER_MARKER32	0xC0010002U
/* The kernel's shorter headers: the compact system header, the perfinfo. */
#define NTTRACE_ETL_COMPACT_HEADER_SIZE		0x18
#define NTTRACE_ETL_PERFINFO_HEADER_SIZE	0x10

/* TRACE_LOGFILE_HEADER, from the start of its payload. */
#define NTTRACE_ETL_LF_BUFFER_SIZE		0x00
#define NTTRACE_ETL_LF_VERSION			0x04
#define NTTRACE_ETL_LF_PROVIDER_VERSION		0x08
#define NTTRACE_ETL_LF_NUMBER_OF_PROCESSORS	0x0C
#define NTTRACE_ETL_LF_END_TIME			0x10
#define NTTRACE_ETL_LF_TIMER_RESOLUTION		0x18
#define NTTRACE_ETL_LF_MAXIMUM_FILE_SIZE	0x1C
#define NTTRACE_ETL_LF_LOG_FILE_MODE		0x20
#define NTTRACE_ETL_LF_BUFFERS_WRITTEN		0x24
#define NTTRACE_ETL_LF_START_BUFFERS		0x28
#define NTTRACE_ETL_LF_POINTER_SIZE		0x2C
#define NTTRACE_ETL_LF_EVENTS_LOST		0x30
#define NTTRACE_ETL_LF_CPU_SPEED		0x34
#define NTTRACE_ETL_LF_LOGGER_NAME		0x38	/* a pointer: 8 or 4 bytes */
/* From here on the offsets depend on the pointer size: */
#define NTTRACE_ETL_LF_TIME_ZONE(p)		(0x38 + 2 * (p))
#define NTTRACE_ETL_TIME_ZONE_SIZE		0xAC
#define NTTRACE_ETL_LF_BOOT_TIME(p)		((p) == 8 ? 0xF8 : 0xF0)
#define NTTRACE_ETL_LF_PERF_FREQ(p)		(NTTRACE_ETL_LF_BOOT_TIME(p) + 0x08)
#define NTTRACE_ETL_LF_START_TIME(p)		(NTTRACE_ETL_LF_BOOT_TIME(p) + 0x10)
#define NTTRACE_ETL_LF_RESERVED_FLAGS(p)	(NTTRACE_ETL_LF_BOOT_TIME(p) + 0x18)
#define NTTRACE_ETL_LF_BUFFERS_LOST(p)		(NTTRACE_ETL_LF_BOOT_TIME(p) + 0x1C)
#define NTTRACE_ETL_LF_SIZE(p)			(NTTRACE_ETL_LF_BOOT_TIME(p) + 0x20)

/* ReservedFlags: the clock of the time stamps. */
#define NTTRACE_ETL_CLOCK_QPC		1	/* PerfFreq ticks per second */
#define NTTRACE_ETL_CLOCK_SYSTEM	2	/* FILETIME */
#define NTTRACE_ETL_CLOCK_CYCLE		3	/* CPU cycles */

/* The Windows version whose formats we write: 6.2 (build 9200). */
#define NTTRACE_ETL_VERSION		0x00000206U	/* major 6, minor 2 */
#define NTTRACE_ETL_PROVIDER_VERSION	9200U

#define NTTRACE_FILETIME_UNIX_EPOCH	116444736000000000ULL

/* What the header buffer says of the session. */
struct nttrace_etl_session {
	uint32_t buffer_size;	/* bytes per buffer */
	uint32_t nr_cpus;
	uint32_t pointer_size;	/* 8, or 4 for a 32-bit user-mode logger */
	uint32_t log_file_mode;	/* EVENT_TRACE_* */
	uint32_t max_file_mb;	/* 0: no limit (needed for circular) */
	uint32_t clock_type;	/* EVENT_TRACE_CLOCK_* */
	uint64_t frequency;	/* session clock ticks per second */
	uint64_t start_clock;	/* the session clock at its start */
	uint64_t start_time;	/* FILETIME (UTC) at its start */
	uint64_t boot_time;	/* FILETIME of the boot */
	uint32_t logger_pid, logger_tid;
	char name[NTTRACE_NAME_MAX];
};

/*
 * Fill in the times of @s: start_time from @s->start_clock (which must be
 * set, with clock_type and frequency) and the clocks now; boot_time.
 */
void nttrace_etl_times(struct nttrace_etl_session *s);
/* @s for a kernel session (as QUERY reports it), times included. */
void nttrace_etl_from_info(struct nttrace_etl_session *s,
			   const struct nttrace_logger_info *info);
/* The session clock of @clock_type, now, as the kernel reads it. */
uint64_t nttrace_clock_now(uint32_t clock_type);

/*
 * A log file being written. Sequential: buffers are appended; with
 * max_file_mb, those that would pass the limit are not written but
 * counted (@dropped, @dropped_events) and reported (-EFBIG). Circular
 * (EVENT_TRACE_FILE_MODE_CIRCULAR with max_file_mb): the data buffers
 * wrap after buffer 0, keeping the newest. EVENT_TRACE_FILE_MODE_NEWFILE
 * (with max_file_mb, not circular): a new file each time one is full,
 * named by the path with its one %d replaced by 1, 2, ...; each file
 * has its own header; the counts here are all files'.
 * EVENT_TRACE_FILE_MODE_PREALLOCATE (with max_file_mb): the file takes
 * that room on disk from the start and is cut back to what it holds when
 * it is closed. Both need a regular file (else -EINVAL). A buffer that cannot be
 * written (disk full, I/O error) is counted in @failed (its events in
 * @failed_events), its errno kept in @error, and the file is cut back to
 * whole buffers. Both kinds of loss go into the final header's EventsLost
 * and BuffersLost.
 */
struct nttrace_logfile {
	int fd;
	int error;		/* the first error (errno), or 0 */
	struct nttrace_etl_session s;
	char path[256];		/* for the header's LogFileName (truncated) */
	uint64_t slots;		/* circular: data buffers the file holds */
	uint64_t buffers, events, bytes;	/* written (buffer 0 excluded) */
	uint64_t failed, failed_events;	/* could not be written */
	uint64_t dropped, dropped_events;	/* past the maximum size */
};

/*
 * Open @path to write a trace file, or a file made of one, into: created
 * mode 0600, as perf record creates perf.data, for a trace holds other
 * users' command lines, user IDs, image paths and network peers; an
 * existing file is emptied and made 0600 too. A FIFO of the caller's is
 * written as it is, and so is a device (only a privileged user makes
 * one: /dev/null). Refused, nothing written: a symbolic link at @path
 * (-ELOOP; its target is left as it is), a file or FIFO of another user
 * (-EPERM), anything else (-EINVAL, -EISDIR). The descriptor
 * (close-on-exec), or -errno.
 */
int nttrace_trace_file_create(const char *path);

/*
 * Create (or empty) @path as nttrace_trace_file_create() does and write
 * its header buffer; 0 or -errno.
 */
int nttrace_logfile_open(struct nttrace_logfile *lf, const char *path,
			 const struct nttrace_etl_session *s);
/* The same on an open file descriptor (the logfile owns it). */
int nttrace_logfile_init(struct nttrace_logfile *lf, int fd, const char *path,
			 const struct nttrace_etl_session *s);
/* An nttrace_buffer_fn: write one buffer (@ctx is the logfile). */
int nttrace_logfile_buffer(void *ctx, const void *buf, uint32_t size,
			   unsigned int cpu);
/*
 * Rewrite the header buffer with the final EndTime, BuffersWritten,
 * EventsLost (@events_lost plus the events dropped here) and BuffersLost
 * (@buffers_lost plus the buffers not written here), flush and close.
 * 0, or -errno of the first failure.
 */
int nttrace_logfile_close(struct nttrace_logfile *lf, uint64_t events_lost,
			  uint64_t buffers_lost);

/* The header buffer for @s, with these totals, into @buf (buffer_size). */
void nttrace_etl_header(uint8_t *buf, const struct nttrace_etl_session *s,
			const char *path, uint64_t end_time, uint32_t buffers_written,
			uint32_t events_lost, uint32_t buffers_lost);

/* ---- reading (etlread.c) ---- */

/*
 * What a file's header buffer says; @has_header 0 when it has none.
 * @buffer_size is the logger's buffer size (the header's BufferSize, else
 * buffer 0's). @packed: the buffers on disk are not all of that size but
 * each of its own (a compressed file's: each buffer's BufferSize is its
 * size on disk), so they are found one after the other. @ref_clock is
 * the header event's time stamp, the clock at @start_time: every event's
 * FILETIME is @start_time plus its time stamp's distance from it, in the
 * clock of @clock (see nttrace_etl_filetime()).
 */
struct nttrace_etl_info {
	int has_header, packed;
	uint32_t buffer_size, version, provider_version, nr_cpus, pointer_size;
	uint32_t log_file_mode, max_file_mb, buffers_written, events_lost;
	uint32_t buffers_lost, clock, timer_resolution, cpu_mhz;
	uint64_t end_time, boot_time, perf_freq, start_time;	/* FILETIME, Hz */
	uint64_t ref_clock;
	uint64_t file_buffers;	/* buffers in the file, header included */
	char logger_name[NTTRACE_NAME_MAX], log_file_name[256];
};

/*
 * The FILETIME of time stamp @ts, as Windows' consumers compute it from
 * TRACE_LOGFILE_HEADER: StartTime + (@ts - the header event's time stamp)
 * in 100 ns units, the clock's rate by ReservedFlags: QPC PerfFreq ticks a
 * second (also for a clock type Windows does not define, when PerfFreq
 * is set: ours), system time 10^7, CPU cycles CpuSpeedInMHz * 10^6.
 * 0 when the header gives no rate or start, or the sum leaves 64 bits;
 * *@relative (may be NULL) the seconds since StartTime, negative before.
 */
uint64_t nttrace_etl_filetime(const struct nttrace_etl_info *info, uint64_t ts,
			      double *relative);

/* One record, in time order across the CPUs. */
struct nttrace_etl_event {
	uint64_t offset;	/* in the file */
	uint64_t buffer_offset;	/* of the buffer holding it, in the file */
	unsigned int cpu;
	const uint8_t *rec;	/* the record, @size bytes, valid until next */
	const uint8_t *buffer;	/* the buffer holding it, from its header on */
	uint32_t size;
	int message;		/* a MESSAGE_TRACE_HEADER record; else other */
	/*
	 * A full-header (EVENT_TRACE_HEADER) or instance
	 * (EVENT_INSTANCE_GUID_HEADER) record: its header's size, 0x30 or
	 * 0x48, at @rec; 0 for other records. Such a record has its GUID,
	 * time stamp, thread and process IDs below, and the data after the
	 * header; the class and instance fields are read at @rec.
	 */
	uint32_t classic;
	uint16_t number, flags;	/* message number, OptionFlags */
	uint32_t sequence;	/* when flags has TRACE_MESSAGE_SEQUENCE */
	const uint8_t *guid;	/* 16 bytes (GUID) or 4 (component ID), or NULL */
	uint32_t guid_len;
	uint64_t timestamp;	/* its own, or the last of its CPU's stream */
	int has_timestamp;
	uint32_t tid, pid;	/* with TRACE_MESSAGE_SYSTEMINFO, or @classic */
	const uint8_t *data;
	uint32_t data_len;
	uint16_t lost;		/* WMI_BUFFER_FLAG_*_LOST: a loss just before */
	double relative;	/* seconds since the session started */
	uint64_t filetime;	/* UTC, 0 if unknown */
	/*
	 * An EventWrite record (EVENT_HEADER, header type 0x12 or 0x13):
	 * NTTRACE_EVENT_HEADER_SIZE, the size of its header at @rec; 0 for other
	 * records. Such a record has its provider GUID at @guid, its time
	 * stamp, thread and process IDs above, the header's fields below, the
	 * extended items (@ext: @ext_count of them in @ext_len bytes, read
	 * with nttrace_etl_ext_next()), the related activity ID from its item,
	 * and the user data at @data.
	 *
	 * A malformed chain of extended items (an item that runs past the
	 * record, a size that is not its header and data padded to 8 bytes,
	 * a linkage that promises an item where the record ends) is reported
	 * to the problem function at the bad item's offset, and the event is
	 * still delivered: its header is whole, and its time stamp keeps the
	 * merge order. Then @ext_bad is the bad item's offset in @rec, @ext
	 * holds only the items before it, and there is no user data (@data
	 * NULL, @data_len 0): where the data would begin is not known. The
	 * bytes from @ext_bad to @size are left undecoded at @rec.
	 */
	uint32_t event_header;
	uint16_t header_flags;	/* EVENT_HEADER_FLAG_* */
	uint16_t event_property;	/* EVENT_HEADER_PROPERTY_* */
	struct nttrace_event_descriptor descriptor;
	uint64_t processor_time;
	const uint8_t *activity_id;	/* 16 bytes in the header */
	const uint8_t *related_activity_id;	/* 16 bytes in its item, or NULL */
	const uint8_t *ext;	/* the first extended item, or NULL */
	uint32_t ext_len;	/* bytes of well-formed items at @ext */
	unsigned int ext_count;
	uint32_t ext_bad;	/* a malformed item's offset in @rec, or 0 */
	/*
	 * A kernel record (SYSTEM_TRACE_HEADER, full or compact, or
	 * PERFINFO_TRACE_HEADER: header types 1 to 4, 0x10 and 0x11): the
	 * size of its header at @rec, 0x20, 0x18 or 0x10; 0 for other
	 * records. Such a record has its HookId (@hook_id: the group in the
	 * high byte, the type in the low), the version (the marker's low
	 * byte), its time stamp, the thread and process IDs (not a perfinfo
	 * header's: 0), then the items the marker announces before the data:
	 * a PEBS index (bit 15, 8 bytes at @pebs) and @pmc_count PMC counters
	 * (bits 8-10, 8 bytes each at @pmc; this order is inferred), and the
	 * data at @data. A full header's KernelTime and UserTime are read at
	 * @rec.
	 */
	uint32_t system;
	uint16_t hook_id;
	uint8_t version;
	const uint8_t *pebs, *pmc;
	unsigned int pmc_count;
};

/* What a reader has met so far: nothing is dropped without being counted. */
struct nttrace_etl_counts {
	uint64_t records;	/* records returned by nttrace_etl_next() */
	uint64_t records_skipped;	/* records met and not returned: damaged */
	uint64_t buffers_skipped;	/* buffers not read: damaged, unreadable */
	uint64_t bytes_skipped;	/* bytes of records not read in buffers read */
};

/* One extended data item of an EventWrite record. */
struct nttrace_etl_ext {
	uint16_t type;		/* EVENT_HEADER_EXT_TYPE_* */
	uint16_t linkage;	/* as written (bit 0: another item follows) */
	uint32_t offset;	/* of its item header, in the record */
	const uint8_t *data;	/* @data_size bytes */
	uint16_t data_size;
};

/*
 * The extended item of @ev at *@at (start with 0) into @item, *@at moved
 * to the next: 1, or 0 past the last well-formed item. Bounded by @ev's
 * @ext_len: it never reads outside the items the reader checked.
 */
int nttrace_etl_ext_next(const struct nttrace_etl_event *ev, uint32_t *at,
			 struct nttrace_etl_ext *item);

/*
 * What a damaged or hostile file can make the reader do is bounded (these
 * limits are nttrace's choice: Windows' readers document none):
 *
 * NTTRACE_ETL_MAX_PROBLEMS: problems passed to the problem function per
 * reader. Past it they are only counted, and one last report, "N more
 * problems not reported" (at the offset of the first of them), comes when
 * reading ends (nttrace_etl_next() returns 0) or at nttrace_etl_close(),
 * whichever is first.
 *
 * NTTRACE_ETL_MAX_BUFFERS: buffers indexed (24 bytes of index each: 96 MB
 * at most); the rest of a larger file is reported and not
 * read. 4 Mi buffers are 256 GB of 64 KB buffers. The index grows only
 * with the valid buffers found, and holes in a sparse file (SEEK_DATA,
 * SEEK_HOLE) are skipped unread with one report each, so the index and
 * the time to build it follow the bytes the file really holds, not its
 * apparent size. A buffer whose used part (up to its records' end) runs
 * into a hole is skipped, and only the used part of a buffer is held in
 * memory: one per CPU (at most 256 CPUs).
 */
#define NTTRACE_ETL_MAX_PROBLEMS	100
#define NTTRACE_ETL_MAX_BUFFERS		(1U << 22)

/* Told of each problem in the file, with its byte offset; reading goes on. */
typedef void (*nttrace_etl_problem_fn)(void *ctx, uint64_t offset, const char *what);

struct nttrace_etl_reader;

/* Open @path and index its buffers; 0 or -errno (-EINVAL: not ETL). */
int nttrace_etl_open(struct nttrace_etl_reader **r, const char *path,
		     nttrace_etl_problem_fn problem, void *ctx);
/*
 * A reader of buffers that come from elsewhere (a live session's rings),
 * merged and parsed as a file's are: @load puts CPU @cpu's next buffer
 * (@info->buffer_size bytes) at @buf and returns 1, or returns 0 when that
 * CPU has none now. nttrace_etl_next() returning 0 then means "nothing
 * now": it asks @load again at the next call. @info is the session's, as
 * a file's header would say it (@nr_cpus streams).
 */
typedef int (*nttrace_etl_load_fn)(void *ctx, unsigned int cpu, uint8_t *buf);
int nttrace_etl_open_live(struct nttrace_etl_reader **r,
			  const struct nttrace_etl_info *info,
			  nttrace_etl_load_fn load, void *ctx);
const struct nttrace_etl_info *nttrace_etl_info(const struct nttrace_etl_reader *r);
void nttrace_etl_counts(const struct nttrace_etl_reader *r, struct nttrace_etl_counts *c);
/* The next event: 1, or 0 at the end. */
int nttrace_etl_next(struct nttrace_etl_reader *r, struct nttrace_etl_event *ev);
/*
 * The same without a copy: the reader's own event, valid (as its record
 * is) until the next call for @r or nttrace_etl_close(); NULL at the end.
 */
const struct nttrace_etl_event *nttrace_etl_next_ref(struct nttrace_etl_reader *r);
void nttrace_etl_close(struct nttrace_etl_reader *r);

/*
 * The event group of a kernel record's HookId (its high byte): its name
 * and the GUID consumers see as the event's ProviderId (the GUID's
 * layout, and in memory its bytes as a file has them); NULL for a group
 * not known (kernel_events.c).
 */
struct nttrace_kernel_group {
	const char *name;
	struct {
		uint32_t data1;
		uint16_t data2, data3;
		uint8_t data4[8];
	} guid;
};
const struct nttrace_kernel_group *nttrace_kernel_group(uint16_t hook_id);

/* Events in a buffer: walks its records by their Size fields. */
uint32_t nttrace_buffer_events(const void *buf);

/* ---- the payloads of the kernel's events (kernel_classes.c) ---- */

/*
 * How a field of a kernel event is laid out, as the MOF classes of the NT
 * Kernel Logger give it (the data type and the Pointer, Extension and
 * Format qualifiers; kernel_classes.c says where each layout comes from).
 * Little-endian, packed: each field starts where the one before it ends.
 */
enum nttrace_kernel_type {
	NTTRACE_KT_U8 = 1,
	NTTRACE_KT_I8,
	NTTRACE_KT_X8,		/* uint8, shown in hex */
	NTTRACE_KT_U16,
	NTTRACE_KT_I16,
	NTTRACE_KT_X16,
	NTTRACE_KT_U32,
	NTTRACE_KT_I32,
	NTTRACE_KT_X32,
	NTTRACE_KT_U64,
	NTTRACE_KT_I64,
	NTTRACE_KT_X64,
	NTTRACE_KT_POINTER,	/* the Pointer qualifier: 4 or 8 bytes, an address */
	NTTRACE_KT_SIZET,	/* Extension("SizeT"): 4 or 8 bytes, a size */
	NTTRACE_KT_SID,		/* Extension("Sid"): see below */
	NTTRACE_KT_STRING,	/* 8-bit characters up to a NUL */
	NTTRACE_KT_WSTRING,	/* Format("w"): UTF-16LE up to a NUL */
	NTTRACE_KT_WCHARS,	/* char16 with Max(@count): @count UTF-16 units */
	NTTRACE_KT_BYTES,	/* uint8 with Max(@count): @count bytes */
	NTTRACE_KT_GUID,	/* 16 bytes */
	NTTRACE_KT_IPV4,	/* Extension("IPAddrV4"): 4 bytes, p1 first */
	NTTRACE_KT_IPV6,	/* Extension("IPAddrV6"): an IN6_ADDR */
	NTTRACE_KT_PORT,	/* Extension("Port"): 2 bytes, network byte order */
	NTTRACE_KT_WMITIME,	/* Extension("WmiTime"): a 64-bit time stamp */
	NTTRACE_KT_POINTERS,	/* pointers to the end of the payload (a stack) */
};

struct nttrace_kernel_field {
	const char *name;
	uint8_t type;		/* enum nttrace_kernel_type */
	uint8_t flags;		/* NTTRACE_KF_* (in what was padding) */
	uint16_t count;		/* NTTRACE_KT_WCHARS, _BYTES: elements */
};

/*
 * NTTRACE_KF_OPTIONAL: a last field that one release of Windows writes and
 * another, with the same class version, does not (Thread v3's ThreadName,
 * from Windows 10): a payload that ends where it would start ends there,
 * and nothing is cut.
 */
#define NTTRACE_KF_OPTIONAL	0x01

/*
 * The payload of the kernel events of one HookId (@hook_id: the group in
 * the high byte, the opcode in the low) and version: the event's name
 * (group/type, "Process/DCStart"), the MOF class, and its fields in order;
 * @fields NULL when the event is known but not the layout of this version
 * (a later version that is no longer the earlier one with fields added).
 */
struct nttrace_kernel_class {
	uint16_t hook_id;
	uint8_t version;
	const char *event_name;
	const char *class_name;
	const struct nttrace_kernel_field *fields;
	unsigned int nr_fields;
};

/*
 * The class of @hook_id at @version: that version's, else the newest one
 * below it (a later version of a class adds fields at its end, so the
 * earlier layout still reads its start; where it does not, the table
 * says so with @fields NULL); NULL when the table has none at or below.
 */
const struct nttrace_kernel_class *nttrace_kernel_class(uint16_t hook_id, uint8_t version);
/* The same for a classic event that names a kernel group's GUID (16 bytes). */
const struct nttrace_kernel_class *nttrace_kernel_class_by_guid(const void *guid,
								uint8_t opcode,
								uint8_t version);

/*
 * One decoded field: its bytes (@size at @offset in the payload, @data),
 * and its value: @u for integers (signed ones sign-extended), pointers,
 * sizes, a port (in host order), IPv4 (the four bytes as read, little-
 * endian) and a time stamp. For strings and arrays of characters @text is
 * their first unit and @text_size the bytes before the NUL (or the whole
 * array without one); for a SID, @text is the SID (revision, count,
 * authority, subauthorities) and @text_size its length, or @text NULL for
 * the 4-byte zero that stands for no SID; for NTTRACE_KT_POINTERS @u is
 * how many.
 *
 * A SID field is the kernel's TOKEN_USER then the SID: a ULONG that is
 * nonzero when there is a SID, the TOKEN_USER two pointers long, the SID
 * 8 + 4 * SubAuthorityCount bytes after it (Microsoft's "Event Tracing MOF
 * Qualifiers", Extension("Sid")).
 */
struct nttrace_kernel_value {
	const struct nttrace_kernel_field *field;
	uint32_t offset, size;
	const uint8_t *data;
	uint64_t u;
	const uint8_t *text;
	uint32_t text_size;
};

/*
 * Walks a payload (untrusted bytes) field by field by its class: never
 * reads outside @data's @len bytes. nttrace_kernel_decode_next() gives the
 * next field and returns 1, or returns 0 when no field is left (@next ==
 * the class's nr_fields), the class has no layout, or the next field does
 * not fit in what is left of the payload: then @cut is set, and @at is
 * where that field starts. Bytes after the last field (@at < @len without
 * @cut) are a later version's, not described here.
 */
struct nttrace_kernel_decoder {
	const struct nttrace_kernel_class *cls;
	const uint8_t *data;
	uint32_t len, at;
	unsigned int pointer_size;	/* 4 or 8 */
	unsigned int next;		/* the index of the next field */
	int cut;
};

void nttrace_kernel_decode_init(struct nttrace_kernel_decoder *d,
				const struct nttrace_kernel_class *cls,
				const void *data, uint32_t len, unsigned int pointer_size);
int nttrace_kernel_decode_next(struct nttrace_kernel_decoder *d, struct nttrace_kernel_value *v);

#ifdef __cplusplus
}
#endif

#endif /* NTTRACE_ETL_H */
