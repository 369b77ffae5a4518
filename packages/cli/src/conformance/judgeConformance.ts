import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ConformanceVerdict {
  readonly passed: string[];
  readonly failed: string[];
  /** Required scenarios the suite wrote no result for. */
  readonly missing: string[];
}

/** Scenario names listed under `server:` in a requirement file (`- name` or `- scenario: name`). */
function requiredScenarios(file: string): Set<string> {
  const names = new Set<string>();
  let inside = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\S/.test(line)) inside = line.startsWith('server:');
    else if (inside) {
      const name = /^\s*-\s*(?:scenario:\s*)?([\w/-]+)\s*(?:#.*)?$/.exec(line)?.[1];
      if (name) names.add(name);
    }
  }
  return names;
}

/**
 * Reads the suite's results folder (one folder per scenario with a checks.json): a scenario
 * fails when any check is a FAILURE, or when it threw and left no checks. With a requirement
 * file, only the scenarios it requires count, and a missing one fails.
 */
export function judgeConformance(resultsDir: string, requirementFile?: string): ConformanceVerdict {
  const required = requirementFile ? requiredScenarios(requirementFile) : undefined;
  const passed: string[] = [];
  const failed: string[] = [];
  for (const dir of readdirSync(resultsDir).sort()) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(dir)?.[1] ?? dir;
    if (required && !required.has(scenario)) continue;
    const file = join(resultsDir, dir, 'checks.json');
    const checks = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { status: string }[]) : [{ status: 'FAILURE' }];
    (checks.some((c) => c.status === 'FAILURE') ? failed : passed).push(scenario);
  }
  const seen = new Set([...passed, ...failed]);
  return { passed, failed, missing: required ? [...required].filter((s) => !seen.has(s)) : [] };
}
