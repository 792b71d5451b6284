# Stand-in for the official nginx image where Docker Hub cannot be reached: Debian's nginx on the
# shared bookworm rootfs (see ../compose-shared.sh), run in the foreground as the official image does.
FROM credit-sandbox-standin:bookworm
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    nginx >/dev/null && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
  && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
