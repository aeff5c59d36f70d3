// SPDX-License-Identifier: LGPL-2.1
/* Logger sessions: start, control, list (see <nttrace/session.h>). */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

#include <nttrace/nt.h>
#include <nttrace/session.h>

static int ioctl_errno(unsigned long cmd, void *arg)
{
	int fd = nttrace_device_fd();

	if (fd < 0)
		return fd;
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

int nttrace_set_name(struct nttrace_logger_info *info, const char *name)
{
	size_t len = strlen(name);

	if (len >= sizeof(info->name))
		return -EINVAL;
	memset(info->name, 0, sizeof(info->name));
	memcpy(info->name, name, len);
	return 0;
}

/*
 * @size is the caller's sizeof (see <nttrace/session.h>): the kernel reads
 * and writes back that many bytes at most, and we write only size and
 * control, both in the first version. No upper bound here: the kernel
 * takes a longer struct whose unknown tail is zero, and refuses the rest.
 */
static int logger_ioctl(unsigned long cmd, struct nttrace_logger_info *info,
			size_t size, uint32_t code)
{
	if (size < NTTRACE_LOGGER_INFO_SIZE_VER0 || size > UINT32_MAX)
		return -EINVAL;
	info->size = (uint32_t)size;
	info->control = code;
	return ioctl_errno(cmd, info);
}

int nttrace_start_opts(struct nttrace_logger_info *info, size_t size)
{
	return logger_ioctl(NTTRACE_IOC_START_TRACE, info, size, 0);
}

int nttrace_control_opts(struct nttrace_logger_info *info, size_t size,
			 uint32_t code)
{
	return logger_ioctl(NTTRACE_IOC_CONTROL_TRACE, info, size, code);
}

int nttrace_list(uint32_t *ids, uint32_t room, uint32_t *count)
{
	struct nttrace_logger_list l = {
		.size = sizeof(l), .count = room, .ids = (uintptr_t)ids,
	};
	int ret = ioctl_errno(NTTRACE_IOC_LIST_TRACES, &l);

	if (!ret)
		*count = l.count;
	return ret;
}
