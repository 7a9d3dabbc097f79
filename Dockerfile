# syntax=docker/dockerfile:1
# One image for every role: `docker run IMAGE web|worker|all` (default all); compose.yaml runs
# the web and worker roles from it. Web containers: NODE_OPTIONS=--max-old-space-size=96 (docs/operations.md).
# test/docker.test.ts runs these steps on the host (npm ci, build, start, the HEALTHCHECK command).

# Node 24 is the current LTS line.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
# Compiled JavaScript: no TypeScript loader at run time, and a much smaller resident set. The
# build (scripts/build.mjs) copies the Redis scripts (src/**/lua/*.lua) beside it: dist/ is all
# the runtime needs.
RUN npm run build

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; no install scripts (msgpackr falls back to JavaScript).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
# OCI image labels; pass --build-arg VERSION=… REVISION=$(git rev-parse HEAD) when building a release.
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="collab-slack" \
      org.opencontainers.image.description="A Slack app that bridges Slack to the Team Collaboration Service (API v2)." \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.base.name="docker.io/library/node:24-bookworm-slim"
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json ./
COPY --from=build --chown=node:node /app/dist ./dist
# The image's unprivileged user (uid 1000).
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM stops gracefully: no new requests, active jobs finish (see docs/operations.md).
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/main.js", "--role"]
CMD ["all"]
