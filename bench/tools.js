'use strict';
// The tools/list entries of the weather example, as plain JSON, used by
// bench/raw-server.js. inputSchemas must stay identical to what the Toolwright
// weather server (examples/weather/dist/server.js) lists: check with
// `node bench/check-same-tools.js`.
//
// get_weather declares the same outputSchema as the Toolwright example and returns
// structuredContent plus the same JSON as text, as the spec asks of such a tool.

const TOOLS = [
  {
    name: 'get_weather',
    title: 'Current weather',
    description: 'Get current weather for a city. Use when the user asks about temperature or conditions.',
    inputSchema: {
      type: 'object',
      properties: {
        location: { type: 'string', minLength: 1, description: "City name, e.g. 'Tokyo'" },
      },
      required: ['location'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        location: { type: 'string', description: 'The city, as asked for.' },
        temperature: { type: 'number', description: 'Temperature in degrees Celsius.' },
        conditions: { type: 'string', description: "A short description, e.g. 'Sunny'." },
        unit: { type: 'string', enum: ['celsius'] },
      },
      required: ['location', 'temperature', 'conditions', 'unit'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  {
    name: 'calculate',
    description: 'Perform arithmetic precisely. Use for any math the user needs computed.',
    inputSchema: {
      type: 'object',
      properties: {
        operation: {
          type: 'string',
          enum: ['add', 'subtract', 'multiply', 'divide'],
          description: 'The operation to apply',
        },
        a: { type: 'number', description: 'First operand' },
        b: { type: 'number', description: 'Second operand' },
      },
      required: ['operation', 'a', 'b'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'get_time',
    description: 'Get the current server time in UTC (ISO 8601). Use when the user asks what time it is.',
    inputSchema: { type: 'object', additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'search_notes',
    description: "Search the user's notes by text, filtered by tags. Returns matching notes with a relevance score.",
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'Words to look for in the note text.' },
        filters: {
          type: 'object',
          properties: {
            tags: {
              type: 'array',
              maxItems: 10,
              items: { type: 'string' },
              description: 'Only notes carrying all of these tags.',
            },
            minScore: { type: 'number', maximum: 1, minimum: 0, description: 'Minimum relevance score, 0 to 1.' },
          },
          required: ['tags'],
          additionalProperties: false,
          description: 'Narrow the search.',
        },
        limit: { type: 'integer', maximum: 50, minimum: 1, description: 'Most results to return.', default: 10 },
      },
      required: ['query', 'filters'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

module.exports = { TOOLS };
