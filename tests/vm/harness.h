/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test cases for the VM test programs, each in a process of its own, on
 * top of tap.h: a case's checks stay TAP lines of their own (tap_ok(),
 * tap_eq()), numbered across the program.
 *
 *	TEST(name) { ... }			a case
 *	FIXTURE(fix) { members };		what a fixture's cases share
 *	FIXTURE_SETUP(fix) { self->... }	run before each of its cases
 *	FIXTURE_TEARDOWN(fix) { self->... }	run after each, always
 *	TEST_F(fix, name) { self->... }		a case of fixture fix
 *	SKIP(statement, fmt, ...)		report a skipped check, then
 *						run statement (return, say;
 *						it may be empty)
 *	harness_run(argc, argv)			run the cases, print the plan
 *
 * Cases run in the order they are written. Each runs in a child process,
 * in a process group of its own: a crash, an exit or a leaked process
 * there does not reach the next case. A case that dies by a signal or
 * exits non-zero adds a failed check saying so; every process left in
 * its group is then killed. A comment line names each case as it starts
 * ("# RUN") and ends ("# OK", "# FAIL", or "# SKIP" when all its checks
 * were skipped).
 *
 * A fixture's data starts zeroed, in memory the program shares with the
 * case's process. Its teardown runs after the body, or, when the setup
 * made a check fail or skip, instead of the body; when the case's process
 * dies before its teardown, the program runs the teardown itself from
 * the data the case left. A teardown therefore undoes only what the data
 * says was done (a logger ID not 0, say), and works in either process.
 *
 * SKIP's text is the check's description; " # SKIP" is added unless the
 * text has TAP's "# SKIP" directive already, so that scripts/tap-summary
 * counts it as skipped, never as passed.
 *
 * harness_run()'s arguments, if any, name the cases to run ("name" or
 * "fix.name"); "-l" lists them. It returns tap_done()'s status.
 */
#ifndef NTTRACE_TEST_HARNESS_H
#define NTTRACE_TEST_HARNESS_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

struct harness_case {
	const char *fixture;		/* NULL for TEST() */
	const char *name;
	int line;			/* where it is written: the order */
	size_t size;			/* of the fixture's data */
	void (*setup)(void *self);
	void (*body)(void *self);
	void (*teardown)(void *self);
	struct harness_case *next;
};

/* What a case's process tells the program, in memory they share. */
struct harness_state {
	int teardown_started;		/* its teardown began in the case */
	unsigned int skipped;		/* checks SKIP() reported */
	pid_t pid;			/* the case's process */
};

static struct harness_case *harness_cases;
static struct harness_state *harness_now;

static inline void harness_add(struct harness_case *c)
{
	struct harness_case **p = &harness_cases;

	while (*p && (*p)->line <= c->line)
		p = &(*p)->next;
	c->next = *p;
	*p = c;
}

#define HARNESS_ADD(id, fix, nm, sz, set, bod, tear)			\
	static struct harness_case harness_case_##id = {		\
		.fixture = fix, .name = nm, .line = __LINE__,		\
		.size = sz, .setup = set, .body = bod,			\
		.teardown = tear,					\
	};								\
	__attribute__((constructor)) static void harness_add_##id(void)	\
	{								\
		harness_add(&harness_case_##id);			\
	}

#define TEST(name)							\
	static void harness_test_##name(void);				\
	static void harness_any_##name(void *self)			\
	{								\
		harness_test_##name();					\
	}								\
	HARNESS_ADD(name, NULL, #name, 0, NULL, harness_any_##name, NULL) \
	static void harness_test_##name(void)

#define FIXTURE(fix)							\
	struct harness_fixture_##fix;					\
	static void harness_setup_##fix(struct harness_fixture_##fix *self); \
	static void harness_teardown_##fix(struct harness_fixture_##fix *self); \
	__attribute__((unused))						\
	static void harness_setup_any_##fix(void *self)			\
	{								\
		harness_setup_##fix(self);				\
	}								\
	__attribute__((unused))						\
	static void harness_teardown_any_##fix(void *self)		\
	{								\
		harness_teardown_##fix(self);				\
	}								\
	struct harness_fixture_##fix

#define FIXTURE_SETUP(fix)						\
	static void harness_setup_##fix(struct harness_fixture_##fix *self)

#define FIXTURE_TEARDOWN(fix)						\
	static void harness_teardown_##fix(struct harness_fixture_##fix *self)

#define TEST_F(fix, name)						\
	static void harness_test_##fix##_##name(struct harness_fixture_##fix *self); \
	static void harness_any_##fix##_##name(void *self)		\
	{								\
		harness_test_##fix##_##name(self);			\
	}								\
	HARNESS_ADD(fix##_##name, #fix, #name,				\
		    sizeof(struct harness_fixture_##fix),		\
		    harness_setup_any_##fix, harness_any_##fix##_##name,	\
		    harness_teardown_any_##fix)				\
	static void harness_test_##fix##_##name(struct harness_fixture_##fix *self)

__attribute__((format(printf, 1, 2)))
static inline void harness_skip(const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	tap_ok(1, "%s%s", text, strstr(text, "# SKIP") ? "" : " # SKIP");
	if (harness_now)
		harness_now->skipped++;
}

#define SKIP(statement, fmt, ...)					\
	do {								\
		harness_skip(fmt, ##__VA_ARGS__);			\
		statement;						\
	} while (0)

/* Memory the cases' processes share with the program, zeroed. */
static inline void *harness_shared(size_t size)
{
	void *p = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("Bail out! no shared memory for the test harness\n");
		exit(1);
	}
	return p;
}

static inline int harness_wanted(const struct harness_case *c, int argc, char **argv)
{
	char full[256];
	int i;

	if (argc < 2)
		return 1;
	snprintf(full, sizeof(full), "%s.%s", c->fixture ? c->fixture : "", c->name);
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], c->name) || !strcmp(argv[i], full))
			return 1;
	return 0;
}

/* In the case's process: setup, body, teardown; never returns. */
static inline void harness_child(const struct harness_case *c, struct harness_state *st,
				 void *self)
{
	unsigned int failed = tap_counts->failed;

	setpgid(0, 0);
	harness_now = st;
	st->pid = getpid();
	if (c->setup)
		c->setup(self);
	if (tap_counts->failed == failed && !st->skipped)
		c->body(self);
	/* A process the body forked that came back here just ends. */
	if (getpid() != st->pid)
		_exit(0);
	st->teardown_started = 1;
	if (c->teardown)
		c->teardown(self);
	fflush(NULL);
	_exit(0);
}

/* Run one case and wait for it; a death or an exit status is a failure. */
static inline void harness_one(const struct harness_case *c)
{
	const char *fix = c->fixture ? c->fixture : "", *dot = c->fixture ? "." : "";
	struct harness_state *st = harness_shared(sizeof(*st));
	void *self = c->size ? harness_shared(c->size) : NULL;
	unsigned int failed = tap_counts->failed, checks = tap_counts->n;
	int status = 0;
	pid_t pid;

	printf("# RUN %s%s%s\n", fix, dot, c->name);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		harness_child(c, st, self);
	if (pid < 0) {
		tap_ok(0, "%s%s%s: fork", fix, dot, c->name);
	} else {
		setpgid(pid, pid);
		while (waitpid(pid, &status, 0) < 0)
			;
		if (WIFSIGNALED(status))
			tap_ok(0, "%s%s%s: killed by signal %d (%s)", fix, dot, c->name,
			       WTERMSIG(status), strsignal(WTERMSIG(status)));
		else if (WEXITSTATUS(status))
			tap_ok(0, "%s%s%s: exit status %d", fix, dot, c->name,
			       WEXITSTATUS(status));
		/* Whatever the case left running. */
		kill(-pid, SIGKILL);
	}
	if (c->teardown && !st->teardown_started) {
		printf("# %s%s%s: its process ended early: teardown here\n", fix, dot, c->name);
		c->teardown(self);
	}
	printf("# %s %s%s%s\n", tap_counts->failed != failed ? "FAIL" :
	       st->skipped && st->skipped == tap_counts->n - checks ? "SKIP" : "OK",
	       fix, dot, c->name);
	fflush(NULL);
	if (self)
		munmap(self, c->size);
	munmap(st, sizeof(*st));
}

/**
 * harness_run() - run the program's test cases and print the plan
 * @argc: main()'s argument count
 * @argv: main()'s arguments: the cases to run (none: all); "-l" lists them
 *
 * Checks made before it (in main()) keep their numbers; the cases' follow.
 *
 * Return: tap_done()'s exit status, or 0 after "-l".
 */
static inline int harness_run(int argc, char **argv)
{
	struct tap_counts *shared = harness_shared(sizeof(*shared));
	const struct harness_case *c;

	if (argc == 2 && !strcmp(argv[1], "-l")) {
		for (c = harness_cases; c; c = c->next)
			printf("%s%s%s\n", c->fixture ? c->fixture : "",
			       c->fixture ? "." : "", c->name);
		return 0;
	}
	*shared = *tap_counts;
	tap_counts = shared;
	for (c = harness_cases; c; c = c->next)
		if (harness_wanted(c, argc, argv))
			harness_one(c);
	return tap_done();
}

#endif /* NTTRACE_TEST_HARNESS_H */
