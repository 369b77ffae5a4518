"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createWeatherApp = createWeatherApp;
const server_1 = require("@toolwright/server");
const notes_tools_1 = require("./notes.tools");
const weather_tools_1 = require("./weather.tools");
/** The app: built once, served over stdio or HTTP by server.ts, or in memory by tests. */
function createWeatherApp() {
    return (0, server_1.createApp)({
        name: 'weather',
        version: '0.1.0',
        title: 'Weather',
        instructions: 'Call get_weather once per city. Use calculate for arithmetic instead of computing in your head.',
        tools: [weather_tools_1.WeatherTools, notes_tools_1.NotesTools],
    });
}
