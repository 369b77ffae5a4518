import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory, type AbstractHttpAdapter } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Tool } from '@toolwright/core';
import { ToolwrightModule } from '@toolwright/nestjs';

/** A misspelt `http` option of the module would be ignored, and the endpoint served without the defence it names: the module refuses it, on either platform. */
@Injectable()
class Echo {
  @Tool({ description: 'Echoes.' })
  echo(text: string) {
    return text;
  }
}

@Module({ imports: [ToolwrightModule.forRoot({ name: 'echo', version: '1.0.0', tools: [Echo], http: { alowedHosts: ['mcp.example.com'], drainTimeoutMs: 100 } as never })] })
class Misspelt {}

const PLATFORMS: [string, () => AbstractHttpAdapter | undefined][] = [
  ['Express', () => undefined],
  ['Fastify', () => new FastifyAdapter()],
];

describe('ToolwrightModule, the names of its http options', () => {
  it.each(PLATFORMS)('on %s: the app does not start, and the error names the module option and the nearest name', async (_, adapter) => {
    const platform = adapter();
    const nest = platform ? await NestFactory.create(Misspelt, platform, { logger: false }) : await NestFactory.create(Misspelt, { logger: false });
    try {
      await expect(nest.init()).rejects.toThrow(
        'Toolwright: ToolwrightModule.forRoot({ http }) has no option `alowedHosts` (did you mean `allowedHosts`?). Fix the name or remove it; the options are on the NestJS page of the docs.',
      );
    } finally {
      await nest.close();
    }
  });
});

describe('ToolwrightModule, the names of its options', () => {
  it('forRoot refuses an option it does not have where the module is declared, naming the nearest', () => {
    expect(() => ToolwrightModule.forRoot({ name: 'echo', version: '1.0.0', tools: [Echo], globalGuard: false } as never)).toThrow(
      'Toolwright: ToolwrightModule.forRoot has no option `globalGuard` (did you mean `globalGuards`?). Fix the name or remove it; the options are on the NestJS page of the docs.',
    );
    // The app's options are the module's too; the container is Nest's own.
    expect(() => ToolwrightModule.forRoot({ name: 'echo', version: '1.0.0', tools: [Echo], timeoutMS: 5 } as never)).toThrow('has no option `timeoutMS` (did you mean `timeoutMs`?)');
    expect(() => ToolwrightModule.forRoot({ name: 'echo', version: '1.0.0', tools: [Echo], container: {} } as never)).toThrow('has no option `container`');
  });

  it('forRootAsync refuses an option of its own it does not have, and one its useFactory returns', async () => {
    expect(() => ToolwrightModule.forRootAsync({ tools: [Echo], useFactory: () => ({ name: 'echo', version: '1.0.0' }), inejct: [] } as never)).toThrow(
      'Toolwright: ToolwrightModule.forRootAsync has no option `inejct` (did you mean `inject`?).',
    );
    @Module({ imports: [ToolwrightModule.forRootAsync({ tools: [Echo], useFactory: () => ({ name: 'echo', version: '1.0.0', athInfoFrom: () => undefined }) as never })] })
    class FromFactory {}
    await expect(NestFactory.createApplicationContext(FromFactory, { logger: false, abortOnError: false })).rejects.toThrow(
      'Toolwright: the useFactory of ToolwrightModule.forRootAsync has no option `athInfoFrom` (did you mean `authInfoFrom`?).',
    );
  });
});
