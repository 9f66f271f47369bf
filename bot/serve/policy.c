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
	const char *owners = config_get(c, section, "owners");
	const char *authserv = config_get(c, section, "authserv-id");
	const char *pace = config_get(c, section, "pace");
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
	out->pace = POLICY_DEFAULT_PACE;
	if (!ret && pace && policy_parse_pace(&out->pace, pace))
		ret = error_prefix(WW_EINPUT, "%s.pace", section);
	if (!ret)
		ret = config_get_uint(&cap, c, section, "daily-cap",
				      POLICY_DEFAULT_LIST_CAP, 0, 100000);
	if (!ret)
		out->daily_cap = cap;
	out->owners = xstrdup(owners ? owners : "");
	if (authserv && *authserv)
		out->authserv_id = xstrdup(authserv);
	/* An owner is an address: a bare name would match nobody, silently. */
	for (const char *p = out->owners; !ret && *p; ) {
		size_t n = strcspn(p, " \t,");

		if (n && !memchr(p, '@', n))
			ret = error_code(WW_EINPUT, "%s.owners: '%.*s' is not an address",
					 section, (int)n, p);
		p += n;
		p += strspn(p, " \t,");
	}
	if (!ret && out->authserv_id && strpbrk(out->authserv_id, " \t;()\""))
		ret = error_code(WW_EINPUT, "%s.authserv-id: '%s' is not one name",
				 section, out->authserv_id);
	return ret;
}

/* A number in `unit` seconds, or with s, m or h, up to `max` seconds. */
static int parse_duration(unsigned int *out, const char *text, unsigned int unit,
			  unsigned int max)
{
	unsigned long long n = 0;
	const char *p = text;

	if (!isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p) && n <= max)
		n = n * 10 + (unsigned)(*p++ - '0');
	if (*p == 's')
		unit = 1;
	else if (*p == 'm')
		unit = 60;
	else if (*p == 'h')
		unit = 3600;
	if (*p == 's' || *p == 'm' || *p == 'h')
		p++;
	if (*p || n * unit > max)
		return -1;
	*out = (unsigned int)(n * unit);
	return 0;
}

int policy_parse_pace(unsigned int *out, const char *text)
{
	if (parse_duration(out, text, 60, POLICY_PACE_MAX))
		return error_code(WW_EINPUT, "'%s' is not minutes (60) or a number "
				  "with s, m or h (20s, 2h), up to 24 hours", text);
	return 0;
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
	free(p->owners);
	free(p->authserv_id);
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

bool policy_owner(const struct policy_list *p, const char *addr)
{
	return addr && *addr && p->owners && *p->owners &&
	       reply_addr_matches(addr, p->owners);
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

/*
 * When the newest reply in flight or sent since `since` to `author` on
 * `inbox` went out, for a series other than `root`; 0 when none.
 */
static int last_to_author(time_t *out, struct store *st, const char *inbox,
			  const char *author, const char *root, time_t since)
{
	struct store_rows *r;
	int ret;

	ret = store_query(&r, st, "SELECT max(created) FROM replies WHERE created > ?"
			  " AND state IN ('intent', 'sent') AND series <> ?"
			  " AND series IN (SELECT root_msgid FROM queue_series"
			  " WHERE inbox = ? AND lower(author_email) = lower(?))",
			  "tsss", since, root, inbox, author);
	if (ret < 0)
		return error_prefix(ret, "cannot read the replies sent");
	*out = ret && !store_rows_is_null(r, 0) ? store_rows_int(r, 0) : 0;
	store_rows_free(r);
	return 0;
}

int policy_hold(time_t *out_until, struct strbuf *why, struct store *st,
		const struct policy_global *g, const struct policy_list *p,
		const struct policy_series *s, time_t now)
{
	const char *inbox = s->inbox;
	long long n = 0;
	time_t oldest = 0, last = 0;
	int ret;

	if (*g->stop_file && !access(g->stop_file, F_OK)) {
		strbuf_addf(why, "held: the stop file '%s' exists", g->stop_file);
		*out_until = now + POLICY_STOP_RECHECK;
		return 1;
	}
	/* Pacing (issue 38.7): a family cross-posted as several series, or
	 * an author's busy day, gets its mail spaced out, not lost. */
	if (p->pace && s->author && *s->author) {
		ret = last_to_author(&last, st, inbox, s->author, s->root ? s->root : "",
				     now - (time_t)p->pace);
		if (ret)
			return ret;
		if (last) {
			strbuf_addf(why, "held: pace (one mail per author per %u s on "
				    "this list): the last to %s went %lld s ago", p->pace,
				    s->author, (long long)(now - last));
			*out_until = last + (time_t)p->pace + 1;
			return 1;
		}
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
