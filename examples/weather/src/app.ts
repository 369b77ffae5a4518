import { createApp, type App } from '@toolwright/server';
import { NotesTools } from './notes.tools';
import { WeatherTools } from './weather.tools';

/** The app: built once, served over stdio or HTTP by server.ts, or in memory by tests. */
export function createWeatherApp(): Promise<App> {
  return createApp({
    name: 'weather',
    version: '0.1.0',
    title: 'Weather',
    instructions: 'Call get_weather once per city. Use calculate for arithmetic instead of computing in your head.',
    tools: [WeatherTools, NotesTools],
  });
}
