import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { MCP_APP_MIME_TYPE, UI_EXTENSION } from '@toolwright/core';
import { createTestClient } from '@toolwright/server/testing';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { createMcpApp } from '../../../examples/app/src/app';

/**
 * An MCP App view in a browser, as a host runs it: headless Chromium (Debian's, driven by
 * playwright-core) opens a host page that puts the UI resource of examples/app (read through a
 * real MCP client from the Toolwright server over HTTP) into a sandboxed iframe (scripts only,
 * an opaque origin, under the host's strict Content Security Policy: no network). The host page
 * bridges the view's JSON-RPC over postMessage (MCP Apps, SEP-1865): it answers `ui/initialize`,
 * sends the model's tool result (`ui/notifications/tool-result`) after
 * `ui/notifications/initialized`, and passes the view's `tools/call` to the server through the
 * same MCP client, as hosts do. The test clicks the view's buttons and reads what it shows.
 */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HOST_ORIGIN = 'http://host.test';
const VIEW = 'ui://counter/view';
jest.setTimeout(60_000);

/** The host page: the bridge between the sandboxed view and `window.hostCallTool` (the test's MCP client). */
const HOST_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>host</title></head>
<body>
<iframe id="view" sandbox="allow-scripts" title="view" style="width:400px;height:240px"></iframe>
<script>
  const frame = document.getElementById('view');
  window.bridgeLog = [];
  window.startView = (html, toolResult, appTools) => {
    const reply = (message) => frame.contentWindow.postMessage({ jsonrpc: '2.0', ...message }, '*');
    window.addEventListener('message', async (event) => {
      if (event.source !== frame.contentWindow) return;
      const message = event.data;
      window.bridgeLog.push(message.method ?? 'response');
      if (message.method === 'ui/initialize') {
        reply({ id: message.id, result: { protocolVersion: message.params.protocolVersion, hostInfo: { name: 'test-host', version: '1.0.0' }, hostCapabilities: { serverTools: {} }, hostContext: { theme: 'light' } } });
      } else if (message.method === 'ui/notifications/initialized') {
        reply({ method: 'ui/notifications/tool-result', params: toolResult });
      } else if (message.method === 'tools/call') {
        // A host passes on only the tools linked to this view.
        if (!appTools.includes(message.params?.name)) return reply({ id: message.id, error: { code: -32602, message: 'Unknown tool: ' + message.params?.name } });
        try {
          reply({ id: message.id, result: await window.hostCallTool(message.params) });
        } catch (error) {
          reply({ id: message.id, error: { code: -32603, message: String(error.message ?? error) } });
        }
      } else if (message.id !== undefined) {
        reply({ id: message.id, error: { code: -32601, message: 'Method not found' } });
      }
    });
    frame.srcdoc = html;
  };
</script>
</body></html>`;

describe('an MCP App view in headless Chromium, in a host-like sandboxed iframe', () => {
  let browser: Browser;
  let client: Awaited<ReturnType<typeof createTestClient>>;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    if (!existsSync(executablePath)) throw new Error(`No Chromium at ${executablePath}: install Debian's package (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.`);
    const app = await createMcpApp();
    client = await createTestClient(app, { transport: 'http', capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } } } as never);
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    // The host's page, with the strict policy a host gives a view that declares no domains; the srcdoc iframe inherits it.
    await page.route(`${HOST_ORIGIN}/`, (route) =>
      route.fulfill({ contentType: 'text/html', body: HOST_PAGE, headers: { 'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'" } }),
    );
    await page.exposeFunction('hostCallTool', (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool(params));
    await page.goto(`${HOST_ORIGIN}/`);
  });

  afterAll(async () => {
    await browser?.close();
    await client?.close();
  });

  /** Waits until the view shows `count`. */
  // A function, not a string: the view's CSP has no 'unsafe-eval', so a string predicate cannot run in its frame.
  type ViewGlobals = { document: { getElementById(id: string): { textContent: string | null } | null } };
  const shows = (view: Frame, count: string) => view.waitForFunction((c) => (globalThis as unknown as ViewGlobals).document.getElementById('count')?.textContent === c, count);

  /** The view's frame, once the host has put it in the iframe. */
  async function viewFrame(): Promise<Frame> {
    const handle = await page.waitForSelector('iframe#view');
    for (;;) {
      const frame = await handle.contentFrame();
      if (frame && (await frame.$('#count'))) return frame;
      await page.waitForTimeout(50);
    }
  }

  it('starts the view with the host, shows the model tool result, and calls the app-only tool through the bridge', async () => {
    const { tools } = await client.listTools();
    const linked = tools.filter((t) => (t._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri === VIEW).map((t) => t.name);
    expect(linked).toEqual(['show_counter', 'add_to_counter', 'reset_counter']);
    const [content] = (await client.readResource({ uri: VIEW })).contents as { text: string; mimeType: string }[];
    expect(content.mimeType).toBe(MCP_APP_MIME_TYPE);
    // The model called show_counter; the host renders its result in the view.
    const shown = await client.callTool({ name: 'show_counter', arguments: {} });
    await page.evaluate(([html, result, appTools]) => (globalThis as unknown as { startView: (...a: unknown[]) => void }).startView(html, result, appTools), [content.text, shown, linked] as const);

    const view = await viewFrame();
    await shows(view, '0');
    await view.click('#plus');
    await shows(view, '1');
    await view.click('#plus');
    await shows(view, '2');
    await view.click('#minus');
    await shows(view, '1');
    // What the view shows is what the server counted.
    expect((await client.callTool({ name: 'show_counter', arguments: {} })).structuredContent).toEqual({ count: 1, text: 'The counter is at 1.' });
    await view.click('#reset');
    await shows(view, '0');
    expect(await view.textContent('#status')).toBe('');

    const log = (await page.evaluate('window.bridgeLog')) as string[];
    expect(log.slice(0, 2)).toEqual(['ui/initialize', 'ui/notifications/initialized']);
    expect(log.filter((m) => m === 'tools/call')).toHaveLength(4);
    // The view ran sandboxed: an opaque origin, no access to the host's document.
    const sandbox = "[window.origin, (() => { try { return window.parent.document.title; } catch { return 'blocked'; } })()]";
    expect(await view.evaluate(sandbox)).toEqual(['null', 'blocked']);
    expect(problems).toEqual([]);
  });
});
