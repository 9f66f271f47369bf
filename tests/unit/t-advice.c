/*
 * Unit tests for bot/review/advice.c: loading the "review" object of
 * rules/advice.json (the real file, and broken ones that must be refused
 * with a message naming the file), each matcher on the kind of hunk a
 * reviewer would answer with it, and the helpers the reply uses (the
 * call's condition, user-space entry points, the unlocks a way out needs).
 */
#include "advice.h"
#include "mkdirs.h"
#include "rmtree.h"
#include "rules.h"
#include "strbuf.h"
#include "tap.h"

#include <stdlib.h>
#include <unistd.h>

static struct rule bug_on = { .macro = "BUG_ON", .class = RC_BUG, .severity = SEV_ERROR,
	.id = "new-bug", .message = "new BUG_ON()", .replacement = "WARN_ON_ONCE" };
static struct rule warn_on = { .macro = "WARN_ON", .class = RC_WARN, .severity = SEV_WARNING,
	.id = "new-warn", .message = "new WARN_ON()", .replacement = "WARN_ON_ONCE" };
static struct rule warn_once = { .macro = "WARN_ON_ONCE", .class = RC_WARN_ONCE,
	.severity = SEV_INFO, .id = "new-warn-once", .message = "new WARN_ON_ONCE()" };
static struct rule warn_once_msg = { .macro = "WARN_ONCE", .class = RC_WARN_ONCE,
	.severity = SEV_INFO, .id = "new-warn-once", .message = "new WARN_ONCE()" };
static struct rule warn_msg = { .macro = "WARN", .class = RC_WARN, .severity = SEV_WARNING,
	.id = "new-warn", .message = "new WARN()", .replacement = "WARN_ONCE" };
static struct rule vm_warn_once = { .macro = "VM_WARN_ONCE", .class = RC_WARN_ONCE,
	.severity = SEV_INFO, .id = "new-warn-once", .message = "new VM_WARN_ONCE()" };

/* A finding for the call on line `at` (0-based) of `hunk`. */
static struct finding call(const struct rule *r, const char *file, const char *fn,
			   const char *source, const char *hunk, int at)
{
	struct finding f = { 0 };

	f.patch = 1;
	f.kind = FINDING_ADDED;
	f.file = (char *)file;
	f.function = (char *)fn;
	f.rule = r;
	f.severity = r->severity;
	f.source = (char *)source;
	f.hunk = (char *)hunk;
	f.hunk_line = at;
	f.source_lines = 1;
	f.line = 10;
	return f;
}

/* The ids advice_match() finds for `f`, " "-separated; `arg` the first arg. */
static void matched_cf(struct strbuf *out, struct strbuf *arg, const struct advice *a,
		       const struct finding *f, const struct cfacts *cf)
{
	struct advice_hit *h;
	size_t n = advice_match(&h, a, f, cf);

	strbuf_reset(out);
	strbuf_reset(arg);
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(out, "%s%s", i ? " " : "", h[i].e->id);
		if (h[i].arg && !arg->len)
			strbuf_addstr(arg, h[i].arg);
		if (h[i].fs && !arg->len)
			strbuf_addstr(arg, h[i].fs->name);
	}
	advice_hits_free(h, n);
}

/* Without facts: what the diff proves. */
static void matched(struct strbuf *out, struct strbuf *arg, const struct advice *a,
		    const struct finding *f)
{
	matched_cf(out, arg, a, f, NULL);
}

/* The evidence advice_match() gives for entry `id` with facts `cf`. */
static void evidence_of(struct strbuf *out, const struct advice *a, const struct finding *f,
			const struct cfacts *cf, const char *id)
{
	struct advice_hit *h;
	size_t n = advice_match(&h, a, f, cf);

	strbuf_reset(out);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(h[i].e->id, id))
			strbuf_addf(out, "%s: %s", h[i].fact, h[i].evidence);
	advice_hits_free(h, n);
}

/* advice_load_buf() of `json` fails, with `want` in the message. */
static void refused(const char *json, const char *want, const char *name)
{
	struct advice a = ADVICE_INIT;
	int ret = advice_load_buf(&a, json, strlen(json), "bad.json");

	ok(ret == WW_EINPUT && strstr(error_last(), "bad.json") &&
	   strstr(error_last(), want), "refused: %s (%s)", name, error_last());
	advice_release(&a);
}

/*
 * Issue 36: the reply matched advice into a fixed hits[32] and matched
 * nothing when rules/advice.json had more entries: the 33rd entry turned
 * all advice off.  Forty entries, each for a path of its own: the last
 * one matches a call under its path.
 */
static void test_forty_entries(void)
{
	struct advice a = ADVICE_INIT;
	struct strbuf json = STRBUF_INIT, ids = STRBUF_INIT, arg = STRBUF_INIT;
	struct finding f = call(&bug_on, "p39/x.c", "x", "BUG_ON(!p)",
				"+\tBUG_ON(!p);\n", 0);

	strbuf_addstr(&json, "{\"review\": {\"advice\": [");
	for (int i = 0; i < 40; i++)
		strbuf_addf(&json, "%s{\"id\": \"e%d\", \"match\": \"path\", \"paths\": "
			    "[\"p%d/\"], \"classes\": [\"bug\"], \"say\": \"entry %d\"}",
			    i ? ", " : "", i, i, i);
	strbuf_addstr(&json, "]}}");
	if (!ok(!advice_load_buf(&a, json.buf, json.len, "forty.json") && a.nr == 40,
		"forty advice entries load")) {
		printf("# %s\n", error_last());
		goto out;
	}
	matched(&ids, &arg, &a, &f);
	is_str(ids.buf, "e39", "the fortieth entry matches a call under its path");
out:
	advice_release(&a);
	strbuf_release(&json);
	strbuf_release(&ids);
	strbuf_release(&arg);
}

/* The lock and context tests reviewers answer with a lockdep check. */
static void test_test_calls(const struct advice *a)
{
	static const struct {
		const struct rule *r;
		const char *source, *want, *arg;
	} yes[] = {
		{ &warn_once, "WARN_ON_ONCE(!rwsem_is_locked(&dax_dev_rwsem))", "lock-held",
		  "&dax_dev_rwsem" },
		{ &warn_on, "WARN_ON(lockdep_is_held(&ar->conf_mutex))", "lockdep-held",
		  "lockdep_is_held" },
		{ &warn_once, "WARN_ON_ONCE(!lockdep_is_held(&q->lock))", "lockdep-held",
		  "lockdep_is_held" },
		{ &warn_once, "WARN_ON_ONCE(!rcu_read_lock_held())", "rcu-held",
		  "rcu_read_lock_held" },
		{ &bug_on, "BUG_ON(!rcu_read_lock_bh_held())", "rcu-held", "rcu_read_lock_bh_held" },
		{ &warn_once, "WARN_ON_ONCE(in_interrupt())", "in-interrupt", "in_interrupt" },
		{ &warn_on, "WARN_ON(!in_softirq())", "in-interrupt", "in_softirq" },
		{ &warn_on, "WARN_ON(!in_task())", "in-task", "in_task" },
		{ &warn_once, "WARN_ON_ONCE(!irqs_disabled())", "irqs-disabled", "irqs_disabled" },
		{ &warn_once, "WARN_ON_ONCE(irqs_disabled())", "irqs-enabled", "irqs_disabled" },
		{ &warn_on, "WARN_ON(preemptible())", "preemption-disabled", "preemptible" },
		{ &bug_on, "BUG_ON(!preemptible())", "preemption-enabled", "preemptible" },
		{ &bug_on, "BUG_ON(in_atomic())", "in-atomic", "in_atomic" },
	};
	static const struct {
		const struct rule *r;
		const char *source, *not, *why;
	} no[] = {
		{ &warn_once, "WARN_ON_ONCE(!lockdep_is_held(&q->lock))", "lock-held",
		  "lockdep_is_held() already asks about this task" },
		{ &warn_once, "WARN_ON_ONCE(rcu_read_lock_held())", "rcu-held",
		  "not without the '!'" },
		{ &warn_once, "WARN_ON_ONCE(!rcu_read_lock_held() && x)", "rcu-held",
		  "not with more to the condition" },
		{ &warn_once, "WARN_ON_ONCE(!rcu_read_lock_held_x())", "rcu-held",
		  "not another function" },
		{ &warn_once, "WARN_ON_ONCE(!!rcu_read_lock_held())", "rcu-held",
		  "not a double negation" },
		{ &warn_on, "WARN_ON(in_task())", "in-task", "not without the '!'" },
		{ &warn_on, "WARN_ON(!in_task() || irqs_disabled())", "in-task",
		  "not with more to the condition" },
		{ &warn_on, "WARN_ON(my_in_interrupt())", "in-interrupt", "not another name" },
		{ &warn_on, "WARN_ON(in_interrupt() > 0)", "in-interrupt",
		  "not compared to something" },
		{ &warn_once, "WARN_ON_ONCE(!irqs_disabled())", "irqs-enabled",
		  "not the other polarity's entry" },
		{ &warn_once, "WARN_ON_ONCE(irqs_disabled())", "irqs-disabled",
		  "not the other polarity's entry" },
	};
	struct strbuf ids = STRBUF_INIT, arg = STRBUF_INIT, hunk = STRBUF_INIT;
	struct finding f;

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		strbuf_reset(&hunk);
		strbuf_addf(&hunk, "+\t%s;\n", yes[i].source);
		f = call(yes[i].r, "drivers/x/y.c", "y_fn", yes[i].source, hunk.buf, 0);
		matched(&ids, &arg, a, &f);
		ok(strstr(ids.buf, yes[i].want) && !strcmp(arg.buf, yes[i].arg),
		   "%s: %s (%s: %s)", yes[i].want, yes[i].source, ids.buf, arg.buf);
	}
	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		strbuf_reset(&hunk);
		strbuf_addf(&hunk, "+\t%s;\n", no[i].source);
		f = call(no[i].r, "drivers/x/y.c", "y_fn", no[i].source, hunk.buf, 0);
		matched(&ids, &arg, a, &f);
		ok(!strstr(ids.buf, no[i].not), "%s: %s, %s (%s)", no[i].not, no[i].why,
		   no[i].source, ids.buf);
	}
	refused("{\"review\": {\"advice\": [{\"id\": \"x\", \"match\": \"test-call\", "
		"\"say\": \"s\"}]}}", "\"calls\" goes with", "test-call without calls");
	refused("{\"review\": {\"advice\": [{\"id\": \"x\", \"match\": \"on-disk\", "
		"\"say\": \"s\", \"calls\": [\"f\"]}]}}", "\"calls\" goes with",
		"calls on another matcher");
	refused("{\"review\": {\"advice\": [{\"id\": \"x\", \"match\": \"on-disk\", "
		"\"say\": \"s\", \"holds\": [{\"file\": \"/etc/passwd\", \"text\": \"r\"}]}]}}",
		"needs a relative", "holds outside the tree");
	refused("{\"review\": {\"advice\": [{\"id\": \"x\", \"match\": \"on-disk\", "
		"\"say\": \"s\", \"holds\": [{\"file\": \"../x.h\", \"text\": \"r\"}]}]}}",
		"needs a relative", "holds leaving the tree");
	strbuf_release(&ids);
	strbuf_release(&arg);
	strbuf_release(&hunk);
}

/* deref-before: p->x read on every path to WARN_ON(!p) (smatch's check). */
static void test_deref_before(const struct advice *a)
{
	static const struct {
		const char *hunk, *why;
		int at;
		bool yes;
	} c[] = {
		{ " \tstruct sdio *sdio = mm->drv_priv;\n \n+\tWARN_ON_ONCE(!mm);\n", "a declaration reads mm->",
		  2, true },
		{ " \tif (mm->users) {\n \t\tfoo();\n+\t\tWARN_ON_ONCE(!mm);\n", "the enclosing if's head",
		  2, true },
		{ " \tstruct x *p = &mm->lock;\n+\tWARN_ON_ONCE(!mm);\n", "not &mm->lock, an address",
		  1, false },
		{ " \tn = mm->users;\n \tmm = next(n);\n+\tWARN_ON_ONCE(!mm);\n", "not with a new value between",
		  2, false },
		{ " \tn = mm->users;\n \tif (n)\n \t\tmm = next(n);\n+\tWARN_ON_ONCE(!mm);\n",
		  "not with a new value on some paths", 3, false },
		{ " \tif (n) {\n \t\tn = mm->users;\n \t}\n+\tWARN_ON_ONCE(!mm);\n",
		  "not in a block that closed (some paths)", 3, false },
		{ " \tn = mm && mm->users;\n+\tWARN_ON_ONCE(!mm);\n", "not where && may skip it", 1,
		  false },
		{ " \tn = mm->users;\n out:\n+\tWARN_ON_ONCE(!mm);\n", "not across a label", 2, false },
		{ " \tn = sizeof(mm->users);\n+\tWARN_ON_ONCE(!mm);\n", "not under sizeof", 1, false },
		{ " \tn = xmm->users;\n+\tWARN_ON_ONCE(!mm);\n", "not another name ending in mm", 1,
		  false },
		{ " \tn = mm->users;\n \tcase 2:\n+\t\tWARN_ON_ONCE(!mm);\n", "not across a case", 2,
		  false },
		{ "+#ifdef CONFIG_X\n+\tn = mm->users;\n+#endif\n+\tWARN_ON_ONCE(!mm);\n",
		  "not from under an #ifdef", 3, false },
	};
	struct strbuf ids = STRBUF_INIT, arg = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		struct finding f = call(&warn_once, "drivers/x/y.c", "y_fn", "WARN_ON_ONCE(!mm)",
					c[i].hunk, c[i].at);

		matched(&ids, &arg, a, &f);
		ok(!!strstr(ids.buf, "deref-before") == c[i].yes &&
		   (!c[i].yes || !strcmp(arg.buf, "mm")), "deref-before: %s (%s)", c[i].why,
		   ids.buf);
	}
	strbuf_release(&ids);
	strbuf_release(&arg);
}

/* build-time: a condition the compiler knows belongs in BUILD_BUG_ON(). */
static void test_build_time(const struct advice *a)
{
	static const struct {
		const char *source, *why;
		bool yes;
	} c[] = {
		{ "BUG_ON(sizeof(struct foo) != 64)", "sizeof and a number", true },
		{ "WARN_ON(ARRAY_SIZE(tbl) < 2 * 8)", "ARRAY_SIZE and arithmetic", true },
		{ "WARN_ON_ONCE(offsetof(struct foo, bar) & 7)", "offsetof", true },
		{ "WARN_ON(sizeof(*p) > sizeof(p->buf))", "sizeof's argument is not evaluated", true },
		{ "WARN_ON(1)", "not a bare 1: a marker", false },
		{ "WARN_ON(sizeof(x) > len)", "not with a variable", false },
		{ "WARN_ON(sizeof(x) > TASK_SIZE)", "not with a macro that may read state", false },
		{ "WARN_ON(sizeof(x) > f(1))", "not with a call", false },
		{ "WARN_ON(sizeof (x) > 8 ? 1 : 0)", "not with ?: (kept simple)", false },
	};
	struct strbuf ids = STRBUF_INIT, arg = STRBUF_INIT, hunk = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		struct finding f;

		strbuf_reset(&hunk);
		strbuf_addf(&hunk, "+\t%s;\n", c[i].source);
		f = call(starts_with(c[i].source, "BUG") ? &bug_on : &warn_on, "drivers/x/y.c",
			 "y_fn", c[i].source, hunk.buf, 0);
		matched(&ids, &arg, a, &f);
		ok(!!strstr(ids.buf, "build-time") == c[i].yes, "build-time: %s, %s (%s)", c[i].why,
		   c[i].source, ids.buf);
	}
	strbuf_release(&ids);
	strbuf_release(&arg);
	strbuf_release(&hunk);
}

/* Does rcu-held match WARN_ON_ONCE(!rcu_read_lock_held()) with advice `a`? */
static bool rcu_held_fires(const struct advice *a)
{
	struct strbuf ids = STRBUF_INIT, arg = STRBUF_INIT;
	struct finding f = call(&warn_once, "x.c", "x", "WARN_ON_ONCE(!rcu_read_lock_held())",
				"+\tWARN_ON_ONCE(!rcu_read_lock_held());\n", 0);
	bool yes;

	matched(&ids, &arg, a, &f);
	yes = strstr(ids.buf, "rcu-held") != NULL;
	strbuf_release(&ids);
	strbuf_release(&arg);
	return yes;
}

/* What an entry says of the headers is checked in the tree under review. */
static void test_holds(void)
{
	static const char json[] =
		"{\"review\": {\"advice\": [{\"id\": \"rcu-held\", \"match\": \"test-call\", "
		"\"say\": \"s\", \"calls\": [\"rcu_read_lock_held\"], \"negated\": true, "
		"\"holds\": [{\"file\": \"include/linux/rcupdate.h\", "
		"\"text\": \"return 1;\"}]}]}}";
	char dir[] = "/tmp/t-advice-XXXXXX";
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;
	struct advice a = ADVICE_INIT;

	if (!mkdtemp(dir) || advice_load_buf(&a, json, strlen(json), "t.json")) {
		skip("no temporary tree", "holds: 4 checks");
		goto out;
	}
	advice_hold(&a, NULL);
	ok(rcu_held_fires(&a), "holds: without a tree the entry stays on");
	advice_hold(&a, dir);
	ok(!rcu_held_fires(&a), "holds: a tree without the header turns it off");
	advice_release(&a);
	advice_load_buf(&a, json, strlen(json), "t.json");
	strbuf_addf(&path, "%s/include/linux", dir);
	mkdirs(path.buf, 0755, WW_ERROR);
	strbuf_addstr(&path, "/rcupdate.h");
	strbuf_addstr(&sb, "static inline int rcu_read_lock_held(void)\n{\n\treturn 0;\n}\n");
	strbuf_write_file(&sb, path.buf);
	advice_hold(&a, dir);
	ok(!rcu_held_fires(&a), "holds: a header that says otherwise turns it off");
	advice_release(&a);
	advice_load_buf(&a, json, strlen(json), "t.json");
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "static inline int rcu_read_lock_held(void)\n{\n\treturn 1;\n}\n");
	strbuf_write_file(&sb, path.buf);
	advice_hold(&a, dir);
	ok(rcu_held_fires(&a), "holds: the header as the kernel has it keeps it on");
out:
	advice_release(&a);
	rmtree(dir);
	strbuf_release(&path);
	strbuf_release(&sb);
}

int main(void)
{
	struct advice a = ADVICE_INIT;
	struct strbuf ids = STRBUF_INIT, arg = STRBUF_INIT, sb = STRBUF_INIT;
	const char *top = getenv("WW_TOP");
	char dir[4096];
	struct finding f;
	struct cfacts cf = CFACTS_INIT, none = CFACTS_INIT;

	snprintf(dir, sizeof(dir), "%s/rules", top && *top ? top : ".");
	if (advice_load(&a, dir)) {
		printf("Bail out! %s\n", error_last());
		return 1;
	}
	ok(a.explain[RC_BUG] && a.explain[RC_WARN], "rules/advice.json loads: an explanation per class");
	ok(a.guide[RC_BUG].nr && a.also_section[RC_WARN] &&
	   !strcmp(a.also_section[RC_WARN], "The panic_on_warn kernel option"),
	   "coding-style sentences, and the panic_on_warn section for WARNs");

	/* "conversions": the real file's, and broken ones. */
	ok(a.conv_always[RC_WARN] && !a.conv_always[RC_WARN_ONCE] && a.conv_speaks[RC_WARN_ONCE] &&
	   !a.conv_always[RC_BUG], "conversions: a plain WARN always, a WARN_ON_ONCE() when a point "
	   "speaks");
	refused("{\"review\": {\"conversions\": [{\"class\": \"warn\", \"when\": \"often\"}]}}",
		"\"when\": \"always\" or \"speaks\"", "a conversion's unknown when");
	refused("{\"review\": {\"conversions\": [{\"class\": \"wran\", \"when\": \"always\"}]}}",
		"conversions: each needs a known \"class\"", "a conversion's unknown class");
	refused("{\"review\": {\"conversions\": [{\"class\": \"warn\", \"when\": \"always\", "
		"\"say\": \"x\"}]}}", "conversions.say: unknown key", "a conversion's unknown key");
	refused("{\"review\": {\"conversions\": {}}}", "conversions: not an array",
		"conversions as an object");

	/* ---- broken files are refused, naming the file and the key ---- */
	refused("{\"review\": {\"explan\": {}}}", "review.explan: unknown key", "a misspelt key");
	refused("{\"review\": {\"guide_intro\": 3}}", "guide_intro: not a string", "a number for a text");
	refused("{\"review\": {\"advice\": {}}}", "advice: not an array", "an object for a list");
	refused("{\"review\": {\"advice\": [{\"id\": \"x\", \"match\": \"on-disk\", "
		"\"say\": \"s\", \"sya\": \"t\"}]}}", "advice[0].sya: unknown key", "an entry's unknown key");
	refused("{\"review\": {\"advice\": [{\"id\": \"x\", \"match\": \"on-dsk\", \"say\": \"s\"}]}}",
		"unknown \"match\"", "an unknown matcher");
	refused("{\"review\": {\"advice\": [{\"id\": \"x\", \"match\": \"fold-if\", "
		"\"say\": \"s\", \"speaks\": \"yes\"}]}}", "\"speaks\" is not true or false",
		"speaks as a string");
	refused("{\"review\": {\"advice\": [{\"id\": \"x\", \"match\": \"on-disk\", "
		"\"say\": \"{fucntion}() reads it\"}]}}", "unknown placeholder {fucntion}",
		"a misspelt placeholder");
	refused("{\"review\": {\"advice\": [{\"id\": \"x\", \"match\": \"on-disk\", \"say\": \"s\", "
		"\"replaces\": [\"explian\"]}]}}", "no entry 'explian'", "replaces names nothing");
	refused("{\"review\": {\"advice\": [{\"id\": \"x\", \"match\": \"on-disk\", \"say\": \"s\", "
		"\"rewrite\": \"if ({cond})\\n\\t{ret:EINVAL}\"}]}}", "{ret:...} takes an errno",
		"{ret:} without an errno");
	refused("{\"review\": {\"filesystems\": [{\"path\": \"fs/x/\", \"rewrite\": \"r\", "
		"\"errno\": \"-EIO\"}]}}", "filesystems.errno: unknown key", "a filesystem's unknown key");
	refused("{\"review\": {\"explain\": {\"bug\": \"{macro} and {cnd}\"}}}",
		"unknown placeholder {cnd}", "a placeholder in an explanation");
	{
		/* check reads the same object through rules.c, and says the same. */
		struct ruleset rs = RULESET_INIT;
		const char *j = "{\"review\": {\"explain\": {\"bug\": 1}}}";

		rules_own_part("review", advice_check_buf);	/* as main() does */

		ok(rules_load_buf(&rs, j, strlen(j), "rules/advice.json") == WW_EINPUT &&
		   strstr(error_last(), "rules/advice.json: review.explain"),
		   "rules.c refuses a broken review object too: %s", error_last());
		ruleset_release(&rs);
	}
	{
		struct advice ok_code = ADVICE_INIT;
		const char *j = "{\"review\": {\"advice\": [{\"id\": \"x\", \"match\": \"on-disk\", "
			"\"say\": \"s\", \"rewrite\": \"if ({cond}) {\\n\\t{ret:-EIO}\\n}\"}]}}";

		is(advice_load_buf(&ok_code, j, strlen(j), "good.json"), 0,
		   "C braces in a rewrite are code, not placeholders");
		advice_release(&ok_code);
	}

	/* ---- matchers ---- */
	f = call(&bug_on, "fs/ext4/namei.c", "ext4_check",
		 "BUG_ON(le16_to_cpu(de->rec_len) < 12)",
		 " \tstruct ext4_dir_entry_2 *de = buf;\n+\tBUG_ON(le16_to_cpu(de->rec_len) < 12);\n", 1);
	matched(&ids, &arg, &a, &f);
	ok(!strstr(ids.buf, "fs-corruption"),
	   "on-disk: not from the diff alone, le16_to_cpu() or not (%s)", ids.buf);
	cf.found = true;
	cf.disk = (char *)"de->rec_len";
	matched_cf(&ids, &arg, &a, &f, &cf);
	ok(strstr(ids.buf, "fs-corruption") && !strcmp(arg.buf, "de->rec_len"),
	   "on-disk: ext4 and the facts say __le16 (%s, %s)", ids.buf, arg.buf);
	evidence_of(&sb, &a, &f, &cf, "fs-corruption");
	is_str(sb.buf, "disk: de->rec_len", "on-disk: its evidence is the disk fact");
	strbuf_reset(&sb);
	f.file = (char *)"drivers/foo.c";
	matched_cf(&ids, &arg, &a, &f, &cf);
	ok(!strstr(ids.buf, "fs-corruption"), "on-disk: not outside the filesystem's directory");
	cf = none;

	f = call(&warn_on, "drivers/foo.c", "foo_ioctl", "WARN_ON(arg > 4)",
		 " \tint ret;\n+\tWARN_ON(arg > 4);\n \tret = 0;\n", 1);
	matched(&ids, &arg, &a, &f);
	ok(!strstr(ids.buf, "user-input"), "user-input: not for a handler's name alone (%s)",
	   ids.buf);
	f = call(&warn_on, "drivers/foo.c", "foo_set", "WARN_ON(v.n > 4)",
		 " \tif (copy_from_user(&v, p, sizeof(v)))\n \t\treturn -EFAULT;\n"
		 "+\tWARN_ON(v.n > 4);\n", 2);
	matched(&ids, &arg, &a, &f);
	ok(!strstr(ids.buf, "user-input"), "user-input: not for a copy_from_user() nearby alone");
	cf.found = true;
	cf.user = (char *)"v";
	matched_cf(&ids, &arg, &a, &f, &cf);
	ok(strstr(ids.buf, "user-input") && !strcmp(arg.buf, "v"),
	   "user-input: when the facts say the operand came from user space (%s)", ids.buf);
	cf = none;
	ok(advice_user_entry(&a, "foo_ioctl") && advice_user_entry(&a, "__do_sys_foo") &&
	   !advice_user_entry(&a, "foo_probe") && !advice_user_entry(&a, ""),
	   "user entry points by name");

	f = call(&bug_on, "kernel/foo.c", "foo_del", "BUG_ON(!spin_is_locked(&foo->lock))",
		 "+\tBUG_ON(!spin_is_locked(&foo->lock));\n", 0);
	matched(&ids, &arg, &a, &f);
	ok(strstr(ids.buf, "lock-held") && !strcmp(arg.buf, "&foo->lock"),
	   "lock-held: the lock is the argument (%s)", arg.buf);

	f = call(&warn_on, "drivers/foo.c", "foo_new", "WARN_ON(!p)",
		 " \tp = kzalloc(sizeof(*p), GFP_KERNEL);\n+\tif (WARN_ON(!p))\n \t\treturn -ENOMEM;\n", 1);
	matched(&ids, &arg, &a, &f);
	ok(strstr(ids.buf, "after-alloc") && !strcmp(arg.buf, "p"),
	   "after-alloc: a NULL check right after kzalloc() (%s)", ids.buf);

	/* after-alloc in the unfolded shape (linux-cifs/0002): no fold-if,
	 * which would keep the warning the allocator already gives. */
	f = call(&warn_once, "fs/smb/client/compress.c", "is_compressible", "WARN_ON_ONCE(1)",
		 " \tsample = kvzalloc(len, GFP_KERNEL);\n-\tif (!sample)\n-\t\treturn -ENOMEM;\n"
		 "+\tif (!sample) {\n+\t\tWARN_ON_ONCE(1);\n", 4);
	matched(&ids, &arg, &a, &f);
	ok(strstr(ids.buf, "after-alloc") && !strstr(ids.buf, "fold-if") && !strcmp(arg.buf, "sample"),
	   "after-alloc: WARN_ON_ONCE(1) first under if (!p) after p's kvzalloc() (%s: %s)",
	   ids.buf, arg.buf);
	f = call(&warn_once, "fs/smb/client/compress.c", "is_compressible", "WARN_ON_ONCE(1)",
		 " \tsample = lookup(len);\n+\tif (!sample) {\n+\t\tWARN_ON_ONCE(1);\n", 2);
	matched(&ids, &arg, &a, &f);
	ok(!strstr(ids.buf, "after-alloc") && strstr(ids.buf, "fold-if"),
	   "after-alloc: not without the allocation, fold-if then (%s)", ids.buf);

	/* fold-if: a WARN testing nothing the if above it does not. */
	f = call(&warn_once_msg, "drivers/foo.c", "foo_fill", "WARN_ONCE(1, \"bad %d\\n\",\n\t\t  n)",
		 "+\tif (n > 12) {\n+\t\tWARN_ONCE(1, \"bad %d\\n\",\n+\t\t\t  n);\n"
		 "+\t\treturn -EINVAL;\n", 1);
	matched(&ids, &arg, &a, &f);
	ok(!strcmp(ids.buf, "fold-if") && !strcmp(arg.buf, "if (WARN_ONCE(n > 12, ...))"),
	   "fold-if: WARN_ONCE(1, ...) right under if (n > 12) { (%s: %s)", ids.buf, arg.buf);
	f = call(&warn_once, "drivers/foo.c", "foo_fill", "WARN_ON_ONCE(!mem)",
		 " \t} else if (!mem)\n-\t\tgoto out;\n+\t\tWARN_ON_ONCE(!mem);\n", 2);
	matched(&ids, &arg, &a, &f);
	ok(!strcmp(ids.buf, "fold-if") && !strcmp(arg.buf, "if (WARN_ON_ONCE(!mem))"),
	   "fold-if: the if's own test repeated, a removed line between (%s: %s)", ids.buf,
	   arg.buf);
	f = call(&warn_on, "drivers/foo.c", "foo_fill", "WARN_ON(1)",
		 "+\tif (unlikely(n > 12)) {\n+\t\tWARN_ON(1);\n+\t\tn = 12;\n", 1);
	matched(&ids, &arg, &a, &f);
	ok(strstr(ids.buf, "fold-if") && !strcmp(arg.buf, "if (WARN_ON(n > 12))"),
	   "fold-if: the if's unlikely() goes, WARN_ON() has one (%s: %s)", ids.buf, arg.buf);
	{
		static const struct {
			const struct rule *r;
			const char *source, *hunk, *why;
			int at;
		} nofold[] = {
			{ &warn_once, "WARN_ON_ONCE(1)", "+\tif ((ret = foo_get(f)) < 0) {\n"
			  "+\t\tWARN_ON_ONCE(1);\n", "out of an if that assigns", 1 },
			{ &warn_once, "WARN_ON_ONCE(n > 2)", "+\tif (n > 12) {\n"
			  "+\t\tWARN_ON_ONCE(n > 2);\n", "when it tests something else", 1 },
			{ &warn_once, "WARN_ON_ONCE(1)", "+\tif (n > 12) {\n+\t\tpr_err(\"x\");\n"
			  "+\t\tWARN_ON_ONCE(1);\n", "below another statement", 2 },
			{ &vm_warn_once, "VM_WARN_ONCE(1, \"x\")", "+\tif (n > 12) {\n"
			  "+\t\tVM_WARN_ONCE(1, \"x\");\n",
			  "a VM_WARN_ONCE(), which has no value without DEBUG_VM", 1 },
		};

		for (size_t i = 0; i < ARRAY_SIZE(nofold); i++) {
			f = call(nofold[i].r, "mm/foo.c", "foo_fill", nofold[i].source,
				 nofold[i].hunk, nofold[i].at);
			matched(&ids, &arg, &a, &f);
			ok(!strstr(ids.buf, "fold-if"), "fold-if: not %s (%s)", nofold[i].why,
			   ids.buf);
		}
	}

	/* unlikely: WARN_ON() and BUG_ON() have it built in. */
	f = call(&warn_on, "drivers/foo.c", "foo_rx", "WARN_ON(unlikely(atomic_read(&c)))",
		 "+\tWARN_ON(unlikely(atomic_read(&c)));\n", 0);
	matched(&ids, &arg, &a, &f);
	ok(strstr(ids.buf, "unlikely") != NULL, "unlikely: inside WARN_ON() (%s)", ids.buf);
	f = call(&warn_on, "drivers/foo.c", "foo_rx", "WARN_ON(likely_bad(c))",
		 "+\tWARN_ON(likely_bad(c));\n", 0);
	matched(&ids, &arg, &a, &f);
	ok(!strstr(ids.buf, "unlikely"), "unlikely: not a function named like it (%s)", ids.buf);

	f = call(&warn_on, "drivers/foo.c", "foo_use", "WARN_ON(!dev)",
		 "+\tWARN_ON(!dev);\n \tdev->count++;\n", 0);
	matched(&ids, &arg, &a, &f);
	/* Both match; the reply says only deref-after, which replaces the other. */
	ok(strstr(ids.buf, "deref-after") && !strcmp(arg.buf, "dev"),
	   "deref-after: dereferenced anyway (%s)", ids.buf);
	/* A way out in a block below the call is taken on some paths only:
	 * the dereference after it still follows the warning
	 * (linux-rdma/0025).  One at the call's own depth ends the search. */
	f = call(&warn_on, "drivers/foo.c", "foo_use", "WARN_ON(!mr->map)",
		 "+\tWARN_ON(!mr->map);\n \terr = check(mr);\n \tif (err) {\n"
		 " \t\terr = -EFAULT;\n \t\tgoto err1;\n \t}\n \tm = mr->map->buf;\n", 0);
	matched(&ids, &arg, &a, &f);
	ok(strstr(ids.buf, "deref-after") && !strcmp(arg.buf, "mr->map"),
	   "deref-after: past a goto inside an if (%s)", ids.buf);
	f = call(&warn_on, "drivers/foo.c", "foo_use", "WARN_ON(!mr->map)",
		 "+\tWARN_ON(!mr->map);\n \tgoto err1;\n \tm = mr->map->buf;\n", 0);
	matched(&ids, &arg, &a, &f);
	ok(!strstr(ids.buf, "deref-after"), "deref-after: not past a goto at the call's depth (%s)",
	   ids.buf);
	f = call(&warn_on, "drivers/foo.c", "foo_use", "WARN_ON(!mr->map)",
		 "+\tWARN_ON(!mr->map);\n \tmr->map = spare;\n \tm = mr->map->buf;\n", 0);
	matched(&ids, &arg, &a, &f);
	ok(!strstr(ids.buf, "deref-after"), "deref-after: not past a new value (%s)", ids.buf);

	/* carries-on: a WARN over a comparison, the value used below anyway
	 * (linux-wireless/0035's memcpy of obj->buffer.length). */
	{
		static const struct {
			const char *source, *hunk, *want, *why;
		} carry[] = {
			{ "WARN(obj->buffer.length != sizeof(*out), \"bad\")",
			  "+\tWARN(obj->buffer.length != sizeof(*out), \"bad\");\n"
			  "+\tmemcpy(out, obj->buffer.pointer, obj->buffer.length);\n",
			  "obj->buffer.length", "a member chain copied anyway" },
			{ "WARN_ON_ONCE(nents > batch_size)", "+\tWARN_ON_ONCE(nents > batch_size);\n"
			  " \n \thint->type = 1;\n \tfor_each_sg(sgl, sg, nents, i) {\n",
			  "nents", "a loop over it, a blank and a line between" },
			{ "WARN_ON(MAX_N < n)", "+\tWARN_ON(MAX_N < n);\n+\tbuf[n] = 0;\n", "n",
			  "the value on the right, a constant on the left" },
			{ "WARN_ON(len >= (size))", "+\tWARN_ON(len >= (size));\n"
			  "+\tif (x) {\n+\t\tfoo();\n+\t\treturn -EIO;\n+\t}\n+\tput(len);\n", "len",
			  "past a way out inside a block" },
		};
		static const struct {
			const char *source, *hunk, *why;
		} stays[] = {
			{ "WARN_ON(n > max)", "+\tWARN_ON(n > max);\n+\treturn n;\n", "a way out first" },
			{ "WARN_ON(n > max)", "+\tWARN_ON(n > max);\n+\tn = max;\n+\tput(n);\n",
			  "a new value first" },
			{ "WARN_ON(n > max)", "+\tWARN_ON(n > max);\n+\tif (n > max)\n+\t\tn = max;\n",
			  "tested again (the handling)" },
			{ "WARN_ON(n == max)", "+\tWARN_ON(n == max);\n+\tput(n);\n", "an equality" },
			{ "WARN_ON(n > max && on)", "+\tWARN_ON(n > max && on);\n+\tput(n);\n",
			  "a && condition" },
			{ "WARN_ON(n_max(x) > MAX)", "+\tWARN_ON(n_max(x) > MAX);\n+\tput(x);\n",
			  "no plain value compared" },
			{ "WARN_ON(n > max)", "+\tif (x)\n+\t\tWARN_ON(n > max);\n+\t}\n+\tput(n);\n",
			  "a use after its block ends" },
			{ "WARN_ON(n > max)", "+\tWARN_ON(n > max);\n+\tput(nr, xmax, a->n, b.n);\n",
			  "only longer names and members" },
			{ "WARN_ON(n << 2 > 8)", "+\tWARN_ON(n << 2 > 8);\n+\tput(n);\n",
			  "a shift: not a plain value" },
			{ "WARN_ON_ONCE(xa_erase(&xa, e->id) != e)",
			  "+\tWARN_ON_ONCE(xa_erase(&xa, e->id) != e);\n+\tkfree(e);\n",
			  "the expected value of a !=" },
		};

		for (size_t i = 0; i < ARRAY_SIZE(carry); i++) {
			f = call(&warn_on, "drivers/foo.c", "foo_get", carry[i].source, carry[i].hunk, 0);
			if (starts_with(carry[i].source, "WARN_ON_ONCE"))
				f.rule = &warn_once;
			else if (starts_with(carry[i].source, "WARN("))
				f.rule = &warn_msg;
			matched(&ids, &arg, &a, &f);
			ok(strstr(ids.buf, "carries-on") && !strcmp(arg.buf, carry[i].want),
			   "carries-on: %s (%s: %s)", carry[i].why, ids.buf, arg.buf);
		}
		for (size_t i = 0; i < ARRAY_SIZE(stays); i++) {
			f = call(&warn_on, "drivers/foo.c", "foo_get", stays[i].source, stays[i].hunk,
				 starts_with(stays[i].hunk, "+\tif (x)") ? 1 : 0);
			matched(&ids, &arg, &a, &f);
			ok(!strstr(ids.buf, "carries-on"), "carries-on: not %s (%s)", stays[i].why,
			   ids.buf);
		}
		f = call(&warn_on, "drivers/foo.c", "foo_get", "WARN_ON(n > max)",
			 "+\tif (WARN_ON(n > max))\n+\t\tn = 0;\n+\tput(n);\n", 0);
		matched(&ids, &arg, &a, &f);
		ok(!strstr(ids.buf, "carries-on"), "carries-on: not an if's condition (%s)", ids.buf);
	}

	/* debugfs: what a debugfs call gave back is not worth a WARN or a panic. */
	{
		static struct rule panic_r = { .macro = "panic", .class = RC_PANIC,
			.severity = SEV_ERROR, .id = "new-panic", .message = "new panic()" };
		static const struct {
			const struct rule *r;
			const char *source, *hunk, *want, *why;
			int at;
		} dbg[] = {
			{ &warn_on, "WARN_ON(!dir)", " \tdir = blk_trace_debugfs_dir(bdev, q);\n"
			  "+\tif (WARN_ON(!dir))\n", "blk_trace_debugfs_dir()", "a pointer assigned above", 1 },
			{ &panic_r, "panic(\"no dir\\n\")", " \troot = debugfs_create_dir(\"block\", NULL);\n"
			  "+\tif (!root)\n+\t\tpanic(\"no dir\\n\");\n", "debugfs_create_dir()",
			  "a panic() under the if", 2 },
			{ &bug_on, "BUG_ON(debugfs_lookup(name, root))",
			  "+\tBUG_ON(debugfs_lookup(name, root));\n", "debugfs_lookup()", "the call itself", 0 },
			{ &warn_on, "WARN_ON(IS_ERR(d))", " \td = debugfs_create_file(\"x\", 0444, r, p, &f);\n"
			  "+\tWARN_ON(IS_ERR(d));\n", "debugfs_create_file()", "IS_ERR()", 1 },
		};

		for (size_t i = 0; i < ARRAY_SIZE(dbg); i++) {
			f = call(dbg[i].r, "block/blk.c", "blk_dbg", dbg[i].source, dbg[i].hunk, dbg[i].at);
			matched(&ids, &arg, &a, &f);
			ok(strstr(ids.buf, "debugfs") && !strcmp(arg.buf, dbg[i].want),
			   "debugfs: %s (%s: %s)", dbg[i].why, ids.buf, arg.buf);
		}
		f = call(&warn_on, "block/blk.c", "blk_dbg", "WARN_ON(1)",
			 " \troot = debugfs_create_dir(\"block\", NULL);\n+\tif (!root) {\n"
			 "+\t\tWARN_ON(1);\n", 2);
		matched(&ids, &arg, &a, &f);
		ok(strstr(ids.buf, "debugfs") && !strstr(ids.buf, "fold-if"),
		   "debugfs: a WARN_ON(1) under if (!root), and no fold-if keeping it (%s)", ids.buf);
		f = call(&warn_on, "block/blk.c", "blk_dbg", "WARN_ON(!dir)",
			 " \tdir = blk_trace_dir(bdev, q);\n+\tif (WARN_ON(!dir))\n", 1);
		matched(&ids, &arg, &a, &f);
		ok(!strstr(ids.buf, "debugfs"), "debugfs: not another function's result (%s)", ids.buf);
		f = call(&panic_r, "block/blk.c", "blk_dbg", "panic(\"no dir\\n\")",
			 " \troot = debugfs_create_dir(\"block\", NULL);\n+\tfoo();\n"
			 "+\tpanic(\"no dir\\n\");\n", 2);
		matched(&ids, &arg, &a, &f);
		ok(!strstr(ids.buf, "debugfs"), "debugfs: not a panic() under no if (%s)", ids.buf);
	}
	/* deref-after for BUG_ON(): the NULL dereference oopses by itself. */
	f = call(&bug_on, "drivers/foo.c", "foo_use", "BUG_ON(!dev)",
		 "+\tBUG_ON(!dev);\n \tdev->count++;\n", 0);
	matched(&ids, &arg, &a, &f);
	ok(strstr(ids.buf, "deref-after-bug") && !strcmp(arg.buf, "dev"),
	   "deref-after-bug: BUG_ON(!dev) then dev-> (%s)", ids.buf);

	/* refcount-dec: WARN_ON_ONCE(refcount_dec_and_test(r)) is refcount_dec(r). */
	f = call(&warn_once, "fs/nfsd/filecache.c", "nfsd_put",
		 "WARN_ON_ONCE(refcount_dec_and_test(&nf->nf_ref))",
		 "+\t\tWARN_ON_ONCE(refcount_dec_and_test(&nf->nf_ref));\n", 0);
	matched(&ids, &arg, &a, &f);
	ok(strstr(ids.buf, "refcount-dec") && !strcmp(arg.buf, "&nf->nf_ref"),
	   "refcount-dec: the decrement is the condition (%s: %s)", ids.buf, arg.buf);
	f = call(&warn_once, "fs/nfsd/filecache.c", "nfsd_put",
		 "WARN_ON_ONCE(refcount_dec_and_test(&nf->nf_ref) && x)",
		 "+\t\tWARN_ON_ONCE(refcount_dec_and_test(&nf->nf_ref) && x);\n", 0);
	matched(&ids, &arg, &a, &f);
	ok(!strstr(ids.buf, "refcount-dec"), "refcount-dec: not with more to the condition (%s)",
	   ids.buf);
	f = call(&warn_once, "fs/nfsd/filecache.c", "nfsd_put",
		 "WARN_ON_ONCE(!refcount_dec_and_test(&nf->nf_ref))",
		 "+\t\tWARN_ON_ONCE(!refcount_dec_and_test(&nf->nf_ref));\n", 0);
	matched(&ids, &arg, &a, &f);
	ok(!strstr(ids.buf, "refcount-dec"), "refcount-dec: not its negation (%s)", ids.buf);

	/* hand-refcount: a count of references kept by hand, checked below zero. */
	{
		static const struct {
			const char *source, *hunk, *want;
			int at;
		} hand[] = {
			{ "WARN_ON(count < 0)", "+\t\tcount = atomic_dec_return(uobj->refcnt);\n"
			  "+\t\tWARN_ON(count < 0); /* use after free! */\n", "count", 1 },
			{ "WARN_ON(ath12k_wmi_refcount - 1 < 0)",
			  "+\tif (!WARN_ON(ath12k_wmi_refcount - 1 < 0))\n", "ath12k_wmi_refcount", 0 },
			{ "WARN_ON(dev->refs <= 0)", "+\tWARN_ON(dev->refs <= 0);\n", "dev->refs", 0 },
		};
		static const struct {
			const char *source, *hunk, *why;
			int at;
		} not_hand[] = {
			{ "WARN_ON(count < 0)", "+\t\tcount = atomic_dec_return(&q->users);\n"
			  "+\t\tWARN_ON(count < 0);\n", "a count not named for references", 1 },
			{ "WARN_ON(prefix_len < 0)", "+\tWARN_ON(prefix_len < 0);\n",
			  "'ref' inside another word", 0 },
			{ "WARN_ON(nr_refs > 4)", "+\tWARN_ON(nr_refs > 4);\n", "no test below zero", 0 },
			{ "WARN_ON(count < 0)", "+\t\tcount = atomic_read(uobj->refcnt);\n"
			  "+\t\tWARN_ON(count < 0);\n", "a read, not a decrement", 1 },
		};

		for (size_t i = 0; i < ARRAY_SIZE(hand); i++) {
			f = call(&warn_on, "drivers/foo.c", "foo_put", hand[i].source, hand[i].hunk,
				 hand[i].at);
			matched(&ids, &arg, &a, &f);
			ok(strstr(ids.buf, "hand-refcount") && !strcmp(arg.buf, hand[i].want),
			   "hand-refcount: %s (%s: %s)", hand[i].source, ids.buf, arg.buf);
		}
		for (size_t i = 0; i < ARRAY_SIZE(not_hand); i++) {
			f = call(&warn_on, "drivers/foo.c", "foo_put", not_hand[i].source,
				 not_hand[i].hunk, not_hand[i].at);
			matched(&ids, &arg, &a, &f);
			ok(!strstr(ids.buf, "hand-refcount"), "hand-refcount: not %s (%s)",
			   not_hand[i].why, ids.buf);
		}
	}

	f = call(&warn_on, "drivers/foo.c", "foo_chk", "WARN_ON(a < 0 || b > 4)",
		 "+\tWARN_ON(a < 0 || b > 4);\n \tfoo(b);\n", 0);
	matched(&ids, &arg, &a, &f);
	ok(strstr(ids.buf, "or-conditions") && !strstr(ids.buf, "bare-statement"),
	   "or-conditions from the diff, bare-statement never without facts (%s)", ids.buf);
	cf.found = true;
	cf.cond_or = true;
	cf.follows = true;
	matched_cf(&ids, &arg, &a, &f, &cf);
	ok(!strstr(ids.buf, "bare-statement"),
	   "no bail-out advice in a void function with no failure exit (%s)", ids.buf);
	cf.ret = CF_RET_INT;
	/* Issue 34: a way out in a loop skips the later iterations
	 * (cgroup_init_early()'s loop over subsystems). */
	cf.loop = INLOOP_YES;
	matched_cf(&ids, &arg, &a, &f, &cf);
	ok(strstr(ids.buf, "or-conditions") && !strstr(ids.buf, "bare-statement"),
	   "no bail-out advice inside a loop (%s)", ids.buf);
	cf.loop = INLOOP_UNKNOWN;
	matched_cf(&ids, &arg, &a, &f, &cf);
	ok(!strstr(ids.buf, "bare-statement"),
	   "nor where the facts do not say it is in none (%s)", ids.buf);
	cf.loop = INLOOP_NO;
	matched_cf(&ids, &arg, &a, &f, &cf);
	ok(strstr(ids.buf, "or-conditions") && strstr(ids.buf, "bare-statement"),
	   "or-conditions and bare-statement: two conditions, code follows (%s)", ids.buf);
	evidence_of(&sb, &a, &f, &cf, "bare-statement");
	is_str(sb.buf, "follows: the next lines use b", "bail-out: the state is used next");
	strbuf_reset(&sb);
	f.hunk = (char *)"+\tWARN_ON(a < 0 || b > 4);\n \tfoo(c);\n";
	matched_cf(&ids, &arg, &a, &f, &cf);
	ok(!strstr(ids.buf, "bare-statement"), "no bail-out advice when the next lines do not "
	   "use what it reported (%s)", ids.buf);
	f.hunk = (char *)"+\tWARN_ON(a < 0 || b > 4);\n \tfoo(b);\n";
	cf.recovers = true;
	matched_cf(&ids, &arg, &a, &f, &cf);
	ok(!strstr(ids.buf, "bare-statement"), "no bail-out advice when the next lines recover");
	cf.recovers = false;
	cf.follows = false;
	matched_cf(&ids, &arg, &a, &f, &cf);
	ok(!strstr(ids.buf, "bare-statement"), "no bail-out advice when nothing follows");
	cf.follows = true;
	cf.assertion = true;
	matched_cf(&ids, &arg, &a, &f, &cf);
	ok(!strstr(ids.buf, "bare-statement"), "no bail-out advice for an assertion");
	cf = none;
	cf.found = true;
	cf.impossible = (char *)"len < 0";
	matched_cf(&ids, &arg, &a, &f, &cf);
	ok(strstr(ids.buf, "impossible") && !strcmp(arg.buf, "len < 0"),
	   "impossible: an unsigned compare that cannot hold (%s)", ids.buf);
	cf.impossible = NULL;
	cf.dup_if = true;
	matched_cf(&ids, &arg, &a, &f, &cf);
	ok(strstr(ids.buf, "dup-if") != NULL, "dup-if: the enclosing if tests the same (%s)",
	   ids.buf);
	cf = none;
	f.file = (char *)"mm/gup.c";
	matched(&ids, &arg, &a, &f);
	ok(strstr(ids.buf, "mm-debug") != NULL, "mm-debug: a check under mm/ (%s)", ids.buf);
	f.file = (char *)"drivers/foo.c";
	matched(&ids, &arg, &a, &f);
	ok(!strstr(ids.buf, "mm-debug"), "mm-debug: not outside mm/");
	f = call(&warn_on, "drivers/foo.c", "foo_chk", "WARN_ON(f(a || b))",
		 "+\tif (WARN_ON(f(a || b)))\n \t\treturn;\n", 0);
	matched(&ids, &arg, &a, &f);
	ok(!strstr(ids.buf, "or-conditions") && !strstr(ids.buf, "bare-statement"),
	   "not for || inside a call, nor for a WARN that bails out (%s)", ids.buf);

	f = call(&bug_on, "kernel/foo.c", "foo_put", "BUG_ON(refcount_read(&f->ref) == 0)",
		 "+\tBUG_ON(refcount_read(&f->ref) == 0);\n", 0);
	matched(&ids, &arg, &a, &f);
	ok(strstr(ids.buf, "refcount") != NULL, "refcount: a reference count read (%s)", ids.buf);

	/* ---- helpers ---- */
	ok(advice_call_args(&sb, "BUG_ON(!(inode->i_state & I_FREEING))") &&
	   !strcmp(sb.buf, "!(inode->i_state & I_FREEING)"), "the condition of a call");
	strbuf_reset(&sb);
	ok(!advice_call_args(&sb, "BUG_ON"), "no parenthesis: no condition");
	strbuf_reset(&sb);
	f = call(&bug_on, "fs/inode.c", "inode_unpin",
		 "BUG_ON(!(inode->i_state & I_LRU))",
		 "+{\n+\tspin_lock(&inode->i_lock);\n+\tmutex_lock(&m);\n+\tmutex_unlock(&m);\n"
		 "+\tBUG_ON(!(inode->i_state & I_LRU));\n", 4);
	advice_unlocks(&sb, &a, &f);
	is_str(sb.buf, "spin_unlock(&inode->i_lock);\n",
	       "a way out unlocks what the function still holds, not what it released");

	strbuf_release(&ids);
	strbuf_release(&arg);
	strbuf_release(&sb);
	test_test_calls(&a);
	test_deref_before(&a);
	test_build_time(&a);
	advice_release(&a);
	test_forty_entries();
	test_holds();
	return done_testing();
}
