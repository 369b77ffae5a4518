/** A JSON body the endpoint's parser refused (400, JSON-RPC -32700); its message is Toolwright's own, never the body's text. */
export class BodyParseError extends Error {
  readonly statusCode = 400;
}
