/*
 * The per-list noise policy and the service-wide brakes on sending
 * (policy.h).
 */
#include "policy.h"
#include "reply.h"

#include <ctype.h>
#include <unistd.h>

#define DAY (24 * 3600)

const char *const policy_level_names[] = { "info", "warning", NULL };

int policy_list_load(struct policy_list *out, const struct config *c,
		     const char *section)
{
	const char *v = config_get(c, section, "ignore-senders");
	const char *embargo = config_get(c, section, "embargo");
	unsigned long cap;
	int level, ret;

	memset(out, 0, sizeof(*out));
	out->ignore_senders = xstrdup(v ? v : POLICY_DEFAULT_IGNORE);
	ret = config_get_bool(&out->positive, c, section, "positive", false);
	if (!ret)
		ret = config_get_enum(&level, c, section, "min-level",
				      policy_level_names, POLICY_LEVEL_WARNING);
	if (!ret)
		out->min_level = level;
	if (!ret && embargo && policy_parse_embargo(&out->embargo, embargo))
		ret = error_prefix(WW_EINPUT, "%s.embargo", section);
	if (!ret)
		ret = config_get_uint(&cap, c, section, "daily-cap",
				      POLICY_DEFAULT_LIST_CAP, 0, 100000);
	if (!ret)
		out->daily_cap = cap;
	return ret;
}

int policy_parse_embargo(unsigned int *out, const char *text)
{
	unsigned long long n = 0;
	unsigned int unit = 3600;
	const char *p = text;

	if (!isdigit((unsigned char)*p))
		goto bad;
	while (isdigit((unsigned char)*p) && n <= POLICY_EMBARGO_MAX)
		n = n * 10 + (unsigned)(*p++ - '0');
	if (*p == 's')
		unit = 1;
	else if (*p == 'm')
		unit = 60;
	if (*p == 's' || *p == 'm' || *p == 'h')
		p++;
	if (*p || n * unit > POLICY_EMBARGO_MAX)
		goto bad;
	*out = (unsigned int)(n * unit);
	return 0;
bad:
	return error_code(WW_EINPUT, "'%s' is not hours (12) or a number with s, m "
			  "or h (90m), up to 720 hours", text);
}

void policy_list_release(struct policy_list *p)
{
	free(p->ignore_senders);
	memset(p, 0, sizeof(*p));
}

int policy_global_load(struct policy_global *out, const struct config *c,
		       const char *state_dir)
{
	struct strbuf sb = STRBUF_INIT;
	const char *v = config_get(c, "serve", "stop-file");
	unsigned long cap;
	int ret;

	memset(out, 0, sizeof(*out));
	if (v && !*v)
		strbuf_addstr(&sb, "");
	else if (config_get_path(&sb, c, "serve", "stop-file"))
		strbuf_addf(&sb, "%s/%s", state_dir, POLICY_STOP_FILE);
	out->stop_file = strbuf_detach(&sb, NULL);
	ret = config_get_uint(&cap, c, "serve", "daily-cap", POLICY_DEFAULT_CAP,
			      0, 1000000);
	if (!ret)
		out->daily_cap = cap;
	return ret;
}

void policy_global_release(struct policy_global *g)
{
	free(g->stop_file);
	memset(g, 0, sizeof(*g));
}

time_t policy_embargo_until(const struct policy_list *p, time_t newest)
{
	return p->embargo && newest > 0 ? newest + (time_t)p->embargo : 0;
}

bool policy_ignored(const struct policy_list *p, const char *author_email)
{
	return author_email && *author_email &&
	       reply_addr_matches(author_email, p->ignore_senders);
}

/* Replies in flight or sent since `since` (of `inbox`'s series, or all),
 * and the oldest one's time. */
static int count_since(long long *out_n, time_t *out_oldest, struct store *st,
		       const char *inbox, time_t since)
{
	struct store_rows *r;
	int ret;

	if (inbox)
		ret = store_query(&r, st, "SELECT count(*), min(created) FROM replies"
				  " WHERE created > ? AND state IN ('intent', 'sent')"
				  " AND series IN (SELECT root_msgid FROM queue_series"
				  " WHERE inbox = ?)", "ts", since, inbox);
	else
		ret = store_query(&r, st, "SELECT count(*), min(created) FROM replies"
				  " WHERE created > ? AND state IN ('intent', 'sent')",
				  "t", since);
	if (ret < 0)
		return error_prefix(ret, "cannot count the replies sent");
	*out_n = ret ? store_rows_int(r, 0) : 0;
	*out_oldest = ret && !store_rows_is_null(r, 1) ? store_rows_int(r, 1) : since;
	store_rows_free(r);
	return 0;
}

int policy_hold(time_t *out_until, struct strbuf *why, struct store *st,
		const struct policy_global *g, const struct policy_list *p,
		const char *inbox, time_t now)
{
	long long n;
	time_t oldest;
	int ret;

	if (*g->stop_file && !access(g->stop_file, F_OK)) {
		strbuf_addf(why, "held: the stop file '%s' exists", g->stop_file);
		*out_until = now + POLICY_STOP_RECHECK;
		return 1;
	}
	if (p->daily_cap) {
		ret = count_since(&n, &oldest, st, inbox, now - DAY);
		if (ret)
			return ret;
		if (n >= p->daily_cap) {
			strbuf_addf(why, "held: the list's daily-cap (%u replies "
				    "in 24 hours) is reached", p->daily_cap);
			*out_until = oldest + DAY + 1;
			return 1;
		}
	}
	if (g->daily_cap) {
		ret = count_since(&n, &oldest, st, NULL, now - DAY);
		if (ret)
			return ret;
		if (n >= g->daily_cap) {
			strbuf_addf(why, "held: [serve] daily-cap (%u replies in "
				    "24 hours) is reached", g->daily_cap);
			*out_until = oldest + DAY + 1;
			return 1;
		}
	}
	return 0;
}
