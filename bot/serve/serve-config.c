/*
 * The service's configuration (serve.h): the [serve] section and one
 * [list NAME] section each, read from the settings loaded once
 * (settings.h) into `struct serve_config`, and the role names.  Running
 * the service is serve.c's.
 */
#include "serve-priv.h"
#include "httpd.h"

#include <arpa/inet.h>
#include <ctype.h>

/* ---- configuration ----------------------------------------------------- */

static const char *const role_names[] = { "all", "poller", "worker", NULL };

const char *serve_role_name(enum serve_role r)
{
	return r < ARRAY_SIZE(role_names) - 1 ? role_names[r] : "?";
}

int serve_role_parse(enum serve_role *out, const char *name)
{
	for (size_t i = 0; role_names[i]; i++)
		if (!strcmp(name, role_names[i])) {
			*out = i;
			return 0;
		}
	return error_code(WW_EUSAGE, "unknown role '%s' (all, poller, worker)", name);
}
static const char *const reply_modes[] = { "none", "draft", "send", NULL };

static int get_uint(unsigned int *out, const struct config *c, const char *sec,
		    const char *key, unsigned long def, unsigned long min,
		    unsigned long max)
{
	unsigned long v;
	int ret = config_get_uint(&v, c, sec, key, def, min, max);

	if (!ret)
		*out = (unsigned int)v;
	return ret;
}

/* "a, b c" -> ["a", "b", "c"] */
static void split_words(struct strvec *out, const char *s)
{
	while (s && *s) {
		size_t n;

		s += strspn(s, ", \t");
		n = strcspn(s, ", \t");
		if (n) {
			char *w = xstrndup(s, n);

			strvec_push(out, w);
			free(w);
		}
		s += n;
	}
}

/* [serve] census: files, relative to the configuration file's directory. */
static void census_files(struct strvec *out, const struct config *c)
{
	struct strvec words = STRVEC_INIT;
	const char *slash = c->path ? strrchr(c->path, '/') : NULL;

	split_words(&words, config_get(c, "serve", "census"));
	for (size_t i = 0; i < words.nr; i++) {
		if (words.v[i][0] == '/' || !slash)
			strvec_push(out, words.v[i]);
		else
			strvec_pushf(out, "%.*s/%s", (int)(slash - c->path),
				     c->path, words.v[i]);
	}
	strvec_clear(&words);
}

static int parse_hhmm(int *out, const char *s, const char **end)
{
	int h, m;

	if (!isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[1]) ||
	    s[2] != ':' || !isdigit((unsigned char)s[3]) ||
	    !isdigit((unsigned char)s[4]))
		return WW_EINPUT;
	h = (s[0] - '0') * 10 + s[1] - '0';
	m = (s[3] - '0') * 10 + s[4] - '0';
	if (h > 24 || m > 59 || (h == 24 && m))
		return WW_EINPUT;
	*out = h * 60 + m;
	*end = s + 5;
	return 0;
}

static int parse_quiet(struct serve_list *l, const char *v)
{
	const char *p = v;

	l->quiet_from = l->quiet_to = -1;
	if (!v || !*v || !strcmp(v, "none"))
		return 0;
	if (parse_hhmm(&l->quiet_from, p, &p) || *p++ != '-' ||
	    parse_hhmm(&l->quiet_to, p, &p) || *p ||
	    l->quiet_from == l->quiet_to)
		return error_code(WW_EINPUT, "list.%s.quiet-hours: '%s' is not "
				  "HH:MM-HH:MM", l->name, v);
	return 0;
}

static void trim_slashes(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '/')
		s[--n] = '\0';
}

static int load_list(struct serve_config *cfg, const struct config *c,
		     const char *section)
{
	struct serve_list *l;
	const char *v;
	int mode, to, ret;
	bool b;

	ALLOC_GROW(cfg->lists, cfg->nr_lists + 1, cfg->alloc_lists);
	l = &cfg->lists[cfg->nr_lists++];
	memset(l, 0, sizeof(*l));
	l->name = xstrdup(section + strlen("list."));
	strvec_init(&l->allow_senders);
	strvec_init(&l->allow_paths);
	if (!*l->name)
		return error_code(WW_EINPUT, "[list.] needs a name");
	v = config_get(c, section, "archive");
	if (!v || !*v)
		return error_code(WW_EINPUT, "[%s] needs 'archive' (the public-inbox "
				  "base URL, e.g. https://lore.kernel.org)", section);
	if (!starts_with(v, "http://") && !starts_with(v, "https://"))
		return error_code(WW_EINPUT, "%s.archive: '%s' is not an http(s) URL",
				  section, v);
	l->archive = xstrdup(v);
	trim_slashes(l->archive);
	v = config_get(c, section, "inbox");
	l->inbox = xstrdup(v && *v ? v : l->name);
	if (strchr(l->inbox, '/') || strchr(l->inbox, '?') || strchr(l->inbox, '%'))
		return error_code(WW_EINPUT, "%s.inbox: '%s' is not an inbox name",
				  section, l->inbox);
	v = config_get(c, section, "address");
	l->address = xstrdup(v ? v : "");
	v = config_get(c, section, "tree");
	l->tree = xstrdup(v ? v : "");
	ret = config_get_bool(&l->boot, c, section, "boot", false);
	if (!ret)
		ret = config_get_enum(&mode, c, section, "reply", reply_modes,
				      SERVE_REPLY_DRAFT);
	if (!ret)
		ret = config_get_enum(&to, c, section, "reply-to", reply_policy_names,
				      cfg->settings->reply.policy);
	if (!ret)
		ret = config_get_bool(&b, c, section, "backfill", false);
	if (!ret)
		ret = get_uint(&l->poll_interval, c, section, "poll-interval",
			       cfg->poll_interval, 1, 86400);
	if (ret)
		return ret;
	l->reply = mode;
	l->reply_to = to;
	l->backfill = b;
	split_words(&l->allow_senders, config_get(c, section, "allow-senders"));
	split_words(&l->allow_paths, config_get(c, section, "allow-paths"));
	ret = parse_quiet(l, config_get(c, section, "quiet-hours"));
	return ret ? ret : policy_list_load(&l->policy, c, section);
}

int serve_config_load(struct serve_config *out, struct settings *settings)
{
	const struct config *c = &settings->config;
	struct strbuf sb = STRBUF_INIT;
	const char *v;
	bool sends = false;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->settings = settings;
	out->config = c;
	if (!config_get_path(&sb, c, "serve", "dashboard-dir")) {
		out->dashboard_dir = strbuf_detach(&sb, NULL);
	} else {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/dashboard", settings->state.dir);
		out->dashboard_dir = strbuf_detach(&sb, NULL);
	}
	strvec_init(&out->census);
	census_files(&out->census, c);
	v = config_get(c, "serve", "listen");
	if (!v)
		v = HTTPD_DEFAULT_HOST ":8025";
	out->listen = xstrdup(!strcmp(v, "off") || !strcmp(v, "no") ? "" : v);
	if ((ret = get_uint(&out->poll_interval, c, "serve", "poll-interval", 60, 1, 86400)) ||
	    (ret = get_uint(&out->queue.settle, c, "serve", "settle", 120, 0, 86400)) ||
	    (ret = get_uint(&out->queue.max_wait, c, "serve", "max-wait", 3600, 0, 7 * 86400)) ||
	    (ret = get_uint(&out->queue.retry_base, c, "serve", "retry-base", 60, 1, 86400)) ||
	    (ret = get_uint(&out->queue.retry_max, c, "serve", "retry-max", 3600, 1, 7 * 86400)) ||
	    (ret = get_uint(&out->queue.max_attempts, c, "serve", "max-attempts", 5, 1, 100)) ||
	    (ret = get_uint(&out->queue.warm_wait, c, "serve", "warm-wait", 600, 0, 86400)) ||
	    (ret = get_uint(&out->confirm_window, c, "serve", "confirm-window", 900, 0, 7 * 86400)) ||
	    (ret = get_uint(&out->http_timeout, c, "serve", "http-timeout", 30, 1, 600)) ||
	    (ret = get_uint(&out->backoff_max, c, "serve", "backoff-max", 3600, 1, 86400)) ||
	    (ret = get_uint(&out->max_sleep, c, "serve", "max-sleep", 30, 1, 3600)) ||
	    (ret = config_get_bool(&out->history, c, "serve", "history", true)) ||
	    (ret = get_uint(&out->history_batch, c, "serve", "history-batch",
			    SERVE_HISTORY_BATCH, 1, 1000000)) ||
	    (ret = policy_global_load(&out->send, c, settings->state.dir)))
		goto out;
	if (*out->listen) {
		struct httpd_opts ho = HTTPD_OPTS_INIT;
		char *copy = xstrdup(out->listen);

		struct in6_addr a;

		ret = httpd_parse_listen(&ho, copy);
		if (!ret && inet_pton(AF_INET, ho.host, &a) != 1 &&
		    inet_pton(AF_INET6, ho.host, &a) != 1)
			ret = error_code(WW_EINPUT, "'%s' is not a numeric address",
					 ho.host);
		free(copy);
		if (ret) {
			ret = error_prefix(ret, "serve.listen");
			goto out;
		}
	}
	for (size_t i = 0; i < c->nr; i++) {
		const char *sec = c->v[i].section;
		bool seen = false;

		if (!starts_with(sec, "list."))
			continue;
		for (size_t j = 0; j < out->nr_lists; j++)
			if (!strcmp(out->lists[j].name, sec + strlen("list.")))
				seen = true;
		if (seen)
			continue;
		ret = load_list(out, c, sec);
		if (ret)
			goto out;
	}
	if (!out->nr_lists) {
		ret = error_code(WW_EINPUT, "%s: no [list.NAME] to watch",
				 c->path ? c->path : "configuration");
		goto out;
	}
	for (size_t i = 0; i < out->nr_lists; i++)
		sends |= out->lists[i].reply == SERVE_REPLY_SEND;
	/* Who sends and through which server: said at start, not series by
	 * series at their first send. */
	if (sends)
		ret = settings_need_sending(settings);
out:
	strbuf_release(&sb);
	return ret;
}

void serve_config_release(struct serve_config *cfg)
{
	for (size_t i = 0; i < cfg->nr_lists; i++) {
		struct serve_list *l = &cfg->lists[i];

		free(l->name);
		free(l->archive);
		free(l->inbox);
		free(l->address);
		free(l->tree);
		strvec_clear(&l->allow_senders);
		strvec_clear(&l->allow_paths);
		policy_list_release(&l->policy);
	}
	policy_global_release(&cfg->send);
	free(cfg->lists);
	strvec_clear(&cfg->census);
	free(cfg->dashboard_dir);
	free(cfg->listen);
	memset(cfg, 0, sizeof(*cfg));
}

const struct serve_list *serve_config_list(const struct serve_config *cfg,
					   const char *name)
{
	for (size_t i = 0; i < cfg->nr_lists; i++)
		if (!strcmp(cfg->lists[i].name, name))
			return &cfg->lists[i];
	return NULL;
}
