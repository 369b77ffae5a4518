import { ESLintUtils } from '@typescript-eslint/utils';

/** Rules that read types say so, as typescript-eslint's own do. */
export interface ToolwrightRuleDocs {
  readonly requiresTypeChecking?: boolean;
}

/** The docs of every rule: its section of the ESLint rules page (docs/guide/eslint.md). */
export const createRule = ESLintUtils.RuleCreator<ToolwrightRuleDocs>((name) => `https://github.com/toolwright/toolwright/blob/main/docs/guide/eslint.md#${name}`);
