import { trace } from '@opentelemetry/api';
import { Param, Tool } from '@toolwright/core';

// #region child
export class WeatherTools {
  @Tool({ description: 'Current weather for a city.', annotations: { readOnlyHint: true } })
  async getWeather(@Param('city') city: string) {
    // The request's span is active while the method runs: this span is its child.
    return trace.getTracer('weather').startActiveSpan('forecast lookup', async (span) => {
      try {
        return { city, temperature: 21 };
      } finally {
        span.end();
      }
    });
  }
}
// #endregion child
