// SPDX-License-Identifier: GPL-2.0
/*
 * The SysConfig events (the EventTraceConfig group, 0x0B) Windows writes
 * at the start of a kernel trace so that its tools know the machine: a
 * rundown of no group, written into a system logger when it starts unless
 * its EnableFlags have EVENT_TRACE_FLAG_NO_SYSCONFIG (ksource.h).
 * Records: common/sysconfig.h (SystemConfig_CPU and _NIC, version 2).
 *
 * What Linux fills (ours, where Windows' fields have no Linux twin):
 * - CPU: MHz (the TSC's rate on x86, else 0), the online CPUs, the memory
 *   in MB, the page size as PageSize and AllocationGranularity (what
 *   mmap() aligns to), ComputerName and DomainName from the UTS namespace
 *   of the initial process (nodename; domainname unless "(none)"),
 *   HyperThreadingFlag 1 when CPU 0 has an SMT sibling.
 * - NIC: each network device of the initial network namespace but
 *   loopback: its hardware address (up to 8 bytes) and length, its
 *   ifindex as both IPv4 and IPv6 interface index, its name as the
 *   description, its IPv4 addresses as text separated by ';'; no DNS
 *   servers (the kernel has none).
 * - Not written: PhyDisk and LogDisk (disks and file systems; left for
 *   later), Services, Video, PnP, Power (no Linux twin in the kernel).
 */
#include <linux/cpumask.h>
#include <linux/inetdevice.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/nsproxy.h>
#include <linux/topology.h>
#include <linux/utsname.h>
#include <net/net_namespace.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#include "ksource.h"
#include "sysconfig.h"

NT_KCLASS(cpu)
NT_KCLASS(nic)

static void nt_config_cpu(u32 slot)
{
	struct new_utsname *u = &init_uts_ns.name;
	struct ntr_sr_cpu c = {
		.nr_processors = num_online_cpus(),
		.mem_size = totalram_pages() >> (20 - PAGE_SHIFT),
		.page_size = PAGE_SIZE,
		.allocation_granularity = PAGE_SIZE,
		.hyper_threading_flag = cpumask_weight(topology_sibling_cpumask(0)) > 1,
	};

#ifdef CONFIG_X86
	c.mhz = cpu_khz / 1000;
#endif
	c.computer_name = (struct ntr_sr_str){ u->nodename, strnlen(u->nodename,
								   sizeof(u->nodename)) };
	if (strcmp(u->domainname, "(none)"))
		c.domain_name = (struct ntr_sr_str){ u->domainname,
						     strnlen(u->domainname,
							     sizeof(u->domainname)) };
	NT_KEVENT(NTR_SR_CONFIG_CPU, 0, 0, slot, cpu, &c);
}

/* @dev's IPv4 addresses, "a.b.c.d;e.f.g.h", in @buf. Under RCU. */
static u32 nt_config_ipv4(struct net_device *dev, char *buf, u32 room)
{
	u32 len = 0;
#ifdef CONFIG_INET
	struct in_device *in = __in_dev_get_rcu(dev);
	const struct in_ifaddr *ifa;

	if (!in)
		return 0;
	in_dev_for_each_ifa_rcu(ifa, in) {
		int n = snprintf(buf + len, room - len, "%s%pI4", len ? ";" : "", &ifa->ifa_address);

		if (n < 0 || n >= room - len)
			break;
		len += n;
	}
#endif
	return len;
}

static void nt_config_nics(u32 slot)
{
	struct net_device *dev;
	char addrs[128];

	rcu_read_lock();
	for_each_netdev_rcu(&init_net, dev) {
		struct ntr_sr_nic n = {
			.ipv4_index = dev->ifindex,
			.ipv6_index = dev->ifindex,
		};

		if (dev->flags & IFF_LOOPBACK)
			continue;
		n.physical_addr_len = min_t(u32, dev->addr_len, sizeof(n.physical_addr));
		memcpy(&n.physical_addr, dev->dev_addr, n.physical_addr_len);
		n.description = (struct ntr_sr_str){ dev->name, strnlen(dev->name, IFNAMSIZ) };
		n.ip_addresses = (struct ntr_sr_str){ addrs,
						      nt_config_ipv4(dev, addrs, sizeof(addrs)) };
		NT_KEVENT(NTR_SR_CONFIG_NIC, 0, 0, slot, nic, &n);
	}
	rcu_read_unlock();
}

static void nt_config_rundown(u32 slot, bool start)
{
	nt_config_cpu(slot);
	nt_config_nics(slot);
}

const struct nt_ksource nt_ks_config = {
	.name = "SYSCONFIG",
	.rundown = nt_config_rundown,
};
