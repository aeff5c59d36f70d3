/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system calls of file I/O, in every ABI a process may call them
 * with, for the FileIo sources (kl_fileio.c, kl_filename.c), which watch them at
 * raw_syscalls' sys_enter and sys_exit: Linux has no tracepoint of a
 * file's opening, reading or writing that every file system passes.
 */
#ifndef NTTRACE_KL_FILECALL_H
#define NTTRACE_KL_FILECALL_H

#include <linux/compat.h>
#include <linux/fs.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

enum nt_file_call {
	NT_FILE_OTHER,
	NT_FILE_OPEN,		/* open(path, flags, mode) */
	NT_FILE_CREAT,		/* creat(path, mode): O_CREAT | O_WRONLY | O_TRUNC */
	NT_FILE_OPENAT,		/* openat(dirfd, path, flags, mode) */
	NT_FILE_OPENAT2,	/* openat2(dirfd, path, how, size): flags in *how */
	NT_FILE_READ,		/* read(fd, buf, count) */
	NT_FILE_READV,		/* readv(fd, iov, n) */
	NT_FILE_PREAD,		/* pread64(fd, buf, count, offset) */
	NT_FILE_PREAD32,	/* a 32-bit pread64(fd, buf, count, lo, hi) */
	NT_FILE_WRITE,		/* write(fd, buf, count) */
	NT_FILE_WRITEV,		/* writev(fd, iov, n) */
	NT_FILE_PWRITE,		/* pwrite64(fd, buf, count, offset) */
	NT_FILE_PWRITE32,	/* a 32-bit pwrite64(fd, buf, count, lo, hi) */
	NT_FILE_CLOSE,		/* close(fd) */
	NT_FILE_FSYNC,		/* fsync(fd), fdatasync(fd) */
	NT_FILE_UNLINK,		/* unlink(path) */
	NT_FILE_UNLINKAT,	/* unlinkat(dirfd, path, flags) */
	NT_FILE_RMDIR,		/* rmdir(path) */
	NT_FILE_RENAME,		/* rename(old, new) */
	NT_FILE_RENAMEAT,	/* renameat(olddirfd, old, newdirfd, new), renameat2() */
};

/*
 * What system call @nr of the current task is: a 32-bit process's own
 * numbers, x32's calls (the 64-bit numbers with __X32_SYSCALL_BIT, but
 * readv() and writev(), whose x32 numbers are their own).
 */
static inline enum nt_file_call nt_file_call_of(long nr)
{
#ifdef CONFIG_IA32_EMULATION
	if (in_ia32_syscall()) {
		switch (nr) {
		case __NR_ia32_open:
			return NT_FILE_OPEN;
		case __NR_ia32_creat:
			return NT_FILE_CREAT;
		case __NR_ia32_openat:
			return NT_FILE_OPENAT;
		case __NR_ia32_openat2:
			return NT_FILE_OPENAT2;
		case __NR_ia32_read:
			return NT_FILE_READ;
		case __NR_ia32_readv:
			return NT_FILE_READV;
		case __NR_ia32_pread64:
			return NT_FILE_PREAD32;
		case __NR_ia32_write:
			return NT_FILE_WRITE;
		case __NR_ia32_writev:
			return NT_FILE_WRITEV;
		case __NR_ia32_pwrite64:
			return NT_FILE_PWRITE32;
		case __NR_ia32_close:
			return NT_FILE_CLOSE;
		case __NR_ia32_fsync:
		case __NR_ia32_fdatasync:
			return NT_FILE_FSYNC;
		case __NR_ia32_unlink:
			return NT_FILE_UNLINK;
		case __NR_ia32_unlinkat:
			return NT_FILE_UNLINKAT;
		case __NR_ia32_rmdir:
			return NT_FILE_RMDIR;
		case __NR_ia32_rename:
			return NT_FILE_RENAME;
		case __NR_ia32_renameat:
		case __NR_ia32_renameat2:
			return NT_FILE_RENAMEAT;
		}
		return NT_FILE_OTHER;
	}
#endif
#ifdef __X32_SYSCALL_BIT
	if (nr & __X32_SYSCALL_BIT) {
		nr &= ~(long)__X32_SYSCALL_BIT;
#ifdef __NR_x32_readv
		/* x32 has its own (a vector of 32-bit iovecs); the 64-bit numbers fail. */
		if (nr == __NR_x32_readv)
			return NT_FILE_READV;
		if (nr == __NR_x32_writev)
			return NT_FILE_WRITEV;
		if (nr == __NR_readv || nr == __NR_writev)
			return NT_FILE_OTHER;
#endif
	}
#endif
	switch (nr) {
	case __NR_open:
		return NT_FILE_OPEN;
	case __NR_creat:
		return NT_FILE_CREAT;
	case __NR_openat:
		return NT_FILE_OPENAT;
	case __NR_openat2:
		return NT_FILE_OPENAT2;
	case __NR_read:
		return NT_FILE_READ;
	case __NR_readv:
		return NT_FILE_READV;
	case __NR_pread64:
		return NT_FILE_PREAD;
	case __NR_write:
		return NT_FILE_WRITE;
	case __NR_writev:
		return NT_FILE_WRITEV;
	case __NR_pwrite64:
		return NT_FILE_PWRITE;
	case __NR_close:
		return NT_FILE_CLOSE;
	case __NR_fsync:
	case __NR_fdatasync:
		return NT_FILE_FSYNC;
	case __NR_unlink:
		return NT_FILE_UNLINK;
	case __NR_unlinkat:
		return NT_FILE_UNLINKAT;
	case __NR_rmdir:
		return NT_FILE_RMDIR;
	case __NR_rename:
		return NT_FILE_RENAME;
	case __NR_renameat:
	case __NR_renameat2:
		return NT_FILE_RENAMEAT;
	}
	return NT_FILE_OTHER;
}

/**
 * nt_user_str_nofault() - a path argument, read without faulting
 * @buf: where
 * @ustr: the caller's NUL-ended string
 * @room: @buf's bytes
 *
 * Page by page (a string may end before a page that is not there), so
 * that a probe with preemption off may read it (kl_fileio.c; the
 * kernel's strncpy_from_user_nofault() is not exported to modules).
 *
 * Return: its length, cut at @room - 1 and NUL-ended; -1 when its first
 * byte is not there.
 */
long nt_user_str_nofault(char *buf, const char __user *ustr, long room);

/**
 * nt_file_get() - the current task's file of a descriptor, referenced
 * @fd: the descriptor, as a system call's argument or result
 *
 * With a reference (fput() it), not a bare RCU lookup: a struct file is
 * reused as soon as it is freed (SLAB_TYPESAFE_BY_RCU), so an
 * unreferenced one that another thread closed may be another file half
 * made. fget_raw() and fput() do not sleep (the last fput() is deferred
 * to a task work), so a probe may call both.
 *
 * Return: the file, or NULL.
 */
struct file *nt_file_get(unsigned long fd);

/**
 * nt_file_name() - an open file's whole path, from a probe
 * @file: the file, referenced
 * @buf: where, @room bytes (d_path() fills it from its end)
 * @room: @buf's bytes
 *
 * d_path() takes no lock unless a rename or a mount raced it, and then
 * rename_lock's or mount_lock's spinlock, which a probe with preemption
 * off may take, but not under PREEMPT_RT, where they sleep: there, none.
 *
 * Return: the path, within @buf, and its length in *@len; NULL when
 * there is none (PREEMPT_RT, a name longer than @room).
 */
const char *nt_file_name(struct file *file, char *buf, int room, long *len);

#endif /* NTTRACE_KL_FILECALL_H */
