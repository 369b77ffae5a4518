// #region quickstart
import 'reflect-metadata';
import { Param, Tool, ToolError } from '@toolwright/core';
import { createApp } from '@toolwright/server';

export class ConverterTools {
  @Tool({ description: 'Convert a temperature between Celsius and Fahrenheit. Use for any temperature conversion.' })
  convertTemperature(
    @Param('value', { description: 'The temperature to convert' }) value: number,
    @Param('to', { enum: ['celsius', 'fahrenheit'], description: 'The unit to convert to' }) to: 'celsius' | 'fahrenheit',
  ) {
    if (!Number.isFinite(value)) throw new ToolError('value must be a finite number.');
    const converted = to === 'fahrenheit' ? (value * 9) / 5 + 32 : ((value - 32) * 5) / 9;
    return `${converted.toFixed(1)} °${to === 'fahrenheit' ? 'F' : 'C'}`;
  }
}

async function main() {
  const app = await createApp({ name: 'converter', version: '1.0.0', tools: [ConverterTools] });
  await app.listen({ transport: 'stdio' });
}

main().catch((error: unknown) => {
  console.error(error); // stderr: stdout carries the protocol
  process.exit(1);
});
// #endregion quickstart
