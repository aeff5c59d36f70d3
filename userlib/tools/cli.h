/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the nttrace tool's subcommands. */
#ifndef NTTRACE_CLI_H
#define NTTRACE_CLI_H

#include <stdio.h>
#include <stdint.h>

#include <nttrace/session.h>

/* True when argv holds --help or -h: the subcommand prints its usage. */
int cli_wants_help(int argc, char **argv);
/* Select a session by NAME or --id N into @info; 0 or prints why and 2. */
int cli_session_arg(const char *arg, int by_id, struct nttrace_logger_info *info);
const char *cli_strerror(int err);

int cmd_record(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_formats(int argc, char **argv);

#endif /* NTTRACE_CLI_H */
