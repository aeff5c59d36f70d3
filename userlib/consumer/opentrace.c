// SPDX-License-Identifier: LGPL-2.1
/*
 * Consumers of log files and of live sessions: OpenTraceA/W, ProcessTrace,
 * CloseTrace (<nttrace/evntrace.h>), built on the ETL reader (etl/etlread.c:
 * one reader, which parses every record and merges the CPUs in time
 * order), which reads a live session's buffers as it reads a file's.
 *
 * Real time (PROCESS_TRACE_MODE_REAL_TIME, LoggerName the session):
 * OpenTrace attaches to the kernel session as a real-time consumer
 * (NTTRACE_ATTACH_REAL_TIME: see uapi/nttrace.h for what it holds and
 * loses), so events are kept for it from then on, and fills LogfileHeader
 * from the session's properties (ours: Windows connects in ProcessTrace;
 * attaching early means no event written after OpenTrace is missed, and a
 * missing session is reported by OpenTrace). ProcessTrace then delivers
 * events as their buffers are published (when full, at the session's
 * flush timer, at a flush, at its stop), copying each buffer once out of
 * the mapping; the CPUs' buffers at hand are merged in time order. It
 * returns ERROR_SUCCESS when the session stops and all is delivered, or
 * when CloseTrace is called (from a callback, or from another thread: it
 * wakes ProcessTrace at once). No header event is delivered for a session
 * (ours: there is no file header); EVENT_TRACE_LOGFILE.EventsLost and
 * LogfileHeader.EventsLost/BuffersLost count what this consumer lost: the
 * session's events_lost (full rings) and overwritten events, and the
 * buffers the kernel took from it, updated before each BufferCallback.
 *
 * How each record of a file becomes an EVENT_RECORD (and, for the older
 * EventCallback, an EVENT_TRACE), as Microsoft documents the fields and
 * as Windows is publicly known to present them; where neither says, the
 * choice is marked (ours):
 *
 * Every record: BufferContext.ProcessorIndex is the CPU of its buffer
 * (the whole number: EVENT_HEADER_FLAG_PROCESSOR_INDEX set, so
 * ProcessorNumber is its low 8 bits) and LoggerId the buffer header's;
 * UserContext is EVENT_TRACE_LOGFILE.Context; TimeStamp is FILETIME (UTC,
 * converted with the file's clock as below, 0 when the reader cannot date
 * it) or, with PROCESS_TRACE_MODE_RAW_TIMESTAMP, the clock value as
 * written (its clock in LogfileHeader.ReservedFlags). EventHeader.Size is
 * the record's size in the file (ours, for the records that are not
 * EVENT_HEADER records).
 *
 * - The header event (buffer 0), first, for each file: ProviderId
 *   EventTraceGuid, EVENT_HEADER_FLAG_CLASSIC_HEADER and the 32/64-bit
 *   flag of the file's PointerSize, Opcode EVENT_TRACE_TYPE_INFO, Version
 *   2 (the version of the EventTrace_Header class Windows writes), its
 *   thread and process IDs, TimeStamp the session's StartTime (raw: the
 *   start clock it carries), and as UserData the TRACE_LOGFILE_HEADER as
 *   the file has it (the writer's pointer size: read it with PointerSize)
 *   followed by the session and file names.
 * - EVENT_HEADER records (EventWrite): the header as written (flags,
 *   descriptor, IDs, ActivityId, ProcessorTime), but HeaderType 0 and the
 *   32/64-bit flag of the record's header type (EVENT_HEADER32 or
 *   EVENT_HEADER64), as Windows' ProcessTrace gives them; ExtendedData from the
 *   extended items in order (ExtType, DataSize, DataPtr to the item's
 *   data, Linkage set on all but the last), EXTENDED_INFO set exactly
 *   when there is one, and UserData after the items. A record whose item
 *   chain is malformed comes with the items before the bad one and no
 *   user data (the reader cannot tell where it begins).
 * - Message (TraceMessage, WPP) records: EVENT_HEADER_FLAG_TRACE_MESSAGE,
 *   ProviderId the message GUID (with TRACE_MESSAGE_COMPONENTID: the
 *   component ID in Data1, the rest 0 (ours)), EventDescriptor.Id the
 *   MessageNumber (the rest of the descriptor 0), ThreadId and ProcessId
 *   from the SYSTEMINFO item (else 0, ours), TimeStamp from its item (else
 *   that of the CPU's event before it), EVENT_HEADER_FLAG_NO_CPUTIME and
 *   the 32/64-bit flag of the record's TRACE_MESSAGE_POINTER32/64 (else
 *   the file's), UserData
 *   the arguments' bytes after the items. The sequence number
 *   (TRACE_MESSAGE_SEQUENCE) has no field in EVENT_RECORD and is not
 *   passed on.
 * - Classic full-header (TraceEvent) and instance (TraceEventInstance)
 *   records: EVENT_HEADER_FLAG_CLASSIC_HEADER and the 32/64-bit flag of the
 *   header type, ProviderId the event's GUID, Opcode Class.Type, Level
 *   Class.Level, Version the low 8 bits of Class.Version (the 16 bits are
 *   in EVENT_TRACE), KernelTime and UserTime as written, UserData after the
 *   header; an instance record has one extended item,
 *   EVENT_HEADER_EXT_TYPE_INSTANCE_INFO (EVENT_EXTENDED_ITEM_INSTANCE:
 *   InstanceId, ParentInstanceId, ParentGuid).
 * - The kernel's records (SYSTEM_TRACE_HEADER full or compact,
 *   PERFINFO_TRACE_HEADER: Windows' NT Kernel Logger's): as Windows
 *   presents them, EVENT_HEADER_FLAG_CLASSIC_HEADER and the 32/64-bit
 *   flag of the header type, ProviderId the GUID of the HookId's group
 *   (nttrace_kernel_group(); a group not known: the null GUID), Opcode
 *   the HookId's type, Version the marker's version, the thread and
 *   process IDs of a system header (a perfinfo header has none: both
 *   0xFFFFFFFF, NO_ID below), a full header's KernelTime and UserTime (else
 *   EVENT_HEADER_FLAG_NO_CPUTIME), the PEBS index and the PMC counters as
 *   extended items (EVENT_HEADER_EXT_TYPE_PEBS_INDEX, _PMC_COUNTERS, in
 *   that order), UserData after them.
 * - Records of other header types (TIMED, ERROR, WNODE_HEADER, ...) are
 *   not delivered: counted (nttrace_trace_counts()) and told to the
 *   problem function, as a damaged record is.
 *
 * TimeStamp, for every record of a file: FILETIME as Windows' consumers
 * compute it from TRACE_LOGFILE_HEADER (nttrace_etl_filetime(): StartTime
 * plus the distance from the header event's time stamp, at PerfFreq,
 * 10^7 or CpuSpeedInMHz by ReservedFlags' clock), which StartTime and
 * EndTime of ProcessTrace select by; with PROCESS_TRACE_MODE_RAW_TIMESTAMP
 * the value as written.
 *
 * EventCallback (without PROCESS_TRACE_MODE_EVENT_RECORD) gets every
 * record as an EVENT_TRACE made from that EVENT_RECORD: Header.Guid the
 * ProviderId, Class.Type/Level the Opcode/Level, Class.Version the whole
 * 16-bit version of a classic record (else the descriptor's Version),
 * HeaderType and MarkerFlags as a classic record has them (else 0),
 * Header.Size 0x30 plus the data, the instance fields from the
 * INSTANCE_INFO item, MofData/MofLength the UserData.
 *
 * A 32-bit consumer reads a 64-bit file and the other way round: records
 * are read at their byte offsets (the reader) and the header event's data
 * keeps the file's layout, while LogfileHeader has the caller's.
 *
 * Handles are slots of one table, with a generation in the high 32 bits
 * so that a closed handle stays invalid; they are never 0 nor
 * INVALID_PROCESSTRACE_HANDLE. A lock guards the table (OpenTrace,
 * CloseTrace and ProcessTrace may run on several threads); callbacks run
 * without it, so that they may call CloseTrace.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nttrace/consumer.h>
#include <nttrace/etl.h>
#include <nttrace/nt.h>
#include <nttrace/session.h>
#include <nttrace/evntrace.h>
#include <nttrace/evntcons.h>
#include "../nt/nt_internal.h"

const GUID EventTraceGuid = EVENT_TRACE_GUID_INIT;

#define MAX_HANDLES		1024	/* ours: open processing handles */
#define MAX_PROCESS		64	/* handles per ProcessTrace (Windows') */
#define HEADER_EVENT_VERSION	2
/*
 * The thread and process IDs of an event whose header has none (a
 * perfinfo record): all ones, as Windows' ProcessTrace gives them
 * (PerfView shows such events of Windows-written files with TID -1 and,
 * where it does not take the process from the payload, PID -1).
 */
#define NO_ID			0xFFFFFFFFU

/* The buffer a stream's events come from, for BufferCallback. */
struct cpu_buf {
	uint64_t offset;
	uint32_t filled;
	uint16_t logger_id;	/* the buffer header's, read once a buffer */
	int have;
};

struct consumer {
	TRACEHANDLE handle;
	int wide;		/* @lf is an EVENT_TRACE_LOGFILEW */
	void *lf;
	char *path;		/* a file's path, or a live session's name */
	int live;		/* a real-time session: @rc, @wake */
	struct nttrace_consumer *rc;	/* NULL until attached */
	int wake;		/* eventfd: CloseTrace wakes ProcessTrace */
	nttrace_etl_problem_fn problem;	/* nttrace_trace_problems() */
	void *problem_ctx;
	struct nttrace_etl_reader *r;
	int used;		/* @r was read by a ProcessTrace: reopen it */
	int busy;		/* in a ProcessTrace */
	int closing;		/* CloseTrace during it (atomic) */
	struct nttrace_etl_info info;
	uint8_t *hdr;		/* the header event record, @hdr_len bytes */
	uint32_t hdr_len, hdr_filled;
	uint16_t hdr_logger_id;
	WCHAR *logger_name, *file_name;
	EVENT_TRACE hdr_trace;	/* CurrentEvent's source */
	/* During ProcessTrace: */
	const struct nttrace_etl_event *ev;	/* the reader's, while @have */
	int have, done;
	struct cpu_buf *cpus;
	unsigned int ncpus;
	EVENT_HEADER_EXTENDED_DATA_ITEM *items;
	unsigned int items_cap;
	uint64_t delivered, undelivered;	/* by this ProcessTrace */
	EVENT_EXTENDED_ITEM_INSTANCE inst;
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct consumer *table[MAX_HANDLES];
static uint32_t generation;

/* The fields both EVENT_TRACE_LOGFILE flavours have at the same place. */
#define LF(c, field) \
	(*((c)->wide ? &((PEVENT_TRACE_LOGFILEW)(c)->lf)->field : \
		       &((PEVENT_TRACE_LOGFILEA)(c)->lf)->field))

static inline uint64_t get(const uint8_t *p, int bytes)
{
	return nttrace_get_le(p, bytes);
}

/* The fields of a buffer's header (WMI_BUFFER_HEADER) that ProcessTrace reports. */
static uint32_t header_filled(const uint8_t *buf)
{
	return get(buf + offsetof(struct nttrace_wmi_buffer_header, saved_offset), 4);
}

static uint16_t header_logger_id(const uint8_t *buf)
{
	return get(buf + offsetof(struct nttrace_wmi_buffer_header, logger_id), 2);
}

static ULONG fail_handle(ULONG err)
{
	SetLastError(err);
	return err;
}

static uint32_t open_error(int err)
{
	switch (err) {
	case -ENOENT: return ERROR_FILE_NOT_FOUND;
	case -ENOTDIR: return ERROR_PATH_NOT_FOUND;
	case -EACCES: case -EPERM: case -EISDIR: return ERROR_ACCESS_DENIED;
	case -ENAMETOOLONG: case -ELOOP: return ERROR_BAD_PATHNAME;
	case -ENOMEM: return ERROR_NOT_ENOUGH_MEMORY;
	/* What CreateFile says when the process or system has no handle left. */
	case -EMFILE: case -ENFILE: return ERROR_TOO_MANY_OPEN_FILES;
	default: return ERROR_FILE_CORRUPT;	/* -EINVAL: not ETL */
	}
}

/* UTF-16 @w to a new UTF-8 string; NULL if not valid UTF-16 or no memory. */
static char *utf16_to_utf8(const WCHAR *w, int *nomem)
{
	size_t n = 0, o = 0, i;
	char *s;

	while (w[n])
		n++;
	s = malloc(3 * n + 1);	/* a pair (4 bytes) is two units */
	if (!s) {
		*nomem = 1;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		uint32_t c = w[i];

		if (c >= 0xD800 && c < 0xDC00) {
			if (i + 1 >= n || w[i + 1] < 0xDC00 || w[i + 1] > 0xDFFF)
				goto bad;
			c = 0x10000 + ((c - 0xD800) << 10) + (w[++i] - 0xDC00);
		} else if (c >= 0xDC00 && c <= 0xDFFF) {
			goto bad;
		}
		o += nttrace_utf8_put(s + o, c);
	}
	s[o] = 0;
	return s;
bad:
	free(s);
	return NULL;
}

/* The UTF-16LE string at @p (at most @room bytes) as a new WCHAR string. */
static WCHAR *copy_name(const uint8_t *p, uint32_t room, uint32_t *used)
{
	uint32_t n = 0;
	WCHAR *w;

	while (2 * n + 2 <= room && get(p + 2 * n, 2))
		n++;
	*used = 2 * n + 2 <= room ? 2 * n + 2 : 2 * n;
	w = calloc(n + 1, sizeof(*w));
	if (w) {
		uint32_t i;

		for (i = 0; i < n; i++)
			w[i] = get(p + 2 * i, 2);
	}
	return w;
}

static void free_consumer(struct consumer *c)
{
	if (!c)
		return;
	nttrace_etl_close(c->r);
	if (c->live) {
		nttrace_consumer_close(c->rc);
		if (c->wake >= 0)
			close(c->wake);
	}
	free(c->path);
	free(c->hdr);
	free(c->logger_name);
	free(c->file_name);
	free(c->cpus);
	free(c->items);
	free(c);
}

/*
 * The header event, as the file has it, into @c: the reader checked that
 * buffer 0 holds one; it is read again here for its raw bytes (the reader
 * keeps only their values) and checked the same way, the file may have
 * changed since.
 */
static uint32_t take_header_event(struct consumer *c, const uint8_t *b, uint32_t size);

static uint32_t read_header_event(struct consumer *c)
{
	uint32_t size = c->info.buffer_size, err;
	uint8_t *b = malloc(size);
	ssize_t got;
	int fd;

	if (!b)
		return ERROR_NOT_ENOUGH_MEMORY;
	fd = open(c->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		/* The reader's open worked: this one may lack a descriptor. */
		uint32_t err = open_error(-errno);

		free(b);
		return err;
	}
	/* A packed file's buffer 0 is shorter than its buffers: its own size. */
	got = pread(fd, b, size, 0);
	close(fd);
	if (got < NTTRACE_WMI_BUFFER_HEADER_SIZE || get(b, 4) > (uint64_t)got) {
		free(b);
		return ERROR_FILE_CORRUPT;
	}
	err = take_header_event(c, b, get(b, 4));
	free(b);
	return err;
}

/* The header event of header buffer @b (@size bytes) into @c, checked. */
static uint32_t take_header_event(struct consumer *c, const uint8_t *b, uint32_t size)
{
	const uint8_t *rec, *lf;
	uint32_t len, psz, used;

	rec = b + NTTRACE_WMI_BUFFER_HEADER_SIZE;
	lf = rec + NTTRACE_ETL_SYSTEM_HEADER_SIZE;
	len = get(rec + 4, 2);
	psz = get(lf + NTTRACE_ETL_LF_POINTER_SIZE, 4);
	if ((get(rec, 4) != NTTRACE_ETL_SYSTEM_HEADER_MARKER &&
	     get(rec, 4) != NTTRACE_ETL_SYSTEM_HEADER_MARKER32) || get(rec + 6, 2) ||
	    (psz != 4 && psz != 8) ||
	    len < NTTRACE_ETL_SYSTEM_HEADER_SIZE + NTTRACE_ETL_LF_SIZE(psz) ||
	    NTTRACE_WMI_BUFFER_HEADER_SIZE + len > size)
		return ERROR_FILE_CORRUPT;
	c->hdr = malloc(len);
	if (!c->hdr)
		return ERROR_NOT_ENOUGH_MEMORY;
	memcpy(c->hdr, rec, len);
	c->hdr_len = len;
	c->hdr_filled = header_filled(b);
	c->hdr_logger_id = header_logger_id(b);
	lf = c->hdr + NTTRACE_ETL_SYSTEM_HEADER_SIZE;
	len -= NTTRACE_ETL_SYSTEM_HEADER_SIZE + NTTRACE_ETL_LF_SIZE(psz);
	c->logger_name = copy_name(lf + NTTRACE_ETL_LF_SIZE(psz), len, &used);
	c->file_name = copy_name(lf + NTTRACE_ETL_LF_SIZE(psz) + used, len - used, &used);
	if (!c->logger_name || !c->file_name)
		return ERROR_NOT_ENOUGH_MEMORY;
	return ERROR_SUCCESS;
}

/* TRACE_LOGFILE_HEADER in the caller's layout, from the file's. */
static void fill_logfile_header(struct consumer *c, TRACE_LOGFILE_HEADER *h)
{
	const uint8_t *lf = c->hdr + NTTRACE_ETL_SYSTEM_HEADER_SIZE;
	uint32_t psz = get(lf + NTTRACE_ETL_LF_POINTER_SIZE, 4);

	memset(h, 0, sizeof(*h));
	h->BufferSize = get(lf + NTTRACE_ETL_LF_BUFFER_SIZE, 4);
	h->Version = get(lf + NTTRACE_ETL_LF_VERSION, 4);
	h->ProviderVersion = get(lf + NTTRACE_ETL_LF_PROVIDER_VERSION, 4);
	h->NumberOfProcessors = get(lf + NTTRACE_ETL_LF_NUMBER_OF_PROCESSORS, 4);
	h->EndTime.QuadPart = get(lf + NTTRACE_ETL_LF_END_TIME, 8);
	h->TimerResolution = get(lf + NTTRACE_ETL_LF_TIMER_RESOLUTION, 4);
	h->MaximumFileSize = get(lf + NTTRACE_ETL_LF_MAXIMUM_FILE_SIZE, 4);
	h->LogFileMode = get(lf + NTTRACE_ETL_LF_LOG_FILE_MODE, 4);
	h->BuffersWritten = get(lf + NTTRACE_ETL_LF_BUFFERS_WRITTEN, 4);
	h->StartBuffers = get(lf + NTTRACE_ETL_LF_START_BUFFERS, 4);
	h->PointerSize = psz;
	h->EventsLost = get(lf + NTTRACE_ETL_LF_EVENTS_LOST, 4);
	h->CpuSpeedInMHz = get(lf + NTTRACE_ETL_LF_CPU_SPEED, 4);
	h->LoggerName = c->logger_name;
	h->LogFileName = c->file_name;
	/* Little-endian fields in the file, and in the struct on our targets. */
	memcpy(&h->TimeZone, lf + NTTRACE_ETL_LF_TIME_ZONE(psz), NTTRACE_ETL_TIME_ZONE_SIZE);
	h->BootTime.QuadPart = get(lf + NTTRACE_ETL_LF_BOOT_TIME(psz), 8);
	h->PerfFreq.QuadPart = get(lf + NTTRACE_ETL_LF_PERF_FREQ(psz), 8);
	h->StartTime.QuadPart = get(lf + NTTRACE_ETL_LF_START_TIME(psz), 8);
	h->ReservedFlags = get(lf + NTTRACE_ETL_LF_RESERVED_FLAGS(psz), 4);
	h->BuffersLost = get(lf + NTTRACE_ETL_LF_BUFFERS_LOST(psz), 4);
}

/* ---- records to EVENT_RECORD and EVENT_TRACE ---- */

static int raw_time(const struct consumer *c)
{
	return !!(LF(c, ProcessTraceMode) & PROCESS_TRACE_MODE_RAW_TIMESTAMP);
}

static USHORT bits_flag(uint32_t pointer_size)
{
	return pointer_size == 4 ? EVENT_HEADER_FLAG_32_BIT_HEADER :
				   EVENT_HEADER_FLAG_64_BIT_HEADER;
}

static void header_record(struct consumer *c, EVENT_RECORD *er)
{
	const uint8_t *h = c->hdr;
	EVENT_HEADER *eh = &er->EventHeader;

	memset(er, 0, sizeof(*er));
	eh->Size = c->hdr_len;
	eh->Flags = EVENT_HEADER_FLAG_CLASSIC_HEADER | EVENT_HEADER_FLAG_PROCESSOR_INDEX |
		    bits_flag(c->info.pointer_size);
	eh->ThreadId = get(h + 0x08, 4);
	eh->ProcessId = get(h + 0x0C, 4);
	eh->TimeStamp.QuadPart = raw_time(c) ? get(h + 0x10, 8) : c->info.start_time;
	eh->ProviderId = EventTraceGuid;
	eh->EventDescriptor.Opcode = EVENT_TRACE_TYPE_INFO;
	eh->EventDescriptor.Version = HEADER_EVENT_VERSION;
	eh->KernelTime = get(h + 0x18, 4);
	eh->UserTime = get(h + 0x1C, 4);
	er->BufferContext.LoggerId = c->hdr_logger_id;
	er->UserData = c->hdr + NTTRACE_ETL_SYSTEM_HEADER_SIZE;
	er->UserDataLength = c->hdr_len - NTTRACE_ETL_SYSTEM_HEADER_SIZE;
	er->UserContext = LF(c, Context);
}

/* Item @n of @c's items: @size bytes of @type at @data, another after it. */
static void add_item(struct consumer *c, unsigned int n, USHORT type, const void *data,
		     USHORT size)
{
	EVENT_HEADER_EXTENDED_DATA_ITEM *it = &c->items[n];

	memset(it, 0, sizeof(*it));
	it->ExtType = type;
	it->Linkage = 1;
	it->DataSize = size;
	it->DataPtr = (ULONGLONG)(uintptr_t)data;
}

/* The pointer size of a kernel record's header type. */
static uint32_t system_bits(uint8_t header_type)
{
	return header_type == NTTRACE_TRACE_HEADER_TYPE_SYSTEM32 ||
	       header_type == NTTRACE_TRACE_HEADER_TYPE_COMPACT32 ||
	       header_type == NTTRACE_TRACE_HEADER_TYPE_PERFINFO32 ? 4 : 8;
}

static int grow_items(struct consumer *c, unsigned int n)
{
	EVENT_HEADER_EXTENDED_DATA_ITEM *v;

	if (n <= c->items_cap)
		return 0;
	v = realloc(c->items, n * sizeof(*v));
	if (!v)
		return -1;
	c->items = v;
	c->items_cap = n;
	return 0;
}

/*
 * The logger ID in the header of @ev's buffer: as track_buffer() kept it
 * when the buffer came. Read again for each event, the header would be a
 * cache miss each time when many CPUs' streams take turns.
 */
static uint16_t buffer_logger_id(const struct consumer *c, const struct nttrace_etl_event *ev)
{
	const struct cpu_buf *b = ev->cpu < c->ncpus ? &c->cpus[ev->cpu] : NULL;

	if (b && b->have && b->offset == ev->buffer_offset)
		return b->logger_id;
	return header_logger_id(ev->buffer);
}

/* @ev as an EVENT_RECORD in @er; 0, or -1 when it is not delivered. */
static int event_record(struct consumer *c, const struct nttrace_etl_event *ev, EVENT_RECORD *er)
{
	EVENT_HEADER *eh = &er->EventHeader;
	const uint8_t *p = ev->rec;

	/*
	 * What follows the header is zeroed here, the header in each branch
	 * that does not copy it whole: one memset() of the whole record is a
	 * `rep stos` (gcc's choice at this size), slow to start for every
	 * event.
	 */
	memset(&er->BufferContext, 0, sizeof(*er) - offsetof(EVENT_RECORD, BufferContext));
	if (ev->event_header) {
		struct nttrace_etl_ext item;
		uint32_t at = 0;
		unsigned int n = 0;

		/*
		 * EVENT_HEADER's layout is the record's (little-endian), but
		 * for two fields ProcessTrace rewrites: HeaderType, which on
		 * disk holds the record's type and marker (0xC012, 0xC013),
		 * is 0, and the pointer size comes from that type as a 32- or
		 * 64-bit header flag (Windows' reader gives Flags 0x240 and
		 * HeaderType 0 for a kernel provider's record written with
		 * flags 0).
		 */
		memcpy(eh, p, NTTRACE_EVENT_HEADER_SIZE);
		eh->HeaderType = 0;
		eh->Flags &= ~(EVENT_HEADER_FLAG_EXTENDED_INFO | EVENT_HEADER_FLAG_32_BIT_HEADER |
			       EVENT_HEADER_FLAG_64_BIT_HEADER);
		eh->Flags |= bits_flag(p[2] == NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER32 ? 4 : 8);
		if (ev->ext_count && grow_items(c, ev->ext_count))
			return -1;
		while (n < ev->ext_count && nttrace_etl_ext_next(ev, &at, &item))
			add_item(c, n++, item.type, item.data, item.data_size);
		if (n) {
			c->items[n - 1].Linkage = 0;
			eh->Flags |= EVENT_HEADER_FLAG_EXTENDED_INFO;
			er->ExtendedData = c->items;
			er->ExtendedDataCount = n;
		}
	} else if (ev->classic) {
		memset(eh, 0, sizeof(*eh));
		eh->Flags = EVENT_HEADER_FLAG_CLASSIC_HEADER |
			    bits_flag(p[2] == NTTRACE_TRACE_HEADER_TYPE_FULL_HEADER32 ||
				      p[2] == NTTRACE_TRACE_HEADER_TYPE_INSTANCE32 ? 4 : 8);
		memcpy(&eh->ProviderId, ev->guid, 16);
		eh->EventDescriptor.Opcode = p[4];
		eh->EventDescriptor.Level = p[5];
		eh->EventDescriptor.Version = p[6];
		eh->KernelTime = get(p + 0x28, 4);
		eh->UserTime = get(p + 0x2C, 4);
		if (ev->classic == NTTRACE_EVENT_INSTANCE_GUID_HEADER_SIZE) {
			if (grow_items(c, 1))
				return -1;
			c->inst.InstanceId = get(p + 0x30, 4);
			c->inst.ParentInstanceId = get(p + 0x34, 4);
			memcpy(&c->inst.ParentGuid, p + 0x38, 16);
			add_item(c, 0, EVENT_HEADER_EXT_TYPE_INSTANCE_INFO, &c->inst,
				 sizeof(c->inst));
			c->items[0].Linkage = 0;
			eh->Flags |= EVENT_HEADER_FLAG_EXTENDED_INFO;
			er->ExtendedData = c->items;
			er->ExtendedDataCount = 1;
		}
	} else if (ev->system) {
		const struct nttrace_kernel_group *g = nttrace_kernel_group(ev->hook_id);
		unsigned int n = 0;

		memset(eh, 0, sizeof(*eh));
		eh->Flags = EVENT_HEADER_FLAG_CLASSIC_HEADER | bits_flag(system_bits(p[2]));
		if (g)
			memcpy(&eh->ProviderId, &g->guid, 16);
		eh->EventDescriptor.Opcode = ev->hook_id & 0xFF;
		eh->EventDescriptor.Version = ev->version;
		if (ev->system == NTTRACE_ETL_SYSTEM_HEADER_SIZE) {
			eh->KernelTime = get(p + 0x18, 4);
			eh->UserTime = get(p + 0x1C, 4);
		} else {
			eh->Flags |= EVENT_HEADER_FLAG_NO_CPUTIME;
		}
		if (grow_items(c, 2))
			return -1;
		if (ev->pebs)
			add_item(c, n++, EVENT_HEADER_EXT_TYPE_PEBS_INDEX, ev->pebs, 8);
		if (ev->pmc)
			add_item(c, n++, EVENT_HEADER_EXT_TYPE_PMC_COUNTERS, ev->pmc,
				 8 * ev->pmc_count);
		if (n) {
			c->items[n - 1].Linkage = 0;
			eh->Flags |= EVENT_HEADER_FLAG_EXTENDED_INFO;
			er->ExtendedData = c->items;
			er->ExtendedDataCount = n;
		}
	} else if (ev->message) {
		/* The writer's pointer size, as the record says it, else the file's. */
		uint32_t psz = ev->flags & TRACE_MESSAGE_POINTER32 ? 4 :
			       ev->flags & TRACE_MESSAGE_POINTER64 ? 8 : c->info.pointer_size;

		memset(eh, 0, sizeof(*eh));
		eh->Flags = EVENT_HEADER_FLAG_TRACE_MESSAGE | EVENT_HEADER_FLAG_NO_CPUTIME |
			    bits_flag(psz);
		if (ev->guid_len == 16)
			memcpy(&eh->ProviderId, ev->guid, 16);
		else if (ev->guid_len == 4)
			eh->ProviderId.Data1 = get(ev->guid, 4);
		eh->EventDescriptor.Id = ev->number;
	} else {
		return -1;
	}
	eh->Size = ev->size;
	eh->Flags |= EVENT_HEADER_FLAG_PROCESSOR_INDEX;
	eh->ThreadId = ev->tid;
	eh->ProcessId = ev->pid;
	if (ev->system == NTTRACE_ETL_PERFINFO_HEADER_SIZE)
		eh->ThreadId = eh->ProcessId = NO_ID;
	eh->TimeStamp.QuadPart = raw_time(c) ? ev->timestamp : ev->filetime;
	er->BufferContext.ProcessorIndex = ev->cpu;
	er->BufferContext.LoggerId = buffer_logger_id(c, ev);
	er->UserData = (PVOID)ev->data;
	er->UserDataLength = ev->data ? ev->data_len : 0;
	er->UserContext = LF(c, Context);
	return 0;
}

/* The EVENT_TRACE for @er, made from the record @ev (NULL: the header event). */
static void event_trace(const EVENT_RECORD *er, const struct nttrace_etl_event *ev,
			EVENT_TRACE *et)
{
	const EVENT_HEADER *eh = &er->EventHeader;
	uint32_t size = sizeof(EVENT_TRACE_HEADER) + er->UserDataLength;
	USHORT i;

	memset(et, 0, sizeof(*et));
	et->Header.Size = size > 0xFFFF ? 0xFFFF : size;
	et->Header.Class.Type = eh->EventDescriptor.Opcode;
	et->Header.Class.Level = eh->EventDescriptor.Level;
	et->Header.Class.Version = eh->EventDescriptor.Version;
	if (ev && (ev->classic || ev->system)) {
		et->Header.HeaderType = ev->rec[2];
		et->Header.MarkerFlags = ev->rec[3];
		/* A classic record's whole 16-bit version. */
		if (ev->classic)
			et->Header.Class.Version = get(ev->rec + 6, 2);
	}
	et->Header.ThreadId = eh->ThreadId;
	et->Header.ProcessId = eh->ProcessId;
	et->Header.TimeStamp = eh->TimeStamp;
	et->Header.Guid = eh->ProviderId;
	et->Header.KernelTime = eh->KernelTime;
	et->Header.UserTime = eh->UserTime;
	for (i = 0; i < er->ExtendedDataCount; i++) {
		const EVENT_HEADER_EXTENDED_DATA_ITEM *it = &er->ExtendedData[i];
		const EVENT_EXTENDED_ITEM_INSTANCE *in;

		if (it->ExtType != EVENT_HEADER_EXT_TYPE_INSTANCE_INFO ||
		    it->DataSize < sizeof(*in))
			continue;
		in = (const void *)(uintptr_t)it->DataPtr;
		et->InstanceId = in->InstanceId;
		et->ParentInstanceId = in->ParentInstanceId;
		et->ParentGuid = in->ParentGuid;
	}
	et->MofData = er->UserData;
	et->MofLength = er->UserDataLength;
	et->BufferContext = er->BufferContext;
}

/* ---- the handle table ---- */

static struct consumer *lookup(TRACEHANDLE h)
{
	uint32_t slot = (uint32_t)h - 1;

	if (slot >= MAX_HANDLES || !table[slot] || table[slot]->handle != h)
		return NULL;
	return table[slot];
}

/* A slot for @c: its handle, or 0 when the table is full. */
static TRACEHANDLE insert(struct consumer *c)
{
	uint32_t i;

	pthread_mutex_lock(&table_lock);
	for (i = 0; i < MAX_HANDLES; i++) {
		if (!table[i]) {
			/* Never 0 nor all ones in either half: see the top. */
			if (++generation >= 0x7FFFFFFF)
				generation = 1;
			c->handle = (uint64_t)generation << 32 | (i + 1);
			table[i] = c;
			break;
		}
	}
	pthread_mutex_unlock(&table_lock);
	return i < MAX_HANDLES ? c->handle : 0;
}

/* ---- OpenTrace ---- */

/* A live stream's next buffer (nttrace_etl_load_fn). */
static int load_live(void *ctx, unsigned int cpu, uint8_t *buf)
{
	struct consumer *c = ctx;

	return nttrace_consumer_take(c->rc, cpu, buf) > 0;
}

/*
 * Attach @c to the running session named @c->path as a real-time
 * consumer; its header, as a file of it would have it, gives LogfileHeader.
 */
static uint32_t open_live(struct consumer *c)
{
	struct nttrace_logger_info info;
	struct nttrace_etl_session sess;
	struct nttrace_etl_info ri;
	uint8_t *b;
	uint32_t err;
	int ret;

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	if (nttrace_set_name(&info, c->path))
		return ERROR_WMI_INSTANCE_NOT_FOUND;	/* no session has it */
	ret = nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY);
	if (!ret)
		ret = nttrace_consumer_attach(&c->rc, info.logger_id,
					      NTTRACE_ATTACH_REAL_TIME);
	if (ret)
		return nttrace_errno_to_win32(ret);
	c->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (c->wake < 0)
		return ERROR_NO_SYSTEM_RESOURCES;

	nttrace_etl_from_info(&sess, &info);
	b = calloc(1, sess.buffer_size);
	if (!b)
		return ERROR_NOT_ENOUGH_MEMORY;
	nttrace_etl_header(b, &sess, "", 0, 0, 0, 0);
	err = take_header_event(c, b, sess.buffer_size);
	free(b);
	if (err)
		return err;
	memset(&ri, 0, sizeof(ri));
	ri.has_header = 1;
	ri.buffer_size = sess.buffer_size;
	ri.nr_cpus = sess.nr_cpus;
	ri.pointer_size = sess.pointer_size;
	ri.log_file_mode = sess.log_file_mode;
	/* ETL_CLOCK_* and EVENT_TRACE_CLOCK_* share their values. */
	ri.clock = sess.clock_type;
	ri.perf_freq = sess.frequency;
	ri.start_time = sess.start_time;
	ri.ref_clock = sess.start_clock;
	/* A cycle clock's rate, as the header has it (nttrace_etl_filetime()). */
	ri.cpu_mhz = get(c->hdr + NTTRACE_ETL_SYSTEM_HEADER_SIZE + NTTRACE_ETL_LF_CPU_SPEED, 4);
	ri.boot_time = sess.boot_time;
	ret = nttrace_etl_open_live(&c->r, &ri, load_live, c);
	if (ret) {
		c->r = NULL;
		return nttrace_errno_to_win32(ret);
	}
	c->info = ri;
	return ERROR_SUCCESS;
}

/*
 * @path is LogFileName, or with PROCESS_TRACE_MODE_REAL_TIME LoggerName
 * (the session), as UTF-8.
 */
static TRACEHANDLE open_trace(void *logfile, int wide, char *path, ULONG mode, int nomem)
{
	struct consumer *c = NULL;
	struct stat st;
	TRACEHANDLE h;
	uint32_t err;
	int ret;

	if (nomem) {
		err = ERROR_NOT_ENOUGH_MEMORY;
		goto fail;
	}
	if (!path || !*path) {
		err = mode & PROCESS_TRACE_MODE_REAL_TIME ? ERROR_INVALID_PARAMETER :
							    ERROR_BAD_PATHNAME;
		goto fail;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		err = ERROR_NOT_ENOUGH_MEMORY;
		goto fail;
	}
	c->wide = wide;
	c->lf = logfile;
	c->path = path;
	path = NULL;
	if (mode & PROCESS_TRACE_MODE_REAL_TIME) {
		c->live = 1;
		c->wake = -1;
		err = open_live(c);
		if (err)
			goto fail;
		goto opened;
	}
	/* A directory is no file to read (Windows: access denied). */
	if (!stat(c->path, &st) && S_ISDIR(st.st_mode)) {
		err = ERROR_ACCESS_DENIED;
		goto fail;
	}
	ret = nttrace_etl_open(&c->r, c->path, NULL, NULL);
	if (ret) {
		c->r = NULL;
		err = open_error(ret);
		goto fail;
	}
	c->info = *nttrace_etl_info(c->r);
	/* A file without its header event is not one Windows would open. */
	if (!c->info.has_header) {
		err = ERROR_FILE_CORRUPT;
		goto fail;
	}
	err = read_header_event(c);
	if (err)
		goto fail;
opened:
	h = insert(c);
	if (!h) {
		err = ERROR_NOT_ENOUGH_MEMORY;
		goto fail;
	}
	{
		EVENT_RECORD er;

		fill_logfile_header(c, &LF(c, LogfileHeader));
		header_record(c, &er);
		event_trace(&er, NULL, &c->hdr_trace);
		LF(c, CurrentEvent) = c->hdr_trace;
		LF(c, BufferSize) = c->info.buffer_size;
		LF(c, EventsLost) = c->info.events_lost;
		LF(c, BuffersRead) = 0;
		LF(c, Filled) = 0;
		LF(c, CurrentTime) = 0;
		LF(c, IsKernelTrace) = 0;
	}
	SetLastError(ERROR_SUCCESS);
	return h;
fail:
	free(path);
	free_consumer(c);
	SetLastError(err);
	return INVALID_PROCESSTRACE_HANDLE;
}

TRACEHANDLE WMIAPI OpenTraceA(PEVENT_TRACE_LOGFILEA Logfile)
{
	const char *name;
	char *path = NULL;
	int nomem = 0;

	if (!Logfile) {
		fail_handle(ERROR_INVALID_PARAMETER);
		return INVALID_PROCESSTRACE_HANDLE;
	}
	name = Logfile->ProcessTraceMode & PROCESS_TRACE_MODE_REAL_TIME ?
	       Logfile->LoggerName : Logfile->LogFileName;
	if (name && *name) {
		path = strdup(name);
		nomem = !path;
	}
	return open_trace(Logfile, 0, path, Logfile->ProcessTraceMode, nomem);
}

TRACEHANDLE WMIAPI OpenTraceW(PEVENT_TRACE_LOGFILEW Logfile)
{
	const WCHAR *name;
	char *path = NULL;
	int nomem = 0;

	if (!Logfile) {
		fail_handle(ERROR_INVALID_PARAMETER);
		return INVALID_PROCESSTRACE_HANDLE;
	}
	name = Logfile->ProcessTraceMode & PROCESS_TRACE_MODE_REAL_TIME ?
	       Logfile->LoggerName : Logfile->LogFileName;
	if (name && *name)
		path = utf16_to_utf8(name, &nomem);
	return open_trace(Logfile, 1, path, Logfile->ProcessTraceMode, nomem);
}

/* ---- ProcessTrace ---- */

/* The record being delivered on this thread (nttrace_current_record()). */
static __thread const struct nttrace_etl_event *current;

const struct nttrace_etl_event *nttrace_current_record(void)
{
	return current;
}

static int is_closing(struct consumer *c)
{
	return __atomic_load_n(&c->closing, __ATOMIC_ACQUIRE);
}

/* A buffer of @c is done: BufferCallback; 0 to go on, -1 to stop. */
static int buffer_done(struct consumer *c, uint32_t filled)
{
	ULONG go = TRUE;

	if (c->live) {
		struct nttrace_counts n;

		nttrace_consumer_counts(c->rc, &n);
		LF(c, EventsLost) = n.events_lost + n.events_overwritten + n.my_events_lost;
		LF(c, LogfileHeader).EventsLost = LF(c, EventsLost);
		LF(c, LogfileHeader).BuffersLost = n.buffers_overwritten + n.my_buffers_lost;
	}
	LF(c, BuffersRead)++;
	LF(c, Filled) = filled;
	if (c->wide) {
		PEVENT_TRACE_LOGFILEW lf = c->lf;

		if (lf->BufferCallback)
			go = lf->BufferCallback(lf);
	} else {
		PEVENT_TRACE_LOGFILEA lf = c->lf;

		if (lf->BufferCallback)
			go = lf->BufferCallback(lf);
	}
	return go ? 0 : -1;
}

static void deliver(struct consumer *c, EVENT_RECORD *er, const struct nttrace_etl_event *ev)
{
	c->delivered++;
	LF(c, CurrentTime) = er->EventHeader.TimeStamp.QuadPart;
	if (LF(c, ProcessTraceMode) & PROCESS_TRACE_MODE_EVENT_RECORD) {
		if (LF(c, EventRecordCallback))
			LF(c, EventRecordCallback)(er);
	} else if (LF(c, EventCallback)) {
		EVENT_TRACE et;

		event_trace(er, ev, &et);
		LF(c, CurrentEvent) = et;
		LF(c, EventCallback)(&et);
	}
}

/*
 * Track @ev's buffer; the one it leaves is done. 0, or -1 to stop. The
 * header buffer was done before the first event (process()).
 */
static int track_buffer(struct consumer *c, const struct nttrace_etl_event *ev)
{
	uint64_t off = ev->buffer_offset;
	struct cpu_buf *b;

	if (!off && !c->live && c->info.has_header)
		return 0;

	if (ev->cpu >= c->ncpus) {
		unsigned int n = ev->cpu + 1;
		struct cpu_buf *v = realloc(c->cpus, n * sizeof(*v));

		if (!v)
			return 0;	/* BufferCallback is only missed */
		memset(v + c->ncpus, 0, (n - c->ncpus) * sizeof(*v));
		c->cpus = v;
		c->ncpus = n;
	}
	b = &c->cpus[ev->cpu];
	if (b->have && b->offset == off)
		return 0;	/* the same buffer: its header was read */
	if (b->have && buffer_done(c, b->filled))
		return -1;
	b->have = 1;
	b->offset = off;
	b->filled = header_filled(ev->buffer);
	b->logger_id = header_logger_id(ev->buffer);
	return 0;
}

/* The buffers still open at the end of @c's file are done. */
static int flush_buffers(struct consumer *c)
{
	unsigned int i;

	for (i = 0; i < c->ncpus; i++) {
		if (c->cpus[i].have) {
			c->cpus[i].have = 0;
			if (!is_closing(c) && buffer_done(c, c->cpus[i].filled))
				return -1;
		}
	}
	return 0;
}

static uint64_t order_key(const struct nttrace_etl_event *ev)
{
	return ev->filetime ? ev->filetime : ev->timestamp;
}

static void forward_problem(void *ctx, uint64_t offset, const char *what)
{
	struct consumer *c = ctx;

	if (c->problem)
		c->problem(c->problem_ctx, offset, what);
}

/*
 * The reader passed @ev, and ProcessTrace cannot present it: counted, and
 * said for the first NTTRACE_ETL_MAX_PROBLEMS (nttrace_trace_counts() has
 * them all).
 */
static void not_delivered(struct consumer *c, const struct nttrace_etl_event *ev)
{
	if (++c->undelivered <= NTTRACE_ETL_MAX_PROBLEMS && c->problem)
		c->problem(c->problem_ctx, ev->offset, ev->message || ev->classic ||
			   ev->event_header || ev->system ? "no memory to deliver the event" :
			   "a record of a header type ProcessTrace does not present; "
			   "not delivered");
}

/* Start (again) reading @c's file from its first event. */
static uint32_t rewind_consumer(struct consumer *c)
{
	int ret;

	/* A live session goes on where the last ProcessTrace left it. */
	if (c->used && !c->live) {
		nttrace_etl_close(c->r);
		c->r = NULL;
		ret = nttrace_etl_open(&c->r, c->path, forward_problem, c);
		if (ret) {
			c->r = NULL;
			/* As OpenTrace would say of it now (gone: not found). */
			return open_error(ret);
		}
	}
	c->used = 1;
	c->have = 0;
	c->done = 0;
	c->delivered = c->undelivered = 0;
	free(c->cpus);
	c->cpus = NULL;
	c->ncpus = 0;
	return ERROR_SUCCESS;
}

/*
 * Wait for a buffer or the stop of any live session of @cs, or for a
 * CloseTrace of one; 0, or -1 when poll() cannot (no memory).
 */
static int wait_live(struct consumer **cs, ULONG n)
{
	struct pollfd pfd[2 * MAX_PROCESS];
	unsigned int k = 0, i;
	uint64_t v;

	for (i = 0; i < n; i++) {
		if (!cs[i]->live || cs[i]->done)
			continue;
		pfd[k].fd = nttrace_consumer_fd(cs[i]->rc);
		pfd[k++].events = POLLIN;
		pfd[k].fd = cs[i]->wake;
		pfd[k++].events = POLLIN;
	}
	/*
	 * The second bound only guards against a wake-up lost to a bug: the
	 * kernel wakes us on each buffer published and at the stop.
	 */
	if (poll(pfd, k, 1000) < 0 && errno != EINTR)
		return errno == ENOMEM ? -1 : 0;
	for (i = 1; i < k; i += 2)
		if (pfd[i].revents & POLLIN && read(pfd[i].fd, &v, sizeof(v)) < 0)
			continue;	/* drained, or raced with another read */
	return 0;
}

static ULONG process(struct consumer **cs, ULONG n, const uint64_t *start, const uint64_t *end)
{
	ULONG i;

	/* Each file's header event, and its buffer, first. */
	for (i = 0; i < n; i++) {
		struct consumer *c = cs[i];
		EVENT_RECORD er;

		if (is_closing(c) || c->live)
			continue;
		header_record(c, &er);
		deliver(c, &er, NULL);
		if (!is_closing(c) && buffer_done(c, c->hdr_filled))
			return ERROR_CANCELLED;
	}
	for (;;) {
		struct consumer *best = NULL;
		int waiting = 0;
		EVENT_RECORD er;
		uint64_t t;

		for (i = 0; i < n; i++) {
			struct consumer *c = cs[i];

			if (c->done)
				continue;
			if (is_closing(c)) {
				c->done = 1;
				continue;
			}
			if (!c->have) {
				/*
				 * Pairs with the kernel's store-release of
				 * the state after the final flush: once seen,
				 * what the read below misses does not exist.
				 */
				int stopped = c->live && nttrace_consumer_stopped(c->rc);

				c->ev = nttrace_etl_next_ref(c->r);
				c->have = c->ev != NULL;
				if (!c->have && c->live && !stopped) {
					waiting = 1;	/* nothing yet */
					continue;
				}
				if (!c->have) {
					c->done = 1;
					if (flush_buffers(c))
						return ERROR_CANCELLED;
					continue;
				}
			}
			if (!best || order_key(c->ev) < order_key(best->ev))
				best = c;
		}
		if (!best && waiting) {
			if (wait_live(cs, n))
				return ERROR_NOT_ENOUGH_MEMORY;
			continue;
		}
		if (!best)
			return ERROR_SUCCESS;
		best->have = 0;
		if (track_buffer(best, best->ev))
			return ERROR_CANCELLED;
		t = best->ev->filetime;
		if (t && ((start && t < *start) || (end && t > *end)))
			continue;
		if (event_record(best, best->ev, &er)) {
			not_delivered(best, best->ev);
			continue;
		}
		current = best->ev;
		deliver(best, &er, best->ev);
		current = NULL;
	}
}

ULONG WMIAPI ProcessTrace(PTRACEHANDLE HandleArray, ULONG HandleCount,
			  LPFILETIME StartTime, LPFILETIME EndTime)
{
	struct consumer *cs[MAX_PROCESS];
	uint64_t start = 0, end = 0;
	ULONG i, j, err = ERROR_SUCCESS;

	if (!HandleArray)
		return fail_handle(ERROR_INVALID_PARAMETER);
	if (!HandleCount || HandleCount > MAX_PROCESS)
		return fail_handle(ERROR_BAD_LENGTH);
	if (StartTime)
		start = (uint64_t)StartTime->dwHighDateTime << 32 | StartTime->dwLowDateTime;
	if (EndTime)
		end = (uint64_t)EndTime->dwHighDateTime << 32 | EndTime->dwLowDateTime;
	if (StartTime && EndTime && end < start)
		return fail_handle(ERROR_INVALID_TIME);
	pthread_mutex_lock(&table_lock);
	for (i = 0; i < HandleCount; i++) {
		cs[i] = lookup(HandleArray[i]);
		if (!cs[i]) {
			err = ERROR_INVALID_HANDLE;
			break;
		}
		if (cs[i]->busy) {
			err = ERROR_BUSY;
			break;
		}
		for (j = 0; j < i; j++)
			if (cs[j] == cs[i])
				err = ERROR_INVALID_PARAMETER;
		if (err)
			break;
	}
	if (!err)
		for (i = 0; i < HandleCount; i++)
			cs[i]->busy = 1;
	pthread_mutex_unlock(&table_lock);
	if (err)
		return fail_handle(err);

	for (i = 0; i < HandleCount && !err; i++)
		err = rewind_consumer(cs[i]);
	if (!err)
		err = process(cs, HandleCount, StartTime ? &start : NULL,
			      EndTime ? &end : NULL);

	/* Handles closed meanwhile were taken out of the table: free them. */
	pthread_mutex_lock(&table_lock);
	for (i = 0; i < HandleCount; i++) {
		cs[i]->busy = 0;
		if (is_closing(cs[i]))
			free_consumer(cs[i]);
	}
	pthread_mutex_unlock(&table_lock);
	return fail_handle(err);
}

ULONG nttrace_trace_problems(TRACEHANDLE handle, nttrace_etl_problem_fn fn, void *ctx)
{
	struct consumer *c;
	ULONG err;

	pthread_mutex_lock(&table_lock);
	c = lookup(handle);
	err = !c ? ERROR_INVALID_HANDLE : c->busy ? ERROR_BUSY : ERROR_SUCCESS;
	if (!err) {
		c->problem = fn;
		c->problem_ctx = ctx;
		/* OpenTrace read the file unheard: read it again, heard. */
		c->used = 1;
	}
	pthread_mutex_unlock(&table_lock);
	return fail_handle(err);
}

ULONG nttrace_trace_counts(TRACEHANDLE handle, struct nttrace_trace_counts *counts)
{
	struct nttrace_etl_counts rc;
	struct consumer *c;
	ULONG err;

	if (!counts)
		return fail_handle(ERROR_INVALID_PARAMETER);
	pthread_mutex_lock(&table_lock);
	c = lookup(handle);
	err = !c ? ERROR_INVALID_HANDLE : c->busy ? ERROR_BUSY : ERROR_SUCCESS;
	if (!err) {
		memset(counts, 0, sizeof(*counts));
		counts->buffers = nttrace_etl_info(c->r)->file_buffers;
		nttrace_etl_counts(c->r, &rc);
		counts->events = c->delivered;
		counts->not_delivered = c->undelivered + rc.records_skipped;
		counts->buffers_skipped = rc.buffers_skipped;
		counts->bytes_skipped = rc.bytes_skipped;
	}
	pthread_mutex_unlock(&table_lock);
	return fail_handle(err);
}

/* ---- CloseTrace ---- */

ULONG WMIAPI CloseTrace(TRACEHANDLE TraceHandle)
{
	struct consumer *c;
	int busy;

	pthread_mutex_lock(&table_lock);
	c = lookup(TraceHandle);
	if (!c) {
		pthread_mutex_unlock(&table_lock);
		return fail_handle(ERROR_INVALID_HANDLE);
	}
	table[(uint32_t)TraceHandle - 1] = NULL;
	busy = c->busy;
	if (busy) {
		uint64_t one = 1;

		__atomic_store_n(&c->closing, 1, __ATOMIC_RELEASE);
		/* Wake a ProcessTrace waiting for the session (another thread). */
		if (c->live && write(c->wake, &one, sizeof(one)) < 0) {
			/* EAGAIN: the counter is full, so it is awake already. */
		}
	}
	pthread_mutex_unlock(&table_lock);
	if (busy)
		return fail_handle(ERROR_CTX_CLOSE_PENDING);
	free_consumer(c);
	return fail_handle(ERROR_SUCCESS);
}
