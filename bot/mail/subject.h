/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * subject: what a patch mail's Subject says about its place in a series.
 *
 *   "[PATCH] foo: bar"                   patch 1/1, version 1
 *   "[PATCH v3 2/7] foo: bar"            part 2 of 7, version 3
 *   "[RFC PATCH net-next v2 0/5] foo"    cover letter, version 2, RFC,
 *                                        prefix "RFC net-next"
 *   "[PATCH 1/1] foo"                    part 1 of 1
 *   "[PATCH v5.1 3/7] foo"               replacement part: version 5 minor 1
 *   "[PATCH V2] foo", "[PATCHv2 1/3]", "[PATCH -next v2]", "[PATCH RESEND v2]",
 *   "[net-next PATCH v2 03/10]", "[PATCH 2/7 v3]", "[PATCH v2 net] ..."
 *   "[PATCH 1 of 2] foo"                 part 1 of 2 (Mercurial)
 *   "[net,v2,1/2] foo", "[PATCH1/8] foo" part numbers without a PATCH word,
 *                                        glued to it (Patchwork's mbox)
 *   "Re: [PATCH ...]", "AW: ...", "Fwd: ..."  a reply, not a patch
 *
 * Several bracket groups are read in order ("[PATCH] [net] foo").  A
 * subject without a bracket group that names PATCH (or RFC) or numbers
 * a part is SUBJ_OTHER (the pipeline still takes a mail that carries a
 * diff for a patch).  normalised is the subject after every leading tag group and
 * reply prefix, with runs of white space collapsed: the key that links
 * versions of one series.
 */
#ifndef RB_SUBJECT_H
#define RB_SUBJECT_H

#include <stddef.h>

#define SUBJECT_MAX		4096	/* bytes of subject looked at */
#define SUBJECT_MAX_PARTS	9999	/* default: a larger M or N is not a series */
#define SUBJECT_CEIL_PARTS	99999	/* the most subject_parse_max() allows */
#define SUBJECT_MAX_VERSION	999

enum subject_kind {
	SUBJ_OTHER = 0,		/* not a patch (no PATCH/RFC tag) */
	SUBJ_PATCH,		/* a patch: part >= 1 */
	SUBJ_COVER,		/* a cover letter: part 0 */
	SUBJ_REPLY,		/* "Re:" & co. before the tags */
};

struct subject {
	enum subject_kind kind;
	int version;		/* 1 when not tagged */
	int version_minor;	/* 1 for "v5.1", 2 for "v5.2", else 0 */
	int part;		/* M, 1 when no M/N */
	int total;		/* N, 1 when no M/N */
	int has_numbers;	/* an M/N was given (even "1/1") */
	int has_version;	/* a vN was given (even "v1") */
	int rfc;		/* tagged RFC */
	int resend;		/* tagged RESEND */
	int bad_numbers;	/* M/N out of range (M > N, N > the maximum): kind is SUBJ_OTHER */
	char prefix[128];	/* the other tags, space-separated ("RFC net-next") */
	char normalised[SUBJECT_MAX + 1];
};

/* Parses s[0, len).  Never fails: anything unrecognised is SUBJ_OTHER. */
void subject_parse(const char *s, size_t len, struct subject *out);
/* The same with N of "M/N" at most max_parts (SUBJECT_MAX_PARTS for
 * subject_parse(); [limits] max_series_parts), itself at most
 * SUBJECT_CEIL_PARTS. */
void subject_parse_max(const char *s, size_t len, int max_parts, struct subject *out);
const char *subject_kind_name(enum subject_kind k);
/* A version as a subject says it, into buf[n]: "v3", or "v5.1" with a
 * minor. */
void subject_version_name(int version, int version_minor, char *buf, size_t n);
/* The same as a tag before "M/N" writes it: "" for a plain v1 (a tag
 * leaves it out), else "v3 " or "v5.1 " with the space. */
void subject_version_tag(int version, int version_minor, char *buf, size_t n);

#endif
