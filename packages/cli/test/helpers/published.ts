import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './markdown';

/** A package.json, as far as publishing reads it. */
export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  files?: string[];
  exports?: Record<string, string | Record<string, string>>;
  engines?: Record<string, string>;
  sideEffects?: boolean | string[];
  publishConfig?: Record<string, unknown>;
  repository?: { type: string; url: string; directory?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** Every package `lerna publish` uploads: its folder under packages/ and its manifest. */
export const PUBLISHED = ['core', 'server', 'redis', 'express', 'fastify', 'nestjs', 'hono', 'next', 'oauth', 'openapi', 'cli', 'create-toolwright', 'eslint-plugin'].map((folder) => {
  const dir = join(REPO, 'packages', folder);
  return { folder, dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest };
});

/** The GitHub repository the packages link to (their `repository` field). */
export const GITHUB = 'https://github.com/toolwright/toolwright';
