// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace convert --to ctf: a trace as CTF 1.8 (the Common Trace Format,
 * https://diamon.org/ctf/v1.8.3/), which babeltrace2 and Trace Compass
 * read: a directory of a "metadata" file (TSDL text) and one stream file
 * a CPU ("channel0_N", as LTTng names a channel's stream files: Trace
 * Compass's and WPA's LTTng readers, and TraceEvent's CTF reader, open
 * only files so named), each a run of packets.
 *
 * The events come through OpenTrace and ProcessTrace, from a file or a
 * live session, in time order. Each is written to its CPU's stream with
 * its time stamp, a context every event has (provider GUID, process and
 * thread, the descriptor's fields, whether events were lost before it)
 * and its fields:
 *   - an event TDH describes (TraceLogging, manifests loaded, the kernel's
 *     MOF classes): its top-level properties by their names, each as
 *     TdhFormatProperty gives its text (arrays and structures as `nttrace
 *     dump` writes them), an integer TDH shows in decimal as a CTF integer
 *     of its width and sign; data the properties leave is kept as bytes;
 *   - a message with a format (--formats): its text, file and line;
 *   - EventWriteString's text (its bytes, as below, when it is not text);
 *   - any other event: its data, as bytes.
 * Every distinct name and list of field names and types is one CTF event
 * class, declared in the metadata, which is written when the events end
 * (a CTF reader needs every class an event names).
 *
 * Time: CTF's clock "filetime", in nanoseconds since 1970 (UTC): the
 * event's FILETIME less the Unix epoch, times 100. Exact: babeltrace2
 * reads a clock of 10^9 Hz as it is, while its conversion from other
 * rates (in double) would round today's times to about 256 ns. Within a
 * stream, time must not go back (babeltrace2 stops there): an event
 * earlier than its stream's last gets the last time, and the times so
 * moved are counted, said on stderr and in the metadata's env.
 *
 * To a relay (--to net://): the same packets and metadata go to LTTng's
 * relay daemon (relay.c) instead of files, a stream a CPU added when its
 * first packet is, the metadata sent once the events end.
 *
 * Live to a relay (--to net:// --live SESSION): the relay's session is a
 * live one (a live timer of LIVE_TIMER_US, as `lttng create --live`
 * makes; at each tick the session is flushed, live_flush()), which viewers (`babeltrace2 net://RELAY:5344/host/HOST/NAME`)
 * follow as it grows, so: a stream for each of the session's CPUs is
 * announced at the start; the metadata goes in metadata packets (as
 * LTTng's consumer daemon sends it), without the counts only the end
 * knows, its head and the classes so far with the first packet, each
 * later class's declaration appended before the first packet that uses
 * it; and every LIVE_TIMER_US each stream's packet so far is sent, or, if
 * the stream has nothing new, a beacon: an index of no packet saying the
 * stream is idle up to the latest time any stream has written (the
 * watermark), so that a viewer merging the streams in time need not wait
 * for it. Such a stream's events that come later but earlier than that
 * get the watermark's time, counted as times moved (the rule below).
 *
 * Loss: the file header's (or, live, this consumer's) events and buffers
 * lost are in env; each event says lost_before = 1 when its buffer says
 * events were lost before it. Live, the events this consumer lost (full
 * rings while it fell behind) are also counted in the packets'
 * events_discarded, a running count a stream, which babeltrace2 reports
 * as discarded events: each loss in the stream whose packet closes next.
 * A file's events_discarded stays 0: ETW's buffers say that events were
 * lost, not how many.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <nttrace/consumer.h>
#include <nttrace/etl.h>
#include <nttrace/session.h>
#include "cli.h"
#include "relay.h"
#include "samples.h"

#define CTF_MAGIC	0xC1FC1FC1U
#define PACKET_MAX	(64 * 1024)	/* a packet's usual bound; a larger event gets its own */
/* An event's bytes before its fields: ID, time, then event.context. */
#define EVENT_HEAD	(4 + 8 + NTTRACE_GUID_STRING + 4 + 4 + 2 + 4 * 1 + 2 + 8 + 1)
#define PACKET_HEADER	8		/* magic, stream_id */
#define PACKET_CONTEXT	52		/* as packet.context in the metadata */
#define PACKET_DISCARDED 48		/* the offset of its events_discarded */
#define METADATA_PACKET_HEADER 37	/* a metadata packet's header */
#define LIVE_TIMER_US	500000		/* live: flush, packets and beacons this often */
#define MAX_CPUS	256		/* the ETL reader's bound */

enum ftype { F_STRING, F_INT, F_BYTES };

struct field {
	enum ftype type;
	unsigned int bits;	/* F_INT */
	int is_signed;
	char *name;		/* as declared (a TSDL identifier) */
	int fixed;		/* @name is a constant below, not allocated */
	const char *text;	/* F_STRING */
	uint64_t value;		/* F_INT */
	const uint8_t *bytes;	/* F_BYTES: @size of them */
	uint32_t size;
	size_t len;		/* its bytes in the event, set when written */
};

struct ctf_class {
	char *key;		/* name and fields' types and names */
	size_t len;		/* strlen(@key) */
	uint32_t hash, id;	/* hash_of(@key); the class's ID */
	struct ctf_class *next;	/* in its hash chain */
};

/* A class key being built: @len bytes at @buf, NUL-terminated, @cap held. */
struct class_key {
	char *buf;
	size_t len, cap;
};

/*
 * The class last found for an event whose fields all have constant names
 * (add_fixed()), by the event's name and its fields' names and types:
 * such events (every TraceMessage of a trace without formats, say) come in
 * long runs, and are matched without building their key.
 */
#define FIXED_FIELDS	3
struct fixed_class {
	int valid;
	char name[64];
	unsigned int n;
	const char *names[FIXED_FIELDS];
	enum ftype types[FIXED_FIELDS];
	unsigned int bits[FIXED_FIELDS];
	uint32_t id;
};

struct stream {
	int open;		/* its file, or its relay stream, made */
	FILE *f;
	uint64_t handle, net_seq;	/* to a relay: its handle, next sequence number */
	uint8_t *pkt;
	size_t len, cap;
	uint64_t begin, end, last, seq;
	uint64_t discarded;	/* live: events lost, counted in its packets */
	int empty;		/* live: the packet goes even without an event */
};

static struct {
	const char *dir;
	struct stream cpu[MAX_CPUS];
	/*
	 * The classes by key: chains in a table of @hash_mask + 1 (a power of
	 * 2, at least the classes: it doubles as they come), the keys hashed
	 * from @hash_seed, this run's, so that a file cannot choose names that
	 * all land in one chain.
	 */
	struct ctf_class **hash;
	uint32_t hash_mask, hash_seed;
	struct ctf_class **classes;	/* by id */
	struct class_key key;		/* class_of()'s, kept between events */
	struct ctf_class *last_class;	/* the class class_of() found last */
	struct fixed_class fixed;	/* class_of()'s, for fields of add_fixed() */
	uint8_t guid[16];		/* the provider write_event() wrote last, */
	char guid_text[NTTRACE_GUID_STRING];	/* as text ("" before the first) */
	uint32_t nr_classes, cap_classes;
	uint64_t events, moved, too_far, problems;
	ULONG consumer_lost;	/* live: this consumer's EventsLost (atomic) */
	int failed;		/* a write failed: errno */
	EVENT_TRACE_LOGFILEA lf;
	TRACEHANDLE handle;
	const char *session;	/* live, or NULL */
	const char *source;
	struct relay *relay;	/* --to net://: the relay, else NULL */
	uint64_t metadata_handle;
	/*
	 * Live to a relay (@live): @lock orders the events (ProcessTrace's
	 * thread) and the live timer (the watcher's); @classes_sent, the
	 * classes declared to the relay, @head_sent whether the metadata's
	 * head went; @discarded, the consumer's losses put in packets so far;
	 * @watermark, the latest time written.
	 */
	int live, head_sent, flush_refused;
	pthread_mutex_t lock;
	uint32_t classes_sent;
	uint64_t discarded, watermark;
} c;

static volatile sig_atomic_t stop_signal;
static int done;	/* ProcessTrace returned (atomic) */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace convert --to ctf [--formats PATH[,PATH...]]...\n"
		"                       [--manifest PATH[,PATH...]]... DIR FILE.etl\n"
		"       nttrace convert --to ctf [OPTIONS] DIR --live SESSION\n\n"
		"Write FILE (an ETL file), or the events of a running session until it\n"
		"stops or Ctrl-C, as a CTF 1.8 trace in DIR (created; it must not exist or\n"
		"be empty): DIR/metadata and a stream a CPU, which babeltrace2 (`babeltrace2\n"
		"DIR`) and Trace Compass read. Each event has its time (UTC), CPU, provider\n"
		"GUID, process, thread and descriptor, and its fields as TDH decodes them\n"
		"(TraceLogging events, manifests' with --manifest, the kernel's); a\n"
		"message's text with --formats; other events' data as bytes. --formats\n"
		"and --manifest are as for `nttrace dump`. Events lost, as the file or\n"
		"session counts them, are in the metadata's env; an event after a loss\n"
		"has lost_before = 1.\n\n"
		"       nttrace convert --to net://HOST[:CTRL_PORT[:DATA_PORT]] [--name SESSION]\n"
		"                       [OPTIONS] FILE.etl | --live SESSION\n\n"
		"Send the same CTF to LTTng's relay daemon (lttng-relayd, ports 5342 and\n"
		"5343 unless given), which stores it as HOST/SESSION-DATE-TIME/nttrace in\n"
		"its output directory (HOST: this machine's name; SESSION: --name, else\n"
		"the file's name or the live session's); `babeltrace2` reads that\n"
		"directory. A live session is a live one there too: `babeltrace2\n"
		"net://RELAY:5344/host/HOST/SESSION` follows it as it runs, the session\n"
		"flushed and each CPU's events sent every half second, events this\n"
		"reader lost counted in the packets' events_discarded. The relay has no\n"
		"authentication: keep its ports on a private network or a tunnel.\n\n"
		"       nttrace convert --to perf-data OUT FILE.etl\n\n"
		"Write the CPU samples of FILE (a kernel trace with --kernel profile, and\n"
		"--stacks profile for callchains) as the perf.data file OUT, which `perf\n"
		"report -i OUT`, `perf script` and hotspot read: a cpu-clock event, the\n"
		"threads' names, the images (with their ELF build IDs) and the samples.\n");
}

static void on_signal(int sig)
{
	(void)sig;
	stop_signal = 1;
}

/* ---- names ---- */

/*
 * @s as a TSDL identifier: letters, digits and '_' kept, anything else
 * '_', and an underscore first. CTF readers take a leading underscore off
 * a field's name (so that keywords can be names): babeltrace2 shows the
 * name as it was, and no name can be a keyword.
 */
static char *identifier(const char *s)
{
	size_t n = strlen(s), i;
	char *id = malloc(n + 2);

	if (!id)
		return NULL;
	id[0] = '_';
	for (i = 0; i < n; i++) {
		char ch = s[i];

		id[i + 1] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			    (ch >= '0' && ch <= '9') ? ch : '_';
	}
	id[n + 1] = 0;
	return id;
}

/* @s for a TSDL string literal: quotes, backslashes and controls as '_'. */
static void tsdl_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fputc(*s == '"' || *s == '\\' || (unsigned char)*s < 0x20 ? '_' : *s, f);
	fputc('"', f);
}

/* ---- event classes ---- */

static uint32_t hash_of(const char *s)
{
	uint32_t h = 2166136261U ^ c.hash_seed;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619U;
	return h;
}

/* A table of the classes twice as large (or the first): 0, or -1. */
static int hash_grow(void)
{
	uint32_t size = c.hash ? 2 * (c.hash_mask + 1) : 1024, i;
	struct ctf_class **t = calloc(size, sizeof(*t));

	if (!t)
		return -1;
	if (!c.hash)
		c.hash_seed = (uint32_t)cli_seed();
	for (i = 0; i < c.nr_classes; i++) {
		struct ctf_class *e = c.classes[i];

		e->next = t[e->hash & (size - 1)];
		t[e->hash & (size - 1)] = e;
	}
	free(c.hash);
	c.hash = t;
	c.hash_mask = size - 1;
	return 0;
}

/* @s at the end of the class key being built in @k. */
static int key_add(struct class_key *k, const char *s, size_t n)
{
	if (k->len + n + 1 > k->cap) {
		size_t cap = k->cap ? k->cap : 256;
		char *b;

		while (cap < k->len + n + 1)
			cap *= 2;
		b = realloc(k->buf, cap);
		if (!b)
			return -1;
		k->buf = b;
		k->cap = cap;
	}
	memcpy(k->buf + k->len, s, n);
	k->len += n;
	k->buf[k->len] = 0;
	return 0;
}

/* @name and @fields are those of c.fixed: its class is theirs. */
static int fixed_same(const char *name, const struct field *fields, unsigned int n)
{
	const struct fixed_class *f = &c.fixed;
	unsigned int i;

	if (!f->valid || f->n != n || strcmp(f->name, name))
		return 0;
	for (i = 0; i < n; i++)
		if (!fields[i].fixed || fields[i].name != f->names[i] ||
		    fields[i].type != f->types[i] || fields[i].bits != f->bits[i])
			return 0;
	return 1;
}

/* Remember @id as the class of @name and @fields, if all are constant. */
static uint32_t fixed_keep(const char *name, const struct field *fields, unsigned int n,
			   uint32_t id)
{
	struct fixed_class *f = &c.fixed;
	unsigned int i;
	size_t len = strlen(name);

	f->valid = 0;
	if (id == UINT32_MAX || n > FIXED_FIELDS || len >= sizeof(f->name))
		return id;
	for (i = 0; i < n; i++) {
		/* A constant's sign is its type's: F_INT's are unsigned. */
		if (!fields[i].fixed || fields[i].is_signed)
			return id;
		f->names[i] = fields[i].name;
		f->types[i] = fields[i].type;
		f->bits[i] = fields[i].bits;
	}
	memcpy(f->name, name, len + 1);
	f->n = n;
	f->id = id;
	f->valid = 1;
	return id;
}

/*
 * The class of an event named @name with @fields: its key is the name,
 * then a line a field of its type and name. New keys get the next ID.
 * UINT32_MAX when memory runs out. Every event asks, so the key is built
 * in one buffer kept from event to event, with no formatted output: with
 * a stdio stream a field it was the converter's largest cost.
 */
static uint32_t class_find(const char *name, const struct field *fields, unsigned int n)
{
	struct class_key *k = &c.key;
	struct ctf_class *e;
	char *key;
	unsigned int i;
	uint32_t h;

	k->len = 0;
	if (key_add(k, name, strlen(name)))
		return UINT32_MAX;
	for (i = 0; i < n; i++) {
		char num[16], *p = num + sizeof(num);
		unsigned int v = fields[i].bits * 2 + !!fields[i].is_signed;

		*--p = ' ';
		do
			*--p = (char)('0' + v % 10);
		while (v /= 10);
		*--p = "sib"[fields[i].type];
		*--p = '\n';
		if (key_add(k, p, num + sizeof(num) - p) ||
		    key_add(k, fields[i].name, strlen(fields[i].name)))
			return UINT32_MAX;
	}
	/* Events come in runs of one class: the last one found, first. */
	e = c.last_class;
	if (e && e->len == k->len && !memcmp(e->key, k->buf, k->len))
		return e->id;
	if (!c.hash || c.nr_classes > c.hash_mask) {
		if (hash_grow())
			return UINT32_MAX;
	}
	h = hash_of(k->buf);
	for (e = c.hash[h & c.hash_mask]; e; e = e->next)
		if (!strcmp(e->key, k->buf)) {
			c.last_class = e;
			return e->id;
		}
	key = strdup(k->buf);
	if (!key)
		return UINT32_MAX;
	if (c.nr_classes == c.cap_classes) {
		uint32_t cap = c.cap_classes ? 2 * c.cap_classes : 64;
		struct ctf_class **v = realloc(c.classes, cap * sizeof(*v));

		if (!v)
			goto nomem;
		c.classes = v;
		c.cap_classes = cap;
	}
	e = malloc(sizeof(*e));
	if (!e)
		goto nomem;
	e->key = key;
	e->len = k->len;
	e->hash = h;
	e->id = c.nr_classes;
	e->next = c.hash[h & c.hash_mask];
	c.hash[h & c.hash_mask] = e;
	c.classes[c.nr_classes++] = e;
	return e->id;
nomem:
	free(key);
	return UINT32_MAX;
}

/* The class of an event named @name with @fields (class_find()). */
static uint32_t class_of(const char *name, const struct field *fields, unsigned int n)
{
	if (fixed_same(name, fields, n))
		return c.fixed.id;
	return fixed_keep(name, fields, n, class_find(name, fields, n));
}

/* ---- streams and packets ---- */

/* Room for @n more bytes in @s's packet: 0, or -1 (c.failed set). */
static int put_grow(struct stream *s, size_t n)
{
	size_t cap = s->cap ? s->cap : PACKET_MAX;
	uint8_t *b;

	while (cap < s->len + n)
		cap *= 2;
	b = realloc(s->pkt, cap);
	if (!b) {
		c.failed = ENOMEM;
		return -1;
	}
	s->pkt = b;
	s->cap = cap;
	return 0;
}

/* An integer at the end of @s's packet (packet_start()'s fields). */
static inline void put_le(struct stream *s, uint64_t v, unsigned int bytes)
{
	if (s->len + bytes > s->cap && put_grow(s, bytes))
		return;
	ntr_put_le(s->pkt + s->len, v, bytes);
	s->len += bytes;
}

/* Room for @n more bytes at the end of @s's packet, or NULL (c.failed). */
static uint8_t *room(struct stream *s, size_t n)
{
	if (n > SIZE_MAX / 4 - s->len) {	/* put_grow()'s doubling would wrap */
		c.failed = ENOMEM;
		return NULL;
	}
	if (s->len + n > s->cap && put_grow(s, n))
		return NULL;
	return s->pkt + s->len;
}

/* The packet's header and context; its times and sizes are set at its end. */
static void packet_start(struct stream *s, unsigned int cpu)
{
	s->len = 0;
	put_le(s, CTF_MAGIC, 4);
	put_le(s, 0, 4);			/* stream_id */
	put_le(s, 0, 8);			/* timestamp_begin */
	put_le(s, 0, 8);			/* timestamp_end */
	put_le(s, 0, 8);			/* content_size */
	put_le(s, 0, 8);			/* packet_size */
	put_le(s, s->seq, 8);			/* packet_seq_num */
	put_le(s, 0, 8);			/* events_discarded */
	put_le(s, cpu, 4);			/* cpu_id */
	s->begin = 0;
}

static int live_metadata(void);

/* The packet sent or written, if it has an event (or @s->empty is set). */
static void packet_end(struct stream *s)
{
	uint64_t bits = (uint64_t)s->len * 8;

	if (s->len < PACKET_HEADER + PACKET_CONTEXT ||
	    (s->len == PACKET_HEADER + PACKET_CONTEXT && !s->empty))
		return;
	s->empty = 0;
	if (c.live) {
		uint64_t lost = __atomic_load_n(&c.consumer_lost, __ATOMIC_RELAXED);

		if (lost > c.discarded) {
			s->discarded += lost - c.discarded;
			c.discarded = lost;
		}
	}
	ntr_put_le(s->pkt + 8, s->begin, 8);
	ntr_put_le(s->pkt + 16, s->end, 8);
	ntr_put_le(s->pkt + 24, bits, 8);
	ntr_put_le(s->pkt + 32, bits, 8);
	ntr_put_le(s->pkt + PACKET_DISCARDED, s->discarded, 8);
	if (c.relay) {
		const struct relay_index ix = {
			.packet_size = bits, .content_size = bits,
			.timestamp_begin = s->begin, .timestamp_end = s->end,
			.events_discarded = s->discarded,
			.stream_instance_id = (uint64_t)(s - c.cpu), .packet_seq_num = s->seq,
		};
		int err;

		/* Once the relay failed (said once), nothing more is sent. */
		if (!c.failed && c.live && live_metadata())
			c.failed = EPROTO;
		if (!c.failed) {
			err = relay_packet(c.relay, s->handle, &s->net_seq, s->pkt, s->len, &ix);
			if (err)
				c.failed = -err;
		}
	} else if (fwrite(s->pkt, 1, s->len, s->f) != s->len && !c.failed) {
		c.failed = errno ? errno : EIO;
	}
	s->seq++;
	s->len = 0;
}

/*
 * A new file of the trace's directory: mode 0600 (a trace holds other
 * users' command lines, paths and addresses), never a file or a symbolic
 * link already there (O_EXCL).
 */
static FILE *create(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

/* CPU @cpu's stream added at the relay, as LTTng names it: 0 or -errno. */
static int relay_stream_add(unsigned int cpu)
{
	char path[32];
	int err;

	snprintf(path, sizeof(path), "channel0_%u", cpu);
	err = relay_add_stream(c.relay, path, &c.cpu[cpu].handle);
	if (!err)
		c.cpu[cpu].open = 1;
	return err;
}

static struct stream *stream_of(unsigned int cpu)
{
	struct stream *s = &c.cpu[cpu];
	char path[4096];
	int err;

	if (s->open)
		return s;
	if (c.relay) {
		if (c.failed)
			return NULL;
		err = relay_stream_add(cpu);
		/* Live: viewers are told of it at once. */
		if (!err && c.live)
			err = relay_streams_sent(c.relay);
		if (err) {
			c.failed = -err;
			return NULL;
		}
		return s;
	}
	snprintf(path, sizeof(path), "%s/channel0_%u", c.dir, cpu);
	s->f = create(path);
	if (!s->f) {
		fprintf(stderr, "nttrace: %s: %s\n", path, strerror(errno));
		c.failed = errno;
		return NULL;
	}
	s->open = 1;
	return s;
}

/* ---- events ---- */

static void add(struct field *v, unsigned int *n, enum ftype type, const char *name)
{
	memset(&v[*n], 0, sizeof(v[*n]));
	v[*n].type = type;
	v[*n].name = identifier(name);
	(*n)++;
}

/*
 * The fields of the events this file names itself (not TDH): their names
 * as TSDL identifiers, constants, so that such an event, which may be
 * every event of a trace, allocates none. No two of one event are alike.
 */
static const char id_data[] = "_data", id_text[] = "_text", id_message[] = "_message",
		  id_file[] = "_file", id_line[] = "_line";

static void add_fixed(struct field *v, unsigned int *n, enum ftype type, const char *id)
{
	memset(&v[*n], 0, sizeof(v[*n]));
	v[*n].type = type;
	v[*n].name = (char *)id;	/* @fixed: never freed nor renamed */
	v[*n].fixed = 1;
	(*n)++;
}

/* A name met twice in one event (TDH allows it) gets _2, _3, ... */
static int unique_names(struct field *v, unsigned int n)
{
	char **names;
	unsigned int i;
	int ret;

	for (i = 0; i < n && v[i].fixed; i++)
		;
	if (n < 2 || i == n)
		return 0;	/* nothing can collide */
	names = malloc(n * sizeof(*names));
	if (!names)
		return -1;
	for (i = 0; i < n; i++)
		names[i] = v[i].name;
	ret = cli_unique_names(names, n);
	for (i = 0; i < n; i++)
		v[i].name = names[i];
	free(names);
	return ret;
}

static void write_event(const EVENT_RECORD *er, const char *name, struct field *v,
			unsigned int n)
{
	const EVENT_HEADER *eh = &er->EventHeader;
	const EVENT_DESCRIPTOR *d = &eh->EventDescriptor;
	const struct nttrace_etl_event *ev = nttrace_current_record();
	unsigned int cpu = er->BufferContext.ProcessorIndex, i;
	uint64_t ft = eh->TimeStamp.QuadPart, ts;
	struct stream *s;
	uint8_t *at;
	size_t size;
	uint32_t id;

	for (i = 0; i < n; i++)
		if (!v[i].name)
			goto nomem;
	if (unique_names(v, n))
		goto nomem;
	id = class_of(name, v, n);
	if (id == UINT32_MAX)
		goto nomem;
	if (cpu >= MAX_CPUS) {
		c.too_far++;
		return;
	}
	s = stream_of(cpu);
	if (!s)
		return;
	/* Before 1970, or past 2554 (64 bits of nanoseconds): the stream's last. */
	ts = ft > NTTRACE_FILETIME_UNIX_EPOCH &&
	     ft - NTTRACE_FILETIME_UNIX_EPOCH <= UINT64_MAX / 100 ?
	     (ft - NTTRACE_FILETIME_UNIX_EPOCH) * 100 : 0;
	if (ts < s->last) {
		ts = s->last;
		c.moved++;
	}
	s->last = ts;
	if (ts > c.watermark)
		c.watermark = ts;
	if (s->len && s->len + 256 + eh->Size > PACKET_MAX)
		packet_end(s);
	if (!s->len) {
		packet_start(s, cpu);
		s->begin = ts;
	}
	s->end = ts;
	/* Events come in runs of one provider: its text is kept. */
	if (!c.guid_text[0] || memcmp(c.guid, &eh->ProviderId, sizeof(c.guid))) {
		memcpy(c.guid, &eh->ProviderId, sizeof(c.guid));
		nttrace_guid_string(c.guid, c.guid_text);
	}
	/*
	 * The event's size first, then its bytes through a cursor of our own:
	 * stored through the packet's pointer, each field made the compiler
	 * load and store the packet's length again (a byte store may alias
	 * it), memory accesses that an emulator (QEMU's TCG) makes dear.
	 */
	size = EVENT_HEAD;
	for (i = 0; i < n; i++) {
		switch (v[i].type) {
		case F_STRING:
			v[i].len = strlen(v[i].text ? v[i].text : "") + 1;
			break;
		case F_INT:
			v[i].len = v[i].bits / 8;
			break;
		default:
			v[i].len = 4 + (size_t)v[i].size;
			break;
		}
		if (v[i].len > SIZE_MAX - size)
			goto nomem;
		size += v[i].len;
	}
	at = room(s, size);
	if (!at)
		return;
	ntr_put_le(at, id, 4);
	ntr_put_le(at + 4, ts, 8);
	/* event.context */
	memcpy(at + 12, c.guid_text, NTTRACE_GUID_STRING);
	at += 12 + NTTRACE_GUID_STRING;
	ntr_put_le(at, eh->ProcessId, 4);
	ntr_put_le(at + 4, eh->ThreadId, 4);
	ntr_put_le(at + 8, d->Id, 2);
	at[10] = d->Version;
	at[11] = d->Channel;
	at[12] = d->Level;
	at[13] = d->Opcode;
	ntr_put_le(at + 14, d->Task, 2);
	ntr_put_le(at + 16, d->Keyword, 8);
	at[24] = ev && ev->lost;
	at += 25;
	for (i = 0; i < n; i++) {
		switch (v[i].type) {
		case F_STRING:
			memcpy(at, v[i].text ? v[i].text : "", v[i].len);
			break;
		case F_INT:
			ntr_put_le(at, v[i].value, v[i].len);
			break;
		case F_BYTES:
			ntr_put_le(at, v[i].size, 4);
			memcpy(at + 4, v[i].bytes, v[i].size);
			break;
		}
		at += v[i].len;
	}
	s->len += size;
	c.events++;
	return;
nomem:
	c.failed = ENOMEM;
}

static void free_fields(struct field *v, unsigned int n)
{
	while (n--)
		if (!v[n].fixed)
			free(v[n].name);
}

/* A TDH-described event: its properties, and the data they leave as bytes. */
static int convert_tdh(const EVENT_RECORD *er)
{
	struct render_fields f;
	struct field *v;
	unsigned int n = 0, i;
	char *name;

	if (!render_tdh_fields(er, render_pointer_size(er), &f))
		return 0;
	v = calloc(f.n + 2, sizeof(*v));
	name = malloc((f.provider ? strlen(f.provider) : 0) + (f.event ? strlen(f.event) : 0) + 2);
	if (!v || !name) {
		c.failed = ENOMEM;
		goto out;
	}
	sprintf(name, "%s%s%s", f.provider ? f.provider : "", f.provider ? "/" : "",
		f.event ? f.event : "");
	for (i = 0; i < f.n; i++) {
		add(v, &n, f.v[i].bits ? F_INT : F_STRING, f.v[i].name ? f.v[i].name : "");
		v[n - 1].text = f.v[i].text;
		v[n - 1].bits = f.v[i].bits;
		v[n - 1].is_signed = f.v[i].is_signed;
		v[n - 1].value = f.v[i].value;
	}
	/*
	 * Where the fields end early, what they did not take, and why: the
	 * data ended inside a field, or a field had more values than an
	 * event's rendering may visit (render_tdh.c).
	 */
	if (f.cut) {
		add(v, &n, F_STRING, f.stopped ? "too_many_values_at" : "cut_short_at");
		v[n - 1].text = f.cut;
	}
	if (f.decoded < er->UserDataLength) {
		add(v, &n, F_BYTES, "undecoded");
		v[n - 1].bytes = (const uint8_t *)er->UserData + f.decoded;
		v[n - 1].size = er->UserDataLength - f.decoded;
	}
	write_event(er, name, v, n);
out:
	if (v)
		free_fields(v, n);
	free(v);
	free(name);
	render_fields_free(&f);
	return 1;
}

/* A message with a format: its text, source file and line. */
static int convert_formatted(const EVENT_RECORD *er)
{
	const EVENT_HEADER *eh = &er->EventHeader;
	const struct nttrace_tmf_format *f;
	struct field v[3];
	unsigned int n = 0;
	char text[4096];

	f = nttrace_tmf_find(&render_formats, (const uint8_t *)&eh->ProviderId,
			     eh->EventDescriptor.Id, render_pointer_size(er));
	if (!f)
		return 0;
	nttrace_tmf_render(f, er->UserData, er->UserDataLength, render_pointer_size(er), text,
			   sizeof(text));
	add_fixed(v, &n, F_STRING, id_message);
	v[0].text = text;
	add_fixed(v, &n, F_STRING, id_file);
	v[1].text = f->file;
	add_fixed(v, &n, F_INT, id_line);
	v[2].bits = 32;
	v[2].value = f->line;
	write_event(er, "TraceMessage", v, n);
	free_fields(v, n);
	return 1;
}

/* EventWriteString's text: 0 if its data is not UTF-16 text (dump's rule). */
static int convert_text(const EVENT_RECORD *er)
{
	char *text = render_utf16_data(er->UserData, er->UserDataLength);
	struct field v[1];
	unsigned int n = 0;

	if (!text)
		return 0;
	add_fixed(v, &n, F_STRING, id_text);
	v[0].text = text;
	write_event(er, "EventWriteString", v, n);
	free_fields(v, n);
	free(text);
	return 1;
}

static void convert_data(const EVENT_RECORD *er, const char *name)
{
	struct field v[1];
	unsigned int n = 0;

	add_fixed(v, &n, F_BYTES, id_data);
	v[0].bytes = er->UserData;
	v[0].size = er->UserDataLength;
	write_event(er, name, v, n);
	free_fields(v, n);
}

static void WINAPI on_event(PEVENT_RECORD er)
{
	const EVENT_HEADER *eh = &er->EventHeader;
	const struct nttrace_etl_event *ev = nttrace_current_record();

	if (render_is_header_event(er))
		return;
	if (c.live)
		pthread_mutex_lock(&c.lock);
	if (c.failed) {
		;
	} else if (eh->Flags & EVENT_HEADER_FLAG_TRACE_MESSAGE) {
		if (!convert_formatted(er))
			convert_data(er, "TraceMessage");
	} else if (convert_tdh(er)) {
		;
	} else if (eh->Flags & EVENT_HEADER_FLAG_STRING_ONLY && convert_text(er)) {
		;
	} else if (ev && ev->system) {
		const struct nttrace_kernel_group *g = nttrace_kernel_group(ev->hook_id);
		char name[64];

		snprintf(name, sizeof(name), "Kernel/%s", g ? g->name : "unknown");
		convert_data(er, name);
	} else if (eh->Flags & EVENT_HEADER_FLAG_CLASSIC_HEADER) {
		convert_data(er, "TraceEvent");
	} else {
		convert_data(er, "EventWrite");
	}
	if (c.live)
		pthread_mutex_unlock(&c.lock);
}

/* ---- the metadata ---- */

static void field_decl(FILE *m, const char *key_line)
{
	char type = key_line[0];
	unsigned int code = (unsigned int)strtoul(key_line + 1, NULL, 10);
	const char *name = strchr(key_line, ' ') + 1;
	size_t len = strcspn(name, "\n");

	if (type == 's')
		fprintf(m, "\t\tstring %.*s;\n", (int)len, name);
	else if (type == 'i')
		fprintf(m, "\t\t%c%u %.*s;\n", code & 1 ? 's' : 'u', code / 2, (int)len, name);
	else
		fprintf(m, "\t\tu32 %.*s_size;\n\t\txu8 %.*s[%.*s_size];\n", (int)len, name,
			(int)len, name, (int)len, name);
}

static void env_string(FILE *m, const char *key, const char *value)
{
	fprintf(m, "\t%s = ", key);
	tsdl_string(m, value);
	fputs(";\n", m);
}

/*
 * The metadata's text (TSDL) up to the event classes, to @m; @counts: with
 * the losses and times moved in env (known at the end; live, they are
 * not, and the losses go in the packets).
 */
static void metadata_head(FILE *m, int counts, uint64_t events_lost, uint64_t buffers_lost)
{
	const TRACE_LOGFILE_HEADER *h = &c.lf.LogfileHeader;
	char host[256] = "";
	unsigned int b;

	fputs("/* CTF 1.8 */\n\n", m);
	for (b = 8; b <= 64; b *= 2)
		fprintf(m, "typealias integer { size = %u; align = 8; signed = false; } := u%u;\n"
			"typealias integer { size = %u; align = 8; signed = true; } := s%u;\n"
			"typealias integer { size = %u; align = 8; signed = false; base = 16; }"
			" := xu%u;\n", b, b, b, b, b, b);
	fputs("\ntrace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = le;\n"
	      "\tpacket.header := struct {\n\t\tu32 magic;\n\t\tu32 stream_id;\n\t};\n};\n\n",
	      m);
	fputs("env {\n", m);
	env_string(m, "tracer_name", "nttrace");
	env_string(m, "trace_name", c.session ? c.session : c.source);
	if (!gethostname(host, sizeof(host) - 1) && host[0])
		env_string(m, "converted_on", host);
	if (counts)
		fprintf(m, "\tevents_lost = %" PRIu64 ";\n\tbuffers_lost = %" PRIu64 ";\n"
			"\ttimes_moved_forward = %" PRIu64 ";\n", events_lost, buffers_lost,
			c.moved);
	fprintf(m, "\tpointer_size = %u;\n\tnumber_of_processors = %u;\n};\n\n",
		h->PointerSize ? h->PointerSize : 8, h->NumberOfProcessors);
	fputs("clock {\n\tname = \"filetime\";\n"
	      "\tdescription = \"UTC in ns since 1970, from the events' FILETIMEs\";\n"
	      "\tfreq = 1000000000;\n\tprecision = 1;\n\toffset_s = 0;\n\toffset = 0;\n"
	      "\tabsolute = true;\n};\n\n"
	      "typealias integer { size = 64; align = 8; signed = false;"
	      " map = clock.filetime.value; } := u64_clock;\n\n", m);
	fputs("stream {\n\tid = 0;\n"
	      "\tpacket.context := struct {\n"
	      "\t\tu64_clock timestamp_begin;\n\t\tu64_clock timestamp_end;\n"
	      "\t\tu64 content_size;\n\t\tu64 packet_size;\n\t\tu64 packet_seq_num;\n"
	      "\t\tu64 events_discarded;\n\t\tu32 cpu_id;\n\t};\n"
	      "\tevent.header := struct {\n\t\tu32 id;\n\t\tu64_clock timestamp;\n\t};\n"
	      "\tevent.context := struct {\n"
	      "\t\tstring provider;\n\t\tu32 pid;\n\t\tu32 tid;\n\t\tu16 id;\n"
	      "\t\tu8 version;\n\t\tu8 channel;\n\t\tu8 level;\n\t\tu8 opcode;\n"
	      "\t\tu16 task;\n\t\txu64 keyword;\n\t\tu8 lost_before;\n\t};\n};\n", m);
}

/* The declarations of event classes @from to the last, to @m. */
static void metadata_classes(FILE *m, uint32_t from)
{
	uint32_t i;

	for (i = from; i < c.nr_classes; i++) {
		const char *key = c.classes[i]->key, *line = strchr(key, '\n');
		size_t len = line ? (size_t)(line - key) : strlen(key);
		char *name = strndup(key, len);

		fprintf(m, "\nevent {\n\tname = ");
		tsdl_string(m, name ? name : "");
		free(name);
		fprintf(m, ";\n\tid = %u;\n\tstream_id = 0;\n\tfields := struct {\n", i);
		for (; line; line = strchr(line + 1, '\n'))
			field_decl(m, line + 1);
		fputs("\t};\n};\n", m);
	}
}

/*
 * The header of a metadata packet of @len bytes (CTF 1.8, "Metadata"; in
 * the trace's byte order, little-endian): its magic, no UUID, checksum,
 * compression or encryption, its sizes in bits, the CTF version.
 */
static void metadata_packet_header(uint8_t *p, size_t len)
{
	ntr_put_le(p, 0x75D11D57, 4);		/* magic */
	memset(p + 4, 0, 20);			/* uuid, checksum */
	ntr_put_le(p + 24, (uint64_t)len * 8, 4);	/* content_size */
	ntr_put_le(p + 28, (uint64_t)len * 8, 4);	/* packet_size */
	memset(p + 32, 0, 3);		/* compression, encryption, checksum schemes */
	p[35] = 1;				/* major */
	p[36] = 8;				/* minor */
}

/*
 * To the relay's metadata stream: the head if @head (with @counts, as
 * metadata_head()), then the classes it does not have yet. 0 or 1.
 */
static int relay_send_metadata(int head, int counts, uint64_t events_lost,
			       uint64_t buffers_lost)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	int err;

	if (c.failed)
		return 1;	/* the relay's failure, said already */
	if (!head && c.classes_sent == c.nr_classes)
		return 0;
	m = open_memstream(&text, &len);
	if (!m) {
		fprintf(stderr, "nttrace: metadata: %s\n", strerror(errno));
		return 1;
	}
	/* Live, each piece is a metadata packet, as LTTng's are. */
	if (c.live)
		fwrite((char[METADATA_PACKET_HEADER]){ 0 }, 1, METADATA_PACKET_HEADER, m);
	if (head)
		metadata_head(m, counts, events_lost, buffers_lost);
	metadata_classes(m, c.classes_sent);
	if (fclose(m)) {
		fprintf(stderr, "nttrace: metadata: %s\n", strerror(errno));
		free(text);
		return 1;
	}
	if (c.live)
		metadata_packet_header((uint8_t *)text, len);
	err = relay_metadata(c.relay, c.metadata_handle, text, len);
	free(text);
	if (!err)
		c.classes_sent = c.nr_classes;
	return !!err;
}

/*
 * Live: before a packet, the classes declared since the last one, and with
 * the first packet the head. Not before: babeltrace2 2.0's lttng-live
 * source, given a trace of no event class first, crashed (SIGSEGV) at the
 * first event after its class came in the next piece. 0 or 1.
 */
static int live_metadata(void)
{
	int head = !c.head_sent;

	c.head_sent = 1;
	return relay_send_metadata(head, 0, 0, 0);
}

/* The metadata, as DIR/metadata or to the relay's metadata stream: 0 or 1. */
static int write_metadata(uint64_t events_lost, uint64_t buffers_lost)
{
	char path[4096];
	FILE *m;

	if (c.relay)
		return c.live ? live_metadata() :
		       relay_send_metadata(1, 1, events_lost, buffers_lost);
	snprintf(path, sizeof(path), "%s/metadata", c.dir);
	m = create(path);
	if (!m) {
		fprintf(stderr, "nttrace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	metadata_head(m, 1, events_lost, buffers_lost);
	metadata_classes(m, 0);
	if (fclose(m)) {
		fprintf(stderr, "nttrace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

/* ---- the command ---- */

/*
 * Live to a relay, before the first event: a stream for each of the
 * session's CPUs, all announced at once with the metadata's. A viewer
 * that attaches to a trace of no data stream drops the trace (babeltrace2
 * 2.0's lttng-live source), and a stream announced later would then come
 * without its metadata: so every stream is there from the start, as
 * LTTng's consumer daemon adds a channel's streams. 0 or 1.
 */
static int live_start(void)
{
	unsigned int i, n = c.lf.LogfileHeader.NumberOfProcessors;

	for (i = 0; i < n && i < MAX_CPUS; i++)
		if (relay_stream_add(i))
			return 1;
	return !!relay_streams_sent(c.relay);
}

/*
 * Live to a relay, at each tick: the session flushed (as `nttrace flush`),
 * so that what its CPUs hold in partly filled buffers comes now, not at
 * its flush timer, as LTTng's consumer daemon flushes its buffers at its
 * live timer. A caller who may read the session but not control it is
 * told once, and its events come at the session's flush timer.
 */
static void live_flush(void)
{
	struct nttrace_logger_info info = { .size = sizeof(info) };
	int err;

	if (c.flush_refused)
		return;
	err = nttrace_set_name(&info, c.session);
	if (!err)
		err = nttrace_control(&info, EVENT_TRACE_CONTROL_FLUSH);
	/* Gone (stopped since the last tick): the reader ends as it goes. */
	if (err != -EPERM && err != -EACCES)
		return;
	c.flush_refused = 1;
	fprintf(stderr, "nttrace: %s: not flushed each tick (%s): its events come when its "
		"buffers fill or at its flush timer\n", c.session, strerror(-err));
}

/*
 * Live to a relay, at each tick of its live timer: each stream's packet so
 * far sent, or, for a stream with nothing new, a beacon up to the
 * watermark (the head of this file says why). The relay heeds a beacon
 * only once the stream has sent a packet, and a viewer waits on a stream
 * with neither: a stream that has sent none yet sends a packet of no
 * event, from and to the watermark, as LTTng's consumer daemon flushes an
 * empty buffer at its live timer.
 */
static void live_tick(void)
{
	unsigned int i;
	int err;

	live_flush();
	pthread_mutex_lock(&c.lock);
	for (i = 0; i < MAX_CPUS && !c.failed; i++) {
		struct stream *s = &c.cpu[i];

		if (!s->open)
			continue;
		if (s->len) {
			packet_end(s);
			continue;
		}
		if (!c.watermark)
			continue;	/* no event yet, anywhere */
		if (s->last < c.watermark)
			s->last = c.watermark;
		if (!s->net_seq) {
			/* A first packet, of no event (see above). */
			packet_start(s, i);
			s->begin = s->end = s->last;
			s->empty = 1;
			packet_end(s);
			continue;
		}
		err = relay_beacon(c.relay, s->handle, s->net_seq, s->last, i);
		if (err)
			c.failed = -err;
	}
	pthread_mutex_unlock(&c.lock);
}

/*
 * A live session's: CloseTrace at a signal (or, live to a relay, once the
 * relay failed), and the relay's live timer.
 */
static void *watcher(void *arg)
{
	struct timespec step = { 0, 50000000 };
	double next = cli_now() + LIVE_TIMER_US / 1e6;

	(void)arg;
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		/* A relay that failed ends a live stream: said, exit 1. */
		if (stop_signal || (c.live && __atomic_load_n(&c.failed, __ATOMIC_RELAXED))) {
			CloseTrace(c.handle);
			break;
		}
		if (c.live && cli_now() >= next) {
			live_tick();
			next = cli_now() + LIVE_TIMER_US / 1e6;
		}
		nanosleep(&step, NULL);
	}
	return NULL;
}

static ULONG WINAPI on_buffer(PEVENT_TRACE_LOGFILEA l)
{
	/* The events this consumer lost, as the library counts them. */
	__atomic_store_n(&c.consumer_lost, l->EventsLost, __ATOMIC_RELAXED);
	return TRUE;
}

/* A problem in the file (ProcessTrace skips the part): said on stderr. */
static void on_problem(void *ctx, uint64_t offset, const char *what)
{
	(void)ctx;
	fprintf(stderr, "nttrace: %s: offset %" PRIu64 ": %s\n", c.source, offset, what);
	c.problems++;
}

/*
 * DIR made (mode 0700), or one of the caller's already there that holds
 * no trace: 0, else says why and returns 1. A symbolic link is not
 * followed.
 */
static int make_dir(const char *dir)
{
	char probe[4096];
	struct stat st;

	if (!mkdir(dir, 0700))
		return 0;
	if (errno != EEXIST || lstat(dir, &st)) {
		fprintf(stderr, "nttrace: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "nttrace: %s: %s\n", dir, S_ISLNK(st.st_mode) ?
			"a symbolic link: not followed, nothing written" : strerror(EEXIST));
		return 1;
	}
	if (st.st_uid != geteuid()) {
		fprintf(stderr, "nttrace: %s: another user's directory: nothing written\n", dir);
		return 1;
	}
	snprintf(probe, sizeof(probe), "%s/metadata", dir);
	if (access(probe, F_OK))
		return 0;
	fprintf(stderr, "nttrace: %s: holds a trace already\n", dir);
	return 1;
}

int cmd_convert(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "to", required_argument, NULL, 't' },
		{ "live", required_argument, NULL, 'l' },
		{ "formats", required_argument, NULL, 'f' },
		{ "manifest", required_argument, NULL, 'm' },
		{ "name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *url = NULL, *name = NULL;
	char host[256] = "", base[256];
	struct nttrace_trace_counts counts;
	uint64_t events_lost, buffers_lost;
	struct sigaction sa;
	pthread_t thread;
	int opt, to = 0, threaded, ret = 0;
	unsigned int i;
	ULONG err;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			if (!strcmp(optarg, "ctf")) {
				to = 1;
			} else if (!strcmp(optarg, "perf-data")) {
				to = 2;
			} else if (!strncmp(optarg, "net://", 6)) {
				uint16_t ctrl, data;

				if (relay_parse_url(optarg, host, sizeof(host), &ctrl, &data))
					return CLI_USAGE;
				to = 3;
				url = optarg;
			} else {
				fprintf(stderr, "nttrace: --to %s: the formats are ctf, perf-data and "
					"net://HOST[:CTRL_PORT[:DATA_PORT]]\n", optarg);
				return CLI_USAGE;
			}
			break;
		case 'n':
			name = optarg;
			break;
		case 'l':
			c.session = optarg;
			break;
		case 'f':
			if (render_load_formats(optarg))
				return 1;
			break;
		case 'm':
			if (render_load_manifests(optarg))
				return 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return CLI_USAGE;
		}
	}
	/* DIR, but to a relay; then FILE, but for a session. */
	if (!to || optind != argc - (to == 3 ? 0 : 1) - (c.session ? 0 : 1) ||
	    (name && to != 3)) {
		usage(stderr);
		return CLI_USAGE;
	}
	if (to == 2) {
		if (c.session) {
			fprintf(stderr, "nttrace: --to perf-data reads a file, not a session\n");
			return CLI_USAGE;
		}
		return perfdata_convert(argv[optind], argv[optind + 1]);
	}
	if (to == 3) {
		c.dir = url;
		c.source = c.session ? c.session : argv[optind];
	} else {
		c.dir = argv[optind];
		c.source = c.session ? c.session : argv[optind + 1];
	}
	if (c.session) {
		c.lf.LoggerName = (LPSTR)c.session;
		c.lf.ProcessTraceMode = PROCESS_TRACE_MODE_REAL_TIME |
					PROCESS_TRACE_MODE_EVENT_RECORD;
	} else {
		if (render_not_a_directory(c.source))
			return 1;
		c.lf.LogFileName = (LPSTR)c.source;
		c.lf.ProcessTraceMode = PROCESS_TRACE_MODE_EVENT_RECORD;
	}
	c.lf.EventRecordCallback = on_event;
	c.lf.BufferCallback = on_buffer;
	c.handle = OpenTraceA(&c.lf);
	if (c.handle == INVALID_PROCESSTRACE_HANDLE)
		return render_fail(GetLastError(), c.source, "OpenTrace");
	if (to == 3) {
		/* The session's name: --name, the live session's, or the file's. */
		if (!name) {
			const char *slash = strrchr(c.source, '/');
			char *dot;

			snprintf(base, sizeof(base), "%s", slash ? slash + 1 : c.source);
			dot = strrchr(base, '.');
			if (dot && dot != base)
				*dot = 0;
			name = base;
		}
		if (gethostname(host, sizeof(host) - 1) || !host[0])
			snprintf(host, sizeof(host), "localhost");
		c.live = !!c.session;
		if (relay_open(&c.relay, url, name, host, c.live ? LIVE_TIMER_US : 0) ||
		    relay_add_stream(c.relay, "metadata", &c.metadata_handle) ||
		    (c.live && live_start())) {
			relay_close(c.relay);
			CloseTrace(c.handle);
			return 1;
		}
		pthread_mutex_init(&c.lock, NULL);
	} else if (make_dir(c.dir)) {
		CloseTrace(c.handle);
		return 1;
	}
	err = nttrace_trace_problems(c.handle, on_problem, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: a blocked read returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	threaded = c.session && !pthread_create(&thread, NULL, watcher, NULL);
	if (!err)
		err = ProcessTrace(&c.handle, 1, NULL, NULL);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	if (threaded)
		pthread_join(thread, NULL);
	memset(&counts, 0, sizeof(counts));
	nttrace_trace_counts(c.handle, &counts);
	CloseTrace(c.handle);
	for (i = 0; i < MAX_CPUS; i++) {
		if (!c.cpu[i].open)
			continue;
		packet_end(&c.cpu[i]);
		if (c.cpu[i].f && fclose(c.cpu[i].f) && !c.failed)
			c.failed = errno;
		free(c.cpu[i].pkt);
	}
	if (c.session) {
		events_lost = __atomic_load_n(&c.consumer_lost, __ATOMIC_RELAXED);
		buffers_lost = 0;
	} else {
		events_lost = c.lf.LogfileHeader.EventsLost;
		buffers_lost = c.lf.LogfileHeader.BuffersLost;
	}
	if (c.relay && !c.failed && relay_streams_sent(c.relay))
		c.failed = EPROTO;
	if (write_metadata(events_lost, buffers_lost))
		ret = 1;
	if (c.relay) {
		/*
		 * Each stream closed once the relay has written its last
		 * packet (a reader of the relay's copy may start as soon as
		 * this command ends); then the session.
		 */
		for (i = 0; i < MAX_CPUS && !ret && !c.failed; i++)
			if (c.cpu[i].open &&
			    (relay_wait_written(c.relay, c.cpu[i].handle, c.cpu[i].net_seq) ||
			     relay_close_stream(c.relay, c.cpu[i].handle, c.cpu[i].net_seq)))
				ret = 1;
		if (!ret && !c.failed && relay_close_stream(c.relay, c.metadata_handle, 0))
			ret = 1;
		relay_close(c.relay);
	}
	nttrace_tmf_free(&render_formats);
	if (c.failed) {
		fprintf(stderr, "nttrace: %s: %s\n", c.dir, strerror(c.failed));
		ret = 1;
	}
	if (c.moved)
		fprintf(stderr, "nttrace: %" PRIu64 " events earlier than the one before them on"
			" their CPU were given its time\n", c.moved);
	if (c.session && events_lost)
		fprintf(stderr, "nttrace: %" PRIu64 " events lost: the session's rings were full"
			" while this reader fell behind\n", events_lost);
	if (c.too_far) {
		fprintf(stderr, "nttrace: %" PRIu64 " events of CPUs past %d not converted\n",
			c.too_far, MAX_CPUS - 1);
		ret = 1;
	}
	if (counts.not_delivered || counts.buffers_skipped || counts.bytes_skipped) {
		fprintf(stderr, "nttrace: not read: %" PRIu64 " records, %" PRIu64 " buffers, %"
			PRIu64 " bytes of records\n", counts.not_delivered,
			counts.buffers_skipped, counts.bytes_skipped);
		ret = 1;
	}
	fprintf(stderr, "nttrace: %" PRIu64 " events in %u classes written to %s\n", c.events,
		c.nr_classes, c.dir);
	if (err && !stop_signal)
		return render_fail(err, c.source, "ProcessTrace");
	return ret || c.problems;
}
