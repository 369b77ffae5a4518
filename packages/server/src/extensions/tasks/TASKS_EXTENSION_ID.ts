import { ErrorCodes, ProtocolError } from '../../sdk/ProtocolError';

/** The identifier of the tasks extension (SEP-2663). */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** The error of a request that needs the tasks extension its client did not declare (`message`: what needed it and how to declare it). */
export function tasksNotDeclared(message: string): ProtocolError {
  return new ProtocolError(ErrorCodes.MissingClientCapability, message, { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } });
}
