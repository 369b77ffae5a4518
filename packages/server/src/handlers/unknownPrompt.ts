import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';
import { echoedName } from './echoedName';

/** The answer for a prompt this server does not serve, and for one the caller may not use. */
export function unknownPrompt(name: string): ProtocolError {
  return new ProtocolError(ErrorCodes.InvalidParams, `Unknown prompt '${echoedName(name)}'. Call prompts/list to see the available prompts.`);
}
