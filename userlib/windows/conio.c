// SPDX-License-Identifier: LGPL-2.1
/*
 * The Windows layer's console keyboard (conio.h): one key, unechoed and
 * without Enter, from a terminal; one byte from anything else. What the
 * program printed before is flushed first, as Windows' console, which
 * does not buffer, has shown it.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <termios.h>
#include <unistd.h>

#include "win.h"

/* Stdin's terminal made non-canonical (and unechoed); 0 when it is none. */
static int raw_begin(struct termios *saved)
{
	struct termios raw;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, saved))
		return 0;
	raw = *saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	return !tcsetattr(STDIN_FILENO, TCSANOW, &raw);
}

static void raw_end(const struct termios *saved)
{
	tcsetattr(STDIN_FILENO, TCSANOW, saved);
}

static int read_key(int echo)
{
	struct termios saved;
	unsigned char c;
	int raw;
	ssize_t n;

	fflush(stdout);
	raw = raw_begin(&saved);
	do
		n = read(STDIN_FILENO, &c, 1);
	while (n < 0 && errno == EINTR);
	if (raw)
		raw_end(&saved);
	if (n != 1)
		return EOF;
	if (echo) {
		putchar(c);
		fflush(stdout);
	}
	return c;
}

int nttrace_win__getch(void)
{
	return read_key(0);
}

int nttrace_win__getche(void)
{
	return read_key(1);
}

int nttrace_win__kbhit(void)
{
	struct termios saved;
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	int raw, n;

	fflush(stdout);
	raw = raw_begin(&saved);
	n = poll(&p, 1, 0);
	if (raw)
		raw_end(&saved);
	return n > 0;
}
