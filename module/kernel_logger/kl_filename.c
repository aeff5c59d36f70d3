// SPDX-License-Identifier: GPL-2.0
/*
 * The names of files for the system loggers (EVENT_TRACE_FLAG_DISK_FILE_IO):
 * FileIo FileCreate, FileDelete and FileRundown (FileIo_Name, version 2;
 * common/sysrec.h's struct ntr_sr_filename), which readers use to name the
 * FileObject of the other events (FileIo's, HardFault's).
 *
 * Linux in Windows' terms (ours, where Windows says nothing of Linux):
 * - FileCreate: each open() that succeeded (creat(), openat(), openat2()
 *   too), at raw_syscalls' sys_exit: the new file's FileObject
 *   (nt_kernel_key() of its struct file, as kl_fileio.c's events have it)
 *   and its whole path (nt_file_name(); under PREEMPT_RT the path as the
 *   caller gave it, relative when relative, read without faulting, ""
 *   when not resident).
 * - FileDelete: each unlink(), unlinkat() and rmdir() that succeeded: FileObject 0
 *   (Linux removes a name, not an open file) and the path as given.
 * - FileRundown, when a system logger stops (Windows: "all open files ...
 *   at the end of the trace session"): each file open in a process (its
 *   descriptors) or mapped by one (its file mappings, the images
 *   included: what HardFault events name), once each, with its whole
 *   path (d_path()). A process whose memory map is busy
 *   (mmap_read_trylock()) has its mappings left out, counted in
 *   nttrace.kl_filenames_busy; past NT_FILES_MAX files the rest are left
 *   out, counted in nttrace.kl_filenames_missed.
 */
#include <linux/dcache.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <trace/events/syscalls.h>

#include "kl_filecall.h"
#include "kl_tags.h"
#include "kl_tasks.h"
#include "ksource.h"

NT_KCLASS(filename)

/* The files a rundown names at most. */
#define NT_FILES_MAX	65536U
#define NT_NAME_PATH	1024

static atomic_long_t nt_filenames_missed = ATOMIC_LONG_INIT(0);
static atomic_long_t nt_filenames_busy = ATOMIC_LONG_INIT(0);

NT_KCOUNTER(kl_filenames_missed, nt_filenames_missed,
	    "Files left out of a FileRundown: more than 65536 open or mapped");
NT_KCOUNTER(kl_filenames_busy, nt_filenames_busy,
	    "Processes whose mapped files were left out of a FileRundown: the memory map busy");

/* Per CPU: the path being written (the probe runs with preemption off). */
static DEFINE_PER_CPU(char [NT_NAME_PATH], nt_name_path);

/* A name event: @file's whole path if it has one, else @upath as given. */
static void nt_name_event(u16 hook, struct file *file, const char __user *upath)
{
	char *path = *this_cpu_ptr(&nt_name_path);
	struct ntr_sr_filename f = { .file_object = file ? nt_kernel_key(file) : 0 };
	const char *name = NULL;
	long n;

	if (file)
		name = nt_file_name(file, path, NT_NAME_PATH, &n);
	if (name) {
		f.file_name = (struct ntr_sr_str){ name, n };
	} else {
		n = nt_user_str_nofault(path, upath, NT_NAME_PATH);
		if (n > 0)
			f.file_name = (struct ntr_sr_str){ path, n };
	}
	NT_KEVENT_OF(hook, 0, 0, 0, filename, &f);
}

static void nt_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	enum nt_file_call call = nt_file_call_of(syscall_get_nr(current, regs));
	unsigned long args[6];
	struct file *file;

	if (call == NT_FILE_OTHER || IS_ERR_VALUE(ret))
		return;
	syscall_get_arguments(current, regs, args);
	switch (call) {
	case NT_FILE_OPEN: case NT_FILE_CREAT: case NT_FILE_OPENAT: case NT_FILE_OPENAT2:
		file = nt_file_get(ret);
		if (!file)
			return;
		nt_name_event(NTR_SR_FILEIO_FILE_CREATE, file,
			      (const char __user *)(call == NT_FILE_OPEN || call == NT_FILE_CREAT ?
						    args[0] : args[1]));
		fput(file);
		return;
	case NT_FILE_UNLINK: case NT_FILE_RMDIR:
		nt_name_event(NTR_SR_FILEIO_FILE_DELETE, NULL, (const char __user *)args[0]);
		return;
	case NT_FILE_UNLINKAT:
		nt_name_event(NTR_SR_FILEIO_FILE_DELETE, NULL, (const char __user *)args[1]);
		return;
	default:
		return;
	}
}

/* The files a rundown collects, referenced. */
struct nt_files {
	struct file **file;
	unsigned int nr, room;
};

static bool nt_files_add(struct nt_files *fs, struct file *file)
{
	if (fs->nr == fs->room) {
		atomic_long_inc(&nt_filenames_missed);
		return false;
	}
	fs->file[fs->nr++] = get_file(file);
	return true;
}

static int nt_files_fd(const void *ctx, struct file *file, unsigned int fd)
{
	/* iterate_fd() holds the table's lock: only the reference here. */
	return nt_files_add((struct nt_files *)ctx, file) ? 0 : 1;
}

/* @t's open and mapped files into @fs. May sleep. */
static void nt_files_of(struct task_struct *t, struct nt_files *fs)
{
	struct vm_area_struct *vma;
	struct mm_struct *mm;

	/* The task lock holds off exit_files(): the table stays. */
	task_lock(t);
	iterate_fd(t->files, 0, nt_files_fd, fs);
	task_unlock(t);
	mm = get_task_mm(t);
	if (!mm)
		return;
	if (mmap_read_trylock(mm)) {
		VMA_ITERATOR(vmi, mm, 0);

		for_each_vma(vmi, vma)
			if (vma->vm_file && !nt_files_add(fs, vma->vm_file))
				break;
		mmap_read_unlock(mm);
	} else {
		atomic_long_inc(&nt_filenames_busy);
	}
	/* The last user's teardown must not run in a controller's call. */
	mmput_async(mm);
}

static int nt_file_cmp(const void *a, const void *b)
{
	const struct file *x = *(struct file *const *)a, *y = *(struct file *const *)b;

	return x < y ? -1 : x > y;
}

static void nt_filename_rundown(u32 slot, bool start)
{
	struct nt_files fs = { .room = NT_FILES_MAX };
	struct task_struct **tasks;
	unsigned int n, i;
	char *path;

	if (start)
		return;
	tasks = nt_kl_tasks(false, &n);
	fs.file = kvmalloc_array(fs.room, sizeof(*fs.file), GFP_KERNEL);
	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!tasks || !fs.file || !path)
		goto out;
	for (i = 0; i < n; i++) {
		nt_files_of(tasks[i], &fs);
		cond_resched();
	}
	/* Each file once, however many descriptors and mappings share it. */
	sort(fs.file, fs.nr, sizeof(*fs.file), nt_file_cmp, NULL);
	for (i = 0; i < fs.nr; i++) {
		struct ntr_sr_filename f;
		char *name;

		if (i && fs.file[i] == fs.file[i - 1])
			continue;
		name = d_path(&fs.file[i]->f_path, path, PATH_MAX);
		f = (struct ntr_sr_filename){ .file_object = nt_kernel_key(fs.file[i]) };
		if (!IS_ERR(name))
			f.file_name = (struct ntr_sr_str){ name, strlen(name) };
		NT_KEVENT(NTR_SR_FILEIO_FILE_RUNDOWN, 0, 0, slot, filename, &f);
		cond_resched();
	}
out:
	for (i = 0; fs.file && i < fs.nr; i++)
		fput(fs.file[i]);
	kvfree(fs.file);
	kfree(path);
	if (tasks)
		nt_kl_put_tasks(tasks, n);
}

static const struct nt_khook nt_filename_hooks[] = {
	NT_KHOOK(sys_exit, nt_probe_sys_exit),
};

const struct nt_ksource nt_ks_filename = {
	.name = "FileIo names",
	.flag = NTTRACE_EVENT_TRACE_FLAG_DISK_FILE_IO,
	.hooks = nt_filename_hooks,
	.nr_hooks = ARRAY_SIZE(nt_filename_hooks),
	.rundown = nt_filename_rundown,
};
