// SPDX-License-Identifier: LGPL-2.1
/*
 * The message formats of TDH's WPP decoding: loaded from what
 * TDH_CONTEXT_WPP_TMFFILE and TDH_CONTEXT_WPP_TMFSEARCHPATH name, and kept
 * for the TDH_CONTEXT arrays of TdhGetEventInformation and TdhGetProperty
 * (which would otherwise read the files again for every event).
 *
 * A "TMF" here is whatever nttrace_tmf_load() takes: a format file
 * (`nttrace formats` writes them) or an ELF binary with the nttrace_wpp
 * section. Microsoft's TDH_CONTEXT_TYPE page (learn.microsoft.com) says
 * the TMF file's name is usually found from the event's GUID, that the
 * search path is where the file is, and that a file not found there is
 * looked for in TRACE_FORMAT_SEARCH_PATH's directories, then in the
 * current one. Chosen here:
 *  - a search path is a list of directories separated by ';', as
 *    Windows' path lists (and TRACE_FORMAT_SEARCH_PATH) are;
 *  - TMFFILE with a '/' is that path; without, it is looked for in the
 *    search path, TRACE_FORMAT_SEARCH_PATH and the current directory, in
 *    this order;
 *  - a search path without TMFFILE loads every regular file of its
 *    directories (not their subdirectories) that loads, in name order: an
 *    nttrace format file holds the messages of many GUIDs, so there is no
 *    <GUID>.tmf to look for. Other files are skipped; directories that do
 *    not open are skipped, but one must open;
 *  - the first format loaded for a message is kept (nttrace_tmf_load).
 * What the contexts loaded is kept for the process's life (up to
 * CACHED sets of paths, the oldest going first): a file changed since is
 * not read again. A decoding handle reads its files when its parameter is
 * set (tdh_wpp_handle.c).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tdh_wpp.h"

#define CACHED		8

static int regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* @path kept in @f (its formats point to it); NULL when out of memory. */
static const char *keep(struct nttrace_tdh_wpp_formats *f, char *path)
{
	char **v = realloc(f->paths, (f->npaths + 1) * sizeof(*v));

	if (!v) {
		free(path);
		return NULL;
	}
	f->paths = v;
	f->paths[f->npaths++] = path;
	return path;
}

/* "@dir/@name", newly allocated. */
static char *join(const char *dir, size_t dlen, const char *name)
{
	size_t n = strlen(name);
	char *p = malloc(dlen + n + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, dlen);
	p[dlen] = '/';
	memcpy(p + dlen + 1, name, n + 1);
	return p;
}

/*
 * @name in the first directory of the ';'-list @list that has it, newly
 * allocated; NULL when none has (*@oom when memory ran out).
 */
static char *find_in(const char *list, const char *name, int *oom)
{
	const char *d = list;

	while (d && *d) {
		size_t n = strcspn(d, ";");

		if (n) {
			char *p = join(d, n, name);

			if (!p) {
				*oom = 1;
				return NULL;
			}
			if (regular(p))
				return p;
			free(p);
		}
		d += n + (d[n] == ';');
	}
	return NULL;
}

static ULONG load_file(struct nttrace_tdh_wpp_formats *f, const char *file, const char *search)
{
	const char *path;
	char *p = NULL;
	int oom = 0, ret;

	if (strchr(file, '/')) {
		p = strdup(file);
		oom = !p;
	} else {
		p = find_in(search, file, &oom);
		if (!p && !oom)
			p = find_in(getenv("TRACE_FORMAT_SEARCH_PATH"), file, &oom);
		if (!p && !oom)
			p = find_in(".", file, &oom);
	}
	if (oom)
		return ERROR_NOT_ENOUGH_MEMORY;
	if (!p || !regular(p)) {
		free(p);
		return ERROR_INVALID_PARAMETER;
	}
	path = keep(f, p);
	if (!path)
		return ERROR_NOT_ENOUGH_MEMORY;
	ret = nttrace_tmf_load(&f->tmf, path, NULL, NULL);
	if (ret == -ENOMEM)
		return ERROR_NOT_ENOUGH_MEMORY;
	return ret < 0 ? ERROR_INVALID_PARAMETER : ERROR_SUCCESS;
}

/* Every file of directory @dir (@n bytes) that loads; -1 when it does not open. */
static int load_dir(struct nttrace_tdh_wpp_formats *f, const char *dir, size_t n, ULONG *err)
{
	struct dirent **list;
	char *d = strndup(dir, n);
	int count, i;

	if (!d) {
		*err = ERROR_NOT_ENOUGH_MEMORY;
		return 0;
	}
	count = scandir(d, &list, NULL, alphasort);
	for (i = 0; i < count; i++) {
		char *p = *err ? NULL : join(d, n, list[i]->d_name);

		if (!*err && !p)
			*err = ERROR_NOT_ENOUGH_MEMORY;
		if (p && !regular(p)) {
			free(p);
		} else if (p) {
			const char *path = keep(f, p);

			if (!path || nttrace_tmf_load(&f->tmf, path, NULL, NULL) == -ENOMEM)
				*err = ERROR_NOT_ENOUGH_MEMORY;
		}
		free(list[i]);
	}
	if (count >= 0)
		free(list);
	free(d);
	return count < 0 ? -1 : 0;
}

static ULONG load_search(struct nttrace_tdh_wpp_formats *f, const char *search)
{
	const char *d = search;
	ULONG err = ERROR_SUCCESS;
	int opened = 0;

	while (*d && !err) {
		size_t n = strcspn(d, ";");

		if (n && !load_dir(f, d, n, &err))
			opened = 1;
		d += n + (d[n] == ';');
	}
	if (!err && !opened)
		err = ERROR_INVALID_PARAMETER;
	return err;
}

void nttrace_tdh_wpp_free(struct nttrace_tdh_wpp_formats *f)
{
	size_t i;

	if (!f)
		return;
	nttrace_tmf_free(&f->tmf);
	for (i = 0; i < f->npaths; i++)
		free(f->paths[i]);
	free(f->paths);
	free(f);
}

ULONG nttrace_tdh_wpp_load(const char *file, const char *search,
			   struct nttrace_tdh_wpp_formats **out)
{
	struct nttrace_tdh_wpp_formats *f = calloc(1, sizeof(*f));
	ULONG err;

	if (!f)
		return ERROR_NOT_ENOUGH_MEMORY;
	if (file)
		err = load_file(f, file, search);
	else
		err = search ? load_search(f, search) : ERROR_SUCCESS;
	if (err) {
		nttrace_tdh_wpp_free(f);
		return err;
	}
	*out = f;
	return ERROR_SUCCESS;
}

/* ---- what the contexts loaded ---- */

static struct {
	char *file, *search;
	struct nttrace_tdh_wpp_formats *f;
} cache[CACHED];
static unsigned int next_out;	/* the entry to replace next */

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

ULONG nttrace_tdh_wpp_contexts(ULONG n, const TDH_CONTEXT *ctx,
			       struct nttrace_tdh_wpp_formats **f,
			       struct nttrace_tdh_wpp_opts *o)
{
	char *file = NULL, *search = NULL;
	unsigned int i;
	ULONG err = ERROR_SUCCESS;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < n && !err; i++) {
		const WCHAR *w = (const WCHAR *)(uintptr_t)ctx[i].ParameterValue;

		switch (ctx[i].ParameterType) {
		case TDH_CONTEXT_WPP_TMFFILE:
			err = nttrace_tdh_utf8(w, PATH_MAX, &file);
			break;
		case TDH_CONTEXT_WPP_TMFSEARCHPATH:
			err = nttrace_tdh_utf8(w, NTTRACE_TDH_WPP_SEARCH_MAX, &search);
			break;
		case TDH_CONTEXT_WPP_GMT:
			/* "A 1-byte Boolean" (TDH_CONTEXT_TYPE): its low byte. */
			o->gmt = (uint8_t)ctx[i].ParameterValue != 0;
			break;
		case TDH_CONTEXT_POINTERSIZE:
			o->psz = (uint32_t)ctx[i].ParameterValue;
			break;
		default:
			break;
		}
	}
	if (!err && !file && !search)
		err = ERROR_NOT_FOUND;
	for (i = 0; !err && i < CACHED; i++)
		if (cache[i].f && same(cache[i].file, file) && same(cache[i].search, search))
			break;
	if (!err && i == CACHED) {
		struct nttrace_tdh_wpp_formats *loaded;

		err = nttrace_tdh_wpp_load(file, search, &loaded);
		if (!err) {
			i = next_out;
			next_out = (next_out + 1) % CACHED;
			nttrace_tdh_wpp_free(cache[i].f);
			free(cache[i].file);
			free(cache[i].search);
			cache[i].f = loaded;
			cache[i].file = file;
			cache[i].search = search;
			file = search = NULL;
		}
	}
	if (!err)
		*f = cache[i].f;
	free(file);
	free(search);
	return err;
}
