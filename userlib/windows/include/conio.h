/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * <conio.h> for Windows sources (nttrace-windows.pc): the console keyboard
 * functions ETW samples wait with ("press any key"). On a terminal
 * _getch reads one key without echo or waiting for Enter (the terminal
 * is put in non-canonical mode for the read and restored); from
 * anything else it reads one byte. At the end of the input, or on an
 * error, it returns EOF (-1): Windows' would wait. _kbhit says whether a
 * key is waiting, without reading it.
 */
#ifndef NTTRACE_WINDOWS_CONIO_H
#define NTTRACE_WINDOWS_CONIO_H

#include "nttrace_win.h"

NTTRACE_WIN_BEGIN
int _getch(void) NTTRACE_WIN(_getch);
int _getche(void) NTTRACE_WIN(_getche);
int _kbhit(void) NTTRACE_WIN(_kbhit);
NTTRACE_WIN_END

#endif /* NTTRACE_WINDOWS_CONIO_H */
