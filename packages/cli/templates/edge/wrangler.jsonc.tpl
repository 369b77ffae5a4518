// The Worker, for `npx wrangler deploy` (after `npm run build`). The bundle is uploaded as is
// (no_bundle): scripts/bundle-worker.mjs made it from tsc's output (the app as ES modules), with the decorator metadata.
// scripts/serve-workerd.mjs reads the same settings to serve it locally.
{
  "name": "{{serverName}}",
  "main": "dist-worker/worker.mjs",
  "no_bundle": true,
  "compatibility_date": "2026-07-01",
  "compatibility_flags": ["nodejs_compat"]
}
