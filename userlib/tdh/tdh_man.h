/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Instrumentation manifests in memory (userlib/tdh/tdh_man*.c): what
 * the XML of a manifest (the EventManifest schema, learn.microsoft.com,
 * "Writing an instrumentation manifest") says about its providers, kept
 * for TDH to decode their events with (DecodingSourceXMLFile).
 *
 * A manifest is read once (tdh_man_parse.c, with expat) into a struct
 * nttrace_man, every reference by name (an event's level, task, template;
 * a field's count, length and map; a $(string.X) message) resolved then,
 * so that decoding only looks things up by value. Strings are UTF-8, as
 * expat hands them; they become UTF-16 when copied out. Everything of one
 * manifest lives in its arena and goes with it.
 */
#ifndef NTTRACE_TDH_MAN_H
#define NTTRACE_TDH_MAN_H

#include <stddef.h>
#include <stdint.h>

#include "tdh_internal.h"

/* A level, task, opcode, keyword or channel, and its message. */
struct nttrace_man_item {
	const char *name;
	const char *message;	/* resolved; NULL: none */
	const char *message_s;	/* as written */
	const char *symbol;	/* the name a generated header gives it; NULL: none */
	const char *chid;	/* a channel's, which events name it by */
	/* A channel's type, enabled and isolation attributes, as written. */
	const char *type, *enabled, *isolation;
	uint64_t value;		/* a keyword's mask */
	GUID guid;		/* a task's eventGUID (has_guid) */
	uint16_t task;		/* an opcode defined in a task: the task's value */
	uint8_t in_task;
	uint8_t has_value;	/* a channel's value was given */
	uint8_t has_guid;
	uint8_t imported;	/* an importChannel */
	uint32_t line;		/* of its element in the XML (a compiler's messages) */
};

struct nttrace_man_list {
	struct nttrace_man_item *v;
	uint32_t n, cap;
};

struct nttrace_man_map_entry {
	uint32_t value;
	const char *message, *message_s;
	const char *symbol;	/* a generated header's name for it; NULL: none */
};

struct nttrace_man_map {
	const char *name;
	const char *symbol;	/* a generated header's name for the map; NULL: none */
	int bitmap;
	struct nttrace_man_map_entry *v;
	uint32_t n, cap;
};

/*
 * A <data> or a <struct> of a template, in document order; a struct's
 * members follow it (parent: the struct's index; -1 at the top level).
 * count and length are constants, or (ref) the index of the item they
 * name, which comes before this one in the same scope.
 */
struct nttrace_man_data {
	const char *name;
	const char *count_s, *length_s, *map_s, *in_s, *out_s;	/* as written */
	int32_t parent;
	uint8_t is_struct;
	uint8_t count_ref, length_ref;	/* count and length are item indices */
	uint8_t has_count, has_length;
	uint16_t in, out;
	uint32_t count, length;
	const struct nttrace_man_map *map;
	uint32_t line;
};

struct nttrace_man_template {
	const char *tid;
	const char *name;	/* the EventData's Name attribute; NULL: none */
	struct nttrace_man_data *v;
	uint32_t n, cap;
	uint32_t line;
};

struct nttrace_man_event {
	uint16_t id;
	uint8_t version, level, opcode, channel;
	uint16_t task;
	uint64_t keywords;
	const char *name;
	const char *symbol;	/* the name a generated header gives it; NULL: none */
	/* The attributes as written; resolved into the pointers below. */
	const char *level_s, *task_s, *opcode_s, *channel_s, *keywords_s, *template_s,
		   *message_s;
	const struct nttrace_man_item *level_i, *task_i, *opcode_i, *channel_i;
	const struct nttrace_man_template *tmpl;
	const char *message;
	uint32_t line;
};

struct nttrace_man_provider {
	GUID guid;
	const char *name;
	const char *message_s, *message;
	/* The attributes a message compiler reads, as written; NULL: absent. */
	const char *symbol, *resource_file, *message_file, *parameter_file;
	struct nttrace_man_list levels, tasks, opcodes, keywords, channels;
	struct nttrace_man_map *maps;
	uint32_t nmaps, capmaps;
	struct nttrace_man_template *tmpls;
	uint32_t ntmpls, captmpls;
	struct nttrace_man_event *events;
	uint32_t nevents, capevents;
	/* The events' indices by Id, Version and order (tdh_man_resolve.c). */
	uint32_t *by_id;
	uint32_t line;
};

struct nttrace_man_string {
	const char *culture, *id, *value;
};

struct nttrace_man_block;

struct nttrace_man {
	struct nttrace_man_block *arena;
	struct nttrace_man_provider *provs;
	uint32_t nprovs, capprovs;
	/* Every string table's strings (tdh_man_resolve.c picks a culture). */
	struct nttrace_man_string *strings;
	uint32_t nstrings, capstrings;
	/* Where resolving failed, and why (tdh_man_resolve.c): for messages. */
	uint32_t bad_line;
	const char *bad_what;
};

/* ---- tdh_man_arena.c ---- */

/* Zeroed memory of @m's arena; NULL when out of memory. */
void *nttrace_man_alloc(struct nttrace_man *m, size_t size);
char *nttrace_man_strdup(struct nttrace_man *m, const char *s);
/*
 * Room for one more element at the end of the array *@v (@n used, @cap
 * allocated, elements of @size bytes), grown in the arena; the new
 * element (zeroed), or NULL.
 */
void *nttrace_man_push(struct nttrace_man *m, void *v, uint32_t *n, uint32_t *cap, size_t size);
void nttrace_man_free(struct nttrace_man *m);

/* ---- tdh_man_parse.c ---- */

/*
 * The manifest in @xml (@len bytes), newly allocated. ERROR_XML_PARSE_ERROR
 * when it is no well-formed XML or does not make sense as a manifest (an
 * unknown inType, a reference to nothing), ERROR_NOT_ENOUGH_MEMORY, and
 * ERROR_NOT_SUPPORTED in a library built without expat.
 */
ULONG nttrace_man_parse(const void *xml, size_t len, struct nttrace_man **out);

/*
 * Where and why nttrace_man_parse_diag() refused a manifest, for a
 * compiler's messages: the line (0: not known) and a static text.
 */
struct nttrace_man_diag {
	unsigned long line;
	const char *what;
};

/* nttrace_man_parse(), saying in @diag where and why it failed. */
ULONG nttrace_man_parse_diag(const void *xml, size_t len, struct nttrace_man **out,
			     struct nttrace_man_diag *diag);

/* ---- tdh_man_wevt.c ---- */

/*
 * The compiled manifest @crim (@len bytes: a WEVT_TEMPLATE resource, as
 * mc.exe writes NAMETEMP.BIN) and, when @msgtable is not NULL, the texts
 * of its messages from the message table @msgtable (@msglen bytes: a
 * MESSAGETABLE resource, MSG00001.bin), newly allocated and resolved.
 * ERROR_INVALID_DATA when either does not make sense, ERROR_NOT_ENOUGH_
 * MEMORY.
 */
ULONG nttrace_man_from_wevt(const void *crim, size_t len, const void *msgtable, size_t msglen,
			    struct nttrace_man **out);

/* ---- tdh_man_resolve.c ---- */

/* Every reference of @m by name resolved; ERROR_XML_PARSE_ERROR else. */
ULONG nttrace_man_resolve(struct nttrace_man *m);
/* @p's events indexed by Id and Version (p->by_id, in @m's arena): 0, or -1. */
int nttrace_man_index_events(struct nttrace_man *m, struct nttrace_man_provider *p);
/*
 * Comparisons and steps of the lookups resolving and describing make
 * (tdh_man_resolve.c, tdh_man_event.c), counted for tests that their
 * number grows as n log n or n with a manifest's size; not locked.
 */
extern unsigned long nttrace_man_steps;

/* ---- tdh_man_types.c ---- */

/* @s as a number (decimal, or hexadecimal after 0x) up to @max; 0 or -1. */
int nttrace_man_number(const char *s, uint64_t max, uint64_t *v);

/* winmeta.xml's input and output type names; 0 for one not known. */
USHORT nttrace_man_intype(const char *name);
USHORT nttrace_man_outtype(const char *name);
/* The names of input and output type @v; NULL for one not known. */
const char *nttrace_man_intype_name(USHORT v);
const char *nttrace_man_outtype_name(USHORT v);

/* The levels, opcodes, task, keywords and channels winmeta.xml defines. */
enum nttrace_man_kind { MAN_LEVEL, MAN_TASK, MAN_OPCODE, MAN_KEYWORD, MAN_CHANNEL };
const struct nttrace_man_item *nttrace_man_winmeta(enum nttrace_man_kind kind, const char *name);
const struct nttrace_man_item *nttrace_man_winmeta_at(enum nttrace_man_kind kind, uint32_t i);

/* ---- tdh_man_load.c: the manifests loaded, under one lock ---- */

/* No manifest is near this: a bound on what one load reads and keeps. */
#define NTTRACE_MAN_MAX		(64U << 20)


void nttrace_man_lock(void);
void nttrace_man_unlock(void);
/* The @i-th provider of every manifest loaded (lock held); NULL past the last. */
const struct nttrace_man_provider *nttrace_man_provider_at(uint32_t i);
/* The provider of GUID @g (lock held), the first loaded; NULL if none. */
const struct nttrace_man_provider *nttrace_man_provider(const GUID *g);

/* ---- tdh_man_search.c: the manifests TDH finds by itself ---- */

#ifndef NTTRACE_MANIFEST_DIR_DEFAULT
#define NTTRACE_MANIFEST_DIR_DEFAULT	"/var/lib/nttrace/manifests"
#endif

/* Every manifest of the search path that parses, in its order; their count. */
size_t nttrace_man_search(struct nttrace_man ***mans);
/* Whether a directory's file named @name is taken for a manifest (".man", ".xml"). */
int nttrace_man_is_manifest_name(const char *name);

/* ---- tdh_man_elf.c ---- */

struct stat;
/*
 * @path opened for reading (*@fd, its stat in *@st) if it is a regular
 * file; else a Win32 error (a directory or a device: ERROR_FILE_NOT_FOUND)
 * and nothing open.
 */
ULONG nttrace_man_open(const char *path, int *fd, struct stat *st);
/*
 * The whole file open at @fd (@st its stat), at most NTTRACE_MAN_MAX bytes,
 * newly allocated: a Win32 error (ERROR_XML_PARSE_ERROR if it shrank).
 */
ULONG nttrace_man_read_fd(int fd, const struct stat *st, void **data, size_t *len);
/* The whole regular file @path, as nttrace_man_read_fd() reads it: a Win32 error. */
ULONG nttrace_man_read_file(const char *path, void **data, size_t *len);

/* An errno as the Win32 error of a file not read (ENOENT: not found). */
ULONG nttrace_man_errno(int e);
/*
 * @len bytes at @off of @fd into @buf: a Win32 error, ERROR_RESOURCE_NOT_
 * FOUND when the file ends first.
 */
ULONG nttrace_man_read_at(int fd, void *buf, size_t len, uint64_t off);
/*
 * The section @name of the ELF file @fd, newly allocated: ERROR_RESOURCE_
 * NOT_FOUND when it is no ELF file or has no such section (or one larger
 * than NTTRACE_MAN_MAX).
 */
ULONG nttrace_man_elf_section(int fd, const char *name, void **data, size_t *len);

/* ---- tdh_man_event.c ---- */

/* @p's first event of Id @id and Version @version (a binary search); NULL if none. */
const struct nttrace_man_event *nttrace_man_event(const struct nttrace_man_provider *p,
						  uint16_t id, uint8_t version);
/*
 * The TRACE_EVENT_INFO of a manifest event (EventWrite's, with no
 * TraceLogging schema) whose provider, Id and Version a manifest loaded
 * describes; newly allocated. ERROR_NOT_FOUND when none does.
 */
ULONG nttrace_tdh_man_info(const EVENT_RECORD *er, uint32_t psz, TRACE_EVENT_INFO **tei,
			   ULONG *size);
/* The same for @ev of @p, with @desc as its EventDescriptor (lock held). */
ULONG nttrace_man_event_info(const struct nttrace_man_provider *p,
			     const struct nttrace_man_event *ev, const EVENT_DESCRIPTOR *desc,
			     uint32_t psz, TRACE_EVENT_INFO **tei, ULONG *size);

/* ---- tdh_man_map.c ---- */

/*
 * @v shown by the map @mi (a value map's or a bit map's texts), appended
 * to @t; 0 when @mi is no map this knows (the caller shows the number).
 */
int nttrace_tdh_put_map(struct nttrace_tdh_text *t, const EVENT_MAP_INFO *mi, uint64_t v);

/* ---- UTF-16 out of UTF-8, for the structures handed out ---- */

/* The bytes of @s as UTF-16 with its NUL (0 for NULL: no string). */
size_t nttrace_man_wsize(const char *s);
/* @s as UTF-16 at @base + *@at, *@at moved past it; its offset, 0 for NULL. */
ULONG nttrace_man_wput(uint8_t *base, size_t *at, const char *s);

#endif /* NTTRACE_TDH_MAN_H */
