# syntax=docker/dockerfile:1
# One image for every role: `docker run IMAGE web|worker|all` (default all).

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY src ./src
USER node
EXPOSE 3000
ENTRYPOINT ["node", "--import", "tsx", "src/main.ts", "--role"]
CMD ["all"]
