import type { INestApplication, NestApplicationOptions } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

/** The Nest application (HTTP: the controller and /mcp), for server.ts and the tests. Call `listen` on it. */
export function {{appFactory}}(options: NestApplicationOptions = {}): Promise<INestApplication> {
  return NestFactory.create(AppModule, options);
}
