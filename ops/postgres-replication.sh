#!/bin/sh
# Run by the postgres image once, when it creates the database: lets the compose network's
# replica connect for streaming replication with the same password as the app.
set -e
echo "host replication $POSTGRES_USER all scram-sha-256" >> "$PGDATA/pg_hba.conf"
