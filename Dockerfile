# syntax=docker/dockerfile:1
# Commonplace as one container: one Bun process serving HTTP and running jobs, one data volume.
#   docker build -t commonplace .
#   docker run -p 3000:3000 -v commonplace-data:/data commonplace

# Production dependencies only, resolved exactly from the lockfile.
FROM oven/bun:1 AS deps
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile --production

# The browser extensions, packed for Settings → Browser extension (/extension/*.zip).
FROM oven/bun:1 AS extension
WORKDIR /app
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY extension ./extension
COPY scripts/build-extension.ts ./scripts/build-extension.ts
COPY scripts/lib/png.ts ./scripts/lib/png.ts
COPY src/png.ts ./src/png.ts
RUN bun run scripts/build-extension.ts

FROM oven/bun:1 AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    HOST=0.0.0.0
COPY --from=deps /app/node_modules ./node_modules
COPY package.json bun.lock bunfig.toml tsconfig.json ./
COPY db ./db
COPY src ./src
COPY --from=extension /app/dist/extension ./dist/extension
# The image's unprivileged "bun" user owns the data directory and nothing else.
RUN mkdir -p /data && chown bun:bun /data
USER bun
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["bun", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
# Bun's own header limit is raised above MAX_HEADER_BYTES so that the app's 431 (problem+json) comes first.
CMD ["bun", "--max-http-header-size=65536", "run", "src/main.ts"]
