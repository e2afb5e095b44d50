// SPDX-License-Identifier: GPL-2.0-only
/* The report formats: checkpatch.pl's text, and one JSON object per input. */
#include "checker.h"
#include "readiness.h"

#include <string.h>

#include "banned.h"

void chk_format_text(const struct chk_opts *o, const struct chk_result *res,
		     const char *filename, const char *vname, struct sbuf *out)
{
	size_t i;
	int quiet = o->quiet + (o->terse ? 1 : 0);

	if (res->empty || res->silent)
		return;
	for (i = 0; i < res->n; i++)
		sbuf_addstr(out, res->f[i].text);
	if (o->summary && !(res->clean && quiet == 1)) {
		if (o->summary_file)
			sbuf_addf(out, "%s ", filename);
		sbuf_addf(out, "total: %ld errors, %ld warnings, ", res->errors,
			  res->warnings);
		if (res->show_checks)
			sbuf_addf(out, "%ld checks, ", res->checks);
		sbuf_addf(out, "%ld lines checked\n", res->lines_checked);
	}
	if (quiet == 0) {
		if (!res->clean)
			sbuf_addstr(out, "\nNOTE: For some of the reported defects, checkpatch may be able to\n"
				    "      mechanically convert to the typical style using --fix or --fix-inplace.\n");
		if (res->rpt_cleaners)
			sbuf_addstr(out, "\nNOTE: Whitespace errors detected.\n"
				    "      You may wish to use scripts/cleanpatch or scripts/cleanfile\n");
		sbuf_addch(out, '\n');
		if (res->clean)
			sbuf_addf(out, "%s has no obvious style problems and is ready for submission.\n", vname);
		else
			sbuf_addf(out, "%s has style problems, please review.\n", vname);
	}
}

#define json_text sbuf_addjson
#define json_str sbuf_addjson

void chk_format_json(const struct chk_opts *o, const struct chk_result *res,
		     const char *filename, struct sbuf *out)
{
	size_t i;

	sbuf_addstr(out, "{\"input\":");
	json_text(out, filename);
	sbuf_addstr(out, ",\"findings\":[");
	for (i = 0; i < res->n; i++) {
		const struct chk_finding *f = &res->f[i];

		if (i)
			sbuf_addch(out, ',');
		sbuf_addstr(out, "{\"type\":");
		json_str(out, rule_table[f->rule].name);
		sbuf_addstr(out, ",\"severity\":");
		json_str(out, rule_sev_name(f->sev));
		sbuf_addstr(out, ",\"category\":");
		json_str(out, rule_cat_name(rule_table[f->rule].cat));
		sbuf_addstr(out, ",\"file\":");
		if (f->file)
			json_text(out, f->file);
		else
			sbuf_addstr(out, "null");
		if (f->line)
			sbuf_addf(out, ",\"line\":%ld", f->line);
		else
			sbuf_addstr(out, ",\"line\":null");
		if (f->patch_line)
			sbuf_addf(out, ",\"patch_line\":%ld", f->patch_line);
		else
			sbuf_addstr(out, ",\"patch_line\":null");
		sbuf_addstr(out, ",\"message\":");
		json_text(out, f->msg);
		sbuf_addch(out, '}');
	}
	sbuf_addf(out, "],\"errors\":%ld,\"warnings\":%ld,\"checks\":%ld,"
		  "\"lines_checked\":%ld,\"clean\":%s,\"is_patch\":%s",
		  res->errors, res->warnings, res->checks, res->lines_checked,
		  res->clean ? "true" : "false", res->is_patch ? "true" : "false");
	if (o->extra) {
		/* merge readiness: each criterion's state and the indexes
		 * (into "findings") of the findings behind a concern */
		struct chk_readiness r;
		int c;

		chk_readiness_init(&r);
		chk_readiness_patch(res, &r);
		sbuf_addstr(out, ",\"readiness\":{");
		for (c = 0; c < CHK_CRIT__COUNT; c++) {
			const struct chk_ready_crit *k = &r.crit[c];

			sbuf_addf(out, "%s\"%s\":{\"state\":\"%s\",\"findings\":[",
				  c ? "," : "", chk_criterion_name((enum chk_criterion)c),
				  chk_ready_name(k->state));
			for (i = 0; i < k->n; i++)
				sbuf_addf(out, "%s%zu", i ? "," : "", k->refs[i].finding);
			sbuf_addstr(out, "]}");
		}
		sbuf_addstr(out, "}");
		chk_readiness_release(&r);
	}
	if (res->error) {
		sbuf_addstr(out, ",\"error\":");
		json_text(out, res->error);
	}
	if (res->flags) {
		/* why the check is incomplete (enum chk_flag), by name */
		static const struct {
			unsigned flag;
			const char *name;
		} why[] = {
			{ CHK_LINE_SKIPPED, "line_skipped" },
			{ CHK_TIMED_OUT, "timed_out" },
			{ CHK_LIMIT, "limit" },
		};
		const char *sep = "";
		size_t k;

		sbuf_addstr(out, ",\"incomplete\":[");
		for (k = 0; k < sizeof(why) / sizeof(why[0]); k++)
			if (res->flags & why[k].flag) {
				sbuf_addf(out, "%s\"%s\"", sep, why[k].name);
				sep = ",";
			}
		sbuf_addch(out, ']');
		if (res->flags & CHK_LINE_SKIPPED)
			sbuf_addf(out, ",\"lines_skipped\":%ld,\"first_skipped\":%ld",
				  res->lines_skipped, res->first_skipped);
		if (res->flags & CHK_TIMED_OUT)
			sbuf_addf(out, ",\"stopped_at\":%ld", res->stopped_at);
	}
	sbuf_addstr(out, "}\n");
}
