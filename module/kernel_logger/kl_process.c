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
 * - ImageFileName: the name of the process's executable file (the
 *   program exec ran, mm->exe_file; the file's own name, whatever path
 *   reached it: /proc/self/exe names it too), at most 15 characters, as
 *   Windows' EPROCESS ImageFileName is: not the comm, which the process
 *   sets itself (prctl(PR_SET_NAME)) and exec takes from the path it was
 *   given. A kernel thread's is its comm (it has no file). Process/End's
 *   is empty: the process's memory, its file with it, is gone by then.
 *   CommandLine the arguments (the process's argv, NULs as spaces, at
 *   most NT_KL_CMDLINE bytes), UTF-16.
 * - UserSID: the effective UID's S-1-22-1-uid, a kernel thread's S-1-5-18
 *   (common/sysrec.h). UniqueProcessKey: the task's start time in
 *   nanoseconds (unique, and no kernel address); DirectoryTableBase 0;
 *   SessionId the Linux session ID. IDs are the initial PID namespace's
 *   (a system logger runs there).
 * - Threads: priorities in Windows' terms (nt_win_priority()), page
 *   priority 5 and I/O priority 2 (Windows' normal); stacks, TEB and start
 *   address 0 (no meaning here, or a kernel address); ThreadName the comm.
 * - Images: each file mapping with execute permission: at exec, the
 *   program and its interpreter; after it, each file mapping a system call
 *   made executable: mmap() (mmap2 and old_mmap of a 32-bit process, x32's
 *   mmap) with PROT_EXEC, mprotect() and pkey_mprotect() adding PROT_EXEC
 *   (each executable file mapping in the range: one that was executable
 *   already is written again). They are seen at raw_syscalls' sys_exit,
 *   which Linux has as its only stable tracepoint after a mapping (no mmap
 *   tracepoint): while IMAGE_LOAD is wanted every system call takes the
 *   kernel's syscall-tracepoint path. ImageBase is the mapping's address
 *   less its file offset, ImageSize up to the end of the file's last
 *   adjacent mapping, FileName the path (d_path()). Image/Unload: a
 *   munmap() (sys_enter: after it the mapping is gone) of a range holding
 *   an image's executable mapping, with the same base, size and name (as
 *   dlclose() unmaps a library); a process's end ends its images without
 *   one, its mm being gone when sched_process_exit fires.
 * - The rundown also writes the Idle process (ID 0), as Windows does.
 *
 * The probes run with preemption off (the tracepoint's caller turns it
 * off, PREEMPT_RT included): they read the current task's memory without
 * faulting (copy_from_user_nofault()) into this CPU's scratch buffer, and
 * take no lock but, at munmap(), the mm's with mmap_read_trylock(). What
 * needs the mm's lock and d_path() (whose fallback
 * takes rename_lock and mount_lock, sleeping locks under PREEMPT_RT) is
 * not done there: the probe queues a task work (task_work_add()) that the
 * task runs on its way back to user space, preemptible and allowed to
 * sleep, before it runs any more of its code; so an image's events come
 * before anything the program does with it. The task works come from a
 * fixed pool (nothing is allocated in the probe); one that cannot be had
 * (the pool empty, the task exiting) is counted in nttrace.kl_images_missed.
 * Each holds a reference to this module until it has run.
 *
 * The rundowns run in the controller's system call, with no lock of
 * nttrace held, and may sleep, but wait for no process: a process's
 * memory (its command line, its mappings) is read only if its mm's lock
 * is free (mmap_read_trylock()) and only what is in memory (no fault,
 * which could wait on a FUSE server or a userfaultfd handler for ever). A
 * process whose command line or images could not be read so gets its
 * Process event without a command line, or no Image events, counted in
 * nttrace.kl_rundown_unread.
 */
#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/binfmts.h>
#include <linux/bitops.h>
#include <linux/compat.h>
#include <linux/cred.h>
#include <linux/dcache.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/pid_namespace.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>

#include "ksource.h"
#include "kl_io.h"
#include "kl_mmcall.h"
#include "kl_tags.h"
#include "kl_tasks.h"

NT_KCLASS(process)
NT_KCLASS(thread)
NT_KCLASS(image)

#define NT_KL_CMDLINE	4096	/* bytes of argv read */
#define NT_KL_PATH	1024	/* bytes of an image's path */

struct nt_kl_scratch {
	char cmdline[NT_KL_CMDLINE];
	char path[NT_KL_PATH];
};

static struct nt_kl_scratch __percpu *nt_kl_scratch;

static atomic_long_t nt_kl_images_missed = ATOMIC_LONG_INIT(0);
atomic_long_t nt_kl_rundown_unread = ATOMIC_LONG_INIT(0);
EXPORT_SYMBOL_IF_KUNIT(nt_kl_rundown_unread);

NT_KCOUNTER(kl_images_missed, nt_kl_images_missed,
	    "Image/Load events not written: no task work to write them could be queued");
NT_KCOUNTER(kl_rundown_unread, nt_kl_rundown_unread,
	    "Rundown records of a process whose memory could not be read without waiting: no command line, or no images");

/* The scratch memory of this file's three sources, held by nt_ks_process. */
static int nt_kl_process_init(void)
{
	nt_kl_scratch = alloc_percpu(struct nt_kl_scratch);
	return nt_kl_scratch ? 0 : -ENOMEM;
}

static void nt_kl_process_exit(void)
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

/* @file's name, at most 15 characters (see the top): in @name. */
static void nt_kl_file_name(struct file *file, char name[TASK_COMM_LEN])
{
	snprintf(name, TASK_COMM_LEN, "%pD", file);
}

/*
 * The ImageFileName of the process of @t, whose mm is @mm (see the top):
 * its executable file's name; a kernel thread's comm. Any context but NMI.
 */
static void nt_kl_image_name(const struct task_struct *t, struct mm_struct *mm,
			     char name[TASK_COMM_LEN])
{
	struct file *exe;

	name[0] = 0;
	if (t->flags & PF_KTHREAD) {
		nt_kl_comm(t, name);
		return;
	}
	/* A process whose memory is gone: no file to name. */
	if (!mm)
		return;
	rcu_read_lock();
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	exe = get_file_rcu(&mm->exe_file);
#else
	exe = rcu_dereference(mm->exe_file);
	if (exe && !get_file_rcu(exe))
		exe = NULL;
#endif
	rcu_read_unlock();
	if (exe) {
		nt_kl_file_name(exe, name);
		fput(exe);
	}
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
 * @image its ImageFileName (NULL: none), @args, @args_len its command
 * line; header IDs @htid, @hpid.
 */
static void nt_kl_process_event(u16 hook, const struct task_struct *t, u32 parent,
				s32 exit_status, const char *image, const char *args,
				u32 args_len, u32 htid, u32 hpid, u32 only)
{
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

	if (image)
		p.image_file_name = (struct ntr_sr_str){ image, strlen(image) };
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

/* One Image event of @vma's file, its path written into @path. May sleep. */
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

/*
 * Each file of @mm mapped with execute permission in [@start, @end), once.
 * @mm's lock held; may sleep.
 */
static void nt_kl_images(u16 hook, struct mm_struct *mm, unsigned long start,
			 unsigned long end, u32 pid, char *path, u32 htid, u32 hpid, u32 only)
{
	VMA_ITERATOR(vmi, mm, start);
	struct file *last = NULL;
	struct vm_area_struct *vma;

	for_each_vma_range(vmi, vma, end) {
		if (!vma->vm_file || !(vma->vm_flags & VM_EXEC) || vma->vm_file == last)
			continue;
		last = vma->vm_file;
		nt_kl_image_event(hook, mm, vma, pid, path, htid, hpid, only);
	}
}

/*
 * The Image/Load events of a range of the current task's mappings, or the
 * Image/Unload of one image (@file held), written by the task itself on
 * its return to user space (see the top).
 */
struct nt_kl_defer {
	struct callback_head work;
	unsigned long start, end;	/* Load: the range; Unload: the image */
	struct file *file;		/* Unload: the image's file; else NULL */
};

#define NT_KL_DEFERS	256

static struct nt_kl_defer nt_kl_defers[NT_KL_DEFERS];
static DECLARE_BITMAP(nt_kl_defers_used, NT_KL_DEFERS);

/* An Image/Unload of @file, mapped at [@base, @end). May sleep. */
static void nt_kl_unload_event(struct file *file, unsigned long base, unsigned long end)
{
	struct ntr_sr_image img = {
		.process_id = current->tgid,
		.image_base = base,
		.image_size = end - base,
	};
	char *path = kmalloc(NT_KL_PATH, GFP_KERNEL), *name;

	name = path ? d_path(&file->f_path, path, NT_KL_PATH) : ERR_PTR(-ENOMEM);
	if (IS_ERR(name)) {
		atomic_long_inc(&nt_kl_images_missed);
	} else {
		img.file_name = (struct ntr_sr_str){ name, strlen(name) };
		NT_KEVENT(NTR_SR_IMAGE_UNLOAD, current->pid, current->tgid, 0, image, &img);
	}
	kfree(path);
}

static void nt_kl_defer_fn(struct callback_head *work)
{
	struct nt_kl_defer *d = container_of(work, struct nt_kl_defer, work);
	unsigned long start = d->start, end = d->end;
	struct mm_struct *mm = current->mm;
	struct file *file = d->file;
	char *path;

	clear_bit_unlock(d - nt_kl_defers, nt_kl_defers_used);
	if (file) {
		nt_kl_unload_event(file, start, end);
		fput(file);
		module_put(THIS_MODULE);
		return;
	}
	/* Also run by an exiting task (exit_task_work()): no mm, no images. */
	path = mm ? kmalloc(NT_KL_PATH, GFP_KERNEL) : NULL;
	if (path && !mmap_read_lock_killable(mm)) {
		nt_kl_images(NTR_SR_IMAGE_LOAD, mm, start, end, current->tgid, path,
			     current->pid, current->tgid, 0);
		mmap_read_unlock(mm);
	} else if (mm) {
		atomic_long_inc(&nt_kl_images_missed);
	}
	kfree(path);
	/* The probe's reference: the last thing this function does. */
	module_put(THIS_MODULE);
}

/*
 * From a probe (preemption off): have the current task write the Image/Load
 * events of its executable file mappings in [@start, @end) before it
 * returns to user space.
 */
static void nt_kl_defer(unsigned long start, unsigned long end, struct file *file)
{
	struct nt_kl_defer *d;
	unsigned int i;

	if (current->flags & PF_KTHREAD)
		return;
	do {
		i = find_first_zero_bit(nt_kl_defers_used, NT_KL_DEFERS);
		if (i >= NT_KL_DEFERS)
			goto missed;
	} while (test_and_set_bit_lock(i, nt_kl_defers_used));
	d = &nt_kl_defers[i];
	if (!try_module_get(THIS_MODULE))
		goto unused;
	d->start = start;
	d->end = end;
	d->file = file ? get_file(file) : NULL;
	init_task_work(&d->work, nt_kl_defer_fn);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	/* No allocation here (KASAN's stack record): preemption is off. */
	if (!task_work_add(current, &d->work, TWA_RESUME | TWAF_NO_ALLOC))
		return;
#else
	if (!task_work_add(current, &d->work, TWA_RESUME))
		return;
#endif
	if (file)
		fput(file);
	module_put(THIS_MODULE);
unused:
	clear_bit_unlock(i, nt_kl_defers_used);
missed:
	atomic_long_inc(&nt_kl_images_missed);
}

static void nt_kl_defer_images(unsigned long start, unsigned long end)
{
	nt_kl_defer(start, end, NULL);
}

/* ---- the probes ---- */

static void nt_probe_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	const struct nt_ksource *src = data;
	char image[TASK_COMM_LEN];
	struct nt_kl_scratch *sc;
	u32 len;

	if (src == &nt_ks_thread) {
		nt_kl_thread_event(NTR_SR_THREAD_START, child, current->pid, current->tgid, 0);
		return;
	}
	/*
	 * PROCESS: a new process's Start; its memory is its parent's copy,
	 * and its executable file the parent's (the current task's).
	 */
	if (src != &nt_ks_process || child->pid != child->tgid)
		return;
	nt_kl_image_name(child, current->mm, image);
	preempt_disable();
	sc = this_cpu_ptr(nt_kl_scratch);
	len = nt_kl_current_args(sc->cmdline);
	nt_kl_process_event(NTR_SR_PROCESS_START, child, parent->tgid, 0, image, sc->cmdline,
			    len, current->pid, current->tgid, 0);
	preempt_enable();
}

static void nt_probe_exec(void *data, struct task_struct *p, pid_t old_pid,
			  struct linux_binprm *bprm)
{
	const struct nt_ksource *src = data;
	char image[TASK_COMM_LEN];
	struct nt_kl_scratch *sc;
	u32 ppid, len;

	if (src == &nt_ks_image) {
		/* The program and its interpreter, mapped by now. */
		nt_kl_defer_images(0, ULONG_MAX);
		return;
	}
	if (src != &nt_ks_process)
		return;
	/* The file exec opened, whatever path named it. */
	nt_kl_file_name(bprm->file, image);
	ppid = nt_kl_parent(p);
	/* An exec's End: the old image's name is gone by then (see the top). */
	nt_kl_process_event(NTR_SR_PROCESS_END, p, ppid, 0, NULL, NULL, 0, p->pid, p->tgid, 0);
	preempt_disable();
	sc = this_cpu_ptr(nt_kl_scratch);
	len = nt_kl_current_args(sc->cmdline);
	nt_kl_process_event(NTR_SR_PROCESS_START, p, ppid, 0, image, sc->cmdline, len,
			    p->pid, p->tgid, 0);
	preempt_enable();
}

/* Linux's exit code as an exit status: the code, or 128 + the signal. */
static s32 nt_kl_exit_status(int code)
{
	return code & 0x7F ? 128 + (code & 0x7F) : (code >> 8) & 0xFF;
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
static void nt_probe_exit(void *data, struct task_struct *p, bool group_dead)
#else
static void nt_probe_exit(void *data, struct task_struct *p)
#endif
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
			    nt_kl_exit_status(p->exit_code), NULL, NULL, 0, p->pid, p->tgid, 0);
}

/* A file mapping made executable by a system call: an Image/Load (see the top). */
static void nt_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	unsigned long args[6];

	if (IS_ERR_VALUE(ret) || !current->mm)
		return;
	switch (nt_mm_call_of(syscall_get_nr(current, regs))) {
	case NT_MM_MMAP:
		syscall_get_arguments(current, regs, args);
		if (args[2] & PROT_EXEC)
			nt_kl_defer_images(ret, ret + 1);
		break;
	case NT_MM_MMAP_STRUCT:
		/* Whether it is executable: the task work sees (VM_EXEC). */
		nt_kl_defer_images(ret, ret + 1);
		break;
	case NT_MM_MPROTECT:
		syscall_get_arguments(current, regs, args);
		if ((args[2] & PROT_EXEC) && args[1] && args[0] + args[1] > args[0])
			nt_kl_defer_images(args[0], args[0] + args[1]);
		break;
	default:
		break;
	}
}

/*
 * munmap() of an image's executable mapping: its Image/Unload, written on
 * the task's way back to user space (the mapping is gone by then: its
 * extent and file are taken here, with the mm's lock if it is free, else
 * the unload is counted missed).
 */
static void nt_probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct file *last = NULL;
	unsigned long start, end;

	if (!mm || (current->flags & PF_KTHREAD) || !nt_mm_munmap_range(regs, id, &start, &end))
		return;
	if (!mmap_read_trylock(mm)) {
		atomic_long_inc(&nt_kl_images_missed);
		return;
	}
	{
		VMA_ITERATOR(vmi, mm, start);

		for_each_vma_range(vmi, vma, end) {
			struct ntr_sr_image img = { 0 };

			if (!vma->vm_file || !(vma->vm_flags & VM_EXEC) || vma->vm_file == last)
				continue;
			last = vma->vm_file;
			nt_kl_image_extent(mm, vma, &img);
			nt_kl_defer(img.image_base, img.image_base + img.image_size, vma->vm_file);
		}
	}
	mmap_read_unlock(mm);
}

/* ---- rundowns ---- */

/* One page of @mm at @addr if it is in memory (no fault), referenced. */
static int nt_kl_page_nofault(struct mm_struct *mm, unsigned long addr, struct page **page)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
	return get_user_pages_remote(mm, addr, 1, FOLL_NOFAULT, page, NULL, NULL);
#else
	return get_user_pages_remote(mm, addr, 1, FOLL_NOFAULT, page, NULL);
#endif
}

/*
 * @mm's command line into @buf, without waiting (see the top): its length;
 * false when it could not be read so.
 */
static bool nt_kl_mm_args(struct mm_struct *mm, char *buf, u32 *len)
{
	unsigned long start, end;
	u32 want, done = 0;

	*len = 0;
	spin_lock(&mm->arg_lock);
	start = mm->arg_start;
	end = mm->arg_end;
	spin_unlock(&mm->arg_lock);
	if (end <= start)
		return true;
	want = min_t(unsigned long, end - start, NT_KL_CMDLINE);
	if (!mmap_read_trylock(mm))
		return false;
	while (done < want) {
		unsigned long addr = start + done;
		u32 n = min_t(u32, want - done, PAGE_SIZE - offset_in_page(addr));
		struct page *page;
		void *p;

		if (nt_kl_page_nofault(mm, addr, &page) != 1)
			break;
		p = kmap_local_page(page);
		memcpy(buf + done, p + offset_in_page(addr), n);
		kunmap_local(p);
		put_page(page);
		done += n;
	}
	mmap_read_unlock(mm);
	if (done < want)
		return false;
	*len = nt_kl_args(buf, want);
	return true;
}

static void nt_kl_process_rundown(u32 slot, bool start)
{
	u16 hook = start ? NTR_SR_PROCESS_DCSTART : NTR_SR_PROCESS_DCEND;
	char image[TASK_COMM_LEN];
	struct task_struct **tasks;
	unsigned int n, i;
	char *buf;

	buf = kmalloc(NT_KL_CMDLINE, GFP_KERNEL);
	tasks = nt_kl_tasks(false, &n);
	if (!buf || !tasks)
		goto out;
	/* Windows' Idle process: the idle tasks, ID 0, no parent. */
	nt_kl_comm(&init_task, image);
	nt_kl_process_event(hook, &init_task, 0, 0, image, NULL, 0, 0, 0, slot);
	for (i = 0; i < n; i++) {
		struct task_struct *t = tasks[i];
		struct mm_struct *mm = get_task_mm(t);
		u32 len = 0;

		nt_kl_image_name(t, mm, image);
		if (mm) {
			if (!nt_kl_mm_args(mm, buf, &len))
				atomic_long_inc(&nt_kl_rundown_unread);
			/* See nt_kl_image_rundown() for why not mmput(). */
			mmput_async(mm);
		}
		nt_kl_process_event(hook, t, nt_kl_parent(t), 0, image, buf, len, 0, 0, slot);
		cond_resched();
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
		if (mmap_read_trylock(mm)) {
			nt_kl_images(hook, mm, 0, ULONG_MAX, tasks[i]->tgid, path, 0, 0, slot);
			mmap_read_unlock(mm);
		} else {
			atomic_long_inc(&nt_kl_rundown_unread);
		}
		/*
		 * The process may have exited meanwhile, leaving ours the last
		 * reference: mmput() would then tear the mm down here, taking
		 * its mmap_lock under the session's ctl_lock (lockdep: a
		 * rundown must never wait for a process's mmap_lock).
		 * mmput_async() leaves that to a work item.
		 */
		mmput_async(mm);
		cond_resched();
	}
out:
	if (tasks)
		nt_kl_put_tasks(tasks, n);
	kfree(path);
}

/* ---- the sources ---- */

static const struct nt_khook nt_process_hooks[] = {
	NT_KHOOK(sched_process_fork, nt_probe_fork),
	NT_KHOOK(sched_process_exec, nt_probe_exec),
	NT_KHOOK(sched_process_exit, nt_probe_exit),
};

static const struct nt_khook nt_thread_hooks[] = {
	NT_KHOOK(sched_process_fork, nt_probe_fork),
	NT_KHOOK(sched_process_exit, nt_probe_exit),
};

static const struct nt_khook nt_image_hooks[] = {
	NT_KHOOK(sched_process_exec, nt_probe_exec),
	NT_KHOOK(sys_enter, nt_probe_sys_enter),
	NT_KHOOK(sys_exit, nt_probe_sys_exit),
};

const struct nt_ksource nt_ks_process = {
	.name = "PROCESS",
	.flag = NTTRACE_EVENT_TRACE_FLAG_PROCESS,
	.hooks = nt_process_hooks,
	.nr_hooks = ARRAY_SIZE(nt_process_hooks),
	.rundown = nt_kl_process_rundown,
	.init = nt_kl_process_init,
	.exit = nt_kl_process_exit,
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
