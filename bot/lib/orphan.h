/*
 * Process groups a dead warnwatch left behind.
 *
 * child.c's reaper ends a program's group within seconds when warnwatch
 * dies, but a SIGKILL that takes the reaper too (the OOM killer, a kill
 * of the whole service) leaves the program's descendants running: the
 * program dies with its reaper (PR_SET_PDEATHSIG), what it started does
 * not.  So the service records each child's group in a file under its
 * state directory while it runs, and on start kills the groups recorded
 * by a warnwatch that is no longer alive.  A pid is trusted only with its
 * start time (/proc/PID/stat): a reused pid is never killed, and a group
 * of a process still alive (another worker on the same state) is left
 * alone.
 */
#ifndef WW_ORPHAN_H
#define WW_ORPHAN_H

#include "ww.h"

/*
 * From now on, record every group child.c starts in `dir` (created),
 * one file per group, removed when the group ends.  Called once, before
 * any thread starts; NULL stops recording.
 */
int orphan_track(const char *dir);

/* child.c: a group began, or ended (no-ops unless tracking). */
void orphan_note(pid_t pgid);
void orphan_forget(pid_t pgid);

/*
 * Kill with SIGKILL every group recorded in `dir` whose recorder is dead
 * (on this host and since this boot), leader and members alike, and
 * remove its record; records of a live recorder, or of another host, are
 * kept, those of an earlier boot removed.  Returns the number of
 * processes killed, or a negative code when `dir` cannot be read (a
 * missing `dir` has nothing to reap: 0).
 */
int orphan_reap(const char *dir);

#endif
