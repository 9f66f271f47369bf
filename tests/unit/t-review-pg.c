/*
 * t-review's tests on the PostgreSQL backend (a real server, started by
 * tests/e2e/pg-run through pg.h): `review --send` with [state] url keeps
 * the same exactly-once rules as with SQLite.
 */
#define T_REVIEW_PG 1
#include "t-review.c"
