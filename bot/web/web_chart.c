// SPDX-License-Identifier: GPL-2.0-only
/*
 * web_chart: findings per week by category as an inline SVG made by the
 * server: stacked bars, one a week, the last WEB_CHART_WEEKS weeks up to
 * the latest with a finding.  No script, no external file; each bar part
 * has a <title> (a tooltip, and what a screen reader says).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "web.h"
#include "../../store/store_web.h"
#include "../../checker/banned.h"

#define WEEK		(7 * 86400)
#define CHART_W		640
#define CHART_H		180
#define CHART_LEFT	34
#define CHART_BOTTOM	20

/* the colours of the categories, in store_categories[] order (the
 * page's style sheet has them as .c0 .. .c4) */
static const char *const cat_colour[STORE_NCATEGORIES] = {
	"#c0392b", "#8e44ad", "#d35400", "#2471a3", "#7f8c8d",
};

struct weeks {
	int64_t last;			/* the latest week with a finding */
	long long n[WEB_CHART_WEEKS][STORE_NCATEGORIES];
	int any;
};

/* the weeks come oldest first: keep a window that ends at the latest */
static int add_week(void *arg, int64_t week, const char *cat, long long n)
{
	struct weeks *w = arg;
	int c = store_category_index(cat);
	int64_t shift;
	int i, k;

	if (c < 0 || n <= 0)
		return 0;
	if (!w->any) {
		w->any = 1;
		w->last = week;
	}
	if (week > w->last) {
		shift = (week - w->last) / WEEK;
		for (i = 0; i < WEB_CHART_WEEKS; i++)
			for (k = 0; k < STORE_NCATEGORIES; k++)
				w->n[i][k] = i + shift < WEB_CHART_WEEKS ?
					w->n[i + shift][k] : 0;
		w->last = week;
	}
	i = WEB_CHART_WEEKS - 1 - (int)((w->last - week) / WEEK);
	if (i >= 0)
		w->n[i][c] += n;
	return 0;
}

static void day(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%d", &tm))
		snprintf(buf, n, "?");
}

/*
 * The weeks to chart, read from the recent weeks only: the statement then
 * walks the messages of those weeks (index messages_date) instead of
 * every finding of the decade (on 200,000 patches and 2.7 million
 * findings, 0.2 s instead of 6 s).  The window is the same as reading
 * everything: when the latest week with a finding is older than the
 * first read, its weeks are read again from there; when the recent weeks
 * have none, everything is.  A caller's own since is kept as it is.
 */
static int chart_weeks(struct store *st, const struct store_query *q, struct weeks *w)
{
	struct store_query r = *q;
	int64_t from;
	int ret;

	if (q->since)
		return store_web_weekly(st, q, add_week, w);
	r.since = (int64_t)time(NULL) - (int64_t)WEB_CHART_WEEKS * WEEK;
	ret = store_web_weekly(st, &r, add_week, w);
	if (ret < 0)
		return ret;
	from = w->any ? w->last - (int64_t)(WEB_CHART_WEEKS - 1) * WEEK : 0;
	if (w->any && from >= r.since)
		return 0;
	memset(w, 0, sizeof(*w));
	r.since = from > 0 ? from : 0;
	return store_web_weekly(st, &r, add_week, w);
}

int web_chart(struct store *st, const struct store_query *q, struct sbuf *out)
{
	struct weeks w;
	long long max = 0, sum;
	double bw, scale;
	char d[32];
	int i, k, ret;

	memset(&w, 0, sizeof(w));
	ret = chart_weeks(st, q, &w);
	if (ret < 0)
		return ret;
	if (!w.any) {
		sbuf_addstr(out, "<p class=\"none\">No findings to chart.</p>\n");
		return 0;
	}
	for (i = 0; i < WEB_CHART_WEEKS; i++) {
		for (sum = 0, k = 0; k < STORE_NCATEGORIES; k++)
			sum += w.n[i][k];
		if (sum > max)
			max = sum;
	}
	bw = (double)(CHART_W - CHART_LEFT) / WEB_CHART_WEEKS;
	scale = (double)(CHART_H - CHART_BOTTOM - 10) / (double)(max ? max : 1);
	day(w.last - (WEB_CHART_WEEKS - 1) * WEEK, d, sizeof(d));
	sbuf_addf(out, "<figure class=\"chart\"><svg viewBox=\"0 0 %d %d\" role=\"img\""
		  " aria-labelledby=\"chart-t\" xmlns=\"http://www.w3.org/2000/svg\">"
		  "<title id=\"chart-t\">Findings per week by category, %d weeks from %s</title>\n",
		  CHART_W, CHART_H, WEB_CHART_WEEKS, d);
	/* the axis: 0 and the largest week */
	sbuf_addf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>"
		  "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"11\">0</text>"
		  "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"11\">%lld</text>\n",
		  CHART_LEFT, CHART_H - CHART_BOTTOM, CHART_W, CHART_H - CHART_BOTTOM,
		  CHART_LEFT - 4, CHART_H - CHART_BOTTOM, CHART_LEFT - 4, 18, max);
	for (i = 0; i < WEB_CHART_WEEKS; i++) {
		double y = CHART_H - CHART_BOTTOM, x = CHART_LEFT + i * bw + 1;
		int64_t week = w.last - (int64_t)(WEB_CHART_WEEKS - 1 - i) * WEEK;

		day(week, d, sizeof(d));
		for (k = 0; k < STORE_NCATEGORIES; k++) {
			double h;

			if (!w.n[i][k])
				continue;
			h = (double)w.n[i][k] * scale;
			y -= h;
			sbuf_addf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\""
				  " fill=\"%s\"><title>week of %s: %lld %s</title></rect>\n",
				  x, y, bw - 2, h, cat_colour[k], d, w.n[i][k], store_categories[k]);
		}
		/* a date under every fourth week, the last one included */
		if ((WEB_CHART_WEEKS - 1 - i) % 4 == 0)
			sbuf_addf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\""
				  " font-size=\"10\">%.5s</text>\n",
				  x + bw / 2, CHART_H - 6, d + 5);
	}
	sbuf_addstr(out, "</svg><figcaption>");
	for (k = 0; k < STORE_NCATEGORIES; k++)
		sbuf_addf(out, "<span class=\"key\"><span class=\"sw c%d\"></span>%s</span> ",
			  k, store_categories[k]);
	sbuf_addstr(out, "</figcaption></figure>\n");
	return 0;
}
