import type { TemplateName, Transport } from './templates';
import type { ToolwrightPackage } from './versions';

/** Everything that decides a generated project's files. Same options, same bytes. */
export interface ProjectOptions {
  readonly template: TemplateName;
  readonly transport: Transport;
  /** The npm package name; the server name is its unscoped part. */
  readonly packageName: string;
  /** The version of the Toolwright packages to depend on. */
  readonly toolwrightVersion: string;
  /**
   * Where the Toolwright packages come from: the npm registry (default), or tarballs packed
   * from a local checkout (`file:` paths relative to the project), so a project can be
   * installed and tested before anything is published.
   */
  readonly localPackages?: Readonly<Record<ToolwrightPackage, string>>;
  /**
   * Set for projects that live inside the Toolwright monorepo (the examples): the relative
   * path to the repo root. tsconfig then extends the repo's base config and references the
   * local packages, so the root `npm run build` builds the project with everything else.
   */
  readonly workspaceRoot?: string;
}

/** One file of a generated project. Paths use '/' and are relative to the project folder. */
export interface GeneratedFile {
  readonly path: string;
  readonly content: string;
}
