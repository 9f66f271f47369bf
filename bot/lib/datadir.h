/*
 * Where warnwatch's data lives (rules/, templates/, kernel-ci/): beside the
 * checkout when the binary runs from it, else the installed copy.
 */
#ifndef WW_DATADIR_H
#define WW_DATADIR_H

#include "ww.h"
#include "env.h"
#include "strbuf.h"

/*
 * The directory `sub` (e.g. "rules", "templates/dashboard"): the value of
 * environment variable `env` (env.h; ENV_NONE: none) if set (with `env_sub` appended when not
 * NULL), else <checkout>/<sub> when the binary is bot/warnwatch or
 * build/warnwatch of a checkout that has it, else WW_DATADIR "/" sub.
 * The result is in a buffer owned by the caller (`buf`, `size` bytes).
 */
const char *datadir_find(char *buf, size_t size, const char *sub,
			 enum env_var env, const char *env_sub);

/*
 * The cache directory (kernel trees, builds, b4's): `option` (from
 * --cache) if set, else $WARNWATCH_CACHE, else
 * ${XDG_CACHE_HOME:-$HOME/.cache}/warnwatch.  On the ground floor because
 * b4 (mail) keeps its work there as kernel-ci does.
 */
void datadir_cache(struct strbuf *out, const char *option);

/* The directory this binary is in, into `buf`; false if unknown. */
bool datadir_exe_dir(char *buf, size_t size);

#endif
