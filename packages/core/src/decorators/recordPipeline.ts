import { appendOwn } from '../metadata/ownMetadata';
import { PIPELINE_KEY, type PipelineArgs } from '../pipeline/PipelineArgs';

/** Records middleware or guards on the class (class-level when there is no property key). */
export function recordPipeline(target: object, propertyKey: string | symbol | undefined, args: PipelineArgs): void {
  const owner = typeof target === 'function' ? target : target.constructor;
  appendOwn(PIPELINE_KEY, owner, Object.freeze(propertyKey === undefined ? args : { ...args, methodName: String(propertyKey) }));
}
