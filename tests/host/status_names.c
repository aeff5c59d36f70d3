// SPDX-License-Identifier: GPL-2.0
/* Print every NTSTATUS the library names, as "NAME 0xVALUE", one a line. */
#include <stdint.h>
#include <stdio.h>

#include <nttrace/nt.h>

int main(void)
{
	const char *name;
	NTSTATUS s;
	unsigned int i;

	for (i = 0; nttrace_status_at(i, &s, &name); i++)
		printf("%s 0x%08X\n", name, (uint32_t)s);
	return 0;
}
