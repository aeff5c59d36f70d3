/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libstdc++'s configuration, as it is, but for its compiled wide-character
 * parts. Under nttrace-windows.pc's -fshort-wchar a program's wchar_t has
 * 16 bits and the wide streams, facets and instantiations inside
 * libstdc++.so have 32: their code would misread the program's strings.
 * Without _GLIBCXX_USE_WCHAR_T, std::wstring is instantiated in the
 * program itself, over the 16-bit functions <wchar.h> binds here, and what
 * only libstdc++.so has (std::wcout, std::wstringstream, std::to_wstring)
 * is not declared: a compile error rather than a wrong program.
 */
#include_next <bits/c++config.h>

#if defined(__SIZEOF_WCHAR_T__) && __SIZEOF_WCHAR_T__ == 2
#undef _GLIBCXX_USE_WCHAR_T
#endif
