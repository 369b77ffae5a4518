#!/usr/bin/env node
'use strict';
// Toolwright's schema validator against Ajv 2020-12 on the bench's nested input (search_notes):
// Ajv's load time, compile time per schema and time per validated call, as ratios.
// Usage: npm run build && node bench/validator.js
const t0 = process.hrtime.bigint();
const { Ajv2020 } = require('ajv/dist/2020');
const tLoadAjv = Number(process.hrtime.bigint() - t0) / 1e6;
const { compileSchemaValidator } = require('@toolwright/core');
const schema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1 },
    filters: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } }, minScore: { type: 'number', minimum: 0, maximum: 1 } }, additionalProperties: false },
    limit: { type: 'integer', minimum: 1, maximum: 50 },
  },
  required: ['query'],
  additionalProperties: false,
};
const value = { query: 'tokyo forecast', filters: { tags: ['weather'], minScore: 0.5 }, limit: 10 };
const N = 300;
const ajv = new Ajv2020({ strict: false });
let t = process.hrtime.bigint();
for (let i = 0; i < N; i++) ajv.compile({ ...schema, $id: 'x' + i });
const ajvCompile = Number(process.hrtime.bigint() - t) / 1e3 / N;
t = process.hrtime.bigint();
for (let i = 0; i < N; i++) compileSchemaValidator({ ...schema });
const ourCompile = Number(process.hrtime.bigint() - t) / 1e3 / N;
const a = ajv.compile(schema),
  o = compileSchemaValidator(schema);
const M = 2e6;
for (let r = 0; r < 2; r++) {
  t = process.hrtime.bigint();
  for (let i = 0; i < M; i++) a(value);
  const ajvCall = Number(process.hrtime.bigint() - t) / M;
  t = process.hrtime.bigint();
  for (let i = 0; i < M; i++) o(value);
  const ourCall = Number(process.hrtime.bigint() - t) / M;
  if (r)
    console.log({
      tLoadAjvMs: tLoadAjv.toFixed(1),
      compileRatioAjvOverOurs: (ajvCompile / ourCompile).toFixed(1),
      ajvCompileUs: ajvCompile.toFixed(0),
      ourCompileUs: ourCompile.toFixed(0),
      callRatioAjvOverOurs: (ajvCall / ourCall).toFixed(2),
      ajvCallNs: ajvCall.toFixed(0),
      ourCallNs: ourCall.toFixed(0),
    });
}
