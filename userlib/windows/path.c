// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's _fullpath and _wfullpath (stdlib.h): a path made
 * absolute against the current directory, its "." and ".." taken out,
 * without looking at the file system (as Windows', the file need not
 * exist; unlike realpath, links are not followed). The separator is
 * Linux's '/'. A @max too small gives NULL and ERANGE; @out NULL, a
 * malloc'd result.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crt.h"

static char *full_path(const char *rel)
{
	char *cwd = NULL, *joined, *out, *seg, *save = NULL;
	size_t n = 0;

	if (!rel || !*rel)
		rel = ".";
	if (*rel != '/') {
		cwd = getcwd(NULL, 0);
		if (!cwd)
			return NULL;
	}
	joined = malloc((cwd ? strlen(cwd) + 1 : 0) + strlen(rel) + 1);
	out = malloc((cwd ? strlen(cwd) + 1 : 0) + strlen(rel) + 2);
	if (!joined || !out) {
		free(cwd);
		free(joined);
		free(out);
		errno = ENOMEM;
		return NULL;
	}
	strcpy(joined, cwd ? cwd : "");
	if (cwd)
		strcat(joined, "/");
	strcat(joined, rel);
	free(cwd);
	for (seg = strtok_r(joined, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
		if (!strcmp(seg, "."))
			continue;
		if (!strcmp(seg, "..")) {
			while (n && out[--n] != '/')
				;
			continue;
		}
		out[n++] = '/';
		memcpy(out + n, seg, strlen(seg));
		n += strlen(seg);
	}
	if (!n)
		out[n++] = '/';
	out[n] = 0;
	free(joined);
	return out;
}

char *nttrace_win__fullpath(char *out, const char *rel, size_t max)
{
	char *full = full_path(rel);

	if (!full || !out)
		return full;
	if (strlen(full) + 1 > max) {
		free(full);
		errno = ERANGE;
		return NULL;
	}
	strcpy(out, full);
	free(full);
	return out;
}

WCHAR *nttrace_win__wfullpath(WCHAR *out, const WCHAR *rel, size_t max)
{
	char *rel8 = NULL, *full;
	size_t units;
	int n;

	if (rel && *rel) {
		n = nttrace_win__scprintf("%ls", rel);
		rel8 = n < 0 ? NULL : malloc((size_t)n + 1);
		if (!rel8) {
			errno = n < 0 ? EINVAL : ENOMEM;
			return NULL;
		}
		nttrace_win_snprintf(rel8, (size_t)n + 1, "%ls", rel);
	}
	full = full_path(rel8);
	free(rel8);
	if (!full)
		return NULL;
	units = nttrace_win_utf8_to_16(NULL, SIZE_MAX, full, strlen(full) + 1);
	if (!out) {
		out = malloc(units * sizeof(WCHAR));
		if (!out)
			errno = ENOMEM;
	} else if (units > max) {
		errno = ERANGE;
		out = NULL;
	}
	if (out)
		nttrace_win_utf8_to_16(out, units, full, strlen(full) + 1);
	free(full);
	return out;
}
