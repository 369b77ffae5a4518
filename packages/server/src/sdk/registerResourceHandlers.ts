import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { AccessRules, ResourceDescriptor, ResourceTemplateDescriptor } from '@toolwright/core';
import { accessDenial, callerOf, canAccess } from '../auth/canAccess';
import { createListFilter } from '../auth/createListFilter';
import type { Catalog } from '../surface/Catalog';
import type { Connection } from './Connection';
import { createToolContext, type ContextEnv, type HandlerExtra } from './createToolContext';
import { outcomeError } from './outcomeError';
import { ErrorCodes, ProtocolError } from './ProtocolError';

/**
 * Serves `resources/list`, `resources/templates/list` (cached pages), `resources/read`
 * (a static URI first, then the first template that produces it; -32002 with the URI in
 * `data` otherwise) and `resources/subscribe`/`unsubscribe` for this connection.
 */
export function registerResourceHandlers(connection: Connection, catalog: Catalog, env: ContextEnv): void {
  const { server } = connection;
  const resourcesFor = createListFilter('resources', (r: ResourceDescriptor) => catalog.resource(r.uri)?.access);
  const templatesFor = createListFilter('resourceTemplates', (t: ResourceTemplateDescriptor) => catalog.template(t.uriTemplate)?.access);
  server.setRequestHandler(ListResourcesRequestSchema, (request, extra) => resourcesFor(catalog.resourcesPage(request.params?.cursor), callerOf(extra)) as never);
  server.setRequestHandler(ListResourceTemplatesRequestSchema, (request, extra) => templatesFor(catalog.templatesPage(request.params?.cursor), callerOf(extra)) as never);

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    const context = (name: string, uses: boolean) => (uses ? createToolContext(name, extra as HandlerExtra, connection, env) : undefined);
    const resource = catalog.resource(uri);
    let outcome;
    if (resource) {
      refuseUnless(resource.access, `Resource '${uri}'`, extra);
      const open = context(resource.name, resource.usesContext);
      outcome = await resource.read(open?.ctx).finally(() => open?.close());
    } else {
      const found = catalog.matchTemplate(uri);
      if (!found) throw notFound(uri);
      refuseUnless(found.template.access, `Resource '${uri}'`, extra);
      const open = context(found.template.name, found.template.usesContext);
      outcome = await found.template.read(uri, found.variables, open?.ctx).finally(() => open?.close());
    }
    if (!outcome.ok) throw outcomeError(outcome, { uri });
    return outcome.value as never;
  });

  server.setRequestHandler(SubscribeRequestSchema, (request, extra) => {
    const { uri } = request.params;
    const resource = catalog.resource(uri) ?? catalog.matchTemplate(uri)?.template;
    if (!resource) throw notFound(uri);
    refuseUnless(resource.access, `Resource '${uri}'`, extra);
    connection.subscriptions.add(uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    connection.subscriptions.delete(request.params.uri);
    return {};
  });
}

/** Refuses a caller the resource's `@RequireScopes` / `@RequireRoles` rules leave out. */
function refuseUnless(access: AccessRules | undefined, subject: string, extra: { authInfo?: unknown }): void {
  const caller = callerOf(extra);
  if (access && !canAccess(access, caller)) throw new ProtocolError(ErrorCodes.InvalidParams, accessDenial(subject, access, caller));
}

function notFound(uri: string): ProtocolError {
  return new ProtocolError(ErrorCodes.ResourceNotFound, `Resource not found: ${uri}. Call resources/list and resources/templates/list to see what this server offers.`, { uri });
}
