import { join } from 'node:path';
import { RuleTester } from '@typescript-eslint/rule-tester';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

/** A rule tester whose cases are linted as fixtures/<project>/file.ts, with that folder's tsconfig.json. */
export function ruleTester(project: 'project' | 'no-decorators' = 'project'): RuleTester {
  const root = join(__dirname, 'fixtures', project);
  return new RuleTester({
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: root } },
    defaultFilenames: { ts: 'file.ts', tsx: 'file.tsx' },
  });
}

/** A rule tester without type information, as a config without `projectService` runs the rules. */
export function untypedRuleTester(): RuleTester {
  return new RuleTester({ defaultFilenames: { ts: 'file.ts', tsx: 'file.tsx' } });
}

/**
 * A rule as the tester's own copy of typescript-eslint's types sees it: the tester pins an
 * exact utils version, whose classes (with private fields) are nominally distinct from the
 * plugin's copy, though the rules run the same.
 */
export function loose<M extends string>(rule: { meta: { messages: Record<M, string> } }): Parameters<RuleTester['run']>[1] & { meta: { messages: Record<M, string> } } {
  return rule as never;
}
