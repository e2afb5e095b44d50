/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ctext: what the compiler makes of a C source's text, for the load
 * stage's check that a module pulls no host file in (boot.c).
 *
 * A text check on the source as written is beaten by what the compiler
 * does before the assembler sees an asm() statement: ".in" "cbin",
 * ".inc\x62in" and ".inc\<newline>bin" are all .incbin.  ctext_read()
 * runs translation phases 2 and 3 (C11 5.1.1.2: backslash-newline
 * splices removed, GCC's backslash-blank-newline too; each comment one
 * space) into code, and phases 5 and 6 (escapes decoded, adjacent string
 * literals joined, L/u/U/u8 prefixes and GNU C's raw R"d(...)d" ones
 * included) into lit, one line per run of adjacent literals.  It does not
 * preprocess: what a macro, # or ## builds no text check sees, and the
 * build's sandbox, which shows no host file, stays the wall.
 */
#ifndef RB_CTEXT_H
#define RB_CTEXT_H

#include <stddef.h>

struct ctext {
	char *code;		/* phases 2-3; literals as written; NUL-ended */
	size_t ncode;
	char *lit;		/* phases 5-6: the joined literals, '\n' between runs */
	size_t nlit;
};

/*
 * Reads len bytes of t (any bytes; an unterminated literal ends at its
 * line, an unterminated comment at the end).  Both buffers are malloc'd,
 * at most len + 1 bytes each.  0, or -1 when out of memory (c is then
 * empty).
 */
int ctext_read(struct ctext *c, const char *t, size_t len);

void ctext_release(struct ctext *c);

#endif
