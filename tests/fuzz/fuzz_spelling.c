// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the misspelling list and its image (checker/
 * spelling.h), which `reviewbot check` maps from a cache file.
 *
 * First byte even: the rest is a list (spelling.txt or codespell
 * lines); it is built, imaged and loaded back, and the loaded list must
 * answer a search of the input itself exactly as the built one does.
 * First byte odd: the rest damages the image of a fixed list (each
 * 3 bytes: a 16-bit offset and a byte to xor there; a final odd byte or
 * two cut the image short); loading it must give NULL or a list whose
 * searches stay in bounds (ASan) and end.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/sbuf.h"
#include "../../checker/spelling.h"

#include "../../checker/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fixed_list[] =
	"abandonned||abandoned\nabord||aboard\nacess||access\n"
	"recieve->receive\noccured->occurred\nteh->the\nTeh->The\n"
	"seperate->separate, separated\ncalender->calendar\n"
	"alot->a lot, allot, disabled\nwich->which, witch\n";

static const char probe[] =
	"We recieve teh data, seperate it; Teh alot wich occured. abord!";

/* Every match of s[0, n) in a and b the same; 0 when so. */
static int same_answers(const struct chk_spelling *a, const struct chk_spelling *b,
			const char *s, size_t n)
{
	size_t pa = 0, pb = 0, sa, la, sb, lb;
	int ra, rb, k;

	for (k = 0; k < 4096; k++) {
		ra = chk_spelling_next(a, s, n, &pa, &sa, &la);
		rb = chk_spelling_next(b, s, n, &pb, &sb, &lb);
		if (ra != rb)
			return -1;
		if (!ra)
			return 0;
		if (sa != sb || la != lb || pa != pb)
			return -1;
		{
			const char *fa = chk_spelling_fix(a, s + sa, la);
			const char *fb = chk_spelling_fix(b, s + sb, lb);

			if ((!fa) != (!fb) || (fa && strcmp(fa, fb)))
				return -1;
		}
	}
	return 0;
}

/* Searches s with sp until the end: bounded, in bounds. */
static void search_all(const struct chk_spelling *sp, const char *s, size_t n)
{
	size_t pos = 0, st, len, k;

	for (k = 0; k < 4096 && chk_spelling_next(sp, s, n, &pos, &st, &len); k++) {
		if (st + len > n || pos > n)
			__builtin_trap();
		(void)chk_spelling_fix(sp, s + st, len);
	}
}

static void roundtrip(const char *text, size_t n)
{
	struct chk_spelling *sp = chk_spelling_new(text, n), *back;
	struct sbuf img;
	void *copy;

	if (!sp)
		return;
	sbuf_init(&img, CHK_SPELLING_MAX_INPUT * 4u);
	if (chk_spelling_image(sp, &img) || img.err) {
		sbuf_release(&img);
		chk_spelling_free(sp);
		return;
	}
	copy = malloc(img.len ? img.len : 1);
	if (!copy)
		__builtin_trap();
	memcpy(copy, img.buf, img.len);
	back = chk_spelling_from_image(copy, img.len);
	if (!back || chk_spelling_count(back) != chk_spelling_count(sp) ||
	    same_answers(sp, back, text, n) || same_answers(sp, back, probe, sizeof(probe) - 1))
		__builtin_trap();
	chk_spelling_free(back);
	free(copy);
	sbuf_release(&img);
	chk_spelling_free(sp);
}

static void damage(const uint8_t *d, size_t n)
{
	static struct sbuf img;
	static int ready;
	struct chk_spelling *sp;
	unsigned char *copy;
	size_t len, i;

	if (!ready) {
		struct chk_spelling *base = chk_spelling_new(fixed_list, sizeof(fixed_list) - 1);

		sbuf_init(&img, 1u << 20);
		if (!base || chk_spelling_image(base, &img) || img.err)
			__builtin_trap();
		chk_spelling_free(base);
		ready = 1;
	}
	len = img.len;
	copy = malloc(len ? len : 1);
	if (!copy)
		__builtin_trap();
	memcpy(copy, img.buf, len);
	for (i = 0; i + 3 <= n; i += 3) {
		size_t off = ((size_t)d[i] << 8 | d[i + 1]) % (len ? len : 1);

		copy[off] ^= d[i + 2];
	}
	if (n % 3)	/* cut short */
		len = len ? ((size_t)d[n - 1] * 131u) % len : 0;
	sp = chk_spelling_from_image(copy, len);
	if (sp) {
		search_all(sp, probe, sizeof(probe) - 1);
		search_all(sp, (const char *)d, n);
		chk_spelling_free(sp);
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		damage(data + 1, size - 1);
	else
		roundtrip((const char *)data + 1, size - 1);
	return 0;
}
