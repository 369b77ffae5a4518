import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';

/** The capabilities of the conformance suite's client. */
export const FULL_CAPABILITIES = { sampling: {}, elicitation: {} };

/** A client like the suite's: it answers sampling with text and accepts every form with canned content. */
export function answerLikeTheSuite(client: Client, forms: ElicitRequest['params'][]): void {
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    const first = request.params.messages[0].content as { text: string };
    return { role: 'assistant', content: { type: 'text', text: `echo(${first.text}) max=${request.params.maxTokens}` }, model: 'test-model' };
  });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    forms.push(request.params);
    const props = Object.keys((request.params as { requestedSchema: { properties: object } }).requestedSchema.properties);
    if (props.includes('username')) return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
    if (props.includes('verified')) return { action: 'accept', content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true } };
    return { action: 'decline' };
  });
}
