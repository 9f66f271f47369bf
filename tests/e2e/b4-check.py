#!/usr/bin/python3
"""
b4's per-patch check, for t0041: the bytes b4 pipes to a
b4.prep-perpatch-check-cmd / b4.am-perpatch-check-cmd and how it reads
what comes back, run with Debian's own b4 modules where they have the
piece (LoreMessage.get_msg_as_bytes, _run_command, git_get_toplevel,
get_main_config: all in b4 0.12).  Debian 12's b4 predates the check
commands (0.14); their reading of the output is restated here from b4's
documentation and source (run_local_check): every stdout line is one
item, "fail" when it contains "ERROR:", else "warning", a leading "-:"
dropped; every stderr line is "fail"; no output at all is "success" on
exit 0 and "fail" otherwise.

usage: b4-check.py prep|am MAILFILE...   (in the work tree)
prints one "FLAG<TAB>ITEM" line per item, per mail.
"""
import email
import shlex
import sys

import b4

which, files = sys.argv[1], sys.argv[2:]
config = b4.get_main_config()
cmds = config.get(f'{which}-perpatch-check-cmd')
if not cmds:
    print(f'no b4.{which}-perpatch-check-cmd in git config', file=sys.stderr)
    sys.exit(2)
if isinstance(cmds, str):
    cmds = [cmds]       # b4 0.12 keeps one value; 0.14 a list
topdir = b4.git_get_toplevel()
for f in files:
    with open(f, 'rb') as fh:
        msg = email.message_from_binary_file(fh, policy=b4.emlpolicy)
    stdin = b4.LoreMessage.get_msg_as_bytes(msg)
    for cmdstr in cmds:
        sp = shlex.shlex(cmdstr, posix=True)
        sp.whitespace_split = True
        args = list(sp)
        name = args[0].rsplit('/', 1)[-1]
        ecode, out, err = b4._run_command(args, stdin=stdin, rundir=topdir)
        out = out.strip()
        err = err.strip()
        outl = out.decode(errors='replace').split('\n') if out else []
        errl = err.decode(errors='replace').split('\n') if err else []
        for line in outl:
            flag = 'fail' if 'ERROR:' in line else 'warning'
            print(f'{flag}\t{name}: {line[2:] if line.startswith("-:") else line}')
        for line in errl:
            print(f'fail\t{name}: {line[2:] if line.startswith("-:") else line}')
        if not outl and not errl:
            print(f'fail\t{name}: Exited with error code {ecode}' if ecode
                  else f'success\t{name}: passed all checks')
