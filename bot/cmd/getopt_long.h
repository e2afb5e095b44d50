/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Option parsing the way Perl's Getopt::Long (checkpatch.pl's parser) does
 * it: "-name" and "--name", "--name=value" and "--name value", unique
 * abbreviations, "--no-name" / "--noname" for negatable flags, counted
 * flags.  Non-option arguments are collected in order; "--" ends options.
 */
#ifndef RB_GETOPT_LONG_H
#define RB_GETOPT_LONG_H

enum gl_kind {
	GL_FLAG,	/* name!  : 1, or 0 with no- */
	GL_COUNT,	/* name+  : incremented */
	GL_STRING,	/* name=s : *str */
	GL_INT,		/* name=i : *num */
	GL_LIST,	/* name=s : appended to a comma list */
	GL_SET,		/* name   : set to 1, not negatable */
};

struct gl_opt {
	const char *names;	/* "q|quiet": the first is the canonical one */
	enum gl_kind kind;
	int *num;
	char **str;		/* GL_STRING: owned by caller after parse */
	struct gl_list *list;
};

struct gl_list {
	char **v;
	int n, alloc;
};

/*
 * Parses argv[0..argc) (no program name).  Fills args/nargs with the
 * operands (pointers into argv).  Returns 0, or -1 with a message in err.
 */
int gl_parse(const struct gl_opt *opts, int argc, char **argv,
	     char **args, int *nargs, char *err, unsigned errsz);
void gl_list_free(struct gl_list *l);

#endif
