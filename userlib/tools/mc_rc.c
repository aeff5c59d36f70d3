// SPDX-License-Identifier: GPL-2.0
/*
 * NAME.rc, the resource script mc.exe writes beside its binaries for the
 * resource compiler (rc.exe) to put them into the program: the language
 * (LANG_ENGLISH 0x9, SUBLANG_ENGLISH_US 0x1), the message table as
 * resource 1 of type 11 (RT_MESSAGETABLE) and the WEVT_TEMPLATE as
 * resource 1 of that type. Three lines, each ended by a bare "\n" as mc.exe
 * ends them. The message table's file is NAME_MSG00001.bin, as mc.exe
 * 10.0.18362 names it (older ones named it MSG00001.bin).
 */
#include <string.h>

#include "mc.h"

ULONG mc_write_rc(const struct mc_opts *opts, struct mc_out *o)
{
	size_t start = o->len;

	/* rc.exe's strings end at a '"'; a name with one, or a line end, cannot be said. */
	if (!opts->name || !*opts->name || strpbrk(opts->name, "\"\r\n"))
		return ERROR_INVALID_PARAMETER;
	mc_out_printf(o, "LANGUAGE 0x9,0x1\n");
	mc_out_printf(o, "1 11 \"%s_MSG00001.bin\"\n", opts->name);
	mc_out_printf(o, "1 WEVT_TEMPLATE \"%sTEMP.BIN\"\n", opts->name);
	if (o->oom) {
		o->len = start;
		return ERROR_NOT_ENOUGH_MEMORY;
	}
	return ERROR_SUCCESS;
}
