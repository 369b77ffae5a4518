'use strict';
// The SDK written the way its own docs teach (see handlers.js): an McpServer per request with the
// same four tools, each registered with zod schemas (registerTool), on the SDK v2's
// createMcpHandler(...).fetch, both eras. The tools do the same work as the hand-written ones
// (bench/rawTools.js `work`); zod checks their arguments, and get_weather's result. It is given the
// SDK's and zod's exports, as sdkHandler.js is.

function sdkZod({ McpServer, createMcpHandler }, { z }) {
  const { TOOLS } = require('../tools.js');
  const { work } = require('../rawTools.js');
  const listed = Object.fromEntries(TOOLS.map(({ name, title, description, annotations }) => [name, { title, description, annotations }]));
  const report = z.strictObject({
    location: z.string().describe('The city, as asked for.'),
    temperature: z.number().describe('Temperature in degrees Celsius.'),
    conditions: z.string().describe("A short description, e.g. 'Sunny'."),
    unit: z.enum(['celsius']),
  });
  const inputs = {
    get_weather: z.strictObject({ location: z.string().min(1).describe("City name, e.g. 'Tokyo'") }),
    calculate: z.strictObject({
      operation: z.enum(['add', 'subtract', 'multiply', 'divide']).describe('The operation to apply'),
      a: z.number().describe('First operand'),
      b: z.number().describe('Second operand'),
    }),
    get_time: z.strictObject({}),
    search_notes: z.strictObject({
      query: z.string().min(1).describe('Words to look for in the note text.'),
      filters: z
        .strictObject({
          tags: z.array(z.string()).max(10).describe('Only notes carrying all of these tags.'),
          minScore: z.number().min(0).max(1).optional().describe('Minimum relevance score, 0 to 1.'),
        })
        .describe('Narrow the search.'),
      limit: z.number().int().min(1).max(50).default(10).describe('Most results to return.'),
    }),
  };
  const newServer = () => {
    const server = new McpServer({ name: 'sdk-zod-weather', version: '1.0.0' });
    for (const [name, inputSchema] of Object.entries(inputs)) {
      const outputSchema = name === 'get_weather' ? report : undefined;
      server.registerTool(name, { ...listed[name], inputSchema, ...(outputSchema && { outputSchema }) }, (args) => work[name](args));
    }
    return server;
  };
  let handler;
  return (request) => {
    handler ??= createMcpHandler(newServer, { legacy: 'stateless' });
    return handler.fetch(request);
  };
}

module.exports = { sdkZod };
