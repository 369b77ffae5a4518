import type { ToolwrightModuleOptions } from './ToolwrightModuleOptions';

/** Every option of `ToolwrightModule.forRoot`: the app's (`createApp`'s but its container) and the module's. The compiler fails here when either gains or loses one. */
const MODULE_OPTIONS = {
  // The app's
  name: true,
  version: true,
  title: true,
  description: true,
  websiteUrl: true,
  icons: true,
  instructions: true,
  tools: true,
  mount: true,
  extensions: true,
  services: true,
  onStart: true,
  onShutdown: true,
  coerce: true,
  cwd: true,
  logger: true,
  pageSize: true,
  logLevel: true,
  listChangedDebounceMs: true,
  cache: true,
  middleware: true,
  timeoutMs: true,
  toolTimeoutMs: true,
  guardTimeoutMs: true,
  requestState: true,
  telemetry: true,
  fastPaths: true,
  maxUriLength: true,
  maxLogLength: true,
  scopeHints: true,
  oauth: true,
  // The module's
  imports: true,
  providers: true,
  http: true,
  globalGuards: true,
  authInfoFrom: true,
  endpointDecorators: true,
} as const satisfies Record<keyof ToolwrightModuleOptions, true>;

/** The names of `ToolwrightModule.forRoot`'s options, for the check that refuses an unknown one. */
export const MODULE_OPTION_NAMES: readonly string[] = Object.keys(MODULE_OPTIONS);
