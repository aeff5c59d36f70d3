// SPDX-License-Identifier: LGPL-2.1
/* Logger sessions: start, control, list (see <nttrace/session.h>). */
#include <errno.h>
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

int nttrace_start(struct nttrace_logger_info *info)
{
	info->size = sizeof(*info);
	info->control = 0;
	return ioctl_errno(NTTRACE_IOC_START_TRACE, info);
}

int nttrace_control(struct nttrace_logger_info *info, uint32_t code)
{
	info->size = sizeof(*info);
	info->control = code;
	return ioctl_errno(NTTRACE_IOC_CONTROL_TRACE, info);
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
