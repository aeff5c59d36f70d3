// SPDX-License-Identifier: LGPL-2.1
/*
 * The entry of a Windows program that has wmain (or _tmain with _UNICODE)
 * and no main: libnttrace-wmain.a, which nttrace-windows.pc links before
 * libnttrace. A static archive's member is linked only for a symbol still
 * undefined, so a program with its own main never gets this one. It
 * passes wmain its arguments as UTF-16 (from the UTF-8 Linux gives; an
 * invalid byte becomes U+FFFD), in memory that lasts the program's life.
 */
#include <stdio.h>
#include <stdlib.h>

#include "win.h"

/*
 * The program's, with its 16-bit wchar_t: the same ABI as WCHAR here. C's
 * (and C++'s usual form, which <windows.h> declares extern "C") is
 * "wmain"; C++'s others have their mangled names, looked for as weak
 * symbols: wmain(void) and wmain(int, wchar_t **, wchar_t **). A wmain
 * returning void returns no status: the program's is then undefined.
 */
extern int wmain(int argc, WCHAR **argv) __attribute__((weak));
extern int wmain_cxx_void(void) __asm__("_Z5wmainv") __attribute__((weak));
extern int wmain_cxx_envp(int argc, WCHAR **argv, WCHAR **envp)
	__asm__("_Z5wmainiPPwS0_") __attribute__((weak));

int main(int argc, char **argv)
{
	WCHAR **wargv = calloc((size_t)argc + 1, sizeof(*wargv));
	int i;

	if (!wargv)
		goto nomem;
	/*
	 * With what libnttrace exports: this archive is linked into the
	 * program, beside the shared library, whose internals it cannot see.
	 */
	for (i = 0; i < argc; i++) {
		int units = nttrace_win_MultiByteToWideChar(CP_UTF8, 0, argv[i], -1, NULL, 0);

		wargv[i] = units > 0 ? calloc((size_t)units, sizeof(WCHAR)) : NULL;
		if (!wargv[i])
			goto nomem;
		nttrace_win_MultiByteToWideChar(CP_UTF8, 0, argv[i], -1, wargv[i], units);
	}
	if (wmain)
		return wmain(argc, wargv);
	if (wmain_cxx_envp)
		return wmain_cxx_envp(argc, wargv, NULL);
	if (wmain_cxx_void)
		return wmain_cxx_void();
	fputs("the program has neither main nor wmain\n", stderr);
	return 1;
nomem:
	fputs("out of memory for the program's arguments\n", stderr);
	return 1;
}
