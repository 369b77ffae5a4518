// @ts-check
/**
 * Checks every internal link of the built site (docs/.vitepress/dist): each `href`/`src`
 * that points inside the site must name an existing file, and each `#anchor` an element
 * id on the target page. External links are not fetched (CI has no network for them).
 * Exits 1 listing every broken link; tolerates none.
 *
 *   node docs/scripts/check-links.mjs [distDir]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = resolve(process.argv[2] ?? join(here, '..', '.vitepress', 'dist'));
if (!existsSync(join(dist, 'index.html'))) {
  console.error(`check-links: no built site at ${dist}. Run \`npm run docs:build\` first.`);
  process.exit(1);
}

/** @param {string} dir @returns {string[]} */
function htmlFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return htmlFiles(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

/** @param {string} s */
const decodeEntities = (s) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** @type {Map<string, Set<string>>} ids per html file, read once */
const idCache = new Map();
/** @param {string} file */
function idsOf(file) {
  let ids = idCache.get(file);
  if (!ids) {
    ids = new Set([...readFileSync(file, 'utf8').matchAll(/\sid="([^"]*)"/g)].map((m) => decodeEntities(m[1])));
    idCache.set(file, ids);
  }
  return ids;
}

/** The file a site path is served from, as a static host with VitePress's default URLs does. */
function fileFor(/** @type {string} */ pathname) {
  const path = join(dist, decodeURIComponent(pathname).split('/').join(sep));
  if (pathname.endsWith('/')) return join(path, 'index.html');
  if (existsSync(path) && statSync(path).isFile()) return path;
  if (existsSync(`${path}.html`)) return `${path}.html`;
  return undefined;
}

const files = htmlFiles(dist);
/** @type {string[]} */
const broken = [];
let checked = 0;
for (const file of files) {
  const html = readFileSync(file, 'utf8');
  const pageUrl = new URL(`http://site/${relative(dist, file).split(sep).join('/')}`);
  for (const match of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    const raw = decodeEntities(match[1]);
    if (raw === '' || /^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('//')) continue; // external, mailto:, data:, javascript:
    checked++;
    const url = new URL(raw, pageUrl);
    const where = `${relative(dist, file)}: ${raw}`;
    const target = fileFor(url.pathname);
    if (!target) {
      broken.push(`${where}  (no such page or file)`);
      continue;
    }
    if (url.hash && target.endsWith('.html')) {
      const id = decodeURIComponent(url.hash.slice(1));
      if (!idsOf(target).has(id)) broken.push(`${where}  (no element with id '${id}' in ${relative(dist, target)})`);
    }
  }
}

if (broken.length > 0) {
  // One line per broken target, naming a few of the pages that link to it (the sidebar repeats a link on every page).
  /** @type {Map<string, string[]>} */
  const byProblem = new Map();
  for (const b of broken) {
    const [page, problem] = b.split(/: (.*)/s);
    byProblem.set(problem, [...(byProblem.get(problem) ?? []), page]);
  }
  const lines = [...byProblem].map(([problem, all]) => {
    const pages = [...new Set(all)];
    return `${problem}\n      linked from ${pages.slice(0, 3).join(', ')}${pages.length > 3 ? ` and ${pages.length - 3} more` : ''}`;
  });
  console.error(`check-links: ${byProblem.size} broken internal link(s) in ${files.length} pages:\n  ${lines.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-links: ${checked} internal links and anchors in ${files.length} pages resolve.`);
