/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Functions that are easy to misuse on untrusted input.  Including this
 * header last turns every use into a compile error, as git's banned.h does.
 * Use sbuf_* or snprintf/memcpy with explicit lengths instead.
 */
#ifndef RB_BANNED_H
#define RB_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef gets
#define gets(x) BANNED(gets)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef atol
#define atol(x) BANNED(atol)

#endif
