// @ts-check
/**
 * Renders pages of the built site (docs/.vitepress/dist) in headless Chromium, Debian's
 * `chromium` package driven by playwright-core (no downloaded browser), served by a tiny
 * static server on 127.0.0.1. For each page it checks: the document title, a visible
 * heading, rendered code blocks, the sidebar, and that the browser logged no console
 * error, threw no page error and failed no request.
 *
 *   node docs/scripts/check-render.mjs [distDir]
 *
 * CHROMIUM_PATH overrides /usr/bin/chromium.
 */
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(process.argv[2] ?? join(here, '..', '.vitepress', 'dist'));
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The pages to render and what each must show. */
const PAGES = [
  { path: '/', title: /^Toolwright/, heading: '.VPHero .name', minCodeBlocks: 1, sidebar: false },
  { path: '/guide/tools.html', title: /^Tools and parameters \| Toolwright$/, heading: '.vp-doc h1', minCodeBlocks: 3, sidebar: true },
];

if (!existsSync(join(dist, 'index.html'))) fail(`no built site at ${dist}. Run \`npm run docs:build\` first.`);
if (!existsSync(executablePath)) {
  fail(`no Chromium at ${executablePath}. Install Debian's package (\`apt-get install -y chromium\`; .ci/run does this) or set CHROMIUM_PATH.`);
}

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

const server = createServer((req, res) => {
  const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  let file = join(dist, pathname.split('/').join(sep));
  if (!file.startsWith(dist)) file = join(dist, '404.html');
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
  else if (!existsSync(file) && existsSync(`${file}.html`)) file = `${file}.html`;
  if (!existsSync(file)) {
    res.writeHead(404, { 'content-type': 'text/html' });
    createReadStream(join(dist, '404.html')).pipe(res);
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[/** @type {keyof typeof TYPES} */ (extname(file))] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});
await new Promise((done) => server.listen(0, '127.0.0.1', () => done(undefined)));
const address = server.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const userDataDir = mkdtempSync(join(tmpdir(), 'toolwright-docs-chromium-'));
/** @type {string[]} */
const problems = [];
const started = Date.now();
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  for (const spec of PAGES) {
    const page = await context.newPage();
    /** @type {string[]} */
    const errors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => errors.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
    page.on('response', (response) => {
      if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
    });

    const response = await page.goto(origin + spec.path, { waitUntil: 'networkidle' });
    const at = spec.path;
    if (response?.status() !== 200) problems.push(`${at}: HTTP ${response?.status()}`);
    const title = await page.title();
    if (!spec.title.test(title)) problems.push(`${at}: title is '${title}', expected ${spec.title}`);
    const heading = page.locator(spec.heading).first();
    if (!(await heading.isVisible())) problems.push(`${at}: no visible heading (${spec.heading})`);
    // VitePress renders fenced code as <div class="language-ts"><pre class="shiki"><code>…
    const blocks = page.locator('div[class*="language-"] pre.shiki code');
    const count = await blocks.count();
    if (count < spec.minCodeBlocks) problems.push(`${at}: ${count} rendered code block(s), expected at least ${spec.minCodeBlocks}`);
    else {
      const highlighted = await blocks.first().locator('span[style*="--shiki"]').count();
      if (highlighted === 0) problems.push(`${at}: code blocks are not syntax highlighted`);
      if (!(await blocks.first().isVisible())) problems.push(`${at}: the first code block is not visible`);
    }
    if (spec.sidebar && !(await page.locator('.VPSidebar a[href*="/guide/"]').first().isVisible())) problems.push(`${at}: no visible sidebar`);
    // Hydration: the client-side app must take over (the search button works only then).
    await page
      .waitForFunction(() => Boolean(/** @type {any} */ (document.querySelector('#app'))?.__vue_app__), undefined, { timeout: 10_000 })
      .catch(() => {
        problems.push(`${at}: the page did not hydrate`);
      });
    problems.push(...errors.map((e) => `${at}: ${e}`));
    console.log(`check-render: ${at} '${title}', ${count} code blocks${errors.length ? `, ${errors.length} error(s)` : ''}`);
    await page.close();
  }
} finally {
  await context.close();
  server.close();
  rmSync(userDataDir, { recursive: true, force: true });
}

if (problems.length > 0) fail(`${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
console.log(`check-render: ${PAGES.length} pages render in Chromium with no console errors (${Date.now() - started} ms).`);

/** @param {string} message @returns {never} */
function fail(message) {
  console.error(`check-render: ${message}`);
  process.exit(1);
}
