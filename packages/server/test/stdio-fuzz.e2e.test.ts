import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { ERAS } from './fixtures/eras';
import { frames, LEAKS, SECRET } from './fixtures/hostileFrames';
import { RawSession } from './fixtures/rawStdio';

/** Runs per era; each sends up to 25 frames, so a few thousand frames in all, in well under a minute. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

describe.each(ERAS)('stdio under arbitrary input ($name): one answer per request, clean stdout, bounded memory', (era) => {
  let session: RawSession;
  beforeAll(async () => {
    // The caller carries a token: no answer may show it.
    session = await RawSession.start({ era, env: { TOKEN: SECRET } });
    // A 2026-07-28 connection is pinned by its first request; the frames then come to a modern server.
    if (era.modern) {
      session.send(era.alive);
      await session.response('alive');
    }
  });
  afterAll(() => session.child.kill('SIGKILL'));

  it('holds for every generated sequence of frames', async () => {
    let next = 0;
    let batch = 0;
    await fc.assert(
      fc.asyncProperty(frames(25, era), async (make) => {
        const sent = make(next);
        next += sent.length;
        const from = session.lines.length;
        for (const frame of sent) session.send(frame.text);
        // A last request: once it is answered, everything sent before it has been read.
        const sentinel = `sentinel-${batch++}`;
        session.send(era.request({ jsonrpc: '2.0', id: sentinel, method: 'ping' }));
        await session.response(sentinel);
        // Calls still running (tools/call slow) answer a moment later.
        const tracked = sent.filter((f) => f.id !== undefined);
        for (const frame of tracked) await session.response(frame.id!);

        const lines = session.lines.slice(from);
        const answers = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((m) => 'result' in m || 'error' in m);
        for (const frame of tracked) expect([frame.id, answers.filter((a) => a.id === frame.id).length]).toEqual([frame.id, 1]);
        const ids = new Set<unknown>([...tracked.map((f) => f.id), sentinel, null]);
        for (const answer of answers) expect(ids.has(answer.id)).toBe(true);
        const nulls = answers.filter((a) => a.id === null).length;
        expect(nulls).toBeGreaterThanOrEqual(sent.filter((f) => f.answeredWithNull).length);
        expect(nulls).toBeLessThanOrEqual(sent.length - tracked.length);
        for (const line of lines) for (const leak of LEAKS) expect(line).not.toMatch(leak);
      }),
      // A request left unanswered shows as a run past its time limit; no shrinking, so that is reported at once.
      { numRuns: RUNS, timeout: 5_000, endOnFailure: true },
    );
    expect(session.child.exitCode).toBeNull();
    const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${session.child.pid}/status`, 'utf8'))![1]);
    expect(rssKiB).toBeLessThan(200 * 1024);
  }, 90_000);
});
