# The app's package alone: `packages/app`, its production dependencies, and the bundle its build
# makes; the emulator, the simulated workspace, its page and the sandbox are other packages of the
# repository and never enter the image. Node 24 is the current LTS; the exact release is pinned so
# that a rebuild gives the same runtime, and .ci/run runs the tests on that same release.
#
# npm installs only the workspace it is given (--workspace, without the root's own tools). Scripts
# are run by hand: the root's prepare script builds every package, and only the app is here.

# --- deps: the app's production dependencies, with the SQLite driver compiled -------------------
FROM node:24.21.0-bookworm-slim AS deps
WORKDIR /app
# sqlite3 compiles its native binding when no prebuilt one fits.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY packages/app/package.json ./packages/app/
RUN npm ci --omit=dev --workspace @split/app --include-workspace-root=false --ignore-scripts \
    --no-audit --no-fund \
  && npm rebuild sqlite3

# --- build: the app's bundle (packages/app/dist) ------------------------------------------------
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY packages/app/package.json ./packages/app/
COPY scripts/build.ts ./scripts/
RUN npm ci --workspace @split/app --include-workspace-root=false --ignore-scripts \
    --no-audit --no-fund
COPY packages/app/src ./packages/app/src
RUN npx tsx scripts/build.ts app

# --- runtime -------------------------------------------------------------------------------------
FROM node:24.21.0-bookworm-slim
# glibc's allocator keeps what a thread freed in that thread's arena and, after a large free,
# serves later large buffers from its heaps rather than mmap. With these two settings the app at
# rest holds 8 to 9 MB less private memory, after a burst of commands too (bench/README.md,
# "Footprint"); the receipt reader's process sets them for itself (docs/receipts.md, "Memory").
ENV NODE_ENV=production \
    PORT=3000 \
    STORE_URL=sqlite:///app/data/app.sqlite \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/packages/app/package.json ./packages/app/
COPY --from=build /app/packages/app/dist ./packages/app/dist
# The SQLite file and the generated encryption key live here; mount a volume to keep them.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME /app/data
EXPOSE 3000
# No curl in the slim image: node itself asks /healthz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "packages/app/dist/main.js"]
