'use strict';
// Preloaded by the Toolwright target when BENCH_TELEMETRY=1 (`node -r ./bench/telemetry.js ...`):
// registers a tracer provider and a meter provider, so every request makes a span and a
// histogram point. Spans go to a processor that drops them once ended (the cost measured is
// Toolwright's and the SDK's span work, not an exporter's network I/O).
const { context, metrics, trace } = require('@opentelemetry/api');
const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');
const { BasicTracerProvider } = require('@opentelemetry/sdk-trace-base');
const { MeterProvider } = require('@opentelemetry/sdk-metrics');

const dropEnded = { onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} };
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [dropEnded] }));
metrics.setGlobalMeterProvider(new MeterProvider());
