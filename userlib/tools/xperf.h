/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `nttrace xperf` (xperf.c): xperf's names of the kernel's flags and
 * groups (xperf_names.c).
 */
#ifndef NTTRACE_XPERF_H
#define NTTRACE_XPERF_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

struct xperf_flag {
	const char *name;
	uint32_t bits;		/* EVENT_TRACE_FLAG_*; 0: none nttrace records */
	const char *what;
};

/*
 * `-on FLAG+GROUP+...` for the kernel logger: the EVENT_TRACE_FLAG_* bits
 * in *@bits, the names with none listed in @skipped ("A, B"; @room
 * bytes). 0, or -1 with the name that is neither a flag nor a group at
 * *@bad (*@bad_len bytes).
 */
int xperf_kernel_flags(const char *arg, uint32_t *bits, char *skipped, size_t room,
		       const char **bad, size_t *bad_len);
/* `-providers KF`, `KG`: the flags and their meaning, the groups and theirs. */
void xperf_list_flags(FILE *f, int kernel_flags, int kernel_groups);

#endif /* NTTRACE_XPERF_H */
