// SPDX-License-Identifier: LGPL-2.1
/*
 * The logger process StartTrace starts for a kernel session with a log
 * file name: the installed `nttrace` tool, `nttrace record --id N -o FILE
 * --report-fd 3`, which attaches to the session, creates the file and
 * drains the session into it (etl.c) until the session stops.
 * ControlTrace's STOP waits for it to let go (uapi:
 * NTTRACE_CONTROL_WAIT_CONSUMER), so the file is complete when it returns.
 *
 * A process of its own, not a thread of the caller's: a kernel session
 * and its file outlive the process that started them, as on Windows,
 * where the kernel writes the file. And a program of its own, started by
 * exec, not a copy of the caller made by fork that runs on in library code:
 * such a copy of a threaded program may find malloc's or any
 * other lock held by a thread that does not exist in it, and keeps the
 * caller's memory and whatever else the program did not mean to share;
 * LTTng starts its daemons the same way. posix_spawn runs none of the
 * program's fork handlers and only exec's own work in the child.
 *
 * The tool: NTTRACE_TOOL from the environment (ignored in a set-user-ID
 * program), else NTTRACE_TOOL_PATH, the installed tool's path (the
 * packaging sets it to $(BINDIR)/nttrace); an in-tree build, without it,
 * and an installed one whose tool is not where it was installed (a
 * library copied elsewhere, a test VM), look for `nttrace` on PATH, but
 * not in a set-user-ID program, whose PATH is its caller's. The tool detaches (a session of its own,
 * then a fork, so that the caller has no child to reap), reports on its
 * descriptor 3 whether it attached and created the file, and records: the
 * detaching and the report are the logger's half of this file
 * (logger_internal.h), which the tool calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/session.h>
#include "logger_internal.h"

#ifndef NTTRACE_TOOL_PATH
#define NTTRACE_TOOL_PATH	"nttrace"
#endif

extern char **environ;

static int spawn_tool(pid_t *child, int report, char **argv)
{
	const char *tool = secure_getenv("NTTRACE_TOOL");
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, all;
	int err, installed = 0;

	if (!tool || !*tool) {
		tool = NTTRACE_TOOL_PATH;
		installed = 1;
	}
	if ((err = posix_spawn_file_actions_init(&fa)) != 0)
		return -err;
	if ((err = posix_spawnattr_init(&attr)) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return -err;
	}
	/*
	 * 0-2 on /dev/null, the report on 3 (@report is above 3: dup2 onto
	 * itself would keep its close-on-exec); the tool closes the rest.
	 * Its signals as a new program's: none blocked, none ignored, a
	 * session of its own (no terminal's signals).
	 */
	sigemptyset(&none);
	sigfillset(&all);
	err = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDWR, 0);
	if (!err)
		err = posix_spawn_file_actions_adddup2(&fa, 0, 1);
	if (!err)
		err = posix_spawn_file_actions_adddup2(&fa, 0, 2);
	if (!err)
		err = posix_spawn_file_actions_adddup2(&fa, report, 3);
	if (!err)
		err = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK |
						     POSIX_SPAWN_SETSIGDEF);
	if (!err)
		err = posix_spawnattr_setsigmask(&attr, &none);
	if (!err)
		err = posix_spawnattr_setsigdefault(&attr, &all);
	if (!err)
		err = strchr(tool, '/') ?
		      posix_spawn(child, tool, &fa, &attr, argv, environ) :
		      posix_spawnp(child, tool, &fa, &attr, argv, environ);
	if (err == ENOENT && installed && strchr(tool, '/') && !getauxval(AT_SECURE))
		err = posix_spawnp(child, "nttrace", &fa, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	return -err;
}

int nttrace_start_file_logger(uint32_t logger_id, const char *path, uint32_t max_mb,
			      pid_t *pid)
{
	char id[16], mb[16], fd3[] = "3";
	char *argv[] = { "nttrace", "record", "--id", id, "-o", (char *)path,
			 "--max-size", mb, "--quiet", "--report-fd", fd3, NULL };
	int pipefd[2], report, ret, status;
	int32_t msg[3];
	pid_t child;
	ssize_t n;

	snprintf(id, sizeof(id), "%u", logger_id);
	snprintf(mb, sizeof(mb), "%u", max_mb);
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	report = fcntl(pipefd[1], F_DUPFD_CLOEXEC, 4);
	close(pipefd[1]);
	if (report < 0) {
		ret = -errno;
		close(pipefd[0]);
		return ret;
	}
	ret = spawn_tool(&child, report, argv);
	close(report);
	if (ret) {
		close(pipefd[0]);
		return ret;
	}
	/*
	 * The logger's report (error, PID, which step failed), or EOF if it
	 * died first (a tool that does not know --report-fd, for one). The
	 * child itself exits as soon as it has forked the logger.
	 */
	do {
		n = read(pipefd[0], msg, sizeof(msg));
	} while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	if (n != sizeof(msg))
		return -EIO;
	/* The file's directory missing: ERROR_PATH_NOT_FOUND, not "no session". */
	if (msg[2] == NTTRACE_LOGGER_FAILED_FILE && msg[0] == -ENOENT)
		return -ENOTDIR;
	if (!msg[0])
		*pid = msg[1];
	return msg[0];
}
