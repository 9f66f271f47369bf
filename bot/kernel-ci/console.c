/*
 * Parsing a kernel console log (see console.h): one pass over the lines,
 * with the KTAP nesting (suite at indent 1, parameterised case at indent
 * 2) tracked so that every WARNING knows which suite was running.
 */
#include "console.h"

#include <ctype.h>

#define CUT_HERE "------------[ cut here ]------------"
/* How far a "cut here" may precede its WARNING/BUG line (WARN()'s own
 * message sits in between). */
#define CUT_HERE_WINDOW 64
/* An "Oops:" this close after another report belongs to it. */
#define SAME_REPORT_WINDOW 8

struct parser {
	struct console_result *r;
	size_t lineno;
	size_t cut_here_line;	/* 0: none pending */
	long open_suite;	/* index in r->suites, -1: none */
	char *open_param;	/* open parameterised case, or NULL */
	long trace_for;		/* index in r->fired collecting a trace, -1 */
	bool in_call_trace;
	int frames;
	size_t last_report_line;
	size_t *cases_at;	/* per fired: cases of its suite at that time */
	size_t alloc_cases_at;
	struct strbuf pending;	/* WARN()'s text after "cut here" */
	long open_utest;	/* index in r->utests between begin and end, -1 */
};

#define MARKER "warnwatch: "

const char *ktap_result_name(enum ktap_result r)
{
	switch (r) {
	case KTAP_PASS: return "pass";
	case KTAP_FAIL: return "fail";
	case KTAP_SKIP: return "skip";
	case KTAP_CRASHED: return "crashed";
	}
	return "?";
}

const char *fired_kind_name(enum fired_kind k)
{
	switch (k) {
	case FIRED_WARN: return "warn";
	case FIRED_BUG: return "bug";
	case FIRED_OOPS: return "oops";
	}
	return "?";
}

/* A frame's symbol: "vfs_mkdir+0xe8/0x190" -> "vfs_mkdir", ".isra.0" dropped. */
static size_t frame_symbol(const char *frame, size_t len)
{
	size_t n = 0;

	while (n < len && frame[n] != '+' && frame[n] != '.' && frame[n] != ' ')
		n++;
	return n;
}

void console_fingerprint(struct strbuf *out, enum fired_kind kind,
			 const char *function, const char *trace,
			 const char *message)
{
	const char *p = trace;
	int frames = 0;

	strbuf_addf(out, "%s:", fired_kind_name(kind));
	if (function)
		strbuf_add(out, function, frame_symbol(function, strlen(function)));
	else if (!trace || !*trace)
		strbuf_addstr(out, message ? message : "?");
	while (p && *p && frames < CONSOLE_FINGERPRINT_FRAMES + !function) {
		size_t len = strcspn(p, "\n"), n = frame_symbol(p, len);

		if (n && !(function && strlen(function) == n && !strncmp(p, function, n))) {
			if (function || frames)
				strbuf_addch(out, '/');
			strbuf_add(out, p, n);
			frames++;
		}
		p += len + (p[len] == '\n');
	}
}

/*
 * Skip the printk prefixes: "[    1.234567] " (PRINTK_TIME) and
 * "[    T1] " / "[ C0] " (PRINTK_CALLER).  A bracket group of anything
 * else is message text.
 */
static const char *skip_stamp(const char *s)
{
	for (int i = 0; i < 2 && *s == '['; i++) {
		const char *p = s + 1;

		while (*p == ' ' || isdigit((unsigned char)*p) || *p == '.' ||
		       ((*p == 'T' || *p == 'C') && p > s + 1 &&
			(p[-1] == ' ' || p[-1] == '[')))
			p++;
		if (*p != ']' || p == s + 1)
			break;
		s = p + 1;
		if (*s == ' ')
			s++;
	}
	return s;
}

static bool parse_int(const char **sp, long *out)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)**sp))
		return false;
	errno = 0;
	v = strtol(*sp, &end, 10);
	if (errno)
		return false;
	*out = v;
	*sp = end;
	return true;
}

/* "fn+0x1e0/0x1f0 [mod]" -> "fn" */
static char *symbol_name(const char *s)
{
	size_t n = strcspn(s, "+ \t,[");

	return n ? xstrndup(s, n) : NULL;
}

/* "path/file.c:123" at `s`: split on the last colon before the number. */
static bool parse_file_line(const char *s, size_t len, char **file, int *line)
{
	const char *colon = NULL;
	long v;

	for (size_t i = 0; i < len; i++)
		if (s[i] == ':')
			colon = s + i;
	if (!colon || colon == s)
		return false;
	{
		const char *p = colon + 1;

		if (!parse_int(&p, &v) || p != s + len || v <= 0 || v > 10000000)
			return false;
	}
	*file = xstrndup(s, colon - s);
	*line = (int)v;
	return true;
}

static struct fired *add_fired(struct parser *p, enum fired_kind kind)
{
	struct console_result *r = p->r;
	struct fired *f;

	ALLOC_GROW(r->fired, r->nr_fired + 1, r->alloc_fired);
	ALLOC_GROW(p->cases_at, r->nr_fired + 1, p->alloc_cases_at);
	f = &r->fired[r->nr_fired];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->console_line = p->lineno;
	if (p->open_utest >= 0) {
		const struct console_utest *u = &r->utests[p->open_utest];

		f->suite = xstrdup(u->name);
		if (u->image)
			f->test = xstrdup(u->image);
		p->cases_at[r->nr_fired] = 0;
	} else if (p->open_suite >= 0) {
		struct ktap_suite *su = &r->suites[p->open_suite];

		f->suite = xstrdup(su->name);
		p->cases_at[r->nr_fired] = su->nr_cases;
		if (p->open_param)
			f->test = xstrdup(p->open_param);
	} else {
		p->cases_at[r->nr_fired] = 0;
	}
	p->trace_for = r->nr_fired;
	p->in_call_trace = false;
	p->frames = 0;
	p->last_report_line = p->lineno;
	p->cut_here_line = 0;
	r->nr_fired++;
	return f;
}

static bool cut_here_pending(const struct parser *p)
{
	return p->cut_here_line && p->lineno - p->cut_here_line <= CUT_HERE_WINDOW;
}

/*
 * "WARNING: CPU: 0 PID: 20 at kernel/time/timeconv.c:55 time64_to_tm+0x1e0/0x1f0"
 * "WARNING: CPU: 0 PID: 20 at time64_to_tm+0x1e0/0x1f0"   (no file info)
 * "WARNING: kernel/time/timeconv.c:55 at time64_to_tm+0x1e0/0x1f0, CPU#0: ..."
 */
static bool parse_warning(struct parser *p, const char *s)
{
	const char *rest, *at;
	char *file = NULL;
	int line = 0;
	long v;
	struct fired *f;

	if (!skip_prefix(s, "WARNING: ", &rest) || !cut_here_pending(p))
		return false;
	if (skip_prefix(rest, "CPU: ", &rest)) {
		if (!parse_int(&rest, &v) || !skip_prefix(rest, " PID: ", &rest) ||
		    !parse_int(&rest, &v) || !skip_prefix(rest, " at ", &rest))
			return false;
		at = strchr(rest, ' ');
		if (at && parse_file_line(rest, at - rest, &file, &line))
			rest = at + 1;
	} else {
		at = strstr(rest, " at ");
		if (!at || !parse_file_line(rest, at - rest, &file, &line))
			return false;
		rest = at + 4;
	}
	f = add_fired(p, FIRED_WARN);
	f->file = file;
	f->line = line;
	f->function = symbol_name(rest);
	if (p->pending.len)
		f->message = xstrdup(p->pending.buf);
	p->r->warn_count++;
	return true;
}

/* "kernel BUG at mm/slub.c:123!" or "Kernel BUG at fn+0x1/0x2 [verbose ...]" */
static bool parse_bug(struct parser *p, const char *s)
{
	const char *rest;
	struct fired *f;

	if (!cut_here_pending(p))
		return false;
	if (skip_prefix(s, "kernel BUG at ", &rest)) {
		size_t n = strlen(rest);
		char *file;
		int line;

		if (!n || rest[n - 1] != '!' ||
		    !parse_file_line(rest, n - 1, &file, &line))
			return false;
		f = add_fired(p, FIRED_BUG);
		f->file = file;
		f->line = line;
		return true;
	}
	if (skip_prefix(s, "Kernel BUG at ", &rest)) {
		f = add_fired(p, FIRED_BUG);
		f->function = symbol_name(rest);
		return true;
	}
	return false;
}

/* " at FILE:LINE" / " in FILE:LINE:COL" at the end of a report line. */
static void report_location(struct fired *f, const char *s)
{
	const char *at = strstr(s, " at ");
	const char *in = strstr(s, " in ");
	const char *loc = at ? at + 4 : in ? in + 4 : NULL;
	size_t n;

	if (!loc)
		return;
	n = strcspn(loc, " \t");
	/* UBSAN's FILE:LINE:COL: drop the column. */
	for (int colons = 0, i = (int)n - 1; i > 0; i--) {
		if (loc[i] == ':' && ++colons == 2) {
			n = i;
			break;
		}
	}
	if (!parse_file_line(loc, n, &f->file, &f->line))
		f->line = 0;
}

/* Crash reports that are not BUG()/WARN(): "BUG: kernel NULL pointer
 * dereference", "general protection fault", "UBSAN: ...", a lone "Oops:". */
static bool parse_oops(struct parser *p, const char *s)
{
	struct fired *f;

	if (starts_with(s, "BUG: ") || starts_with(s, "UBSAN: ") ||
	    starts_with(s, "general protection fault") ||
	    (starts_with(s, "Oops: ") &&
	     (!p->last_report_line ||
	      p->lineno - p->last_report_line > SAME_REPORT_WINDOW))) {
		f = add_fired(p, FIRED_OOPS);
		f->message = xstrdup(s);
		report_location(f, s);
		return true;
	}
	return false;
}

bool console_syscall_entry(struct strbuf *entry, struct strbuf *name, const char *frame)
{
	static const char *const prefixes[] = {
		"__x64_sys_", "__ia32_sys_", "__arm64_sys_", "__riscv_sys_", "__s390x_sys_",
		"__se_sys_", "__do_sys_", "__x64_compat_sys_", "__ia32_compat_sys_",
		"__arm64_compat_sys_", "__se_compat_sys_", "__do_compat_sys_", NULL
	};
	size_t len = strcspn(frame, "+ \t\r\n"), n;

	for (const char *const *pre = prefixes; *pre; pre++) {
		size_t k = strlen(*pre);

		if (len <= k || strncmp(frame, *pre, k))
			continue;
		n = strspn(frame + k, "abcdefghijklmnopqrstuvwxyz0123456789_");
		if (k + n != len)
			return false;
		if (entry) {
			strbuf_reset(entry);
			strbuf_add(entry, frame, len);
		}
		if (name) {
			strbuf_reset(name);
			strbuf_add(name, frame + k, n);
		}
		return true;
	}
	return false;
}

bool console_trace_syscall(struct strbuf *entry, struct strbuf *name, const char *trace)
{
	for (const char *l = trace; l && *l; l += strcspn(l, "\n"), l += *l == '\n')
		if (console_syscall_entry(entry, name, l))
			return true;
	return false;
}

static void add_frame(struct parser *p, struct fired *f, const char *frame)
{
	struct strbuf sb = STRBUF_INIT;

	/* Past the frames kept, the system call that led there still is:
	 * after a "..." line for the frames left out (a WARN user space
	 * reaches is the one coding-style forbids). */
	if (p->frames >= CONSOLE_TRACE_FRAMES) {
		if (!console_syscall_entry(NULL, NULL, frame) ||
		    console_trace_syscall(NULL, NULL, f->trace))
			return;
		strbuf_addstr(&sb, f->trace ? f->trace : "");
		strbuf_addstr(&sb, "...\n");
		strbuf_add(&sb, frame, strcspn(frame, " \r\n"));
		strbuf_addch(&sb, '\n');
		free(f->trace);
		f->trace = strbuf_detach(&sb, NULL);
		return;
	}
	if (f->trace)
		strbuf_addstr(&sb, f->trace);
	strbuf_add(&sb, frame, strcspn(frame, " \r\n"));
	strbuf_addch(&sb, '\n');
	free(f->trace);
	f->trace = strbuf_detach(&sb, NULL);
	p->frames++;
}

/* The trace of the last report: "RIP:" gives a missing function, frames
 * after "Call Trace:" up to the end marker. */
static void trace_line(struct parser *p, const char *s)
{
	struct fired *f;
	const char *rest;

	if (p->trace_for < 0)
		return;
	f = &p->r->fired[p->trace_for];
	if (starts_with(s, "---[ end trace") || starts_with(s, "Kernel Offset:")) {
		p->trace_for = -1;
		return;
	}
	if (skip_prefix(s, "RIP: ", &rest)) {
		/* "RIP: 0010:time64_to_tm+0x1e0/0x1f0": where it fired, the
		 * trace's first frame. */
		rest = strchr(rest, ':');
		if (!rest || !strstr(rest, "+0x") || f->trace)
			return;
		rest++;
		if (!f->function)
			f->function = symbol_name(rest);
		add_frame(p, f, rest);
		return;
	}
	if (starts_with(s, "Call Trace:")) {
		p->in_call_trace = true;
		return;
	}
	if (!p->in_call_trace || s[0] != ' ')
		return;
	rest = s + 1;
	if (starts_with(rest, "? ") || rest[0] == '<' || !strstr(rest, "+0x"))
		return;
	add_frame(p, f, rest);
}

/* WARN()'s own text sits between "cut here" and the WARNING line. */
static void warn_message(struct parser *p, const char *s)
{
	if (p->pending.len > 512)
		return;
	if (p->pending.len)
		strbuf_addch(&p->pending, '\n');
	strbuf_addstr(&p->pending, s);
}

static struct ktap_suite *new_suite(struct console_result *r, const char *name)
{
	struct ktap_suite *su;

	ALLOC_GROW(r->suites, r->nr_suites + 1, r->alloc_suites);
	su = &r->suites[r->nr_suites++];
	memset(su, 0, sizeof(*su));
	su->name = xstrdup(name);
	su->planned = -1;
	su->result = KTAP_CRASHED;
	return su;
}

/*
 * "ok 3 name # SKIP why", "not ok 1 - name": the result and the name
 * (into `name`).  False when `s` is no result line.
 */
static bool ktap_result_line(const char *s, enum ktap_result *res,
			     struct strbuf *name)
{
	const char *rest = s, *skip;
	bool pass;
	long n;

	if (skip_prefix(s, "ok ", &rest))
		pass = true;
	else if (skip_prefix(s, "not ok ", &rest))
		pass = false;
	else
		return false;
	if (!parse_int(&rest, &n))
		return false;
	if (*rest == ' ')
		rest++;
	skip_prefix(rest, "- ", &rest);
	skip = strstr(rest, " # ");
	strbuf_reset(name);
	strbuf_add(name, rest, skip ? (size_t)(skip - rest) : strlen(rest));
	strbuf_rtrim(name);
	*res = pass ? KTAP_PASS : KTAP_FAIL;
	if (skip && (!strncmp(skip + 3, "SKIP", 4) || !strncmp(skip + 3, "skip", 4)))
		*res = KTAP_SKIP;
	return true;
}

static void close_suite(struct parser *p, const char *name, enum ktap_result res)
{
	struct console_result *r = p->r;
	struct ktap_suite *su = NULL;

	if (p->open_suite >= 0 && !strcmp(r->suites[p->open_suite].name, name))
		su = &r->suites[p->open_suite];
	else
		su = new_suite(r, name);
	su->result = res;
	p->open_suite = -1;
	free(p->open_param);
	p->open_param = NULL;
}

static void add_case(struct parser *p, const char *name, enum ktap_result res)
{
	struct ktap_suite *su;
	struct ktap_case *c;

	if (p->open_suite < 0)
		return;
	su = &p->r->suites[p->open_suite];
	ALLOC_GROW(su->cases, su->nr_cases + 1, su->alloc_cases);
	c = &su->cases[su->nr_cases++];
	c->name = xstrdup(name);
	c->result = res;
	if (res == KTAP_PASS)
		su->pass++;
	else if (res == KTAP_FAIL)
		su->fail++;
	else
		su->skip++;
	if (p->open_param && !strcmp(p->open_param, name)) {
		free(p->open_param);
		p->open_param = NULL;
	}
}

/* KTAP lines, by indentation: 0 = the run, 1 = a suite, 2 = a case. */
static bool ktap_line(struct parser *p, const char *msg)
{
	struct console_result *r = p->r;
	struct strbuf name = STRBUF_INIT;
	enum ktap_result res;
	const char *s = msg, *rest;
	int depth = 0;
	long n;

	while (starts_with(s, "    ") && depth < 3) {
		s += 4;
		depth++;
	}
	if (*s == ' ')
		return false;
	if (starts_with(s, "KTAP version ") || starts_with(s, "TAP version ")) {
		if (!depth)
			r->tests_started = true;
		return true;
	}
	if (!r->tests_started)
		return false;
	if (skip_prefix(s, "1..", &rest) && parse_int(&rest, &n) && !*rest) {
		if (!depth && r->planned_suites < 0)
			r->planned_suites = (int)n;
		else if (depth == 1 && p->open_suite >= 0)
			r->suites[p->open_suite].planned = (int)n;
		return true;
	}
	if (skip_prefix(s, "# Subtest: ", &rest)) {
		if (depth == 1) {
			if (p->open_suite >= 0)	/* never closed: crashed */
				p->open_suite = -1;
			new_suite(r, rest)->line = p->lineno;
			p->open_suite = r->nr_suites - 1;
		} else if (depth == 2) {
			free(p->open_param);
			p->open_param = xstrdup(rest);
		}
		return true;
	}
	if (!ktap_result_line(s, &res, &name)) {
		strbuf_release(&name);
		return false;
	}
	if (depth == 0)
		close_suite(p, name.buf, res);
	else if (depth == 1)
		add_case(p, name.buf, res);
	strbuf_release(&name);
	return true;
}

static void set_last_line(struct console_result *r, const char *msg)
{
	const char *s = msg;

	while (*s == ' ')
		s++;
	if (!*s)
		return;
	free(r->last_line);
	r->last_line = xstrdup(msg);
}

/* The value of " key=VALUE" in a marker line, or NULL (caller frees). */
static char *marker_value(const char *s, const char *key)
{
	size_t klen = strlen(key);

	for (const char *q = strchr(s, ' '); q; q = strchr(q + 1, ' ')) {
		if (!strncmp(q + 1, key, klen) && q[1 + klen] == '=') {
			const char *v = q + 2 + klen;

			return xstrndup(v, strcspn(v, " "));
		}
	}
	return NULL;
}

/* kernel-ci/init's markers (console.h); true when `msg` was one. */
static bool marker_line(struct parser *p, const char *msg)
{
	struct console_result *r = p->r;
	const char *s = strstr(msg, MARKER), *rest;

	if (!s)
		return false;
	s += strlen(MARKER);
	if (!strcmp(s, "init start")) {
		r->init_started = true;
	} else if (!strcmp(s, "init done")) {
		r->init_done = true;
	} else if (skip_prefix(s, "begin ", &rest) && *rest) {
		struct console_utest *u;

		ALLOC_GROW(r->utests, r->nr_utests + 1, r->alloc_utests);
		u = &r->utests[r->nr_utests];
		memset(u, 0, sizeof(*u));
		u->name = xstrndup(rest, strcspn(rest, " "));
		u->image = marker_value(rest, "image");
		u->rc = -1;
		u->line = p->lineno;
		p->open_utest = r->nr_utests++;
	} else if (skip_prefix(s, "end ", &rest) && *rest) {
		size_t n = strcspn(rest, " ");
		char *rc = marker_value(rest, "rc");
		struct console_utest *u;

		if (p->open_utest < 0)
			goto out_rc;
		u = &r->utests[p->open_utest];
		if (strlen(u->name) != n || strncmp(u->name, rest, n))
			goto out_rc;
		free(u->result);
		u->result = marker_value(rest, "result");
		if (rc)
			u->rc = atoi(rc);
		p->open_utest = -1;
out_rc:
		free(rc);
	} else if (skip_prefix(s, "gcov", &rest) && (*rest == ' ' || !*rest)) {
		char *files = marker_value(rest, "files");

		free(r->gcov_result);
		r->gcov_result = marker_value(rest, "result");
		r->gcov_files = files ? atoi(files) : 0;
		free(files);
	}
	return true;
}

static void parse_line(struct parser *p, const char *msg)
{
	struct console_result *r = p->r;
	const char *rest;

	set_last_line(r, msg);
	if (!strcmp(msg, CUT_HERE)) {
		p->cut_here_line = p->lineno;
		strbuf_reset(&p->pending);
		return;
	}
	if (marker_line(p, msg))
		return;
	/* After /init started, KTAP lines are user space's (kselftests,
	 * workloads): the KUnit run is over. */
	if (!r->init_started && ktap_line(p, msg))
		return;
	if (starts_with(msg, "Linux version ")) {
		r->booted = true;
		return;
	}
	if (starts_with(msg, "reboot: Restarting system")) {
		r->rebooted = true;
		return;
	}
	if (skip_prefix(msg, "Kernel panic - not syncing: ", &rest)) {
		if (!r->panicked) {
			r->panicked = true;
			r->panic_message = xstrdup(rest);
			if (p->open_utest >= 0)
				r->panic_suite = xstrdup(r->utests[p->open_utest].name);
			else if (p->open_suite >= 0)
				r->panic_suite = xstrdup(r->suites[p->open_suite].name);
		}
		p->trace_for = -1;
		return;
	}
	if (parse_warning(p, msg) || parse_bug(p, msg) || parse_oops(p, msg))
		return;
	if (cut_here_pending(p))
		warn_message(p, msg);
	trace_line(p, msg);
}

/*
 * KUNIT_CASE(fn) names the case after its function, and KUnit calls it
 * from kunit_try_run_case(): the frame below that one is the test case.
 */
static char *case_from_trace(const char *trace)
{
	const char *runner = trace ? strstr(trace, "\nkunit_try_run_case+") : NULL;
	const char *start;

	if (!runner)
		return NULL;
	start = runner;
	while (start > trace && start[-1] != '\n')
		start--;
	return symbol_name(start);
}

/* After the last line: who crashed, which case each report belongs to. */
static void finish(struct parser *p)
{
	struct console_result *r = p->r;
	int closed = 0;

	for (size_t i = 0; i < r->nr_suites; i++)
		if (r->suites[i].result != KTAP_CRASHED)
			closed++;
	r->tests_finished = r->planned_suites >= 0 && closed >= r->planned_suites;
	for (size_t i = 0; i < r->nr_fired; i++) {
		struct fired *f = &r->fired[i];
		const struct ktap_suite *su;

		if (f->test || !f->suite)
			continue;
		/* The case that was running reports right after the WARN. */
		su = NULL;
		for (size_t j = 0; j < r->nr_suites; j++)
			if (r->suites[j].line < f->console_line &&
			    !strcmp(r->suites[j].name, f->suite))
				su = &r->suites[j];
		if (su && p->cases_at && p->cases_at[i] < su->nr_cases)
			f->test = xstrdup(su->cases[p->cases_at[i]].name);
		else
			f->test = case_from_trace(f->trace);
	}
}

void console_parse(struct console_result *out, const char *buf, size_t len)
{
	struct parser p = { .r = out, .open_suite = -1, .trace_for = -1,
			    .pending = STRBUF_INIT, .open_utest = -1 };
	struct strbuf line = STRBUF_INIT;
	size_t pos = 0;

	out->planned_suites = -1;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;

		strbuf_reset(&line);
		strbuf_add(&line, buf + pos, end - pos);
		/* Serial consoles end lines with CRLF; NULs come from resets. */
		while (line.len && (line.buf[line.len - 1] == '\r'))
			strbuf_setlen(&line, line.len - 1);
		for (size_t i = 0; i < line.len; i++)
			if (!line.buf[i])
				line.buf[i] = ' ';
		p.lineno++;
		parse_line(&p, skip_stamp(line.buf));
		pos = end + 1;
	}
	out->nr_lines = p.lineno;
	finish(&p);
	free(p.open_param);
	free(p.cases_at);
	strbuf_release(&p.pending);
	strbuf_release(&line);
}

int console_parse_file(struct console_result *out, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, path, CONSOLE_MAX_BYTES);

	if (ret == WW_ETOOBIG) {
		/* A flood of output is still a log: parse what fits. */
		strbuf_setlen(&sb, CONSOLE_MAX_BYTES);
		error_clear();
		ret = 0;
	}
	if (ret < 0)
		goto out;
	console_parse(out, sb.buf, sb.len);
out:
	strbuf_release(&sb);
	return ret;
}

const struct ktap_suite *console_find_suite(const struct console_result *r,
					    const char *name)
{
	for (size_t i = 0; i < r->nr_suites; i++)
		if (!strcmp(r->suites[i].name, name))
			return &r->suites[i];
	return NULL;
}

void console_result_release(struct console_result *r)
{
	for (size_t i = 0; i < r->nr_suites; i++) {
		struct ktap_suite *su = &r->suites[i];

		for (size_t j = 0; j < su->nr_cases; j++)
			free(su->cases[j].name);
		free(su->cases);
		free(su->name);
	}
	free(r->suites);
	for (size_t i = 0; i < r->nr_fired; i++) {
		struct fired *f = &r->fired[i];

		free(f->file);
		free(f->function);
		free(f->message);
		free(f->suite);
		free(f->test);
		free(f->trace);
	}
	free(r->fired);
	for (size_t i = 0; i < r->nr_utests; i++) {
		free(r->utests[i].name);
		free(r->utests[i].image);
		free(r->utests[i].result);
	}
	free(r->utests);
	free(r->gcov_result);
	free(r->panic_message);
	free(r->panic_suite);
	free(r->last_line);
	memset(r, 0, sizeof(*r));
	r->planned_suites = -1;
}
