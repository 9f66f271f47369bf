/*
 * What check.c (the pipeline) and check-tree.c (--tree: wrappers defined
 * in the kernel tree) share.  Not an API: include check.h.
 */
#ifndef WW_CHECK_PRIV_H
#define WW_CHECK_PRIV_H

#include "check.h"

/* The strings a hunk must contain to be worth scanning (every macro name
 * of `rs` contains one), NULL-terminated; the caller frees the array. */
const char **check_make_anchors(const struct ruleset *rs);

#endif
