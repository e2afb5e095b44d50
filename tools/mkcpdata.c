// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkcpdata: a build tool.  Reads what checkpatch.pl of each version reads
 * from its tree (scripts/spelling.txt, scripts/const_structs.checkpatch,
 * extracted from Debian's linux-source-VERSION by
 * tests/compat/extract-checkpatch.sh) and writes them as the table
 * reviewbot_cp_data[] (checker.h: struct chk_cp_data): the misspelling
 * list as a ready spelling image, the const structs joined by '|'.  The
 * kernel's files are never committed; the build makes this from them.
 *
 * Usage: mkcpdata OUT.c OUT.bin VERSION=DIR...
 * DIR holds scripts/; every version of enum cp_version must be given.
 * OUT.c includes OUT.bin (the images, each 16-byte aligned) with .incbin.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../checker/checker.h"
#include "../checker/spelling.h"
#include "../bot/fileio.h"
#include "../checker/banned.h"

#define MKCP_MAX_FILE	(16u << 20)

struct one {
	const char *dir;
	size_t off, len, entries;
	char *structs;		/* '|'-joined */
};

static void c_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 32 || c >= 127 || c == '?')
			fprintf(f, "\\%03o", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/*
 * checkpatch.pl's read_words(): one word a line, surrounding white space
 * trimmed, blank lines and '#' comments skipped, a line holding white
 * space ignored (checkpatch.pl says so; this says it at build time).
 */
static char *read_words(const char *path)
{
	struct sbuf in, out;
	char *p, *line;

	sbuf_init(&in, MKCP_MAX_FILE);
	sbuf_init(&out, MKCP_MAX_FILE);
	if (fileio_read(path, &in)) {
		fprintf(stderr, "mkcpdata: %s: %s\n", path, strerror(errno));
		sbuf_release(&in);
		return NULL;
	}
	for (line = in.buf; line && *line; line = p) {
		char *s = line, *e;

		p = strchr(line, '\n');
		if (p)
			*p++ = '\0';
		while (*s && strchr(" \t\r\f\v", *s))
			s++;
		e = s + strlen(s);
		while (e > s && strchr(" \t\r\f\v", e[-1]))
			*--e = '\0';
		if (!*s || *s == '#')
			continue;
		if (strpbrk(s, " \t\r\f\v")) {
			fprintf(stderr, "mkcpdata: %s: '%s' invalid - ignored\n", path, s);
			continue;
		}
		if (out.len)
			sbuf_addch(&out, '|');
		sbuf_addstr(&out, s);
	}
	sbuf_release(&in);
	if (out.err) {
		sbuf_release(&out);
		return NULL;
	}
	return sbuf_detach(&out, NULL);
}

/* One version's files: the image appended to bin (at *off), the words. */
static int read_version(struct one *o, FILE *bin, size_t *off)
{
	char path[4096];
	struct sbuf in, img;
	struct chk_spelling *sp;
	static const char zero[16];
	int n;

	n = snprintf(path, sizeof(path), "%s/scripts/spelling.txt", o->dir);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -1;
	sbuf_init(&in, CHK_SPELLING_MAX_INPUT);
	if (fileio_read(path, &in)) {
		fprintf(stderr, "mkcpdata: %s: %s\n", path, strerror(errno));
		sbuf_release(&in);
		return -1;
	}
	sp = chk_spelling_new(in.buf, in.len);
	sbuf_release(&in);
	if (!sp || !chk_spelling_count(sp)) {
		fprintf(stderr, "mkcpdata: %s: no misspellings read\n", path);
		chk_spelling_free(sp);
		return -1;
	}
	o->entries = chk_spelling_count(sp);
	sbuf_init(&img, 64u << 20);
	if (chk_spelling_image(sp, &img)) {
		fprintf(stderr, "mkcpdata: %s: no image\n", path);
		chk_spelling_free(sp);
		sbuf_release(&img);
		return -1;
	}
	chk_spelling_free(sp);
	o->off = *off;
	o->len = img.len;
	if (fwrite(img.buf, 1, img.len, bin) != img.len ||
	    fwrite(zero, 1, (16 - img.len % 16) % 16, bin) != (16 - img.len % 16) % 16) {
		sbuf_release(&img);
		return -1;
	}
	*off += img.len + (16 - img.len % 16) % 16;
	sbuf_release(&img);

	n = snprintf(path, sizeof(path), "%s/scripts/const_structs.checkpatch", o->dir);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -1;
	o->structs = read_words(path);
	return o->structs ? 0 : -1;
}

static size_t count_words(const char *joined)
{
	size_t n = *joined ? 1 : 0;

	for (; *joined; joined++)
		n += *joined == '|';
	return n;
}

int main(int argc, char **argv)
{
	struct one vers[CP__COUNT];
	FILE *out, *bin;
	char *abs;
	size_t off = 0;
	int i;

	memset(vers, 0, sizeof(vers));
	if (argc < 3) {
		fprintf(stderr, "usage: mkcpdata OUT.c OUT.bin VERSION=DIR...\n");
		return 2;
	}
	for (i = 3; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		int v = eq ? cp_version_find(argv[i], (size_t)(eq - argv[i])) : -1;

		if (v < 0) {
			fprintf(stderr, "mkcpdata: %s: not VERSION=DIR of a known version\n",
				argv[i]);
			return 2;
		}
		vers[v].dir = eq + 1;
	}
	for (i = 0; i < CP__COUNT; i++) {
		if (!vers[i].dir) {
			fprintf(stderr, "mkcpdata: no folder for checkpatch.pl %s\n",
				cp_version_name((enum cp_version)i));
			return 2;
		}
	}
	bin = fopen(argv[2], "wb");
	if (!bin) {
		fprintf(stderr, "mkcpdata: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (i = 0; i < CP__COUNT; i++)
		if (read_version(&vers[i], bin, &off))
			return 1;
	if (fclose(bin))
		return 1;
	/* .incbin resolves paths from the assembler's folder: be absolute */
	abs = realpath(argv[2], NULL);
	if (!abs) {
		fprintf(stderr, "mkcpdata: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	out = fopen(argv[1], "w");
	if (!out) {
		fprintf(stderr, "mkcpdata: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	fprintf(out, "/* Generated by tools/mkcpdata from the kernel's scripts/: do not edit. */\n"
		"#include \"checker/checker.h\"\n\n"
		"__asm__(\".section .rodata\\n\"\n"
		"\t\".balign 16\\n\"\n"
		"\t\"reviewbot_cp_blob:\\n\"\n"
		"\t\".incbin \\\"%s\\\"\\n\"\n"
		"\t\".previous\\n\");\n"
		"extern const unsigned char reviewbot_cp_blob[];\n\n"
		"const struct chk_cp_data reviewbot_cp_data[CP__COUNT] = {\n", abs);
	for (i = 0; i < CP__COUNT; i++) {
		fprintf(out, "\t[%d] = { /* checkpatch.pl %s */\n"
			"\t\treviewbot_cp_blob + %zu, %zu, %zu,\n\t\t",
			i, cp_version_name((enum cp_version)i), vers[i].off, vers[i].len,
			vers[i].entries);
		c_string(out, vers[i].structs);
		fputs(",\n\t},\n", out);
		fprintf(stderr, "mkcpdata: checkpatch.pl %s: %zu misspellings (%zu bytes), %zu const structs\n",
			cp_version_name((enum cp_version)i), vers[i].entries, vers[i].len,
			count_words(vers[i].structs));
		free(vers[i].structs);
	}
	fputs("};\n", out);
	free(abs);
	return fclose(out) ? 1 : 0;
}
