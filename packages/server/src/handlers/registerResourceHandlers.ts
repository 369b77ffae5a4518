import type { Resource, ResourceTemplateType } from '../sdk/sdk';
import type { ReadResourceResult } from '@toolwright/core';
import type { CompiledResource, CompiledResourceTemplate } from '@toolwright/core/internal';
import { callerOf } from '../auth/canAccess';
import { createListFilter } from '../auth/createListFilter';
import { guardedList } from '../pipeline/guardedList';
import { mayUse } from '../pipeline/mayUse';
import type { PipelineEnv } from '../pipeline/PipelineEnv';
import { serveMember } from '../pipeline/serveMember';
import type { MemberRef, ServedMember } from '../pipeline/ServedMember';
import type { Catalog } from '../surface/Catalog';
import type { Connection } from '../pipeline/Connection';
import { outcomeError } from './outcomeError';
import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';
import { subscriptionRefusal } from './subscriptionRefusal';
import { echoedName } from './echoedName';

/**
 * Serves `resources/list`, `resources/templates/list` (cached pages), `resources/read`
 * (a static URI first, then the first template that produces it; -32002 with the URI in
 * `data` otherwise, and for a resource the caller may not use) and
 * `resources/subscribe`/`unsubscribe` for this connection. A URI longer than the app's
 * `maxUriLength` that is no static resource's gets -32602 before any template runs.
 */
export function registerResourceHandlers(connection: Connection, catalog: Catalog, env: PipelineEnv): void {
  const { server } = connection;
  const { resourcesFor, templatesFor } = listFiltersOf(catalog);
  const resourceRef = (r: Resource) => refOf(catalog.resource(r.uri));
  const templateRef = (t: ResourceTemplateType) => refOf(catalog.template(t.uriTemplate));
  server.setRequestHandler('resources/list', (request, ctx) => guardedList(resourcesFor(catalog.resourcesPage(request.params?.cursor), callerOf(ctx)), 'resources', resourceRef, ctx, connection, env));
  server.setRequestHandler('resources/templates/list', (request, ctx) =>
    guardedList(templatesFor(catalog.templatesPage(request.params?.cursor), callerOf(ctx)), 'resourceTemplates', templateRef, ctx, connection, env),
  );

  server.setRequestHandler('resources/read', async (request, ctx) => {
    const { uri } = request.params;
    const serving = servingMember(catalog, uri, env.maxUriLength);
    if (!serving) throw notFound(uri);
    const { member } = serving;
    return serveMember<ReadResourceResult>(
      {
        // Every key written out (no spread): the pipeline reads this object on every call.
        kind: 'resource',
        member,
        name: 'uri' in member ? member.uri : member.uriTemplate,
        unknown: () => notFound(uri),
        method: 'resources/read',
        args: {},
        uri,
        run: async (toolCtx, scope) => {
          const outcome = await serving.read(toolCtx, scope);
          if (!outcome.ok) throw outcomeError(outcome, { uri });
          // `@Resource({ cache })` on a 2026-07-28 read; the app's default for reads fills what it leaves out.
          return member.cache && connection.era === 'modern' ? { ...outcome.value, ...member.cache } : outcome.value;
        },
        timedOut: (ms) => Promise.reject(new ProtocolError(ErrorCodes.InternalError, `Reading resource '${echoedName(uri)}' timed out after ${ms} ms.`, { uri })),
        failed: () => Promise.reject(new ProtocolError(ErrorCodes.InternalError, `Reading resource '${echoedName(uri)}' failed with an internal error. The server log has the details.`, { uri })),
      },
      ctx,
      connection,
      env,
    );
  });

  // 2026-07-28 has no resources/subscribe or unsubscribe (subscriptions/listen instead; the SDK answers
  // them "Method not found" before any handler): a per-request server registers only what it can serve.
  if (connection.era !== 'legacy') return;
  server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    const { uri } = request.params;
    const malformed = subscriptionRefusal(uri, new Set());
    if (malformed) throw malformed;
    const resource = servingMember(catalog, uri, env.maxUriLength)?.member;
    // One the caller may not use (its access rules or guards) is answered as one that does not exist.
    if (!resource || !(await mayUse(refOf(resource)!, ctx, connection, env))) throw notFound(uri);
    const refused = subscriptionRefusal(uri, connection.subscriptions);
    if (refused) throw refused;
    connection.subscriptions.add(uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    connection.subscriptions.delete(request.params.uri);
    return {};
  });
}

const filters = new WeakMap<Catalog, ReturnType<typeof createFilters>>();

/** The catalog's list filters, made once per app: every connection (one per 2026-07-28 request) shares their cached views. */
function listFiltersOf(catalog: Catalog) {
  let made = filters.get(catalog);
  if (!made) filters.set(catalog, (made = createFilters(catalog)));
  return made;
}

function createFilters(catalog: Catalog) {
  return {
    resourcesFor: createListFilter('resources', (r: Resource) => catalog.resource(r.uri)?.access),
    templatesFor: createListFilter('resourceTemplates', (t: ResourceTemplateType) => catalog.template(t.uriTemplate)?.access),
  };
}

/** The pipeline's view of a resource (by URI) or template (by URI template). */
function refOf(member: CompiledResource | CompiledResourceTemplate | undefined): MemberRef | undefined {
  if (!member) return undefined;
  return { kind: 'resource', member, name: 'uri' in member ? member.uri : member.uriTemplate };
}

/**
 * The resource or template that serves `uri`, and how to read it with a context. Templates match
 * only URIs within `maxUriLength`, and a mounted app's template within its app's too.
 */
function servingMember(catalog: Catalog, uri: string, maxUriLength: number) {
  const resource = catalog.resource(uri);
  if (resource) return { member: resource, read: resource.read };
  if (uri.length > maxUriLength) throw tooLong(uri, maxUriLength);
  const found = catalog.matchTemplate(uri);
  const ownLimit = found && (found.template as ServedMember).limits?.maxUriLength;
  if (ownLimit !== undefined && uri.length > ownLimit) throw tooLong(uri, ownLimit);
  return (
    found && {
      member: found.template,
      read: (ctx: Parameters<CompiledResource['read']>[0], scope: Parameters<CompiledResource['read']>[1]) => found.template.read(uri, found.variables, ctx, scope),
    }
  );
}

/** A URI past the cap: refused without running a template, and without echoing it. */
function tooLong(uri: string, maxUriLength: number): ProtocolError {
  return new ProtocolError(
    ErrorCodes.InvalidParams,
    `Invalid params: the URI is ${uri.length} characters long; this server reads URIs of at most ${maxUriLength} characters (the app's maxUriLength).`,
  );
}

function notFound(uri: string): ProtocolError {
  return new ProtocolError(ErrorCodes.ResourceNotFound, `Resource not found: ${echoedName(uri)}. Call resources/list and resources/templates/list to see what this server offers.`, { uri });
}
