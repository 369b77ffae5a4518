import type { Guard } from './Guard';
import type { Middleware } from './Middleware';

/** Reflect metadata key for `@UseMiddleware` and `@UseGuards` records (own metadata of the class). */
export const PIPELINE_KEY = 'toolwright:pipeline';

/** What `@UseMiddleware` and `@UseGuards` record. `methodName` is absent on a class-level record. */
export type PipelineArgs =
  { readonly kind: 'middleware'; readonly items: readonly Middleware[]; readonly methodName?: string } | { readonly kind: 'guards'; readonly items: readonly Guard[]; readonly methodName?: string };

/** A member's middleware and guards, outermost first: class (ancestors first), then method. */
export interface MemberPipeline {
  readonly middleware: readonly Middleware[];
  readonly guards: readonly Guard[];
}
