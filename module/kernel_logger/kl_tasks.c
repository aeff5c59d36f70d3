// SPDX-License-Identifier: GPL-2.0
/* The machine's tasks for a rundown (kl_tasks.h). */
#include <linux/rcupdate.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "kl_tasks.h"

struct task_struct **nt_kl_tasks(bool threads, unsigned int *n)
{
	struct task_struct **tasks, *g, *t;
	unsigned int room = 64, i = 0;

	rcu_read_lock();
	for_each_process_thread(g, t)
		if (threads || t == g)
			room++;
	rcu_read_unlock();
	tasks = kvmalloc_array(room, sizeof(*tasks), GFP_KERNEL);
	if (!tasks)
		return NULL;
	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (!threads && t != g)
			continue;
		if (i == room)
			break;
		get_task_struct(t);
		tasks[i++] = t;
	}
	rcu_read_unlock();
	*n = i;
	return tasks;
}

void nt_kl_put_tasks(struct task_struct **tasks, unsigned int n)
{
	while (n--)
		put_task_struct(tasks[n]);
	kvfree(tasks);
}
