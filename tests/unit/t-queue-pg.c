/*
 * t-queue's tests on the PostgreSQL backend (a real server, started by
 * tests/e2e/pg-run through pg.h): grouping, settle, versions, stages,
 * retries and poll state must come out the same as on SQLite.
 */
#define T_QUEUE_PG 1
#include "t-queue.c"
