/** @toolwright/server/http — serve an app over Streamable HTTP, or mount it in your own HTTP server. */
export { createHttpHandler } from './createHttpHandler';
export type { HttpHandler, Next as HttpNext } from './createHttpHandler';
export { serveHttp } from './serveHttp';
export { bodyEncodingRefusal } from './bodyEncodingRefusal';
export type { BodyEncodingRefusal } from './bodyEncodingRefusal';
export { parseJsonBody } from './parseJsonBody';
export type { ParsedJsonBody } from './parseJsonBody';
export type { HttpListener } from './HttpListener';
export type { HttpHandlerOptions, HttpTimeouts, SessionOptions, CorsOptions, EventStoreLimits } from './HttpHandlerOptions';
export type { EndpointOptions, EndpointSessionOptions } from './EndpointOptions';
export type { InitializeRate } from './InitializeRateLimit';
export type { EventStore, EventStoreFactory } from './EventStore';
export { GET_STREAM_ID } from './Cluster';
export type { Cluster, ClusterChange, SessionChange, SessionRecord, SharedSessions } from './Cluster';
export { InMemoryEventStore } from './InMemoryEventStore';
export type { InMemoryEventStoreOptions } from './InMemoryEventStore';
export { EventBudget } from './EventBudget';
export type { RequestLogLevel, RequestLogEntry } from './requestLog';
