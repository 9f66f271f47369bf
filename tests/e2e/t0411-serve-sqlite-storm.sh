#!/usr/bin/env bash
# slow
#
# t0411: t0410's storm against the embedded default, SQLite, with one
# `warnwatch serve --role=all` process: the same 60 series in three
# waves, the same 20 seeded SIGKILLs (some at the two worst moments of a
# send), each followed by a restart; no database restart or cut
# connection (there is no server).  Then the same checks: no series lost,
# none answered twice, every reply recorded once, failures recorded with
# their reason and finished by `retry --force`.  WW_STORM_SIZE=reduced
# runs 20 series and 6 kills (the sanitized pass of make check-ci).
WW_STORM_BACKEND=sqlite exec bash "$(dirname "$0")/t0410-serve-pg-storm.sh"
