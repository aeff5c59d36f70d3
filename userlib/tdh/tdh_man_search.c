// SPDX-License-Identifier: LGPL-2.1
/*
 * The manifests TDH finds by itself, as Windows' TDH finds every manifest
 * `wevtutil im` installed, for any program, by its providers' GUIDs:
 *  - the files and directories of NTTRACE_MANIFEST_PATH (a user's own,
 *    separated by ':'), in their order;
 *  - then the installed ones, the directory `nttrace manifest install`
 *    writes (nttrace_tdh_manifest_dir()).
 * A directory gives its regular files whose names end in ".man" or
 * ".xml", in the order of their names. The first manifest to describe a
 * provider answers for it; one loaded with TdhLoadManifest answers before
 * them all (Windows, too, decodes by a loaded manifest first).
 *
 * They are read once per process, the first time TDH looks for a
 * provider (tdh_man_load.c), and kept: a manifest installed later is seen
 * by programs started later. A file that does not parse is left out, as
 * Windows' TDH passes over a registration whose manifest is gone; `nttrace
 * manifest list` names such files. Bounds, so that a hostile directory
 * costs linear time and bounded memory: NTTRACE_MAN_SEARCH_FILES files in
 * all, each at most NTTRACE_MAN_MAX bytes (the loader's bound), together
 * at most NTTRACE_MAN_SEARCH_BYTES (the files past it are left out).
 *
 * The environment is read with secure_getenv(): a set-user-ID program
 * looks in the installed directory only.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tdh_man.h"

/* The files, and their bytes, one process reads at most from the search path. */
#define NTTRACE_MAN_SEARCH_FILES	4096
#define NTTRACE_MAN_SEARCH_BYTES	(256ULL << 20)

const char *nttrace_tdh_manifest_dir(void)
{
	const char *dir = secure_getenv("NTTRACE_MANIFEST_DIR");

	return dir && *dir ? dir : NTTRACE_MANIFEST_DIR_DEFAULT;
}

int nttrace_man_is_manifest_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 4 &&
	       (!strcmp(name + n - 4, ".man") || !strcmp(name + n - 4, ".xml"));
}

struct found {
	struct nttrace_man **mans;
	size_t n, cap;
	unsigned int files;	/* read so far, of NTTRACE_MAN_SEARCH_FILES */
	uint64_t bytes;		/* ... and their bytes, of NTTRACE_MAN_SEARCH_BYTES */
};

static void add_file(struct found *f, const char *path)
{
	struct nttrace_man *m = NULL, **grown;
	size_t len;
	void *xml;

	if (f->files >= NTTRACE_MAN_SEARCH_FILES)
		return;
	f->files++;
	if (nttrace_man_read_file(path, &xml, &len))
		return;
	f->bytes += len;
	if (f->bytes > NTTRACE_MAN_SEARCH_BYTES) {
		f->files = NTTRACE_MAN_SEARCH_FILES;	/* no more */
		free(xml);
		return;
	}
	if (nttrace_man_parse(xml, len, &m)) {
		free(xml);
		return;
	}
	free(xml);
	if (f->n == f->cap) {
		grown = realloc(f->mans, (f->cap ? 2 * f->cap : 8) * sizeof(*grown));
		if (!grown) {
			nttrace_man_free(m);
			return;
		}
		f->mans = grown;
		f->cap = f->cap ? 2 * f->cap : 8;
	}
	f->mans[f->n++] = m;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's manifests, by name; or @path itself when it is a file. */
static void add_path(struct found *f, const char *path)
{
	char **names = NULL, **grown, file[PATH_MAX];
	size_t n = 0, cap = 0, i;
	struct dirent *d;
	DIR *dir;

	dir = opendir(path);
	if (!dir) {
		if (errno == ENOTDIR)
			add_file(f, path);
		return;
	}
	while ((d = readdir(dir)) && n < NTTRACE_MAN_SEARCH_FILES - f->files) {
		if (!nttrace_man_is_manifest_name(d->d_name))
			continue;
		if (n == cap) {
			grown = realloc(names, (cap ? 2 * cap : 16) * sizeof(*grown));
			if (!grown)
				break;
			names = grown;
			cap = cap ? 2 * cap : 16;
		}
		names[n] = strdup(d->d_name);
		if (names[n])
			n++;
	}
	closedir(dir);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		if ((size_t)snprintf(file, sizeof(file), "%s/%s", path, names[i]) < sizeof(file))
			add_file(f, file);
		free(names[i]);
	}
	free(names);
}

size_t nttrace_man_search(struct nttrace_man ***mans)
{
	const char *env = secure_getenv("NTTRACE_MANIFEST_PATH");
	struct found f = { NULL, 0, 0, 0, 0 };
	char *copy, *part, *save = NULL;

	copy = env ? strdup(env) : NULL;
	for (part = copy ? strtok_r(copy, ":", &save) : NULL; part;
	     part = strtok_r(NULL, ":", &save))
		add_path(&f, part);
	free(copy);
	add_path(&f, nttrace_tdh_manifest_dir());
	*mans = f.mans;
	return f.n;
}

ULONG nttrace_tdh_manifest_providers(const char *path,
				     void (*fn)(void *ctx, const GUID *guid, const char *name),
				     void *ctx)
{
	struct nttrace_man *m = NULL;
	size_t len;
	void *xml;
	ULONG err;
	uint32_t i;

#ifdef NTTRACE_NO_EXPAT
	return ERROR_NOT_SUPPORTED;
#endif
	if (!path || !*path)
		return ERROR_INVALID_PARAMETER;
	err = nttrace_man_read_file(path, &xml, &len);
	if (err)
		return err;
	err = nttrace_man_parse(xml, len, &m);
	free(xml);
	if (err)
		return err;
	for (i = 0; i < m->nprovs; i++)
		fn(ctx, &m->provs[i].guid, m->provs[i].name ? m->provs[i].name : "");
	nttrace_man_free(m);
	return ERROR_SUCCESS;
}
