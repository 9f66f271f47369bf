/*
 * The settings (settings.h): the configuration read once, checked against
 * the one table of keys below, and turned into typed values.
 */
#include "settings.h"
#include "ci.h"
#include "datadir.h"
#include "ktree.h"
#include "mailhdr.h"
#include "rules.h"

#include <limits.h>

const char *const reply_policy_names[] = { "both", "author", "list", "all", NULL };

/* Every section warnwatch reads and its keys: the only list there is. */
static const char *const identity_keys[] = { "name", "email", NULL };
static const char *const archive_keys[] = { "url", "midmask", "linkmask",
	"searchmask", "timeout", NULL };
static const char *const smtp_keys[] = { "url", "user", "password-file",
	"starttls", "timeout", "ca-file", NULL };
static const char *const review_keys[] = { "reply-to", "lists", "patchwork-hint",
	"templates", "tree", "build-dir", "source", "contact", "skip-authors", "rules", NULL };
static const char *const state_keys[] = { "dir", "url", "password-file", "lease",
	"start-wait", NULL };
static const char *const serve_keys[] = { "dashboard-dir", "listen",
	"poll-interval", "settle", "max-wait", "retry-base", "retry-max",
	"max-attempts", "confirm-window", "http-timeout", "backoff-max",
	"max-sleep", "census", "history", "history-batch", "warm-wait", "daily-cap", "stop-file", NULL };
static const char *const ci_keys[] = { "repo", "keep-bases", "keep-logs", NULL };
static const char *const list_keys[] = { "archive", "inbox", "address", "tree",
	"boot", "reply", "reply-to", "allow-senders", "allow-paths",
	"quiet-hours", "backfill", "poll-interval", "positive", "ignore-senders",
	"daily-cap", "min-level", "embargo", "owners", "authserv-id", "pace", NULL };

static const struct {
	const char *name;	/* ending in '.': every [NAME.x] */
	const char *const *keys;
} sections[] = {
	{ "identity", identity_keys },
	{ "archive", archive_keys },
	{ "smtp", smtp_keys },
	{ "review", review_keys },
	{ "state", state_keys },
	{ "serve", serve_keys },
	{ "ci", ci_keys },
	{ "list.", list_keys },
};

/* The table's entry for section `sec`, or NULL. */
static const char *const *section_keys(const char *sec)
{
	for (size_t j = 0; j < ARRAY_SIZE(sections); j++) {
		const char *name = sections[j].name;
		bool prefix = ends_with(name, ".");

		if (prefix ? starts_with(sec, name) && sec[strlen(name)] :
			     !strcmp(sec, name))
			return sections[j].keys;
	}
	return NULL;
}

static bool known_section(const char *sec)
{
	return section_keys(sec) != NULL;
}

static int check_keys(const struct config *c)
{
	int ret = config_check_sections(c, known_section);

	for (size_t i = 0; !ret && i < c->nr; i++)
		ret = config_check(c, c->v[i].section, section_keys(c->v[i].section));
	return ret;
}

/* [ci]: kernel-ci's base repository, for `ci` and the service. */
static int load_ci(struct settings_ci *out, const struct config *c)
{
	unsigned long keep, logs;
	const char *repo = config_get(c, "ci", "repo");
	int ret = config_get_uint(&keep, c, "ci", "keep-bases", 0, 0, 1000);

	/* keep-logs counts this run's directory: 0 would keep less than the
	 * run itself writes, so it is refused rather than read as a default. */
	if (!ret)
		ret = config_get_uint(&logs, c, "ci", "keep-logs", CI_KEEP_LOGS,
				      1, 100000);
	if (ret)
		return ret;
	out->repo = repo && *repo ? repo : NULL;
	out->keep_bases = (unsigned int)keep;
	out->keep_logs = (unsigned int)logs;
	return 0;
}

static int load_state(struct settings_state *out, const struct config *c)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long lease, wait;
	const char *url = config_get(c, "state", "url");
	int ret;

	/* One state database with the service: a series answered by hand
	 * is not answered again by the service. */
	if (!config_get_path(&sb, c, "state", "dir"))
		out->dir = strbuf_detach(&sb, NULL);
	else
		out->dir = store_default_dir();
	if (url && *url)
		out->url = xstrdup(url);
	if (!config_get_path(&sb, c, "state", "password-file"))
		out->password_file = strbuf_detach(&sb, NULL);
	strbuf_release(&sb);
	ret = config_get_uint(&lease, c, "state", "lease", 60, 3, 86400);
	if (!ret)
		ret = config_get_uint(&wait, c, "state", "start-wait", 300, 0, 86400);
	if (ret)
		return ret;
	out->lease = (unsigned int)lease;
	out->start_wait = (unsigned int)wait;
	return 0;
}

void settings_reply_release(struct settings_reply *r)
{
	strbuf_release(&r->from);
	strbuf_release(&r->templates);
}

int settings_reply_load(struct settings_reply *out, const struct config *c,
			bool sending)
{
	const char *name = config_get(c, "identity", "name");
	const char *email = config_get(c, "identity", "email");
	char tdir[PATH_MAX + 16];
	int policy, ret;
	bool hint;

	if (!email || !*email) {
		if (sending)
			return error_code(WW_EINPUT, "no [identity] email in the "
					  "configuration: who is sending this?");
		email = "warnwatch@localhost";
	}
	if (!mail_addr_valid(email))
		return error_code(WW_EINPUT, "[identity] email '%s' is not an "
				  "address", email);
	ret = config_get_enum(&policy, c, "review", "reply-to",
			      reply_policy_names, REPLY_TO_BOTH);
	if (!ret)
		ret = config_get_bool(&hint, c, "review", "patchwork-hint", false);
	if (ret)
		return ret;
	strbuf_reset(&out->from);
	/* Quoted as RFC 5322 wants: "Doe, Jane" is one name, not two
	 * mailboxes. */
	mail_addr_format(&out->from, name && *name ? name : "warnwatch", email);
	strbuf_reset(&out->templates);
	if (config_get_path(&out->templates, c, "review", "templates"))
		strbuf_addstr(&out->templates, datadir_find(tdir, sizeof(tdir),
				"templates", ENV_WARNWATCH_TEMPLATES, NULL));
	out->policy = policy;
	out->lists = config_get(c, "review", "lists");
	out->skip = config_get(c, "review", "skip-authors");
	out->patchwork_hint = hint;
	out->contact = config_get(c, "review", "contact");
	return 0;
}

int settings_apply(struct settings *out, unsigned flags)
{
	const struct config *c = &out->config;
	int ret;

	ret = check_keys(c);
	if (ret)
		return ret;
	out->name = config_get(c, "identity", "name");
	out->email = config_get(c, "identity", "email");
	out->review_tree = config_get(c, "review", "tree");
	out->review_build_dir = config_get(c, "review", "build-dir");
	out->review_source = config_get(c, "review", "source");
	ret = settings_reply_load(&out->reply, c, false);
	if (!ret)
		ret = b4_opts_from_config(&out->b4, &out->midmask, c);
	if (!ret)
		ret = load_state(&out->state, c);
	if (!ret)
		ret = load_ci(&out->ci, c);
	if (ret)
		return ret;
	strbuf_reset(&out->rules_dir);
	if (config_get_path(&out->rules_dir, c, "review", "rules"))
		strbuf_addstr(&out->rules_dir, rules_default_dir());
	strbuf_reset(&out->cache_dir);
	ktree_cache_dir(&out->cache_dir, NULL);
	out->b4.cache_dir = out->cache_dir.buf;
	if (flags & SETTINGS_SENDING)
		return settings_need_sending(out);
	return 0;
}

int settings_load(struct settings *out, const char *path, unsigned flags)
{
	char *def = path ? NULL : config_default_path();
	int ret = config_load(&out->config, path ? path : def);

	/* No file at the default place: the defaults will do. */
	if (ret == WW_ENOTFOUND && !path && (flags & SETTINGS_OPTIONAL)) {
		error_clear();
		ret = 0;
	}
	free(def);
	if (ret)
		return ret;
	return settings_apply(out, flags);
}

int settings_need_sending(struct settings *s)
{
	int ret;

	if (s->sending)
		return 0;
	/* The identity first: who sends is the first thing to get right. */
	ret = settings_reply_load(&s->reply, &s->config, true);
	if (!ret)
		ret = smtp_opts_from_config(&s->smtp, &s->smtp_password,
					    &s->smtp_ca_file, &s->config);
	if (ret)
		return ret;
	s->sending = true;
	return 0;
}

int settings_state_open(struct store *out, const struct settings *s)
{
	if (s->state.url)
		return store_open_url(out, s->state.url, s->state.password_file);
	return store_open(out, s->state.dir);
}

void settings_release(struct settings *s)
{
	config_release(&s->config);
	settings_reply_release(&s->reply);
	strbuf_release(&s->rules_dir);
	strbuf_release(&s->midmask);
	strbuf_release(&s->smtp_password);
	strbuf_release(&s->smtp_ca_file);
	free(s->state.dir);
	free(s->state.url);
	free(s->state.password_file);
	strbuf_release(&s->cache_dir);
	memset(s, 0, sizeof(*s));
}
