/** How an adapter has its options checked against a handler's (`checkHttpHandlerOptions`, `checkFetchHandlerOptions`). */
export interface HandlerOptionCheck {
  /** The call an unknown option is reported against: `toolwrightMiddleware (@toolwright/express)`. */
  readonly call: string;
  /** The adapter's own options, beside the handler's: `['drainTimeoutMs']`. */
  readonly own?: readonly string[];
  /** The docs page that lists the options: `Express`. */
  readonly docsPage?: string;
}
