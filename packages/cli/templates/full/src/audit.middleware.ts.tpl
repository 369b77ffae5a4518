import type { MemberCall, Next } from '@toolwright/core';
import { Service } from 'typedi';

/** What was called and how long it took: one app-wide trail (a log or a metrics backend in a real server). */
@Service()
export class AuditTrail {
  readonly entries: string[] = [];
}

/** Middleware around every tool call, resource read and prompt: the container builds it and injects the trail. */
@Service()
export class AuditMiddleware {
  constructor(private readonly trail: AuditTrail) {}

  async use(call: MemberCall, next: Next): Promise<unknown> {
    const started = performance.now();
    try {
      return await next();
    } finally {
      this.trail.entries.push(`${call.kind} ${call.name} (${Math.round(performance.now() - started)} ms)`);
    }
  }
}
