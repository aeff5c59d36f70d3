// SPDX-License-Identifier: GPL-2.0
/*
 * Windows programs, unchanged, against the module (tests/windows: built
 * with nttrace-windows.pc's flags as C and as C++, 64- and 32-bit, each
 * run by the test of its own width). For each language: the controller
 * starts a session writing a file and enables the three providers; the
 * manifest-based, TraceLogging and classic providers write; the
 * controller stops the session, which must have lost nothing; the
 * consumer reads the file back with OpenTrace, ProcessTrace and TDH and
 * exits 0 only if every event arrived as written. Then winnames checks
 * the Windows around ETW (mc.exe's selectany definitions, ULONG_MAX,
 * addresses as text) and the system logger's settings through
 * NtQuerySystemInformation and NtSetSystemInformation. The programs' own
 * output is passed on as TAP comments.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "state.h"

#define EVENTS	"5"

static char dir[PATH_MAX + 16];

/* Runs dir/NAME-LANG with up to three arguments; its exit status. */
static int run(const char *name, const char *lang, const char *a1, const char *a2,
	       const char *a3)
{
	char path[PATH_MAX + 64], line[512];
	int fds[2], status;
	FILE *out;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s-%s", dir, name, lang);
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execl(path, path, a1, a2, a3, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	out = fdopen(fds[0], "r");
	while (out && fgets(line, sizeof(line), out))
		printf("# %s", line);
	if (out)
		fclose(out);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void one_language(const char *lang, const char *what)
{
	char file[64];

	snprintf(file, sizeof(file), "/tmp/windows_test-%s-%d.etl", lang, (int)getpid());
	tap_eq(run("controller", lang, "start", file, NULL), 0,
	       "%s: controller start (StartTrace, EnableTraceEx2, EnableTrace)", what);
	tap_eq(run("provider", lang, "manifest", EVENTS, NULL), 0,
	       "%s: manifest-based provider (EventRegister, EventWrite)", what);
	tap_eq(run("tlprovider", lang, EVENTS, NULL, NULL), 0,
	       "%s: TraceLogging provider (TraceLoggingRegister, TraceLoggingWrite)", what);
	tap_eq(run("provider", lang, "classic", EVENTS, NULL), 0,
	       "%s: classic provider (RegisterTraceGuids, TraceEvent, TraceMessage)", what);
	tap_eq(run("controller", lang, "stop", NULL, NULL), 0,
	       "%s: controller stop (ControlTrace), no event lost", what);
	tap_eq(run("consumer", lang, file, EVENTS, NULL), 0,
	       "%s: consumer reads every event back (OpenTrace, ProcessTrace, TDH)", what);
	unlink(file);
	tap_eq(run("winnames", lang, "module", NULL, NULL), 0,
	       "%s: selectany, LPCBYTE, ULONG_MAX, addresses as text, "
	       "NtQuery/NtSetSystemInformation (SystemPerformanceTraceInformation)", what);
}

TEST_F(nttrace, c)
{
	one_language("c", "Windows program as C");
}

TEST_F(nttrace, cpp)
{
	one_language("cpp", "Windows program as C++");
}

int main(int argc, char **argv)
{
	char self[PATH_MAX], tool[PATH_MAX + 16], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int up;

	if (n <= 0)
		return 1;
	self[n] = 0;
	/* u64/tests/windows_test: the programs are in u64/windows. */
	for (up = 0; up < 2; up++) {
		slash = strrchr(self, '/');
		if (!slash)
			return 1;
		*slash = 0;
	}
	snprintf(dir, sizeof(dir), "%s/windows", self);
	/* The file logger StartTrace starts: this build's tool. */
	snprintf(tool, sizeof(tool), "%s/nttrace", self);
	setenv("NTTRACE_TOOL", tool, 0);
	return harness_run(argc, argv);
}
