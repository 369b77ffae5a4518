import { pathOf } from '../src/fetch/pathOf';

// The fetch handler routes by pathOf(request.url) instead of parsing the URL again: for every URL a
// Request can carry, it must read the same path as `new URL(url).pathname`.
const URLS = [
  'http://127.0.0.1:8787/mcp',
  'http://127.0.0.1:8787/mcp?x=1',
  'http://127.0.0.1:8787/mcp#frag',
  'http://127.0.0.1:8787/mcp?x=/y#z?w',
  'http://127.0.0.1:8787/mcp#a?b',
  'https://example.com',
  'https://example.com?q',
  'https://example.com#f',
  'https://example.com/',
  'http://user:pa%2Fss@example.com:8080/mcp/',
  'http://user:p@ss@example.com/mcp',
  'http://[::1]:3000/mcp',
  'http://localhost/a/../mcp',
  'http://localhost/./mcp/.',
  'http://localhost/%2e%2e/mcp',
  'http://localhost/m%63p',
  'http://localhost/mcp%3F?x',
  'http://localhost/mcp%23#x',
  'http://localhost//mcp',
  'http://localhost/a b/ü/✓',
  'http://localhost\\mcp\\x',
  'HTTP://LOCALHOST/MCP',
  'http://localhost:80/mcp',
  'https://localhost:443/__proto__',
  'http://localhost/constructor?toString',
  'http://localhost/?',
  'http://localhost/#',
  'http://localhost/mcp;param',
  'http://xn--nxasmq6b.com/mcp',
];

describe('pathOf (the fetch handler reads the path of request.url)', () => {
  it.each(URLS)('reads the path of %s as new URL() does', (url) => {
    // A Request's URL is the serialized URL (one with credentials is refused by Request, not by URL).
    const href = new URL(url).href;
    expect(pathOf(href)).toBe(new URL(href).pathname);
    if (!href.includes('@')) expect(new Request(url).url).toBe(href);
  });

  it('parses a URL of any other scheme', () => {
    expect(pathOf('file:///tmp/mcp?x')).toBe('/tmp/mcp');
  });
});
