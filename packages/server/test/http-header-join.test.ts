import { joinedHeader, joinedLines } from '@toolwright/core/internal';

/**
 * The one rule the node listener, its bearer check and the OAuth server's node adapter read a
 * field by (`@toolwright/core/internal`): node keeps the first line of a field that may not
 * repeat, and the lines are joined with ", " as a fetch runtime's `Headers` joins them, unless
 * something before Toolwright rewrote the value node kept. Each case here is one the e2e tests
 * of those readers send over real HTTP (content-type-repeated, authorization-repeated,
 * oauth repeated-headers and node-adapter-headers).
 */
describe('joinedHeader: a node request field as a fetch runtime reads it', () => {
  const request = (headers: Record<string, string | string[] | undefined>, rawHeaders?: string[]) => ({ headers, rawHeaders });

  it('one line is read as it is', () => {
    expect(joinedHeader(request({ 'content-type': 'application/json' }, ['Content-Type', 'application/json']), 'content-type')).toBe('application/json');
  });

  it('two lines of the field, the first one kept by node, are joined in the order sent (raw names in any case)', () => {
    const req = request({ authorization: 'Bearer a' }, ['Authorization', 'Bearer a', 'Host', 'x', 'AUTHORIZATION', 'Bearer b']);
    expect(joinedHeader(req, 'authorization')).toBe('Bearer a, Bearer b');
  });

  it('a value a host rewrote before the handler is the one read', () => {
    const req = request({ 'content-type': 'application/json' }, ['Content-Type', 'text/plain', 'Content-Type', 'text/html']);
    expect(joinedHeader(req, 'content-type')).toBe('application/json');
  });

  it('a value node joined its own way (Cookie, with "; ") is left as node joined it', () => {
    const req = request({ cookie: 'a=1; b=2' }, ['Cookie', 'a=1', 'Cookie', 'b=2']);
    expect(joinedHeader(req, 'cookie')).toBe('a=1; b=2');
  });

  it('a list node kept as an array is joined; a field the request lacks is undefined', () => {
    expect(joinedHeader(request({ 'x-list': ['a', 'b'] }), 'x-list')).toBe('a, b');
    expect(joinedHeader(request({}, ['Host', 'x']), 'content-type')).toBeUndefined();
  });

  it('a request a host built by hand, without raw lines, is read from its headers alone', () => {
    expect(joinedHeader(request({ authorization: 'Bearer a' }), 'authorization')).toBe('Bearer a');
  });

  it('joinedLines: the lines joined only when the value is still the first of them', () => {
    expect(joinedLines('a', ['a', 'b'])).toBe('a, b');
    expect(joinedLines('a', ['a'])).toBe('a');
    expect(joinedLines('a', undefined)).toBe('a');
    expect(joinedLines('c', ['a', 'b'])).toBe('c');
  });
});
