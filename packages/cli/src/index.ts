/**
 * @toolwright/cli — the `toolwright` command, and the pieces it is made of for programmatic use
 * (generate projects, diff contracts).
 */
export { runCli } from './runCli';
export type { RunCliOptions } from './runCli';
export { ExitCode } from './cli/ExitCode';
export type { Io } from './cli/Io';
export type { Style } from './cli/style';
export { processIo } from './cli/Io';

export { generateProject } from './generate/generateProject';
export type { GeneratedFile, ProjectOptions } from './generate/ProjectOptions';
export { STANDALONE_TEMPLATE_NAMES, TEMPLATE_NAMES, TEMPLATES, TRANSPORTS } from './generate/templates';
export type { TemplateHost, TemplateName, TemplateInfo, Transport } from './generate/templates';
export { validateProjectName } from './generate/validateProjectName';
export { ADAPTER_DEPENDENCIES, ADAPTER_PACKAGES, DEPENDENCY_VERSIONS, DEV_DEPENDENCY_VERSIONS, TOOLWRIGHT_PACKAGES } from './generate/versions';
export type { ToolwrightPackage } from './generate/versions';

export { clientConfig, CLIENT_NAMES, CLIENTS } from './config/clientConfig';
export type { ClientInfo, ClientName, ServerLaunch } from './config/clientConfig';
