/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RFC 2047 encoded words ("=?UTF-8?q?Rafa=C5=82?=") in one mail header
 * line, decoded the way checkpatch.pl's decode("MIME-Header", $line) does
 * it with Perl's Encode::MIME::Header (non-strict mode):
 *
 *  - adjacent encoded words with the same charset, language and encoding
 *    (exact text) are joined before decoding, so a character split across
 *    two words survives;
 *  - the whitespace between encoded words is dropped, other text is kept
 *    as it is, less its CR and LF bytes (unless a CR ends a folded unit);
 *  - B and Q encodings; charsets UTF-8 (strict: a malformed sequence is
 *    one U+FFFD, as Encode counts them), ISO-8859-1, US-ASCII and
 *    windows-1252 with Perl's aliases (utf8, latin1, cp1252, ...);
 *  - a word in another charset is kept undecoded, after a space when the
 *    text before it does not end in one.  (Perl knows more charsets, e.g.
 *    ISO-8859-2 or KOI8-R; those words stay encoded here.)
 *
 * Perl's result is a string of characters in which every byte outside the
 * encoded words is one character (U+0000-U+00FF).  The caller picks how
 * the characters come out as bytes.
 */
#ifndef RB_RFC2047_H
#define RB_RFC2047_H

#include <stddef.h>

#include "sbuf.h"

enum rfc2047_form {
	/* every character as UTF-8: Perl's encode("utf8", $decoded) */
	RFC2047_UTF8,
	/* as Perl prints the string: one byte per character when all are
	 * below U+0100, else everything as UTF-8 (Perl's "Wide character") */
	RFC2047_PRINT,
};

/*
 * Appends the decoded s[0, n) to out in the given form.  Returns 1 when
 * the bytes written are UTF-8 (RFC2047_UTF8, or a wide character seen in
 * RFC2047_PRINT form), 0 when one byte per character, -1 when out's cap
 * was reached or memory ran out.  Linear in n.
 */
int rfc2047_decode(const char *s, size_t n, enum rfc2047_form form,
		   struct sbuf *out);

/* Appends s[0, n) read as ISO-8859-1 to out as UTF-8. */
int rfc2047_latin1_to_utf8(const char *s, size_t n, struct sbuf *out);

#endif
