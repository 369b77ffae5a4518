import type { Command } from '../cli/Command';
import { callCommand } from './callCommand';
import { configCommand } from './configCommand';
import { devCommand } from './devCommand';
import { docsCommand } from './docsCommand';
import { inspectCommand } from './inspectCommand';
import { installCommand } from './installCommand';
import { newCommand } from './newCommand';
import { schemaCommand } from './schemaCommand';
import { testConformanceCommand } from './testConformanceCommand';
import { workerCommand } from './workerCommand';

/** Every command, in the order `toolwright --help` lists them. */
export const COMMANDS: readonly Command[] = [newCommand, devCommand, callCommand, inspectCommand, schemaCommand, docsCommand, testConformanceCommand, workerCommand, configCommand, installCommand];
