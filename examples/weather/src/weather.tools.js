"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.WeatherTools = void 0;
const core_1 = require("@toolwright/core");
const typedi_1 = require("typedi");
const weather_dto_1 = require("./weather.dto");
const weather_service_1 = require("./weather.service");
const OPERATIONS = ['add', 'subtract', 'multiply', 'divide'];
let WeatherTools = class WeatherTools {
    weather;
    constructor(weather) {
        this.weather = weather;
    }
    getWeather(location) {
        const now = this.weather.current(location);
        if (!now)
            throw new core_1.ToolError(`No weather data for '${location}'. Known cities: ${this.weather.knownCities().join(', ')}.`);
        return { location, ...now, unit: 'celsius' };
    }
    calculate(operation, a, b) {
        if (operation === 'divide' && b === 0)
            throw new core_1.ToolError('Division by zero: b must not be 0 when dividing.');
        const result = { add: a + b, subtract: a - b, multiply: a * b, divide: a / b }[operation];
        return `${a} ${operation} ${b} = ${result}`;
    }
    getTime(ctx) {
        ctx.log.debug('time requested');
        return new Date().toISOString();
    }
};
exports.WeatherTools = WeatherTools;
__decorate([
    (0, core_1.Tool)({
        title: 'Current weather',
        description: 'Get current weather for a city. Use when the user asks about temperature or conditions.',
        annotations: { readOnlyHint: true, openWorldHint: true },
    }),
    __param(0, (0, core_1.Param)('location', { description: "City name, e.g. 'Tokyo'", minLength: 1 })),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", weather_dto_1.WeatherReport)
], WeatherTools.prototype, "getWeather", null);
__decorate([
    (0, core_1.Tool)({
        description: 'Perform arithmetic precisely. Use for any math the user needs computed.',
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    }),
    __param(0, (0, core_1.Param)('operation', { enum: OPERATIONS, description: 'The operation to apply' })),
    __param(1, (0, core_1.Param)('a', { description: 'First operand' })),
    __param(2, (0, core_1.Param)('b', { description: 'Second operand' })),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Number, Number]),
    __metadata("design:returntype", String)
], WeatherTools.prototype, "calculate", null);
__decorate([
    (0, core_1.Tool)({
        description: 'Get the current server time in UTC (ISO 8601). Use when the user asks what time it is.',
        annotations: { readOnlyHint: true, openWorldHint: false },
    }),
    __param(0, (0, core_1.Ctx)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", String)
], WeatherTools.prototype, "getTime", null);
exports.WeatherTools = WeatherTools = __decorate([
    (0, typedi_1.Service)(),
    __metadata("design:paramtypes", [weather_service_1.WeatherService])
], WeatherTools);
