# pim-sync worker image: `docker build -t pim-sync .` (docs/docker.md). No configuration is baked
# in: the worker reads /etc/pim-sync/compose.yaml, mounted read-only by docker-compose.yml.
# No Docker engine runs in CI: scripts/check-image-tree.ts builds this final stage's file tree
# in a temporary folder and starts the worker from it as ENTRYPOINT + CMD would. It reads this
# file's final stage and refuses an instruction it does not know: change the two together.
# Build stage: every dependency, compile TypeScript.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci: exactly the lock file's versions (npm install may resolve newer ones).
# --ignore-scripts: `prepare` would build before the sources are copied.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY sim ./sim
COPY bench ./bench
# What the benchmark shares with the tests (its own redis-server): bench/ imports it, so tsc needs it.
COPY testkit ./testkit
COPY scripts ./scripts
# tsc, then the bundled CLI in dist/bin (scripts/bundle-cli.ts; docs/decisions/0012-bundled-cli.md).
RUN npm run build

# The simulators, for the compose `sim` profile only (`docker build --target simulators`): they
# are in the repository's sim/, never in the worker image below.
FROM build AS simulators
COPY config/sim-catalog.json ./config/sim-catalog.json
USER node
ENTRYPOINT ["node", "/app/dist/bin/pim-sync.js"]
CMD ["sim"]

# Runtime stage: production dependencies and the bundled CLI only (no simulators), run as a non-root user.
FROM node:24-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist/bin ./dist/bin
# For `docker compose exec worker pim-sync jobs list` and the like: every command finds the
# mounted configuration through PIM_SYNC_CONFIG, with no --config.
RUN ln -s /app/dist/bin/pim-sync.js /usr/local/bin/pim-sync && chmod +x /app/dist/bin/pim-sync.js
ENV PIM_SYNC_CONFIG=/etc/pim-sync/compose.yaml
USER node
# The port of `server.port` in the mounted config, inside the container. The healthcheck below
# uses it too, never the port compose publishes on the host (which may differ).
EXPOSE 8090
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8090/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node runs the program itself (exec form, no package manager or shell in between), so SIGTERM
# reaches it; compose's `init: true` reaps any child.
ENTRYPOINT ["node", "/app/dist/bin/pim-sync.js"]
CMD ["worker"]
