/** The project templates `toolwright new` knows, in the order `--help` lists them. */
export const TEMPLATE_NAMES = ['minimal', 'weather', 'http', 'full'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export const TRANSPORTS = ['stdio', 'http'] as const;
export type Transport = (typeof TRANSPORTS)[number];

export interface TemplateInfo {
  readonly name: TemplateName;
  /** One line for `--help`, the prompt and package.json's description. */
  readonly summary: string;
  /** The transport `npm start` uses when `--transport` is not given. */
  readonly transport: Transport;
  /** What the README says is inside, one bullet per line. */
  readonly contents: readonly string[];
  /** A call the README shows with `toolwright call`, and the acceptance test makes. */
  readonly exampleCall: { readonly tool: string; readonly args: Readonly<Record<string, unknown>> };
}

export const TEMPLATES: Readonly<Record<TemplateName, TemplateInfo>> = {
  minimal: {
    name: 'minimal',
    summary: 'One tool and an injected service: the smallest complete server.',
    transport: 'stdio',
    contents: ['`src/greeting.tools.ts`: the `greet` tool, with a parameter schema from `@Param`.', '`src/greeting.service.ts`: the logic, injected into the tool class by typedi.'],
    exampleCall: { tool: 'greet', args: { name: 'Ada' } },
  },
  weather: {
    name: 'weather',
    summary: "The walkthrough's weather server: get_weather, calculate, get_time and a nested-input search.",
    transport: 'stdio',
    contents: [
      '`src/weather.tools.ts`: `get_weather` (structured output), `calculate` (an enum), `get_time` (the call context).',
      '`src/weather.service.ts`: a stand-in weather API, injected by typedi.',
      '`src/notes.tools.ts` and `src/notes.dto.ts`: `search_notes`, whose nested input is a class-validator DTO.',
      '`src/demo.ts`: a client session over stdio (`npm run demo`).',
    ],
    exampleCall: { tool: 'get_weather', args: { location: 'Tokyo' } },
  },
  http: {
    name: 'http',
    summary: 'A Streamable HTTP server: tools behind bearer-token auth, with a health check.',
    transport: 'http',
    contents: [
      '`src/tasks.tools.ts`: tools that read and change a task list, with the caller from the call context.',
      '`src/tasks.service.ts`: the task store, injected by typedi.',
      '`src/auth.ts`: bearer tokens from `MCP_TOKENS` (`MCP_TOKENS="s3cret=ci" npm start`); without it the HTTP server refuses to start, unless `MCP_ALLOW_ANONYMOUS=1` asks for no auth on purpose. Swap in `jwtVerifier` for OAuth.',
      'Health checks at `/healthz` and `/readyz`, and the OAuth protected-resource metadata, come with the HTTP transport.',
    ],
    exampleCall: { tool: 'add_task', args: { title: 'Write the docs' } },
  },
  full: {
    name: 'full',
    summary: 'Tools, resources, prompts, dependency injection and the call context together.',
    transport: 'stdio',
    contents: [
      '`src/library.tools.ts`: tools that search, lend and reserve books, with DTO input, structured output and a question to the user (elicitation).',
      '`src/library.service.ts` and `src/clock.service.ts`: services injected by typedi; `src/loan-desk.service.ts`: a request-scoped service that knows its caller.',
      '`src/audit.middleware.ts`: middleware around every call, recording what was called and how long it took.',
      '`src/library.dto.ts`: input and output DTOs validated by class-validator.',
      '`src/library.resources.ts`: the catalogue as a resource, and a `library://books/{id}` resource template.',
      '`src/library.prompts.ts`: a `recommend` prompt built from the books on the shelf.',
    ],
    exampleCall: { tool: 'search_books', args: { query: 'dune' } },
  },
};

export function isTemplateName(value: string): value is TemplateName {
  return (TEMPLATE_NAMES as readonly string[]).includes(value);
}

export function isTransport(value: string): value is Transport {
  return (TRANSPORTS as readonly string[]).includes(value);
}
