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
Object.defineProperty(exports, "__esModule", { value: true });
exports.WeatherReport = void 0;
const dto_1 = require("@toolwright/core/dto");
/** What get_weather returns: advertised as its outputSchema, sent as structuredContent. */
class WeatherReport {
    location;
    temperature;
    conditions;
    unit;
}
exports.WeatherReport = WeatherReport;
__decorate([
    (0, dto_1.Property)({ description: 'The city, as asked for.' }),
    (0, dto_1.IsString)(),
    __metadata("design:type", String)
], WeatherReport.prototype, "location", void 0);
__decorate([
    (0, dto_1.Property)({ description: 'Temperature in degrees Celsius.' }),
    (0, dto_1.IsNumber)(),
    __metadata("design:type", Number)
], WeatherReport.prototype, "temperature", void 0);
__decorate([
    (0, dto_1.Property)({ description: "A short description, e.g. 'Sunny'." }),
    (0, dto_1.IsString)(),
    __metadata("design:type", String)
], WeatherReport.prototype, "conditions", void 0);
__decorate([
    (0, dto_1.IsIn)(['celsius']),
    __metadata("design:type", String)
], WeatherReport.prototype, "unit", void 0);
