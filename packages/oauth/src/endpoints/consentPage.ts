import type { ConsentView } from '../OAuthServerOptions';
import { escapeHtml } from '../oauthResponses';

/** The default consent page: plain HTML, no script, labelled for screen readers, usable by keyboard alone. */
export function consentPage(view: ConsentView): string {
  const fields = Object.entries(view.fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const scopes =
    view.scopes.length > 0
      ? `<ul aria-label="Requested permissions">${view.scopes.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('')}</ul>`
      : '<p>No specific permissions (the default access).</p>';
  const name = escapeHtml(view.clientName);
  const site = view.clientUri ? ` (<a href="${escapeHtml(view.clientUri)}" rel="noopener noreferrer">${escapeHtml(view.clientUri)}</a>)` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Allow ${name}?</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}code{background:#f2f2f2;padding:0 .25rem}.actions{display:flex;gap:1rem;margin-top:2rem}button{font:inherit;padding:.5rem 1.25rem;border-radius:.25rem;border:1px solid #555;background:#fff;cursor:pointer}button[value=allow]{background:#1d4ed8;color:#fff;border-color:#1d4ed8}button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}.muted{color:#555;word-break:break-all}</style>
</head><body><main>
<h1>Allow <strong>${name}</strong> to use this server for you?</h1>
<p class="muted">Client: <code>${escapeHtml(view.clientId)}</code>${site}</p>
<h2>It asks for</h2>
${scopes}
<p class="muted">On <code>${escapeHtml(view.resource)}</code>. After you decide, you are sent back to <code>${escapeHtml(view.redirectUri)}</code>.</p>
<form method="post" action="${escapeHtml(view.action)}">${fields}
<div class="actions"><button type="submit" name="decision" value="allow" autofocus>Allow</button><button type="submit" name="decision" value="deny">Deny</button></div>
</form></main></body></html>`;
}
