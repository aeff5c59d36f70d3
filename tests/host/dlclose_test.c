// SPDX-License-Identifier: GPL-2.0
/*
 * The shared library unloaded with a provider still registered: dlclose()
 * stops and joins the notification thread, so that nothing of the library
 * runs after it; a notification that then reaches the registration (an
 * enable, made by the tool) finds no thread to run in unmapped code. Prints
 * TAP. Needs /dev/nttrace (the VM) and a dynamic loader:
 *
 *   dlclose_test LIBNTTRACE.so NTTRACE-TOOL
 *
 * built dynamically (make BUILD=... dlclose-test) beside the shared build
 * (make shared). The test VM has no dynamic loader: give it the host's,
 * e.g. with D holding dlclose_test, libnttrace.so.1, ld-linux-x86-64.so.2
 * and libc.so.6:
 *
 *   scripts/vm-run --add D -- '/add/D/ld-linux-x86-64.so.2 --library-path
 *       /add/D /add/D/dlclose_test /add/D/libnttrace.so.1 $PWD/u64/nttrace'
 *
 * (Before the notification thread was stopped at unloading: not ok 5,
 * then SIGSEGV when the enable woke the thread in unmapped code.)
 */
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nttrace/evntprov.h>
#include "../vm/tap.h"
#include "../vm/tasks.h"

/* Whether a mapping of a file named like @name is in the process. */
static int mapped(const char *name)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		found |= strstr(line, name) != NULL;
	fclose(f);
	return found;
}

typedef ULONG (*reg_fn)(LPCGUID, PENABLECALLBACK, PVOID, PREGHANDLE);
typedef ULONG (*unreg_fn)(REGHANDLE);

#define GUID_TEXT "6c1a1a01-0027-4e11-901d-0000000000d1"
static const GUID guid = { 0x6c1a1a01, 0x27, 0x4e11, { 0x90, 0x1d, 0, 0, 0, 0, 0, 0xd1 } };

int main(int argc, char **argv)
{
	char cmd[1024];
	REGHANDLE h;
	reg_fn reg;
	unreg_fn unreg;
	void *lib;
	int base = count_tasks(), ok;

	if (argc != 3) {
		fprintf(stderr, "usage: dlclose_test LIBNTTRACE.so NTTRACE-TOOL\n");
		return 2;
	}
	if (access("/dev/nttrace", F_OK)) {
		printf("1..0 # SKIP needs /dev/nttrace\n");
		return 0;
	}
	lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!tap_ok(lib != NULL, "dlopen %s", argv[1])) {
		printf("# %s\n", dlerror());
		return tap_done();
	}
	reg = (reg_fn)(uintptr_t)dlsym(lib, "EventRegister");
	unreg = (unreg_fn)(uintptr_t)dlsym(lib, "EventUnregister");
	tap_ok(reg && unreg && reg(&guid, NULL, NULL, &h) == ERROR_SUCCESS &&
	       count_tasks() == base + 1, "EventRegister: the notification thread runs");
	tap_ok(unreg(h) == ERROR_SUCCESS && tasks_become(base),
	       "EventUnregister: ... and ends with the last registration");
	tap_ok(reg(&guid, NULL, NULL, &h) == ERROR_SUCCESS && count_tasks() == base + 1,
	       "EventRegister again: a thread again");
	/* Left registered: the unloading must stop the thread itself. */
	tap_ok(!dlclose(lib) && tasks_become(base),
	       "dlclose with the provider registered: the thread is gone");
	tap_ok(mapped("libnttrace") == 0, "... and so is the library");
	/* The registration's file is still open: a notification reaches it. */
	snprintf(cmd, sizeof(cmd), "'%s' start dlclose-test > /dev/null && "
		 "'%s' enable dlclose-test " GUID_TEXT " > /dev/null", argv[2], argv[2]);
	ok = system(cmd) == 0;
	usleep(300000);
	tap_ok(ok, "an enable of the provider after the unloading: the process is alive");
	snprintf(cmd, sizeof(cmd), "'%s' stop dlclose-test > /dev/null", argv[2]);
	if (system(cmd))
		printf("# could not stop the session dlclose-test\n");
	return tap_done();
}
