import type { Change } from './Change';
import type { Contract, PromptEntry } from './Contract';
import { diffSchemas } from './diffSchemas';

/**
 * Every difference between two contracts, classified. Removing anything a client can call or
 * read is breaking; so is accepting less input or returning something the old schema did not
 * allow. Adding is additive; wording is info.
 */
export function diffContracts(before: Contract, after: Contract): Change[] {
  const changes: Change[] = [];
  const push = (severity: Change['severity'], where: string, message: string) => changes.push({ severity, where, message });

  pairUp(before.tools, after.tools, (t) => t.name, {
    removed: (t) => push('breaking', `tool '${t.name}'`, 'tool removed'),
    added: (t) => push('additive', `tool '${t.name}'`, 'new tool'),
    both: (x, y) => {
      const where = `tool '${x.name}'`;
      if (x.description !== y.description) push('info', where, 'description changed');
      if (x.title !== y.title) push('info', where, 'title changed');
      changes.push(...diffSchemas(x.inputSchema, y.inputSchema, `${where} input`, 'input'));
      if (x.outputSchema && !y.outputSchema) push('breaking', where, 'outputSchema removed: results no longer carry structuredContent clients may read');
      else if (!x.outputSchema && y.outputSchema) push('additive', where, 'outputSchema added');
      else if (x.outputSchema && y.outputSchema) changes.push(...diffSchemas(x.outputSchema, y.outputSchema, `${where} output`, 'output'));
      const hint = (a: Record<string, unknown> | undefined, key: string) => a?.[key];
      if (hint(x.annotations, 'readOnlyHint') === true && hint(y.annotations, 'readOnlyHint') !== true)
        push('breaking', where, 'no longer read-only (readOnlyHint): clients may now ask before calling it');
      if (hint(x.annotations, 'destructiveHint') === false && hint(y.annotations, 'destructiveHint') !== false) push('breaking', where, 'now possibly destructive (destructiveHint)');
    },
  });
  for (const [kind, key] of [
    ['resource', 'uri'],
    ['resource template', 'uriTemplate'],
  ] as const) {
    const list = (c: Contract) => (kind === 'resource' ? c.resources : c.resourceTemplates) as unknown as Record<string, string | undefined>[];
    pairUp(list(before), list(after), (r) => String(r[key]), {
      removed: (r) => push('breaking', `${kind} '${r[key]}'`, `${kind} removed`),
      added: (r) => push('additive', `${kind} '${r[key]}'`, `new ${kind}`),
      both: (x, y) => {
        if (x.mimeType !== y.mimeType) push('breaking', `${kind} '${x[key]}'`, `mimeType changed from ${x.mimeType} to ${y.mimeType}`);
        if (x.description !== y.description) push('info', `${kind} '${x[key]}'`, 'description changed');
        if (x.name !== y.name) push('info', `${kind} '${x[key]}'`, 'name changed');
      },
    });
  }
  pairUp(before.prompts, after.prompts, (p) => p.name, {
    removed: (p) => push('breaking', `prompt '${p.name}'`, 'prompt removed'),
    added: (p) => push('additive', `prompt '${p.name}'`, 'new prompt'),
    both: (x, y) => changes.push(...diffPromptArguments(x, y)),
  });
  return changes;
}

function diffPromptArguments(x: PromptEntry, y: PromptEntry): Change[] {
  const changes: Change[] = [];
  const where = `prompt '${x.name}'`;
  if (x.description !== y.description) changes.push({ severity: 'info', where, message: 'description changed' });
  pairUp(x.arguments ?? [], y.arguments ?? [], (a) => a.name, {
    removed: (a) => changes.push({ severity: 'breaking', where: `${where} argument ${a.name}`, message: 'argument removed' }),
    added: (a) =>
      changes.push(
        a.required
          ? { severity: 'breaking', where: `${where} argument ${a.name}`, message: 'new required argument' }
          : { severity: 'additive', where: `${where} argument ${a.name}`, message: 'new optional argument' },
      ),
    both: (a, b) => {
      if (!a.required && b.required) changes.push({ severity: 'breaking', where: `${where} argument ${a.name}`, message: 'now required' });
      if (a.required && !b.required) changes.push({ severity: 'additive', where: `${where} argument ${a.name}`, message: 'now optional' });
    },
  });
  return changes;
}

function pairUp<T>(before: readonly T[], after: readonly T[], key: (item: T) => string, on: { removed(item: T): void; added(item: T): void; both(x: T, y: T): void }): void {
  const next = new Map(after.map((item) => [key(item), item]));
  for (const item of before) {
    const match = next.get(key(item));
    if (match === undefined) on.removed(item);
    else on.both(item, match);
    next.delete(key(item));
  }
  for (const item of next.values()) on.added(item);
}
