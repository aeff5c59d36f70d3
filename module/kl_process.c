// SPDX-License-Identifier: GPL-2.0
/*
 * Processes, threads and images for the system loggers: the Process
 * (EVENT_TRACE_FLAG_PROCESS), Thread (THREAD) and Image (IMAGE_LOAD)
 * events of the NT Kernel Logger, from the scheduler's stable tracepoints
 * sched_process_fork, sched_process_exec and sched_process_exit, and
 * raw_syscalls' sys_exit for the images mapped after exec; and the
 * rundowns (DCStart when a system logger starts wanting a group, DCEnd
 * when it stops) of what exists. Records: common/sysrec.h
 * (Process_V4_TypeGroup1, Thread_TypeGroup1 v3, Image_Load v3).
 *
 * Linux in Windows' terms (ours, where Windows has no such thing):
 * - A fork of a new process is its Process/Start and the Start of its
 *   first thread; a clone of a thread, a Thread/Start. The header names
 *   the creating thread and process, as Windows' do.
 * - exec: Windows' processes never change image, so an exec is written
 *   as the end of the process that was (Process/End, ExitStatus 0, its
 *   name unknown by then: empty) and the start of a new one with the same
 *   PID and parent, the new image and command line; so tools that key
 *   processes by ID and start time see both images.
 * - Process/End when the last thread of the group exits (sched_process_exit
 *   runs after the group's live count reached 0), ExitStatus the exit
 *   code, or 128 + the signal that killed it (the shell's convention);
 *   its CommandLine is empty, the memory already gone. Thread/End for
 *   every thread.
 * - ImageFileName is the task's comm: 15 characters, as Windows' EPROCESS
 *   ImageFileName is; CommandLine the arguments (the process's argv,
 *   NULs as spaces, at most NT_KL_CMDLINE bytes), UTF-16.
 * - UserSID: the effective UID's S-1-22-1-uid, a kernel thread's S-1-5-18
 *   (common/sysrec.h). UniqueProcessKey: the task's start time in
 *   nanoseconds (unique, and no kernel address); DirectoryTableBase 0;
 *   SessionId the Linux session ID. IDs are the initial PID namespace's
 *   (a system logger runs there).
 * - Threads: priorities in Windows' terms (nt_win_priority()), page
 *   priority 5 and I/O priority 2 (Windows' normal); stacks, TEB and start
 *   address 0 (no meaning here, or a kernel address); ThreadName the comm.
 * - Images: each file mapping with execute permission: at exec, the
 *   program and its interpreter; after it, each mmap() with PROT_EXEC of
 *   a file (libraries), seen at raw_syscalls' sys_exit, which Linux has
 *   as its only stable tracepoint after a mapping (no mmap tracepoint):
 *   while IMAGE_LOAD is wanted every system call takes the kernel's
 *   syscall-tracepoint path. ImageBase is the mapping's address less its
 *   file offset, ImageSize up to the end of the file's last adjacent
 *   mapping, FileName the path (d_path()). A mapping the probe cannot look
 *   at without waiting (mmap_lock contended) is counted in
 *   nt_kl_images_missed. No Image/Unload (munmap() has no tracepoint
 *   either): a process's end ends its images.
 * - The rundown also writes the Idle process (ID 0), as Windows does.
 *
 * The probes run with preemption off: they read the current task's memory
 * without faulting (copy_from_user_nofault()) into this CPU's scratch
 * buffer, and take no lock they would wait for. The rundowns run in the
 * controller's system call and may sleep.
 */
#include <linux/atomic.h>
#include <linux/binfmts.h>
#include <linux/compat.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/percpu.h>
#include <linux/pid_namespace.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

#include "kernel_logger.h"

NT_KCLASS(process)
NT_KCLASS(thread)
NT_KCLASS(image)

#define NT_KL_CMDLINE	4096	/* bytes of argv read */
/* nt_kl_process_event()'s exit status for the End an exec writes. */
#define NT_KL_EXEC_END	S32_MIN
#define NT_KL_PATH	1024	/* bytes of an image's path */

struct nt_kl_scratch {
	char cmdline[NT_KL_CMDLINE];
	char path[NT_KL_PATH];
};

static struct nt_kl_scratch __percpu *nt_kl_scratch;
static atomic64_t nt_kl_images_missed = ATOMIC64_INIT(0);

int nt_kl_process_init(void)
{
	nt_kl_scratch = alloc_percpu(struct nt_kl_scratch);
	return nt_kl_scratch ? 0 : -ENOMEM;
}

void nt_kl_process_exit(void)
{
	free_percpu(nt_kl_scratch);
}

/* argv as one line: NULs as spaces, the trailing ones dropped. */
static u32 nt_kl_args(char *buf, u32 len)
{
	u32 i;

	while (len && !buf[len - 1])
		len--;
	for (i = 0; i < len; i++)
		if (!buf[i])
			buf[i] = ' ';
	return len;
}

/* The current process's argv, read without faulting: its length in @buf. */
static u32 nt_kl_current_args(char *buf)
{
	struct mm_struct *mm = current->mm;
	unsigned long start, end;
	u32 len;

	if (!mm || (current->flags & PF_KTHREAD))
		return 0;
	start = READ_ONCE(mm->arg_start);
	end = READ_ONCE(mm->arg_end);
	if (end <= start)
		return 0;
	len = min_t(unsigned long, end - start, NT_KL_CMDLINE);
	if (copy_from_user_nofault(buf, (const void __user *)start, len))
		return 0;
	return nt_kl_args(buf, len);
}

static void nt_kl_comm(const struct task_struct *t, char comm[TASK_COMM_LEN])
{
	memcpy(comm, t->comm, TASK_COMM_LEN);
	comm[TASK_COMM_LEN - 1] = 0;
}

static u32 nt_kl_sid(const struct task_struct *t, u8 *sid)
{
	uid_t uid;

	if (t->flags & PF_KTHREAD)
		return ntr_sr_sid_local_system(sid);
	rcu_read_lock();
	uid = from_kuid_munged(&init_user_ns, __task_cred(t)->euid);
	rcu_read_unlock();
	return ntr_sr_sid_unix_user(sid, uid);
}

/*
 * One Process event of @t (the group leader, or any of its threads):
 * @args, @args_len its command line; header IDs @htid, @hpid.
 */
static void nt_kl_process_event(u16 hook, const struct task_struct *t, u32 parent,
				s32 exit_status, const char *args, u32 args_len,
				u32 htid, u32 hpid, u32 only)
{
	char comm[TASK_COMM_LEN];
	u8 sid[NTR_SR_SID_MAX];
	struct ntr_sr_process p = {
		.unique_process_key = t->group_leader->start_time,
		.process_id = t->tgid,
		.parent_id = parent,
		.session_id = task_session_nr_ns((struct task_struct *)t, &init_pid_ns),
		.exit_status = exit_status,
		.sid = sid,
		.command_line = { args, args_len },
	};

	/* An exec's End: the old image's name is gone by then (see the top). */
	if (hook == NTR_SR_PROCESS_END && exit_status == NT_KL_EXEC_END) {
		p.exit_status = 0;
	} else {
		nt_kl_comm(t, comm);
		p.image_file_name = (struct ntr_sr_str){ comm, strlen(comm) };
	}
	p.sid_size = nt_kl_sid(t, sid);
	NT_KEVENT_OF(hook, htid, hpid, only, process, &p);
}

static void nt_kl_thread_event(u16 hook, const struct task_struct *t, u32 htid, u32 hpid,
			       u32 only)
{
	char comm[TASK_COMM_LEN];
	struct ntr_sr_thread th = {
		.process_id = t->tgid,
		.thread_id = t->pid,
		.base_priority = nt_win_priority(t),
		.page_priority = 5,
		.io_priority = 2,
	};

	nt_kl_comm(t, comm);
	th.name = (struct ntr_sr_str){ comm, strlen(comm) };
	NT_KEVENT_OF(hook, htid, hpid, only, thread, &th);
}

/*
 * @t's parent's process ID; 0 for a task already reaped, whose parent
 * pointer may name a task long freed (a rundown holds such tasks).
 */
static u32 nt_kl_parent(const struct task_struct *t)
{
	u32 ppid = 0;

	rcu_read_lock();
	if (pid_alive(t))
		ppid = rcu_dereference(t->real_parent)->tgid;
	rcu_read_unlock();
	return ppid;
}

/* ---- images ---- */

/*
 * The image @vma maps (a file mapping): its base, the mapping less its
 * file offset; its size, to the end of the same file's last mapping
 * that follows without a gap.
 */
static void nt_kl_image_extent(struct mm_struct *mm, struct vm_area_struct *vma,
			       struct ntr_sr_image *img)
{
	VMA_ITERATOR(vmi, mm, vma->vm_end);
	unsigned long base = vma->vm_start - (vma->vm_pgoff << PAGE_SHIFT);
	unsigned long end = vma->vm_end;
	struct vm_area_struct *next;

	for_each_vma(vmi, next) {
		if (next->vm_file != vma->vm_file || next->vm_start != end)
			break;
		end = next->vm_end;
	}
	img->image_base = base;
	img->image_size = end > base ? end - base : 0;
}

/* One Image event of @vma's file, its path written into @path. */
static void nt_kl_image_event(u16 hook, struct mm_struct *mm, struct vm_area_struct *vma,
			      u32 pid, char *path, u32 htid, u32 hpid, u32 only)
{
	struct ntr_sr_image img = { .process_id = pid };
	char *name = d_path(&vma->vm_file->f_path, path, NT_KL_PATH);

	if (IS_ERR(name))
		return;
	nt_kl_image_extent(mm, vma, &img);
	img.file_name = (struct ntr_sr_str){ name, strlen(name) };
	NT_KEVENT_OF(hook, htid, hpid, only, image, &img);
}

/* Each file of @mm mapped with execute permission, once. @mm's lock held. */
static void nt_kl_images(u16 hook, struct mm_struct *mm, u32 pid, char *path, u32 htid,
			 u32 hpid, u32 only)
{
	VMA_ITERATOR(vmi, mm, 0);
	struct file *last = NULL;
	struct vm_area_struct *vma;

	for_each_vma(vmi, vma) {
		if (!vma->vm_file || !(vma->vm_flags & VM_EXEC) || vma->vm_file == last)
			continue;
		last = vma->vm_file;
		nt_kl_image_event(hook, mm, vma, pid, path, htid, hpid, only);
	}
}

/* ---- the probes ---- */

static void nt_probe_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	const struct nt_ksource *src = data;
	struct nt_kl_scratch *sc;
	u32 len;

	if (src == &nt_ks_thread) {
		nt_kl_thread_event(NTR_SR_THREAD_START, child, current->pid, current->tgid, 0);
		return;
	}
	/* PROCESS: a new process's Start; its memory is its parent's copy. */
	if (src != &nt_ks_process || child->pid != child->tgid)
		return;
	preempt_disable();
	sc = this_cpu_ptr(nt_kl_scratch);
	len = nt_kl_current_args(sc->cmdline);
	nt_kl_process_event(NTR_SR_PROCESS_START, child, parent->tgid, 0, sc->cmdline, len,
			    current->pid, current->tgid, 0);
	preempt_enable();
}

static void nt_probe_exec(void *data, struct task_struct *p, pid_t old_pid,
			  struct linux_binprm *bprm)
{
	const struct nt_ksource *src = data;
	struct nt_kl_scratch *sc;
	struct mm_struct *mm;
	u32 len;

	preempt_disable();
	sc = this_cpu_ptr(nt_kl_scratch);
	if (src == &nt_ks_process) {
		u32 ppid = nt_kl_parent(p);

		nt_kl_process_event(NTR_SR_PROCESS_END, p, ppid, NT_KL_EXEC_END, NULL, 0,
				    p->pid, p->tgid, 0);
		len = nt_kl_current_args(sc->cmdline);
		nt_kl_process_event(NTR_SR_PROCESS_START, p, ppid, 0, sc->cmdline, len,
				    p->pid, p->tgid, 0);
	} else if (src == &nt_ks_image) {
		mm = p->mm;
		if (mm && mmap_read_trylock(mm)) {
			nt_kl_images(NTR_SR_IMAGE_LOAD, mm, p->tgid, sc->path, p->pid, p->tgid,
				     0);
			mmap_read_unlock(mm);
		} else {
			atomic64_inc(&nt_kl_images_missed);
		}
	}
	preempt_enable();
}

/* Linux's exit code as an exit status: the code, or 128 + the signal. */
static s32 nt_kl_exit_status(int code)
{
	return code & 0x7F ? 128 + (code & 0x7F) : (code >> 8) & 0xFF;
}

static void nt_probe_exit(void *data, struct task_struct *p)
{
	const struct nt_ksource *src = data;

	if (src == &nt_ks_thread) {
		nt_kl_thread_event(NTR_SR_THREAD_END, p, p->pid, p->tgid, 0);
		return;
	}
	/* The last thread of the group: the process ends. */
	if (src != &nt_ks_process || atomic_read(&p->signal->live))
		return;
	nt_kl_process_event(NTR_SR_PROCESS_END, p, nt_kl_parent(p),
			    nt_kl_exit_status(p->exit_code), NULL, 0, p->pid, p->tgid, 0);
}

/* The caller's mmap() system call number: mmap2 for a 32-bit process. */
static long nt_kl_mmap_nr(void)
{
#ifdef CONFIG_IA32_EMULATION
	if (in_ia32_syscall())
		return __NR_ia32_mmap2;
#endif
	return __NR_mmap;
}

/* mmap() with PROT_EXEC of a file: an Image/Load (see the top). */
static void nt_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned long args[6];
	long nr;

	if (IS_ERR_VALUE(ret) || !mm)
		return;
	nr = syscall_get_nr(current, regs);
	if (nr != nt_kl_mmap_nr())
		return;
	syscall_get_arguments(current, regs, args);
	if (!(args[2] & PROT_EXEC))
		return;
	preempt_disable();
	if (mmap_read_trylock(mm)) {
		vma = vma_lookup(mm, ret);
		if (vma && vma->vm_file)
			nt_kl_image_event(NTR_SR_IMAGE_LOAD, mm, vma, current->tgid,
					  this_cpu_ptr(nt_kl_scratch)->path, current->pid,
					  current->tgid, 0);
		mmap_read_unlock(mm);
	} else {
		atomic64_inc(&nt_kl_images_missed);
	}
	preempt_enable();
}

/* ---- rundowns ---- */

/*
 * A reference to each thread group leader (or each thread), for a
 * rundown: counted, then taken, with room for those started between.
 */
static struct task_struct **nt_kl_tasks(bool threads, unsigned int *n)
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

static void nt_kl_put_tasks(struct task_struct **tasks, unsigned int n)
{
	while (n--)
		put_task_struct(tasks[n]);
	kvfree(tasks);
}

static void nt_kl_process_rundown(u32 slot, bool start)
{
	u16 hook = start ? NTR_SR_PROCESS_DCSTART : NTR_SR_PROCESS_DCEND;
	struct task_struct **tasks;
	unsigned int n, i;
	char *buf;

	buf = kmalloc(NT_KL_CMDLINE, GFP_KERNEL);
	tasks = nt_kl_tasks(false, &n);
	if (!buf || !tasks)
		goto out;
	/* Windows' Idle process: the idle tasks, ID 0, no parent. */
	nt_kl_process_event(hook, &init_task, 0, 0, NULL, 0, 0, 0, slot);
	for (i = 0; i < n; i++) {
		struct task_struct *t = tasks[i];
		struct mm_struct *mm = get_task_mm(t);
		int len = 0;

		if (mm) {
			unsigned long start_arg, end_arg;

			spin_lock(&mm->arg_lock);
			start_arg = mm->arg_start;
			end_arg = mm->arg_end;
			spin_unlock(&mm->arg_lock);
			if (end_arg > start_arg)
				len = access_process_vm(t, start_arg, buf,
							min_t(unsigned long, end_arg - start_arg,
							      NT_KL_CMDLINE), FOLL_FORCE);
			mmput(mm);
		}
		len = len > 0 ? nt_kl_args(buf, len) : 0;
		nt_kl_process_event(hook, t, nt_kl_parent(t), 0, buf, len, 0, 0, slot);
	}
out:
	if (tasks)
		nt_kl_put_tasks(tasks, n);
	kfree(buf);
}

static void nt_kl_thread_rundown(u32 slot, bool start)
{
	struct task_struct **tasks;
	unsigned int n, i;

	tasks = nt_kl_tasks(true, &n);
	if (!tasks)
		return;
	for (i = 0; i < n; i++)
		nt_kl_thread_event(start ? NTR_SR_THREAD_DCSTART : NTR_SR_THREAD_DCEND,
				   tasks[i], 0, 0, slot);
	nt_kl_put_tasks(tasks, n);
}

static void nt_kl_image_rundown(u32 slot, bool start)
{
	u16 hook = start ? NTR_SR_IMAGE_DCSTART : NTR_SR_IMAGE_DCEND;
	struct task_struct **tasks;
	unsigned int n, i;
	char *path;

	path = kmalloc(NT_KL_PATH, GFP_KERNEL);
	tasks = nt_kl_tasks(false, &n);
	if (!path || !tasks)
		goto out;
	for (i = 0; i < n; i++) {
		struct mm_struct *mm = get_task_mm(tasks[i]);

		if (!mm)
			continue;
		if (!mmap_read_lock_killable(mm)) {
			nt_kl_images(hook, mm, tasks[i]->tgid, path, 0, 0, slot);
			mmap_read_unlock(mm);
		}
		mmput(mm);
	}
out:
	if (tasks)
		nt_kl_put_tasks(tasks, n);
	kfree(path);
}

/* ---- the sources ---- */

static const struct nt_khook nt_process_hooks[] = {
	{ "sched_process_fork", nt_probe_fork },
	{ "sched_process_exec", nt_probe_exec },
	{ "sched_process_exit", nt_probe_exit },
};

static const struct nt_khook nt_thread_hooks[] = {
	{ "sched_process_fork", nt_probe_fork },
	{ "sched_process_exit", nt_probe_exit },
};

static const struct nt_khook nt_image_hooks[] = {
	{ "sched_process_exec", nt_probe_exec },
	{ "sys_exit", nt_probe_sys_exit },
};

const struct nt_ksource nt_ks_process = {
	.name = "PROCESS",
	.flag = NTTRACE_EVENT_TRACE_FLAG_PROCESS,
	.hooks = nt_process_hooks,
	.nr_hooks = ARRAY_SIZE(nt_process_hooks),
	.rundown = nt_kl_process_rundown,
};

const struct nt_ksource nt_ks_thread = {
	.name = "THREAD",
	.flag = NTTRACE_EVENT_TRACE_FLAG_THREAD,
	.hooks = nt_thread_hooks,
	.nr_hooks = ARRAY_SIZE(nt_thread_hooks),
	.rundown = nt_kl_thread_rundown,
};

const struct nt_ksource nt_ks_image = {
	.name = "IMAGE_LOAD",
	.flag = NTTRACE_EVENT_TRACE_FLAG_IMAGE_LOAD,
	.hooks = nt_image_hooks,
	.nr_hooks = ARRAY_SIZE(nt_image_hooks),
	.rundown = nt_kl_image_rundown,
};
