import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigError } from '@toolwright/core';
import { refuseUnknownOptions } from '@toolwright/core/internal';
import { MODULE_OPTION_NAMES } from './moduleOptionNames';
import { TOOLWRIGHT_OPTIONS, ToolwrightServer } from './ToolwrightServer';
import type { ToolwrightModuleAsyncOptions, ToolwrightModuleSettings } from './ToolwrightModuleAsyncOptions';
import type { ToolwrightModuleOptions } from './ToolwrightModuleOptions';

/** Members of the module's wiring, which a settings factory cannot give (Nest reads them before it runs). */
const WIRING = ['tools', 'services', 'imports', 'providers'] as const;
/** Every option of `forRootAsync`: the compiler fails here when it gains or loses one. */
const ASYNC_OPTIONS = { tools: true, services: true, imports: true, providers: true, useFactory: true, inject: true } as const satisfies Record<keyof ToolwrightModuleAsyncOptions, true>;
const DOCS = 'the options are on the NestJS page of the docs';

/**
 * Serves tool classes that are Nest providers as an MCP server on the Nest app's own port:
 *
 * ```ts
 * @Module({ imports: [ToolwrightModule.forRoot({ name: 'shop', version: '1.0.0', tools: [OrderTools], imports: [OrdersModule] })] })
 * export class AppModule {}
 * ```
 *
 * Nest builds the tools and what they inject; `@UseGuards()` and `@UseInterceptors()` from
 * `@nestjs/common` on a tool class or method wrap its calls. The endpoint is `/mcp` (`http.path`).
 * Settings that come from Nest's DI (a `ConfigService`, secrets) go through `forRootAsync`.
 */
@Module({})
export class ToolwrightModule {
  /** The module for these tools and options: import it into your app module. */
  static forRoot(options: ToolwrightModuleOptions): DynamicModule {
    // A misspelt option (`globalGuard`, `authInfoFor`) would be ignored without a word.
    refuseUnknownOptions('ToolwrightModule.forRoot', options, MODULE_OPTION_NAMES, DOCS);
    return {
      module: ToolwrightModule,
      imports: options.imports ?? [],
      providers: [...options.tools, ...(options.services ?? []), ...(options.providers ?? []), { provide: TOOLWRIGHT_OPTIONS, useValue: options }, ToolwrightServer],
      exports: [ToolwrightServer],
    };
  }

  /**
   * The module with its settings from a factory Nest calls with other providers, e.g. a
   * `ConfigService`; the tools and the module's wiring are given here, as Nest needs them first:
   *
   * ```ts
   * ToolwrightModule.forRootAsync({
   *   tools: [OrderTools],
   *   imports: [ConfigModule],
   *   inject: [ConfigService],
   *   useFactory: (config: ConfigService) => ({ name: 'shop', version: '1.0.0', http: { auth: authFrom(config) } }),
   * })
   * ```
   */
  static forRootAsync(options: ToolwrightModuleAsyncOptions): DynamicModule {
    refuseUnknownOptions('ToolwrightModule.forRootAsync', options, Object.keys(ASYNC_OPTIONS), DOCS);
    const { tools, services, imports, providers, useFactory, inject } = options;
    if (typeof useFactory !== 'function') {
      throw new ConfigError(
        'Toolwright: ToolwrightModule.forRootAsync needs useFactory, a function that returns the settings (name, version, http, ...). For settings known up front, use ToolwrightModule.forRoot.',
      );
    }
    const settings = async (...injected: never[]): Promise<ToolwrightModuleOptions> => {
      const given: ToolwrightModuleSettings = await useFactory(...injected);
      const misplaced = WIRING.filter((key) => given != null && Object.hasOwn(given, key));
      if (misplaced.length > 0) {
        throw new ConfigError(
          `Toolwright: the useFactory of ToolwrightModule.forRootAsync returned ${misplaced.join(', ')}; give ${misplaced.length > 1 ? 'them' : 'it'} to forRootAsync itself (Nest needs the module's providers before a factory runs).`,
        );
      }
      if (given != null) refuseUnknownOptions('the useFactory of ToolwrightModule.forRootAsync', given, MODULE_OPTION_NAMES, DOCS);
      return { ...given, tools, services, imports, providers };
    };
    return {
      module: ToolwrightModule,
      imports: imports ?? [],
      providers: [...tools, ...(services ?? []), ...(providers ?? []), { provide: TOOLWRIGHT_OPTIONS, useFactory: settings, inject: inject ?? [] }, ToolwrightServer],
      exports: [ToolwrightServer],
    };
  }
}
