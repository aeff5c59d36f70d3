/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What nttrace_mc_km.ko's two files share: the header `nttrace mc -km`
 * made of tests/vm/mc_test.man, and the two calls between them.
 */
#ifndef NTTRACE_MC_KM_H
#define NTTRACE_MC_KM_H

#include "mc_test_km.h"

/* Counts a write's status (driver.c). */
void mc_km_count(ULONG status);
/* Writes MctPlain from plain.c. */
void mc_km_write_plain(void);

#endif /* NTTRACE_MC_KM_H */
