# pim-sync worker image: `docker build -t pim-sync .` (see README "Operating it").
# Build stage: every dependency, compile TypeScript.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would build before the sources are copied.
RUN npm install --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY bench ./bench
RUN npm run build

# Runtime stage: production dependencies and the compiled output only, run as a non-root user.
FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY config ./config
RUN ln -s /app/dist/src/cli/bin.js /usr/local/bin/pim-sync && chmod +x /app/dist/src/cli/bin.js
USER node
EXPOSE 8090
# /healthz answers while the process runs (the worker's `server` section must be configured).
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PIM_SYNC_HTTP_PORT || '8090') + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# exec form: the worker is PID 1's child under `init: true` (compose) and gets SIGTERM directly.
ENTRYPOINT ["pim-sync"]
CMD ["worker", "--config", "/app/config/compose.yaml"]
