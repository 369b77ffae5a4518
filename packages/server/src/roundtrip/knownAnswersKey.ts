/**
 * Where a run's trusted earlier answers ride on the SDK's request context (`mcpReq`), set by
 * an extension's run override (`ToolRunOverride.round.answers`) and read where the round runs.
 * A symbol: nothing from the wire can set it.
 */
export const KNOWN_ANSWERS: unique symbol = Symbol('toolwright.knownAnswers');
