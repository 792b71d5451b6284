# Stand-in for the official postgres image where Docker Hub cannot be reached: Debian's PostgreSQL
# on the shared bookworm rootfs (see ../compose-shared.sh), with the official image's contract:
# POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB, data in /var/lib/postgresql/data, port 5432,
# password logins from the network, pg_isready on the PATH.
FROM credit-sandbox-standin:bookworm
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    postgresql-15 >/dev/null && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
  && mkdir -p /var/lib/postgresql/data /var/run/postgresql && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CMD ["postgres"]
