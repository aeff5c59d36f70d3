// SPDX-License-Identifier: GPL-2.0
/*
 * File I/O for the system loggers: EVENT_TRACE_FLAG_FILE_IO_INIT (the
 * requests: FileIo Create, Read, Write, Cleanup, Close, Flush, Delete,
 * Rename) and EVENT_TRACE_FLAG_FILE_IO (their ends: FileIo OpEnd); the
 * layouts are common/sysrec.h's struct ntr_sr_fileio. One source for both
 * flags.
 *
 * Where they come from: raw_syscalls' sys_enter and sys_exit, as for
 * VIRTUAL_ALLOC; Linux has no tracepoint of a file's opening, reading or
 * writing that every file system passes. kl_filecall.h names the calls,
 * in each ABI. While either flag is wanted every system call takes the
 * kernel's syscall-tracepoint path.
 *
 * Linux in Windows' terms (ours, where Windows says nothing of Linux):
 * - Create: open(), creat(), openat(), openat2(), each written when the
 *   call returns, with its OpEnd right after: the FileObject exists only
 *   once the open succeeded, so the event's time is the call's end, not
 *   its start (a Create's OpEnd says no duration). A failed open has
 *   FileObject 0 and the failure's NtStatus. OpenPath is the opened
 *   file's whole path (d_path(): symbolic links and ".." resolved, as
 *   Windows names the file it opened); for a failed open, and under
 *   PREEMPT_RT (nt_file_name()), the path as the caller gave it, relative
 *   to its directory when relative (read from its memory without
 *   faulting: "" when not resident). CreateOptions
 *   holds the disposition in its top byte (FILE_CREATE for O_CREAT |
 *   O_EXCL, FILE_OVERWRITE_IF for O_CREAT | O_TRUNC, FILE_OPEN_IF for
 *   O_CREAT, FILE_OVERWRITE for O_TRUNC, else FILE_OPEN) and the options
 *   FILE_DIRECTORY_FILE (O_DIRECTORY), FILE_WRITE_THROUGH (O_SYNC,
 *   O_DSYNC), FILE_NO_INTERMEDIATE_BUFFERING (O_DIRECT); FileAttributes
 *   FILE_ATTRIBUTE_NORMAL with O_CREAT; ShareAccess read, write and
 *   delete (Linux does not lock files against other opens). OpEnd's
 *   ExtraInfo: FILE_CREATED when the call made the file (FMODE_CREATED),
 *   FILE_OVERWRITTEN with O_TRUNC, else FILE_OPENED.
 * - Read, Write: read(), readv(), pread64(), write(), writev(),
 *   pwrite64() of a regular file, at the call's start; OpEnd at its end
 *   with the bytes moved as ExtraInfo. Offset: pread64's and pwrite64's,
 *   else the file's position (for O_APPEND, its size); IoSize: the
 *   count asked (a vector's: 0, not summed here); IoFlags: IRP_NOCACHE
 *   for O_DIRECT, IRP_SYNCHRONOUS_API always. A read of 0 bytes at the
 *   end of the file ends with STATUS_END_OF_FILE, as Windows'.
 * - Cleanup: close() of a regular file's descriptor, at its start (each
 *   close(): Windows' Cleanup is the last handle's, and a descriptor is
 *   Linux's handle). Close, the file object's end, right after it when
 *   that descriptor held the file's last reference (Linux's last fput()
 *   has no tracepoint of its own): a file whose last reference goes
 *   elsewhere (a mapping's, another thread's call in flight, a process's
 *   exit) has no Close. The one OpEnd at close()'s end ends both.
 * - Delete: unlink(), unlinkat() (AT_REMOVEDIR too) and rmdir(), at
 *   their start, InfoClass FileDispositionInformation; Rename: rename(),
 *   renameat(), renameat2(), InfoClass FileRenameInformation; each with
 *   its OpEnd. Linux's calls name a path, not an open file: FileObject
 *   and FileKey are 0 (DISK_FILE_IO's FileDelete carries a deleted path).
 * - Flush: fsync() and fdatasync() of a regular file.
 * - Not written: the calls on pipes, sockets, devices and other
 *   non-regular files (Windows' FileIo events are the file systems'),
 *   preadv(), pwritev() and their "2" forms, sendfile(),
 *   copy_file_range(), splice(), io_uring's and AIO's I/O, mmap'd
 *   access (its faults are PageFault events); SetInfo, QueryInfo,
 *   DirEnum, FSControl.
 * - IrpPtr: nt_kernel_key() of the calling thread: a thread has one
 *   system call at a time, so a request and its OpEnd share it (Windows
 *   reuses its IRPs likewise). TTID: the thread. FileObject:
 *   nt_kernel_key() of the struct file (one per open); FileKey: of its
 *   inode (one per file, as Windows' per-file control block).
 * - NtStatus: 0, or the errno as the NTSTATUS a Windows file system would
 *   give for it (nt_file_status()).
 *
 * A request whose OpEnd is due is kept in a tag table keyed by the
 * thread (kl_tags.h) from its start to its end; a full table (more than
 * 2048 threads in file calls at once, or blocked in them over 60 s)
 * loses the OpEnd, counted in nttrace.kl_fileio_tags_full.
 */
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/openat2.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <trace/events/syscalls.h>

#include "kl_filecall.h"
#include "kl_tags.h"
#include "ksource.h"

NT_KCLASS(fileio)

NT_KTAGS(nt_fileio_tags, 8, 60 * NSEC_PER_SEC);

NT_KCOUNTER(kl_fileio_tags_full, nt_fileio_tags.full,
	    "File calls whose OpEnd could not be kept: the table full");

/* The bytes of OpenPath read; a longer path is cut (the event says so by its length). */
#define NT_FILE_PATH	1024

/* Per CPU: the path of the open being written (probes run with preemption off). */
static DEFINE_PER_CPU(char [NT_FILE_PATH], nt_file_path);

/* NtCreateFile's dispositions and options, and IoStatus.Information. */
#define NT_FILE_SUPERSEDE_OPEN		1U	/* FILE_OPEN */
#define NT_FILE_CREATE			2U
#define NT_FILE_OPEN_IF			3U
#define NT_FILE_OVERWRITE		4U
#define NT_FILE_OVERWRITE_IF		5U
#define NT_FILE_DIRECTORY_FILE		0x00000001U
#define NT_FILE_WRITE_THROUGH		0x00000002U
#define NT_FILE_NO_INTERMEDIATE_BUFFERING 0x00000008U
#define NT_FILE_ATTRIBUTE_NORMAL	0x00000080U
#define NT_FILE_SHARE_ALL		0x00000007U	/* read, write, delete */
#define NT_FILE_OPENED			1U
#define NT_FILE_CREATED			2U
#define NT_FILE_OVERWRITTEN		3U
/* FILE_INFORMATION_CLASS: what Delete and Rename set. */
#define NT_FILE_RENAME_INFORMATION	10U
#define NT_FILE_DISPOSITION_INFORMATION	13U
#define NT_IRP_NOCACHE			0x00000001U
#define NT_IRP_SYNCHRONOUS_API		0x00000004U

/**
 * nt_file_status() - a failed file call's errno as an NTSTATUS
 * @err: the negative errno
 *
 * Return: what a Windows file system returns for the same failure, or
 * STATUS_UNSUCCESSFUL for an errno with no twin.
 */
static u32 nt_file_status(long err)
{
	switch (-err) {
	case ENOENT:		return 0xC0000034;	/* OBJECT_NAME_NOT_FOUND */
	case EACCES:
	case EPERM:		return 0xC0000022;	/* ACCESS_DENIED */
	case EEXIST:		return 0xC0000035;	/* OBJECT_NAME_COLLISION */
	case ENOTDIR:		return 0xC0000103;	/* NOT_A_DIRECTORY */
	case EISDIR:		return 0xC00000BA;	/* FILE_IS_A_DIRECTORY */
	case ENOSPC:		return 0xC000007F;	/* DISK_FULL */
	case EBADF:		return 0xC0000008;	/* INVALID_HANDLE */
	case EINVAL:		return 0xC000000D;	/* INVALID_PARAMETER */
	case EFAULT:		return 0xC0000005;	/* ACCESS_VIOLATION */
	case EIO:		return 0xC0000185;	/* IO_DEVICE_ERROR */
	case ENOMEM:		return 0xC0000017;	/* NO_MEMORY */
	case EINTR:		return 0xC0000120;	/* CANCELLED */
	case EAGAIN:		return 0xC00000D8;	/* CANT_WAIT */
	case ENAMETOOLONG:	return 0xC0000106;	/* NAME_TOO_LONG */
	case EROFS:		return 0xC00000A2;	/* MEDIA_WRITE_PROTECTED */
	case EMFILE:
	case ENFILE:		return 0xC000011F;	/* TOO_MANY_OPENED_FILES */
	case ELOOP:		return 0xC0000280;	/* REPARSE_POINT_NOT_RESOLVED */
	case EFBIG:		return 0xC0000904;	/* FILE_TOO_LARGE */
	case ENOTEMPTY:		return 0xC0000101;	/* DIRECTORY_NOT_EMPTY */
	case EXDEV:		return 0xC00000D4;	/* NOT_SAME_DEVICE */
	default:		return 0xC0000001;	/* UNSUCCESSFUL */
	}
}

/* The fields every request of @file by this thread has. */
static void nt_file_request(struct ntr_sr_fileio *f, u8 type, struct file *file)
{
	f->type = type;
	f->irp = nt_kernel_key(current);
	f->ttid = current->pid;
	f->file_object = nt_kernel_key(file);
	f->file_key = nt_kernel_key(file_inode(file));
}

static void nt_file_opend(u64 extra, u32 status)
{
	struct ntr_sr_fileio f = {
		.type = 76,
		.irp = nt_kernel_key(current),
		.extra_info = extra,
		.nt_status = status,
	};

	NT_KEVENT(NTR_SR_FILEIO_OPEND, 0, 0, 0, fileio, &f);
}

/*
 * A request that names a path, not an open file (unlink(), rename()):
 * FileObject and FileKey 0, its OpEnd at the call's end.
 */
static void nt_file_path_request(u16 hook, u8 type, u32 info_class)
{
	struct ntr_sr_fileio f = {
		.type = type,
		.irp = nt_kernel_key(current),
		.ttid = current->pid,
		.info_class = info_class,
	};

	NT_KEVENT_OF(hook, 0, 0, 0, fileio, &f);
	nt_ktags_put(&nt_fileio_tags, current, 0, type, ktime_get_mono_fast_ns(), 0);
}

static void nt_probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	enum nt_file_call call = nt_file_call_of(id);
	struct ntr_sr_fileio f = { };
	unsigned long args[6];
	struct file *file;
	bool last = false;
	u16 hook;

	switch (call) {
	case NT_FILE_READ: case NT_FILE_READV: case NT_FILE_PREAD: case NT_FILE_PREAD32:
	case NT_FILE_WRITE: case NT_FILE_WRITEV: case NT_FILE_PWRITE: case NT_FILE_PWRITE32:
	case NT_FILE_CLOSE: case NT_FILE_FSYNC:
		break;
	case NT_FILE_UNLINK: case NT_FILE_UNLINKAT: case NT_FILE_RMDIR:
		nt_file_path_request(NTR_SR_FILEIO_DELETE, 70, NT_FILE_DISPOSITION_INFORMATION);
		return;
	case NT_FILE_RENAME: case NT_FILE_RENAMEAT:
		nt_file_path_request(NTR_SR_FILEIO_RENAME, 71, NT_FILE_RENAME_INFORMATION);
		return;
	default:
		return;
	}
	syscall_get_arguments(current, regs, args);
	file = nt_file_get(args[0]);
	if (!file)
		return;
	if (!S_ISREG(file_inode(file)->i_mode)) {
		fput(file);
		return;
	}
	switch (call) {
	case NT_FILE_CLOSE:
		hook = NTR_SR_FILEIO_CLEANUP;
		nt_file_request(&f, 65, file);
		/* Its descriptor's reference and ours: this close() ends the file. */
		last = file_count(file) == 2;
		break;
	case NT_FILE_FSYNC:
		hook = NTR_SR_FILEIO_FLUSH;
		nt_file_request(&f, 73, file);
		break;
	default:
		if (call == NT_FILE_READ || call == NT_FILE_READV || call == NT_FILE_PREAD ||
		    call == NT_FILE_PREAD32) {
			hook = NTR_SR_FILEIO_READ;
			nt_file_request(&f, 67, file);
		} else {
			hook = NTR_SR_FILEIO_WRITE;
			nt_file_request(&f, 68, file);
		}
		if (call == NT_FILE_PREAD || call == NT_FILE_PWRITE)
			f.offset = args[3];
		else if (call == NT_FILE_PREAD32 || call == NT_FILE_PWRITE32)
			f.offset = (u64)(u32)args[4] << 32 | (u32)args[3];
		else if (hook == NTR_SR_FILEIO_WRITE && (file->f_flags & O_APPEND))
			f.offset = i_size_read(file_inode(file));
		else
			f.offset = READ_ONCE(file->f_pos);
		/* readv()'s and writev()'s third argument is a vector's count. */
		f.io_size = call == NT_FILE_READV || call == NT_FILE_WRITEV ?
			    0 : (u32)min_t(unsigned long, args[2], U32_MAX);
		f.io_flags = NT_IRP_SYNCHRONOUS_API |
			     (file->f_flags & O_DIRECT ? NT_IRP_NOCACHE : 0);
		break;
	}
	fput(file);
	NT_KEVENT_OF(hook, 0, 0, 0, fileio, &f);
	if (last) {
		f.type = 66;
		NT_KEVENT(NTR_SR_FILEIO_CLOSE, 0, 0, 0, fileio, &f);
	}
	/* The end's OpEnd: the request kind, for a read's end of file. */
	nt_ktags_put(&nt_fileio_tags, current, 0, f.type, ktime_get_mono_fast_ns(), 0);
}

/* An open's flags: its argument, or openat2()'s struct read without faulting. */
static bool nt_file_open_flags(enum nt_file_call call, const unsigned long *args, u64 *flags)
{
	struct open_how how;

	switch (call) {
	case NT_FILE_OPEN:
		*flags = args[1];
		return true;
	case NT_FILE_CREAT:
		*flags = O_CREAT | O_WRONLY | O_TRUNC;
		return true;
	case NT_FILE_OPENAT:
		*flags = args[2];
		return true;
	default:
		if (args[3] < sizeof(how.flags) ||
		    copy_from_user_nofault(&how.flags, (const void __user *)args[2],
					   sizeof(how.flags)))
			return false;
		*flags = how.flags;
		return true;
	}
}

struct file *nt_file_get(unsigned long fd)
{
	return current->files && fd <= INT_MAX ? fget_raw((unsigned int)fd) : NULL;
}

const char *nt_file_name(struct file *file, char *buf, int room, long *len)
{
	char *name;

	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return NULL;
	name = d_path(&file->f_path, buf, room);
	if (IS_ERR(name))
		return NULL;
	*len = buf + room - 1 - name;
	return name;
}

long nt_user_str_nofault(char *buf, const char __user *ustr, long room)
{
	unsigned long addr = (unsigned long)ustr;
	long n = 0;

	while (n < room - 1) {
		long chunk = min_t(long, room - 1 - n, PAGE_SIZE - offset_in_page(addr + n));
		const char *nul;

		if (copy_from_user_nofault(buf + n, (const void __user *)(addr + n), chunk))
			break;
		nul = memchr(buf + n, 0, chunk);
		if (nul)
			return nul - buf;
		n += chunk;
	}
	if (!n)
		return -1;
	buf[n] = 0;
	return n;
}

static void nt_file_create(enum nt_file_call call, const unsigned long *args, long ret)
{
	const char __user *upath = (const char __user *)
		(call == NT_FILE_OPEN || call == NT_FILE_CREAT ? args[0] : args[1]);
	char *path = *this_cpu_ptr(&nt_file_path);
	struct ntr_sr_fileio f = {
		.type = 64,
		.irp = nt_kernel_key(current),
		.ttid = current->pid,
		.share_access = NT_FILE_SHARE_ALL,
	};
	u32 disposition = NT_FILE_SUPERSEDE_OPEN, info = NT_FILE_OPENED;
	long n;
	u64 flags;

	if (!nt_file_open_flags(call, args, &flags))
		flags = 0;
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		disposition = NT_FILE_CREATE;
	else if ((flags & (O_CREAT | O_TRUNC)) == (O_CREAT | O_TRUNC))
		disposition = NT_FILE_OVERWRITE_IF;
	else if (flags & O_CREAT)
		disposition = NT_FILE_OPEN_IF;
	else if (flags & O_TRUNC)
		disposition = NT_FILE_OVERWRITE;
	f.create_options = disposition << 24 |
			   (flags & O_DIRECTORY ? NT_FILE_DIRECTORY_FILE : 0) |
			   (flags & (O_SYNC | O_DSYNC) ? NT_FILE_WRITE_THROUGH : 0) |
			   (flags & O_DIRECT ? NT_FILE_NO_INTERMEDIATE_BUFFERING : 0);
	f.file_attributes = flags & O_CREAT ? NT_FILE_ATTRIBUTE_NORMAL : 0;
	n = nt_user_str_nofault(path, upath, NT_FILE_PATH);
	if (n > 0)
		f.open_path = (struct ntr_sr_str){ path, n };
	if (ret >= 0) {
		struct file *file = nt_file_get(ret);
		const char *name;

		if (file) {
			name = nt_file_name(file, path, NT_FILE_PATH, &n);
			if (name)
				f.open_path = (struct ntr_sr_str){ name, n };
			f.file_object = nt_kernel_key(file);
			if (file->f_mode & FMODE_CREATED)
				info = NT_FILE_CREATED;
			else if (flags & O_TRUNC)
				info = NT_FILE_OVERWRITTEN;
			fput(file);
		}
	}
	NT_KEVENT(NTR_SR_FILEIO_CREATE, 0, 0, 0, fileio, &f);
	nt_file_opend(ret >= 0 ? info : 0, ret >= 0 ? 0 : nt_file_status(ret));
}

static void nt_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	enum nt_file_call call = nt_file_call_of(syscall_get_nr(current, regs));
	unsigned long args[6];
	u32 type;
	u64 start;

	switch (call) {
	case NT_FILE_OPEN: case NT_FILE_CREAT: case NT_FILE_OPENAT: case NT_FILE_OPENAT2:
		syscall_get_arguments(current, regs, args);
		nt_file_create(call, args, ret);
		return;
	case NT_FILE_OTHER:
		return;
	default:
		break;
	}
	/* A request written at the start (a regular file's): its end. */
	if (!nt_ktags_get(&nt_fileio_tags, current, 0, true, &type, &start))
		return;
	if (IS_ERR_VALUE(ret))
		nt_file_opend(0, nt_file_status(ret));
	else if (type == 67 && ret == 0)
		nt_file_opend(0, 0xC0000011);	/* STATUS_END_OF_FILE */
	else
		nt_file_opend(type == 67 || type == 68 ? ret : 0, 0);
}

static void nt_fileio_hooked(bool on)
{
	nt_ktags_reset(&nt_fileio_tags);
}

static const struct nt_khook nt_fileio_hooks[] = {
	NT_KHOOK(sys_enter, nt_probe_sys_enter),
	NT_KHOOK(sys_exit, nt_probe_sys_exit),
};

const struct nt_ksource nt_ks_fileio = {
	.name = "FileIo",
	.flag = NTTRACE_EVENT_TRACE_FLAG_FILE_IO | NTTRACE_EVENT_TRACE_FLAG_FILE_IO_INIT,
	.hooks = nt_fileio_hooks,
	.nr_hooks = ARRAY_SIZE(nt_fileio_hooks),
	.hooked = nt_fileio_hooked,
};
