<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Counter</title>
    <style>
      :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
      body { margin: 0; padding: 16px; }
      #count { font-size: 2.5rem; font-weight: 600; margin: 0 0 12px; }
      button { font: inherit; padding: 6px 14px; margin-right: 6px; border-radius: 6px; cursor: pointer; }
      button:disabled { cursor: progress; opacity: 0.6; }
      #status { min-height: 1.2em; color: #b3261e; margin: 12px 0 0; }
    </style>
  </head>
  <body>
    <p id="count" aria-live="polite">…</p>
    <button id="minus" type="button" aria-label="Subtract one">−1</button>
    <button id="plus" type="button" aria-label="Add one">+1</button>
    <button id="reset" type="button">Reset</button>
    <p id="status" role="status"></p>
    <script>
      // The view speaks JSON-RPC 2.0 with its host over postMessage (MCP Apps, SEP-1865): it asks
      // `ui/initialize`, says `ui/notifications/initialized`, receives the result of the tool the
      // model called (`ui/notifications/tool-result`), and calls tools itself (`tools/call`), which
      // the host passes on to this server. No library: the whole protocol it needs is below.
      (() => {
        const host = window.parent;
        const pending = new Map();
        let nextId = 1;
        const $ = (id) => document.getElementById(id);
        const buttons = [$('minus'), $('plus'), $('reset')];

        const send = (message) => host.postMessage({ jsonrpc: '2.0', ...message }, '*');
        const request = (method, params) =>
          new Promise((resolve, reject) => {
            const id = nextId++;
            pending.set(id, { resolve, reject });
            send({ id, method, params });
          });

        /** Shows a tools/call result: the count from its structured content, or the error's text. */
        const show = (result) => {
          const text = (result.content ?? []).find((c) => c.type === 'text')?.text ?? '';
          if (result.isError) {
            $('status').textContent = text || 'The call failed.';
            return;
          }
          $('status').textContent = '';
          if (typeof result.structuredContent?.count === 'number') $('count').textContent = String(result.structuredContent.count);
        };

        window.addEventListener('message', (event) => {
          // Only the host that embeds this view may talk to it.
          if (event.source !== host) return;
          const message = event.data;
          if (typeof message !== 'object' || message === null || message.jsonrpc !== '2.0') return;
          if (message.method === undefined) {
            const waiting = pending.get(message.id);
            if (!waiting) return;
            pending.delete(message.id);
            if (message.error) waiting.reject(new Error(message.error.message));
            else waiting.resolve(message.result);
            return;
          }
          if (message.method === 'ui/notifications/tool-result') show(message.params ?? {});
          else if (message.id !== undefined) {
            // ui/resource-teardown and anything else the host asks: nothing to clean up here.
            send({ id: message.id, result: {} });
          }
        });

        const call = async (name, args) => {
          for (const button of buttons) button.disabled = true;
          try {
            show(await request('tools/call', { name, arguments: args }));
          } catch (error) {
            $('status').textContent = error.message;
          } finally {
            for (const button of buttons) button.disabled = false;
          }
        };
        $('minus').addEventListener('click', () => call('add_to_counter', { by: -1 }));
        $('plus').addEventListener('click', () => call('add_to_counter', { by: 1 }));
        $('reset').addEventListener('click', () => call('reset_counter', {}));

        request('ui/initialize', { appInfo: { name: '{{serverName}}-view', version: '0.1.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' })
          .then((init) => {
            if (init?.hostContext?.theme) document.documentElement.style.colorScheme = init.hostContext.theme;
            send({ method: 'ui/notifications/initialized' });
          })
          .catch((error) => {
            $('status').textContent = `The host did not start the view: ${error.message}`;
          });
      })();
    </script>
  </body>
</html>
