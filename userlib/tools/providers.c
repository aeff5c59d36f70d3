// SPDX-License-Identifier: GPL-2.0
/*
 * The provider subcommands: `nttrace enable`, `nttrace disable` (a
 * controller's EnableTrace, over NTTRACE_IOC_ENABLE) and `nttrace
 * providers` (NTTRACE_IOC_LIST_PROVIDERS: like `logman query providers`,
 * the registered GUIDs, their processes, and the sessions enabling them).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>

#include <nttrace/nt.h>
#include <nttrace/tdh.h>
#include <nttrace/tmf.h>

#include "cli.h"

static void enable_usage(FILE *f, const char *cmd)
{
	if (!strcmp(cmd, "disable")) {
		fprintf(f,
			"usage: nttrace disable SESSION GUID\n"
			"       nttrace disable --id N GUID\n\n"
			"Stop the session SESSION (a name, or a logger ID with --id) from\n"
			"enabling the provider GUID; its providers' callbacks get\n"
			"WMI_DISABLE_EVENTS. GUID as xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx,\n"
			"braces allowed.\n");
		return;
	}
	fprintf(f,
		"usage: nttrace enable SESSION GUID [--flags N] [--level N] [--any N] [--all N]\n"
		"                      [--stack]\n"
		"       nttrace enable --id N GUID [--flags N] [--level N] [--any N] [--all N]\n"
		"                      [--stack]\n\n"
		"Enable the provider GUID for the session SESSION (a name, or a logger ID\n"
		"with --id), as EnableTrace does: whether or not the provider has\n"
		"registered yet. Its callbacks get WMI_ENABLE_EVENTS with the session's\n"
		"logger handle; --flags (32 bits, also the keywords to match) and\n"
		"--level (0 to 255) are what GetTraceEnableFlags and GetTraceEnableLevel\n"
		"return; both 0 when left out. For an EventRegister provider, --level\n"
		"is the highest level wanted (0: all), --any and --all the keywords\n"
		"(MatchAnyKeyword, default --flags; MatchAllKeyword, default 0; an\n"
		"event of keyword 0 always matches). --stack adds the writing thread's\n"
		"call stack to each of the provider's EventWrite and TraceLogging events\n"
		"(EVENT_ENABLE_PROPERTY_STACK_TRACE: a STACK_TRACE64 item). Enabling\n"
		"again changes them. The enable lasts until `nttrace disable` or the\n"
		"session stops. Numbers take C notation; --option=VALUE works too.\n");
}

/* @arg's session: by name (looked up) or ID; 0, else the exit status. */
static int session_id(const char *arg, int by_id, const char *cmd, uint32_t *id)
{
	struct nttrace_logger_info info;
	int ret = cli_session_arg(arg, by_id, &info);

	if (ret)
		return ret;
	ret = nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY);
	if (ret)
		return cli_fail(ret, "%s %s%s", cmd, by_id ? "--id " : "", arg);
	*id = info.logger_id;
	return 0;
}

static int cmd_enable_disable(int argc, char **argv, int on)
{
	static const struct option opts[] = {
		{ "id", required_argument, NULL, 'i' },
		{ "flags", required_argument, NULL, 'f' },
		{ "level", required_argument, NULL, 'l' },
		{ "any", required_argument, NULL, 'a' },
		{ "all", required_argument, NULL, 'A' },
		{ "stack", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *id = NULL, *flags = NULL, *level = NULL, *any = NULL, *all = NULL;
	const char *session;
	struct nttrace_enable e;
	int opt, ret, fd, stack = 0;
	uint64_t v;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'i': id = optarg; break;
		case 'f': flags = optarg; break;
		case 'l': level = optarg; break;
		case 'a': any = optarg; break;
		case 'A': all = optarg; break;
		case 's': stack = 1; break;
		case 'h': enable_usage(stdout, argv[0]); return 0;
		default: enable_usage(stderr, argv[0]); return CLI_USAGE;
		}
	}
	if (optind != argc - 2 + !!id || (!on && (flags || level || any || all || stack))) {
		enable_usage(stderr, argv[0]);
		return CLI_USAGE;
	}
	memset(&e, 0, sizeof(e));
	e.size = sizeof(e);
	e.control = on ? EVENT_CONTROL_CODE_ENABLE_PROVIDER :
			 EVENT_CONTROL_CODE_DISABLE_PROVIDER;
	session = id ? id : argv[optind];
	ret = cli_guid("GUID", argv[argc - 1], e.guid);
	if (!ret && flags && !(ret = cli_uint("--flags", flags, 0, UINT32_MAX, 0, &v)))
		e.enable_flags = v;
	if (!ret && level && !(ret = cli_uint("--level", level, 0, 255, 0, &v)))
		e.level = v;
	/* EnableTrace's flags are the keywords too, unless --any says else. */
	e.match_any_keyword = e.enable_flags;
	if (!ret && any && !(ret = cli_uint("--any", any, 0, UINT64_MAX, 0, &v)))
		e.match_any_keyword = v;
	if (!ret && all && !(ret = cli_uint("--all", all, 0, UINT64_MAX, 0, &v)))
		e.match_all_keyword = v;
	if (stack)
		e.enable_property = NTTRACE_ENABLE_PROPERTY_STACK_TRACE;
	if (ret)
		return ret;
	ret = session_id(session, !!id, argv[0], &e.logger_id);
	if (ret)
		return ret;
	fd = nttrace_device_fd();
	if (fd < 0)
		return cli_fail(fd, "%s", argv[0]);
	if (ioctl(fd, NTTRACE_IOC_ENABLE, &e) < 0) {
		ret = -errno;
		if (ret == -ENOENT && !on) {
			fprintf(stderr, "nttrace: disable: session %u does not enable %s\n",
				e.logger_id, argv[argc - 1]);
			return 1;
		}
		if (ret == -ENOSPC) {
			fprintf(stderr, "nttrace: enable: session %u already enables %u "
				"providers, the most a session may\n", e.logger_id,
				NTTRACE_MAX_ENABLES);
			return 1;
		}
		return cli_fail(ret, "%s %s", argv[0], session);
	}
	printf("%s %s for session %u", on ? "enabled" : "disabled", argv[argc - 1],
	       e.logger_id);
	if (on)
		printf(" (flags 0x%08x, level %u%s)", e.enable_flags, e.level,
		       stack ? ", stacks" : "");
	printf(": %u registration%s notified\n", e.registrations,
	       e.registrations == 1 ? "" : "s");
	return 0;
}

int cmd_enable(int argc, char **argv)
{
	return cmd_enable_disable(argc, argv, 1);
}

int cmd_disable(int argc, char **argv)
{
	return cmd_enable_disable(argc, argv, 0);
}

/* cli.h */
PROVIDER_ENUMERATION_INFO *cli_tdh_providers(void)
{
	PROVIDER_ENUMERATION_INFO *p = NULL;
	ULONG size = 0, err;

	while ((err = TdhEnumerateProviders(p, &size)) == ERROR_INSUFFICIENT_BUFFER) {
		free(p);
		p = malloc(size);
		if (!p)
			return NULL;
	}
	if (err != ERROR_SUCCESS || !p->NumberOfProviders) {
		free(p);
		return NULL;
	}
	return p;
}

/* The name TDH knows for @guid (16 bytes), or NULL; the caller frees it. */
static char *tdh_name(const PROVIDER_ENUMERATION_INFO *p, const uint8_t *guid)
{
	ULONG i;

	for (i = 0; p && i < p->NumberOfProviders; i++) {
		const TRACE_PROVIDER_INFO *t = &p->TraceProviderInfoArray[i];

		if (!memcmp(&t->ProviderGuid, guid, 16))
			return render_utf16((const WCHAR *)((const uint8_t *)p +
							    t->ProviderNameOffset));
	}
	return NULL;
}

/* cli.h */
int cli_provider_guid(PROVIDER_ENUMERATION_INFO **known, const char *name, uint8_t guid[16])
{
	size_t n = strlen(name);
	ULONG i;

	if ((n == 36 || (n == 38 && name[0] == '{' && name[37] == '}')) &&
	    strspn(name + (n == 38), "0123456789abcdefABCDEF-") == 36)
		return cli_guid("provider", name, guid) ? -1 : 0;
	/* "*Name": a TraceLogging provider, its GUID the hash of its name. */
	if (name[0] == '*' && name[1]) {
		cli_provider_name_guid(name + 1, guid);
		return 0;
	}
	if (!*known)
		*known = cli_tdh_providers();
	for (i = 0; *known && i < (*known)->NumberOfProviders; i++) {
		const TRACE_PROVIDER_INFO *t = &(*known)->TraceProviderInfoArray[i];
		char *s = render_utf16((const WCHAR *)((const uint8_t *)*known +
							 t->ProviderNameOffset));
		int same = s && !strcasecmp(s, name);

		free(s);
		if (same) {
			memcpy(guid, &t->ProviderGuid, 16);
			return 0;
		}
	}
	return -1;
}

static int providers_usage(FILE *f)
{
	fprintf(f,
		"usage: nttrace providers [--manifest PATH[,PATH...]]...\n\n"
		"The provider GUIDs registered or enabled, like `logman query providers`:\n"
		"per GUID, each registration (its process and kind: classic for\n"
		"RegisterTraceGuids, event for EventRegister) and each session\n"
		"enabling it (with its level, flags and keywords). --manifest loads\n"
		"instrumentation manifests (TdhLoadManifest) and lists first the\n"
		"providers TdhEnumerateProviders then knows (GUID, name, source); the\n"
		"registered GUIDs then show their names too.\n");
	return 0;
}

int cmd_providers(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "manifest", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct nttrace_provider_list l = { .size = sizeof(l) };
	struct nttrace_provider_row *rows = NULL;
	PROVIDER_ENUMERATION_INFO *known = NULL;
	char guid[NTTRACE_GUID_STRING];
	uint32_t i, room = 0;
	int fd, opt;

	while ((opt = getopt_long(argc, argv, "m:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			if (render_load_manifests(optarg))
				return 1;
			break;
		case 'h':
			return providers_usage(stdout);
		default:
			providers_usage(stderr);
			return CLI_USAGE;
		}
	}
	if (optind != argc) {
		providers_usage(stderr);
		return CLI_USAGE;
	}
	known = cli_tdh_providers();
	if (known) {
		printf("%-38s  %-30s  %s\n", "Provider GUID (TDH)", "Name", "Schema");
		for (i = 0; i < known->NumberOfProviders; i++) {
			const TRACE_PROVIDER_INFO *t = &known->TraceProviderInfoArray[i];
			char *name = tdh_name(known, (const uint8_t *)&t->ProviderGuid);

			nttrace_guid_string((const uint8_t *)&t->ProviderGuid, guid);
			printf("%-38s  %-30s  %s\n", guid, name ? name : "",
			       t->SchemaSource ? "MOF" : "manifest");
			free(name);
		}
		putchar('\n');
	}
	fd = nttrace_device_fd();
	if (fd < 0) {
		free(known);
		return cli_fail(fd, "providers");
	}
	/* Rows may come and go between the calls: grow until they fit. */
	for (;;) {
		l.count = room;
		l.rows = (uintptr_t)rows;
		if (ioctl(fd, NTTRACE_IOC_LIST_PROVIDERS, &l) < 0) {
			free(rows);
			free(known);
			return cli_fail(-errno, "providers");
		}
		if (l.count <= room)
			break;
		room = l.count + 16;
		free(rows);
		rows = calloc(room, sizeof(*rows));
		if (!rows) {
			free(known);
			return cli_fail(-ENOMEM, "providers");
		}
	}
	/* One line per registration, then one per session enabling the GUID. */
	printf("%-38s  %-22s  %s\n", "Provider GUID", "Registered by", "Enabled by");
	for (i = 0; i < l.count; i++) {
		const struct nttrace_provider_row *r = &rows[i];
		struct nttrace_logger_info info = { .logger_id = r->logger_id };
		char *name = tdh_name(known, r->guid);
		char who[32];

		nttrace_guid_string(r->guid, guid);
		if (!r->logger_id) {
			snprintf(who, sizeof(who), "pid %u (%s)", r->pid,
				 r->type == NTTRACE_REG_CLASSIC ? "classic" :
				 r->type == NTTRACE_REG_EVENT ? "event" : "?");
			printf("%-38s  %-22s  -%s%s\n", guid, who, name ? "  " : "",
			       name ? name : "");
			free(name);
			continue;
		}
		free(name);
		if (nttrace_control(&info, EVENT_TRACE_CONTROL_QUERY))
			info.name[0] = 0;
		printf("%-38s  %-22s  session %u %s: level %u, flags 0x%08x, "
		       "any 0x%llx, all 0x%llx%s\n", guid, "-", r->logger_id,
		       (const char *)info.name, r->level, r->enable_flags,
		       (unsigned long long)r->match_any_keyword,
		       (unsigned long long)r->match_all_keyword,
		       r->flags & NTTRACE_PROVIDER_ROW_STACK_TRACE ? ", stacks" : "");
	}
	free(rows);
	free(known);
	return 0;
}
