# Sourced by the load scripts: a throwaway PostgreSQL cluster in "$work"
# (which the caller removes) on port 18399. Sets pgbin and as_pg, which
# the caller's cleanup uses to stop it:
#   $as_pg "$pgbin/pg_ctl" -D "$work/pg" stop -m fast
pgbin=$(pg_config --bindir 2>/dev/null || ls -d /usr/lib/postgresql/*/bin | tail -1)
as_pg=""
if [ "$(id -u)" = 0 ]; then as_pg="runuser -u postgres --"; chown postgres "$work"; fi
$as_pg "$pgbin/initdb" -A trust -U postgres -D "$work/pg" >/dev/null
$as_pg "$pgbin/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w start \
  -o "-c listen_addresses=127.0.0.1 -p 18399 -k $work -c max_connections=200" >/dev/null
