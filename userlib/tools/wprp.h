/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Windows Performance Recorder's profiles (.wprp files and the built-in
 * ones) for `nttrace wpr`: the XML read into a tree (wprp_xml.c), a
 * profile resolved into what to record (wprp.c), WPR's names of kernel
 * keywords and stacks (wpr_names.c), the built-in profiles (wpr_builtin.c).
 *
 * The shape of a file, as Microsoft's "WPRControlProfiles" schema and the
 * Windows Performance Toolkit's documentation give it:
 *
 *   WindowsPerformanceRecorder/Profiles
 *     SystemCollector, EventCollector   (Id, Name; BufferSize, Buffers, ...)
 *     SystemProvider                    (Id; Keywords/Keyword, Stacks/Stack)
 *     EventProvider                     (Id, Name, Level, Stack; Keywords/Keyword,
 *                                        EventFilters/EventId, ...)
 *     Profile                           (Id "Name.DetailLevel.LoggingMode", Base;
 *       Collectors/SystemCollectorId    (SystemProviderId or SystemProvider)
 *       Collectors/EventCollectorId     (EventProviders/EventProviderId or
 *                                        EventProvider))
 *
 * Anything with an Id may name another of its kind as its Base: it starts
 * as a copy of it. Lists (keywords, stacks, providers, event IDs) then
 * change by their Operation attribute: Set (the default) replaces, Add
 * adds, Remove takes away; an element without one takes its nearest
 * ancestor's.
 */
#ifndef NTTRACE_WPRP_H
#define NTTRACE_WPRP_H

#include <stdint.h>
#include <stdio.h>

/* What a hostile file may cost: its size, then the tree's bounds. */
#define WPRP_MAX_FILE		(16U << 20)
#define WPRP_MAX_DEPTH		64
#define WPRP_MAX_ELEMENTS	200000
/* How long a chain of Base profiles or collectors may be. */
#define WPRP_MAX_BASES		16
/*
 * How much a plan may hold (ETW has 64 sessions), and how many elements
 * resolving one profile may visit, per element of its documents.
 */
#define WPRP_MAX_COLLECTORS	64
#define WPRP_MAX_PROVIDERS	1024
#define WPRP_VISITS_PER_ELEMENT	64

/* One element: its local name, attributes (name, value, ..., NULL), children. */
struct wprp_el {
	const char *name;
	struct wprp_el *parent, *first, *last, *next;
	struct wprp_el *all;		/* every element of the document, to free */
	unsigned int line;
	unsigned int mark;		/* wprp.c: a Base chain being followed */
	const char *attr[];
};

struct wprp_chunk {
	struct wprp_chunk *next;
	char data[];
};

/* An Id's element: the index wprp_index() builds of a document. */
struct wprp_slot {
	const char *id;
	struct wprp_el *el;
};

struct wprp_doc {
	struct wprp_el *root, *all;
	struct wprp_chunk *chunks;
	unsigned int n_elements;
	struct wprp_slot *index;	/* open addressing, index_size slots */
	unsigned int index_size;
	const char *path;		/* for messages */
	char why[200];			/* why parsing failed */
};

/*
 * The document of @len bytes of XML at @xml into @doc: 0, or -1 with
 * @doc->why saying why (and nothing to free).
 */
int wprp_xml_parse(const char *xml, size_t len, struct wprp_doc *doc);
/* The file at @path, read and parsed: the same. */
int wprp_load(const char *path, struct wprp_doc *doc);
/* The built-in profiles (wpr_builtin.c): the same. */
int wprp_load_builtin(struct wprp_doc *doc);
void wprp_doc_free(struct wprp_doc *doc);
/* Attribute @name of @e, or NULL. */
const char *wprp_attr(const struct wprp_el *e, const char *name);

/* WPR's names of kernel keywords and stacks (wpr_names.c). */
#define WPRP_KEYWORD_WORDS	2	/* bit sets of up to 128 keyword names */
#define WPRP_STACK_WORDS	4	/* and of up to 256 stack names */
/* The index of keyword (stack) @name, case as in the schema, or -1. */
int wpr_keyword_index(const char *name);
int wpr_stack_index(const char *name);
const char *wpr_keyword_name(unsigned int i);
const char *wpr_stack_name(unsigned int i);
/*
 * The NT Kernel Logger's flags (EVENT_TRACE_FLAG_*) keyword @i records
 * with, 0 when nttrace has none for it; and the HookId a stack is taken
 * after, 0 when nttrace writes no such event.
 */
uint32_t wpr_keyword_flags(unsigned int i);
uint16_t wpr_stack_hook(unsigned int i);

/* An event provider as a profile leaves it. */
struct wprp_provider {
	const char *id, *name;		/* Name: a GUID, a provider's name or *Name */
	unsigned int line;
	uint8_t level;			/* 0xFF unless said */
	uint64_t keywords;		/* MatchAnyKeyword; 0: every event */
	int stack;			/* Stack="true" */
	int capture_state_only;
	uint64_t save_keywords;		/* CaptureStateOnSave: asked at -stop */
	uint64_t start_keywords;	/* CaptureStateOnStart: asked at -start */
	int filter;			/* EventFilters: 0 none, 1 FilterIn, -1 out */
	unsigned int n_ids;
	uint16_t ids[64];
	const char *unsupported;	/* the first thing asked that nttrace cannot do */
};

struct wprp_collector {
	const char *id, *name;
	int system;
	uint32_t buffer_kb;		/* 0: not said */
	uint64_t buffers;		/* a count; 0: not said */
	double buffers_pct;		/* or a percentage of memory, when > 0 */
	uint64_t max_buffer_mb;		/* MaximumBufferSpace: a percentage's cap */
	uint32_t max_file_mb;		/* MaximumFileSize: 0 none */
	int file_sequential;		/* its FileMode */
	uint32_t flush_timer;		/* FlushTimer, seconds: 0 none */
	/* A system collector's keywords and stacks, by wpr_*_index() bit. */
	uint64_t keywords[WPRP_KEYWORD_WORDS];
	uint64_t stacks[WPRP_STACK_WORDS];
	/* CustomKeyword and CustomStack values, and what else nttrace cannot do. */
	uint32_t custom_keywords[8];
	unsigned int n_custom_keywords;
	uint16_t custom_stacks[32];
	unsigned int n_custom_stacks;
	struct wprp_provider *prov;
	unsigned int n_prov, cap_prov;
};

/* What one or more profiles ask to record. */
struct wprp_plan {
	struct wprp_collector *col;
	unsigned int n_col, cap_col;
	const char *profiles[64];	/* the profile Ids, in the order given */
	const char *names[64];		/* and their Names */
	unsigned int n_profiles;
	int file_mode;
	/* What the profiles ask that is skipped, for `-start` to list once. */
	const char *skipped[32];
	unsigned int n_skipped;
	/* An error: WPR's code, what, and where. */
	uint32_t code;
	char why[300];
};

/* WPR's error codes (its HRESULTs, facility 0x558) that nttrace gives. */
#define WPR_E_SCHEMA		0xC5580701U	/* the profile file's schema is not valid */
#define WPR_E_FILE		0xC5580702U	/* the profile file is missing or corrupt */
#define WPR_E_NO_PROFILE	0xC5580704U	/* no <Profile> of that name */
#define WPR_E_NO_ELEMENT	0xC5580708U	/* an Id named that is nowhere */
#define WPR_E_KEYWORD		0xC5581006U	/* <Keyword> is invalid */
#define WPR_E_STACK		0xC5581008U	/* <Stack> is invalid */
#define WPR_E_LEVEL		0xC5581010U	/* Level is invalid */
#define WPR_E_OPERATION		0xC5581011U	/* Operation is invalid */
#define WPR_E_NO_DEFAULT	0xC558101DU	/* no profile is Default="true" */
#define WPR_E_MANY_DEFAULT	0xC558101EU	/* several are */
#define WPR_E_INTERNAL		0xC558101CU	/* an Internal profile asked for */
#define WPR_E_NOT_RUNNING	0xC5583000U	/* there are no trace profiles running */
#define WPR_E_RUNNING		0xC5583001U	/* the profiles are already running */
#define WPR_E_COLLECTOR_RUNNING	0xC5583014U	/* the event collector was already running */
#define WPR_E_START		0xC5585000U	/* failed to start the profiles */
#define WPR_E_SAVE		0xC5585003U	/* failed to save them */
#define WPR_E_POLICY		0xC5585011U	/* not allowed to profile the system */
#define WPR_E_TEMP_DIR		0xC5586004U	/* invalid temporary trace directory */
#define WPR_E_CONVENTION	0xC5586005U	/* an Id not Name.DetailLevel.LoggingMode */

/*
 * Add profile @spec to @plan: "Name" or "Name.Light" / "Name.Verbose"
 * (any case; Verbose when left out), NULL for the one marked
 * Default="true", in @file (NULL: the built-in profiles) with @builtin
 * for the Bases a file names (both indexed by wprp_index()), in
 * @plan->file_mode's variant (File or Memory; the other when the profile
 * has only that, said in @plan->skipped). Several profiles added one after
 * the other are merged as WPR merges them: collectors of the same name
 * are one session, their keywords, stacks and providers the union.
 * 0, or -1 with @plan->code and @plan->why.
 */
int wprp_add_profile(struct wprp_plan *plan, struct wprp_doc *file, struct wprp_doc *builtin,
		     const char *spec);
void wprp_plan_free(struct wprp_plan *plan);
/* Index the Ids of @doc (its Profiles' children): 0, or -1 out of memory. */
int wprp_index(struct wprp_doc *doc);
/*
 * `-profiles`: each profile Name of @doc that is not Internal, with its
 * description, once, on @f.
 */
void wprp_list_profiles(const struct wprp_doc *doc, FILE *f);
/*
 * Text that may come from a profile file, on @f: its control characters
 * as '?' (an escape sequence in an Id must not reach a terminal), line
 * breaks and tabs kept if @lines; padded with spaces to @width.
 */
void wprp_put_clean(FILE *f, const char *s, size_t width, int lines);

#endif /* NTTRACE_WPRP_H */
