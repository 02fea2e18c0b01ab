# One image for the api and the worker (the command chooses), on the active Node.js LTS. Build: docker build -t dts .
FROM node:26-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

# The load balancer (deploy/nginx.conf) with its own copy of the console's build: it serves the
# content-hashed assets itself, in their prebuilt gzip form (gzip_static), and passes the rest on.
# (Before the runtime stage: a plain `docker build` builds the last one, the service.)
FROM nginx:1.27 AS edge
COPY --from=build /app/dist/console /usr/share/dts/console

FROM node:26-bookworm-slim AS runtime
# glibc returns freed memory to the system past 128 KiB instead of keeping it for later (about 80 MB
# less resident at rest, no CPU cost measured): docs/benchmarks.md, figure 15.
ENV NODE_ENV=production MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000 3001
CMD ["node", "dist/apps/api/src/main.js"]
