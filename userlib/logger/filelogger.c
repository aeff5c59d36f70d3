// SPDX-License-Identifier: LGPL-2.1
/*
 * The logger process StartTrace starts for a kernel session with a log
 * file name: it drains the session into the ETL file (etl.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nttrace/session.h>
#include "../internal.h"

/*
 * The logger process: a grandchild of the caller (so that the caller never
 * has to reap it), in a session of its own, holding nothing of the
 * caller's but the log file. It attaches to the kernel session, reports
 * the result through a pipe, then writes every buffer until the session
 * stops. ControlTrace's STOP waits for it to let go (uapi:
 * NTTRACE_CONTROL_WAIT_CONSUMER), so the file is complete when it returns.
 */
static void run_logger(uint32_t logger_id, struct nttrace_logfile *lf, int report)
{
	struct nttrace_consumer c;
	struct nttrace_counts n;
	sigset_t all;
	int ret, msg[2];

	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	signal(SIGPIPE, SIG_IGN);
	ret = nttrace_consumer_open(&c, logger_id);
	msg[0] = ret;
	msg[1] = getpid();
	if (write(report, msg, sizeof(msg)) != sizeof(msg) || ret)
		_exit(1);
	close(report);
	lf->s.logger_pid = getpid();
	lf->s.logger_tid = getpid();
	for (;;) {
		int stopped = nttrace_consumer_stopped(&c);

		/* After the stop is seen, one more drain takes everything. */
		nttrace_consumer_drain(&c, nttrace_logfile_buffer, lf);
		if (stopped)
			break;
		nttrace_consumer_wait(&c, 1000);
	}
	/* The session has stopped: its counters are final. */
	nttrace_consumer_counts(&c, &n);
	ret = nttrace_logfile_close(lf, n.events_lost + n.events_overwritten,
				    n.buffers_overwritten);
	nttrace_consumer_close(&c);
	_exit(ret ? 1 : 0);
}

/* Only @fd and @report stay open, as 3 and 4; 0-2 go to /dev/null. */
static int isolate_fds(int *fd, int *report)
{
	int null = open("/dev/null", O_RDWR);
	int a = fcntl(*fd, F_DUPFD, 10), b = fcntl(*report, F_DUPFD, 10);
	int i;

	if (null < 0 || a < 0 || b < 0)
		return -1;
	for (i = 0; i < 3; i++)
		dup2(null, i);
	if (dup2(a, 3) < 0 || dup2(b, 4) < 0)
		return -1;
	if (close_range(5, ~0U, 0))
		for (i = 5; i < 65536; i++)
			close(i);
	*fd = 3;
	*report = 4;
	return 0;
}

int nttrace_start_file_logger(uint32_t logger_id, struct nttrace_logfile *lf, pid_t *pid)
{
	int pipefd[2], ret = -EIO, status, msg[2];
	pid_t child;
	ssize_t n;

	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	child = fork();
	if (child < 0) {
		ret = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return ret;
	}
	if (child == 0) {
		int report = pipefd[1];

		close(pipefd[0]);
		setsid();
		child = fork();
		if (child != 0)
			_exit(child < 0);
		if (isolate_fds(&lf->fd, &report))
			_exit(1);
		run_logger(logger_id, lf, report);
	}
	close(pipefd[1]);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	/* The logger's report (result, pid), or EOF if it died first. */
	do {
		n = read(pipefd[0], msg, sizeof(msg));
	} while (n < 0 && errno == EINTR);
	if (n == sizeof(msg)) {
		ret = msg[0];
		*pid = msg[1];
	}
	close(pipefd[0]);
	return ret;
}
