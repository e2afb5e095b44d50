// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkpatterns: a build tool.  Runs the checker over sample patches (every
 * checkpatch.pl version and every mode that changes which rules run),
 * then writes every pattern it compiled, serialized by pcre2, so reviewbot
 * can decode them at start-up instead of compiling them: compiling
 * checkpatch.pl's patterns (some interpolate the whole type vocabulary)
 * costs more than checking a typical patch.
 *
 * Usage: mkpatterns OUT.c OUT.bin PATCH...
 * OUT.c holds the sorted table and includes OUT.bin with .incbin: the
 * serializations' common prefix (pcre2's header and tables) once, then
 * each pattern's code.  A pattern is there once, or once per version
 * when it interpolates a name whose definition changed (re.h).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../checker/checker.h"
#include "../checker/checkpatch/re.h"
#include "../checker/checkpatch/re_lits.h"
#include "../bot/fileio.h"
#include "../checker/banned.h"

struct pat {
	char *text;
	int dyn;
	unsigned cpv;		/* the versions it is for, 0: every one */
	size_t off, len;
	int nlit;
	char lit[2][RE_LIT_MAX];
	unsigned char litn[2];
	unsigned char icase;
	int endk;
	uint8_t ends[2][32];
};

struct pats {
	struct pat *v;
	size_t n, alloc;
	FILE *bin;
	size_t off;
	/* what every serialization starts with: pcre2's header and tables */
	unsigned char *prefix;
	size_t plen;
};

/* Writes len bytes and pads the blob to 8 bytes. */
static int put(struct pats *p, const unsigned char *bytes, size_t len)
{
	if (fwrite(bytes, 1, len, p->bin) != len)
		return -1;
	while ((p->off + len) % 8) {
		fputc(0, p->bin);
		len++;
	}
	p->off += len;
	return 0;
}

/*
 * pcre2 serializes one code as a header, its character tables and the
 * code: the header and tables are the same for every pattern compiled
 * with the default tables, so the blob holds them once (the prefix,
 * first) and each pattern's code alone.  The prefix is what a one-code
 * serialization holds before its code block (PCRE2_INFO_SIZE bytes).
 */
static int find_prefix(struct pats *p)
{
	const pcre2_code *codes[1];
	pcre2_code *code;
	uint8_t *bytes;
	PCRE2_SIZE size, csize = 0;
	int errcode;
	PCRE2_SIZE erroff;

	code = pcre2_compile((PCRE2_SPTR)"x", 1, 0, &errcode, &erroff, NULL);
	if (!code)
		return -1;
	codes[0] = code;
	if (pcre2_serialize_encode(codes, 1, &bytes, &size, NULL) != 1 ||
	    pcre2_pattern_info(code, PCRE2_INFO_SIZE, &csize) || csize >= size) {
		pcre2_code_free(code);
		return -1;
	}
	p->plen = size - csize;
	p->prefix = malloc(p->plen);
	if (p->prefix)
		memcpy(p->prefix, bytes, p->plen);
	pcre2_serialize_free(bytes);
	pcre2_code_free(code);
	if (!p->prefix)
		return -1;
	return put(p, p->prefix, p->plen);
}

static int add(void *arg, const char *text, int dyn, unsigned cpv,
	       const unsigned char *bytes, size_t len)
{
	struct pats *p = arg;
	size_t k;

	/* a pattern another version's run exported already: the same code
	 * unless it depends on the version (then once per version) */
	for (k = 0; k < p->n; k++)
		if (p->v[k].cpv == cpv && !strcmp(p->v[k].text, text))
			return 0;
	if (p->n == p->alloc) {
		size_t na = p->alloc ? p->alloc * 2 : 256;
		struct pat *nv = realloc(p->v, na * sizeof(*nv));

		if (!nv)
			return -1;
		p->v = nv;
		p->alloc = na;
	}
	p->v[p->n].text = strdup(text);
	if (!p->v[p->n].text)
		return -1;
	if (len <= p->plen || memcmp(bytes, p->prefix, p->plen)) {
		fprintf(stderr, "mkpatterns: %s: serialized with other tables\n",
			text);
		return -1;
	}
	p->v[p->n].dyn = dyn;
	p->v[p->n].cpv = cpv;
	/* the literal pretest, as re.c would scan it without typedefs */
	memset(p->v[p->n].lit, 0, sizeof(p->v[p->n].lit));
	memset(p->v[p->n].litn, 0, sizeof(p->v[p->n].litn));
	p->v[p->n].nlit = re_lits_scan(text, 0, p->v[p->n].lit, p->v[p->n].litn,
					  &p->v[p->n].icase);
	p->v[p->n].endk = re_end_scan(text, p->v[p->n].ends[0], p->v[p->n].ends[1]);
	p->v[p->n].len = len - p->plen;
	p->v[p->n].off = p->off;
	if (put(p, bytes + p->plen, len - p->plen))
		return -1;
	p->n++;
	return 0;
}

static int cmp(const void *a, const void *b)
{
	const struct pat *x = a, *y = b;
	int c = strcmp(x->text, y->text);

	return c ? c : (x->cpv > y->cpv) - (x->cpv < y->cpv);
}

static void c_bytes(FILE *f, const char *s, size_t n)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 32 || c >= 127 || c == '?')
			fprintf(f, "\\%03o", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void c_string(FILE *f, const char *s)
{
	c_bytes(f, s, strlen(s));
}

/*
 * The patches through a checker of version v, in every mode that changes
 * which rules run (default, --strict, -f), then its patterns into p.
 */
static int run_version(struct pats *p, enum cp_version v, int npatch,
		       char **patches)
{
	struct chk_opts o;
	struct chk_checker *c;
	int i, mode;

	chk_opts_init(&o);
	o.cp_version = v;
	c = chk_new(&o);
	if (!c)
		return -1;
	for (mode = 0; mode < 3; mode++) {
		o.strict = mode == 1;
		o.file = mode == 2;
		for (i = 0; i < npatch; i++) {
			struct sbuf in;
			struct chk_result res;

			sbuf_init(&in, CHK_MAX_INPUT);
			if (fileio_read(patches[i], &in)) {
				fprintf(stderr, "mkpatterns: %s: %s\n", patches[i],
					strerror(errno));
				chk_free(c);
				return -1;
			}
			chk_check(c, patches[i], in.buf, in.len, &res);
			sbuf_release(&in);
			if (res.error) {
				/* a pattern that does not compile: not a build */
				fprintf(stderr, "mkpatterns: %s (checkpatch.pl %s): %s\n",
					patches[i], cp_version_name(v), res.error);
				chk_result_release(&res);
				chk_free(c);
				return -1;
			}
			chk_result_release(&res);
		}
	}
	if (chk_export_patterns(c, add, p) < 0) {
		fprintf(stderr, "mkpatterns: export failed\n");
		chk_free(c);
		return -1;
	}
	chk_free(c);
	return 0;
}

int main(int argc, char **argv)
{
	struct pats p = { 0 };
	FILE *out;
	char ver[64];
	int v;
	size_t k;

	if (argc < 3) {
		fprintf(stderr, "usage: mkpatterns OUT.c OUT.bin PATCH...\n");
		return 2;
	}
	p.bin = fopen(argv[2], "wb");
	if (!p.bin) {
		fprintf(stderr, "mkpatterns: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	if (find_prefix(&p)) {
		fprintf(stderr, "mkpatterns: export failed\n");
		return 1;
	}
	/* each checkpatch.pl version: some rules and names differ */
	for (v = 0; v < CP__COUNT; v++)
		if (run_version(&p, (enum cp_version)v, argc - 3, argv + 3))
			return 1;
	if (fclose(p.bin)) {
		fprintf(stderr, "mkpatterns: export failed\n");
		return 1;
	}
	qsort(p.v, p.n, sizeof(*p.v), cmp);
	out = fopen(argv[1], "w");
	if (!out) {
		fprintf(stderr, "mkpatterns: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	pcre2_config(PCRE2_CONFIG_VERSION, ver);
	{
		/* .incbin resolves paths from the assembler's folder: be absolute */
		char *abs = realpath(argv[2], NULL);

		if (!abs) {
			fprintf(stderr, "mkpatterns: %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		argv[2] = abs;
	}
	fprintf(out, "/* Generated by tools/mkpatterns: do not edit. */\n"
		"#include \"checker/checkpatch/re.h\"\n\n"
		"__asm__(\".section .rodata\\n\"\n"
		"\t\".balign 16\\n\"\n"
		"\t\"reviewbot_pattern_blob:\\n\"\n"
		"\t\".incbin \\\"%s\\\"\\n\"\n"
		"\t\".previous\\n\");\n"
		"extern const unsigned char reviewbot_pattern_blob[];\n\n"
		"static const struct re_precompiled table[%zu] = {\n",
		argv[2], p.n ? p.n : 1);
	for (k = 0; k < p.n; k++) {
		fputs("\t{ ", out);
		c_string(out, p.v[k].text);
		fprintf(out, ", reviewbot_pattern_blob + %zu, %zu, %d, %u, %d, { %u, %u }, %u, ",
			p.v[k].off, p.v[k].len, p.v[k].dyn, p.v[k].cpv, p.v[k].nlit,
			p.v[k].litn[0], p.v[k].litn[1], p.v[k].icase);
		{
			char both[2 * RE_LIT_MAX];

			memcpy(both, p.v[k].lit[0], p.v[k].litn[0]);
			memcpy(both + p.v[k].litn[0], p.v[k].lit[1], p.v[k].litn[1]);
			c_bytes(out, both, (size_t)p.v[k].litn[0] + p.v[k].litn[1]);
		}
		fputs(", ", out);
		if (p.v[k].endk) {
			fputs("(const unsigned char *)", out);
			c_bytes(out, (const char *)p.v[k].ends, sizeof(p.v[k].ends));
		} else {
			fputs("NULL", out);
		}
		fprintf(out, ", %d },\n", p.v[k].endk == 2);
	}
	fprintf(out, "};\n\nconst struct re_precompiled_set reviewbot_patterns = {\n"
		"\ttable, %zu, \"%s\", reviewbot_pattern_blob, %zu,\n};\n",
		p.n, ver, p.plen);
	if (fclose(out))
		return 1;
	fprintf(stderr, "mkpatterns: %zu patterns, %zu bytes\n", p.n, p.off);
	for (k = 0; k < p.n; k++)
		free(p.v[k].text);
	free(p.v);
	free(p.prefix);
	free(argv[2]);
	return 0;
}
