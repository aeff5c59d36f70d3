// SPDX-License-Identifier: GPL-2.0
/*
 * A WPR profile resolved into what to record (wprp.h): its collectors
 * (sessions) with their buffers, the kernel keywords and stacks of the
 * system collector, the event providers of the others.
 *
 * How a profile is resolved. Its Base profile first, recursively; then
 * each <Collectors> of its own, whose SystemCollectorId and
 * EventCollectorId name the collectors they change:
 *  - a collector met for the first time starts as its definition (with
 *    that definition's own Base chain); its BufferSize, Buffers,
 *    MaximumFileSize and FlushTimer are then set by whatever the profile
 *    says of them;
 *  - the system provider's keywords and stacks, and the event providers,
 *    change the collector's by Operation: Set replaces, Add adds, Remove
 *    takes away. An element without Operation takes its nearest
 *    ancestor's, Set at the top: so `<Collectors Operation="Add">` in a
 *    derived profile adds to what its Base enabled, and a plain
 *    <Collectors> replaces the lists of the collectors it names but keeps
 *    the others. (What WPR does here is documented only by example; this
 *    is the reading that gives the results of Microsoft's own built-in
 *    and sample profiles.)
 * Providers and collectors are keyed by Id. Profiles given together are
 * each resolved alone, then merged (wprp_add_profile()).
 *
 * What nttrace cannot do (heap collectors, hardware counters, pool tags,
 * some filters, ...) is listed in the plan's skipped[] for `nttrace wpr`
 * to say, and left out: never recorded as if it had been honoured.
 *
 * Costs: every Id is found through a hash index (wprp_index()); a Base
 * chain is followed at most WPRP_MAX_BASES deep, a loop in it refused; so
 * a file's profile costs a bounded multiple of the file's size.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wprp.h"

enum op { OP_SET, OP_ADD, OP_REMOVE };

/* Say why @plan failed (the first reason stays): -1. */
__attribute__((format(printf, 4, 5)))
static int fail(struct wprp_plan *plan, uint32_t code, const struct wprp_el *at,
		const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (plan->code)
		return -1;
	plan->code = code;
	va_start(ap, fmt);
	vsnprintf(plan->why, sizeof(plan->why), fmt, ap);
	va_end(ap);
	n = strlen(plan->why);
	if (at && n < sizeof(plan->why))
		snprintf(plan->why + n, sizeof(plan->why) - n, " (line %u)", at->line);
	return -1;
}

/* Note something skipped, once (the list is bounded; the rest are counted). */
static void skip(struct wprp_plan *plan, const char *what)
{
	unsigned int i;

	for (i = 0; i < plan->n_skipped; i++)
		if (!strcmp(plan->skipped[i], what))
			return;
	if (plan->n_skipped < sizeof(plan->skipped) / sizeof(plan->skipped[0]))
		plan->skipped[plan->n_skipped++] = what;
}

int wprp_load(const char *path, struct wprp_doc *doc)
{
	struct stat st;
	char *buf;
	ssize_t got;
	size_t len = 0;
	int fd, ret;

	memset(doc, 0, sizeof(*doc));
	/* O_NONBLOCK: a FIFO named as a profile does not hang the open. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(doc->why, sizeof(doc->why), "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > WPRP_MAX_FILE) {
		snprintf(doc->why, sizeof(doc->why), "%s",
			 !S_ISREG(st.st_mode) ? "not a regular file" : "larger than 16 MB");
		close(fd);
		return -1;
	}
	buf = malloc(st.st_size + 1);
	if (!buf) {
		close(fd);
		snprintf(doc->why, sizeof(doc->why), "out of memory");
		return -1;
	}
	while (len < (size_t)st.st_size &&
	       (got = read(fd, buf + len, st.st_size - len)) > 0)
		len += got;
	close(fd);
	ret = wprp_xml_parse(buf, len, doc);
	free(buf);
	doc->path = path;
	return ret;
}

/* ---- the index of Ids ---- */

static unsigned int hash(const char *s)
{
	unsigned int h = 2166136261U;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619U;
	return h;
}

/* The Profiles element of @doc, or NULL. */
static struct wprp_el *profiles_of(const struct wprp_doc *doc)
{
	struct wprp_el *e;

	if (!doc->root || strcmp(doc->root->name, "WindowsPerformanceRecorder"))
		return NULL;
	for (e = doc->root->first; e; e = e->next)
		if (!strcmp(e->name, "Profiles"))
			return e;
	return NULL;
}

int wprp_index(struct wprp_doc *doc)
{
	struct wprp_el *p = profiles_of(doc), *e;
	unsigned int n = 0, size = 16;

	if (!p) {
		snprintf(doc->why, sizeof(doc->why),
			 "no <WindowsPerformanceRecorder><Profiles>: not a WPR profile file");
		return -1;
	}
	for (e = p->first; e; e = e->next)
		n++;
	while (size < 2 * n)
		size *= 2;
	doc->index = calloc(size, sizeof(*doc->index));
	if (!doc->index) {
		snprintf(doc->why, sizeof(doc->why), "out of memory");
		return -1;
	}
	doc->index_size = size;
	for (e = p->first; e; e = e->next) {
		const char *id = wprp_attr(e, "Id");
		unsigned int h;

		if (!id)
			continue;
		for (h = hash(id) & (size - 1); doc->index[h].id; h = (h + 1) & (size - 1))
			if (!strcmp(doc->index[h].id, id)) {
				snprintf(doc->why, sizeof(doc->why),
					 "line %u: Id \"%.60s\" is given twice", e->line, id);
				return -1;
			}
		doc->index[h].id = id;
		doc->index[h].el = e;
	}
	return 0;
}

static struct wprp_el *lookup(const struct wprp_doc *doc, const char *id)
{
	unsigned int h;

	if (!doc || !doc->index)
		return NULL;
	for (h = hash(id) & (doc->index_size - 1); doc->index[h].id;
	     h = (h + 1) & (doc->index_size - 1))
		if (!strcmp(doc->index[h].id, id))
			return doc->index[h].el;
	return NULL;
}

/*
 * What a profile resolves in: its file, and the built-in profiles after
 * it; and how many more elements it may visit. A Base chain is walked
 * again for each reference to it, so a file of many references to one
 * long chain could cost its size squared: the budget, a multiple of the
 * documents' sizes, keeps the work linear and fails what exceeds it.
 */
struct ctx {
	struct wprp_plan *plan;
	const struct wprp_doc *file, *builtin;
	unsigned long budget;
};

/* One more element visited: 0, or -1 (failed) when the budget is spent. */
static int visit(struct ctx *c, const struct wprp_el *e)
{
	if (c->budget) {
		c->budget--;
		return 0;
	}
	return fail(c->plan, WPR_E_SCHEMA, e, "the profile refers to too much: more than %u times the file's size",
		    WPRP_VISITS_PER_ELEMENT);
}

/* Element @id of kind @kind, from the file first; NULL (failed) if none. */
static struct wprp_el *find(struct ctx *c, const struct wprp_el *from, const char *id,
			    const char *kind)
{
	struct wprp_el *e = lookup(c->file, id);

	if (!e)
		e = lookup(c->builtin, id);
	if (!e) {
		fail(c->plan, WPR_E_NO_ELEMENT, from, "no %s with Id \"%.60s\"", kind, id);
		return NULL;
	}
	if (strcmp(e->name, kind)) {
		fail(c->plan, WPR_E_SCHEMA, from, "Id \"%.60s\" is a <%s>, not a <%s>", id,
		     e->name, kind);
		return NULL;
	}
	return e;
}

/*
 * @fn on @def's Base chain, the farthest Base first, then on @def itself:
 * a derived element starts as what its Base makes of it. A Base is of
 * @def's own kind; a chain that loops (marked while followed) or goes
 * deeper than WPRP_MAX_BASES fails.
 */
static int with_bases(struct ctx *c, struct wprp_el *def, unsigned int depth,
		      int (*fn)(struct ctx *c, struct wprp_el *def, void *arg), void *arg)
{
	const char *base = wprp_attr(def, "Base");
	struct wprp_el *b;
	int ret;

	if (depth > WPRP_MAX_BASES || def->mark)
		return fail(c->plan, WPR_E_SCHEMA, def, "the Bases of \"%.60s\" loop or go too deep",
			    wprp_attr(def, "Id"));
	if (base && *base) {
		b = find(c, def, base, def->name);
		if (!b)
			return -1;
		def->mark = 1;
		ret = with_bases(c, b, depth + 1, fn, arg);
		def->mark = 0;
		if (ret)
			return ret;
	}
	return fn(c, def, arg);
}

/* ---- values ---- */

static int get_op(struct ctx *c, const struct wprp_el *e, enum op inherited, enum op *op)
{
	const char *v = wprp_attr(e, "Operation");

	*op = inherited;
	if (!v)
		return 0;
	if (!strcasecmp(v, "Set"))
		*op = OP_SET;
	else if (!strcasecmp(v, "Add"))
		*op = OP_ADD;
	else if (!strcasecmp(v, "Remove"))
		*op = OP_REMOVE;
	else
		return fail(c->plan, WPR_E_OPERATION, e, "Operation \"%.20s\" is not Set, Add or Remove",
			    v);
	return 0;
}

/* An unsigned number, decimal or 0x hex, at most @max: 0, or -1. */
static int number(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || *end || *v > max)
		return -1;
	return 0;
}

static int attr_number(struct ctx *c, const struct wprp_el *e, const char *name, uint64_t max,
		       uint64_t *v)
{
	const char *s = wprp_attr(e, name);

	if (number(s, max, v))
		return fail(c->plan, WPR_E_SCHEMA, e, "<%s %s=\"%.30s\">: not a number up to %llu",
			    e->name, name, s ? s : "", (unsigned long long)max);
	return 0;
}

/* xs:boolean: true, false, 1, 0; @dflt when absent. */
static int attr_bool(struct ctx *c, const struct wprp_el *e, const char *name, int dflt, int *v)
{
	const char *s = wprp_attr(e, name);

	*v = dflt;
	if (!s)
		return 0;
	if (!strcmp(s, "true") || !strcmp(s, "1"))
		*v = 1;
	else if (!strcmp(s, "false") || !strcmp(s, "0"))
		*v = 0;
	else
		return fail(c->plan, WPR_E_SCHEMA, e, "<%s %s=\"%.20s\">: not true or false",
			    e->name, name, s);
	return 0;
}

/* ---- collectors' buffers ---- */

static int set_buffers(struct ctx *c, struct wprp_collector *col, const struct wprp_el *e)
{
	uint64_t v;
	int b;

	if (!strcmp(e->name, "BufferSize")) {
		if (attr_number(c, e, "Value", 1U << 20, &v))
			return -1;
		col->buffer_kb = v;
	} else if (!strcmp(e->name, "Buffers")) {
		const char *s = wprp_attr(e, "Value");
		char *end;
		double d;

		if (attr_bool(c, e, "PercentageOfTotalMemory", 0, &b))
			return -1;
		if (b) {
			d = s ? strtod(s, &end) : NAN;
			if (!s || *end || !(d > 0 && d <= 100))
				return fail(c->plan, WPR_E_SCHEMA, e,
					    "<Buffers Value=\"%.20s\">: not a percentage", s ? s : "");
			col->buffers_pct = d;
			col->buffers = 0;
			if (wprp_attr(e, "MaximumBufferSpace")) {
				if (attr_number(c, e, "MaximumBufferSpace", UINT32_MAX, &v))
					return -1;
				col->max_buffer_mb = v;
			}
		} else {
			if (attr_number(c, e, "Value", UINT32_MAX, &v))
				return -1;
			col->buffers = v;
			col->buffers_pct = 0;
		}
	} else if (!strcmp(e->name, "MaximumFileSize")) {
		const char *mode = wprp_attr(e, "FileMode");

		if (attr_number(c, e, "Value", UINT32_MAX, &v))
			return -1;
		col->max_file_mb = v;
		col->file_sequential = mode && !strcasecmp(mode, "Sequential");
		if (mode && !col->file_sequential && strcasecmp(mode, "Circular"))
			return fail(c->plan, WPR_E_SCHEMA, e,
				    "FileMode \"%.20s\" is not Circular or Sequential", mode);
	} else if (!strcmp(e->name, "FlushTimer")) {
		if (attr_number(c, e, "Value", UINT32_MAX, &v))
			return -1;
		col->flush_timer = v;
	} else if (!strcmp(e->name, "FileMax")) {
		/* Files kept across boots: only a boot trace has several. */
		skip(c->plan, "FileMax (a boot trace's file count)");
	} else if (!strcmp(e->name, "FlushThreshold")) {
		skip(c->plan, "FlushThreshold (buffers are published when full)");
	} else if (!strcmp(e->name, "StackCaching")) {
		skip(c->plan, "StackCaching (stacks are written whole)");
	}
	return 0;
}

static int collector_body(struct ctx *c, struct wprp_el *def, void *arg)
{
	struct wprp_collector *col = arg;
	const char *name = wprp_attr(def, "Name");
	struct wprp_el *e;

	if (name)
		col->name = name;
	for (e = def->first; e; e = e->next)
		if (visit(c, e) || set_buffers(c, col, e))
			return -1;
	return 0;
}

/*
 * Room for one more collector in @plan, at most WPRP_MAX_COLLECTORS: the
 * slot past the last (the caller fills it, then counts it), or NULL
 * (failed, said at @at).
 */
static struct wprp_collector *collector_room(struct wprp_plan *plan, const struct wprp_el *at)
{
	if (plan->n_col == WPRP_MAX_COLLECTORS) {
		fail(plan, WPR_E_START, at, "more than %u collectors", WPRP_MAX_COLLECTORS);
		return NULL;
	}
	if (plan->n_col == plan->cap_col) {
		unsigned int cap = plan->cap_col ? 2 * plan->cap_col : 4;
		void *p = realloc(plan->col, cap * sizeof(*plan->col));

		if (!p) {
			fail(plan, WPR_E_START, NULL, "out of memory");
			return NULL;
		}
		plan->col = p;
		plan->cap_col = cap;
	}
	return &plan->col[plan->n_col];
}

static struct wprp_collector *plan_collector(struct ctx *c, const struct wprp_el *ref,
					     const char *id, int system)
{
	struct wprp_plan *plan = c->plan;
	struct wprp_collector *col;
	struct wprp_el *def;
	unsigned int i;

	for (i = 0; i < plan->n_col; i++)
		if (!strcmp(plan->col[i].id, id))
			return &plan->col[i];
	def = find(c, ref, id, system ? "SystemCollector" : "EventCollector");
	if (!def)
		return NULL;
	col = collector_room(plan, ref);
	if (!col)
		return NULL;
	memset(col, 0, sizeof(*col));
	col->id = id;
	col->system = system;
	if (with_bases(c, def, 0, collector_body, col))
		return NULL;
	plan->n_col++;
	return col;
}

/* ---- the system provider: keywords and stacks ---- */

struct sysprov {
	uint64_t keywords[WPRP_KEYWORD_WORDS];
	uint64_t stacks[WPRP_STACK_WORDS];
};

static void apply_bits(uint64_t *to, const uint64_t *bits, unsigned int words, enum op op)
{
	unsigned int i;

	for (i = 0; i < words; i++)
		to[i] = op == OP_SET ? bits[i] : op == OP_ADD ? to[i] | bits[i] : to[i] & ~bits[i];
}

/* Keywords or Stacks @list (of op @op) onto @sp; customs onto @col. */
static int sys_list(struct ctx *c, struct sysprov *sp, struct wprp_collector *col,
		    const struct wprp_el *list, enum op op)
{
	int keywords = !strcmp(list->name, "Keywords");
	uint64_t bits[WPRP_STACK_WORDS] = { 0 };
	const struct wprp_el *e;
	uint64_t v;
	int i;

	for (e = list->first; e; e = e->next) {
		const char *name = wprp_attr(e, "Value");

		if (visit(c, e))
			return -1;
		if (!strcmp(e->name, keywords ? "Keyword" : "Stack")) {
			i = name ? (keywords ? wpr_keyword_index(name) : wpr_stack_index(name)) : -1;
			if (i < 0)
				return fail(c->plan, keywords ? WPR_E_KEYWORD : WPR_E_STACK, e,
					    "<%s Value=\"%.40s\"> is not one of WPR's", e->name,
					    name ? name : "");
			bits[i / 64] |= 1ULL << (i % 64);
		} else if (!strcmp(e->name, keywords ? "CustomKeyword" : "CustomStack")) {
			if (attr_number(c, e, "Value", keywords ? UINT32_MAX : 0xFFFF, &v))
				return -1;
			/* A raw HookId is one nttrace may write; a group-mask bit is not. */
			if (keywords) {
				if (col && col->n_custom_keywords < 8)
					col->custom_keywords[col->n_custom_keywords++] = v;
			} else if (col && col->n_custom_stacks < 32 && op != OP_REMOVE) {
				col->custom_stacks[col->n_custom_stacks++] = v;
			}
		}
	}
	if (keywords)
		apply_bits(sp->keywords, bits, WPRP_KEYWORD_WORDS, op);
	else
		apply_bits(sp->stacks, bits, WPRP_STACK_WORDS, op);
	return 0;
}

/* The lists of system provider element @e (a definition or a reference). */
static int sys_lists(struct ctx *c, struct sysprov *sp, struct wprp_collector *col,
		     const struct wprp_el *e, enum op inherited)
{
	const struct wprp_el *l;
	enum op op;

	for (l = e->first; l; l = l->next) {
		if (visit(c, l))
			return -1;
		if (!strcmp(l->name, "Keywords") || !strcmp(l->name, "Stacks")) {
			if (get_op(c, l, inherited, &op) || sys_list(c, sp, col, l, op))
				return -1;
		} else if (!strcmp(l->name, "PoolTags")) {
			skip(c->plan, "PoolTags (Linux has no pool tags)");
		}
		/* CaptureState*: the kernel logger's rundowns are always written. */
	}
	return 0;
}

/* What sys_body() changes: a system provider's lists, and customs in a collector. */
struct sys_target {
	struct sysprov *sp;
	struct wprp_collector *col;
};

static int sys_body(struct ctx *c, struct wprp_el *def, void *arg)
{
	struct sys_target *t = arg;

	return sys_lists(c, t->sp, t->col, def, OP_SET);
}

/* SystemProviderId (with its changes) or an inline SystemProvider, into @col by @op. */
static int system_provider(struct ctx *c, struct wprp_collector *col, struct wprp_el *e,
			   enum op op)
{
	struct sysprov sp;
	struct wprp_el *def = e;

	memset(&sp, 0, sizeof(sp));
	if (!strcmp(e->name, "SystemProviderId")) {
		const char *id = wprp_attr(e, "Value");

		def = id ? find(c, e, id, "SystemProvider") : NULL;
		if (!def)
			return id ? -1 : fail(c->plan, WPR_E_SCHEMA, e, "SystemProviderId without Value");
	}
	if (with_bases(c, def, 0, sys_body, &(struct sys_target){ &sp, col }))
		return -1;
	if (def != e && sys_lists(c, &sp, col, e, OP_SET))
		return -1;
	if (get_op(c, e, op, &op))
		return -1;
	apply_bits(col->keywords, sp.keywords, WPRP_KEYWORD_WORDS, op);
	apply_bits(col->stacks, sp.stacks, WPRP_STACK_WORDS, op);
	return 0;
}

/* ---- event providers ---- */

static int keyword_list(struct ctx *c, const struct wprp_el *list, uint64_t *mask, enum op op)
{
	const struct wprp_el *e;
	uint64_t v, bits = 0;

	for (e = list->first; e; e = e->next) {
		if (visit(c, e))
			return -1;
		if (strcmp(e->name, "Keyword"))
			continue;
		if (attr_number(c, e, "Value", UINT64_MAX, &v))
			return -1;
		bits |= v;
	}
	*mask = op == OP_SET ? bits : op == OP_ADD ? *mask | bits : *mask & ~bits;
	return 0;
}

static int event_filter(struct ctx *c, struct wprp_provider *p, const struct wprp_el *f,
			enum op op)
{
	const struct wprp_el *e;
	uint64_t v;
	int in;

	if (op == OP_REMOVE)
		return fail(c->plan, WPR_E_OPERATION, f, "Remove is not an Operation of EventFilters");
	if (attr_bool(c, f, "FilterIn", 1, &in))
		return -1;
	if (op == OP_SET || p->filter != (in ? 1 : -1))
		p->n_ids = 0;
	p->filter = in ? 1 : -1;
	for (e = f->first; e; e = e->next) {
		if (visit(c, e))
			return -1;
		if (strcmp(e->name, "EventId"))
			continue;
		if (attr_number(c, e, "Value", 0xFFFF, &v))
			return -1;
		if (p->n_ids == 64)
			return fail(c->plan, WPR_E_SCHEMA, e, "more than 64 EventIds");
		p->ids[p->n_ids++] = v;
	}
	return 0;
}

/* The attributes and lists of event provider element @e onto @p. */
static int provider_body(struct ctx *c, struct wprp_provider *p, const struct wprp_el *e)
{
	static const char *const unsupported_attrs[] = {
		"ProcessExeFilter", "SID", "TSID", "EventKey", "EnableSilos", "ContainerId",
	};
	static const char *const unsupported_lists[] = {
		"StackFilters", "EventNameFilters", "StackEventNameFilters",
		"StackKeywordLevelFilter", "CustomFilter", "Stacks",
	};
	const struct wprp_el *l;
	const char *s;
	unsigned int i;
	uint64_t v;
	enum op op;
	int b;

	if ((s = wprp_attr(e, "Name")))
		p->name = s;
	if (wprp_attr(e, "Level")) {
		if (number(wprp_attr(e, "Level"), 0xFF, &v))
			return fail(c->plan, WPR_E_LEVEL, e, "Level \"%.20s\" is not 0 to 255",
				    wprp_attr(e, "Level"));
		p->level = v;
	}
	if (wprp_attr(e, "Stack")) {
		if (attr_bool(c, e, "Stack", 0, &b))
			return -1;
		p->stack = b;
	}
	if (wprp_attr(e, "CaptureStateOnly")) {
		if (attr_bool(c, e, "CaptureStateOnly", 0, &b))
			return -1;
		p->capture_state_only = b;
	}
	for (i = 0; i < sizeof(unsupported_attrs) / sizeof(unsupported_attrs[0]); i++)
		if ((s = wprp_attr(e, unsupported_attrs[i])) && strcmp(s, "false") && strcmp(s, "0") &&
		    !p->unsupported)
			p->unsupported = unsupported_attrs[i];
	for (l = e->first; l; l = l->next) {
		if (visit(c, l) || get_op(c, l, OP_SET, &op))
			return -1;
		if (!strcmp(l->name, "Keywords")) {
			if (keyword_list(c, l, &p->keywords, op))
				return -1;
		} else if (!strcmp(l->name, "CaptureStateOnSave")) {
			if (keyword_list(c, l, &p->save_keywords, OP_ADD))
				return -1;
		} else if (!strcmp(l->name, "CaptureStateOnStart")) {
			if (keyword_list(c, l, &p->start_keywords, OP_ADD))
				return -1;
		} else if (!strcmp(l->name, "EventFilters")) {
			if (event_filter(c, p, l, op))
				return -1;
		} else {
			for (i = 0; i < sizeof(unsupported_lists) / sizeof(unsupported_lists[0]); i++)
				if (!strcmp(l->name, unsupported_lists[i]) && !p->unsupported)
					p->unsupported = unsupported_lists[i];
		}
	}
	return 0;
}

static int provider_def(struct ctx *c, struct wprp_el *def, void *arg)
{
	return provider_body(c, arg, def);
}

static struct wprp_provider *find_provider(struct wprp_collector *col, const char *id)
{
	unsigned int i;

	for (i = 0; i < col->n_prov; i++)
		if (!strcmp(col->prov[i].id, id))
			return &col->prov[i];
	return NULL;
}

/* A new provider slot in @col (at most WPRP_MAX_PROVIDERS): NULL (failed) if none. */
static struct wprp_provider *new_provider(struct wprp_plan *plan, struct wprp_collector *col)
{
	if (col->n_prov == WPRP_MAX_PROVIDERS) {
		fail(plan, WPR_E_START, NULL, "more than %u event providers in collector \"%.60s\"",
		     WPRP_MAX_PROVIDERS, col->id);
		return NULL;
	}
	if (col->n_prov == col->cap_prov) {
		unsigned int cap = col->cap_prov ? 2 * col->cap_prov : 8;
		void *p = realloc(col->prov, cap * sizeof(*col->prov));

		if (!p) {
			fail(plan, WPR_E_START, NULL, "out of memory");
			return NULL;
		}
		col->prov = p;
		col->cap_prov = cap;
	}
	return &col->prov[col->n_prov++];
}

/* EventProviders @list of collector @col, by @op. */
static int event_providers(struct ctx *c, struct wprp_collector *col, const struct wprp_el *list,
			   enum op op)
{
	struct wprp_el *e, *def;
	enum op eop;

	if (get_op(c, list, op, &op))
		return -1;
	if (op == OP_SET)
		col->n_prov = 0;
	for (e = list->first; e; e = e->next) {
		struct wprp_provider p = { .level = 0xFF }, *to;
		const char *id;

		if (visit(c, e))
			return -1;
		if (strcmp(e->name, "EventProviderId") && strcmp(e->name, "EventProvider")) {
			if (!strcmp(e->name, "HeapEventProviderId") || !strcmp(e->name, "HeapEventProvider"))
				skip(c->plan, "heap tracing (HeapEventProvider)");
			continue;
		}
		id = wprp_attr(e, !strcmp(e->name, "EventProvider") ? "Id" : "Value");
		if (!id)
			return fail(c->plan, WPR_E_SCHEMA, e, "<%s> without %s", e->name,
				    !strcmp(e->name, "EventProvider") ? "Id" : "Value");
		if (get_op(c, e, op, &eop))
			return -1;
		if (eop == OP_REMOVE) {
			unsigned int i;

			for (i = 0; i < col->n_prov; i++)
				if (!strcmp(col->prov[i].id, id)) {
					col->prov[i] = col->prov[--col->n_prov];
					break;
				}
			continue;
		}
		def = !strcmp(e->name, "EventProvider") ? e : find(c, e, id, "EventProvider");
		if (!def)
			return -1;
		p.id = id;
		p.line = e->line;
		if (with_bases(c, def, 0, provider_def, &p))
			return -1;
		/* A reference's own lists change the provider it names. */
		if (def != e && provider_body(c, &p, e))
			return -1;
		if (!p.name)
			return fail(c->plan, WPR_E_SCHEMA, def, "EventProvider \"%.60s\" without Name", id);
		to = find_provider(col, id);
		if (!to)
			to = new_provider(c->plan, col);
		if (!to)
			return -1;
		*to = p;
	}
	return 0;
}

/* ---- profiles ---- */

static int collectors(struct ctx *c, const struct wprp_el *list)
{
	struct wprp_el *e, *x;
	enum op op;

	if (get_op(c, list, OP_SET, &op))
		return -1;
	for (e = list->first; e; e = e->next) {
		int system = !strcmp(e->name, "SystemCollectorId");
		struct wprp_collector *col;
		const char *id;

		if (visit(c, e))
			return -1;
		if (!system && strcmp(e->name, "EventCollectorId")) {
			if (strstr(e->name, "CollectorId"))
				skip(c->plan, !strcmp(e->name, "HeapEventCollectorId") ?
				     "heap tracing (HeapEventCollector)" :
				     "hypervisor tracing (HypervisorEventCollector)");
			continue;
		}
		id = wprp_attr(e, "Value");
		if (!id)
			return fail(c->plan, WPR_E_SCHEMA, e, "<%s> without Value", e->name);
		col = plan_collector(c, e, id, system);
		if (!col)
			return -1;
		for (x = e->first; x; x = x->next) {
			if (visit(c, x) || set_buffers(c, col, x))
				return -1;
			if (system && (!strcmp(x->name, "SystemProviderId") ||
				       !strcmp(x->name, "SystemProvider"))) {
				if (system_provider(c, col, x, op))
					return -1;
			} else if (!strcmp(x->name, "EventProviders")) {
				if (system) {
					skip(c->plan, "event providers in the system collector");
					continue;
				}
				if (event_providers(c, col, x, op))
					return -1;
			} else if (!strcmp(x->name, "HardwareCounterId") ||
				   !strcmp(x->name, "HardwareCounter")) {
				skip(c->plan, "hardware counters (HardwareCounter)");
			}
		}
	}
	return 0;
}

static int profile_body(struct ctx *c, struct wprp_el *prof, void *arg)
{
	struct wprp_el *e;

	for (e = prof->first; e; e = e->next)
		if (visit(c, e) || (!strcmp(e->name, "Collectors") && collectors(c, e)))
			return -1;
	return 0;
}

/* The profile of Id "@name.@detail.@mode" in @doc, any case; NULL if none. */
static struct wprp_el *profile_by(const struct wprp_doc *doc, const char *name, const char *detail,
				  const char *mode)
{
	struct wprp_el *p = profiles_of(doc), *e;
	size_t n = strlen(name), d = strlen(detail);

	for (e = p ? p->first : NULL; e; e = e->next) {
		const char *id = wprp_attr(e, "Id");

		if (strcmp(e->name, "Profile") || !id)
			continue;
		if (!strncasecmp(id, name, n) && id[n] == '.' &&
		    !strncasecmp(id + n + 1, detail, d) && id[n + 1 + d] == '.' &&
		    !strcasecmp(id + n + 2 + d, mode))
			return e;
	}
	return NULL;
}

/* The Name of the profile marked Default="true" in @doc: 0, or -1 (failed). */
static int default_name(struct wprp_plan *plan, const struct wprp_doc *doc, const char **name)
{
	struct wprp_el *p = profiles_of(doc), *e;

	*name = NULL;
	for (e = p ? p->first : NULL; e; e = e->next) {
		const char *d = wprp_attr(e, "Default"), *n = wprp_attr(e, "Name");

		if (strcmp(e->name, "Profile") || !d || (strcmp(d, "true") && strcmp(d, "1")) || !n)
			continue;
		if (*name && strcmp(*name, n))
			return fail(plan, WPR_E_MANY_DEFAULT, e,
				    "several profiles are Default=\"true\": %.60s and %.60s", *name, n);
		*name = n;
	}
	if (!*name)
		return fail(plan, WPR_E_NO_DEFAULT, NULL,
			    "no profile is Default=\"true\": name one (FILE!NAME)");
	return 0;
}

/* Merge the collectors of @from into @plan's, as WPR merges profiles started together. */
static int merge_plan(struct wprp_plan *plan, struct wprp_plan *from)
{
	unsigned int i, k, j;

	for (i = 0; i < from->n_col; i++) {
		struct wprp_collector *s = &from->col[i], *d = NULL;

		/* One system session; event collectors are one session per Name. */
		for (k = 0; k < plan->n_col && !d; k++)
			if (plan->col[k].system == s->system &&
			    (s->system || !strcmp(plan->col[k].name ? plan->col[k].name : plan->col[k].id,
						  s->name ? s->name : s->id)))
				d = &plan->col[k];
		if (!d) {
			d = collector_room(plan, NULL);
			if (!d)
				return -1;
			*d = *s;
			plan->n_col++;
			s->prov = NULL;
			s->n_prov = s->cap_prov = 0;
			continue;
		}
		/* The larger buffers, the union of what is recorded. */
		if (s->buffer_kb > d->buffer_kb)
			d->buffer_kb = s->buffer_kb;
		if (s->buffers > d->buffers)
			d->buffers = s->buffers;
		if (s->buffers_pct > d->buffers_pct)
			d->buffers_pct = s->buffers_pct;
		apply_bits(d->keywords, s->keywords, WPRP_KEYWORD_WORDS, OP_ADD);
		apply_bits(d->stacks, s->stacks, WPRP_STACK_WORDS, OP_ADD);
		for (j = 0; j < s->n_custom_stacks && d->n_custom_stacks < 32; j++)
			d->custom_stacks[d->n_custom_stacks++] = s->custom_stacks[j];
		for (j = 0; j < s->n_custom_keywords && d->n_custom_keywords < 8; j++)
			d->custom_keywords[d->n_custom_keywords++] = s->custom_keywords[j];
		for (j = 0; j < s->n_prov; j++) {
			struct wprp_provider *p = find_provider(d, s->prov[j].id);

			if (!p) {
				p = new_provider(plan, d);
				if (!p)
					return -1;
				*p = s->prov[j];
				continue;
			}
			p->keywords |= s->prov[j].keywords;
			p->save_keywords |= s->prov[j].save_keywords;
			p->start_keywords |= s->prov[j].start_keywords;
			p->stack |= s->prov[j].stack;
			if (s->prov[j].level > p->level)
				p->level = s->prov[j].level;
		}
	}
	return 0;
}

int wprp_add_profile(struct wprp_plan *plan, struct wprp_doc *file, struct wprp_doc *builtin,
		     const char *spec)
{
	const char *want = plan->file_mode ? "File" : "Memory";
	const char *other = plan->file_mode ? "Memory" : "File";
	struct wprp_plan one = { .file_mode = plan->file_mode };
	struct ctx c = { .plan = &one, .file = file ? file : builtin, .builtin = builtin };
	unsigned long size = builtin->n_elements + (file ? file->n_elements : 0);
	const struct wprp_doc *doc = c.file;
	char name[128];
	const char *detail = NULL, *dot, *s;
	struct wprp_el *prof;
	unsigned int i;
	int ret = -1;

	if (plan->n_profiles == sizeof(plan->profiles) / sizeof(plan->profiles[0]))
		return fail(plan, WPR_E_START, NULL, "more than 64 profiles");
	c.budget = 1000 + WPRP_VISITS_PER_ELEMENT * size;
	if (!spec) {
		if (default_name(plan, doc, &spec))
			return -1;
	}
	snprintf(name, sizeof(name), "%s", spec);
	dot = strrchr(name, '.');
	if (dot && (!strcasecmp(dot + 1, "Light") || !strcasecmp(dot + 1, "Verbose"))) {
		detail = !strcasecmp(dot + 1, "Light") ? "Light" : "Verbose";
		name[dot - name] = 0;
	}
	/* Verbose unless asked otherwise, or Light when that is all there is. */
	prof = profile_by(doc, name, detail ? detail : "Verbose", want);
	if (!prof && !detail)
		prof = profile_by(doc, name, "Light", want);
	if (!prof) {
		prof = profile_by(doc, name, detail ? detail : "Verbose", other);
		if (!prof && !detail)
			prof = profile_by(doc, name, "Light", other);
		if (!prof)
			return fail(plan, WPR_E_NO_PROFILE, NULL, "no profile \"%.60s\"%s%s", spec,
				    doc->path ? " in " : " built in", doc->path ? doc->path : "");
		skip(plan, plan->file_mode ? "file mode (a profile has only a memory variant: its collectors are used)" :
		     "memory mode (a profile has only a file variant: its collectors are used)");
	}
	s = wprp_attr(prof, "Internal");
	if (s && (!strcmp(s, "true") || !strcmp(s, "1")))
		return fail(plan, WPR_E_INTERNAL, prof, "profile \"%.60s\" is Internal",
			    wprp_attr(prof, "Id"));
	if (with_bases(&c, prof, 0, profile_body, NULL) == 0 && merge_plan(plan, &one) == 0) {
		plan->profiles[plan->n_profiles] = wprp_attr(prof, "Id");
		plan->names[plan->n_profiles++] = wprp_attr(prof, "Name");
		for (i = 0; i < one.n_skipped; i++)
			skip(plan, one.skipped[i]);
		ret = 0;
	} else if (!plan->code) {
		plan->code = one.code;
		memcpy(plan->why, one.why, sizeof(plan->why));
	}
	wprp_plan_free(&one);
	return ret;
}

void wprp_plan_free(struct wprp_plan *plan)
{
	unsigned int i;

	for (i = 0; i < plan->n_col; i++)
		free(plan->col[i].prov);
	free(plan->col);
	plan->col = NULL;
	plan->n_col = plan->cap_col = 0;
}

void wprp_put_clean(FILE *f, const char *s, size_t width, int lines)
{
	size_t n = 0;

	for (; *s; s++, n++)
		fputc(((unsigned char)*s < 0x20 && !(lines && (*s == '\n' || *s == '\t'))) ||
		      *s == 0x7f ? '?' : *s, f);
	for (; n < width; n++)
		fputc(' ', f);
}

void wprp_list_profiles(const struct wprp_doc *doc, FILE *f)
{
	struct wprp_el *p = profiles_of(doc), *e;
	unsigned int n = 0, size = 16, h;
	const char **seen;

	for (e = p ? p->first : NULL; e; e = e->next)
		n++;
	while (size < 2 * n)
		size *= 2;
	/* The Names said so far, in a hash set: each once, in linear time. */
	seen = calloc(size, sizeof(*seen));
	if (!seen) {
		fprintf(f, "(out of memory)\n");
		return;
	}
	for (e = p ? p->first : NULL; e; e = e->next) {
		const char *name = wprp_attr(e, "Name"), *internal = wprp_attr(e, "Internal");

		if (strcmp(e->name, "Profile") || !name ||
		    (internal && (!strcmp(internal, "true") || !strcmp(internal, "1"))))
			continue;
		for (h = hash(name) & (size - 1); seen[h] && strcmp(seen[h], name);
		     h = (h + 1) & (size - 1))
			;
		if (seen[h])
			continue;
		seen[h] = name;
		fputc('\t', f);
		wprp_put_clean(f, name, 26, 0);
		fputs("  ", f);
		wprp_put_clean(f, wprp_attr(e, "Description") ? wprp_attr(e, "Description") : "", 0, 0);
		fputc('\n', f);
	}
	free(seen);
}
