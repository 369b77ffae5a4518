import { ESLintUtils } from '@typescript-eslint/utils';

/** The docs page of every rule: one section per rule on the ESLint guide page. */
/** Rules that read types say so, as typescript-eslint's own do. */
export interface ToolwrightRuleDocs {
  readonly requiresTypeChecking?: boolean;
}

export const createRule = ESLintUtils.RuleCreator<ToolwrightRuleDocs>((name) => `https://toolwright.dev/guide/eslint#${name}`);
