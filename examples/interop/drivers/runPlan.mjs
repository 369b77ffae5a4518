// The loop every driver shares: read the plan from argv, run each step with the client's own
// API, print one JSON line of outcomes (the value, or the message of what the library threw).

/**
 * @param {(plan: any) => Promise<{ step(step: any): Promise<unknown>; close(): Promise<void> }>} connect
 */
export async function runPlan(connect) {
  const plan = JSON.parse(process.argv[2]);
  const client = await connect(plan);
  const outcomes = [];
  try {
    for (const step of plan.steps) {
      try {
        outcomes.push({ op: step.op, value: await client.step(step) });
      } catch (error) {
        outcomes.push({ op: step.op, error: error instanceof Error ? error.message : String(error) });
      }
    }
  } finally {
    await client.close();
  }
  process.stdout.write(`${JSON.stringify(outcomes)}\n`);
}

/** A step's op the driver's client has no API for. */
export function unsupported(client, step) {
  return new Error(`${client} has no API for ${step.op}`);
}
