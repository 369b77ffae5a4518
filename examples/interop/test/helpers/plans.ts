import type { Step } from './runDriver';

/** The calls every client makes on the weather example: the list, a good call, a tool error and bad arguments, flat and nested. */
export const WEATHER_STEPS: readonly Step[] = [
  { op: 'listTools' },
  { op: 'callTool', name: 'get_weather', arguments: { location: 'Tokyo' } },
  { op: 'callTool', name: 'get_weather', arguments: { location: 'Atlantis' } },
  { op: 'callTool', name: 'calculate', arguments: { operation: 'pow', a: '2' } },
  { op: 'callTool', name: 'search_notes', arguments: { query: 'x', filters: { tags: ['a', 7], extra: 1 }, limit: 0 } },
];

export const WEATHER_TOOLS = ['get_weather', 'calculate', 'get_time', 'search_notes'];

export const TOKYO = { location: 'Tokyo', temperature: 22, conditions: 'Partly cloudy', unit: 'celsius' };

export const ATLANTIS = "No weather data for 'Atlantis'. Known cities: tokyo, paris, new york.";

/** The server's answer to the bad calculate call: one line per field. */
export const BAD_CALCULATE = [
  "Invalid arguments for tool 'calculate':",
  '- b: is required',
  '- operation: must be one of: "add", "subtract", "multiply", "divide" (got "pow")',
  '- a: must be a number (got string "2")',
].join('\n');

/** The server's answer to the bad search_notes call: nested paths. */
export const BAD_SEARCH = [
  "Invalid arguments for tool 'search_notes':",
  '- filters.tags[1]: must be a string (got number 7)',
  '- filters.extra: is not allowed (unknown property)',
  '- limit: must be at least 1',
];

/** The full example's resources and prompt, for the clients that read them. */
export const FULL_STEPS: readonly Step[] = [
  { op: 'listResources' },
  { op: 'readResource', uri: 'library://books/1' },
  { op: 'readResource', uri: 'library://books/999' },
  { op: 'listPrompts' },
  { op: 'getPrompt', name: 'recommend', arguments: { genre: 'science' } },
  { op: 'getPrompt', name: 'recommend', arguments: { genre: 'poetry' } },
];

export const MISSING_BOOK = 'There is no book 999. Read library://catalogue for the ids.';

export const BAD_PROMPT = 'Invalid arguments for prompt \'recommend\':\n- genre: must be one of: "fiction", "science", "history" (got "poetry")';
