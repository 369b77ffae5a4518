import { Ctx, Param, Tool, ToolError, type ToolContext } from '@toolwright/core';
import { Service } from 'typedi';
import { WeatherReport } from './weather.dto';
import { WeatherService } from './weather.service';

const OPERATIONS = ['add', 'subtract', 'multiply', 'divide'] as const;
type Operation = (typeof OPERATIONS)[number];

@Service()
export class WeatherTools {
  constructor(private readonly weather: WeatherService) {}

  @Tool({
    title: 'Current weather',
    description: 'Get current weather for a city. Use when the user asks about temperature or conditions.',
    annotations: { readOnlyHint: true, openWorldHint: true },
  })
  getWeather(@Param('location', { description: "City name, e.g. 'Tokyo'", minLength: 1 }) location: string): WeatherReport {
    const now = this.weather.current(location);
    if (!now) throw new ToolError(`No weather data for '${location}'. Known cities: ${this.weather.knownCities().join(', ')}.`);
    return { location, ...now, unit: 'celsius' };
  }

  @Tool({
    description: 'Perform arithmetic precisely. Use for any math the user needs computed.',
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  })
  calculate(
    @Param('operation', { enum: OPERATIONS, description: 'The operation to apply' }) operation: Operation,
    @Param('a', { description: 'First operand' }) a: number,
    @Param('b', { description: 'Second operand' }) b: number,
  ): string {
    if (operation === 'divide' && b === 0) throw new ToolError('Division by zero: b must not be 0 when dividing.');
    const result = { add: a + b, subtract: a - b, multiply: a * b, divide: a / b }[operation];
    return `${a} ${operation} ${b} = ${result}`;
  }

  @Tool({
    description: 'Get the current server time in UTC (ISO 8601). Use when the user asks what time it is.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  getTime(@Ctx() ctx: ToolContext): string {
    ctx.log.debug('time requested');
    return new Date().toISOString();
  }
}
