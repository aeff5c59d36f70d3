/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The threads of the test process, counted in /proc/self/task: for the
 * tests of the library's notification thread (process_test, and
 * tests/host/dlclose_test); and whether a task sleeps, for the tests that
 * wait until another task is blocked in a call.
 */
#ifndef NTTRACE_TEST_TASKS_H
#define NTTRACE_TEST_TASKS_H

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

static inline int count_tasks(void)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *d;
	int n = 0;

	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		n += d->d_name[0] != '.';
	closedir(dir);
	return n;
}

/*
 * Whether the process comes back to @want threads: checked every 10 ms, for
 * at most 60 seconds (a guard against a hang; an exiting thread leaves
 * /proc/self/task later on a slower or busier machine).
 */
static inline int tasks_become(int want)
{
	int i;

	for (i = 0; i < 6000; i++) {
		if (count_tasks() == want)
			return 1;
		usleep(10000);
	}
	printf("# %d threads, want %d\n", count_tasks(), want);
	return 0;
}

/*
 * The threads the process has once no thread of an earlier test is still
 * exiting (a joined thread may linger in /proc/self/task for a moment):
 * the same count over 200 ms, within 5 s.
 */
static inline int tasks_settled(void)
{
	int n = count_tasks(), same = 0, i;

	for (i = 0; i < 500 && same < 20; i++) {
		usleep(10000);
		if (count_tasks() == n) {
			same++;
		} else {
			n = count_tasks();
			same = 0;
		}
	}
	return n;
}

/*
 * Whether the task whose stat file is @path ("/proc/PID/stat",
 * "/proc/self/task/TID/stat") sleeps: state S, waiting in a call.
 */
static inline int task_sleeps(const char *path)
{
	char stat[256], *p;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, stat, sizeof(stat) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	stat[n] = 0;
	p = strrchr(stat, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

#endif /* NTTRACE_TEST_TASKS_H */
