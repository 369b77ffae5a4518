// #region setup
import { trace, metrics } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { createApp } from '@toolwright/server';
import { WeatherTools } from './weather.tools';

// Register the providers before the app serves: each connection checks once whether there are any.
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: 'http://localhost:4318/v1/traces' }))] }));
metrics.setGlobalMeterProvider(new MeterProvider());

export const app = createApp({ name: 'weather', version: '1.0.0', tools: [WeatherTools] });
// #endregion setup

// #region opt-in
export const verbose = createApp({
  name: 'weather',
  version: '1.0.0',
  tools: [WeatherTools],
  // Arguments and results may hold personal data: recorded only when you say so.
  telemetry: { recordArguments: true, recordResults: true },
});
// #endregion opt-in
