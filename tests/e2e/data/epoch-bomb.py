#!/usr/bin/env python3
"""A public-inbox v2 epoch whose one new mail is a compression bomb.

    epoch-bomb.py GIT_DIR MIB [MESSAGE-ID]

Adds one commit on top of GIT_DIR's HEAD (a bare repository; created
when missing) whose tree's "m" -- the mail, as public-inbox stores it --
is a blob of MIB MiB: a small mail header, then zeros.  The blob is
written as a loose object with zlib, streamed 1 MiB at a time, so that
neither this script nor git ever holds it whole: 600 MiB become about
600 KB on disk.  Prints the new commit's id.
"""
import hashlib
import os
import subprocess
import sys
import zlib

git_dir, mib = sys.argv[1], int(sys.argv[2])
msgid = sys.argv[3] if len(sys.argv) > 3 else "bomb@example.org"
head = ("From: Bomb <bomb@example.org>\nSubject: [PATCH] zeros\n"
        "Message-ID: <%s>\n\n" % msgid).encode()
size = mib << 20
chunk = bytes(1 << 20)


def git(*args, stdin=None):
    return subprocess.run(["git", "--git-dir", git_dir, *args], input=stdin,
                          check=True, capture_output=True).stdout.decode().strip()


def body():
    yield ("blob %d\0" % size).encode()
    yield head
    left = size - len(head)
    while left > 0:
        n = min(left, len(chunk))
        yield chunk[:n]
        left -= n


if not os.path.isdir(git_dir):
    subprocess.run(["git", "init", "-q", "--bare", git_dir], check=True)
# one pass: hashed while compressed, named once the id is known
sha = hashlib.sha1()
z = zlib.compressobj(9)
tmp = os.path.join(git_dir, "objects", "bomb.tmp")
with open(tmp, "wb") as f:
    for part in body():
        sha.update(part)
        f.write(z.compress(part))
    f.write(z.flush())
oid = sha.hexdigest()
path = os.path.join(git_dir, "objects", oid[:2], oid[2:])
os.makedirs(os.path.dirname(path), exist_ok=True)
os.rename(tmp, path)

tree = git("mktree", stdin=("100644 blob %s\tm\n" % oid).encode())
env_args = ["-c", "user.name=Bomb", "-c", "user.email=bomb@example.org"]
parent = subprocess.run(["git", "--git-dir", git_dir, "rev-parse", "-q", "--verify",
                         "HEAD"], capture_output=True).stdout.decode().strip()
cmd = ["git", *env_args, "--git-dir", git_dir, "commit-tree", tree, "-m", "bomb"]
if parent:
    cmd += ["-p", parent]
commit = subprocess.run(cmd, check=True, capture_output=True).stdout.decode().strip()
git("update-ref", "HEAD", commit)
print(commit)
