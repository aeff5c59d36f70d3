// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace_mc_km.ko's second file (driver.c says why): an event written
 * through the header's objects as this file sees them.
 */
#include "mc_km.h"

void mc_km_write_plain(void)
{
	mc_km_count(EventWriteMctPlain());
}
