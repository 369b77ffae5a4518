'use strict';
// Toolwright's side of bench/edge (see handlers.js): the weather example's four tools (tsc's output,
// decorator metadata included; search_notes takes a DTO with @Type) through createFetchHandler,
// stateless, built on the first request as a Worker must.
require('reflect-metadata');

function toolwright() {
  const { createApp } = require('@toolwright/server');
  const { createFetchHandler } = require('@toolwright/server/fetch');
  const { WeatherTools } = require('../../examples/weather/dist/weather.tools.js');
  const { NotesTools } = require('../../examples/weather/dist/notes.tools.js');
  let handler;
  return (request) => {
    handler ??= createApp({ name: 'weather', version: '1.0.0', tools: [WeatherTools, NotesTools] }).then((app) => createFetchHandler(app, { stateless: true }));
    return handler.then((serve) => serve(request));
  };
}

module.exports = { toolwright };
