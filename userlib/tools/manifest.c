// SPDX-License-Identifier: LGPL-2.1
/*
 * `nttrace manifest install|uninstall|list`: the manifests TDH finds for
 * every program (nttrace_tdh_manifest_dir()), as `wevtutil im`, `um` and
 * `ep` install, remove and list Windows' publishers.
 *
 * install FILE...: each file must parse as TDH parses it, and name no
 * provider (by GUID or by name) that another installed file names (a
 * reinstall of a file of the same name replaces it, as `wevtutil im` of a
 * manifest installed updates it). All are checked before any is written;
 * each is copied into the directory (made 0755, with its parents, if
 * missing) under its base
 * name through a temporary file renamed into place, so that no reader sees
 * half a manifest. Installed manifests are 0644: every user's programs
 * read them, and a manifest holds names and layouts, not trace data. Who
 * may install: whoever may write the directory (root, by default).
 *
 * uninstall NAME...: removes each installed file of that base name (a path
 * is taken by its base name, as `wevtutil um` takes the manifest).
 *
 * list: each installed file and its providers, "GUID name", or why TDH
 * leaves it out.
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

#include <nttrace/tdh.h>
#include <nttrace/tmf.h>

#include "cli.h"

/* What one manifest names. */
struct names {
	GUID guids[64];
	char *names[64];
	unsigned int n, more;	/* kept, and past the 64 kept */
};

static void collect(void *ctx, const GUID *guid, const char *name)
{
	struct names *k = ctx;

	if (k->n == 64) {
		k->more++;
		return;
	}
	k->guids[k->n] = *guid;
	k->names[k->n] = strdup(name);
	k->n++;
}

static void names_free(struct names *k)
{
	while (k->n)
		free(k->names[--k->n]);
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

static void print_guid(FILE *f, const GUID *g)
{
	char s[NTTRACE_GUID_STRING];

	nttrace_guid_string((const uint8_t *)g, s);
	fputs(s, f);
}

/* A file name TDH's search takes for a manifest: *.man or *.xml, not hidden. */
static int manifest_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 4 &&
	       (!strcmp(name + n - 4, ".man") || !strcmp(name + n - 4, ".xml"));
}

/* Which provider of @a is also in @b: its index, or -1. */
static int collision(const struct names *a, const struct names *b)
{
	unsigned int i, j;

	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++)
			if (!memcmp(&a->guids[i], &b->guids[j], sizeof(GUID)) ||
			    (a->names[i] && b->names[j] && a->names[i][0] &&
			     !strcasecmp(a->names[i], b->names[j])))
				return (int)i;
	return -1;
}

/* Does an installed file other than @skip name a provider of @k? Says so. */
static int collides(const char *dir, const char *skip, const struct names *k, const char *file)
{
	char path[PATH_MAX];
	struct names other;
	struct dirent *d;
	int bad = 0, i;
	DIR *dp = opendir(dir);

	if (!dp)
		return 0;
	while (!bad && (d = readdir(dp))) {
		if (!manifest_name(d->d_name) || !strcmp(d->d_name, skip))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, d->d_name) >= sizeof(path))
			continue;
		memset(&other, 0, sizeof(other));
		if (nttrace_tdh_manifest_providers(path, collect, &other) == ERROR_SUCCESS) {
			i = collision(k, &other);
			if (i >= 0) {
				fprintf(stderr, "nttrace: manifest: %s: provider %s (", file,
					k->names[i]);
				print_guid(stderr, &k->guids[i]);
				fprintf(stderr, ") is already installed by %s\n", path);
				bad = 1;
			}
		}
		names_free(&other);
	}
	closedir(dp);
	return bad;
}

/* Copy @src to @dir/@name through a temporary file: 0, or says why and 1. */
static int copy_in(const char *src, const char *dir, const char *name)
{
	char tmp[PATH_MAX], dst[PATH_MAX], buf[65536];
	int in, out, err = 0;
	ssize_t r;

	if ((size_t)snprintf(dst, sizeof(dst), "%s/%s", dir, name) >= sizeof(dst) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name) >= sizeof(tmp)) {
		fprintf(stderr, "nttrace: manifest: %s: path too long\n", src);
		return 1;
	}
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		fprintf(stderr, "nttrace: manifest: %s: %s\n", src, strerror(errno));
		return 1;
	}
	out = mkstemp(tmp);
	if (out < 0) {
		fprintf(stderr, "nttrace: manifest: %s: %s\n", dir, strerror(errno));
		close(in);
		return 1;
	}
	while (!err && (r = read(in, buf, sizeof(buf))) != 0) {
		if (r < 0 || write(out, buf, r) != r)
			err = errno ? errno : EIO;
	}
	if (!err && (fchmod(out, 0644) || fsync(out)))
		err = errno;
	if (close(out) && !err)
		err = errno;
	close(in);
	if (!err && rename(tmp, dst))
		err = errno;
	if (err) {
		unlink(tmp);
		fprintf(stderr, "nttrace: manifest: %s: %s\n", dst, strerror(err));
		return 1;
	}
	printf("installed %s\n", dst);
	return 0;
}

static int install(const char *dir, int n, char **files)
{
	struct names k;
	ULONG err;
	int i, j, bad = 0, ret;

	for (i = 0; i < n; i++) {
		const char *name = base_name(files[i]);

		if (!manifest_name(name)) {
			fprintf(stderr, "nttrace: manifest: %s: the name must end in .man or .xml "
				"(TDH looks for no other)\n", files[i]);
			bad = 1;
			continue;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(base_name(files[j]), name)) {
				fprintf(stderr, "nttrace: manifest: %s and %s: one name\n",
					files[j], files[i]);
				bad = 1;
			}
		memset(&k, 0, sizeof(k));
		err = nttrace_tdh_manifest_providers(files[i], collect, &k);
		if (err) {
			render_fail(err, files[i], "parsing the manifest");
			bad = 1;
		} else if (!k.n) {
			fprintf(stderr, "nttrace: manifest: %s: names no provider\n", files[i]);
			bad = 1;
		} else if (collides(dir, name, &k, files[i])) {
			bad = 1;
		}
		names_free(&k);
	}
	if (bad)
		return 1;
	ret = cli_make_dirs(dir);
	if (ret) {
		fprintf(stderr, "nttrace: manifest: %s: %s\n", dir, strerror(-ret));
		return 1;
	}
	for (i = 0; i < n; i++)
		bad |= copy_in(files[i], dir, base_name(files[i]));
	return bad;
}

static int uninstall(const char *dir, int n, char **names)
{
	char path[PATH_MAX];
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		const char *name = base_name(names[i]);

		if (!*name || name[0] == '.' ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path)) {
			fprintf(stderr, "nttrace: manifest: %s: not an installed manifest's name\n",
				names[i]);
			bad = 1;
		} else if (unlink(path)) {
			fprintf(stderr, "nttrace: manifest: %s: %s\n", path,
				errno == ENOENT ? "not installed" : strerror(errno));
			bad = 1;
		} else {
			printf("uninstalled %s\n", path);
		}
	}
	return bad;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list(const char *dir)
{
	char path[PATH_MAX], **files = NULL, **grown;
	size_t n = 0, cap = 0, i;
	struct dirent *d;
	struct names k;
	unsigned int j;
	ULONG err;
	DIR *dp = opendir(dir);

	if (!dp) {
		if (errno == ENOENT)
			return 0;	/* nothing installed yet */
		fprintf(stderr, "nttrace: manifest: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	while ((d = readdir(dp))) {
		if (!manifest_name(d->d_name))
			continue;
		if (n == cap) {
			grown = realloc(files, (cap ? 2 * cap : 16) * sizeof(*grown));
			if (!grown)
				break;
			files = grown;
			cap = cap ? 2 * cap : 16;
		}
		files[n] = strdup(d->d_name);
		if (files[n])
			n++;
	}
	closedir(dp);
	if (n)
		qsort(files, n, sizeof(*files), by_name);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		printf("%s\n", path);
		memset(&k, 0, sizeof(k));
		err = nttrace_tdh_manifest_providers(path, collect, &k);
		if (err) {
			printf("  left out by TDH (Win32 error %u)\n", (unsigned int)err);
			render_fail(err, path, "parsing the manifest");
		}
		for (j = 0; j < k.n; j++) {
			printf("  ");
			print_guid(stdout, &k.guids[j]);
			printf(" %s\n", k.names[j]);
		}
		if (k.more)
			printf("  and %u more\n", k.more);
		names_free(&k);
		free(files[i]);
	}
	free(files);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace manifest install FILE...\n"
		"       nttrace manifest uninstall NAME...\n"
		"       nttrace manifest list\n\n"
		"The instrumentation manifests TDH finds for every program, by provider,\n"
		"without a --manifest or TdhLoadManifest (as Windows' `wevtutil im`, `um`\n"
		"and `ep`): those of the directory %s\n"
		"(NTTRACE_MANIFEST_DIR names another), after those of NTTRACE_MANIFEST_PATH\n"
		"(files and directories separated by ':', a user's own).\n"
		"install copies each FILE (*.man or *.xml) there, made 0644, once every one\n"
		"parses and names no provider another installed file names; uninstall\n"
		"removes the installed files of those names; list prints each with its\n"
		"providers. Writing the directory takes its owner's rights (root's).\n",
		nttrace_tdh_manifest_dir());
}

int cmd_manifest(int argc, char **argv)
{
	const char *dir = nttrace_tdh_manifest_dir();

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "install"))
		return install(dir, argc - 2, argv + 2);
	if (argc >= 3 && !strcmp(argv[1], "uninstall"))
		return uninstall(dir, argc - 2, argv + 2);
	if (argc == 2 && !strcmp(argv[1], "list"))
		return list(dir);
	usage(stderr);
	return CLI_USAGE;
}
