import { Module, type DynamicModule } from '@nestjs/common';
import { TOOLWRIGHT_OPTIONS, ToolwrightServer } from './ToolwrightServer';
import type { ToolwrightModuleOptions } from './ToolwrightModuleOptions';

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
 */
@Module({})
export class ToolwrightModule {
  /** The module for these tools and options: import it into your app module. */
  static forRoot(options: ToolwrightModuleOptions): DynamicModule {
    return {
      module: ToolwrightModule,
      imports: options.imports ?? [],
      providers: [...options.tools, ...(options.services ?? []), ...(options.providers ?? []), { provide: TOOLWRIGHT_OPTIONS, useValue: options }, ToolwrightServer],
      exports: [ToolwrightServer],
    };
  }
}
