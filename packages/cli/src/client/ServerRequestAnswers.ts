import type { CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';

/** How the CLI answers the requests a server sends while it serves a call: elicitation and sampling. */
export interface ServerRequestAnswers {
  elicit(request: ElicitRequest['params']): Promise<ElicitResult>;
  sample(request: CreateMessageRequest['params']): Promise<CreateMessageResult>;
}
