// SPDX-License-Identifier: GPL-2.0
/*
 * nttrace: the command-line tool.
 *
 *   nttrace version        what the loaded module speaks
 *   nttrace call ...       one raw NtTraceEvent call, with its NTSTATUS
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <nttrace/nt.h>

static void print_status(NTSTATUS status)
{
	const char *name = nttrace_status_name(status);

	printf("0x%08X %s\n", (uint32_t)status, name ? name : "(unnamed)");
}

static int device_or_die(void)
{
	int fd = nttrace_device_fd();

	if (fd < 0) {
		fprintf(stderr, "nttrace: %s: %s (is nttrace.ko loaded?)\n",
			NTTRACE_DEVICE, strerror(-fd));
		exit(1);
	}
	return fd;
}

static int cmd_version(int argc, char **argv)
{
	struct nttrace_version v = { .size = sizeof(v) };
	unsigned int type;

	if (argc > 1) {
		printf("usage: nttrace version\n\n"
		       "Print the ABI version of the loaded nttrace module and the\n"
		       "NtTraceEvent types it implements.\n");
		return strcmp(argv[1], "--help") ? 2 : 0;
	}
	if (ioctl(device_or_die(), NTTRACE_IOC_VERSION, &v) < 0) {
		perror("nttrace: NTTRACE_IOC_VERSION");
		return 1;
	}
	printf("nttrace ABI %u (this tool: %u), features 0x%llx\n",
	       v.abi_version, NTTRACE_ABI_VERSION,
	       (unsigned long long)v.features);
	for (type = 0x100; type <= 0xFF00; type += 0x100) {
		const char *name = nttrace_type_name(type);

		if (name)
			printf("  0x%04X %-18s %s\n", type, name,
			       v.types & NTTRACE_TYPE_BIT(type) ?
			       "implemented" : "not implemented");
	}
	return 0;
}

static void call_usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace call [--handle N] [--size N] [--misalign | --null] FLAGS\n\n"
		"Call NtTraceEvent(TraceHandle, Flags, FieldSize, Fields) once and print\n"
		"the NTSTATUS. Fields points to FieldSize zeroed bytes (default 0x28, a\n"
		"MESSAGE_TRACE_USER) unless --misalign (one byte past an aligned buffer)\n"
		"or --null (a NULL Fields) is given. FLAGS and N take C notation.\n");
}

static int cmd_call(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "handle", required_argument, NULL, 'h' },
		{ "size", required_argument, NULL, 's' },
		{ "misalign", no_argument, NULL, 'm' },
		{ "null", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, '?' + 256 },
		{ 0 }
	};
	unsigned long long handle = 1;
	unsigned long size = 0x28, flags;
	int misalign = 0, null = 0, c;
	uint64_t buf[512] = { 0 };
	char *fields, *end;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'h': handle = strtoull(optarg, NULL, 0); break;
		case 's': size = strtoul(optarg, NULL, 0); break;
		case 'm': misalign = 1; break;
		case 'n': null = 1; break;
		case '?' + 256: call_usage(stdout); return 0;
		default: call_usage(stderr); return 2;
		}
	}
	if (optind != argc - 1 || size > sizeof(buf) - 1) {
		call_usage(stderr);
		return 2;
	}
	errno = 0;
	flags = strtoul(argv[optind], &end, 0);
	if (errno || *end || flags > 0xFFFFFFFFUL) {
		fprintf(stderr, "nttrace: bad FLAGS '%s'\n", argv[optind]);
		return 2;
	}
	device_or_die();
	fields = null ? NULL : (char *)buf + misalign;
	printf("NtTraceEvent(%llu, 0x%08lX <%s>, 0x%lX, %s) = ", handle, flags,
	       nttrace_type_name(flags & ETW_NT_TRACE_TYPE_MASK) ?: "invalid type",
	       size, null ? "NULL" : misalign ? "misaligned" : "buffer");
	print_status(NtTraceEvent((HANDLE)(uintptr_t)handle, flags, size, fields));
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: nttrace COMMAND [ARGS]   (COMMAND --help for more)\n\n"
		   "  version   ABI version and implemented NtTraceEvent types\n"
		   "  call      one raw NtTraceEvent call and its NTSTATUS\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "version"))
		return cmd_version(argc - 1, argv + 1);
	if (!strcmp(argv[1], "call"))
		return cmd_call(argc - 1, argv + 1);
	fprintf(stderr, "nttrace: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
