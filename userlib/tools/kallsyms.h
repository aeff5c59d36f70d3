/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Kernel addresses as functions, from this machine's /proc/kallsyms: for
 * the kernel frames of a trace taken on this machine since its last boot
 * (the symbols move with each boot: KASLR, modules loaded elsewhere).
 */
#ifndef NTTRACE_TOOLS_KALLSYMS_H
#define NTTRACE_TOOLS_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Read /proc/kallsyms if the trace's boot (@boot_filetime, its header's
 * BootTime) is this machine's current one and the file shows addresses
 * (kptr_restrict lets this user see them): 1 if symbols were loaded, else
 * 0, with why in @why (for the tool's report).
 */
int ksyms_load(uint64_t boot_filetime, const char **why);

/*
 * The function holding kernel address @a, "name [kernel]" or "name
 * [module]", into @out; 0 if none is known.
 */
int ksyms_name(uint64_t a, char *out, size_t room);

/* The kernel's text start (its "_text" symbol), once loaded; 0 if unknown. */
uint64_t ksyms_text(void);

/*
 * Each loaded module's name, core text address and size from
 * /proc/modules, to @fn (once loaded, as the same user: 0 addresses are
 * skipped).
 */
void ksyms_modules(void (*fn)(void *ctx, const char *name, uint64_t addr, uint64_t size),
		   void *ctx);

void ksyms_free(void);

#endif /* NTTRACE_TOOLS_KALLSYMS_H */
