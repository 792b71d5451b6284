# syntax=docker/dockerfile:1
# Build stage: install everything from the lockfile, compile TypeScript, keep only runtime deps
# (less source maps and type declarations, which nothing reads at run time: about 17 MB).
# --ignore-scripts: no dependency needs an install script to compile or run (package.json's
# allowScripts says why for each). The build copies the Swagger UI files from a dev dependency.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json ./
COPY scripts/copy-build-assets.mjs ./scripts/
COPY src ./src
RUN npm run build && npm prune --omit=dev --ignore-scripts \
  && find dist \( -name '*.map' -o -name '*.d.ts' -o -name .tsbuildinfo \) -delete \
  && find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.cts' -o -name '*.d.mts' \) -delete \
  && find node_modules -depth -type d -empty -delete

# Runtime stage: compiled output, production dependencies, fixtures and scenarios; non-root.
FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY fixtures ./fixtures
COPY scenarios ./scenarios
# The guides, served at /guides/*.md and linked from /docs.
COPY docs ./docs
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "dist/cli/healthcheck.js"]
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["serve"]
