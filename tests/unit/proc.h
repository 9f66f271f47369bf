/*
 * Processes in unit tests: proc_alive() says whether a pid runs, a zombie
 * no one reaped yet counting as gone (/proc/PID/stat's state).
 */
#ifndef WW_TEST_PROC_H
#define WW_TEST_PROC_H

#include "error.h"
#include "strbuf.h"

#include <stdbool.h>
#include <string.h>
#include <sys/types.h>

static inline bool proc_alive(pid_t pid)
{
	struct strbuf path = STRBUF_INIT, stat = STRBUF_INIT;
	const char *paren;
	bool ret = false;

	strbuf_addf(&path, "/proc/%ld/stat", (long)pid);
	if (!strbuf_read_file(&stat, path.buf, 4096) &&
	    (paren = strrchr(stat.buf, ')')) && paren[1] == ' ')
		ret = paren[2] != 'Z' && paren[2] != 'X';
	error_clear();
	strbuf_release(&path);
	strbuf_release(&stat);
	return ret;
}

#endif
