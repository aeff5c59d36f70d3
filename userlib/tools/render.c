// SPDX-License-Identifier: GPL-2.0
/*
 * The one renderer of events for `nttrace dump` and `nttrace show`: an
 * EVENT_RECORD, as ProcessTrace hands it (consumer/opentrace.c's top
 * comment says how each record type becomes one), as one line of text or
 * one JSON object; a log file's TRACE_LOGFILE_HEADER; message formats
 * (--formats). It prints through render_out.c (escaped text, hex, Win32
 * errors in words), and an event TDH decodes through render_tdh.c.
 *
 * What EVENT_RECORD does not carry comes from the reader's record behind it
 * (nttrace_current_record(), <nttrace/consumer.h>), so that a file is shown
 * as it is: a record's byte offset in the file, a message's sequence number
 * and OptionFlags, the clock value as written, the buffer flags that say
 * events were lost just before an event, the whole 16-bit Class.Version
 * of a classic event, an EventWrite header's flags as written, and the
 * undecoded bytes of a malformed chain of extended items. Without it (an
 * EVENT_RECORD from elsewhere) the EVENT_RECORD's fields are shown.
 *
 * The kernel's own events (and classic events that name a kernel group's
 * GUID) are shown field by field where the table of their classes
 * (etl/kernel_classes.c) has the layout of their version.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <nttrace/consumer.h>
#include <nttrace/etl.h>
#include <nttrace/evntcons.h>
#include "cli.h"

static void json_str(const char *s)
{
	render_text(s, 1);
}

void render_problem(void *ctx, uint64_t offset, const char *what)
{
	render_problems++;
	if (render_json) {
		printf("{\"problem\":");
		json_str(what);
		printf(",\"offset\":%" PRIu64 "}\n", offset);
	} else {
		printf("# offset %" PRIu64 ": %s\n", offset, what);
	}
}

/* FILETIME as "YYYY-MM-DD HH:MM:SS.fffffff" (T and Z for JSON). */
static void print_time(uint64_t ft)
{
	time_t secs = (time_t)((ft - NTTRACE_FILETIME_UNIX_EPOCH) / 10000000);
	struct tm tm;
	char s[32];

	if (ft < NTTRACE_FILETIME_UNIX_EPOCH || !gmtime_r(&secs, &tm)) {
		printf(render_json ? "null" : "-");
		return;
	}
	strftime(s, sizeof(s), render_json ? "%Y-%m-%dT%H:%M:%S" : "%Y-%m-%d %H:%M:%S", &tm);
	printf(render_json ? "\"%s.%07" PRIu64 "Z\"" : "%s.%07" PRIu64, s,
	       (uint64_t)((ft - NTTRACE_FILETIME_UNIX_EPOCH) % 10000000));
}

static void print_guid(const GUID *g)
{
	char s[NTTRACE_GUID_STRING];

	nttrace_guid_string((const uint8_t *)g, s);
	fputs(s, stdout);
}

static int is_text(const uint8_t *d, uint32_t len)
{
	uint32_t i;

	if (!len || d[len - 1])
		return 0;
	for (i = 0; i < len; i++)
		if (d[i] && (d[i] < 0x20 || d[i] > 0x7E))
			return 0;
	return 1;
}

/* A message's data: as hex, and as text too when it is text. */
static void print_data(const uint8_t *d, uint32_t len)
{
	uint32_t i;

	if (render_json) {
		render_hex("data", d, len);
		if (is_text(d, len)) {
			printf(",\"text\":\"");
			for (i = 0; i + 1 < len; i++) {
				if (!d[i])
					printf("\\u0000");
				else if (d[i] == '"' || d[i] == '\\')
					printf("\\%c", d[i]);
				else
					putchar(d[i]);
			}
			printf("\"");
		}
		return;
	}
	if (is_text(d, len)) {
		printf(" \"");
		for (i = 0; i + 1 < len; i++) {
			if (d[i])
				putchar(d[i]);
			else
				fputs("\\0", stdout);
		}
		printf("\"");
		return;
	}
	render_hex("data", d, len);
}

/* ---- message formats ---- */

static void on_format_problem(void *ctx, const char *path, uint64_t offset,
			      const char *what)
{
	fprintf(stderr, "nttrace: %s: offset %" PRIu64 ": %s\n", path, offset, what);
}

int render_not_a_directory(const char *path)
{
	struct stat st;

	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	fprintf(stderr, "nttrace: %s is a directory\n", path);
	return -1;
}

int render_load_formats(char *list)
{
	char *path, *save = NULL;

	for (path = strtok_r(list, ",", &save); path; path = strtok_r(NULL, ",", &save)) {
		int n;

		if (render_not_a_directory(path))
			return -1;
		n = nttrace_tmf_load(&render_formats, path, on_format_problem, NULL);
		if (n < 0) {
			fprintf(stderr, "nttrace: %s: %s\n", path, n == -EINVAL ?
				"neither an ELF binary nor a format file" : strerror(-n));
			return -1;
		}
		if (n == 0)
			fprintf(stderr, "nttrace: %s: no message formats in it\n", path);
	}
	return 0;
}

/* ---- the log file header ---- */

static const char *clock_name(uint32_t clock)
{
	return clock == NTTRACE_ETL_CLOCK_SYSTEM ? "system time" :
	       clock == NTTRACE_ETL_CLOCK_CYCLE ? "CPU cycles" : "QPC";
}

void render_header(const TRACE_LOGFILE_HEADER *h, const char *path, uint64_t buffers)
{
	char *logger = render_utf16(h->LoggerName);
	const char *name = logger ? logger : "";

	if (render_json) {
		printf("{\"header\":{\"file\":");
		json_str(path);
		printf(",\"logger\":");
		json_str(name);
		/* OpenTrace opens no file without its header: always true. */
		printf(",\"has_header\":true,"
		       "\"buffer_size\":%u,\"buffers\":%" PRIu64 ",\"processors\":%u,"
		       "\"pointer_size\":%u,\"log_file_mode\":%u,\"clock\":%u,"
		       "\"perf_freq\":%" PRIu64 ",\"start\":",
		       h->BufferSize, buffers, h->NumberOfProcessors, h->PointerSize,
		       h->LogFileMode, h->ReservedFlags, (uint64_t)h->PerfFreq.QuadPart);
		print_time(h->StartTime.QuadPart);
		printf(",\"end\":");
		print_time(h->EndTime.QuadPart);
		printf(",\"boot\":");
		print_time(h->BootTime.QuadPart);
		printf(",\"buffers_written\":%u,\"events_lost\":%u,\"buffers_lost\":%u}}\n",
		       h->BuffersWritten, h->EventsLost, h->BuffersLost);
		free(logger);
		return;
	}
	printf("# ");
	render_text(path, 0);
	printf(": %" PRIu64 " buffers of %u bytes\n", buffers, h->BufferSize);
	printf("# session \"");
	render_text(name, 0);
	printf("\", %u processors, pointer size %u, mode 0x%x, clock %s "
	       "(%" PRIu64 " Hz)\n", h->NumberOfProcessors, h->PointerSize,
	       h->LogFileMode, clock_name(h->ReservedFlags), (uint64_t)h->PerfFreq.QuadPart);
	printf("# started ");
	print_time(h->StartTime.QuadPart);
	printf(" UTC, ended ");
	print_time(h->EndTime.QuadPart);
	printf(" UTC; %u buffers written, %u events lost, %u buffers lost\n",
	       h->BuffersWritten, h->EventsLost, h->BuffersLost);
	free(logger);
}

/* ---- events ---- */

int render_is_header_event(const EVENT_RECORD *er)
{
	/*
	 * The one event the reader has no record of: a classic event may
	 * name EventTraceGuid too.
	 */
	return !nttrace_current_record() &&
	       er->EventHeader.Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER &&
	       !memcmp(&er->EventHeader.ProviderId, &EventTraceGuid, sizeof(GUID));
}

int render_pointer_size(const EVENT_RECORD *er)
{
	const struct nttrace_etl_event *ev = nttrace_current_record();
	/* An EventWrite record's own flags (the consumer's add PROCESSOR_INDEX). */
	unsigned int flags = ev && ev->event_header ? ev->header_flags : er->EventHeader.Flags;

	if (flags & EVENT_HEADER_FLAG_32_BIT_HEADER)
		return 4;
	if (flags & EVENT_HEADER_FLAG_64_BIT_HEADER)
		return 8;
	/* Neither flag: an EventWrite record says it by its header type. */
	return ev && ev->event_header && ev->rec[2] == NTTRACE_TRACE_HEADER_TYPE_EVENT_HEADER32 ?
	       4 : 8;
}

const EVENT_HEADER_EXTENDED_DATA_ITEM *render_ext_item(const EVENT_RECORD *er, USHORT type,
						       USHORT min_size)
{
	USHORT i;

	for (i = 0; i < er->ExtendedDataCount; i++)
		if (er->ExtendedData[i].ExtType == type && er->ExtendedData[i].DataSize >= min_size)
			return &er->ExtendedData[i];
	return NULL;
}

static const void *item_data(const EVENT_HEADER_EXTENDED_DATA_ITEM *it)
{
	return (const void *)(uintptr_t)it->DataPtr;
}

/*
 * A STACK_TRACE32/64 item as " stack A,B,..." (its return addresses,
 * innermost first; the MatchId, always 0 from nttrace, when not 0 as
 * " match N"). 0 for another item, or one whose size is no stack's.
 */
static int render_stack_item(const EVENT_HEADER_EXTENDED_DATA_ITEM *it)
{
	unsigned int word = it->ExtType == EVENT_HEADER_EXT_TYPE_STACK_TRACE32 ? 4 : 8;
	const uint8_t *p = item_data(it);
	uint64_t match, a;
	unsigned int i;

	if ((it->ExtType != EVENT_HEADER_EXT_TYPE_STACK_TRACE32 &&
	     it->ExtType != EVENT_HEADER_EXT_TYPE_STACK_TRACE64) ||
	    it->DataSize < 8 || (it->DataSize - 8) % word)
		return 0;
	memcpy(&match, p, 8);
	printf(" stack");
	for (i = 8; i < it->DataSize; i += word) {
		a = 0;
		memcpy(&a, p + i, word);
		printf("%s0x%" PRIx64, i == 8 ? " " : ",", a);
	}
	if (match)
		printf(" match %" PRIu64, match);
	return 1;
}

/* The event as text through its format: 1 if it has one. */
static int print_formatted(const EVENT_RECORD *er)
{
	const EVENT_HEADER *eh = &er->EventHeader;
	const struct nttrace_tmf_format *f;
	const char *base;
	char text[4096];
	int bad;

	f = nttrace_tmf_find(&render_formats, (const uint8_t *)&eh->ProviderId,
			     eh->EventDescriptor.Id, render_pointer_size(er));
	if (!f)
		return 0;
	bad = nttrace_tmf_render(f, er->UserData, er->UserDataLength, render_pointer_size(er),
				 text, sizeof(text));
	if (render_json) {
		printf(",\"file\":");
		json_str(f->file);
		printf(",\"line\":%u,\"message\":", f->line);
		json_str(text);
		if (bad)
			printf(",\"mismatch\":true");
		return 1;
	}
	base = strrchr(f->file, '/');
	printf(" [");
	render_text(base ? base + 1 : f->file, 0);
	printf(":%u] ", f->line);
	render_text(text, 0);
	if (bad)
		printf(" (data does not match the format)");
	return 1;
}

/*
 * A message (TraceMessage, WPP): number, sequence number (when it has
 * one), GUID or component ID, thread and process when the message carried
 * them, pointer size, then the data through its format, else as text or
 * hex. With the reader's record @ev, its OptionFlags say which it has.
 * Without it, the API's component ID is in Data1 with the rest of the GUID
 * 0: such a GUID is shown as the component (a real GUID with 12 zero bytes
 * is not expected), and IDs of 0 are taken as none.
 */
static void print_message(const EVENT_RECORD *er, const struct nttrace_etl_event *ev)
{
	static const uint8_t zero[12];
	const EVENT_HEADER *eh = &er->EventHeader;
	int component = ev ? ev->guid_len == 4 :
			!memcmp((const uint8_t *)&eh->ProviderId + 4, zero, 12);
	int guid = ev ? ev->guid_len == 16 : !component;
	int ids = ev ? !!(ev->flags & TRACE_MESSAGE_SYSTEMINFO) :
		  eh->ThreadId || eh->ProcessId;
	int seq = ev && ev->flags & TRACE_MESSAGE_SEQUENCE;

	if (render_json) {
		printf(",\"number\":%u", eh->EventDescriptor.Id);
		if (ev)
			printf(",\"flags\":%u", ev->flags);
		if (seq)
			printf(",\"sequence\":%u", ev->sequence);
		if (component) {
			printf(",\"component\":%u", eh->ProviderId.Data1);
		} else if (guid) {
			printf(",\"guid\":\"");
			print_guid(&eh->ProviderId);
			printf("\"");
		}
		if (ids)
			printf(",\"tid\":%u,\"pid\":%u", eh->ThreadId, eh->ProcessId);
		printf(",\"pointer_size\":%d", render_pointer_size(er));
		print_formatted(er);
		print_data(er->UserData, er->UserDataLength);
		printf("}\n");
		return;
	}
	printf(" #%u", eh->EventDescriptor.Id);
	if (seq)
		printf(" seq %u", ev->sequence);
	if (component) {
		printf(" component %u", eh->ProviderId.Data1);
	} else if (guid) {
		printf(" {");
		print_guid(&eh->ProviderId);
		printf("}");
	}
	if (ids)
		printf(" tid %u pid %u", eh->ThreadId, eh->ProcessId);
	printf(" ptr%d", render_pointer_size(er) * 8);
	if (!print_formatted(er))
		print_data(er->UserData, er->UserDataLength);
	putchar('\n');
}

/* ---- the kernel's events, field by field ---- */

/*
 * The class of a kernel event: by the reader's record (its HookId and
 * version), else, for a classic event, by the kernel group its GUID names,
 * its opcode and version (the low 8 bits, all EVENT_RECORD has).
 */
static const struct nttrace_kernel_class *kernel_class(const EVENT_RECORD *er,
						       const struct nttrace_etl_event *ev)
{
	const EVENT_HEADER *eh = &er->EventHeader;

	if (ev && ev->system)
		return nttrace_kernel_class(ev->hook_id, ev->version);
	return nttrace_kernel_class_by_guid(&eh->ProviderId, eh->EventDescriptor.Opcode,
					    eh->EventDescriptor.Version);
}

/* @n bytes of UTF-16LE, with no NUL in them, as UTF-8 (free it), or NULL. */
static char *utf16_units(const uint8_t *p, uint32_t n)
{
	uint8_t *z = malloc(n + 2);
	char *s;

	if (!z)
		return NULL;
	memcpy(z, p, n);
	z[n] = z[n + 1] = 0;
	s = render_utf16_data(z, n + 2);
	free(z);
	return s;
}

/* A SID as S-R-A-S1-S2...: the authority big-endian, the rest little. */
static void print_sid(const uint8_t *sid, uint32_t size)
{
	uint64_t auth = 0;
	uint32_t i;

	for (i = 2; i < 8; i++)
		auth = auth << 8 | sid[i];
	printf("S-%u-%" PRIu64, sid[0], auth);
	for (i = 8; i + 4 <= size; i += 4)
		printf("-%u", (unsigned int)(sid[i] | sid[i + 1] << 8 | sid[i + 2] << 16 |
					     (uint32_t)sid[i + 3] << 24));
}

/*
 * The names of a context switch's states, wait modes and wait reasons,
 * as Microsoft's "CSwitch class" page lists the values of
 * OldThreadState, OldThreadWaitMode and OldThreadWaitReason.
 */
static const char *const thread_states[] = {
	"Initialized", "Ready", "Running", "Standby", "Terminated", "Waiting",
	"Transition", "DeferredReady",
};
static const char *const wait_modes[] = { "KernelMode", "UserMode" };
static const char *const wait_reasons[] = {
	"Executive", "FreePage", "PageIn", "PoolAllocation", "DelayExecution",
	"Suspended", "UserRequest", "WrExecutive", "WrFreePage", "WrPageIn",
	"WrPoolAllocation", "WrDelayExecution", "WrSuspended", "WrUserRequest",
	"WrEventPair", "WrQueue", "WrLpcReceive", "WrLpcReply", "WrVirtualMemory",
	"WrPageOut", "WrRendezvous", "WrKeyedEvent", "WrTerminated",
	"WrProcessInSwap", "WrCpuRateControl", "WrCalloutStack", "WrKernel",
	"WrResource", "WrPushLock", "WrMutex", "WrQuantumEnd", "WrDispatchInt",
	"WrPreempted", "WrYieldExecution", "WrFastMutex", "WrGuardedMutex",
	"WrRundown",
};
#define NAMES(a) a, sizeof(a) / sizeof((a)[0])

/* The name of @v's value where the class's page names the values; NULL. */
static const char *value_name(const struct nttrace_kernel_class *c,
			      const struct nttrace_kernel_value *v)
{
	static const struct {
		const char *event, *field;
		const char *const *names;
		size_t n;
	} named[] = {
		{ "Thread/CSwitch", "OldThreadState", NAMES(thread_states) },
		{ "Thread/CSwitch", "OldThreadWaitMode", NAMES(wait_modes) },
		{ "Thread/CSwitch", "OldThreadWaitReason", NAMES(wait_reasons) },
	};
	size_t i;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(c->event_name, named[i].event) &&
		    !strcmp(v->field->name, named[i].field))
			return v->u < named[i].n ? named[i].names[v->u] : NULL;
	return NULL;
}

/* One field's value: as JSON, numbers, strings (addresses too) or null. */
static void print_kernel_value(const struct nttrace_kernel_value *v, unsigned int psz)
{
	const char *q = render_json ? "\"" : "";
	char s[INET6_ADDRSTRLEN], *t;
	uint32_t i;

	switch (v->field->type) {
	case NTTRACE_KT_I8:
	case NTTRACE_KT_I16:
	case NTTRACE_KT_I32:
	case NTTRACE_KT_I64:
		printf("%" PRId64, (int64_t)v->u);
		break;
	case NTTRACE_KT_X8:
	case NTTRACE_KT_X16:
	case NTTRACE_KT_X32:
	case NTTRACE_KT_X64:
	case NTTRACE_KT_POINTER:
		printf("%s0x%" PRIx64 "%s", q, v->u, q);
		break;
	case NTTRACE_KT_IPV4:
		printf("%s%u.%u.%u.%u%s", q, v->data[0], v->data[1], v->data[2], v->data[3], q);
		break;
	case NTTRACE_KT_IPV6:
		printf("%s%s%s", q, inet_ntop(AF_INET6, v->data, s, sizeof(s)) ? s : "?", q);
		break;
	case NTTRACE_KT_GUID:
		nttrace_guid_string(v->data, s);
		printf(render_json ? "\"%s\"" : "{%s}", s);
		break;
	case NTTRACE_KT_SID:
		if (!v->text) {
			fputs(render_json ? "null" : "-", stdout);
			break;
		}
		fputs(q, stdout);
		print_sid(v->text, v->text_size);
		fputs(q, stdout);
		break;
	case NTTRACE_KT_STRING:
		/* It ends at its NUL in the payload. */
		if (!render_json)
			putchar('"');
		render_text((const char *)v->text, render_json);
		if (!render_json)
			putchar('"');
		break;
	case NTTRACE_KT_WSTRING:
	case NTTRACE_KT_WCHARS:
		t = utf16_units(v->text, v->text_size);
		if (!render_json)
			putchar('"');
		render_text(t ? t : "", render_json);
		if (!render_json)
			putchar('"');
		free(t);
		break;
	case NTTRACE_KT_BYTES:
		fputs(q, stdout);
		for (i = 0; i < v->size; i++)
			printf("%02x", v->data[i]);
		fputs(q, stdout);
		break;
	case NTTRACE_KT_POINTERS:
		putchar(render_json ? '[' : '{');
		for (i = 0; i < v->u; i++) {
			const uint8_t *p = v->data + i * psz;
			uint64_t a = p[0] | p[1] << 8 | (uint32_t)p[2] << 16 |
				     (uint64_t)p[3] << 24;

			if (psz == 8)
				a |= (uint64_t)(p[4] | p[5] << 8 | p[6] << 16 |
						(uint32_t)p[7] << 24) << 32;
			printf("%s%s0x%" PRIx64 "%s", i ? "," : "", q, a, q);
		}
		putchar(render_json ? ']' : '}');
		break;
	default:
		/* The unsigned integers, sizes, ports and time stamps. */
		printf("%" PRIu64, v->u);
		break;
	}
}

/*
 * The event's name and its fields, by @c: as JSON members ("event",
 * "class", "fields", "decoded": the bytes the fields took, and "cut": the
 * field the payload ends inside), or as text (the name unless @named: the
 * caller printed it), name=value, then what is
 * left: the bytes of a field cut short, or those after the last field (a
 * later version's). 1 if the fields were shown, 0 if @c has no layout
 * (the caller shows the data as hex).
 */
static int print_kernel(const EVENT_RECORD *er, const struct nttrace_kernel_class *c,
			int named)
{
	struct nttrace_kernel_decoder d;
	struct nttrace_kernel_value v;
	int psz = render_pointer_size(er), n = 0;

	if (render_json) {
		printf(",\"event\":");
		json_str(c->event_name);
		printf(",\"class\":");
		json_str(c->class_name);
	} else if (!named) {
		printf(" %s", c->event_name);
	}
	if (!c->fields)
		return 0;
	nttrace_kernel_decode_init(&d, c, er->UserData, er->UserDataLength, psz);
	if (render_json)
		printf(",\"fields\":{");
	while (nttrace_kernel_decode_next(&d, &v)) {
		if (render_json)
			printf("%s\"%s\":", n++ ? "," : "", v.field->name);
		else
			printf(" %s=", v.field->name);
		/* As text, a value the class names: "Waiting(5)". */
		if (!render_json && value_name(c, &v))
			printf("%s(%" PRIu64 ")", value_name(c, &v), v.u);
		else
			print_kernel_value(&v, d.pointer_size);
	}
	if (render_json) {
		printf("},\"decoded\":%u", d.at);
		if (d.cut)
			printf(",\"cut\":\"%s\"", c->fields[d.next].name);
		return 1;
	}
	if (d.cut)
		printf(" cut short at %s", c->fields[d.next].name);
	else if (d.at < d.len)
		printf(" extra");
	if (d.at < d.len)
		render_hex("data", d.data + d.at, d.len - d.at);
	return 1;
}

/*
 * A classic event's thread and process as text: "-" for -1, which a
 * kernel event with a PERFINFO_TRACE_HEADER (no IDs: CSwitch, the
 * rundowns) has, as consumers show it.
 */
static void print_ids(const EVENT_HEADER *eh)
{
	if (eh->ThreadId == 0xFFFFFFFF)
		printf(" tid -");
	else
		printf(" tid %u", eh->ThreadId);
	if (eh->ProcessId == 0xFFFFFFFF)
		printf(" pid -");
	else
		printf(" pid %u", eh->ProcessId);
}

/*
 * A TraceEvent (full-header) or TraceEventInstance (instance) event: the
 * class GUID, type, level and version (Opcode, Level, and the record's
 * 16-bit Class.Version, else Version: its low 8 bits), thread and process,
 * for an instance (its INSTANCE_INFO item) the instance and parent IDs and
 * the parent's GUID, and the data as hex (MOF data is structured: it is
 * not guessed to be text), or for a kernel event whose class is known its
 * name and fields (print_kernel(); JSON keeps the hex too). As text, a
 * kernel event whose class has a layout is shown by name and version in
 * place of its GUID, type and level: "Process/Start v4 tid 5 pid 5 ptr64
 * ProcessId=...".
 */
static void print_classic(const EVENT_RECORD *er, const struct nttrace_etl_event *ev)
{
	const EVENT_HEADER *eh = &er->EventHeader;
	const EVENT_DESCRIPTOR *d = &eh->EventDescriptor;
	const EVENT_HEADER_EXTENDED_DATA_ITEM *it =
		render_ext_item(er, EVENT_HEADER_EXT_TYPE_INSTANCE_INFO, sizeof(EVENT_EXTENDED_ITEM_INSTANCE));
	const EVENT_EXTENDED_ITEM_INSTANCE *in = it ? item_data(it) : NULL;
	unsigned int version = ev && ev->classic ? ev->rec[6] | ev->rec[7] << 8 : d->Version;
	const struct nttrace_kernel_class *kc = kernel_class(er, ev);

	if (render_json) {
		printf(",\"record\":\"%s\",\"size\":%u,\"pointer_size\":%d,\"guid\":\"",
		       in ? "instance" : "event", eh->Size, render_pointer_size(er));
		print_guid(&eh->ProviderId);
		printf("\",\"type\":%u,\"level\":%u,\"version\":%u,\"tid\":%u,\"pid\":%u",
		       d->Opcode, d->Level, version, eh->ThreadId, eh->ProcessId);
		if (in) {
			printf(",\"instance_id\":%u,\"parent_instance_id\":%u,"
			       "\"parent_guid\":\"", in->InstanceId, in->ParentInstanceId);
			print_guid(&in->ParentGuid);
			printf("\"");
		}
		if (kc)
			print_kernel(er, kc, 0);
		render_hex("data", er->UserData, er->UserDataLength);
		printf("}\n");
		return;
	}
	/*
	 * A kernel event whose layout is known: its name and version for
	 * the GUID, type and level (its group's GUID, its type, level 0:
	 * all in --json), then the fields.
	 */
	if (kc && kc->fields && !in) {
		printf(" %s v%u", kc->event_name, version);
		print_ids(eh);
		printf(" ptr%d", render_pointer_size(er) * 8);
		print_kernel(er, kc, 1);
		putchar('\n');
		return;
	}
	printf(" %s {", in ? "instance" : "event");
	print_guid(&eh->ProviderId);
	printf("} type %u level %u version %u", d->Opcode, d->Level, version);
	if (in) {
		printf(" id %u parent %u {", in->InstanceId, in->ParentInstanceId);
		print_guid(&in->ParentGuid);
		printf("}");
	}
	print_ids(eh);
	printf(" ptr%d", render_pointer_size(er) * 8);
	if (!kc || !print_kernel(er, kc, 0))
		render_hex("data", er->UserData, er->UserDataLength);
	putchar('\n');
}

/*
 * An EventWrite (EVENT_HEADER) event: the provider GUID, the descriptor
 * (id, version, channel, level, opcode, task, keyword), thread and
 * process, the pointer size, the activity ID and the related activity ID
 * (from its item), the other extended items (type, size, hex), and the
 * data: EventWriteString's as text (and hex in JSON), else as hex (its
 * layout is the manifest's, not known here).
 *
 * With the reader's record @ev: the header's flags as written (the
 * EVENT_RECORD's EXTENDED_INFO says only whether items were delivered),
 * the pointer size from the header type when no flag says it, and for a
 * malformed item chain (ProcessTrace delivers the items before the bad
 * one and no data; the problem is reported at its offset) where it broke
 * and its undecoded bytes instead of data.
 */
static void print_event_header(const EVENT_RECORD *er, const struct nttrace_etl_event *ev)
{
	static const GUID zero;
	const EVENT_HEADER *eh = &er->EventHeader;
	const EVENT_DESCRIPTOR *d = &eh->EventDescriptor;
	const EVENT_HEADER_EXTENDED_DATA_ITEM *rel =
		render_ext_item(er, EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID, sizeof(GUID));
	uint32_t bad = ev && ev->event_header ? ev->ext_bad : 0;
	/* PROCESSOR_INDEX is the consumer's flag, not the event's. */
	unsigned int flags = ev && ev->event_header ? ev->header_flags :
			     eh->Flags & ~EVENT_HEADER_FLAG_PROCESSOR_INDEX;
	int psz = render_pointer_size(er);
	char *text = eh->Flags & EVENT_HEADER_FLAG_STRING_ONLY && !bad ?
		     render_utf16_data(er->UserData, er->UserDataLength) : NULL;
	/* Fields TDH can name (TraceLogging): then no metadata as hex. */
	int tdh = !bad && !text && render_tdh_knows(er);
	USHORT i;

	if (render_json) {
		printf(",\"record\":\"event_header\",\"size\":%u,\"pointer_size\":%d,"
		       "\"header_flags\":%u,\"event_property\":%u,\"provider\":\"",
		       eh->Size, psz, flags, eh->EventProperty);
		print_guid(&eh->ProviderId);
		printf("\",\"id\":%u,\"version\":%u,\"channel\":%u,\"level\":%u,"
		       "\"opcode\":%u,\"task\":%u,\"keyword\":\"0x%016" PRIx64 "\","
		       "\"tid\":%u,\"pid\":%u,\"activity_id\":\"", d->Id, d->Version,
		       d->Channel, d->Level, d->Opcode, d->Task, (uint64_t)d->Keyword,
		       eh->ThreadId, eh->ProcessId);
		print_guid(&eh->ActivityId);
		printf("\"");
		if (rel) {
			printf(",\"related_activity_id\":\"");
			print_guid(item_data(rel));
			printf("\"");
		}
		/* Every item, the related activity ID's too: JSON is exact. */
		printf(",\"extended\":[");
		for (i = 0; i < er->ExtendedDataCount; i++) {
			const EVENT_HEADER_EXTENDED_DATA_ITEM *it = &er->ExtendedData[i];

			printf("%s{\"type\":%u,\"size\":%u", i ? "," : "", it->ExtType,
			       it->DataSize);
			render_hex("data", item_data(it), it->DataSize);
			printf("}");
		}
		printf("]");
		if (bad) {
			printf(",\"extended_malformed_at\":%u", bad);
			render_hex("undecoded", ev->rec + bad, ev->size - bad);
		} else {
			render_hex("data", er->UserData, er->UserDataLength);
		}
		if (tdh)
			render_tdh(er, psz);
		if (text) {
			printf(",\"text\":");
			json_str(text);
		}
		printf("}\n");
		free(text);
		return;
	}
	printf(" event_header {");
	print_guid(&eh->ProviderId);
	printf("} id %u version %u channel %u level %u opcode %u task %u keyword 0x%" PRIx64
	       " tid %u pid %u ptr%d", d->Id, d->Version, d->Channel, d->Level, d->Opcode,
	       d->Task, (uint64_t)d->Keyword, eh->ThreadId, eh->ProcessId, psz * 8);
	/* Most events have none: a zero activity ID is not shown. */
	if (memcmp(&eh->ActivityId, &zero, sizeof(zero))) {
		printf(" activity {");
		print_guid(&eh->ActivityId);
		printf("}");
	}
	if (rel) {
		printf(" related {");
		print_guid(item_data(rel));
		printf("}");
	}
	for (i = 0; i < er->ExtendedDataCount; i++) {
		const EVENT_HEADER_EXTENDED_DATA_ITEM *it = &er->ExtendedData[i];

		if (it == rel || (tdh && (it->ExtType == EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL ||
					  it->ExtType == EVENT_HEADER_EXT_TYPE_PROV_TRAITS)))
			continue;
		if (render_stack_item(it))
			continue;
		printf(" ext %u", it->ExtType);
		render_hex("data", item_data(it), it->DataSize);
	}
	if (bad) {
		printf(" extended items malformed at +%u, undecoded", bad);
		render_hex("undecoded", ev->rec + bad, ev->size - bad);
	} else if (text) {
		printf(" \"");
		render_text(text, 0);
		printf("\"");
	} else if (!tdh || !render_tdh(er, psz)) {
		render_hex("data", er->UserData, er->UserDataLength);
	}
	putchar('\n');
	free(text);
}

void render_event(const EVENT_RECORD *er)
{
	const struct nttrace_etl_event *ev = nttrace_current_record();
	const EVENT_HEADER *eh = &er->EventHeader;
	uint64_t t = eh->TimeStamp.QuadPart;
	/* The reader's, from the clock as written; else from the FILETIMEs. */
	double rel = ev ? ev->relative :
		     render_start && t >= render_start ? (t - render_start) / 1e7 : 0;

	if (render_json) {
		putchar('{');
		/* A live session's records are in no file. */
		if (ev && !render_live)
			printf("\"offset\":%" PRIu64 ",", ev->offset);
		printf("\"cpu\":%u,\"time\":", er->BufferContext.ProcessorIndex);
		print_time(t);
		printf(",\"relative\":%.7f", rel);
		if (ev) {
			printf(",\"timestamp\":%" PRIu64, ev->timestamp);
			if (ev->lost)
				printf(",\"lost_before\":true");
		}
	} else {
		/* A line of its own: the event's line keeps its form. */
		if (ev && ev->lost)
			printf("# cpu %u: %s before this event\n", ev->cpu,
			       ev->lost & NTTRACE_WMI_BUFFER_FLAG_BUFFER_LOST ? "buffers lost" :
			       "events lost");
		print_time(t);
		printf(" +%.6fs cpu %u", rel, er->BufferContext.ProcessorIndex);
	}
	if (eh->Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE)
		print_message(er, ev);
	else if (eh->Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER)
		print_classic(er, ev);
	else
		print_event_header(er, ev);
}
