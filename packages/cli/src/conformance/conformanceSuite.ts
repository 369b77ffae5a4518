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

/** Why a scenario of the suite does not apply to every server. */
export type ScenarioNeed = 'fixtures' | 'resources' | 'prompts';

/**
 * What the scenarios that do not apply to every server need. Most call the suite's own
 * fixture tools, resources and prompts (`test_simple_text`, `test://static-text`,
 * `test_simple_prompt` ...), which only a server written for the suite serves; a few list
 * resources or prompts, which a server without them answers "Method not found". Every
 * other scenario (initialize, ping, logging, tools/list, sessions, DNS rebinding, unknown
 * resources, unsupported methods ...) applies to any server.
 */
export const SCENARIO_NEEDS: ReadonlyMap<string, readonly ScenarioNeed[]> = new Map<string, readonly ScenarioNeed[]>([
  ...[
    'completion-complete',
    'tools-call-simple-text',
    'tools-call-image',
    'tools-call-audio',
    'tools-call-embedded-resource',
    'tools-call-mixed-content',
    'tools-call-with-logging',
    'tools-call-error',
    'tools-call-with-progress',
    'tools-call-sampling',
    'tools-call-elicitation',
    'elicitation-sep1034-defaults',
    'elicitation-sep1330-enums',
    'json-schema-2020-12',
    'resources-read-text',
    'resources-read-binary',
    'resources-templates-read',
    'resources-subscribe',
    'resources-unsubscribe',
    'prompts-get-simple',
    'prompts-get-with-args',
    'prompts-get-embedded-resource',
    'prompts-get-with-image',
    'server-stateless',
    'input-required-result-basic-elicitation',
    'input-required-result-basic-sampling',
    'input-required-result-basic-list-roots',
    'input-required-result-request-state',
    'input-required-result-multiple-input-requests',
    'input-required-result-multi-round',
    'input-required-result-missing-input-response',
    'input-required-result-non-tool-request',
    'input-required-result-result-type',
    'input-required-result-tampered-state',
    'input-required-result-capability-check',
    'input-required-result-ignore-extra-params',
    'input-required-result-validate-input',
  ].map((name): [string, readonly ScenarioNeed[]] => [name, ['fixtures']]),
  ['resources-list', ['resources']],
  ['prompts-list', ['prompts']],
  ['caching', ['resources', 'prompts']],
]);

/** A fixture tool of the suite: a server that serves it is taken to serve all of them. */
export const FIXTURE_PROBE_TOOL = 'test_simple_text';

/** What a server offers that decides which scenarios apply to it. */
export interface ServerOffer {
  readonly fixtures: boolean;
  readonly resources: boolean;
  readonly prompts: boolean;
}

/** The needs of `scenario` the server does not meet; empty when it applies. */
export function unmetNeeds(scenario: string, offer: ServerOffer): readonly ScenarioNeed[] {
  return (SCENARIO_NEEDS.get(scenario) ?? []).filter((need) => !offer[need]);
}
