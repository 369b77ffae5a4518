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
