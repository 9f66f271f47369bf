# Which lists a mail was routed to, from its headers.
# HELD: lists held out for evaluation (JUDGE-SPEC.md); a thread naming one is never read, judged
# or stored.  ORIGINAL: the six lists of ../shared/corpus/human-reviews; a thread naming one
# belongs to that corpus (kept or not there), so the mined lists stay disjoint from it and
# leave-one-list-out scoring is not fooled by the same thread under two list names.
import re, email, email.policy
HELD = re.compile(r'linux-ext4|cgroups[@.]|(?<![\w-])kvm[@.]|(?<![\w-])bpf[@.]|linux-scsi[@.]|linux-pm[@.]', re.I)
ORIGINAL = re.compile(r'linux-xfs[@.]|linux-btrfs[@.]|linux-block[@.]|io-uring[@.]|linux-nfs[@.]|linux-f2fs-devel[@.]', re.I)
HEADERS = ('To', 'Cc', 'List-Id', 'X-Mailing-List', 'Delivered-To')
def routing(raw):
    end = raw.find(b'\n\n')
    h = raw[:end if end >= 0 else len(raw)].decode('utf-8', 'replace')
    m = email.message_from_string(h + '\n\n', policy=email.policy.compat32)
    return ' '.join(str(m.get_all(k) or '') for k in HEADERS)
def held_out(raw):
    return bool(HELD.search(routing(raw)))
def original(raw):
    return bool(ORIGINAL.search(routing(raw)))
# Reviews a language model wrote (forwarded by a human, who says so) are not a human reviewer's
# judgement.  A human who only mentions an AI tool's remarks elsewhere is still a human reviewer.
AI = re.compile(rb'AI[- ]generated review|This is an AI[- ]generated|Claude (Opus|Sonnet)|ChatGPT', re.I)
def ai_generated(raw):
    return bool(AI.search(raw))
# Source trees of the held-out lists' subsystems: a patch to them that was not routed to the list
# (so the header check passes) is still left out, in case a later version of it was.
HELD_PATH = re.compile(r'^([ab]/)?(fs/ext4/|fs/jbd2/|kernel/cgroup/|virt/kvm/|arch/[^/]+/kvm/|kernel/bpf/|drivers/scsi/|kernel/power/)')
def held_path(f):
    return bool(HELD_PATH.search(f.strip()))
