import { watch } from 'node:fs';
import type { ToolLogger } from '@toolwright/core';
import type { ExtensionStop } from '../Extension';
import { problemText } from './skillProblemFix';

/** How long the folder must stay quiet before a reload: an editor's save is several events. */
const SETTLE_MS = 100;

/**
 * Watches a skills folder (recursively) and calls `reload` once a burst of changes settles,
 * one reload at a time. A reload that fails (a SKILL.md that breaks a rule, a skill over the
 * limits) is logged with what to fix; the last good skills keep being served. Returns what stops
 * the watch (and waits for a reload under way). The watcher does not keep the process alive.
 */
export function watchSkills(root: string, reload: () => Promise<void>, logger: ToolLogger): ExtensionStop {
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  let closed = false;
  const run = () => {
    running = running.then(async () => {
      if (closed) return;
      try {
        await reload();
      } catch (error) {
        logger.warn(`the skills in ${root} changed, but they cannot be served; the last good ones still are. ${describe(error)}`);
      }
    });
  };
  const watcher = watch(root, { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(run, SETTLE_MS);
  });
  watcher.on('error', (error) => logger.warn(`stopped watching the skills in ${root}: ${error.message}; restart the server to serve changes`));
  watcher.unref();
  return async () => {
    closed = true;
    clearTimeout(timer);
    watcher.close();
    await running;
  };
}

/** The problems a catalog reported (file and rule each), or the error's message. */
function describe(error: unknown): string {
  const problems = (error as { problems?: unknown }).problems;
  if (Array.isArray(problems) && problems.length > 0) {
    return `Fix: ${problems.map((p: { path?: string; message?: string }) => `${p.path ? `${p.path}: ` : ''}${problemText(String(p.message))}`).join('; ')}.`;
  }
  return error instanceof Error ? error.message : String(error);
}
