#!/usr/bin/env node
// Runs the official conformance suite's authorization server scenarios
// (`authorization-server-metadata-endpoint`, `authorization-code-grant`) against
// @toolwright/oauth, served by the node listener on a port of 127.0.0.1 of its own choosing.
//
// The suite is the one `npm run test:conformance` installs into examples/conformance/suite (run
// that first). The code grant needs a browser: the suite prints the authorization URL and waits
// for its own callback server, so this script plays the browser, as a person signed in to the
// app would: it opens the URL and follows the redirect to the suite's callback. The app's
// `signIn` hook knows the user at once and the consent page is off, so /authorize answers with
// the redirect. The client registers first by dynamic client registration, as the suite asks
// for a client id registered with the callback URI. That URI's port is picked here, before the
// suite listens on it: when another process took it meanwhile (the suite's check says EADDRINUSE),
// the run is done again with another port, and the browser only follows a redirect to the
// callback once the suite's callback server is done with its listen.
//
// `node run-authorization.js [-- suite options]`; exits 0 only when every check passes.
'use strict';
const { spawn } = require('node:child_process');
const { createServer } = require('node:http');
const { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { createServer: createNetServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createOAuthServer } = require('@toolwright/oauth');

const suiteModules = join(__dirname, '..', 'suite', 'node_modules');
const suiteNode = join(suiteModules, 'node', 'bin', 'node');
const suiteEntry = join(suiteModules, 'conformance-next', 'dist', 'index.js');
const SUITE_TIMEOUT_MS = 120_000;
/** Runs done when the callback port was taken before the suite could listen on it. */
const CALLBACK_PORT_TRIES = 3;

async function main() {
  if (!existsSync(suiteNode) || !existsSync(suiteEntry)) throw new Error(`the suite is not installed in ${suiteModules}: run \`npm run test:conformance\` first`);
  // The server listens first, on port 0; the authorization server, whose issuer names the port, answers once built.
  let handler = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const resource = `${issuer}/mcp`;
  try {
    const oauth = await createOAuthServer({
      issuer,
      resource,
      scopes: ['notes:read'],
      secret: 'conformance-run-secret-of-at-least-32-characters',
      consent: false,
      signIn: async () => ({ subject: 'conformance-user', scopes: ['notes:read'] }),
    });
    handler = oauth.node((_req, res) => res.writeHead(404).end());
    const extraArgs = process.argv.includes('--') ? process.argv.slice(process.argv.indexOf('--') + 1) : [];
    for (let run = 1; ; run++) {
      const callbackPort = await freePort();
      const { code, passed, checks, failing, callbackPortTaken } = await runOnce(issuer, resource, callbackPort, extraArgs);
      if (callbackPortTaken && run < CALLBACK_PORT_TRIES) {
        console.log(`\nconformance authorization: port ${callbackPort}, picked for the suite's callback, was taken before the suite listened on it; again with another`);
        continue;
      }
      const line = `authorization: ${passed}/${checks} checks passed${failing.length > 0 ? `; failing: ${failing.join(', ')}` : ''}`;
      console.log(`\nconformance ${line}`);
      process.exitCode = code === 0 && checks > 0 && failing.length === 0 ? 0 : 1;
      return;
    }
  } finally {
    server.close();
  }
}

/** One run of the suite with its callback on `callbackPort`, for a client registered with that callback. */
async function runOnce(issuer, resource, callbackPort, extraArgs) {
  const out = mkdtempSync(join(tmpdir(), 'toolwright-authorization-'));
  try {
    const clientId = await register(issuer, `http://127.0.0.1:${callbackPort}/callback`);
    const args = [suiteEntry, 'authorization', '--url', issuer, '--client-id', clientId, '--resource', resource, '--port', String(callbackPort), '-o', out, ...extraArgs];
    const code = await runSuite(args);
    return { code, ...judge(out) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Registers a public client with the suite's callback URI (RFC 7591) and returns its id. */
async function register(issuer, redirectUri) {
  const response = await fetch(`${issuer}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'conformance suite',
      application_type: 'native',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
  });
  if (response.status !== 201) throw new Error(`registration answered ${response.status}: ${await response.text()}`);
  return (await response.json()).client_id;
}

/**
 * Runs the suite; opens each authorization URL it prints and, once the suite's callback server is
 * done with its listen (it prints `Callback server started`), follows the redirect to its callback.
 */
function runSuite(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(suiteNode, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const timer = setTimeout(() => child.kill(), SUITE_TIMEOUT_MS);
    let callbackStarted;
    const callbackListening = new Promise((resolve) => (callbackStarted = resolve));
    let pending = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      process.stdout.write(chunk);
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        if (/^Callback server started: /.test(line.trim())) callbackStarted(true);
        if (/^https?:\/\/\S+\/authorize\?/.test(line.trim()))
          actAsBrowser(line.trim(), callbackListening).catch((error) => console.error(`conformance authorization: the browser step failed: ${error.message}`));
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      callbackStarted(false);
      resolve(code);
    });
  });
}

async function actAsBrowser(url, callbackListening) {
  // The suite starts its callback server as it prints the URL: the redirect is followed once its listen is done. Express
  // prints that line when the listen failed too: the redirect then reaches whatever holds the port (the time limit keeps
  // one that never answers from holding this process), and the suite's check fails with EADDRINUSE (main runs again).
  if (!(await callbackListening)) throw new Error('the suite ended before its callback server started');
  const authorize = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  const location = authorize.headers.get('location');
  if (authorize.status !== 302 || !location) throw new Error(`/authorize answered ${authorize.status} without a redirect`);
  await (await fetch(location, { signal: AbortSignal.timeout(10_000) })).text();
}

/**
 * Counts the checks the suite wrote (SUCCESS and FAILURE; WARNINGs never fail), and tells whether one
 * failed because the callback port was taken.
 */
function judge(out) {
  let checks = 0;
  let passed = 0;
  let callbackPortTaken = false;
  const failing = new Set();
  for (const dir of readdirSync(out)) {
    const file = join(out, dir, 'checks.json');
    const results = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [{ id: dir, status: 'FAILURE' }];
    for (const check of results) {
      if (check.status !== 'SUCCESS' && check.status !== 'FAILURE') continue;
      checks++;
      if (check.status === 'SUCCESS') passed++;
      else {
        failing.add(check.id ?? dir);
        if (/EADDRINUSE/.test(check.errorMessage ?? '')) callbackPortTaken = true;
      }
    }
  }
  return { passed, checks, failing: [...failing], callbackPortTaken };
}

/** A port free when asked, for the suite's callback server (its URI is registered before the suite starts). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

main().catch((error) => {
  console.error(`conformance authorization: ${error.message}`);
  process.exitCode = 1;
});
