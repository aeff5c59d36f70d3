/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The processes (or threads) of the machine, for the rundowns of the
 * sources that write one event for each (kl_process.c, kl_counters.c).
 */
#ifndef NTTRACE_KL_TASKS_H
#define NTTRACE_KL_TASKS_H

#include <linux/sched.h>

/**
 * nt_kl_tasks() - a reference to each thread group leader, or each thread
 * @threads: every thread, not only the leaders
 * @n: set to how many the array holds
 *
 * Counted, then taken, with room for those started between; those
 * started after are not in it. Sleeps (allocates).
 *
 * Return: the array, for nt_kl_put_tasks(); NULL with no memory.
 */
struct task_struct **nt_kl_tasks(bool threads, unsigned int *n);

/**
 * nt_kl_put_tasks() - drop nt_kl_tasks()'s references and array
 * @tasks: the array
 * @n: its count
 */
void nt_kl_put_tasks(struct task_struct **tasks, unsigned int n);

#endif /* NTTRACE_KL_TASKS_H */
