/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The nttrace tool: what its subcommands share (cli.c), and the
 * subcommands that live in files of their own. Exit statuses: 0 done,
 * 1 the operation failed, 2 a usage error (a bad option or value).
 */
#ifndef NTTRACE_CLI_H
#define NTTRACE_CLI_H

#include <stdio.h>
#include <stdint.h>

#include <nttrace/session.h>
#include <nttrace/evntcons.h>
#include <nttrace/tmf.h>

#include "put_le.h"	/* ntr_put_le(), for the tools that write ETL and CTF */

#define CLI_USAGE	2

/* What the tool says when the module is not loaded (-ENODEV). */
#define CLI_NOT_LOADED \
	"the nttrace kernel module is not loaded (" NTTRACE_DEVICE " not found)"

/* True when argv holds --help or -h: the subcommand prints its usage. */
int cli_wants_help(int argc, char **argv);

/*
 * Print "nttrace: WHAT: why" for a session function's -errno (-ENOENT:
 * "no such session", ...), or only that the module is not loaded
 * (-ENODEV); returns 1, the exit status.
 */
__attribute__((format(printf, 2, 3)))
int cli_fail(int err, const char *fmt, ...);

/* The same for starting or reading a system logger: its own permission words. */
__attribute__((format(printf, 2, 3)))
int cli_fail_system(int err, const char *fmt, ...);

/* cli_uint() flags: 0 is allowed besides [min, max] ("the default"). */
#define CLI_ZERO_DEFAULT	1

/*
 * The one parser of the tool's numbers: @arg, the value of @what (an
 * option, "--buffer-size", or an argument, "FLAGS"), an unsigned integer in
 * C notation (decimal, 0x hex, 0 octal) with nothing after it, in [@min,
 * @max] (or 0 with CLI_ZERO_DEFAULT). Returns 0 with *@val set, or says
 * what is wrong and returns CLI_USAGE. Signs, spaces, suffixes and empty
 * values are refused: "-1" is not read as a huge number, "12x" not as 12.
 */
int cli_uint(const char *what, const char *arg, uint64_t min, uint64_t max,
	     unsigned int flags, uint64_t *val);
/* The same for a time in seconds, fractions allowed ("0.5"), 0 to @max. */
int cli_seconds(const char *what, const char *arg, double max, double *val);

/*
 * Select a session by NAME, or by a logger ID when @by_id, into @info
 * (zeroed first); 0, or prints why and returns CLI_USAGE.
 */
int cli_session_arg(const char *arg, int by_id, struct nttrace_logger_info *info);

/*
 * A GUID as xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (hex digits, either case),
 * with or without braces, into the 16 bytes of a Windows GUID; 0, or says
 * what is wrong about @what and returns CLI_USAGE.
 */
int cli_guid(const char *what, const char *arg, uint8_t out[16]);

/*
 * Why nttrace_trace_file_create() (the one creator of the files the tool
 * writes: 0600, no symbolic link followed) refused a path: its -errno in
 * words.
 */
const char *cli_create_error(int err);

/*
 * @n names (malloc'd) made distinct in order: a name met before gets _2,
 * _3, ... (the first suffix no name so far has), the old string freed.
 * In linear expected steps, a hash of the names so far and, per name, the
 * next suffix to try; cli_name_steps counts the hash's probes, for tests.
 * 0, or -1 when out of memory (the names left as they are, some renamed).
 */
int cli_unique_names(char **names, unsigned int n);
extern unsigned long cli_name_steps;

/*
 * This process's seed for the hash tables whose keys come from a file,
 * so that a file cannot choose keys that collide: drawn at the first call
 * (getrandom, else the address of a static, the PID and the time), the
 * same afterwards. Not for more than one thread's first call at once.
 */
uint64_t cli_seed(void);

/* CLOCK_MONOTONIC's time, in seconds. */
double cli_now(void);

/*
 * Where a Windows-style command (`wpr`, `xperf`) keeps what it started
 * for its later commands: $XDG_RUNTIME_DIR (a directory of the user's own
 * by systemd's rules) or /tmp, then nttrace-@tool-UID, created 0700 and,
 * when it exists, checked to be the user's own and closed to others, so
 * that no one else can plant or read a state; then @name ('/' and '%'
 * escaped). 0 with the file's @path, or -errno (-EPERM: a directory not
 * the user's own).
 */
int cli_state_path(const char *tool, const char *name, char *path, size_t room);
/*
 * One line of state there: @text written (0600, no link followed), or
 * read back into @text (@room bytes, NUL-terminated) and, with @remove,
 * the file removed. 0, or -errno (-ENOENT: none, or empty).
 */
int cli_state_write(const char *tool, const char *name, const char *text);
int cli_state_read(const char *tool, const char *name, char *text, size_t room, int remove);

/* @dir and the directories above it that are missing, 0755: 0 or -errno. */
int cli_make_dirs(const char *dir);

/*
 * The NT Kernel Logger's flags (EVENT_TRACE_PROPERTIES.EnableFlags, the
 * group mask's first word) of `--kernel FLAGS`: a comma (or +) list of
 * names, any case, or a number. cli_kernel_flags() parses @arg into
 * *@flags: 0, or a usage error listing the names (CLI_USAGE). Flags the
 * loaded module writes no events for (nttrace_system_flags()), which it
 * refuses, are named on stderr: 1.
 */
int cli_kernel_flags(const char *arg, uint32_t *flags);
/* @flags by name, "process,thread" ("none" for 0; bits without a name in hex). */
void cli_print_kernel_flags(FILE *f, uint32_t flags);
/* The names --kernel takes, on lines that start with @prefix. */
void cli_kernel_flag_names(FILE *f, const char *prefix);
/*
 * @info for starting a system logger: @name (NULL: the NT Kernel Logger;
 * another name gets EVENT_TRACE_SYSTEM_LOGGER_MODE), @mode, @flags as its
 * group mask's first word. 0, or says why not and returns CLI_USAGE.
 */
/*
 * `--stacks EVENTS`: the kernel events a system logger writes stacks for,
 * by xperf's -stackwalk names (Profile, CSwitch, ReadyThread,
 * SyscallEnter, SyscallExit, ProcessCreate, ProcessDelete, ThreadCreate,
 * ThreadDelete, ImageLoad, DiskReadInit, DiskWriteInit; any case), a comma
 * or + list, into @hooks (NTTRACE_STACKS_MAX of room) and *@n: 0, or a
 * usage error naming them (CLI_USAGE). cli_set_stacks() gives them to
 * logger @logger_id (NTTRACE_IOC_STACKS): 0 or -errno.
 */
int cli_stack_events(const char *arg, uint16_t *hooks, uint32_t *n);
/* The HookId of one of those events by @name: 0 with *@hook, or -1. */
int cli_stack_hook(const char *name, uint16_t *hook);
int cli_set_stacks(uint32_t logger_id, const uint16_t *hooks, uint32_t n);
/*
 * The same, leaving out the HookIds of events the loaded module does not
 * write (which it refuses, -EOPNOTSUPP): those go to @refused
 * (*@n_refused, room for *@n), the rest stay in @hooks (*@n). 0 or -errno.
 */
int cli_set_stacks_each(uint32_t logger_id, uint16_t *hooks, uint32_t *n, uint16_t *refused,
			uint32_t *n_refused);
int cli_kernel_session(const char *name, uint32_t flags, uint32_t mode,
		       struct nttrace_logger_info *info);
/*
 * Start the session @info describes (named @name in what is said); when
 * the module's limits refuse its rings (-ENOBUFS, -ENOMEM, -E2BIG), try again
 * with half as many buffers a CPU, down to NTTRACE_MIN_BUFFERS, saying
 * so on stdout. 0 with @info filled in as nttrace_start() fills it, or
 * the last -errno.
 */
int cli_start_fitted(struct nttrace_logger_info *info, const char *name);
/*
 * A Windows session's buffer counts (the whole session's, as xperf's
 * -MinBuffers/-MaxBuffers and logman's -nb give them) as nttrace's, which
 * are per CPU: each CPU's share, rounded up, within NTTRACE_MIN_BUFFERS
 * and NTTRACE_MAX_BUFFERS, the minimum not above the maximum.
 */
void cli_session_buffers(struct nttrace_logger_info *info, uint64_t min_total, uint64_t max_total);
/*
 * The logger processes the library starts for a log file
 * (nttrace_start_file_logger()) are this very tool, not another on PATH:
 * NTTRACE_TOOL set to it, unless already set.
 */
void cli_same_tool(void);

/*
 * The one renderer of events (render.c), for dump and show: --json's
 * one-object-a-line form when @render_json, times relative to
 * @render_start (FILETIME, 0: none), messages through @render_formats.
 * In a ProcessTrace callback it shows what the reader's record behind the
 * EVENT_RECORD (nttrace_current_record()) adds: @render_live for a live
 * session's events, which have no offset in a file.
 */
extern int render_json;
extern int render_live;
extern uint64_t render_start;
extern struct nttrace_tmf render_formats;
/*
 * @er as one line (text or JSON) on stdout; as text, a line "# cpu N:
 * events lost before this event" first when its buffer says so.
 */
void render_event(const EVENT_RECORD *er);
/* The header event of a file (ProcessTrace delivers it first). */
int render_is_header_event(const EVENT_RECORD *er);
/*
 * An nttrace_etl_problem_fn (nttrace_trace_problems()): a problem in the
 * file as a line "# offset N: what", or a JSON object {"problem":...,
 * "offset":N}, on stdout among the events; counted in @render_problems.
 */
void render_problem(void *ctx, uint64_t offset, const char *what);
extern unsigned int render_problems;
/* A log file's header: @path, and its @buffers (the file's size in them). */
void render_header(const TRACE_LOGFILE_HEADER *h, const char *path, uint64_t buffers);
/* Text from a file, escaped as text or (@json) as a JSON string. */
void render_text(const char *s, int json);
void render_text_to(FILE *f, const char *s, int json);
/* Bytes as hex: all of them in JSON (as "@key"), the first 32 as text. */
void render_hex(const char *key, const uint8_t *d, uint32_t len);
/* A NUL-terminated WCHAR string (a name) as UTF-8 the caller frees, or NULL. */
char *render_utf16(const WCHAR *w);
/*
 * Event data that is UTF-16LE text up to its NUL (EventWriteString's) as
 * UTF-8 the caller frees; NULL when it is not such text (an odd length, no
 * NUL), whose bytes are then shown instead.
 */
char *render_utf16_data(const uint8_t *d, uint32_t len);
/*
 * The pointer size of @er's payload: its header's 32- or 64-bit flag, else,
 * for an EventWrite record with neither, its header type's (EVENT_HEADER32:
 * 4); 8 otherwise. In a ProcessTrace callback (nttrace_current_record()).
 */
int render_pointer_size(const EVENT_RECORD *er);
/* @er's first extended item of @type at least @min_size bytes long, or NULL. */
const EVENT_HEADER_EXTENDED_DATA_ITEM *render_ext_item(const EVENT_RECORD *er, USHORT type,
						       USHORT min_size);

/*
 * An event TDH can decode (render_tdh.c): render_tdh_knows() says whether
 * it can; render_tdh() prints its names and fields (text, or JSON members)
 * with pointers of @psz bytes; 0 if TDH could not describe it after all.
 */
int render_tdh_knows(const EVENT_RECORD *er);
/*
 * Load the instrumentation manifests of @list (comma-separated paths)
 * with TdhLoadManifest, so that their providers' events decode; 0, or
 * the error said on stderr and non-zero.
 */
int render_load_manifests(char *list);
int render_tdh(const EVENT_RECORD *er, int psz);
/*
 * The same event's top-level fields one by one (`nttrace convert`): each
 * name and value as render_tdh() writes it (TdhFormatProperty's text,
 * arrays [a,b], structures {x=1 y=2}); @bits (and @is_signed, @value,
 * sign-extended) for an integer TDH writes in decimal, else 0. The fields
 * end where the data does: @cut names the field the data ended inside,
 * or, with @stopped, the field where the walk stopped after
 * NTTRACE_TDH_MAX_VISITS values; @decoded is the bytes the fields took. 0 when
 * TDH cannot describe the event; else render_fields_free() frees @f.
 */
struct render_field {
	char *name, *text;
	unsigned int bits;
	int is_signed;
	uint64_t value;
	/* The value's bytes in the event's data, and what TDH says they are. */
	uint32_t off, size;
	unsigned short in_type, out_type;
	int single;		/* one value, not a structure or an array */
};
struct render_fields {
	char *provider, *event, *cut;
	struct render_field *v;
	unsigned int n;
	uint32_t decoded;
	int stopped;
};
int render_tdh_fields(const EVENT_RECORD *er, int psz, struct render_fields *f);
void render_fields_free(struct render_fields *f);
/* Add the formats of a comma-separated list of binaries and format files. */
int render_load_formats(char *list);
/* 0, or says that @path is a directory and returns -1. */
int render_not_a_directory(const char *path);
/*
 * "nttrace: WHAT: CALL: words (ERROR_NAME)" for a Win32 error on stderr;
 * returns 1, the exit status.
 */
int render_fail(ULONG err, const char *what, const char *call);

/*
 * What TdhEnumerateProviders knows (the manifests installed and loaded),
 * allocated, or NULL when it knows none; the caller frees it.
 */
struct _PROVIDER_ENUMERATION_INFO *cli_tdh_providers(void);
/*
 * A provider's GUID by @name: the text of one (braces allowed; a bad one
 * is said), "*Name" (TraceLogging's name hash of Name, as WPR takes it),
 * or a name TDH knows (any case), *@known being what it knows,
 * asked the first time, for the caller to free. 0, or -1 when not found.
 */
int cli_provider_guid(struct _PROVIDER_ENUMERATION_INFO **known, const char *name,
		      uint8_t guid[16]);
/*
 * A TraceLogging provider's GUID from its @name, by ETW's name hash
 * (tlname.c), as WPR's `*Name` means it: the 16 bytes of a Windows GUID.
 */
void cli_provider_name_guid(const char *name, uint8_t guid[16]);

int cmd_record(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_formats(int argc, char **argv);
int cmd_enable(int argc, char **argv);
int cmd_disable(int argc, char **argv);
int cmd_providers(int argc, char **argv);
int cmd_manifest(int argc, char **argv);
int cmd_mc(int argc, char **argv);
int cmd_tracerpt(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_wpr(int argc, char **argv);
int cmd_xperf(int argc, char **argv);
int cmd_autologger(int argc, char **argv);

/*
 * An argument list for a command's work function (cli_autologger_add()),
 * built an argument at a time: cli_arg() formats one into @a and keeps
 * @argv NULL-ended; past CLI_ARGS it sets @full instead.
 */
#define CLI_ARGS	80
struct cli_args {
	char text[CLI_ARGS][160];
	char *argv[CLI_ARGS + 1];
	int argc, full;
};
__attribute__((format(printf, 2, 3)))
void cli_arg(struct cli_args *a, const char *fmt, ...);

/*
 * The autologgers (autologger.c), for the commands that configure boot
 * traces. cli_autologger_add(): `nttrace autologger add`'s work, @argv[0]
 * the name, then VALUE=DATA and -p PROVIDER as the command takes them;
 * @quiet: nothing said when it succeeds; 0, or says why not (1 or
 * CLI_USAGE). cli_autologger_remove(): 0, or says why not.
 * cli_autologger_names(): the autologgers' names, sorted (free with
 * cli_autologger_names_free()); 0 or -errno. cli_autologger_file(): the
 * file the last boot gave autologger @name; 0 or -errno.
 */
int cli_autologger_add(int argc, char **argv, int quiet);
int cli_autologger_remove(const char *name, int quiet);
int cli_autologger_names(char ***out, unsigned int *n);
void cli_autologger_names_free(char **v, unsigned int n);
int cli_autologger_file(const char *name, char *file, size_t room);
int cmd_logman(int argc, char **argv);

#endif /* NTTRACE_CLI_H */
