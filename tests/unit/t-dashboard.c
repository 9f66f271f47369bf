/*
 * dashboard --state: a state directory made through the service's own
 * store and queue (two series on one list, a v2 following a v1, one
 * skipped), with findings.json and ci.json artifacts, rendered into a
 * site whose pages say what the state says.  Also the release ordering.
 */
#include <unistd.h>
#include <sys/stat.h>

#include "child.h"
#include "dashboard.h"
#include "feedback.h"
#include "queue.h"
#include "store.h"
#include "strbuf.h"
#include "quote.h"
#include "tap.h"

static struct queue q;

static long long add_series_in(const char *inbox, const char *mid,
				const char *subject, time_t now)
{
	struct queue_msg m = {
		.inbox = inbox, .msgid = mid, .parent = "", .subject = subject,
		.author_name = "Jane Dev", .author_email = "jane@example.org",
	};
	long long id = 0;

	queue_add_message(&q, &m, now, false);
	if (queue_find(&id, &q, inbox, mid) != 1)
		return 0;
	return id;
}

static long long add_series(const char *mid, const char *subject, time_t now)
{
	return add_series_in("linux-mm", mid, subject, now);
}

static void artifact(long long id, const char *name, const char *text)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;

	queue_series_dir(&path, &q, id, true);
	strbuf_addf(&path, "/%s", name);
	strbuf_addstr(&sb, text);
	strbuf_write_file(&sb, path.buf);
	strbuf_release(&path);
	strbuf_release(&sb);
}

static bool file_contains(const char *path, const char *needle)
{
	struct strbuf sb = STRBUF_INIT;
	bool found = !strbuf_read_file(&sb, path, 0) && strstr(sb.buf, needle);

	strbuf_release(&sb);
	return found;
}

static bool file_has(const char *path, const char *needle)
{
	bool found = file_contains(path, needle);

	if (!found)
		printf("# '%s' not in %s\n", needle, path);
	return found;
}

/* Every line of the file at `path` free of controls (but TAB) and of
 * bytes that are not UTF-8, and none starting with the bait's trailer. */
static bool page_clean(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	bool clean = !strbuf_read_file(&sb, path, 0);

	for (const char *l = sb.buf; clean && *l;) {
		size_t n = strcspn(l, "\n");

		if (quote_needed(l, n, QUOTE_KEEP_TAB) || !strncmp(l, "Reviewed-by:", 12)) {
			struct strbuf shown = STRBUF_INIT;

			quote_c_style_n(&shown, l, n, 0);
			printf("# %s: line '%s'\n", path, shown.buf);
			strbuf_release(&shown);
			clean = false;
		}
		l += n + (l[n] == '\n');
	}
	strbuf_release(&sb);
	return clean;
}

/* A conversion check reports: a BUG_ON removed for a WARN_ON. */
#define CONVERSION "{\"kind\": \"removed\", \"file\": \"mm/a.c\", \"line\": 3, " \
	"\"macro\": \"BUG_ON\", \"class\": \"bug\", \"severity\": \"info\", " \
	"\"message\": \"BUG_ON() turned into WARN_ON()\", \"conversion\": true, " \
	"\"moved\": false}"

/* The value of the card labelled `label` on the page, -1 if none. */
static long card(const char *path, const char *label)
{
	struct strbuf sb = STRBUF_INIT, pat = STRBUF_INIT;
	const char *c, *v;
	long n = -1;

	strbuf_addf(&pat, "card-label\">%s</div>", label);
	if (!strbuf_read_file(&sb, path, 0) && (c = strstr(sb.buf, pat.buf)) &&
	    (v = strstr(c, "data-value=\"")))
		n = strtol(v + strlen("data-value=\""), NULL, 10);
	strbuf_release(&sb);
	strbuf_release(&pat);
	return n;
}

/* The class of the first badge after `text` on the page, "" if none. */
static const char *badge_after(const char *path, const char *text)
{
	static char cls[64];
	struct strbuf sb = STRBUF_INIT;
	const char *c, *b;

	cls[0] = '\0';
	if (!strbuf_read_file(&sb, path, 0) && (c = strstr(sb.buf, text)) &&
	    (b = strstr(c, "class=\"badge ")))
		sscanf(b + strlen("class=\"badge "), "%63[^\"]", cls);
	strbuf_release(&sb);
	return cls;
}

static void test_state(const char *tmp, const char *templates)
{
	struct store st = STORE_INIT;
	struct dashboard_opts opts = DASHBOARD_OPTS_INIT;
	struct strbuf state = STRBUF_INIT, site = STRBUF_INIT, p = STRBUF_INIT;
	long long v1, v2, v3, solo;
	static const struct dashboard_watched watched[] = {
		{ "linux-mm", "https://lore.kernel.org/linux-mm/" },
		{ "linux-next", NULL },
	};
	struct queue_msg m = {
		.inbox = "linux-mm", .msgid = "old@x", .parent = "",
		.subject = "[PATCH] old: before we watched", .author_name = "Old",
		.author_email = "old@example.org",
	};

	strbuf_addf(&state, "%s/state", tmp);
	strbuf_addf(&site, "%s/site", tmp);
	if (store_open(&st, state.buf) || queue_init(&q, &st, state.buf, NULL)) {
		ok(0, "state opens: %s", error_last());
		return;
	}
	v1 = add_series("v1@x", "[PATCH] mm: add a VM_BUG_ON <oops>", 1000);
	queue_advance(&q, v1, QS_REPLIED, 1100);
	queue_set_verdict(&q, v1, "panicked", 1);
	artifact(v1, QUEUE_FINDINGS, "{\"findings\": [{\"kind\": \"added\", \"file\": \"mm/slub.c\", "
		 "\"line\": 7, \"macro\": \"VM_BUG_ON\", \"class\": \"bug\", \"severity\": \"error\", "
		 "\"message\": \"new VM_BUG_ON()\", \"conversion\": false, \"moved\": false}, "
		 CONVERSION "], \"summary\": {\"added\": {\"bug\": 1}, \"removed\": {\"bug\": 1}}}");
	artifact(v1, QUEUE_CI, "{\"verdict\": \"panicked\", \"reason\": \"kernel BUG at mm/slub.c:7\"}");
	artifact(v1, QUEUE_CONSOLE, "kernel BUG at mm/slub.c:7!\n");
	artifact(v1, QUEUE_REPLY, "Subject: Re: [PATCH] mm: add a VM_BUG_ON\n\nPlease don't.\n");

	v2 = add_series("v2@x", "[PATCH v2] mm: add a VM_BUG_ON <oops>", 2000);
	queue_advance(&q, v2, QS_REPLIED, 2100);
	queue_set_verdict(&q, v2, "clean", 0);
	queue_prev_version(&q, v2);
	artifact(v2, QUEUE_CI, "{\"verdict\": \"clean\", \"reason\": \"booted\"}");
	/* v2 keeps v1's conversion: one conversion of one series. */
	artifact(v2, QUEUE_FINDINGS, "{\"findings\": [" CONVERSION "], "
		 "\"summary\": {\"added\": {}, \"removed\": {\"bug\": 1}}}");
	/* Checked without findings, never booted: the check stage's verdict
	 * is "clean", which is no boot. */
	solo = add_series("solo@x", "[PATCH] mm: only checked", 3000);
	queue_advance(&q, solo, QS_REPLIED, 3100);
	queue_set_verdict(&q, solo, "clean", 0);

	/* Issue 22: a subject, a finding's file and a reply with a line of
	 * bait, ESC, BEL, a C1 control and bytes that are not UTF-8. */
	v3 = add_series("v3@x", "[PATCH] mm: x\nReviewed-by: warnwatch <bot@example.org>"
			"\x1b[31m\xff\xc2\x85", 3000);
	queue_advance(&q, v3, QS_REPLIED, 3100);
	queue_set_verdict(&q, v3, "panicked", 1);
	artifact(v3, QUEUE_FINDINGS, "{\"findings\": [{\"kind\": \"added\", \"file\": "
		 "\"mm/x\\nReviewed-by: y <y@example.org>\\u001b.c\", \"line\": 7, "
		 "\"function\": \"f\\u0085\\u2028g\", \"macro\": \"BUG_ON\", \"class\": \"bug\", "
		 "\"severity\": \"error\", \"message\": \"new BUG_ON()\\r\", \"conversion\": false, "
		 "\"moved\": false}], \"summary\": {\"added\": {\"bug\": 1}, \"removed\": {}}}");
	artifact(v3, QUEUE_CI, "{\"verdict\": \"panicked\", \"reason\": "
		 "\"kernel BUG at x\\nReviewed-by: z <z@example.org>\\u001b[0m\"}");
	artifact(v3, QUEUE_REPLY, "Subject: Re: x\n\n> +\x1b[31m\xff\x07 line\nBye.\n");

	queue_add_message(&q, &m, 500, true);
	ok(v1 && v2 && v1 != v2, "two series in the queue");

	/* Issue 27: two replies said new-bug, a recipient called one wrong
	 * (issue 40: a suppression of its family). */
	feedback_note_said(&st, "r1@bot", "mm/slub.c:f:BUG_ON:x", "new-bug", "BUG_ON(x);");
	feedback_note_said(&st, "r2@bot", "mm/slub.c:g:BUG_ON:y", "new-bug", "BUG_ON(y);");
	feedback_note_said(&st, "r2@bot", "mm/slub.c:g:WARN_ON:z", "new-warn", "WARN_ON(z);");
	store_exec(&st, "INSERT INTO suppressions (what, scope, key, list, fingerprint, rule,"
		   " by_addr, role, trust, message_id, why, created, expires, state) VALUES"
		   " ('finding', 'family', 'r@x', 'linux-mm', 'mm/slub.c:g:BUG_ON:y',"
		   " 'new-bug', 'a@x', 'recipient', 'From: as archived', 'n1@x',"
		   " 'warnwatch: wrong', 0, 1, 'active')", "");

	opts.out_dir = site.buf;
	opts.state_dir = state.buf;
	opts.templates = templates;
	opts.now = 1700000000;
	opts.watched = watched;
	opts.nr_watched = ARRAY_SIZE(watched);
	is(dashboard_write(&opts), 0, "dashboard from the state: %s", error_last());

	strbuf_addf(&p, "%s/index.html", site.buf);
	ok(file_has(p.buf, "mm: add a VM_BUG_ON &lt;oops&gt;"), "the subject, escaped");
	ok(file_has(p.buf, ">panicked</span>"), "v1's verdict from ci.json");
	ok(file_has(p.buf, ">clean</span>"), "v2's verdict");
	ok(file_has(p.buf, "(follows <a href=\"series/"), "v2 links to v1");
	ok(!file_contains(p.buf, "before we watched"), "skipped series are not listed");
	is(card(p.buf, "Series reviewed"), 3, "v1 and v2 are one series; solo and v3 two more");
	is(card(p.buf, "Conversions credited"), 1, "v2 repeating v1's conversion is one");
	is(card(p.buf, "BUG() / BUG_ON() added"), 1,
	   "BUG()s added counted in each series' newest version: v3's, not v1's that v2 dropped");
	ok(file_has(p.buf, "id=\"list-linux-next\""), "a watched list without series is shown");
	ok(file_has(p.buf, "No series seen on this list yet."), "and says it has none yet");
	ok(!file_contains(p.buf, "No list is watched yet"), "no 'No list is watched' while lists are");
	ok(file_has(p.buf, "<tr><th scope=\"row\">new-bug</th><td class=\"n\">2</td><td class=\"n\">1</td></tr>"),
	   "27: per rule, the replies that said it and how often it was called wrong");
	ok(file_has(p.buf, "<tr><th scope=\"row\">new-warn</th><td class=\"n\">1</td><td class=\"n\">0</td></tr>"),
	   "27: a rule never called wrong: 0");
	ok(file_has(p.buf, "href=\"https://lore.kernel.org/linux-mm/\""), "the list's archive");
	is_str(badge_after(p.buf, "mm: only checked"), "not-booted",
	       "a series only checked is not booted, whatever the check said");
	{
		struct strbuf link = STRBUF_INIT;

		strbuf_addf(&link, "href=\"series/%lld/console.log\"", v1);
		ok(file_has(p.buf, link.buf), "console log linked");
		strbuf_release(&link);
	}
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/series/%lld/index.html", site.buf, v1);
	ok(file_has(p.buf, "mm/slub.c:7"), "series page: the finding");
	ok(file_has(p.buf, "kernel BUG at mm/slub.c:7"), "series page: the verdict's reason");
	ok(file_has(p.buf, "Please don&#39;t."), "series page: the reply");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/series/%lld/console.log", site.buf, v1);
	ok(!access(p.buf, R_OK), "the console log is copied into the site");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/index.html", site.buf);
	ok(page_clean(p.buf), "index.html: no raw control, no byte that is not UTF-8, no bait line");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/series/%lld/index.html", site.buf, v3);
	ok(page_clean(p.buf), "a hostile series' page: the same");
	ok(file_has(p.buf, "\\nReviewed-by: warnwatch &lt;bot@example.org&gt;\\033[31m\\377\\302\\205"),
	   "  the subject escaped C-style, then for HTML");
	ok(file_has(p.buf, "&gt; +\\033[31m\\377\\a line\nBye."),
	   "  the reply keeps its lines, each escaped");
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/dashboard.json", site.buf);
	ok(file_has(p.buf, "\"lists_base\""), "the model is written");

	/* serve draws the page after every stage: only what changed is read. */
	{
		struct dashboard_cache cache = DASHBOARD_CACHE_INIT;
		struct strbuf before = STRBUF_INIT, after = STRBUF_INIT;

		strbuf_read_file(&before, p.buf, 0);
		opts.cache = &cache;
		is(dashboard_write(&opts), 0, "cache: the first write");
		is((int)cache.parsed, 6, "cache: the first write reads the 6 findings.json and ci.json");
		is(dashboard_write(&opts), 0, "cache: the second write");
		is((int)cache.parsed, 0, "cache: nothing changed, nothing parsed");
		strbuf_read_file(&after, p.buf, 0);
		ok(before.len && !strcmp(before.buf, after.buf),
		   "cache: the model is the one drawn without a cache");
		artifact(v2, QUEUE_CI, "{\"verdict\": \"panicked\", \"reason\": \"now\"}");
		is(dashboard_write(&opts), 0, "cache: a write after v2's ci.json was replaced");
		is((int)cache.parsed, 1, "cache: only the replaced file is read again");
		strbuf_reset(&after);
		strbuf_read_file(&after, p.buf, 0);
		ok(strstr(after.buf, "\"reason\": \"now\""), "cache: and what it says is shown");
		artifact(v2, QUEUE_CI, "{\"verdict\": \"clean\", \"reason\": \"booted\"}");
		opts.cache = NULL;
		dashboard_cache_release(&cache);
		strbuf_release(&before);
		strbuf_release(&after);
	}

	/* status: every series in progress, not only among the newest. */
	{
		long long busy = add_series("busy@x", "[PATCH] mm: still in review", 4000);
		long long late = 0;
		struct queue_msg lm = {
			.inbox = "linux-mm", .msgid = "late@x", .parent = "",
			.subject = "[PATCH] mm: newer, done", .author_name = "Jane Dev",
			.author_email = "jane@example.org",
		};

		queue_add_message(&q, &lm, 5000, false);
		queue_find(&late, &q, "linux-mm", "late@x");
		json_t *st_json = NULL, *s;
		size_t i;
		bool seen = false;

		queue_advance(&q, late, QS_REPLIED, 5100);
		is(queue_status_json(&st_json, &q, 1, 6000), 0, "status json");
		json_array_foreach(json_object_get(st_json, "series"), i, s)
			if (json_integer_value(json_object_get(s, "id")) == busy)
				seen = true;
		ok(busy && seen, "status lists a series in progress older than the newest --limit");
		json_decref(st_json);
	}

	queue_release(&q);
	store_close(&st);
	strbuf_release(&state);
	strbuf_release(&site);
	strbuf_release(&p);
}

/* The whole text of the file at `path` ("" when it cannot be read). */
static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path, 0))
		error_clear();
	return strbuf_detach(&sb, NULL);
}

/* How often `needle` is in `hay`. */
static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The series row whose subject is `subject`: from it to its </tr>. */
static char *row_of(const char *page, const char *subject)
{
	const char *b = strstr(page, subject), *e;

	if (!b)
		return xstrdup("");
	while (b > page && strncmp(b, "<tr>", 4))
		b--;
	e = strstr(b, "</tr>");
	return xstrndup(b, e ? (size_t)(e - b) : strlen(b));
}

/*
 * Issue 38.6: the Boot bar counts boots alone (a series whose b4 fetch
 * failed is none), a conversion is shown as one, the date shown is the
 * posting date when it is believable, and each rule has one row.
 */
static void test_issue38(const char *tmp, const char *templates)
{
	struct store st = STORE_INIT;
	struct dashboard_opts opts = DASHBOARD_OPTS_INIT;
	struct strbuf state = STRBUF_INIT, site = STRBUF_INIT, p = STRBUF_INIT;
	struct strbuf conv = STRBUF_INIT;
	static const struct dashboard_watched watched[] = {
		{ "linux-ext4", NULL }, { "linux-next", NULL },
	};
	const time_t read_at = 1764000000;	/* 2025-11-24 16:00:00 UTC */
	long long fetch_failed, conv14, booted, future, early, garbage, fsc;
	char *page, *row;

	strbuf_addf(&state, "%s/state38", tmp);
	strbuf_addf(&site, "%s/site38", tmp);
	if (store_open(&st, state.buf) || queue_init(&q, &st, state.buf, NULL)) {
		ok(0, "state opens: %s", error_last());
		return;
	}
	/* b4 fetch failed: no boot ran. */
	fetch_failed = add_series_in("linux-ext4", "blizzard@x",
				     "[PATCHBLIZZARD v7 0/3] a cover of covers", read_at);
	queue_fail(&q, fetch_failed, "no patches in the thread of <blizzard@x>", true,
		   read_at + 10);
	/* One boot, clean, posted an hour before serve read it. */
	booted = add_series_in("linux-ext4", "booted@x", "[PATCH] ext4: booted", read_at);
	queue_advance(&q, booted, QS_REPLIED, read_at + 100);
	artifact(booted, QUEUE_CI, "{\"verdict\": \"clean\", \"reason\": \"booted\"}");
	artifact(booted, QUEUE_SELECTED,
		 "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		 "Message-ID: <other@x>\nDate: Mon, 3 Nov 2025 10:00:00 +0000\n"
		 "Subject: [PATCH] ext4: another message first\n\nx\n\n"
		 "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		 "Message-ID: <booted@x>\nDate: Mon, 24 Nov 2025 16:00:00 +0100\n"
		 "Subject: [PATCH] ext4: booted\n\nbody\n");
	/* ci.json's fs-corrupted verdict is a boot, with a badge of its own. */
	fsc = add_series_in("linux-ext4", "fsc@x", "[PATCH] ext4: corrupts", read_at);
	queue_advance(&q, fsc, QS_REPLIED, read_at + 100);
	artifact(fsc, QUEUE_CI, "{\"verdict\": \"fs-corrupted\", \"reason\": \"fsck\"}");
	/* 14 BUG_ON()s made WARN_ON_ONCE()s, 2 BUG_ON()s removed. */
	conv14 = add_series_in("linux-ext4", "conv@x", "[PATCH 0/14] ext4: no more BUG_ON", read_at);
	queue_advance(&q, conv14, QS_REPLIED, read_at + 100);
	strbuf_addstr(&conv, "{\"findings\": [");
	for (int i = 0; i < 16; i++)
		strbuf_addf(&conv, "%s{\"kind\": \"removed\", \"file\": \"fs/ext4/a.c\", "
			    "\"line\": %d, \"macro\": \"BUG_ON\", \"class\": \"bug\", "
			    "\"conversion\": %s, \"moved\": false}", i ? ", " : "", i + 1,
			    i < 14 ? "true" : "false");
	for (int i = 0; i < 14; i++)
		strbuf_addf(&conv, ", {\"kind\": \"added\", \"file\": \"fs/ext4/a.c\", "
			    "\"line\": %d, \"macro\": \"WARN_ON_ONCE\", \"class\": \"warn-once\", "
			    "\"conversion\": true, \"moved\": false}", i + 1);
	strbuf_addstr(&conv, "], \"summary\": {\"added\": {\"warn-once\": 14}, "
		      "\"removed\": {\"bug\": 16}}}");
	artifact(conv14, QUEUE_FINDINGS, conv.buf);
	/* Dates nobody can believe: after serve read the mail, before Linux,
	 * not a date, and one from an earlier message for a root without. */
	future = add_series_in("linux-ext4", "future@x", "[PATCH] ext4: from the future", read_at);
	queue_advance(&q, future, QS_REPLIED, read_at + 100);
	artifact(future, QUEUE_SELECTED, "Message-ID: <future@x>\n"
		 "Date: Fri, 1 Jan 2100 00:00:00 +0000\nSubject: x\n\nx\n");
	early = add_series_in("linux-ext4", "early@x", "[PATCH] ext4: from 1980", read_at);
	queue_advance(&q, early, QS_REPLIED, read_at + 100);
	artifact(early, QUEUE_SELECTED, "Message-ID: <early@x>\n"
		 "Date: Tue, 1 Jan 1980 00:00:00 +0000\nSubject: x\n\nx\n");
	garbage = add_series_in("linux-ext4", "garbage@x", "[PATCH] ext4: no date", read_at);
	queue_advance(&q, garbage, QS_REPLIED, read_at + 100);
	artifact(garbage, QUEUE_SELECTED, "Message-ID: <garbage@x>\n"
		 "Date: <script>99 Foo 2025</script>\nSubject: x\n\nx\n");
	/* The census serve made of a list's tree, and one half written. */
	{
		struct strbuf from = STRBUF_INIT, to = STRBUF_INIT, text = STRBUF_INIT;
		const char *top = getenv("WW_TOP");

		strbuf_addf(&from, "%s/tests/e2e/data/dashboard/census-6.1.json", top ? top : ".");
		strbuf_addf(&to, "%s/census", state.buf);
		mkdir(to.buf, 0755);
		strbuf_addstr(&to, "/linux-source-6.1.tar.xz-1-2.json");
		if (!strbuf_read_file(&text, from.buf, 0))
			strbuf_write_file(&text, to.buf);
		strbuf_reset(&text);
		strbuf_addstr(&text, "{\"classes\": ");
		strbuf_setlen(&to, to.len - strlen("-1-2.json"));
		strbuf_addstr(&to, "-3-4.json");
		strbuf_write_file(&text, to.buf);
		strbuf_release(&from);
		strbuf_release(&to);
		strbuf_release(&text);
	}
	feedback_note_said(&st, "r1@bot", "fs/ext4/a.c:f:WARN_ON:x", "new-warn", "WARN_ON(x);");
	feedback_note_said(&st, "r2@bot", "fs/ext4/b.c:g:WARN_ON:y", "new-warn", "WARN_ON(y);");
	feedback_note_said(&st, "r2@bot", "fs/ext4/b.c:g:BUG_ON:z", "new-bug", "BUG_ON(z);");

	opts.out_dir = site.buf;
	opts.state_dir = state.buf;
	opts.templates = templates;
	opts.now = read_at + 1000;
	opts.watched = watched;
	opts.nr_watched = ARRAY_SIZE(watched);
	is(dashboard_write(&opts), 0, "38: dashboard: %s", error_last());
	strbuf_addf(&p, "%s/index.html", site.buf);
	page = slurp(p.buf);

	ok(!strstr(page, "error ("), "38: a failed b4 fetch is no boot error in the Boot bar");
	ok(!strstr(page, "not booted ("), "38: nor are series that were not booted");
	ok(strstr(page, "clean (1)") != NULL, "38: the bar counts the one clean boot");
	is_str(badge_after(p.buf, "ext4: corrupts"), "fs-corrupted",
	       "38: ci.json's fs-corrupted verdict has its badge");
	is_str(badge_after(p.buf, "a cover of covers"), "failed",
	       "38: the failed series' Boot column says it failed before any boot");
	ok(strstr(page, "No series on linux-next was booted") != NULL,
	   "38: a list without a boot says so instead of a bar of zeros");

	row = row_of(page, "ext4: no more BUG_ON");
	ok(strstr(row, "<td class=\"n\">0</td>\n<td class=\"n\">2</td>\n"
		  "<td class=\"n\">14</td>") != NULL,
	   "38: 14 conversions: Added 0, Removed 2, Converted 14");
	free(row);

	row = row_of(page, "ext4: booted");
	ok(strstr(row, "<td class=\"date\">2025-11-24 15:00</td>") != NULL,
	   "38: the date shown is the root's Date: (UTC), not another message's");
	free(row);
	row = row_of(page, "ext4: from the future");
	ok(strstr(row, "2025-11-24 16:00 <span class=\"small\">(when serve read it)") != NULL,
	   "38: a Date: after serve read the mail is not believed: when it was read, said so");
	free(row);
	row = row_of(page, "ext4: from 1980");
	ok(strstr(row, "(when serve read it)") != NULL, "38: nor one from before Linux");
	free(row);
	row = row_of(page, "ext4: no date");
	ok(strstr(row, "(when serve read it)") != NULL && !strstr(page, "<script>"),
	   "38: nor one that is no date");
	free(row);
	row = row_of(page, "a cover of covers");
	ok(strstr(row, "(when serve read it)") != NULL, "38: nor a series never fetched");
	free(row);
	ok(strstr(page, "Calls in 6.1.192") != NULL && !strstr(page, "No census yet"),
	   "38: the census serve wrote into the state is on the front page");
	is(count_of(page, "scope=\"row\">new-warn</th>"), 1, "38: one row for new-warn");
	ok(strstr(page, "<tr><th scope=\"row\">new-warn</th><td class=\"n\">2</td>") != NULL,
	   "38: its replies counted once each");

	free(page);
	queue_release(&q);
	store_close(&st);
	strbuf_release(&state);
	strbuf_release(&site);
	strbuf_release(&p);
	strbuf_release(&conv);
}

int main(void)
{
	char tmp[] = "/tmp/t-dashboard.XXXXXX";
	const char *top = getenv("WW_TOP");
	struct strbuf templates = STRBUF_INIT;
	struct child rm;

	is(dashboard_release_cmp("6.1.192", "6.12.3") < 0, 1, "6.1.192 before 6.12.3");
	is(dashboard_release_cmp("6.12", "6.12.1") < 0, 1, "6.12 before 6.12.1");
	is(dashboard_release_cmp("6.9-rc1", "6.9-rc1"), 0, "equal releases");
	is(dashboard_release_cmp("6.10", "6.9") > 0, 1, "6.10 after 6.9");

	if (!mkdtemp(tmp))
		return 1;
	strbuf_addf(&templates, "%s/templates/dashboard", top ? top : ".");
	test_state(tmp, templates.buf);
	test_issue38(tmp, templates.buf);

	child_init(&rm);
	strvec_pushl(&rm.args, "rm", "-rf", tmp, NULL);
	child_run(&rm);
	child_release(&rm);
	strbuf_release(&templates);
	return done_testing();
}
