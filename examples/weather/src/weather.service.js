"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.WeatherService = void 0;
const typedi_1 = require("typedi");
/** A stand-in for a real weather API: deterministic readings per city, so tests can assert them. */
let WeatherService = class WeatherService {
    readings = {
        tokyo: { temperature: 22, conditions: 'Partly cloudy' },
        paris: { temperature: 14, conditions: 'Light rain' },
        'new york': { temperature: 18, conditions: 'Sunny' },
    };
    current(city) {
        return this.readings[city.trim().toLowerCase()];
    }
    knownCities() {
        return Object.keys(this.readings);
    }
};
exports.WeatherService = WeatherService;
exports.WeatherService = WeatherService = __decorate([
    (0, typedi_1.Service)()
], WeatherService);
