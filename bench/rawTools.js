'use strict';
// The hand-written tools of the raw benchmark servers (bench/raw-server.js on SDK v1,
// bench/raw-server-v2.js on SDK v2): the same 4 tools as the Toolwright weather example,
// arguments validated by hand (types, required, enum, ranges, unknown keys). No SDK import,
// so both servers do exactly the same work per call. `work` is what each tool does once its
// arguments are valid (bench/edge/sdkZodHandler.js validates with zod instead).

// Same data and work as the weather example, so both servers answer alike.
const READINGS = {
  tokyo: { temperature: 22, conditions: 'Partly cloudy' },
  paris: { temperature: 14, conditions: 'Light rain' },
  'new york': { temperature: 18, conditions: 'Sunny' },
};

const NOTES = [
  { id: 1, text: 'Pack an umbrella for Paris', tags: ['travel', 'weather'] },
  { id: 2, text: 'Tokyo trip: check the forecast', tags: ['travel', 'weather', 'japan'] },
  { id: 3, text: 'Buy a forecast subscription', tags: ['shopping'] },
];

class ArgError extends Error {}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);

function checkObject(v, path, allowed, required) {
  if (!isObject(v)) throw new ArgError(`${path} must be an object`);
  for (const k of Object.keys(v)) {
    if (!allowed.includes(k)) throw new ArgError(`${path} has unknown property '${k}'`);
  }
  for (const k of required) {
    if (v[k] === undefined) throw new ArgError(`${path}.${k} is required`);
  }
}

function checkString(v, path, minLength = 0) {
  if (typeof v !== 'string') throw new ArgError(`${path} must be a string`);
  if (v.length < minLength) throw new ArgError(`${path} must be at least ${minLength} character(s) long`);
}

function checkNumber(v, path) {
  if (!isNumber(v)) throw new ArgError(`${path} must be a number`);
}

const text = (t) => ({ content: [{ type: 'text', text: t }] });
const errorResult = (t) => ({ content: [{ type: 'text', text: t }], isError: true });

/** Each tool's work on arguments already checked. */
const work = {
  get_weather({ location }) {
    const now = READINGS[location.trim().toLowerCase()];
    if (!now) return errorResult(`No weather data for '${location}'. Known cities: ${Object.keys(READINGS).join(', ')}.`);
    const report = { location, ...now, unit: 'celsius' };
    return { content: [{ type: 'text', text: JSON.stringify(report) }], structuredContent: report };
  },

  calculate({ operation, a, b }) {
    switch (operation) {
      case 'add':
        return text(String(a + b));
      case 'subtract':
        return text(String(a - b));
      case 'multiply':
        return text(String(a * b));
      default:
        if (b === 0) return errorResult('Division by zero');
        return text(String(a / b));
    }
  },

  get_time() {
    return text(new Date().toISOString());
  },

  search_notes({ query, filters, limit }) {
    const words = query.toLowerCase().split(/\s+/);
    const minScore = filters.minScore ?? 0;
    const hits = NOTES.filter((n) => filters.tags.every((t) => n.tags.includes(t)))
      .map((n) => ({ ...n, score: words.filter((w) => n.text.toLowerCase().includes(w)).length / words.length }))
      .filter((n) => n.score > 0 && n.score >= minScore)
      .slice(0, limit ?? 10);
    return text(JSON.stringify(hits));
  },
};

const handlers = {
  get_weather(args) {
    checkObject(args, 'arguments', ['location'], ['location']);
    checkString(args.location, 'arguments.location', 1);
    return work.get_weather(args);
  },

  calculate(args) {
    checkObject(args, 'arguments', ['operation', 'a', 'b'], ['operation', 'a', 'b']);
    const { operation, a, b } = args;
    if (!['add', 'subtract', 'multiply', 'divide'].includes(operation)) {
      throw new ArgError('arguments.operation must be one of add, subtract, multiply, divide');
    }
    checkNumber(a, 'arguments.a');
    checkNumber(b, 'arguments.b');
    return work.calculate(args);
  },

  get_time(args) {
    checkObject(args, 'arguments', [], []);
    return work.get_time();
  },

  search_notes(args) {
    checkObject(args, 'arguments', ['query', 'filters', 'limit'], ['query', 'filters']);
    checkString(args.query, 'arguments.query', 1);
    const f = args.filters;
    checkObject(f, 'arguments.filters', ['tags', 'minScore'], ['tags']);
    if (!Array.isArray(f.tags)) throw new ArgError('arguments.filters.tags must be an array');
    if (f.tags.length > 10) throw new ArgError('arguments.filters.tags must have at most 10 items');
    f.tags.forEach((t, i) => checkString(t, `arguments.filters.tags[${i}]`));
    if (f.minScore !== undefined) {
      checkNumber(f.minScore, 'arguments.filters.minScore');
      if (f.minScore < 0 || f.minScore > 1) throw new ArgError('arguments.filters.minScore must be between 0 and 1');
    }
    if (args.limit !== undefined) {
      if (!Number.isInteger(args.limit)) throw new ArgError('arguments.limit must be an integer');
      if (args.limit < 1 || args.limit > 50) throw new ArgError('arguments.limit must be between 1 and 50');
    }
    return work.search_notes(args);
  },
};

/** Runs tool `name`; undefined when there is no such tool (the server answers with its SDK's error). */
function callTool(name, args) {
  const handler = Object.prototype.hasOwnProperty.call(handlers, name) ? handlers[name] : undefined;
  if (!handler) return undefined;
  try {
    return handler(args ?? {});
  } catch (err) {
    if (err instanceof ArgError) return errorResult(`Invalid arguments: ${err.message}`);
    throw err;
  }
}

module.exports = { callTool, work };
