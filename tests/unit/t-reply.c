/*
 * Unit tests for bot/review/reply.c: which message is answered, who gets it,
 * headers that strangers cannot inject into, what the body says for
 * issues, credits across versions and notes, concrete suggestions, the
 * kernel-ci verdict, and "nothing to say".  Findings are built by hand
 * here (check.c has its own tests); the templates are the real ones.
 */
#include <ctype.h>

#include "ci-json.h"
#include "english.h"
#include "reply.h"
#include "suggest.h"
#include "tap.h"

static struct rule bug_on = { .macro = "BUG_ON", .class = RC_BUG, .severity = SEV_ERROR,
	.id = "new-bug", .message = "new BUG_ON() crashes the kernel when it triggers",
	.section = "Use WARN() rather than BUG()", .suggest = "recover instead of crashing",
	.credit = "removes a BUG_ON()", .replacement = "WARN_ON_ONCE" };
static struct rule warn_on = { .macro = "WARN_ON", .class = RC_WARN, .severity = SEV_WARNING,
	.id = "new-warn", .message = "new WARN_ON() warns every time",
	.section = "Use WARN_ON_ONCE() rather than WARN() or WARN_ON()",
	.suggest = "use WARN_ON_ONCE()", .replacement = "WARN_ON_ONCE" };
static struct rule warn_once = { .macro = "WARN_ON_ONCE", .class = RC_WARN_ONCE,
	.severity = SEV_INFO, .id = "new-warn-once", .message = "new WARN_ON_ONCE()",
	.section = "Do not WARN lightly" };

static const char thread[] =
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: Jane Doe <jane@example.org>\n"
	"To: Maint Ainer <maint@example.org>\n"
	"Cc: linux-foo@vger.kernel.org, Other Person <other@example.org>\n"
	"Subject: [PATCH 0/2] foo: two things\n"
	"Message-ID: <cover@example.org>\n"
	"\n"
	"Cover.\n"
	"\n"
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: Jane Doe <jane@example.org>\n"
	"To: Maint Ainer <maint@example.org>\n"
	"Cc: linux-foo@vger.kernel.org, Other Person <other@example.org>\n"
	"Subject: [PATCH 1/2] foo: check the thing\n"
	"Message-ID: <p1@example.org>\n"
	"In-Reply-To: <cover@example.org>\n"
	"References: <cover@example.org>\n"
	"\n"
	"Check.\n"
	"---\n"
	"diff --git a/drivers/foo.c b/drivers/foo.c\n"
	"--- a/drivers/foo.c\n"
	"+++ b/drivers/foo.c\n"
	"@@ -10,3 +10,4 @@ static int foo_probe(struct device *dev)\n"
	" \tint ret;\n"
	"+\tBUG_ON(!dev);\n"
	" \tret = 0;\n"
	"-- \n2.39.2\n"
	"\n"
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: Jane Doe <jane@example.org>\n"
	"To: Maint Ainer <maint@example.org>\n"
	"Cc: linux-foo@vger.kernel.org, Other Person <other@example.org>\n"
	"Subject: [PATCH 2/2] foo: warn in the ioctl\n"
	"Message-ID: <p2@example.org>\n"
	"In-Reply-To: <cover@example.org>\n"
	"References: <cover@example.org>\n"
	"\n"
	"Warn.\n"
	"---\n"
	"diff --git a/drivers/foo.c b/drivers/foo.c\n"
	"--- a/drivers/foo.c\n"
	"+++ b/drivers/foo.c\n"
	"@@ -40,3 +40,4 @@ static struct foo *foo_lookup(int id)\n"
	" \tstruct foo *f;\n"
	"+\tif (WARN_ON(id < 0))\n"
	" \tf = NULL;\n"
	"-- \n2.39.2\n";

/* Pointer-returning functions: ext4's ERR_PTR() style, and a type on the
 * line above the name (no ERR_PTR() around: NULL). */
static const char thread_ptr[] =
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	"From: Jane Doe <jane@example.org>\n"
	"To: linux-ext4@vger.kernel.org\n"
	"Subject: [PATCH] ext4: check rec_len\n"
	"Message-ID: <ptr@example.org>\n"
	"\n"
	"Check.\n"
	"---\n"
	"diff --git a/fs/ext4/namei.c b/fs/ext4/namei.c\n"
	"--- a/fs/ext4/namei.c\n"
	"+++ b/fs/ext4/namei.c\n"
	"@@ -1500,5 +1500,7 @@ static struct buffer_head *__ext4_find_entry(struct inode *dir,\n"
	" \tif (namelen > EXT4_NAME_LEN)\n"
	" \t\treturn NULL;\n"
	"+\tBUG_ON(le16_to_cpu(de->rec_len) < EXT4_DIR_REC_LEN(1) || le16_to_cpu(de->rec_len) > dir->i_sb->s_blocksize);\n"
	" \tif (!bh)\n"
	" \t\treturn ERR_PTR(-EIO);\n"
	"diff --git a/drivers/foo.c b/drivers/foo.c\n"
	"--- a/drivers/foo.c\n"
	"+++ b/drivers/foo.c\n"
	"@@ -20,3 +20,4 @@\n"
	" static struct foo *\n"
	" foo_find(int id)\n"
	" {\n"
	"+\tBUG_ON(id < 0);\n"
	"-- \n2.39.2\n";

static struct finding finding(int patch, const struct rule *r, int line, const char *fn,
			      const char *source, const char *hunk, int hunk_line)
{
	struct finding f = { 0 };

	f.patch = patch;
	f.kind = FINDING_ADDED;
	f.file = (char *)"drivers/foo.c";
	f.line = line;
	f.function = (char *)fn;
	f.rule = r;
	f.severity = r->severity;
	f.source = (char *)source;
	f.hunk = (char *)hunk;
	f.hunk_line = hunk_line;
	f.source_lines = 1;
	f.message = r->message;
	return f;
}

static struct reply_opts opts(void)
{
	struct reply_opts o = REPLY_OPTS_INIT;
	const char *top = getenv("WW_TOP");
	static char dir[4096];

	snprintf(dir, sizeof(dir), "%s/templates", top && *top ? top : ".");
	o.from = "warnwatch <bot@example.org>";
	o.template_dir = dir;
	o.contact = "Jane Maintainer <jm@example.org>";
	o.lists = "*@vger.kernel.org";
	o.date = 1715270400;
	o.message_id = "fixed.1@example.org";
	return o;
}

static bool has(const struct reply *r, const char *s)
{
	return strstr(r->text.buf, s) != NULL;
}

/* How many times `s` occurs in the reply. */
static int count(const struct reply *r, const char *s)
{
	int n = 0;

	for (const char *p = r->text.buf; (p = strstr(p, s)); p += strlen(s))
		n++;
	return n;
}

/* The same, with line breaks and indentation as one space: for prose
 * the filler wrapped. */
static bool has_flat(const struct reply *r, const char *s)
{
	char *flat = xstrdup(r->text.buf), *q = flat;
	bool found;

	for (const char *p = r->text.buf; *p; p++) {
		char c = *p == '\n' ? ' ' : *p;

		if (c == ' ' && q > flat && q[-1] == ' ')
			continue;
		*q++ = c;
	}
	*q = 0;
	found = strstr(flat, s) != NULL;
	free(flat);
	return found;
}

/*
 * Issue 38.3: no two sentences of a reply run together ("...checkpatch
 * does not know that As coding-style.rst puts it:").  The seams: a
 * capitalised plain word ("As", "See", "Every") right after a word that
 * ends no sentence, or right after a stop without a space ("that.As").  Proper nouns that may follow such a word are few
 * and none of them is a plain capitalised word, except the greeting.
 */
static const char *run_on(const char *text)
{
	static char where[96];
	const char *body = strstr(text, "\n\n"), *end = strstr(text, "\n-- \n");
	struct strbuf flat = STRBUF_INIT;
	const char *found = NULL;

	body = body ? body + 2 : text;
	body += strcspn(body, "\n");		/* past "Hi NAME," */
	for (const char *l = body; l < (end ? end : body + strlen(body)); ) {
		size_t len = strcspn(l, "\n");

		/* Prose only: quotes, code and blank lines end a paragraph. */
		if (!len || strchr(">| \t", *l))
			strbuf_addstr(&flat, "\n");
		else {
			strbuf_add(&flat, l, len);
			strbuf_addch(&flat, ' ');
		}
		l += len + (l[len] == '\n');
	}
	for (const char *p = flat.buf + 1; *p && !found; p++) {
		const char *w = p + 1;
		size_t n;

		/* "that.As": a stop without its space. */
		if (strchr(".!?;", *p) && *p && (islower((unsigned char)p[-1]) || p[-1] == ')') &&
		    isupper((unsigned char)p[1]) && islower((unsigned char)p[2])) {
			found = p;
			break;
		}
		if (*p != ' ' || !(isalnum((unsigned char)p[-1]) || p[-1] == ')'))
			continue;
		if (!isupper((unsigned char)*w) || !islower((unsigned char)w[1]))
			continue;
		n = strspn(w + 1, "abcdefghijklmnopqrstuvwxyz");
		if (w[1 + n] == ' ' || w[1 + n] == ',' || w[1 + n] == ':')
			found = p;
	}
	if (found)
		snprintf(where, sizeof(where), "%.40s|%.40s",
			 found - 40 < flat.buf ? flat.buf : found - 40, found);
	strbuf_release(&flat);
	return found ? where : NULL;
}

/* Every reply this file builds, and those with sentences run together. */
static int built, run_together;

static int build(struct reply *r, const struct series *s, struct finding *v, size_t nr,
		 const struct reply_opts *o)
{
	struct check_result res = CHECK_RESULT_INIT;
	const char *where;
	int ret;

	res.v = v;
	res.nr = nr;
	reply_release(r);
	ret = reply_build(r, s, &res, o);
	if (ret || r->empty || !r->text.buf)
		return ret;
	built++;
	where = run_on(r->text.buf);
	if (where && !run_together++)
		printf("# sentences run together: %s\n", where);
	return ret;
}

/* A drop() for issue 27's tests: every BUG_ON() was called wrong. */
static bool drop_bug_on(void *data, const struct finding *f)
{
	(void)data;
	return !strcmp(f->rule->macro, "BUG_ON");
}

/* An earlier() for issue 38.1: v1's review made the point on every
 * BUG_ON(). */
/* Issue 38.1: the reply's record holds FILE:LINE marked "unchanged". */
static bool unchanged_recorded(const struct reply *r, const char *file, int line)
{
	size_t i;
	json_t *c;

	if (!r->record)
		return false;
	json_array_foreach(r->record, i, c) {
		if (json_is_true(json_object_get(c, "unchanged")) &&
		    !strcmp(json_string_value(json_object_get(c, "file")) ?: "", file) &&
		    json_integer_value(json_object_get(c, "line")) == line)
			return true;
	}
	return false;
}

static int earlier_bug_on(void *data, const struct finding *f, struct strbuf *where)
{
	(void)data;
	if (strcmp(f->rule->macro, "BUG_ON"))
		return 0;
	strbuf_addstr(where, "https://lore.example/foo/ww1@example.org/");
	return 1;
}

/*
 * Issue 22: a From: an attacker wrote reaches the one real author (the
 * first mailbox) and the list, never an address hidden in a second
 * mailbox, a comment or an encoded display name.
 */
static void test_hostile_from(const struct reply_opts *base, struct finding *f)
{
	static const char *const froms[] = {
		"Jane <jane@example.org>, Victim <victim@elsewhere.example>",
		"jane@example.org (Jane <victim@elsewhere.example>)",
		"=?UTF-8?q?Jane_=3Cvictim=40elsewhere=2Eexample=3E=2C?= <jane@example.org>",
	};
	struct reply_opts o = *base;

	for (size_t i = 0; i < ARRAY_SIZE(froms); i++) {
		struct mail_list ml = MAIL_LIST_INIT;
		struct series s = SERIES_INIT;
		struct reply r = REPLY_INIT;
		struct strbuf mbox = STRBUF_INIT, got = STRBUF_INIT;

		strbuf_addf(&mbox, "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
			    "From: %s\nTo: linux-foo@vger.kernel.org\n"
			    "Subject: [PATCH] foo: check the thing\nMessage-ID: <h%zu@example.org>\n\n"
			    "Check.\n---\ndiff --git a/drivers/foo.c b/drivers/foo.c\n"
			    "--- a/drivers/foo.c\n+++ b/drivers/foo.c\n"
			    "@@ -10,3 +10,4 @@ static int foo_probe(struct device *dev)\n"
			    " \tint ret;\n+\tBUG_ON(!dev);\n \tret = 0;\n", froms[i], i);
		if (mbox_parse(&ml, mbox.buf, mbox.len) || series_from_mails(&s, &ml)) {
			ok(0, "hostile From: %zu parses: %s", i, error_last());
			goto next;
		}
		f->patch = s.nr ? s.patches[0].index : 1;
		is(build(&r, &s, f, 1, &o), 0, "hostile From: %zu: builds", i);
		for (size_t j = 0; j < r.rcpt.nr; j++)
			strbuf_addf(&got, "%s%s", j ? " " : "", r.rcpt.v[j].addr);
		is_str(got.buf, "jane@example.org linux-foo@vger.kernel.org",
		       "hostile From: %zu: only the author and the list: %s", i, froms[i]);
		ok(!has(&r, "\nTo: Victim") && !has(&r, "\nCc: Victim"),
		   "hostile From: %zu: nobody else in To:/Cc:", i);
next:
		reply_release(&r);
		series_release(&s);
		mail_list_clear(&ml);
		strbuf_release(&mbox);
		strbuf_release(&got);
	}
	f->patch = 1;
}

/*
 * Issue 22: only the configured list is the list.  A Cc'd address that
 * merely looks like one (x@lists.evil.example, y@googlegroups.com) is
 * nobody's list: under reply-to = both it gets nothing, and without any
 * configured list the author alone is mailed.
 */
static void test_lookalike_lists(const struct reply_opts *base, struct finding *f)
{
	static const char *const lists[] = { "*@vger.kernel.org", NULL };
	static const char *const want[] = {
		"jane@example.org linux-foo@vger.kernel.org", "jane@example.org",
	};
	struct reply_opts o = *base;
	struct mail_list ml = MAIL_LIST_INIT;
	struct series s = SERIES_INIT;
	static const char mbox[] = "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
		"From: Jane <jane@example.org>\nTo: linux-foo@vger.kernel.org\n"
		"Cc: x@lists.evil.example, Y <y@googlegroups.com>\n"
		"Subject: [PATCH] foo: check the thing\nMessage-ID: <ll@example.org>\n\n"
		"Check.\n---\ndiff --git a/drivers/foo.c b/drivers/foo.c\n"
		"--- a/drivers/foo.c\n+++ b/drivers/foo.c\n"
		"@@ -10,3 +10,4 @@ static int foo_probe(struct device *dev)\n"
		" \tint ret;\n+\tBUG_ON(!dev);\n \tret = 0;\n";

	if (mbox_parse(&ml, mbox, strlen(mbox)) || series_from_mails(&s, &ml)) {
		ok(0, "lookalike lists: parses: %s", error_last());
		goto out;
	}
	f->patch = s.nr ? s.patches[0].index : 1;
	o.policy = REPLY_TO_BOTH;
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		struct reply r = REPLY_INIT;
		struct strbuf got = STRBUF_INIT;

		o.lists = lists[i];
		is(build(&r, &s, f, 1, &o), 0, "lookalike lists %zu: builds", i);
		for (size_t j = 0; j < r.rcpt.nr; j++)
			strbuf_addf(&got, "%s%s", j ? " " : "", r.rcpt.v[j].addr);
		is_str(got.buf, want[i], "reply-to = both, lists = %s: %s", lists[i] ? lists[i] :
		       "(none)", want[i]);
		reply_release(&r);
		strbuf_release(&got);
	}
	o.lists = NULL;
	o.policy = REPLY_TO_LIST;
	{
		struct reply r = REPLY_INIT;

		is(build(&r, &s, f, 1, &o), WW_EINPUT,
		   "reply-to = list with no list configured: an error, no lookalike mailed");
		reply_release(&r);
	}
out:
	f->patch = 1;
	series_release(&s);
	mail_list_clear(&ml);
}

/* The string `key` of the first record of `record`, "" when none. */
static const char *json_str(const json_t *record, const char *key)
{
	const char *v = json_string_value(json_object_get(json_array_get(record, 0), key));

	return v ? v : "";
}

/* reply_opts.compile stand-in: tried, and the rewrite does not compile. */
static int compile_fails(void *data, const struct finding *f, const char *code,
			 const char **how)
{
	*how = "minimal";
	return 0;
}

/*
 * Issue 36: decisions no other test here made fail when broken -- who is
 * left out of the recipients, a rewrite that did not compile, a call the
 * boot never reached under min-level = warning, and a v2 whose new call
 * is no gentler than v1's.
 */
static void test_decisions(const struct reply_opts *base, struct series *s,
			   struct finding *f)
{
	struct reply_opts o = *base;
	struct reply r = REPLY_INIT;
	struct mail *m = (struct mail *)s->patches[0].mail;
	char *cc_raw = m->cc_raw;
	struct ci_verdict vd = CI_VERDICT_INIT;
	struct finding two[2];

	/* [review] skip-authors: the author means no reply at all. */
	o.skip = "jane@example.org";
	build(&r, s, f, 1, &o);
	ok(r.author_skipped, "an author in skip-authors: the reply is skipped");
	o.skip = NULL;
	/* Never a copy to ourselves, even when the patch Cc'ed us. */
	m->cc_raw = (char *)"linux-foo@vger.kernel.org, Bot <bot@example.org>, "
		"Ann <ann@example.org>";
	o.policy = REPLY_TO_ALL;
	build(&r, s, f, 1, &o);
	ok(!mail_addr_has(&r.cc, "bot@example.org") && !mail_addr_has(&r.rcpt, "bot@example.org") &&
	   mail_addr_has(&r.cc, "ann@example.org"),
	   "reply-to = all: everyone the patch went to but ourselves");
	o.policy = REPLY_TO_BOTH;
	build(&r, s, f, 1, &o);
	ok(r.cc.nr == 1 && mail_addr_has(&r.cc, "linux-foo@vger.kernel.org"),
	   "reply-to = both: of the Cc'ed addresses, the list alone");
	m->cc_raw = cc_raw;

	/* A rewrite the compiler refused is not shown. */
	{
		struct cfacts cf = CFACTS_INIT;

		cf.found = true;
		cf.ret = CF_RET_INT;
		cf.follows = true;
		o.facts = &cf;
		o.compile = compile_fails;
		build(&r, s, f, 1, &o);
		ok(!has(&r, "\tif (WARN_ON_ONCE(!dev))\n") &&
		   json_is_false(json_object_get(json_array_get(r.record, 0), "compiled")) &&
		   json_is_null(json_object_get(json_array_get(r.record, 0), "rewrite")),
		   "a rewrite that does not compile: not offered, \"compiled\": false");
		o.facts = NULL;
		o.compile = NULL;
	}

	/* min-level = warning: a note stays only when the boot reached the
	 * call (counted runs); a count of 0 is not reached. */
	two[0] = f[0];
	two[1] = finding(2, &warn_once, 41, "foo_lookup", "WARN_ON_ONCE(id < 0)",
			 " \tstruct foo *f;\n+\tif (WARN_ON_ONCE(id < 0))\n \tf = NULL;\n", 1);
	o.need_evidence = true;
	for (int runs = 0; runs <= 3; runs += 3) {
		struct strbuf json = STRBUF_INIT;

		strbuf_addf(&json, "{\"verdict\": \"clean\", \"base\": \"6.12.9\", \"calls\": ["
			    "{\"file\": \"drivers/foo.c\", \"line\": 41, \"macro\": \"WARN_ON_ONCE\", "
			    "\"patch\": 2, \"reached\": %d, \"fired\": false}]}", runs);
		if (ci_verdict_from_json(&vd, json.buf, json.len, "reached.json")) {
			ok(0, "reached %d: parses: %s", runs, error_last());
			strbuf_release(&json);
			continue;
		}
		o.verdict = &vd;
		build(&r, s, two, 2, &o);
		if (runs)
			ok(r.notes == 1 && !r.dropped,
			   "min-level = warning: a note the boot ran 3 times stays");
		else
			ok(r.notes == 0 && r.dropped == 1,
			   "min-level = warning: a note the boot ran 0 times is left out");
		o.verdict = NULL;
		ci_verdict_release(&vd);
		strbuf_release(&json);
	}
	o.need_evidence = false;

	/* v1 added a WARN_ON(), v2 a WARN() there instead: as harsh, no
	 * "is now a" credit for it. */
	{
		static struct rule warn_fmt = { .macro = "WARN", .class = RC_WARN,
			.severity = SEV_WARNING, .id = "new-warn", .message = "new WARN()",
			.section = "Use WARN_ON_ONCE() rather than WARN() or WARN_ON()" };
		struct check_result prev = CHECK_RESULT_INIT;
		struct series s2 = *s;
		struct finding v2 = finding(2, &warn_fmt, 41, "foo_lookup",
					    "WARN(id < 0, \"id\")",
					    " \tstruct foo *f;\n+\tif (WARN(id < 0, \"id\"))\n"
					    " \tf = NULL;\n", 1);

		prev.v = &f[1];
		prev.nr = 1;
		s2.version = 2;
		o.prev = s;
		o.prev_result = &prev;
		build(&r, &s2, &v2, 1, &o);
		ok(!has_flat(&r, "is now a WARN()"),
		   "v2 replacing v1's WARN_ON() by a WARN(): not credited as gentler");
		o.prev = NULL;
		o.prev_result = NULL;
	}

	/* rules/advice.json with forty entries: the fortieth is said (the
	 * reply's hits[32] turned all advice off past 32). */
	{
		struct advice forty = ADVICE_INIT;
		struct strbuf json = STRBUF_INIT;

		strbuf_addstr(&json, "{\"review\": {\"advice\": [");
		for (int i = 0; i < 40; i++)
			strbuf_addf(&json, "%s{\"id\": \"e%d\", \"match\": \"path\", \"paths\": "
				    "[\"%s/\"], \"classes\": [\"bug\"], \"say\": \"Advice "
				    "number %d applies here.\"}", i ? ", " : "", i,
				    i == 39 ? "drivers" : "elsewhere", i);
		strbuf_addstr(&json, "]}}");
		if (advice_load_buf(&forty, json.buf, json.len, "forty.json")) {
			ok(0, "forty advice entries load: %s", error_last());
		} else {
			o.advice = &forty;
			build(&r, s, f, 1, &o);
			ok(has_flat(&r, "Advice number 39 applies here."),
			   "forty advice entries: the fortieth is said");
			o.advice = base->advice;
		}
		advice_release(&forty);
		strbuf_release(&json);
	}
	reply_release(&r);
}

/* reply_opts.compile stand-ins: could not be tried, and compiles. */
static int compile_untried(void *data, const struct finding *f, const char *code,
			   const char **how)
{
	return error_code(WW_ECHILD, "the file does not compile as the series left it");
}

static int compile_ok(void *data, const struct finding *f, const char *code, const char **how)
{
	*how = "minimal";
	return 1;
}

/* Two pieces joined as the reply joins them: a stop, one space. */
static bool joined_well(const char *a, const char *b)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n;
	bool good;

	english_sentence(&sb, a);
	n = sb.len;
	english_sentence(&sb, b);
	good = n && sb.len > n + 1 && strchr(".!?:", sb.buf[n - 1]) && sb.buf[n] == ' ' &&
	       !isspace((unsigned char)sb.buf[n + 1]);
	strbuf_release(&sb);
	return good;
}

static void test_sentence_seams(const struct reply_opts *base, const struct series *s,
				const struct advice *adv)
{
	static const char rst[] =
		"Linux kernel coding style\n"
		"=========================\n\n"
		"22) Do not crash the kernel\n"
		"---------------------------\n\n"
		"Use WARN() rather than BUG()\n"
		"****************************\n\n"
		"Do not add new code that uses any of the BUG() variants, such as BUG(),\n"
		"BUG_ON(), or VM_BUG_ON(). Instead, use a WARN*() variant, preferably\n"
		"WARN_ON_ONCE(), and possibly with recovery code.\n\n"
		"Use WARN_ON_ONCE() rather than WARN() or WARN_ON()\n"
		"**************************************************\n\n"
		"WARN_ON_ONCE() is generally preferred over WARN() or WARN_ON(), because it\n"
		"is common for a given warning condition, if it occurs at all, to occur\n"
		"multiple times.\n\n"
		"Do not WARN lightly\n"
		"*******************\n\n"
		"WARN*() is intended for a situation that should never happen.\n";
	/* Every piece a sentence of the reply is made of, as data has it. */
	static const char *const made[] = {
		"every use of BAD_DATA() is a WARN(); checkpatch does not know that",
		"every use of the macro is a WARN(); checkpatch does not know that",
		"See \"Use WARN() rather than BUG()\" in " GUIDE_PATH,
	};
	const struct rule *rules[] = { &bug_on, &warn_on, &warn_once };
	struct ruleset rs = RULESET_INIT;
	struct strvec pieces = STRVEC_INIT;
	struct guide g = GUIDE_INIT;
	struct reply r = REPLY_INIT;
	const char *top = getenv("WW_TOP");
	char dir[4096];
	size_t bad = 0, pairs = 0;
	int renders = 0, garbled = 0;

	snprintf(dir, sizeof(dir), "%s/rules", top && *top ? top : ".");
	if (rules_load(&rs, dir) || guide_parse(&g, rst, strlen(rst), "rst")) {
		ok(0, "38.3: rules and guide load: %s", error_last());
		goto out;
	}
	for (size_t i = 0; i < ARRAY_SIZE(made); i++)
		strvec_push(&pieces, made[i]);
	for (int c = 0; c < RC__NR; c++)
		if (adv->explain[c])
			strvec_push(&pieces, adv->explain[c]);
	if (adv->guide_intro)
		strvec_push(&pieces, adv->guide_intro);
	for (size_t i = 0; i < adv->nr; i++) {
		if (adv->v[i].say)
			strvec_push(&pieces, adv->v[i].say);
		if (adv->v[i].again)
			strvec_push(&pieces, adv->v[i].again);
	}
	for (size_t i = 0; i < rs.nr; i++)
		if (rs.rules[i].message)
			strvec_push(&pieces, rs.rules[i].message);
	/* Join points in C: any piece may be followed by any other. */
	for (size_t i = 0; i < pieces.nr; i++)
		for (size_t k = 0; k < pieces.nr; k++, pairs++)
			if (!joined_well(pieces.v[i], pieces.v[k]) && !bad++)
				printf("# run together: '%s' + '%s'\n", pieces.v[i], pieces.v[k]);
	ok(pairs > 100 && !bad, "38.3: %zu piece pairs joined with a stop and a space (%zu not)",
	   pairs, bad);

	/* Join points in templates/: every call kind, a wrapper's own
	 * message (no explanation of its class), with the tree's guide and
	 * without, rendered through reply.txt and finding.txt. */
	for (size_t k = 0; k < ARRAY_SIZE(rules); k++)
		for (int wrapper = 0; wrapper < 2; wrapper++)
			for (int with_guide = 0; with_guide < 2; with_guide++) {
				struct reply_opts o = *base;
				struct finding f = finding(1, rules[k], 11, "foo_probe",
							   "BAD_DATA(!dev)",
							   " \tint ret;\n+\tBAD_DATA(!dev);\n", 1);
				const char *where;

				if (wrapper) {
					f.kind = FINDING_DEFINE;
					f.defined = (char *)"BAD_DATA";
					f.message = (char *)made[0];
				}
				o.guide = with_guide ? &g : NULL;
				if (build(&r, s, &f, 1, &o) || r.empty || !r.text.buf)
					continue;
				renders++;
				where = run_on(r.text.buf);
				if (where && !garbled++)
					printf("# run together in %s%s%s: %s\n", rules[k]->id,
					     wrapper ? ", wrapper" : "",
					     with_guide ? ", guide" : "", where);
			}
	ok(renders >= 8, "38.3: %d replies rendered", renders);
	is(garbled, 0, "38.3: no two sentences run together in any of them");
	{
		struct reply_opts o = *base;
		struct finding f = finding(1, &warn_on, 11, "foo_probe", "BAD_DATA(!dev)",
					   " \tint ret;\n+\tBAD_DATA(!dev);\n", 1);

		f.kind = FINDING_DEFINE;
		f.defined = (char *)"BAD_DATA";
		f.message = (char *)made[0];
		o.guide = &g;
		build(&r, s, &f, 1, &o);
		ok(has_flat(&r, "checkpatch does not know that. As coding-style.rst puts it:"),
		   "38.3: the wrapper's sentence is closed before the guide's intro");
	}
out:
	reply_release(&r);
	guide_release(&g);
	strvec_clear(&pieces);
	ruleset_release(&rs);
}

int main(void)
{
	struct mail_list mails = MAIL_LIST_INIT;
	struct series s = SERIES_INIT;
	struct reply r = REPLY_INIT;
	struct reply_opts o = opts();
	struct finding f[4];
	struct ci_verdict vd = CI_VERDICT_INIT;
	struct advice adv = ADVICE_INIT;
	int ret;

	if (mbox_parse(&mails, thread, strlen(thread)) || series_from_mails(&s, &mails)) {
		printf("Bail out! cannot parse the test thread: %s\n", error_last());
		return 1;
	}
	/* The real rules/advice.json: what the reply says is data. */
	{
		const char *top = getenv("WW_TOP");
		char dir[4096];

		snprintf(dir, sizeof(dir), "%s/rules", top && *top ? top : ".");
		if (advice_load(&adv, dir)) {
			printf("Bail out! %s\n", error_last());
			return 1;
		}
		o.advice = &adv;
	}
	f[0] = finding(1, &bug_on, 11, "foo_probe", "BUG_ON(!dev)",
		       " \tint ret;\n+\tBUG_ON(!dev);\n \tret = 0;\n", 1);
	f[1] = finding(2, &warn_on, 41, "foo_lookup", "WARN_ON(id < 0)",
		       " \tstruct foo *f;\n+\tif (WARN_ON(id < 0))\n \tf = NULL;\n", 1);

	/* One patch with a finding: that patch is answered. */
	ret = build(&r, &s, f, 1, &o);
	is(ret, 0, "builds");
	ok(!r.empty, "something to say");
	is(r.answered, 1, "answers the patch with the finding");
	is_str(r.in_reply_to, "p1@example.org", "In-Reply-To the patch");
	ok(has(&r, "\nSubject: Re: [PATCH 1/2] foo: check the thing\n"), "Subject: Re: + exact subject");
	ok(has(&r, "\nReferences: <cover@example.org> <p1@example.org>\n"),
	   "References: the patch's + its Message-ID");
	ok(has(&r, "\nMessage-ID: <fixed.1@example.org>\n"), "our Message-ID");
	ok(has(&r, "\nDate: Thu, 09 May 2024 16:00:00 +0000\n"), "Date");
	ok(has(&r, "From: warnwatch <bot@example.org>\nTo: Jane Doe <jane@example.org>\n"
		   "Cc: linux-foo@vger.kernel.org\n"), "From, To: author, Cc: the list only");
	ok(!has(&r, "maint@example.org"), "not the maintainers (policy 'both')");
	is(r.rcpt.nr, 2, "two envelope recipients");
	ok(has(&r, "\nContent-Type: text/plain; charset=UTF-8\n"), "plain text UTF-8");
	ok(!has(&r, "X-Patchwork-Hint"), "no patchwork hint unless asked");
	/* The opening names the function: the quote below may not show it. */
	ok(has(&r, "This patch adds a BUG_ON() to foo_probe(); comments inline."),
	   "opening: this patch, the macro and its function");
	/* Inline, as on the lists: the file, then the call with its context. */
	ok(has(&r, "\n> +++ b/drivers/foo.c\n>  \tint ret;\n> +\tBUG_ON(!dev);\n>  \tret = 0;\n"),
	   "location (file) and the quoted lines around the call");
	ok(has_flat(&r, "A BUG_ON() takes the machine down to report one bad state"),
	   "why: the explanation of its class (rules/advice.json)");
	ok(has_flat(&r, "See \"Use WARN() rather than BUG()\" in Documentation/process/coding-style.rst."),
	   "without a tree: the section is named, not quoted");
	ok(!has(&r, "WARN_ON_ONCE(!dev)"),
	   "without a tree no rewrite: the diff does not show the function's exits");
	/* With facts from the tree after the patch: an int function, code follows. */
	{
		struct cfacts cf[2] = { CFACTS_INIT, CFACTS_INIT };
		struct reply_opts fo = o;

		cf[0].found = true;
		cf[0].ret = CF_RET_INT;
		cf[0].follows = true;
		cf[0].loop = INLOOP_NO;
		fo.facts = cf;
		fo.compile = compile_ok;
		build(&r, &s, f, 1, &fo);
		ok(has(&r, "\tif (WARN_ON_ONCE(!dev))\n\t\treturn -EINVAL;\n"),
		   "example: an int function returns an errno");
		is_str(json_string_value(json_object_get(json_array_get(r.record, 0), "loop")),
		       "no", "the JSON record names the loop fact the way out rests on");
		cf[0].exit = (char *)"err = -ENODEV;\ngoto out_put;";
		build(&r, &s, f, 1, &fo);
		ok(has(&r, "\tif (WARN_ON_ONCE(!dev)) {\n\t\terr = -ENODEV;\n\t\tgoto out_put;\n\t}\n"),
		   "example: the function's own nearest failure exit, mirrored");
		ok(!strcmp(json_str(r.record, "exit"), "err = -ENODEV;\ngoto out_put;"),
		   "the JSON record names the exit mirrored");
		is_str(json_string_value(json_object_get(json_array_get(r.record, 0), "facts_from")),
		       "patched", "facts from the tree after the patch: \"patched\"");
		/* Issue 34, item 5: "compiled": null never reaches a reply. */
		fo.compile = NULL;
		build(&r, &s, f, 1, &fo);
		ok(json_is_null(json_object_get(json_array_get(r.record, 0), "compiled")),
		   "not compiled without a compiler: null");
		ok(!has(&r, "goto out_put") && !strcmp(json_str(r.record, "rewrite"),
			"if (WARN_ON_ONCE(!dev)) {\n\terr = -ENODEV;\n\tgoto out_put;\n}"),
		   "34: a rewrite nobody compiled is recorded, never shown");
		fo.compile = compile_untried;
		build(&r, &s, f, 1, &fo);
		ok(!has(&r, "goto out_put") && !has(&r, "WARN_ON_ONCE(!dev)"),
		   "34: nor one whose compile could not be tried");
		fo.compile = compile_ok;
		/* Issue 34: in a loop (or not known to be in none) a way out
		 * would skip the later iterations: none is offered. */
		cf[0].loop = INLOOP_YES;
		build(&r, &s, f, 1, &fo);
		ok(!has(&r, "goto out_put") && !has(&r, "return -") &&
		   !has_flat(&r, "leave the function") && has_flat(&r, "warn once instead"),
		   "34: in a loop: no way out, and the explanation does not say to leave");
		is_str(json_string_value(json_object_get(json_array_get(r.record, 0), "loop")),
		       "yes", "  the record says why: \"loop\": \"yes\"");
		cf[0].loop = INLOOP_UNKNOWN;
		build(&r, &s, f, 1, &fo);
		ok(!has(&r, "goto out_put") && !has(&r, "return -") && !has_flat(&r, "leave the function"),
		   "34: not known to be in no loop: no way out either");
		cf[0].loop = INLOOP_NO;
		build(&r, &s, f, 1, &fo);
		ok(has_flat(&r, "warn once and return an error instead"),
		   "34: in no loop, in a function that fails with an errno, the explanation "
		   "says to return an error");
		{
			/* A void function: no error to return; leaving says
			 * something only where statements follow the call. */
			struct cfacts keep = cf[0];

			cf[0].ret = CF_RET_PTR;
			cf[0].exit = NULL;
			build(&r, &s, f, 1, &fo);
			ok(has_flat(&r, "warn once and return an error instead"),
			   "34: a function that returns NULL on failure has an error return");
			cf[0].ret = CF_RET_BOOL;
			build(&r, &s, f, 1, &fo);
			ok(has_flat(&r, "warn once and leave the function instead") &&
			   !has_flat(&r, "return an error"),
			   "34: a bool function: leave it, no 'error' to return");
			cf[0].ret = CF_RET_VOID;
			build(&r, &s, f, 1, &fo);
			ok(has_flat(&r, "warn once and leave the function instead") &&
			   !has_flat(&r, "return an error"),
			   "34: a void function with code after the call: leave it, no error");
			cf[0].follows = false;
			build(&r, &s, f, 1, &fo);
			ok(has_flat(&r, "warn once instead") && !has_flat(&r, "leave the function") &&
			   !has_flat(&r, "return an error"),
			   "34: a void function whose last statement is the call: warn once, no more");
			cf[0] = keep;
		}
		fo.compile = NULL;
		/* Facts read by name from the base (patch refused the hunk). */
		cf[0].by_name = true;
		build(&r, &s, f, 1, &fo);
		is_str(json_string_value(json_object_get(json_array_get(r.record, 0), "facts_from")),
		       "base-by-name", "by name: \"facts_from\": \"base-by-name\"");
		ok(!has(&r, "goto out_put") &&
		   json_is_null(json_object_get(json_array_get(r.record, 0), "rewrite")),
		   "  no compiler: no rewrite (only one that compiled is offered)");
		fo.compile = compile_untried;
		build(&r, &s, f, 1, &fo);
		ok(!has(&r, "goto out_put") &&
		   json_is_null(json_object_get(json_array_get(r.record, 0), "rewrite")) &&
		   json_is_null(json_object_get(json_array_get(r.record, 0), "compiled")),
		   "  a compile that could not be tried: no rewrite either");
		fo.compile = compile_ok;
		build(&r, &s, f, 1, &fo);
		ok(has(&r, "\t\tgoto out_put;\n") &&
		   json_is_true(json_object_get(json_array_get(r.record, 0), "compiled")),
		   "  one that compiled: offered");
		/* ... of a function the refused hunk adds whole. */
		cf[0].appended = true;
		fo.compile = NULL;
		build(&r, &s, f, 1, &fo);
		is_str(json_string_value(json_object_get(json_array_get(r.record, 0), "facts_from")),
		       "hunk-added", "added whole: \"facts_from\": \"hunk-added\"");
		ok(json_is_null(json_object_get(json_array_get(r.record, 0), "rewrite")),
		   "  no compiler: no rewrite, as by name");
		fo.compile = compile_ok;
		cf[0].appended = false;
		cf[0].by_name = false;
		cf[0].recovers = true;
		build(&r, &s, f, 1, &fo);
		ok(has(&r, "\tWARN_ON_ONCE(!dev);\n") && !has(&r, "goto out_put"),
		   "the next statement recovers: the gentler macro, no way out");
		cf[0].recovers = false;
		cf[0].ret = CF_RET_VOID;
		cf[0].exit = NULL;
		build(&r, &s, f, 1, &fo);
		ok(has(&r, "\tWARN_ON_ONCE(!dev);\n") && !has(&r, "return"),
		   "a void function without a failure exit runs to its end: no return");
		cf[0].ret = CF_RET_INT;
		cf[0].assertion = true;
		build(&r, &s, f, 1, &fo);
		ok(has(&r, "\tif (WARN_ON_ONCE(dev))\n"), "an assertion's condition is negated");
		cf[0].assertion = false;
	}
	ok(has(&r, "Contact: Jane Maintainer <jm@example.org>"), "signature with a contact");
	ok(!has(&r, "One caveat"), "no panic_on_warn caveat for a BUG_ON() alone");

	/* Two patches: the cover letter. */
	ret = build(&r, &s, f, 2, &o);
	is(r.answered, 0, "several patches: the cover letter is answered");
	ok(has(&r, "\nSubject: Re: [PATCH 0/2] foo: two things\n"), "Subject of the cover");
	ok(has(&r, "\nIn-Reply-To: <cover@example.org>\nReferences: <cover@example.org>\n"),
	   "threaded under the cover");
	ok(has_flat(&r, "This series adds a BUG_ON() and a WARN_ON() to foo_probe() and "
		    "foo_lookup(); comments inline."),
	   "opening: this series, both macros, both functions");
	ok(has(&r, "\n[PATCH 1/2] foo: check the thing\n") && has(&r, "\n[PATCH 2/2] foo: warn in the ioctl\n"),
	   "per-patch headings");
	ok(!has(&r, "\tif (WARN_ON_ONCE(id < 0))\n"), "no tree: no rewrite in a series either");
	/* Issue 34, item 7: the opening promises only the rewrites the body
	 * shows ("each gets its rewrite below" over none was 9 drafts). */
	{
		struct finding two[2] = { f[0], finding(2, &bug_on, 41, "foo_lookup", "BUG_ON(id < 0)",
			" \tstruct foo *f;\n+\tBUG_ON(id < 0);\n \tf = NULL;\n", 1) };
		struct cfacts cf[2] = { CFACTS_INIT, CFACTS_INIT };
		struct reply_opts fo = o;

		build(&r, &s, two, 2, &o);
		ok(has_flat(&r, "one point covers both, made at the first.") && !has_flat(&r, "rewrite"),
		   "34: one point, no rewrite shown: the opening promises none");
		for (int i = 0; i < 2; i++) {
			cf[i].found = true;
			cf[i].ret = CF_RET_INT;
			cf[i].follows = true;
			cf[i].loop = INLOOP_NO;
		}
		fo.facts = cf;
		build(&r, &s, two, 2, &fo);
		ok(has_flat(&r, "one point covers both, made at the first.") && !has_flat(&r, "rewrite"),
		   "34: rewrites not compiled are not shown, nor promised");
		fo.compile = compile_ok;
		build(&r, &s, two, 2, &fo);
		ok(has_flat(&r, "one point covers both, made at the first, and each gets its rewrite "
			    "below.") && count(&r, "return -EINVAL;") == 2,
		   "34: both compiled and shown: each gets its rewrite");
		cf[1].found = false;	/* no facts for foo_lookup(): no rewrite there */
		build(&r, &s, two, 2, &fo);
		ok(has_flat(&r, "one point covers both, made at the first; the one in foo_probe() gets "
			    "its rewrite below.") && count(&r, "return -EINVAL;") == 1,
		   "34: one shown: the opening names the function whose rewrite is below");
	}
	/*
	 * Issue 34: "adds two BUG() calls" where the patch removes one of
	 * the same elsewhere (btrfs: a default: BUG() split into two new
	 * helpers) says the removal too; the count alone overstated what
	 * is new.
	 */
	{
		struct finding v[3] = {
			f[0],
			finding(1, &bug_on, 41, "foo_lookup", "BUG_ON(!dev)",
				" \tstruct foo *f;\n+\tBUG_ON(!dev);\n \tf = NULL;\n", 1),
			finding(1, &bug_on, 90, "foo_old", "BUG_ON(!dev)",
				" \tint x;\n-\tBUG_ON(!dev);\n \tx = 0;\n", 1),
		};

		v[2].kind = FINDING_REMOVED;
		v[2].severity = SEV_INFO;
		v[2].readded = true;
		build(&r, &s, v, 3, &o);
		ok(has_flat(&r, "This patch adds two BUG_ON() calls to foo_probe() and foo_lookup() "
			    "and removes the BUG_ON() in foo_old(): one point covers both"),
		   "34: the same call removed elsewhere is said with the count");
		v[2].readded = false;
		build(&r, &s, v, 3, &o);
		ok(!has_flat(&r, "removes the"), "34: ... and only when the check says it was");
	}
	{
		struct cfacts cf[2] = { CFACTS_INIT, CFACTS_INIT };
		struct reply_opts fo = o;

		cf[1].found = true;
		cf[1].ret = CF_RET_INT;
		fo.facts = cf;
		fo.compile = compile_ok;
		build(&r, &s, f, 2, &fo);
		ok(has(&r, "\tif (WARN_ON_ONCE(id < 0))\n"), "example: inside an if only the macro changes");
	}
	ok(has_flat(&r, "Any WARN stops panic_on_warn=1 machines") &&
	   has_flat(&r, "pr_warn_ratelimited()"),
	   "panic_on_warn caveat with a WARN, and what to use instead");
	ok(count(&r, "panic_on_warn=1") == 1, "the caveat is said once");
	ok(has_flat(&r, "it is no kernel bug and needs no WARN (pr_warn_ratelimited()") &&
	   !has_flat(&r, "return an error"),
	   "34: not known to be in no loop: no WARN, and no word of returning");
	{
		struct cfacts cf[2] = { CFACTS_INIT, CFACTS_INIT };
		struct reply_opts fo = o;

		cf[1].found = true;
		cf[1].ret = CF_RET_INT;
		cf[1].loop = INLOOP_NO;
		fo.facts = cf;
		build(&r, &s, f, 2, &fo);
		ok(has_flat(&r, "it is no kernel bug and needs no WARN: return an error instead "
			    "(pr_warn_ratelimited()"),
		   "34: an errno function in no loop: no WARN, and return an error");
		cf[1].ret = CF_RET_VOID;
		build(&r, &s, f, 2, &fo);
		ok(has_flat(&r, "needs no WARN (pr_warn_ratelimited()") &&
		   !has_flat(&r, "return an error"), "34: a void function: no error to return");
	}

	/* In a handler user space calls, a condition it can cause is no WARN. */
	{
		struct finding u = finding(2, &warn_on, 41, "foo_ioctl", "WARN_ON(id < 0)",
					   " \tstruct foo *f;\n+\tWARN_ON(id < 0);\n", 1);

		struct cfacts cf = CFACTS_INIT;
		struct reply_opts fo = o;

		build(&r, &s, &u, 1, &o);
		ok(!has_flat(&r, "user space"), "an ioctl's name alone proves nothing about id");
		cf.found = true;
		cf.ret = CF_RET_INT;
		cf.user = (char *)"id";
		cf.loop = INLOOP_NO;
		fo.facts = &cf;
		fo.compile = compile_ok;
		build(&r, &s, &u, 1, &fo);
		ok(has_flat(&r, "User space sets id") &&
		   has(&r, "\tif (id < 0)\n\t\treturn -EINVAL;\n") && !has(&r, "\tif (WARN_ON_ONCE(id < 0))"),
		   "user-space entry point: an error return, not a WARN");
		ok(json_array_size(r.record) == 1, "one JSON record for the call");
		ok(!strcmp(json_string_value(json_object_get(json_array_get(json_object_get(
			json_array_get(r.record, 0), "rules"), 0), "fact")), "user"),
		   "its rule names the user fact as evidence");
		/* The advice's "if ({cond})\n\t{ret:-EINVAL}" with a way out of two
		 * statements: both are the if's, in braces. */
		cf.exit = (char *)"ret = -EFAULT;\ngoto out;";
		build(&r, &s, &u, 1, &fo);
		ok(has(&r, "\tif (id < 0) {\n\t\tret = -EINVAL;\n\t\tgoto out;\n\t}\n"),
		   "23: a two-statement way out gets the if's braces");
		cf.exit = NULL;
		/* Inside a locked region with no exit that unlocks: no way out. */
		cf.locked = true;
		build(&r, &s, &u, 1, &fo);
		ok(has_flat(&r, "User space sets id") && !has(&r, "return -EINVAL"),
		   "23: a lock held and no exit that drops it: no return in the rewrite");
		cf.locked = false;
		/* Issue 34: "leave the function" in cgroup_init_early()'s loop
		 * would skip every later subsystem. */
		cf.loop = INLOOP_YES;
		build(&r, &s, &u, 1, &fo);
		ok(has_flat(&r, "User space sets id") && has_flat(&r, "so no WARN or BUG") &&
		   !has_flat(&r, "error return") && !has(&r, "return -EINVAL"),
		   "34: in a loop: bad input, no WARN, but no error return said or shown");
		cf.loop = INLOOP_NO;
	}

	/* No cover letter: the first patch with findings. */
	{
		const struct mail *cover = s.cover;

		s.cover = NULL;
		build(&r, &s, f, 2, &o);
		is(r.answered, 1, "no cover letter: the first patch with findings");
		s.cover = cover;
	}

	/* Nothing to say. */
	ret = build(&r, &s, f, 0, &o);
	ok(!ret && r.empty && !r.text.len, "no findings: no reply");
	f[2] = finding(1, &warn_once, 11, "foo_probe", "WARN_ON_ONCE(!dev)",
		       "+\tif (WARN_ON_ONCE(!dev))\n", 0);
	ret = build(&r, &s, f + 2, 1, &o);
	ok(!ret && r.empty, "an added WARN_ON_ONCE() alone (info) is no reason to write");
	/* Issue 23, item 5: unless disk content or user space reaches it. */
	{
		struct finding once = finding(1, &warn_once, 11, "foo_ioctl", "WARN_ON_ONCE(len > 16)",
					      "+\tWARN_ON_ONCE(len > 16);\n \tfoo_done(l);\n", 0),
			       used = finding(1, &warn_once, 11, "foo_ioctl", "WARN_ON_ONCE(len > 16)",
					      "+\tWARN_ON_ONCE(len > 16);\n \tmemcpy(l, p, len);\n", 0);
		struct cfacts cf = CFACTS_INIT;
		struct reply_opts fo = o;

		cf.found = true;
		cf.ret = CF_RET_INT;
		cf.follows = true;
		fo.facts = &cf;
		ret = build(&r, &s, &once, 1, &fo);
		ok(!ret && r.empty, "23: facts that say nothing of disk or user space: still no reply");
		cf.user = (char *)"len";
		ret = build(&r, &s, &once, 1, &fo);
		ok(!ret && !r.empty && r.issues == 1 && has_flat(&r, "User space sets len"),
		   "23: a lone WARN_ON_ONCE() user space reaches gets a reply");
		cf.user = NULL;
		cf.disk = (char *)"len";
		ret = build(&r, &s, &once, 1, &fo);
		ok(!ret && r.empty, "23: __le data outside a filesystem of advice.json: no reply");
		once.file = (char *)"fs/ext4/namei.c";
		ret = build(&r, &s, &once, 1, &fo);
		ok(!ret && !r.empty && r.issues == 1 && has_flat(&r, "The ext4 image on disk sets len"),
		   "23: a lone WARN_ON_ONCE() on ext4's on-disk data gets a reply");
		ret = build(&r, &s, &once, 1, &o);
		ok(!ret && r.empty, "23: without the tree's facts the diff proves neither: no reply");
		/* Issue 34: an existing WARN_ON() whose condition moved into
		 * an if above a WARN_ON(1) (linux-wireless/0012): fold-if holds
		 * for the new form, but a changed call stays a note (three judge
		 * controls rewrote a call so and were taken without a word). */
		struct finding ch[2] = {
			finding(1, &warn_on, 11, "foo_init", "WARN_ON(n > 12)",
				"-\tWARN_ON(n > 12);\n+\tif (unlikely(n > 12)) {\n+\t\tWARN_ON(1);\n"
				"+\t\tn = 12;\n+\t}\n", 0),
			finding(1, &warn_on, 12, "foo_init", "WARN_ON(1)",
				"-\tWARN_ON(n > 12);\n+\tif (unlikely(n > 12)) {\n+\t\tWARN_ON(1);\n"
				"+\t\tn = 12;\n+\t}\n", 2),
		};

		ch[0].kind = FINDING_REMOVED;
		for (int k = 0; k < 2; k++) {
			ch[k].moved = ch[k].modified = true;
			ch[k].severity = SEV_INFO;
		}
		ret = build(&r, &s, ch, 2, &o);
		ok(!ret && r.empty, "34: a changed condition is a note, even with a point about its "
		   "form (judge controls: maintainers take such rewrites without a word)");
		/* Issue 34: a point the diff proves speaks for a WARN_ON_ONCE()
		 * too: the value it tested is used below it anyway. */
		ret = build(&r, &s, &used, 1, &o);
		ok(!ret && !r.empty && r.issues == 1 &&
		   has_flat(&r, "foo_ioctl() carries on anyway: len, which it just tested, is still used below it"),
		   "34: a lone WARN_ON_ONCE() whose value is used anyway gets a reply");
	}
	o.always = true;
	ret = build(&r, &s, f, 0, &o);
	ok(!ret && !r.empty && r.answered == 0 && has(&r, "found nothing to comment on"),
	   "--always: a short reply to the cover letter");
	o.always = false;

	/* Removals are thanked. */
	f[3] = finding(1, &bug_on, 12, "foo_probe", "BUG_ON(x)", "-\tBUG_ON(x);\n", 0);
	f[3].kind = FINDING_REMOVED;
	f[3].severity = SEV_CREDIT;
	ret = build(&r, &s, f + 3, 1, &o);
	ok(!ret && !r.empty && r.credits == 1, "a removal is worth a thank-you");
	ok(has(&r, "Thanks for removing the BUG_ON() from foo_probe()."),
	   "it says what was removed, and from where");
	/* The same removal in two patches: one thank-you per reply. */
	{
		struct finding two[2] = { f[3], f[3] };

		two[1].patch = 2;
		two[1].line = 40;
		build(&r, &s, two, 2, &o);
		is(count(&r, "Thanks for removing"), 1,
		   "a credit is said at most once per series");
	}
	/* A BUG_ON() made a plain WARN_ON() in the same patch: thanked, and
	 * still the WARN_ON_ONCE() point (linux-block/0017, linux-xfs/0091:
	 * "otherwise it'll trigger endless amounts of stacktraces"). */
	{
		struct finding conv[2] = {
			finding(1, &bug_on, 12, "foo_probe", "BUG_ON(x)", "-\tBUG_ON(x);\n"
				"+\tif (WARN_ON(x))\n+\t\treturn -EINVAL;\n", 0),
			finding(1, &warn_on, 12, "foo_probe", "WARN_ON(x)", "-\tBUG_ON(x);\n"
				"+\tif (WARN_ON(x))\n+\t\treturn -EINVAL;\n", 1),
		};
		struct rule once_repl = warn_on;

		conv[0].kind = FINDING_REMOVED;
		for (int k = 0; k < 2; k++) {
			conv[k].conversion = true;
			conv[k].severity = SEV_CREDIT;
		}
		once_repl.replacement = (char *)"WARN_ON_ONCE";
		conv[1].rule = &once_repl;
		conv[0].other = &once_repl;
		ret = build(&r, &s, conv, 2, &o);
		ok(!ret && !r.empty && r.credits == 1 && r.issues == 1,
		   "BUG_ON() -> WARN_ON(): a credit and an issue");
		ok(has_flat(&r, "Thanks for turning the BUG_ON() in foo_probe() into a WARN_ON().") &&
		   has_flat(&r, "A plain WARN_ON() dumps a stack trace on every hit: use "
			    "WARN_ON_ONCE() instead"),
		   "it thanks for the conversion and asks for WARN_ON_ONCE()");
		conv[1].rule = &warn_once;
		conv[0].other = &warn_once;
		ret = build(&r, &s, conv, 2, &o);
		ok(!ret && !r.empty && r.credits == 1 && r.issues == 0 &&
		   !has(&r, "stack trace on every hit"),
		   "BUG_ON() -> WARN_ON_ONCE() with nothing specific: thanked only");
		/* A point specific to the new call holds whatever it replaced
		 * (linux-usb/0002: "papers over the bug and lets the code
		 * carry on"). */
		for (int k = 0; k < 2; k++)
			conv[k].hunk = (char *)"-\tBUG_ON(len > 16);\n+\tWARN_ON_ONCE(len > 16);\n"
				" \tmemcpy(l, p, len);\n";
		conv[1].hunk_line = 1;
		conv[1].source = (char *)"WARN_ON_ONCE(len > 16)";
		conv[1].function = (char *)"foo_ioctl";
		ret = build(&r, &s, conv, 2, &o);
		ok(!ret && r.credits == 1 && r.issues == 1 &&
		   has_flat(&r, "foo_ioctl() carries on anyway: len, which it just tested, is still "
			    "used below it"),
		   "BUG_ON() -> WARN_ON_ONCE() that carries on: thanked, and the point made");
	}

	/* Previous version: v1 had the BUG_ON(), v2 a WARN_ON_ONCE() there. */
	{
		struct check_result prev = CHECK_RESULT_INIT;
		struct series s2 = s;

		prev.v = f;
		prev.nr = 1;
		s2.version = 2;
		o.prev = &s;
		o.prev_result = &prev;
		ret = build(&r, &s2, f + 2, 1, &o);
		ok(!ret && !r.empty && r.credits == 1 && r.issues == 0 && r.notes == 0,
		   "v2: the conversion is a credit, not a note");
		ok(has_flat(&r, "Thanks for v2: the BUG_ON() that v1 added to foo_probe() is now a "
			   "WARN_ON_ONCE() with a recovery path"), "v2 opening credits it");
		/* Said once, in the opening: no second paragraph repeating it. */
		ok(count(&r, "recovery path") == 1 && count(&r, "foo_probe()") == 1,
		   "and says it once");
		/* v2 fixed v1's call but adds another: both are said. */
		{
			struct finding both[2] = { f[2], f[1] };

			ret = build(&r, &s2, both, 2, &o);
			ok(!ret && r.issues == 1 && r.credits == 1 &&
			   has_flat(&r, "adds a WARN_ON() to foo_lookup(); comments inline. Thanks for "
				    "v2: the BUG_ON() that v1 added to foo_probe() is now a WARN_ON_ONCE()"),
			   "v2 with a new finding: the thanks stays, in the opening");
		}
		o.prev = NULL;
		o.prev_result = NULL;
	}

	/* Functions that return pointers; a long condition wrapped. */
	{
		struct mail_list pm = MAIL_LIST_INIT;
		struct series ps = SERIES_INIT;
		struct finding pf[2];
		bool narrow = true;

		if (mbox_parse(&pm, thread_ptr, strlen(thread_ptr)) || series_from_mails(&ps, &pm)) {
			printf("Bail out! cannot parse the pointer thread: %s\n", error_last());
			return 1;
		}
		pf[0] = finding(1, &bug_on, 1502, "__ext4_find_entry",
				"BUG_ON(le16_to_cpu(de->rec_len) < EXT4_DIR_REC_LEN(1) || "
				"le16_to_cpu(de->rec_len) > dir->i_sb->s_blocksize)",
				" \tif (namelen > EXT4_NAME_LEN)\n \t\treturn NULL;\n"
				"+\tBUG_ON(le16_to_cpu(de->rec_len) < EXT4_DIR_REC_LEN(1) || "
				"le16_to_cpu(de->rec_len) > dir->i_sb->s_blocksize);\n"
				" \tif (!bh)\n \t\treturn ERR_PTR(-EIO);\n", 2);
		pf[0].file = (char *)"fs/ext4/namei.c";
		pf[1] = finding(1, &bug_on, 23, "foo_find", "BUG_ON(id < 0)",
				" static struct foo *\n foo_find(int id)\n {\n+\tBUG_ON(id < 0);\n", 3);
		{
			struct cfacts cf[2] = { CFACTS_INIT, CFACTS_INIT };
			struct reply_opts fo = o;

			cf[0].found = cf[1].found = true;
			cf[0].ret = CF_RET_ERR_PTR;
			cf[0].exit = (char *)"return ERR_PTR(-EIO);";
			cf[0].disk = (char *)"de->rec_len";
			cf[0].cond_or = true;
			cf[0].follows = cf[1].follows = true;
			cf[1].ret = CF_RET_PTR;
			cf[0].loop = cf[1].loop = INLOOP_NO;
			fo.facts = cf;
			fo.compile = compile_ok;
			build(&r, &ps, pf, 2, &fo);
		}
		ok(has(&r, "\t\tEXT4_ERROR_INODE(inode, \"...\");\n\t\treturn ERR_PTR(-EFSCORRUPTED);\n"),
		   "ext4 on-disk check in a pointer function: ERR_PTR(-EFSCORRUPTED)");
		ok(has(&r, "\tif (WARN_ON_ONCE(id < 0))\n\t\treturn NULL;\n"), "and NULL where NULL is the style");
		ok(has(&r, "\tif (le16_to_cpu(de->rec_len) < EXT4_DIR_REC_LEN(1) ||\n"
			   "\t    le16_to_cpu(de->rec_len) > dir->i_sb->s_blocksize) {\n"),
		   "a long condition is wrapped after ||, aligned inside the parenthesis");
		/* What the reply writes; a quote of the patch is the author's. */
		for (const char *l = r.text.buf; *l; l += strcspn(l, "\n") + !!l[strcspn(l, "\n")]) {
			size_t col = 0, n = *l == '>' ? 0 : strcspn(l, "\n");

			for (size_t i = 0; i < n; i++)
				col = l[i] == '\t' ? (col + 8) / 8 * 8 : col + 1;
			narrow &= col <= 80;
		}
		ok(narrow, "no line the reply writes is over 80 columns");
		ok(has(&r, "This patch adds two BUG_ON() calls to __ext4_find_entry() and\nfoo_find(); comments inline."),
		   "two points (on-disk corruption, a plain BUG_ON): not 'one point covers'");
		series_release(&ps);
		mail_list_clear(&pm);
	}

	/* A BUG_ON() in an __init function: check's one __init rule
	 * (check.c, init_rule()) made it info with its reason as the
	 * message; the review goes by that severity, as the hook and serve
	 * do, and says the reason only as a note. */
	{
		struct finding fi = f[0];

		fi.in_init = true;
		fi.severity = SEV_INFO;
		fi.message = (char *)"BUG_ON() is in __init code, which runs only while the kernel "
			"or its module initialises: a hard failure there is accepted practice";
		ret = build(&r, &s, &fi, 1, &o);
		ok(!ret && r.empty, "no objection to a BUG_ON() in an __init function");
		o.always = true;
		ret = build(&r, &s, &fi, 1, &o);
		ok(!ret && !r.empty && r.issues == 0 && r.notes == 1 &&
		   has_flat(&r, "This BUG_ON() is in __init code, which runs only while the kernel or "
			    "its module initialises: a hard failure there is accepted practice.") &&
		   !has_flat(&r, "takes the machine down") && !has(&r, "WARN_ON_ONCE(!dev)"),
		   "  --always: a note that says check's reason, no advice against it");
		ok(has_flat(&r, "This series adds a BUG_ON() to foo_probe(); nothing needs a change, "
			    "but see the note inline."),
		   "  and an opening that promises nothing more");
		o.always = false;
		/* The review has no __init rule of its own: a call check left
		 * at error is an issue, in __init or not. */
		fi.severity = SEV_ERROR;
		ret = build(&r, &s, &fi, 1, &o);
		ok(!ret && !r.empty && r.issues == 1,
		   "  a call check left at error is an issue: no second __init rule here");
	}

	/* Who gets it. */
	o.policy = REPLY_TO_AUTHOR;
	build(&r, &s, f, 1, &o);
	ok(r.to.nr == 1 && !r.cc.nr && !has(&r, "\nCc:"), "reply-to = author: the author only");
	o.policy = REPLY_TO_LIST;
	build(&r, &s, f, 1, &o);
	ok(r.to.nr == 1 && !strcmp(r.to.v[0].addr, "linux-foo@vger.kernel.org") && !r.cc.nr,
	   "reply-to = list: the list only");
	o.policy = REPLY_TO_ALL;
	build(&r, &s, f, 1, &o);
	ok(r.to.nr == 1 && r.cc.nr == 3, "reply-to = all: author, Cc everyone");
	/* Robots the patch was copied to are not (the service's list
	 * ignore-senders), the lists are whatever the globs. */
	{
		struct mail *m = (struct mail *)s.patches[0].mail;
		char *cc_raw = m->cc_raw;

		m->cc_raw = (char *)"syzbot+5f2c3a@syzkaller.appspotmail.com, "
			"kernel test robot <lkp@intel.com>, Ann <ann@example.org>";
		o.bots = "syzbot* *@syzkaller.appspotmail.com lkp@intel.com";
		build(&r, &s, f, 1, &o);
		ok(!mail_addr_has(&r.cc, "syzbot+5f2c3a@syzkaller.appspotmail.com") &&
		   !mail_addr_has(&r.cc, "lkp@intel.com") && mail_addr_has(&r.cc, "ann@example.org") &&
		   !mail_addr_has(&r.rcpt, "lkp@intel.com"),
		   "reply-to = all: no copy to syzbot or the kernel test robot");
		o.bots = NULL;
		build(&r, &s, f, 1, &o);
		ok(mail_addr_has(&r.cc, "lkp@intel.com"), "  without bots set, everyone");
		m->cc_raw = cc_raw;
	}
	/* A To: of 200 addresses (a tree-wide series): the author in To:,
	 * the watched list first in Cc: whatever the caps, with the other
	 * list the patch went to, found past the 64th address. */
	{
		struct mail *m = (struct mail *)s.patches[0].mail;
		char *to_raw = m->to_raw, *cc_raw = m->cc_raw;
		struct strbuf big = STRBUF_INIT;

		for (int i = 0; i < 200; i++)
			strbuf_addf(&big, "%sPerson %d <p%d@example.net>", i ? ",\n " : "",
				    i, i);
		strbuf_addstr(&big, ", linux-fsdevel@vger.kernel.org");
		m->to_raw = big.buf;
		m->cc_raw = (char *)"";
		o.watched = "linux-ext4@vger.kernel.org";
		o.policy = REPLY_TO_BOTH;
		ret = build(&r, &s, f, 1, &o);
		is(ret, 0, "a To: of 200 addresses builds");
		ok(r.to.nr == 1 && !strcmp(r.to.v[0].addr, "jane@example.org"),
		   "  To: the author");
		ok(r.cc.nr == 2 && !strcmp(r.cc.v[0].addr, "linux-ext4@vger.kernel.org") &&
		   !strcmp(r.cc.v[1].addr, "linux-fsdevel@vger.kernel.org"),
		   "  Cc: the watched list (not in the headers), then the patch's list");
		ok(mail_addr_has(&r.rcpt, "linux-ext4@vger.kernel.org"),
		   "  the watched list is an envelope recipient");
		o.policy = REPLY_TO_ALL;
		ret = build(&r, &s, f, 1, &o);
		ok(!ret && r.cc.nr == MAILHDR_MAX_ADDRS &&
		   !strcmp(r.cc.v[0].addr, "linux-ext4@vger.kernel.org") &&
		   !strcmp(r.cc.v[1].addr, "linux-fsdevel@vger.kernel.org"),
		   "reply-to = all: Cc: capped at %d, the lists first (%zu)",
		   MAILHDR_MAX_ADDRS, r.cc.nr);
		ok(r.rcpt.nr == 1 + MAILHDR_MAX_ADDRS,
		   "  every header address is an envelope recipient (%zu)", r.rcpt.nr);
		o.policy = REPLY_TO_AUTHOR;
		build(&r, &s, f, 1, &o);
		ok(r.to.nr == 1 && !r.cc.nr, "reply-to = author stays private");
		o.watched = NULL;
		m->to_raw = to_raw;
		m->cc_raw = cc_raw;
		strbuf_release(&big);
	}
	o.lists = "nothing@*";
	o.policy = REPLY_TO_LIST;
	ret = build(&r, &s, f, 1, &o);
	is(ret, WW_EINPUT, "reply-to = list without a list address is an error");
	o.lists = "*@vger.kernel.org";
	o.policy = REPLY_TO_BOTH;
	o.from = "not an address";
	ret = build(&r, &s, f, 1, &o);
	is(ret, WW_EINPUT, "an invalid identity is an error");
	o.from = "warnwatch <bot@example.org>";
	o.patchwork_hint = true;
	build(&r, &s, f, 1, &o);
	ok(has(&r, "\nX-Patchwork-Hint: ignore\n"), "X-Patchwork-Hint when configured");

	/* Strangers' subjects and names cannot inject headers. */
	{
		struct mail *m = (struct mail *)s.patches[0].mail;
		char *subj = m->subject, *from = m->from, *from_raw = m->from_raw;

		m->subject = (char *)"[PATCH 1/2] x\r\nBcc: victim@example.org";
		m->from = (char *)"Eve\r\nBcc: v2@example.org <eve@example.org>";
		/* From: as sent: the CR LF is in an encoded word. */
		m->from_raw = (char *)"=?UTF-8?q?Eve=0D=0ABcc=3A_v2=40example=2Eorg?= <eve@example.org>";
		ret = build(&r, &s, f, 1, &o);
		ok(!ret && !has(&r, "\nBcc:") && !has(&r, "\r"), "no header injection via subject or name");
		ok(r.rcpt.nr == 2 && !strcmp(r.rcpt.v[0].addr, "eve@example.org"),
		   "only valid addresses are recipients");
		m->subject = subj;
		m->from = from;
		m->from_raw = from_raw;
	}

	test_hostile_from(&o, &f[0]);
	test_lookalike_lists(&o, &f[0]);
	test_decisions(&o, &s, f);
	test_sentence_seams(&o, &s, &adv);

	/* The kernel-ci verdict: ci-json.h reads it, the reply takes the struct. */
	{
		/* The keys of other CI systems are not kernel-ci's (one schema). */
		const char *json = "{\"status\": \"panic\", \"message\": \"WARN in time64_to_tm\","
			" \"kernel\": \"6.1.192\"}";

		is(ci_verdict_from_json(&vd, json, strlen(json), "v.json"), WW_EINPUT,
		   "a verdict in other keys is refused");
		ok(strstr(error_last(), "'v.json': no \"verdict\"") != NULL, "and says why: %s",
		   error_last());
	}
	ci_verdict_release(&vd);
	{
		const char *json = "{\"verdict\": \"build-failed\", \"base\": \"6.1.192\", "
			"\"build_error\": \"kernel/time/timeconv.c:55:2: error: expected ';'\"}";

		is(ci_verdict_from_json(&vd, json, strlen(json), "b.json"), 0, "build-failed parses");
	}
	o.verdict = &vd;
	build(&r, &s, f, 1, &o);
	/* Issue 28: it used to say "built ... and booted it in QEMU ..., and
	 * the kernel did not build": nothing booted. */
	ok(has_flat(&r, "kernel-ci applied the series to linux 6.1.192, and the patched "
		    "kernel does not build.") &&
	   has(&r, "\n    kernel/time/timeconv.c:55:2: error: expected ';'\n"),
	   "the verdict and its console lines are in the reply");
	ok(!has(&r, "booted"), "a kernel that did not build was not booted");
	o.verdict = NULL;
	ci_verdict_release(&vd);
	{
		const char *json = "{\"verdict\": \"untestable\", \"base\": \"6.12.118\", "
			"\"reason\": \"linux 6.12.118 lacks 'ext4_emergency_state', which the "
			"series uses: it was written for a newer tree\", \"build_error\": "
			"\"fs/ext4/inode.c:180:13: error: implicit declaration of function "
			"'ext4_emergency_state'\"}";

		is(ci_verdict_from_json(&vd, json, strlen(json), "u.json"), 0, "untestable parses");
	}
	o.verdict = &vd;
	build(&r, &s, f, 1, &o);
	ok(has_flat(&r, "kernel-ci could not test this series: linux 6.12.118 lacks "
		    "'ext4_emergency_state', which the series uses: it was written for a "
		    "newer tree."), "untestable: one line with the reason");
	ok(!has(&r, "does not build") && !has(&r, "did not build") && !has(&r, "booted") &&
	   !has(&r, "error: implicit"), "and nothing that blames the series");
	o.verdict = NULL;
	ci_verdict_release(&vd);
	{
		/* Issue 39: the trees tried, in order, why each did not fit, and
		 * how to add a base-commit: line. */
		const char *json = "{\"verdict\": \"untestable\", \"base\": \"6.1.192\", "
			"\"base_why\": \"no base-commit: newest first\", \"patches\": 1, "
			"\"reason\": \"x\", \"tried\": [{\"base\": \"6.12.118\", \"why\": "
			"\"patch 1/1 does not apply (fs/ext4/mballoc.c, hunk 3)\"}], "
			"\"missing\": [\"the struct member 's_mb_nr_global_goals'\"]}";

		is(ci_verdict_from_json(&vd, json, strlen(json), "u2.json"), 0, "tried parses");
	}
	o.verdict = &vd;
	build(&r, &s, f, 1, &o);
	ok(has_flat(&r, "kernel-ci could not test this series: it has no base-commit: line, "
		    "so kernel-ci tried the kernel trees it has, newest first: on linux "
		    "6.12.118 patch 1/1 does not apply (fs/ext4/mballoc.c, hunk 3), and on "
		    "linux 6.1.192 it applies, but linux 6.1.192 lacks the struct member "
		    "'s_mb_nr_global_goals', which the series uses and does not add: it was "
		    "written for a newer tree."), "untestable in plain words, trees in order");
	ok(has_flat(&r, "`git format-patch --base=auto` writes the line, and b4 adds it"),
	   "and how to add a base-commit: line");
	ok(!has(&r, "newest first)") && !has(&r, "no base-commit: newest"),
	   "no internal words");
	o.verdict = NULL;
	ci_verdict_release(&vd);
	{
		const char *json = "{\"verdict\": \"apply-failed\", \"base\": \"6.1.192\", "
			"\"reason\": \"patch 2/2 does not apply to linux 6.1.192: kernel/x.c: hunk 1\"}";

		is(ci_verdict_from_json(&vd, json, strlen(json), "a.json"), 0, "apply-failed parses");
	}
	o.verdict = &vd;
	build(&r, &s, f, 1, &o);
	ok(has_flat(&r, "kernel-ci could not apply the series to linux 6.1.192.") &&
	   !has(&r, "booted"), "apply-failed: nothing booted, nothing said to");
	o.verdict = NULL;
	ci_verdict_release(&vd);
	{
		/* What kernel-ci's `warnwatch ci --format=json` writes (abridged). */
		const char *json = "{\"verdict\": \"panicked\", \"reason\": \"Kernel panic - not syncing: "
			"kernel: panic_on_warn set ...\", \"base\": \"6.1.192\", \"fired\": [{\"kind\": "
			"\"warn\", \"file\": \"kernel/time/timeconv.c\", \"line\": 55, \"function\": "
			"\"time64_to_tm\", \"suite\": \"time_test_cases\", \"source\": \"WARN_ON(totalsecs < 0)\", "
			"\"trace\": [\"time64_to_tm_test_date_range+0x7c/0x1b0\", \"kunit_try_run_case+0x51/0x90\"]}]}";

		is(ci_verdict_from_json(&vd, json, strlen(json), "ci.json"), 0, "kernel-ci's JSON parses");
		o.verdict = &vd;
		build(&r, &s, f, 1, &o);
		ok(has_flat(&r, "booted it in QEMU with panic_on_warn=1, and the kernel panicked.") &&
		   has_flat(&r, "`WARN_ON(totalsecs < 0)` at kernel/time/timeconv.c:55 fired in KUnit suite time_test_cases.") &&
		   has(&r, "\n    Kernel panic - not syncing: kernel: panic_on_warn set ...\n"
			   "    time64_to_tm_test_date_range+0x7c/0x1b0\n"),
		   "a panic: what fired, where, and the trace");
		o.verdict = NULL;
	}
	ci_verdict_release(&vd);
	{
		/* The contract of issue 10: "tests" and "calls", one per added call. */
		const char *json = "{\"verdict\": \"clean\", \"base\": \"6.12.9\", "
			"\"tests\": [{\"name\": \"workload:ext4\", \"kind\": \"workload\", \"result\": \"pass\"}], "
			"\"calls\": ["
			"{\"file\": \"fs/ext4/namei.c\", \"line\": 2003, \"macro\": \"WARN_ON_ONCE\", "
			"\"patch\": 1, \"reached\": 41, \"fired\": false},"
			"{\"file\": \"drivers/foo.c\", \"line\": 88, \"macro\": \"BUG_ON\", "
			"\"patch\": 1, \"reached\": 0, \"fired\": false},"
			"{\"file\": \"drivers/foo.c\", \"line\": 95, \"macro\": \"WARN_ON\", "
			"\"patch\": 2, \"reached\": null, \"reached_why\": \"no coverage data for drivers/foo.c\", "
			"\"fired\": false}]}";

		is(ci_verdict_from_json(&vd, json, strlen(json), "calls.json"), 0, "a verdict with calls parses");
		o.verdict = &vd;
		build(&r, &s, f, 1, &o);
		ok(has_flat(&r, "kernel-ci built the series on 6.12.9 and booted it in QEMU with "
			    "panic_on_warn=1; the ext4 workload ran, and no WARN or BUG fired."),
		   "clean: what was booted and what ran");
		/* The counters run from boot: the boot is said with the one test,
		 * as `warnwatch ci` says it. */
		ok(has_flat(&r, "The WARN_ON_ONCE() at fs/ext4/namei.c:2003 ran 41 times during the "
			    "boot and the ext4 workload and never fired."),
		   "a call that ran: how often, during what");
		ok(has_flat(&r, "No test reached the BUG_ON() at drivers/foo.c:88, so this boot says "
			    "nothing about it."), "a call no test reached");
		ok(has_flat(&r, "Whether the WARN_ON() at drivers/foo.c:95 ran could not be measured "
			    "(no coverage data for drivers/foo.c)."), "a call that could not be measured: why");
		ok(!has(&r, "\n    "), "clean: no console lines");
		o.verdict = NULL;
	}
	ci_verdict_release(&vd);
	{
		/*
		 * Issue 26: a WARN_ON_ONCE() (a note by its rule) that the boot
		 * saw fire in a kselftest on 6.12, where its hunk landed 16
		 * lines up.  The fired WARN makes it an issue: a reply, not
		 * "nothing to say", and no "found nothing to comment on" above
		 * the boot paragraph; the test is named by its kind.
		 */
		const char *json = "{\"verdict\": \"panicked\", \"base\": \"6.12.118\", "
			"\"reason\": \"Kernel panic - not syncing: kernel: panic_on_warn set ...\", "
			"\"tests\": [{\"name\": \"cgroup:test_core\", \"kind\": \"kselftest\", "
			"\"result\": \"crashed\"}], "
			"\"fired\": [{\"kind\": \"warn\", \"file\": \"drivers/foo.c\", \"line\": 41, "
			"\"tree_line\": 25, \"function\": \"foo_lookup\", \"suite\": \"cgroup:test_core\", "
			"\"patch\": 2, \"added_by_series\": true, \"source\": \"WARN_ON_ONCE(id < 0)\", "
			"\"patched_count\": 1, \"base_count\": 0, "
			"\"panic_on_warn_boot\": true, \"trace\": [\"foo_lookup+0x1e/0x40\"]}], "
			"\"calls\": [{\"file\": \"drivers/foo.c\", \"line\": 41, \"tree_line\": 25, "
			"\"macro\": \"WARN_ON_ONCE\", \"patch\": 2, \"reached\": 3, \"fired\": true, "
			"\"suite\": \"cgroup:test_core\"}]}";
		struct finding once = finding(2, &warn_once, 41, "foo_lookup", "WARN_ON_ONCE(id < 0)",
					      " \tstruct foo *f;\n+\tif (WARN_ON_ONCE(id < 0))\n \tf = NULL;\n", 1);

		build(&r, &s, &once, 1, &o);
		ok(r.empty, "26: a WARN_ON_ONCE() alone: nothing to say without a boot");
		is(ci_verdict_from_json(&vd, json, strlen(json), "fired.json"), 0, "26: verdict parses");
		o.verdict = &vd;
		build(&r, &s, &once, 1, &o);
		ok(!r.empty && r.issues == 1, "26: the boot saw it fire: an issue, a reply");
		if (r.empty)
			strbuf_addstr(&r.text, "");	/* the checks below then fail, not crash */
		ok(!has_flat(&r, "found nothing to comment on"), "26: no 'nothing to comment on'");
		ok(has_flat(&r, "`WARN_ON_ONCE(id < 0)` at drivers/foo.c:41 (line 25 in linux "
			    "6.12.118) fired in kselftest cgroup:test_core"),
		   "26: the patch's line, the tree's line, the test by its kind");
		ok(!has_flat(&r, "KUnit suite cgroup"), "26: a kselftest is not a KUnit suite");
		ok(has_flat(&r, "fired in kselftest cgroup:test_core (base: 0, patched: 1)."),
		   "26: the parent column, as 0-day gives it");
		ok(!has_flat(&r, "fired during kselftest cgroup:test_core."),
		   "26: the call that fired is said once, not again in its own sentence");
		ok(!has_flat(&r, "never fired"), "26: no count of another line");
		ok(has_flat(&r, "This is an error: kernel-ci booted the series on linux 6.12.118 "
			    "with panic_on_warn=1 and this WARN_ON_ONCE() fired during kselftest "
			    "cgroup:test_core, which took the kernel down."),
		   "26: an error under the quote, whatever the rule's severity");
		ok(!has_flat(&r, "is right only for a condition"),
		   "26: not the WARN_ON_ONCE() note's wording");
		ok(has_flat(&r, "This patch adds a WARN_ON_ONCE() to foo_lookup(), and "
			    "kernel-ci's boot saw it fire; comments inline."),
		   "26: the opening says it fired");
		if (!has_flat(&r, "(line 25 in linux 6.12.118) fired in kselftest") ||
		    !has_flat(&r, "This is an error: kernel-ci booted the series on linux 6.12.118 with"))
			printf("# %s", r.text.buf);
		/* Issue 34: a changed condition the boot saw fire is an issue
		 * too; the opening says the patch changes it, not adds it. */
		once.moved = once.modified = true;
		build(&r, &s, &once, 1, &o);
		ok(!r.empty && r.issues == 1 &&
		   has_flat(&r, "This patch changes a WARN_ON_ONCE() in foo_lookup()") &&
		   !has_flat(&r, "adds a"), "34: a fired call whose condition changed: 'changes ... in'");
		once.moved = once.modified = false;
		o.verdict = NULL;
	}
	ci_verdict_release(&vd);
	for (int k = 0; k < 2; k++) {
		/*
		 * Issue 26: the boot saw the call fire (fired[], the patch's
		 * own line 41, landed at 25), but its calls[] entry has a count
		 * of 0 or none (counters lost with the panic, or an older
		 * verdict): the fired report wins, never "no test reached" or
		 * "could not be measured" next to "fired".
		 */
		struct strbuf json = STRBUF_INIT;
		struct finding once = finding(2, &warn_once, 41, "foo_lookup", "WARN_ON_ONCE(id < 0)",
					      " \tstruct foo *f;\n+\tif (WARN_ON_ONCE(id < 0))\n \tf = NULL;\n", 1);

		strbuf_addf(&json, "{\"verdict\": \"panicked\", \"base\": \"6.12.118\", "
			"\"fired\": [{\"kind\": \"warn\", \"file\": \"drivers/foo.c\", \"line\": 41, "
			"\"tree_line\": 25, \"function\": \"foo_lookup\", \"suite\": \"cgroup:test_kill\", "
			"\"patch\": 2, \"added_by_series\": true, \"panic_on_warn_boot\": true}], "
			"\"calls\": [{\"file\": \"drivers/foo.c\", \"line\": 41, \"tree_line\": 25, "
			"\"macro\": \"WARN_ON_ONCE\", \"patch\": 2, \"reached\": %s, \"fired\": false}]}",
			k ? "null, \"reached_why\": \"the guest did not finish kernel-ci/init\"" : "0");
		is(ci_verdict_from_json(&vd, json.buf, json.len, "fired-unreached.json"), 0,
		   "26: fired with reached %s: parses", k ? "null" : "0");
		o.verdict = &vd;
		build(&r, &s, &once, 1, &o);
		ok(!r.empty && r.issues == 1, "26: reached %s, fired: an issue", k ? "null" : "0");
		ok(has_flat(&r, " at drivers/foo.c:41 (line 25 in linux 6.12.118) "
			    "fired in kselftest cgroup:test_kill."),
		   "26: reached %s, fired: the call fired", k ? "null" : "0");
		ok(!has_flat(&r, "no test reached") && !has_flat(&r, "could not be measured"),
		   "26: reached %s, fired: nothing says it did not run", k ? "null" : "0");
		ok(has_flat(&r, "This is an error"), "26: reached %s, fired: an error", k ? "null" : "0");
		if (has_flat(&r, "no test reached") || has_flat(&r, "could not be measured"))
			printf("# %s", r.text.buf);
		o.verdict = NULL;
		ci_verdict_release(&vd);
		strbuf_release(&json);
	}
	{
		/*
		 * Issue 26 items 3 and 5: the boot panicked on a WARNING the
		 * series did not add, which fires on the unpatched kernel too
		 * and is in kernel-ci/known.json; the series' own call ran and
		 * never fired.  Nothing to say without --always; with it, no
		 * "nothing to comment on" above the note, the report said as
		 * known and pre-existing with the parent column.
		 */
		const char *json = "{\"verdict\": \"panicked\", \"base\": \"6.12.118\", "
			"\"reason\": \"Kernel panic - not syncing: kernel: panic_on_warn set ...\", "
			"\"tests\": [{\"name\": \"cgroup:test_kmem\", \"kind\": \"kselftest\", "
			"\"result\": \"crashed\"}, {\"name\": \"cgroup:test_cpu\", \"kind\": "
			"\"kselftest\", \"result\": \"fail\", \"base_result\": \"fail\"}, "
			"{\"name\": \"cgroup:test_kill\", \"kind\": \"kselftest\", \"result\": \"fail\", "
			"\"base_result\": \"pass\", \"rerun_result\": \"pass\"}], "
			"\"fired\": [{\"kind\": \"warn\", \"file\": \"mm/page_counter.c\", \"line\": 120, "
			"\"tree_line\": 120, \"function\": \"page_counter_cancel\", "
			"\"suite\": \"cgroup:test_kmem\", \"patch\": 0, \"added_by_series\": false, "
			"\"preexisting\": true, \"patched_count\": 1, \"base_count\": 1, "
			"\"fingerprint\": \"warn:page_counter_cancel/a/b/c\", "
			"\"known\": \"memcg teardown under TCG\", \"panic_on_warn_boot\": true}], "
			"\"calls\": [{\"file\": \"drivers/foo.c\", \"line\": 41, \"tree_line\": 25, "
			"\"macro\": \"WARN_ON_ONCE\", \"patch\": 2, \"reached\": 7, \"fired\": false}]}";
		struct finding once = finding(2, &warn_once, 41, "foo_lookup", "WARN_ON_ONCE(id < 0)",
					      " \tstruct foo *f;\n+\tif (WARN_ON_ONCE(id < 0))\n \tf = NULL;\n", 1);

		is(ci_verdict_from_json(&vd, json, strlen(json), "known.json"), 0, "26: known: parses");
		o.verdict = &vd;
		build(&r, &s, &once, 1, &o);
		ok(r.empty, "26: a known WARN the series did not add: nothing to say");
		o.always = true;
		build(&r, &s, &once, 1, &o);
		o.always = false;
		if (r.empty)
			strbuf_addstr(&r.text, "");
		ok(!has_flat(&r, "nothing to comment on"), "26: no 'nothing to comment on' above a note");
		ok(has_flat(&r, " adds a WARN_ON_ONCE() to foo_lookup(); nothing needs a "
			    "change, but see the note inline."), "26: the opening says a note follows");
		ok(has_flat(&r, "A WARNING at mm/page_counter.c:120 fired in kselftest cgroup:test_kmem "
			    "(base: 1, patched: 1), a known report on this base, and it fires on the "
			    "unpatched kernel too."), "26: known and pre-existing, the parent column");
		ok(!has_flat(&r, "This is an error") && !has(&r, "`warn`"),
		   "26: not the series' error, no raw kind name");
		ok(has_flat(&r, "ran 7 times"), "26: the series' call ran and never fired");
		ok(has_flat(&r, "and kselftest cgroup:test_kmem failed (kselftest cgroup:test_cpu "
			    "fails on the unpatched kernel too; kselftest cgroup:test_kill failed once "
			    "and passed when run again)."),
		   "26: a test failing on the base, or flaky, is marked, not blamed");
		if (!has_flat(&r, "but see the note inline"))
			printf("# %s", r.text.buf);
		o.verdict = NULL;
		ci_verdict_release(&vd);
	}
	{
		/* A file system e2fsck found corrupted after the boot is a verdict of its own. */
		const char *json = "{\"verdict\": \"fs-corrupted\", \"base\": \"6.1.192\"}";

		is(ci_verdict_from_json(&vd, json, strlen(json), "fs.json"), 0, "fs-corrupted parses");
		o.verdict = &vd;
		build(&r, &s, f, 1, &o);
		ok(has_flat(&r, "the file system was corrupted"), "fs-corrupted said in words");
		ok(!has(&r, "the result was 'fs-corrupted'"), "not as a raw verdict name");
		o.verdict = NULL;
	}
	ci_verdict_release(&vd);
	is(ci_verdict_from_json(&vd, "{\"verdict\": ", 12, "bad.json"), WW_EINPUT, "bad JSON");
	ok(strstr(error_last(), "verdict 'bad.json' line 1") != NULL, "names the file and line: %s", error_last());
	ci_verdict_release(&vd);
	is(ci_verdict_from_json(&vd, "{}", 2, "e.json"), WW_EINPUT, "a verdict needs \"verdict\"");
	ci_verdict_release(&vd);
	is(ci_verdict_from_json(&vd, "{\"verdict\": \"warn\"}", 18, "w.json"), WW_EINPUT,
	   "a verdict kernel-ci never gives is refused");
	ci_verdict_release(&vd);

	{
		/*
		 * Issue 27, min-level = warning: a WARN_ON_ONCE() beside a
		 * BUG_ON() is said only with evidence (a boot reached it);
		 * drop() leaves a finding out, and a reply left with nothing
		 * to object to is no reply.
		 */
		const char *json = "{\"verdict\": \"clean\", \"base\": \"6.12.118\", "
			"\"calls\": [{\"file\": \"drivers/foo.c\", \"line\": 41, \"tree_line\": 25, "
			"\"macro\": \"WARN_ON_ONCE\", \"patch\": 2, \"reached\": 3, \"fired\": false}]}";
		struct finding two[2] = { f[0], finding(2, &warn_once, 41, "foo_lookup",
			"WARN_ON_ONCE(id < 0)", " \tstruct foo *f;\n+\tif (WARN_ON_ONCE(id < 0))\n \tf = NULL;\n", 1) };

		build(&r, &s, two, 2, &o);
		ok(r.issues == 1 && r.notes == 1 && !r.dropped, "27: min-level info: the note is said");
		o.need_evidence = true;
		build(&r, &s, two, 2, &o);
		ok(!r.empty && r.issues == 1 && r.notes == 0 && r.dropped == 1,
		   "27: min-level warning: the WARN_ON_ONCE() without evidence is left out");
		ok(!has(&r, "WARN_ON_ONCE(id < 0)"), "27: and not quoted");
		is(ci_verdict_from_json(&vd, json, strlen(json), "reached.json"), 0, "27: verdict parses");
		o.verdict = &vd;
		build(&r, &s, two, 2, &o);
		ok(r.notes == 1 && !r.dropped, "27: min-level warning: a boot reached it: said");
		o.verdict = NULL;
		ci_verdict_release(&vd);
		build(&r, &s, two + 1, 1, &o);
		ok(r.empty, "27: min-level warning: a lone WARN_ON_ONCE(): no reply");
		{
			/* 34: a point specific to the call ("speaks": fold-if)
			 * is said whatever the macro's level. */
			struct finding fold = finding(2, &warn_once, 41, "foo_lookup",
				"WARN_ON_ONCE(1)", " \tstruct foo *f;\n+\tif (id < 0) {\n"
				"+\t\tWARN_ON_ONCE(1);\n+\t\treturn NULL;\n", 2);

			build(&r, &s, &fold, 1, &o);
			ok(!r.empty && r.issues == 1 &&
			   has_flat(&r, "fold the test into it, if (WARN_ON_ONCE(id < 0));"),
			   "34: min-level warning: a WARN_ON_ONCE(1) right under its if: said, "
			   "with the folded form");
		}
		{
			/* deref-after speaks too: the NULL test guards nothing
			 * when the pointer is dereferenced below it anyway. */
			struct finding deref = finding(2, &warn_once, 41, "foo_lookup",
				"WARN_ON_ONCE(!mr->map)", "+\tWARN_ON_ONCE(!mr->map);\n"
				" \tif (err) {\n \t\tgoto out;\n \t}\n \tm = mr->map->buf;\n", 0);

			build(&r, &s, &deref, 1, &o);
			ok(!r.empty && r.issues == 1 &&
			   has_flat(&r, "guards nothing: mr->map is dereferenced"),
			   "34: min-level warning: a WARN_ON_ONCE(!p) with p dereferenced below: said");
		}
		o.need_evidence = false;
		o.drop = drop_bug_on;
		build(&r, &s, f, 2, &o);
		ok(!r.empty && r.issues == 1 && r.dropped == 1 && !has(&r, "BUG_ON(!dev)"),
		   "27: drop() leaves the BUG_ON() out, the WARN_ON() stays");
		build(&r, &s, f, 1, &o);
		ok(r.empty && r.dropped == 1, "27: nothing left to object to: no reply");
		o.drop = NULL;
	}
	{
		/*
		 * Issue 38.1: v2 keeps the BUG_ON() v1's review commented on:
		 * one line naming it with a link, the new WARN_ON() in full;
		 * nothing new at all: those lines alone; a boot of v2 that reached it
		 * is new evidence: said in full again.
		 */
		const char *json = "{\"verdict\": \"clean\", \"base\": \"6.12.118\", "
			"\"calls\": [{\"file\": \"drivers/foo.c\", \"line\": 11, \"tree_line\": 25, "
			"\"macro\": \"BUG_ON\", \"patch\": 1, \"reached\": 3, \"fired\": false}]}";

		o.earlier = earlier_bug_on;
		build(&r, &s, f, 2, &o);
		ok(!r.empty && r.issues == 1 && r.unchanged == 1 &&
		   count(&r, "> +\tBUG_ON(!dev);") == 1 && !has(&r, "\tret = 0;") &&
		   has(&r, "WARN_ON(id < 0)"), "38.1: the unchanged BUG_ON() is quoted in its one "
		   "added line, not its hunk; the new WARN_ON() in full");
		ok(has_flat(&r, "The BUG_ON() at drivers/foo.c:11 in foo_probe() that v1's "
			    "review commented on is unchanged "
			    "(https://lore.example/foo/ww1@example.org/)."),
		   "38.1: it is named in one line, at file:line, with the link to v1's review");
		ok(unchanged_recorded(&r, "drivers/foo.c", 11),
		   "38.1: the record lists it, marked unchanged (the new mail said it: a reply "
		   "quoting it reaches the finding)");
		build(&r, &s, f, 1, &o);
		ok(!r.empty && r.unchanged == 1 && !r.issues &&
		   count(&r, "> +\tBUG_ON(!dev);") == 1 && !has(&r, "\tret = 0;") &&
		   has_flat(&r, "This series leaves unchanged what the review of its earlier "
			    "version commented on:") &&
		   has_flat(&r, "The BUG_ON() at drivers/foo.c:11 in foo_probe() that v1's "
			    "review commented on is unchanged") &&
		   unchanged_recorded(&r, "drivers/foo.c", 11),
		   "38.1: every point unchanged, nothing new: its line and one sentence each");
		is(ci_verdict_from_json(&vd, json, strlen(json), "reached.json"), 0, "38.1: verdict parses");
		o.verdict = &vd;
		build(&r, &s, f, 1, &o);
		ok(!r.empty && !r.unchanged && has(&r, "+\tBUG_ON(!dev)"),
		   "38.1: a boot of this version reached it: new evidence, said in full");
		o.verdict = NULL;
		ci_verdict_release(&vd);
		o.earlier = NULL;
	}

	reply_release(&r);
	advice_release(&adv);
	series_release(&s);
	mail_list_clear(&mails);
	/* 38.3 over every reply above: each verdict kind, credits, notes. */
	ok(built > 40 && !run_together, "38.3: no two sentences run together in the %d replies "
	   "built (%d did)", built, run_together);
	return done_testing();
}
