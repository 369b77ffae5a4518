import type { HttpRefusal } from '../http/HttpRefusal';

/** A decided answer (`HttpRefusal`) as a web `Response`, with extra headers (CORS); one without a body (`body: undefined`) has none. */
export function jsonAnswer(answer: HttpRefusal, extraHeaders?: Readonly<Record<string, string>>): Response {
  const headers = new Headers(answer.headers);
  if (extraHeaders) for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
  // The runtime owns the connection (a fetch response may not set it).
  headers.delete('Connection');
  if (answer.body === undefined) return new Response(null, { status: answer.status, headers });
  headers.set('Content-Type', 'application/json');
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers });
}
