import { ConfigError } from '@toolwright/core';
import { parseListenArgs } from '@toolwright/server';

describe('issue 13: parseListenArgs on node:util parseArgs', () => {
  it('defaults to stdio', () => {
    expect(parseListenArgs([])).toEqual({ transport: 'stdio' });
    expect(parseListenArgs(['--stdio'])).toEqual({ transport: 'stdio' });
  });

  it('reads --port=3000 as well as --port 3000, and the other HTTP flags', () => {
    expect(parseListenArgs(['--http', '--port=4000'])).toEqual({ transport: 'http', port: 4000, stateless: false, jsonResponse: false });
    expect(parseListenArgs(['--http', '--port', '4001', '--host', '0.0.0.0', '--stateless', '--json'])).toEqual({
      transport: 'http',
      port: 4001,
      host: '0.0.0.0',
      stateless: true,
      jsonResponse: true,
    });
    expect(parseListenArgs(['--http', '--host=::1'])).toMatchObject({ host: '::1' });
  });

  it('refuses an unknown flag with a ConfigError that names it and lists the flags', () => {
    const error = catchError(() => parseListenArgs(['--http', '--prot', '3000']));
    expect(ConfigError.is(error)).toBe(true);
    expect((error as Error).message).toContain("'--prot'");
    expect((error as Error).message).toContain('--http [--port 3000]');
    expect(() => parseListenArgs(['extra'])).toThrow(/extra/);
  });

  it('refuses a port that is not a number, and a flag without its value', () => {
    expect(() => parseListenArgs(['--http', '--port=80a'])).toThrow("--port must be a port number (0-65535), got '80a'");
    expect(() => parseListenArgs(['--http', '--port=70000'])).toThrow(/got '70000'/);
    expect(() => parseListenArgs(['--http', '--port'])).toThrow(/--port/);
  });
});

describe('HTTP flags need --http', () => {
  it('refuses --port=3000 alone (it used to serve stdio silently) and says to add --http', () => {
    const error = catchError(() => parseListenArgs(['--port=3000']));
    expect(ConfigError.is(error)).toBe(true);
    expect((error as Error).message).toBe('Toolwright: --port is an HTTP flag: add --http to serve Streamable HTTP (e.g. --http --port=3000), or drop it to serve stdio.');
  });

  it('refuses every HTTP flag without --http, naming them all', () => {
    expect(() => parseListenArgs(['--port', '3000', '--stateless'])).toThrow('Toolwright: --port, --stateless are HTTP flags: add --http');
    expect(() => parseListenArgs(['--host=0.0.0.0'])).toThrow('--host is an HTTP flag');
    expect(() => parseListenArgs(['--stdio', '--json'])).toThrow('--json is an HTTP flag');
  });

  it('refuses --stdio with --http', () => {
    expect(() => parseListenArgs(['--stdio', '--http'])).toThrow('--stdio and --http exclude each other');
  });

  it('still ignores PORT from the environment for stdio', () => {
    const saved = process.env.PORT;
    process.env.PORT = '4567';
    try {
      expect(parseListenArgs([])).toEqual({ transport: 'stdio' });
      expect(parseListenArgs(['--http'])).toMatchObject({ transport: 'http', port: 4567 });
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
