#!/usr/bin/python3
"""
b4's review check runner (b4 0.15/0.16, src/b4/review/checks.py:
load_check_cmds, _run_external_cmd, store_results, get_cached_results),
RESTATED here for t0042: Debian 12's b4 is 0.12, which has no review
checks.  The pieces 0.12 has are b4's own (LoreMessage.get_msg_as_bytes
for the bytes piped, _run_command, git_get_toplevel, get_main_config);
the rest is a copy of 0.16's rules, not b4 running:

- commands: every value of b4.review-perpatch-check-cmd in git config,
  shell-split (shlex, posix, whitespace_split);
- one run per message, message on stdin, in the top of the work tree,
  B4_TRACKING_FILE in the environment;
- empty stdout: [] on exit 0, else one "fail" {"summary": "exited with
  error code N", "details": stderr};
- stdout not JSON: one "fail" "invalid JSON output: ...";
- a JSON object alone is taken as a list of one; entries that are not
  objects are skipped; "tool" defaults to the command's basename,
  "status" to "fail", and a status other than pass/warn/fail is "fail";
  summary/url/details default to "";
- the results are cached per message in SQLite with PRIMARY KEY (msgid,
  tool) and INSERT OR REPLACE, and read back from there on the next view.

usage: b4-review-rules.py TRACKING.json MAILFILE...   (in the work tree)
prints, per mail, "fresh<TAB>JSON" (what the runner made of the output),
"cached<TAB>JSON" (what the cache gives back), and "strict<TAB>..." when
the output is not exactly the contract (an array of objects with exactly
the keys tool, status, summary, url, details, all strings).
"""
import email
import json
import os
import shlex
import sqlite3
import sys

import b4

SCHEMA = """CREATE TABLE check_results (msgid TEXT NOT NULL, tool TEXT NOT NULL,
    status TEXT NOT NULL, summary TEXT, url TEXT, details TEXT,
    PRIMARY KEY (msgid, tool));"""


def run_external(cmdargs, stdin, topdir, tracking):
    os.environ['B4_TRACKING_FILE'] = tracking
    try:
        ecode, out, err = b4._run_command(cmdargs, stdin=stdin, rundir=topdir)
    finally:
        os.environ.pop('B4_TRACKING_FILE', None)
    name = os.path.basename(cmdargs[0])
    if not out or not out.strip():
        if ecode:
            return [{'tool': name, 'status': 'fail',
                     'summary': f'exited with error code {ecode}',
                     'details': err.strip().decode(errors='replace') if err else ''}], out
        return [], out
    try:
        data = json.loads(out)
    except json.JSONDecodeError as ex:
        return [{'tool': name, 'status': 'fail', 'summary': f'invalid JSON output: {ex}',
                 'details': out.decode(errors='replace')}], out
    if not isinstance(data, list):
        data = [data]
    results = []
    for entry in data:
        if not isinstance(entry, dict):
            continue
        status = entry.get('status', 'fail')
        if status not in ('pass', 'warn', 'fail'):
            status = 'fail'
        results.append({'tool': entry.get('tool', name), 'status': status,
                        'summary': entry.get('summary', ''), 'url': entry.get('url', ''),
                        'details': entry.get('details', '')})
    return results, out


def strict(out):
    try:
        data = json.loads(out)
    except ValueError:
        return 'not JSON'
    if not isinstance(data, list):
        return 'not an array'
    for e in data:
        if not isinstance(e, dict) or sorted(e) != ['details', 'status', 'summary', 'tool', 'url']:
            return f'entry {e!r} does not have exactly the five keys'
        if not all(isinstance(v, str) for v in e.values()):
            return f'entry {e!r} has a value that is not a string'
    return ''


tracking, files = sys.argv[1], sys.argv[2:]
cmds = b4.get_main_config().get('review-perpatch-check-cmd')
if not cmds:
    print('no b4.review-perpatch-check-cmd in git config', file=sys.stderr)
    sys.exit(2)
if isinstance(cmds, str):
    cmds = [cmds]
topdir = b4.git_get_toplevel()
db = sqlite3.connect(':memory:')
db.executescript(SCHEMA)
for f in files:
    with open(f, 'rb') as fh:
        msg = email.message_from_binary_file(fh, policy=b4.emlpolicy)
    msgid = msg.get('message-id', '').strip('<> ') or f
    stdin = b4.LoreMessage.get_msg_as_bytes(msg)
    fresh = []
    for cmdstr in cmds:
        sp = shlex.shlex(cmdstr, posix=True)
        sp.whitespace_split = True
        res, out = run_external(list(sp), stdin, topdir, tracking)
        fresh.extend(res)
        why = strict(out) if out and out.strip() else ''
        if why:
            print(f'strict\t{why}')
    for e in fresh:
        db.execute('INSERT OR REPLACE INTO check_results VALUES (?, ?, ?, ?, ?, ?)',
                   (msgid, e['tool'], e['status'], e.get('summary', ''),
                    e.get('url', ''), e.get('details', '')))
    cached = [{'tool': r[0], 'status': r[1], 'summary': r[2] or '', 'url': r[3] or '',
               'details': r[4] or ''} for r in db.execute(
                   'SELECT tool, status, summary, url, details FROM check_results '
                   'WHERE msgid = ?', (msgid,))]
    print('fresh\t' + json.dumps(fresh, sort_keys=True))
    print('cached\t' + json.dumps(cached, sort_keys=True))
