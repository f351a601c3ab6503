# Same steps as the README: `npm ci` (which builds dist/ through the prepare script), then
# `node dist/main.js`. Node 24 is the current LTS; the exact release is pinned so that a rebuild
# gives the same runtime, and .ci/run runs the tests on that same release.

# --- build: compile TypeScript and the SQLite driver, then drop what production does not run ----
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
# sqlite3 compiles its native binding when no prebuilt one fits.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# The sources come in before the install because npm ci runs the prepare script, which compiles
# them, bundles the app's entry (scripts/bundle-app.ts) and the sandbox page
# (scripts/build-page.ts); the install layer is therefore rebuilt when a source changes.
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts/build-page.ts ./scripts/
COPY scripts/bundle-app.ts ./scripts/
# The emulator, the simulated workspace, the sandbox that starts them and the workspace's page are
# for trying the app and for tests; with NODE_ENV=production the entry never loads them.
RUN npm ci --no-audit --no-fund \
  && rm -rf dist/emulator dist/workspace dist/sandbox dist/page \
  && npm prune --omit=dev

# --- runtime -------------------------------------------------------------------------------------
FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    STORE_URL=sqlite:///app/data/app.sqlite
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The SQLite file and the generated encryption key live here; mount a volume to keep them.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME /app/data
EXPOSE 3000
# No curl in the slim image: node itself asks /healthz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/main.js"]
