// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace: the Windows NtTraceEvent system service as a Linux misc device.
 *
 * /dev/nttrace takes the ioctls of uapi/nttrace.h. This file holds the
 * device and the ioctl decoding; each call's work lives in its own file.
 */
#include <linux/compat.h>
#include <linux/cpuhotplug.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include "consumer.h"
#include "kernel_logger/kernel_logger.h"
#include "ntevent.h"
#include "provider.h"
#include "security.h"
#include "session.h"

/*
 * Read a size-first ioctl struct. Its size is read once, checked, and then
 * the struct is copied with copy_struct_from_user(); the size member of the
 * copy is overwritten with the value checked, so a caller changing it between
 * the two reads changes nothing.
 */
static int nttrace_read_args(void *dst, size_t ksize, u32 min_size,
			     const void __user *src, u32 *usize)
{
	int ret;

	if (get_user(*usize, (const u32 __user *)src))
		return -EFAULT;
	if (*usize < min_size || *usize > PAGE_SIZE)
		return -EINVAL;
	ret = copy_struct_from_user(dst, ksize, src, *usize);
	if (ret)
		return ret;
	*(u32 *)dst = *usize;
	return 0;
}

/*
 * Hand a size-first struct back: as many bytes as the caller's struct has
 * and we know of. A longer struct's tail was checked to be zero: leave it.
 */
static int nttrace_write_args(void __user *dst, const void *src, size_t ksize,
			      u32 usize)
{
	if (copy_to_user(dst, src, min_t(size_t, usize, ksize)))
		return -EFAULT;
	return 0;
}

static long nttrace_ioc_version(void __user *uarg)
{
	struct nttrace_version v = {};
	u32 usize;
	int ret;

	ret = nttrace_read_args(&v, sizeof(v), NTTRACE_VERSION_SIZE_VER0,
				uarg, &usize);
	if (ret)
		return ret;

	if (v.pad0)
		return -EINVAL;
	/* Every member is an output but size: set each one. */
	v.abi_version = NTTRACE_ABI_VERSION;
	v.features = NTTRACE_FEAT_SYSTEM_FLAGS | NTTRACE_FEAT_ENABLE_TIMEOUT;
	v.types = nttrace_types_implemented();
	v.system_flags = nt_kernel_logger_flags();
	return nttrace_write_args(uarg, &v, sizeof(v), usize);
}

static long nttrace_ioc_logger(void __user *uarg, bool start)
{
	struct nttrace_logger_info info;
	u32 usize;
	int ret;

	ret = nttrace_read_args(&info, sizeof(info), NTTRACE_LOGGER_INFO_SIZE_VER0,
				uarg, &usize);
	if (ret)
		return ret;
	ret = start ? nt_session_start(&info) : nt_session_control(&info);
	if (ret)
		return ret;
	info.size = usize;
	return nttrace_write_args(uarg, &info, sizeof(info), usize);
}

static long nttrace_ioc_list(void __user *uarg)
{
	struct nttrace_logger_list l;
	u32 ids[NTTRACE_MAX_LOGGERS], count, usize;
	int ret;

	ret = nttrace_read_args(&l, sizeof(l), NTTRACE_LOGGER_LIST_SIZE_VER0,
				uarg, &usize);
	if (ret)
		return ret;
	nt_session_list(ids, ARRAY_SIZE(ids), &count);
	if (copy_to_user(u64_to_user_ptr(l.ids), ids,
			 min(count, l.count) * sizeof(ids[0])))
		return -EFAULT;
	l.count = count;
	return nttrace_write_args(uarg, &l, sizeof(l), usize);
}

static long nttrace_ioc_attach(struct file *file, void __user *uarg)
{
	struct nttrace_attach a;
	u32 usize;
	int ret;

	ret = nttrace_read_args(&a, sizeof(a), NTTRACE_ATTACH_SIZE_VER0,
				uarg, &usize);
	if (ret)
		return ret;
	ret = nt_file_attach(file, &a);
	if (ret)
		return ret;
	return nttrace_write_args(uarg, &a, sizeof(a), usize);
}

static long nttrace_ioc_profile(void __user *uarg)
{
	struct nttrace_profile p;
	u32 usize;
	int ret;

	ret = nttrace_read_args(&p, sizeof(p), NTTRACE_PROFILE_SIZE_VER0, uarg, &usize);
	if (ret)
		return ret;
	ret = nt_kernel_logger_profile(&p);
	if (ret)
		return ret;
	return nttrace_write_args(uarg, &p, sizeof(p), usize);
}

static long nttrace_ioc_stacks(void __user *uarg)
{
	struct nttrace_stacks st;
	u16 hooks[NTTRACE_STACKS_MAX];
	u32 usize, room;
	int ret;

	ret = nttrace_read_args(&st, sizeof(st), NTTRACE_STACKS_SIZE_VER0, uarg, &usize);
	if (ret)
		return ret;
	room = st.count;
	if (st.flags & NTTRACE_STACKS_SET) {
		if (st.count > NTTRACE_STACKS_MAX)
			return -EINVAL;
		if (copy_from_user(hooks, u64_to_user_ptr(st.hooks), st.count * sizeof(hooks[0])))
			return -EFAULT;
	}
	ret = nt_session_stacks(&st, hooks);
	if (ret)
		return ret;
	if (!(st.flags & NTTRACE_STACKS_SET) &&
	    copy_to_user(u64_to_user_ptr(st.hooks), hooks,
			 min(room, st.count) * sizeof(hooks[0])))
		return -EFAULT;
	return nttrace_write_args(uarg, &st, sizeof(st), usize);
}

static long nttrace_ioc_trace_event(void __user *uarg)
{
	struct nttrace_trace_event __user *u = uarg;
	struct nttrace_trace_event a;
	struct nttrace_call call;
	u32 usize;
	int ret;

	/*
	 * The common case in one copy: a struct of our size (the size read
	 * is the one checked). Anything else, or a fault (the caller's struct
	 * may be shorter and end a mapping), goes the general way.
	 */
	if (copy_from_user(&a, uarg, sizeof(a)) || a.size != sizeof(a)) {
		ret = nttrace_read_args(&a, sizeof(a), NTTRACE_TRACE_EVENT_SIZE_VER0,
					uarg, &usize);
		if (ret)
			return ret;
	}

	call.trace_handle = a.trace_handle;
	call.flags = a.flags;
	call.field_size = a.field_size;
	call.fields = a.fields;
	call.compat = in_compat_syscall();
	call.kernel_mode = false;

	if (put_user(nttrace_trace_event(&call), &u->status))
		return -EFAULT;
	return 0;
}

static long nttrace_ioc_register(struct file *file, void __user *uarg)
{
	struct nttrace_register r;
	u32 usize;
	int ret;

	ret = nttrace_read_args(&r, sizeof(r), NTTRACE_REGISTER_SIZE_VER0,
				uarg, &usize);
	if (ret)
		return ret;
	ret = nt_provider_register(nt_file_provider(file), &r);
	if (ret)
		return ret;
	ret = nttrace_write_args(uarg, &r, sizeof(r), usize);
	/* The caller cannot learn the handle: the registration is undone. */
	if (ret)
		nt_provider_unregister(nt_file_provider(file), r.handle);
	return ret;
}

static long nttrace_ioc_unregister(struct file *file, void __user *uarg)
{
	struct nttrace_unregister u;
	u32 usize;
	int ret;

	ret = nttrace_read_args(&u, sizeof(u), NTTRACE_UNREGISTER_SIZE_VER0,
				uarg, &usize);
	if (ret)
		return ret;
	if (u.pad)
		return -EINVAL;
	return nt_provider_unregister(nt_file_provider(file), u.handle);
}

static long nttrace_ioc_enable(void __user *uarg)
{
	struct nttrace_enable e;
	u32 usize;
	int ret;

	ret = nttrace_read_args(&e, sizeof(e), NTTRACE_ENABLE_SIZE_VER0,
				uarg, &usize);
	if (ret)
		return ret;
	ret = nt_provider_enable(&e);
	if (ret)
		return ret;
	return nttrace_write_args(uarg, &e, sizeof(e), usize);
}

static long nttrace_ioc_notification(struct file *file, void __user *uarg)
{
	struct nttrace_notification n;
	u32 usize;
	int ret;

	ret = nttrace_read_args(&n, sizeof(n), NTTRACE_NOTIFICATION_SIZE_VER0,
				uarg, &usize);
	if (ret)
		return ret;
	/* Taken off the queue: a fault writing it back loses it. */
	ret = nt_provider_notification(nt_file_provider(file), &n);
	if (ret)
		return ret;
	return nttrace_write_args(uarg, &n, sizeof(n), usize);
}

static long nttrace_ioc_list_providers(void __user *uarg)
{
	struct nttrace_provider_list l;
	u32 usize;
	int ret;

	ret = nttrace_read_args(&l, sizeof(l), NTTRACE_PROVIDER_LIST_SIZE_VER0,
				uarg, &usize);
	if (ret)
		return ret;
	ret = nt_provider_list(&l);
	if (ret)
		return ret;
	return nttrace_write_args(uarg, &l, sizeof(l), usize);
}

static long nttrace_ioc_register_security(struct file *file, void __user *uarg)
{
	struct nttrace_security_register r;
	u32 usize;
	int ret;

	ret = nttrace_read_args(&r, sizeof(r), NTTRACE_SECURITY_REGISTER_SIZE_VER0,
				uarg, &usize);
	if (ret)
		return ret;
	if (r.flags)
		return -EINVAL;
	return nt_security_register(file);
}

static long nttrace_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	void __user *uarg = (void __user *)arg;

	/* Commands match by magic, direction and number; see uapi/nttrace.h. */
	if (_IOC_TYPE(cmd) != NTTRACE_IOC_MAGIC ||
	    _IOC_DIR(cmd) != (_IOC_READ | _IOC_WRITE))
		return -ENOTTY;

	switch (_IOC_NR(cmd)) {
	case _IOC_NR(NTTRACE_IOC_VERSION):
		return nttrace_ioc_version(uarg);
	case _IOC_NR(NTTRACE_IOC_TRACE_EVENT):
		return nttrace_ioc_trace_event(uarg);
	case _IOC_NR(NTTRACE_IOC_START_TRACE):
		return nttrace_ioc_logger(uarg, true);
	case _IOC_NR(NTTRACE_IOC_CONTROL_TRACE):
		return nttrace_ioc_logger(uarg, false);
	case _IOC_NR(NTTRACE_IOC_LIST_TRACES):
		return nttrace_ioc_list(uarg);
	case _IOC_NR(NTTRACE_IOC_ATTACH):
		return nttrace_ioc_attach(file, uarg);
	case _IOC_NR(NTTRACE_IOC_PROFILE):
		return nttrace_ioc_profile(uarg);
	case _IOC_NR(NTTRACE_IOC_STACKS):
		return nttrace_ioc_stacks(uarg);
	case _IOC_NR(NTTRACE_IOC_REGISTER):
		return nttrace_ioc_register(file, uarg);
	case _IOC_NR(NTTRACE_IOC_UNREGISTER):
		return nttrace_ioc_unregister(file, uarg);
	case _IOC_NR(NTTRACE_IOC_ENABLE):
		return nttrace_ioc_enable(uarg);
	case _IOC_NR(NTTRACE_IOC_NOTIFICATION):
		return nttrace_ioc_notification(file, uarg);
	case _IOC_NR(NTTRACE_IOC_LIST_PROVIDERS):
		return nttrace_ioc_list_providers(uarg);
	case _IOC_NR(NTTRACE_IOC_REGISTER_SECURITY):
		return nttrace_ioc_register_security(file, uarg);
	}
	return -ENOTTY;
}

static int nttrace_open(struct inode *inode, struct file *file)
{
	return nt_file_open(file);
}

static int nttrace_release(struct inode *inode, struct file *file)
{
	nt_security_release(file);
	nt_file_release(file);
	return 0;
}

static const struct file_operations nttrace_fops = {
	.owner = THIS_MODULE,
	.open = nttrace_open,
	.release = nttrace_release,
	.mmap = nt_file_mmap,
	.poll = nt_file_poll,
	.unlocked_ioctl = nttrace_ioctl,
	/* Every struct has one layout for 32- and 64-bit callers. */
	.compat_ioctl = compat_ptr_ioctl,
};

/*
 * Any user may write events, as any Windows process may call NtTraceEvent;
 * what a caller may do to a session is checked per call (module/policy.c).
 */
static struct miscdevice nttrace_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "nttrace",
	.fops = &nttrace_fops,
	.mode = 0666,
};

static enum cpuhp_state nttrace_cpuhp;

/* A CPU going down publishes its partly filled buffers (on that CPU). */
static int nttrace_cpu_down(unsigned int cpu)
{
	nt_sessions_cpu_offline(cpu);
	return 0;
}

/* The sessions' starts and stops, told to the providers and the kernel logger. */
static const struct nt_session_hooks nttrace_session_hooks = {
	.started = nt_provider_session_started,
	.stopped = nt_provider_session_stopped,
	.groups_changed = nt_kernel_logger_update,
	.rundown = nt_kernel_logger_rundown,
	.groups_built = nt_kernel_logger_flags,
};

static int __init nttrace_init(void)
{
	int ret;

	ret = nt_kernel_logger_init();
	if (ret)
		return ret;
	ret = nt_provider_init();
	if (ret) {
		nt_kernel_logger_exit();
		return ret;
	}
	/*
	 * A CPU coming up needs nothing: every possible CPU has its ring
	 * from the session's start.
	 */
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "nttrace:online",
					NULL, nttrace_cpu_down);
	if (ret < 0) {
		nt_provider_exit();
		nt_kernel_logger_exit();
		return ret;
	}
	nttrace_cpuhp = ret;
	nt_session_set_hooks(&nttrace_session_hooks);
	ret = misc_register(&nttrace_misc);
	if (ret) {
		cpuhp_remove_state_nocalls(nttrace_cpuhp);
		nt_provider_exit();
		nt_kernel_logger_exit();
	}
	return ret;
}

static void __exit nttrace_exit(void)
{
	misc_deregister(&nttrace_misc);
	cpuhp_remove_state_nocalls(nttrace_cpuhp);
	nt_sessions_stop_all();
	nt_kernel_logger_exit();
	nt_provider_exit();
}

module_init(nttrace_init);
module_exit(nttrace_exit);

MODULE_DESCRIPTION("Windows NtTraceEvent event tracing for Linux");
MODULE_AUTHOR("nttrace developers");
MODULE_LICENSE("GPL");
