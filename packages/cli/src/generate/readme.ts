import { CLIENTS, CLIENT_NAMES, clientConfig, type ServerLaunch } from '../config/clientConfig';
import { HTTP_PORT, HTTP_URL } from './projectFiles';
import type { ProjectOptions } from './ProjectOptions';
import { projectNames } from './projectNames';
import { clientServerName } from '../config/clientServerName';
import { TEMPLATES } from './templates';

/** The http template's server starts only with tokens (see its src/auth.ts): `npm start` and `npm run dev` alike. */
const TOKENS = 'MCP_TOKENS="s3cret=ci"';
export const TOKENS_START = `${TOKENS} npm start`;

/** What the http template's README says about its tokens: the server fails closed without them. */
const ANONYMOUS_NOTE =
  `Over HTTP the server asks every caller for a bearer token from \`MCP_TOKENS\` (\`${TOKENS_START}\`; clients send \`Authorization: Bearer s3cret\`). ` +
  'Without `MCP_TOKENS` it refuses to start; `MCP_ALLOW_ANONYMOUS=1 npm start` (or `MCP_ALLOW_ANONYMOUS=1 npm run dev`) serves without authentication on purpose, for a client on this machine.';

/** The snippets below name the URL only: the http template's server also wants the token. */
const TOKEN_HEADERS =
  'The server asks for a token: each snippet sends `Authorization: Bearer` with the token in the `MCP_TOKEN` environment variable (`s3cret` above). Cursor reads it from its environment; VS Code asks for it once and keeps it as a secret; for Claude Desktop, put it in the `env` block. ';
/** The header the http template's client snippets send: the token from a variable, never written into a config. */
const TOKEN_HEADER = { Authorization: 'Bearer ${env:MCP_TOKEN}' };

/** The generated project's README: run it, test it, connect a client, find your way around. */
export function readme(options: ProjectOptions): string {
  const names = projectNames(options.packageName);
  const template = TEMPLATES[options.template];
  const http = options.transport === 'http';
  const stdioLaunch = (path: string): ServerLaunch => ({ kind: 'stdio', command: 'node', args: [path] });
  const launchFor = (client: (typeof CLIENT_NAMES)[number]): ServerLaunch =>
    http
      ? { kind: 'http', url: HTTP_URL, ...(template.name === 'http' && { headers: TOKEN_HEADER }) }
      : stdioLaunch(client === 'vscode' ? '${workspaceFolder}/dist/server.js' : `/absolute/path/to/${names.serverName}/dist/server.js`);
  const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body.trimEnd()}\n\`\`\``;
  const callArgs = JSON.stringify(template.exampleCall.args);
  // Before `npm start` and `npm run dev` of the http template's HTTP server, which starts only with tokens.
  const tokens = template.name === 'http' && http ? `${TOKENS} ` : '';

  const sections = [
    `# ${names.title}\n\n${template.summary} An MCP server built with [Toolwright](https://github.com/toolwright/toolwright).`,
    `## Run it\n\n${fence(
      'sh',
      [
        'npm install',
        'npm run build',
        'npm test',
        // A host whose own start script (the edge Worker) ignores --transport.
        template.host && (http || template.host.scripts.start !== undefined)
          ? template.host.start
          : http
            ? `${tokens}npm start          # Streamable HTTP on ${HTTP_URL}`
            : 'npm start          # serves MCP over stdio: start it from a client, below',
      ].join('\n'),
    )}\n\n${template.host?.dev ?? `\`${tokens}npm run dev\` rebuilds and restarts the server when a file in \`src/\` changes (tsc in watch mode; logs go to stderr).`}${
      http ? '' : `\n\`node dist/server.js --http --port ${HTTP_PORT}\` serves the same tools over Streamable HTTP.`
    }${template.name === 'http' ? `\n\n${ANONYMOUS_NOTE}` : ''}`,
    ...(template.host?.section ? [template.host.section] : []),
    `## Try a tool\n\n${fence(
      'sh',
      [`npx toolwright inspect                 # tools, resources and prompts as a client sees them`, `npx toolwright call dist/server.js ${template.exampleCall.tool} --args '${callArgs}'`].join(
        '\n',
      ),
    )}\n\n\`npm run inspect\` also lints the tool descriptions and schemas for LLM-readiness.`,
    `## Add a tool\n\nA tool is a method with \`@Tool\` in a class that \`tools: [...]\` lists in \`${template.host?.toolsFile ?? 'src/app.ts'}\`: add a method to one of them, or a new class to that list. Its name is the method's in snake_case (\`getForecast\` is \`get_forecast\`); each argument is a \`@Param\`, optional with \`{ optional: true }\` or a \`default\`. Then \`npm run build\` and call it with \`npx toolwright call\`, as above. Test it in \`test/\` as the others are (where a test lists the tools by name, add it there); \`npm run lint\`, part of \`npm test\`, catches what the compiler cannot see, such as a \`?\` on a parameter without \`optional: true\`.`,
    `## Connect a client\n\n${
      http ? `Start the server first (\`${tokens}npm start\`). ${tokens && TOKEN_HEADERS}` : ''
    }\`npx toolwright config claude|cursor|vscode${template.name === 'http' && http ? " --header 'Authorization: Bearer ${env:MCP_TOKEN}'" : ''}\` prints these snippets with this project's real paths.\n\n${CLIENT_NAMES.map(
      (client) =>
        `### ${CLIENTS[client].label}\n\nIn ${CLIENTS[client].file}:\n\n${fence('json', JSON.stringify(clientConfig(client, clientServerName(options.packageName), launchFor(client)), null, 2))}`,
    ).join('\n\n')}`,
    `## What's inside\n\n${[
      template.host?.serverFile ?? '`src/server.ts`: the entry point; serves stdio, or Streamable HTTP with `--http`.',
      template.host?.appFile ?? '`src/app.ts`: builds the app from the tool classes.',
      ...template.contents,
      template.host?.tests ?? '`test/`: end-to-end tests through a real MCP client (`@toolwright/server/testing`), no mocks.',
    ]
      .map((line) => `- ${line}`)
      .join('\n')}`,
    `## Guard the contract\n\nClients depend on your tool names and schemas. Snapshot them, and let CI fail on a breaking change. Both commands start the compiled server, so build first (they warn when \`src/\` is newer than the build):\n\n${fence(
      'sh',
      ['npm run build', 'npx toolwright schema snapshot --out contract.json   # commit this file', 'npx toolwright schema diff contract.json             # exit code 1 on a breaking change'].join(
        '\n',
      ),
    )}`,
  ];
  return `${sections.join('\n\n')}\n`;
}
