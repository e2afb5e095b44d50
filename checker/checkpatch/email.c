// SPDX-License-Identifier: GPL-2.0-only
/* checkpatch.pl's parse_email(), format_email() and friends. */
#include "eng.h"

#include <string.h>

#include "../banned.h"

void parse_email(struct eng *e, const char *formatted, struct email_parts *p)
{
	char *name = "", *quoted = "", *name_comment = "", *address = "",
	     *comment = "";
	struct re_m m;

	if (M(e, "^(.*)<(\\S+\\@\\S+)>(.*)$", formatted)) {
		name = eng_cap(e, 1);
		address = eng_cap(e, 2);
		comment = eng_cap(e, 3);
	} else if (M(e, "^\\s*<(\\S+\\@\\S+)>(.*)$", formatted)) {
		address = eng_cap(e, 1);
		comment = eng_cap(e, 2);
	} else if (M(e, "(\\S+\\@\\S+)(.*)$", formatted)) {
		char *f;

		address = eng_cap(e, 1);
		comment = eng_cap(e, 2);
		f = eng_subst(e, eng_pat(e, "%s.*$", eng_quote(e, address)), "",
			      formatted, 0);
		name = trim(e, f);
		name = eng_subst(e, "^\\\"|\\\"$", "", name, 1);
		/* "joe smith joe@smith.com" and "joe smith <joe@smith.com"
		 * are invalid */
		if (name[0] && !MQ(e, "^<[^>]+>$", address)) {
			name = "";
			address = "";
			comment = "";
		}
	}

	/* Extract comments from names excluding quoted parts */
	if (re_match(e->rc, "\\\"(.+)\\\"", name, &m)) {
		quoted = eng_strndup(e, name + re_start(&m, 1),
				     re_end(&m, 1) - re_start(&m, 1));
		name = eng_subst(e, "\\\"(.+)\\\"", "", name, 0);
	}
	while (re_match(e->rc, "\\s*($balanced_parens)\\s*", name, &m)) {
		char *c = eng_strndup(e, name + re_start(&m, 1),
				      re_end(&m, 1) - re_start(&m, 1));
		char *nn = eng_alloc(e, strlen(name) + 2);

		name_comment = eng_cat(e, name_comment, trim(e, c));
		if (!nn)
			break;
		memcpy(nn, name, re_start(&m, 0));
		nn[re_start(&m, 0)] = ' ';
		memcpy(nn + re_start(&m, 0) + 1, name + re_end(&m, 0),
		       strlen(name + re_end(&m, 0)) + 1);
		name = nn;
	}
	name = eng_subst(e, "^[ \\\"]+|[ \\\"]+$", "", name, 1);
	name = trim(e, eng_printf(e, "%s %s", quoted, name));

	address = trim(e, address);
	address = eng_subst(e, "^\\<|\\>$", "", address, 1);
	comment = trim(e, comment);

	if (MQ(e, "(?i)[^\\w \\-]", name)) {	/* has "must quote" chars */
		name = eng_subst(e, "(?<!\\\\)\"", "\\\\\"", name, 1);
		name = eng_printf(e, "\"%s\"", name);
	}
	p->name = name;
	p->name_comment = name_comment;
	p->address = address;
	p->comment = comment;
}

char *format_email(struct eng *e, const struct email_parts *in)
{
	char *name = eng_subst(e, "^[ \\\"]+|[ \\\"]+$", "", in->name, 1);
	char *address = trim(e, in->address);
	char *name_comment, *comment, *r;

	address = eng_subst(e, "(?:\\.|\\,|\\\")+$", "", address, 0);
	if (MQ(e, "(?i)[^\\w \\-]", name)) {
		name = eng_subst(e, "(?<!\\\\)\"", "\\\\\"", name, 1);
		name = eng_printf(e, "\"%s\"", name);
	}
	name_comment = trim(e, in->name_comment);
	if (name_comment[0])
		name_comment = eng_printf(e, " %s", name_comment);
	comment = trim(e, in->comment);
	if (comment[0])
		comment = eng_printf(e, " %s", comment);
	if (!name[0])
		r = eng_strdup(e, address);
	else
		r = eng_printf(e, "%s%s <%s>", name, name_comment, address);
	return eng_cat(e, r, comment);
}

char *reformat_email(struct eng *e, const char *email)
{
	struct email_parts p;

	parse_email(e, email, &p);
	return format_email(e, &p);
}

int same_email_addresses(struct eng *e, const char *a, const char *b)
{
	struct email_parts p1, p2;

	parse_email(e, a, &p1);
	parse_email(e, b, &p2);
	return !strcmp(p1.name, p2.name) && !strcmp(p1.address, p2.address) &&
	       !strcmp(p1.name_comment, p2.name_comment) &&
	       !strcmp(p1.comment, p2.comment);
}
