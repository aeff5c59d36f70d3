/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `nttrace mc`: an instrumentation manifest compiled as Microsoft's
 * message compiler (mc.exe -um/-km) compiles it. The manifest is read by
 * TDH's parser (userlib/tdh/tdh_man_parse.c, struct nttrace_man); each
 * output is made in memory by one file of this tool and written whole,
 * under a temporary name renamed into place, so that a failure leaves no
 * file half written:
 *   NAME.h           the header: descriptors, EventRegister/EventWrite
 *                    macros over nttrace's EventWrite (mc_header.c), or
 *                    over its kernel-mode API with -km; what comes before
 *                    the providers in mc_prelude.c
 *   NAME.rc          the resource script naming the two binaries (mc_rc.c)
 *   NAMETEMP.BIN     the WEVT_TEMPLATE resource (mc_wevt.c)
 *   NAME_MSG00001.bin the message table resource (mc_msg.c)
 */
#ifndef NTTRACE_MC_H
#define NTTRACE_MC_H

#include <stddef.h>
#include <stdint.h>

#include "../tdh/tdh_man.h"

/* A growing buffer an output is made in; oom set once an append failed. */
struct mc_out {
	uint8_t *data;
	size_t len, cap;
	int oom;
};

void mc_out_bytes(struct mc_out *o, const void *p, size_t n);
__attribute__((format(printf, 2, 3)))
void mc_out_printf(struct mc_out *o, const char *fmt, ...);
void mc_out_free(struct mc_out *o);

/* One message of the message table, and the MSG_ name the header gives it. */
struct mc_msg {
	uint32_t id;
	const char *symbol;	/* without "MSG_"; NULL: the header names it not */
	const char *text;	/* UTF-8, as the manifest's string table has it */
};

struct mc_msgs {
	struct mc_msg *v;	/* sorted by id */
	size_t n;
};

/* What the command line asked for (mc.exe's options). */
struct mc_opts {
	const char *name;	/* -z: the outputs' base name */
	int kernel;		/* -km (else -um) */
	const char *prefix;	/* -p/-P style prefixes: NULL for none */
};

/*
 * The messages of @m's providers, numbered as mc.exe numbers them
 * (mc_msg.c); ERROR_NOT_ENOUGH_MEMORY, or a Win32 error for a manifest
 * whose messages cannot be numbered. Freed with mc_msgs_free().
 */
ULONG mc_messages(const struct nttrace_man *m, struct mc_msgs *out);
void mc_msgs_free(struct mc_msgs *msgs);

/* NAME_MSG00001.bin: the message table of @msgs (mc_msg.c). */
ULONG mc_write_msg_table(const struct mc_msgs *msgs, struct mc_out *o);

/* NAMETEMP.BIN: the WEVT_TEMPLATE of @m, its message IDs @msgs' (mc_wevt.c). */
ULONG mc_write_wevt(const struct nttrace_man *m, const struct mc_msgs *msgs, struct mc_out *o);

/* NAME.rc, naming NAME_MSG00001.bin and NAMETEMP.BIN (mc_rc.c). */
ULONG mc_write_rc(const struct mc_opts *opts, struct mc_out *o);

/* NAME.h (mc_header.c). */
ULONG mc_write_header(const struct nttrace_man *m, const struct mc_opts *opts,
		      const struct mc_msgs *msgs, struct mc_out *o);

/*
 * The keyword an event's descriptor has: its keywords and its channel's
 * bit (63 for the provider's first channel, 62 for the next, ...), as
 * mc.exe gives it (mc_header.c).
 */
uint64_t mc_event_keyword(const struct nttrace_man_provider *p, const struct nttrace_man_event *e);

/*
 * Whether the header (-km's if @kernel) can write template @t's data: 0,
 * or -1 with @why and the data it is about in *@bad (mc_header.c).
 */
int mc_header_check_template(const struct nttrace_man_template *t, int kernel,
			     const char **why, const struct nttrace_man_data **bad);

/* The text each header begins with, -km's if @kernel, else -um's (mc_prelude.c). */
void mc_write_prelude(struct mc_out *o, int kernel);

#endif /* NTTRACE_MC_H */
