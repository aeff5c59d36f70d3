/* SPDX-License-Identifier: LGPL-2.1 */
/* <processenv.h> for Windows sources: part of <windows.h>, which has it all. */
#include "windows.h"
