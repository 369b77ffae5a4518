/**
 * The official MCP conformance suite, at the versions this repository tests itself with (a
 * test compares them with examples/conformance/suite/package.json), and the Node 22 it needs.
 */
export const CONFORMANCE_PACKAGES = {
  '@modelcontextprotocol/conformance': '0.1.16',
  'conformance-next': 'npm:@modelcontextprotocol/conformance@0.2.0-alpha.12',
  node: '22.23.3',
} as const;

export interface ConformanceRun {
  readonly label: string;
  /** The folder under node_modules of the suite version this run uses. */
  readonly pkg: keyof typeof CONFORMANCE_PACKAGES;
  readonly args: readonly string[];
  /** The requirement set whose server scenarios count, when the run scores one. */
  readonly requirements?: string;
}

/** The runs `npm run test:conformance` makes, by the same labels. */
export const CONFORMANCE_RUNS: readonly ConformanceRun[] = [
  { label: '2025-11-25', pkg: 'conformance-next', args: ['--requirements', '2025-11-25'], requirements: '2025-11-25' },
  { label: '2026-07-28', pkg: 'conformance-next', args: ['--requirements', '2026-07-28'], requirements: '2026-07-28' },
  { label: '0.1.16', pkg: '@modelcontextprotocol/conformance', args: ['--suite', 'all'] },
];
