import type { Resource, ResourceTemplateType, ServerContext } from '@modelcontextprotocol/server';
import type { AccessRules, ToolContext } from '@toolwright/core';
import { accessDenial, callerOf, canAccess } from '../auth/canAccess';
import { createListFilter } from '../auth/createListFilter';
import type { Catalog } from '../surface/Catalog';
import type { Connection } from './Connection';
import { createToolContext, type ContextEnv } from './createToolContext';
import { runWithRounds } from './runWithRounds';
import { outcomeError } from './outcomeError';
import { ErrorCodes, ProtocolError } from './ProtocolError';

/**
 * Serves `resources/list`, `resources/templates/list` (cached pages), `resources/read`
 * (a static URI first, then the first template that produces it; -32002 with the URI in
 * `data` otherwise) and `resources/subscribe`/`unsubscribe` for this connection.
 */
export function registerResourceHandlers(connection: Connection, catalog: Catalog, env: ContextEnv): void {
  const { server } = connection;
  const resourcesFor = createListFilter('resources', (r: Resource) => catalog.resource(r.uri)?.access);
  const templatesFor = createListFilter('resourceTemplates', (t: ResourceTemplateType) => catalog.template(t.uriTemplate)?.access);
  server.setRequestHandler('resources/list', (request, ctx) => resourcesFor(catalog.resourcesPage(request.params?.cursor), callerOf(ctx)));
  server.setRequestHandler('resources/templates/list', (request, ctx) => templatesFor(catalog.templatesPage(request.params?.cursor), callerOf(ctx)));

  server.setRequestHandler('resources/read', async (request, ctx) => {
    const { uri } = request.params;
    const serving = servingMember(catalog, uri);
    if (!serving) throw notFound(uri);
    const { member } = serving;
    refuseUnless(member.access, `Resource '${uri}'`, ctx);
    const read = async (toolCtx: ToolContext | undefined) => {
      const outcome = await serving.read(toolCtx);
      if (!outcome.ok) throw outcomeError(outcome, { uri });
      // `@Resource({ cache })` on a 2026-07-28 read; the app's default for reads fills what it leaves out.
      return member.cache && connection.era === 'modern' ? { ...outcome.value, ...member.cache } : outcome.value;
    };
    if (!member.usesContext) return read(undefined);
    return runWithRounds(connection, ctx, env.requestState, 'resources/read', uri, {}, (round) => {
      const open = createToolContext(member.name, ctx, connection, env, ctx.mcpReq.signal, round);
      return read(open.ctx).finally(open.close);
    });
  });

  server.setRequestHandler('resources/subscribe', (request, ctx) => {
    const { uri } = request.params;
    const resource = catalog.resource(uri) ?? catalog.matchTemplate(uri)?.template;
    if (!resource) throw notFound(uri);
    refuseUnless(resource.access, `Resource '${uri}'`, ctx);
    connection.subscriptions.add(uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    connection.subscriptions.delete(request.params.uri);
    return {};
  });
}

/** The resource or template that serves `uri`, and how to read it with a context. */
function servingMember(catalog: Catalog, uri: string) {
  const resource = catalog.resource(uri);
  if (resource) return { member: resource, read: (ctx: ToolContext | undefined) => resource.read(ctx) };
  const found = catalog.matchTemplate(uri);
  return found && { member: found.template, read: (ctx: ToolContext | undefined) => found.template.read(uri, found.variables, ctx) };
}

/** Refuses a caller the resource's `@RequireScopes` / `@RequireRoles` rules leave out. */
function refuseUnless(access: AccessRules | undefined, subject: string, ctx: ServerContext): void {
  const caller = callerOf(ctx);
  if (access && !canAccess(access, caller)) throw new ProtocolError(ErrorCodes.InvalidParams, accessDenial(subject, access, caller));
}

function notFound(uri: string): ProtocolError {
  return new ProtocolError(ErrorCodes.ResourceNotFound, `Resource not found: ${uri}. Call resources/list and resources/templates/list to see what this server offers.`, { uri });
}
