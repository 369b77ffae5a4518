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
