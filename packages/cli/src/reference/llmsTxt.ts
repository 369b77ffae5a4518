import { count } from '../cli/count';
import type { Contract } from '../contract/Contract';
import { anchors } from './anchors';
import { markdownText } from './markdownText';

const firstLine = (text: string | undefined): string => (text ?? '').split('\n')[0].trim();

/**
 * An llms.txt (llmstxt.org) for the server: a title, a one-line summary, and one link per
 * tool, resource and prompt into the Markdown reference (to the id its heading carries), with
 * its description. What the server sent shows as text (markdownText), never as a link target.
 */
export function llmsTxt(contract: Contract, referenceFile: string): string {
  const { server, tools, resources, resourceTemplates, prompts } = contract;
  const ids = anchors(contract);
  const link = (heading: string, id: string, text: string | undefined) => `- [${markdownText(heading)}](${referenceFile}#${id})${firstLine(text) ? `: ${markdownText(firstLine(text))}` : ''}`;
  const sections = [
    `# ${markdownText(server.name, 'heading')}`,
    `> An MCP server (version ${markdownText(server.version)}) with ${count(tools.length, 'tool')}, ${count(resources.length + resourceTemplates.length, 'resource')} and ${count(prompts.length, 'prompt')}. Each link leads to its parameters and schema.`,
  ];
  if (tools.length > 0) sections.push(`## Tools\n\n${tools.map((t, i) => link(t.name, ids.tools[i], t.description)).join('\n')}`);
  const allResources = [...resources.map((r, i) => link(r.uri, ids.resources[i], r.description)), ...resourceTemplates.map((r, i) => link(r.uriTemplate, ids.resourceTemplates[i], r.description))];
  if (allResources.length > 0) sections.push(`## Resources\n\n${allResources.join('\n')}`);
  if (prompts.length > 0) sections.push(`## Prompts\n\n${prompts.map((p, i) => link(p.name, ids.prompts[i], p.description)).join('\n')}`);
  return `${sections.join('\n\n')}\n`;
}
