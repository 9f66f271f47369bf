# A real PostgreSQL for the tests (source after lib.sh).
#
#   pg_start       initdb into $TEST_DIR/pg (first call), then start the
#                  server on 127.0.0.1:$PG_PORT (a free port) with its unix
#                  socket in a private directory; sets PG_PORT, PG_URL,
#                  PG_PWFILE (the password, mode 600, for [state]
#                  password-file) and PG_PID.  Creates database "warnwatch".
#   pg_stop        fast shutdown by pid (SIGINT), immediate (SIGQUIT) after
#                  10 s, SIGKILL after 15 s; also run on every exit path.
#   pg_restart     pg_stop then pg_start on the same port and data.
#   pg_sql SQL     run SQL through psql on the private socket, print rows
#                  unaligned, tuples only.
#   pg_have        0 when the server binaries are installed.
#
# initdb and postgres refuse to run as root, and the tests run as root:
# the cluster belongs to "nobody" and the server runs as nobody through
# setpriv (which execs, so $PG_PID is the postmaster itself).  Its
# directory is under $TEST_DIR, made traversable (not readable) for it.
# The password travels only in the 600 file; TCP logins need it
# (scram-sha-256), the private socket is trust for pg_sql.

PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
PG_DIR=$TEST_DIR/pg
PG_PID=
PG_PORT=
PG_URL=
PG_PWFILE=$TEST_DIR/pg-password
PG_USER=warnwatch
PG_RUNAS=${PG_RUNAS:-nobody}

pg_have() {
	[ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/postgres" ] &&
		[ -x "$PG_BIN/psql" ] && command -v setpriv >/dev/null 2>&1 &&
		id "$PG_RUNAS" >/dev/null 2>&1
}

_pg_as() {
	local group
	group=$(id -gn "$PG_RUNAS")
	if [ "$(id -u)" -eq 0 ]; then
		(cd "$PG_DIR" && setpriv --reuid="$PG_RUNAS" --regid="$group" \
			--clear-groups -- "$@")
	else
		(cd "$PG_DIR" && "$@")
	fi
}

_pg_init() {
	mkdir -p "$PG_DIR/sock"
	chmod 711 "$TEST_DIR"
	printf 'pw-%s-%s\n' "$$" "$RANDOM$RANDOM" >"$PG_PWFILE"
	chmod 600 "$PG_PWFILE"
	# The server reads its own copy once, at initdb.
	cp "$PG_PWFILE" "$PG_DIR/pwfile"
	if [ "$(id -u)" -eq 0 ]; then
		chown -R "$PG_RUNAS" "$PG_DIR"
	fi
	chmod 700 "$PG_DIR/sock"
	_pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U "$PG_USER" -E UTF8 \
		--locale=C --no-sync --auth-local=trust --auth-host=scram-sha-256 \
		--pwfile="$PG_DIR/pwfile" >"$PG_DIR/initdb.log" 2>&1 || {
		diag "initdb failed:" "$(tail -n 5 "$PG_DIR/initdb.log")"
		return 1
	}
	rm -f "$PG_DIR/pwfile"
}

pg_start() {
	local i
	if [ ! -d "$PG_DIR/data" ]; then
		_pg_init || return 1
	fi
	[ -n "$PG_PORT" ] || PG_PORT=$(free_port)
	# fsync off: the tests kill servers, not machines.
	if [ "$(id -u)" -eq 0 ]; then
		(cd "$PG_DIR" && exec setpriv --reuid="$PG_RUNAS" \
			--regid="$(id -gn "$PG_RUNAS")" --clear-groups -- \
			"$PG_BIN/postgres" -D "$PG_DIR/data" -h 127.0.0.1 -p "$PG_PORT" \
			-k "$PG_DIR/sock" -c fsync=off -c max_connections=60) \
			>>"$PG_DIR/server.log" 2>&1 &
	else
		(cd "$PG_DIR" && exec "$PG_BIN/postgres" -D "$PG_DIR/data" \
			-h 127.0.0.1 -p "$PG_PORT" -k "$PG_DIR/sock" -c fsync=off \
			-c max_connections=60) >>"$PG_DIR/server.log" 2>&1 &
	fi
	PG_PID=$!
	for ((i = 0; i < 150; i++)); do
		if "$PG_BIN/pg_isready" -q -h "$PG_DIR/sock" -p "$PG_PORT" -U "$PG_USER" 2>/dev/null; then
			break
		fi
		kill -0 "$PG_PID" 2>/dev/null || break
		sleep 0.1
	done
	if ! "$PG_BIN/pg_isready" -q -h "$PG_DIR/sock" -p "$PG_PORT" -U "$PG_USER" 2>/dev/null; then
		diag "postgres did not start:" "$(tail -n 5 "$PG_DIR/server.log")"
		return 1
	fi
	if [ -z "$(pg_sql "SELECT 1 FROM pg_database WHERE datname = 'warnwatch'" postgres)" ]; then
		pg_sql "CREATE DATABASE warnwatch" postgres >/dev/null || return 1
	fi
	PG_URL=postgresql://$PG_USER@127.0.0.1:$PG_PORT/warnwatch
	return 0
}

pg_stop() {
	local pid=$PG_PID i
	[ -n "$pid" ] || return 0
	PG_PID=
	kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
	kill -INT "$pid" 2>/dev/null
	for ((i = 0; i < 150; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		[ "$i" -eq 100 ] && kill -QUIT "$pid" 2>/dev/null
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 0
}

pg_restart() {
	pg_stop && pg_start
}

pg_sql() {	# pg_sql SQL [DATABASE]
	"$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$PG_DIR/sock" \
		-p "$PG_PORT" -U "$PG_USER" -d "${2:-warnwatch}" -c "$1"
}

# Stop the server before lib.sh's cleanup removes its directory.
_pg_cleanup() {
	local rc=$?
	pg_stop
	(exit "$rc")
	ww_cleanup
}
trap _pg_cleanup EXIT
