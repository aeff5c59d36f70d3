/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The layout tests' two checks (evntrace_layout.c, tdh_layout.c): a member at its
 * Windows offset, a structure of its Windows size, each given for 64- and
 * for 32-bit callers. A wrong one fails the compile.
 */
#ifndef NTTRACE_TEST_LAYOUT_H
#define NTTRACE_TEST_LAYOUT_H

#include <stddef.h>

#define AT(type, member, off64, off32)					\
	_Static_assert(offsetof(type, member) ==			\
		       (sizeof(void *) == 8 ? (off64) : (off32)),	\
		       #type "." #member " at its Windows offset")
#define SIZE(type, size64, size32)					\
	_Static_assert(sizeof(type) ==					\
		       (sizeof(void *) == 8 ? (size64) : (size32)),	\
		       "sizeof(" #type ") as Windows has it")

#endif /* NTTRACE_TEST_LAYOUT_H */
