import type { FactoryProvider } from '@nestjs/common';
import type { ToolwrightModuleOptions } from './ToolwrightModuleOptions';

/** What `ToolwrightModule.forRootAsync`'s factory returns: every option but the module's wiring. */
export type ToolwrightModuleSettings = Omit<ToolwrightModuleOptions, 'tools' | 'services' | 'imports' | 'providers'>;

/**
 * What `ToolwrightModule.forRootAsync` takes: the module's wiring, known when the module is
 * declared (Nest needs its providers before any factory runs), and a factory Nest calls with
 * the providers in `inject` for the rest (name, auth, OAuth, HTTP options...).
 */
export interface ToolwrightModuleAsyncOptions extends Pick<ToolwrightModuleOptions, 'tools' | 'services' | 'imports' | 'providers'> {
  /** Builds the settings, e.g. from a `ConfigService`; may be async. */
  useFactory: (...injected: never[]) => ToolwrightModuleSettings | Promise<ToolwrightModuleSettings>;
  /** The providers Nest passes to `useFactory`, in order (from `imports` or `providers`). */
  inject?: FactoryProvider['inject'];
}
