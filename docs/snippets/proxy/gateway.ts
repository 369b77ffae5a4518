// #region gateway
import 'reflect-metadata';
import type { MemberCall, Next } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { proxyServer } from '@toolwright/server/proxy';

/** Runs around every call, the proxied ones included. */
export const audit = (log: string[]) => async (call: MemberCall, next: Next) => {
  log.push(`${call.authInfo?.clientId ?? 'anonymous'} called ${call.name}`);
  return next();
};

export async function createGateway(docsUrl: string, log: string[] = []): Promise<App> {
  // Connects now, lists the upstream, and follows its list changes from then on.
  const docs = await proxyServer({ url: docsUrl, name: 'docs', bearer: process.env.DOCS_API_KEY ?? 'dev-key' });
  return createApp({
    name: 'gateway',
    version: '1.0.0',
    tools: [],
    middleware: [audit(log)],
    mount: [{ app: docs, namespace: 'docs' }],
  });
}
// #endregion gateway
