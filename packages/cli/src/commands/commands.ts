import type { Command } from '../cli/Command';
import { callCommand } from './callCommand';
import { newCommand } from './newCommand';

/** Every command, in the order `toolwright --help` lists them. */
export const COMMANDS: readonly Command[] = [newCommand, callCommand];
