/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FIXTURE(nttrace): what a test case may leave changed in the module, put
 * back after each case that uses it (TEST_F(nttrace, name)), so that a
 * case that fails or dies half-way does not decide how the next one goes:
 * the sessions it started and left running are stopped, and the module's
 * parameters it changed are set back. A case's process, or the program
 * after the case died, does it.
 */
#ifndef NTTRACE_TEST_STATE_H
#define NTTRACE_TEST_STATE_H

#include <stdint.h>
#include <stdio.h>

#include <nttrace/session.h>

#include "emit.h"
#include "harness.h"
#include "params.h"

/* The parameters of module/policy.c that tests set. */
static const char *const state_params[] = {
	"control_gid", "max_session_mb", "max_total_mb",
	"max_user_sessions", "max_user_registrations",
};

#define STATE_PARAMS (sizeof(state_params) / sizeof(state_params[0]))

/* The sessions running at a moment. */
struct running {
	uint32_t ids[NTTRACE_MAX_LOGGERS];
	uint32_t n;
};

static inline void running_note(struct running *r)
{
	if (nttrace_list(r->ids, NTTRACE_MAX_LOGGERS, &r->n))
		r->n = 0;
	if (r->n > NTTRACE_MAX_LOGGERS)
		r->n = NTTRACE_MAX_LOGGERS;
}

/* Stop each session that was not running when @r was noted. */
static inline void running_stop_new(const struct running *r)
{
	struct running now;
	uint32_t i, k;

	running_note(&now);
	for (i = 0; i < now.n; i++) {
		for (k = 0; k < r->n && r->ids[k] != now.ids[i]; k++)
			;
		if (k < r->n)
			continue;
		printf("# session %u left running: stopped\n", now.ids[i]);
		stop_session(now.ids[i]);
	}
}

/* Parameter @i's value in *@v; 0, or -1 if it cannot be read. */
static inline int state_param(unsigned int i, long *v)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/module/nttrace/parameters/%s", state_params[i]);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fscanf(f, "%ld", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

FIXTURE(nttrace) {
	struct running sessions;
	long param[STATE_PARAMS];
	int have[STATE_PARAMS];		/* param[i] was read */
};

FIXTURE_SETUP(nttrace)
{
	unsigned int i;

	running_note(&self->sessions);
	for (i = 0; i < STATE_PARAMS; i++)
		self->have[i] = !state_param(i, &self->param[i]);
}

FIXTURE_TEARDOWN(nttrace)
{
	unsigned int i;
	long now;

	running_stop_new(&self->sessions);
	for (i = 0; i < STATE_PARAMS; i++) {
		if (!self->have[i] || (!state_param(i, &now) && now == self->param[i]))
			continue;
		printf("# %s left changed: set back\n", state_params[i]);
		set_param(state_params[i], self->param[i]);
	}
}

#endif /* NTTRACE_TEST_STATE_H */
