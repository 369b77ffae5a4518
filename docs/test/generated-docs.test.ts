/**
 * The docs' generated pages: the TypeScript -> JSON Schema tables (from the same rows the
 * core table tests check) and the build-error catalogue (from real build runs). Each file
 * in docs/guide/generated/ must equal what this test renders, so the docs cannot drift
 * from the code. After changing a fixture or a message, run `npm run docs:tables`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BuildError, buildRegistry, type Class } from '@toolwright/core';
import { PARAM_SCHEMA_TABLE } from '../../packages/core/test/fixtures/paramSchemaTable';
import { DTO_SCHEMA_TABLE } from '../../packages/core/test/fixtures/dtoSchemaTable';
import { BUILD_ERROR_CASES, MESSAGE_EXAMPLE } from '../snippets/errors/buildErrorCases';

const GENERATED = join(__dirname, '..', 'guide', 'generated');
const WRITE = process.env.DOCS_WRITE_TABLES === '1';
const header = (source: string) => `<!-- Generated from ${source} by docs/test/generated-docs.test.ts. Do not edit: run \`npm run docs:tables\`. -->\n\n`;

/** Inline code that survives a markdown table cell and Vue's template compiler. */
function code(text: string): string {
  const escaped = text.replace(/\|/g, '\\|');
  return '`' + escaped + '`';
}

/**
 * Message text in a table cell: no pipes or newlines, and outside its `code spans` no raw
 * HTML (Vue would compile `<Foo>` as a component) and no `{{` (Vue interpolation).
 */
function cell(text: string): string {
  return text
    .replace(/\n/g, ' ')
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? code(part.slice(1, -1)) : part.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\{\{/g, '&#123;&#123;')))
    .join('');
}

function json(value: unknown): string {
  return JSON.stringify(value).replace(/,"/g, ', "').replace(/":/g, '": ');
}

function renderParamTable(): string {
  const rows = PARAM_SCHEMA_TABLE.map((row) => {
    const [param, ...options] = row.ts.split(/\s{2,}/);
    return `| ${code(param)} | ${options.length ? code(options.join(' ')) : ''} | ${code(json(row.schema))} | ${row.required ? 'yes' : 'no'} |`;
  });
  return header('packages/core/test/fixtures/paramSchemaTable.ts') + '| Parameter | `@Param` options | JSON Schema of the argument | Required |\n| --- | --- | --- | --- |\n' + rows.join('\n') + '\n';
}

function renderDtoTable(): string {
  const rows = DTO_SCHEMA_TABLE.map((row) => {
    const [decorators, ...notes] = row.decorator.split(/\s{2,}/);
    const note = notes.map((n) => ' ' + cell(n.trim())).join('');
    return `| ${code(decorators)}${note} | ${code(row.tsType)} | ${code(json(row.schema))} | ${row.required ? 'yes' : 'no'} |`;
  });
  return (
    header('packages/core/test/fixtures/dtoSchemaTable.ts') +
    '| Decorators on the property | TypeScript type | JSON Schema of the property | Required |\n| --- | --- | --- | --- |\n' +
    rows.join('\n') +
    '\n'
  );
}

function buildError(tools: readonly unknown[]): BuildError {
  try {
    buildRegistry({ tools: tools as Class[] });
  } catch (error) {
    if (error instanceof BuildError) return error;
    throw error;
  }
  throw new Error('the build succeeded');
}

function renderBuildErrors(): string {
  const rows: string[] = [];
  for (const c of BUILD_ERROR_CASES) {
    const error = buildError(c.tools);
    error.problems.forEach((p, i) => {
      rows.push(`| ${i === 0 ? cell(c.situation) : ''} | ${code(p.where)} ${cell(p.what)} | ${cell(p.fix)} |`);
    });
  }
  return header('docs/snippets/errors/buildErrorCases.ts') + '| Situation | Message: where, what | Fix |\n| --- | --- | --- |\n' + rows.join('\n') + '\n';
}

function renderBuildErrorMessage(): string {
  return header('docs/snippets/errors/buildErrorCases.ts') + '```text\n' + buildError([MESSAGE_EXAMPLE]).message + '\n```\n';
}

const FILES: Record<string, () => string> = {
  'param-schema-table.md': renderParamTable,
  'dto-schema-table.md': renderDtoTable,
  'build-errors.md': renderBuildErrors,
  'build-error-message.md': renderBuildErrorMessage,
};

describe('generated docs pages', () => {
  let stderr: jest.SpyInstance;
  beforeAll(() => {
    // Some cases make typedi print nothing and the default logger print to stderr; keep the output clean.
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterAll(() => stderr.mockRestore());

  it.each(BUILD_ERROR_CASES.map((c) => [c.situation, c] as const))('build error case fails to build: %s', (_s, c) => {
    expect(buildError(c.tools).problems.length).toBeGreaterThan(0);
  });

  it.each(Object.keys(FILES))('docs/guide/generated/%s is up to date', (name) => {
    const rendered = FILES[name]();
    const path = join(GENERATED, name);
    if (WRITE) writeFileSync(path, rendered);
    let committed = '';
    try {
      committed = readFileSync(path, 'utf8');
    } catch {
      // reported below
    }
    if (committed !== rendered) {
      throw new Error(`docs/guide/generated/${name} is out of date with the code it documents. Run \`npm run docs:tables\` and commit the result.`);
    }
  });
});
