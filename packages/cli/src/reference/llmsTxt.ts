import { count } from '../cli/count';
import type { Contract } from '../contract/Contract';
import { anchor } from './anchor';

const firstLine = (text: string | undefined): string => (text ?? '').split('\n')[0].trim();

/**
 * An llms.txt (llmstxt.org) for the server: a title, a one-line summary, and one link per
 * tool, resource and prompt into the Markdown reference, with its description.
 */
export function llmsTxt(contract: Contract, referenceFile: string): string {
  const { server, tools, resources, resourceTemplates, prompts } = contract;
  const link = (heading: string, text: string | undefined) => `- [${heading}](${referenceFile}#${anchor(heading)})${firstLine(text) ? `: ${firstLine(text)}` : ''}`;
  const sections = [
    `# ${server.name}`,
    `> An MCP server (version ${server.version}) with ${count(tools.length, 'tool')}, ${count(resources.length + resourceTemplates.length, 'resource')} and ${count(prompts.length, 'prompt')}. Each link leads to its parameters and schema.`,
  ];
  if (tools.length > 0) sections.push(`## Tools\n\n${tools.map((t) => link(t.name, t.description)).join('\n')}`);
  const allResources = [...resources.map((r) => ({ heading: r.uri, description: r.description })), ...resourceTemplates.map((r) => ({ heading: r.uriTemplate, description: r.description }))];
  if (allResources.length > 0) sections.push(`## Resources\n\n${allResources.map((r) => link(r.heading, r.description)).join('\n')}`);
  if (prompts.length > 0) sections.push(`## Prompts\n\n${prompts.map((p) => link(p.name, p.description)).join('\n')}`);
  return `${sections.join('\n\n')}\n`;
}
