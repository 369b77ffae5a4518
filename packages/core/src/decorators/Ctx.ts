import { recordParam } from './Param';

/** Injects the per-call `ToolContext` (request id, abort signal, session, auth, logger). */
export function Ctx(): ParameterDecorator {
  return (target, propertyKey, index) => {
    recordParam(target, propertyKey, { index, kind: 'ctx' });
  };
}
