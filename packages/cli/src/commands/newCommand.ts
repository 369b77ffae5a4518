import { basename, relative, resolve } from 'node:path';
import type { Command, ParsedArgs } from '../cli/Command';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { booleanOption, stringOption } from '../cli/parseCommandArgs';
import { ask, choose } from '../cli/prompt';
import { UsageError } from '../cli/UsageError';
import { checkoutRoot } from '../generate/checkoutRoot';
import { generateProject } from '../generate/generateProject';
import { packLocalPackages } from '../generate/packLocalPackages';
import { cliVersion } from '../generate/packageRoot';
import { TOKENS_START } from '../generate/readme';
import { isTemplateName, isTransport, TEMPLATE_NAMES, TEMPLATES, TRANSPORTS, type TemplateName } from '../generate/templates';
import { suggestProjectName, validateProjectName } from '../generate/validateProjectName';
import { blockingEntries, checkWritable, writeProject } from '../generate/writeProject';
import { didYouMean } from '../cli/didYouMean';
import { shellQuoted } from '../cli/shellQuoted';

/** How `npm create toolwright` runs this command: everything after `--` reaches it, options included. */
const NPM_CREATE = 'npm create toolwright@latest --';

export const newCommand: Command = {
  name: 'new',
  summary: 'Create a server project from a template',
  options: {
    template: { type: 'string', short: 't' },
    transport: { type: 'string' },
    name: { type: 'string', short: 'n' },
    force: { type: 'boolean', short: 'f' },
    local: { type: 'boolean' },
    registry: { type: 'boolean' },
    'pack-dir': { type: 'string' },
    workspace: { type: 'string' },
  },
  help: (invocation) => `Usage: ${invocation} <dir> [options]

Create a complete MCP server project in <dir>: package.json with pinned dependencies,
tsconfig with decorators on, src/ with tool classes and an injected service, an
end-to-end jest test, a README with client configuration, and .gitignore.

Options:
  -t, --template <name>     ${TEMPLATE_NAMES.join(' | ')} (default: minimal)
${TEMPLATE_NAMES.map((t) => `                              ${t.padEnd(8)} ${TEMPLATES[t].summary}`).join('\n')}
      --transport <kind>    stdio | http: what 'npm start' serves and the README configures
                            (default: the template's; the server accepts both)
  -n, --name <name>         npm package name, also the server name (default: the folder's name)
  -f, --force               write into a non-empty folder, overwriting files of the same name
      --local               depend on this Toolwright checkout instead of the npm registry:
                            packs its packages into <dir>/local-packages (run 'npm run build' first).
                            The default when this toolwright runs from a checkout (not node_modules)
      --registry            depend on the npm registry's @toolwright packages at this CLI's
                            version, even when this toolwright runs from a checkout ('npm
                            install' then fails with E404 while that version is unpublished)
      --pack-dir <folder>   with --local: pack into this folder instead; projects sharing it
                            share the tarballs (packed once, repacked after a rebuild)
      --workspace <root>    the project lives inside the Toolwright monorepo at <root>: its
                            tsconfig extends the repo's base config (used for examples/)
  -h, --help                show this help

Missing answers are asked for on a terminal; otherwise the defaults apply (a missing <dir>
is an error). Nothing is written when an answer is invalid.

Exit codes: 0 created, 2 invalid arguments or a non-empty folder.

Examples:
  ${invocation} my-server
  ${invocation} weather-server --template weather --name @acme/weather${invocation === 'toolwright new' ? `\n  ${NPM_CREATE} my-server --template http` : ''}`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    if (args.positionals.length > 1) throw new UsageError(`Expected one folder, got ${args.positionals.length}: ${args.positionals.join(' ')}. Quote a path with spaces.`);
    let template = checked(stringOption(args, 'template'), isTemplateName, 'template', TEMPLATE_NAMES);
    let transport = checked(stringOption(args, 'transport'), isTransport, 'transport', TRANSPORTS);
    let name = stringOption(args, 'name');
    if (name !== undefined) {
      const problem = validateProjectName(name);
      if (problem) throw new UsageError(`Invalid --name '${name}': ${problem}.`);
    }

    let dir = args.positionals[0];
    if (dir === undefined) {
      if (!io.interactive) throw new UsageError(`Missing <dir>: where to create the project, e.g. '${args.invocation} my-server'.`);
      dir = await ask(io, 'Project folder', 'my-mcp-server');
    }
    if (dir.trim() === '') throw new UsageError(`The folder is an empty string: name one, e.g. '${args.invocation} my-server' ('.' for this folder).`);
    const target = resolve(io.cwd, dir);
    template ??= io.interactive && args.values.template === undefined ? await askTemplate(io) : 'minimal';
    name ??= await defaultName(io, target);
    transport ??= TEMPLATES[template].transport;

    const blocking = await blockingEntries(target);
    if (blocking.length > 0 && !booleanOption(args, 'force')) {
      const shown = blocking.slice(0, 5).join(', ') + (blocking.length > 5 ? `, and ${blocking.length - 5} more` : '');
      throw new UsageError(`${target} is not empty (${shown}). Choose another folder, or pass --force to write into it (files with the same names are overwritten).`);
    }

    const workspace = stringOption(args, 'workspace');
    const workspaceRoot = workspace === undefined ? undefined : relative(target, resolve(io.cwd, workspace)).split('\\').join('/') || '.';
    const options = { template, transport, packageName: name, toolwrightVersion: cliVersion(), workspaceRoot };
    await checkWritable(target, generateProject(options)); // before packing into the folder
    const local = usesLocalPackages(args, workspace !== undefined, io);
    if (stringOption(args, 'pack-dir') !== undefined && !local) throw new UsageError('--pack-dir only applies with --local.');
    let localPackages;
    if (local) {
      io.stderr.write(io.err.dim('Packing the local Toolwright packages...\n'));
      const packDir = stringOption(args, 'pack-dir');
      localPackages = await packLocalPackages(target, packDir === undefined ? undefined : resolve(io.cwd, packDir));
    }
    const files = generateProject({ ...options, localPackages });
    await writeProject(target, files);

    const shown = relative(io.cwd, target) || '.';
    const o = io.out;
    println(io.stdout, `${o.green('Created')} ${o.bold(name)} from the ${o.bold(template)} template in ${shown} (${files.length} files).`);
    println(io.stdout);
    println(io.stdout, 'Next:');
    if (shown !== '.') println(io.stdout, `  cd ${shellQuoted(shown)}`);
    println(io.stdout, '  npm install');
    println(io.stdout, '  npm test');
    // The http template's server refuses to serve HTTP without tokens (or MCP_ALLOW_ANONYMOUS=1).
    const start = template === 'http' ? `  ${TOKENS_START}` : '  npm start';
    const servesHttp = transport === 'http' || TEMPLATES[template].host?.scripts.start !== undefined;
    println(io.stdout, `${start}${servesHttp ? '        # http://127.0.0.1:3000/mcp' : '        # or connect a client: npx toolwright config claude'}`);
    return ExitCode.Ok;
  },
};

/**
 * Whether the project depends on tarballs of this checkout: asked for with --local, or by
 * default when this CLI runs from a checkout, whose version may not be published (a project
 * pinned to it would fail 'npm install' with E404). --registry and --workspace opt out.
 */
function usesLocalPackages(args: ParsedArgs, inWorkspace: boolean, io: Io): boolean {
  if (booleanOption(args, 'local') && booleanOption(args, 'registry')) throw new UsageError('Pass --local or --registry, not both.');
  if (booleanOption(args, 'local')) return true;
  if (inWorkspace) return false;
  const root = checkoutRoot();
  if (booleanOption(args, 'registry')) {
    if (root !== undefined)
      println(
        io.stderr,
        io.err.yellow(
          `--registry: the project depends on @toolwright/*@${cliVersion()} from the npm registry. This toolwright runs from a checkout, whose version may not be published: if 'npm install' fails with E404, create the project without --registry (tarballs of this checkout).`,
        ),
      );
    return false;
  }
  if (root === undefined) return false;
  println(
    io.stderr,
    io.err.dim(
      `This toolwright runs from the checkout ${root}, whose packages may not be on the npm registry: the project depends on tarballs of them (as with --local). Once @toolwright/*@${cliVersion()} is published, --registry depends on it instead.`,
    ),
  );
  return true;
}

function checked<T extends string>(value: string | undefined, is: (v: string) => v is T, flag: string, allowed: readonly string[]): T | undefined {
  if (value === undefined) return undefined;
  if (!is(value)) throw new UsageError(`Unknown --${flag} '${value}'. Use one of: ${allowed.join(', ')}.${didYouMean(value, allowed)}`);
  return value;
}

function askTemplate(io: Io): Promise<TemplateName> {
  return choose(
    io,
    'Template',
    TEMPLATE_NAMES.map((t) => ({ value: t, hint: TEMPLATES[t].summary })),
    'minimal',
  );
}

/** The folder's name, when it makes a valid package name; otherwise ask (terminal) or explain. */
async function defaultName(io: Io, target: string): Promise<string> {
  const fromDir = basename(target);
  if (validateProjectName(fromDir) === undefined && !io.interactive) return fromDir;
  if (!io.interactive) {
    throw new UsageError(`The folder name '${fromDir}' is not a valid package name (${validateProjectName(fromDir)}). Pass --name <name>.`);
  }
  const suggestion = validateProjectName(fromDir) === undefined ? fromDir : (suggestProjectName(fromDir) ?? 'my-mcp-server');
  for (;;) {
    const answer = await ask(io, 'Package name', suggestion);
    const problem = validateProjectName(answer);
    if (!problem) return answer;
    println(io.stderr, `  ${problem}.`);
  }
}
