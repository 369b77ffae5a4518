// The one tools/call the edge benches that serve over HTTP send (run.mjs, profile-workerd.mjs).
import http from 'node:http';
import requests from './requests.js';

/**
 * POSTs the era's tools/call (requests.js) to `url` through `agent`. Resolves with the tool's
 * text, read from a JSON or an event-stream answer; rejects with the HTTP status and the start
 * of the body on anything but a result with status 200. A socket error rejects as node raised
 * it, with its `code` (ECONNREFUSED, ECONNRESET), for a caller that retries on it.
 */
export function postCall(url, era, agent) {
  const { body, headers } = requests.ERAS[era];
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (data += chunk));
        res.on('end', () => {
          const line = data.split('\n').find((l) => l.startsWith('data:') && l.length > 6);
          let message;
          try {
            message = JSON.parse(line ? line.slice(5) : data);
          } catch {
            return reject(new Error(`HTTP ${res.statusCode}: ${data.slice(0, 200)}`));
          }
          if (res.statusCode !== 200 || !message.result) return reject(new Error(`HTTP ${res.statusCode}: ${data.slice(0, 200)}`));
          resolve(message.result.content[0].text);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
