// #region nest
import 'reflect-metadata';
import { Controller, Get, Injectable, Module, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Param, Tool, type MemberCall } from '@toolwright/core';
import { ToolwrightModule } from '@toolwright/nestjs';

@Injectable()
export class Inventory {
  stock(sku: string) {
    return sku === 'mug' ? 12 : 0;
  }
}

@Injectable()
export class StaffOnly implements CanActivate {
  canActivate(context: ExecutionContext) {
    const call = context.switchToRpc().getContext<MemberCall>(); // who calls, which tool, the era
    return call.authInfo?.scopes.includes('staff') ?? false;
  }
}

@Injectable() // a Nest provider: Nest builds it and injects Inventory
export class ShopTools {
  constructor(private readonly inventory: Inventory) {}

  @Tool({ description: 'How many of an item are in stock.' })
  stock(@Param('sku') sku: string) {
    return { sku, count: this.inventory.stock(sku) };
  }

  @Tool({ description: 'Restock an item. Staff only.' })
  @UseGuards(StaffOnly) // Nest's own decorator, from @nestjs/common
  restock(@Param('sku') sku: string) {
    return `restocked ${sku}`;
  }
}

@Controller()
export class StatusController {
  @Get('status')
  status() {
    return { up: true };
  }
}

@Module({
  imports: [
    ToolwrightModule.forRoot({
      name: 'shop',
      version: '1.0.0',
      tools: [ShopTools],
      providers: [Inventory],
      http: { path: '/mcp', allowedHosts: ['api.example.com'] },
    }),
  ],
  controllers: [StatusController],
})
export class AppModule {}

export async function startNest(port = 3000) {
  const nest = await NestFactory.create(AppModule);
  await nest.listen(port, '127.0.0.1'); // /status and /mcp on the same port
  return nest; // nest.close() ends the MCP sessions, then closes the server
}
// #endregion nest

// #region async
/** Your settings provider; with @nestjs/config it would be its ConfigService. */
@Injectable()
export class Settings {
  readonly publicUrl = process.env.PUBLIC_URL ?? 'http://127.0.0.1:3000';
  readonly apiToken = process.env.MCP_TOKEN ?? '';
}

@Module({ providers: [Settings], exports: [Settings] })
export class SettingsModule {}

@Module({
  imports: [
    ToolwrightModule.forRootAsync({
      tools: [ShopTools], // the wiring stays here: Nest needs the providers before the factory runs
      providers: [Inventory],
      imports: [SettingsModule],
      inject: [Settings],
      useFactory: (settings: Settings) => ({
        name: 'shop',
        version: '1.0.0',
        http: {
          auth: {
            resource: `${settings.publicUrl}/mcp`,
            authorizationServers: ['https://auth.example.com'],
            verifyToken: (token) => (token === settings.apiToken ? { token, clientId: 'ops', scopes: ['staff'], extra: { sub: 'ops' } } : undefined),
          },
        },
      }),
    }),
  ],
})
export class ConfiguredAppModule {}
// #endregion async
