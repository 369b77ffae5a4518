import { lintContract } from '../src/lint/lintContract';
import type { Contract, Schema, ToolEntry } from '../src/contract/Contract';
import { contractOf } from './helpers/contractOf';

const good = 'Get current weather for a city. Use when asked about conditions.';
const lint = (tools: ToolEntry[], extra?: Partial<Contract>) => lintContract(contractOf(tools, extra)).map((i) => `${i.severity} ${i.rule} ${i.where}`);

describe('inspect --lint rules', () => {
  it('passes a well-described tool', () => {
    expect(lint([{ name: 'get_weather', description: good, inputSchema: { type: 'object', properties: { city: { type: 'string', description: "City name, e.g. 'Tokyo'" } } } }])).toEqual([]);
  });

  it('reports missing descriptions on tools and parameters as errors', () => {
    expect(lint([{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }])).toEqual([
      "error tool-description tool 'get_weather'",
      "error param-description tool 'get_weather' input city",
    ]);
  });

  it('warns about vague and short names, short descriptions, untyped and enum parameters without a description', () => {
    expect(lint([{ name: 'run', description: 'Runs it.', inputSchema: { type: 'object', properties: { data: { description: 'The data' }, mode: { type: 'string', enum: ['a', 'b'] } } } }])).toEqual([
      "warning vague-name tool 'run'",
      "warning tool-description tool 'run'",
      "warning vague-name tool 'run' input data",
      "warning untyped tool 'run' input data",
      "error param-description tool 'run' input mode",
      "warning enum-description tool 'run' input mode",
    ]);
  });

  it('reports near-duplicate names and invalid names as errors', () => {
    const tools = [
      { name: 'get_weather', description: good, inputSchema: { type: 'object' } },
      { name: 'getWeather', description: good, inputSchema: { type: 'object' } },
      { name: 'get weather!', description: good, inputSchema: { type: 'object' } },
    ];
    expect(lint(tools)).toEqual(["error duplicate-name tool 'getWeather'", "error tool-name tool 'get weather!'"]);
  });

  it('warns about objects nested deeper than three levels, once, where it happens', () => {
    const level = (inner: Schema): Schema => ({ type: 'object', description: 'a level', properties: { next: inner } });
    const deep = level(level(level(level({ type: 'string', description: 'leaf' }))));
    expect(lint([{ name: 'get_weather', description: good, inputSchema: { type: 'object', properties: { root: deep } } }])).toEqual([
      "warning deep-nesting tool 'get_weather' input root.next.next.next",
    ]);
  });

  it('warns about prompts and resources without descriptions', () => {
    expect(lint([], { prompts: [{ name: 'p', arguments: [{ name: 'x' }] }], resources: [{ uri: 'mem://a', name: 'a' }] })).toEqual([
      "warning prompt-description prompt 'p'",
      "warning param-description prompt 'p' argument x",
      "warning resource-description resource 'mem://a'",
    ]);
  });
});
