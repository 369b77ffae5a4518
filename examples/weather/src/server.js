#!/usr/bin/env node
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
require("reflect-metadata");
const server_1 = require("@toolwright/server");
const app_1 = require("./app");
// `node dist/server.js` serves stdio; `--http --port 3000` serves Streamable HTTP.
(0, app_1.createWeatherApp)()
    .then((app) => app.listen((0, server_1.parseListenArgs)()))
    .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
});
